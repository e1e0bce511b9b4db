//! Multi-pass DP-SGD, Theorem 2 of Ma, Marinov & Zhang (2022), arXiv 2206.01836 (seed 000).
//!
//! For now: the step-size schedule of Theorem 2, which other claims (Lemma 5, Proposition 2)
//! are checked on.

use crate::error::{ParamError, at_least, open_interval, positive};

/// Theorem 2's schedule (as printed):
/// $$\eta_t=\frac{\sqrt{\beta_0}}{G\sqrt{8\ln(2.5t^2/(n\delta))\thinspace t}},\quad
/// \lambda_1=\tfrac1{\eta_1},\ \lambda_t=\tfrac1{\eta_t}-\tfrac1{\eta_{t-1}},\quad
/// \beta_0=\eta_0^2\thinspace\tfrac nT,\quad T=n^\alpha\epsilon^2 .$$
/// Then $c_t=1-\lambda_t\eta_t=\eta_t/\eta_{t-1}$. $\eta_t$ is real for every $t\ge1$ iff
/// $n\delta<2.5$ (checked).
#[derive(Debug, Clone, PartialEq)]
pub struct Theorem2Schedule {
    /// Dataset size $n$.
    pub n: u64,
    /// Target $\delta$.
    pub delta: f64,
    /// $\eta_0$.
    pub eta0: f64,
    /// Lipschitz constant $G$.
    pub g: f64,
    /// Number of iterates $T$.
    pub horizon: u64,
    /// $\beta_0=\eta_0^2 n/T$.
    pub beta0: f64,
}

/// How $T=n^\alpha\epsilon^2$ is rounded to an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HorizonRounding {
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
}

impl Theorem2Schedule {
    /// The schedule with an explicit horizon `T`.
    pub fn with_horizon(
        n: u64,
        delta: f64,
        eta0: f64,
        g: f64,
        horizon: u64,
    ) -> Result<Self, ParamError> {
        at_least("n", n, 1)?;
        open_interval("delta", delta, 0.0, 1.0)?;
        positive("eta0", eta0)?;
        positive("G", g)?;
        at_least("T", horizon, 1)?;
        if n as f64 * delta >= 2.5 {
            return Err(ParamError::new(
                "delta",
                delta,
                format!("n*delta < 2.5 so that eta_1 is real (n = {n})"),
            ));
        }
        let beta0 = eta0 * eta0 * n as f64 / horizon as f64;
        Ok(Self {
            n,
            delta,
            eta0,
            g,
            horizon,
            beta0,
        })
    }

    /// The schedule with $T=n^\alpha\epsilon^2$ rounded as asked; Theorem 2 needs
    /// $1\le\alpha\le2$ and $T\ge n$.
    pub fn from_privacy(
        n: u64,
        delta: f64,
        epsilon: f64,
        alpha: f64,
        eta0: f64,
        g: f64,
        rounding: HorizonRounding,
    ) -> Result<Self, ParamError> {
        positive("epsilon", epsilon)?;
        if !(1.0..=2.0).contains(&alpha) {
            return Err(ParamError::new("alpha", alpha, "a number in [1, 2]"));
        }
        let raw = (n as f64).powf(alpha) * epsilon * epsilon;
        let t = match rounding {
            HorizonRounding::Floor => raw.floor(),
            HorizonRounding::Ceil => raw.ceil(),
        };
        if !(t >= n as f64 && t < 1e12) {
            return Err(ParamError::new(
                "epsilon",
                epsilon,
                format!("a value giving n <= T = n^alpha epsilon^2 < 1e12 (T = {raw})"),
            ));
        }
        Self::with_horizon(n, delta, eta0, g, t as u64)
    }

    /// $\eta_t$ for $t\ge1$.
    pub fn eta(&self, t: u64) -> f64 {
        let t = t as f64;
        let log_term = (2.5 * t * t / (self.n as f64 * self.delta)).ln();
        self.beta0.sqrt() / (self.g * (8.0 * log_term * t).sqrt())
    }

    /// $\eta_1,\dots,\eta_T$.
    pub fn etas(&self) -> Vec<f64> {
        (1..=self.horizon).map(|t| self.eta(t)).collect()
    }

    /// The noise multiplier of each step as a subsampled Gaussian mechanism [as printed, proof of
    /// Prop. 3]: step $t$ moves by $\frac{\eta_t^2}{\eta_{t-1}}\nabla\ell$ (replace-one
    /// sensitivity $2G\eta_t^2/\eta_{t-1}$) under noise $\sigma_t=\sqrt{(1-\eta_t^2/\eta_{t-1}^2)\beta_0}$,
    /// i.e. multiplier $\sigma_t\eta_{t-1}/(G\eta_t^2)$ ($\eta_0$ for $t=1$).
    pub fn step_noise_multipliers(&self) -> Vec<f64> {
        let mut prev = self.eta0;
        (1..=self.horizon)
            .map(|t| {
                let eta = self.eta(t);
                let ratio = eta / prev;
                let sigma = ((1.0 - ratio * ratio).max(0.0) * self.beta0).sqrt();
                prev = eta;
                sigma / (self.g * eta * ratio)
            })
            .collect()
    }

    /// The $\epsilon(\delta)$ of all $T$ iterates by the PLD accountant: each step one sample
    /// drawn uniformly out of $n$ ($q=1/n$), under replace-one: the fixed-size-batch dominating
    /// pairs of [`crate::privacy::dominating`] (sensitivity 2 in either order, symmetrised for the
    /// upper bound) with the step's multiplier; the steps are grouped into runs $[2^k,2^{k+1})$, each run taking its smallest
    /// multiplier for the pessimistic bound and its largest for the optimistic one. With $q=1$
    /// the composition is exactly $\mu$-GDP and is computed so.
    pub fn pld_epsilon(
        &self,
        q: f64,
        delta: f64,
        opts: &crate::privacy::pld::PldOptions,
    ) -> Result<crate::privacy::pld::PldBracket, ParamError> {
        self.pld_epsilon_with_noise_scale(q, delta, 1.0, opts)
    }

    /// [`Self::pld_epsilon`] of the mechanism whose every step's noise std is `noise_scale`
    /// times the schedule's (the step sizes kept): a misimplemented mechanism, for the claims'
    /// detection thresholds. Scaling $\beta_0$ instead would scale $\eta_t\propto\sqrt{\beta_0}$
    /// with it and leave every multiplier unchanged.
    pub fn pld_epsilon_with_noise_scale(
        &self,
        q: f64,
        delta: f64,
        noise_scale: f64,
        opts: &crate::privacy::pld::PldOptions,
    ) -> Result<crate::privacy::pld::PldBracket, ParamError> {
        use crate::privacy::dominating::Dominating;
        use crate::privacy::pld::{PldBracket, compose_groups};
        use crate::privacy::{Neighbouring, Sampling};
        if !(q > 0.0 && q <= 1.0) {
            return Err(ParamError::new("q", q, "a sampling rate in (0, 1]"));
        }
        let noise_scale = crate::error::positive("noise_scale", noise_scale)?;
        let multipliers: Vec<f64> = self
            .step_noise_multipliers()
            .into_iter()
            .map(|m| m * noise_scale)
            .collect();
        if q == 1.0 {
            // Without subsampling the composition is exactly mu-GDP, mu^2 = sum_t (2/m_t)^2.
            let mu = multipliers
                .iter()
                .map(|m| 4.0 / (m * m))
                .sum::<f64>()
                .sqrt();
            let e = crate::privacy::gaussian::epsilon(mu, delta)?;
            return Ok(PldBracket {
                pessimistic: e,
                optimistic: e,
            });
        }
        let mut groups = Vec::new();
        let mut start = 0usize;
        while start < multipliers.len() {
            let end = ((start + 1) * 2 - 1).min(multipliers.len());
            let run = &multipliers[start..end];
            let lo = run.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = run.iter().cloned().fold(0.0, f64::max);
            groups.push((lo, hi, run.len() as u64));
            start = end;
        }
        // Each group: the upper bound at its smallest multiplier, the realised pairs at its
        // largest (more noise is a post-processing of less).
        let dom = |sigma: f64| {
            Dominating::new(
                q,
                sigma,
                Sampling::WithoutReplacement,
                Neighbouring::ReplaceOne,
            )
        };
        let mut doms = Vec::with_capacity(groups.len());
        for &(lo, hi, count) in &groups {
            let (upper, lower) = (dom(lo)?, dom(hi)?);
            doms.push((
                Dominating {
                    lower: lower.lower,
                    ..upper
                },
                count,
            ));
        }
        let focused = opts.focused(crate::privacy::pld::Focus::Delta(delta));
        compose_groups(&doms, &focused)?.epsilon(delta)
    }
}

/// Theorem 2's privacy level as printed: $3\epsilon\sqrt{\ln(2/\delta)}+3\epsilon^2$.
pub fn theorem2_epsilon(epsilon: f64, delta: f64) -> Result<f64, ParamError> {
    positive("epsilon", epsilon)?;
    open_interval("delta", delta, 0.0, 1.0)?;
    Ok(3.0 * epsilon * (2.0 / delta).ln().sqrt() + 3.0 * epsilon * epsilon)
}

/// The reference schedule of THEOREMS.md: n = 200, delta = 1e-3, epsilon = 200^(-1/4),
/// alpha = 2, eta0 = G = 1, T = floor(n^alpha epsilon^2) = 2828.
#[cfg(test)]
pub(crate) fn reference_n200() -> Theorem2Schedule {
    Theorem2Schedule::from_privacy(
        200,
        1e-3,
        200f64.powf(-0.25),
        2.0,
        1.0,
        1.0,
        HorizonRounding::Floor,
    )
    .expect("valid reference parameters")
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md multipass reference values (n = 200, epsilon = 200^(-1/4), alpha = 2).
    #[test]
    fn reference_schedule() {
        let s = reference_n200();
        assert_eq!(s.horizon, 2828);
        assert_relative_eq!(s.beta0, 0.07072136, max_relative = 1e-6);
        assert_relative_eq!(s.eta(1), 0.05916120, max_relative = 1e-6);
        assert_relative_eq!(s.eta(2828), 4.119470e-4, max_relative = 1e-6);
    }

    #[test]
    fn rejects_n_delta_too_large() {
        let e = Theorem2Schedule::with_horizon(1000, 0.01, 1.0, 1.0, 2000).unwrap_err();
        assert_eq!(e.name, "delta");
    }
}

/// Proposition 1 on P-quad ($\ell_t(w)=\frac a2\Vert w-z_t\Vert^2$ in $d$ dimensions, $q=\mathcal N(0,\beta_0I)$),
/// exact pieces [derived, THEOREMS.md]: with $B=\sum_t\beta_t$ and $\bar z=\frac1T\sum_tz_t$,
/// $$\inf_p\sum_t[\ell(p,z_t)+\beta_tH(p\Vert q)]=\frac a2\sum_t\Vert z_t-\bar z\Vert^2+\frac{Bd}2\ln\Big(1+\frac{aT\beta_0}B\Big)+\frac{aT\Vert\bar z\Vert^2}{2(1+aT\beta_0/B)}.$$
pub fn prop1_quadratic_infimum(
    a: f64,
    beta0: f64,
    betas: &[f64],
    z: &[Vec<f64>],
) -> Result<f64, ParamError> {
    positive("a", a)?;
    positive("beta0", beta0)?;
    if z.is_empty() || betas.len() != z.len() {
        return Err(ParamError::new(
            "z",
            z.len(),
            format!(
                "one point per beta_t ({} values), at least one",
                betas.len()
            ),
        ));
    }
    let big_b: f64 = crate::error::non_negative_elements("beta", betas)?
        .iter()
        .sum();
    positive("B", big_b)?;
    let (t, d) = (z.len() as f64, z[0].len());
    let zbar: Vec<f64> = (0..d)
        .map(|i| z.iter().map(|zt| zt[i]).sum::<f64>() / t)
        .collect();
    let spread: f64 = z
        .iter()
        .map(|zt| {
            zt.iter()
                .zip(&zbar)
                .map(|(x, m)| (x - m) * (x - m))
                .sum::<f64>()
        })
        .sum();
    let zbar2: f64 = zbar.iter().map(|x| x * x).sum();
    let ratio = a * t * beta0 / big_b;
    Ok(0.5 * a * spread
        + 0.5 * big_b * d as f64 * ratio.ln_1p()
        + a * t * zbar2 / (2.0 * (1.0 + ratio)))
}

/// Lemma 6's Gaussian-mechanism level for one step with gradient step $\eta$, gradient bound
/// $G$, noise $\sigma$ (sensitivity $2\eta G$; Dwork–Roth Thm A.1):
/// $\epsilon_G=\sqrt{8\ln(1.25/\delta)}\thinspace\eta G/\sigma$ (the theorem needs $\epsilon_G<1$).
pub fn lemma6_gaussian_epsilon(
    eta: f64,
    g: f64,
    sigma: f64,
    delta: f64,
) -> Result<f64, ParamError> {
    positive("eta", eta)?;
    positive("G", g)?;
    positive("sigma", sigma)?;
    crate::error::open_interval("delta", delta, 0.0, 1.0)?;
    Ok((8.0 * (1.25 / delta).ln()).sqrt() * eta * g / sigma)
}

/// Lemma 6 as printed: one step subsampled 1-of-$m$ is
/// $\big(\ln(1+m^{-1}e^{\epsilon_G}),\ \delta/m\big)$-DP.
pub fn lemma6_printed(
    eta: f64,
    g: f64,
    sigma: f64,
    delta: f64,
    m: u64,
) -> Result<(f64, f64), ParamError> {
    at_least("m", m, 1)?;
    let e = lemma6_gaussian_epsilon(eta, g, sigma, delta)?;
    Ok(((e.exp() / m as f64).ln_1p(), delta / m as f64))
}

/// Lemma 6 from Balle–Barthe–Gaboardi Thm 9 [derived, `lemma6.bbg`]:
/// $\big(\ln(1+m^{-1}(e^{\epsilon_G}-1)),\ \delta/m\big)$.
pub fn lemma6_bbg(
    eta: f64,
    g: f64,
    sigma: f64,
    delta: f64,
    m: u64,
) -> Result<(f64, f64), ParamError> {
    at_least("m", m, 1)?;
    let e = lemma6_gaussian_epsilon(eta, g, sigma, delta)?;
    Ok(((e.exp_m1() / m as f64).ln_1p(), delta / m as f64))
}

/// Proposition 3 as printed: $\big(\sqrt{2T\ln(2/\delta)}\thinspace\frac en+\frac{Te^2}{n^2},\ \delta\big)$.
pub fn prop3_epsilon(n: u64, steps: u64, delta: f64) -> Result<f64, ParamError> {
    at_least("n", n, 1)?;
    at_least("T", steps, 1)?;
    crate::error::open_interval("delta", delta, 0.0, 1.0)?;
    let (n, t, e) = (n as f64, steps as f64, std::f64::consts::E);
    Ok((2.0 * t * (2.0 / delta).ln()).sqrt() * e / n + t * e * e / (n * n))
}

/// `prop3.bbg` \[derived\]: with $x=\ln(1+\frac{e-1}n)$,
/// $\sqrt{2T\ln(2/\delta)}\thinspace x+Tx\frac{e-1}n$ (if every $\epsilon_G(t)\le1$).
pub fn prop3_bbg(n: u64, steps: u64, delta: f64) -> Result<f64, ParamError> {
    at_least("n", n, 1)?;
    at_least("T", steps, 1)?;
    crate::error::open_interval("delta", delta, 0.0, 1.0)?;
    let (n, t, e1) = (n as f64, steps as f64, std::f64::consts::E - 1.0);
    let x = (e1 / n).ln_1p();
    Ok((2.0 * t * (2.0 / delta).ln()).sqrt() * x + t * x * e1 / n)
}

#[cfg(test)]
mod privacy_calculator_tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §3 calculator reference values.
    #[test]
    fn lemma6_and_prop3_reference_values() {
        assert_relative_eq!(
            lemma6_gaussian_epsilon(0.1, 1.0, 1.0, 1e-5).unwrap(),
            0.96896105,
            max_relative = 1e-7
        );
        let (e, d) = lemma6_printed(0.1, 1.0, 1.0, 1e-5, 100).unwrap();
        assert_relative_eq!(e, 0.02601082, max_relative = 1e-6);
        assert_relative_eq!(d, 1e-7, max_relative = 1e-12);
        assert_relative_eq!(
            lemma6_bbg(0.1, 1.0, 1.0, 1e-5, 100).unwrap().0,
            0.01621980,
            max_relative = 1e-6
        );
        assert_relative_eq!(
            prop3_epsilon(1000, 1000, 1e-5).unwrap(),
            0.43210391,
            max_relative = 1e-7
        );
        assert_relative_eq!(
            prop3_bbg(1000, 1000, 1e-5).unwrap(),
            0.27119056,
            max_relative = 1e-7
        );
        assert_eq!(prop3_epsilon(0, 10, 1e-5).unwrap_err().name, "n");
    }
}

#[cfg(test)]
mod privacy_tests {
    use super::*;
    use crate::privacy::pld::PldOptions;

    #[test]
    fn theorem2_privacy_by_pld_is_far_below_the_stated_level() {
        let s = reference_n200();
        let m = s.step_noise_multipliers();
        assert_eq!(m.len(), 2828);
        assert!(m.iter().all(|x| x.is_finite() && *x > 1.0), "{:?}", &m[..3]);
        let b = s
            .pld_epsilon(1.0 / 200.0, 1e-3, &PldOptions::default())
            .unwrap();
        assert!(b.optimistic <= b.pessimistic);
        let stated = theorem2_epsilon(200f64.powf(-0.25), 1e-3).unwrap();
        assert!(b.pessimistic < stated, "{b:?} vs {stated}");
        eprintln!(
            "multipliers {:.3} .. {:.3}; pld {b:?}; stated {stated}",
            m[0],
            m[m.len() - 1]
        );
    }
}
