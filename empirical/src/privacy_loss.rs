//! Monte Carlo of the privacy loss of DP-SGD's subsampled Gaussian mechanism.
//!
//! One step releases $x=\xi+B\,v$ with $\xi\sim\mathcal N(0,\sigma^2)$, $B\sim$ Bernoulli$(q)$
//! (is the differing record in the batch) and $v$ its clipped contribution (units of the
//! clipping norm). For a pair of neighbouring datasets with output laws $P$, $Q$ the privacy
//! loss is $L=\ln\frac{p(x)}{q(x)}$, $x\sim P$, and $T$ steps add independent losses. Then
//! $\delta(\epsilon)=\mathbb E[(1-e^{\epsilon-\sum_tL_t})_+]$ — a mean of values in $[0,1]$,
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

    /// One trial of $T$ steps: $(1-e^{\epsilon-\sum_tL_t})_+\in[0,1]$.
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

/// Shuffled fixed-size batches, replace-one: in one epoch of $k$ batches the differing record
/// is in exactly one batch, at a uniformly random position $J$; its clipped gradient is $+C$ in
/// one dataset and $-C$ in the other, the other records contribute alike. The epoch's outputs
/// (centred) are $y_j\sim\mathcal N(\pm\mathbb 1\{j=J\},\sigma^2)$, so
/// $$L=\ln\sum_je^{y_j/\sigma^2}-\ln\sum_je^{-y_j/\sigma^2},\qquad y\sim P.$$
/// Epochs draw independent permutations and compose.
pub fn shuffled_epoch_loss(batches: usize, sigma: f64, rng: &mut TrialRng) -> f64 {
    let s2 = sigma * sigma;
    let hit = rng.random_range(0..batches);
    // Running log-sum-exps of +-y_j / sigma^2 (no allocation).
    let (mut lse_p, mut lse_q) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let add = |acc: f64, x: f64| {
        if acc >= x {
            acc + (x - acc).exp().ln_1p()
        } else {
            x + (acc - x).exp().ln_1p()
        }
    };
    for j in 0..batches {
        let noise: f64 = StandardNormal.sample(rng);
        let y = sigma * noise + if j == hit { 1.0 } else { 0.0 };
        lse_p = add(lse_p, y / s2);
        lse_q = add(lse_q, -y / s2);
    }
    lse_p - lse_q
}

/// One trial of `epochs` shuffled epochs: $(1-e^{\epsilon-\sum L})_+\in[0,1]$.
pub fn shuffled_hockey_stick_trial(
    batches: usize,
    sigma: f64,
    epochs: u64,
    epsilon: f64,
    rng: &mut TrialRng,
) -> f64 {
    let total: f64 = (0..epochs)
        .map(|_| shuffled_epoch_loss(batches, sigma, rng))
        .sum();
    (-(epsilon - total).exp_m1()).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

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
        let mut rng = StreamKey::new(3, &["shuffle"]).trial(0);
        let n = 100_000;
        let m: f64 = (0..n)
            .map(|_| (-shuffled_epoch_loss(5, 1.5, &mut rng)).exp())
            .sum::<f64>()
            / n as f64;
        assert!((m - 1.0).abs() < 0.01, "shuffle: {m}");
    }

    /// One batch per epoch is the Gaussian mechanism with sensitivity 2: L = 2y/sigma^2.
    #[test]
    fn one_batch_shuffle_is_gaussian() {
        let mut a = StreamKey::new(4, &["s"]).trial(0);
        let l = shuffled_epoch_loss(1, 2.0, &mut a);
        let mut b = StreamKey::new(4, &["s"]).trial(0);
        let _ = b.random_range(0..1usize);
        let z: f64 = StandardNormal.sample(&mut b);
        let y = 2.0 * z + 1.0;
        assert!((l - 2.0 * y / 4.0).abs() < 1e-12);
    }
}
