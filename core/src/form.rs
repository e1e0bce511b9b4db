//! The two sides of a claim as closed forms of its parameters ([`ClosedForm`]), proved on a box
//! by [`crate::prove`]. Kept apart from the claim contract so that [`crate::claim`] can name it
//! without depending on the prover.

use crate::interval::I;
use crate::params::Params;
use crate::space::Axis;
use crate::verdict::Relation;
use dpclaims_accounting::ParamError;

/// The two sides of a claim as closed forms of its axes, written once against
/// [`Real`](crate::interval::Real) and given twice: enclosed ([`I`]) and plain (`f64`).
/// `mutant` is the run's mutant (a closed form changes with it like any measurement).
#[derive(Debug, Clone, Copy)]
pub struct ClosedForm {
    /// The box: real or integer axes (their names are the case parameters).
    pub axes: &'static [Axis],
    /// `measured <= bound` ([`Relation::AtMost`]) or `>=` ([`Relation::AtLeast`]).
    pub relation: Relation,
    /// (measured, bound) enclosed on a box.
    pub interval: fn(&[I], Option<&str>) -> (I, I),
    /// (measured, bound) at a point.
    pub point: fn(&[f64], Option<&str>) -> (f64, f64),
    /// The hypotheses on a box: `Some(true)` on every point, `Some(false)` on none, `None`
    /// unknown (split). `None` here: no hypothesis beyond the box.
    pub admits: Option<fn(&[I]) -> Option<bool>>,
}

impl ClosedForm {
    pub(crate) fn holds(&self, measured: I, bound: I) -> bool {
        match self.relation {
            Relation::AtLeast => measured.lo >= bound.hi,
            _ => measured.hi <= bound.lo,
        }
    }
    pub(crate) fn fails(&self, measured: I, bound: I) -> bool {
        match self.relation {
            Relation::AtLeast => measured.hi < bound.lo,
            _ => measured.lo > bound.hi,
        }
    }
    pub(crate) fn fails_plain(&self, measured: f64, bound: f64) -> bool {
        match self.relation {
            Relation::AtLeast => measured < bound,
            _ => measured > bound,
        }
    }

    /// The axis values of a case (in axis order).
    pub fn values(&self, case: &Params) -> Result<Vec<f64>, ParamError> {
        self.axes.iter().map(|a| case.f64(a.name)).collect()
    }
}
