//! `dpclaims detection`: detection thresholds measured at default size and written to a JSON
//! file (of the bound, and of the algorithm by bisection on its perturbation).

use super::*;

/// The arguments of `dpclaims detection` (the help text is on [`ClaimCommand::Detection`]).
#[derive(clap::Args)]
pub struct DetectionArgs {
    /// Claim ids or globs; all claims when none is given.
    pub patterns: Vec<String>,
    /// Output file; rows of claims not run are kept from it when it exists.
    #[arg(long, default_value = "docs/detection.json")]
    pub out: std::path::PathBuf,
    /// Run seed.
    #[arg(long, default_value_t = harness::DEFAULT_SEED)]
    pub seed: u64,
    /// Family-wise confidence level of each claim's run.
    #[arg(long, default_value_t = harness::DEFAULT_CONFIDENCE)]
    pub confidence: f64,
    /// Bisection steps of the algorithm threshold (0: bound thresholds only).
    #[arg(long, default_value_t = 6)]
    pub steps: u32,
    /// Top of the algorithm search, in (0, 1).
    #[arg(long, default_value_t = 0.99)]
    pub kappa_max: f64,
    /// Cap every case's trials (a quick, smaller-size table; recorded in the file).
    #[arg(long)]
    pub max_trials: Option<u64>,
}

/// Runs `dpclaims detection` over `claims`, printing on `out`.
pub fn run(
    claims: &[&dyn Claim],
    args: DetectionArgs,
    out: &mut impl Write,
) -> Result<ExitCode, crate::Error> {
    let DetectionArgs {
        patterns,
        out: path,
        seed,
        confidence,
        steps,
        kappa_max,
        max_trials,
    } = args;
    use crate::detection::{self, DetectOptions, DetectionFile};
    dpclaims_accounting::cli::validate::confidence(confidence)
        .map_err(|_| crate::Error::Confidence(confidence))?;
    let selected = crate::claims::select(claims, &patterns)?;
    let opts = DetectOptions {
        seed,
        confidence,
        max_trials,
        steps,
        kappa_max,
    };
    let previous = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| DetectionFile::parse(&t).ok())
        .filter(|f| f.seed == seed && f.confidence == confidence);
    let size = max_trials.map_or("each claim's default cases".to_string(), |n| {
        format!("each claim's default cases, trials capped at {n}")
    });
    // Rows of claims not run now are kept (same seed and level), in registry order; the
    // file is rewritten after every claim, so that an interrupted run keeps its rows.
    let write_file = |rows: &[detection::Detection]| -> Result<DetectionFile, crate::Error> {
        let merged: Vec<detection::Detection> = claims
            .iter()
            .filter_map(|c| {
                let id = c.info().id;
                rows.iter().find(|d| d.claim == id).cloned().or_else(|| {
                    previous
                        .as_ref()
                        .filter(|p| p.size == size)
                        .and_then(|p| p.get(id).cloned())
                })
            })
            .collect();
        let file = DetectionFile {
            format: detection::FORMAT.into(),
            produced_by: format!(
                "dpclaims detection [PATTERN] --seed {seed} --confidence {confidence}{} (rows may come from several such runs; each algorithm row records its bisection steps and kappa_max): each claim run alone (as `dpclaims check ID`); bound k* in closed form from each outcome's interval (smallest over the claim's non-tautological outcomes); algorithm k* by bisection on the claim's perturbation, (low, high]",
                max_trials
                    .map(|n| format!(" --max-trials {n}"))
                    .unwrap_or_default()
            ),
            seed,
            confidence,
            size: size.clone(),
            claims: merged,
        };
        let text = serde_json::to_string_pretty(&file).expect("detection files serialize");
        std::fs::write(&path, text + "\n")
            .map_err(|e| crate::Error::Input(format!("cannot write {}: {e}", path.display())))?;
        Ok(file)
    };
    let mut rows = Vec::new();
    let mut file = None;
    for c in &selected {
        rows.extend(detection::detect(&[*c], &opts, true)?);
        file = Some(write_file(&rows)?);
    }
    let file = match file {
        Some(f) => f,
        None => write_file(&rows)?,
    };
    let _ = write!(out, "{}", detection::table(&selected, Some(&file)));
    eprintln!("wrote {}", path.display());
    Ok(ExitCode::SUCCESS)
}
