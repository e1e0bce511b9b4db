//! The dominating pair of one subsampled-Gaussian step, whose privacy loss is monotone in the
//! output: in closed form, the masses on either side of a loss threshold and the exact privacy
//! profile, all in log space with bounds on their rounding. Which pair stands for which
//! mechanism is decided in [`super::dominating`]; the PLD accountant ([`super::pld`])
//! discretises and composes it.

use crate::numerics::{log_add_exp, log_norm_cdf, log_sub_exp};
use std::f64::consts::LN_2;

/// Unit round-off of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// A one-step dominating pair with a monotone privacy loss. In each, $q\in(0,1]$ is the weight
/// of the shifted component and $\sigma>0$ the noise in units of the shift; write
/// $\mathcal N_m=\mathcal N(m,\sigma^2)$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pair {
    /// $P=(1-q)\mathcal N_0+q\mathcal N_1$ against $Q=\mathcal N_0$.
    #[allow(missing_docs)]
    Remove { q: f64, sigma: f64 },
    /// The remove pair reversed: $P=\mathcal N_0$ against $Q=(1-q)\mathcal N_0+q\mathcal N_1$.
    #[allow(missing_docs)]
    Add { q: f64, sigma: f64 },
    /// $P=(1-q)\mathcal N_0+q\mathcal N_1$ against $Q=(1-q)\mathcal N_0+q\mathcal N_{-1}$
    /// (symmetric).
    #[allow(missing_docs)]
    ReplaceOne { q: f64, sigma: f64 },
}

/// $\ln(e^a-c)$ for $e^a>c\ge0$, without overflow ($c=0$ at $q=1$: $e^{-a}$ overflowed past
/// $-a\approx709$ and $0\cdot\infty$ made the add pair's threshold NaN).
fn ln_exp_minus(a: f64, c: f64) -> f64 {
    if c == 0.0 {
        a
    } else {
        a + (-c * (-a).exp()).ln_1p()
    }
}

/// $\ln(e^\ell-1)$ for $\ell\ge0$ ($-\infty$ at 0), without overflow.
fn ln_expm1(l: f64) -> f64 {
    if l > 1.0 {
        l + (-(-l).exp()).ln_1p()
    } else {
        l.exp_m1().ln()
    }
}

/// A bound on the absolute error of a computed mass's logarithm $m$ ([`Pair::ln_masses`]):
/// two $\ln\Phi$ of [`LN_PHI_ULPS`] ulps of $1+|m|$ each, and the mixture's sum.
pub(crate) fn ln_mass_error(m: f64) -> f64 {
    if m == f64::NEG_INFINITY {
        0.0 // an exact zero (beyond the loss's range)
    } else {
        2.0 * LN_PHI_ULPS * UNIT * (2.0 + m.abs())
    }
}

/// $\ln(e^a-e^b)$ of two computed masses' logarithms and a bound on its error: the inputs'
/// errors $\eta_a+\eta_b$ ([`ln_mass_error`]) amplified by $e^{a}/(e^a-e^b)$, plus rounding.
/// $-\infty$ where rounding put $b$ at or above $a$ (an empty cell).
pub(crate) fn ln_difference(a: f64, b: f64) -> (f64, f64) {
    let d = log_sub_exp(a, b);
    if d.is_nan() || d == f64::NEG_INFINITY {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let amplified = (ln_mass_error(a) + ln_mass_error(b)) * (a - d).exp();
    (d, amplified + 4.0 * UNIT * (1.0 + d.abs()))
}

/// $\ln\big((1-q)\Phi(z_0)+q\Phi(z_1)\big)$, a mixture's CDF (or tail) in log space.
fn ln_mixture(q: f64, z0: f64, z1: f64) -> f64 {
    log_add_exp((-q).ln_1p() + log_norm_cdf(z0), q.ln() + log_norm_cdf(z1))
}

/// Relative error of one computed $\ln\Phi$ (a few ulps of `libm::erfc` and `erfcx`, plus the
/// $x^2/2$ and logarithm roundings), as an absolute error on the logarithm:
/// $|\widehat{\ln\Phi}-\ln\Phi|\le$ `LN_PHI_ULPS`$\cdot u\cdot(1+|\ln\Phi|)$.
const LN_PHI_ULPS: f64 = 32.0;

impl Pair {
    /// The same pair in the other order, $(Q,P)$ (the replace-one pair is symmetric).
    pub fn reversed(&self) -> Pair {
        match *self {
            Pair::Remove { q, sigma } => Pair::Add { q, sigma },
            Pair::Add { q, sigma } => Pair::Remove { q, sigma },
            Pair::ReplaceOne { .. } => *self,
        }
    }

    /// The output $x$ at which the loss crosses $\ell$ (`None`: $L>\ell$ everywhere for
    /// remove, nowhere for add). Every branch is in log space: finite for every finite $\ell$
    /// (a threshold of $\pm\infty$ or NaN used to read as an empty tail past $\ell\approx355$).
    fn threshold(&self, l: f64) -> Option<f64> {
        match *self {
            // L = ln(1 - q + q e^{(2x-1)/(2 s^2)}) increasing in x; L > l iff x > x*.
            Pair::Remove { q, sigma } => (l > (-q).ln_1p())
                .then(|| sigma * sigma * (ln_exp_minus(l, 1.0 - q) - q.ln()) + 0.5),
            // P = N(0, s^2), L = -ln(1 - q + q e^{(2x-1)/(2 s^2)}) decreasing; L > l iff x < x*.
            Pair::Add { q, sigma } => (-l > (-q).ln_1p())
                .then(|| sigma * sigma * (ln_exp_minus(-l, 1.0 - q) - q.ln()) + 0.5),
            Pair::ReplaceOne { .. } => Some(self.replace_one_inverse(l)),
        }
    }

    /// $\ln$ of $(P(L\le\ell), P(L>\ell), Q(L\le\ell), Q(L>\ell))$, each from its own normal
    /// CDFs in log space: no $1-x$ cancellation, no underflow (the $Q$ tail past a loss of a few
    /// hundred is far below the smallest double; its logarithm is not).
    pub fn ln_masses(&self, l: f64) -> [f64; 4] {
        let (ninf, zero) = (f64::NEG_INFINITY, 0.0);
        match (*self, self.threshold(l)) {
            (Pair::Remove { .. }, None) => [ninf, zero, ninf, zero],
            (Pair::Add { .. }, None) => [zero, ninf, zero, ninf],
            (Pair::Remove { q, sigma }, Some(x)) => [
                ln_mixture(q, x / sigma, (x - 1.0) / sigma),
                ln_mixture(q, -x / sigma, (1.0 - x) / sigma),
                log_norm_cdf(x / sigma),
                log_norm_cdf(-x / sigma),
            ],
            // L > l iff x < x*: P = N(0) below x*, Q the mixture.
            (Pair::Add { q, sigma }, Some(x)) => [
                log_norm_cdf(-x / sigma),
                log_norm_cdf(x / sigma),
                ln_mixture(q, -x / sigma, (1.0 - x) / sigma),
                ln_mixture(q, x / sigma, (x - 1.0) / sigma),
            ],
            (Pair::ReplaceOne { q, sigma }, Some(x)) => [
                ln_mixture(q, x / sigma, (x - 1.0) / sigma),
                ln_mixture(q, -x / sigma, (1.0 - x) / sigma),
                ln_mixture(q, x / sigma, (x + 1.0) / sigma),
                ln_mixture(q, -x / sigma, (-1.0 - x) / sigma),
            ],
            (Pair::ReplaceOne { .. }, None) => unreachable!("replace-one always has a threshold"),
        }
    }

    /// $(P(L\le\ell), P(L>\ell), Q(L\le\ell), Q(L>\ell))$ ([`Pair::ln_masses`] exponentiated;
    /// a mass below the smallest double reads 0).
    pub fn masses(&self, l: f64) -> [f64; 4] {
        self.ln_masses(l).map(f64::exp)
    }

    /// $(\ln P(L>\ell), \ln Q(L>\ell))$ with the fewest normal CDFs (two for add/remove): the
    /// same values as [`Pair::ln_masses`]'s second and fourth.
    fn ln_upper_tails(&self, l: f64) -> (f64, f64) {
        match (*self, self.threshold(l)) {
            (Pair::Remove { q, sigma }, Some(x)) => {
                let q_gt = log_norm_cdf(-x / sigma);
                let p_gt = log_add_exp(
                    (-q).ln_1p() + q_gt,
                    q.ln() + log_norm_cdf((1.0 - x) / sigma),
                );
                (p_gt, q_gt)
            }
            (Pair::Add { q, sigma }, Some(x)) => {
                let p_gt = log_norm_cdf(x / sigma);
                let q_gt = log_add_exp(
                    (-q).ln_1p() + p_gt,
                    q.ln() + log_norm_cdf((x - 1.0) / sigma),
                );
                (p_gt, q_gt)
            }
            _ => {
                let [_, p_gt, _, q_gt] = self.ln_masses(l);
                (p_gt, q_gt)
            }
        }
    }

    /// $(P(L\le\ell), P(L>\ell))$.
    pub fn split(&self, l: f64) -> (f64, f64) {
        let [p_le, p_gt, _, _] = self.masses(l);
        (p_le, p_gt)
    }

    /// An upper bound on the exact one-step privacy profile
    /// $\delta(\ell)=P(L>\ell)-e^\ell Q(L>\ell)=P(L>\ell)\thinspace(1-e^{r})$,
    /// $r=\ell+\ln Q(L>\ell)-\ln P(L>\ell)\le0$, computed from the tails' logarithms (so
    /// neither $e^\ell$ nor a tail over- or underflows), plus the floating-point error of the
    /// difference: $P(L>\ell)\cdot|\Delta r|$ with $|\Delta r|$ bounded by the error of the two
    /// $\ln\Phi$ (each `LN_PHI_ULPS` ulps of $1+|\ln\Phi|$ relative, doubled for the mixtures)
    /// and the roundings of the sum.
    pub fn profile(&self, l: f64) -> f64 {
        let (p_gt, q_gt) = self.ln_upper_tails(l);
        if p_gt == f64::NEG_INFINITY {
            return 0.0;
        }
        let r = (l + q_gt - p_gt).min(0.0);
        let error = ln_mass_error(p_gt) + ln_mass_error(q_gt) + 4.0 * UNIT * l.abs();
        let p = p_gt.exp();
        // At most P's tail, itself known to within its error bound.
        (p * -r.exp_m1() + p * error).min(p * ln_mass_error(p_gt).exp())
    }

    /// The $x$ with $L(x)=\ell$ for the replace-one pair, in closed form and in log space: with
    /// $u=e^{x/\sigma^2}$, $c=qe^{-1/(2\sigma^2)}$, $B=(1-q)(e^\ell-1)$, $u$ is the positive root
    /// of $cu^2-Bu-ce^\ell=0$, $u=\big(B+\sqrt{B^2+4c^2e^\ell}\big)/(2c)$ for $\ell\ge0$: a sum of
    /// positive terms, each kept as its logarithm. The loss is odd ($L(-x)=-L(x)$), so
    /// $x(-\ell)=-x(\ell)$. (The linear-space version overflowed $B^2$ past $\ell\approx355$,
    /// made $0\cdot\infty$ past 709 at $q=1$ and underflowed $4c^2e^\ell$ when $1/\sigma^2>745+\ell$.)
    fn replace_one_inverse(&self, l: f64) -> f64 {
        let Pair::ReplaceOne { q, sigma } = *self else {
            unreachable!("replace-one pair")
        };
        if l < 0.0 {
            return -self.replace_one_inverse(-l);
        }
        let s2 = sigma * sigma;
        let ln_c = q.ln() - 0.5 / s2;
        let ln_b = (-q).ln_1p() + ln_expm1(l);
        let ln_four_c2_el = 2.0 * LN_2 + 2.0 * ln_c + l;
        let ln_root = 0.5 * log_add_exp(2.0 * ln_b, ln_four_c2_el);
        s2 * (log_add_exp(ln_b, ln_root) - LN_2 - ln_c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_tails_are_the_masses_upper_tails() {
        for pair in [
            Pair::Remove {
                q: 0.01,
                sigma: 1.1,
            },
            Pair::Add { q: 0.3, sigma: 0.8 },
            Pair::ReplaceOne { q: 0.1, sigma: 2.0 },
        ] {
            for k in -300..300 {
                let l = k as f64 * 0.01;
                let [_, p_gt, _, q_gt] = pair.ln_masses(l);
                assert_eq!(pair.ln_upper_tails(l), (p_gt, q_gt), "{pair:?} at {l}");
            }
        }
    }
}
