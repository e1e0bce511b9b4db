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

use crate::claims::Claim;
use crate::harness::{self, CheckOptions};
use crate::verdict::Outcome;
use crate::{params, proofs, report, search};
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// The claim commands (a `clap` subcommand set; flatten it into a larger CLI).
#[derive(Subcommand)]
pub enum ClaimCommand {
    /// List every claim: id, paper, result, statement and mutants (`--json`: also the parameter
    /// space it declares for `search`, `space`, null when none).
    List {
        /// One JSON object per claim.
        #[arg(long)]
        json: bool,
        /// The detection thresholds instead (the committed docs/detection.json compiled into
        /// the binary, or --detection-file), sorted by threshold.
        #[arg(long)]
        detection: bool,
        /// Read the thresholds from this file (written by `dpclaims detection`).
        #[arg(long, value_name = "FILE", requires = "detection")]
        detection_file: Option<std::path::PathBuf>,
    },
    /// Measure detection thresholds at default size and write them to a JSON file: of the bound
    /// (closed form from each outcome's interval) and of the algorithm (bisection on the claim's
    /// perturbation, one full run per step). Each claim is run alone. Expensive: give patterns.
    Detection {
        /// Claim ids or globs; all claims when none is given.
        patterns: Vec<String>,
        /// Output file; rows of claims not run are kept from it when it exists.
        #[arg(long, default_value = "docs/detection.json")]
        out: std::path::PathBuf,
        /// Run seed.
        #[arg(long, default_value_t = harness::DEFAULT_SEED)]
        seed: u64,
        /// Family-wise confidence level of each claim's run.
        #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
        confidence: f64,
        /// Bisection steps of the algorithm threshold (0: bound thresholds only).
        #[arg(long, default_value_t = 6)]
        steps: u32,
        /// Top of the algorithm search, in (0, 1).
        #[arg(long, default_value_t = 0.99)]
        kappa_max: f64,
        /// Cap every case's trials (a quick, smaller-size table; recorded in the file).
        #[arg(long)]
        max_trials: Option<u64>,
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
        /// Also search every selected claim that declares a parameter space (as `dpclaims
        /// search`, seed --seed) and add the "Tightness frontier" section with one plot per
        /// claim (`DIR/search-<claim>.svg`).
        #[arg(long)]
        search: bool,
        /// Per-claim time limit of --search.
        #[arg(long, default_value_t = 60.0, requires = "search")]
        search_budget_seconds: f64,
        /// Per-claim candidates of --search.
        #[arg(long, default_value_t = 200, requires = "search")]
        search_evaluations: u64,
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
    /// Search each selected claim's parameter space for its tightest instance (largest
    /// measured/bound), confirm the best candidates on a fresh seed at the default size, and
    /// shrink a confirmed violation to a simple reproducible instance.
    ///
    /// Exit code 0 unless a confirmed violation of a claim expected to hold was found (1);
    /// 2 on bad input.
    Search {
        /// Claim ids or globs; every claim that declares a space when none is given.
        patterns: Vec<String>,
        /// Stop drawing candidates of a claim after this many seconds (the output says how
        /// many ran: pass that as --evaluations to reproduce).
        #[arg(long, default_value_t = 60.0)]
        budget_seconds: f64,
        /// Candidates per claim (half random, half local refinement).
        #[arg(long, default_value_t = 200)]
        evaluations: u64,
        /// Stop after N candidates, keeping the plan of --evaluations (reproduces a search the
        /// time budget stopped: the output prints the command).
        #[arg(long, value_name = "N")]
        stop_after: Option<u64>,
        /// Search seed.
        #[arg(long, default_value_t = harness::DEFAULT_SEED)]
        seed: u64,
        /// Confirmation seed (default: the search seed + 1000003).
        #[arg(long)]
        confirm_seed: Option<u64>,
        /// How many of the best candidates are confirmed.
        #[arg(long, default_value_t = 3)]
        confirm: usize,
        /// Family-wise confidence level of each claim's confirmation run.
        #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
        confidence: f64,
        /// Search for violations of this mutant instead.
        #[arg(long)]
        mutant: Option<String>,
        /// Cap the confirmation's trials at this number (default: each claim's default size).
        #[arg(long)]
        max_trials: Option<u64>,
        /// One JSON object per claim (every candidate, the confirmed ones, the violation).
        #[arg(long)]
        json: bool,
        /// No progress lines on stderr.
        #[arg(long)]
        quiet: bool,
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
            exact: self.exact,
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
        ClaimCommand::List {
            json,
            detection,
            detection_file,
        } => {
            let all = claims;
            if detection {
                let file = match detection_file {
                    Some(path) => Some(crate::detection::DetectionFile::parse(
                        &std::fs::read_to_string(&path).map_err(|e| {
                            crate::Error::Input(format!("cannot read {}: {e}", path.display()))
                        })?,
                    )?),
                    None => crate::detection::builtin(),
                };
                if json {
                    for c in all {
                        let row = file.as_ref().and_then(|f| f.get(c.info().id));
                        let _ = writeln!(
                            out,
                            "{}",
                            serde_json::json!({"claim": c.info().id, "detection": row})
                        );
                    }
                } else {
                    let _ = write!(out, "{}", crate::detection::table(all, file.as_ref()));
                }
                return Ok(ExitCode::SUCCESS);
            }
            if json {
                for c in all {
                    // The claim's info, and the parameter space it declares for `search` (null
                    // when none).
                    let mut row = serde_json::to_value(c.info()).expect("claim info serializes");
                    row["space"] = serde_json::to_value(c.space()).expect("spaces serialize");
                    let _ = writeln!(out, "{row}");
                }
            } else {
                let _ = write!(out, "{}", report::list_table(all));
            }
            Ok(ExitCode::SUCCESS)
        }
        ClaimCommand::Detection {
            patterns,
            out: path,
            seed,
            confidence,
            steps,
            kappa_max,
            max_trials,
        } => {
            use crate::detection::{self, DetectOptions, DetectionFile};
            if !(confidence > 0.0 && confidence < 1.0) {
                return Err(crate::Error::Confidence(confidence));
            }
            let selected = crate::claims::select(claims, &patterns)?;
            let opts = DetectOptions {
                seed,
                confidence,
                max_trials,
                steps,
                kappa_max,
            };
            let previous = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| DetectionFile::parse(&t).ok())
                .filter(|f| f.seed == seed && f.confidence == confidence);
            let size = max_trials.map_or("each claim's default cases".to_string(), |n| {
                format!("each claim's default cases, trials capped at {n}")
            });
            // Rows of claims not run now are kept (same seed and level), in registry order; the
            // file is rewritten after every claim, so that an interrupted run keeps its rows.
            let write_file =
                |rows: &[detection::Detection]| -> Result<DetectionFile, crate::Error> {
                    let merged: Vec<detection::Detection> = claims
                        .iter()
                        .filter_map(|c| {
                            let id = c.info().id;
                            rows.iter().find(|d| d.claim == id).cloned().or_else(|| {
                                previous
                                    .as_ref()
                                    .filter(|p| p.size == size)
                                    .and_then(|p| p.get(id).cloned())
                            })
                        })
                        .collect();
                    let file = DetectionFile {
                        format: detection::FORMAT.into(),
                        produced_by: format!(
                            "dpclaims detection [PATTERN] --seed {seed} --confidence {confidence}{} (rows may come from several such runs; each algorithm row records its bisection steps and kappa_max): each claim run alone (as `dpclaims check ID`); bound k* in closed form from each outcome's interval (smallest over the claim's non-tautological outcomes); algorithm k* by bisection on the claim's perturbation, (low, high]",
                            max_trials
                                .map(|n| format!(" --max-trials {n}"))
                                .unwrap_or_default()
                        ),
                        seed,
                        confidence,
                        size: size.clone(),
                        claims: merged,
                    };
                    let text =
                        serde_json::to_string_pretty(&file).expect("detection files serialize");
                    std::fs::write(&path, text + "\n").map_err(|e| {
                        crate::Error::Input(format!("cannot write {}: {e}", path.display()))
                    })?;
                    Ok(file)
                };
            let mut rows = Vec::new();
            let mut file = None;
            for c in &selected {
                rows.extend(detection::detect(&[*c], &opts, true)?);
                file = Some(write_file(&rows)?);
            }
            let file = match file {
                Some(f) => f,
                None => write_file(&rows)?,
            };
            let _ = write!(out, "{}", detection::table(&selected, Some(&file)));
            eprintln!("wrote {}", path.display());
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
        ClaimCommand::Search {
            patterns,
            budget_seconds,
            evaluations,
            stop_after,
            seed,
            confirm_seed,
            confirm,
            confidence,
            mutant,
            max_trials,
            json,
            quiet,
        } => {
            let opts = search::SearchOptions {
                seed,
                confirm_seed: confirm_seed
                    .unwrap_or_else(|| seed.wrapping_add(search::CONFIRM_SEED_OFFSET)),
                evaluations,
                budget_seconds,
                stop_after,
                confirm,
                confidence,
                mutant,
                progress: !quiet && std::io::stderr().is_terminal(),
                max_trials,
            };
            let results = search::search_all(claims, &patterns, &opts)?;
            if json {
                for r in &results {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string(r).expect("search results serialize")
                    );
                }
            } else {
                let _ = write!(out, "{}", search::table(&results));
            }
            Ok(if search::unexpected_violation(claims, &results) {
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
        ClaimCommand::Report {
            run,
            out: dir,
            search,
            search_budget_seconds,
            search_evaluations,
        } => {
            let opts = run.options(None)?;
            if search && opts.shard.is_some() {
                return Err(crate::Error::Input(
                    "--search cannot be sharded: run it without --shard".into(),
                ));
            }
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
            let mut found = false;
            if search {
                let sopts = search::SearchOptions {
                    seed: opts.seed,
                    confirm_seed: opts.seed.wrapping_add(search::CONFIRM_SEED_OFFSET),
                    evaluations: search_evaluations,
                    budget_seconds: search_budget_seconds,
                    confidence: opts.confidence,
                    progress: opts.progress,
                    max_trials: opts.max_trials,
                    ..search::SearchOptions::default()
                };
                let results = search::search_all(claims, &opts.patterns, &sopts)?;
                for f in search::write_section(&dir, &results).map_err(crate::Error::Input)? {
                    eprintln!("wrote {}", f.display());
                }
                let _ = write!(out, "{}", search::table(&results));
                found = search::unexpected_violation(claims, &results);
            }
            let violated = outcomes.iter().any(Outcome::unexpectedly_violated) || found;
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
