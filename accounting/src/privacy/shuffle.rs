//! A certified lower reference for DP-SGD with shuffled fixed-size batches.
//!
//! Each epoch cuts a fresh random permutation into $k$ batches; under replace-one the
//! differing record sits in exactly one batch, at a position $J$ hidden from the adversary. A
//! realisable configuration: every other record's clipped gradient is 0 and the record's is
//! $+C$ in $D$, $-C$ in $D'$. The epoch's batch outputs (units of $C$) are then
//! $y_j\sim\mathcal N(\pm\mathbb 1\lbrace j=J\rbrace,\sigma^2)$. Any statistic of them is a post-processing,
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

use super::pld::{MAX_FFT, Pld, PldOptions, Rounding};
use crate::error::{ParamError, at_least, positive};
use crate::numerics::{log_add_exp, log_norm_cdf, log_sub_exp};

/// $(\ln F(t),\ln(1-F(t)))$ for $F(t)=P(M\le t)$ with the record's batch at mean `m` ($\pm1$).
/// With $x_1=(t-m)/\sigma$, $x_0=t/\sigma$: $-\ln F=V=w(x_1)+(k-1)w(x_0)$, $w(x)=-\ln\Phi(x)$,
/// and $1-F=1-e^{-V}$. $V$ is kept as a logarithm, $\ln w(x)=\ln\bar\Phi(x)+O(\bar\Phi(x))$ once
/// $\bar\Phi(x)<10^{-13}$, so that survival probabilities below the smallest double (the
/// record's batch far above the others at small $\sigma$) keep their exponent.
fn log_cdf_sf(t: f64, m: f64, sigma: f64, batches: u64) -> (f64, f64) {
    if t == f64::NEG_INFINITY {
        return (f64::NEG_INFINITY, 0.0);
    }
    if t == f64::INFINITY {
        return (0.0, f64::NEG_INFINITY);
    }
    let (x1, x0) = ((t - m) / sigma, t / sigma);
    let others = (batches - 1) as f64;
    let ln_w = |x: f64| {
        if x > 7.5 {
            log_norm_cdf(-x)
        } else {
            (-log_norm_cdf(x)).ln()
        }
    };
    let (log_f, ln_v) = if batches > 1 {
        (
            log_norm_cdf(x1) + others * log_norm_cdf(x0),
            log_add_exp(ln_w(x1), others.ln() + ln_w(x0)),
        )
    } else {
        (log_norm_cdf(x1), ln_w(x1))
    };
    // ln(1 - e^{-V}): directly unless V is tiny, then ln V + ln(1 - V/2) (relative V^2/6).
    let v = ln_v.exp();
    let log_s = if ln_v > -20.0 {
        (-(-v).exp_m1()).ln()
    } else {
        ln_v + (-0.5 * v).ln_1p()
    };
    (log_f, log_s)
}

/// The optimistic one-epoch PLD of the maximum statistic, in the order $(P,Q)$ (`reversed`:
/// $(Q,P)$), built in log space: each bin's loss is $\ln P(\text{bin})-\ln Q(\text{bin})$ from
/// logarithms of the masses (at $\sigma=0.03$ they are $e^{-600}$ and below, and their ratio
/// overflowed). Then, each a further rounding down of the loss: the lowest losses carrying at
/// most `tail_mass` of $P$ are dropped (moved to $-\infty$), the highest carrying at most
/// `tail_mass` are lowered to the loss below them, every loss is lowered by $10^{-9}\max(|\ell|,1)$
/// (floating-point error) and to the grid. An error ([`ParamError::is_too_fine`]) when the
/// losses left span more than `opts.max_points` grid points or sit beyond $2^{53}$ grid steps.
pub fn max_statistic_pld(
    batches: u64,
    sigma: f64,
    opts: &PldOptions,
    reversed: bool,
) -> Result<Pld, ParamError> {
    at_least("batches", batches, 1)?;
    positive("sigma", sigma)?;
    let (mp, mq) = if reversed { (-1.0, 1.0) } else { (1.0, -1.0) };
    // Bins of M: 40 000 on [-(9 sigma + 1), sigma sqrt(2 ln k) + 9 sigma + 1], and the two tails.
    let lo = -(9.0 * sigma + 1.0);
    let hi = sigma * ((batches as f64).ln() * 2.0).sqrt() + 9.0 * sigma + 1.0;
    let n = 40_000usize;
    let h = (hi - lo) / n as f64;
    let edges: Vec<f64> = std::iter::once(f64::NEG_INFINITY)
        .chain((0..=n).map(|i| lo + i as f64 * h))
        .chain(std::iter::once(f64::INFINITY))
        .collect();
    let ends = |m: f64| -> Vec<(f64, f64)> {
        edges
            .iter()
            .map(|t| log_cdf_sf(*t, m, sigma, batches))
            .collect()
    };
    let (ends_p, ends_q) = (ends(mp), ends(mq));
    // ln of the mass of (a, b]: F(b) - F(a) below the median, S(a) - S(b) above it (an
    // inversion by rounding is an empty bin).
    let log_mass = |a: (f64, f64), b: (f64, f64)| {
        let l = if b.0 < -std::f64::consts::LN_2 {
            log_sub_exp(b.0, a.0)
        } else {
            log_sub_exp(a.1, b.1)
        };
        if l.is_nan() { f64::NEG_INFINITY } else { l }
    };
    // (loss, P mass) of the bins with P mass; Q mass 0 is loss +inf: dropped (rounded down).
    let mut cells: Vec<(f64, f64)> = (0..edges.len() - 1)
        .filter_map(|i| {
            let lp = log_mass(ends_p[i], ends_p[i + 1]);
            let lq = log_mass(ends_q[i], ends_q[i + 1]);
            let (p, loss) = (lp.exp(), lp - lq);
            (p > 0.0 && loss.is_finite()).then_some((loss, p))
        })
        .collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    let tau = opts.tail_mass;
    let mut below = 0.0;
    let first = cells
        .iter()
        .position(|c| {
            below += c.1;
            below > tau
        })
        .unwrap_or(cells.len());
    let mut above = 0.0;
    let top = cells
        .iter()
        .rposition(|c| {
            above += c.1;
            above > tau
        })
        .unwrap_or(0);
    if cells.is_empty() || first > top {
        return Err(ParamError::new(
            "sigma",
            sigma,
            "a noise multiplier whose epoch losses are finite doubles",
        ));
    }
    let d = opts.interval;
    let index = |l: f64| ((l - 1e-9 * l.abs().max(1.0)) / d).floor();
    let (low, high) = (cells[first].0, cells[top].0);
    let (k_lo, k_hi) = (index(low), index(high));
    let limit = opts.max_points.min(MAX_FFT);
    let points = k_hi - k_lo + 1.0;
    if !(points <= limit as f64 && k_lo.abs().max(k_hi.abs()) < 2f64.powi(53)) {
        return Err(ParamError::too_fine(
            d,
            format!(
                "one epoch's losses span [{low:.6e}, {high:.6e}]: {points:.0} grid points, at most {limit}"
            ),
        ));
    }
    let mut pmf = vec![0.0; points as usize];
    for (l, p) in &cells[first..] {
        // Above the top kept loss: lowered to it.
        pmf[(index(*l).min(k_hi) - k_lo) as usize] += p;
    }
    Ok(Pld::exact(d, k_lo as i64, pmf, 0.0, Rounding::Optimistic))
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
        .map(|&reversed| {
            let one = max_statistic_pld(batches, sigma, opts, reversed)?;
            // The composition indexes losses up to epochs x the largest index, in an i64.
            let reach = (one.offset.unsigned_abs() + one.pmf.len() as u64) as f64 * epochs as f64;
            if reach >= 2f64.powi(62) {
                return Err(ParamError::too_fine(
                    opts.interval,
                    format!("{epochs} epochs reach grid index {reach:.3e}, past 2^62"),
                ));
            }
            one.compose(epochs, opts)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::log_add_exp;
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

    /// $\epsilon(\delta)$ of the test $M>c$, from below: $P(M>c)\ge\Phi((1-c)/\sigma)$ (the
    /// record's batch alone) and $Q(M>c)\le\bar\Phi((1+c)/\sigma)+(k-1)\bar\Phi(c/\sigma)$ (union
    /// bound), and $\epsilon(\delta)\ge\ln\frac{P(M>c)-\delta}{Q(M>c)}$ for a two-point pair.
    fn threshold_test_epsilon(batches: u64, sigma: f64, c: f64, delta: f64) -> f64 {
        let p = log_norm_cdf((1.0 - c) / sigma).exp();
        let log_q = log_add_exp(
            log_norm_cdf(-(1.0 + c) / sigma),
            ((batches - 1) as f64).ln() + log_norm_cdf(-c / sigma),
        );
        if p > delta {
            (p - delta).ln() - log_q
        } else {
            0.0
        }
    }

    /// Issue 33: at small sigma the loss of the largest batch output is hundreds of nats, where
    /// Q's bin masses underflow as numbers (sigma 0.03 panicked on a cell count from an infinite
    /// loss, 0.02 gave 0). The reference stays below the Gaussian upper reference and above
    /// the threshold tests of M (post-processings of it), epoch by epoch and composed.
    #[test]
    fn small_sigma_sits_between_threshold_tests_and_the_gaussian() {
        for (batches, sigma, epochs, interval) in [
            (2u64, 0.03, 1u64, 1e-3),
            (2, 0.02, 1, 1e-3),
            (50, 0.05, 1, 1e-3),
            (2, 0.005, 1, 1e-2),
            (4, 0.02, 3, 1e-2),
        ] {
            let opts = PldOptions {
                interval,
                ..PldOptions::default()
            };
            let delta = 1e-5;
            let lower = lower_epsilon(batches, sigma, epochs, delta, &opts).unwrap();
            let upper = gaussian::epsilon(2.0 * (epochs as f64).sqrt() / sigma, delta).unwrap();
            let test = [0.5, 0.9, 1.0]
                .map(|c| threshold_test_epsilon(batches, sigma, c, delta))
                .into_iter()
                .fold(0.0, f64::max);
            assert!(
                0.99 * test <= lower && lower <= upper,
                "k {batches} sigma {sigma} E {epochs}: {test} <= {lower} <= {upper}"
            );
        }
    }

    /// Losses too far apart for the point budget, or too large for the grid's indices, are an
    /// error a coarser grid may cure (never an allocation of the span).
    #[test]
    fn too_fine_grids_are_refused() {
        let small = PldOptions {
            max_points: 1000,
            ..PldOptions::default()
        };
        let coarse = PldOptions {
            interval: 1.0,
            ..PldOptions::default()
        };
        for (sigma, opts) in [(0.02, small), (1e-9, PldOptions::default()), (1e-9, coarse)] {
            match lower_plds(2, sigma, 1, &opts) {
                Err(e) => assert!(e.is_too_fine(), "sigma {sigma}: {e}"),
                Ok(_) => panic!("sigma {sigma} at interval {}: no error", opts.interval),
            }
        }
    }
}
