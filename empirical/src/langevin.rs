//! Langevin sampling on quadratic potentials, where every law is Gaussian and known exactly
//! (seed 004, THEOREMS.md §5 "exact Gaussian route").
//!
//! For $f(x)=\frac12(x-x^\ast)^\top H(x-x^\ast)$ with $H$ symmetric positive definite:
//! - ULA $x_{k+1}=x_k-\eta\nabla f(x_k)+\sqrt{2\eta}\thinspace\xi_k$: with $A=I-\eta H$,
//!   $m_{k+1}-x^\ast=A(m_k-x^\ast)$, $S_{k+1}=AS_kA^\top+2\eta I$;
//! - the Langevin diffusion $dX=-\nabla f(X)dt+\sqrt2dB$ (Ornstein–Uhlenbeck):
//!   $m(t)=x^\ast+e^{-Ht}(m_0-x^\ast)$, $S(t)=e^{-Ht}S_0e^{-Ht}+H^{-1}(I-e^{-2Ht})$.

use nalgebra::{DMatrix, DVector};

/// A Gaussian law $\mathcal N(\text{mean},\text{cov})$.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianLaw {
    /// Mean.
    pub mean: DVector<f64>,
    /// Covariance (symmetric positive semi-definite).
    pub cov: DMatrix<f64>,
}

/// A quadratic potential $f(x)=\frac12(x-x^\ast)^\top H(x-x^\ast)$.
#[derive(Debug, Clone, PartialEq)]
pub struct Quadratic {
    /// The Hessian $H$ (symmetric positive definite).
    pub hessian: DMatrix<f64>,
    /// The minimiser $x^\ast$.
    pub minimiser: DVector<f64>,
}

impl Quadratic {
    /// The law of ULA's iterate after `steps` steps of size `eta` from `init`.
    pub fn ula_law(&self, init: &GaussianLaw, eta: f64, steps: u64) -> GaussianLaw {
        let d = self.minimiser.len();
        let a = DMatrix::identity(d, d) - &self.hessian * eta;
        let mut mean = &init.mean - &self.minimiser;
        let mut cov = init.cov.clone();
        for _ in 0..steps {
            mean = &a * mean;
            cov = &a * cov * a.transpose() + DMatrix::identity(d, d) * (2.0 * eta);
        }
        GaussianLaw {
            mean: mean + &self.minimiser,
            cov,
        }
    }

    /// The law of the Langevin diffusion at time `t` from `init` (symmetric eigendecomposition of $H$).
    pub fn diffusion_law(&self, init: &GaussianLaw, t: f64) -> GaussianLaw {
        let eig = self.hessian.clone().symmetric_eigen();
        let q = &eig.eigenvectors;
        let lam = &eig.eigenvalues;
        let diag = |f: &dyn Fn(f64) -> f64| q * DMatrix::from_diagonal(&lam.map(f)) * q.transpose();
        let decay = diag(&|l: f64| (-l * t).exp());
        let stationary_part = diag(&|l: f64| -(-2.0 * l * t).exp_m1() / l);
        let mean = &self.minimiser + &decay * (&init.mean - &self.minimiser);
        let cov = &decay * &init.cov * decay.transpose() + stationary_part;
        GaussianLaw {
            mean,
            cov: (cov.clone() + cov.transpose()) * 0.5,
        }
    }

    /// [`Quadratic::ula_law`] in closed form for a start $\mathcal N(m_0,v_0I)$, for any number of
    /// steps: in the eigenbasis of $H$ (eigenvalues $\lambda_i$, $a_i=1-\eta\lambda_i$) the mean decays
    /// by $a_i^T$ and the variance is $a_i^{2T}v_0+2\eta\sum_{j<T}a_i^{2j}$.
    pub fn ula_law_isotropic_start(
        &self,
        mean0: &DVector<f64>,
        var0: f64,
        eta: f64,
        steps: u64,
    ) -> GaussianLaw {
        let eig = self.hessian.clone().symmetric_eigen();
        let q = &eig.eigenvectors;
        let t = steps as f64;
        let (decay, var): (Vec<f64>, Vec<f64>) = eig
            .eigenvalues
            .iter()
            .map(|&l| {
                let a = 1.0 - eta * l;
                let a2t = (2.0 * t * a.abs().ln()).exp();
                let sum = if (a * a - 1.0).abs() < 1e-300 {
                    t
                } else {
                    (1.0 - a2t) / (1.0 - a * a)
                };
                let sign = if a < 0.0 && steps % 2 == 1 { -1.0 } else { 1.0 };
                (sign * a2t.sqrt(), a2t * var0 + 2.0 * eta * sum)
            })
            .unzip();
        let decay = q * DMatrix::from_diagonal(&DVector::from_vec(decay)) * q.transpose();
        let cov = q * DMatrix::from_diagonal(&DVector::from_vec(var)) * q.transpose();
        GaussianLaw {
            mean: &self.minimiser + decay * (mean0 - &self.minimiser),
            cov: (cov.clone() + cov.transpose()) * 0.5,
        }
    }

    /// The target $\pi=\mathcal N(x^\ast,H^{-1})$.
    pub fn target(&self) -> Option<GaussianLaw> {
        Some(GaussianLaw {
            mean: self.minimiser.clone(),
            cov: self.hessian.clone().try_inverse()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// THEOREMS.md §5 moment self-test: H = diag(1, 2, 4), x0 = (3, -2, 1), eta = 0.05, T = 40.
    #[test]
    fn moment_reference_values() {
        let q = Quadratic {
            hessian: DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 2.0, 4.0])),
            minimiser: DVector::zeros(3),
        };
        let init = GaussianLaw {
            mean: DVector::from_vec(vec![3.0, -2.0, 1.0]),
            cov: DMatrix::zeros(3, 3),
        };
        let ula = q.ula_law(&init, 0.05, 40);
        for (got, want) in ula.mean.iter().zip([0.3855365, -0.02956177, 1.329228e-4]) {
            assert_relative_eq!(*got, want, max_relative = 1e-6);
        }
        for (i, want) in [1.008702, 0.5262008, 0.2777778].iter().enumerate() {
            assert_relative_eq!(ula.cov[(i, i)], *want, max_relative = 1e-6);
        }
        let closed = q.ula_law_isotropic_start(&init.mean, 0.0, 0.05, 40);
        assert!((closed.mean - &ula.mean).amax() < 1e-12);
        assert!((closed.cov - &ula.cov).amax() < 1e-12);
        let rotated = Quadratic {
            hessian: DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]),
            minimiser: DVector::from_vec(vec![1.0, -1.0]),
        };
        let start = DVector::from_vec(vec![0.0, 2.0]);
        for steps in [0, 1, 7, 300] {
            let iterated = rotated.ula_law(
                &GaussianLaw {
                    mean: start.clone(),
                    cov: DMatrix::identity(2, 2) * 0.3,
                },
                0.7,
                steps,
            );
            let closed = rotated.ula_law_isotropic_start(&start, 0.3, 0.7, steps);
            assert!((closed.mean - iterated.mean).amax() < 1e-10, "{steps}");
            assert!((closed.cov - iterated.cov).amax() < 1e-10, "{steps}");
        }
        let ou = q.diffusion_law(&init, 2.0);
        for (got, want) in ou.mean.iter().zip([0.4060059, -0.03663128, 3.354626e-4]) {
            assert_relative_eq!(*got, want, max_relative = 1e-6);
        }
        for (i, want) in [0.9816844, 0.4998323, 0.2500000].iter().enumerate() {
            assert_relative_eq!(ou.cov[(i, i)], *want, max_relative = 1e-6);
        }
    }
}

/// A smooth potential $f$ with its gradient.
pub trait Potential: Sync {
    /// The dimension $d$.
    fn dim(&self) -> usize;
    /// $\nabla f(x)$ into `out`.
    fn gradient(&self, x: &[f64], out: &mut [f64]);
}

/// $f(x)=\frac12\Vert x\Vert^2+\sum_i\ln\cosh x_i$: 1-strongly convex, 2-smooth (THEOREMS.md §5 (i)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogCoshQuadratic {
    /// The dimension $d$.
    pub d: usize,
}

impl Potential for LogCoshQuadratic {
    fn dim(&self) -> usize {
        self.d
    }
    fn gradient(&self, x: &[f64], out: &mut [f64]) {
        for (o, xi) in out.iter_mut().zip(x) {
            *o = xi + xi.tanh();
        }
    }
}

/// $f(x)=\frac12\sum_ih_ix_i^2$ (diagonal Hessian, minimiser 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DiagonalQuadratic {
    /// The diagonal $h_i>0$ of the Hessian.
    pub h: Vec<f64>,
}

impl Potential for DiagonalQuadratic {
    fn dim(&self) -> usize {
        self.h.len()
    }
    fn gradient(&self, x: &[f64], out: &mut [f64]) {
        for ((o, xi), hi) in out.iter_mut().zip(x).zip(&self.h) {
            *o = hi * xi;
        }
    }
}

/// When a fine-step path is stopped (sent to $\bot$) in Theorem 12's processes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StopRule {
    /// Never (the self-test against the closed-form path KL).
    Never,
    /// `stop-printed`: after sub-step $j+1$, if $\Vert x_{(j+1)\eta/k}-x_{\lfloor(j+1)/k\rfloor\eta}\Vert>r$
    /// (the anchor of the *next* position, so a block's last sub-step is never checked).
    Printed(f64),
    /// `stop-prev`: against the anchor $x_{\lfloor j/k\rfloor\eta}$ of the block the sub-step is in.
    Previous(f64),
}

/// One path of Theorem 12's fine-step process $\psi$ (gradient frozen at each block's anchor,
/// sub-steps $\eta/k$, noise $\mathcal N(0,\frac{2\eta}kI)$) from `x0` for `steps` blocks, and its
/// log-likelihood ratio against $\psi'$ (fine gradient) up to the stop:
/// $\ell=\sum_j(\Vert y-m'_j\Vert^2-\Vert y-m_j\Vert^2)/(2s^2)$, $s^2=2\eta/k$ (`variance_scale` multiplies the
/// $s^2$ used in $\ell$: 1 is correct, 0.5 is a mutant).
#[allow(clippy::too_many_arguments)]
pub fn path_log_ratio<P: Potential>(
    potential: &P,
    x0: &[f64],
    eta: f64,
    steps: u64,
    k: u64,
    stop: StopRule,
    variance_scale: f64,
    rng: &mut crate::rng::TrialRng,
    ws: &mut [Vec<f64>; 4],
) -> f64 {
    use rand_distr::{Distribution, StandardNormal};
    let [x, anchor, g_anchor, g_fine] = ws;
    x.copy_from_slice(x0);
    let h = eta / k as f64;
    let s = (2.0 * h).sqrt();
    let s2_est = 2.0 * h * variance_scale;
    let mut log_ratio = 0.0;
    for block in 0..steps {
        anchor.copy_from_slice(x);
        potential.gradient(anchor, g_anchor);
        for sub in 0..k {
            potential.gradient(x, g_fine);
            let (mut cross, mut gap2, mut dist2) = (0.0, 0.0, 0.0);
            for i in 0..x.len() {
                let xi: f64 = StandardNormal.sample(rng);
                let diff = h * (g_fine[i] - g_anchor[i]); // m - m'
                cross += s * xi * diff;
                gap2 += diff * diff;
                x[i] += -h * g_anchor[i] + s * xi;
                dist2 += (x[i] - anchor[i]) * (x[i] - anchor[i]);
            }
            // ||y - m'||^2 - ||y - m||^2 = 2 s xi.(m - m') + ||m - m'||^2 (exact noise s^2 in y).
            log_ratio += (2.0 * cross + gap2) / (2.0 * s2_est);
            let stopped = match stop {
                StopRule::Never => false,
                StopRule::Previous(r) => dist2 > r * r,
                StopRule::Printed(r) => sub + 1 < k && dist2 > r * r,
            };
            if stopped {
                return log_ratio;
            }
        }
        let _ = block;
    }
    log_ratio
}

#[cfg(test)]
mod path_tests {
    use super::*;
    use crate::rng::StreamKey;

    /// THEOREMS.md kl_path (ii): H = 2I, d = 2, eta = 0.05, T = 20, k = 10, x0 = (2, -1), no
    /// stop: the path KL E[l] is 0.09591677.
    #[test]
    fn path_kl_matches_closed_form() {
        let pot = DiagonalQuadratic { h: vec![2.0, 2.0] };
        let key = StreamKey::new(1, &["path"]);
        let mut ws = [vec![0.0; 2], vec![0.0; 2], vec![0.0; 2], vec![0.0; 2]];
        let n = 40_000;
        let mean: f64 = (0..n)
            .map(|i| {
                path_log_ratio(
                    &pot,
                    &[2.0, -1.0],
                    0.05,
                    20,
                    10,
                    StopRule::Never,
                    1.0,
                    &mut key.trial(i),
                    &mut ws,
                )
            })
            .sum::<f64>()
            / n as f64;
        assert!((mean - 0.09591677).abs() < 0.004, "{mean}");
    }
}

/// ULA run as the Langevin diffusion's time-discretisation, observed between steps: on step $k$
/// the continuous interpolation is $x_{k\eta+s}=x_{k\eta}-s\nabla f(x_{k\eta})+\sqrt2(B_{k\eta+s}-B_{k\eta})$,
/// sampled at `subgrid` points per step (the last one is the next iterate). Returns
/// $(\max_k\sup_s\Vert x_{k\eta+s}-x_{k\eta}\Vert,\ \max_k\Vert\nabla f(x_{k\eta})\Vert)$ — Lemma 13's two
/// quantities. `ws` holds four buffers of length $d$.
#[allow(clippy::too_many_arguments)]
pub fn ula_movement<P: Potential>(
    potential: &P,
    x0: &[f64],
    eta: f64,
    steps: u64,
    subgrid: u64,
    rng: &mut crate::rng::TrialRng,
    ws: &mut [Vec<f64>; 4],
) -> (f64, f64) {
    use rand_distr::{Distribution, StandardNormal};
    let [x, g, brownian, _] = ws;
    x.copy_from_slice(x0);
    let (mut max_move, mut max_grad) = (0.0f64, 0.0f64);
    let dt = eta / subgrid as f64;
    let sd = (2.0 * dt).sqrt(); // sqrt(2) times the Brownian increment's sd
    for _ in 0..steps {
        potential.gradient(x, g);
        max_grad = max_grad.max(g.iter().map(|v| v * v).sum::<f64>().sqrt());
        brownian.iter_mut().for_each(|b| *b = 0.0);
        for j in 1..=subgrid {
            let s = j as f64 * dt;
            let mut dist2 = 0.0;
            for i in 0..x.len() {
                let z: f64 = StandardNormal.sample(rng);
                brownian[i] += sd * z;
                let disp = -s * g[i] + brownian[i];
                dist2 += disp * disp;
            }
            max_move = max_move.max(dist2.sqrt());
        }
        for i in 0..x.len() {
            x[i] += -eta * g[i] + brownian[i];
        }
    }
    (max_move, max_grad)
}
