//! The Monte Carlo lower limit on δ(claimed ε): the realised pairs of a row simulated as
//! privacy losses (plain numbers for `dpclaims-empirical`), importance sampling chosen by a
//! pilot run, KL-Chernoff and empirical-Bernstein limits.

use super::outcome::{AuditOptions, McPoint, MonteCarlo};
use super::references::groups;
use super::rows::Row;
use crate::error::ParamError;
use crate::privacy::Sampling;
use crate::privacy::pld::Pair;
use crate::privacy::shuffle::REPLACE_ONE_WORST;
use dpclaims_empirical::privacy_loss::{
    LossPair, Phase, ShuffledPair, Tilt, shuffled_weighted_loss,
};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::run_trials;
use dpclaims_empirical::stats::{MeanAcc, kl_bernstein};

/// The simulated mechanism of one pair: plain numbers for `empirical`.
#[derive(Debug, Clone)]
enum Simulated {
    Steps {
        loss: LossPair,
        phases: Vec<Phase>,
    },
    Shuffled {
        batches: u64,
        sigma: f64,
        epochs: u64,
        pair: ShuffledPair,
    },
}

impl Simulated {
    fn steps_per_trial(&self) -> u64 {
        match self {
            Simulated::Steps { phases, .. } => phases.iter().map(|p| p.steps).sum(),
            Simulated::Shuffled {
                batches, epochs, ..
            } => batches * epochs,
        }
    }

    /// One weighted path: (weight, privacy loss).
    fn path(&self, tilt: &Tilt, rng: &mut dpclaims_empirical::rng::TrialRng) -> (f64, f64) {
        match self {
            Simulated::Steps { loss, phases } => loss.weighted_loss_phases(phases, tilt, rng),
            Simulated::Shuffled {
                batches,
                sigma,
                epochs,
                pair,
            } => shuffled_weighted_loss(*batches as usize, *sigma, *epochs, *pair, tilt, rng),
        }
    }

    /// The proposals the pilot tries: plain Monte Carlo, and defensive mixtures (weight 1/2)
    /// whose tilted law sits at a relative entropy $k$ from the true one, for $k\in\lbrace2,6,18\rbrace$
    /// (a tail of probability $p$ is reached by a tilt at $k\approx\ln(1/p)$), spent on the
    /// inclusion rate ($\sum_iT_iq_i\thinspace(c\ln c-c+1)=k$ for the rates $cq_i$), on the shift $m$ of
    /// the record's contribution ($\sum_iT_iq_i\thinspace m^2/(2\sigma_i^2)=k$), on a drift of every output
    /// by $d\sigma_i$ ($Td^2/2=k$; for the add pair the only tilt), or on rate and drift half
    /// each. For shuffled epochs: when the record's batch is higher under $P$, it is shifted
    /// ($E\thinspace m^2/(2\sigma^2)=k$); when $P$ is the plain law (the pair $(0,2)$, whose
    /// loss is large when every output is low), every output drifts down by $d\sigma$
    /// ($EKd^2/2=k$ over $K$ batches).
    fn proposals(&self) -> Vec<Tilt> {
        let mut out = vec![Tilt::NONE];
        let mut push = |t: Tilt| {
            if t.shift.is_finite() && t.drift.is_finite() && !out.contains(&t) {
                out.push(t);
            }
        };
        let tilt = |rate_factor: f64, shift: f64, drift: f64| Tilt {
            rate_factor,
            shift,
            drift,
            mix: 0.5,
        };
        match self {
            Simulated::Steps { loss, phases } => {
                let t: f64 = phases.iter().map(|p| p.steps as f64).sum();
                let tq: f64 = phases.iter().map(|p| p.steps as f64 * p.q).sum();
                let tq_s2: f64 = phases
                    .iter()
                    .map(|p| p.steps as f64 * p.q / (p.sigma * p.sigma))
                    .sum();
                let q_max = phases.iter().map(|p| p.q).fold(0.0, f64::max);
                // Solve tq (c ln c - c + 1) = k for c in (1, 1/q_max] (increasing; bisection).
                let rate = |k: f64| {
                    let f = |c: f64| tq * (c * c.ln() - c + 1.0);
                    let (mut lo, mut hi) = (1.0, 1.0 / q_max);
                    if f(hi) <= k {
                        return hi;
                    }
                    for _ in 0..100 {
                        let mid = 0.5 * (lo + hi);
                        if f(mid) < k { lo = mid } else { hi = mid }
                    }
                    lo
                };
                let drift = |k: f64| (2.0 * k / t).sqrt();
                for k in [2.0, 6.0, 18.0] {
                    if *loss == LossPair::Add {
                        push(tilt(1.0, 0.0, drift(k)));
                        continue;
                    }
                    push(tilt(rate(k), 0.0, 0.0));
                    push(tilt(1.0, (2.0 * k / tq_s2).sqrt(), 0.0));
                    push(tilt(1.0, 0.0, drift(k)));
                    push(tilt(rate(k / 2.0), 0.0, drift(k / 2.0)));
                }
            }
            Simulated::Shuffled {
                batches,
                sigma,
                epochs,
                pair,
            } => {
                let e = *epochs as f64;
                for k in [2.0, 6.0, 18.0] {
                    if pair.first > pair.second {
                        push(tilt(1.0, sigma * (2.0 * k / e).sqrt(), 0.0));
                    } else {
                        push(tilt(1.0, 0.0, -(2.0 * k / (e * *batches as f64)).sqrt()));
                    }
                }
            }
        }
        out
    }
}

fn describe(t: &Tilt) -> String {
    if t.mix == 0.0 {
        "plain".into()
    } else {
        format!(
            "defensive mixture {}: rate x{:.4}, shift {:.4}, drift {:.4} sigma",
            t.mix, t.rate_factor, t.shift, t.drift
        )
    }
}

/// The simulated pairs of a row: the realised pairs of its [`Dominating`] pairs (neighbouring
/// datasets with adversarial other records), as plain numbers for the Monte Carlo.
fn simulated_pairs(row: &Row) -> Result<Vec<(Simulated, String)>, ParamError> {
    if let (Sampling::Shuffle, Some(k)) = (row.sampling, row.batches_per_epoch) {
        // The worst configuration of the other records (every other record at -C, the
        // record +C against -C: `shuffle` module doc), in both orders.
        let (u, v) = REPLACE_ONE_WORST;
        return Ok([(u, v), (v, u)]
            .iter()
            .map(|&(first, second)| {
                (
                    Simulated::Shuffled {
                        batches: k,
                        sigma: row.sigma,
                        // Full epochs only: dropping the outputs of a last partial epoch is a
                        // post-processing, so this stays a lower bound.
                        epochs: row.steps / k,
                        pair: ShuffledPair { first, second },
                    },
                    format!(
                        "shuffled epochs, the record's batch at {first} vs {second} (others at -C, the record +C vs -C), at a random position"
                    ),
                )
            })
            .collect());
    }
    let groups = groups(row)?;
    let kinds = groups.first().map_or(0, |(d, _)| d.lower.len());
    Ok((0..kinds)
        .map(|i| {
            let mut loss = LossPair::Remove;
            let mut name = String::new();
            let phases = groups
                .iter()
                .map(|(d, steps)| {
                    let (l, q, sigma, n) = match d.lower[i] {
                        Pair::Remove { q, sigma } => {
                            (LossPair::Remove, q, sigma, "remove (1-q)N(0)+qN(1) vs N(0)")
                        }
                        Pair::Add { q, sigma } => {
                            (LossPair::Add, q, sigma, "add N(0) vs (1-q)N(0)+qN(1)")
                        }
                        Pair::ReplaceOne { q, sigma } => (
                            LossPair::ReplaceOne,
                            q,
                            sigma,
                            "replace-one (1-q)N(0)+qN(1) vs (1-q)N(0)+qN(-1)",
                        ),
                    };
                    (loss, name) = (
                        l,
                        format!("{n}, noise multiplier {sigma} in units of the mean shift"),
                    );
                    Phase {
                        q,
                        sigma,
                        steps: *steps,
                    }
                })
                .collect::<Vec<_>>();
            if phases.len() > 1 {
                name = format!(
                    "{}, {} phases",
                    name.split(',').next().unwrap_or(""),
                    phases.len()
                );
            }
            (Simulated::Steps { loss, phases }, name)
        })
        .collect())
}

/// The Monte Carlo lower limit on δ(claimed ε): for each simulated pair, a pilot run (its own
/// streams, discarded) picks the proposal with the smallest relative variance, then a main run of
/// a fixed number of trials gives the KL-Chernoff / empirical-Bernstein lower limit. The largest
/// limit over the pairs is reported, the row's level split over the pairs.
pub(crate) fn monte_carlo(
    row: &Row,
    epsilons: &[f64],
    opts: &AuditOptions,
    confidence: f64,
    max_steps: u64,
) -> Result<(MonteCarlo, Vec<McPoint>), String> {
    let candidates = simulated_pairs(row).map_err(|e| e.to_string())?;
    if candidates.is_empty() {
        return Err("no simulated pair".into());
    }
    let per_pair = 1.0 - (1.0 - confidence) / candidates.len() as f64;
    let per_pair_steps = max_steps / candidates.len() as u64;
    let mut best: Option<MonteCarlo> = None;
    let mut points: Vec<McPoint> = Vec::new();
    for (index, (sim, name)) in candidates.into_iter().enumerate() {
        crate::cancel::check().map_err(|e| e.to_string())?;
        let per_trial = sim.steps_per_trial().max(1);
        // For each epsilon, the mean of the weighted values and of min(value, cap): the
        // truncated values have a smaller mean, so a lower limit for it is one for delta, and
        // their range is [0, cap] instead of [0, bound]. One path serves every epsilon.
        let run = |key: &StreamKey, trials: u64, tilt: &Tilt, eps: &[f64], cap: f64| {
            run_trials(
                trials,
                || ((), vec![(MeanAcc::new(), MeanAcc::new()); eps.len()]),
                |_, accs: &mut Vec<(MeanAcc, MeanAcc)>, i| {
                    // Cancelled (crate::cancel): the remaining trials do nothing, and the
                    // check after the run discards its result.
                    if crate::cancel::requested() {
                        return;
                    }
                    let (w, loss) = sim.path(tilt, &mut key.trial(i));
                    // A non-finite path (none is known) counts as 0: the conservative side.
                    let (w, loss) = if w.is_finite() && !loss.is_nan() {
                        (w, loss)
                    } else {
                        (0.0, 0.0)
                    };
                    for ((raw, cut), e) in accs.iter_mut().zip(eps) {
                        let v = w * (-(e - loss).exp_m1()).max(0.0);
                        raw.push(v);
                        cut.push(v.min(cap));
                    }
                },
            )
        };
        let proposals = if opts.importance {
            sim.proposals()
        } else {
            vec![Tilt::NONE]
        };
        // Pilot (its own streams, discarded): a tenth of the budget over the proposals; it picks
        // the proposal with the smallest relative variance at the claimed epsilon and the cap
        // (twice that proposal's largest pilot value).
        let pilot_trials = (per_pair_steps / 10 / per_trial / proposals.len() as u64).max(200);
        let started = std::time::Instant::now();
        let (mut chosen, mut cap, mut score) = (proposals[0], proposals[0].bound(), f64::INFINITY);
        for (j, tilt) in proposals.iter().enumerate() {
            crate::cancel::check().map_err(|e| e.to_string())?;
            let key = StreamKey::new(
                opts.seed,
                &[
                    "audit-pilot",
                    &row.name,
                    &row.line.to_string(),
                    &index.to_string(),
                    &j.to_string(),
                ],
            );
            let acc = run(&key, pilot_trials, tilt, &epsilons[..1], f64::INFINITY)
                .remove(0)
                .0;
            crate::cancel::check().map_err(|e| e.to_string())?;
            let s = if acc.mean > 0.0 {
                acc.variance() / (acc.mean * acc.mean)
            } else {
                f64::INFINITY
            };
            if s < score {
                (score, chosen, cap) = (s, *tilt, (2.0 * acc.max).min(tilt.bound()));
            }
        }
        let pilot_seconds = started.elapsed().as_secs_f64();
        // The main run's size is fixed before it starts (from the budget, or from the pilot's
        // throughput), so no stopping rule touches the interval.
        let trials = match (opts.trials, opts.budget_seconds) {
            (Some(n), _) => n,
            (None, Some(b)) => (b * (pilot_trials * proposals.len() as u64) as f64
                / pilot_seconds.max(1e-9))
            .min(1e12) as u64,
            (None, None) => per_pair_steps / per_trial,
        }
        .max(200);
        let key = StreamKey::new(
            opts.seed,
            &[
                "audit",
                &row.name,
                &row.line.to_string(),
                &index.to_string(),
            ],
        );
        let cap = if cap > 0.0 { cap } else { chosen.bound() };
        let accs = run(&key, trials, &chosen, epsilons, cap);
        // A run cut short by a cancellation is no estimate.
        crate::cancel::check().map_err(|e| e.to_string())?;
        for (j, ((raw, cut), e)) in accs.iter().zip(epsilons).enumerate() {
            let est = kl_bernstein(cut, cap, per_pair, opts.seed).map_err(|e| e.to_string())?;
            if j == 0 {
                let mc = MonteCarlo {
                    delta_mean: raw.mean,
                    delta_lower: est.lower,
                    trials,
                    confidence: per_pair,
                    seed: opts.seed,
                    pair: name.clone(),
                    proposal: describe(&chosen),
                    method: "kl-chernoff and empirical bernstein (level split)",
                    bound: cap,
                };
                if best.as_ref().is_none_or(|b| mc.delta_lower > b.delta_lower) {
                    best = Some(mc);
                }
            }
            let point = McPoint {
                epsilon: *e,
                mean: raw.mean,
                lower: est.lower,
            };
            match points.get_mut(j) {
                Some(p) if p.lower >= point.lower => {}
                Some(p) => *p = point,
                None => points.push(point),
            }
        }
    }
    best.map(|b| (b, points))
        .ok_or_else(|| "no simulated pair".into())
}
