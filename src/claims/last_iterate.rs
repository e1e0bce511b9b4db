//! Claims `last_iterate.*`: single-pass Algorithm 1 of seed 000 (Ma, Marinov, Zhang 2022;
//! THEOREMS.md §2). Privacy is checked exactly on the worst-case linear instance P-lin, where
//! the last iterates of the two neighbouring runs are Gaussians with variance $\beta_0$ whose
//! means differ by $2G\eta\sqrt{\kappa_T}$ in the worst position of the differing sample.

use super::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use crate::params;
use crate::params::Params;
use crate::verdict::Relation;
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

pub struct Prop4;

static PROP4_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.prop4",
    paper: PAPER,
    result: "Proposition 4 [as printed], exact on P-lin [derived]",
    statement: "the single-pass last iterate is (alpha, 2 alpha eta^2 G^2 / beta0)-RDP: exact D_alpha = alpha shift^2 / (2 beta0) maximised over the differing sample's position <= 2 alpha eta^2 G^2 / beta0",
    mutants: &[ORDER_DROPPED],
    known_false: false,
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
        cases
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
            statistic: Statistic::Exact {
                value: alpha * shift2 / (2.0 * beta0),
            },
        }])
    }
}

pub struct Theorem1Dp;

static THEOREM1_DP_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.thm1.dp",
    paper: PAPER,
    result: "Theorem 1, privacy of the last iterate [as printed], exact on P-lin [derived]",
    statement: "with T = n, eta = eta0 sqrt(1/(4 G^2 T)) and beta0 = (eps + ln(1/delta)) eta0^2/(2 eps^2 T), w_T is (2 eps, delta)-DP: exact delta(2 eps) of the worst-case Gaussian pair <= delta",
    mutants: &[NOISE_TIMES_ETA],
    known_false: false,
};

impl Claim for Theorem1Dp {
    fn info(&self) -> &'static ClaimInfo {
        &THEOREM1_DP_INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for batch in ["ceil", "real"] {
            for eta0 in [1.0] {
                for (eps, delta) in [(1.0, 1e-5), (0.5, 1e-6)] {
                    cases.push(params! {
                        "batch" => batch, "T" => 1000, "G" => 1.0, "eta0" => eta0, "epsilon" => eps, "delta" => delta,
                    });
                }
            }
        }
        cases
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let t = horizon(case)?;
        let (g, eps, delta) = (case.f64("G")?, case.f64("epsilon")?, case.f64("delta")?);
        let p = bounds::theorem1(t, g, case.f64("eta0")?, eps, delta)?;
        let (kappa, at) = bounds::linear_kappa(batch_sizes(case)?, t)?;
        let variance = if run.mutant == Some(NOISE_TIMES_ETA.name) {
            p.eta * p.eta * p.beta0
        } else {
            p.beta0
        };
        let mu = 2.0 * g * p.eta * kappa.sqrt() / variance.sqrt();
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

pub struct Samples;

static SAMPLES_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.samples",
    paper: PAPER,
    result: "Corollary 3 / Theorem 1: 'Algorithm 1 uses no more than n (= T) samples' [as printed]",
    statement: "sum of the batch sizes |M_t| = ceil(sqrt(T/(2(T-t+1)))) (or the real sizes, unrounded) over the single pass <= T (known false: 1.24 T to 1.81 T)",
    mutants: &[],
    known_false: true,
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

pub struct Prop4Factor;

static PROP4_FACTOR_INFO: ClaimInfo = ClaimInfo {
    id: "last_iterate.prop4.factor",
    paper: PAPER,
    result: "Proposition 4's proof step max_tau (|M_tau|^2 H_{tau:T})^{-1} <= 1 [as printed], with the stated batch sizes",
    statement: "F_T = max_tau 1/(|M_tau|^2 H_{tau:T}) <= 1 for |M_t| = ceil(sqrt(T/(2(T-t+1)))) or sqrt(T/(2(T-t+1))) (known false: F_T -> 2; it holds with equality for the proof's sqrt(T/(T-t+1)))",
    mutants: &[],
    known_false: true,
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

pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&Prop4, &Prop4Factor, &Theorem1Dp, &Samples]
}
