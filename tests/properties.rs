//! Properties of the bound calculators (proptest) and of the estimators (quickcheck).

use dpclaims_empirical::runner::{Merge, fold};
use dpclaims_empirical::stats::{MeanAcc, Sides, student_t};
use dpclaims_theorems::stability::{lemma5_bound, lemma5_derived_bound, prop2_bound};
use proptest::prelude::*;
use quickcheck::{TestResult, quickcheck};

fn steps() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.0f64..2.0, 1..60)
}

proptest! {
    #[test]
    fn calculators_reject_bad_parameters(eta in steps(), g in 0.0f64..5.0, bad in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), -10.0f64..-1e-9]) {
        prop_assert_eq!(lemma5_bound(g, 0, &eta).unwrap_err().name, "n");
        prop_assert_eq!(prop2_bound(bad, 10, &eta).unwrap_err().name, "G");
        let mut with_bad = eta.clone();
        with_bad.push(bad);
        prop_assert!(lemma5_bound(g, 10, &with_bad).is_err());
        prop_assert!(prop2_bound(g, 10, &with_bad).is_err());
        prop_assert!(lemma5_bound(g, 10, &[]).is_err());
    }

    /// Both bounds grow with G and with t (more steps), and shrink with n.
    #[test]
    fn bounds_are_monotone(eta in steps(), extra in 0.0f64..2.0, g in 0.01f64..5.0, dg in 0.0f64..1.0, n in 1u64..10_000, dn in 1u64..100) {
        let mut longer = eta.clone();
        longer.push(extra);
        for f in [lemma5_bound, prop2_bound] {
            let b = f(g, n, &eta).unwrap();
            prop_assert!(f(g + dg, n, &eta).unwrap() >= b);
            prop_assert!(f(g, n + dn, &eta).unwrap() <= b);
            prop_assert!(f(g, n, &longer).unwrap() >= b);
        }
    }

    /// The derived form never exceeds the printed Lemma 5 when |c_s| <= 1 and h_s = eta_s.
    #[test]
    fn derived_bound_is_below_printed(eta in steps(), c in prop::collection::vec(-1.0f64..=1.0, 60), g in 0.01f64..5.0, n in 1u64..1000) {
        let h = &eta[1..];
        let c = &c[..h.len()];
        let derived = lemma5_derived_bound(g, n, h, c).unwrap();
        prop_assert!(derived <= lemma5_bound(g, n, &eta).unwrap() * (1.0 + 1e-12));
    }
}

fn acc(xs: &[f64]) -> MeanAcc {
    let mut a = MeanAcc::new();
    xs.iter().for_each(|x| a.push(*x));
    a
}

fn finite(xs: Vec<f64>) -> Vec<f64> {
    xs.into_iter()
        .filter(|x| x.is_finite() && x.abs() < 1e100)
        .collect()
}

quickcheck! {
    fn interval_contains_its_mean(xs: Vec<f64>, level: u8) -> TestResult {
        let xs = finite(xs);
        if xs.len() < 2 {
            return TestResult::discard();
        }
        let confidence = 0.5 + 0.49 * f64::from(level) / 255.0;
        let e = student_t(&acc(&xs), confidence, Sides::One, 0).unwrap();
        TestResult::from_bool(e.lower <= e.mean && e.mean <= e.upper && e.n == xs.len() as u64)
    }

    fn merged_slices_equal_one_pass(xs: Vec<f64>, cuts: Vec<usize>) -> TestResult {
        let xs: Vec<f64> = finite(xs).into_iter().map(|x| x % 1e6).collect();
        if xs.is_empty() {
            return TestResult::discard();
        }
        let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c % (xs.len() + 1)).collect();
        bounds.extend([0, xs.len()]);
        bounds.sort_unstable();
        bounds.dedup();
        let parts: Vec<MeanAcc> = bounds.windows(2).map(|w| acc(&xs[w[0]..w[1]])).collect();
        let merged = fold(parts).unwrap();
        let one = acc(&xs);
        let scale = one.mean.abs().max(one.max.abs()).max(1.0);
        let close = |a: f64, b: f64, s: f64| (a - b).abs() <= 1e-9 * s;
        TestResult::from_bool(
            merged.n == one.n
                && close(merged.mean, one.mean, scale)
                && close(merged.m2, one.m2, scale * scale * xs.len() as f64)
                && merged.min == one.min
                && merged.max == one.max,
        )
    }
}

#[test]
fn merging_an_empty_accumulator_is_the_identity() {
    let mut a = acc(&[1.0, 2.0, 4.0]);
    let before = a.clone();
    a.merge(MeanAcc::new());
    assert_eq!(a, before);
    let mut e = MeanAcc::new();
    e.merge(before.clone());
    assert_eq!(e, before);
}

mod accountants {
    use dpclaims_theorems::privacy::pld::{self, PldOptions};
    use dpclaims_theorems::privacy::rdp::{self, Conversion};
    use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling, gaussian};
    use proptest::prelude::*;

    fn mech(q: f64, sigma: f64, steps: u64) -> DpSgd {
        DpSgd::new(q, sigma, steps, Sampling::Poisson, Neighbouring::AddRemove).unwrap()
    }

    fn rdp_eps(q: f64, sigma: f64, steps: u64) -> f64 {
        rdp::dp_sgd_epsilon(&mech(q, sigma, steps), 1e-5, Conversion::Improved)
            .unwrap()
            .value
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// RDP epsilon is non-decreasing in T and q and non-increasing in sigma.
        #[test]
        fn rdp_epsilon_is_monotone(lq in -3.0f64..-1.0, sigma in 0.6f64..4.0, lt in 1.0f64..4.0, f in 1.0f64..2.0) {
            let (q, steps) = (10f64.powf(lq), 10f64.powf(lt) as u64);
            let e = rdp_eps(q, sigma, steps);
            // The order optimisation is a numerical minimum: allow 1e-9 relative slack.
            let tol = 1e-9 * e.max(1.0);
            prop_assert!(rdp_eps(q, sigma, (steps as f64 * f) as u64 + 1) >= e - tol);
            prop_assert!(rdp_eps((q * f).min(1.0), sigma, steps) >= e - tol);
            prop_assert!(rdp_eps(q, sigma * f, steps) <= e + tol);
        }

        /// The Gaussian profile is decreasing in epsilon and epsilon(delta) inverts it.
        #[test]
        fn gaussian_profile_inverts(mu in 0.05f64..10.0, ld in -12.0f64..-1.0) {
            let delta = 10f64.powf(ld);
            let eps = gaussian::epsilon(mu, delta).unwrap();
            if eps > 0.0 {
                let back = gaussian::delta(mu, eps).unwrap();
                prop_assert!((back - delta).abs() <= 1e-9 * delta, "{back} vs {delta}");
            }
            prop_assert!(gaussian::delta(mu, eps + 0.1).unwrap() <= delta);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// PLD: optimistic <= pessimistic, RDP >= optimistic, pessimistic monotone in T.
        #[test]
        fn pld_bracket_is_ordered(lq in -2.5f64..-1.0, sigma in 0.7f64..3.0, lt in 1.0f64..3.0) {
            let (q, steps) = (10f64.powf(lq), 10f64.powf(lt) as u64);
            let opts = PldOptions::default();
            let b = pld::dp_sgd_epsilon(&mech(q, sigma, steps), 1e-5, &opts).unwrap();
            prop_assert!(b.optimistic <= b.pessimistic + 1e-12, "{b:?}");
            prop_assert!(rdp_eps(q, sigma, steps) >= b.optimistic, "{b:?}");
            let longer = pld::dp_sgd_epsilon(&mech(q, sigma, 2 * steps), 1e-5, &opts).unwrap();
            prop_assert!(longer.pessimistic >= b.pessimistic - 1e-9, "{longer:?} vs {b:?}");
        }
    }
}
