//! Seed 004 exact Gaussian route: the laws of ULA and of the Langevin diffusion on quadratic
//! potentials (empirical) and the Rényi divergence between them (theorems) reproduce the
//! reference tables of THEOREMS.md §5.

use approx::assert_relative_eq;
use dpclaims_empirical::langevin::{GaussianLaw, Quadratic};
use dpclaims_theorems::renyi_discretization::{critical_order, gaussian, gaussian_kl};
use nalgebra::{DMatrix, DVector};

fn divergence(alpha: f64, p: &GaussianLaw, q: &GaussianLaw) -> f64 {
    if alpha == 1.0 {
        gaussian_kl(&p.mean, &p.cov, &q.mean, &q.cov).unwrap()
    } else {
        gaussian(alpha, &p.mean, &p.cov, &q.mean, &q.cov).unwrap()
    }
}

fn diag(v: &[f64]) -> DMatrix<f64> {
    DMatrix::from_diagonal(&DVector::from_vec(v.to_vec()))
}

/// G1: d = 1, h = 1, x* = 0, x0 ~ pi, tau = 2.
#[test]
fn g1_reference_table() {
    let q = Quadratic {
        hessian: diag(&[1.0]),
        minimiser: DVector::zeros(1),
    };
    let init = q.target().unwrap();
    for (eta, steps, ula_ou, ou_ula) in [
        (
            0.1,
            20,
            [6.498304e-4, 1.346211e-3, 3.779881e-3, 9.647389e-3],
            Some([6.282941e-4, 1.216595e-3, 2.779892e-3, 4.877378e-3]),
        ),
        (
            0.01,
            200,
            [6.068407e-6, 1.217688e-5, 3.074717e-5, 6.254218e-5],
            None,
        ),
    ] {
        let ula = q.ula_law(&init, eta, steps);
        let ou = q.diffusion_law(&init, eta * steps as f64);
        for (alpha, want) in [1.0, 2.0, 5.0, 10.0].into_iter().zip(ula_ou) {
            assert_relative_eq!(divergence(alpha, &ula, &ou), want, max_relative = 2e-6);
        }
        if let Some(rev) = ou_ula {
            for (alpha, want) in [1.0, 2.0, 5.0, 10.0].into_iter().zip(rev) {
                assert_relative_eq!(divergence(alpha, &ou, &ula), want, max_relative = 2e-6);
            }
        }
    }
}

/// G3: d = 2, H = diag(1, 2), x0 = (5, -5) (a point mass), tau = 2.
#[test]
fn g3_reference_table() {
    let q = Quadratic {
        hessian: diag(&[1.0, 2.0]),
        minimiser: DVector::zeros(2),
    };
    let init = GaussianLaw {
        mean: DVector::from_vec(vec![5.0, -5.0]),
        cov: DMatrix::zeros(2, 2),
    };
    for (eta, steps, want) in [
        (
            0.1,
            20,
            [7.215866e-3, 1.553207e-2, 5.137075e-2, f64::INFINITY],
        ),
        (
            0.01,
            200,
            [6.937252e-5, 1.396688e-4, 3.563158e-4, 7.380000e-4],
        ),
    ] {
        let ula = q.ula_law(&init, eta, steps);
        let ou = q.diffusion_law(&init, 2.0);
        for (alpha, w) in [1.0, 2.0, 5.0, 10.0].into_iter().zip(want) {
            let got = divergence(alpha, &ula, &ou);
            if w.is_infinite() {
                assert_eq!(got, f64::INFINITY, "alpha {alpha}");
            } else {
                assert_relative_eq!(got, w, max_relative = 2e-6);
            }
        }
    }
}

/// Moment self-test instance: divergences to OU at t = 2 and to the target.
#[test]
fn moment_instance_divergences() {
    let q = Quadratic {
        hessian: diag(&[1.0, 2.0, 4.0]),
        minimiser: DVector::zeros(3),
    };
    let init = GaussianLaw {
        mean: DVector::from_vec(vec![3.0, -2.0, 1.0]),
        cov: DMatrix::zeros(3, 3),
    };
    let ula = q.ula_law(&init, 0.05, 40);
    let ou = q.diffusion_law(&init, 2.0);
    let pi = q.target().unwrap();
    assert_relative_eq!(divergence(2.0, &ula, &ou), 8.528250e-3, max_relative = 2e-6);
    assert_relative_eq!(divergence(5.0, &ula, &ou), 2.723525e-2, max_relative = 2e-6);
    assert_relative_eq!(divergence(2.0, &ula, &pi), 0.1594117, max_relative = 2e-6);
    assert_relative_eq!(divergence(5.0, &ula, &pi), 0.4152808, max_relative = 2e-6);
}

/// G2: d = 10, H = diag(linspace(1, 4, 10)), x0 ~ N(3 * 1, I/4).
#[test]
fn g2_reference_table() {
    let h: Vec<f64> = (0..10).map(|i| 1.0 + 3.0 * i as f64 / 9.0).collect();
    let q = Quadratic {
        hessian: diag(&h),
        minimiser: DVector::zeros(10),
    };
    let init = GaussianLaw {
        mean: DVector::from_element(10, 3.0),
        cov: DMatrix::identity(10, 10) * 0.25,
    };
    let cases: [(f64, u64, [f64; 4], f64); 2] = [
        (
            0.05,
            20,
            [2.584155e-2, 5.522165e-2, 0.1762666, 63.47256],
            10.0012,
        ),
        (
            0.01,
            300,
            [4.624255e-4, 9.347752e-4, 2.415377e-3, 5.122885e-3],
            50.0000,
        ),
    ];
    for (eta, steps, want, alpha_c) in cases {
        let ula = q.ula_law(&init, eta, steps);
        let ou = q.diffusion_law(&init, eta * steps as f64);
        for (alpha, w) in [1.0, 2.0, 5.0, 10.0].into_iter().zip(want) {
            assert_relative_eq!(divergence(alpha, &ula, &ou), w, max_relative = 2e-6);
        }
        assert_relative_eq!(
            critical_order(&ula.cov, &ou.cov).unwrap(),
            alpha_c,
            max_relative = 1e-5
        );
    }
    let ula = q.ula_law(&init, 0.01, 300);
    let pi = q.target().unwrap();
    for (alpha, w) in
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .zip([1.355341e-2, 2.721777e-2, 6.889414e-2, 0.1407460])
    {
        assert_relative_eq!(divergence(alpha, &ula, &pi), w, max_relative = 2e-6);
    }
}

/// The critical orders of G1 and G3 (largest alpha with a finite D_alpha(ULA || OU)).
#[test]
fn critical_orders() {
    let g1 = Quadratic {
        hessian: diag(&[1.0]),
        minimiser: DVector::zeros(1),
    };
    let pi = g1.target().unwrap();
    for (eta, steps, want) in [(0.1, 20, 20.2851), (0.01, 200, 203.637)] {
        let (ula, ou) = (g1.ula_law(&pi, eta, steps), g1.diffusion_law(&pi, 2.0));
        assert_relative_eq!(
            critical_order(&ula.cov, &ou.cov).unwrap(),
            want,
            max_relative = 1e-5
        );
    }
    let g3 = Quadratic {
        hessian: diag(&[1.0, 2.0]),
        minimiser: DVector::zeros(2),
    };
    let x0 = GaussianLaw {
        mean: DVector::from_vec(vec![5.0, -5.0]),
        cov: DMatrix::zeros(2, 2),
    };
    for (eta, steps, want) in [(0.1, 20, 9.9818), (0.01, 200, 99.7419)] {
        let (ula, ou) = (g3.ula_law(&x0, eta, steps), g3.diffusion_law(&x0, 2.0));
        assert_relative_eq!(
            critical_order(&ula.cov, &ou.cov).unwrap(),
            want,
            max_relative = 1e-5
        );
    }
}
