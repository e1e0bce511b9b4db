//! Proof-step claims of seed 000 (Ma, Marinov, Zhang 2022, arXiv 2206.01836), Sections 4–5:
//! the displayed inequalities, constants and cited lemmas of the proofs, each checked on the
//! instances where it is tightest that we found (exact calculators; no sampling except where
//! stated). The proof maps that order them are in [`dpclaims_core::proofs`]; the findings are in
//! THEOREMS_NOTES.md ("Seed 000, proof maps").
//!
//! Every claim here is a [`StepClaim`]: static metadata plus two functions (its cases and how
//! one case is measured), so that a step costs a few lines. Consistency checks between results
//! ("the later right-hand side is at least the earlier one") measure the earlier right-hand side
//! and take the later one as the bound.

mod cor2_thm2;
mod cor3;
mod corrected;
mod forms;
mod identities;
mod lemma5_prop2;
mod prop1;
mod prop3;
mod thm1;
mod thm2_constant;

use cor2_thm2::*;
use cor3::*;
use corrected::*;
use forms::*;
use identities::*;
use lemma5_prop2::*;
use prop1::*;
use prop3::*;
use thm1::*;
use thm2_constant::*;

use dpclaims_core::claim::{Claim, ClaimInfo, Measurement, Mutant, Statistic};
use dpclaims_core::params;
use dpclaims_core::params::Params;
use dpclaims_core::step::{StepClaim, computed, is, plus_error};
use dpclaims_core::verdict::Relation;
use dpclaims_theorems::multipass::{Theorem2Schedule, lemma6_printed};
use dpclaims_theorems::privacy::gaussian;
use dpclaims_theorems::{ParamError, error};

const PAPER: &str = "000_5bb53ab829479343.txt — Ma, Marinov, Zhang (2022), arXiv 2206.01836";

fn horizon(p: &Params, lo: u64, hi: u64) -> Result<u64, ParamError> {
    let t = p.u64("T")?;
    if !(lo..=hi).contains(&t) {
        return Err(ParamError::new(
            "T",
            t,
            format!("an integer in [{lo}, {hi}]"),
        ));
    }
    Ok(t)
}

/// $H_T=\sum_{t\le T}1/t$ and $H^{(2)}\_T=\sum_{t\le T}1/t^2$, summed from the small terms up.
fn harmonic(t: u64) -> (f64, f64) {
    (1..=t).rev().fold((0.0, 0.0), |(h, h2), k| {
        let k = k as f64;
        (h + 1.0 / k, h2 + 1.0 / (k * k))
    })
}

/// The step claims of seed 000, in registry order.
pub fn claims() -> Vec<&'static dyn Claim> {
    vec![
        &GRADIENT_MAP_NONEXPANSIVE,
        &LEMMA5_EXPANDED,
        &LEMMA5_YOUNG,
        &LEMMA5_RECURSION,
        &LEMMA5_SUM,
        &PROP2_FROM_LEMMA5,
        &COR3_LAMBDA_FORM,
        &COR3_LAMBDA_CORRECTED_FORM,
        &COR3_HARMONIC_FORM,
        &COR3_HARMONIC_CORRECTED_FORM,
        &COR3_GRADIENT,
        &COR3_GRADIENT_CORRECTED,
        &COR3_W_TERM_FORM,
        &COR3_W_TERM_CORRECTED,
        &THM1_FROM_COR3_FORM,
        &THM1_FROM_COR3_CORRECTED_FORM,
        &THM1_PRIVACY_TERM_FORM,
        &THM1_PRIVACY_TERM_LARGE_EPS_FORM,
        &LEMMA2_GAUSSIAN,
        &LEMMA3_GAUSSIAN,
        &LEMMA4_INTEGRAL_DET,
        &LEMMA4_INTEGRAL_NORM,
        &LEMMA4_HESSIAN,
        &LEMMA4_JENSEN,
        &COR2_FROM_COR1,
        &COR2_FROM_COR1_NORM,
        &THM2_FROM_COR2,
        &THM2_FROM_COR2_DERIVED,
        &THM2_TRACE,
        &PROP3_LOG_INEQ,
        &PROP3_COMPOSE,
        &PROP5_BUDGET,
        &PROP5_DRV,
        &LEMMA6_GAUSSIAN,
        &THM2_DP_CORRECTED,
        &PROP4_FACTOR_PROOF_SIZES,
        &SAMPLES_CORRECTED,
        &THM2_CONSTANT,
        &THM2_CONSTANT_CORRECTED,
        &PROP1_LAMBDA1,
        &PROP1_DIVIDE,
        &LEMMA3_G,
        &LEMMA5_SHRINK,
        &COR2_TELESCOPING,
        &PROP3_REWRITE,
        &THM2_SUBSTITUTION,
        &COR3_RECURSION,
        &THM1_BETA0,
        &THM1_ALPHA,
        &PROP4_SIGMA,
        &LEMMA4_EXPONENT,
        &PROP4_FACTOR_RANGE,
        &COR3_SUM,
    ]
}
