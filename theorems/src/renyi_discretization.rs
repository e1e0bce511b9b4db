//! Rényi divergence between discretised and continuous Langevin: Ganesh & Talwar (2020),
//! *Faster Differentially Private Samplers via Rényi Divergence Analysis of Discretized
//! Langevin MCMC*, arXiv 2010.14658 (seed 004). The paper's displayed formulas are lost in our
//! copy; the forms are THEOREMS.md §5's reconstructions.
//!
//! This module so far holds the calculators: Rényi divergence between Gaussians (with its
//! validity condition), the Theorem 12 bound, the Lemma 13 movement radius, the weak triangle
//! inequality, and ULA's stationary divergence on a 1-D quadratic.

use crate::error::{ParamError, at_least, positive};
use nalgebra::{DMatrix, DVector};

fn order(alpha: f64) -> Result<f64, ParamError> {
    if alpha > 0.0 && alpha.is_finite() && alpha != 1.0 {
        Ok(alpha)
    } else {
        Err(ParamError::new(
            "alpha",
            alpha,
            "a finite order > 0, != 1 (use kl for alpha = 1)",
        ))
    }
}

type Cholesky = nalgebra::Cholesky<f64, nalgebra::Dyn>;

/// Means of length $d$ and covariances of shape $d\times d$.
fn check_shapes(
    mu1: &DVector<f64>,
    s1: &DMatrix<f64>,
    mu2: &DVector<f64>,
    s2: &DMatrix<f64>,
) -> Result<(), ParamError> {
    let d = mu1.len();
    if mu2.len() != d || s1.shape() != (d, d) || s2.shape() != (d, d) {
        return Err(ParamError::new(
            "dimension",
            format!("{d}, {}, {:?}, {:?}", mu2.len(), s1.shape(), s2.shape()),
            "matching means and covariances",
        ));
    }
    Ok(())
}

/// The Cholesky factor of a covariance that must be positive definite (`name` in the error).
fn cholesky(m: &DMatrix<f64>, name: &str) -> Result<Cholesky, ParamError> {
    m.clone().cholesky().ok_or_else(|| {
        ParamError::new(
            name,
            "not positive definite",
            "a positive-definite covariance",
        )
    })
}

/// $\ln\det\Sigma$ from its Cholesky factor.
fn log_det(c: &Cholesky) -> f64 {
    2.0 * c.l().diagonal().iter().map(|x| x.ln()).sum::<f64>()
}

/// $D_\alpha(\mathcal N(\mu_1,\Sigma_1)\Vert\mathcal N(\mu_2,\Sigma_2))$ \[recalled\]: with
/// $\Sigma_\alpha=\alpha\Sigma_2+(1-\alpha)\Sigma_1$,
/// $$\tfrac\alpha2(\mu_1-\mu_2)^\top\Sigma_\alpha^{-1}(\mu_1-\mu_2)-\tfrac1{2(\alpha-1)}\ln\frac{\det\Sigma_\alpha}{(\det\Sigma_1)^{1-\alpha}(\det\Sigma_2)^\alpha},$$
/// $+\infty$ when $\Sigma_\alpha$ is not positive definite (possible for $\alpha>1$).
pub fn gaussian(
    alpha: f64,
    mu1: &DVector<f64>,
    s1: &DMatrix<f64>,
    mu2: &DVector<f64>,
    s2: &DMatrix<f64>,
) -> Result<f64, ParamError> {
    order(alpha)?;
    check_shapes(mu1, s1, mu2, s2)?;
    let (l1, l2) = (
        log_det(&cholesky(s1, "sigma1")?),
        log_det(&cholesky(s2, "sigma2")?),
    );
    let Some(chol) = (s2 * alpha + s1 * (1.0 - alpha)).cholesky() else {
        return Ok(f64::INFINITY);
    };
    let diff = mu1 - mu2;
    let quad = diff.dot(&chol.solve(&diff));
    Ok(0.5 * alpha * quad
        - (log_det(&chol) - (1.0 - alpha) * l1 - alpha * l2) / (2.0 * (alpha - 1.0)))
}

/// $\mathrm{KL}(\mathcal N(\mu_1,\Sigma_1)\Vert\mathcal N(\mu_2,\Sigma_2))=\frac12\big[\mathrm{tr}(\Sigma_2^{-1}\Sigma_1)+(\mu_2-\mu_1)^\top\Sigma_2^{-1}(\mu_2-\mu_1)-d+\ln\frac{\det\Sigma_2}{\det\Sigma_1}\big]$ ($D_1$).
pub fn gaussian_kl(
    mu1: &DVector<f64>,
    s1: &DMatrix<f64>,
    mu2: &DVector<f64>,
    s2: &DMatrix<f64>,
) -> Result<f64, ParamError> {
    check_shapes(mu1, s1, mu2, s2)?;
    let (c1, c2) = (cholesky(s1, "sigma1")?, cholesky(s2, "sigma2")?);
    let diff = mu2 - mu1;
    let trace = c2.solve(s1).trace();
    Ok(0.5 * (trace + diff.dot(&c2.solve(&diff)) - mu1.len() as f64 + log_det(&c2) - log_det(&c1)))
}

/// The largest order at which $D_\alpha(\mathcal N(\cdot,\Sigma_1)\Vert\mathcal N(\cdot,\Sigma_2))$ is
/// finite: $\Sigma_1+\alpha(\Sigma_2-\Sigma_1)\succ0$ iff $\alpha<1/\lambda_{\max}$ with
/// $\lambda_{\max}$ the top eigenvalue of $\Sigma_1^{-1/2}(\Sigma_1-\Sigma_2)\Sigma_1^{-1/2}$
/// ($+\infty$ when $\lambda_{\max}\le0$).
pub fn critical_order(s1: &DMatrix<f64>, s2: &DMatrix<f64>) -> Result<f64, ParamError> {
    if s1.shape() != s2.shape() || s1.nrows() != s1.ncols() {
        return Err(ParamError::new(
            "dimension",
            format!("{:?}, {:?}", s1.shape(), s2.shape()),
            "two square covariances of one size",
        ));
    }
    let c = cholesky(s1, "sigma1")?;
    let l_inv = c
        .l()
        .try_inverse()
        .ok_or_else(|| ParamError::new("sigma1", "singular", "a positive-definite covariance"))?;
    let m = &l_inv * (s1 - s2) * l_inv.transpose();
    let top = m.symmetric_eigen().eigenvalues.max();
    Ok(if top <= 0.0 { f64::INFINITY } else { 1.0 / top })
}

/// One-dimensional [`gaussian`]: means and variances.
pub fn gaussian_1d(alpha: f64, m1: f64, v1: f64, m2: f64, v2: f64) -> Result<f64, ParamError> {
    positive("v1", v1)?;
    positive("v2", v2)?;
    gaussian(
        alpha,
        &DVector::from_element(1, m1),
        &DMatrix::from_element(1, 1, v1),
        &DVector::from_element(1, m2),
        &DMatrix::from_element(1, 1, v2),
    )
}

/// Theorem 12 \[reconstructed\]: the stopped discrete and continuous processes satisfy
/// $D_\alpha\le\alpha L^2r^2T\eta/4$ (independent of the number $k$ of fine steps).
pub fn theorem12_bound(
    alpha: f64,
    smoothness: f64,
    radius: f64,
    steps: u64,
    eta: f64,
) -> Result<f64, ParamError> {
    if !(alpha >= 1.0 && alpha.is_finite()) {
        return Err(ParamError::new("alpha", alpha, "a finite order >= 1"));
    }
    positive("L", smoothness)?;
    positive("r", radius)?;
    at_least("T", steps, 1)?;
    positive("eta", eta)?;
    Ok(alpha * smoothness * smoothness * radius * radius * steps as f64 * eta / 4.0)
}

/// Lemma 13, derived form: with probability at least $1-\delta/2-P(\max_k\Vert\nabla f(x_{k\eta})\Vert>G)$,
/// no step moves further than $r=\eta G+\sqrt{2\eta}\thinspace(2\sqrt d+\sqrt{2\ln(2T/\delta)})$.
pub fn lemma13_radius(
    eta: f64,
    gradient_bound: f64,
    dim: u64,
    steps: u64,
    delta: f64,
) -> Result<f64, ParamError> {
    positive("eta", eta)?;
    crate::error::non_negative("G", gradient_bound)?;
    at_least("d", dim, 1)?;
    at_least("T", steps, 1)?;
    crate::error::open_interval("delta", delta, 0.0, 1.0)?;
    Ok(eta * gradient_bound
        + (2.0 * eta).sqrt()
            * (2.0 * (dim as f64).sqrt() + (2.0 * (2.0 * steps as f64 / delta).ln()).sqrt()))
}

/// Weak triangle inequality (Mironov 2017, Prop. 11) \[recalled\]:
/// $D_\alpha(P\Vert R)\le\frac{\alpha-1/2}{\alpha-1}D_{2\alpha}(P\Vert Q)+D_{2\alpha-1}(Q\Vert R)$.
pub fn weak_triangle(
    alpha: f64,
    d_2alpha_pq: f64,
    d_2alpha_minus_1_qr: f64,
) -> Result<f64, ParamError> {
    if !(alpha > 1.0 && alpha.is_finite()) {
        return Err(ParamError::new("alpha", alpha, "a finite order > 1"));
    }
    Ok((alpha - 0.5) / (alpha - 1.0) * d_2alpha_pq + d_2alpha_minus_1_qr)
}

/// ULA's stationary law on $f=\frac h2x^2$ is $\mathcal N(0,\frac1{h(1-u)})$, $u=\eta h/2$ \[derived\];
/// $D_\alpha(\mathrm{ULA}_\infty\Vert\pi)=\frac12\ln(1-u)-\frac1{2(\alpha-1)}\ln\frac{1-\alpha u}{1-u}$, finite iff
/// $\alpha<2/(\eta h)$.
pub fn ula_stationary(eta: f64, h: f64, alpha: f64) -> Result<f64, ParamError> {
    positive("eta", eta)?;
    positive("h", h)?;
    order(alpha)?;
    let u = eta * h / 2.0;
    if u >= 1.0 {
        return Err(ParamError::new(
            "eta",
            eta,
            format!("eta < 2/h = {} (ULA diverges otherwise)", 2.0 / h),
        ));
    }
    if alpha * u >= 1.0 {
        return Ok(f64::INFINITY);
    }
    Ok(0.5 * (1.0 - u).ln() - ((1.0 - alpha * u) / (1.0 - u)).ln() / (2.0 * (alpha - 1.0)))
}

/// The step size and number of ULA steps the derived pipeline (THEOREMS.md `rd.main`,
/// `main.scaling`) needs for $D_\alpha(\mathrm{ULA}_T\Vert\pi)\le\varepsilon$ except on an event of
/// probability $\delta$ (the stop rule's failure), with each of the two terms of the weak triangle
/// inequality given half of $\varepsilon$.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct IterationComplexity {
    /// Continuous time $\tau$ with $e^{-2m\tau/(2\alpha-1)}\frac d2\ln\frac Lm\le\varepsilon/2$ (VW19 + `rd.init`).
    pub tau: f64,
    /// The largest step size whose discretisation term is at most $\varepsilon/2$.
    pub eta: f64,
    /// $T=\lceil\tau/\eta\rceil$.
    pub steps: u64,
    /// Gradient-norm bound $G=L(\sqrt d+\sqrt{2\ln(2T/\delta)})/\sqrt m$ (`grad-derived`).
    pub gradient_bound: f64,
    /// Lemma 13's radius at $(\eta,G,d,T,\delta)$.
    pub radius: f64,
    /// $\frac{\alpha-1/2}{\alpha-1}\cdot\frac{2\alpha L^2r^2T\eta}4$ (Theorem 12 at order $2\alpha$).
    pub discretisation: f64,
    /// $D_{2\alpha-1}(\mathrm{OU}_{T\eta}\Vert\pi)\le e^{-2mT\eta/(2\alpha-1)}\frac d2\ln\frac Lm$.
    pub convergence: f64,
}

/// Iteration complexity [derived from `rd.main`]: ULA from $\mathcal N(x^\ast,I/L)$ on an
/// $L$-smooth, $m$-strongly convex $f$ in $d$ dimensions,
/// $$D_\alpha(\mathrm{ULA}\_T\Vert\pi)\le\tfrac{\alpha-1/2}{\alpha-1}D_{2\alpha}(\mathrm{ULA}\_T\Vert\mathrm{OU}\_{T\eta})+D_{2\alpha-1}(\mathrm{OU}_{T\eta}\Vert\pi)\le\varepsilon$$
/// with Theorem 12 (radius of Lemma 13, failure $\delta$) for the first term and VW19 for the
/// second. The step size is found by bisection on $\ln\eta$ in $(0,1/L]$, capped at
/// $1/(2\alpha L)$ (order $2\alpha$ at most half ULA's critical order $\approx2/(\eta L)$); $T=\lceil\tau/\eta\rceil$
/// grows like $\alpha^2\max(\alpha,\varepsilon^{-1})L^2d/(m^2\varepsilon)$ up to logarithms.
pub fn iteration_complexity(
    alpha: f64,
    epsilon: f64,
    smoothness: f64,
    strong_convexity: f64,
    dim: u64,
    delta: f64,
) -> Result<IterationComplexity, ParamError> {
    if !(alpha > 1.0 && alpha.is_finite()) {
        return Err(ParamError::new("alpha", alpha, "a finite order > 1"));
    }
    positive("epsilon", epsilon)?;
    positive("m", strong_convexity)?;
    if !(smoothness >= strong_convexity && smoothness.is_finite()) {
        return Err(ParamError::new(
            "L",
            smoothness,
            format!("finite L >= m = {strong_convexity}"),
        ));
    }
    at_least("d", dim, 1)?;
    crate::error::open_interval("delta", delta, 0.0, 1.0)?;
    let (l, m, d) = (smoothness, strong_convexity, dim as f64);
    let init = d / 2.0 * (l / m).ln();
    let tau = if init <= epsilon / 2.0 {
        0.0
    } else {
        (2.0 * alpha - 1.0) / (2.0 * m) * (2.0 * init / epsilon).ln()
    };
    let at = |eta: f64| -> Result<IterationComplexity, ParamError> {
        let steps = ((tau / eta).ceil() as u64).max(1);
        let t = steps as f64;
        let gradient_bound = l * (d.sqrt() + (2.0 * (2.0 * t / delta).ln()).sqrt()) / m.sqrt();
        let radius = lemma13_radius(eta, gradient_bound, dim, steps, delta)?;
        let discretisation =
            (alpha - 0.5) / (alpha - 1.0) * theorem12_bound(2.0 * alpha, l, radius, steps, eta)?;
        let convergence = (-2.0 * m * t * eta / (2.0 * alpha - 1.0)).exp() * init;
        Ok(IterationComplexity {
            tau,
            eta,
            steps,
            gradient_bound,
            radius,
            discretisation,
            convergence,
        })
    };
    // Theorem 12 is applied at order 2 alpha, and ULA's divergence from the diffusion is finite
    // only below its critical order alpha_c, about 2/(eta L) (rd.stationary), and near it far
    // above the bound (renyi_discretization.exact_gaussian holds for alpha <= alpha_c/2 only):
    // the step is capped at 1/(2 alpha L), so that 2 alpha <= alpha_c/2 = 1/(eta L) and
    // alpha eta L / 2 <= 1/4. (A cap at 1/(alpha L) put 2 alpha exactly at alpha_c.) The
    // discretisation term increases with eta, so the cap only binds where the target is loose.
    let cap = 1.0 / (2.0 * alpha * l);
    let (mut lo, mut hi) = (1e-300_f64, 1.0 / l);
    let top = at(hi)?;
    if top.discretisation <= epsilon / 2.0 {
        return at(cap.min(hi));
    }
    // The discretisation term decreases to 0 with eta (r^2 T eta ~ 2 eta tau (2 sqrt d + ...)^2).
    for _ in 0..2000 {
        let mid = (lo * hi).sqrt();
        if at(mid)?.discretisation <= epsilon / 2.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo < 1.0 + 1e-9 {
            break;
        }
    }
    if (tau / lo).ceil() >= u64::MAX as f64 {
        return Err(ParamError::new(
            "epsilon",
            epsilon,
            "a target reachable in fewer than 2^64 steps",
        ));
    }
    at(lo.min(cap))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §5 reference values (also checked by mpmath quadrature).
    #[test]
    fn gaussian_reference_values() {
        assert_relative_eq!(
            gaussian_1d(2.0, 0.3, 1.0, 0.0, 1.5).unwrap(),
            0.1038915178,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            gaussian_1d(3.0, 0.0, 1.2, 0.5, 1.0).unwrap(),
            0.6615456275,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            gaussian_1d(0.5, 1.0, 0.7, 0.0, 1.0).unwrap(),
            0.3099361895,
            max_relative = 1e-9
        );
        assert_relative_eq!(
            gaussian_1d(5.0, 0.2, 1.0, 0.0, 1.1).unwrap(),
            0.07555239053,
            max_relative = 1e-9
        );
        assert_eq!(gaussian_1d(4.0, 0.0, 1.5, 0.0, 1.0).unwrap(), f64::INFINITY);
        // Same covariance: alpha |a - b|^2 / (2 s^2).
        assert_relative_eq!(
            gaussian_1d(3.0, 1.0, 2.0, 0.0, 2.0).unwrap(),
            0.75,
            max_relative = 1e-14
        );
    }

    #[test]
    fn stationary_reference_values() {
        for (eta, h, alpha, v) in [
            (0.1, 1.0, 2.0, 1.386963e-3),
            (0.1, 1.0, 5.0, 3.901950e-3),
            (0.1, 4.0, 2.0, 0.03226926),
            (0.05, 4.0, 5.0, 0.02079308),
        ] {
            assert_relative_eq!(
                ula_stationary(eta, h, alpha).unwrap(),
                v,
                max_relative = 5e-6
            );
            let var = 1.0 / (h * (1.0 - eta * h / 2.0));
            assert_relative_eq!(
                gaussian_1d(alpha, 0.0, var, 0.0, 1.0 / h).unwrap(),
                v,
                max_relative = 5e-6
            );
        }
        assert_eq!(ula_stationary(0.1, 4.0, 5.0).unwrap(), f64::INFINITY);
    }

    #[test]
    fn bound_and_radius_reference_values() {
        for (r, c) in [(0.25, 0.0625), (0.5, 0.25), (1.0, 1.0)] {
            assert_relative_eq!(
                theorem12_bound(2.0, 2.0, r, 20, 0.05).unwrap(),
                2.0 * c,
                max_relative = 1e-14
            );
        }
        assert_relative_eq!(
            theorem12_bound(1.0, 1.0, 2.2, 10, 0.01).unwrap(),
            0.121,
            max_relative = 1e-12
        );
        assert_relative_eq!(
            lemma13_radius(0.01, 1.0, 200, 10, 0.01).unwrap(),
            4.561395,
            max_relative = 1e-6
        );
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(
            gaussian_1d(1.0, 0.0, 1.0, 0.0, 1.0).unwrap_err().name,
            "alpha"
        );
        assert_eq!(
            gaussian_1d(2.0, 0.0, -1.0, 0.0, 1.0).unwrap_err().name,
            "v1"
        );
        assert_eq!(
            theorem12_bound(2.0, 1.0, 0.0, 1, 0.1).unwrap_err().name,
            "r"
        );
        assert_eq!(ula_stationary(1.0, 4.0, 2.0).unwrap_err().name, "eta");
    }

    #[test]
    fn iteration_complexity_meets_its_target_and_scales_near_linearly_in_d() {
        let c = iteration_complexity(4.0, 0.5, 2.0, 1.0, 10, 0.01).unwrap();
        assert!(c.discretisation <= 0.25 * (1.0 + 1e-12) && c.discretisation > 0.25 * (1.0 - 1e-6));
        assert!(c.convergence <= 0.25 * (1.0 + 1e-12));
        assert!(c.steps as f64 * c.eta >= c.tau);
        // An independent prototype of the same pipeline (Python, bisection to 1e-12) gave T = 995372.
        assert!((c.steps as f64 / 995372.0 - 1.0).abs() < 1e-5, "{c:?}");
        // main.scaling: T ~ d up to logarithms.
        let steps = |d| {
            iteration_complexity(4.0, 0.5, 2.0, 1.0, d, 0.01)
                .unwrap()
                .steps as f64
        };
        let slope = (steps(1000) / steps(100)).log10();
        assert!((1.0..1.3).contains(&slope), "slope {slope}");
        // Larger orders and smaller targets need more steps.
        assert!(
            iteration_complexity(8.0, 0.5, 2.0, 1.0, 10, 0.01)
                .unwrap()
                .steps
                > c.steps
        );
        assert!(
            iteration_complexity(4.0, 0.05, 2.0, 1.0, 10, 0.01)
                .unwrap()
                .steps
                > c.steps
        );
        // A loose target is met at eta = 1/L, but the step stays at 1/(2 alpha L), where the
        // order 2 alpha is half the critical order (found by `dpclaims search
        // renyi_discretization.complexity`: alpha eta L / 2 = 30 at alpha = 60; a first cap at
        // 1/(alpha L) put 2 alpha exactly at the critical order).
        let loose = iteration_complexity(60.0, 10.0, 2.0, 2.0, 1, 0.4).unwrap();
        assert!(
            loose.eta <= 1.0 / 240.0 && loose.eta > 0.99 / 240.0,
            "{loose:?}"
        );
        // No convergence phase is needed when the start is already close enough (L = m).
        assert_eq!(
            iteration_complexity(2.0, 0.1, 1.0, 1.0, 3, 0.01)
                .unwrap()
                .tau,
            0.0
        );
        for bad in [
            iteration_complexity(1.0, 0.5, 2.0, 1.0, 10, 0.01),
            iteration_complexity(4.0, 0.0, 2.0, 1.0, 10, 0.01),
            iteration_complexity(4.0, 0.5, 0.5, 1.0, 10, 0.01),
            iteration_complexity(4.0, 0.5, 2.0, 1.0, 0, 0.01),
            iteration_complexity(4.0, 0.5, 2.0, 1.0, 10, 1.0),
            iteration_complexity(4.0, f64::NAN, 2.0, 1.0, 10, 0.01),
        ] {
            assert!(bad.is_err());
        }
    }
}
