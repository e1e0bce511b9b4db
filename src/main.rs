//! The `dpclaims` command line.

use clap::{Parser, Subcommand};
use dpclaims::accounting::{self, Accountant, Query};
use dpclaims::harness::{self, CheckOptions};
use dpclaims::verdict::Verdict;
use dpclaims::{claims, params, report};
use dpclaims_theorems::privacy::pld::PldOptions;
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
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
    /// ε of a DP-SGD run at a given δ, from the reference accountants.
    Epsilon {
        #[command(flatten)]
        run: RunArgs,
        /// Target δ.
        #[arg(long)]
        delta: f64,
    },
    /// δ of a DP-SGD run at a given ε, from the reference accountants.
    Delta {
        #[command(flatten)]
        run: RunArgs,
        /// Target ε.
        #[arg(long)]
        epsilon: f64,
    },
}

/// A DP-SGD run as the accountants see it.
#[derive(clap::Args)]
struct RunArgs {
    /// Which accountant(s).
    #[arg(long, value_enum, default_value = "all")]
    accountant: AccountantArg,
    /// How batches are drawn.
    #[arg(long, value_enum, default_value = "poisson")]
    sampling: SamplingArg,
    /// Sampling rate (batch / dataset size); 1 with `--sampling none`.
    #[arg(long)]
    q: f64,
    /// Noise multiplier (noise std / clipping norm).
    #[arg(long)]
    sigma: f64,
    /// Number of steps.
    #[arg(long)]
    steps: u64,
    /// Neighbouring relation.
    #[arg(long, value_enum, default_value = "add-remove")]
    relation: RelationArg,
    /// RDP: evaluate exactly these orders (comma-separated, each > 1) instead of searching.
    #[arg(long, value_delimiter = ',')]
    orders: Option<Vec<f64>>,
    /// PLD grid spacing of the privacy loss.
    #[arg(long, default_value_t = 1e-4)]
    interval: f64,
    /// One JSON object per accountant.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum AccountantArg {
    Rdp,
    RdpMironov,
    Pld,
    All,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SamplingArg {
    Poisson,
    Wor,
    None,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RelationArg {
    AddRemove,
    ReplaceOne,
}

fn accountants(run: RunArgs, query: Query) -> Result<ExitCode, dpclaims::Error> {
    let sampling = match run.sampling {
        SamplingArg::Poisson => Sampling::Poisson,
        SamplingArg::Wor => Sampling::WithoutReplacement,
        SamplingArg::None => Sampling::None,
    };
    let relation = match run.relation {
        RelationArg::AddRemove => Neighbouring::AddRemove,
        RelationArg::ReplaceOne => Neighbouring::ReplaceOne,
    };
    let mech = DpSgd::new(run.q, run.sigma, run.steps, sampling, relation)?;
    let which: Vec<Accountant> = match run.accountant {
        AccountantArg::Rdp => vec![Accountant::Rdp],
        AccountantArg::RdpMironov => vec![Accountant::RdpMironov],
        AccountantArg::Pld => vec![Accountant::Pld],
        AccountantArg::All => Accountant::ALL.to_vec(),
    };
    let opts = PldOptions {
        interval: run.interval,
        ..PldOptions::default()
    };
    if let Some(bad) = run
        .orders
        .iter()
        .flatten()
        .find(|a| !(**a > 1.0 && a.is_finite()))
    {
        return Err(dpclaims_theorems::ParamError::new("orders", bad, "finite orders > 1").into());
    }
    let answers = which
        .iter()
        .map(|a| accounting::run(*a, &mech, query, &opts, run.orders.as_deref()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    for a in &answers {
        let text = if run.json {
            serde_json::to_string(a).expect("answers serialize")
        } else {
            accounting::line(a)
        };
        let _ = writeln!(out, "{text}");
    }
    if answers.iter().all(|a| a.error.is_some()) {
        eprintln!("error: no selected accountant covers this run");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
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
        Command::Epsilon { run, delta } => accountants(run, Query::Epsilon { delta }),
        Command::Delta { run, epsilon } => accountants(run, Query::Delta { epsilon }),
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
