//! # dpclaims-theorems
//!
//! Closed-form and numerical **bounds** from the papers dpclaims checks. Nothing in this crate
//! draws random numbers: a bound is never computed from the thing it bounds.
//!
//! One module per result, each citing its paper. Every calculator takes validated input and
//! returns `Result<_, ParamError>`; the error names the parameter, its value and the allowed
//! range.

#![warn(missing_docs)]

pub mod adaptive;
pub mod contraction;
pub mod last_iterate;
pub mod multipass;
pub mod renyi_discretization;
pub mod stability;
pub mod subspace;

/// The typed parameter error (crate `dpclaims-accounting`), re-exported at its old path.
pub use dpclaims_accounting::error;
/// Log-space special functions (crate `dpclaims-accounting`), re-exported at their old path.
pub use dpclaims_accounting::numerics;
/// The privacy accountants (crate `dpclaims-accounting`), re-exported at their old path.
pub use dpclaims_accounting::privacy;
pub use dpclaims_accounting::{ParamError, ParamErrorKind};
