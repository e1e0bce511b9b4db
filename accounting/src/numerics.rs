//! Special functions for privacy tails, in log space where it matters.
//!
//! - [`norm_cdf`], [`log_norm_cdf`]: $\Phi$ and $\ln\Phi$; $\ln\Phi(x)$ stays accurate far into
//!   the lower tail ($x=-40$ gives $-804.608\ldots$, where $\Phi$ itself underflows) through
//!   $\ln\Phi(x)=\ln\big(\tfrac12\operatorname{erfcx}(-x/\sqrt2)\big)-x^2/2$.
//! - [`log_add_exp`], [`log_sub_exp`], [`log_sum_exp`], and [`SignedLogSum`] for alternating sums.
//!
//! `statrs`' erf/erfc carry ~1e-10 relative error (RUST_NOTES.md); `libm::erfc` and
//! `errorfunctions`' erfcx are accurate to a few ulps.

use errorfunctions::RealErrorFunctions;
use std::f64::consts::{FRAC_1_SQRT_2, LN_2};

/// Standard normal CDF $\Phi(x)=\tfrac12\operatorname{erfc}(-x/\sqrt2)$.
pub fn norm_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x * FRAC_1_SQRT_2)
}

/// $\ln\Phi(x)$, accurate for every finite $x$.
pub fn log_norm_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 5.0 {
        // Phi(x) = 1 - Q(x), Q tiny: log1p keeps the digits.
        (-0.5 * libm::erfc(x * FRAC_1_SQRT_2)).ln_1p()
    } else if x > -5.0 {
        norm_cdf(x).ln()
    } else if x == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else {
        (-x * FRAC_1_SQRT_2).erfcx().ln() - LN_2 - 0.5 * x * x
    }
}

/// $\ln(e^a+e^b)$.
pub fn log_add_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// $\ln(e^a-e^b)$ for $a\ge b$ ($-\infty$ when $a=b$, NaN when $a<b$).
pub fn log_sub_exp(a: f64, b: f64) -> f64 {
    if b == f64::NEG_INFINITY {
        return a;
    }
    if a < b {
        return f64::NAN;
    }
    if a == b {
        return f64::NEG_INFINITY;
    }
    a + (-(b - a).exp()).ln_1p()
}

pub use dpclaims_empirical::privacy_loss::log_sum_exp;

/// A running sum of signed terms given by their logarithms: positive and negative parts are
/// kept apart (each in log space), so cancellation is visible instead of silent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignedLogSum {
    /// Log of the sum of the positive terms ($-\infty$: none).
    pub log_pos: f64,
    /// Log of the sum of the absolute values of the negative terms.
    pub log_neg: f64,
}

impl Default for SignedLogSum {
    fn default() -> Self {
        Self {
            log_pos: f64::NEG_INFINITY,
            log_neg: f64::NEG_INFINITY,
        }
    }
}

impl SignedLogSum {
    /// Adds $\pm e^{\text{log\\_abs}}$.
    pub fn add(&mut self, log_abs: f64, positive: bool) {
        if positive {
            self.log_pos = log_add_exp(self.log_pos, log_abs);
        } else {
            self.log_neg = log_add_exp(self.log_neg, log_abs);
        }
    }

    /// $\ln$ of the sum, or `None` when the sum is not positive.
    pub fn ln(&self) -> Option<f64> {
        (self.log_pos > self.log_neg).then(|| log_sub_exp(self.log_pos, self.log_neg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Reference values from mpmath (mp.dps = 50): log(ncdf(x)).
    #[test]
    fn log_norm_cdf_reference() {
        for (x, v) in [
            (-40.0, -804.6084420137538),
            (-10.0, -53.23128515051247),
            (-5.0, -15.064998393988725),
            (-1.0, -1.8410216450092635),
            (0.0, -LN_2),
            (3.0, -0.0013508099647481938),
            (10.0, -7.619853024160526e-24),
        ] {
            assert_relative_eq!(log_norm_cdf(x), v, max_relative = 1e-13);
        }
        assert_eq!(log_norm_cdf(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(log_norm_cdf(f64::INFINITY), 0.0);
    }

    #[test]
    fn log_space_sums() {
        assert_relative_eq!(log_add_exp(0.0, 0.0), LN_2, max_relative = 1e-15);
        assert_relative_eq!(log_sub_exp(LN_2, 0.0), 0.0, epsilon = 1e-15);
        assert_relative_eq!(
            log_sum_exp([1.0, 2.0, 3.0]),
            3.40760596444438,
            max_relative = 1e-14
        );
        let mut s = SignedLogSum::default();
        s.add(2f64.ln(), true);
        s.add(0.0, false);
        assert_relative_eq!(s.ln().unwrap(), 0.0, epsilon = 1e-15);
        s.add(1.0, false);
        assert_eq!(s.ln(), None);
    }
}
