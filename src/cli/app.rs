//! The `dpclaims` binary's command line: the claim commands ([`ClaimCommand`]) over the built-in
//! claims, and the accountant commands (`epsilon`, `delta`, `audit`, `conformance`, `answer`,
//! `contraction-series`), each in its own module.

use super::*;

/// Numerical checks of the published guarantees of DP-SGD and Langevin sampling.
#[derive(Parser)]
#[command(name = "dpclaims", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Claims(ClaimCommand),
    /// ε of a DP-SGD run at a given δ, from the reference accountants.
    Epsilon {
        #[command(flatten)]
        run: RunArgs,
        /// Target δ.
        #[arg(long)]
        delta: f64,
    },
    /// Audit reported ε values: unsound, sound-tight or sound-loose (exit 1 if any is unsound).
    ///
    /// Rows are JSON lines or CSV (by extension or --format), from FILE or stdin, with the
    /// fields name, sampling (poisson|shuffle|wor|none), q or batch+n, sigma, steps or epochs,
    /// delta, epsilon, relation (add-remove|replace-one).
    ///
    /// Exit code: 1 if any row is unsound; else 2 if any row was skipped (unreadable, or its
    /// references or Monte Carlo could not be computed: reported by line with the reason, the
    /// other rows audited); else 0. Bad options also exit 2, with no table.
    Audit(audit::AuditArgs),
    /// The convergence series of seed 001 for T = 1..steps: eq. (5)'s bound, the exact E_ε
    /// (grid) and the PLD composition bound of the same mechanism (plot-ready with --json).
    ContractionSeries(contraction_series::ContractionSeriesArgs),
    /// Run a seeded suite of event queries through an accountant: metamorphic properties and
    /// dpclaims' certified PLD bracket (exit 1 on any finding or broken answer).
    ///
    /// The accountant reads one event document per line with `delta` (or `epsilon`) and an
    /// `id`, and answers one `{"epsilon": x}` / `{"delta": x}` / `{"error": "..."}` per line.
    Conformance(conformance::ConformanceArgs),
    /// Answer conformance queries on stdin with dpclaims' PLD accountant (the line protocol of
    /// `conformance`: dpclaims itself as the accountant of `--command`, and the reproducer of
    /// `conformance --self`).
    Answer(answer::AnswerArgs),
    /// δ of a DP-SGD run at a given ε, from the reference accountants.
    Delta {
        #[command(flatten)]
        run: RunArgs,
        /// Target ε (may be negative).
        #[arg(long, allow_negative_numbers = true)]
        epsilon: f64,
    },
}
fn run(cli: Cli) -> Result<ExitCode, crate::Error> {
    match cli.command {
        Command::Claims(command) => super::run(&crate::claims::registry(), command),
        Command::Audit(args) => audit::run(args),
        Command::ContractionSeries(args) => contraction_series::run(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Answer(args) => answer::run(args),
        Command::Epsilon { run, delta } => query::accountants(run, Query::Epsilon { delta }),
        Command::Delta { run, epsilon } => query::accountants(run, Query::Delta { epsilon }),
    }
}

/// The `dpclaims` binary: parses the arguments, runs the command over the built-in claims,
/// prints errors on stderr with exit code 2.
pub fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
