//! # dpclaims
//!
//! Numerical checks of the published guarantees of differentially private SGD and Langevin
//! sampling. Each theorem is a *claim*: a bound from [`dpclaims_theorems`] paired with a
//! seeded simulation from [`dpclaims_empirical`]; the harness turns the simulation into an
//! estimate with a confidence interval and a verdict ([`verdict`]).
//!
//! Data flow: CLI → claim lookup ([`claims::select`]) → parameters (defaults, `--set`) →
//! bound and simulation ([`claims::Claim::measure`]) → interval and verdict
//! ([`harness::check`]) → [`verdict::Outcome`] → table or JSON ([`report`]).
//!
//! The built-in claims ([`claims::registry`]) and claims defined in other crates run through
//! the same functions: [`harness::check`], [`harness::check_shard`], [`harness::merge`],
//! [`report::write_report`] and the test helper [`testing::assert_claim`] take any set of
//! `&dyn Claim`.
//!
#![doc = include_str!("guide.md")]
#![warn(missing_docs)]

pub mod claim_plots;
pub mod claims;
pub mod cli;
pub mod detection;
pub mod harness;
pub mod params;
pub mod plot;
pub mod proofs;
mod proofs_000;
mod proofs_001;
mod proofs_002;
mod proofs_004;
pub mod report;
pub mod search;
pub mod testing;
pub mod verdict;

/// The audit of reported ε (crate `dpclaims-accounting`), re-exported at its old path.
pub use dpclaims_accounting::audit;
/// The conformance suite (crate `dpclaims-accounting`), re-exported at its old path.
pub use dpclaims_accounting::conformance;
/// The JSON-lines protocol with external accountants (crate `dpclaims-accounting`).
pub use dpclaims_accounting::line_protocol;
/// The reference accountants' queries (crate `dpclaims-accounting`, module `query`),
/// re-exported at their old path.
pub use dpclaims_accounting::query as accounting;
/// The simulators, problems, runner, random streams and estimators (crate
/// `dpclaims-empirical`), re-exported.
pub use dpclaims_empirical as empirical;
/// `rand` and `rand_distr` at the versions [`empirical::rng::TrialRng`] uses.
pub use dpclaims_empirical::{rand, rand_distr};
/// The bound calculators and accountants (crate `dpclaims-theorems`), re-exported so that an
/// outside claim needs only `dpclaims` as a dependency.
pub use dpclaims_theorems as theorems;
/// The error every parameter check returns: it names the parameter, its value and the range.
pub use dpclaims_theorems::ParamError;
/// The linear algebra of the simulators' and bounds' vector types.
pub use nalgebra;
/// The JSON values of [`params::Params`] (and what [`params!`] builds them with).
pub use serde_json;

/// What a claim's definition needs: `use dpclaims::prelude::*;`.
pub mod prelude {
    pub use crate::ParamError;
    pub use crate::claims::{Claim, ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
    pub use crate::params;
    pub use crate::params::Params;
    pub use crate::verdict::Relation;
}

use dpclaims_empirical::stats::StatsError;

/// Everything that makes a run fail before it can give a verdict (CLI exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A claim-id glob that matches no claim.
    #[error("no claim matches `{0}` (see `dpclaims list`)")]
    UnknownClaim(String),
    /// Two claims of one run with the same id.
    #[error("two claims have the id `{0}`: claim ids must be unique in a run")]
    DuplicateClaim(String),
    /// A `--set` that is not `key=value`.
    #[error("malformed --set `{0}`: expected key=value, e.g. --set n=100")]
    MalformedSet(String),
    /// A `--set` key no selected case has.
    #[error("no selected claim has a parameter `{key}`; known parameters: {known}")]
    UnknownParam {
        /// The key.
        key: String,
        /// The parameters of the selected cases.
        known: String,
    },
    /// A `--mutant` no selected claim has.
    #[error("no selected claim has a mutant `{name}`; mutants of the selected claims: {known}")]
    UnknownMutant {
        /// The name.
        name: String,
        /// The mutants of the selected claims.
        known: String,
    },
    #[error("{claim}: {source}")]
    /// A case parameter out of range (the error names it).
    Param {
        /// The claim's id.
        claim: String,
        /// What is wrong.
        #[source]
        source: ParamError,
    },
    #[error("{claim}: {source}")]
    /// An estimate that cannot be formed (e.g. too few trials).
    Stats {
        /// The claim's id.
        claim: String,
        /// What is wrong.
        #[source]
        source: StatsError,
    },
    /// A measurement whose bound or estimate is NaN: a defect of the claim at that case, never a
    /// verdict.
    #[error(
        "{claim}: the {what} is NaN at {case} (a defect of the claim's measurement, not a verdict)"
    )]
    NotANumber {
        /// The claim's id.
        claim: String,
        /// The case's label.
        case: String,
        /// `bound` or `estimate`.
        what: &'static str,
    },
    /// A confidence level outside (0, 1).
    #[error("--confidence {0} is out of range: expected a number in (0, 1)")]
    Confidence(f64),
    /// Fewer than 2 trials.
    #[error("--trials {0} is out of range: expected an integer >= 2")]
    Trials(u64),
    /// Accountant parameters out of range.
    #[error("{0}")]
    Accountant(#[from] ParamError),
    /// Unreadable or inconsistent input (files, shards, environment).
    #[error("{0}")]
    Input(String),
    /// An event document that cannot be read or validated.
    #[error("{0}")]
    Event(#[from] dpclaims_theorems::privacy::event::EventError),
    /// An event the PLD accountant cannot account for.
    #[error("{0}")]
    EventPld(#[from] dpclaims_theorems::privacy::event_pld::EventPldError),
}
