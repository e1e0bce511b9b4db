//! The accountant commands of the `dpclaims` command line (`epsilon`, `delta`, `audit`,
//! `conformance`, `answer`), one module per command, behind the `cli` feature.
//!
//! They live here, beside what they run, so that a build without the claim harness has them:
//! the `dpclaims` binary of the workspace flattens [`AccountingCommand`] into its command set,
//! and the Python package's `dpclaims` command ([`main_from`]) runs them alone.
//!
//! Exit codes: 0, 1 when something is found (an unsound row, a conformance finding), 2 on bad
//! input with a message naming the problem.

mod answer;
mod audit;
mod conformance;
mod query;
pub mod validate;

use crate::privacy::pld::PldOptions;
use crate::privacy::{DpSgd, Neighbouring, Sampling};
use crate::query::{self as accounting, Accountant, Query};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};

pub use answer::AnswerArgs;
pub use audit::{AuditArgs, FormatArg};
pub use conformance::ConformanceArgs;
pub use query::{AccountantArg, RunArgs, SamplingArg};

/// Seed of the Monte Carlo streams when none is given (the claim harness's default too).
pub const DEFAULT_SEED: u64 = 1;
/// Family-wise confidence of the Monte Carlo bounds when none is given.
pub const DEFAULT_CONFIDENCE: f64 = 0.999;

/// What makes an accountant command fail before it can answer (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A confidence level outside (0, 1).
    #[error("--confidence {0} is out of range: expected a number in (0, 1)")]
    Confidence(f64),
    /// Accountant parameters out of range.
    #[error("{0}")]
    Accountant(#[from] crate::ParamError),
    /// Unreadable or inconsistent input (files, options).
    #[error("{0}")]
    Input(String),
    /// An event document that cannot be read or validated.
    #[error("{0}")]
    Event(#[from] crate::privacy::event::EventError),
    /// An event the PLD accountant cannot account for.
    #[error("{0}")]
    EventPld(#[from] crate::privacy::event_pld::EventPldError),
}

/// The accountant commands (a `clap` subcommand set; flatten it into a larger CLI).
#[derive(Subcommand)]
pub enum AccountingCommand {
    /// ε of a DP-SGD run at a given δ, from the reference accountants.
    Epsilon {
        /// The run (flags, a schedule or an event document).
        #[command(flatten)]
        run: RunArgs,
        /// Target δ (with `--event`, the document's `delta` field if it has one).
        #[arg(long, required_unless_present = "event")]
        delta: Option<f64>,
    },
    /// Audit reported ε values: unsound, sound-tight or sound-loose (exit 1 if any is unsound).
    ///
    /// Rows are JSON lines or CSV (by extension or --format), from FILE or stdin, with the
    /// fields name, sampling (poisson|shuffle|wor|none|random-allocation), q or batch+n (random
    /// allocation: or steps_per_epoch), sigma, steps or epochs, delta, epsilon, relation
    /// (add-remove|replace-one).
    ///
    /// Exit code: 1 if any row is unsound; else 2 if any row was skipped (unreadable, or its
    /// references or Monte Carlo could not be computed: reported by line with the reason, the
    /// other rows audited); else 0. Bad options also exit 2, with no table.
    Audit(AuditArgs),
    /// Run a seeded suite of event queries through an accountant: metamorphic properties and
    /// dpclaims' certified PLD bracket (exit 1 on any finding, error or broken answer).
    ///
    /// The accountant reads one event document per line with `delta` (or `epsilon`) and an
    /// `id`, and answers one `{"id": 7, "epsilon": x}` / `{"id": 7, "delta": x}` /
    /// `{"id": 7, "error": "..."}` per query, with the query's id (`unsupported: ...`: a
    /// skip; any other error: a finding). `CMD --supports` is asked first for what it
    /// declares it supports (docs/conformance.md, "The protocol").
    Conformance(ConformanceArgs),
    /// Answer conformance queries on stdin with dpclaims' PLD accountant (the line protocol of
    /// `conformance`: dpclaims itself as the accountant of `--command`, and the reproducer of
    /// `conformance --self`).
    Answer(AnswerArgs),
    /// δ of a DP-SGD run at a given ε, from the reference accountants.
    Delta {
        /// The run (flags, a schedule or an event document).
        #[command(flatten)]
        run: RunArgs,
        /// Target ε (may be negative; with `--event`, the document's `epsilon` field if it has
        /// one).
        #[arg(long, allow_negative_numbers = true, required_unless_present = "event")]
        epsilon: Option<f64>,
    },
}

/// Runs one accountant command; the exit code it asks for.
pub fn run(command: AccountingCommand) -> Result<u8, Error> {
    match command {
        AccountingCommand::Audit(args) => audit::run(args),
        AccountingCommand::Conformance(args) => conformance::run(args),
        AccountingCommand::Answer(args) => answer::run(args),
        AccountingCommand::Epsilon { run, delta } => {
            query::asked(run, query::Asked::Epsilon(delta))
        }
        AccountingCommand::Delta { run, epsilon } => {
            query::asked(run, query::Asked::Delta(epsilon))
        }
    }
}

/// The accountant commands alone: the `dpclaims` command of the Python package (the claim
/// commands `list`, `check`, `report`, ... need the workspace's build).
#[derive(Parser)]
#[command(
    name = "dpclaims",
    version,
    about = "Privacy accountants for DP-SGD, and the audit and conformance tools that check other \
             accountants against them.",
    after_help = "The claim commands (list, check, report, search, proofs, detection, merge), \
                  compare and contraction-series are in the dpclaims binary built from the \
                  repository with cargo."
)]
struct AccountingCli {
    #[command(subcommand)]
    command: AccountingCommand,
}

/// Parses `args` (the program name first) and runs the command; returns the exit code. Errors
/// go to stderr with exit code 2, `--help` and `--version` as clap prints them (exit code 0).
pub fn main_from(args: impl IntoIterator<Item = OsString>) -> u8 {
    let cli = match AccountingCli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
