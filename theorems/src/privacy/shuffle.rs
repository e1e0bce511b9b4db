//! A certified lower reference for DP-SGD with shuffled fixed-size batches.
//!
//! Each epoch cuts a fresh random permutation into $k$ batches; under replace-one the
//! differing record sits in exactly one batch, at a position $J$ hidden from the adversary. A
//! realisable configuration: every other record's clipped gradient is 0 and the record's is
//! $+C$ in $D$, $-C$ in $D'$. The epoch's batch outputs (units of $C$) are then
//! $y_j\sim\mathcal N(\pm\mathbb 1\{j=J\},\sigma^2)$. Any statistic of them is a post-processing,
//! so its pair of laws is dominated by the mechanism's. The **maximum** $M=\max_jy_j$ has
//! $$P(M\le t)=\Phi\big(\tfrac{t-1}\sigma\big)\Phi\big(\tfrac t\sigma\big)^{k-1},\qquad
//! Q(M\le t)=\Phi\big(\tfrac{t+1}\sigma\big)\Phi\big(\tfrac t\sigma\big)^{k-1}$$
//! (the idea of Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang, ICML 2024). Binning $M$
//! on a fine grid (a further post-processing), rounding each bin's loss down to the PLD grid and
//! dropping bins without $Q$ mass gives an optimistic PLD of one epoch; its $E$-fold optimistic
//! composition (independent permutations per epoch) bounds $\delta(\epsilon)$ of the shuffled
//! mechanism from below, so its $\epsilon(\delta)$ is a certified lower bound on the true
//! $\epsilon$. The reversed pair ($D'$ first) is realisable too; the larger of the two is
//! reported. It is weaker than a Monte Carlo of the whole epoch near $\sigma=1$.

use super::pld::{Pld, PldOptions, Rounding};
use crate::error::{ParamError, at_least, positive};
use crate::numerics::log_norm_cdf;

/// $\ln P(M\le t)$ with the record's batch at mean `m` ($\pm1$).
fn log_cdf_max(t: f64, m: f64, sigma: f64, batches: u64) -> f64 {
    log_norm_cdf((t - m) / sigma) + (batches - 1) as f64 * log_norm_cdf(t / sigma)
}

/// The optimistic one-epoch PLD of the maximum statistic, in the order $(P,Q)$ (`reversed`:
/// $(Q,P)$).
pub fn max_statistic_pld(
    batches: u64,
    sigma: f64,
    opts: &PldOptions,
    reversed: bool,
) -> Result<Pld, ParamError> {
    at_least("batches", batches, 1)?;
    positive("sigma", sigma)?;
    let (mp, mq) = if reversed { (-1.0, 1.0) } else { (1.0, -1.0) };
    // Bins of M: 40 000 on [-(9 sigma + 1), ln(k) sigma + 9 sigma + 1], and the two tails.
    let lo = -(9.0 * sigma + 1.0);
    let hi = sigma * ((batches as f64).ln() * 2.0).sqrt() + 9.0 * sigma + 1.0;
    let n = 40_000usize;
    let h = (hi - lo) / n as f64;
    // Mass of (a, b] from the CDF below the median and the survival function above it.
    let mass = |a: f64, b: f64, m: f64| -> f64 {
        let (la, lb) = (
            if a == f64::NEG_INFINITY {
                f64::NEG_INFINITY
            } else {
                log_cdf_max(a, m, sigma, batches)
            },
            if b == f64::INFINITY {
                0.0
            } else {
                log_cdf_max(b, m, sigma, batches)
            },
        );
        if lb < -std::f64::consts::LN_2 {
            (lb.exp() - la.exp()).max(0.0)
        } else {
            // 1 - F(a) - (1 - F(b)) = -expm1(la) + expm1(lb)
            ((-la.exp_m1()) - (-lb.exp_m1())).max(0.0)
        }
    };
    let d = opts.interval;
    let mut cells: Vec<(f64, f64)> = Vec::with_capacity(n + 2);
    for i in 0..n + 2 {
        let a = if i == 0 {
            f64::NEG_INFINITY
        } else {
            lo + (i - 1) as f64 * h
        };
        let b = if i == n + 1 {
            f64::INFINITY
        } else {
            lo + i as f64 * h
        };
        let (p, q) = (mass(a, b, mp), mass(a, b, mq));
        if p > 0.0 && q > 0.0 {
            cells.push(((p / q).ln(), p));
        }
    }
    let k_min = cells
        .iter()
        .map(|(l, _)| (l / d).floor() as i64)
        .min()
        .unwrap_or(0);
    let k_max = cells
        .iter()
        .map(|(l, _)| (l / d).floor() as i64)
        .max()
        .unwrap_or(0);
    let mut pmf = vec![0.0; (k_max - k_min + 1) as usize];
    for (l, p) in cells {
        pmf[((l / d).floor() as i64 - k_min) as usize] += p;
    }
    Ok(Pld::exact(d, k_min, pmf, 0.0, Rounding::Optimistic))
}

/// A certified lower bound on $\epsilon(\delta)$ of `epochs` shuffled epochs of `batches`
/// batches with noise multiplier `sigma`, replace-one (the larger over both orders).
pub fn lower_epsilon(
    batches: u64,
    sigma: f64,
    epochs: u64,
    delta: f64,
    opts: &PldOptions,
) -> Result<f64, ParamError> {
    super::check_delta(delta)?;
    Ok(lower_plds(batches, sigma, epochs, opts)?
        .iter()
        .map(|p| p.epsilon(delta))
        .fold(0.0, f64::max))
}

/// The `epochs`-fold optimistic compositions of the maximum statistic's PLD, both orders: the
/// largest of their $\delta(\epsilon)$ is a certified lower bound on the shuffled mechanism's.
pub fn lower_plds(
    batches: u64,
    sigma: f64,
    epochs: u64,
    opts: &PldOptions,
) -> Result<Vec<Pld>, ParamError> {
    at_least("epochs", epochs, 1)?;
    [false, true]
        .iter()
        .map(|&reversed| max_statistic_pld(batches, sigma, opts, reversed)?.compose(epochs, opts))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::gaussian;

    /// One batch per epoch: M = y is the Gaussian mechanism with sensitivity 2, whose exact
    /// epsilon the lower reference must approach from below.
    #[test]
    fn one_batch_is_the_gaussian_mechanism() {
        let opts = PldOptions::default();
        for (sigma, epochs) in [(2.0, 1u64), (3.0, 4)] {
            let exact = gaussian::epsilon(2.0 * (epochs as f64).sqrt() / sigma, 1e-5).unwrap();
            let lower = lower_epsilon(1, sigma, epochs, 1e-5, &opts).unwrap();
            assert!(
                lower <= exact + 1e-9 && lower >= exact - 0.01,
                "{lower} vs {exact}"
            );
        }
    }

    /// More batches hide the record better: the lower reference decreases with k and stays
    /// below the position-revealed Gaussian upper reference.
    #[test]
    fn more_batches_lower_the_reference() {
        let opts = PldOptions::default();
        let upper = gaussian::epsilon(2.0 * 2f64.sqrt() / 0.9, 1e-5).unwrap();
        let (a, b) = (
            lower_epsilon(5, 0.9, 2, 1e-5, &opts).unwrap(),
            lower_epsilon(50, 0.9, 2, 1e-5, &opts).unwrap(),
        );
        assert!(b < a && a < upper, "{b} < {a} < {upper}");
        assert!(b > 0.0);
    }
}
