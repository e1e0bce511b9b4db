//! The `dpclaims` binary's command line: the claim commands ([`ClaimCommand`]) over the built-in
//! claims, the accountant commands (`epsilon`, `delta`, `audit`, `conformance`, `answer`, from
//! [`dpclaims_accounting::cli`]), `compare` and `contraction-series`, each in its own module.

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
    #[command(flatten)]
    Accounting(dpclaims_accounting::cli::AccountingCommand),
    /// One DP-SGD run (n records, batches of b, E epochs, sigma) under each batch sampler:
    /// Poisson, random allocation (balls-in-bins), shuffling and no amplification, each its
    /// certified [lower, upper] epsilon at delta, grouped by neighbouring relation ("not
    /// derived" where dpclaims has no bound); --plot draws epsilon against sigma.
    ///
    /// Exit code 0; 2 on bad input (b > n, b = 0, sigma <= 0, delta outside (0, 1), ...).
    Compare(compare::CompareArgs),
    /// The convergence series of seed 001 for T = 1..steps: eq. (5)'s bound, the exact E_ε
    /// (grid) and the PLD composition bound of the same mechanism (plot-ready with --json).
    ContractionSeries(contraction_series::ContractionSeriesArgs),
}
fn run(cli: Cli) -> Result<ExitCode, crate::Error> {
    match cli.command {
        Command::Claims(command) => super::run(&crate::claims::registry(), command),
        Command::ContractionSeries(args) => contraction_series::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Accounting(command) => Ok(ExitCode::from(dpclaims_accounting::cli::run(command)?)),
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
