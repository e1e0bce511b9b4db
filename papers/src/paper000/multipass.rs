//! Claims `multipass.*`: seed 000 (Ma, Marinov, Zhang 2022), multi-pass results
//! (THEOREMS.md §3). So far: Proposition 1 checked exactly on quadratic losses.

use dpclaims_core::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::verdict::Relation;
use dpclaims_empirical::algorithms::quadratic_sgld_laws;
use dpclaims_theorems::{ParamError, error, multipass as bounds};

const PAPER: &str = "000_5bb53ab829479343.txt — Ma, Marinov, Zhang (2022), arXiv 2206.01836";

const WITHOUT_GRADIENT_TERM: Mutant = Mutant {
    name: "without-gradient-term",
    description: "bound side: Proposition 1 without its sum_t eta_t/2 E||grad||^2 term",
};
const B_AS_BETA0: Mutant = Mutant {
    name: "B-as-beta0",
    description: "bound side: B = sum_t beta_t replaced by beta_0 in the infimum",
};

/// The P-quad points $z_t=(1+2\sin t,\ 1+2\cos1.7t,\ 1+2\sin2.3t)$ (THEOREMS.md §3).
fn points(horizon: usize) -> Vec<Vec<f64>> {
    (1..=horizon)
        .map(|t| {
            let t = t as f64;
            vec![
                1.0 + 2.0 * t.sin(),
                1.0 + 2.0 * (1.7 * t).cos(),
                1.0 + 2.0 * (2.3 * t).sin(),
            ]
        })
        .collect()
}

/// $\eta_t$, $t=1..T+1$, for a named schedule.
fn schedule(kind: &str, eta: f64, horizon: usize) -> Vec<f64> {
    (1..=horizon + 1)
        .map(|t| {
            let t = t as f64;
            match kind {
                "constant" => eta,
                "inv-sqrt" => eta / t.sqrt(),
                _ => eta / t,
            }
        })
        .collect()
}

/// Proposition 1's space on P-quad around `base` (its `index` kept): schedule, step, curvature,
/// prior scale and horizon, with the stable-step hypothesis $\eta_1a\le2$.
fn prop1_space(base: Params) -> Option<dpclaims_core::space::Space> {
    use dpclaims_core::space::{Axis, Space};
    Some(
        Space::new(base, 2)
            .axis(Axis::choice("schedule", &["constant", "inv-sqrt", "inv-t"]))
            .axis(Axis::log("eta", 0.01, 2.0))
            .axis(Axis::log("a", 0.1, 10.0))
            .axis(Axis::log("beta0", 0.01, 10.0))
            .axis(Axis::int("T", 2, 500))
            .constraint("eta_1 a <= 2 (eta <= 2/L on P-quad)", |p| {
                Ok(p.f64("eta")? * p.f64("a")? <= 2.0)
            }),
    )
}

/// The claim `multipass.prop1.idx_a` (its statement and source are in its [`ClaimInfo`]):
/// Proposition 1 for Algorithm 1 as printed (eq. (3): the gradient step out of $w_t$ at
/// $\eta_{t+1}$, idx-A), on the instances where `dpclaims search multipass.prop1.idx_a` finds
/// it violated. Known false: THEOREMS_NOTES.md, "Proposition 1 fails for the printed step".
pub struct Prop1IdxA;

static PROP1_IDX_A_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.prop1.idx_a",
    paper: PAPER,
    result: "Proposition 1 for Algorithm 1 as printed (idx-A: eq. (3)'s gradient step at eta_{t+1}) [as printed; known false, found by dpclaims search]; exact on P-quad",
    statement: "sum_t [l(p_t,z_t) + beta_t H(p_t||q)] <= inf_p sum_t [l(p,z_t) + beta_t H(p||q)] + sum_t eta_t/2 E||grad l(w,z_t)||^2, with the printed algorithm's step (fails: by 0.036 at T = 22 on P-quad, by 1/32 at T = 2 on linear losses; THEOREMS_NOTES.md)",
    mutants: &[],
    known_false: true,
    tautologies: &[],
    // Its measurement is Proposition 1's, perturbation included.
    perturbation: Some(PROP1_PERTURBATION),
};

/// Proposition 1's perturbation (shared by the printed-step claim, which measures through it).
const PROP1_PERTURBATION: &str = "algorithm side: the exact laws' gradient step sizes times 1 + kappa while the bound's gradient term and infimum keep eta_t";

impl Claim for Prop1IdxA {
    fn info(&self) -> &'static ClaimInfo {
        &PROP1_IDX_A_INFO
    }

    fn cases(&self) -> Vec<Params> {
        // The search's confirmed worst instance (seed 1, 200 candidates), and the smallest
        // P-quad violation of the hand check (T = 3).
        vec![
            params! { "schedule" => "inv-sqrt", "eta" => 0.03, "index" => "A", "a" => 0.6, "beta0" => 0.01, "T" => 22 },
            params! { "schedule" => "inv-sqrt", "eta" => 0.01, "index" => "A", "a" => 0.49, "beta0" => 0.01, "T" => 3 },
        ]
    }

    /// Proposition 1's space with the printed step (idx-A).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        prop1_space(self.cases()[0].clone())
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        if case.str("index")? != "A" {
            return Err(ParamError::new(
                "index",
                case.str("index")?,
                "A (this claim is the printed step; multipass.prop1 has both)",
            ));
        }
        Prop1.measure(case, run)
    }
}

const PROP1_THRESHOLD: Mutant = Mutant {
    name: "gradient-steps-1.31x",
    description: "algorithm side, threshold mutant: the exact laws' gradient step sizes times 1 + 0.31 while the bound keeps eta_t; the algorithm detection threshold (kappa* in (0.294, 0.309], exact) rounded up",
};

/// The claim `multipass.prop1` (its statement and source are in its [`ClaimInfo`]).
pub struct Prop1;

static PROP1_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.prop1",
    paper: PAPER,
    result: "Proposition 1 with Lemma 3's E||grad||^2 in place of G^2 [as printed, prop1.grad]; exact on P-quad",
    statement: "sum_t [l(p_t,z_t) + beta_t H(p_t||q)] <= inf_p sum_t [l(p,z_t) + beta_t H(p||q)] + sum_t eta_t/2 E||grad l(w,z_t)||^2 [holds on these cases; with the printed step (idx-A) it fails elsewhere: multipass.prop1.idx_a]",
    mutants: &[WITHOUT_GRADIENT_TERM, B_AS_BETA0, PROP1_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(PROP1_PERTURBATION),
};

impl Claim for Prop1 {
    fn info(&self) -> &'static ClaimInfo {
        &PROP1_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let case = |kind: &str, eta: f64, index: &str, a: f64, beta0: f64| {
            params! { "schedule" => kind, "eta" => eta, "index" => index, "a" => a, "beta0" => beta0, "T" => 200 }
        };
        vec![
            case("constant", 0.3, "A", 1.0, 1.0),
            case("inv-sqrt", 0.5, "A", 1.0, 1.0),
            case("inv-sqrt", 0.5, "B", 1.0, 1.0),
            case("inv-t", 1.0, "A", 1.0, 1.0),
            case("inv-t", 1.0, "B", 1.0, 1.0),
            case("constant", 1.5, "A", 1.0, 0.01),
            case("inv-sqrt", 1.5, "A", 0.3, 5.0),
        ]
    }

    /// Schedules, steps, curvature $a$, prior scale $\beta_0$ and horizon on P-quad, with the
    /// proof's step (idx-B: the gradient step out of $w_t$ at $\eta_t$); the gradient step must
    /// be stable on the quadratic, $\eta_1 a\le2$ ($\eta\le2/L$, $L=a$). The printed
    /// algorithm's step (idx-A) is searched by [`Prop1IdxA`], known false.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        prop1_space(self.cases()[2].clone())
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let kind = case.choice("schedule", &["constant", "inv-sqrt", "inv-t"])?;
        let eta0 = error::positive("eta", case.f64("eta")?)?;
        let index = case.choice("index", &["A", "B"])?;
        let (a, beta0) = (
            error::positive("a", case.f64("a")?)?,
            error::positive("beta0", case.f64("beta0")?)?,
        );
        let horizon = case.u64("T")?;
        if !(2..=1_000_000).contains(&horizon) {
            return Err(ParamError::new("T", horizon, "an integer in [2, 10^6]"));
        }
        let horizon = horizon as usize;
        let eta = schedule(&kind, eta0, horizon); // eta[t-1] = eta_t
        if let Some(e) = eta.iter().find(|e| a * **e >= 2.0) {
            return Err(ParamError::new(
                "eta",
                e,
                format!("a step with a * eta < 2 (a = {a})"),
            ));
        }
        // Minimal lambda: lambda_1 = 1/eta_1, lambda_t = max(0, 1/eta_t - 1/eta_{t-1}).
        let lambda: Vec<f64> = (0..=horizon)
            .map(|i| {
                if i == 0 {
                    1.0 / eta[0]
                } else {
                    (1.0 / eta[i] - 1.0 / eta[i - 1]).max(0.0)
                }
            })
            .collect();
        let z = points(horizon);
        // Step out of p_t (t = 1..T-1): gradient eta_{t+1} (idx-A) or eta_t (idx-B); contraction c_{t+1}.
        // The perturbation: the gradient steps times 1 + kappa (the bound keeps eta_t).
        let step = 1.0 + run.kappa(&PROP1_THRESHOLD, 0.31);
        let grad: Vec<f64> = (0..horizon - 1)
            .map(|i| step * if index == "A" { eta[i + 1] } else { eta[i] })
            .collect();
        let contraction: Vec<f64> = (0..horizon - 1)
            .map(|i| 1.0 - lambda[i + 1] * eta[i + 1])
            .collect();
        let laws = quadratic_sgld_laws(a, beta0, &z, &grad, &contraction);
        let d = 3.0;
        let betas: Vec<f64> = lambda[..horizon].iter().map(|l| l * beta0).collect();
        let (mut lhs, mut grad_term) = (0.0, 0.0);
        for (t, (m, s2)) in laws.iter().enumerate() {
            let dist2: f64 = m.iter().zip(&z[t]).map(|(x, y)| (x - y) * (x - y)).sum();
            let m2: f64 = m.iter().map(|x| x * x).sum();
            let entropy = 0.5 * (d * s2 / beta0 + m2 / beta0 - d + d * (beta0 / s2).ln());
            // beta_t H(p_t || q) with beta_t = 0 (a constant schedule's minimal lambda_t after
            // t = 1) is 0 whatever H is: the noiseless contraction can underflow s2 to 0 in
            // floating point (H = inf, and 0 * inf = NaN; found by the search at eta a = 0.9).
            let kl_term = if betas[t] > 0.0 {
                betas[t] * entropy
            } else {
                0.0
            };
            lhs += 0.5 * a * (dist2 + d * s2) + kl_term;
            grad_term += 0.5 * eta[t] * a * a * (dist2 + d * s2);
        }
        let infimum = if run.mutant == Some(B_AS_BETA0.name) {
            let mut scaled = vec![0.0; horizon];
            scaled[0] = beta0; // B = beta_0
            bounds::prop1_quadratic_infimum(a, beta0, &scaled, &z)?
        } else {
            bounds::prop1_quadratic_infimum(a, beta0, &betas, &z)?
        };
        let bound = if run.mutant == Some(WITHOUT_GRADIENT_TERM.name) {
            infimum
        } else {
            infimum + grad_term
        };
        let mut params = case.clone();
        params.set("infimum", infimum.into());
        params.set("gradient_term", grad_term.into());
        Ok(vec![Measurement {
            params,
            bound,
            relation: Relation::AtMost,
            statistic: Statistic::Exact { value: lhs },
        }])
    }
}

const SAMPLING_IGNORED: Mutant = Mutant {
    name: "sampling-ignored",
    description: "accounting side: every step taken as the full Gaussian mechanism (q = 1) instead of one sample of n",
};

/// Theorem 2's schedule of a case (`T-floor`).
pub(crate) fn schedule_of(case: &Params) -> Result<bounds::Theorem2Schedule, ParamError> {
    bounds::Theorem2Schedule::from_privacy(
        case.u64("n")?,
        case.f64("delta")?,
        epsilon_of(case)?,
        case.f64("alpha")?,
        case.f64("eta0")?,
        case.f64("G")?,
        bounds::HorizonRounding::Floor,
    )
}

/// The case's $\epsilon$: a number, or `"n^-1/4"` (Theorem 2's headline choice).
pub(crate) fn epsilon_of(case: &Params) -> Result<f64, ParamError> {
    match case.str("epsilon") {
        Ok("n^-1/4") => Ok((case.u64("n")? as f64).powf(-0.25)),
        _ => case.f64("epsilon"),
    }
}

/// Theorem 2's space around `base`: $n\in\[100,2\cdot10^4\]$, $\delta\in\[10^{-7},10^{-2}\]$ and
/// $\alpha\in\[1,2\]$ (at the base's $\epsilon$, e.g. $n^{-1/4}$), with Theorem 2's grid condition
/// $n\delta<2.5$ (so that Proposition 3's per-step $\delta_t$ is below 1) and its
/// $T=\lfloor n^\alpha\epsilon^2\rfloor\ge n$ (at $\epsilon=n^{-1/4}$: $\alpha\ge3/2$).
fn theorem2_space(base: Params) -> dpclaims_core::space::Space {
    use dpclaims_core::space::{Axis, Space};
    Space::new(base, 2)
        .axis(Axis::int("n", 100, 20_000))
        .axis(Axis::log("delta", 1e-7, 1e-2))
        .axis(Axis::real("alpha", 1.0, 2.0))
        .constraint("n delta < 2.5", |p| {
            Ok(p.u64("n")? as f64 * p.f64("delta")? < 2.5)
        })
        .constraint("T = floor(n^alpha eps^2) >= n (Theorem 2)", |p| {
            let n = p.u64("n")? as f64;
            Ok((n.powf(p.f64("alpha")?) * epsilon_of(p)?.powi(2)).floor() >= n)
        })
}

/// The claim `multipass.thm2.dp` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem2Dp;

static THEOREM2_DP_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.thm2.dp",
    paper: PAPER,
    result: "Theorem 2 (privacy, all iterates) and Proposition 3 [as printed], against the PLD accountant of the actual mechanism",
    statement: "Algorithm 1 with Theorem 2's schedule is (3 eps sqrt(ln(2/delta)) + 3 eps^2, delta)-DP and (Prop. 3) (sqrt(2T ln(2/delta)) e/n + T e^2/n^2, delta)-DP: the PLD bracket [optimistic, pessimistic] of the true eps <= each [weak check, detection threshold of the bound 0.96 (a bound that much smaller is still respected), of the algorithm above 0.5 (half the noise is still respected; a larger cut needs a coarser PLD grid); docs/detection.json]",
    mutants: &[SAMPLING_IGNORED],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: every step's noise std times 1 - kappa (the step sizes kept) in the mechanism the PLD accounts, while the bounds keep n, T and delta",
    ),
};

impl Claim for Theorem2Dp {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM2_DP_INFO
    }

    fn cases(&self) -> Vec<Params> {
        [
            (200u64, 1e-3, 2.0),
            (1000, 1e-5, 2.0),
            (1000, 1e-5, 1.5),
            (10_000, 1e-5, 1.5),
        ]
        .iter()
        .map(|&(n, delta, alpha)| {
            params! { "n" => n, "delta" => delta, "epsilon" => "n^-1/4", "alpha" => alpha, "eta0" => 1.0, "G" => 1.0 }
        })
        .collect()
    }

    /// Theorem 2's space at $\epsilon=n^{-1/4}$ (`theorem2_space`).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        Some(theorem2_space(self.cases()[0].clone()))
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let schedule = schedule_of(case)?;
        let (epsilon, delta) = (epsilon_of(case)?, case.f64("delta")?);
        let q = if run.mutant == Some(SAMPLING_IGNORED.name) {
            1.0
        } else {
            1.0 / schedule.n as f64
        };
        // The perturbation: every step's noise std times 1 - kappa (the steps kept).
        let pld = schedule.pld_epsilon_with_noise_scale(
            q,
            delta,
            1.0 - run.perturbation,
            &dpclaims_theorems::privacy::pld::PldOptions::default(),
        )?;
        let stated = [
            ("Theorem 2", bounds::theorem2_epsilon(epsilon, delta)?),
            (
                "Proposition 3",
                bounds::prop3_epsilon(schedule.n, schedule.horizon, delta)?,
            ),
        ];
        Ok(stated
            .into_iter()
            .map(|(which, bound)| {
                let mut params = case.clone();
                params.set("T", schedule.horizon.into());
                params.set("statement", which.into());
                // The PLD brackets the true eps: [optimistic, pessimistic] is the interval, so
                // the verdict is violated only when the whole bracket is above the bound.
                Measurement {
                    params,
                    bound,
                    relation: Relation::AtMost,
                    statistic: Statistic::Bracket {
                        lower: pld.optimistic,
                        upper: pld.pessimistic,
                    },
                }
            })
            .collect())
    }
}

/// The claim `multipass.thm2.dp_from_prop3` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem2FromProp3;

static THEOREM2_FROM_PROP3_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.thm2.dp_from_prop3",
    paper: PAPER,
    result: "Theorem 2's proof: 'taking eta_t as in Proposition 3 implies the DP part' [as printed], at alpha = 2",
    statement: "at T = n^alpha eps^2, Prop. 3's eps <= 3 eps sqrt(ln(2/delta)) + 3 eps^2 (known false at alpha = 2: Prop. 3 gives sqrt(2) e eps sqrt(ln(2/delta)) + e^2 eps^2)",
    mutants: &[],
    known_false: true,
    tautologies: &[],
    perturbation: None,
};

impl Claim for Theorem2FromProp3 {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM2_FROM_PROP3_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for n in [100u64, 1000, 10_000, 100_000] {
            for delta in [1e-3, 1e-5] {
                for eps in ["n^-1/4", "0.1", "1"] {
                    let mut p = params! { "n" => n, "delta" => delta, "alpha" => 2.0, "eta0" => 1.0, "G" => 1.0 };
                    match eps {
                        "n^-1/4" => p.set("epsilon", "n^-1/4".into()),
                        e => p.set("epsilon", e.parse::<f64>().unwrap_or(1.0).into()),
                    }
                    // THEOREMS.md's grid keeps the points where the schedule exists.
                    if schedule_of(&p).is_ok() {
                        cases.push(p);
                    }
                }
            }
        }
        cases
    }

    /// Theorem 2's space (`theorem2_space`) with $\epsilon\in\[0.01,1\]$ free (the grid has
    /// $n^{-1/4}$, 0.1 and 1) and $T=n^\alpha\epsilon^2\le10^{10}$ (a closed form either way).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::Axis;
        let mut base = self.cases()[0].clone();
        base.set("epsilon", 0.1.into());
        Some(
            theorem2_space(base)
                .axis(Axis::log("epsilon", 0.01, 1.0))
                .constraint("T = n^alpha eps^2 <= 1e10", |p| {
                    let n = p.u64("n")? as f64;
                    Ok(n.powf(p.f64("alpha")?) * epsilon_of(p)?.powi(2) <= 1e10)
                }),
        )
    }

    fn measure(&self, case: &Params, _run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let schedule = schedule_of(case)?;
        let (epsilon, delta) = (epsilon_of(case)?, case.f64("delta")?);
        let mut params = case.clone();
        params.set("T", schedule.horizon.into());
        Ok(vec![Measurement {
            params,
            bound: bounds::theorem2_epsilon(epsilon, delta)?,
            relation: Relation::AtMost,
            statistic: Statistic::Exact {
                value: bounds::prop3_epsilon(schedule.n, schedule.horizon, delta)?,
            },
        }])
    }
}

const COR2_NOISE_X10000: Mutant = Mutant {
    name: "noise-variance-x10000",
    description: "algorithm side: the stationary noise variance 10^4 beta0 in the simulation while the bound uses beta0",
};

const COR2_THRESHOLD: Mutant = Mutant {
    name: "noise-std-understated-0.8",
    description: "algorithm side, threshold mutant: the simulated noise std divided by 1 - 0.8 (x5, variance x25) while the bound keeps beta0; the algorithm detection threshold (kappa* = 0.758 at seed 1, default size) rounded up",
};

/// The claim `multipass.cor2` (its statement and source are in its [`ClaimInfo`]).
pub struct Cor2;

static COR2_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.cor2",
    paper: PAPER,
    result: "Corollary 2 [as printed] with its readings (|.| as det or spectral norm; beta0/(T eta_T) printed or halved as in Theorem 2's proof), Theorem 2's schedule on P-pool, idx-A / idx-B",
    statement: "E (1/T) sum_t l(p_t, D) <= inf_w [l(w, D) + ||w||^2/(2 T eta_T)] + beta0/(T eta_T) ln|eta_T T H~_D + I| + sum_t eta_t G^2/(2T) + (2G^2/n) sqrt((n + T) sum_t eta_t^2) [weak check, detection threshold of the bound 0.10, of the algorithm 0.76; docs/detection.json]",
    mutants: &[COR2_NOISE_X10000, COR2_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std divided by 1 - kappa (the bound is evaluated at (1 - kappa) times the noise the algorithm uses)",
    ),
};

impl Claim for Cor2 {
    fn info(&self) -> &'static ClaimInfo {
        &COR2_INFO
    }

    fn cases(&self) -> Vec<Params> {
        ["A", "B"]
            .iter()
            .map(|idx| {
                params! {
                    "K" => 1024, "d" => 10, "n" => 200, "delta" => 1e-3, "epsilon" => "n^-1/4", "alpha" => 2.0,
                    "eta0" => 1.0, "G" => 1.0, "index" => *idx, "strata" => 16, "trials" => 1000,
                    "population_seed" => dpclaims_core::claim::DEFAULT_POPULATION_SEED,
                }
            })
            .collect()
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        use dpclaims_empirical::algorithms::{Sgld, Step, Workspace};
        use dpclaims_empirical::problems::{FinitePopulation, LogisticPool};
        use dpclaims_empirical::rng::StreamKey;
        use dpclaims_empirical::runner::{run_blocks, trial_range};
        use dpclaims_empirical::stats::MeanAcc;
        use nalgebra::{DMatrix, DVector};
        let schedule = schedule_of(case)?;
        let (k, d) = (case.u64("K")?, case.u64("d")?);
        if !(2..=100_000).contains(&k) || !(1..=1000).contains(&d) {
            return Err(ParamError::new(
                "K",
                k,
                "a pool of 2..10^5 points in 1..1000 dimensions",
            ));
        }
        let trials = error::at_least("trials", case.u64("trials")?, 2)?;
        let index = case.choice("index", &["A", "B"])?;
        let g = schedule.g;
        let pool_key = dpclaims_core::claim::population_key(
            case,
            &[self.info().id, "pool", &k.to_string(), &d.to_string()],
        )?;
        let pool = LogisticPool::generate(k as usize, d as usize, &mut pool_key.trial(0));
        let mut data = Vec::new();
        pool.draw_dataset(schedule.n as usize, &mut pool_key.trial(1), &mut data);
        let eta = schedule.etas();
        let t = eta.len();
        // The perturbation: the bound's noise std is (1 - kappa) times the simulated one.
        let sim_beta0 = if run.mutant == Some(COR2_NOISE_X10000.name) {
            1e4 * schedule.beta0
        } else {
            schedule.beta0 / (1.0 - run.kappa(&COR2_THRESHOLD, 0.8)).powi(2)
        };
        // Steps producing w_2..w_T: c_s = eta_s/eta_{s-1}, gradient step eta_s (idx-A) or eta_{s-1} (idx-B).
        let steps: Vec<Step> = (1..t)
            .map(|s| {
                let h = if index == "A" { eta[s] } else { eta[s - 1] };
                Step::langevin(h, eta[s] / eta[s - 1], sim_beta0)
            })
            .collect();
        let sgld = Sgld {
            population: &pool,
            steps: &steps,
            beta0: sim_beta0,
        };
        let key = StreamKey::new(
            run.seed,
            &[
                self.info().id,
                &dpclaims_core::claim::stream_label(case, &[]),
            ],
        );
        let pick_key = StreamKey::new(
            run.seed,
            &[
                self.info().id,
                "picks",
                &dpclaims_core::claim::stream_label(case, &[]),
            ],
        );
        // The time average (1/T) sum_t l(w_t, D) estimated without bias by stratified sampling:
        // the iterates are split into `strata` runs and one uniformly chosen iterate per run is
        // evaluated, weighted by its run's length (the exact pool loss costs K d per iterate).
        let strata = (case.u64("strata")? as usize).clamp(1, t);
        let bounds_of = |j: usize| (j * t / strata, (j + 1) * t / strata);
        let blocks = run_blocks(
            trial_range(trials, run.shard),
            || {
                (
                    (Workspace::new(d as usize), vec![0usize; strata]),
                    MeanAcc::new(),
                )
            },
            |(ws, picks), acc, i| {
                dpclaims_empirical::rng::stratified_indices(&mut pick_key.trial(i), t, picks);
                let mut sum = 0.0;
                let mut next = 0;
                sgld.run(&data, &mut key.trial(i), ws, |s, w| {
                    // `s` counts iterates from 1, the picks from 0.
                    if next < strata && s == picks[next] + 1 {
                        let (lo, hi) = bounds_of(next);
                        sum += (hi - lo) as f64 / t as f64 * pool.population_loss(w);
                        next += 1;
                    }
                });
                acc.push(sum);
            },
        );
        // The right side's pieces.
        let (tf, eta_t, n) = (t as f64, eta[t - 1], schedule.n as f64);
        let (inf, _) = pool.regularised_minimum(1.0 / (2.0 * tf * eta_t));
        let mut h = DMatrix::<f64>::zeros(d as usize, d as usize);
        for i in 0..k as usize {
            let x = DVector::from_column_slice(pool.x(i));
            h += &x * x.transpose();
        }
        h *= 0.25 / k as f64;
        let a = h * (eta_t * tf) + DMatrix::identity(d as usize, d as usize);
        let eig = a.symmetric_eigenvalues();
        let log_det: f64 = eig.iter().map(|v| v.ln()).sum();
        let log_norm = eig.iter().cloned().fold(f64::MIN, f64::max).ln();
        let grad_term = eta.iter().sum::<f64>() * g * g / (2.0 * tf);
        let stability =
            2.0 * g * g / n * ((n + tf) * eta.iter().map(|e| e * e).sum::<f64>()).sqrt();
        let mut out = Vec::new();
        for (reading, log_term) in [("det", log_det), ("norm", log_norm)] {
            for (coef_name, coef) in [("printed", 1.0), ("half", 0.5)] {
                let bound =
                    inf + coef * schedule.beta0 / (tf * eta_t) * log_term + grad_term + stability;
                let mut params = case.clone();
                params.set("T", (t as u64).into());
                params.set("log_reading", reading.into());
                params.set("coefficient", coef_name.into());
                out.push(Measurement {
                    params,
                    bound,
                    relation: Relation::AtMost,
                    statistic: Statistic::Mean {
                        blocks: blocks.clone(),
                    },
                });
            }
        }
        Ok(out)
    }
}

/// The claim `multipass.prop3.step` (its statement and source are in its [`ClaimInfo`]).
pub struct Prop3Steps;

const PROP3_STEP_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.95x",
    description: "algorithm side, threshold mutant: every step's noise std times 1 - 0.05 (the step sizes kept) while the level ln(1 + e/n) stays; the algorithm detection threshold (kappa* in (0.031, 0.046], exact) rounded up",
};
const E_OVER_N_AS_ONE_OVER_N: Mutant = Mutant {
    name: "e-over-n-as-1-over-n",
    description: "bound side: ln(1 + 1/n) in place of ln(1 + e/n) (the e of Prop. 3 dropped)",
};

static PROP3_STEPS_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.prop3.step",
    paper: PAPER,
    result: "Proposition 3's proof steps [as printed]: prop3.step (printed display and direct Lemma 6) and prop3.gauss_range",
    statement: "for 2 <= t <= T: eps_t <= ln(1 + e/n), and Dwork-Roth's range condition eps_G(t) = sqrt(8 ln(1.25/delta')) (eta_t^2/eta_{t-1}) G/sigma_t < 1 (delta' = n delta_t, delta_t = 0.5 delta/(t(t-1)))",
    mutants: &[E_OVER_N_AS_ONE_OVER_N, PROP3_STEP_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: every step's noise std times 1 - kappa (the step sizes kept) in every step's epsilon, while the level ln(1 + e/n) and the range 1 stay",
    ),
};

impl Claim for Prop3Steps {
    fn info(&self) -> &'static ClaimInfo {
        &PROP3_STEPS_INFO
    }

    fn cases(&self) -> Vec<Params> {
        [(200u64, 1e-3, 2.0), (1000, 1e-5, 2.0), (1000, 1e-5, 1.5), (10_000, 1e-5, 1.5)]
            .iter()
            .map(|&(n, delta, alpha)| {
                params! { "n" => n, "delta" => delta, "epsilon" => "n^-1/4", "alpha" => alpha, "eta0" => 1.0, "G" => 1.0 }
            })
            .collect()
    }

    /// Theorem 2's space at $\epsilon=n^{-1/4}$ (`theorem2_space`).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        Some(theorem2_space(self.cases()[0].clone()))
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let s = schedule_of(case)?;
        let (n, delta, g) = (s.n as f64, s.delta, s.g);
        let eta = s.etas();
        // The perturbation: the steps' noise std times 1 - kappa, the step sizes kept (eta_t
        // scales as sqrt(beta0): scaling beta0 itself would leave every eps_t unchanged).
        let beta0 = s.beta0 * (1.0 - run.kappa(&PROP3_STEP_THRESHOLD, 0.05)).powi(2);
        let (mut printed, mut direct, mut range) = (0.0_f64, 0.0_f64, 0.0_f64);
        for t in 2..=eta.len() {
            let (e_t, e_prev) = (eta[t - 1], eta[t - 2]);
            let tf = t as f64;
            let step = e_t * e_t / e_prev;
            let sigma = ((1.0 - (e_t / e_prev).powi(2)) * beta0).sqrt();
            let delta_prime = n * 0.5 * delta / (tf * (tf - 1.0));
            range = range.max(bounds::lemma6_gaussian_epsilon(
                step,
                g,
                sigma,
                delta_prime,
            )?);
            direct = direct.max(bounds::lemma6_printed(step, g, sigma, delta_prime, s.n)?.0);
            let inner = (8.0 * (2.5 * tf * (tf - 1.0) / (n * delta)).ln()
                / ((e_t.powi(-2) - e_prev.powi(-2)) * beta0))
                .sqrt()
                * g;
            printed = printed.max((inner.exp() / n).ln_1p());
        }
        let e = if run.mutant == Some(E_OVER_N_AS_ONE_OVER_N.name) {
            1.0
        } else {
            std::f64::consts::E
        };
        let level = (e / n).ln_1p();
        let with = |name: &str, value: f64, bound: f64| {
            let mut params = case.clone();
            params.set("T", (eta.len() as u64).into());
            params.set("quantity", name.into());
            Measurement {
                params,
                bound,
                relation: Relation::AtMost,
                statistic: Statistic::Exact { value },
            }
        };
        Ok(vec![
            with("max_t eps_t (printed display)", printed, level),
            with("max_t eps_t (Lemma 6 direct)", direct, level),
            with("max_t eps_G(t) (Thm A.1 range)", range, 1.0),
        ])
    }
}

/// The claim `multipass.lemma6` (its statement and source are in its [`ClaimInfo`]).
pub struct Lemma6;

const LEMMA6_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.75x",
    description: "algorithm side, threshold mutant: the step's noise std times 1 - 0.25 while Lemma 6 is evaluated at sigma; the algorithm detection threshold (kappa* in (0.232, 0.247]) rounded up",
};
const STEP_NOISE_HALVED: Mutant = Mutant {
    name: "noise-halved",
    description: "algorithm side: the step's noise is sigma/2 while Lemma 6 is evaluated at sigma",
};

static LEMMA6_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.lemma6",
    paper: PAPER,
    result: "Lemma 6 [as printed] and its Balle-Barthe-Gaboardi form [derived lemma6.bbg], against the exact per-step hockey-stick",
    statement: "one step w = a w~ - eta grad l(w~, z) + sigma eps, z ~ U(S_m), is (ln(1 + e^{eps_G}/m), delta/m)-DP (printed) and (ln(1 + (e^{eps_G} - 1)/m), delta/m)-DP (bbg), eps_G = sqrt(8 ln(1.25/delta)) eta G/sigma < 1: the PLD bracket [optimistic, pessimistic] of the step's delta at that eps <= delta/m [detection threshold of the bound 0.97 (a bound that much smaller is still respected), of the algorithm 0.25; docs/detection.json]",
    mutants: &[STEP_NOISE_HALVED, LEMMA6_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the step's noise std times 1 - kappa while Lemma 6 is evaluated at sigma",
    ),
};

impl Claim for Lemma6 {
    fn info(&self) -> &'static ClaimInfo {
        &LEMMA6_INFO
    }

    fn cases(&self) -> Vec<Params> {
        [
            (100u64, 0.1, 1.0, 1e-5),
            (1000, 0.1, 1.0, 1e-5),
            (100, 0.05, 1.0, 1e-5),
            (10, 0.12, 1.0, 1e-3),
            // Adopted from `dpclaims search multipass.lemma6` (seed 1): its tightest
            // instance, 0.030 against 0.007 above (eps_G = 0.974, at the Gaussian mechanism's
            // edge; the printed bound is still loose by 30x there).
            (5, 0.026, 0.12, 0.1),
        ]
        .iter()
        .map(|&(m, eta, sigma, delta)| {
            params! { "m" => m, "eta" => eta, "G" => 1.0, "sigma" => sigma, "delta" => delta }
        })
        .collect()
    }

    /// Pool size, step, noise and $\delta$, under the Gaussian mechanism's hypothesis (Dwork–Roth
    /// Thm A.1) $\epsilon_G=\sqrt{8\ln(1.25/\delta)}\thinspace\eta G/\sigma<1$.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 2)
                .axis(Axis::int("m", 1, 10_000))
                .axis(Axis::log("eta", 1e-3, 1.0))
                .axis(Axis::log("sigma", 0.1, 10.0))
                .axis(Axis::log("delta", 1e-10, 0.1))
                .constraint(
                    "eps_G = sqrt(8 ln(1.25/delta)) eta G / sigma < 1 (Gaussian mechanism)",
                    |p| {
                        let (eta, g, sigma, delta) =
                            (p.f64("eta")?, p.f64("G")?, p.f64("sigma")?, p.f64("delta")?);
                        Ok((8.0 * (1.25 / delta).ln()).sqrt() * eta * g / sigma < 1.0)
                    },
                ),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        use dpclaims_theorems::privacy::dominating::Dominating;
        use dpclaims_theorems::privacy::pld::{self, PldOptions};
        use dpclaims_theorems::privacy::{Neighbouring, Sampling};
        let (m, eta, g) = (case.u64("m")?, case.f64("eta")?, case.f64("G")?);
        let (sigma, delta) = (case.f64("sigma")?, case.f64("delta")?);
        let eps_g = bounds::lemma6_gaussian_epsilon(eta, g, sigma, delta)?;
        if eps_g >= 1.0 {
            return Err(ParamError::new(
                "sigma",
                sigma,
                format!("noise giving eps_G < 1 (Dwork-Roth Thm A.1); eps_G = {eps_g}"),
            ));
        }
        // The step as a mechanism: one sample of m drawn uniformly, replace-one, each record
        // moving the mean by at most eta G: the fixed-size-batch dominating pairs with rate 1/m
        // and multiplier sigma / (eta G) (the slot of the differing sample is filled by another
        // one chosen by the adversary: sensitivity 2 eta G, in either order).
        let noise = if run.mutant == Some(STEP_NOISE_HALVED.name) {
            sigma / 2.0
        } else {
            sigma * (1.0 - run.kappa(&LEMMA6_THRESHOLD, 0.25))
        };
        let dominating = Dominating::new(
            1.0 / m as f64,
            noise / (eta * g),
            Sampling::WithoutReplacement,
            Neighbouring::ReplaceOne,
        )?;
        let step = pld::compose_groups(&[(dominating, 1)], &PldOptions::default())?;
        let readings = [
            ("printed", bounds::lemma6_printed(eta, g, sigma, delta, m)?),
            ("bbg", bounds::lemma6_bbg(eta, g, sigma, delta, m)?),
        ];
        readings
            .into_iter()
            .map(|(which, (eps, per_step_delta))| {
                let exact = step.delta(eps)?;
                let mut params = case.clone();
                params.set("reading", which.into());
                params.set("epsilon", eps.into());
                params.set("eps_G", eps_g.into());
                // The PLD's [optimistic, pessimistic] delta(eps) brackets the true one.
                Ok(Measurement {
                    params,
                    bound: per_step_delta,
                    relation: Relation::AtMost,
                    statistic: Statistic::Bracket {
                        lower: exact.optimistic,
                        upper: exact.pessimistic,
                    },
                })
            })
            .collect()
    }
}

/// The claims of this family, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![
        &Prop1,
        &Prop1IdxA,
        &Cor2,
        &Lemma6,
        &Prop3Steps,
        &Theorem2Dp,
        &Theorem2FromProp3,
    ]
}
