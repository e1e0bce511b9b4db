//! `dpclaims contraction-series`: the convergence series of seed 001 for T = 1..steps (eq. (5)'s
//! bound, the exact E_ε and the PLD composition bound).

use super::*;

/// The arguments of `dpclaims contraction-series` (the help text is on [`Command::ContractionSeries`]).
#[derive(clap::Args)]
pub struct ContractionSeriesArgs {
    /// A linear instance of `contraction.main` (A_small, K_full, B_q0.5, B_q0.1, C_large, P_B, P_A).
    #[arg(long, default_value = "B_q0.1")]
    pub instance: String,
    #[arg(long, default_value_t = 0.25)]
    pub epsilon: f64,
    #[arg(long, default_value_t = 200)]
    pub steps: u64,
    /// PLD grid spacing of the privacy loss.
    #[arg(long, default_value_t = 1e-3)]
    pub pld_interval: f64,
    /// One JSON object per T.
    #[arg(long)]
    pub json: bool,
}

/// Runs `dpclaims contraction-series`.
pub fn run(args: ContractionSeriesArgs) -> Result<ExitCode, crate::Error> {
    let ContractionSeriesArgs {
        instance,
        epsilon,
        steps,
        pld_interval,
        json,
    } = args;
    let points =
        claims::contraction::series(&instance, epsilon, steps, pld_interval).map_err(|source| {
            crate::Error::Param {
                claim: "contraction-series".to_string(),
                source,
            }
        })?;
    let mut out = std::io::stdout().lock();
    if !json {
        let _ = writeln!(
            out,
            "{:>5}  {:>12}  {:>12}  {:>10}  {:>12}",
            "T", "bound (5)", "exact", "grid err", "composition"
        );
    }
    for p in &points {
        let _ = if json {
            writeln!(out, "{}", serde_json::to_string(p).unwrap_or_default())
        } else {
            writeln!(
                out,
                "{:>5}  {:>12.6}  {:>12.6}  {:>10.1e}  {:>12.6}",
                p.steps, p.contraction_bound, p.exact, p.exact_error, p.composition_bound
            )
        };
    }
    Ok(ExitCode::SUCCESS)
}
