//! `dpclaims proofs`: the proof maps, each proof's steps in order with the verdict of each step
//! claim or why it is not checkable, and a summary per paper.

use super::*;

/// The arguments of `dpclaims proofs` (the help text is on [`ClaimCommand::Proofs`]).
#[derive(clap::Args)]
pub struct ProofsArgs {
    /// Proof-map ids or globs (e.g. `multipass.*`); all maps when none is given.
    pub patterns: Vec<String>,
    /// One JSON document: {"maps": [...], "papers": [...]}.
    #[arg(long)]
    pub json: bool,
    /// Markdown (the report's "Proofs" section) instead of plain text.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Cap on the trials of every case of a step claim that simulates.
    #[arg(long, default_value_t = 200)]
    pub max_trials: u64,
    /// Run seed.
    #[arg(long, default_value_t = harness::DEFAULT_SEED)]
    pub seed: u64,
    /// Family-wise confidence level over all outcomes of the step claims (Bonferroni).
    #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// Seconds per step claim with a closed form for its proof on the whole box (0: check at
    /// instances only).
    #[arg(long, default_value_t = 2.0)]
    pub prove_seconds: f64,
    /// Boxes per step claim with a closed form.
    #[arg(long, default_value_t = 100_000)]
    pub prove_boxes: usize,
}

/// Runs `dpclaims proofs` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: ProofsArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let ProofsArgs {
        patterns,
        json,
        markdown,
        max_trials,
        seed,
        confidence,
        prove_seconds,
        prove_boxes,
    } = args;
    let maps = crate::proofs::select(&crate::proofs::maps(), &patterns)?;
    let opts = CheckOptions {
        max_trials: Some(max_trials.max(2)),
        seed,
        confidence,
        ..CheckOptions::default()
    };
    let mut results = crate::proofs::run(claims, &maps, &opts)?;
    if prove_seconds > 0.0 {
        let budget = crate::prove::Budget {
            boxes: prove_boxes,
            seconds: prove_seconds,
        };
        crate::proofs::prove_steps(claims, &mut results, budget)?;
    }
    let rendered = if json {
        format!("{}\n", crate::proofs::json(&results))
    } else if markdown {
        crate::proofs::markdown(&results, "#")
    } else {
        crate::proofs::text(&results)
    };
    let _ = write!(out, "{rendered}");
    let unexpected = results
        .iter()
        .flat_map(|r| &r.results)
        .any(|s| s.unexpected())
        || !crate::proofs::contradictions(&results).is_empty();
    Ok(if unexpected {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
