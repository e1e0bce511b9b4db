//! Claims written as data: [`StepClaim`], a claim given by its metadata and two plain functions
//! (the proof steps of every paper are written this way, and so can an outside claim be),
//! [`IdentityClaim`], an algebraic step proved exactly ([`crate::identity`]), and
//! the helpers an exact calculator's measurement uses ([`computed`], [`plus_error`], [`is`]).

use crate::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
use crate::identity::{Frac, Identity};
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

/// A claim that is an identity: its cases are points (dyadic values), its measurement the two
/// sides evaluated exactly there (one outcome each way), and `prove` proves it exactly.
pub struct IdentityClaim {
    /// Id, source, statement, mutants.
    pub info: ClaimInfo,
    /// The two sides.
    pub identity: Identity,
    /// The default cases.
    pub cases: fn() -> Vec<Params>,
}

/// The two outcomes of an identity at a point: $a\le b$ and $a\ge b$, each respected exactly
/// when the exact sides are equal, violated exactly when they differ in that direction.
pub fn measure_point(
    identity: &Identity,
    case: &Params,
    mutant: Option<&str>,
) -> Result<Vec<Measurement>, ParamError> {
    let x = identity
        .vars
        .iter()
        .map(|v| {
            let f = case.f64(v)?;
            Frac::from_f64(f).ok_or_else(|| {
                ParamError::new(
                    *v,
                    f,
                    "a dyadic rational (e.g. 3 or 0.25) for an exact identity",
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (a, b) = (identity.exact)(&x, mutant);
    let diff = a - b;
    if !diff.ok || diff.d == 0 {
        return Err(ParamError::new(
            identity.vars.first().copied().unwrap_or("case"),
            case.label_without(&[]),
            "a point where both sides are defined and fit in 128-bit integers",
        ));
    }
    let bound = b.to_f64();
    // The measured side, placed on the right side of the bound by the exact sign of a - b
    // (the floats of two equal rationals in different forms could differ by rounding).
    let sign = diff.n.signum() * diff.d.signum();
    let value = match sign {
        0 => bound,
        1 => a.to_f64().max(bound.next_up()),
        _ => a.to_f64().min(bound.next_down()),
    };
    Ok([Relation::AtMost, Relation::AtLeast]
        .into_iter()
        .map(|relation| Measurement {
            params: case.clone(),
            bound,
            relation,
            statistic: Statistic::Computed { value, error: 0.0 },
        })
        .collect())
}

impl Claim for IdentityClaim {
    fn info(&self) -> &ClaimInfo {
        &self.info
    }
    fn cases(&self) -> Vec<Params> {
        (self.cases)()
    }
    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        measure_point(&self.identity, case, run.mutant)
    }
    fn identity(&self) -> Option<Identity> {
        Some(self.identity)
    }
}
