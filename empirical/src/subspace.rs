//! Subspace perturbation instances for seed 003 (THEOREMS.md §6, E3-1): random PSD matrices
//! $\Sigma$ with a perturbation $E$, the top-$k$ eigenprojectors of $\Sigma$ and $M=\Sigma+E$.

use nalgebra::{DMatrix, DVector};
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

/// The orthogonal projector onto the span of the eigenvectors of the `k` largest eigenvalues of
/// a symmetric matrix, and its eigenvalues in decreasing order.
pub fn top_k_projector(a: &DMatrix<f64>, k: usize) -> (DMatrix<f64>, Vec<f64>) {
    let eig = a.clone().symmetric_eigen();
    let mut order: Vec<usize> = (0..eig.eigenvalues.len()).collect();
    order.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let p = a.nrows();
    let mut proj = DMatrix::zeros(p, p);
    for &i in order.iter().take(k) {
        let v = eig.eigenvectors.column(i);
        proj += v * v.transpose();
    }
    (proj, order.iter().map(|&i| eig.eigenvalues[i]).collect())
}

/// Spectral norm of a symmetric matrix.
pub fn spectral_norm(a: &DMatrix<f64>) -> f64 {
    a.clone()
        .symmetric_eigenvalues()
        .iter()
        .fold(0.0, |m, v| m.max(v.abs()))
}

/// One E3-1 instance: $p\in[3,12)$, $k\in[1,p)$, $\Sigma=Q\,\mathrm{diag}(\lambda)Q^\top$ with
/// $\lambda_i$ uniform on $[0,1)$, and a symmetric Gaussian $E$ scaled by $10^u$, $u$ uniform on
/// $[-4,1)$. Returns $(\|\hat P-P\|_2,\ \|E\|_2,\ \lambda_k-\lambda_{k+1})$.
pub fn davis_kahan_instance<R: rand::Rng + ?Sized>(rng: &mut R) -> (f64, f64, f64) {
    let p = rng.random_range(3..12usize);
    let k = rng.random_range(1..p);
    let gauss = |rng: &mut R, r: usize, c: usize| {
        DMatrix::from_fn(r, c, |_, _| -> f64 { StandardNormal.sample(&mut *rng) })
    };
    let q = gauss(rng, p, p).qr().q();
    let lambda = DVector::from_fn(p, |_, _| rng.random::<f64>());
    let sigma = &q * DMatrix::from_diagonal(&lambda) * q.transpose();
    let raw = gauss(rng, p, p);
    let scale = 10f64.powf(rng.random_range(-4.0..1.0));
    let e = (&raw + raw.transpose()) * (0.5 * scale);
    let (proj, eigs) = top_k_projector(&sigma, k);
    let (proj_hat, _) = top_k_projector(&(&sigma + &e), k);
    (
        spectral_norm(&(proj_hat - proj)),
        spectral_norm(&e),
        eigs[k - 1] - eigs[k],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

    #[test]
    fn projector_of_a_diagonal_matrix() {
        let a = DMatrix::from_diagonal(&DVector::from_vec(vec![0.1, 3.0, 2.0]));
        let (p, eigs) = top_k_projector(&a, 2);
        assert_eq!(eigs, vec![3.0, 2.0, 0.1]);
        let want = DMatrix::from_diagonal(&DVector::from_vec(vec![0.0, 1.0, 1.0]));
        assert!((p - want).amax() < 1e-12);
    }

    #[test]
    fn instances_are_well_formed() {
        let key = StreamKey::new(1, &["test", "dk"]);
        for i in 0..100 {
            let (d, e, gap) = davis_kahan_instance(&mut key.trial(i));
            assert!((0.0..=1.0 + 1e-9).contains(&d) && e > 0.0 && gap >= 0.0);
        }
    }
}
