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
    }
}
