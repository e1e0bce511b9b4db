//! A convergent Rényi-DP bound for noisy gradient descent, checked exactly on a Gaussian law.
//!
//! **Source.** R. Chourasia, J. Ye, R. Shokri (2021), *Differential Privacy Dynamics of Langevin
//! Diffusion and Noisy Gradient Descent*, NeurIPS 2021, arXiv 2102.05855, Theorem 2: noisy GD
//! $\theta_{k+1}=\theta_k-\eta\nabla\mathcal L_D(\theta_k)+\sqrt{2\eta}\thinspace\sigma\thinspace\xi_k$ on
//! $\mathcal L_D=\frac1n\sum_i\ell(\cdot;x_i)$ with $\ell$ $\lambda$-strongly convex and
//! $\beta$-smooth, per-example gradient sensitivity
//! $S_g=\sup_{\theta,x,x'}\Vert\nabla\ell(\theta;x)-\nabla\ell(\theta;x')\Vert$, step $\eta<1/\beta$ and
//! start $\theta_0\sim\mathcal N(0,\frac{2\sigma^2}\lambda I)$ is $(\alpha,\varepsilon)$-RDP with
//! $$\varepsilon=\frac{\alpha S_g^2}{\lambda\sigma^2n^2}\big(1-e^{-\lambda\eta K/2}\big)$$
//! after $K$ steps: the privacy loss converges instead of growing with $K$. (Constants as we
//! read the theorem; the paper is not among dpclaims' seed papers, and its text, page and
//! equation numbers were not at hand when this was checked. The same conventions and
//! constants, noise $\sqrt{2\eta}\thinspace\sigma$, start $\Pi_C(\mathcal N(0,\frac{2\sigma^2}\lambda I))$,
//! $\eta<1/\beta$ and $\varepsilon=\frac{4\alpha L^2}{\lambda\sigma^2n^2}(1-e^{-\lambda\eta K/2})$
//! for an $L$-Lipschitz loss ($S_g\le2L$), are those of the implementation of the related SGLD
//! bound of Ryffel, Bach & Pointcheval (2022, arXiv 2201.11980): github.com/LaRiffle/langevin,
//! `privacy/compute.py` and `procedure/train.py`.)
//!
//! **Check.** On $\ell(\theta;x)=\frac\lambda2\Vert\theta-x\Vert^2$ with $\Vert x\Vert\le R$ ($\beta=\lambda$,
//! $S_g=2\lambda R$) noisy GD is ULA on $f=\mathcal L_D/\sigma^2$ with step $h=\eta\sigma^2$, so
//! $\theta_K$ is Gaussian, computed exactly by [`Quadratic::ula_law`]. The worst neighbouring
//! pair moves one record from $Re_1$ to $-Re_1$ (the divergence grows with the mean gap
//! $\Vert\bar x-\bar x'\Vert\le2R/n$); both laws share their covariance, and
//! $D_\alpha(\theta_K\Vert\theta'_K)$ is the exact Gaussian Rényi divergence. As $K\to\infty$ it
//! tends to $\frac{\alpha S_g^2(2-\eta\lambda)}{4\lambda\sigma^2n^2}$, at most half the bound.
//!
//! **Mutant** `noise-halved`: the iteration adds $\sqrt{2\eta}\thinspace\sigma/2$ noise while the bound
//! keeps $\sigma$; the exact divergence then reaches $(2-\eta\lambda)$ times the bound.

use dpclaims::empirical::langevin::{GaussianLaw, Quadratic};
use dpclaims::nalgebra::{DMatrix, DVector};
use dpclaims::prelude::*;
use dpclaims::theorems::{error, renyi_discretization::gaussian as renyi};

const NOISE_HALVED: Mutant = Mutant {
    name: "noise-halved",
    description: "measurement side: noisy GD adds noise sqrt(2 eta) sigma / 2 instead of sqrt(2 eta) sigma",
};

static INFO: ClaimInfo = ClaimInfo {
    id: "noisy_gd.convergent_rdp",
    paper: "Chourasia, Ye, Shokri (2021), Differential Privacy Dynamics of Langevin Diffusion and Noisy Gradient Descent, NeurIPS, arXiv 2102.05855",
    result: "Theorem 2 (Renyi DP of noisy GD, strongly convex and smooth loss) [constants as read]",
    statement: "D_alpha(theta_K || theta'_K) <= alpha S_g^2 / (lambda sigma^2 n^2) (1 - exp(-lambda eta K / 2))",
    mutants: &[NOISE_HALVED],
    known_false: false,
    tautologies: &[],
    perturbation: None,
};

/// The claim `noisy_gd.convergent_rdp` (module documentation).
pub struct NoisyGdRdp;

impl Claim for NoisyGdRdp {
    fn info(&self) -> &ClaimInfo {
        &INFO
    }

    fn cases(&self) -> Vec<Params> {
        let mut cases = Vec::new();
        for (lambda, eta) in [(1.0, 0.1), (0.5, 1.0)] {
            for steps in [10, 100, 1000] {
                cases.push(params! {
                    "lambda" => lambda, "eta" => eta, "sigma" => 1.0, "n" => 100, "R" => 1.0,
                    "d" => 2, "K" => steps, "alpha" => [2.0, 8.0],
                });
            }
        }
        cases
    }

    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
        let lambda = error::positive("lambda", case.f64("lambda")?)?;
        let eta = error::positive("eta", case.f64("eta")?)?;
        if eta * lambda >= 1.0 {
            return Err(ParamError::new(
                "eta",
                eta,
                "a step below 1/beta = 1/lambda",
            ));
        }
        let sigma = error::positive("sigma", case.f64("sigma")?)?;
        let radius = error::positive("R", case.f64("R")?)?;
        let n = match case.u64("n")? {
            0 => return Err(ParamError::new("n", 0, "a dataset size >= 1")),
            n => n as f64,
        };
        let d = match case.u64("d")? {
            d @ 1..=100 => d as usize,
            d => return Err(ParamError::new("d", d, "a dimension from 1 to 100")),
        };
        let steps = match case.u64("K")? {
            k @ 0..=1_000_000 => k,
            k => return Err(ParamError::new("K", k, "at most 10^6 steps")),
        };
        // The algorithm's noise (halved under the mutant); the start law is the theorem's.
        let noise = if run.mutant == Some(NOISE_HALVED.name) {
            sigma / 2.0
        } else {
            sigma
        };
        let start = GaussianLaw {
            mean: DVector::zeros(d),
            cov: DMatrix::identity(d, d) * (2.0 * sigma * sigma / lambda),
        };
        // Noisy GD on mean record x_bar = ULA on f = L_D / noise^2 with step eta noise^2.
        let law = |x_bar: f64| {
            let mut minimiser = DVector::zeros(d);
            minimiser[0] = x_bar;
            let quadratic = Quadratic {
                hessian: DMatrix::identity(d, d) * (lambda / (noise * noise)),
                minimiser,
            };
            quadratic.ula_law(&start, eta * noise * noise, steps)
        };
        let (p, q) = (law(radius / n), law(-radius / n));
        let s_g = 2.0 * lambda * radius;
        let factor = -(-lambda * eta * steps as f64 / 2.0).exp_m1();
        case.f64_list("alpha")?
            .into_iter()
            .map(|alpha| {
                let mut params = case.clone();
                params.set("alpha", alpha.into());
                Ok(Measurement {
                    params,
                    bound: alpha * s_g * s_g / (lambda * sigma * sigma * n * n) * factor,
                    relation: Relation::AtMost,
                    statistic: Statistic::Exact {
                        value: renyi(alpha, &p.mean, &p.cov, &q.mean, &q.cov)?,
                    },
                })
            })
            .collect()
    }
}
