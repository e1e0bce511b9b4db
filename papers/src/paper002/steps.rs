//! Proof-step claims of seed 002 (Zhou, Chen, Hong, Wu, Banerjee 2020, arXiv 2006.13501). "All
//! the proofs are deferred to the Appendix", which our copy lacks; what survives are the printed
//! implications of the assumptions, Theorem 1's outline, Theorem 3's outline and Section 5's
//! comparison with uniform convergence. The one quantitative step there, Section 5's combination
//! of the empirical rate with the uniform-convergence rate, is checked here as printed and with
//! its missing hypothesis. The maps are in `src/proofs_002.rs`; the findings in
//! THEOREMS_NOTES.md ("Seed 002, proof maps").

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

/// The step claims of seed 002, in registry order.
pub fn claims() -> Vec<&'static dyn dpclaims_core::claim::Claim> {
    vec![
        &COMBINE,
        &COMBINE_CORRECTED,
        &THM4_OPTIMUM,
        &THM4_OPTIMUM_CORRECTED,
    ]
}
