//! Proof-step claims of seed 001 (Asoodeh, Diaz 2023, arXiv 2305.09903). Our copy keeps the
//! proofs' outlines in prose only (Appendix B and the displays are lost), so the steps are those
//! of the outlines, in THEOREMS.md §4's reconstruction: the cited triangle inequality of Liu,
//! Cuff and Verdú that Theorem 3 applies twice, Proposition 4's total-variation step (Monte
//! Carlo), and the consistency of eq. (5) and Appendix A across horizons. The maps are in
//! [`dpclaims_core::proofs`] (`src/proofs_001.rs`); the findings in THEOREMS_NOTES.md ("Seed 001, proof
//! maps").

use dpclaims_core::claim::{ClaimInfo, Measurement, Mutant, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::step::{StepClaim, computed, is, plus_error};
use dpclaims_core::verdict::Relation;
use dpclaims_theorems::contraction::{self as bounds, RadiusRule, Regularised};
use dpclaims_theorems::{ParamError, error};

const PAPER: &str = "001_34c1b2bc7e1d7728.txt — Asoodeh, Diaz (2023), arXiv 2305.09903";

/// A bound on the relative error of one $\theta_\varepsilon(r)$ value: the Gaussian mechanism's
/// $\delta$ is validated against high-precision references to $2\cdot10^{-9}$ relative
/// (`theorems::contraction` tests), so $10^{-8}$ per value is a stated margin.
const THETA_RELATIVE_ERROR: f64 = 1e-8;

// ---------------------------------------------------------------------------------------------
// Theorem 3's proof: the triangle inequality of Liu, Cuff, Verdú (2016), applied twice
// ---------------------------------------------------------------------------------------------

const WITHOUT_EXP: Mutant = Mutant {
    name: "without-exp-eps1",
    description: "bound side: E_eps1(P||Q) + E_eps2(Q||R), without the factor e^eps1",
};

/// The shifts of the Gaussian triples $P=\mathcal N(a\pm b,1)$, $Q=\mathcal N(a,1)$, $R=\mathcal N(0,1)$.
const SHIFTS: [f64; 8] = [0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 4.0, 8.0];

static LCV: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.thm3.step.lcv",
        paper: PAPER,
        result: "Theorem 3's proof 'relies on a triangle inequality for the hockey-stick divergence proved by Liu et al. [LCV16]' [as printed, prose; form recalled]: E_{eps1+eps2}(P||R) <= E_eps1(P||Q) + e^eps1 E_eps2(Q||R), eps1, eps2 >= 0",
        statement: "largest ratio E_{eps1+eps2}(P||R) / (E_eps1(P||Q) + e^eps1 E_eps2(Q||R)) <= 1 over Gaussian triples P = N(a +- b, 1), Q = N(a, 1), R = N(0, 1) (a, b in {0.1, ..., 8}; E_eps(N(x,1)||N(y,1)) = theta_eps(|x - y|)) and 300 random sparse triples on 12 states, to the stated relative tolerance 1e-7 (above the 4e-8 error of theta; the inequality is attained: equality on some discrete triples)",
        mutants: &[WITHOUT_EXP],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [(0.0, 0.5), (0.5, 0.0), (1.0, 1.0), (0.5, 2.0), (2.0, 0.5), (0.1, 0.1)]
            .iter()
            .map(|(a, b)| params! { "epsilon1" => *a, "epsilon2" => *b, "triples" => 300, "tolerance" => 1e-7 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{hockey_stick, random_sparse_law};
        use dpclaims_empirical::rng::StreamKey;
        let e1 = error::non_negative("epsilon1", case.f64("epsilon1")?)?;
        let e2 = error::non_negative("epsilon2", case.f64("epsilon2")?)?;
        let triples = case.u64("triples")?;
        if triples > 100_000 {
            return Err(ParamError::new("triples", triples, "at most 10^5 triples"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let g = if is(run, &WITHOUT_EXP) { 1.0 } else { e1.exp() };
        // Ratios whose right side is below this are skipped (the left side is then 0 or
        // numerically meaningless).
        let floor = 1e-12;
        let mut worst: f64 = 0.0;
        for &a in &SHIFTS {
            for &b in &SHIFTS {
                for p in [a + b, a - b] {
                    let lhs = bounds::theta(e1 + e2, p.abs())?;
                    let rhs = bounds::theta(e1, b)? + g * bounds::theta(e2, a)?;
                    if rhs > floor {
                        worst = worst.max(lhs / rhs);
                    }
                }
            }
        }
        let key = StreamKey::new(
            run.seed,
            &["contraction.thm3.step.lcv", "random sparse triples"],
        );
        for i in 0..triples {
            let mut rng = key.trial(i);
            let (p, q, r) = (
                random_sparse_law(12, 4, &mut rng),
                random_sparse_law(12, 4, &mut rng),
                random_sparse_law(12, 4, &mut rng),
            );
            let lhs = hockey_stick(&p, &r, e1 + e2);
            let rhs = hockey_stick(&p, &q, e1) + g * hockey_stick(&q, &r, e2);
            if rhs > floor {
                worst = worst.max(lhs / rhs);
            }
        }
        // Each ratio errs by at most 3 theta errors relative (plus the discrete sums' rounding,
        // 12 terms, far smaller).
        let m = computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        );
        Ok(vec![plus_error(m, 4.0 * THETA_RELATIVE_ERROR * worst)])
    },
};

// ---------------------------------------------------------------------------------------------
// Proposition 4: the auxiliary process equals regularised DP-SGD outside an event of
// probability tau_T(kappa)
// ---------------------------------------------------------------------------------------------

const TAU_ONE_STEP: Mutant = Mutant {
    name: "tau-one-step",
    description: "bound side: tau_1(kappa) (one step's chi-square tail) in place of tau_T(kappa)",
};

fn prop4_cases() -> Vec<Params> {
    let mut v = Vec::new();
    for rule in ["lin", "sum"] {
        // (In one dimension at T = 1 the frequency is half of tau_1: not resolvable with the
        // 200 paths `dpclaims proofs` runs, at every seed.)
        for (d, kappa, horizons) in [
            (1u64, 1.0, &[20u64][..]),
            (1, 2.0, &[20][..]),
            (10, 3.5, &[1, 20][..]),
        ] {
            for &t in horizons {
                v.push(params! {
                    "rule" => rule, "d" => d, "kappa" => kappa, "T" => t, "c" => 0.5,
                    "eta" => 1.0, "C" => 1.0, "sigma" => 1.0, "trials" => 20_000,
                });
            }
        }
    }
    v
}

static PROP4_TV: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.prop4.step.tv",
        paper: PAPER,
        result: "Proposition 4 [reconstructed; intuition (i) as printed, prose: 'if kappa is large enough then ||W_t|| <= r_t with high probability']: under the synchronous coupling TV(P_W~T, P_WT) <= P(some projection Pi_t is active) <= tau_T(kappa), r-lin (pathwise: ||Z_s|| <= kappa for all s) and r-sum (union bound over t of the Gaussian part's chi-square tail)",
        statement: "regularised DP-SGD W~_t = c W~_{t-1} + eta C W~/||W~|| + sigma Z_t (the clipped gradient pushing outward, the worst case for the radius), W~_0 = 0: the frequency of paths with ||W~_t|| > r_t for some t <= T (Clopper-Pearson) <= tau_T(kappa)",
        mutants: &[TAU_ONE_STEP],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: prop4_cases,
    measure: |case, run| {
        use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
        use dpclaims_empirical::rng::StreamKey;
        use dpclaims_empirical::runner::{run_blocks, trial_range};
        use dpclaims_empirical::stats::CountAcc;
        let rule = match case.choice("rule", &["lin", "sum"])?.as_str() {
            "lin" => RadiusRule::Linear,
            _ => RadiusRule::Sum,
        };
        let d = case.u64("d")?;
        if !(1..=1000).contains(&d) {
            return Err(ParamError::new("d", d, "a dimension in [1, 1000]"));
        }
        let steps = case.u64("T")?;
        if !(1..=10_000).contains(&steps) {
            return Err(ParamError::new("T", steps, "an integer in [1, 10^4]"));
        }
        let kappa = error::positive("kappa", case.f64("kappa")?)?;
        let reg = Regularised {
            c: case.f64("c")?,
            eta: case.f64("eta")?,
            clip: case.f64("C")?,
            sigma: case.f64("sigma")?,
            q: 0.1,
            dim: d,
            rule,
        };
        reg.delta_at(0.0, 1, kappa)?; // validates c, eta, C, sigma
        let trials = error::at_least("trials", case.u64("trials")?, 1)?;
        let radii = reg.radii(kappa, steps);
        let bound = reg.tau(kappa, if is(run, &TAU_ONE_STEP) { 1 } else { steps });
        let key = StreamKey::new(
            run.seed,
            &[
                "contraction.prop4.step.tv",
                &dpclaims_core::claim::stream_label(case, &["kappa"]),
            ],
        );
        let (c, push, sigma) = (reg.c, reg.eta * reg.clip, reg.sigma);
        let blocks = run_blocks(
            trial_range(trials, run.shard),
            || (vec![0.0; d as usize], CountAcc::default()),
            |w: &mut Vec<f64>, acc: &mut CountAcc, i| {
                let mut rng = key.trial(i);
                w.iter_mut().for_each(|x| *x = 0.0);
                let mut exited = false;
                for r in radii.iter().skip(1) {
                    let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
                    for (j, x) in w.iter_mut().enumerate() {
                        // Outward unit direction (e1 at the origin).
                        let dir = if norm > 0.0 {
                            *x / norm
                        } else if j == 0 {
                            1.0
                        } else {
                            0.0
                        };
                        let z: f64 = StandardNormal.sample(&mut rng);
                        *x = c * *x + push * dir + sigma * z;
                    }
                    if w.iter().map(|x| x * x).sum::<f64>().sqrt() > *r {
                        exited = true;
                        break;
                    }
                }
                acc.push(exited);
            },
        );
        Ok(vec![Measurement {
            params: case.clone(),
            bound,
            relation: Relation::AtMost,
            statistic: Statistic::Proportion { blocks },
        }])
    },
};

// ---------------------------------------------------------------------------------------------
// Eq. (5) and Appendix A across horizons: the later bound is at least the earlier one
// ---------------------------------------------------------------------------------------------

const REVERSED: Mutant = Mutant {
    name: "reversed",
    description: "measurement side: the ratio of the earlier horizon's value to the later one's inverted (claims the bound decreases in T)",
};

/// The grid of $(q,\bar r)$ the consistency scan covers.
const Q_GRID: [f64; 5] = [0.001, 0.01, 0.1, 0.5, 1.0];
const R_GRID: [f64; 5] = [0.25, 1.0, 2.0, 4.0, 10.0];
/// Horizons compared, each against the next; `None` is $T=\infty$.
const HORIZONS: [Option<u64>; 7] = [
    Some(1),
    Some(2),
    Some(5),
    Some(10),
    Some(50),
    Some(500),
    None,
];

static MAIN_MONOTONE: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.main.step.monotone",
        paper: PAPER,
        result: "eq. (5) and Appendix A [reconstructed; as printed, prose: 'a convergent upper bound on delta ... we can convert it to a convergent upper bound on eps'], consistency between horizons: delta_T(eps) <= delta_{T'}(eps) <= delta_inf(eps) and eps_T(delta) <= eps_{T'}(delta) <= eps_inf(delta) for T < T'",
        statement: "largest ratio earlier/later over q in {0.001, ..., 1}, r_bar in {0.25, ..., 10}, horizons 1 < 2 < 5 < 10 < 50 < 500 < inf, at each eps (delta_T) or delta (eps_T, Appendix A's bisection): <= 1, to the stated relative tolerance 1e-9 (equality is part of the claim: at q = 1 delta_T = theta for every T, and delta_500 = delta_inf to rounding)",
        mutants: &[REVERSED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for eps in [0.1, 1.0, 3.0] {
            v.push(params! { "quantity" => "delta_T", "epsilon" => eps, "tolerance" => 1e-9 });
        }
        for delta in [1e-5, 1e-3] {
            v.push(params! { "quantity" => "eps_T", "delta" => delta, "tolerance" => 1e-9 });
        }
        v
    },
    measure: |case, run| {
        let delta_side = case.choice("quantity", &["delta_T", "eps_T"])? == "delta_T";
        let level = if delta_side {
            error::non_negative("epsilon", case.f64("epsilon")?)?
        } else {
            error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?
        };
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let mut worst: f64 = 0.0;
        for &q in &Q_GRID {
            for &r in &R_GRID {
                let values = HORIZONS
                    .iter()
                    .map(|&t| {
                        if delta_side {
                            bounds::delta_t(level, t, q, r)
                        } else {
                            bounds::epsilon_t(level, t, q, r)
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                for w in values.windows(2) {
                    let (earlier, later) = if is(run, &REVERSED) {
                        (w[1], w[0])
                    } else {
                        (w[0], w[1])
                    };
                    if later > 0.0 {
                        worst = worst.max(earlier / later);
                    } else if earlier > 0.0 {
                        worst = f64::INFINITY;
                    }
                }
            }
        }
        // delta_T is a closed form of a few operations; eps_T is a bisection to adjacent floats.
        let mut m = computed(
            case.clone(),
            1.0 + tolerance,
            Relation::AtMost,
            worst,
            64.0,
            worst,
        );
        // An infinite ratio is set on purpose (an exact zero after a positive value): exact.
        if let (true, dpclaims_core::claim::Statistic::Computed { error, .. }) =
            (worst.is_infinite(), &mut m.statistic)
        {
            *error = 0.0;
        }
        Ok(vec![m])
    },
};

// ---------------------------------------------------------------------------------------------
// Appendix A: eps_T(delta) is the monotone inversion of eq. (5)
// ---------------------------------------------------------------------------------------------

const EPS_HALVED: Mutant = Mutant {
    name: "epsilon-halved",
    description: "measurement side: eps_T(delta)/2 in place of theorems::contraction::epsilon_t's value (not feasible: delta_T above delta)",
};

const EPS_DOUBLED: Mutant = Mutant {
    name: "epsilon-doubled",
    description: "measurement side: 2 eps_T(delta) in place of theorems::contraction::epsilon_t's value (feasible but not the infimum)",
};

/// The grid of the inversion claim: $(q,\bar r)$ and the horizons ($T=\infty$ as `None`).
const INVERSION_Q: [f64; 3] = [0.01, 0.1, 1.0];
const INVERSION_R: [f64; 4] = [0.5, 1.0, 2.0, 4.0];
const INVERSION_T: [Option<u64>; 3] = [Some(1), Some(10), None];

/// How far below $\hat\varepsilon$ the infimum is checked: $\delta_T(\hat\varepsilon(1-\rho))>\delta$.
const INVERSION_RHO: f64 = 1e-4;

/// An enclosure of eq. (5)'s $\delta_T(\varepsilon)=g_T(\theta_\varepsilon(\bar r))$, computed
/// independently of `theorems` (its $\Phi$ from `erfc` in interval arithmetic, rounded outward,
/// [`dpclaims_core::interval`]): $\theta=\Phi(\frac r2-\frac\varepsilon r)-e^\varepsilon\Phi(-\frac r2-\frac\varepsilon r)$,
/// $g_T(x)=qx\frac{1-a^T}{1-a}$, $a=(1-q)x$ ($\frac{qx}{1-a}$ at $T=\infty$).
fn delta_t_enclosure(eps: f64, steps: Option<u64>, q: f64, r: f64) -> dpclaims_core::interval::I {
    use dpclaims_core::interval::{I, Real};
    let (e, r, q) = (I::point(eps), I::point(r), I::point(q));
    let one = I::point(1.0);
    let a = r / I::point(2.0) - e / r;
    let b = -(r / I::point(2.0)) - e / r;
    let x = a.phi() - e.exp() * b.phi();
    let x = I::new(x.lo.max(0.0), x.hi);
    let rate = (one - q) * x;
    match steps {
        Some(t) => q * x * (one - rate.powi(t as u32)) / (one - rate),
        None => q * x / (one - rate),
    }
}

static APPA_INVERSION: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.appA.step.inversion",
        paper: PAPER,
        result: "Appendix A [reconstructed]: eps_T(delta) = inf{eps : delta_T(eps) <= delta}, by monotone inversion of eq. (5) (delta_T(eps) = g_T(theta_eps(r_bar)) decreases in eps); theorems::contraction::epsilon_t bisects on eps",
        statement: "over q in {0.01, 0.1, 1}, r_bar in {0.5, 1, 2, 4}, T in {1, 10, inf}, with eps^ = epsilon_t(delta, T, q, r_bar) and delta_T enclosed independently (interval Phi from erfc): (feasible) the largest upper end of delta_T(eps^)/delta <= 1 + 1e-6 (the bisection runs on theorems' theta, accurate to 1e-8 relative, which g_T's elasticity, at most 1/q = 100 here, amplifies), and (infimum) the smallest lower end of delta_T(eps^ (1 - 1e-4))/delta >= 1 (points with eps^ = 0 have nothing below)",
        mutants: &[EPS_HALVED, EPS_DOUBLED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [1e-5, 1e-3, 0.1]
            .iter()
            .map(|d| params! { "delta" => *d, "tolerance" => 1e-6 })
            .collect()
    },
    measure: |case, run| {
        let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let scale = if is(run, &EPS_HALVED) {
            0.5
        } else if is(run, &EPS_DOUBLED) {
            2.0
        } else {
            1.0
        };
        let (mut feasible, mut infimum) = (f64::NEG_INFINITY, f64::INFINITY);
        for &q in &INVERSION_Q {
            for &r in &INVERSION_R {
                for &t in &INVERSION_T {
                    let eps = scale * bounds::epsilon_t(delta, t, q, r)?;
                    let at = delta_t_enclosure(eps, t, q, r);
                    feasible = feasible.max(at.hi / delta);
                    if eps > 0.0 {
                        let below = delta_t_enclosure(eps * (1.0 - INVERSION_RHO), t, q, r);
                        infimum = infimum.min(below.lo / delta);
                    }
                }
            }
        }
        // The ends are rigorous enclosures; the division by delta rounds by half an ulp.
        let m = |bound, relation, value: f64| {
            computed(case.clone(), bound, relation, value, 1.0, value)
        };
        let mut out = vec![m(1.0 + tolerance, Relation::AtMost, feasible)];
        if infimum.is_finite() {
            out.push(m(1.0, Relation::AtLeast, infimum));
        }
        Ok(out)
    },
};

// ---------------------------------------------------------------------------------------------
// Sec. II: the hockey-stick divergence between two Gaussians of the kernel is theta
// ---------------------------------------------------------------------------------------------

const THETA_EXP_MINUS: Mutant = Mutant {
    name: "theta-exp-minus-eps",
    description: "bound side: Phi(a) - e^{-eps} Phi(b) for theta_eps",
};

const OVER_SIGMA_SQUARED: Mutant = Mutant {
    name: "distance-over-sigma-squared",
    description: "bound side: theta_eps(||x1 - x2||/sigma^2) for theta_eps(||x1 - x2||/sigma)",
};

/// Cells per axis of the hockey-stick quadrature.
const HOCKEY_CELLS: usize = 1200;

/// $\mathsf E_\varepsilon(\mathcal N(x_2,\sigma^2I_2)\Vert\mathcal N(x_1,\sigma^2I_2))=\int(p-e^\varepsilon q)_+$
/// in two dimensions by the midpoint rule on a square of half-width
/// $\Vert x_2-x_1\Vert/2+9\sigma$ around the two means' midpoint (`cells` per axis): from the
/// definition, with no reduction to one dimension.
fn hockey_stick_2d(eps: f64, sigma: f64, dx: f64, dy: f64, cells: usize) -> f64 {
    let half = 0.5 * dx.hypot(dy) + 9.0 * sigma;
    let h = 2.0 * half / cells as f64;
    let norm = 1.0 / (2.0 * std::f64::consts::PI * sigma * sigma);
    let (two_var, ee) = (2.0 * sigma * sigma, eps.exp());
    let mut total = 0.0;
    for i in 0..cells {
        let x = 0.5 * dx - half + (i as f64 + 0.5) * h;
        let mut row = 0.0;
        for j in 0..cells {
            let y = 0.5 * dy - half + (j as f64 + 0.5) * h;
            let q = (-(x * x + y * y) / two_var).exp();
            let p = (-((x - dx) * (x - dx) + (y - dy) * (y - dy)) / two_var).exp();
            row += (p - ee * q).max(0.0);
        }
        total += row;
    }
    total * norm * h * h
}

static HOCKEY_STICK: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.gauss_kernel.step.hockey_stick",
        paper: PAPER,
        result: "Sec. II proposition (reconstructed): E_eps(N(x1, sigma^2 I) || N(x2, sigma^2 I)) = theta_eps(||x1 - x2||/sigma) (rotation invariance and the one-dimensional Gaussian mechanism's delta, Balle and Wang 2018) [proof step, checked at instances]",
        statement: "in two dimensions, the integral of (p - e^eps q)_+ by the midpoint rule (1200^2 cells over +-(||x2 - x1||/2 + 9 sigma), no reduction to one dimension), at four (eps, sigma, x2 - x1) with x2 - x1 off the axes: 1 - 1e-4 <= integral/theta_eps(||x2 - x1||/sigma) <= 1 + 1e-4 (the quadrature's error, measured against a grid twice as fine, is below 2e-5)",
        mutants: &[THETA_EXP_MINUS, OVER_SIGMA_SQUARED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [
            (0.5, 1.0, 1.0, 0.5),
            (1.0, 0.5, 0.3, -0.4),
            (0.1, 2.0, 3.0, 4.0),
            (2.0, 1.0, 2.0, 2.0),
        ]
        .iter()
        .map(|&(e, s, dx, dy)| {
            params! { "epsilon" => e, "sigma" => s, "dx" => dx, "dy" => dy, "tolerance" => 1e-4 }
        })
        .collect()
    },
    measure: |case, run| {
        use dpclaims_core::interval::Real;
        let eps = error::non_negative("epsilon", case.f64("epsilon")?)?;
        let sigma = error::positive("sigma", case.f64("sigma")?)?;
        let (dx, dy) = (case.f64("dx")?, case.f64("dy")?);
        if !(dx.is_finite() && dy.is_finite() && dx.hypot(dy) > 0.0 && dx.hypot(dy) <= 50.0 * sigma)
        {
            return Err(ParamError::new(
                "dx",
                dx,
                "x2 - x1 = (dx, dy) nonzero with norm at most 50 sigma",
            ));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 0.1)?;
        let integral = hockey_stick_2d(eps, sigma, dx, dy, HOCKEY_CELLS);
        let dist = dx.hypot(dy);
        let theta = if is(run, &THETA_EXP_MINUS) {
            let r = dist / sigma;
            Real::phi(r / 2.0 - eps / r) - (-eps).exp() * Real::phi(-r / 2.0 - eps / r)
        } else if is(run, &OVER_SIGMA_SQUARED) {
            bounds::theta(eps, dist / (sigma * sigma))?
        } else {
            bounds::theta(eps, dist / sigma)?
        };
        let ratio = integral / theta;
        let m = |bound, relation| {
            let m = computed(
                case.clone(),
                bound,
                relation,
                ratio,
                (HOCKEY_CELLS * HOCKEY_CELLS) as f64,
                ratio,
            );
            plus_error(m, THETA_RELATIVE_ERROR * ratio)
        };
        Ok(vec![
            m(1.0 + tolerance, Relation::AtMost),
            m(1.0 - tolerance, Relation::AtLeast),
        ])
    },
};

// ---------------------------------------------------------------------------------------------
// Proposition 3's proof: joint convexity of E_eps and the data processing inequality of the
// projection (general inequalities, checked on random sparse laws)
// ---------------------------------------------------------------------------------------------

const SECOND_TERM_ONLY: Mutant = Mutant {
    name: "second-term-only",
    description: "bound side: q E_eps(P2||Q2) only (the batches without the differing index dropped)",
};

static JOINT_CONVEXITY: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.cdpi.step.joint_convexity",
        paper: PAPER,
        result: "Proposition 3's proof 'relies on the joint-convexity of the hockey-stick divergence' [as printed, prose]: E_eps((1-q) P1 + q P2 || (1-q) Q1 + q Q2) <= (1-q) E_eps(P1 || Q1) + q E_eps(P2 || Q2)",
        statement: "largest ratio of the left side to the right side <= 1 over random sparse quadruples (P1, P2, Q1, Q2) on 12 states (4 atoms each), to the relative tolerance 1e-9 (sums of 12 terms; equality when the pairs' likelihood ratios cross e^eps at the same states)",
        mutants: &[SECOND_TERM_ONLY],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        let mut v = Vec::new();
        for epsilon in [0.0, 0.5, 2.0] {
            for q in [0.1, 0.5] {
                v.push(params! { "epsilon" => epsilon, "q" => q, "quadruples" => 300, "tolerance" => 1e-9 });
            }
        }
        v
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{hockey_stick, random_sparse_law, worst_ratio};
        use dpclaims_empirical::rng::StreamKey;
        let eps = error::non_negative("epsilon", case.f64("epsilon")?)?;
        let q = error::open_interval("q", case.f64("q")?, 0.0, 1.0)?;
        let n = case.u64("quadruples")?;
        if n > 100_000 {
            return Err(ParamError::new("quadruples", n, "at most 10^5 quadruples"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let key = StreamKey::new(
            run.seed,
            &["contraction.cdpi.step.joint_convexity", "quadruples"],
        );
        let second_only = is(run, &SECOND_TERM_ONLY);
        let worst = worst_ratio((0..n).map(|i| {
            let mut rng = key.trial(i);
            let mut law = || random_sparse_law(12, 4, &mut rng);
            let (p1, p2, q1, q2) = (law(), law(), law(), law());
            let mix = |a: &[f64], b: &[f64]| -> Vec<f64> {
                a.iter()
                    .zip(b)
                    .map(|(x, y)| (1.0 - q) * x + q * y)
                    .collect()
            };
            let lhs = hockey_stick(&mix(&p1, &p2), &mix(&q1, &q2), eps);
            let first = if second_only {
                0.0
            } else {
                (1.0 - q) * hockey_stick(&p1, &q1, eps)
            };
            (lhs, first + q * hockey_stick(&p2, &q2, eps))
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

const HALVED: Mutant = Mutant {
    name: "halved",
    description: "bound side: half the divergence before the map",
};

static PROJECTION_DPI: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.cdpi.step.projection_dpi",
        paper: PAPER,
        result: "Proposition 3's proof: the data processing inequality for the projection Pi (a deterministic map): E_eps(Pi#P || Pi#Q) <= E_eps(P || Q)",
        statement: "largest ratio E_eps(f#P || f#Q) / E_eps(P || Q) <= 1 over random sparse pairs on 12 states (4 atoms each) and maps f: the identity and random maps onto 2..6 states, to the relative tolerance 1e-9 (equality at the identity)",
        mutants: &[HALVED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.0, 0.5, 2.0]
            .iter()
            .map(|e| params! { "epsilon" => *e, "pairs" => 300, "tolerance" => 1e-9 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::contraction::{dpi_worst_ratio, hockey_stick, random_sparse_law};
        use dpclaims_empirical::rng::StreamKey;
        let eps = error::non_negative("epsilon", case.f64("epsilon")?)?;
        let n = case.u64("pairs")?;
        if n > 100_000 {
            return Err(ParamError::new("pairs", n, "at most 10^5 pairs"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let key = StreamKey::new(run.seed, &["contraction.cdpi.step.projection_dpi", "pairs"]);
        let factor = if is(run, &HALVED) { 0.5 } else { 1.0 };
        let draw = |rng: &mut _| (random_sparse_law(12, 4, rng), random_sparse_law(12, 4, rng));
        let worst = dpi_worst_ratio(&key, n, factor, draw, |p, q| hockey_stick(p, q, eps));
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

const WITHOUT_TWO: Mutant = Mutant {
    name: "without-2",
    description: "bound side: eta C/|B| (the differing gradients' clipped difference taken as at most C)",
};

/// A gradient clipped to norm at most $C$.
fn clip(g: &[f64], c: f64) -> Vec<f64> {
    let norm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
    let scale = if norm > c { c / norm } else { 1.0 };
    g.iter().map(|x| x * scale).collect()
}

static LEMMA1_C: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "contraction.lemma1.step.differing_sample",
        paper: PAPER,
        result: "Lemma 1 (c) [reconstructed]: ||psi_B(w) - psi'_B(w)|| <= 2 eta C/|B| when the differing index i* is in the batch B (psi_B(w) = w - eta (1/|B|) sum_{i in B} clip_C(g_i)): only the differing sample's clipped gradient changes",
        statement: "largest ||psi_B(w) - psi'_B(w)|| / (2 eta C/|B|) <= 1 over random batches in R^3 (|B| = 4, C = 1, eta = 0.1; gradients N(0, s^2 I), s in {0.2, 1, 5}, the same others in both batches; every fifth pair antipodal, where it is attained), to the relative tolerance 1e-9",
        mutants: &[WITHOUT_TWO],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [0.2, 1.0, 5.0]
            .iter()
            .map(|s| params! { "scale" => *s, "batches" => 300, "tolerance" => 1e-9 })
            .collect()
    },
    measure: |case, run| {
        use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
        use dpclaims_empirical::rng::StreamKey;
        let scale = error::positive("scale", case.f64("scale")?)?;
        let n = case.u64("batches")?;
        if n > 100_000 {
            return Err(ParamError::new("batches", n, "at most 10^5 batches"));
        }
        let tolerance = error::open_interval("tolerance", case.f64("tolerance")?, 0.0, 1e-3)?;
        let (c, eta, b) = (1.0, 0.1, 4usize);
        let bound = if is(run, &WITHOUT_TWO) {
            eta * c / b as f64
        } else {
            2.0 * eta * c / b as f64
        };
        let key = StreamKey::new(
            run.seed,
            &["contraction.lemma1.step.differing_sample", "batches"],
        );
        let mut worst: f64 = 0.0;
        for i in 0..n {
            let mut rng = key.trial(i);
            let mut g = || -> Vec<f64> {
                (0..3)
                    .map(|_| {
                        let z: f64 = StandardNormal.sample(&mut rng);
                        scale * z
                    })
                    .collect::<Vec<f64>>()
            };
            let others: Vec<Vec<f64>> = (0..b - 1).map(|_| g()).collect();
            let x = g();
            let x_prime = if i % 5 == 0 {
                x.iter().map(|v| -v).collect()
            } else {
                g()
            };
            let step = |differing: &[f64]| -> Vec<f64> {
                let mut mean = clip(differing, c);
                for o in &others {
                    for (m, v) in mean.iter_mut().zip(clip(o, c)) {
                        *m += v;
                    }
                }
                mean.iter().map(|m| -eta * m / b as f64).collect()
            };
            let (s, s_prime) = (step(&x), step(&x_prime));
            let gap = s
                .iter()
                .zip(&s_prime)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt();
            worst = worst.max(gap / bound);
        }
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

/// The step claims of seed 001, in registry order.
pub fn claims() -> Vec<&'static dyn dpclaims_core::claim::Claim> {
    vec![
        &LCV,
        &PROP4_TV,
        &MAIN_MONOTONE,
        &APPA_INVERSION,
        &HOCKEY_STICK,
        &JOINT_CONVEXITY,
        &PROJECTION_DPI,
        &LEMMA1_C,
    ]
}
