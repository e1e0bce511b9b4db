//! Claims written as data: [`StepClaim`], a claim given by its metadata and two plain functions
//! (the proof steps of every paper are written this way, and so can an outside claim be), and
//! the helpers an exact calculator's measurement uses ([`computed`], [`plus_error`], [`is`]).

use crate::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use crate::params::Params;
use crate::verdict::Relation;
use dpclaims_accounting::ParamError;

/// A claim defined by its metadata and two plain functions: its default cases and the
/// measurement of one case. Proof steps are many and small; this keeps each to its formula.
pub struct StepClaim {
    /// Id, source, statement, mutants.
    pub info: ClaimInfo,
    /// The default cases.
    pub cases: fn() -> Vec<Params>,
    /// The bound and measured value of one case.
    pub measure: fn(&Params, RunSpec<'_>) -> Result<Vec<Measurement>, ParamError>,
}

impl Claim for StepClaim {
    fn info(&self) -> &ClaimInfo {
        &self.info
    }
    fn cases(&self) -> Vec<Params> {
        (self.cases)()
    }
    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        (self.measure)(case, run)
    }
}

/// Unit round-off of f64.
pub const U: f64 = f64::EPSILON / 2.0;

/// A computed value whose rounding error is at most `ops` round-offs of `scale` (a generous
/// bound for sums of `ops` terms of magnitude at most `scale`, each with a few operations).
pub fn computed(
    params: Params,
    bound: f64,
    relation: Relation,
    value: f64,
    ops: f64,
    scale: f64,
) -> Measurement {
    Measurement {
        params,
        bound,
        relation,
        statistic: Statistic::Computed {
            value,
            error: 8.0 * U * ops.max(1.0) * scale.abs().max(value.abs()),
        },
    }
}

/// `m` with `extra` added to the error bound of its computed value (another source of error
/// than rounding, e.g. a special function's stated accuracy).
pub fn plus_error(mut m: Measurement, extra: f64) -> Measurement {
    if let Statistic::Computed { error, .. } = &mut m.statistic {
        *error += extra;
    }
    m
}

/// Whether `run` is mutant `m`.
pub fn is(run: RunSpec<'_>, m: &Mutant) -> bool {
    run.mutant == Some(m.name)
}

/// The metadata of an exact proof step of `paper`: not known false, no tautology, no algorithm
/// to perturb (a closed form or an identity).
pub const fn exact_info(
    paper: &'static str,
    id: &'static str,
    result: &'static str,
    statement: &'static str,
    mutants: &'static [Mutant],
) -> ClaimInfo {
    ClaimInfo {
        id,
        paper,
        result,
        statement,
        mutants,
        known_false: false,
        tautologies: &[],
        perturbation: None,
    }
}
