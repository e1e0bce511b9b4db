//! The claim commands of the command line (`list`, `check`, `report`, `merge`, `detection`,
//! `proofs`, `search`) over any set of
//! claims. The `dpclaims` binary runs them over [`crate::claims::registry`]; an outside crate gets
//! the same commands over its own claims (with or without the built-in ones) from a three-line
//! binary:
//!
//! ```no_run
//! # struct MyClaim;
//! # impl dpclaims::claims::Claim for MyClaim {
//! #     fn info(&self) -> &dpclaims::claims::ClaimInfo { unimplemented!() }
//! #     fn cases(&self) -> Vec<dpclaims::params::Params> { vec![] }
//! #     fn measure(&self, _: &dpclaims::params::Params, _: dpclaims::claims::RunSpec<'_>)
//! #         -> Result<Vec<dpclaims::claims::Measurement>, dpclaims::ParamError> { Ok(vec![]) }
//! # }
//! fn main() -> std::process::ExitCode {
//!     dpclaims::cli::main(&[&MyClaim])
//! }
//! ```
//!
//! Exit codes: 0 when nothing is violated (outside claims known false as printed), 1 when
//! something is, 2 on bad input with a message naming the problem.

pub mod app;
pub mod check;
pub mod compare;
mod contraction_series;
pub mod detection;
pub mod list;
pub mod merge;
pub mod proofs;
pub mod prove;
pub mod report;
pub mod search;

use crate::claims::{self, Claim};
use crate::harness::{self, CheckOptions};
use crate::verdict::Outcome;
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// The claim commands (a `clap` subcommand set; flatten it into a larger CLI).
#[derive(Subcommand)]
pub enum ClaimCommand {
    /// List every claim: id, paper, result, statement and mutants (`--json`: also the parameter
    /// space it declares for `search`, `space`, null when none).
    List(list::ListArgs),
    /// Measure detection thresholds at default size and write them to a JSON file: of the bound
    /// (closed form from each outcome's interval) and of the algorithm (bisection on the claim's
    /// perturbation, one full run per step). Each claim is run alone. Expensive: give patterns.
    Detection(detection::DetectionArgs),
    /// Run claims and compare each measurement with its bound.
    ///
    /// Exit code 0 when nothing is violated (outside claims known false as printed), 1 when something is, 2 on bad input.
    Check(check::CheckArgs),
    /// Run claims and write DIR/report.md and one SVG plot per claim family.
    Report(report::ReportArgs),
    /// Print the proof maps: each proof's steps in order, the verdict of each step claim (run at
    /// a small size) or why a step is not checkable, and a summary per paper.
    ///
    /// Exit code 0 unless a step expected to hold failed (1); 2 on bad input.
    Proofs(proofs::ProofsArgs),
    /// Prove claims whose two sides are closed forms on their whole box: interval arithmetic
    /// rounded outward, branch and bound until each box is proved or a point refutes the claim
    /// (with a command reproducing it), or the budget is spent (undecided, with the share of the
    /// volume left and where).
    ///
    /// Exit code 0 unless a claim expected to hold was refuted (1); 2 on bad input.
    Prove(prove::ProveArgs),
    /// Search each selected claim's parameter space for its tightest instance (largest
    /// measured/bound), confirm the best candidates on a fresh seed at the default size, and
    /// shrink a confirmed violation to a simple reproducible instance.
    ///
    /// Exit code 0 unless a confirmed violation of a claim expected to hold was found (1);
    /// 2 on bad input.
    Search(search::SearchArgs),
    /// Combine the shard files of one `check --shard K/N` run into what `check` prints.
    Merge(merge::MergeArgs),
}

/// What `check` and `report` run.
#[derive(clap::Args)]
pub struct ClaimRunArgs {
    /// Claim ids or globs (e.g. `stability.*`); all claims when none is given.
    patterns: Vec<String>,
    /// Trials per case (overrides each case's default).
    #[arg(long)]
    trials: Option<u64>,
    /// Cap every case's trials at this number (a quick run that keeps smaller defaults).
    #[arg(long)]
    max_trials: Option<u64>,
    /// Run seed: same seed, same numbers, on any number of threads.
    #[arg(long, default_value_t = harness::DEFAULT_SEED)]
    seed: u64,
    /// Family-wise confidence level of the run, split over its outcomes (Bonferroni).
    #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
    confidence: f64,
    /// Override a case parameter in every case that has it, e.g. `--set n=200`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Run exactly the case the --set pairs give (every parameter), instead of the default cases
    /// with overrides: what `search` prints to reproduce an instance.
    #[arg(long)]
    exact: bool,
    /// No progress bar on stderr.
    #[arg(long)]
    quiet: bool,
    /// Run only the K-th of N disjoint slices of every case's trials and write its sufficient
    /// statistics as JSON (combine the N files with `dpclaims merge`). `auto` reads K and N
    /// from a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, _COUNT or _MAX,
    /// _STEP) or K from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with N from --shards).
    #[arg(long, value_name = "K/N|auto")]
    shard: Option<String>,
    /// The number of shards N (needed with `--shard auto` in a Kubernetes Indexed Job: its
    /// `completions`; checked against N otherwise).
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// Inject a relative error KAPPA in [0, 1) into every selected claim's algorithm, in the
    /// direction that makes it fail (what it changes: `list --detection`); 0: none.
    #[arg(long, value_name = "KAPPA", default_value_t = 0.0)]
    perturb: f64,
}

impl ClaimRunArgs {
    fn options(self, mutant: Option<String>) -> Result<CheckOptions, crate::Error> {
        let sets = self
            .sets
            .iter()
            .map(|s| crate::params::parse_assignment(s))
            .collect::<Result<Vec<_>, _>>()?;
        let shard = harness::resolve_shard(self.shard.as_deref(), self.shards, &|k| {
            std::env::var(k).ok()
        })?;
        Ok(CheckOptions {
            patterns: self.patterns,
            trials: self.trials,
            max_trials: self.max_trials,
            seed: self.seed,
            confidence: self.confidence,
            sets,
            exact: self.exact,
            mutant,
            progress: !self.quiet && std::io::stderr().is_terminal(),
            shard,
            perturbation: self.perturb,
            remember: false,
        })
    }
}

/// Writes report.md and the family plots, and says where on stderr.
fn write_report(
    claims: &[&dyn Claim],
    dir: &std::path::Path,
    outcomes: &[Outcome],
    trials: Option<u64>,
) -> Result<(), crate::Error> {
    let files =
        crate::report::write_report(dir, outcomes, claims, trials).map_err(crate::Error::Input)?;
    for f in files {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

/// Prints outcomes as JSON lines, the case table (`cases`) or one line per claim; exit code 1
/// when one is violated.
fn print_outcomes(
    out: &mut impl Write,
    outcomes: &[Outcome],
    json: bool,
    cases: bool,
) -> Result<ExitCode, crate::Error> {
    if json {
        for o in outcomes {
            let _ = writeln!(out, "{}", crate::report::json_line(o));
        }
    } else if cases {
        let _ = write!(out, "{}", crate::report::table(outcomes));
    } else {
        let _ = write!(out, "{}", crate::report::summary(outcomes));
    }
    let violated = outcomes.iter().any(Outcome::unexpectedly_violated);
    Ok(if violated {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs one claim command over `claims`.
pub fn run(claims: &[&dyn Claim], command: ClaimCommand) -> Result<ExitCode, crate::Error> {
    let mut out = std::io::stdout().lock();
    match command {
        ClaimCommand::List(args) => list::run(claims, args, &mut out),
        ClaimCommand::Detection(args) => detection::run(claims, args, &mut out),
        ClaimCommand::Check(args) => check::run(claims, args, &mut out),
        ClaimCommand::Report(args) => report::run(claims, args, &mut out),
        ClaimCommand::Proofs(args) => proofs::run(claims, args, &mut out),
        ClaimCommand::Prove(args) => prove::run(claims, args, &mut out),
        ClaimCommand::Search(args) => search::run(claims, args, &mut out),
        ClaimCommand::Merge(args) => merge::run(claims, args, &mut out),
    }
}

/// The command line of [`ClaimCommand`] alone.
#[derive(Parser)]
#[command(about = "Check claims: list, check, report, merge")]
struct ClaimsCli {
    #[command(subcommand)]
    command: ClaimCommand,
}

/// A complete `main` for a binary that checks `claims`: parses the arguments, runs the
/// command, prints errors on stderr with exit code 2.
pub fn main(claims: &[&dyn Claim]) -> ExitCode {
    match run(claims, ClaimsCli::parse().command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
