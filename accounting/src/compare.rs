//! `dpclaims compare`: one DP-SGD run under each batch sampler side by side, as certified
//! $\epsilon$ brackets at one $\delta$.
//!
//! The run is a dataset of $n$ records, batches of $b$ (expected) records, $E$ epochs and noise
//! multiplier $\sigma$. Every sampler takes $t=\lceil n/b\rceil$ steps per epoch, $T=Et$ steps in
//! all, and each row is a bracket `[lower, upper]` on the true $\epsilon(\delta)$ of that sampler
//! (the worst case over neighbouring datasets under the row's relation):
//!
//! | sampler | add/remove | replace-one |
//! |---|---|---|
//! | Poisson, $q=b/n$, $T$ steps | PLD of the dominating pair ([`crate::privacy::dominating`]), what `epsilon --sampling poisson --accountant pld` answers | the same |
//! | random allocation, $k=1$ of $t$ steps per epoch (balls-in-bins) | PLD of its pair ([`crate::privacy::random_allocation`]), what `epsilon --sampling random-allocation` answers | lower: the larger of the add/remove lower end (realised by a record with gradient 0) and the antipodal pair's statistic ([`RandomAllocation::antipodal_epoch`](crate::privacy::random_allocation::RandomAllocation::antipodal_epoch)); upper: the smaller of two add/remove hops through the record's absence and the record's step revealed ([`event_pld::replace_one_by_two_hops`]; no replace-one worst pair is proved, so the bracket is wide) |
//! | shuffling: $t$ batches cut from a fresh permutation each epoch | not derived (removing a record re-cuts every batch) | lower: the maximum statistic of the worst realised pair ([`crate::privacy::shuffle::lower_plds`]); upper: the Gaussian mechanism once per epoch, sensitivity $2C$ (the record's batch revealed) |
//! | no amplification: the record in every step | the Gaussian mechanism, $\mu=\sqrt T/\sigma$, closed form ([`crate::privacy::gaussian`]) | $\mu=2\sqrt T/\sigma$ |
//!
//! Rows under different relations bound different things (a replace-one neighbour is up to two
//! add/remove steps away) and are not compared with each other: the table groups them by
//! relation. "No amplification" is an upper bound on every sampler of the same relation: each
//! uses the record in some of the $T$ steps, chosen independently of the record; revealing
//! which (it can only help the adversary) leaves at most $T$ Gaussian mechanisms of the
//! relation's sensitivity. So within a relation it sits above every other row's upper end.
//!
//! When $b$ does not divide $n$, the last of the $t$ shuffled batches is short: the lower end
//! holds as it is (after subtracting the batches' known means every batch output but the
//! record's is centred, so the law of their maximum does not depend on which batch holds the
//! record), and so does the upper end (the record is in one batch per epoch).

use crate::error::{ParamError, at_least, positive};
use crate::privacy::event::{Event, EventDoc};
use crate::privacy::pld::{Focus, PldOptions};
use crate::privacy::{DpSgd, Neighbouring, Sampling, check_delta, event_pld, shuffle};
use crate::query::{self, Accountant, Query, six};
use serde::Serialize;
use std::time::Instant;

/// One DP-SGD run, the same for every sampler: $n$ records, batches of $b$, $E$ epochs, noise
/// multiplier $\sigma$, asked at $\delta$.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Run {
    /// Dataset size $n\ge1$.
    pub n: u64,
    /// Batch size $b$, $1\le b\le n$ (the expected batch size of Poisson sampling).
    pub batch: u64,
    /// Epochs $E\ge1$.
    pub epochs: u64,
    /// Noise multiplier $\sigma>0$ (noise std / clipping norm).
    pub sigma: f64,
    /// The target $\delta\in(0,1)$.
    pub delta: f64,
    /// Steps per epoch $t=\lceil n/b\rceil$.
    pub steps_per_epoch: u64,
    /// Steps of the run $T=Et$.
    pub steps: u64,
    /// Poisson's sampling rate $q=b/n$.
    pub q: f64,
}

impl Run {
    /// A validated run; an error names the parameter (`n`, `batch`, `epochs`, `sigma`,
    /// `delta`).
    pub fn new(
        n: u64,
        batch: u64,
        epochs: u64,
        sigma: f64,
        delta: f64,
    ) -> Result<Self, ParamError> {
        at_least("n", n, 1)?;
        at_least("batch", batch, 1)?;
        if batch > n {
            return Err(ParamError::new(
                "batch",
                batch,
                format!("a batch size of at most n = {n}"),
            ));
        }
        at_least("epochs", epochs, 1)?;
        positive("sigma", sigma)?;
        check_delta(delta)?;
        let steps_per_epoch = n.div_ceil(batch);
        let steps = epochs.checked_mul(steps_per_epoch).ok_or_else(|| {
            ParamError::new("epochs", epochs, "fewer epochs: E n/b steps overflow")
        })?;
        Ok(Self {
            n,
            batch,
            epochs,
            sigma,
            delta,
            steps_per_epoch,
            steps,
            q: batch as f64 / n as f64,
        })
    }

    /// The same run at another noise multiplier.
    pub fn with_sigma(&self, sigma: f64) -> Result<Self, ParamError> {
        Self::new(self.n, self.batch, self.epochs, sigma, self.delta)
    }
}

/// The samplers compared, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sampler {
    /// Each record in each step independently with probability $q=b/n$.
    Poisson,
    /// Each record in exactly one of the $t$ steps of each epoch, uniformly and independently
    /// of the others ($k=1$, "balls-in-bins").
    RandomAllocation,
    /// A fresh random permutation each epoch, cut into $t$ batches of $b$.
    Shuffle,
    /// No amplification: the record in every one of the $T$ steps.
    NoAmplification,
}

impl Sampler {
    /// Every sampler, in table order.
    pub const ALL: [Sampler; 4] = [
        Sampler::Poisson,
        Sampler::RandomAllocation,
        Sampler::Shuffle,
        Sampler::NoAmplification,
    ];

    /// The sampler's name in the table and the plot's legend.
    pub fn label(self) -> &'static str {
        match self {
            Sampler::Poisson => "poisson",
            Sampler::RandomAllocation => "random allocation (k=1)",
            Sampler::Shuffle => "shuffling",
            Sampler::NoAmplification => "no amplification",
        }
    }
}

/// The name of a relation (`add-remove`, `replace-one`).
pub fn relation_name(relation: Neighbouring) -> &'static str {
    match relation {
        Neighbouring::AddRemove => "add-remove",
        Neighbouring::ReplaceOne => "replace-one",
    }
}

/// One row of the table: a sampler under a relation, its certified bracket or why there is
/// none.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The sampler.
    pub sampler: Sampler,
    /// The neighbouring relation the bracket is under.
    pub relation: Neighbouring,
    /// A certified lower bound on the true $\epsilon(\delta)$.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<f64>,
    /// A certified upper bound on the true $\epsilon(\delta)$.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<f64>,
    /// How the ends are computed, in a few words.
    pub how: &'static str,
    /// Why this sampler has no bracket under this relation (no number is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_derived: Option<String>,
    /// What failed (an end that could not be computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What the accountant changed (a coarser grid) or what a weak bracket cannot say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The PLD grid spacing used (none for a closed form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<f64>,
    /// Wall time of the row.
    pub seconds: f64,
    /// The run.
    #[serde(flatten)]
    pub run: Run,
}

impl Row {
    fn new(sampler: Sampler, relation: Neighbouring, run: &Run, how: &'static str) -> Self {
        Row {
            sampler,
            relation,
            lower: None,
            upper: None,
            how,
            not_derived: None,
            error: None,
            note: None,
            interval: None,
            seconds: 0.0,
            run: *run,
        }
    }
}

/// The `how` of each row.
const HOW_POISSON: &str = "PLD of the dominating pair per step, T steps";
const HOW_RA: &str = "PLD of the balls-in-bins pair per epoch, E epochs";
const HOW_RA_REPLACE: &str = "lower: the antipodal pair's statistic (+C against -C in the same step) or the add/remove value, the larger; upper: two add/remove hops through the record's absence, or the step revealed";
const HOW_SHUFFLE: &str = "lower: max of the batch outputs, worst pair, PLD; upper: Gaussian once per epoch (batch revealed)";
const HOW_NONE: &str = "the record in all T steps: Gaussian mechanism, closed form";

/// Two notes as one (either may be absent).
fn join(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// $\mathcal N$ with noise multiplier $\sigma$ composed `count` times: the Gaussian mechanism
/// with $\mu=\Delta\sqrt{\text{count}}/\sigma$, answered by its certified closed form.
fn gaussian_runs(
    sigma: f64,
    count: u64,
    relation: Neighbouring,
    delta: f64,
) -> Result<(f64, f64), String> {
    let doc = EventDoc {
        version: 1,
        neighbouring: relation,
        event: Event::SelfComposed {
            event: Box::new(Event::Gaussian {
                noise_multiplier: sigma,
            }),
            count,
        },
    };
    event_pld::epsilon(&doc, delta, &PldOptions::default())
        .map(|b| (b.optimistic, b.pessimistic))
        .map_err(|e| e.to_string())
}

/// One sampler's row under one relation (`opts`: the PLD grid and point budget; coarsened as
/// `dpclaims epsilon` does when a composition needs more points).
pub fn row(run: &Run, sampler: Sampler, relation: Neighbouring, opts: &PldOptions) -> Row {
    let start = Instant::now();
    let query = Query::Epsilon { delta: run.delta };
    let mut r = match sampler {
        Sampler::Poisson => {
            let mut r = Row::new(sampler, relation, run, HOW_POISSON);
            match DpSgd::new(run.q, run.sigma, run.steps, Sampling::Poisson, relation)
                .and_then(|mech| query::run(Accountant::Pld, &mech, query, opts, None))
            {
                Ok(a) => {
                    if let Some([lo, hi]) = a.bracket {
                        r.lower = Some(lo);
                        r.upper = Some(hi);
                    }
                    r.error = a.error;
                    r.note = a.note;
                    r.interval = a.interval;
                }
                Err(e) => r.error = Some(e.to_string()),
            }
            r
        }
        Sampler::RandomAllocation => {
            let how = match relation {
                Neighbouring::AddRemove => HOW_RA,
                Neighbouring::ReplaceOne => HOW_RA_REPLACE,
            };
            let mut r = Row::new(sampler, relation, run, how);
            let doc = EventDoc {
                neighbouring: relation,
                ..query::random_allocation_doc(run.sigma, 1, run.steps_per_epoch, run.epochs)
            };
            match query::run_event(&doc, query, opts) {
                Ok(a) => {
                    r.lower = Some(a.bracket[0]);
                    r.upper = Some(a.bracket[1]);
                    r.note = a.note;
                    r.interval = Some(a.interval);
                }
                Err(e) => r.error = Some(e.to_string()),
            }
            r
        }
        Sampler::Shuffle => {
            let mut r = Row::new(sampler, relation, run, HOW_SHUFFLE);
            if relation == Neighbouring::AddRemove {
                r.not_derived = Some(
                    "no bound under add/remove: removing a record re-cuts every batch of the \
                     permutation (shuffled batches are analysed under replace-one)"
                        .into(),
                );
                return r;
            }
            // Upper: the record's batch revealed, the Gaussian mechanism with sensitivity 2C
            // once per epoch (mu = 2 sqrt(E) / sigma), as the audit's shuffled rows.
            match gaussian_runs(run.sigma, run.epochs, relation, run.delta) {
                Ok((_, hi)) => r.upper = Some(hi),
                Err(e) => r.error = Some(format!("upper end: {e}")),
            }
            // Lower: the maximum statistic of the worst realised pair, both orders.
            let focused = opts.focused(Focus::Delta(run.delta));
            match query::coarsening(&focused, ParamError::is_too_fine, |o| {
                shuffle::lower_plds(run.steps_per_epoch, run.sigma, run.epochs, o)
            }) {
                Ok((plds, interval, note)) => {
                    let lower = plds
                        .iter()
                        .map(|p| p.epsilon(run.delta))
                        .fold(0.0, f64::max);
                    r.lower = Some(lower);
                    r.interval = Some(interval);
                    r.note = note.map(|n| format!("lower end {n}"));
                    if lower == 0.0 && r.upper.is_some_and(|u| u > 0.0) {
                        r.note = join(
                            r.note.take(),
                            Some(format!(
                                "the lower end 0 says nothing: the largest of {} batch outputs \
                                 resolves no epsilon above 0 at this delta (at interval \
                                 {interval})",
                                run.steps_per_epoch
                            )),
                        );
                    }
                }
                Err(e) => r.error = join(r.error.take(), Some(format!("lower end: {e}"))),
            }
            r
        }
        Sampler::NoAmplification => {
            let mut r = Row::new(sampler, relation, run, HOW_NONE);
            match gaussian_runs(run.sigma, run.steps, relation, run.delta) {
                Ok((lo, hi)) => {
                    r.lower = Some(lo);
                    r.upper = Some(hi);
                }
                Err(e) => r.error = Some(e),
            }
            r
        }
    };
    r.seconds = start.elapsed().as_secs_f64();
    r
}

/// Every sampler's row under each of `relations`, grouped by relation in the order given.
pub fn rows(run: &Run, relations: &[Neighbouring], opts: &PldOptions) -> Vec<Row> {
    relations
        .iter()
        .flat_map(|rel| Sampler::ALL.iter().map(move |s| row(run, *s, *rel, opts)))
        .collect()
}

/// The noise multipliers of a plot around `sigma`: `points` values log-spaced over
/// $[\sigma/2,2\sigma]$ (an odd count has $\sigma$ in the middle).
pub fn sigma_grid(sigma: f64, points: usize) -> Vec<f64> {
    match points {
        0 => vec![],
        1 => vec![sigma],
        _ => (0..points)
            .map(|i| sigma * 2f64.powf(2.0 * i as f64 / (points - 1) as f64 - 1.0))
            .collect(),
    }
}

/// [`rows`] at every noise multiplier of `sigmas` (in parallel over them, returned in their
/// order).
pub fn sweep(
    run: &Run,
    sigmas: &[f64],
    relations: &[Neighbouring],
    opts: &PldOptions,
) -> Result<Vec<Vec<Row>>, ParamError> {
    use rayon::prelude::*;
    let runs = sigmas
        .iter()
        .map(|s| run.with_sigma(*s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(runs.par_iter().map(|r| rows(r, relations, opts)).collect())
}

/// A cell: the value with six decimals, `-` when absent.
fn cell(x: Option<f64>) -> String {
    x.map_or("-".into(), six)
}

/// The table of `rows` for people: a header with the run, then one group per relation (rows
/// of different relations are not comparable), each row its bracket and how, or "not
/// derived"; notes and errors below, numbered.
pub fn table(run: &Run, rows: &[Row]) -> String {
    let mut out = format!(
        "DP-SGD run: n = {}, batch b = {}, E = {} epochs, sigma = {}, delta = {:e}\n\
         every sampler: t = ceil(n/b) = {} steps per epoch, T = {} steps; Poisson q = b/n = {}\n",
        run.n,
        run.batch,
        run.epochs,
        run.sigma,
        run.delta,
        run.steps_per_epoch,
        run.steps,
        six(run.q)
    );
    if run.n % run.batch != 0 {
        out.push_str(&format!(
            "b does not divide n: the last shuffled batch of each epoch holds {} records\n",
            run.n - (run.steps_per_epoch - 1) * run.batch
        ));
    }
    out.push_str(
        "certified epsilon at delta: the true epsilon of each sampler lies in [lower, upper]\n",
    );
    let mut notes: Vec<String> = Vec::new();
    let widest = |f: &dyn Fn(&Row) -> String, header: &str| {
        rows.iter()
            .filter(|r| r.not_derived.is_none())
            .map(|r| f(r).len())
            .chain([header.len()])
            .max()
            .unwrap_or(0)
    };
    let widths = [
        rows.iter()
            .map(|r| r.sampler.label().len())
            .chain(["sampler".len()])
            .max()
            .unwrap_or(0),
        widest(&|r| cell(r.lower), "lower"),
        widest(&|r| cell(r.upper), "upper"),
    ];
    let mut relations: Vec<Neighbouring> = rows.iter().map(|r| r.relation).collect();
    relations.dedup();
    for rel in relations {
        let words = match rel {
            Neighbouring::AddRemove => "neighbours differ by one record's presence",
            Neighbouring::ReplaceOne => "neighbours differ in one record's value",
        };
        out.push_str(&format!(
            "\nunder {} ({words}):\n  {:<w0$}  {:>w1$}  {:>w2$}  how\n",
            relation_name(rel),
            "sampler",
            "lower",
            "upper",
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
        ));
        for r in rows.iter().filter(|r| r.relation == rel) {
            let mut marks = String::new();
            for text in [&r.error, &r.note].into_iter().flatten() {
                let k = match notes.iter().position(|n| n == text) {
                    Some(i) => i + 1,
                    None => {
                        notes.push(text.clone());
                        notes.len()
                    }
                };
                marks.push_str(&format!(" [{k}]"));
            }
            let line = match &r.not_derived {
                Some(why) => format!(
                    "  {:<w0$}  {:>w$}  {why}",
                    r.sampler.label(),
                    "not derived",
                    w0 = widths[0],
                    w = (widths[1] + 2 + widths[2]).max(11),
                ),
                None => format!(
                    "  {:<w0$}  {:>w1$}  {:>w2$}  {}",
                    r.sampler.label(),
                    cell(r.lower),
                    cell(r.upper),
                    r.how,
                    w0 = widths[0],
                    w1 = widths[1],
                    w2 = widths[2],
                ),
            };
            out.push_str(&line);
            out.push_str(&marks);
            out.push('\n');
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        for (i, n) in notes.iter().enumerate() {
            out.push_str(&format!("[{}] {n}\n", i + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_is_validated_naming_the_parameter() {
        let bad = |n, b, e, s, d| Run::new(n, b, e, s, d).unwrap_err().name;
        assert_eq!(bad(10, 11, 1, 1.0, 1e-5), "batch");
        assert_eq!(bad(10, 0, 1, 1.0, 1e-5), "batch");
        assert_eq!(bad(0, 0, 1, 1.0, 1e-5), "n");
        assert_eq!(bad(10, 2, 0, 1.0, 1e-5), "epochs");
        assert_eq!(bad(10, 2, 1, 0.0, 1e-5), "sigma");
        assert_eq!(bad(10, 2, 1, f64::NAN, 1e-5), "sigma");
        assert_eq!(bad(10, 2, 1, 1.0, 1.0), "delta");
        assert_eq!(bad(u64::MAX, 1, 2, 1.0, 1e-5), "epochs");
        let r = Run::new(10, 3, 2, 1.0, 1e-5).unwrap();
        assert_eq!((r.steps_per_epoch, r.steps), (4, 8));
        assert_eq!(r.q, 0.3);
    }

    #[test]
    fn sigma_grid_is_log_spaced_around_sigma() {
        let g = sigma_grid(2.0, 9);
        assert_eq!(g.len(), 9);
        assert!((g[0] - 1.0).abs() < 1e-12 && (g[8] - 4.0).abs() < 1e-12);
        assert!((g[4] - 2.0).abs() < 1e-12);
        let ratios: Vec<f64> = g.windows(2).map(|w| w[1] / w[0]).collect();
        assert!(ratios.iter().all(|r| (r - ratios[0]).abs() < 1e-12));
        assert_eq!(sigma_grid(2.0, 1), vec![2.0]);
    }

    /// Uncovered pairs are "not derived", never a number; the table says so and groups by
    /// relation. Random allocation under replace-one has a bracket (the antipodal pair below, two
    /// hops or the step revealed above).
    #[test]
    fn uncovered_rows_say_not_derived() {
        let run = Run::new(8, 2, 1, 2.0, 1e-5).unwrap();
        let opts = PldOptions {
            interval: 1e-2,
            ..PldOptions::default()
        };
        let ra = row(
            &run,
            Sampler::RandomAllocation,
            Neighbouring::ReplaceOne,
            &opts,
        );
        assert!(ra.not_derived.is_none(), "{ra:?}");
        assert!(ra.lower.unwrap() < ra.upper.unwrap(), "{ra:?}");
        let sh = row(&run, Sampler::Shuffle, Neighbouring::AddRemove, &opts);
        assert!(sh.lower.is_none() && sh.upper.is_none(), "{sh:?}");
        assert!(sh.not_derived.is_some(), "{sh:?}");
        let text = table(&run, &[ra, sh]);
        assert_eq!(text.matches("not derived").count(), 1, "{text}");
        assert!(text.contains("under replace-one") && text.contains("under add-remove"));
    }
}
