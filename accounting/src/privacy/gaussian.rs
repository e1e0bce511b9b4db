//! The Gaussian mechanism's exact privacy profile (Balle & Wang 2018, Theorem 8).
//!
//! For sensitivity $\Delta$ and noise $\sigma$, with $\mu=\Delta/\sigma$,
//! $$\delta(\epsilon)=\Phi\Big(\frac\mu2-\frac\epsilon\mu\Big)-e^\epsilon\Phi\Big(-\frac\mu2-\frac\epsilon\mu\Big),$$
//! evaluated in log space so that tiny $\delta$ keep their exponent. $T$-fold composition is
//! the same with $\mu\sqrt T$.

use super::check_delta;
use crate::error::{ParamError, positive};
use crate::numerics::log_norm_cdf;

/// $\ln\delta(\epsilon)$ for $\mu>0$ and any finite $\epsilon$.
pub fn log_delta(mu: f64, epsilon: f64) -> Result<f64, ParamError> {
    positive("mu", mu)?;
    if !epsilon.is_finite() {
        return Err(ParamError::new("epsilon", epsilon, "a finite number"));
    }
    let a = log_norm_cdf(mu / 2.0 - epsilon / mu);
    let b = epsilon + log_norm_cdf(-mu / 2.0 - epsilon / mu);
    // delta = e^a (1 - e^(b - a)), b < a always.
    Ok(a + (-(b - a).min(0.0).exp_m1()).ln())
}

/// $\delta(\epsilon)$.
pub fn delta(mu: f64, epsilon: f64) -> Result<f64, ParamError> {
    log_delta(mu, epsilon).map(f64::exp)
}

/// The smallest $\epsilon\ge0$ with $\delta(\epsilon)\le\delta$ (bisection to full precision).
pub fn epsilon(mu: f64, delta: f64) -> Result<f64, ParamError> {
    check_delta(delta)?;
    let target = delta.ln();
    if log_delta(mu, 0.0)? <= target {
        return Ok(0.0);
    }
    let mut hi = 1.0;
    while log_delta(mu, hi)? > target {
        hi *= 2.0;
        if hi > 1e12 {
            return Err(ParamError::new(
                "delta",
                delta,
                format!("a delta reached at an epsilon below 1e12 (mu = {mu:e} needs more)"),
            ));
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if log_delta(mu, mid)? > target {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(hi)
}

/// The largest $\mu$ whose profile satisfies $\delta(\epsilon)\le\delta$ (bisection on
/// $\ln\mu$; $\delta(\epsilon)$ increases with $\mu$).
pub fn mu(epsilon: f64, delta: f64) -> Result<f64, ParamError> {
    crate::error::non_negative("epsilon", epsilon)?;
    check_delta(delta)?;
    let target = delta.ln();
    let (mut lo, mut hi) = (1e-12_f64, 1.0_f64);
    while log_delta(hi, epsilon)? <= target {
        hi *= 2.0;
        if hi > 1e12 {
            return Err(ParamError::new("delta", delta, "a delta below 1"));
        }
    }
    if log_delta(lo, epsilon)? > target {
        return Err(ParamError::new(
            "delta",
            delta,
            "a delta reachable with mu >= 1e-12",
        ));
    }
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if mid <= lo || mid >= hi {
            break;
        }
        if log_delta(mid, epsilon)? <= target {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// ACCOUNTING.md public reference values.
    #[test]
    fn reference_values() {
        for (mu, eps, d) in [
            (1.0, 0.0, 0.38292492),
            (1.0, 1.0, 0.12693674),
            (1.0, 2.0, 0.02092364),
            (3.0, 1.0, 0.78760074),
        ] {
            assert_relative_eq!(delta(mu, eps).unwrap(), d, max_relative = 5e-7); // 7 digits given
        }
        assert_relative_eq!(
            epsilon(1.0, 1e-5).unwrap(),
            4.3771780957,
            max_relative = 1e-9
        );
        // ACCOUNTING.md labels this "mu = 0.2 (sigma = 50, T = 10, q = 1)"; the value belongs to
        // mu = sqrt(T)/sigma = 0.0632 (mu = 0.2 gives 0.7255217509; mpmath, THEOREMS_NOTES.md).
        assert_relative_eq!(
            epsilon(10f64.sqrt() / 50.0, 1e-5).unwrap(),
            0.2068046256,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            epsilon(0.2, 1e-5).unwrap(),
            0.7255217508577958,
            max_relative = 1e-9
        );
    }

    /// Far in the tail the exponent stays right (references: mpmath, mp.dps = 80).
    #[test]
    fn tiny_deltas_keep_their_exponent() {
        assert_relative_eq!(
            log_delta(1.0, 30.0).unwrap(),
            -442.84937808230364,
            max_relative = 1e-11
        );
        assert_relative_eq!(
            log_delta(0.5, 150.0).unwrap(),
            -44938.05093330072,
            max_relative = 1e-11
        );
        assert_eq!(delta(0.5, 150.0).unwrap(), 0.0); // underflows as a number, not as a logarithm
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(delta(0.0, 1.0).unwrap_err().name, "mu");
        assert_eq!(delta(1.0, f64::NAN).unwrap_err().name, "epsilon");
        assert_eq!(epsilon(1.0, 0.0).unwrap_err().name, "delta");
    }
}
