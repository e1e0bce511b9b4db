//! The Monte Carlo lower limit on δ(claimed ε): the realised pairs of a row simulated as
//! privacy losses (plain numbers for `dpclaims-empirical`), importance sampling chosen by a
//! pilot run, KL-Chernoff and empirical-Bernstein limits.

use super::outcome::{AuditOptions, McPoint, MonteCarlo};
use super::references::groups;
use super::rows::Row;
use crate::error::ParamError;
use crate::privacy::pld::Pair;
use crate::privacy::shuffle::REPLACE_ONE_WORST;
use crate::privacy::{Neighbouring, Sampling};
use dpclaims_empirical::loss_tilt::{
    LossTilt, PhaseMasses, TiltedEpoch, TiltedPhase, log_value_bound, one_hot_tilted_path,
    remove_tilted_path,
};
use dpclaims_empirical::privacy_loss::{
    LossPair, Phase, ShuffledPair, Tilt, allocated_weighted_loss, shuffled_weighted_loss,
};
use dpclaims_empirical::rng::{StreamKey, TrialRng};
use dpclaims_empirical::runner::run_trials;
use dpclaims_empirical::stats::{self, MeanAcc};
use rand::RngExt;
use statrs::distribution::{Binomial, Discrete};
use std::sync::Arc;

/// The simulated mechanism of one pair: plain numbers for `empirical`.
#[derive(Debug, Clone)]
enum Simulated {
    /// A schedule of phases, simulated step by step (the record's draws random).
    Steps { loss: LossPair, phases: Vec<Phase> },
    /// One phase, stratified on the number of steps that draw the record ([`Stratum`]).
    Drawn { loss: LossPair, phase: Phase },
    Shuffled {
        batches: u64,
        sigma: f64,
        epochs: u64,
        pair: ShuffledPair,
    },
    /// Random allocation with $k>1$: the record in `selected` of the `steps` steps of each
    /// epoch ([`allocated_weighted_loss`]; $k=1$ is [`Simulated::Shuffled`]).
    Allocated {
        steps: u64,
        selected: u64,
        sigma: f64,
        epochs: u64,
        pair: ShuffledPair,
    },
}

impl Simulated {
    fn steps_per_trial(&self) -> u64 {
        match self {
            Simulated::Steps { phases, .. } => phases.iter().map(|p| p.steps).sum(),
            Simulated::Drawn { phase, .. } => phase.steps,
            Simulated::Shuffled {
                batches, epochs, ..
            } => batches * epochs,
            // (A path costs t normals and two O(tk) symmetric means an epoch.)
            Simulated::Allocated {
                steps,
                selected,
                epochs,
                ..
            } => steps.saturating_mul(*epochs).saturating_mul(*selected),
        }
    }

    /// The strata of the pair ([`Stratum`]): a one-phase pair whose $P$ draws the record (remove,
    /// replace-one) is stratified on $K\sim\mathrm{Binomial}(T,q)$ ([`binomial_strata`]); the add
    /// pair ($P$ has no record), schedules and shuffled epochs are one stratum.
    fn strata(&self, floor: f64) -> Result<Vec<Stratum>, String> {
        match self {
            Simulated::Drawn { loss, phase } if *loss != LossPair::Add => {
                binomial_strata(phase.q, phase.steps, floor)
            }
            _ => Ok(vec![Stratum::whole()]),
        }
    }

    /// One weighted path of `stratum` under `proposal`: (weight, privacy loss).
    fn path(&self, stratum: &Stratum, proposal: &Proposal, rng: &mut TrialRng) -> (f64, f64) {
        let tilt = match (proposal, self) {
            (Proposal::Tilt(t), _) => t,
            (Proposal::Jump { size, mix }, Simulated::Drawn { loss, phase }) => {
                let drawn = stratum.draw(rng);
                return loss.conditioned_jump_loss(
                    phase.q,
                    phase.sigma,
                    phase.steps,
                    drawn,
                    *size,
                    *mix,
                    rng,
                );
            }
            (Proposal::Loss { tilt, phases, .. }, Simulated::Drawn { phase, .. }) => {
                let drawn = stratum.draw(rng);
                return remove_tilted_path(&[(&phases[0], phase.steps)], Some(drawn), tilt, rng);
            }
            (Proposal::Loss { tilt, phases, .. }, Simulated::Steps { phases: steps, .. }) => {
                if let ([one], [p]) = (phases.as_slice(), steps.as_slice()) {
                    return remove_tilted_path(&[(one, p.steps)], None, tilt, rng);
                }
                let list: Vec<(&TiltedPhase, u64)> = phases
                    .iter()
                    .zip(steps)
                    .map(|(t, p)| (t, p.steps))
                    .collect();
                return remove_tilted_path(&list, None, tilt, rng);
            }
            (Proposal::Epoch { tilt, epoch, .. }, Simulated::Shuffled { epochs, .. }) => {
                return one_hot_tilted_path(epoch, *epochs, tilt, rng);
            }
            // (Not proposed for other pairs.)
            (Proposal::Jump { .. } | Proposal::Loss { .. } | Proposal::Epoch { .. }, _) => {
                &Tilt::NONE
            }
        };
        match self {
            Simulated::Steps { loss, phases } => loss.weighted_loss_phases(phases, tilt, rng),
            Simulated::Drawn { loss, phase } => {
                let drawn = stratum.draw(rng);
                loss.conditioned_loss(phase.q, phase.sigma, phase.steps, drawn, tilt, rng)
            }
            Simulated::Shuffled {
                batches,
                sigma,
                epochs,
                pair,
            } => shuffled_weighted_loss(*batches as usize, *sigma, *epochs, *pair, tilt, rng),
            Simulated::Allocated {
                steps,
                selected,
                sigma,
                epochs,
                pair,
            } => allocated_weighted_loss(
                *steps as usize,
                *selected as usize,
                *sigma,
                *epochs,
                *pair,
                tilt,
                rng,
            ),
        }
    }

    /// The proposals the pilot tries for `stratum` at the claimed `epsilon`. For the remove
    /// pair (whole law, schedule or stratum) also the exponential tilts of the loss
    /// ([`loss_tilts`]), and for a one-hot epoch whose record's slot is above the others under
    /// $P$ and level under $Q$ the tilts of the epoch's loss ([`epoch_tilts`]). For a one-phase
    /// pair, plain Monte Carlo, the tilts matched to the stratum ([`matched_tilts`]) and its
    /// single jumps ([`matched_jumps`]).
    /// For a schedule (or a pair simulated whole): plain Monte Carlo, and (for the remove pair
    /// only when it has no loss tilt) defensive mixtures (weight 1/2)
    /// whose tilted law sits at a relative entropy $k$ from the true one, for $k\in\lbrace2,6,18\rbrace$
    /// (a tail of probability $p$ is reached by a tilt at $k\approx\ln(1/p)$), spent on the
    /// inclusion rate ($\sum_iT_iq_i\thinspace(c\ln c-c+1)=k$ for the rates $cq_i$), on the shift $m$ of
    /// the record's contribution ($\sum_iT_iq_i\thinspace m^2/(2\sigma_i^2)=k$), on a drift of every output
    /// by $d\sigma_i$ ($Td^2/2=k$; for the add pair the only tilt), or on rate and drift half
    /// each. For shuffled epochs: when the record's batch is higher under $P$, it is shifted
    /// ($E\thinspace m^2/(2\sigma^2)=k$); when $P$ is the plain law (the pair $(0,2)$, whose
    /// loss is large when every output is low), every output drifts down by $d\sigma$
    /// ($EKd^2/2=k$ over $K$ batches). Random allocation of $k>1$ of $t$ steps: the same, the
    /// record's $k$ outputs shifted together ($Ek\thinspace m^2/(2\sigma^2)$ = the entropy) or
    /// all $t$ drifting down.
    fn proposals(&self, stratum: &Stratum, epsilon: f64) -> Vec<Proposal> {
        let mut out = vec![Tilt::NONE];
        let mut jumps = Vec::new();
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
            Simulated::Drawn { loss, phase } => {
                for t in matched_tilts(*loss, phase, stratum.typical, epsilon) {
                    push(t);
                }
                jumps = matched_jumps(*loss, phase, stratum.typical, epsilon);
                if *loss == LossPair::Remove {
                    let last = stratum.first + stratum.cumulative.len() as u64 - 1;
                    jumps.extend(loss_tilts(
                        std::slice::from_ref(phase),
                        Some((stratum.typical, [stratum.first, last])),
                        epsilon,
                    ));
                }
            }
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
                if *loss == LossPair::Remove {
                    // The loss tilts replace the mean-shift tilts of the whole law: on the grid
                    // of docs/audit.md no design of the whole law chose any other proposal
                    // (27 of 59 rows chose the loss tilt of the whole law, none a shift), and
                    // the pilot's floor of 100 paths a proposal made the twelve a third of
                    // its cost in small audits.
                    jumps = loss_tilts(phases, None, epsilon);
                    if !jumps.is_empty() {
                        return out.into_iter().map(Proposal::Tilt).chain(jumps).collect();
                    }
                }
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
                if pair.first > 0.0 && pair.second == 0.0 {
                    jumps = epoch_tilts(*batches as usize, *sigma, pair.first, *epochs, epsilon);
                }
                for k in [2.0, 6.0, 18.0] {
                    if pair.first > pair.second {
                        push(tilt(1.0, sigma * (2.0 * k / e).sqrt(), 0.0));
                    } else {
                        push(tilt(1.0, 0.0, -(2.0 * k / (e * *batches as f64)).sqrt()));
                    }
                }
            }
            Simulated::Allocated {
                steps,
                selected,
                sigma,
                epochs,
                pair,
            } => {
                // As for shuffled epochs, with the record's k outputs shifted together
                // (E k m^2 / (2 sigma^2) = kl) or every output drifting down (E t d^2 / 2 = kl).
                let e = *epochs as f64;
                for kl in [2.0, 6.0, 18.0] {
                    if pair.first > pair.second {
                        push(tilt(
                            1.0,
                            sigma * (2.0 * kl / (e * *selected as f64)).sqrt(),
                            0.0,
                        ));
                    } else {
                        push(tilt(1.0, 0.0, -(2.0 * kl / (e * *steps as f64)).sqrt()));
                    }
                }
            }
        }
        out.into_iter().map(Proposal::Tilt).chain(jumps).collect()
    }
}

/// A stratum of a simulated pair: the runs in which the record is drawn at $K\in\lbrace a,\dots,b\rbrace$
/// steps, with its probability under $P$ (exact up to floating point, which `weight` and
/// `slack` account for: [`binomial_strata`]). Pairs whose draws are not random (shuffled
/// epochs: once per epoch; random allocation: a fixed number per epoch) and schedules have one
/// stratum of weight 1.
#[derive(Debug, Clone)]
struct Stratum {
    /// At most $\Pr_P[a\le K\le b]$ (rounded down by the floating-point error bound).
    weight: f64,
    /// A bound on the total variation between the law [`Stratum::draw`] draws $K$ from and its
    /// exact conditional law in the stratum (0 for one count): the mean of values in
    /// $\[0,c\]$ over the drawn paths is within $c$ times it of the exact conditional mean, so
    /// the limit subtracts $\sum_j\pi_jc_j$ times it.
    slack: f64,
    /// $a$.
    first: u64,
    /// The conditional law of $K$ in the stratum: cumulative probabilities of $a,a+1,\dots,b$
    /// (the last is 1).
    cumulative: Vec<f64>,
    /// $\mathbb E[K\mid a\le K\le b]$ rounded: the count the tilt is designed for.
    typical: u64,
}

impl Stratum {
    /// The stratum of a pair without random draws (or of one simulated as a whole).
    fn whole() -> Self {
        Stratum {
            weight: 1.0,
            slack: 0.0,
            first: 0,
            cumulative: vec![1.0],
            typical: 0,
        }
    }

    /// $K$ drawn from its conditional law in the stratum (no draw when it holds one count).
    fn draw(&self, rng: &mut TrialRng) -> u64 {
        if self.cumulative.len() == 1 {
            return self.first;
        }
        let u: f64 = rng.random();
        let i = self.cumulative.partition_point(|c| *c <= u);
        self.first + i.min(self.cumulative.len() - 1) as u64
    }

    fn describe(&self) -> String {
        let last = self.first + self.cumulative.len() as u64 - 1;
        if last == self.first {
            format!("K = {}", self.first)
        } else {
            format!("K in {}..={last}", self.first)
        }
    }
}

/// The relative error of statrs' Binomial probabilities at $T$ steps is at most
/// $10^{-12}+10^{-13}T$: they are differences of $\ln$ factorials of size $T\ln T$, and lose
/// about $3.4\cdot10^{-15}T$ relative (measured against 60-digit values at $T$ from 100 to
/// $10^8$: test `binomial_probabilities_within_their_error_bound`), so the bound has a margin of
/// 30.
fn pmf_error(steps: u64) -> f64 {
    1e-12 + 1e-13 * steps as f64
}

/// The strata of $K\sim\mathrm{Binomial}(T,q)$, the number of the $T$ steps that draw the record:
/// cut where the upper tail $\Pr[K\ge k]$ falls to $\frac12,10^{-1},10^{-2},\dots$, down to
/// `floor` (the last stratum takes the rest of the tail). Counts more than $40$ standard
/// deviations (plus $40$) from the mean are in no stratum: their probability is below
/// $2e^{-55}$ (Bernstein's inequality), and a stratum left out only lowers the lower limit
/// (its contribution is $\ge0$).
///
/// The floating point is accounted for, never dropped: with $\eta$ = [`pmf_error`] and $n$
/// counts in a stratum, its weight is the computed sum times $1-\eta-n2^{-52}$ less
/// $2n$ times the smallest normal number (an underflowed probability), so at most the exact
/// one; and its `slack` is $2\eta+n^22^{-52}$ (the normalised probabilities' relative error,
/// the rounding of their running sums and the $2^{-53}$ grid of the uniform that inverts
/// them) plus $2n$ smallest normals over the weight.
fn binomial_strata(q: f64, steps: u64, floor: f64) -> Result<Vec<Stratum>, String> {
    let law = Binomial::new(q, steps).map_err(|e| format!("the law of the draws: {e}"))?;
    let (mean, sd) = (steps as f64 * q, (steps as f64 * q * (1.0 - q)).sqrt());
    let lo = (mean - 40.0 * sd - 40.0).max(0.0) as u64;
    let hi = ((mean + 40.0 * sd + 40.0).ceil() as u64).min(steps);
    let pmf: Vec<f64> = (lo..=hi).map(|k| law.pmf(k)).collect();
    // Upper tails Pr[lo + i <= K <= hi], summed from the small end.
    let mut tail = vec![0.0; pmf.len() + 1];
    for i in (0..pmf.len()).rev() {
        tail[i] = tail[i + 1] + pmf[i];
    }
    let mut cuts = vec![0usize];
    // (A floor of 0, from a claimed delta of a few subnormals, would never end the cuts.)
    let (mut level, floor) = (0.5, floor.max(f64::MIN_POSITIVE));
    while level >= floor {
        let cut = tail.partition_point(|t| *t > level);
        if cut < pmf.len() && cut > *cuts.last().unwrap_or(&0) {
            cuts.push(cut);
        }
        level = if level == 0.5 { 0.1 } else { level * 0.1 };
    }
    cuts.push(pmf.len());
    Ok(cuts
        .windows(2)
        .map(|w| {
            let part = &pmf[w[0]..w[1]];
            let weight: f64 = part.iter().sum();
            let (n, eta, tiny) = (part.len() as f64, pmf_error(steps), f64::MIN_POSITIVE);
            let rounding = 2f64.powi(-52);
            let mut acc = 0.0;
            let cumulative = part
                .iter()
                .map(|p| {
                    acc += p / weight;
                    acc
                })
                .collect::<Vec<_>>();
            let typical = part
                .iter()
                .enumerate()
                .map(|(i, p)| (lo + (w[0] + i) as u64) as f64 * p / weight)
                .sum::<f64>()
                .round() as u64;
            Stratum {
                weight: (weight * (1.0 - eta - n * rounding) - 2.0 * n * tiny).max(0.0),
                slack: if part.len() == 1 {
                    0.0
                } else {
                    2.0 * eta + n * n * rounding + 2.0 * n * tiny / weight
                },
                first: lo + w[0] as u64,
                cumulative,
                typical,
            }
        })
        .filter(|s| s.weight > 0.0)
        .collect())
}

/// $\mathbb E\thinspace\ell(\sigma Z+\mu)$ for $Z\sim\mathcal N(0,1)$: the trapezoid rule on
/// $\[-10,10\]$ with spacing $0.05$ (for the design of a proposal only: no limit depends on it).
fn gauss_mean(f: impl Fn(f64) -> f64, mu: f64, sigma: f64) -> f64 {
    let h = 0.05;
    (-200i32..=200)
        .map(|i| {
            let z = i as f64 * h;
            let w = if i.abs() == 200 { 0.5 } else { 1.0 };
            w * h * (-0.5 * z * z).exp() * f(sigma * z + mu)
        })
        .sum::<f64>()
        / (2.0 * std::f64::consts::PI).sqrt()
}

/// The tilts designed for the stratum of `drawn` draws of a one-phase pair (the record's $k$
/// outputs at mean 1, the other $T-k$ at 0; for the add pair all at 0), at the claimed
/// $\epsilon$: moving output class $c$ by $s_c$ costs relative entropy $n_cs_c^2/(2\sigma^2)$
/// and raises the mean loss by about $n_cs_c\thinspace a_c$, $a_c=\mathbb E\thinspace\ell'(X_c)$;
/// the most raise for a given cost is $s_c=\theta\sigma^2a_c$ (an exponential tilt of the
/// linearised loss). $\theta$ solves $M(\theta)=\epsilon$, $M$ the mean loss under the moved
/// laws (bisection; $M$ grows with $\theta$ since $\ell$ is monotone), so the tilted paths sit
/// at the threshold. In a defensive mixture with weight
/// $\frac12$ (weights at most 2). None when the untilted mean already reaches $\epsilon$
/// (plain sampling) or no $\theta$ does.
fn matched_tilts(loss: LossPair, phase: &Phase, drawn: u64, epsilon: f64) -> Vec<Tilt> {
    let Phase { q, sigma, steps } = *phase;
    let ell = |x: f64| loss.output_loss(x, q, sigma);
    let drawn = if loss == LossPair::Add {
        0
    } else {
        drawn.min(steps)
    };
    let classes = [(drawn as f64, 1.0), ((steps - drawn) as f64, 0.0)];
    let h = 1e-3 * sigma;
    let slopes: Vec<f64> = classes
        .iter()
        .map(|&(_, mu)| {
            (gauss_mean(ell, mu + h, sigma) - gauss_mean(ell, mu - h, sigma)) / (2.0 * h)
        })
        .collect();
    let mean_loss = |theta: f64| -> f64 {
        classes
            .iter()
            .zip(&slopes)
            .filter(|((n, _), _)| *n > 0.0)
            .map(|(&(n, mu), a)| n * gauss_mean(ell, mu + theta * sigma * sigma * a, sigma))
            .sum()
    };
    if !(mean_loss(0.0) < epsilon) {
        return Vec::new();
    }
    let mut hi = 1.0;
    while mean_loss(hi) < epsilon {
        hi *= 2.0;
        if hi > 1e12 {
            return Vec::new();
        }
    }
    let mut lo = 0.0;
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if mean_loss(mid) < epsilon {
            lo = mid
        } else {
            hi = mid
        }
    }
    [hi].iter()
        .map(|theta| {
            let s_in = theta * sigma * sigma * slopes[0];
            let s_out = theta * sigma * sigma * slopes[1];
            // The add pair's drift is downwards (`conditioned_loss`).
            let drift = if loss == LossPair::Add { -s_out } else { s_out } / sigma;
            Tilt {
                rate_factor: 1.0,
                shift: if loss == LossPair::Add {
                    0.0
                } else {
                    s_in - s_out
                },
                drift,
                mix: 0.5,
            }
        })
        .collect()
}

/// The single jumps for the stratum of `drawn` draws of a one-phase pair (remove,
/// replace-one) at the claimed $\epsilon$: the other steps' mean loss $M_0$, and the move $m$
/// of one output of the jumping class ($c$: drawn if any, else not drawn) with
/// $\ell(\mu_c+m)=\epsilon-M_0$ (bisection; $\ell$ grows), and $m+\sigma$. Each in a defensive
/// mixture with weight $\frac12$. None when one output at its mean already reaches $\epsilon$ or
/// none reaches it (the add pair's loss per step is at most $-\ln(1-q)$).
fn matched_jumps(loss: LossPair, phase: &Phase, drawn: u64, epsilon: f64) -> Vec<Proposal> {
    let Phase { q, sigma, steps } = *phase;
    if loss == LossPair::Add || steps == 0 {
        return Vec::new();
    }
    let ell = |x: f64| loss.output_loss(x, q, sigma);
    let drawn = drawn.min(steps);
    let (e_in, e_out) = (gauss_mean(ell, 1.0, sigma), gauss_mean(ell, 0.0, sigma));
    let mu = if drawn > 0 { 1.0 } else { 0.0 };
    let rest =
        drawn as f64 * e_in + (steps - drawn) as f64 * e_out - if drawn > 0 { e_in } else { e_out };
    let target = epsilon - rest;
    if !(ell(mu) < target) {
        return Vec::new();
    }
    let (mut lo, mut hi) = (0.0, 100.0 * sigma + 10.0);
    if !(ell(mu + hi) >= target) {
        return Vec::new();
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if ell(mu + mid) < target {
            lo = mid
        } else {
            hi = mid
        }
    }
    [hi, hi + sigma]
        .iter()
        .map(|size| Proposal::Jump {
            size: *size,
            mix: 0.5,
        })
        .collect()
}

/// A proposal of the importance sampling: a [`Tilt`] of every step, a single jump
/// ([`LossPair::conditioned_jump_loss`]: one output moved by `size`, with probability `mix`),
/// or the exponential tilt of the loss of the remove pair
/// ([`dpclaims_empirical::loss_tilt`]: its phases' classes at `tilt.theta`, and the largest
/// weighted value at the claimed ε).
#[derive(Debug, Clone)]
enum Proposal {
    Tilt(Tilt),
    Jump {
        size: f64,
        mix: f64,
    },
    Loss {
        tilt: LossTilt,
        phases: Arc<Vec<TiltedPhase>>,
        bound: f64,
    },
    Epoch {
        tilt: LossTilt,
        epoch: Arc<TiltedEpoch>,
        bound: f64,
    },
}

impl Proposal {
    /// The largest weighted value: $1/(1-\lambda)$ for a defensive mixture, the Chernoff
    /// bound for the loss tilt (at the claimed ε).
    fn bound(&self) -> f64 {
        match self {
            Proposal::Tilt(t) => t.bound(),
            Proposal::Jump { mix, .. } => 1.0 / (1.0 - mix),
            Proposal::Loss { bound, .. } | Proposal::Epoch { bound, .. } => *bound,
        }
    }
}

/// The integer θ that minimises a convex `log_bound` (None or non-finite: no such tilt), with
/// its bound: every θ from 1 to `most`, stopping at the bound's first rise, or once the bound
/// is below [`LN_SMALLEST_VALUE`] (no weighted value can then be told from 0). A bound still
/// falling at `most` is followed further at doubling θ up to [`FARTHEST_THETA`] (a θ* of
/// thousands: an unsampled Gaussian with a small ε), while it falls.
fn best_theta(most: u32, log_bound: impl Fn(u32) -> Option<f64>) -> Option<(u32, f64)> {
    let mut best: Option<(u32, f64)> = None;
    let finite = |theta: u32| log_bound(theta).filter(|b| b.is_finite());
    for theta in 1..=most {
        let Some(b) = finite(theta) else {
            return best;
        };
        match best {
            Some((_, v)) if b >= v => return best,
            _ => best = Some((theta, b)),
        }
        if b < LN_SMALLEST_VALUE {
            return best;
        }
    }
    let mut theta = most;
    while let Some(next) = theta.checked_mul(2).filter(|t| *t <= FARTHEST_THETA) {
        match (finite(next), best) {
            (Some(b), Some((_, v))) if b < v => best = Some((next, b)),
            _ => break,
        }
        if best.is_some_and(|(_, v)| v < LN_SMALLEST_VALUE) {
            break;
        }
        theta = next;
    }
    best
}

/// $\ln$ of the smallest positive normal double: a tilt whose values are all below it
/// contributes nothing a double can hold, so a larger θ gains nothing.
const LN_SMALLEST_VALUE: f64 = -708.3964185322641;

/// The largest θ the remove pair's loss tilts are searched at one by one (the search costs
/// $O(\theta^2)$: each mass is a sum of $\theta+2$ terms); past it at doubling θ.
const MOST_THETA: u32 = 1024;

/// The largest θ of the doubling search: any θ gives an unbiased estimate with values below
/// its bound, so the search only looks for a good one.
const FARTHEST_THETA: u32 = 16384;

/// How far (in nats) the bound of $\theta^\*+1$ may be above that of $\theta^\*$ for it to be
/// tried too: further, its values' range is too wide to be worth the pilot's paths.
const NEXT_THETA_NATS: f64 = 3.0;

/// The loss tilts ([`Proposal::Loss`]) of the remove pair at the claimed `epsilon`: $\theta^\*$,
/// the integer that minimises the Chernoff bound on the values
/// ([`dpclaims_empirical::loss_tilt::log_value_bound`]; the bound is convex in $\theta$, so
/// the search stops at its first rise), and $\theta^\*+1$ when its bound is within
/// [`NEXT_THETA_NATS`] of it, each alone (not in a defensive mixture: its values are below
/// the bound). For the whole law (`drawn` None) the bound is
/// over all paths; for a stratum `(typical, [a, b])` it is designed at the typical count and
/// holds over the stratum at its worse end ($\sum_cn_c\ln m_c$ is linear in the count).
fn loss_tilts(phases: &[Phase], drawn: Option<(u64, [u64; 2])>, epsilon: f64) -> Vec<Proposal> {
    let classes = |theta: u32| -> Vec<TiltedPhase> {
        phases
            .iter()
            .map(|p| TiltedPhase::new(p.q, p.sigma, theta))
            .collect()
    };
    let log_mass = |masses: &[PhaseMasses], k: Option<u64>| -> f64 {
        masses
            .iter()
            .zip(phases)
            .map(|(m, p)| m.log_mass(p.steps, k))
            .sum()
    };
    let typical = drawn.map(|(k, _)| k);
    let typical_bound = |masses: &[PhaseMasses], theta: u32| {
        log_value_bound(log_mass(masses, typical), theta, epsilon)
    };
    // The search needs the masses only (the samplers are built for the chosen θ).
    let masses = |theta: u32| -> Vec<PhaseMasses> {
        phases
            .iter()
            .map(|p| PhaseMasses::new(p.q, p.sigma, theta))
            .collect()
    };
    let Some((star, star_bound)) = best_theta(MOST_THETA, |theta| {
        Some(typical_bound(&masses(theta), theta))
    }) else {
        return Vec::new();
    };
    [star, star + 1]
        .into_iter()
        .filter_map(|theta| {
            if theta > star
                && !(typical_bound(&masses(theta), theta) <= star_bound + NEXT_THETA_NATS)
            {
                return None;
            }
            let tp = classes(theta);
            let masses: Vec<PhaseMasses> = tp.iter().map(TiltedPhase::masses).collect();
            // (Infinite when the stratum's far end overflows: the pilot's cap still bounds
            // the values.)
            let bound = match drawn {
                None => log_value_bound(log_mass(&masses, None), theta, epsilon),
                Some((_, ends)) => ends
                    .iter()
                    .map(|k| log_value_bound(log_mass(&masses, Some(*k)), theta, epsilon))
                    .fold(f64::NEG_INFINITY, f64::max),
            }
            .exp();
            // (A bound below the smallest normal double: values too small to hold.)
            (bound >= f64::MIN_POSITIVE).then(|| Proposal::Loss {
                tilt: LossTilt { theta, mix: 1.0 },
                phases: Arc::new(tp),
                bound,
            })
        })
        .collect()
}

/// The loss tilts of the one-hot epoch ([`Proposal::Epoch`]: shuffled batches and random
/// allocation, the record's slot at `shift` under $P$ and every slot at 0 under $Q$) at the
/// claimed `epsilon`: as [`loss_tilts`], $\theta^\*$ minimising the Chernoff bound
/// $E\ln m(\theta)-\theta\epsilon+\dots$ and $\theta^\*+1$ (if within [`NEXT_THETA_NATS`]), for $\theta+1$ up to
/// [`TiltedEpoch::MOST_PARTITIONS_N`] (the law is a mixture over the partitions of $\theta+1$).
fn epoch_tilts(slots: usize, sigma: f64, shift: f64, epochs: u64, epsilon: f64) -> Vec<Proposal> {
    let bound =
        |e: &TiltedEpoch, theta: u32| log_value_bound(epochs as f64 * e.log_mass(), theta, epsilon);
    let Some((star, star_bound)) = best_theta(TiltedEpoch::MOST_PARTITIONS_N, |theta| {
        TiltedEpoch::new(slots, sigma, shift, theta).map(|e| bound(&e, theta))
    }) else {
        return Vec::new();
    };
    [star, star + 1]
        .into_iter()
        .filter_map(|theta| {
            let e = TiltedEpoch::new(slots, sigma, shift, theta)?;
            let b = bound(&e, theta);
            if theta > star && !(b <= star_bound + NEXT_THETA_NATS) {
                return None;
            }
            let b = b.exp();
            (b >= f64::MIN_POSITIVE).then(|| Proposal::Epoch {
                tilt: LossTilt { theta, mix: 1.0 },
                epoch: Arc::new(e),
                bound: b,
            })
        })
        .collect()
}

fn describe(p: &Proposal) -> String {
    let t = match p {
        Proposal::Tilt(t) => t,
        Proposal::Jump { size, mix } => {
            return format!("defensive mixture {mix}: one output moved by {size:.4}");
        }
        Proposal::Loss { tilt, bound, .. } | Proposal::Epoch { tilt, bound, .. } => {
            return format!(
                "the loss tilted by exp({} L) (values at most {bound:.3e})",
                tilt.theta
            );
        }
    };
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
    if let (Sampling::RandomAllocation, Some(t)) = (row.sampling, row.batches_per_epoch) {
        // The realised pair of random allocation (module doc of
        // `crate::privacy::random_allocation`): the record's gradient +C in the one step of t
        // that draws it, the others 0; removal (1, 0) and addition (0, 1) are the shuffled
        // epoch's loss with the record's step at `first` under P and `second` under Q. Under
        // replace-one also the antipodal pair (+C against -C in the same step): realised, a
        // candidate for the worst (not proved, and a Monte Carlo found pairs at 150-165 degrees
        // no weaker near delta = 1e-5: THEOREMS_NOTES.md; the Monte Carlo only probes from below).
        let pairs: &[(f64, f64, &str)] = match row.relation {
            Neighbouring::AddRemove => &[(1.0, 0.0, "remove"), (0.0, 1.0, "add")],
            Neighbouring::ReplaceOne => &[
                (1.0, 0.0, "remove"),
                (0.0, 1.0, "add"),
                (1.0, -1.0, "replace by its opposite"),
            ],
        };
        let k = row.selected.unwrap_or(1);
        return Ok(pairs
            .iter()
            .map(|&(first, second, name)| {
                let (sigma, epochs) = (row.sigma, row.steps / t);
                let pair = ShuffledPair { first, second };
                if k > 1 {
                    let realised = if second < 0.0 { "+C vs -C" } else { "+C" };
                    return (
                        Simulated::Allocated {
                            steps: t,
                            selected: k,
                            sigma,
                            epochs,
                            pair,
                        },
                        format!(
                            "random allocation, {name}: the record {realised} in {k} of {t} steps (others 0), at a random {k}-subset"
                        ),
                    );
                }
                (
                    Simulated::Shuffled {
                        batches: t,
                        sigma,
                        // Full epochs only (a post-processing: a lower bound).
                        epochs,
                        pair,
                    },
                    if second < 0.0 {
                        format!(
                            "random allocation, {name}: the record +C vs -C in one of {t} steps (others 0), at a random step"
                        )
                    } else {
                        format!(
                            "random allocation, {name}: the record +C in one of {t} steps (others 0), at a random step"
                        )
                    },
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
            let sim = match phases.as_slice() {
                [phase] => Simulated::Drawn {
                    loss,
                    phase: *phase,
                },
                _ => Simulated::Steps { loss, phases },
            };
            (sim, name)
        })
        .collect())
}

/// The pilot's record of one stratum: the proposal it chose, the mean and standard deviation
/// of the values under it, and the truncation level.
#[derive(Debug, Clone)]
struct Planned {
    tilt: Proposal,
    mean: f64,
    sd: f64,
    cap: f64,
}

/// One way to estimate a simulated pair's δ: its strata and the proposals tried in each.
struct Design {
    /// Index of the simulated pair.
    pair: usize,
    /// How its paths are simulated.
    sim: Simulated,
    strata: Vec<Stratum>,
    proposals: Vec<Vec<Proposal>>,
}

/// The main run's split of `total` paths over the strata the pilot saw positive values in,
/// and the limit it predicts: strata are taken in order of their pilot contribution
/// $\pi_j\hat m_j$, each prefix split in proportion to $\pi_j\hat s_j$ (Neyman's allocation, at
/// least 32 paths each, the sizes summing to `total` exactly, so that the reported paths passed
/// back as `trials` reproduce the run) and scored by [`stats::stratified_lower`] of values with
/// the pilot's means and deviations at those sizes, less the strata's slack; the best prefix
/// is kept (a stratum whose share is too small to pin down its variance costs the limit more
/// than its mean adds; one left out only lowers the limit).
fn allocate(
    strata: &[Stratum],
    plan: &[Option<Planned>],
    total: u64,
    confidence: f64,
) -> (f64, Vec<(usize, u64)>) {
    let mut order: Vec<usize> = (0..strata.len())
        .filter(|j| {
            plan[*j]
                .as_ref()
                .is_some_and(|p| p.mean > 0.0 && p.cap > 0.0)
        })
        .collect();
    let contribution = |j: usize| strata[j].weight * plan[j].as_ref().map_or(0.0, |p| p.mean);
    order.sort_by(|a, b| contribution(*b).total_cmp(&contribution(*a)));
    let mut best: (f64, Vec<(usize, u64)>) = (f64::NEG_INFINITY, Vec::new());
    const LEAST: u64 = 32;
    for len in 1..=order.len() {
        let Some(spare) = total.checked_sub(LEAST * len as u64) else {
            break;
        };
        let chosen = &order[..len];
        let norm: f64 = chosen
            .iter()
            .map(|j| strata[*j].weight * plan[*j].as_ref().map_or(0.0, |p| p.sd))
            .sum();
        // The spare paths by cumulative shares, rounded: the sizes sum to `total`.
        let (mut share_sum, mut given) = (0.0, 0u64);
        let split: Vec<(usize, u64)> = chosen
            .iter()
            .enumerate()
            .map(|(i, j)| {
                share_sum += if norm > 0.0 {
                    strata[*j].weight * plan[*j].as_ref().map_or(0.0, |p| p.sd) / norm
                } else {
                    1.0 / len as f64
                };
                let upto = if i + 1 == len {
                    spare
                } else {
                    ((spare as f64 * share_sum).round() as u64).clamp(given, spare)
                };
                let n = upto - given;
                given = upto;
                (*j, LEAST + n)
            })
            .collect();
        let accs: Vec<MeanAcc> = split
            .iter()
            .map(|(j, n)| {
                let p = plan[*j].as_ref().expect("chosen strata have a plan");
                MeanAcc {
                    n: *n,
                    mean: p.mean.min(p.cap),
                    m2: p.sd * p.sd * (*n - 1) as f64,
                    min: 0.0,
                    max: p.cap,
                    non_finite: 0,
                }
            })
            .collect();
        let parts: Vec<stats::Stratum> = split
            .iter()
            .zip(&accs)
            .map(|((j, _), acc)| stats::Stratum {
                weight: strata[*j].weight,
                acc,
                bound: plan[*j].as_ref().map_or(1.0, |p| p.cap),
            })
            .collect();
        let slack: f64 = parts
            .iter()
            .zip(&split)
            .map(|(p, (j, _))| p.weight * p.bound * strata[*j].slack)
            .sum();
        let predicted = stats::stratified_lower(&parts, confidence).unwrap_or(0.0) - slack;
        if predicted > best.0 {
            best = (predicted, split);
        }
    }
    best
}

/// The Monte Carlo lower limit on δ(claimed ε).
///
/// 1. **Designs**: for every simulated pair, one stratum (the whole law), and for a one-phase
///    pair whose $P$ draws the record also its strata by the number of draws $K$
///    ([`binomial_strata`]; the pair's structure: given $K$ the steps are exchangeable).
/// 2. **Pilot** (its own streams, discarded; a tenth of the budget, but at least 100 paths
///    for each design, stratum and proposal, which is more for long runs: a third of the main
///    run at $T=10^4$): for every design, stratum and proposal, a few paths; per stratum the proposal with the smallest relative
///    variance at the claimed ε is kept, with a truncation level (twice its largest pilot
///    value).
/// 3. **One design**: the one whose predicted limit ([`allocate`]) is largest. Every simulated
///    pair is realised by datasets, so each one's δ is at most the row's and any of them gives
///    a lower limit; choosing by the pilot, independent of the main run, keeps the level whole.
/// 4. **Main run** of a size fixed beforehand, split over the strata as [`allocate`] says,
///    then [`stats::stratified_lower`] of the strata's truncated values at the row's level.
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
    let claimed = epsilons[0];
    // Strata whose probability is below a thousandth of the claimed delta are merged into the
    // last one: they could not move the limit past the claim.
    let floor = 1e-3 * row.delta;
    let mut designs = Vec::new();
    for (pair, (sim, _)) in candidates.iter().enumerate() {
        let mut ways = vec![(sim.clone(), vec![Stratum::whole()])];
        if let Simulated::Drawn { loss, phase } = sim {
            // The whole law step by step (the record's draws random, the rate among the
            // tilts), and the strata of its draws.
            ways = vec![(
                Simulated::Steps {
                    loss: *loss,
                    phases: vec![*phase],
                },
                vec![Stratum::whole()],
            )];
            if opts.importance {
                ways.push((sim.clone(), sim.strata(floor)?));
            }
        }
        for (sim, strata) in ways {
            let proposals = strata
                .iter()
                .map(|st| {
                    if opts.importance {
                        sim.proposals(st, claimed)
                    } else {
                        vec![Proposal::Tilt(Tilt::NONE)]
                    }
                })
                .collect();
            designs.push(Design {
                pair,
                sim,
                strata,
                proposals,
            });
        }
    }
    // For each epsilon, the mean of the weighted values and of min(value, cap): the truncated
    // values have a smaller mean, so a lower limit for it is one for delta, and their range is
    // [0, cap] instead of [0, bound]. One path serves every epsilon.
    let run = |sim: &Simulated,
               stratum: &Stratum,
               key: &StreamKey,
               trials: u64,
               tilt: &Proposal,
               eps: &[f64],
               cap: f64| {
        run_trials(
            trials,
            || ((), vec![(MeanAcc::new(), MeanAcc::new()); eps.len()]),
            |_, accs: &mut Vec<(MeanAcc, MeanAcc)>, i| {
                // Cancelled (crate::cancel): the remaining trials do nothing, and the check
                // after the run discards its result.
                if crate::cancel::requested() {
                    return;
                }
                let (w, loss) = sim.path(stratum, tilt, &mut key.trial(i));
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
    // The pilot: a tenth of the budget split equally over the designs, and within a design
    // over its (stratum, proposal) pairs, at least 100 paths each.
    let pilot_trials = |design: &Design| {
        let per = design.sim.steps_per_trial().max(1);
        let configs: u64 = design.proposals.iter().map(|p| p.len() as u64).sum();
        (max_steps / 10 / designs.len() as u64 / per / configs.max(1)).max(100)
    };
    let started = std::time::Instant::now();
    let mut plans: Vec<Vec<Option<Planned>>> = Vec::new();
    for (d, design) in designs.iter().enumerate() {
        let sim = &design.sim;
        let mut plan = Vec::new();
        for (j, (stratum, props)) in design.strata.iter().zip(&design.proposals).enumerate() {
            let mut best: Option<(f64, Planned)> = None;
            for (p, tilt) in props.iter().enumerate() {
                crate::cancel::check().map_err(|e| e.to_string())?;
                let key = StreamKey::new(
                    opts.seed,
                    &[
                        "audit-pilot",
                        &row.name,
                        &row.line.to_string(),
                        &d.to_string(),
                        &j.to_string(),
                        &p.to_string(),
                    ],
                );
                let acc = run(
                    sim,
                    stratum,
                    &key,
                    pilot_trials(design),
                    tilt,
                    &epsilons[..1],
                    f64::INFINITY,
                )
                .remove(0)
                .0;
                crate::cancel::check().map_err(|e| e.to_string())?;
                if acc.mean > 0.0 {
                    let score = acc.variance() / (acc.mean * acc.mean);
                    if best.as_ref().is_none_or(|(s, _)| score < *s) {
                        best = Some((
                            score,
                            Planned {
                                tilt: tilt.clone(),
                                mean: acc.mean,
                                sd: acc.variance().sqrt(),
                                cap: (2.0 * acc.max).min(tilt.bound()),
                            },
                        ));
                    }
                }
            }
            plan.push(best.map(|(_, p)| p));
        }
        plans.push(plan);
    }
    let pilot_seconds = started.elapsed().as_secs_f64();
    let pilot_steps: u64 = designs
        .iter()
        .map(|d| {
            let per = d.sim.steps_per_trial().max(1);
            d.proposals.iter().map(|p| p.len() as u64).sum::<u64>() * pilot_trials(d) * per
        })
        .sum();
    // The main run's size is fixed before it starts (from the budget, or from the pilot's
    // throughput), so no stopping rule touches the interval.
    let main_paths = |per_trial: u64| {
        match (opts.trials, opts.budget_seconds) {
            (Some(n), _) => n,
            (None, Some(b)) => {
                (b * (pilot_steps / per_trial) as f64 / pilot_seconds.max(1e-9)).min(1e12) as u64
            }
            (None, None) => max_steps / per_trial,
        }
        .max(200)
    };
    // The design with the largest predicted limit (the first one if none predicts one).
    let mut chosen = (0, f64::NEG_INFINITY, Vec::new());
    for (d, design) in designs.iter().enumerate() {
        let total = main_paths(design.sim.steps_per_trial().max(1));
        let (predicted, split) = allocate(&design.strata, &plans[d], total, confidence);
        if predicted > chosen.1 {
            chosen = (d, predicted, split);
        }
    }
    let (d, _, mut split) = chosen;
    let design = &designs[d];
    let (sim, name) = (&design.sim, &candidates[design.pair].1);
    let plan = &plans[d];
    if split.is_empty() {
        // No positive pilot value anywhere: plain paths of the whole law.
        split = vec![(0, main_paths(sim.steps_per_trial().max(1)))];
    }
    let mut results = Vec::new();
    let mut trials = 0;
    for (j, n) in split {
        let stratum = &design.strata[j];
        let (tilt, cap) = plan[j]
            .as_ref()
            .map_or((Proposal::Tilt(Tilt::NONE), 1.0), |p| {
                (p.tilt.clone(), p.cap)
            });
        let key = StreamKey::new(
            opts.seed,
            &[
                "audit",
                &row.name,
                &row.line.to_string(),
                &d.to_string(),
                &j.to_string(),
            ],
        );
        let accs = run(sim, stratum, &key, n, &tilt, epsilons, cap);
        // A run cut short by a cancellation is no estimate.
        crate::cancel::check().map_err(|e| e.to_string())?;
        trials += n;
        results.push((stratum, tilt, cap, accs));
    }
    // The drawn laws of K differ from the exact conditional ones by at most their slack (total
    // variation), which moves a mean of values in [0, cap] by at most cap times it.
    let slack: f64 = results
        .iter()
        .map(|(st, _, cap, _)| st.weight * cap * st.slack)
        .sum();
    let mut points = Vec::new();
    for (e_index, e) in epsilons.iter().enumerate() {
        let parts: Vec<stats::Stratum> = results
            .iter()
            .map(|(st, _, cap, accs)| stats::Stratum {
                weight: st.weight,
                acc: &accs[e_index].1,
                bound: *cap,
            })
            .collect();
        let lower = (stats::stratified_lower(&parts, confidence).map_err(|e| e.to_string())?
            - slack)
            .max(0.0);
        let mean: f64 = results
            .iter()
            .map(|(st, _, _, accs)| st.weight * accs[e_index].0.mean)
            .sum();
        points.push(McPoint {
            epsilon: *e,
            mean,
            lower,
        });
    }
    let proposal = match results.as_slice() {
        [(st, tilt, _, _)] if design.strata.len() == 1 => {
            let _ = st;
            describe(tilt)
        }
        _ => format!(
            "stratified on the record's draws K ({} of {} strata sampled: {})",
            results.len(),
            design.strata.len(),
            results
                .iter()
                .map(|(st, tilt, _, accs)| format!(
                    "{} [probability {:.3e}, {} paths]: {}",
                    st.describe(),
                    st.weight,
                    accs[0].0.n,
                    describe(tilt)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    let mc = MonteCarlo {
        delta_mean: points[0].mean,
        delta_lower: points[0].lower,
        trials,
        confidence,
        seed: opts.seed,
        pair: name.clone(),
        proposal,
        // (One stratum sampled: the limit is its KL-Chernoff / empirical-Bernstein one.)
        method: if results.len() > 1 {
            "stratified: bernstein over the strata and kl-chernoff per stratum (level split)"
        } else {
            "kl-chernoff and empirical bernstein (level split)"
        },
        bound: results.iter().map(|r| r.2).fold(0.0, f64::max),
    };
    Ok((mc, points))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search over θ stops at the bound's first rise, and once the bound is below what a
    /// double holds: a claimed ε of 1e300 (an audit row at the edges) takes one evaluation,
    /// not [`MOST_THETA`] (each costs O(θ), so the search was O(θ²): 26 s for that row); a
    /// bound still falling at [`MOST_THETA`] is followed at doubling θ.
    #[test]
    fn theta_search_stops_at_underflow_and_follows_a_falling_bound() {
        let calls = std::cell::Cell::new(0u32);
        let counted = |f: fn(u32) -> f64| {
            calls.set(0);
            let best = best_theta(MOST_THETA, |t| {
                calls.set(calls.get() + 1);
                Some(f(t))
            });
            (best, calls.get())
        };
        assert_eq!(counted(|t| -1e300 * t as f64), (Some((1, -1e300)), 1));
        assert_eq!(counted(|t| -800.0 + t as f64).1, 1);
        let (best, n) = counted(|t| -400.0 - t as f64);
        assert_eq!((best.map(|b| b.0), n), (Some(309), 309));
        // Convex: the first rise, below the cap and beyond it.
        assert_eq!(
            counted(|t| (t as f64 - 5.5).powi(2)).0.map(|b| b.0),
            Some(5)
        );
        let (best, n) = counted(|t| (t as f64 - 3000.0).powi(2) * 1e-6);
        assert_eq!((best.map(|b| b.0), n), (Some(2048), 1024 + 2));
        let (best, n) = counted(|t| -(t as f64).sqrt());
        assert_eq!((best.map(|b| b.0), n), (Some(FARTHEST_THETA), 1024 + 4));
        // The unsampled Gaussian (q = 1) at a small ε: θ* is in the thousands.
        let phases = [Phase {
            q: 1.0,
            sigma: 700.0,
            steps: 1,
        }];
        let tilts = loss_tilts(&phases, None, 0.01);
        let Some(Proposal::Loss { tilt, bound, .. }) = tilts.first() else {
            panic!("no loss tilt: {tilts:?}")
        };
        assert!(tilt.theta >= 2048, "{}", tilt.theta);
        assert!(bound.ln() < -15.0, "{bound}");
        // An edge row (sigma 1e8): every bound underflows before the cap, no tilt is offered.
        let edge = [Phase {
            q: 0.01,
            sigma: 1e8,
            steps: 100,
        }];
        assert!(loss_tilts(&edge, None, 1.0).is_empty());
        // A row of the coverage test: the tilts are the linear scan's minimum (and its next).
        let row = [Phase {
            q: 0.02,
            sigma: 0.8,
            steps: 50,
        }];
        let scan = (1..200u32)
            .map(|t| {
                let m = PhaseMasses::new(0.02, 0.8, t).log_mass(50, None);
                (t, log_value_bound(m, t, 4.0))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        let thetas: Vec<u32> = loss_tilts(&row, None, 4.0)
            .iter()
            .map(|p| match p {
                Proposal::Loss { tilt, .. } => tilt.theta,
                _ => 0,
            })
            .collect();
        assert_eq!(thetas.first(), Some(&scan.0), "{thetas:?} {scan:?}");
    }

    /// The loss tilt's mass of the whole step law is the Rényi moment $A_{\theta+1}$ that the
    /// RDP accountant computes ([`crate::privacy::rdp::log_a_integer`], its own code), over a
    /// grid of rates, noises and orders; and the tilts the pilot is offered sit at the
    /// minimum of the Chernoff bound.
    #[test]
    fn loss_tilt_mass_is_the_rdp_moment() {
        for q in [1e-3, 0.05, 0.5, 0.999] {
            for sigma in [0.5, 1.0, 3.0] {
                for theta in [1u32, 3, 10] {
                    let ours = TiltedPhase::new(q, sigma, theta).whole.log_mass();
                    let rdp = crate::privacy::rdp::log_a_integer(q, sigma, theta as u64 + 1);
                    assert!(
                        (ours - rdp).abs() <= 1e-12 * (1.0 + rdp.abs()),
                        "q {q} sigma {sigma} theta {theta}: {ours} vs {rdp}"
                    );
                }
            }
        }
        let phase = Phase {
            q: 0.003,
            sigma: 0.8,
            steps: 1000,
        };
        let eps = 0.8717;
        let offered = loss_tilts(&[phase], None, eps);
        let theta_of = |p: &Proposal| match p {
            Proposal::Loss { tilt, .. } => tilt.theta,
            _ => 0,
        };
        let star = theta_of(&offered[0]);
        let bound = |theta: u32| {
            log_value_bound(
                TiltedPhase::new(phase.q, phase.sigma, theta).log_mass(phase.steps, None),
                theta,
                eps,
            )
        };
        for theta in 1..40 {
            assert!(bound(theta) >= bound(star), "theta {theta} beats {star}");
        }
    }

    /// statrs' Binomial probabilities against 60-digit ones (mpmath, `q` the f64's exact
    /// value): within a tenth of [`pmf_error`] (the error grows with T: about 3.4e-15 T).
    #[test]
    fn binomial_probabilities_within_their_error_bound() {
        let exact: [(f64, u64, u64, f64); 9] = [
            (1e-3, 100, 1, 0.090569784495866772673),
            (1e-3, 10000, 10, 0.12517263665023892963),
            (1e-3, 10000, 40, 5.3296415694216636609e-13),
            (0.05, 10000, 500, 0.018301668645765844125),
            (0.05, 10000, 620, 1.207544107268600334e-8),
            (2.5e-4, 1_000_000, 250, 0.025226069639812816364),
            (2.5e-4, 1_000_000, 330, 1.9696371333997924683e-7),
            (1e-3, 100_000_000, 100_000, 0.0012621964657906383675),
            (1e-3, 100_000_000, 101_000, 8.5610030778475514855e-6),
        ];
        for (q, t, k, p) in exact {
            let got = Binomial::new(q, t).unwrap().pmf(k);
            assert!(
                (got / p - 1.0).abs() < pmf_error(t) / 10.0,
                "{q} {t} {k}: {got} vs {p}"
            );
        }
    }

    /// The strata of K cover lo..=hi contiguously; each weight is at most the stratum's
    /// probability and within the error bound of it (exact values where a stratum is one
    /// count); K is drawn from its conditional law (frequencies within 5 standard deviations
    /// of it); a floor of 0 ends.
    #[test]
    fn binomial_strata_partition_the_counts_with_their_weights() {
        // q = 1e-3, T = 100: K = 0 and K = 1 are strata of their own.
        let strata = binomial_strata(1e-3, 100, 1e-8).unwrap();
        let (p0, p1) = (0.90479214711370904015, 0.090569784495866772673);
        assert_eq!((strata[0].first, strata[0].cumulative.len()), (0, 1));
        assert_eq!((strata[1].first, strata[1].cumulative.len()), (1, 1));
        for (s, p) in [(&strata[0], p0), (&strata[1], p1)] {
            assert!(s.weight <= p && s.weight > p * (1.0 - 1e-9), "{s:?} vs {p}");
            assert_eq!(s.slack, 0.0);
        }
        for (q, t) in [(1e-3, 100u64), (0.05, 10_000), (0.3, 50), (1.0, 20)] {
            let law = Binomial::new(q, t).unwrap();
            let strata = binomial_strata(q, t, 1e-8).unwrap();
            let mut total = 0.0;
            for (i, s) in strata.iter().enumerate() {
                let last = s.first + s.cumulative.len() as u64 - 1;
                if let Some(next) = strata.get(i + 1) {
                    assert_eq!(next.first, last + 1, "{q} {t}: {strata:?}");
                }
                let p: f64 = (s.first..=last).map(|k| law.pmf(k)).sum();
                assert!(
                    s.weight <= p && s.weight >= p * (1.0 - 2.0 * pmf_error(t)),
                    "{s:?} vs {p}"
                );
                assert!(s.slack >= 0.0 && s.slack < 1e-6, "{s:?}");
                total += s.weight;
                if s.cumulative.len() > 1 && p > 1e-3 {
                    let key = StreamKey::new(1, &["strata", &i.to_string()]);
                    let n = 100_000u64;
                    let mut counts = vec![0u64; s.cumulative.len()];
                    for j in 0..n {
                        counts[(s.draw(&mut key.trial(j)) - s.first) as usize] += 1;
                    }
                    for (c, k) in counts.iter().zip(s.first..) {
                        let want = law.pmf(k) / p;
                        let sd = (want * (1.0 - want) / n as f64).sqrt();
                        let got = *c as f64 / n as f64;
                        assert!(
                            (got - want).abs() <= 5.0 * sd + 1e-9,
                            "{q} {t} K={k}: {got} vs {want}"
                        );
                    }
                }
            }
            assert!(
                total <= 1.0 && total > 1.0 - 2.0 * pmf_error(t),
                "{q} {t}: {total}"
            );
        }
        assert!(!binomial_strata(0.01, 1000, 0.0).unwrap().is_empty());
    }

    /// The main run's sizes sum to the total asked for (so `trials` reproduces the run), at
    /// least 32 each.
    #[test]
    fn allocation_spends_the_total_exactly() {
        let strata = binomial_strata(0.05, 1000, 1e-8).unwrap();
        let plan: Vec<Option<Planned>> = strata
            .iter()
            .enumerate()
            .map(|(j, _)| {
                Some(Planned {
                    tilt: Proposal::Tilt(Tilt::NONE),
                    mean: 1e-3 * (j + 1) as f64,
                    sd: 1e-2 / (j + 1) as f64,
                    cap: 1.0,
                })
            })
            .collect();
        for total in [200u64, 1001, 2_000_000, 123_457] {
            let (predicted, split) = allocate(&strata, &plan, total, 0.999);
            assert!(predicted.is_finite() && !split.is_empty());
            assert_eq!(
                split.iter().map(|(_, n)| n).sum::<u64>(),
                total,
                "{split:?}"
            );
            assert!(split.iter().all(|(_, n)| *n >= 32), "{split:?}");
        }
    }
}
