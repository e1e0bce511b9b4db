//! Langevin sampling on quadratic potentials, where every law is Gaussian and known exactly
//! (seed 004, THEOREMS.md §5 "exact Gaussian route").
//!
//! For $f(x)=\frac12(x-x^*)^\top H(x-x^*)$ with $H$ symmetric positive definite:
//! - ULA $x_{k+1}=x_k-\eta\nabla f(x_k)+\sqrt{2\eta}\,\xi_k$: with $A=I-\eta H$,
//!   $m_{k+1}-x^*=A(m_k-x^*)$, $S_{k+1}=AS_kA^\top+2\eta I$;
//! - the Langevin diffusion $dX=-\nabla f(X)dt+\sqrt2dB$ (Ornstein–Uhlenbeck):
//!   $m(t)=x^*+e^{-Ht}(m_0-x^*)$, $S(t)=e^{-Ht}S_0e^{-Ht}+H^{-1}(I-e^{-2Ht})$.

use nalgebra::{DMatrix, DVector};

/// A Gaussian law $\mathcal N(\text{mean},\text{cov})$.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianLaw {
    pub mean: DVector<f64>,
    pub cov: DMatrix<f64>,
}

/// A quadratic potential $f(x)=\frac12(x-x^*)^\top H(x-x^*)$.
#[derive(Debug, Clone, PartialEq)]
pub struct Quadratic {
    pub hessian: DMatrix<f64>,
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

    /// The target $\pi=\mathcal N(x^*,H^{-1})$.
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
        let ou = q.diffusion_law(&init, 2.0);
        for (got, want) in ou.mean.iter().zip([0.4060059, -0.03663128, 3.354626e-4]) {
            assert_relative_eq!(*got, want, max_relative = 1e-6);
        }
        for (i, want) in [0.9816844, 0.4998323, 0.2500000].iter().enumerate() {
            assert_relative_eq!(ou.cov[(i, i)], *want, max_relative = 1e-6);
        }
    }
}
