//! `dpclaims epsilon` / `dpclaims delta`: the reference accountants on one DP-SGD run.

use crate::error::ParamError;
use crate::privacy::event::{Event, EventDoc};
use crate::privacy::event_pld::{self, EventPldError};
use crate::privacy::pld::{self, PldOptions};
use crate::privacy::rdp::{self, Conversion};
use crate::privacy::{DpSgd, Neighbouring, Sampling};
use serde::Serialize;
use std::time::Instant;

/// The accountants `epsilon` and `delta` can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Accountant {
    /// RDP with the improved conversion (Canonne–Kamath–Steinke 2020).
    Rdp,
    /// RDP with Mironov's 2017 conversion (the one seed 000 uses).
    RdpMironov,
    /// PLD: [optimistic, pessimistic] bracket; the pessimistic value is the certified one.
    Pld,
}

impl Accountant {
    /// Every accountant, in the order `--accountant all` prints them.
    pub const ALL: [Accountant; 3] = [Accountant::Rdp, Accountant::RdpMironov, Accountant::Pld];
}

/// Which quantity is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Query {
    /// ε at this δ.
    Epsilon {
        /// The target δ.
        delta: f64,
    },
    /// δ at this ε.
    Delta {
        /// The target ε.
        epsilon: f64,
    },
}

impl Query {
    /// What is asked (`"epsilon"` or `"delta"`) and the value it is asked at (the δ of an ε
    /// query, the ε of a δ query).
    pub fn parts(self) -> (&'static str, f64) {
        match self {
            Query::Epsilon { delta } => ("epsilon", delta),
            Query::Delta { epsilon } => ("delta", epsilon),
        }
    }
}

/// One accountant's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The accountant that answered.
    pub accountant: Accountant,
    /// ε (for `epsilon`) or δ (for `delta`): an upper bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epsilon: Option<f64>,
    /// δ (for `delta`) or the target δ (for `epsilon`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<f64>,
    /// [optimistic, pessimistic] (PLD).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracket: Option<[f64; 2]>,
    /// Optimal Rényi order (RDP).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The RDP-to-(ε, δ) conversion used (RDP).
    pub conversion: Option<Conversion>,
    /// PLD grid spacing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<f64>,
    /// Wall time of the answer.
    pub seconds: f64,
    /// Why this accountant does not apply to the run (the other fields are then empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the accountant changed to answer (a coarser PLD grid than asked for, and why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Sampling rate of the run.
    pub q: f64,
    /// Noise multiplier of the run.
    pub sigma: f64,
    /// Steps of the run.
    pub steps: u64,
    /// How the run draws its batches.
    pub sampling: Sampling,
    /// The neighbouring relation accounted for.
    pub relation: Neighbouring,
}

fn answer(acc: Accountant, mech: &DpSgd) -> Answer {
    Answer {
        accountant: acc,
        epsilon: None,
        delta: None,
        bracket: None,
        alpha: None,
        conversion: None,
        interval: None,
        seconds: 0.0,
        error: None,
        note: None,
        q: mech.q,
        sigma: mech.sigma,
        steps: mech.steps,
        sampling: mech.sampling,
        relation: mech.neighbouring,
    }
}

/// Runs one accountant. Input errors (δ out of range, ...) are `Err`; an accountant that does
/// not cover the run's sampling/relation gives an `Answer` with `error` set.
///
/// `orders`: evaluate RDP on exactly these orders (no refinement), e.g. to match another
/// tool's grid; `None` searches all orders.
pub fn run(
    acc: Accountant,
    mech: &DpSgd,
    query: Query,
    opts: &PldOptions,
    orders: Option<&[f64]>,
) -> Result<Answer, ParamError> {
    let start = Instant::now();
    let mut a = answer(acc, mech);
    let result: Result<(), ParamError> = (|| {
        match acc {
            Accountant::Rdp | Accountant::RdpMironov => {
                let conversion = if acc == Accountant::Rdp {
                    Conversion::Improved
                } else {
                    Conversion::Mironov
                };
                rdp::per_step(mech, 2.0)?; // applicability
                let r = match (query, orders) {
                    (Query::Epsilon { delta }, Some(grid)) => {
                        rdp::dp_sgd_epsilon_on_grid(mech, delta, conversion, grid)?
                    }
                    (Query::Epsilon { delta }, None) => {
                        rdp::dp_sgd_epsilon(mech, delta, conversion)?
                    }
                    (Query::Delta { epsilon }, _) => rdp::dp_sgd_delta(mech, epsilon, conversion)?,
                };
                match query {
                    Query::Epsilon { .. } => a.epsilon = Some(r.value),
                    Query::Delta { .. } => a.delta = Some(r.value),
                }
                a.alpha = Some(r.alpha);
                a.conversion = Some(conversion);
            }
            Accountant::Pld => {
                crate::privacy::dominating::Dominating::of(mech)?; // applicability
                let (b, interval, note) =
                    coarsening(opts, ParamError::is_too_fine, |o| match query {
                        Query::Epsilon { delta } => pld::dp_sgd_epsilon(mech, delta, o),
                        Query::Delta { epsilon } => pld::dp_sgd_delta(mech, epsilon, o),
                    })?;
                match query {
                    Query::Epsilon { .. } => a.epsilon = Some(b.pessimistic),
                    Query::Delta { .. } => a.delta = Some(b.pessimistic),
                }
                a.bracket = Some([b.optimistic, b.pessimistic]);
                a.interval = Some(interval);
                a.note = join_notes(note, weak_bracket_note(query, &b));
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        // Applicability errors name `sampling` or `relation`, and a run no grid within the
        // point budget covers is this accountant's limit (the others still answer); anything
        // else is bad input.
        if e.name == "sampling" || e.name == "relation" || e.is_too_fine() {
            a.error = Some(e.to_string());
        } else {
            return Err(e);
        }
    }
    a.seconds = start.elapsed().as_secs_f64();
    Ok(a)
}

/// A value with six decimals, or in scientific notation with six significant digits when
/// six decimals would hide it (a $\delta$ of `1e-12` is not `0.000000`).
pub fn six(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() < 1e-3 || x.abs() >= 1e9) {
        format!("{x:.6e}")
    } else {
        format!("{x:.6}")
    }
}

/// A human-readable line for an answer.
pub fn line(a: &Answer) -> String {
    let name = serde_json::to_value(a.accountant)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    if let Some(e) = &a.error {
        return format!("{name:<12} not applicable: {e}");
    }
    let (label, v) = if let Some(e) = a.epsilon {
        ("epsilon", e)
    } else {
        ("delta", a.delta.unwrap_or(f64::NAN))
    };
    let mut s = format!("{name:<12} {label} = {}", six(v));
    if let Some(alpha) = a.alpha {
        s.push_str(&format!("  (order {alpha:.4})"));
    }
    if let Some([lo, hi]) = a.bracket {
        s.push_str(&format!(
            "  bracket [{}, {}] at interval {}",
            six(lo),
            six(hi),
            a.interval.unwrap_or(f64::NAN)
        ));
    }
    s.push_str(&format!("  {:.3} s", a.seconds));
    if let Some(note) = &a.note {
        s.push_str(&format!("\n             note: {note}"));
    }
    s
}

/// Two notes as one (either may be absent).
fn join_notes(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// A note when a PLD bracket's end is too coarse to mean anything, so that it is never read as
/// information: for ε, an optimistic end of 0 below a positive pessimistic one (the lower
/// bound's margins, the composition's round-off and truncated tails, exceed δ), ends more than
/// a factor 2 apart, or an infinite pessimistic end; for δ, a pessimistic end of 1 (the grid's rounding of every loss, up to
/// $\Delta_L$ a step, moved the composed losses past ε), an optimistic end of 0, or ends more
/// than a factor 10 apart.
pub fn weak_bracket_note(query: Query, b: &pld::PldBracket) -> Option<String> {
    let (lo, hi) = (b.optimistic, b.pessimistic);
    let advice = "a finer --interval (or a larger --max-points) may narrow it";
    match query {
        Query::Epsilon { .. } if hi.is_infinite() => Some(format!(
            "the pessimistic end is infinite: no upper bound at this grid and delta ({advice})"
        )),
        Query::Epsilon { .. } if lo == 0.0 && hi > 0.0 => Some(format!(
            "the optimistic end is 0: no lower bound at this grid and delta (its error margins \
             exceed delta); the pessimistic end is still an upper bound ({advice})"
        )),
        Query::Epsilon { .. } if hi > 2.0 * lo => Some(format!(
            "the ends differ by a factor {:.3}: the bracket is too wide to mean much; the \
             pessimistic end is still an upper bound ({advice})",
            hi / lo
        )),
        Query::Delta { .. } if hi >= 1.0 && lo < 1.0 => Some(format!(
            "the pessimistic end is 1: no upper bound at this grid (the grid's rounding of the \
             losses, up to the interval per step, dominates) ({advice})"
        )),
        Query::Delta { .. } if lo == 0.0 && hi > 0.0 => Some(format!(
            "the optimistic end is 0: no lower bound at this grid ({advice})"
        )),
        Query::Delta { .. } if hi > 10.0 * lo => Some(format!(
            "the ends differ by a factor {:.3e}: the bracket is too wide to mean much ({advice})",
            hi / lo
        )),
        _ => None,
    }
}

/// The CLI's default point budget of one PLD composition ($2^{25}$: half a gigabyte per FFT
/// buffer); past it [`coarsening`] coarsens the grid.
pub const ANSWER_MAX_POINTS: usize = 1 << 25;

/// Runs `f` at `opts.interval` within `opts.max_points`, and, while the grid is too fine for
/// that budget (`too_fine`), at grids 4 times coarser (up to spacing 1). Returns the
/// result, the spacing used and, when it is not the one asked for, a note saying so.
pub fn coarsening<T, E>(
    opts: &PldOptions,
    too_fine: impl Fn(&E) -> bool,
    f: impl Fn(&PldOptions) -> Result<T, E>,
) -> Result<(T, f64, Option<String>), E> {
    let mut o = *opts;
    loop {
        match f(&o) {
            Ok(t) => {
                let note = (o.interval != opts.interval).then(|| {
                    format!(
                        "answered at interval {} (at {} a composition needs more than {} points)",
                        o.interval, opts.interval, o.max_points
                    )
                });
                return Ok((t, o.interval, note));
            }
            Err(e) if too_fine(&e) && o.interval < 1.0 => o.interval = (4.0 * o.interval).min(1.0),
            Err(e) => return Err(e),
        }
    }
}

/// The PLD accountant's answer for an event document (`epsilon --event`, `delta --event`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventAnswer {
    /// The accountant that answered (PLD).
    pub accountant: Accountant,
    /// ε at the given δ (pessimistic: an upper bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epsilon: Option<f64>,
    /// δ at the given ε (pessimistic: an upper bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<f64>,
    /// [optimistic, pessimistic].
    pub bracket: [f64; 2],
    /// PLD grid spacing.
    pub interval: f64,
    /// Wall time of the answer.
    pub seconds: f64,
    /// The neighbouring relation accounted for.
    pub relation: Neighbouring,
    /// A coarser grid than asked for, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The event, as read.
    pub event: Event,
}

/// Runs the PLD accountant on an event document; an event it does not cover is an
/// [`EventPldError::Unsupported`] naming the event's JSON path.
pub fn run_event(
    doc: &EventDoc,
    query: Query,
    opts: &PldOptions,
) -> Result<EventAnswer, EventPldError> {
    let start = Instant::now();
    let (b, interval, note) = coarsening(opts, EventPldError::is_too_fine, |o| match query {
        Query::Epsilon { delta } => event_pld::epsilon(doc, delta, o),
        Query::Delta { epsilon } => event_pld::delta(doc, epsilon, o),
    })?;
    let two_hops = event_pld::replace_one_by_two_hops(doc).is_some();
    // (Two hops: the gap is the method's, not the grid's; the note below says so.)
    let note = match two_hops {
        true => note,
        false => join_notes(note, weak_bracket_note(query, &b)),
    };
    let note = match event_pld::exact_gaussian_mu(doc) {
        Some((mu, _)) => join_notes(
            Some(format!(
                "exactly one Gaussian mechanism (mu = {}): answered by its closed form, rounding \
                 included, without a grid (the interval plays no part)",
                six(mu)
            )),
            note,
        ),
        None => note,
    };
    let note = match two_hops {
        true => join_notes(
            Some(
                "replace-one with random allocation: the upper end goes through the record's \
                 absence (remove, then add: two add/remove hops, certified but loose; or the \
                 record's steps revealed, if smaller), the lower end is the largest of the \
                 add/remove value (a record with gradient 0 realises it), the antipodal pair's \
                 (+C against -C in the same steps, through a statistic of the outputs, where \
                 its lattice fits) and, with other events, theirs with the allocations \
                 silenced; no replace-one worst pair is proved, so most of the gap is the \
                 method's, not the grid's"
                    .into(),
            ),
            note,
        ),
        false => note,
    };
    let (epsilon, delta) = match query {
        Query::Epsilon { .. } => (Some(b.pessimistic), None),
        Query::Delta { .. } => (None, Some(b.pessimistic)),
    };
    Ok(EventAnswer {
        accountant: Accountant::Pld,
        epsilon,
        delta,
        bracket: [b.optimistic, b.pessimistic],
        interval,
        seconds: start.elapsed().as_secs_f64(),
        relation: doc.neighbouring,
        note,
        event: doc.event.clone(),
    })
}

/// The event document of $E$ epochs of random allocation ($k$ of $t$ steps per epoch,
/// add/remove) of the Gaussian mechanism with noise multiplier `sigma`:
/// `SelfComposed(RandomAllocation(Gaussian, k, t), E)` (`dpclaims epsilon --sampling
/// random-allocation`, and the random-allocation row of [`crate::compare`], $k=1$).
pub fn random_allocation_doc(
    sigma: f64,
    num_selected: u64,
    steps_per_epoch: u64,
    epochs: u64,
) -> EventDoc {
    let epoch = Event::RandomAllocation {
        event: Box::new(Event::Gaussian {
            noise_multiplier: sigma,
        }),
        num_selected,
        num_steps: steps_per_epoch,
    };
    EventDoc {
        version: 1,
        neighbouring: Neighbouring::AddRemove,
        event: Event::SelfComposed {
            event: Box::new(epoch),
            count: epochs,
        },
    }
}

/// A human-readable line for an event answer.
pub fn event_line(a: &EventAnswer) -> String {
    let (label, v) = match (a.epsilon, a.delta) {
        (Some(e), _) => ("epsilon", e),
        (_, Some(d)) => ("delta", d),
        _ => ("value", f64::NAN),
    };
    let relation = match a.relation {
        Neighbouring::AddRemove => "add-remove",
        Neighbouring::ReplaceOne => "replace-one",
    };
    let mut s = format!(
        "pld          {label} = {}  bracket [{}, {}] at interval {}  ({relation}, {})  {:.3} s",
        six(v),
        six(a.bracket[0]),
        six(a.bracket[1]),
        a.interval,
        a.event.type_name(),
        a.seconds
    );
    if let Some(note) = &a.note {
        s.push_str(&format!("\n             note: {note}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::pld::PldBracket;

    fn b(lo: f64, hi: f64) -> PldBracket {
        PldBracket::checked(lo, hi).unwrap()
    }

    /// The two weak brackets of issue 33 are flagged; informative ones are not.
    #[test]
    fn weak_brackets_are_said_informative_ones_are_not() {
        let eps = Query::Epsilon { delta: 1e-10 };
        let del = Query::Delta { epsilon: 30.0 };
        let note = |q, lo, hi| weak_bracket_note(q, &b(lo, hi));
        assert!(
            note(eps, 0.0, 3.506708)
                .unwrap()
                .contains("optimistic end is 0")
        );
        assert!(note(eps, 1.0, f64::INFINITY).unwrap().contains("infinite"));
        assert!(note(eps, 395.35, 795.365).unwrap().contains("factor 2.012"));
        assert_eq!(note(eps, 1.678163, 2.381362), None);
        assert!(
            note(del, 9.99998e-10, 1.0)
                .unwrap()
                .contains("pessimistic end is 1")
        );
        assert!(
            note(del, 0.0, 1e-7)
                .unwrap()
                .contains("optimistic end is 0")
        );
        assert!(note(del, 1e-9, 1e-7).unwrap().contains("factor"));
        assert_eq!(note(eps, 1.828233, 1.828244), None);
        assert_eq!(note(eps, 0.0, 0.0), None);
        assert_eq!(note(del, 1.2e-7, 1.3e-7), None);
        assert_eq!(note(del, 1.0, 1.0), None);
    }
}
