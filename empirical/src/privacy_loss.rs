//! Monte Carlo of the privacy loss of DP-SGD's subsampled Gaussian mechanism.
//!
//! One step releases $x=\xi+B\thinspace v$ with $\xi\sim\mathcal N(0,\sigma^2)$, $B\sim$ Bernoulli$(q)$
//! (is the differing record in the batch) and $v$ its clipped contribution (units of the
//! clipping norm). For a pair of neighbouring datasets with output laws $P$, $Q$ the privacy
//! loss is $L=\ln\frac{p(x)}{q(x)}$, $x\sim P$, and $T$ steps add independent losses. Then
//! $\delta(\epsilon)=\mathbb E[(1-e^{\epsilon-\sum_tL_t})_+]$ — a mean of values in $\[0,1\]$,
//! estimated here from simulated outputs of the mechanism (an independent route to the
//! accountants' $\delta$).

use crate::rng::TrialRng;
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

/// Which neighbouring pair is simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossPair {
    /// $P=(1-q)\mathcal N(0,\sigma^2)+q\mathcal N(1,\sigma^2)$ against $Q=\mathcal N(0,\sigma^2)$.
    Remove,
    /// $P=\mathcal N(0,\sigma^2)$ against $Q=(1-q)\mathcal N(0,\sigma^2)+q\mathcal N(1,\sigma^2)$.
    Add,
    /// $P=(1-q)\mathcal N(0,\sigma^2)+q\mathcal N(1,\sigma^2)$ against
    /// $Q=(1-q)\mathcal N(0,\sigma^2)+q\mathcal N(-1,\sigma^2)$ (the record's clipped gradient
    /// is $+C$ in one dataset and $-C$ in the other).
    ReplaceOne,
}

/// $\ln\big((1-q)\varphi_\sigma(x)+q\varphi_\sigma(x-m)\big)-\ln\varphi_\sigma(x)
/// =\ln\big(1-q+qe^{(2mx-m^2)/(2\sigma^2)}\big)$, without overflow.
fn log_mixture_ratio(x: f64, m: f64, q: f64, sigma: f64) -> f64 {
    let a = (1.0 - q).ln();
    let b = q.ln() + (2.0 * m * x - m * m) / (2.0 * sigma * sigma);
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

impl LossPair {
    /// One step: draws $x\sim P$ and returns $\ln p(x)/q(x)$.
    pub fn sample(&self, q: f64, sigma: f64, rng: &mut TrialRng) -> f64 {
        let noise: f64 = StandardNormal.sample(rng);
        match self {
            LossPair::Remove => {
                let x = sigma * noise + if rng.random_bool(q) { 1.0 } else { 0.0 };
                log_mixture_ratio(x, 1.0, q, sigma)
            }
            LossPair::Add => -log_mixture_ratio(sigma * noise, 1.0, q, sigma),
            LossPair::ReplaceOne => {
                let x = sigma * noise + if rng.random_bool(q) { 1.0 } else { 0.0 };
                log_mixture_ratio(x, 1.0, q, sigma) - log_mixture_ratio(x, -1.0, q, sigma)
            }
        }
    }

    /// One trial of $T$ steps: $(1-e^{\epsilon-\sum_tL_t})_+\in\[0,1\]$.
    pub fn hockey_stick_trial(
        &self,
        q: f64,
        sigma: f64,
        steps: u64,
        epsilon: f64,
        rng: &mut TrialRng,
    ) -> f64 {
        let total: f64 = (0..steps).map(|_| self.sample(q, sigma, rng)).sum();
        (-(epsilon - total).exp_m1()).max(0.0)
    }
}

/// An importance-sampling proposal (Monte Carlo of a tail that plain sampling rarely reaches).
///
/// With probability `mix` a trial draws its whole path from the *tilted* law — the differing
/// record included at rate `rate_factor`·q instead of $q$, its contribution shifted by `shift`,
/// and every output shifted by `drift`·σ (for [`LossPair::Add`], whose $P$ has no record, only
/// the drift, downwards: every output shifted by $-$`drift`·σ; for shuffled epochs every output
/// by `drift`·σ, either sign, and the record's batch by `shift` more) — and otherwise from the true law $P$: a *defensive
/// mixture* $\bar P=(1-\lambda)P+\lambda P'$. The path (latent inclusions and outputs) has
/// density ratio $w=\frac{dP}{d\bar P}=1/(1-\lambda+\lambda\thinspace dP'/dP)\le1/(1-\lambda)$, so
/// $$\delta(\epsilon)=\mathbb E_P[(1-e^{\epsilon-L})\_+]=\mathbb E_{\bar P}[w\thinspace(1-e^{\epsilon-L})_+],$$
/// where $L$ is the privacy loss of the *outputs* under the true pair (the latent inclusions only
/// enter $w$). The weighted values lie in $[0,1/(1-\lambda)]$: bounded, so a bounded-variable
/// interval stays valid. `mix = 0` is plain Monte Carlo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tilt {
    /// The tilted inclusion rate is `rate_factor` × q (at most 1).
    pub rate_factor: f64,
    /// Added to the record's contribution when it is included (units of the mean shift).
    pub shift: f64,
    /// Every output shifted by `drift` × σ (the add pair: by −`drift` × σ). For small $q$ the
    /// privacy loss is nearly linear in the sum of all outputs,
    /// $L\approx\frac q{\sigma^2}\sum_tx_t+c$, so this is the direction of its tail.
    pub drift: f64,
    /// The weight λ of the tilted law in the mixture (0: plain Monte Carlo).
    pub mix: f64,
}

impl Tilt {
    /// Plain Monte Carlo (no tilt).
    pub const NONE: Tilt = Tilt {
        rate_factor: 1.0,
        shift: 0.0,
        drift: 0.0,
        mix: 0.0,
    };

    /// The largest weighted value, $1/(1-\lambda)$.
    pub fn bound(&self) -> f64 {
        1.0 / (1.0 - self.mix)
    }

    fn weight(&self, log_ratio: f64) -> f64 {
        if self.mix == 0.0 {
            1.0
        } else {
            1.0 / (1.0 - self.mix + self.mix * log_ratio.exp())
        }
    }
}

/// A phase of a schedule: `steps` steps at rate `q` and noise multiplier `sigma`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Phase {
    /// Sampling rate $q\in(0,1]$.
    pub q: f64,
    /// Noise multiplier $\sigma>0$ (noise std / clipping norm).
    pub sigma: f64,
    /// Number of steps in the phase.
    pub steps: u64,
}

impl LossPair {
    /// One importance-weighted trial of $T$ steps: $w(1-e^{\epsilon-\sum_tL_t})_+\in[0,1/(1-\lambda)]$
    /// under the defensive mixture of `tilt` (see [`Tilt`]).
    pub fn weighted_trial(
        &self,
        q: f64,
        sigma: f64,
        steps: u64,
        epsilon: f64,
        tilt: &Tilt,
        rng: &mut TrialRng,
    ) -> f64 {
        self.weighted_trial_phases(&[Phase { q, sigma, steps }], epsilon, tilt, rng)
    }

    /// [`LossPair::weighted_trial`] over a schedule: the phases in turn, their losses added.
    pub fn weighted_trial_phases(
        &self,
        phases: &[Phase],
        epsilon: f64,
        tilt: &Tilt,
        rng: &mut TrialRng,
    ) -> f64 {
        let (w, loss) = self.weighted_loss_phases(phases, tilt, rng);
        w * (-(epsilon - loss).exp_m1()).max(0.0)
    }

    /// One path of a schedule under the defensive mixture of `tilt`: its weight $w$ and privacy
    /// loss $L$ (so that $w(1-e^{\epsilon-L})_+$ estimates $\delta(\epsilon)$ for every $\epsilon$).
    pub fn weighted_loss_phases(
        &self,
        phases: &[Phase],
        tilt: &Tilt,
        rng: &mut TrialRng,
    ) -> (f64, f64) {
        let tilted = tilt.mix > 0.0 && rng.random_bool(tilt.mix);
        let mut loss = 0.0;
        let mut log_ratio = 0.0;
        for &Phase { q, sigma, steps } in phases {
            let s2 = sigma * sigma;
            let tilted_rate = (tilt.rate_factor * q).min(1.0);
            let rate = if tilted { tilted_rate } else { q };
            // ln dP'/dP of an inclusion and of an exclusion.
            let (in_rate, out_rate) = (
                (tilted_rate / q).ln(),
                ((1.0 - tilted_rate) / (1.0 - q)).ln(),
            );
            for _ in 0..steps {
                let noise: f64 = StandardNormal.sample(rng);
                match self {
                    LossPair::Add => {
                        // P = N(0, s^2); the tilted law N(-drift s, s^2).
                        let d = -tilt.drift * sigma;
                        let x = sigma * noise + if tilted { d } else { 0.0 };
                        loss -= log_mixture_ratio(x, 1.0, q, sigma);
                        log_ratio += (d * x - 0.5 * d * d) / s2;
                    }
                    LossPair::Remove | LossPair::ReplaceOne => {
                        let inside = rng.random_bool(rate);
                        let mean = if inside { 1.0 } else { 0.0 };
                        // The tilted law's mean moves by d = drift s (+ shift if included):
                        // ln phi(x - mean - d) / phi(x - mean) = (d (x - mean) - d^2 / 2) / s^2.
                        let d = tilt.drift * sigma + if inside { tilt.shift } else { 0.0 };
                        let x = sigma * noise + mean + if tilted { d } else { 0.0 };
                        loss += log_mixture_ratio(x, 1.0, q, sigma);
                        if *self == LossPair::ReplaceOne {
                            loss -= log_mixture_ratio(x, -1.0, q, sigma);
                        }
                        log_ratio += if inside { in_rate } else { out_rate }
                            + (d * (x - mean) - 0.5 * d * d) / s2;
                    }
                }
            }
        }
        (tilt.weight(log_ratio), loss)
    }
}

impl LossPair {
    /// The privacy loss $\ln\frac{p(x)}{q(x)}$ of one output $x$ of a step at rate `q` and noise
    /// multiplier `sigma` (what [`LossPair::sample`] returns for the $x$ it draws).
    pub fn output_loss(&self, x: f64, q: f64, sigma: f64) -> f64 {
        match self {
            LossPair::Remove => log_mixture_ratio(x, 1.0, q, sigma),
            LossPair::Add => -log_mixture_ratio(x, 1.0, q, sigma),
            LossPair::ReplaceOne => {
                log_mixture_ratio(x, 1.0, q, sigma) - log_mixture_ratio(x, -1.0, q, sigma)
            }
        }
    }

    /// One path of `steps` steps at rate `q` *given that the record is drawn at exactly `drawn`
    /// of them* under $P$ (0 for [`LossPair::Add`], whose $P$ has no record), under the defensive
    /// mixture of `tilt`: its weight $w$ and privacy loss $L$.
    ///
    /// Given the count, the steps are exchangeable (each output's loss depends on that output
    /// alone, and the drawn steps are a uniformly random subset), so the first `drawn` steps
    /// are the drawn ones: their outputs are $\mathcal N(1,\sigma^2)$, the others' $\mathcal N(0,\sigma^2)$.
    /// The tilted law moves every output by `drift`·σ and the drawn ones by `shift` more
    /// (`rate_factor` is unused: the count is fixed). So
    /// $\mathbb E[w(1-e^{\epsilon-L})\_+]=\mathbb E_P[(1-e^{\epsilon-L})\_+\mid K=k]$ for $k$ =
    /// `drawn`, $K$ the number of steps the record is drawn at, and
    /// $\delta(\epsilon)=\sum_k\Pr[K=k]$ times it.
    pub fn conditioned_loss(
        &self,
        q: f64,
        sigma: f64,
        steps: u64,
        drawn: u64,
        tilt: &Tilt,
        rng: &mut TrialRng,
    ) -> (f64, f64) {
        let s2 = sigma * sigma;
        let tilted = tilt.mix > 0.0 && rng.random_bool(tilt.mix);
        let (mut loss, mut log_ratio) = (0.0, 0.0);
        for t in 0..steps {
            let noise: f64 = StandardNormal.sample(rng);
            let inside = t < drawn && *self != LossPair::Add;
            let mean = if inside { 1.0 } else { 0.0 };
            // The add pair's tilt moves the outputs down (its loss falls with x).
            let drift = if *self == LossPair::Add {
                -tilt.drift
            } else {
                tilt.drift
            };
            let d = drift * sigma + if inside { tilt.shift } else { 0.0 };
            let x = sigma * noise + mean + if tilted { d } else { 0.0 };
            loss += self.output_loss(x, q, sigma);
            log_ratio += (d * (x - mean) - 0.5 * d * d) / s2;
        }
        (tilt.weight(log_ratio), loss)
    }
}

impl LossPair {
    /// [`LossPair::conditioned_loss`] under a *single-jump* proposal (a big-jump tail: one
    /// extreme output, not a drift of all): with probability `mix` one step, uniform among the
    /// `drawn` drawn ones (among all when none is drawn), has its output moved up by `jump`.
    /// The proposal's density against $P$ is the average over the $n$ candidate steps $j$ of
    /// $e^{(m(x_j-\mu_j)-m^2/2)/\sigma^2}$ ($m$ = `jump`, $\mu_j$ the step's mean), so the weight
    /// is $w=1/\big(1-\lambda+\frac\lambda n\sum_je^{(m(x_j-\mu_j)-m^2/2)/\sigma^2}\big)\le1/(1-\lambda)$.
    pub fn conditioned_jump_loss(
        &self,
        q: f64,
        sigma: f64,
        steps: u64,
        drawn: u64,
        jump: f64,
        mix: f64,
        rng: &mut TrialRng,
    ) -> (f64, f64) {
        let s2 = sigma * sigma;
        let drawn = if *self == LossPair::Add {
            0
        } else {
            drawn.min(steps)
        };
        let candidates = if drawn > 0 { drawn } else { steps.max(1) };
        let tilted = mix > 0.0 && rng.random_bool(mix);
        let chosen = if tilted {
            rng.random_range(0..candidates)
        } else {
            u64::MAX
        };
        let (mut loss, mut ratio_sum) = (0.0, 0.0);
        for t in 0..steps {
            let noise: f64 = StandardNormal.sample(rng);
            let mean = if t < drawn { 1.0 } else { 0.0 };
            let x = sigma * noise + mean + if t == chosen { jump } else { 0.0 };
            loss += self.output_loss(x, q, sigma);
            if t < candidates {
                ratio_sum += ((jump * (x - mean) - 0.5 * jump * jump) / s2).exp();
            }
        }
        let w = if mix == 0.0 {
            1.0
        } else {
            1.0 / (1.0 - mix + mix * ratio_sum / candidates as f64)
        };
        (w, loss)
    }
}

/// $\ln\sum_ie^{x_i}$ ($-\infty$ for an empty sum).
pub fn log_sum_exp(xs: impl IntoIterator<Item = f64> + Clone) -> f64 {
    let max = xs.clone().into_iter().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY || max.is_infinite() {
        return max;
    }
    max + xs.into_iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

/// $\ln(e^a+e^b)$ without overflow ($a$ may be $-\infty$).
pub(crate) fn log_add_exp(a: f64, b: f64) -> f64 {
    if a >= b {
        a + (b - a).exp().ln_1p()
    } else {
        b + (a - b).exp().ln_1p()
    }
}

/// A pair of one shuffled epoch (fixed-size batches, one permutation per epoch): in an epoch
/// of $k$ batches the differing record is in exactly one, at a uniformly random position $J$;
/// its batch's output has mean `first` under $P$ and `second` under $Q$ (units of the clipping
/// norm, relative to the other batches, which both datasets share). So
/// $y_j\sim\mathcal N(u\mathbb 1\lbrace j=J\rbrace,\sigma^2)$ under $P$ ($u$ = `first`), and
/// $$L=\ln\sum_je^{(uy_j-u^2/2)/\sigma^2}-\ln\sum_je^{(vy_j-v^2/2)/\sigma^2},\qquad y\sim P.$$
/// Which pair is worst is the model's to say (`dpclaims_accounting::privacy::shuffle`: $(2,0)$
/// and its reverse); [`ShuffledPair::CENTRED`] is the record $\pm C$ with the others at 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShuffledPair {
    /// Mean of the record's batch under $P$.
    pub first: f64,
    /// Mean of the record's batch under $Q$.
    pub second: f64,
}

impl ShuffledPair {
    /// The record's clipped gradient $+C$ under $P$, $-C$ under $Q$, the others at 0.
    pub const CENTRED: ShuffledPair = ShuffledPair {
        first: 1.0,
        second: -1.0,
    };
}

/// One epoch of `pair`: draws $y\sim P$ and returns its privacy loss.
pub fn shuffled_epoch_loss(
    batches: usize,
    sigma: f64,
    pair: ShuffledPair,
    rng: &mut TrialRng,
) -> f64 {
    shuffled_weighted_loss(batches, sigma, 1, pair, &Tilt::NONE, rng).1
}

/// One trial of `epochs` shuffled epochs: $(1-e^{\epsilon-\sum L})_+\in\[0,1\]$.
pub fn shuffled_hockey_stick_trial(
    batches: usize,
    sigma: f64,
    epochs: u64,
    pair: ShuffledPair,
    epsilon: f64,
    rng: &mut TrialRng,
) -> f64 {
    shuffled_weighted_trial(batches, sigma, epochs, pair, epsilon, &Tilt::NONE, rng)
}

/// One importance-weighted trial of `epochs` shuffled epochs (see [`shuffled_weighted_loss`]):
/// $w(1-e^{\epsilon-\sum L})_+\in[0,1/(1-\lambda)]$ (see [`Tilt`]).
pub fn shuffled_weighted_trial(
    batches: usize,
    sigma: f64,
    epochs: u64,
    pair: ShuffledPair,
    epsilon: f64,
    tilt: &Tilt,
    rng: &mut TrialRng,
) -> f64 {
    let (w, loss) = shuffled_weighted_loss(batches, sigma, epochs, pair, tilt, rng);
    w * (-(epsilon - loss).exp_m1()).max(0.0)
}

/// One path of `epochs` shuffled epochs of `pair` under the defensive mixture of `tilt`: its
/// weight and privacy loss. The tilted law shifts every output by `tilt.drift`·σ (either
/// sign) and the record's batch by `tilt.shift` more (the record is in exactly one batch: no
/// rate). Draws per epoch: the position, then one normal per batch (whatever the pair).
pub fn shuffled_weighted_loss(
    batches: usize,
    sigma: f64,
    epochs: u64,
    pair: ShuffledPair,
    tilt: &Tilt,
    rng: &mut TrialRng,
) -> (f64, f64) {
    let s2 = sigma * sigma;
    let (u, v) = (pair.first, pair.second);
    let tilted = tilt.mix > 0.0 && rng.random_bool(tilt.mix);
    let (mut loss, mut log_ratio) = (0.0, 0.0);
    debug_assert!(
        tilt.rate_factor == 1.0,
        "shuffled epochs have no inclusion rate to tilt"
    );
    for _ in 0..epochs {
        let hit = rng.random_range(0..batches);
        // Running log-sum-exps of the two laws' log likelihood ratios against N(0) (no
        // allocation).
        let (mut lse_p, mut lse_q) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for j in 0..batches {
            let noise: f64 = StandardNormal.sample(rng);
            let mean = if j == hit { u } else { 0.0 };
            // The tilted law's mean moves by d: ln phi(y - mean - d) / phi(y - mean).
            let d = tilt.drift * sigma + if j == hit { tilt.shift } else { 0.0 };
            let y = sigma * noise + mean + if tilted { d } else { 0.0 };
            log_ratio += (d * (y - mean) - 0.5 * d * d) / s2;
            lse_p = log_add_exp(lse_p, (u * y - 0.5 * u * u) / s2);
            lse_q = log_add_exp(lse_q, (v * y - 0.5 * v * v) / s2);
        }
        loss += lse_p - lse_q;
    }
    (tilt.weight(log_ratio), loss)
}

/// $\ln\big(e_k(e^{l_1},\dots,e^{l_t})/\binom tk\big)$, the logarithm of the mean over the
/// $k$-subsets $S$ of $\prod_{j\in S}e^{l_j}$ (the elementary symmetric polynomial of degree $k$
/// over its number of terms; $-\infty$ for $k>t$). With $x_j=e^{l_j-M}\le1$, $M=\max_jl_j$, the
/// means $m_r^{(j)}=e_r(x_1..x_j)/\binom jr$ follow the convex recursion
/// $$m_r^{(j)}=\frac{j-r}j\thinspace m_r^{(j-1)}+\frac rj\thinspace x_j\thinspace m_{r-1}^{(j-1)}\qquad(r=k,\dots,1),$$
/// so they stay between 0 and 1 and never overflow, in $O(tk)$; the result is
/// $\ln m_k^{(t)}+kM$. Where $m_k^{(t)}$ is below $10^{-250}$ (the rounding of subnormal
/// intermediate values, at most about $10^{-308}$ absolute, would no longer be negligible) the
/// same recursion runs in logarithms. `scratch` holds the $k+1$ running means.
pub fn log_elementary_symmetric_mean(l: &[f64], k: usize, scratch: &mut Vec<f64>) -> f64 {
    if k > l.len() {
        return f64::NEG_INFINITY;
    }
    if k == 0 {
        return 0.0;
    }
    let top = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    scratch.clear();
    scratch.resize(k + 1, 0.0);
    scratch[0] = 1.0;
    for (j, &lj) in l.iter().enumerate() {
        let (x, n) = ((lj - top).exp(), (j + 1) as f64);
        for r in (1..=k.min(j + 1)).rev() {
            let w = r as f64 / n;
            scratch[r] = (1.0 - w) * scratch[r] + w * x * scratch[r - 1];
        }
    }
    if scratch[k] > 1e-250 {
        return scratch[k].ln() + k as f64 * top;
    }
    scratch.fill(f64::NEG_INFINITY);
    scratch[0] = 0.0;
    for (j, &lj) in l.iter().enumerate() {
        let n = (j + 1) as f64;
        for r in (1..=k.min(j + 1)).rev() {
            let w = r as f64 / n;
            let keep = if r == j + 1 {
                f64::NEG_INFINITY // (the weight 1 - w is 0: no term)
            } else {
                (1.0 - w).ln() + scratch[r]
            };
            scratch[r] = log_add_exp(keep, w.ln() + lj + scratch[r - 1]);
        }
    }
    scratch[k]
}

/// One path of `epochs` epochs of random allocation, the record in `selected` ($k$) of the
/// `steps` ($t$) steps of each epoch, under the defensive mixture of `tilt`: its weight and
/// privacy loss. The record's $k$ steps $S$ are a uniformly random $k$-subset; its steps'
/// outputs have mean $u$ = `pair.first` under $P$ and $v$ = `pair.second` under $Q$ (the other
/// records' contributions, shared, at 0), so with $y_j\sim\mathcal N(u\mathbb 1\lbrace j\in S\rbrace,\sigma^2)$
/// $$L=\ln e_k\big(e^{(uy_j-u^2/2)/\sigma^2}\big)_j-\ln e_k\big(e^{(vy_j-v^2/2)/\sigma^2}\big)_j$$
/// (the $\binom tk$ of the two mixtures cancels; [`log_elementary_symmetric_mean`] of each). $k=1$ is the
/// one-hot epoch of [`shuffled_weighted_loss`] (the same law, not the same draws). The tilted law
/// shifts every output by `tilt.drift`·σ and the record's $k$ outputs by `tilt.shift` more.
/// Draws per epoch: the $k$-subset (Floyd's algorithm, $k$ draws), then one normal per step.
pub fn allocated_weighted_loss(
    steps: usize,
    selected: usize,
    sigma: f64,
    epochs: u64,
    pair: ShuffledPair,
    tilt: &Tilt,
    rng: &mut TrialRng,
) -> (f64, f64) {
    debug_assert!(
        (1..=steps).contains(&selected),
        "random allocation: 1 <= k <= t"
    );
    debug_assert!(
        tilt.rate_factor == 1.0,
        "random allocation has no inclusion rate to tilt"
    );
    let s2 = sigma * sigma;
    let (u, v) = (pair.first, pair.second);
    let tilted = tilt.mix > 0.0 && rng.random_bool(tilt.mix);
    let (mut loss, mut log_ratio) = (0.0, 0.0);
    let mut hit = vec![false; steps];
    let (mut lp, mut lq) = (vec![0.0; steps], vec![0.0; steps]);
    let mut scratch = Vec::with_capacity(selected + 1);
    for _ in 0..epochs {
        hit.fill(false);
        for j in steps - selected..steps {
            let r = rng.random_range(0..=j);
            if hit[r] {
                hit[j] = true;
            } else {
                hit[r] = true;
            }
        }
        for j in 0..steps {
            let noise: f64 = StandardNormal.sample(rng);
            let mean = if hit[j] { u } else { 0.0 };
            let d = tilt.drift * sigma + if hit[j] { tilt.shift } else { 0.0 };
            let y = sigma * noise + mean + if tilted { d } else { 0.0 };
            log_ratio += (d * (y - mean) - 0.5 * d * d) / s2;
            lp[j] = (u * y - 0.5 * u * u) / s2;
            lq[j] = (v * y - 0.5 * v * v) / s2;
        }
        loss += log_elementary_symmetric_mean(&lp, selected, &mut scratch)
            - log_elementary_symmetric_mean(&lq, selected, &mut scratch);
    }
    (tilt.weight(log_ratio), loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

    /// The mean of `f` over `n` trials of the stream (`seed`, `key`) and its standard error.
    fn mean_and_error(
        seed: u64,
        key: &str,
        n: u64,
        f: &dyn Fn(&mut TrialRng) -> f64,
    ) -> (f64, f64) {
        let k = StreamKey::new(seed, &[key]);
        let xs: Vec<f64> = (0..n).map(|i| f(&mut k.trial(i))).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
        (m, (v / n as f64).sqrt())
    }

    /// The mean over k-subsets against the sum over every k-subset (divided by their number),
    /// at moderate logarithms, at ones (±800) whose sums leave the range of a double, and at
    /// ones (about -800 apart from the largest) where the scaled recursion falls below 1e-250
    /// and the logarithmic one answers; k = 0 is 1 and k > t the empty mean.
    #[test]
    fn elementary_symmetric_mean_is_the_mean_over_subsets() {
        let brute = |l: &[f64], k: usize| {
            let t = l.len();
            let sums: Vec<f64> = (0u32..1 << t)
                .filter(|s| s.count_ones() as usize == k)
                .map(|s| (0..t).filter(|j| s >> j & 1 == 1).map(|j| l[j]).sum())
                .collect();
            let top = sums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            top + (sums.iter().map(|x| (x - top).exp()).sum::<f64>() / sums.len() as f64).ln()
        };
        let mut scratch = Vec::new();
        for l in [
            vec![0.3, -1.2, 2.5, 0.0, -0.7, 1.1],
            vec![800.0, -800.0, 0.5, -790.0, 3.0, -805.0],
            vec![0.0, -800.0, -795.0, -810.0, -799.0, -801.0, -600.0],
        ] {
            for k in 1..=l.len() {
                let (a, b) = (
                    log_elementary_symmetric_mean(&l, k, &mut scratch),
                    brute(&l, k),
                );
                assert!(
                    (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                    "{l:?} k {k}: {a} vs {b}"
                );
            }
            assert_eq!(log_elementary_symmetric_mean(&l, 0, &mut scratch), 0.0);
            let over = log_elementary_symmetric_mean(&l, l.len() + 1, &mut scratch);
            assert_eq!(over, f64::NEG_INFINITY);
        }
    }

    /// Random allocation, k of t: E_P[e^{-L}] = 1 (Q is a probability law) for the remove, add
    /// and antipodal pairs, and at k = 1 the same law as the one-hot epoch (the mean loss, to
    /// four standard errors), and a tilted path's weight is unbiased against plain sampling.
    #[test]
    fn allocated_losses_integrate_to_one_and_tilts_are_unbiased() {
        let mean_sd =
            |f: &dyn Fn(&mut TrialRng) -> f64, key: &str| mean_and_error(7, key, 100_000, f);
        for (first, second) in [(1.0, 0.0), (0.0, 1.0), (1.0, -1.0)] {
            let pair = ShuffledPair { first, second };
            for k in [1, 2, 4] {
                let loss = |r: &mut TrialRng| {
                    allocated_weighted_loss(5, k, 1.2, 1, pair, &Tilt::NONE, r).1
                };
                let (m, sd) = mean_sd(&|r| (-loss(r)).exp(), "integrate");
                assert!((m - 1.0).abs() < 4.0 * sd, "{pair:?} k {k}: {m} +- {sd}");
                if k == 1 {
                    let (a, sa) = mean_sd(&loss, "k1");
                    let (b, sb) = mean_sd(&|r| shuffled_epoch_loss(5, 1.2, pair, r), "one-hot");
                    assert!(
                        (a - b).abs() < 4.0 * (sa * sa + sb * sb).sqrt(),
                        "{pair:?}: {a} +- {sa} vs {b} +- {sb}"
                    );
                }
            }
        }
        let (pair, eps) = (
            ShuffledPair {
                first: 1.0,
                second: 0.0,
            },
            2.0,
        );
        let trial = |tilt: Tilt| {
            move |r: &mut TrialRng| {
                let (w, l) = allocated_weighted_loss(6, 2, 0.9, 3, pair, &tilt, r);
                w * (-(eps - l).exp_m1()).max(0.0)
            }
        };
        let (a, sa) = mean_sd(&trial(Tilt::NONE), "plain");
        let tilt = Tilt {
            shift: 0.6,
            drift: -0.1,
            mix: 0.5,
            ..Tilt::NONE
        };
        let (b, sb) = mean_sd(&trial(tilt), "tilted");
        assert!(
            a > 0.0 && (a - b).abs() < 4.0 * (sa * sa + sb * sb).sqrt(),
            "{a} +- {sa} vs {b} +- {sb}"
        );
    }

    /// E_P[e^{-L}] = 1 for every pair (Q is a probability law): a check of the loss formulas.
    #[test]
    fn losses_integrate_to_one_under_q() {
        for pair in [LossPair::Remove, LossPair::Add, LossPair::ReplaceOne] {
            let mut rng = StreamKey::new(3, &["loss"]).trial(0);
            let n = 200_000;
            let m: f64 = (0..n)
                .map(|_| (-pair.sample(0.3, 1.5, &mut rng)).exp())
                .sum::<f64>()
                / n as f64;
            assert!((m - 1.0).abs() < 0.01, "{pair:?}: {m}");
        }
        for (first, second) in [(1.0, -1.0), (2.0, 0.0), (0.0, 2.0)] {
            let pair = ShuffledPair { first, second };
            let mut rng = StreamKey::new(3, &["shuffle"]).trial(0);
            let n = 100_000;
            let m: f64 = (0..n)
                .map(|_| (-shuffled_epoch_loss(5, 1.5, pair, &mut rng)).exp())
                .sum::<f64>()
                / n as f64;
            assert!((m - 1.0).abs() < 0.01, "shuffle {pair:?}: {m}");
        }
    }

    /// The weighted estimator is unbiased: a tilted run agrees with plain Monte Carlo (both
    /// with 3-sigma normal intervals on 200 000 trials).
    #[test]
    fn importance_weights_are_unbiased() {
        let n = 200_000u64;
        let est = |f: &dyn Fn(&mut TrialRng) -> f64, key: &str| mean_and_error(5, key, n, f);
        let (q, sigma, steps, eps) = (0.1, 1.0, 20u64, 1.5);
        for pair in [LossPair::Remove, LossPair::Add, LossPair::ReplaceOne] {
            let tilt = if pair == LossPair::Add {
                Tilt {
                    drift: 1.0,
                    mix: 0.5,
                    ..Tilt::NONE
                }
            } else {
                Tilt {
                    rate_factor: 3.0,
                    shift: 1.0,
                    drift: 0.2,
                    mix: 0.5,
                }
            };
            let (a, sa) = est(
                &|r| pair.hockey_stick_trial(q, sigma, steps, eps, r),
                "plain",
            );
            let (b, sb) = est(
                &|r| pair.weighted_trial(q, sigma, steps, eps, &tilt, r),
                "tilt",
            );
            assert!(
                (a - b).abs() < 3.0 * (sa * sa + sb * sb).sqrt(),
                "{pair:?}: {a} +- {sa} vs {b} +- {sb}"
            );
            // This tilt reduces the error for the remove and add pairs; for the centred pair it
            // does not (the audit's pilot chooses among proposals, plain Monte Carlo included).
            if pair != LossPair::ReplaceOne {
                assert!(
                    sb < sa,
                    "{pair:?}: the tilt should lower the error in the tail ({sb} vs {sa})"
                );
            }
        }
        // A schedule of two phases: the same estimate by plain sampling of the phases in turn.
        let phases = [
            Phase {
                q: 0.2,
                sigma: 1.2,
                steps: 10,
            },
            Phase {
                q: 0.05,
                sigma: 0.8,
                steps: 30,
            },
        ];
        let plain = |r: &mut TrialRng| {
            let l: f64 = phases
                .iter()
                .map(|p| {
                    (0..p.steps)
                        .map(|_| LossPair::Remove.sample(p.q, p.sigma, r))
                        .sum::<f64>()
                })
                .sum();
            (-(1.5 - l).exp_m1()).max(0.0)
        };
        let tilt = Tilt {
            rate_factor: 2.0,
            shift: 0.5,
            drift: 0.1,
            mix: 0.5,
        };
        let (a, sa) = est(&plain, "plain");
        let (b, sb) = est(
            &|r| LossPair::Remove.weighted_trial_phases(&phases, 1.5, &tilt, r),
            "tilt",
        );
        assert!(
            (a - b).abs() < 3.0 * (sa * sa + sb * sb).sqrt(),
            "phases: {a} +- {sa} vs {b} +- {sb}"
        );
        let tilt = Tilt {
            shift: 1.0,
            mix: 0.5,
            ..Tilt::NONE
        };
        // Shuffled epochs, the three pairs the audit has simulated: the centred one with a
        // shift, (2, 0) with a shift and its reverse (0, 2) with a downward drift.
        for (pair, tilt) in [
            (ShuffledPair::CENTRED, tilt),
            (
                ShuffledPair {
                    first: 2.0,
                    second: 0.0,
                },
                tilt,
            ),
            (
                ShuffledPair {
                    first: 0.0,
                    second: 2.0,
                },
                Tilt {
                    drift: -0.5,
                    mix: 0.5,
                    ..Tilt::NONE
                },
            ),
        ] {
            let (a, sa) = est(
                &|r| shuffled_hockey_stick_trial(5, 1.0, 2, pair, 2.0, r),
                "plain",
            );
            let (b, sb) = est(
                &|r| shuffled_weighted_trial(5, 1.0, 2, pair, 2.0, &tilt, r),
                "tilt",
            );
            assert!(
                (a - b).abs() < 3.0 * (sa * sa + sb * sb).sqrt(),
                "shuffle {pair:?}: {a} +- {sa} vs {b} +- {sb}"
            );
        }
    }

    /// Stratified on the record's draws: $\sum_k\Pr[K=k]$ times the conditioned mean (tilted,
    /// or under a single jump) agrees with plain Monte Carlo; the mutant that forgets the
    /// jump's weight (takes $w=1$) does not.
    #[test]
    fn conditioned_paths_recompose_delta() {
        use statrs::distribution::{Binomial, Discrete};
        let (q, sigma, steps, eps) = (0.1, 0.8, 12u64, 2.0);
        let n = 40_000u64;
        let mean_sd = |f: &dyn Fn(&mut TrialRng) -> f64, key: &str| {
            let k = StreamKey::new(9, &[key]);
            let xs: Vec<f64> = (0..n).map(|i| f(&mut k.trial(i))).collect();
            let m = xs.iter().sum::<f64>() / n as f64;
            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
            (m, v / n as f64)
        };
        let value = |(w, l): (f64, f64)| w * (-(eps - l).exp_m1()).max(0.0);
        for pair in [LossPair::Remove, LossPair::ReplaceOne] {
            let (plain, vp) = mean_sd(
                &|r| pair.hockey_stick_trial(q, sigma, steps, eps, r),
                "plain",
            );
            let law = Binomial::new(q, steps).unwrap();
            let tilt = Tilt {
                shift: 0.5,
                drift: 0.2,
                mix: 0.5,
                ..Tilt::NONE
            };
            let (mut tilted, mut vt, mut jumped, mut vj, mut wrong) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for k in 0..=6u64 {
                let p = law.pmf(k);
                let (m, v) = mean_sd(
                    &|r| value(pair.conditioned_loss(q, sigma, steps, k, &tilt, r)),
                    &format!("tilt{k}"),
                );
                (tilted, vt) = (tilted + p * m, vt + p * p * v);
                let (m, v) = mean_sd(
                    &|r| value(pair.conditioned_jump_loss(q, sigma, steps, k, 2.0, 0.5, r)),
                    &format!("jump{k}"),
                );
                (jumped, vj) = (jumped + p * m, vj + p * p * v);
                let (m, _) = mean_sd(
                    &|r| {
                        let (_, l) = pair.conditioned_jump_loss(q, sigma, steps, k, 2.0, 0.5, r);
                        value((1.0, l))
                    },
                    &format!("jump{k}"),
                );
                wrong += p * m;
            }
            for (name, est, v) in [("tilt", tilted, vt), ("jump", jumped, vj)] {
                assert!(
                    (est - plain).abs() < 4.0 * (v + vp).sqrt(),
                    "{pair:?} {name}: {est} vs plain {plain} (sd {})",
                    (v + vp).sqrt()
                );
            }
            assert!(
                (wrong - plain).abs() > 4.0 * (vj + vp).sqrt(),
                "{pair:?}: the unweighted jump should be biased: {wrong} vs {plain}"
            );
        }
    }

    /// One batch per epoch is the Gaussian mechanism with sensitivity 2: L = 2y/sigma^2.
    #[test]
    fn one_batch_shuffle_is_gaussian() {
        let mut a = StreamKey::new(4, &["s"]).trial(0);
        let l = shuffled_epoch_loss(1, 2.0, ShuffledPair::CENTRED, &mut a);
        let mut b = StreamKey::new(4, &["s"]).trial(0);
        let _ = b.random_range(0..1usize);
        let z: f64 = StandardNormal.sample(&mut b);
        let y = 2.0 * z + 1.0;
        assert!((l - 2.0 * y / 4.0).abs() < 1e-12);
    }
}
