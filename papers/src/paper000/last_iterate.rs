//! Claims `last_iterate.*`: single-pass Algorithm 1 of seed 000 (Ma, Marinov, Zhang 2022;
//! THEOREMS.md §2). Privacy is checked exactly on the worst-case linear instance P-lin, where
//! the last iterates of the two neighbouring runs are Gaussians with variance $\beta_0$ whose
//! means differ by $2G\eta\sqrt{\kappa_T}$ in the worst position of the differing sample.

use dpclaims_core::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::verdict::Relation;
use dpclaims_empirical::algorithms::{Sgld, Step, Workspace};
use dpclaims_empirical::problems::{FinitePopulation, LogisticPool};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::{run_blocks, trial_range};
use dpclaims_theorems::ParamError;
use dpclaims_theorems::last_iterate::{self as bounds, BatchSizes};
use dpclaims_theorems::privacy::gaussian;

const PAPER: &str = "000_5bb53ab829479343.txt — Ma, Marinov, Zhang (2022), arXiv 2206.01836";

fn batch_sizes(p: &Params) -> Result<BatchSizes, ParamError> {
    Ok(
        match p.choice("batch", &["ceil", "real", "proof"])?.as_str() {
            "ceil" => BatchSizes::Ceil,
            "real" => BatchSizes::Real,
            _ => BatchSizes::Proof,
        },
    )
}

fn horizon(p: &Params) -> Result<u64, ParamError> {
    let t = p.u64("T")?;
    if !(2..=10_000_000).contains(&t) {
        return Err(ParamError::new("T", t, "a horizon in [2, 10^7]"));
    }
    Ok(t)
}

const ORDER_DROPPED: Mutant = Mutant {
    name: "order-dropped",
    description: "bound side: the RDP level 2 eta^2 G^2 / beta0 without the order alpha",
};
const NOISE_TIMES_ETA: Mutant = Mutant {
    name: "noise-times-eta",
    description: "algorithm side: the injected noise scaled by the step size (variance eta^2 beta0 at the end instead of beta0)",
};

/// The claim `last_iterate.prop4` (its statement and source are in its [`ClaimInfo`]).
pub struct Prop4;

static PROP4_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.prop4",
    paper: PAPER,
    result: "Proposition 4 [as printed], exact on P-lin [derived]",
    statement: "the single-pass last iterate is (alpha, 2 alpha eta^2 G^2 / beta0)-RDP: exact D_alpha = alpha shift^2 / (2 beta0) maximised over the differing sample's position <= 2 alpha eta^2 G^2 / beta0 [detection threshold of the bound 0.41, of the algorithm 0.23 on the search's T = 3 case; docs/detection.json]",
    mutants: &[ORDER_DROPPED, PROP4_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the noise std of the last iterate's exact law times 1 - kappa while the bound keeps beta0",
    ),
};

impl Claim for Prop4 {
    fn info(&self) -> &'static ClaimInfo {
        &PROP4_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for t in [100u64, 1000, 10_000] {
                cases.push(params! {
                    "batch" => batch, "T" => t, "alpha" => 4.0, "eta" => 0.01, "G" => 1.0, "beta0" => 0.005,
                });
            }
        }
        // Adopted from `dpclaims search last_iterate.prop4` (seed 1): its tightest instance,
        // kappa_T = 0.593 against 0.305 above (the real batch rule at T = 3; the ratio depends
        // on the batch rule and T only).
        cases.push(params! {
            "batch" => "real", "T" => 3, "alpha" => 4.0, "eta" => 0.01, "G" => 1.0, "beta0" => 0.005,
        });
        cases
    }

    /// Every batch rule, horizon, order, step, Lipschitz constant and noise level: on P-lin
    /// ($L = 0$) the step hypothesis $\eta\le2/L$ is vacuous.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[1].clone(), 2)
                .axis(Axis::choice("batch", &["ceil", "real"]))
                .axis(Axis::int("T", 2, 20_000))
                .axis(Axis::log("alpha", 1.01, 64.0))
                .axis(Axis::log("eta", 1e-4, 1.0))
                .axis(Axis::log("G", 0.1, 10.0))
                .axis(Axis::log("beta0", 1e-4, 1.0)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let (alpha, eta, g, beta0) = (
            case.f64("alpha")?,
            case.f64("eta")?,
            case.f64("G")?,
            case.f64("beta0")?,
        );
        let bound = bounds::prop4_rdp(alpha, eta, g, beta0)?;
        let (kappa, at) = bounds::linear_kappa(batch_sizes(case)?, horizon(case)?)?;
        let shift2 = 4.0 * g * g * eta * eta * kappa;
        let mut params = case.clone();
        params.set("worst_t", at.into());
        Ok(vec![Measurement {
            params,
            bound: if run.mutant == Some(ORDER_DROPPED.name) {
                bound / alpha
            } else {
                bound
            },
            relation: Relation::AtMost,
            // The perturbation: the noise std of the exact law times 1 - kappa.
            statistic: Statistic::Exact {
                value: alpha * shift2
                    / (2.0 * beta0 * (1.0 - run.kappa(&PROP4_THRESHOLD, 0.24)).powi(2)),
            },
        }])
    }
}

/// Theorem 1's last-iterate pair on P-lin: its parameters, the squared worst-case mean shift
/// $4G^2\eta^2\kappa_T$, the variance of $w_T$ ($\beta_0$; $\eta^2\beta_0$ under the
/// `noise-times-eta` mutant) and the worst position of the differing sample.
fn theorem1_worst_pair(
    case: &Params,
    run: RunSpec<'_>,
) -> Result<(bounds::Theorem1, f64, f64, u64), ParamError> {
    let t = horizon(case)?;
    let (g, eps, delta) = (case.f64("G")?, case.f64("epsilon")?, case.f64("delta")?);
    let p = bounds::theorem1(t, g, case.f64("eta0")?, eps, delta)?;
    let (kappa, at) = bounds::linear_kappa(batch_sizes(case)?, t)?;
    // The perturbation: the noise std of the exact law times 1 - kappa.
    let noise_kappa = match run.mutant {
        Some(m) if m == THM1_DP_THRESHOLD.name => run.kappa(&THM1_DP_THRESHOLD, 0.58),
        _ => run.kappa(&THM1_RDP_THRESHOLD, 0.39),
    };
    let variance = if run.mutant == Some(NOISE_TIMES_ETA.name) {
        p.eta * p.eta * p.beta0
    } else {
        p.beta0 * (1.0 - noise_kappa).powi(2)
    };
    Ok((p, 4.0 * g * g * p.eta * p.eta * kappa, variance, at))
}

/// Theorem 1's privacy space around `base`: batch rule, $T=n\in\[10,10^5\]$,
/// $\epsilon\in\[0.01,10\]$, $\delta\in\[10^{-12},0.1\]$, $\eta_0,G\in\[0.1,10\]$ (log scales).
fn theorem1_privacy_space(base: Params) -> Option<dpclaims_core::space::Space> {
    use dpclaims_core::space::{Axis, Space};
    Some(
        Space::new(base, 2)
            .axis(Axis::choice("batch", &["ceil", "real"]))
            .axis(Axis::int("T", 10, 100_000))
            .axis(Axis::log("epsilon", 0.01, 10.0))
            .axis(Axis::log("delta", 1e-12, 0.1))
            .axis(Axis::log("eta0", 0.1, 10.0))
            .axis(Axis::log("G", 0.1, 10.0)),
    )
}

/// The claim `last_iterate.thm1.dp` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem1Dp;

static THEOREM1_DP_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.thm1.dp",
    paper: PAPER,
    result: "Theorem 1, privacy of the last iterate [as printed], exact on P-lin [derived]",
    statement: "with T = n, eta = eta0 sqrt(1/(4 G^2 T)) and beta0 = (eps + ln(1/delta)) eta0^2/(2 eps^2 T), w_T is (2 eps, delta)-DP: exact delta(2 eps) of the worst-case Gaussian pair <= delta [weak check, detection threshold of the bound 1.0 (the exact delta is 5e-20 of it or less), of the algorithm 0.57; docs/detection.json]",
    mutants: &[NOISE_TIMES_ETA, THM1_DP_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the noise std of the last iterate's exact law times 1 - kappa while the bound keeps beta0",
    ),
};

impl Claim for Theorem1Dp {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM1_DP_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for (eps, delta) in [(1.0, 1e-5), (0.5, 1e-6)] {
                cases.push(params! {
                    "batch" => batch, "T" => 1000, "G" => 1.0, "eta0" => 1.0, "epsilon" => eps, "delta" => delta,
                });
            }
        }
        cases
    }

    /// Theorem 1's free parameters: batch rule, $T = n$, $\epsilon$, $\delta$, $\eta_0$, $G$.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        theorem1_privacy_space(self.cases()[0].clone())
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let (eps, delta) = (case.f64("epsilon")?, case.f64("delta")?);
        let (_, shift2, variance, at) = theorem1_worst_pair(case, run)?;
        let mu = (shift2 / variance).sqrt();
        let mut params = case.clone();
        params.set("worst_t", at.into());
        params.set("mu", mu.into());
        Ok(vec![Measurement {
            params,
            bound: delta,
            relation: Relation::AtMost,
            statistic: Statistic::Exact {
                value: gaussian::delta(mu, 2.0 * eps)?,
            },
        }])
    }
}

/// The claim `last_iterate.thm1.rdp` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem1Rdp;

static THEOREM1_RDP_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.thm1.rdp",
    paper: PAPER,
    result: "Theorem 1's step size and beta0 [as printed] give (alpha, eps)-RDP at alpha = 1 + ln(1/delta)/eps (proof display), exact on P-lin",
    statement: "with eta = eta0 sqrt(1/(4 G^2 T)) and beta0 = (eps + ln(1/delta)) eta0^2/(2 eps^2 T), the exact D_alpha of the last iterates on P-lin <= eps (the printed route gives 2 alpha eta^2 G^2/beta0 = eps exactly) [detection threshold of the bound 0.61, of the algorithm 0.39 on the search's T = 10 case; docs/detection.json]",
    mutants: &[NOISE_TIMES_ETA, THM1_RDP_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the noise std of the last iterate's exact law times 1 - kappa while the bound keeps beta0",
    ),
};

impl Claim for Theorem1Rdp {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM1_RDP_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for (t, eps, delta) in [(1000u64, 1.0, 1e-5), (10_000, 0.5, 1e-6), (100, 2.0, 1e-3)] {
                cases.push(params! { "batch" => batch, "T" => t, "G" => 1.0, "eta0" => 1.0, "epsilon" => eps, "delta" => delta });
            }
        }
        // Adopted from `dpclaims search last_iterate.thm1.rdp` (seed 1): its tightest
        // instance, 0.392 against 0.305 above (the real batch rule at a short horizon).
        cases.push(params! { "batch" => "real", "T" => 10, "G" => 0.1, "eta0" => 0.1, "epsilon" => 0.1, "delta" => 1e-11 });
        cases
    }

    /// Theorem 1's free parameters: batch rule, $T = n$, $\epsilon$, $\delta$, $\eta_0$, $G$.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        theorem1_privacy_space(self.cases()[0].clone())
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let eps = case.f64("epsilon")?;
        let (p, shift2, variance, at) = theorem1_worst_pair(case, run)?;
        let mut params = case.clone();
        params.set("alpha", p.alpha.into());
        params.set("worst_t", at.into());
        Ok(vec![Measurement {
            params,
            bound: eps,
            relation: Relation::AtMost,
            statistic: Statistic::Exact {
                value: p.alpha * shift2 / (2.0 * variance),
            },
        }])
    }
}

/// The claim `last_iterate.samples` (its statement and source are in its [`ClaimInfo`]).
pub struct Samples;

static SAMPLES_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.samples",
    paper: PAPER,
    result: "Corollary 3 / Theorem 1: 'Algorithm 1 uses no more than n (= T) samples' [as printed]",
    statement: "sum of the batch sizes |M_t| = ceil(sqrt(T/(2(T-t+1)))) (or the real sizes, unrounded) over the single pass <= T (known false: 1.24 T to 1.81 T)",
    mutants: &[],
    known_false: true,
    tautologies: &[],
    perturbation: None,
};

impl Claim for Samples {
    fn info(&self) -> &'static ClaimInfo {
        &SAMPLES_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for count in ["loop", "all"] {
                for t in [100u64, 1000, 10_000] {
                    cases.push(params! { "batch" => batch, "count" => count, "T" => t });
                }
            }
        }
        cases
    }

    /// Every batch rule, both counts (the loop's $t\le T$, or every batch) and horizon
    /// $T\in\[2,10^6\]$ (an exact sum: the search finds where the count exceeds $T$ most).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 2)
                .axis(Axis::choice("batch", &["ceil", "real"]))
                .axis(Axis::choice("count", &["loop", "all"]))
                .axis(Axis::int("T", 2, 1_000_000)),
        )
    }

    fn measure(&self, case: &Params, _run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let t = horizon(case)?;
        let all = case.choice("count", &["loop", "all"])? == "all";
        Ok(vec![Measurement {
            params: case.clone(),
            bound: t as f64,
            relation: Relation::AtMost,
            statistic: Statistic::Exact {
                value: bounds::samples_used(batch_sizes(case)?, t, all)?,
            },
        }])
    }
}

/// The claim `last_iterate.prop4.factor` (its statement and source are in its [`ClaimInfo`]).
pub struct Prop4Factor;

static PROP4_FACTOR_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.prop4.factor",
    paper: PAPER,
    result: "Proposition 4's proof step max_tau (|M_tau|^2 H_{tau:T})^{-1} <= 1 [as printed], with the stated batch sizes",
    statement: "F_T = max_tau 1/(|M_tau|^2 H_{tau:T}) <= 1 for |M_t| = ceil(sqrt(T/(2(T-t+1)))) or sqrt(T/(2(T-t+1))) (known false: F_T -> 2; it holds with equality for the proof's sqrt(T/(T-t+1)))",
    mutants: &[],
    known_false: true,
    tautologies: &[],
    perturbation: None,
};

impl Claim for Prop4Factor {
    fn info(&self) -> &'static ClaimInfo {
        &PROP4_FACTOR_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for t in [10u64, 100, 1000, 10_000] {
                cases.push(params! { "batch" => batch, "T" => t });
            }
        }
        cases
    }

    /// Every batch rule and horizon.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 2)
                .axis(Axis::choice("batch", &["ceil", "real"]))
                .axis(Axis::int("T", 2, 100_000)),
        )
    }

    fn measure(&self, case: &Params, _run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        Ok(vec![Measurement {
            params: case.clone(),
            bound: 1.0,
            relation: Relation::AtMost,
            statistic: Statistic::Exact {
                value: bounds::prop4_factor(batch_sizes(case)?, horizon(case)?)?,
            },
        }])
    }
}

const BETA0_TIMES_10000: Mutant = Mutant {
    name: "noise-variance-x10000",
    description: "algorithm side: the simulation's stationary variance 10^4 beta0 while the bound uses beta0",
};

const PROP4_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.76x",
    description: "algorithm side, threshold mutant: the exact law's noise std times 1 - 0.24 while the bound keeps beta0; the algorithm detection threshold (kappa* in (0.217, 0.232], exact, on the search's T = 3 case) rounded up",
};
const THM1_RDP_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.61x",
    description: "algorithm side, threshold mutant: the exact law's noise std times 1 - 0.39 while the bound keeps beta0; the algorithm detection threshold (kappa* in (0.371, 0.387], exact, on the search's T = 10 case) rounded up",
};
const THM1_DP_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.42x",
    description: "algorithm side, threshold mutant: the exact law's noise std times 1 - 0.58 while the bound keeps beta0; the algorithm detection threshold (kappa* = 0.572) rounded up",
};
const COR3_THRESHOLD: Mutant = Mutant {
    name: "noise-std-understated-0.98",
    description: "algorithm side, threshold mutant: the simulated noise std divided by 1 - 0.98 (x50, variance x2500) while the bound keeps beta0; the algorithm detection threshold (kappa* = 0.974 at seed 1, default size) rounded up",
};
const THM1_UTIL_THRESHOLD: Mutant = Mutant {
    name: "noise-std-understated-0.95",
    description: "algorithm side, threshold mutant: the simulated noise std divided by 1 - 0.95 (x20, variance x400) while the bound keeps beta0; the algorithm detection threshold (kappa* = 0.944 at seed 1, default size) rounded up",
};

/// $\mathbb E\thinspace\ell(w_T,\mathcal D)$ of the single pass on P-pool (fresh samples: every step
/// draws from the whole pool), fixed step $\eta$, $c_t=(t-1)/t$.
fn single_pass_loss(
    claim: &str,
    case: &Params,
    run: RunSpec<'_>,
    eta: f64,
    beta0: f64,
) -> Result<(Vec<dpclaims_empirical::stats::MeanAcc>, LogisticPool), ParamError> {
    let t = horizon(case)?;
    let (k, d) = (case.u64("K")?, case.u64("d")?);
    if !(2..=100_000).contains(&k) || !(1..=1000).contains(&d) {
        return Err(ParamError::new(
            "K",
            k,
            "a pool of 2..10^5 points in 1..1000 dimensions",
        ));
    }
    let trials = dpclaims_theorems::error::at_least("trials", case.u64("trials")?, 2)?;
    let pool_key = dpclaims_core::claim::population_key(
        case,
        &[claim, "pool", &k.to_string(), &d.to_string()],
    )?;
    let pool = LogisticPool::generate(k as usize, d as usize, &mut pool_key.trial(0));
    // The perturbation: the bound's noise std is (1 - kappa) times the simulated one.
    let kappa = match run.mutant {
        Some(m) if m == COR3_THRESHOLD.name => run.kappa(&COR3_THRESHOLD, 0.98),
        _ => run.kappa(&THM1_UTIL_THRESHOLD, 0.95),
    };
    let sim_beta0 = if run.mutant == Some(BETA0_TIMES_10000.name) {
        1e4 * beta0
    } else {
        beta0 / (1.0 - kappa).powi(2)
    };
    let steps: Vec<Step> = (2..=t)
        .map(|s| Step::langevin(eta, (s - 1) as f64 / s as f64, sim_beta0))
        .collect();
    let sgld = Sgld {
        population: &pool,
        steps: &steps,
        beta0: sim_beta0,
    };
    let all: Vec<usize> = (0..k as usize).collect();
    let key = StreamKey::new(
        run.seed,
        &[claim, &dpclaims_core::claim::stream_label(case, &[])],
    );
    let blocks = run_blocks(
        trial_range(trials, run.shard),
        || {
            (
                Workspace::new(d as usize),
                dpclaims_empirical::stats::MeanAcc::new(),
            )
        },
        |ws, acc: &mut dpclaims_empirical::stats::MeanAcc, i| {
            let mut last = 0.0;
            sgld.run(&all, &mut key.trial(i), ws, |s, w| {
                if s == t as usize {
                    last = pool.population_loss(w);
                }
            });
            acc.push(last);
        },
    );
    Ok((blocks, pool))
}

/// The claim `last_iterate.cor3` (its statement and source are in its [`ClaimInfo`]).
pub struct Cor3;

static COR3_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.cor3",
    paper: PAPER,
    result: "Corollary 3 [as printed], single pass on P-pool (exact population loss)",
    statement: "E l(p_T, D) <= min_w [l(w, D) + ln(T) ||w||^2/(T eta)] + beta0 tr(H~_D) + (3 ln T / 2) eta G^2 [detection threshold of the bound 0.0066 on the search's tight case (eta = 0.001, T = 12), elsewhere 0.34; weak on the algorithm side: 0.96, the noise barely matters; docs/detection.json]",
    mutants: &[BETA0_TIMES_10000, COR3_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std divided by 1 - kappa (the bound is evaluated at (1 - kappa) times the noise the algorithm uses)",
    ),
};

impl Claim for Cor3 {
    fn info(&self) -> &'static ClaimInfo {
        &COR3_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for (eta, beta0) in [(0.01, 0.005), (0.1, 0.005), (1.0, 0.005), (1.0, 0.05)] {
            cases.push(params! {
                "K" => 1024, "d" => 10, "T" => 1000, "eta" => eta, "beta0" => beta0, "G" => 1.0, "trials" => 1000,
                "population_seed" => dpclaims_core::claim::DEFAULT_POPULATION_SEED,
            });
        }
        // Adopted from `dpclaims search last_iterate.cor3` (seed 1, confirmed on seed 1000004):
        // its tightest instance, 0.994 against 0.65 above. A step so small that w_T barely
        // leaves 0: both sides are ln 2 plus O(beta0), the bound's slack is beta0 tr(H)/2.
        cases.push(params! {
            "K" => 1024, "d" => 10, "T" => 12, "eta" => 0.001, "beta0" => 0.00036, "G" => 1.0, "trials" => 1000,
            "population_seed" => dpclaims_core::claim::DEFAULT_POPULATION_SEED,
        });
        cases
    }

    /// Step, noise level and horizon on the P-pool; the step hypothesis of the FKT contraction
    /// the analysis rests on, $\eta\le2/L$ with the logistic pool's $L\le1/4$.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 100)
                .axis(Axis::log("eta", 1e-3, 8.0))
                .axis(Axis::log("beta0", 1e-4, 0.5))
                .axis(Axis::int("T", 10, 2000))
                .constraint("eta <= 2/L = 8 (P-pool logistic, L <= 1/4)", |p| {
                    Ok(p.f64("eta")? <= 8.0)
                }),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let (eta, beta0, g) = (case.f64("eta")?, case.f64("beta0")?, case.f64("G")?);
        let t = horizon(case)? as f64;
        let (blocks, pool) = single_pass_loss(self.info().id, case, run, eta, beta0)?;
        // (THEOREMS.md's bound-side mutant "ln T -> 1" leaves this bound above the measured
        // loss on every case: the bound is loose by 1.5x or more.)
        let ln_t = t.ln();
        let (inf, _) = pool.regularised_minimum(ln_t / (t * eta));
        let bound = inf + beta0 * pool.h_tilde_trace() + 1.5 * ln_t * eta * g * g;
        let mut params = case.clone();
        params.set("inf_term", inf.into());
        Ok(vec![Measurement {
            params,
            bound,
            relation: Relation::AtMost,
            statistic: Statistic::Mean { blocks },
        }])
    }
}

/// The claim `last_iterate.thm1.util` (its statement and source are in its [`ClaimInfo`]).
pub struct Theorem1Util;

static THEOREM1_UTIL_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.thm1.util",
    paper: PAPER,
    result: "Theorem 1, utility [as printed], readings eta-stmt / eta-proof, single pass on P-pool",
    statement: "E l(p_T, D) <= min_w [l(w, D) + ln(n) G ||w||^2/(eta0 sqrt n)] + 1.5 ln(n) eta0 G/sqrt(n) + eta0^2 ln(1/delta) tr(H~_D)/(eps^2 n), T = n [detection threshold of the bound 0.095 on the search's tight case (eta0 = 0.1, eps = 3.8), elsewhere 0.54; weak on the algorithm side: 0.94, the noise barely matters; docs/detection.json]",
    mutants: &[BETA0_TIMES_10000, THM1_UTIL_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the simulated noise std divided by 1 - kappa (the bound is evaluated at (1 - kappa) times the noise the algorithm uses)",
    ),
};

impl Claim for Theorem1Util {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM1_UTIL_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for step in ["proof", "stmt"] {
            for eta0 in [1.0, 5.0, 20.0] {
                cases.push(params! {
                    "K" => 1024, "d" => 10, "T" => 1000, "eta0" => eta0, "step" => step, "G" => 1.0,
                    "epsilon" => 1.0, "delta" => 1e-5, "trials" => 1000,
                    "population_seed" => dpclaims_core::claim::DEFAULT_POPULATION_SEED,
                });
            }
        }
        // Adopted from `dpclaims search last_iterate.thm1.util` (seed 1, confirmed on seed
        // 1000004): its tightest instance, 0.906 against 0.46 above (a small eta0 and a large
        // epsilon: the step and the noise are small, the loss stays near ln 2).
        cases.push(params! {
            "K" => 1024, "d" => 10, "T" => 440, "eta0" => 0.1, "step" => "proof", "G" => 1.0,
            "epsilon" => 3.8, "delta" => 1e-9, "trials" => 1000,
            "population_seed" => dpclaims_core::claim::DEFAULT_POPULATION_SEED,
        });
        cases
    }

    /// Theorem 1's free parameters on the P-pool: $T = n$, $\eta_0$, $\epsilon$, $\delta$ and
    /// the step reading; the step $\eta=\eta_0/(2G\sqrt T)$ must satisfy $\eta\le2/L=8$.
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 100)
                .axis(Axis::choice("step", &["proof", "stmt"]))
                .axis(Axis::int("T", 10, 2000))
                .axis(Axis::log("eta0", 0.1, 50.0))
                .axis(Axis::log("epsilon", 0.1, 10.0))
                .axis(Axis::log("delta", 1e-10, 1e-2))
                .constraint("eta = eta0/(2 G sqrt T) <= 2/L = 8", |p| {
                    Ok(p.f64("eta0")? / (2.0 * p.f64("G")? * (p.u64("T")? as f64).sqrt()) <= 8.0)
                }),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let n = horizon(case)?;
        let (g, eta0) = (case.f64("G")?, case.f64("eta0")?);
        let (eps, delta) = (case.f64("epsilon")?, case.f64("delta")?);
        let p = bounds::theorem1(n, g, eta0, eps, delta)?;
        let eta = match case.choice("step", &["proof", "stmt"])?.as_str() {
            "proof" => p.eta,
            _ => p.eta / eta0,
        };
        let (blocks, pool) = single_pass_loss(self.info().id, case, run, eta, p.beta0)?;
        let (nf, ln_n) = (n as f64, (n as f64).ln());
        let (inf, _) = pool.regularised_minimum(ln_n * g / (eta0 * nf.sqrt()));
        let bound = inf
            + 1.5 * ln_n * eta0 * g / nf.sqrt()
            + eta0 * eta0 * (1.0 / delta).ln() * pool.h_tilde_trace() / (eps * eps * nf);
        let mut params = case.clone();
        params.set("eta", eta.into());
        params.set("beta0", p.beta0.into());
        params.set("inf_term", inf.into());
        Ok(vec![Measurement {
            params,
            bound,
            relation: Relation::AtMost,
            statistic: Statistic::Mean { blocks },
        }])
    }
}

const LEMMA1_THRESHOLD: Mutant = Mutant {
    name: "noise-std-0.92x",
    description: "algorithm side, threshold mutant: the Gaussian mechanism's noise std times 1 - 0.08 while the conversion keeps the RDP eps; the algorithm detection threshold (kappa* in (0.062, 0.077], exact, on the search's delta = 1e-12 case) rounded up",
};
const CONVERSION_WITHOUT_DELTA_TERM: Mutant = Mutant {
    name: "conversion-without-delta-term",
    description: "bound side: Lemma 1 without its ln(1/delta)/(alpha - 1) term",
};

/// The claim `last_iterate.lemma1` (its statement and source are in its [`ClaimInfo`]).
pub struct Lemma1;

static LEMMA1_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.lemma1",
    paper: PAPER,
    result: "Lemma 1 (Mironov 2017) as used in Theorem 1's proof [as printed], on the last iterate's Gaussian RDP curve",
    statement: "(alpha, eps)-RDP implies (eps + ln(1/delta)/(alpha - 1), delta)-DP, at the paper's alpha = 1 + ln(1/delta)/eps: the exact eps(delta) of N(mu, 1) vs N(0, 1) <= the converted eps",
    mutants: &[CONVERSION_WITHOUT_DELTA_TERM, LEMMA1_THRESHOLD],
    known_false: false,
    tautologies: &[],
    perturbation: Some(
        "algorithm side: the Gaussian mechanism's noise std times 1 - kappa (mu / (1 - kappa)) while the conversion keeps the RDP eps",
    ),
};

impl Claim for Lemma1 {
    fn info(&self) -> &'static ClaimInfo {
        &LEMMA1_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for rdp_eps in [0.1, 0.5, 1.0, 4.0] {
            for delta in [1e-5, 1e-8] {
                cases.push(params! { "rdp_epsilon" => rdp_eps, "delta" => delta });
            }
        }
        // Adopted from `dpclaims search last_iterate.lemma1` (seed 1): its tightest instance,
        // 0.921 against 0.881 above, at the space's smallest delta.
        cases.push(params! { "rdp_epsilon" => 11.5, "delta" => 1e-12 });
        cases
    }

    /// Every RDP level and $\delta$ (the paper's order $\alpha = 1+\ln(1/\delta)/\epsilon$).
    fn space(&self) -> Option<dpclaims_core::space::Space> {
        use dpclaims_core::space::{Axis, Space};
        Some(
            Space::new(self.cases()[0].clone(), 2)
                .axis(Axis::log("rdp_epsilon", 1e-3, 20.0))
                .axis(Axis::log("delta", 1e-12, 0.5)),
        )
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let eps = dpclaims_theorems::error::positive("rdp_epsilon", case.f64("rdp_epsilon")?)?;
        let delta = dpclaims_theorems::error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
        // The paper's order, and the Gaussian pair whose RDP at that order is exactly eps:
        // D_alpha(N(mu,1) || N(0,1)) = alpha mu^2 / 2.
        let alpha = 1.0 + (1.0 / delta).ln() / eps;
        let mu = (2.0 * eps / alpha).sqrt();
        let converted = if run.mutant == Some(CONVERSION_WITHOUT_DELTA_TERM.name) {
            eps
        } else {
            eps + (1.0 / delta).ln() / (alpha - 1.0)
        };
        let mut params = case.clone();
        params.set("alpha", alpha.into());
        params.set("mu", mu.into());
        Ok(vec![Measurement {
            params,
            bound: converted,
            relation: Relation::AtMost,
            // The perturbation: the mechanism's noise std times 1 - kappa.
            statistic: Statistic::Exact {
                value: gaussian::epsilon(mu / (1.0 - run.kappa(&LEMMA1_THRESHOLD, 0.08)), delta)?,
            },
        }])
    }
}

/// The claims of this family, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![
        &Cor3,
        &Theorem1Util,
        &Prop4,
        &Prop4Factor,
        &Lemma1,
        &Theorem1Rdp,
        &Theorem1Dp,
        &Samples,
    ]
}
