//! # dpclaims
//!
//! Numerical checks of the published guarantees of differentially private SGD and Langevin
//! sampling, and audits of the privacy accountants that report ε. This crate is the front of
//! a workspace with one crate per product, importing one way (each only from those above it):
//!
//! | crate | what | re-exported here as |
//! |---|---|---|
//! | `dpclaims-empirical` | simulators, random streams, estimators with intervals | [`empirical`] |
//! | `dpclaims-accounting` | events, PLD/RDP accountants, dominating pairs, shuffle references, audit, conformance, the line protocol | [`accounting`], [`audit`], [`conformance`], [`line_protocol`] |
//! | `dpclaims-theorems` | the papers' bounds in closed form | [`theorems`] |
//! | `dpclaims-core` | the claim contract, parameter spaces, verdicts, the harness, shards, search, the test helper | [`claims`], [`params`](mod@params), [`verdict`], [`harness`], [`search`], [`testing`], [`proofs`], [`detection`] |
//! | `dpclaims-papers` | the built-in claims, one folder per paper | [`papers`], [`claims::registry`] |
//! | `dpclaims-render` | tables, `report.md`, SVG plots | [`report`], [`plot`], [`claim_plots`] |
//! | `dpclaims` (this crate) | the command line, one module per subcommand ([`cli`]) | |
//!
//! Data flow of `dpclaims check`: CLI → claim lookup ([`claims::select`]) → parameters
//! (defaults, `--set`) → bound and simulation ([`claims::Claim::measure`]) → interval and
//! verdict ([`harness::check`]) → [`verdict::Outcome`] → table or JSON ([`report`]).
//!
//! ## Where things go
//!
//! - **A new claim** about one of the five papers: `papers/src/paperNNN/` (a statement claim
//!   beside the paper's others, a proof step in its `steps` module, the map that uses it in
//!   `proof_map`), listed in the paper's `claims()`; its test is one line in `tests/claims.rs`.
//!   A claim about another paper lives in your own crate ([`claims::Claim`] carries a complete
//!   skeleton; the guide below shows the crate around it).
//! - **A new event type** (a mechanism in the event JSON format): `accounting/src/privacy/event.rs`
//!   (the format), its PLD in `event_pld.rs` or `mechanism_pld.rs`, its tests in
//!   `tests/events.rs` and a conformance event in `accounting/src/conformance.rs`.
//! - **A new sampling scheme**: a variant of the one sampling enum of `dpclaims-accounting`
//!   (`privacy::Sampling`), its dominating pair in `privacy/dominating.rs` (derived in rustdoc,
//!   tested against an adversarial construction); the audit's rows follow from the enum, and
//!   the CLI's `--sampling` takes it through one arm of `cli::SamplingArg` in
//!   `dpclaims-accounting` (which also carries random allocation, an event document rather than
//!   a scheme of one step).
//! - **A new command**: one module in `src/cli/` with its `clap::Args` struct and `run`, one
//!   variant in [`cli::ClaimCommand`] (a command over claims) or in [`cli::app`] (any other).
//!
#![doc = include_str!("guide.md")]
#![warn(missing_docs)]

pub mod cli;

pub use dpclaims_core::{Error, harness, params, testing, verdict};
/// The built-in claims' crate (`dpclaims-papers`): one module per paper.
pub use dpclaims_papers as papers;
/// Plots ([`plot`]) and the per-claim plots of the report ([`claim_plots`]).
pub use dpclaims_render::{claim_plots, plot};

/// The claim contract ([`claims::Claim`] and its metadata, from `dpclaims-core`) and the built-in
/// claims ([`claims::registry`], from `dpclaims-papers`), at their historical paths.
pub mod claims {
    pub use dpclaims_core::claim::*;
    pub use dpclaims_papers::paper000::steps as proof_steps_000;
    pub use dpclaims_papers::paper001::steps as proof_steps_001;
    pub use dpclaims_papers::paper002::steps as proof_steps_002;
    pub use dpclaims_papers::paper004::steps as proof_steps_004;
    pub use dpclaims_papers::{
        accountants as accounting, adaptive, contraction, last_iterate, multipass, registry, renyi,
        renyi_exact, stability, subspace,
    };
}

/// Counterexample search ([`dpclaims_core::search`]), the parameter space it searches
/// ([`dpclaims_core::space`]) and its rendering ([`dpclaims_render::search`]).
pub mod search {
    pub use dpclaims_core::search::*;
    pub use dpclaims_core::space::*;
    pub use dpclaims_render::search::*;
}

/// Proofs on a whole box: interval arithmetic rounded outward and its branch and bound.
pub mod prove {
    pub use dpclaims_core::interval;
    pub use dpclaims_core::prove::*;
}

/// Proof maps: the framework ([`dpclaims_core::proofs`]) and the built-in maps ([`proofs::maps`]).
pub mod proofs {
    pub use dpclaims_core::proofs::*;
    pub use dpclaims_papers::maps;
}

/// Detection thresholds ([`dpclaims_core::detection`]) and the committed table of the built-in
/// claims ([`detection::builtin`]).
pub mod detection {
    pub use dpclaims_core::detection::*;
    pub use dpclaims_papers::{DETECTION_JSON as BUILTIN_JSON, detection as builtin};
}

/// Rendering of outcomes ([`dpclaims_render::report`]); [`report::write_report`] with the built-in
/// detection table and proof maps.
pub mod report {
    pub use dpclaims_render::report::*;

    /// Writes `report.md` and the plots of `outcomes` into `dir`
    /// ([`dpclaims_render::report::write_report`]), with the built-in claims' detection
    /// thresholds and proof maps; returns the files written.
    pub fn write_report(
        dir: &std::path::Path,
        outcomes: &[crate::verdict::Outcome],
        claims: &[&dyn crate::claims::Claim],
        trials: Option<u64>,
    ) -> Result<Vec<std::path::PathBuf>, String> {
        dpclaims_render::report::write_report(dir, outcomes, claims, trials, &builtin_context())
    }

    /// The built-in detection table and proof maps, for a report.
    pub fn builtin_context() -> ReportContext<'static> {
        ReportContext {
            detection: dpclaims_papers::detection(),
            maps: dpclaims_papers::maps(),
        }
    }
}

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
pub use dpclaims_core::prelude;
