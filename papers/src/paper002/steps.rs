//! Proof-step claims of seed 002 (Zhou, Chen, Hong, Wu, Banerjee 2020, arXiv 2006.13501). "All
//! the proofs are deferred to the Appendix", which our copy lacks; what survives are the printed
//! implications of the assumptions, Theorem 1's outline, Theorem 3's outline and Section 5's
//! comparison with uniform convergence. The one quantitative step there, Section 5's combination
//! of the empirical rate with the uniform-convergence rate, is checked here as printed and with
//! its missing hypothesis. The general inequalities the printed steps rest on (the norm of a
//! mean, the smoothness of a mean, Jensen for the output, the union bound, post-processing) are
//! checked at random instances, each with a mutant. The maps are in `src/proofs_002.rs`; the
//! findings in THEOREMS_NOTES.md ("Seed 002, proof maps").

use dpclaims_core::claim::{ClaimInfo, Mutant};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::step::{StepClaim, computed, is};
use dpclaims_core::verdict::Relation;
use dpclaims_theorems::{ParamError, error};

const PAPER: &str =
    "002_d8930a7d7ce102fa.txt — Zhou, Chen, Hong, Wu, Banerjee (2020), arXiv 2006.13501";

/// $R(p,\varepsilon)=\big(\frac{p^{1/4}}{\sqrt{n\varepsilon}}+\frac{\sqrt p}{\sqrt n}\big)\big/\frac{\sqrt p}{\sqrt{n\varepsilon}}=p^{-1/4}+\sqrt\varepsilon$
/// (independent of $n$): the combined uniform-convergence bound in units of the printed rate.
fn combined_ratio(case: &Params) -> Result<f64, ParamError> {
    let p = case.f64("p")?;
    if !(1.0..1e300).contains(&p) {
        return Err(ParamError::new("p", p, "a finite dimension p >= 1"));
    }
    let eps = error::open_interval("epsilon", case.f64("epsilon")?, 0.0, 1e300)?;
    Ok(p.powf(-0.25) + eps.sqrt())
}

fn grid(ps: &[f64], epsilons: &[f64]) -> Vec<Params> {
    let mut v = Vec::new();
    for &p in ps {
        for &e in epsilons {
            v.push(params! { "p" => p, "epsilon" => e, "C" => 2.0 });
        }
    }
    v
}

static COMBINE: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.uniform_convergence.step.combine",
        paper: PAPER,
        result: "Section 5 [as printed]: 'the uniform convergence approach, i.e., E||grad f(w_R) - grad f^(w_R)|| <= O(sqrt(p)/sqrt(n)) and E||grad f(w_R)|| <= O(sqrt(p)/sqrt(n eps))', from E||grad f^(w_R)|| <= O(p^(1/4)/sqrt(n eps)) (Theorems 4-6) by the triangle inequality",
        statement: "with both rates' constants 1, (p^(1/4)/sqrt(n eps) + sqrt(p)/sqrt(n)) / (sqrt(p)/sqrt(n eps)) = p^(-1/4) + sqrt(eps) <= C = 2 (the supremum over eps <= 1, p >= 1) for every eps > 0 (known false for eps > 1: no absolute C exists, the ratio grows like sqrt(eps); Theorem 1 allows any eps < c1 T)",
        mutants: &[],
        known_false: true,
        tautologies: &[],
        perturbation: None,
    },
    cases: || grid(&[16.0, 10_000.0], &[4.0, 100.0]),
    measure: |case, _| {
        let r = combined_ratio(case)?;
        let c = error::positive("C", case.f64("C")?)?;
        Ok(vec![computed(case.clone(), c, Relation::AtMost, r, 4.0, r)])
    },
};

const CONSTANT_1_5: Mutant = Mutant {
    name: "constant-1.5",
    description: "bound side: C = 1.5 in place of 2",
};

static COMBINE_CORRECTED: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.uniform_convergence.step.combine.corrected",
        paper: PAPER,
        result: "Section 5's combination, corrected [derived]: with the hypothesis eps <= 1 (unstated in the paper) E||grad f(w_R)|| <= O(p^(1/4)/sqrt(n eps)) + O(sqrt(p)/sqrt(n)) = O(sqrt(p)/sqrt(n eps)); for any eps the combined rate is O(sqrt(p/n) max(1, 1/sqrt(eps)))",
        statement: "p^(-1/4) + sqrt(eps) <= 2 for eps <= 1 and p >= 2 (tightest at eps = 1, p = 2: 1.841)",
        mutants: &[CONSTANT_1_5],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || grid(&[2.0, 16.0, 10_000.0], &[0.01, 0.5, 1.0]),
    measure: |case, run| {
        let r = combined_ratio(case)?;
        let eps = case.f64("epsilon")?;
        if eps > 1.0 {
            return Err(ParamError::new(
                "epsilon",
                eps,
                "eps <= 1 (the corrected step's hypothesis)",
            ));
        }
        let c = if is(run, &CONSTANT_1_5) {
            1.5
        } else {
            error::positive("C", case.f64("C")?)?
        };
        Ok(vec![computed(case.clone(), c, Relation::AtMost, r, 4.0, r)])
    },
};

// ---------------------------------------------------------------------------------------------
// Theorem 4's rate from its bound: the optimum at T* against the bound at the integer horizon run
// ---------------------------------------------------------------------------------------------

/// For one case: the bound $rac{2\Delta_f}{\eta T}+L\eta p\sigma^2$ at $\eta=1/L$, Theorem 1's
/// $\sigma$ and $T=\max(1,\mathrm{round}(T^\ast))$ (what `adaptive.thm4.derived` runs), the optimum
/// $2G\sqrt{2c_2L\Delta_fp\ln(1/\delta)}/(narepsilon)$, and $T^\ast$.
fn theorem4_pieces(case: &Params) -> Result<(f64, f64, f64), ParamError> {
    use dpclaims_theorems::adaptive::{theorem1_sigma, theorem4_bound, theorem4_horizon};
    let (n, p) = (case.u64("n")?, case.u64("p")?);
    let eps = case.f64("epsilon")?;
    let (l, delta_f, g, c2, delta) = (1.0, 1.0, 0.5f64.sqrt(), 8.0, 1e-5);
    let (t_star, optimum) = theorem4_horizon(delta_f, l, p, g, c2, n, eps, delta)?;
    let steps = (t_star.round() as u64).max(1);
    let sigma = theorem1_sigma(c2, g, steps, n, eps, delta)?;
    let bound = theorem4_bound(delta_f, 1.0 / l, steps, l, p, sigma)?;
    Ok((bound, optimum, t_star))
}

fn theorem4_cases() -> Vec<Params> {
    let mut v = Vec::new();
    for (n, eps) in [(20u64, 0.5), (50, 1.0), (500, 1.0), (5000, 0.5)] {
        for p in [2u64, 20, 200] {
            v.push(params! { "n" => n, "epsilon" => eps, "p" => p });
        }
    }
    v
}

static THM4_OPTIMUM: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.thm4.step.optimum",
        paper: PAPER,
        result: "Theorem 4's rate from its bound [derived thm4.derived; consistency]: the later result (the rate 2G sqrt(2 c2 L Delta_f p ln(1/delta))/(n eps), the optimum at T*) is obtained by plugging T = T* into the earlier one (2 Delta_f/(eta T) + L eta p sigma^2 at eta = 1/L, Theorem 1's sigma)",
        statement: "at the integer horizon the algorithm runs, T = max(1, round(T*)) (L = Delta_f = 1, G = 1/sqrt 2, c2 = 8, delta = 1e-5), the earlier bound <= the optimum (known false whenever T != T*: above by the factor 1 + x^2/(2(1 + x)), x = T/T* - 1; 1.00009 at n = 500, p = 20, 1.31 at T* = 0.47, 3.47 at T* = 0.15)",
        mutants: &[],
        known_false: true,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        theorem4_cases()
            .into_iter()
            .filter(|c| {
                // Only the cases where round(T*) != T* (all of them here; kept explicit).
                theorem4_pieces(c).is_ok_and(|(b, o, _)| b > o * (1.0 + 1e-9))
            })
            .collect()
    },
    measure: |case, _| {
        let (bound, optimum, t_star) = theorem4_pieces(case)?;
        let mut p = case.clone();
        p.set("T_star", t_star.into());
        Ok(vec![computed(
            p,
            optimum,
            Relation::AtMost,
            bound,
            16.0,
            bound,
        )])
    },
};

const EXCESS_HALVED: Mutant = Mutant {
    name: "excess-halved",
    description: "bound side: the rounding allowance 1/(4 T*(2 T* - 1)) halved",
};

static THM4_OPTIMUM_CORRECTED: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.thm4.step.optimum.corrected",
        paper: PAPER,
        result: "Theorem 4's rate at an integer horizon, corrected [derived]: with T = round(T*), T* >= 1, |x| <= 1/(2T*) and the bound is at most the optimum times 1 + 1/(4 T*(2 T* - 1)) (for T* < 1, T = 1, the factor is exactly (1 + T*^2)/(2 T*), an identity not checked)",
        statement: "the earlier bound at T = round(T*) <= optimum (1 + 1/(4 T*(2 T* - 1))) on the cases of adaptive.thm4.step.optimum with T* >= 1",
        mutants: &[EXCESS_HALVED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        theorem4_cases()
            .into_iter()
            .filter(|c| theorem4_pieces(c).is_ok_and(|(_, _, t)| t >= 1.0))
            .collect()
    },
    measure: |case, run| {
        let (bound, optimum, t_star) = theorem4_pieces(case)?;
        let half = if is(run, &EXCESS_HALVED) { 0.5 } else { 1.0 };
        if t_star < 1.0 {
            return Err(ParamError::new(
                "n",
                case.u64("n")?,
                format!("a case with T* >= 1 (T* = {t_star})"),
            ));
        }
        let factor = 1.0 + half / (4.0 * t_star * (2.0 * t_star - 1.0));
        let mut p = case.clone();
        p.set("T_star", t_star.into());
        Ok(vec![computed(
            p,
            optimum * factor,
            Relation::AtMost,
            bound,
            16.0,
            bound,
        )])
    },
};

// ---------------------------------------------------------------------------------------------
// The general inequalities the printed steps rest on, at random instances (theorems: a check
// can only catch a misapplied form, e.g. a wrong direction or a missing factor; each mutant
// shows that it would)
// ---------------------------------------------------------------------------------------------

/// `n` standard normal vectors in $\mathbb R^d$ scaled by `scale`; every fifth draw (index
/// divisible by 5) repeats one vector `n` times, where Jensen-type bounds are attained.
fn normal_vectors(
    rng: &mut dpclaims_empirical::rng::TrialRng,
    index: u64,
    n: usize,
    d: usize,
    scale: f64,
) -> Vec<Vec<f64>> {
    use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
    let mut draw = || -> Vec<f64> {
        (0..d)
            .map(|_| {
                let z: f64 = StandardNormal.sample(rng);
                scale * z
            })
            .collect()
    };
    if index % 5 == 0 {
        vec![draw(); n]
    } else {
        (0..n).map(|_| draw()).collect()
    }
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

const HALF_BOUND: Mutant = Mutant {
    name: "half-bound",
    description: "bound side halved",
};

/// Validated `draws` (at most $10^5$) and `tolerance` (in $(0,10^{-3})$) of a case.
fn draws_and_tolerance(case: &Params) -> Result<(u64, f64), ParamError> {
    let n = case.u64("draws")?;
    if n > 100_000 {
        return Err(ParamError::new("draws", n, "at most 10^5 draws"));
    }
    Ok((
        n,
        error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?,
    ))
}

static MEAN_GRADIENT: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.assumptions.step.mean_gradient",
        paper: PAPER,
        result: "'this assumption implies that the population gradient and empirical gradient are also bounded': ||(1/n) sum_i grad l(w, z_i)|| <= (1/n) sum_i ||grad l(w, z_i)|| <= G (the norm of a mean is at most the mean of the norms)",
        statement: "largest ||mean of g_i|| / mean of ||g_i|| <= 1 over random sets of n = 8 per-example gradients in R^5 (standard normal, scaled 0.1 to 10; every fifth set all equal, where it is attained), to the relative tolerance 1e-12",
        mutants: &[HALF_BOUND],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.1, 1.0, 10.0]
            .iter()
            .map(|s| params! { "scale" => *s, "draws" => 200, "tolerance" => 1e-12 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::worst_ratio;
        use dpclaims_empirical::rng::StreamKey;
        let scale = error::positive("scale", case.f64("scale")?)?;
        let (n, tolerance) = draws_and_tolerance(case)?;
        let key = StreamKey::new(
            run.seed,
            &["adaptive.assumptions.step.mean_gradient", "draws"],
        );
        let factor = if is(run, &HALF_BOUND) { 0.5 } else { 1.0 };
        let worst = worst_ratio((0..n).map(|i| {
            let g = normal_vectors(&mut key.trial(i), i, 8, 5, scale);
            let mean: Vec<f64> = (0..5)
                .map(|j| g.iter().map(|v| v[j]).sum::<f64>() / 8.0)
                .collect();
            (
                norm(&mean),
                factor * g.iter().map(|v| norm(v)).sum::<f64>() / 8.0,
            )
        }));
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

static MEAN_SMOOTHNESS: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.assumptions.step.mean_smoothness",
        paper: PAPER,
        result: "'Assumption 2 implies the population loss f(w) and empirical loss f^(w) also have L-Lipschitz gradient and bounded from below': ||grad f^(w) - grad f^(w')|| <= (1/n) sum_i ||grad l_i(w) - grad l_i(w')|| <= L ||w - w'||, and a mean of functions >= b is >= b",
        statement: "the gradient part, on per-example losses l_i(w) = w^T A_i w/2 + c_i^T w with symmetric A_i of spectral norm L = 1 (L-smooth): over random sets of n = 8 in R^4 (every fifth set all equal, where it is attained), the largest ||grad f^(w) - grad f^(w')|| / (L ||w - w'||) at random w, w' is <= 1, to the relative tolerance 1e-9 (the bounded-below part, a mean of numbers >= b, is not measured)",
        mutants: &[HALF_BOUND],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || vec![params! { "draws" => 200, "tolerance" => 1e-9 }],
    measure: |case, run| {
        use dpclaims_empirical::contraction::worst_ratio;
        use dpclaims_empirical::rng::StreamKey;
        use nalgebra::{DMatrix, DVector};
        let (n, tolerance) = draws_and_tolerance(case)?;
        let key = StreamKey::new(
            run.seed,
            &["adaptive.assumptions.step.mean_smoothness", "draws"],
        );
        let factor = if is(run, &HALF_BOUND) { 0.5 } else { 1.0 };
        let d = 4;
        let worst = worst_ratio((0..n).map(|i| {
            let mut rng = key.trial(i);
            // A_i = Q diag(lambda) Q^T with |lambda| <= 1, the largest |lambda| = 1.
            let mats: Vec<DMatrix<f64>> = normal_vectors(&mut rng, i, 8, d * d + d, 1.0)
                .iter()
                .map(|v| {
                    let g = DMatrix::<f64>::from_column_slice(d, d, &v[..d * d]);
                    let q = g.qr().q();
                    let mut lambda: Vec<f64> = v[d * d..].iter().map(|x| x.tanh()).collect();
                    let top = lambda.iter().map(|x| x.abs()).fold(0.0, f64::max);
                    lambda.iter_mut().for_each(|x| *x /= top);
                    &q * DMatrix::from_diagonal(&DVector::from_vec(lambda)) * q.transpose()
                })
                .collect();
            let mean = mats.iter().fold(DMatrix::<f64>::zeros(d, d), |a, m| a + m) / 8.0;
            let pts = normal_vectors(&mut rng, 1, 2, d, 1.0);
            let (w, w2) = (
                DVector::from_vec(pts[0].clone()),
                DVector::from_vec(pts[1].clone()),
            );
            // The linear parts cancel in the gradient difference: grad f^(w) - grad f^(w') = A (w - w').
            ((&mean * (&w - &w2)).norm(), factor * (&w - &w2).norm())
        }));
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

static JENSEN_ROOT: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.uniform_convergence.step.jensen",
        paper: PAPER,
        result: "Section 5: E||grad f^(w_R)|| <= sqrt(E||grad f^(w_R)||^2) (Jensen, for the random output w_R)",
        statement: "largest E||X|| / sqrt(E||X||^2) <= 1 over random laws of X: n = 8 equally likely vectors in R^5 (standard normal, scaled 0.1 to 10; every fifth law with all vectors equal, where it is attained), to the relative tolerance 1e-12",
        mutants: &[HALF_BOUND],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.1, 1.0, 10.0]
            .iter()
            .map(|s| params! { "scale" => *s, "draws" => 200, "tolerance" => 1e-12 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::worst_ratio;
        use dpclaims_empirical::rng::StreamKey;
        let scale = error::positive("scale", case.f64("scale")?)?;
        let (n, tolerance) = draws_and_tolerance(case)?;
        let key = StreamKey::new(
            run.seed,
            &["adaptive.uniform_convergence.step.jensen", "draws"],
        );
        let factor = if is(run, &HALF_BOUND) { 0.5 } else { 1.0 };
        let worst = worst_ratio((0..n).map(|i| {
            let x = normal_vectors(&mut key.trial(i), i, 8, 5, scale);
            let mean_norm = x.iter().map(|v| norm(v)).sum::<f64>() / 8.0;
            let mean_square = x.iter().map(|v| norm(v).powi(2)).sum::<f64>() / 8.0;
            (mean_norm, factor * mean_square.sqrt())
        }));
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

const LARGEST_ONLY: Mutant = Mutant {
    name: "largest-only",
    description: "bound side: the largest P(A_i) instead of their sum",
};

static UNION_BOUND: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.thm3.step.union_bound",
        paper: PAPER,
        result: "Theorem 3's outline: 'with high probability across all iterations', a union bound over the T iterations and p coordinates: P(union_i A_i) <= sum_i P(A_i)",
        statement: "largest P(union of A_i) / sum_i P(A_i) <= 1 over random events A_1..A_6 of a random law on 40 outcomes (each outcome in each event with probability 0.1 to 0.5; every fifth family disjoint, where it is attained), to the relative tolerance 1e-12",
        mutants: &[LARGEST_ONLY],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.1, 0.3, 0.5]
            .iter()
            .map(|r| params! { "rate" => *r, "draws" => 200, "tolerance" => 1e-12 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{random_sparse_law, worst_ratio};
        use dpclaims_empirical::rng::StreamKey;
        use rand::RngExt;
        let rate = error::open_interval("rate", case.f64("rate")?, 0.0, 1.0)?;
        let (n, tolerance) = draws_and_tolerance(case)?;
        let key = StreamKey::new(run.seed, &["adaptive.thm3.step.union_bound", "draws"]);
        let largest_only = is(run, &LARGEST_ONLY);
        let worst = worst_ratio((0..n).map(|i| {
            let mut rng = key.trial(i);
            let law = random_sparse_law(40, 40, &mut rng);
            // Event membership: disjoint blocks every fifth family, else independent coins.
            let inside = |rng: &mut dpclaims_empirical::rng::TrialRng, e: usize, x: usize| {
                if i % 5 == 0 {
                    x % 6 == e
                } else {
                    rng.random_bool(rate)
                }
            };
            let events: Vec<Vec<bool>> = (0..6)
                .map(|e| (0..40).map(|x| inside(&mut rng, e, x)).collect())
                .collect();
            let prob = |a: &[bool]| {
                a.iter()
                    .zip(&law)
                    .filter(|(x, _)| **x)
                    .map(|(_, p)| p)
                    .sum::<f64>()
            };
            let union: Vec<bool> = (0..40).map(|x| events.iter().any(|a| a[x])).collect();
            let each: Vec<f64> = events.iter().map(|a| prob(a)).collect();
            let bound = if largest_only {
                each.iter().copied().fold(0.0, f64::max)
            } else {
                each.iter().sum()
            };
            (prob(&union), bound)
        }));
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

static POST_PROCESSING: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "adaptive.thm1.step.post_processing",
        paper: PAPER,
        result: "Theorem 1's outline: 'DPAGD is a composition of T Gaussian Mechanism'; phi_t, psi_t and the update read only the noisy gradients (post-processing: E_eps(f#P || f#Q) <= E_eps(P || Q) for a map f of the releases)",
        statement: "largest E_eps(f#P || f#Q) / E_eps(P || Q) <= 1 for the Gaussian release discretised on 12 cells (P = N(1, sigma^2), Q = N(0, sigma^2), sigma in {0.5, 1, 2}, cells of width 0.5 and two tails, themselves a map of the release) and maps f: the identity and random maps onto 2..6 values, to the relative tolerance 1e-9",
        mutants: &[HALF_BOUND],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for sigma in [0.5, 1.0, 2.0] {
            for eps in [0.0, 1.0] {
                v.push(params! { "sigma" => sigma, "epsilon" => eps, "draws" => 200, "tolerance" => 1e-9 });
            }
        }
        v
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{dpi_worst_ratio, hockey_stick};
        use dpclaims_empirical::rng::StreamKey;
        use dpclaims_theorems::numerics::norm_cdf;
        let sigma = error::positive("sigma", case.f64("sigma")?)?;
        let eps = error::non_negative("epsilon", case.f64("epsilon")?)?;
        let (n, tolerance) = draws_and_tolerance(case)?;
        let key = StreamKey::new(run.seed, &["adaptive.thm1.step.post_processing", "draws"]);
        let factor = if is(run, &HALF_BOUND) { 0.5 } else { 1.0 };
        let cells = |mean: f64| -> Vec<f64> {
            let cdf = |x: f64| norm_cdf((x - mean) / sigma);
            let edges: Vec<f64> = (0..=10).map(|k| -2.0 + 0.5 * k as f64).collect();
            let mut out = vec![cdf(edges[0])];
            out.extend(edges.windows(2).map(|w| cdf(w[1]) - cdf(w[0])));
            out.push(norm_cdf(-(edges[10] - mean) / sigma));
            out
        };
        let (p, q) = (cells(1.0), cells(0.0));
        let worst = dpi_worst_ratio(
            &key,
            n,
            factor,
            |_| (p.clone(), q.clone()),
            |a, b| hockey_stick(a, b, eps),
        );
        Ok(vec![computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        )])
    },
};

/// The step claims of seed 002, in registry order.
pub fn claims() -> Vec<&'static dyn dpclaims_core::claim::Claim> {
    vec![
        &COMBINE,
        &COMBINE_CORRECTED,
        &THM4_OPTIMUM,
        &THM4_OPTIMUM_CORRECTED,
        &MEAN_GRADIENT,
        &MEAN_SMOOTHNESS,
        &JENSEN_ROOT,
        &UNION_BOUND,
        &POST_PROCESSING,
    ]
}
