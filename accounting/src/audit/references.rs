//! A row's certified references: an ε at least the true one (upper) and one at most it
//! (lower), from the PLD compositions of its dominating pairs, or for shuffled batches the
//! Gaussian mechanism per epoch and the maximum statistic ([`crate::privacy::shuffle`]).

use super::outcome::AuditOptions;
use super::rows::Row;
use crate::error::ParamError;
use crate::privacy::dominating::Dominating;
use crate::privacy::event_pld::{self, Directions};
use crate::privacy::pld::{self, PldOptions};
use crate::privacy::random_allocation::{self, RandomAllocation};
use crate::privacy::{DpSgd, Neighbouring, Sampling, gaussian, shuffle};
use crate::query::coarsening;
use dpclaims_empirical::privacy_loss::Phase;

/// The accountant's view of a row that is not shuffled: groups of steps of the subsampled
/// Gaussian with their dominating pairs (one group, or one per phase of a schedule).
pub(crate) fn groups(row: &Row) -> Result<Vec<(Dominating, u64)>, ParamError> {
    let sampling = row.sampling;
    let q_of = |q: f64| if sampling == Sampling::None { 1.0 } else { q };
    let phases = match &row.phases {
        Some(p) => p.clone(),
        None => vec![Phase {
            q: row.q,
            sigma: row.sigma,
            steps: row.steps,
        }],
    };
    phases
        .iter()
        .map(|p| {
            let mech = DpSgd::new(q_of(p.q), p.sigma, p.steps, sampling, row.relation)?;
            Ok((Dominating::of(&mech)?, p.steps))
        })
        .collect()
}

/// Why a reference could not be computed: past the point budget at every grid, or the error.
fn reference_error(what: &str, e: &ParamError, opts: &PldOptions) -> String {
    if e.is_too_fine() {
        format!(
            "{what}: no PLD grid up to interval 1 fits the point budget ({} points; --max-points): {e}",
            opts.max_points
        )
    } else {
        format!("{what}: {e}")
    }
}

/// The note on a lower reference of 0 below a positive upper one: it says nothing, and the
/// optimistic grid may be why (each of the `composed` losses is rounded down by up to
/// `interval`).
fn zero_lower_note(composed: u64, interval: f64) -> String {
    if composed == 0 {
        "the lower reference 0 is uninformative: the run has no full epoch (it counts full epochs only)".into()
    } else {
        format!(
            "the lower reference 0 is uninformative: at interval {interval} each of its {composed} composed losses is rounded down by up to {interval} ({:.4e} in all)",
            composed as f64 * interval
        )
    }
}

/// A row's certified references (all `None` with `--no-reference`).
pub struct References {
    /// Upper reference ε (at least the true one).
    pub upper: Option<f64>,
    /// Lower reference ε (at most the true one).
    pub lower: Option<f64>,
    /// How the upper reference was computed.
    pub upper_method: Option<&'static str>,
    /// How the lower reference was computed.
    pub lower_method: Option<&'static str>,
    /// What the references changed or cannot say ([`Audit::notes`](super::Audit::notes)).
    pub notes: Vec<String>,
    /// δ(ε) of the upper reference (for the plot).
    pub upper_delta: Option<Box<dyn Fn(f64) -> f64>>,
    /// δ(ε) of the lower reference (for the plot).
    pub lower_delta: Option<Box<dyn Fn(f64) -> f64>>,
}

/// The references of a row at its δ: PLD compositions on `opts.pld`'s grid, coarsened 4x at a
/// time while a composition needs more than `opts.pld.max_points` points
/// ([`coarsening`], as `dpclaims epsilon`); an error names the reference no grid up to spacing
/// 1 fits, or the parameter it cannot take.
pub fn references(row: &Row, opts: &AuditOptions) -> Result<References, String> {
    let mut notes = Vec::new();
    let mut upper_delta: Option<Box<dyn Fn(f64) -> f64>> = None;
    let mut lower_delta: Option<Box<dyn Fn(f64) -> f64>> = None;
    let focused = opts.pld.focused(pld::Focus::Delta(row.delta));
    // The lower reference's composed steps and grid spacing (for the note on a 0).
    let mut lower_grid = (0u64, focused.interval);
    let (upper, lower, upper_method, lower_method) = match row.sampling {
        _ if opts.no_reference => (None, None, None, None),
        Sampling::Shuffle => {
            let k = row.batches_per_epoch.unwrap_or(1);
            // Upper: every started epoch counts in full; lower: full epochs only (dropping
            // the outputs of a partial epoch is a post-processing).
            let (started, full) = (row.steps.div_ceil(k), row.steps / k);
            let mu = 2.0 * (started as f64).sqrt() / row.sigma;
            // The certified closed form's pessimistic end (rounding included).
            let upper = gaussian::epsilon_bracket(mu, mu, row.delta)
                .map_err(|e| format!("upper reference (gaussian mechanism): {e}"))?
                .1;
            let plds = if full > 0 {
                let (plds, interval, note) = coarsening(&focused, ParamError::is_too_fine, |o| {
                    shuffle::lower_plds(k, row.sigma, full, o)
                })
                .map_err(|e| reference_error("lower reference", &e, &focused))?;
                notes.extend(note.map(|n| format!("lower reference {n}")));
                lower_grid = (full, interval);
                plds
            } else {
                Vec::new()
            };
            let lower = plds
                .iter()
                .map(|p| p.epsilon(row.delta))
                .fold(0.0, f64::max);
            upper_delta = Some(Box::new(move |e| {
                gaussian::delta_bracket(mu, mu, e).map_or(f64::NAN, |b| b.1)
            }));
            lower_delta = Some(Box::new(move |e| {
                plds.iter().map(|p| p.delta(e)).fold(0.0, f64::max)
            }));
            (
                Some(upper),
                Some(lower),
                Some("gaussian mechanism, sensitivity 2C once per epoch"),
                Some(
                    "pld optimistic of the largest batch output per epoch (post-processing), other records at -C, the record +C vs -C",
                ),
            )
        }
        Sampling::RandomAllocation => {
            let (t, k) = (
                row.batches_per_epoch.unwrap_or(1),
                row.selected.unwrap_or(1),
            );
            let ra = RandomAllocation::new(row.sigma, k, t).map_err(|e| e.to_string())?;
            // Upper: every started epoch counts in full (a partial epoch is the first steps of
            // a t-step epoch, so its outputs are a post-processing of a full one's; a partial
            // epoch allocated anew over its own steps is another run, docs/audit.md); lower:
            // full epochs only.
            let (started, full) = (row.steps.div_ceil(t), row.steps / t);
            let dirs = |epochs: u64, what: &str| {
                random_allocation::composed(&ra, epochs, &focused)
                    .map_err(|e| format!("{what} (random allocation): {e}"))
            };
            let up = std::rc::Rc::new(dirs(started, "upper reference")?);
            let lo = std::rc::Rc::new(if full > 0 {
                dirs(full, "lower reference")?.to_vec()
            } else {
                Vec::new()
            });
            lower_grid = (full, focused.interval);
            let upper = up
                .iter()
                .map(|p| p.pessimistic.epsilon(row.delta))
                .fold(0.0, f64::max);
            let lower = lo
                .iter()
                .map(|p| p.optimistic.epsilon(row.delta))
                .fold(0.0, f64::max);
            let lo_replace = lo.clone();
            lower_delta = Some(Box::new(move |e| {
                lo.iter().map(|p| p.optimistic.delta(e)).fold(0.0, f64::max)
            }));
            let lower_method = Some(if k == 1 {
                "pld optimistic of the realised pair (the record's gradient +C, the others 0), full epochs"
            } else {
                "pld optimistic below the realised pair (the record's gradient +C in k steps, the others 0), per direction the larger of the statistic S' and Maclaurin's inequality (add) or the blocks moved (remove), full epochs"
            });
            if row.relation == Neighbouring::ReplaceOne {
                // Two add/remove hops through the record's absence, or the record's steps
                // revealed (Gaussian, sensitivity 2C in k steps of every started epoch), the
                // smaller (`event_pld::replace_one_by_two_hops`); the lower end as under
                // add/remove (the record's gradient +C against a record's 0).
                let dirs = Directions::Two((*up).clone());
                let mu = 2.0 * ((k * started) as f64).sqrt() / row.sigma;
                let revealed = gaussian::epsilon_bracket(mu, mu, row.delta)
                    .map_err(|e| e.to_string())?
                    .1;
                let upper = event_pld::two_hops_epsilon(&dirs, row.delta)
                    .map_err(|e| e.to_string())?
                    .pessimistic
                    .min(revealed);
                upper_delta = Some(Box::new(move |e| {
                    let hops =
                        event_pld::two_hops_delta(&dirs, e).map_or(f64::NAN, |b| b.pessimistic);
                    let revealed = gaussian::delta_bracket(mu, mu, e).map_or(f64::NAN, |b| b.1);
                    hops.min(revealed)
                }));
                // The lower end: also the antipodal pair (the record +C against -C in the same
                // steps), full epochs: at k = t exactly the Gaussian mechanism of sensitivity 2C
                // in every step (closed form), otherwise through its statistic where its
                // lattice and the composition fit; the larger.
                let full_mu = 2.0 * ((k * full) as f64).sqrt() / row.sigma;
                let antipodal = match full {
                    0 => None,
                    _ if k == t => None,
                    _ => match ra
                        .antipodal_epoch(&focused)
                        .and_then(|p| p.map(|p| p.compose(full, &focused)).transpose())
                    {
                        Ok(p) => p,
                        Err(e) if e.is_too_fine() => None,
                        Err(e) => {
                            return Err(format!(
                                "lower reference (random allocation, antipodal): {e}"
                            ));
                        }
                    },
                };
                let (lower, lower_method) = match (antipodal, full > 0 && k == t) {
                    (Some(anti), _) => {
                        let lower = lower.max(anti.epsilon(row.delta));
                        lower_delta = Some(Box::new(move |e| {
                            lo_replace
                                .iter()
                                .map(|p| p.optimistic.delta(e))
                                .fold(anti.delta(e), f64::max)
                        }));
                        (
                            lower,
                            Some(
                                "the larger of the add/remove lower end and the pld optimistic below the antipodal pair (the record +C against -C in the same steps, the others 0) from the statistic S', full epochs",
                            ),
                        )
                    }
                    (None, true) => {
                        let exact = gaussian::epsilon_bracket(full_mu, full_mu, row.delta)
                            .map_err(|e| e.to_string())?
                            .0;
                        lower_delta = Some(Box::new(move |e| {
                            lo_replace.iter().map(|p| p.optimistic.delta(e)).fold(
                                gaussian::delta_bracket(full_mu, full_mu, e).map_or(0.0, |b| b.0),
                                f64::max,
                            )
                        }));
                        (
                            lower.max(exact),
                            Some(
                                "the antipodal pair in every step (k = t): the Gaussian mechanism, sensitivity 2C, full epochs, closed form",
                            ),
                        )
                    }
                    (None, false) => (lower, lower_method),
                };
                notes.push(
                    "replace-one with random allocation: no worst pair is proved; the upper reference is two add/remove hops through the record's absence (or the record's steps revealed), the lower the larger of the add/remove one (a record with gradient 0 in its place) and the antipodal pair's statistic (+C against -C in the same steps)"
                        .into(),
                );
                (
                    Some(upper),
                    Some(lower),
                    Some(if k == 1 {
                        "two add/remove hops through the record's absence (pld pessimistic of the balls-in-bins pair, remove then add), or the step revealed"
                    } else {
                        "two add/remove hops through the record's absence (pld pessimistic of the k-of-t allocation, remove then add), or the k steps revealed"
                    }),
                    lower_method,
                )
            } else {
                upper_delta = Some(Box::new(move |e| {
                    up.iter()
                        .map(|p| p.pessimistic.delta(e))
                        .fold(0.0, f64::max)
                }));
                (
                    Some(upper),
                    Some(lower),
                    Some(if k == 1 {
                        "pld pessimistic of the dominating pair of one epoch (the record in one of t steps), both directions"
                    } else {
                        "pld pessimistic of k blocks of about t/k steps, the record in one step of each (joint convexity), both directions"
                    }),
                    lower_method,
                )
            }
        }
        _ => {
            let groups = groups(row).map_err(|e| e.to_string())?;
            let (composed, interval, note) = coarsening(&focused, ParamError::is_too_fine, |o| {
                pld::compose_groups(&groups, o)
            })
            .map_err(|e| reference_error("references", &e, &focused))?;
            notes.extend(note.map(|n| format!("references {n}")));
            lower_grid = (row.steps, interval);
            let composed = std::rc::Rc::new(composed);
            let b = composed.epsilon(row.delta).map_err(|e| e.to_string())?;
            let (c1, c2) = (composed.clone(), composed);
            // An inverted bracket is no reference: no upper (NaN, as the Gaussian's error)
            // and the trivial lower 0.
            upper_delta = Some(Box::new(move |e| {
                c1.delta(e).map_or(f64::NAN, |b| b.pessimistic)
            }));
            lower_delta = Some(Box::new(move |e| c2.delta(e).map_or(0.0, |b| b.optimistic)));
            (
                Some(b.pessimistic),
                Some(b.optimistic),
                Some("pld pessimistic (connect the dots)"),
                Some("pld optimistic of the realised pairs"),
            )
        }
    };
    if let (Some(lo), Some(up)) = (lower, upper) {
        if lo == 0.0 && up > 0.0 {
            notes.push(zero_lower_note(lower_grid.0, lower_grid.1));
        }
        if up == f64::INFINITY {
            notes.push(format!(
                "the upper reference is infinite: no epsilon is certified at delta {:e} (below what the accountant resolves)",
                row.delta
            ));
        }
    }
    Ok(References {
        upper,
        lower,
        upper_method,
        lower_method,
        notes,
        upper_delta,
        lower_delta,
    })
}
