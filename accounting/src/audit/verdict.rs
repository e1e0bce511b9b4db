//! The verdict on each row: its references and Monte Carlo limit judged against the claim
//! (the rules are in the [module documentation](super)).

use super::monte_carlo::monte_carlo;
use super::outcome::{Audit, AuditOptions, AuditVerdict, Curves};
use super::references::references;
use super::rows::{Row, RowError};

/// Audits validated rows whose `epsilon` is set, one result per row in order: a row whose
/// references or Monte Carlo cannot be computed (say, no PLD grid up to spacing 1 fits
/// `opts.pld.max_points`) is that row's error, and the other rows are still audited.
pub fn audit(rows: &[Row], opts: &AuditOptions, progress: bool) -> Vec<Result<Audit, RowError>> {
    let confidence = 1.0 - (1.0 - opts.confidence) / rows.len().max(1) as f64;
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            if progress {
                eprintln!("[{}/{}] {}", i + 1, rows.len(), row.name);
            }
            audit_row(row, opts, confidence).map_err(|reason| RowError {
                line: row.line,
                reason,
            })
        })
        .collect()
}

/// Audits one row (the level of its Monte Carlo limits: `confidence`); an error names what
/// could not be computed.
fn audit_row(row: &Row, opts: &AuditOptions, confidence: f64) -> Result<Audit, String> {
    let claimed = row
        .epsilon
        .ok_or("missing `epsilon` (no accountant answered for it)")?;
    let mut reasons = Vec::new();
    let refs = references(row, opts)?;
    let (upper, lower) = (refs.upper, refs.lower);
    // The Monte Carlo can decide the row only when the references leave it open (no lower
    // reference, or the claim between the references); otherwise it runs at a tenth of the
    // budget as a consistency check. Decided before it runs: no stopping rule involved.
    let decided = match (lower, upper) {
        (Some(lo), Some(up)) => claimed < lo || claimed >= up,
        _ => false,
    };
    let max_steps = if decided {
        opts.max_steps / 10
    } else {
        opts.max_steps
    };
    // The plot's eps range: around the claim and the references.
    let plot_eps: Vec<f64> = if opts.plot {
        let lo = (0.5 * claimed)
            .min(lower.unwrap_or(claimed) * 0.9)
            .max(1e-3);
        let hi = (1.5 * claimed)
            .max(upper.unwrap_or(claimed) * 1.1)
            .min(4.0 * claimed.max(0.25));
        (0..=8).map(|i| lo + (hi - lo) * i as f64 / 8.0).collect()
    } else {
        Vec::new()
    };
    let epsilons: Vec<f64> = std::iter::once(claimed)
        .chain(plot_eps.iter().copied())
        .collect();
    let (mc, points) = monte_carlo(row, &epsilons, opts, confidence, max_steps)
        .map_err(|e| format!("monte carlo: {e}"))?;
    let curves = opts.plot.then(|| {
        let grid: Vec<f64> = (0..=120)
            .map(|i| plot_eps[0] + (plot_eps[8] - plot_eps[0]) * i as f64 / 120.0)
            .collect();
        let curve = |f: &Option<Box<dyn Fn(f64) -> f64>>| {
            f.as_ref()
                .map_or(Vec::new(), |f| grid.iter().map(|e| (*e, f(*e))).collect())
        };
        Curves {
            upper: curve(&refs.upper_delta),
            lower: curve(&refs.lower_delta),
            monte_carlo: points,
        }
    });
    let mut unsound = false;
    if let Some(lo) = lower {
        if claimed < lo {
            unsound = true;
            reasons.push(format!(
                "claimed epsilon {claimed} is below the certified lower reference {lo:.6}"
            ));
        }
    }
    if mc.delta_lower > row.delta {
        unsound = true;
        reasons.push(format!(
            "at the claimed epsilon, delta is at least {:.3e} (Monte Carlo, {} trials, {}, one-sided {:.6}), above the claimed {:e}",
            mc.delta_lower, mc.trials, mc.proposal, mc.confidence, row.delta
        ));
    }
    // (Undefined against an upper reference of 0.)
    let ratio = upper.filter(|u| *u > 0.0).map(|u| claimed / u);
    let verdict = match upper {
        _ if unsound => AuditVerdict::Unsound,
        // Certified sound: at or above the upper reference.
        Some(up) if claimed >= up && claimed <= up * (1.0 + opts.tolerance) => {
            AuditVerdict::SoundTight
        }
        Some(up) if claimed > up => {
            reasons.push(if up > 0.0 {
                format!(
                    "{}% above the upper reference",
                    super::render::readable(100.0 * (claimed / up - 1.0), 1)
                )
            } else {
                "above the upper reference 0".into()
            });
            AuditVerdict::SoundLoose
        }
        Some(up) => {
            reasons.push(format!(
                "below the upper reference {up:.4}{}, and no lower bound contradicts it",
                lower.map_or(String::new(), |lo| format!(
                    ", above the lower reference {lo:.4}"
                ))
            ));
            AuditVerdict::Unverified
        }
        None => {
            reasons.push(
                "no reference (--no-reference), and the Monte Carlo does not contradict it".into(),
            );
            AuditVerdict::Unverified
        }
    };
    Ok(Audit {
        line: row.line,
        name: row.name.clone(),
        sampling: row.sampling,
        relation: row.relation,
        selected: row.selected.filter(|&k| k > 1),
        q: row.q,
        sigma: row.sigma,
        steps: row.steps,
        delta: row.delta,
        claimed_epsilon: claimed,
        upper_reference: upper,
        upper_method: refs.upper_method,
        lower_reference: lower,
        lower_method: refs.lower_method,
        monte_carlo: mc,
        curves,
        verdict,
        ratio,
        reasons,
        notes: refs.notes,
    })
}
