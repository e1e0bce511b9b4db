//! Closed forms of seed 000's exact proof steps, so that `prove` decides them on their whole box
//! (the claims' cases and measurements are unchanged: [`WithForm`] only attaches the form).
//! Each side is written once against [`Real`] and instantiated for intervals and for floats.

use super::*;
use dpclaims_core::interval::{I, Real};
use dpclaims_core::prove::{ClosedForm, FormClaim, WithForm};
use dpclaims_core::space::Axis;

/// $2\le T\le10^8$, the horizons the step claims accept.
const HORIZON: &[Axis] = &[Axis::int("T", 2, 100_000_000)];

/// $H_T\le\ln T$ (as printed).
fn lambda<R: Real>(x: &[R], _: Option<&str>) -> (R, R) {
    (x[0].harmonic(), x[0].ln())
}

/// $H_T\le c+\ln T$, $c=1$ (the mutant: $\frac12$).
fn lambda_corrected<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let c = if m == Some(LOG_PLUS_HALF.name) {
        0.5
    } else {
        1.0
    };
    (x[0].harmonic(), R::cst(c) + x[0].ln())
}

/// $\sum_{k=0}^{T-1}\frac1{k+2}=H_{T+1}-1\le\ln T$ (as printed).
fn harmonic_printed<R: Real>(x: &[R], _: Option<&str>) -> (R, R) {
    ((x[0] + R::cst(1.0)).harmonic() - R::cst(1.0), x[0].ln())
}

/// $\sum_{k=0}^{T-2}\frac1{k+2}=H_T-1\le\ln T$ (the mutant: $\frac12\ln T$).
fn harmonic_corrected<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let c = if m == Some(LOG_HALVED.name) { 0.5 } else { 1.0 };
    (x[0].harmonic() - R::cst(1.0), R::cst(c) * x[0].ln())
}

/// Theorem 1's proof: Corollary 3's right side at $\eta=\eta_0/(2G\sqrt T)$,
/// $\beta_0=\alpha\eta_0^2/(2\epsilon T)$, $\alpha=1+\ln(1/\delta)/\epsilon$, against the display
/// with coefficient $c$ on $G\Vert w\Vert^2/\eta_0$ ($c=1$ printed, $2$ corrected), per unit
/// of nothing: the axes are $T,\eta_0,G,\Vert w\Vert/\eta_0,\mathrm{tr}\tilde H,\epsilon,\delta$.
fn thm1<R: Real>(x: &[R], c: f64) -> (R, R) {
    let (t, eta0, g, rr, trace, eps, delta) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
    let r = rr * eta0;
    let one = R::cst(1.0);
    let alpha = one + (one / delta).ln() / eps;
    let eta = eta0 / (R::cst(2.0) * g * t.sqrt());
    let beta0 = alpha * eta0.sqr() / (R::cst(2.0) * eps * t);
    let lt = t.ln();
    let earlier = lt * r.sqr() / (t * eta) + beta0 * trace + R::cst(1.5) * lt * eta * g.sqr();
    let later = lt * (R::cst(c) * r.sqr() * g / eta0 + R::cst(1.5) * eta0 * g) / t.sqrt()
        + alpha * eta0.sqr() * trace / (R::cst(2.0) * eps * t);
    (earlier, later)
}
fn thm1_printed<R: Real>(x: &[R], _: Option<&str>) -> (R, R) {
    thm1(x, 1.0)
}
fn thm1_corrected<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    thm1(
        x,
        if m == Some(W_COEF_PRINTED.name) {
            1.0
        } else {
            2.0
        },
    )
}
const THM1_BOX: &[Axis] = &[
    Axis::int("T", 2, 100_000_000),
    Axis::log("eta0", 0.1, 10.0),
    Axis::log("G", 0.1, 10.0),
    Axis::real("w_norm_over_eta0", 0.0, 50.0),
    Axis::real("trace", 0.0, 10.0),
    Axis::log("epsilon", 0.1, 10.0),
    Axis::log("delta", 1e-10, 0.5),
];

const fn form(
    axes: &'static [Axis],
    interval: fn(&[I], Option<&str>) -> (I, I),
    point: fn(&[f64], Option<&str>) -> (f64, f64),
) -> ClosedForm {
    ClosedForm {
        axes,
        relation: Relation::AtMost,
        interval,
        point,
        admits: None,
    }
}

pub(super) static COR3_LAMBDA_FORM: WithForm = WithForm {
    claim: &COR3_LAMBDA,
    form: form(HORIZON, lambda::<I>, lambda::<f64>),
};
pub(super) static COR3_LAMBDA_CORRECTED_FORM: WithForm = WithForm {
    claim: &COR3_LAMBDA_CORRECTED,
    form: form(HORIZON, lambda_corrected::<I>, lambda_corrected::<f64>),
};
pub(super) static COR3_HARMONIC_FORM: WithForm = WithForm {
    claim: &COR3_HARMONIC,
    form: form(HORIZON, harmonic_printed::<I>, harmonic_printed::<f64>),
};
pub(super) static COR3_HARMONIC_CORRECTED_FORM: WithForm = WithForm {
    claim: &COR3_HARMONIC_CORRECTED,
    form: form(HORIZON, harmonic_corrected::<I>, harmonic_corrected::<f64>),
};
pub(super) static THM1_FROM_COR3_FORM: WithForm = WithForm {
    claim: &THM1_FROM_COR3,
    form: form(THM1_BOX, thm1_printed::<I>, thm1_printed::<f64>),
};
pub(super) static THM1_FROM_COR3_CORRECTED_FORM: WithForm = WithForm {
    claim: &THM1_FROM_COR3_CORRECTED,
    form: form(THM1_BOX, thm1_corrected::<I>, thm1_corrected::<f64>),
};

/// The mutant of [`PROP4_FACTOR_RANGE`]: $\lambda_t=2/(t\eta)$.
pub(super) const LAMBDA_DOUBLED: Mutant = Mutant {
    name: "lambda-doubled",
    description: "lambda_t = 2/(t eta), so lambda_t eta = 2/t (2 - 2/1 = 0 < 1 at t = 1)",
};

/// Proposition 4's "$2\ge2-\lambda_t\eta\ge1$" at $\lambda_t\eta=1/t$, $t\ge1$, both sides at
/// once: with $f=2-\lambda_t\eta$, $\min(f,\ 3-f)\ge1$ ($f\ge1$ and $f\le2$).
fn factor_range<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let c = if m == Some(LAMBDA_DOUBLED.name) {
        2.0
    } else {
        1.0
    };
    let le = R::cst(c) / x[0];
    let f = R::cst(2.0) - le;
    (f.min(R::cst(3.0) - f), R::cst(1.0))
}

pub(super) static PROP4_FACTOR_RANGE: FormClaim = FormClaim {
    info: ClaimInfo {
        id: "last_iterate.prop4.step.factor_range",
        paper: PAPER,
        result: "Proposition 4's proof: 'because 2 >= (2 - lambda_t eta_t) >= 1, we can ignore this factor' [proof step, closed form]",
        statement: "1 <= 2 - lambda_t eta <= 2 at lambda_t eta = 1/t, for every integer 1 <= t <= 10^8",
        mutants: &[LAMBDA_DOUBLED],
        known_false: false,
        tautologies: &[],
        perturbation: None,
    },
    form: ClosedForm {
        axes: &[Axis::int("t", 1, 100_000_000)],
        relation: Relation::AtLeast,
        interval: factor_range::<I>,
        point: factor_range::<f64>,
        admits: None,
    },
    cases: || {
        [1u64, 2, 10, 1000]
            .iter()
            .map(|t| params! { "t" => t })
            .collect()
    },
};

/// $\frac{H_T+1}2\le\ln T$ (Corollary 3's last step as printed, false for $T\le5$).
fn w_term_printed<R: Real>(x: &[R], _: Option<&str>) -> (R, R) {
    ((x[0].harmonic() + R::cst(1.0)) / R::cst(2.0), x[0].ln())
}

/// Theorem 1's privacy term: $\frac{\alpha}{2\epsilon n}\le\frac{\ln(1/\delta)}{\epsilon^2n}$ at
/// $\alpha=1+\ln(1/\delta)/\epsilon$ (the mutant halves the right side), both sides times
/// $\epsilon^2n>0$ (the same relation, free of $n$ and with less dependency on $\epsilon$):
/// $\frac{\epsilon+\ln(1/\delta)}2\le\ln(1/\delta)$.
fn privacy_term<R: Real>(x: &[R], m: Option<&str>) -> (R, R) {
    let (eps, delta) = (x[0], x[1]);
    let l = (R::cst(1.0) / delta).ln();
    let half = if m == Some(STATEMENT_TERM_HALVED.name) {
        0.5
    } else {
        1.0
    };
    ((eps + l) / R::cst(2.0), R::cst(half) * l)
}

/// The hypothesis of the corrected privacy term, $\epsilon\le\ln(1/\delta)$, on a box.
fn epsilon_at_most_log(x: &[I]) -> Option<bool> {
    let l = (I::point(1.0) / x[1]).ln();
    if x[0].hi <= l.lo {
        Some(true)
    } else if x[0].lo > l.hi {
        Some(false)
    } else {
        None
    }
}

const PRIVACY_BOX: &[Axis] = &[
    Axis::log("epsilon", 0.01, 10.0),
    Axis::log("delta", 1e-12, 0.99),
];

pub(super) static COR3_W_TERM_FORM: WithForm = WithForm {
    claim: &COR3_W_TERM,
    form: form(HORIZON, w_term_printed::<I>, w_term_printed::<f64>),
};
pub(super) static THM1_PRIVACY_TERM_LARGE_EPS_FORM: WithForm = WithForm {
    claim: &THM1_PRIVACY_TERM_LARGE_EPS,
    form: form(PRIVACY_BOX, privacy_term::<I>, privacy_term::<f64>),
};
pub(super) static THM1_PRIVACY_TERM_FORM: WithForm = WithForm {
    claim: &THM1_PRIVACY_TERM,
    form: ClosedForm {
        admits: Some(epsilon_at_most_log),
        ..form(PRIVACY_BOX, privacy_term::<I>, privacy_term::<f64>)
    },
};
