//! The contraction of the hockey-stick divergence through the Gaussian kernel, and the
//! convergent privacy loss of projected DP-SGD: Asoodeh & Diaz (2023), *Privacy Loss of Noisy
//! Stochastic Gradient Descent Might Converge Even for Non-Convex Losses*, arXiv 2305.09903
//! (seed 001). Our copy lost its displayed equations; the forms are THEOREMS.md §4's
//! reconstructions (proofs there).
//!
//! Notation: $\mathsf E_\varepsilon(\mu\Vert\nu)=\sup_A[\mu(A)-e^\varepsilon\nu(A)]$; the projected
//! iteration $W_t=\Pi_{\mathcal W}(\psi_{B_t}(W_{t-1})+\sigma Z_t)$ with
//! $\Vert\psi_B(w)-w\Vert\le M$.

use crate::error::{ParamError, at_least, non_negative, open_interval, positive};
use crate::privacy::gaussian;

/// $\theta_\varepsilon(r)=Q(\frac\varepsilon r-\frac r2)-e^\varepsilon Q(\frac\varepsilon r+\frac r2)=\mathsf E_\varepsilon(\mathcal N(r,1)\Vert\mathcal N(0,1))$,
/// the contraction coefficient of the Gaussian kernel on a set of diameter $r\sigma$
/// [reconstructed; Asoodeh–Diaz–Calmon Thm 2]; the Gaussian mechanism's exact $\delta(\varepsilon)$
/// at $\mu=r$ (Balle–Wang), evaluated in log space. $\theta_\varepsilon(0)=0$.
pub fn theta(epsilon: f64, r: f64) -> Result<f64, ParamError> {
    non_negative("epsilon", epsilon)?;
    non_negative("r", r)?;
    if r == 0.0 {
        return Ok(0.0);
    }
    if r.is_infinite() {
        return Ok(1.0);
    }
    gaussian::delta(r, epsilon)
}

/// Lemma 1's normalised diameter $\bar r=(\mathrm{dia}(\mathcal W)+2M)/\sigma$ of the Gaussian's
/// input set.
pub fn normalised_diameter(diameter: f64, max_move: f64, sigma: f64) -> Result<f64, ParamError> {
    positive("diameter", diameter)?;
    non_negative("M", max_move)?;
    positive("sigma", sigma)?;
    Ok((diameter + 2.0 * max_move) / sigma)
}

/// The coupled DPI (4)/(10) for one step \[reconstructed\]: if
/// $\mathsf E_\varepsilon(\mu\Vert\nu)=e$ then $\mathsf E_\varepsilon(\mathsf K_t\mu\Vert\mathsf K'_t\nu)\le(1-q)\theta e+q\theta$.
pub fn coupled_dpi(previous: f64, q: f64, theta: f64) -> Result<f64, ParamError> {
    // Sums of probabilities may exceed 1 by rounding: accept and clamp a 1e-12 overshoot.
    if !(-1e-12..=1.0 + 1e-12).contains(&previous) {
        return Err(ParamError::new("E", previous, "a divergence in [0, 1]"));
    }
    let previous = previous.clamp(0.0, 1.0);
    check_rate(q)?;
    if !(0.0..=1.0).contains(&theta) {
        return Err(ParamError::new("theta", theta, "a coefficient in [0, 1]"));
    }
    Ok((1.0 - q) * theta * previous + q * theta)
}

fn check_rate(q: f64) -> Result<f64, ParamError> {
    if !(q > 0.0 && q <= 1.0) {
        return Err(ParamError::new("q", q, "a sampling rate in (0, 1]"));
    }
    Ok(q)
}

/// Eq. (5) \[reconstructed\]: $\delta_T(\varepsilon)=q\theta\sum_{k<T}((1-q)\theta)^k=\frac{q\theta(1-((1-q)\theta)^T)}{1-(1-q)\theta}$,
/// $\theta=\theta_\varepsilon(\bar r)$; `steps = None` gives the limit
/// $\delta_\infty=q\theta/(1-(1-q)\theta)<1$.
pub fn delta_t(epsilon: f64, steps: Option<u64>, q: f64, r_bar: f64) -> Result<f64, ParamError> {
    check_rate(q)?;
    if let Some(t) = steps {
        at_least("T", t, 1)?;
    }
    Ok(geometric_sum(q, theta(epsilon, r_bar)?, steps))
}

/// $g_T(x)=qx\sum_{k<T}((1-q)x)^k$ (Appendix A), $T=\infty$ for `None`.
fn geometric_sum(q: f64, x: f64, steps: Option<u64>) -> f64 {
    let a = (1.0 - q) * x;
    match steps {
        // 1 - a^T computed as -expm1(T ln a) keeps digits when a^T is close to 1.
        Some(t) if a > 0.0 => q * x * -(t as f64 * a.ln()).exp_m1() / (1.0 - a),
        Some(_) => q * x,
        None => q * x / (1.0 - a),
    }
}

/// Appendix A \[reconstructed\]: $\varepsilon_T(\delta)=\inf\lbrace\varepsilon\ge0:\delta_T(\varepsilon)\le\delta\rbrace$,
/// by bisection on $\varepsilon$ (both $g_T$ and $\theta_\cdot(\bar r)$ are monotone); `None` is $T=\infty$.
pub fn epsilon_t(delta: f64, steps: Option<u64>, q: f64, r_bar: f64) -> Result<f64, ParamError> {
    open_interval("delta", delta, 0.0, 1.0)?;
    if delta_t(0.0, steps, q, r_bar)? <= delta {
        return Ok(0.0);
    }
    let mut hi = 1.0;
    while delta_t(hi, steps, q, r_bar)? > delta {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(ParamError::new(
                "delta",
                delta,
                "a delta reachable with eps <= 1e6",
            ));
        }
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if delta_t(mid, steps, q, r_bar)? > delta {
            lo = mid
        } else {
            hi = mid
        }
    }
    Ok(hi)
}

/// The auxiliary radius of regularised DP-SGD \[reconstructed\].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RadiusRule {
    /// `r-lin`: $r_t=c\thinspace r_{t-1}+\eta C+\sigma\kappa$, $r_0=0$.
    Linear,
    /// `r-sum`: $r_t=\eta C\frac{1-c^t}{1-c}+\sigma\kappa\sqrt{\frac{1-c^{2t}}{1-c^2}}$.
    Sum,
}

/// Regularised DP-SGD (16) as the bound of eq. (21) sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Regularised {
    /// Contraction factor $c\in(0,1)$ of $\tilde\psi_B(w)=cw-\frac\eta b\sum\mathrm{Clip}_C(\cdot)$.
    pub c: f64,
    /// Step size $\eta$.
    pub eta: f64,
    /// Clipping norm $C$.
    pub clip: f64,
    /// Noise standard deviation $\sigma$.
    pub sigma: f64,
    /// Sampling rate $q$.
    pub q: f64,
    /// Dimension $d$.
    pub dim: u64,
    /// How the radius of the bound is chosen.
    pub rule: RadiusRule,
}

impl Regularised {
    fn validate(&self) -> Result<(), ParamError> {
        open_interval("c", self.c, 0.0, 1.0)?;
        positive("eta", self.eta)?;
        positive("C", self.clip)?;
        positive("sigma", self.sigma)?;
        check_rate(self.q)?;
        at_least("d", self.dim, 1)?;
        Ok(())
    }

    /// $r_t$ for $t=0..T$.
    pub fn radii(&self, kappa: f64, steps: u64) -> Vec<f64> {
        let (c, m, s) = (self.c, self.eta * self.clip, self.sigma * kappa);
        (0..=steps)
            .scan(0.0, |r, t| {
                let out = match self.rule {
                    RadiusRule::Linear if t > 0 => c * *r + m + s,
                    RadiusRule::Linear => 0.0,
                    RadiusRule::Sum => {
                        let t = t as i32;
                        m * (1.0 - c.powi(t)) / (1.0 - c)
                            + s * ((1.0 - c.powi(2 * t)) / (1.0 - c * c)).sqrt()
                    }
                };
                *r = out;
                Some(out)
            })
            .collect()
    }

    /// Proposition 4 \[reconstructed\]: $\mathrm{TV}(P_{\tilde W_T},P_{W_T})\le\tau_T(\kappa)$ with
    /// $\tau_T=1-F_{\chi^2_d}(\kappa^2)^T$ (`r-lin`) or $T(1-F_{\chi^2_d}(\kappa^2))$ (`r-sum`).
    pub fn tau(&self, kappa: f64, steps: u64) -> f64 {
        let tail = chi2_sf(self.dim as f64, kappa * kappa);
        match self.rule {
            // 1 - (1 - tail)^T = -expm1(T ln(1 - tail)).
            RadiusRule::Linear => -(steps as f64 * (-tail).ln_1p()).exp_m1(),
            RadiusRule::Sum => (steps as f64 * tail).min(1.0),
        }
    }

    /// Eq. (21) \[reconstructed\] at a given $\kappa$:
    /// $\delta(\kappa)=(1+e^\varepsilon)\tau_T(\kappa)+\sum_tq\theta_\varepsilon(\rho_t)\prod_{s>t}(1-q)\theta_\varepsilon(\rho_s)$,
    /// $\rho_t=2(c\thinspace r_{t-1}+\eta C)/\sigma$ (Proposition 5).
    pub fn delta_at(&self, epsilon: f64, steps: u64, kappa: f64) -> Result<f64, ParamError> {
        self.validate()?;
        non_negative("epsilon", epsilon)?;
        at_least("T", steps, 1)?;
        positive("kappa", kappa)?;
        let r = self.radii(kappa, steps);
        let mut e = 0.0;
        for t in 1..=steps as usize {
            let rho = 2.0 * (self.c * r[t - 1] + self.eta * self.clip) / self.sigma;
            e = coupled_dpi(e, self.q, theta(epsilon, rho)?)?;
        }
        Ok(((1.0 + epsilon.exp()) * self.tau(kappa, steps) + e).min(1.0))
    }

    /// Eq. (21) minimised over $\kappa\in\lbrace0.05,0.055,\dots,12\rbrace$ (THEOREMS.md's grid); returns
    /// $(\delta,\kappa^\ast)$.
    pub fn delta(&self, epsilon: f64, steps: u64) -> Result<(f64, f64), ParamError> {
        let mut best = (f64::INFINITY, 0.0);
        for i in 0..=2390 {
            let kappa = 0.05 + 0.005 * i as f64;
            let d = self.delta_at(epsilon, steps, kappa)?;
            if d < best.0 {
                best = (d, kappa);
            }
        }
        Ok(best)
    }
}

/// Upper tail $1-F_{\chi^2_d}(x)$ (regularised upper incomplete gamma $Q(d/2,x/2)$).
pub fn chi2_sf(d: f64, x: f64) -> f64 {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    ChiSquared::new(d).map(|c| c.sf(x)).unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §4 table of theta and its tails.
    #[test]
    fn theta_reference_values() {
        let table = [
            (
                0.0,
                [0.1974126514, 0.3829249225, 0.6826894921, 0.9544997361],
            ),
            (
                0.5,
                [0.05244032329, 0.2384217081, 0.5991856185, 0.9419161567],
            ),
            (
                1.0,
                [6.829594983e-3, 0.1269367375, 0.5098616601, 0.9267112813],
            ),
            (
                2.0,
                [9.439168635e-6, 0.02092363582, 0.3318979988, 0.8873092333],
            ),
        ];
        for (eps, row) in table {
            for (r, want) in [0.5, 1.0, 2.0, 4.0].into_iter().zip(row) {
                assert_relative_eq!(theta(eps, r).unwrap(), want, max_relative = 2e-9);
            }
        }
        assert_relative_eq!(
            theta(1.0, 0.1).unwrap(),
            1.230835983643e-25,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            theta(2.0, 0.1).unwrap(),
            3.7194507268e-91,
            max_relative = 1e-8
        );
        assert_relative_eq!(
            theta(10.0, 1.0).unwrap(),
            9.81270582685e-23,
            max_relative = 1e-9
        );
        assert_eq!(theta(1.0, 0.0).unwrap(), 0.0);
        // theta_0(r) = 2 Phi(r/2) - 1.
        assert_relative_eq!(
            theta(0.0, 3.0).unwrap(),
            0.8663855974622838,
            max_relative = 1e-12
        );
    }

    #[test]
    fn delta_t_reference_values() {
        let cases = [
            (1.0, Some(1), 0.01, 1.0, 1.269367375066e-3),
            (1.0, Some(10), 0.01, 1.0, 1.451812880426e-3),
            (1.0, None, 0.01, 1.0, 1.451812881852e-3),
            (0.5, Some(50), 0.1, 4.0, 0.6184007076),
            (2.0, Some(50), 0.1, 4.0, 0.4405174272),
            (1.0, Some(20), 1.0, 5.0, 0.9798516781),
            (3.0, Some(1000), 0.004, 1.0, 6.158169861e-6),
        ];
        for (eps, t, q, r, want) in cases {
            assert_relative_eq!(delta_t(eps, t, q, r).unwrap(), want, max_relative = 1e-9);
        }
        // main.lt1 and main.geometric.
        let inf = delta_t(0.5, None, 0.1, 4.0).unwrap();
        assert!(inf < 1.0);
        let th = theta(0.5, 4.0).unwrap();
        let gap = inf - delta_t(0.5, Some(30), 0.1, 4.0).unwrap();
        assert_relative_eq!(gap, inf * (0.9 * th).powi(30), max_relative = 1e-9);
    }

    #[test]
    fn epsilon_t_reference_table() {
        let rows = [
            (0.01, 0.5, 1e-5, [1.352276, 1.352440, 1.352440]),
            (0.01, 1.0, 1e-5, [3.138671, 3.138984, 3.138984]),
            (0.01, 1.0, 1e-3, [1.160334, 1.220573, 1.220573]),
            (0.1, 1.0, 1e-5, [3.804436, 3.804460, 3.804460]),
            (256.0 / 60000.0, 1.0, 1e-3, [0.515534, 0.695652, 0.695652]),
        ];
        for (q, r, delta, want) in rows {
            for (t, w) in [Some(1), Some(10), None].into_iter().zip(want) {
                let got = epsilon_t(delta, t, q, r).unwrap();
                assert!(
                    (got - w).abs() < 1e-6,
                    "q {q} r {r} delta {delta} T {t:?}: {got} vs {w}"
                );
            }
            assert!((epsilon_t(delta, Some(100), q, r).unwrap() - want[2]).abs() < 1e-6);
        }
    }

    #[test]
    fn regularised_reference_values() {
        let reg = |c: f64| Regularised {
            c,
            eta: 1.0,
            clip: 1.0,
            sigma: 1.0,
            q: 0.1,
            dim: 1,
            rule: RadiusRule::Linear,
        };
        let table = [
            (0.5, 0.5, [0.05992, 0.38321, 0.87301, 0.99997]),
            (0.5, 1.0, [0.05099, 0.37735, 0.87180, 0.99997]),
            (0.2, 0.5, [0.05992, 0.34532, 0.67698, 0.76836]),
            (0.2, 1.0, [0.05099, 0.33248, 0.64224, 0.72991]),
        ];
        for (c, eps, row) in table {
            for (t, want) in [1u64, 5, 20, 100].into_iter().zip(row) {
                let (got, _) = reg(c).delta(eps, t).unwrap();
                assert!(
                    (got - want).abs() < 6e-5,
                    "c {c} eps {eps} T {t}: {got} vs {want}"
                );
            }
        }
        let big = Regularised {
            c: 0.5,
            eta: 1.0,
            clip: 1.0,
            sigma: 4.0,
            q: 0.01,
            dim: 10,
            rule: RadiusRule::Linear,
        };
        for (t, want) in [(1u64, 6.8296e-5), (10, 0.086545), (100, 0.630296)] {
            let (got, _) = big.delta(1.0, t).unwrap();
            assert_relative_eq!(got, want, max_relative = 1e-4);
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(theta(-1.0, 1.0).unwrap_err().name, "epsilon");
        assert_eq!(delta_t(1.0, Some(0), 0.1, 1.0).unwrap_err().name, "T");
        assert_eq!(delta_t(1.0, Some(1), 0.0, 1.0).unwrap_err().name, "q");
        assert_eq!(epsilon_t(0.0, Some(1), 0.1, 1.0).unwrap_err().name, "delta");
        assert_eq!(
            normalised_diameter(1.0, 0.5, 0.0).unwrap_err().name,
            "sigma"
        );
        assert_eq!(coupled_dpi(1.5, 0.1, 0.5).unwrap_err().name, "E");
    }
}
