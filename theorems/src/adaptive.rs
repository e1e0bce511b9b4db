//! DP GD, DP RMSprop and DP Adam: Zhou, Chen, Hong, Wu, Banerjee (2020), *Private Stochastic
//! Non-Convex Optimization: Adaptive Algorithms and Tighter Generalization Bounds*,
//! arXiv 2006.13501 (seed 002). Our copy lost the displayed formulas; the forms are THEOREMS.md
//! §7 (Theorem 1 and Table 1 recalled, explicit-constant versions derived).
//!
//! Algorithm 1 (DPAGD) adds $b_t\sim\mathcal N(0,\sigma^2I_p)$ to the full-batch mean gradient,
//! whose replace-one sensitivity is $2G/n$ (add/remove: $G/n$).

use crate::error::{ParamError, at_least, open_interval, positive};
use crate::numerics::norm_cdf;
use crate::privacy::{Neighbouring, gaussian};

fn check_epsilon_delta(epsilon: f64, delta: f64) -> Result<(), ParamError> {
    positive("epsilon", epsilon)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    Ok(())
}

/// Theorem 1's noise \[recalled\]: $\sigma=\sqrt{c_2G^2T\ln(1/\delta)}/(n\varepsilon)$.
pub fn theorem1_sigma(
    c2: f64,
    lipschitz: f64,
    steps: u64,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64, ParamError> {
    positive("c2", c2)?;
    positive("G", lipschitz)?;
    at_least("T", steps, 1)?;
    at_least("n", n, 1)?;
    check_epsilon_delta(epsilon, delta)?;
    Ok(
        (c2 * lipschitz * lipschitz * steps as f64 * (1.0 / delta).ln()).sqrt()
            / (n as f64 * epsilon),
    )
}

/// The exact GDP parameter of $T$ full-batch Gaussian steps [derived, Dong–Roth–Su]:
/// $\mu=\sqrt T\thinspace\Delta/\sigma$ with $\Delta=2G/n$ (replace-one) or $G/n$ (add/remove); $\phi_t$,
/// $\psi_t$ and the step are post-processing.
pub fn gdp_mu(
    steps: u64,
    lipschitz: f64,
    n: u64,
    sigma: f64,
    neighbouring: Neighbouring,
) -> Result<f64, ParamError> {
    at_least("T", steps, 1)?;
    positive("G", lipschitz)?;
    at_least("n", n, 1)?;
    positive("sigma", sigma)?;
    let sensitivity = match neighbouring {
        Neighbouring::ReplaceOne => 2.0 * lipschitz / n as f64,
        Neighbouring::AddRemove => lipschitz / n as f64,
    };
    Ok((steps as f64).sqrt() * sensitivity / sigma)
}

/// The smallest $c_2$ for which Theorem 1's $\sigma$ is $(\varepsilon,\delta)$-DP \[derived\]: with
/// that $\sigma$, $\mu=2\varepsilon/\sqrt{c_2\ln(1/\delta)}$ (replace-one), independent of $T,G,n$,
/// so $c_2^{\min}=4\varepsilon^2/(\mu^{\ast2}\ln(1/\delta))$ with $\mu^\ast$ the largest $\mu$ meeting
/// $(\varepsilon,\delta)$; a quarter of that under add/remove.
pub fn c2_min(epsilon: f64, delta: f64, neighbouring: Neighbouring) -> Result<f64, ParamError> {
    check_epsilon_delta(epsilon, delta)?;
    let mu = gaussian::mu(epsilon, delta)?;
    let replace_one = 4.0 * epsilon * epsilon / (mu * mu * (1.0 / delta).ln());
    Ok(match neighbouring {
        Neighbouring::ReplaceOne => replace_one,
        Neighbouring::AddRemove => replace_one / 4.0,
    })
}

/// The noise-variance saving of exact (moments-accountant / GDP) composition over advanced
/// composition [calculator for the prose of `thm1.ma_saving`]: for $T$ Gaussian steps of
/// sensitivity $\Delta$ meeting $(\varepsilon,\delta)$ overall,
/// - advanced composition (Dwork–Rothblum–Vadhan) with $\delta'=\delta/2$, $\delta_0=\delta/(2T)$:
///   the largest $\varepsilon_0$ with $\varepsilon_0\sqrt{2T\ln(1/\delta')}+T\varepsilon_0(e^{\varepsilon_0}-1)\le\varepsilon$,
///   each step exactly $(\varepsilon_0,\delta_0)$-DP: $\sigma_{\rm adv}=\Delta/\mu^\ast(\varepsilon_0,\delta_0)$;
/// - exact composition: $\sigma_{\rm GDP}=\Delta\sqrt T/\mu^\ast(\varepsilon,\delta)$.
///
/// Returns $\sigma_{\rm adv}^2/\sigma_{\rm GDP}^2$ (independent of $\Delta$).
pub fn ma_saving(epsilon: f64, delta: f64, steps: u64) -> Result<f64, ParamError> {
    check_epsilon_delta(epsilon, delta)?;
    at_least("T", steps, 1)?;
    let t = steps as f64;
    let spent = |e0: f64| e0 * (2.0 * t * (2.0 / delta).ln()).sqrt() + t * e0 * e0.exp_m1();
    let (mut lo, mut hi) = (0.0, epsilon);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if spent(mid) <= epsilon {
            lo = mid
        } else {
            hi = mid
        }
    }
    let mu0 = gaussian::mu(lo, delta / (2.0 * t))?;
    let mu = gaussian::mu(epsilon, delta)?;
    Ok(mu * mu / (t * mu0 * mu0))
}

/// Theorem 2's transfer theorem, Dwork et al. (STOC 2015) form \[recalled\]: an
/// $(\varepsilon,\delta)$-DP algorithm choosing a $\[0,1\]$-valued query on $n\ge2\ln(8/\delta)/\varepsilon^2$
/// samples has population and sample means within $13\varepsilon$ except with probability
/// $\frac{2\delta}\varepsilon\ln\frac2\varepsilon$. Returns (gap, failure probability).
pub fn transfer_dwork(epsilon: f64, delta: f64, n: u64) -> Result<(f64, f64), ParamError> {
    open_interval("epsilon", epsilon, 0.0, 2.0)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    let needed = 2.0 * (8.0 / delta).ln() / (epsilon * epsilon);
    if (n as f64) < needed {
        return Err(ParamError::new(
            "n",
            n,
            format!("n >= 2 ln(8/delta)/eps^2 = {}", needed.ceil()),
        ));
    }
    Ok((13.0 * epsilon, 2.0 * delta / epsilon * (2.0 / epsilon).ln()))
}

/// Theorem 2's transfer theorem, Jung et al. (2020) form \[recalled\]: $(\varepsilon,\delta)$-DP
/// and $(\alpha,\beta)$-sample-accurate on $\[0,1\]$ queries imply
/// $(\alpha+e^\varepsilon-1+c+2d,\ \delta/c+\beta/d)$-distributional accuracy for all $c,d>0$.
/// Returns (accuracy, failure probability).
pub fn transfer_jung(
    epsilon: f64,
    delta: f64,
    alpha: f64,
    beta: f64,
    c: f64,
    d: f64,
) -> Result<(f64, f64), ParamError> {
    check_epsilon_delta(epsilon, delta)?;
    crate::error::non_negative("alpha", alpha)?;
    open_interval("beta", beta, 0.0, 1.0)?;
    positive("c", c)?;
    positive("d", d)?;
    Ok((alpha + epsilon.exp_m1() + c + 2.0 * d, delta / c + beta / d))
}

/// Theorem 3's generalisation step [derived `thm3.components` (2)]: every coordinate of every
/// iterate's gradient, rescaled to $\[0,1\]$ by $(z+G)/(2G)$, is one query, so with a union over
/// $pT$ queries $\max_t\Vert\hat g_t-g_t\Vert\le26G\sqrt p\thinspace\varepsilon$ except with probability
/// $pT\frac{2\delta}\varepsilon\ln\frac2\varepsilon$. Returns (bound, failure probability).
pub fn gradient_generalisation(
    lipschitz: f64,
    dim: u64,
    steps: u64,
    epsilon: f64,
    delta: f64,
    n: u64,
) -> Result<(f64, f64), ParamError> {
    positive("G", lipschitz)?;
    at_least("p", dim, 1)?;
    at_least("T", steps, 1)?;
    let (gap, fail) = transfer_dwork(epsilon, delta, n)?;
    Ok((
        2.0 * lipschitz * (dim as f64).sqrt() * gap,
        (dim * steps) as f64 * fail,
    ))
}

/// Theorem 4, derived [THEOREMS.md `thm4.derived`]: for DP GD with $\eta\le1/L$,
/// $\frac1T\sum_t\mathbb E\Vert\nabla\hat f(w_t)\Vert^2\le\frac{2\Delta_f}{\eta T}+L\eta p\sigma^2$.
pub fn theorem4_bound(
    delta_f: f64,
    eta: f64,
    steps: u64,
    smoothness: f64,
    dim: u64,
    sigma: f64,
) -> Result<f64, ParamError> {
    positive("Delta_f", delta_f)?;
    positive("L", smoothness)?;
    if !(eta > 0.0 && eta <= 1.0 / smoothness) {
        return Err(ParamError::new(
            "eta",
            eta,
            format!("0 < eta <= 1/L = {}", 1.0 / smoothness),
        ));
    }
    at_least("T", steps, 1)?;
    at_least("p", dim, 1)?;
    crate::error::non_negative("sigma", sigma)?;
    Ok(2.0 * delta_f / (eta * steps as f64) + smoothness * eta * dim as f64 * sigma * sigma)
}

/// Theorem 4's horizon and rate at $\eta=1/L$ with Theorem 1's $\sigma$ \[derived\]:
/// $T^\ast=n\varepsilon\sqrt{2L\Delta_f/(c_2pG^2\ln(1/\delta))}$ and the optimum
/// $2G\sqrt{2c_2L\Delta_fp\ln(1/\delta)}/(n\varepsilon)$ (the printed rate $\sqrt p/(n\varepsilon)$ on
/// the squared norm). Returns $(T^\ast,\text{optimum})$.
#[allow(clippy::too_many_arguments)]
pub fn theorem4_horizon(
    delta_f: f64,
    smoothness: f64,
    dim: u64,
    lipschitz: f64,
    c2: f64,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<(f64, f64), ParamError> {
    positive("Delta_f", delta_f)?;
    positive("L", smoothness)?;
    at_least("p", dim, 1)?;
    positive("G", lipschitz)?;
    positive("c2", c2)?;
    at_least("n", n, 1)?;
    check_epsilon_delta(epsilon, delta)?;
    let (p, g2, ln) = (dim as f64, lipschitz * lipschitz, (1.0 / delta).ln());
    let ne = n as f64 * epsilon;
    let t_star = ne * (2.0 * smoothness * delta_f / (c2 * p * g2 * ln)).sqrt();
    let optimum = 2.0 * lipschitz * (2.0 * c2 * smoothness * delta_f * p * ln).sqrt() / ne;
    Ok((t_star, optimum))
}

/// Parameters of DP RMSprop for [`theorem5_bound`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RmspropParams {
    /// Step size $\eta$.
    pub eta: f64,
    /// Number of steps $T$.
    pub steps: u64,
    /// $\beta_2$.
    pub beta2: f64,
    /// $\nu>0$.
    pub nu: f64,
    /// The clip $\lambda$ of the second-moment estimate.
    pub lambda: f64,
}

/// Theorem 5, derived [THEOREMS.md `thm5.derived`] for DP RMSprop with $\nu>0$ (either clip
/// variant): with $d_{\min}=1/(\sqrt\lambda+\nu)$, $d_{\max}=1/\nu$,
/// $$\frac1T\sum_t\mathbb E\Vert\nabla\hat f(w_t)\Vert^2\le\frac{\Delta_f}{\eta d_{\min}T}+\frac{L\eta d_{\max}^2(G^2+p\sigma^2)}{2d_{\min}}+\frac{\sqrt pG\sigma^2\sqrt{1-\beta_2}}{\nu^2d_{\min}}.$$
/// The last term is the Stein correction for the dependence of the step on the noise.
pub fn theorem5_bound(
    delta_f: f64,
    smoothness: f64,
    lipschitz: f64,
    dim: u64,
    sigma: f64,
    r: RmspropParams,
) -> Result<f64, ParamError> {
    positive("Delta_f", delta_f)?;
    positive("L", smoothness)?;
    positive("G", lipschitz)?;
    at_least("p", dim, 1)?;
    crate::error::non_negative("sigma", sigma)?;
    positive("eta", r.eta)?;
    at_least("T", r.steps, 1)?;
    open_interval("beta2", r.beta2, 0.0, 1.0)?;
    positive("nu", r.nu)?;
    positive("lambda", r.lambda)?;
    let d_min = 1.0 / (r.lambda.sqrt() + r.nu);
    let d_max = 1.0 / r.nu;
    let p = dim as f64;
    let s2 = sigma * sigma;
    Ok(delta_f / (r.eta * d_min * r.steps as f64)
        + smoothness * r.eta * d_max * d_max * (lipschitz * lipschitz + p * s2) / (2.0 * d_min)
        + p.sqrt() * lipschitz * s2 * (1.0 - r.beta2).sqrt() / (r.nu * r.nu * d_min))
}

/// Theorem 3's first component \[derived\]: with probability at least $1-\zeta$,
/// $\max_{t\le T}\Vert b_t\Vert\le\sigma(\sqrt p+\sqrt{2\ln(T/\zeta)})$ (Gaussian norm concentration, union over $T$).
pub fn noise_norm_bound(sigma: f64, dim: u64, steps: u64, zeta: f64) -> Result<f64, ParamError> {
    positive("sigma", sigma)?;
    at_least("p", dim, 1)?;
    at_least("T", steps, 1)?;
    open_interval("zeta", zeta, 0.0, 1.0)?;
    Ok(sigma * ((dim as f64).sqrt() + (2.0 * (steps as f64 / zeta).ln()).sqrt()))
}

/// Appendix D's lower bound on $\mathbb E\sup_w\Vert\nabla\hat f(w)-\nabla f(w)\Vert$ on P-tanh
/// [derived, Gaussian approximation]: $G(2\Phi(\sqrt{p/(n-1)})-1)\approx0.798G\sqrt{p/n}$.
pub fn appendix_d_lower_bound(dim: u64, n: u64, lipschitz: f64) -> Result<f64, ParamError> {
    at_least("p", dim, 1)?;
    at_least("n", n, 2)?;
    positive("G", lipschitz)?;
    Ok(lipschitz * (2.0 * norm_cdf((dim as f64 / (n as f64 - 1.0)).sqrt()) - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §7 reference table of $c_2^{\min}$ (replace-one).
    #[test]
    fn c2_min_reference_table() {
        let table = [
            (1e-3, [1.7540, 3.0767, 3.8385, 4.8380, 6.2766]),
            (1e-5, [3.2851, 4.2949, 4.8355, 5.5246, 6.4979]),
            (1e-8, [4.5823, 5.2815, 5.6487, 6.1131, 6.7668]),
        ];
        for (delta, row) in table {
            for (eps, want) in [0.1, 0.5, 1.0, 2.0, 4.0].into_iter().zip(row) {
                let got = c2_min(eps, delta, Neighbouring::ReplaceOne).unwrap();
                assert!(
                    (got - want).abs() < 6e-5,
                    "eps {eps} delta {delta}: {got} vs {want}"
                );
                let ar = c2_min(eps, delta, Neighbouring::AddRemove).unwrap();
                assert_relative_eq!(ar, got / 4.0, max_relative = 1e-12);
            }
        }
        // With Theorem 1's sigma at c2 = c2_min the GDP parameter meets (eps, delta) exactly.
        let c2 = c2_min(1.0, 1e-5, Neighbouring::ReplaceOne).unwrap();
        let sigma = theorem1_sigma(c2, 0.7, 50, 1000, 1.0, 1e-5).unwrap();
        let mu = gdp_mu(50, 0.7, 1000, sigma, Neighbouring::ReplaceOne).unwrap();
        assert_relative_eq!(gaussian::delta(mu, 1.0).unwrap(), 1e-5, max_relative = 1e-8);
    }

    /// The saving is about 1.8 ln(T/delta) (an independent float64 prototype gave 1.770 ln(T/delta)
    /// at eps = 1, delta = 1e-5, T = 10^4 and 1.855 at T = 10).
    #[test]
    fn ma_saving_is_of_order_ln_t_over_delta() {
        for (t, want) in [(10u64, 1.855), (10_000, 1.770)] {
            let r = ma_saving(1.0, 1e-5, t).unwrap() / (t as f64 / 1e-5).ln();
            assert!((r - want).abs() < 2e-3, "T {t}: {r}");
        }
        assert!(ma_saving(1.0, 1e-5, 0).is_err());
    }

    #[test]
    fn transfer_theorems() {
        // THEOREMS.md E2-6: n >= 2 ln(8/delta)/eps^2 = 2 ln(8e6)/0.0025 = 12715.96 at eps 0.05, delta 1e-6.
        assert_eq!(transfer_dwork(0.05, 1e-6, 12_715).unwrap_err().name, "n");
        let (gap, fail) = transfer_dwork(0.05, 1e-6, 12_716).unwrap();
        assert_relative_eq!(gap, 0.65, max_relative = 1e-12);
        assert_relative_eq!(fail, 4e-5 * 40f64.ln(), max_relative = 1e-12);
        let (acc, fail) = transfer_jung(0.1, 1e-6, 0.01, 0.01, 0.05, 0.1).unwrap();
        assert_relative_eq!(
            acc,
            0.01 + 0.1f64.exp_m1() + 0.05 + 0.2,
            max_relative = 1e-12
        );
        assert_relative_eq!(fail, 2e-5 + 0.1, max_relative = 1e-12);
        // Theorem 3's chain at p = 20 is vacuous (26 G sqrt(p) eps > G) unless eps < 0.0086.
        let (bound, _) = gradient_generalisation(1.0, 20, 10, 0.05, 1e-5, 20_000).unwrap();
        assert!(bound > 1.0);
        assert!(26.0 * 20f64.sqrt() * 0.0086 < 1.0 && 26.0 * 20f64.sqrt() * 0.0087 > 1.0);
    }

    #[test]
    fn theorem4_reference_values() {
        let g = 0.5_f64.sqrt();
        let (t_star, optimum) = theorem4_horizon(1.0, 1.0, 20, g, 8.0, 500, 1.0, 1e-5).unwrap();
        assert_relative_eq!(t_star, 23.2995, max_relative = 1e-5);
        assert_relative_eq!(optimum, 0.171677, max_relative = 1e-5);
        let sigma = theorem1_sigma(8.0, g, 23, 500, 1.0, 1e-5).unwrap();
        assert_relative_eq!(sigma, 0.0650904, max_relative = 1e-5);
        let bound = theorem4_bound(1.0, 1.0, 23, 1.0, 20, sigma).unwrap();
        assert_relative_eq!(bound, 0.171692, max_relative = 1e-5);
        assert!(theorem4_bound(1.0, 1.5, 23, 1.0, 20, sigma).is_err());
    }

    #[test]
    fn theorem5_reference_value() {
        let r = RmspropParams {
            eta: 0.05,
            steps: 10,
            beta2: 0.9,
            nu: 0.1,
            lambda: 1.0,
        };
        let got = theorem5_bound(1.0, 1.0, 0.5_f64.sqrt(), 20, 0.05, r).unwrap();
        assert_relative_eq!(got, 3.98750, max_relative = 1e-5);
        assert!(theorem5_bound(1.0, 1.0, 0.7, 20, 0.05, RmspropParams { nu: 0.0, ..r }).is_err());
    }

    #[test]
    fn appendix_d_reference_table() {
        for ((p, n), want) in [(10, 1000), (50, 1000), (100, 1000), (200, 2000), (20, 200)]
            .into_iter()
            .zip([0.079695, 0.177024, 0.248290, 0.248230, 0.248773])
        {
            let got = appendix_d_lower_bound(p, n, 1.0).unwrap();
            assert!((got - want).abs() < 1e-6, "({p},{n}): {got} vs {want}");
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(
            theorem1_sigma(8.0, 1.0, 10, 0, 1.0, 1e-5).unwrap_err().name,
            "n"
        );
        assert_eq!(
            theorem1_sigma(8.0, 1.0, 10, 10, 1.0, 1.0).unwrap_err().name,
            "delta"
        );
        assert_eq!(
            c2_min(f64::NAN, 1e-5, Neighbouring::AddRemove)
                .unwrap_err()
                .name,
            "epsilon"
        );
        assert_eq!(noise_norm_bound(1.0, 10, 10, 0.0).unwrap_err().name, "zeta");
        assert_eq!(appendix_d_lower_bound(10, 1, 1.0).unwrap_err().name, "n");
    }
}
