//! Proof steps of seed 000: Theorem 1 from Corollary 3 (Section 4.2).

use super::*;

/// Corollary 3's right side minus $\ell(w,\mathcal D)$ at step $\eta$, $\beta_0$, $\Vert w\Vert=r$.
pub(super) fn cor3_rhs(t: f64, eta: f64, beta0: f64, g: f64, r: f64, trace: f64) -> f64 {
    t.ln() * r * r / (t * eta) + beta0 * trace + 1.5 * t.ln() * eta * g * g
}

/// Theorem 1's display (and statement) minus $\ell(w,\mathcal D)$; `w_coef` multiplies the
/// printed $G\Vert w\Vert^2/\eta_0$ (2 is the corrected coefficient).
pub(super) fn thm1_rhs(
    t: f64,
    eta0: f64,
    g: f64,
    r: f64,
    trace: f64,
    alpha: f64,
    eps: f64,
    w_coef: f64,
) -> f64 {
    t.ln() * (w_coef * r * r * g / eta0 + 1.5 * eta0 * g) / t.sqrt()
        + alpha * eta0 * eta0 * trace / (2.0 * eps * t)
}

pub(super) fn thm1_consistency_cases(norms: &[f64]) -> Vec<Params> {
    let mut v = Vec::new();
    for t in [100u64, 10_000] {
        for eta0 in [1.0, 5.0] {
            for r in norms {
                v.push(params! {
                    "T" => t, "eta0" => eta0, "G" => 1.0, "w_norm_over_eta0" => r,
                    "trace" => 0.2, "epsilon" => 1.0, "delta" => 1e-5,
                });
            }
        }
    }
    v
}

pub(super) fn thm1_consistency(case: &Params, w_coef: f64) -> Result<Vec<Measurement>, ParamError> {
    let t = horizon(case, 2, 100_000_000)? as f64;
    let (eta0, g) = (
        error::positive("eta0", case.f64("eta0")?)?,
        error::positive("G", case.f64("G")?)?,
    );
    let r = error::non_negative("w_norm_over_eta0", case.f64("w_norm_over_eta0")?)? * eta0;
    let trace = error::non_negative("trace", case.f64("trace")?)?;
    let eps = error::positive("epsilon", case.f64("epsilon")?)?;
    let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
    let alpha = 1.0 + (1.0 / delta).ln() / eps;
    // Theorem 1's proof: eta = eta0 sqrt(1/(4 G^2 T)), beta0 = alpha eta0^2/(2 eps T).
    let eta = eta0 / (2.0 * g * t.sqrt());
    let beta0 = alpha * eta0 * eta0 / (2.0 * eps * t);
    let earlier = cor3_rhs(t, eta, beta0, g, r, trace);
    let later = thm1_rhs(t, eta0, g, r, trace, alpha, eps, w_coef);
    let mut p = case.clone();
    p.set("later_rhs", later.into());
    Ok(vec![computed(
        p,
        later,
        Relation::AtMost,
        earlier,
        16.0,
        earlier,
    )])
}

pub(super) static THM1_FROM_COR3: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "last_iterate.thm1.step.from_cor3",
        paper: PAPER,
        result: "Theorem 1's proof: Corollary 3 at eta = eta0 sqrt(1/(4 G^2 T)), beta0 = alpha eta0^2/(2 eps T) 'implies' the display ln(T)(||w||^2 G/eta0 + 1.5 eta0 G)/sqrt(T) + alpha eta0^2 tr(H~)/(2 eps T) [as printed; consistency]",
        statement: "Corollary 3's right side <= Theorem 1's display for every w (known false for ||w||^2 > 0.75 eta0^2: Corollary 3's w-term at this eta is 2 ln(T) G ||w||^2/(eta0 sqrt T), twice the display's)",
        mutants: &[],
        known_false: true,
        tautologies: &[],
        perturbation: None,
    },
    cases: || thm1_consistency_cases(&[1.0, 2.0, 5.0]),
    measure: |case, _| thm1_consistency(case, 1.0),
};

pub(super) const W_COEF_PRINTED: Mutant = Mutant {
    name: "printed-w-coefficient",
    description: "bound side: the display's printed G ||w||^2/eta0 in place of the corrected 2 G ||w||^2/eta0",
};

pub(super) static THM1_FROM_COR3_CORRECTED: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "last_iterate.thm1.step.from_cor3.corrected",
        paper: PAPER,
        result: "Theorem 1's display, corrected [derived]: ln(T)(2 ||w||^2 G/eta0 + 1.5 eta0 G)/sqrt(T) + alpha eta0^2 tr(H~)/(2 eps T) follows from Corollary 3 for every w",
        statement: "Corollary 3's right side <= the corrected display for every ||w|| (equal w-terms; the display's 1.5 eta0 G ln(T)/sqrt(T) is twice Corollary 3's)",
        mutants: &[W_COEF_PRINTED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || thm1_consistency_cases(&[0.0, 0.5, 1.0, 2.0, 5.0, 50.0]),
    measure: |case, run| thm1_consistency(case, if is(run, &W_COEF_PRINTED) { 1.0 } else { 2.0 }),
};

/// Corollary 3's privacy-side term $\beta_0\mathrm{tr}\tilde H$ at Theorem 1's $\beta_0$ against
/// the statement's $\eta_0^2\ln(1/\delta)\mathrm{tr}\tilde H/(\epsilon^2n)$ (per unit of
/// $\eta_0^2\mathrm{tr}\tilde H$).
pub(super) fn thm1_privacy_term(
    case: &Params,
    halve: bool,
) -> Result<Vec<Measurement>, ParamError> {
    let n = horizon(case, 1, u64::MAX)? as f64;
    let eps = error::positive("epsilon", case.f64("epsilon")?)?;
    let delta = error::open_interval("delta", case.f64("delta")?, 0.0, 1.0)?;
    let alpha = 1.0 + (1.0 / delta).ln() / eps;
    let earlier = alpha / (2.0 * eps * n);
    let mut later = (1.0 / delta).ln() / (eps * eps * n);
    if halve {
        later *= 0.5;
    }
    Ok(vec![computed(
        case.clone(),
        later,
        Relation::AtMost,
        earlier,
        8.0,
        earlier,
    )])
}

pub(super) const STATEMENT_TERM_HALVED: Mutant = Mutant {
    name: "statement-term-halved",
    description: "bound side: the statement's ln(1/delta) tr(H~) eta0^2/(eps^2 n) halved",
};

pub(super) static THM1_PRIVACY_TERM: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "last_iterate.thm1.step.privacy_term",
        paper: PAPER,
        result: "Theorem 1's statement from its proof display: alpha eta0^2 tr(H~)/(2 eps T) <= eta0^2 ln(1/delta) tr(H~)/(eps^2 n) at T = n, alpha = 1 + ln(1/delta)/eps [as printed; consistency], on eps <= ln(1/delta)",
        statement: "(eps + ln(1/delta))/(2 eps^2 n) <= ln(1/delta)/(eps^2 n), i.e. eps <= ln(1/delta); tightest at eps = ln(1/delta)",
        mutants: &[STATEMENT_TERM_HALVED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [(1.0, 1e-5), (0.1, 1e-3), (4.6, 0.01), (0.69, 0.5)]
            .iter()
            .map(|(e, d)| params! { "T" => 1000, "epsilon" => e, "delta" => d })
            .collect()
    },
    measure: |case, run| thm1_privacy_term(case, is(run, &STATEMENT_TERM_HALVED)),
};

pub(super) static THM1_PRIVACY_TERM_LARGE_EPS: StepClaim = StepClaim {
    info: ClaimInfo {
        id: "last_iterate.thm1.step.privacy_term.large_epsilon",
        paper: PAPER,
        result: "Theorem 1's statement from its proof display for eps > ln(1/delta) (Theorem 1 states no range) [as printed; consistency]",
        statement: "(eps + ln(1/delta))/(2 eps^2 n) <= ln(1/delta)/(eps^2 n) (known false for eps > ln(1/delta), e.g. eps = 5, delta = 0.01: ratio 1.043)",
        mutants: &[],
        known_false: true,
        tautologies: &[],
        perturbation: None,
    },
    cases: || {
        [(5.0, 0.01), (1.0, 0.5), (0.5, 0.9)]
            .iter()
            .map(|(e, d)| params! { "T" => 1000, "epsilon" => e, "delta" => d })
            .collect()
    },
    measure: |case, _| thm1_privacy_term(case, false),
};
