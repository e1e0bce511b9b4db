//! Gradient subspace identification from public data (PDP-SGD): Zhou, Wu & Banerjee (2021),
//! *Bypassing the Ambient Dimension: Private SGD with Gradient Subspace Identification*,
//! arXiv 2007.03813 (seed 003). Our copy is a prose summary; the forms are THEOREMS.md §6's
//! recalled shapes and derived surrogates (S3–S5).

use crate::error::{ParamError, at_least, open_interval, positive};
use crate::privacy::rdp;

/// `thm2.dk` [derived, Davis–Kahan]: $\Vert\hat P-P\Vert_2\le2\Vert M-\Sigma\Vert_2/\alpha$, $\alpha$ the
/// eigengap $\lambda_k(\Sigma)-\lambda_{k+1}(\Sigma)$ (deterministic).
pub fn davis_kahan(perturbation_norm: f64, eigengap: f64) -> Result<f64, ParamError> {
    crate::error::non_negative("||M - Sigma||", perturbation_norm)?;
    positive("eigengap", eigengap)?;
    Ok(2.0 * perturbation_norm / eigengap)
}

/// `thm1.bernstein` [derived, matrix Bernstein at a fixed $w$]:
/// $\Pr[\Vert M-\Sigma\Vert\ge s]\le2p\exp\big(-\frac{ms^2/2}{G^2\Vert\Sigma\Vert+G^2s/3}\big)$, times `points`
/// for a union over data-independent points.
pub fn matrix_bernstein(
    dim: u64,
    m: u64,
    lipschitz: f64,
    sigma_norm: f64,
    s: f64,
    points: u64,
) -> Result<f64, ParamError> {
    at_least("p", dim, 1)?;
    at_least("m", m, 1)?;
    positive("G", lipschitz)?;
    crate::error::non_negative("||Sigma||", sigma_norm)?;
    positive("s", s)?;
    at_least("points", points, 1)?;
    let g2 = lipschitz * lipschitz;
    let exponent = -(m as f64 * s * s / 2.0) / (g2 * sigma_norm + g2 * s / 3.0);
    Ok((points as f64 * 2.0 * dim as f64 * exponent.exp()).min(1.0))
}

/// `thm1` [recalled shape], constant 1: $uG\rho\gamma_2(\mathcal W,d)\sqrt{\ln p}/\sqrt m$, the
/// order of $\sup_{t\le T}\Vert M_t-\Sigma_t\Vert_2$ with probability $1-ce^{-\Omega(u^2)}$.
pub fn theorem1_shape(
    u: f64,
    lipschitz: f64,
    rho: f64,
    gamma2: f64,
    dim: u64,
    m: u64,
) -> Result<f64, ParamError> {
    positive("u", u)?;
    positive("G", lipschitz)?;
    positive("rho", rho)?;
    crate::error::non_negative("gamma_2", gamma2)?;
    at_least("p", dim, 2)?;
    at_least("m", m, 1)?;
    Ok(u * lipschitz * rho * gamma2 * (dim as f64).ln().sqrt() / (m as f64).sqrt())
}

/// `gamma2` [as printed, prose; Talagrand 2014]: for an ellipsoid with axes $e$,
/// $\gamma_2\le c_1w(\mathcal M)\le c_2\Vert e\Vert_2$; returns $\Vert e\Vert_2$ (constants 1). Axes
/// $e_j=j^{-1/2}$ give $\sqrt{H_p}\approx\sqrt{\ln p+0.577}$, i.e. $\gamma_2=O(\sqrt{\log p})$.
pub fn ellipsoid_gamma2_proxy(axes: &[f64]) -> Result<f64, ParamError> {
    if axes.iter().any(|a| !(a.is_finite() && *a >= 0.0)) {
        return Err(ParamError::new(
            "axes",
            format!("{axes:?}"),
            "finite and >= 0",
        ));
    }
    Ok(axes.iter().map(|a| a * a).sum::<f64>().sqrt())
}

/// The radius $s_\beta$ at which the union of [`matrix_bernstein`] over `points` points equals
/// `beta`: the positive root of $\frac{ms^2}2=L(G^2\Vert\Sigma\Vert+G^2s/3)$, $L=\ln(2p\cdot
/// \text{points}/\beta)$; then $\Pr[\max_w\Vert M(w)-\Sigma(w)\Vert\ge s_\beta]\le\beta$.
pub fn matrix_bernstein_radius(
    dim: u64,
    m: u64,
    lipschitz: f64,
    sigma_norm: f64,
    points: u64,
    beta: f64,
) -> Result<f64, ParamError> {
    at_least("p", dim, 1)?;
    at_least("m", m, 1)?;
    positive("G", lipschitz)?;
    crate::error::non_negative("||Sigma||", sigma_norm)?;
    at_least("points", points, 1)?;
    open_interval("beta", beta, 0.0, 1.0)?;
    let l = (2.0 * dim as f64 * points as f64 / beta).ln();
    let g2 = lipschitz * lipschitz;
    let b = l * g2 / 3.0;
    Ok((b + (b * b + 2.0 * m as f64 * l * g2 * sigma_norm).sqrt()) / m as f64)
}

/// `privacy.calib` \[derived\]: the noise multiplier $z=\sigma B/G=q\sqrt{c_2T\ln(1/\delta)}/\varepsilon$, $q=B/n$.
pub fn noise_multiplier(
    c2: f64,
    n: u64,
    batch: u64,
    steps: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64, ParamError> {
    positive("c2", c2)?;
    at_least("n", n, 1)?;
    if !(1..=n).contains(&batch) {
        return Err(ParamError::new(
            "B",
            batch,
            format!("a batch size in [1, n = {n}]"),
        ));
    }
    at_least("T", steps, 1)?;
    positive("epsilon", epsilon)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    let q = batch as f64 / n as f64;
    Ok(q * (c2 * steps as f64 * (1.0 / delta).ln()).sqrt() / epsilon)
}

/// The $\varepsilon$ of $T$ Poisson-subsampled Gaussian steps (add/remove) by RDP at the integer
/// orders $2..511$ with Mironov's conversion (the `poisson-addremove` calibration).
pub fn poisson_epsilon_integer_orders(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
) -> Result<f64, ParamError> {
    open_interval("q", q, 0.0, 1.0 + f64::EPSILON)?;
    positive("z", z)?;
    at_least("T", steps, 1)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    Ok((2..=511u64)
        .map(|a| {
            let per_step = rdp::log_a_integer(q, z, a) / (a - 1) as f64;
            steps as f64 * per_step + (1.0 / delta).ln() / (a - 1) as f64
        })
        .fold(f64::INFINITY, f64::min))
}

/// The smallest $c_2$ for which PDP-SGD's $\sigma^2=c_2G^2T\ln(1/\delta)/(n^2\varepsilon^2)$ meets
/// $(\varepsilon,\delta)$ under `poisson-addremove` (bisection on $c_2$; the projection is
/// post-processing).
pub fn c2_min(n: u64, batch: u64, steps: u64, epsilon: f64, delta: f64) -> Result<f64, ParamError> {
    let eps_at = |c2: f64| -> Result<f64, ParamError> {
        let z = noise_multiplier(c2, n, batch, steps, epsilon, delta)?;
        poisson_epsilon_integer_orders(batch as f64 / n as f64, z, steps, delta)
    };
    let (mut lo, mut hi) = (1e-6, 1.0);
    while eps_at(hi)? > epsilon {
        hi *= 2.0;
        if hi > 1e9 {
            return Err(ParamError::new(
                "epsilon",
                epsilon,
                "a target reachable with c2 <= 1e9",
            ));
        }
    }
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if eps_at(mid)? > epsilon {
            lo = mid
        } else {
            hi = mid
        }
        if hi / lo < 1.0 + 1e-10 {
            break;
        }
    }
    Ok(hi)
}

/// `thm3.derived` (S3) \[derived\]: $\frac1T\sum_t\mathbb E\Vert\hat P_t\nabla\hat L_n(w_t)\Vert^2\le
/// \frac{\Delta}{\eta T}+\frac{\rho\eta}2(G^2+k\sigma^2)$ for a $\rho$-smooth $\hat L_n$ and any
/// rank-$k$ projector independent of the step's minibatch and noise.
pub fn theorem3_bound(
    delta_l: f64,
    eta: f64,
    steps: u64,
    rho: f64,
    lipschitz: f64,
    k: u64,
    sigma: f64,
) -> Result<f64, ParamError> {
    crate::error::non_negative("Delta", delta_l)?;
    positive("eta", eta)?;
    at_least("T", steps, 1)?;
    positive("rho", rho)?;
    positive("G", lipschitz)?;
    at_least("k", k, 1)?;
    crate::error::non_negative("sigma", sigma)?;
    Ok(delta_l / (eta * steps as f64)
        + rho * eta / 2.0 * (lipschitz * lipschitz + k as f64 * sigma * sigma))
}

/// `thm4.derived` (S4) [derived, pathwise], first step: with $c=\Vert(I-P)\nabla\hat L_n\Vert/
/// \Vert P\nabla\hat L_n\Vert$, $\Vert\nabla\hat L_n\Vert^2\le(1+c^2)\big(2\Vert\hat P\nabla\hat L_n\Vert^2+
/// 2G^2\Vert\hat P-P\Vert^2\big)$.
pub fn theorem4_pathwise(
    projected_sq: f64,
    dominance: f64,
    lipschitz: f64,
    projector_distance: f64,
) -> f64 {
    (1.0 + dominance * dominance)
        * (2.0 * projected_sq + 2.0 * (lipschitz * projector_distance).powi(2))
}

/// `thm4.derived` (S4), second step: Davis–Kahan in the first,
/// $(1+c^2)\big(2\Vert\hat P\nabla\hat L_n\Vert^2+8G^2\Vert M-\Sigma\Vert^2/\alpha^2\big)$.
pub fn theorem4_davis_kahan(
    projected_sq: f64,
    dominance: f64,
    lipschitz: f64,
    perturbation_norm: f64,
    eigengap: f64,
) -> f64 {
    (1.0 + dominance * dominance)
        * (2.0 * projected_sq + 8.0 * (lipschitz * perturbation_norm / eigengap).powi(2))
}

/// `thm5.derived` (S5) \[derived\], deterministic part: $\frac{\Vert w_0-u\Vert^2}{2\eta T}+\frac\eta2
/// (G^2+k\sigma^2)$ (the subspace term $\frac GT\sum_t\mathbb E\Vert P_t-\hat P_t\Vert\Vert w_t-u\Vert$ is
/// measured along the run). With $k=p$ and no projection it is the plain DP-SGD bound.
pub fn theorem5_bound(
    distance_sq: f64,
    eta: f64,
    steps: u64,
    lipschitz: f64,
    k: u64,
    sigma: f64,
) -> Result<f64, ParamError> {
    crate::error::non_negative("||w_0 - u||^2", distance_sq)?;
    positive("eta", eta)?;
    at_least("T", steps, 1)?;
    positive("G", lipschitz)?;
    at_least("k", k, 1)?;
    crate::error::non_negative("sigma", sigma)?;
    Ok(distance_sq / (2.0 * eta * steps as f64)
        + eta / 2.0 * (lipschitz * lipschitz + k as f64 * sigma * sigma))
}

/// $\sum_{s=1}^Ts^a$ for $a\in\lbrace1/2,1\rbrace$: summed directly up to $T=10^6$, beyond by
/// Euler–Maclaurin, $\frac{T^{a+1}}{a+1}+\frac{T^a}2+\frac{aT^{a-1}}{12}+\zeta(-a)$ (relative
/// error below $10^{-15}$ there).
fn power_sum(steps: f64, a: f64) -> f64 {
    if steps <= 1e6 {
        return (1..=steps as u64).map(|s| (s as f64).powf(a)).sum();
    }
    let zeta = if a == 1.0 {
        -1.0 / 12.0
    } else {
        -0.207_886_224_977_354_6
    };
    steps.powf(a + 1.0) / (a + 1.0) + steps.powf(a) / 2.0 + a * steps.powf(a - 1.0) / 12.0 + zeta
}

/// Which rate statement `subspace.samples` reads: Theorem 4 (smooth non-convex, public term
/// $\Lambda G^4\rho^2\gamma_2^2\ln p/m$, eigengap decay $t^{-1/4}$) or Theorem 5 (convex, public
/// term $\Lambda G\rho\gamma_2\ln p/\sqrt m$, decay $t^{-1/2}$).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateTheorem {
    /// Theorem 4 (smooth non-convex).
    NonConvex,
    /// Theorem 5 (convex).
    Convex,
}

/// `samples` [as printed, prose; checkable form of THEOREMS.md §6]: the two terms of Theorem 4
/// or 5 with all $O(\cdot)$ constants 1, $T=\lceil n^2\varepsilon^2\rceil$,
/// $\alpha_t=\alpha_0(t+1)^{-1/4}$ (resp. $^{-1/2}$), $\Lambda=\frac1T\sum_{t<T}\alpha_t^{-2}$
/// (summed exactly) and `public` samples $m$. Returns (first term, public-sample term):
/// $kρG^2/(n\varepsilon)$ and $\Lambda G^4\rho^2\gamma_2^2\ln p/m$ (non-convex), or
/// $kG^2/(n\varepsilon)$ and $\Lambda G\rho\gamma_2\ln p/\sqrt m$ (convex).
#[allow(clippy::too_many_arguments)]
pub fn rate_terms(
    theorem: RateTheorem,
    n: u64,
    epsilon: f64,
    public: f64,
    k: u64,
    dim: u64,
    lipschitz: f64,
    rho: f64,
    gamma2: f64,
    alpha0: f64,
) -> Result<(f64, f64), ParamError> {
    at_least("n", n, 1)?;
    positive("epsilon", epsilon)?;
    positive("m", public)?;
    at_least("p", dim, 2)?;
    positive("alpha_0", alpha0)?;
    let ne = n as f64 * epsilon;
    let steps = (ne * ne).ceil().max(1.0);
    if steps > 1e15 {
        return Err(ParamError::new("n", n, "T = (n eps)^2 <= 1e15"));
    }
    let decay = match theorem {
        RateTheorem::NonConvex => 0.25,
        RateTheorem::Convex => 0.5,
    };
    let lambda = power_sum(steps, 2.0 * decay) / (alpha0 * alpha0 * steps);
    let log_p = (dim as f64).ln();
    Ok(match theorem {
        RateTheorem::NonConvex => (
            k as f64 * rho * lipschitz.powi(2) / ne,
            lambda * lipschitz.powi(4) * rho * rho * gamma2 * gamma2 * log_p / public,
        ),
        RateTheorem::Convex => (
            k as f64 * lipschitz.powi(2) / ne,
            lambda * lipschitz * rho * gamma2 * log_p / public.sqrt(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §6's c2_min table (poisson-addremove, integer orders 2..511).
    #[test]
    fn c2_min_reference_table() {
        for (n, b, t, eps, delta, want) in [
            (1000u64, 10u64, 1000u64, 1.0, 1e-5, 2.719),
            (1000, 10, 10_000, 1.0, 1e-5, 2.149),
            (1000, 50, 10_000, 1.0, 1e-5, 2.092),
            (1000, 10, 10_000, 0.5, 1e-5, 2.064),
            (100, 5, 900, 1.0, 1e-3, 2.215),
            (30, 5, 900, 1.0, 1e-3, 2.157),
        ] {
            let got = c2_min(n, b, t, eps, delta).unwrap();
            assert!(
                (got - want).abs() < 6e-4,
                "n {n} B {b} T {t} eps {eps}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn other_reference_values() {
        let z = noise_multiplier(2.157, 30, 5, 900, 1.0, 1e-3).unwrap();
        assert_relative_eq!(z, 19.3003, max_relative = 1e-5);
        // E3-3's noise term: rho eta/2 (G^2 + k sigma^2) with rho = 0.2025, eta = 1/30,
        // G = 0.9, k = 2, sigma = 3.47405.
        let term = theorem3_bound(0.0, 1.0 / 30.0, 900, 0.2025, 0.9, 2, 3.47405).unwrap();
        assert_relative_eq!(term, 0.084200, max_relative = 1e-5);
        let mb = matrix_bernstein(20, 100, 1.0, 0.1, 0.1, 1).unwrap();
        assert_relative_eq!(mb, 0.9407098, max_relative = 1e-6);
        let s = matrix_bernstein_radius(20, 100, 1.0, 0.1, 50, 0.05).unwrap();
        assert_relative_eq!(
            matrix_bernstein(20, 100, 1.0, 0.1, s, 50).unwrap(),
            0.05,
            max_relative = 1e-9
        );
        assert_eq!(davis_kahan(0.1, 0.5).unwrap(), 0.4);
        assert!(davis_kahan(0.1, 0.0).is_err());
        assert!(noise_multiplier(1.0, 10, 11, 1, 1.0, 1e-5).is_err());
        assert_relative_eq!(
            theorem5_bound(4.0, 0.5, 4, 1.0, 2, 1.0).unwrap(),
            1.0 + 0.75
        );
        // With P^ = P the first S4 step reduces to (1 + c^2) 2 ||P grad||^2.
        assert_eq!(theorem4_pathwise(1.0, 2.0, 1.0, 0.0), 10.0);
        assert_eq!(theorem4_davis_kahan(1.0, 0.0, 1.0, 0.5, 1.0), 4.0);
    }

    #[test]
    fn uniform_convergence_shape() {
        let axes: Vec<f64> = (1..=4).map(|j| 1.0 / (j as f64).sqrt()).collect();
        let harmonic: f64 = 1.0 + 0.5 + 1.0 / 3.0 + 0.25;
        assert_relative_eq!(ellipsoid_gamma2_proxy(&axes).unwrap(), harmonic.sqrt());
        assert_relative_eq!(
            theorem1_shape(1.0, 1.0, 1.0, 2.0, 100, 4).unwrap(),
            100f64.ln().sqrt()
        );
        assert!(ellipsoid_gamma2_proxy(&[f64::NAN]).is_err());
    }

    /// Lambda of the t^{-1/4} decay is (2/3) n eps / alpha_0^2 to leading order: the public
    /// term of Theorem 4 with m = n eps does not decay in n.
    #[test]
    fn rate_terms_orders() {
        let args = |n: u64, m: f64| {
            rate_terms(RateTheorem::NonConvex, n, 1.0, m, 1, 10, 1.0, 1.0, 1.0, 1.0).unwrap()
        };
        let (first, public) = args(1000, 1000.0);
        assert_relative_eq!(first, 1e-3);
        assert_relative_eq!(public, 2.0 / 3.0 * 10f64.ln(), max_relative = 2e-3);
        for a in [0.5, 1.0] {
            let direct: f64 = (1..=2_000_000u64).map(|s| (s as f64).powf(a)).sum();
            assert_relative_eq!(power_sum(2e6, a), direct, max_relative = 1e-12);
        }
        assert!(rate_terms(RateTheorem::Convex, 0, 1.0, 1.0, 1, 10, 1.0, 1.0, 1.0, 1.0).is_err());
    }
}
