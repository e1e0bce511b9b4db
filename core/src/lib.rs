//! # dpclaims-core
//!
//! The claim contract and the harness that judges it. A *claim* ([`claim::Claim`]) is one
//! statement: the cases it is checked on, a bound, a measured quantity and the relation that
//! must hold. The harness ([`harness::check`]) runs its measurement on seeded per-trial
//! streams, forms an estimate with a confidence interval (the run's level shared over every
//! outcome by Bonferroni) and a verdict ([`verdict::Verdict`]).
//!
//! Modules, each importing only the ones above it:
//!
//! | module | what |
//! |---|---|
//! | [`error`], [`fmt`] | the run's error; number and table formatting |
//! | [`params`](mod@params) | a case's parameters ([`params::Params`], [`params!`]) |
//! | [`verdict`] | relations, verdicts, outcomes |
//! | [`space`] | the parameter space a statement quantifies over |
//! | [`claim`] | the contract: [`claim::Claim`], its metadata, mutants, statistics |
//! | [`interval`] | interval arithmetic rounded outward, closed forms written once ([`interval::Real`]) |
//! | [`step`] | a claim written as data ([`step::StepClaim`]) and exact-calculator helpers |
//! | [`harness`] | measure, estimate, judge; shards and their merge |
//! | [`search`], [`detection`], [`prove`], [`proofs`], [`testing`] | counterexample search, detection thresholds, proofs on a box, proof maps, the test helper |
//!
//! The built-in claims are in `dpclaims-papers`, the renderers in `dpclaims-render`, and the
//! `dpclaims` crate re-exports all of it under one name.
#![warn(missing_docs)]

pub mod claim;
pub mod detection;
pub mod error;
pub mod fmt;
pub mod harness;
pub mod identity;
pub mod interval;
pub mod params;
pub mod proofs;
pub mod prove;
pub mod search;
pub mod space;
pub mod step;
pub mod testing;
pub mod verdict;

/// The error every parameter check returns: it names the parameter, its value and the range.
pub use dpclaims_accounting::ParamError;
pub use error::Error;
/// The JSON values of [`params::Params`] (what [`params!`] builds them with).
pub use serde_json;

/// What a claim's definition needs: `use dpclaims_core::prelude::*;`.
pub mod prelude {
    pub use crate::ParamError;
    pub use crate::claim::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
    pub use crate::params;
    pub use crate::params::Params;
    pub use crate::verdict::Relation;
}
