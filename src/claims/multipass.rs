//! Claims `multipass.*`: seed 000 (Ma, Marinov, Zhang 2022), multi-pass results
//! (THEOREMS.md §3). So far: Proposition 1 checked exactly on quadratic losses.

use super::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use crate::params;
use crate::params::Params;
use crate::verdict::Relation;
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

pub struct Prop1;

static PROP1_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.prop1",
    paper: PAPER,
    result: "Proposition 1 with Lemma 3's E||grad||^2 in place of G^2 [as printed, prop1.grad]; exact on P-quad",
    statement: "sum_t [l(p_t,z_t) + beta_t H(p_t||q)] <= inf_p sum_t [l(p,z_t) + beta_t H(p||q)] + sum_t eta_t/2 E||grad l(w,z_t)||^2",
    mutants: &[WITHOUT_GRADIENT_TERM, B_AS_BETA0],
    known_false: false,
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
        let grad: Vec<f64> = (0..horizon - 1)
            .map(|i| if index == "A" { eta[i + 1] } else { eta[i] })
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
            lhs += 0.5 * a * (dist2 + d * s2) + betas[t] * entropy;
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
fn schedule_of(case: &Params) -> Result<bounds::Theorem2Schedule, ParamError> {
    let n = case.u64("n")?;
    let epsilon = match case.str("epsilon") {
        Ok("n^-1/4") => (n as f64).powf(-0.25),
        _ => case.f64("epsilon")?,
    };
    bounds::Theorem2Schedule::from_privacy(
        n,
        case.f64("delta")?,
        epsilon,
        case.f64("alpha")?,
        case.f64("eta0")?,
        case.f64("G")?,
        bounds::HorizonRounding::Floor,
    )
}

fn epsilon_of(case: &Params) -> Result<f64, ParamError> {
    match case.str("epsilon") {
        Ok("n^-1/4") => Ok((case.u64("n")? as f64).powf(-0.25)),
        _ => case.f64("epsilon"),
    }
}

pub struct Theorem2Dp;

static THEOREM2_DP_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.thm2.dp",
    paper: PAPER,
    result: "Theorem 2 (privacy, all iterates) and Proposition 3 [as printed], against the PLD accountant of the actual mechanism",
    statement: "Algorithm 1 with Theorem 2's schedule is (3 eps sqrt(ln(2/delta)) + 3 eps^2, delta)-DP and (Prop. 3) (sqrt(2T ln(2/delta)) e/n + T e^2/n^2, delta)-DP: PLD upper bound on the true eps <= each",
    mutants: &[SAMPLING_IGNORED],
    known_false: false,
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

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let schedule = schedule_of(case)?;
        let (epsilon, delta) = (epsilon_of(case)?, case.f64("delta")?);
        let q = if run.mutant == Some(SAMPLING_IGNORED.name) {
            1.0
        } else {
            1.0 / schedule.n as f64
        };
        let pld = schedule.pld_epsilon(
            q,
            delta,
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
                params.set("pld_optimistic", pld.optimistic.into());
                Measurement {
                    params,
                    bound,
                    relation: Relation::AtMost,
                    statistic: Statistic::Exact {
                        value: pld.pessimistic,
                    },
                }
            })
            .collect())
    }
}

pub struct Theorem2FromProp3;

static THEOREM2_FROM_PROP3_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.thm2.dp_from_prop3",
    paper: PAPER,
    result: "Theorem 2's proof: 'taking eta_t as in Proposition 3 implies the DP part' [as printed], at alpha = 2",
    statement: "at T = n^alpha eps^2, Prop. 3's eps <= 3 eps sqrt(ln(2/delta)) + 3 eps^2 (known false at alpha = 2: Prop. 3 gives sqrt(2) e eps sqrt(ln(2/delta)) + e^2 eps^2)",
    mutants: &[],
    known_false: true,
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

pub struct Lemma6;

const STEP_NOISE_HALVED: Mutant = Mutant {
    name: "noise-halved",
    description: "algorithm side: the step's noise is sigma/2 while Lemma 6 is evaluated at sigma",
};

static LEMMA6_INFO: ClaimInfo = ClaimInfo {
    id: "multipass.lemma6",
    paper: PAPER,
    result: "Lemma 6 [as printed] and its Balle-Barthe-Gaboardi form [derived lemma6.bbg], against the exact per-step hockey-stick",
    statement: "one step w = a w~ - eta grad l(w~, z) + sigma eps, z ~ U(S_m), is (ln(1 + e^{eps_G}/m), delta/m)-DP (printed) and (ln(1 + (e^{eps_G} - 1)/m), delta/m)-DP (bbg), eps_G = sqrt(8 ln(1.25/delta)) eta G/sigma < 1: the PLD upper bound on the step's delta at that eps <= delta/m",
    mutants: &[STEP_NOISE_HALVED],
    known_false: false,
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
        ]
        .iter()
        .map(|&(m, eta, sigma, delta)| {
            params! { "m" => m, "eta" => eta, "G" => 1.0, "sigma" => sigma, "delta" => delta }
        })
        .collect()
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        use dpclaims_theorems::privacy::pld::{self, Pair, PldOptions};
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
        // The step as a mechanism: the differing sample is drawn with probability 1/m and moves
        // the mean by 2 eta G between the neighbours: the replace-one pair with multiplier
        // sigma / (eta G).
        let noise = if run.mutant == Some(STEP_NOISE_HALVED.name) {
            sigma / 2.0
        } else {
            sigma
        };
        let pair = Pair::ReplaceOne {
            q: 1.0 / m as f64,
            sigma: noise / (eta * g),
        };
        let readings = [
            ("printed", bounds::lemma6_printed(eta, g, sigma, delta, m)?),
            ("bbg", bounds::lemma6_bbg(eta, g, sigma, delta, m)?),
        ];
        readings
            .into_iter()
            .map(|(which, (eps, per_step_delta))| {
                let exact = pld::pair_delta(&pair, 1, eps, &PldOptions::default())?;
                let mut params = case.clone();
                params.set("reading", which.into());
                params.set("epsilon", eps.into());
                params.set("eps_G", eps_g.into());
                params.set("pld_optimistic", exact.optimistic.into());
                Ok(Measurement {
                    params,
                    bound: per_step_delta,
                    relation: Relation::AtMost,
                    statistic: Statistic::Exact {
                        value: exact.pessimistic,
                    },
                })
            })
            .collect()
    }
}

pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&Prop1, &Lemma6, &Theorem2Dp, &Theorem2FromProp3]
}
