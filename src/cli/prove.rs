//! `dpclaims prove`: each selected claim with closed forms on both sides proved on its whole box
//! by interval branch and bound ([`crate::prove`]).

use super::*;

/// The arguments of `dpclaims prove` (the help text is on [`ClaimCommand::Prove`]).
#[derive(clap::Args)]
pub struct ProveArgs {
    /// Claim ids or globs; every claim with a closed form when none is given.
    pub patterns: Vec<String>,
    /// Boxes evaluated per claim at most.
    #[arg(long, default_value_t = 200_000)]
    pub boxes: usize,
    /// Seconds per claim at most.
    #[arg(long, default_value_t = 20.0)]
    pub budget_seconds: f64,
    /// Prove against this mutant instead (it must come out refuted).
    #[arg(long)]
    pub mutant: Option<String>,
    /// One JSON object per claim.
    #[arg(long)]
    pub json: bool,
}

/// Runs `dpclaims prove` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: ProveArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let budget = crate::prove::Budget {
        boxes: args.boxes,
        seconds: args.budget_seconds,
    };
    let selected: Vec<&dyn Claim> = dpclaims_core::claim::select(claims, &args.patterns)?
        .into_iter()
        .filter(|c| !args.patterns.is_empty() || c.provable())
        .collect();
    let mut results = Vec::new();
    for c in selected {
        results.push(crate::prove::prove(c, args.mutant.as_deref(), budget)?);
    }
    if args.json {
        for r in &results {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string(r).expect("proof results serialize")
            );
        }
    } else {
        let _ = write!(out, "{}", crate::prove::table(&results));
    }
    // A refuted claim that is expected to hold (not known false, no mutant) is a failure.
    let unexpected = args.mutant.is_none()
        && results.iter().any(|r| {
            r.verdict == crate::prove::ProofVerdict::Refuted
                && !claims
                    .iter()
                    .any(|c| c.info().id == r.claim && c.info().known_false)
        });
    Ok(if unexpected {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
