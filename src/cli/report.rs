//! `dpclaims report`: run claims and write DIR/report.md and one SVG plot per claim family.

use super::*;

/// The arguments of `dpclaims report` (the help text is on [`ClaimCommand::Report`]).
#[derive(clap::Args)]
pub struct ReportArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: ClaimRunArgs,
    /// Output directory (with --shard: where DIR/shard-K-of-N.json is written).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Also search every selected claim that declares a parameter space (as `dpclaims
    /// search`, seed --seed) and add the "Tightness frontier" section with one plot per
    /// claim (`DIR/search-<claim>.svg`).
    #[arg(long)]
    pub search: bool,
    /// Per-claim time limit of --search.
    #[arg(long, default_value_t = 60.0, requires = "search")]
    pub search_budget_seconds: f64,
    /// Per-claim candidates of --search.
    #[arg(long, default_value_t = 200, requires = "search")]
    pub search_evaluations: u64,
}

/// Runs `dpclaims report` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: ReportArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let ReportArgs {
        run,
        out: dir,
        search,
        search_budget_seconds,
        search_evaluations,
    } = args;
    let opts = run.options(None)?;
    if search && opts.shard.is_some() {
        return Err(crate::Error::Input(
            "--search cannot be sharded: run it without --shard".into(),
        ));
    }
    if let Some(sh) = opts.shard {
        let file = harness::check_shard(&claims, &opts)?;
        std::fs::create_dir_all(&dir)
            .map_err(|e| crate::Error::Input(format!("cannot create {}: {e}", dir.display())))?;
        let path = dir.join(format!("shard-{}-of-{}.json", sh.index, sh.count));
        std::fs::write(
            &path,
            serde_json::to_string(&file).expect("shards serialize"),
        )
        .map_err(|e| crate::Error::Input(format!("cannot write {}: {e}", path.display())))?;
        let _ = writeln!(out, "wrote {}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let outcomes = harness::check(&claims, &opts)?;
    write_report(claims, &dir, &outcomes, opts.trials)?;
    let _ = write!(out, "{}", crate::report::summary(&outcomes));
    let mut found = false;
    if search {
        let sopts = crate::search::SearchOptions {
            seed: opts.seed,
            confirm_seed: opts.seed.wrapping_add(crate::search::CONFIRM_SEED_OFFSET),
            evaluations: search_evaluations,
            budget_seconds: search_budget_seconds,
            confidence: opts.confidence,
            progress: opts.progress,
            max_trials: opts.max_trials,
            ..crate::search::SearchOptions::default()
        };
        let results = crate::search::search_all(claims, &opts.patterns, &sopts)?;
        for f in crate::search::write_section(&dir, &results).map_err(crate::Error::Input)? {
            eprintln!("wrote {}", f.display());
        }
        let _ = write!(out, "{}", crate::search::table(&results));
        found = crate::search::unexpected_violation(claims, &results);
    }
    let violated = outcomes.iter().any(Outcome::unexpectedly_violated) || found;
    Ok(if violated {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
