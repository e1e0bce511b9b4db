//! The error of a run that cannot give a verdict.

use dpclaims_accounting::ParamError;
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
    /// An accountant command's error (`epsilon`, `delta`, `audit`, `conformance`, `answer`), as
    /// it is.
    #[error(transparent)]
    Accounting(#[from] dpclaims_accounting::cli::Error),
}
