//! The claim commands of the command line (`list`, `check`, `report`, `merge`) over any set of
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

use crate::claims::Claim;
use crate::harness::{self, CheckOptions};
use crate::verdict::Outcome;
use crate::{params, proofs, report};
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// The claim commands (a `clap` subcommand set; flatten it into a larger CLI).
#[derive(Subcommand)]
pub enum ClaimCommand {
    /// List every claim: id, paper, result, statement and mutants.
    List {
        /// One JSON object per claim.
        #[arg(long)]
        json: bool,
    },
    /// Run claims and compare each measurement with its bound.
    ///
    /// Exit code 0 when nothing is violated (outside claims known false as printed), 1 when something is, 2 on bad input.
    Check {
        #[command(flatten)]
        #[allow(missing_docs)]
        run: ClaimRunArgs,
        /// Run the named mutant of every selected claim that has it.
        #[arg(long)]
        mutant: Option<String>,
        /// One JSON object per outcome instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run claims and write DIR/report.md and one SVG plot per claim family.
    Report {
        #[command(flatten)]
        #[allow(missing_docs)]
        run: ClaimRunArgs,
        /// Output directory (with --shard: where DIR/shard-K-of-N.json is written).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Print the proof maps: each proof's steps in order, the verdict of each step claim (run at
    /// a small size) or why a step is not checkable, and a summary per paper.
    ///
    /// Exit code 0 unless a step expected to hold failed (1); 2 on bad input.
    Proofs {
        /// Proof-map ids or globs (e.g. `multipass.*`); all maps when none is given.
        patterns: Vec<String>,
        /// One JSON document: {"maps": [...], "papers": [...]}.
        #[arg(long)]
        json: bool,
        /// Markdown (the report's "Proofs" section) instead of plain text.
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// Cap on the trials of every case of a step claim that simulates.
        #[arg(long, default_value_t = 200)]
        max_trials: u64,
        /// Run seed.
        #[arg(long, default_value_t = harness::DEFAULT_SEED)]
        seed: u64,
        /// Family-wise confidence level over all outcomes of the step claims (Bonferroni).
        #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
        confidence: f64,
    },
    /// Combine the shard files of one `check --shard K/N` run into what `check` prints.
    Merge {
        /// The N shard files (any order).
        files: Vec<std::path::PathBuf>,
        /// One JSON object per outcome instead of a table.
        #[arg(long)]
        json: bool,
        /// Also write report.md and the plots into this directory.
        #[arg(long, value_name = "DIR")]
        report: Option<std::path::PathBuf>,
    },
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
            .map(|s| params::parse_assignment(s))
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
            mutant,
            progress: !self.quiet && std::io::stderr().is_terminal(),
            shard,
            perturbation: self.perturb,
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
    let files = report::write_report(dir, outcomes, claims, trials).map_err(crate::Error::Input)?;
    for f in files {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

/// Prints outcomes as JSON lines or a table; exit code 1 when one is violated.
fn print_outcomes(
    out: &mut impl Write,
    outcomes: &[Outcome],
    json: bool,
) -> Result<ExitCode, crate::Error> {
    if json {
        for o in outcomes {
            let _ = writeln!(out, "{}", report::json_line(o));
        }
    } else {
        let _ = write!(out, "{}", report::table(outcomes));
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
        ClaimCommand::List { json } => {
            let all = claims;
            if json {
                for c in all {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string(c.info()).expect("claim info serializes")
                    );
                }
            } else {
                let _ = write!(out, "{}", report::list_table(all));
            }
            Ok(ExitCode::SUCCESS)
        }
        ClaimCommand::Check { run, mutant, json } => {
            let opts = run.options(mutant)?;
            if opts.shard.is_some() {
                let file = harness::check_shard(&claims, &opts)?;
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&file).expect("shards serialize")
                );
                return Ok(ExitCode::SUCCESS);
            }
            print_outcomes(&mut out, &harness::check(&claims, &opts)?, json)
        }
        ClaimCommand::Proofs {
            patterns,
            json,
            markdown,
            max_trials,
            seed,
            confidence,
        } => {
            let maps = proofs::select(&proofs::maps(), &patterns)?;
            let opts = CheckOptions {
                max_trials: Some(max_trials.max(2)),
                seed,
                confidence,
                ..CheckOptions::default()
            };
            let results = proofs::run(claims, &maps, &opts)?;
            let rendered = if json {
                format!("{}\n", proofs::json(&results))
            } else if markdown {
                proofs::markdown(&results, "#")
            } else {
                proofs::text(&results)
            };
            let _ = write!(out, "{rendered}");
            let unexpected = results
                .iter()
                .flat_map(|r| &r.results)
                .any(|s| s.unexpected());
            Ok(if unexpected {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        ClaimCommand::Merge {
            files,
            json,
            report: dir,
        } => {
            let shards = files
                .iter()
                .map(|f| {
                    let text = std::fs::read_to_string(f).map_err(|e| {
                        crate::Error::Input(format!("cannot read {}: {e}", f.display()))
                    })?;
                    serde_json::from_str(&text).map_err(|e| {
                        crate::Error::Input(format!(
                            "{} is not a dpclaims shard file: {e}",
                            f.display()
                        ))
                    })
                })
                .collect::<Result<Vec<harness::ShardFile>, _>>()?;
            let trials = shards.first().and_then(|s| s.trials);
            let outcomes = harness::merge(&claims, shards)?;
            if let Some(dir) = dir {
                write_report(claims, &dir, &outcomes, trials)?;
            }
            print_outcomes(&mut out, &outcomes, json)
        }
        ClaimCommand::Report { run, out: dir } => {
            let opts = run.options(None)?;
            if let Some(sh) = opts.shard {
                let file = harness::check_shard(&claims, &opts)?;
                std::fs::create_dir_all(&dir).map_err(|e| {
                    crate::Error::Input(format!("cannot create {}: {e}", dir.display()))
                })?;
                let path = dir.join(format!("shard-{}-of-{}.json", sh.index, sh.count));
                std::fs::write(
                    &path,
                    serde_json::to_string(&file).expect("shards serialize"),
                )
                .map_err(|e| {
                    crate::Error::Input(format!("cannot write {}: {e}", path.display()))
                })?;
                let _ = writeln!(out, "wrote {}", path.display());
                return Ok(ExitCode::SUCCESS);
            }
            let outcomes = harness::check(&claims, &opts)?;
            write_report(claims, &dir, &outcomes, opts.trials)?;
            let _ = write!(out, "{}", report::table(&outcomes));
            let violated = outcomes.iter().any(Outcome::unexpectedly_violated);
            Ok(if violated {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
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
