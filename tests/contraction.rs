//! THEOREMS.md §4's exact grid values (tolerance 2e-3) reproduced by `contraction.main` and
//! `contraction.thm3` at their default grids, and theta's derivative in r against the
//! certificate of `contraction.gauss_kernel.step.monotone`.

use dpclaims::harness::{CheckOptions, check};
use dpclaims::verdict::Outcome;

fn outcomes(id: &str) -> Vec<Outcome> {
    check(
        &dpclaims::claims::registry(),
        &CheckOptions {
            patterns: vec![id.to_string()],
            seed: crate::SEED,
            ..CheckOptions::default()
        },
    )
    .expect("runs")
}

fn value(outcomes: &[Outcome], key: (&str, &str), t: u64, eps: f64) -> f64 {
    let o = outcomes
        .iter()
        .find(|o| {
            o.params.str(key.0).ok() == Some(key.1)
                && o.params.u64("T").ok() == Some(t)
                && o.params.f64("epsilon").ok() == Some(eps)
        })
        .unwrap_or_else(|| panic!("no outcome for {key:?} T={t} eps={eps}"));
    o.measured.mean
}

#[test]
fn grid_reference_table() {
    let main = outcomes("contraction.main");
    let table: &[(&str, u64, f64, f64)] = &[
        ("A_small", 5, 0.1, 0.4060),
        ("A_small", 5, 1.0, 0.3947),
        ("A_small", 20, 2.0, 0.7145),
        ("A_small", 50, 1.0, 0.9646),
        ("B_q0.5", 1, 0.1, 0.3089),
        ("B_q0.5", 5, 1.0, 0.3338),
        ("B_q0.5", 20, 2.0, 0.0529),
        ("B_q0.1", 20, 0.05, 0.1200),
        ("B_q0.1", 20, 0.25, 0.0538),
        ("B_q0.1", 5, 0.5, 0.0),
        ("C_large", 50, 0.05, 0.0),
        ("NC", 1, 0.05, 0.0228),
        ("NC", 5, 0.1, 0.0003),
        ("NC", 50, 0.05, 0.0199),
        ("P_B", 5, 0.05, 0.0682),
        ("P_B", 20, 0.25, 0.0160),
        ("P_A", 5, 1.0, 0.2808),
        ("P_A", 50, 0.05, 0.9601),
        ("K_full", 1, 1.0, 0.92671),
        ("K_full", 5, 2.0, 0.96663),
    ];
    for &(inst, t, eps, want) in table {
        let got = value(&main, ("instance", inst), t, eps);
        assert!(
            (got - want).abs() <= 2e-3,
            "{inst} T={t} eps={eps}: {got} vs {want}"
        );
    }
}

#[test]
fn regularised_grid_reference_table() {
    let reg = outcomes("contraction.thm3");
    for &(c, eps, t, want) in &[
        ("0.5", 0.5, 5, 0.01386),
        ("0.5", 1.0, 100, 0.00163),
        ("0.2", 0.5, 20, 0.00563),
        ("0.2", 1.0, 1, 0.00033),
    ] {
        let got = reg
            .iter()
            .find(|o| {
                o.params.f64("c").ok() == c.parse().ok()
                    && o.params.u64("T").ok() == Some(t)
                    && o.params.f64("epsilon").ok() == Some(eps)
            })
            .map(|o| o.measured.mean)
            .expect("outcome");
        assert!(
            (got - want).abs() <= 2e-4,
            "c={c} T={t} eps={eps}: {got} vs {want}"
        );
    }
}

/// `contraction.gauss_kernel.step.monotone` proves, by its certificate, that the derivative of
/// theta_eps(r) = Phi(r/2 - eps/r) - e^eps Phi(-r/2 - eps/r) in r is the density
/// phi(r/2 - eps/r); the chain rule behind it is checked here against theorems' theta itself
/// (central differences with step 1e-3 r: truncation about 1e-6 relative, theta's stated 2e-9
/// relative error divided by the step about 1e-6), where the density is not tiny.
#[test]
fn theta_derivative_in_r_is_the_density_of_the_certificate() {
    use dpclaims::theorems::contraction::theta;
    let mut n = 0;
    for eps in [0.0, 0.1, 0.5, 1.0, 3.0] {
        for r in [0.5, 1.0, 2.0, 4.0, 8.0] {
            let h = 1e-3 * r;
            let fd = (theta(eps, r + h).unwrap() - theta(eps, r - h).unwrap()) / (2.0 * h);
            let a: f64 = r / 2.0 - eps / r;
            let density = (-a * a / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
            if density < 1e-6 {
                continue;
            }
            assert!(
                (fd - density).abs() <= 1e-4 * density,
                "eps {eps}, r {r}: finite difference {fd} vs phi(a) = {density}"
            );
            n += 1;
        }
    }
    assert!(n >= 20, "only {n} points");
}
