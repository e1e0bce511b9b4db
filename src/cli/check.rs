//! `dpclaims check`: run claims and compare each measurement with its bound.

use super::*;

/// The arguments of `dpclaims check` (the help text is on [`ClaimCommand::Check`]).
#[derive(clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: ClaimRunArgs,
    /// Run the named mutant of every selected claim that has it.
    #[arg(long)]
    pub mutant: Option<String>,
    /// One JSON object per outcome instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The case table (one row per outcome) instead of one line per claim.
    #[arg(long, conflicts_with = "json")]
    pub cases: bool,
}

/// Runs `dpclaims check` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: CheckArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let CheckArgs {
        run,
        mutant,
        json,
        cases,
    } = args;
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
    print_outcomes(out, &harness::check(&claims, &opts)?, json, cases)
}
