//! An [optimistic, pessimistic] bracket on a privacy quantity: the form of every PLD answer.

use crate::error::ParamError;
use serde::{Deserialize, Serialize};

/// An [optimistic, pessimistic] bracket on a privacy quantity.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PldBracket {
    pub optimistic: f64,
    pub pessimistic: f64,
}

impl PldBracket {
    /// The bracket `[optimistic, pessimistic]`, or an error when it is inverted or NaN: both
    /// ends are bounds on one true value, so `optimistic > pessimistic` means one of them is
    /// wrong, and is never an answer.
    pub fn checked(optimistic: f64, pessimistic: f64) -> Result<Self, ParamError> {
        if optimistic <= pessimistic {
            Ok(PldBracket {
                optimistic,
                pessimistic,
            })
        } else {
            Err(ParamError::new(
                "bracket",
                format!("[{optimistic}, {pessimistic}]"),
                "an optimistic end at most the pessimistic one (a numerical defect of the PLD \
                 accountant: please report the query)",
            ))
        }
    }

    /// The largest of several ends (0 for none), NaN if any is NaN: `f64::max` ignores a NaN,
    /// which would let a failed end pass as the others' maximum.
    pub fn worst(ends: impl IntoIterator<Item = f64>) -> f64 {
        ends.into_iter().fold(0.0, |m, x| {
            if m.is_nan() || x.is_nan() {
                f64::NAN
            } else {
                m.max(x)
            }
        })
    }

    /// The intersection of two brackets on the same value (an error if they are disjoint).
    pub fn intersect(&self, other: &PldBracket) -> Result<Self, ParamError> {
        Self::checked(
            self.optimistic.max(other.optimistic),
            self.pessimistic.min(other.pessimistic),
        )
    }
}
