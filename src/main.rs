//! The `dpclaims` command line.

use clap::{Parser, Subcommand};
use dpclaims::harness::{self, CheckOptions};
use dpclaims::verdict::Verdict;
use dpclaims::{claims, params, report};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Numerical checks of the published guarantees of DP-SGD and Langevin sampling.
#[derive(Parser)]
#[command(name = "dpclaims", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every claim: id, paper, result, statement and mutants.
    List {
        /// One JSON object per claim.
        #[arg(long)]
        json: bool,
    },
    /// Run claims and compare each measurement with its bound.
    ///
    /// Exit code 0 when nothing is violated, 1 when something is, 2 on bad input.
    Check {
        /// Claim ids or globs (e.g. `stability.*`); all claims when none is given.
        patterns: Vec<String>,
        /// Trials per case (overrides each case's default).
        #[arg(long)]
        trials: Option<u64>,
        /// Run seed: same seed, same numbers, on any number of threads.
        #[arg(long, default_value_t = harness::DEFAULT_SEED)]
        seed: u64,
        /// Family-wise confidence level of the run, split over its outcomes (Bonferroni).
        #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
        confidence: f64,
        /// Override a case parameter in every case that has it, e.g. `--set n=200`.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// Run the named mutant of every selected claim that has it.
        #[arg(long)]
        mutant: Option<String>,
        /// One JSON object per outcome instead of a table.
        #[arg(long)]
        json: bool,
        /// No progress lines on stderr.
        #[arg(long)]
        quiet: bool,
    },
}

fn run(cli: Cli) -> Result<ExitCode, dpclaims::Error> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::List { json } => {
            let all = claims::registry();
            if json {
                for c in &all {
                    let _ = writeln!(
                        out,
                        "{}",
                        serde_json::to_string(c.info()).expect("claim info serializes")
                    );
                }
            } else {
                let _ = write!(out, "{}", report::list_table(&all));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            patterns,
            trials,
            seed,
            confidence,
            sets,
            mutant,
            json,
            quiet,
        } => {
            let sets = sets
                .iter()
                .map(|s| params::parse_assignment(s))
                .collect::<Result<Vec<_>, _>>()?;
            let opts = CheckOptions {
                patterns,
                trials,
                seed,
                confidence,
                sets,
                mutant,
                progress: !quiet && std::io::stderr().is_terminal(),
            };
            let outcomes = harness::check(&opts)?;
            if json {
                for o in &outcomes {
                    let _ = writeln!(out, "{}", report::json_line(o));
                }
            } else {
                let _ = write!(out, "{}", report::table(&outcomes));
            }
            let violated = outcomes.iter().any(|o| o.verdict == Verdict::Violated);
            Ok(if violated {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
