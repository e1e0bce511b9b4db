//! Proof-step claims of seed 002 (Zhou, Chen, Hong, Wu, Banerjee 2020, arXiv 2006.13501). "All
//! the proofs are deferred to the Appendix", which our copy lacks; what survives are the printed
//! implications of the assumptions, Theorem 1's outline, Theorem 3's outline and Section 5's
//! comparison with uniform convergence. The one quantitative step there, Section 5's combination
//! of the empirical rate with the uniform-convergence rate, is checked here as printed and with
//! its missing hypothesis. The maps are in `src/proofs_002.rs`; the findings in
//! THEOREMS_NOTES.md ("Seed 002, proof maps").

use super::proof_steps_000::{StepClaim, computed, is};
use super::{ClaimInfo, Mutant};
use crate::params;
use crate::params::Params;
use crate::verdict::Relation;
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

/// The step claims of seed 002, in registry order.
pub fn claims() -> Vec<&'static dyn super::Claim> {
    vec![&COMBINE, &COMBINE_CORRECTED]
}
