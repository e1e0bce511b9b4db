//! Single-pass Algorithm 1 of Ma, Marinov & Zhang (2022), seed 000: Corollary 3, Theorem 1,
//! Proposition 4 and Lemma 1 (THEOREMS.md §2). Fixed step $\eta$, $\lambda_t=1/(t\eta)$
//! ($c_t=(t-1)/t$), batch sizes growing towards the end.

use crate::error::{ParamError, at_least, open_interval, positive};

/// The batch-size readings of THEOREMS.md §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchSizes {
    /// `bs-ceil` (Assumption 3, Cor. 3, Prop. 4): $\lceil\sqrt{T/(2(T-t+1))}\rceil$.
    Ceil,
    /// `bs-real` (Theorem 1): $\sqrt{T/(2(T-t+1))}$.
    Real,
    /// `bs-proof` (Prop. 4's proof): $\sqrt{T/(T-t+1)}$.
    Proof,
}

impl BatchSizes {
    /// $|\mathcal M_t|$ for $1\le t\le T$ (real-valued readings are not rounded).
    pub fn size(self, t: u64, horizon: u64) -> f64 {
        let (t, big) = (t as f64, horizon as f64);
        match self {
            BatchSizes::Ceil => (big / (2.0 * (big - t + 1.0))).sqrt().ceil(),
            BatchSizes::Real => (big / (2.0 * (big - t + 1.0))).sqrt(),
            BatchSizes::Proof => (big / (big - t + 1.0)).sqrt(),
        }
    }
}

/// `cor3.samples` / `thm1.samples`: the number of samples the single pass draws,
/// $\sum_{t=1}^{T-1}|\mathcal M_t|$ (`count-loop`, loop $t=2..T$ uses $\mathcal M_{t-1}$) or
/// $\sum_{t=1}^T|\mathcal M_t|$ (`count-all`); real-valued readings are summed unrounded (a
/// lower bound on any integer implementation).
pub fn samples_used(sizes: BatchSizes, horizon: u64, all: bool) -> Result<f64, ParamError> {
    at_least("T", horizon, 1)?;
    let last = if all { horizon } else { horizon - 1 };
    Ok((1..=last).map(|t| sizes.size(t, horizon)).sum())
}

/// `prop4.factor`: $F_T=\max_\tau(|\mathcal M_\tau|^2H_{\tau:T})^{-1}$ with $H_{\tau:T}=\sum_{t=\tau}^T1/t$.
pub fn prop4_factor(sizes: BatchSizes, horizon: u64) -> Result<f64, ParamError> {
    at_least("T", horizon, 1)?;
    let mut tail = 0.0; // H_{tau:T}, accumulated from tau = T down
    let mut worst: f64 = 0.0;
    for tau in (1..=horizon).rev() {
        tail += 1.0 / tau as f64;
        let m = sizes.size(tau, horizon);
        worst = worst.max(1.0 / (m * m * tail));
    }
    Ok(worst)
}

/// Proposition 4's RDP level $2\alpha\eta^2G^2/\beta_0$.
pub fn prop4_rdp(alpha: f64, eta: f64, lipschitz: f64, beta0: f64) -> Result<f64, ParamError> {
    if !(alpha > 1.0 && alpha.is_finite()) {
        return Err(ParamError::new("alpha", alpha, "a finite order > 1"));
    }
    positive("eta", eta)?;
    positive("G", lipschitz)?;
    positive("beta0", beta0)?;
    Ok(2.0 * alpha * eta * eta * lipschitz * lipschitz / beta0)
}

/// The exact worst-case last-iterate shift on P-lin [derived, THEOREMS.md §2]: with the
/// differing sample in $\mathcal M_{t-1}$, $w_T$ and $w'\_T$ are $\mathcal N(\cdot,\beta_0)$ with means
/// $\frac{2G\eta(t-1)}{T|\mathcal M_{t-1}|}$ apart. Returns $\kappa_T=\max_{2\le t\le T}\frac{(t-1)^2}{T^2|\mathcal M_{t-1}|^2}$
/// and its maximiser $t^\ast$, so that the largest shift is $2G\eta\sqrt{\kappa_T}$.
pub fn linear_kappa(sizes: BatchSizes, horizon: u64) -> Result<(f64, u64), ParamError> {
    at_least("T", horizon, 2)?;
    let big = horizon as f64;
    let mut best = (0.0, 2);
    for t in 2..=horizon {
        let m = sizes.size(t - 1, horizon);
        let k = ((t - 1) as f64 / (big * m)).powi(2);
        if k > best.0 {
            best = (k, t);
        }
    }
    Ok(best)
}

/// Theorem 1's parameters [as printed]: $\eta=\eta_0\sqrt{1/(4G^2T)}$ (`eta-proof`; `eta-stmt` is
/// $\eta_0=1$), $\beta_0=\frac{(\epsilon+\ln(1/\delta))\eta_0^2}{2\epsilon^2T}$, $\alpha=1+\ln(1/\delta)/\epsilon$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theorem1 {
    /// Step size $\eta$.
    pub eta: f64,
    /// Start variance $\beta_0$.
    pub beta0: f64,
    /// Rényi order $\alpha$.
    pub alpha: f64,
}

/// Theorem 1's parameters for horizon $T$, Lipschitz constant $G$, $\eta_0$ and $(\epsilon,\delta)$.
pub fn theorem1(
    horizon: u64,
    lipschitz: f64,
    eta0: f64,
    epsilon: f64,
    delta: f64,
) -> Result<Theorem1, ParamError> {
    at_least("T", horizon, 1)?;
    positive("G", lipschitz)?;
    positive("eta0", eta0)?;
    positive("epsilon", epsilon)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    let t = horizon as f64;
    let ln = (1.0 / delta).ln();
    Ok(Theorem1 {
        eta: eta0 * (1.0 / (4.0 * lipschitz * lipschitz * t)).sqrt(),
        beta0: (epsilon + ln) * eta0 * eta0 / (2.0 * epsilon * epsilon * t),
        alpha: 1.0 + ln / epsilon,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn kappa_reference_values() {
        for (t, want, arg) in [
            (100, 0.2601, 52),
            (1000, 0.251001, 502),
            (10_000, 0.25010001, 5002),
        ] {
            let (k, at) = linear_kappa(BatchSizes::Ceil, t).unwrap();
            assert_relative_eq!(k, want, max_relative = 1e-6);
            assert_eq!(at, arg);
        }
        for (t, want, arg) in [
            (100, 0.305252, 68),
            (1000, 0.297186, 668),
            (10_000, 0.296385, 6668),
        ] {
            let (k, at) = linear_kappa(BatchSizes::Real, t).unwrap();
            assert!((k - want).abs() < 2e-6, "T {t}: {k}");
            assert_eq!(at, arg);
        }
    }

    #[test]
    fn theorem1_reference_values() {
        let p = theorem1(1000, 1.0, 1.0, 1.0, 1e-5).unwrap();
        assert_relative_eq!(p.eta, 0.0158113883, max_relative = 1e-9);
        assert_relative_eq!(p.beta0, 6.25646273e-3, max_relative = 1e-8);
        assert_relative_eq!(p.alpha, 12.5129255, max_relative = 1e-8);
        // thm1.rdp holds with equality: 2 alpha eta^2 G^2 / beta0 = eps.
        assert_relative_eq!(
            prop4_rdp(p.alpha, p.eta, 1.0, p.beta0).unwrap(),
            1.0,
            max_relative = 1e-12
        );
    }

    #[test]
    fn samples_and_factor() {
        assert_eq!(samples_used(BatchSizes::Ceil, 1000, true).unwrap(), 1788.0);
        assert_eq!(samples_used(BatchSizes::Ceil, 1000, false).unwrap(), 1765.0);
        let real = samples_used(BatchSizes::Real, 1000, true).unwrap();
        assert!((real - 1381.9).abs() < 0.1, "{real}");
        assert!((prop4_factor(BatchSizes::Proof, 1000).unwrap() - 1.0).abs() < 1e-12);
        assert!(prop4_factor(BatchSizes::Real, 1000).unwrap() > 1.99);
        assert!(linear_kappa(BatchSizes::Ceil, 1).is_err());
    }
}
