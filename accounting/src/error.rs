//! Typed parameter errors shared by every bound calculator.

use std::fmt;

/// A parameter outside the range where a formula is defined.
///
/// `Display` reads e.g. ``parameter `n` = 0 is out of range: expected an integer >= 1``.
/// What a caller may do about it is in [`ParamError::kind`], never in the text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ParamError {
    /// Name of the parameter as the user spells it (`n`, `G`, `eta`, ...).
    pub name: String,
    /// The offending value, rendered for humans.
    pub value: String,
    /// The allowed range, in words.
    pub expected: String,
    /// What kind of error it is.
    pub kind: ParamErrorKind,
}

/// The kinds of [`ParamError`]: what a caller can do about one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamErrorKind {
    /// The value is outside the range where the formula is defined.
    OutOfRange,
    /// A PLD grid too fine for the point budget: the parameter is the grid spacing
    /// (`interval`), and the same question at a coarser grid may be answered (see
    /// [`ParamError::too_fine`]).
    GridTooFine,
    /// The computation was cancelled ([`crate::cancel`]): no answer, nothing wrong with it.
    Cancelled,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameter `{}` = {} is out of range: expected {}",
            self.name, self.value, self.expected
        )
    }
}

impl ParamError {
    /// The error for parameter `name` with value `value`, which should be `expected`.
    pub fn new(
        name: impl Into<String>,
        value: impl fmt::Display,
        expected: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            value: value.to_string(),
            expected: expected.into(),
            kind: ParamErrorKind::OutOfRange,
        }
    }

    /// The error for a PLD grid spacing `interval` too fine for the point budget, `why` saying
    /// what needs how many points: kind [`ParamErrorKind::GridTooFine`], read as
    /// ``parameter `interval` = … is out of range: expected a coarser grid (why)``.
    pub fn too_fine(interval: f64, why: impl fmt::Display) -> Self {
        Self {
            kind: ParamErrorKind::GridTooFine,
            ..Self::new("interval", interval, format!("a coarser grid ({why})"))
        }
    }

    /// The error of a cancelled computation ([`crate::cancel::check`]).
    pub fn cancelled() -> Self {
        Self {
            kind: ParamErrorKind::Cancelled,
            ..Self::new(
                "computation",
                "cancelled",
                "not cancelled (an interrupt stopped it)",
            )
        }
    }

    /// Whether the computation was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.kind == ParamErrorKind::Cancelled
    }

    /// Whether the grid is too fine for the point budget (a coarser grid may do).
    pub fn is_too_fine(&self) -> bool {
        self.kind == ParamErrorKind::GridTooFine
    }
}

/// `x` finite and `> 0`.
pub fn positive(name: &str, x: f64) -> Result<f64, ParamError> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(ParamError::new(name, x, "a finite number > 0"))
    }
}

/// `x` finite and `>= 0`.
pub fn non_negative(name: &str, x: f64) -> Result<f64, ParamError> {
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(ParamError::new(name, x, "a finite number >= 0"))
    }
}

/// `x` finite and in the open interval `(lo, hi)`.
pub fn open_interval(name: &str, x: f64, lo: f64, hi: f64) -> Result<f64, ParamError> {
    if x.is_finite() && x > lo && x < hi {
        Ok(x)
    } else {
        Err(ParamError::new(
            name,
            x,
            format!("a number in ({lo}, {hi})"),
        ))
    }
}

/// Integer `n >= min`.
pub fn at_least(name: &str, n: u64, min: u64) -> Result<u64, ParamError> {
    if n >= min {
        Ok(n)
    } else {
        Err(ParamError::new(name, n, format!("an integer >= {min}")))
    }
}

/// Every element finite and `>= 0`; the error names the element (`name[i]`, 1-based).
pub fn non_negative_elements<'a>(name: &str, xs: &'a [f64]) -> Result<&'a [f64], ParamError> {
    match xs
        .iter()
        .enumerate()
        .find(|(_, x)| !(x.is_finite() && **x >= 0.0))
    {
        Some((i, x)) => Err(ParamError::new(
            format!("{name}[{}]", i + 1),
            x,
            "a finite number >= 0",
        )),
        None => Ok(xs),
    }
}

/// Every element of a step-size sequence finite and `>= 0`, the sequence non-empty.
pub fn step_sizes<'a>(name: &str, eta: &'a [f64]) -> Result<&'a [f64], ParamError> {
    if eta.is_empty() {
        return Err(ParamError::new(name, "[]", "a non-empty sequence"));
    }
    non_negative_elements(name, eta)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A too-fine grid is a kind, not a message to match; its text is the one users read.
    #[test]
    fn a_too_fine_grid_is_a_kind_with_the_same_text() {
        let e = ParamError::too_fine(1e-4, format_args!("the composition needs {} points", 8));
        assert_eq!(e.kind, ParamErrorKind::GridTooFine);
        assert!(e.is_too_fine());
        assert_eq!(
            e.to_string(),
            "parameter `interval` = 0.0001 is out of range: expected a coarser grid (the composition needs 8 points)"
        );
        let e = ParamError::new("interval", 2.0, "a grid spacing in (0, 1]");
        assert_eq!(e.kind, ParamErrorKind::OutOfRange);
        assert!(!e.is_too_fine());
    }
}
