//! Finite populations: the data distribution $\mathcal D$ is uniform on a finite set of points,
//! so population quantities ($\ell(w,\mathcal D)$) are exact finite sums, and a dataset
//! $S_n\sim\mathcal D^n$ is a list of indices into the population.
//!
//! Instances (THEOREMS.md §0.1):
//! - [`LinearPm1`] (P-lin): $d=1$, $z=s\in\lbrace\pm1\rbrace$ uniform, $\ell(w,s)=Gsw$.
//! - [`LogisticPool`] (P-pool): $K$ points in $\mathbb R^d$ with $\Vert x\Vert\le1$, labels $\pm1$,
//!   logistic loss $\ell(w,(x,y))=\ln(1+e^{-y\langle w,x\rangle})$ ($G=1$, $L\le1/4$).

use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

/// A loss over a finite population with uniform weights.
pub trait FinitePopulation: Sync {
    /// Dimension $d$ of the parameter $w$.
    fn dim(&self) -> usize;
    /// Number of points $K$ of the population.
    fn size(&self) -> usize;
    /// $\ell(w, z_i)$.
    fn loss(&self, w: &[f64], i: usize) -> f64;
    /// The gradient step $w \leftarrow w - h\nabla\ell(w, z_i)$, in place.
    fn gradient_step(&self, w: &mut [f64], i: usize, h: f64);

    /// Exact population loss $\ell(w,\mathcal D)=\frac1K\sum_i\ell(w,z_i)$.
    fn population_loss(&self, w: &[f64]) -> f64 {
        (0..self.size()).map(|i| self.loss(w, i)).sum::<f64>() / self.size() as f64
    }

    /// Empirical loss $\ell(w,S)=\frac1{|S|}\sum_{i\in S}\ell(w,z_i)$ of a dataset of indices.
    fn sample_loss(&self, w: &[f64], data: &[usize]) -> f64 {
        data.iter().map(|&i| self.loss(w, i)).sum::<f64>() / data.len() as f64
    }

    /// Draws one point $z\sim\mathcal D$ (its index).
    fn draw_point<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> usize
    where
        Self: Sized,
    {
        rng.random_range(0..self.size())
    }

    /// Draws a dataset of `n` i.i.d. points from $\mathcal D$ into `out` (cleared first).
    fn draw_dataset<R: rand::Rng + ?Sized>(&self, n: usize, rng: &mut R, out: &mut Vec<usize>)
    where
        Self: Sized,
    {
        out.clear();
        out.extend((0..n).map(|_| self.draw_point(rng)));
    }
}

/// P-lin: $\ell(w,s)=Gsw$ on $d=1$ with $s=+1$ (index 0) or $s=-1$ (index 1).
/// Convex, $G$-Lipschitz, $L=0$, $\ell(w,\mathcal D)=0$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearPm1 {
    /// The Lipschitz constant $G$.
    pub g: f64,
}

impl LinearPm1 {
    /// Index of the point $s=+1$.
    pub const PLUS: usize = 0;
    /// Index of the point $s=-1$.
    pub const MINUS: usize = 1;

    fn sign(i: usize) -> f64 {
        if i == Self::PLUS { 1.0 } else { -1.0 }
    }
}

impl FinitePopulation for LinearPm1 {
    fn dim(&self) -> usize {
        1
    }
    fn size(&self) -> usize {
        2
    }
    #[inline]
    fn loss(&self, w: &[f64], i: usize) -> f64 {
        self.g * Self::sign(i) * w[0]
    }
    #[inline]
    fn gradient_step(&self, w: &mut [f64], i: usize, h: f64) {
        w[0] -= h * self.g * Self::sign(i);
    }
}

/// $x\leftarrow x\cdot\min(1,r/\Vert x\Vert)$: the Euclidean projection onto the ball of radius $r$.
pub fn project_to_ball(x: &mut [f64], radius: f64) {
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm > radius {
        x.iter_mut().for_each(|v| *v *= radius / norm);
    }
}

/// P-pool: logistic regression on a finite pool (features row-major, labels $\pm1$).
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticPool {
    d: usize,
    xs: Vec<f64>,
    ys: Vec<f64>,
}

/// $\ln(1+e^u)$ without overflow.
#[inline]
fn softplus(u: f64) -> f64 {
    if u > 0.0 {
        u + (-u).exp().ln_1p()
    } else {
        u.exp().ln_1p()
    }
}

impl LogisticPool {
    /// The P-pool recipe: $y=\pm1$ equiprobable, $x=y\mu+\mathrm{diag}(0.5/\sqrt j)g$ with
    /// $g\sim\mathcal N(0,I_d)$, $\mu=0.6e_1$, then $x\leftarrow x/\max(1,\Vert x\Vert)$.
    pub fn generate<R: rand::Rng + ?Sized>(k: usize, d: usize, rng: &mut R) -> Self {
        let mut xs = Vec::with_capacity(k * d);
        let mut ys = Vec::with_capacity(k);
        for _ in 0..k {
            let y = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            let start = xs.len();
            for j in 1..=d {
                let g: f64 = StandardNormal.sample(rng);
                let mu = if j == 1 { 0.6 } else { 0.0 };
                xs.push(y * mu + 0.5 / (j as f64).sqrt() * g);
            }
            project_to_ball(&mut xs[start..], 1.0);
            ys.push(y);
        }
        Self { d, xs, ys }
    }

    /// A pool from its rows (`xs` row-major, `d` features per row) and labels $\pm1$.
    pub fn from_rows(d: usize, xs: Vec<f64>, ys: Vec<f64>) -> Self {
        assert_eq!(xs.len(), d * ys.len(), "one row of d features per label");
        Self { d, xs, ys }
    }

    /// Feature vector of point `i`.
    #[inline]
    pub fn x(&self, i: usize) -> &[f64] {
        &self.xs[i * self.d..(i + 1) * self.d]
    }

    /// Label of point `i`.
    pub fn y(&self, i: usize) -> f64 {
        self.ys[i]
    }

    #[inline]
    fn margin(&self, w: &[f64], i: usize) -> f64 {
        self.ys[i] * self.x(i).iter().zip(w).map(|(a, b)| a * b).sum::<f64>()
    }

    /// $\min_w[\ell(w,\mathcal D)+b\Vert w\Vert^2]$ and its minimiser, by Newton's method with
    /// backtracking (strictly convex for $b>0$); stops when the Newton decrement is below 1e-14.
    pub fn regularised_minimum(&self, b: f64) -> (f64, Vec<f64>) {
        use nalgebra::{DMatrix, DVector};
        let (d, k) = (self.d, self.ys.len() as f64);
        let objective =
            |w: &[f64]| self.population_loss(w) + b * w.iter().map(|v| v * v).sum::<f64>();
        let mut w = vec![0.0; d];
        for _ in 0..100 {
            let mut grad = DVector::from_element(d, 0.0);
            let mut hess = DMatrix::from_diagonal_element(d, d, 2.0 * b);
            for i in 0..self.ys.len() {
                let m = self.margin(&w, i);
                let s = 1.0 / (1.0 + m.exp()); // sigma(-m)
                let x = DVector::from_column_slice(self.x(i));
                grad -= &x * (self.ys[i] * s / k);
                hess += &x * x.transpose() * (s * (1.0 - s) / k);
            }
            grad += DVector::from_column_slice(&w) * (2.0 * b);
            let Some(step) = hess.clone().cholesky().map(|c| c.solve(&grad)) else {
                break;
            };
            let decrement = grad.dot(&step);
            if decrement < 1e-14 {
                break;
            }
            let f0 = objective(&w);
            let mut t = 1.0;
            loop {
                let trial: Vec<f64> = w.iter().zip(step.iter()).map(|(a, s)| a - t * s).collect();
                if objective(&trial) <= f0 - 0.25 * t * decrement || t < 1e-10 {
                    w = trial;
                    break;
                }
                t *= 0.5;
            }
        }
        (objective(&w), w)
    }

    /// $\tilde H=\frac1{4|I|}\sum_{i\in I}x_ix_i^\top$ over the points `indices` (with
    /// repetitions), or over the whole pool ($\tilde H_{\mathcal D}$) when `indices` is `None`:
    /// the logistic loss's Hessian majorant, $\nabla^2\ell(w)\preceq\tilde H$ for every $w$.
    pub fn h_tilde(&self, indices: Option<&[usize]>) -> nalgebra::DMatrix<f64> {
        let mut h = nalgebra::DMatrix::<f64>::zeros(self.d, self.d);
        let mut add = |i: usize| {
            let x = nalgebra::DVector::from_column_slice(self.x(i));
            h += &x * x.transpose();
        };
        let count = match indices {
            Some(idx) => {
                idx.iter().for_each(|&i| add(i));
                idx.len()
            }
            None => {
                (0..self.ys.len()).for_each(&mut add);
                self.ys.len()
            }
        };
        h * (0.25 / count.max(1) as f64)
    }

    /// $\mathrm{tr}\tilde H_{\mathcal D}=\frac14\mathbb E\Vert x\Vert^2$, the Hessian majorant's trace.
    pub fn h_tilde_trace(&self) -> f64 {
        0.25 * self.xs.iter().map(|v| v * v).sum::<f64>() / self.ys.len() as f64
    }
}

impl FinitePopulation for LogisticPool {
    fn dim(&self) -> usize {
        self.d
    }
    fn size(&self) -> usize {
        self.ys.len()
    }
    #[inline]
    fn loss(&self, w: &[f64], i: usize) -> f64 {
        softplus(-self.margin(w, i))
    }
    #[inline]
    fn gradient_step(&self, w: &mut [f64], i: usize, h: f64) {
        // grad = -y * sigmoid(-m) * x
        let m = self.margin(w, i);
        let coef = h * self.ys[i] / (1.0 + m.exp());
        for (wj, xj) in w.iter_mut().zip(self.x(i)) {
            *wj += coef * xj;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

    #[test]
    fn pool_points_are_in_the_unit_ball() {
        let pool = LogisticPool::generate(1024, 10, &mut StreamKey::new(1, &["pool"]).trial(0));
        assert!((0..1024).all(|i| pool.x(i).iter().map(|v| v * v).sum::<f64>() <= 1.0 + 1e-12));
        let tr = pool.h_tilde_trace();
        assert!(tr > 0.15 && tr < 0.25, "tr H = {tr}");
    }

    #[test]
    fn logistic_gradient_matches_finite_differences() {
        let pool = LogisticPool::generate(8, 3, &mut StreamKey::new(2, &["pool"]).trial(0));
        let w = [0.3, -0.2, 0.5];
        for i in 0..8 {
            let mut stepped = w;
            pool.gradient_step(&mut stepped, i, 1.0);
            for j in 0..3 {
                let (mut wp, mut wm) = (w, w);
                wp[j] += 1e-6;
                wm[j] -= 1e-6;
                let fd = (pool.loss(&wp, i) - pool.loss(&wm, i)) / 2e-6;
                assert!((w[j] - stepped[j] - fd).abs() < 1e-8);
            }
        }
        assert!((softplus(800.0) - 800.0).abs() < 1e-12 && softplus(-800.0) >= 0.0);
    }

    #[test]
    fn regularised_minimum_is_stationary() {
        let mut rng = crate::rng::StreamKey::new(5, &["test", "newton"]).trial(0);
        let pool = LogisticPool::generate(256, 4, &mut rng);
        let (value, w) = pool.regularised_minimum(0.05);
        // Perturbations do not decrease the objective.
        for j in 0..4 {
            for h in [1e-4, -1e-4] {
                let mut v = w.clone();
                v[j] += h;
                let f = pool.population_loss(&v) + 0.05 * v.iter().map(|x| x * x).sum::<f64>();
                assert!(f >= value - 1e-12, "{j} {h}: {f} < {value}");
            }
        }
        assert!(value < std::f64::consts::LN_2);
    }
}
