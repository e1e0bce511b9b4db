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

pub fn claims() -> Vec<&'static dyn Claim> {
    vec![&Prop1]
}
