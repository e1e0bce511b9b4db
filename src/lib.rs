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

pub mod accounting;
pub mod audit;
pub mod claims;
pub mod conformance;
pub mod harness;
pub mod params;
pub mod report;
pub mod testing;
pub mod verdict;

use dpclaims_empirical::stats::StatsError;
use dpclaims_theorems::ParamError;

/// Everything that makes a run fail before it can give a verdict (CLI exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no claim matches `{0}` (see `dpclaims list`)")]
    UnknownClaim(String),
    #[error("two claims have the id `{0}`: claim ids must be unique in a run")]
    DuplicateClaim(String),
    #[error("malformed --set `{0}`: expected key=value, e.g. --set n=100")]
    MalformedSet(String),
    #[error("no selected claim has a parameter `{key}`; known parameters: {known}")]
    UnknownParam { key: String, known: String },
    #[error("no selected claim has a mutant `{name}`; mutants of the selected claims: {known}")]
    UnknownMutant { name: String, known: String },
    #[error("{claim}: {source}")]
    Param {
        claim: String,
        #[source]
        source: ParamError,
    },
    #[error("{claim}: {source}")]
    Stats {
        claim: String,
        #[source]
        source: StatsError,
    },
    #[error("--confidence {0} is out of range: expected a number in (0, 1)")]
    Confidence(f64),
    #[error("--trials {0} is out of range: expected an integer >= 2")]
    Trials(u64),
    #[error("{0}")]
    Accountant(#[from] ParamError),
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Event(#[from] dpclaims_theorems::privacy::event::EventError),
    #[error("{0}")]
    EventPld(#[from] dpclaims_theorems::privacy::event_pld::EventPldError),
}
