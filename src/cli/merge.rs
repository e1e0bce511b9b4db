//! `dpclaims merge`: combine the shard files of one `check --shard K/N` run into what `check` prints.

use super::*;

/// The arguments of `dpclaims merge` (the help text is on [`ClaimCommand::Merge`]).
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The N shard files (any order).
    pub files: Vec<std::path::PathBuf>,
    /// One JSON object per outcome instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write report.md and the plots into this directory.
    #[arg(long, value_name = "DIR")]
    pub report: Option<std::path::PathBuf>,
    /// The case table (one row per outcome) instead of one line per claim.
    #[arg(long, conflicts_with = "json")]
    pub cases: bool,
}

/// Runs `dpclaims merge` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: MergeArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let MergeArgs {
        files,
        json,
        report: dir,
        cases,
    } = args;
    let shards = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)
                .map_err(|e| crate::Error::Input(format!("cannot read {}: {e}", f.display())))?;
            serde_json::from_str(&text).map_err(|e| {
                crate::Error::Input(format!("{} is not a dpclaims shard file: {e}", f.display()))
            })
        })
        .collect::<Result<Vec<harness::ShardFile>, _>>()?;
    let trials = shards.first().and_then(|s| s.trials);
    let outcomes = harness::merge(&claims, shards)?;
    if let Some(dir) = dir {
        write_report(claims, &dir, &outcomes, trials)?;
    }
    print_outcomes(out, &outcomes, json, cases)
}
