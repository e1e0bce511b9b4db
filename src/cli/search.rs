//! `dpclaims search`: each selected claim's parameter space searched for its tightest instance,
//! the best candidates confirmed on a fresh seed, a violation shrunk.

use super::*;

/// The arguments of `dpclaims search` (the help text is on [`ClaimCommand::Search`]).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Claim ids or globs; every claim that declares a space when none is given.
    pub patterns: Vec<String>,
    /// Stop drawing candidates of a claim after this many seconds (the output says how
    /// many ran: pass that as --evaluations to reproduce).
    #[arg(long, default_value_t = 60.0)]
    pub budget_seconds: f64,
    /// Candidates per claim (half random, half local refinement).
    #[arg(long, default_value_t = 200)]
    pub evaluations: u64,
    /// Stop after N candidates, keeping the plan of --evaluations (reproduces a search the
    /// time budget stopped: the output prints the command).
    #[arg(long, value_name = "N")]
    pub stop_after: Option<u64>,
    /// Search seed.
    #[arg(long, default_value_t = harness::DEFAULT_SEED)]
    pub seed: u64,
    /// Confirmation seed (default: the search seed + 1000003).
    #[arg(long)]
    pub confirm_seed: Option<u64>,
    /// How many of the best candidates are confirmed.
    #[arg(long, default_value_t = 3)]
    pub confirm: usize,
    /// Family-wise confidence level of each claim's confirmation run.
    #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// Search for violations of this mutant instead.
    #[arg(long)]
    pub mutant: Option<String>,
    /// Cap the confirmation's trials at this number (default: each claim's default size).
    #[arg(long)]
    pub max_trials: Option<u64>,
    /// One JSON object per claim (every candidate, the confirmed ones, the violation).
    #[arg(long)]
    pub json: bool,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `dpclaims search` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: SearchArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let SearchArgs {
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
    } = args;
    let opts = crate::search::SearchOptions {
        seed,
        confirm_seed: confirm_seed
            .unwrap_or_else(|| seed.wrapping_add(crate::search::CONFIRM_SEED_OFFSET)),
        evaluations,
        budget_seconds,
        stop_after,
        confirm,
        confidence,
        mutant,
        progress: !quiet && std::io::stderr().is_terminal(),
        max_trials,
    };
    let results = crate::search::search_all(claims, &patterns, &opts)?;
    if json {
        for r in &results {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string(r).expect("search results serialize")
            );
        }
    } else {
        let _ = write!(out, "{}", crate::search::table(&results));
    }
    Ok(if crate::search::unexpected_violation(claims, &results) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
