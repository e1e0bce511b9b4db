//! Subspace perturbation instances for seed 003 (THEOREMS.md §6, E3-1): random PSD matrices
//! $\Sigma$ with a perturbation $E$, the top-$k$ eigenprojectors of $\Sigma$ and $M=\Sigma+E$.

use crate::problems::{LogisticPool, project_to_ball};
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

/// One E3-1 instance: $p\in[3,12)$, $k\in[1,p)$, $\Sigma=Q\thinspace\mathrm{diag}(\lambda)Q^\top$ with
/// $\lambda_i$ uniform on $[0,1)$, and a symmetric Gaussian $E$ scaled by $10^u$, $u$ uniform on
/// $[-4,1)$. Returns $(\Vert\hat P-P\Vert_2,\ \Vert E\Vert_2,\ \lambda_k-\lambda_{k+1})$.
pub fn davis_kahan_instance<R: rand::Rng + ?Sized>(rng: &mut R) -> (f64, f64, f64) {
    davis_kahan_instance_at(rng, None)
}

/// [`davis_kahan_instance`] with $(p, k, 10^u)$ given (`Some`) instead of drawn: the same
/// $\Sigma$ and $E$ otherwise, and with `None` the same draws in the same order. Needs
/// $1\le k<p$.
pub fn davis_kahan_instance_at<R: rand::Rng + ?Sized>(
    rng: &mut R,
    fixed: Option<(usize, usize, f64)>,
) -> (f64, f64, f64) {
    let (p, k) = match fixed {
        Some((p, k, _)) => (p, k),
        None => {
            let p = rng.random_range(3..12usize);
            (p, rng.random_range(1..p))
        }
    };
    let gauss = |rng: &mut R, r: usize, c: usize| {
        DMatrix::from_fn(r, c, |_, _| -> f64 { StandardNormal.sample(&mut *rng) })
    };
    let q = gauss(rng, p, p).qr().q();
    let lambda = DVector::from_fn(p, |_, _| rng.random::<f64>());
    let sigma = &q * DMatrix::from_diagonal(&lambda) * q.transpose();
    let raw = gauss(rng, p, p);
    let scale = match fixed {
        Some((_, _, scale)) => scale,
        None => 10f64.powf(rng.random_range(-4.0..1.0)),
    };
    let e = (&raw + raw.transpose()) * (0.5 * scale);
    let (proj, eigs) = top_k_projector(&sigma, k);
    let (proj_hat, _) = top_k_projector(&(&sigma + &e), k);
    (
        spectral_norm(&(proj_hat - proj)),
        spectral_norm(&e),
        eigs[k - 1] - eigs[k],
    )
}

/// A finite pool of logistic-regression samples (the population of seed 003's experiments)
/// with a known signal subspace $U$.
///
/// P-lowrank ([`LogisticDesign::generate`], THEOREMS.md §0.1): $x=Us+\tau\xi/\sqrt p$, $U\in\mathbb R^{p\times2}$ orthonormal,
/// $s\sim\mathcal N(0,\mathrm{diag}(1,0.25))$, $\xi\sim\mathcal N(0,I_p)$, radially projected to
/// $\Vert x\Vert\le0.9$; $y=\mathrm{sign}(s_1+0.5\zeta)$; logistic loss ($G=0.9$, $\rho=0.2025$), plus
/// the data-independent off-span ridge $\frac\mu2\Vert(I-UU^\top)w\Vert^2$ of E3-6 (`mu = 0` unless
/// set with [`LogisticDesign::with_off_span_ridge`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticDesign {
    /// Dimension $p$.
    pub p: usize,
    /// The points, row by row ($n\times p$).
    pub xs: Vec<f64>,
    /// The labels $y_i\in\lbrace-1,1\rbrace$.
    pub ys: Vec<f64>,
    /// $U$, the orthonormal $p\times2$ basis of the signal.
    pub basis: DMatrix<f64>,
    /// $\mu$ of the off-span ridge.
    pub mu: f64,
}

impl LogisticDesign {
    /// E3-2's design: $x=\mathrm{diag}(j^{-1/2})g$, $g\sim\mathcal N(0,I_p)$, radially projected
    /// to $\Vert x\Vert\le1$ (so $G=1$); logistic labels $\Pr[y=1]=1/(1+e^{-\langle\theta,x\rangle})$ with
    /// $\theta=2e_1$. The signal subspace is the whole space ($U$ has no columns).
    pub fn ellipsoid<R: rand::Rng + ?Sized>(k: usize, p: usize, rng: &mut R) -> Self {
        let mut xs = Vec::with_capacity(k * p);
        let mut ys = Vec::with_capacity(k);
        for _ in 0..k {
            let start = xs.len();
            for j in 1..=p {
                let g: f64 = StandardNormal.sample(&mut *rng);
                xs.push(g / (j as f64).sqrt());
            }
            project_to_ball(&mut xs[start..], 1.0);
            let up = 1.0 / (1.0 + (-2.0 * xs[start]).exp());
            ys.push(if rng.random::<f64>() < up { 1.0 } else { -1.0 });
        }
        Self {
            p,
            xs,
            ys,
            basis: DMatrix::zeros(p, 0),
            mu: 0.0,
        }
    }

    /// P-lowrank.
    pub fn generate<R: rand::Rng + ?Sized>(k: usize, p: usize, tau: f64, rng: &mut R) -> Self {
        let basis = DMatrix::from_fn(p, 2, |_, _| -> f64 { StandardNormal.sample(&mut *rng) })
            .qr()
            .q();
        let mut xs = Vec::with_capacity(k * p);
        let mut ys = Vec::with_capacity(k);
        for _ in 0..k {
            let s1: f64 = StandardNormal.sample(rng);
            let z2: f64 = StandardNormal.sample(rng);
            let s2 = 0.5 * z2;
            let start = xs.len();
            for j in 0..p {
                let xi: f64 = StandardNormal.sample(rng);
                xs.push(basis[(j, 0)] * s1 + basis[(j, 1)] * s2 + tau * xi / (p as f64).sqrt());
            }
            project_to_ball(&mut xs[start..], 0.9);
            let zeta: f64 = StandardNormal.sample(rng);
            ys.push(if s1 + 0.5 * zeta >= 0.0 { 1.0 } else { -1.0 });
        }
        Self {
            p,
            xs,
            ys,
            basis,
            mu: 0.0,
        }
    }

    /// The same pool carried into dimension `p` by a random isometry $V\in\mathbb R^{p\times q}$
    /// ($V^\top V=I$, $q$ the current dimension): $x\mapsto Vx$, $U\mapsto VU$. Losses along
    /// the signal are unchanged, so pools embedded from one pool share their in-span problem.
    pub fn embedded<R: rand::Rng + ?Sized>(self, p: usize, rng: &mut R) -> Self {
        let q = self.p;
        assert!(p >= q, "an embedding cannot lower the dimension");
        let v = DMatrix::from_fn(p, q, |_, _| -> f64 { StandardNormal.sample(&mut *rng) })
            .qr()
            .q();
        let rows = DMatrix::from_row_slice(self.ys.len(), q, &self.xs);
        let embedded = rows * v.transpose();
        let mut xs = Vec::with_capacity(self.ys.len() * p);
        for r in embedded.row_iter() {
            xs.extend(r.iter());
        }
        Self {
            p,
            xs,
            ys: self.ys,
            basis: &v * &self.basis,
            mu: self.mu,
        }
    }

    /// The same pool with the off-span ridge $\frac\mu2\Vert(I-UU^\top)w\Vert^2$ added to every loss.
    pub fn with_off_span_ridge(mut self, mu: f64) -> Self {
        self.mu = mu;
        self
    }

    fn x(&self, i: usize) -> &[f64] {
        &self.xs[i * self.p..(i + 1) * self.p]
    }

    /// $(I-UU^\top)w$.
    fn off_span(&self, w: &[f64]) -> DVector<f64> {
        let w = DVector::from_column_slice(w);
        &w - &self.basis * (self.basis.transpose() * &w)
    }

    /// The logistic part restricted to `idx`, as a [`LogisticPool`] (for its Newton solver).
    pub fn logistic_part(&self, idx: &[usize]) -> LogisticPool {
        let xs = idx.iter().flat_map(|&i| self.x(i).to_vec()).collect();
        let ys = idx.iter().map(|&i| self.ys[i]).collect();
        LogisticPool::from_rows(self.p, xs, ys)
    }

    /// $\ln(1+e^{-y\langle w,x\rangle})$ averaged over `idx`, plus the off-span ridge.
    pub fn loss(&self, w: &[f64], idx: &[usize]) -> f64 {
        let logistic = idx
            .iter()
            .map(|&i| {
                let m = self.ys[i] * self.x(i).iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
                if m > 0.0 {
                    (-m).exp().ln_1p()
                } else {
                    -m + m.exp().ln_1p()
                }
            })
            .sum::<f64>()
            / idx.len() as f64;
        if self.mu == 0.0 {
            logistic
        } else {
            logistic + 0.5 * self.mu * self.off_span(w).norm_squared()
        }
    }

    /// $\nabla\ell(w,z_i)=-y\thinspace\sigma(-y\langle w,x\rangle)\thinspace x+\mu(I-UU^\top)w$ into `out`.
    pub fn gradient(&self, w: &[f64], i: usize, out: &mut [f64]) {
        let c = self.gradient_coefficient(w, i);
        out.iter_mut().zip(self.x(i)).for_each(|(o, x)| *o = c * x);
        self.add_ridge_gradient(w, out);
    }

    fn add_ridge_gradient(&self, w: &[f64], out: &mut [f64]) {
        if self.mu != 0.0 {
            let off = self.off_span(w);
            out.iter_mut()
                .zip(off.iter())
                .for_each(|(o, v)| *o += self.mu * v);
        }
    }

    /// $c_i$ with $\nabla\ell(w,z_i)=c_ix_i$: $-y_i\sigma(-y_i\langle w,x_i\rangle)$.
    #[inline]
    fn gradient_coefficient(&self, w: &[f64], i: usize) -> f64 {
        let m = self.ys[i] * self.x(i).iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
        -self.ys[i] / (1.0 + m.exp())
    }

    /// The mean gradient over `idx` into `out`.
    pub fn mean_gradient(&self, w: &[f64], idx: &[usize], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        for &i in idx {
            let c = self.gradient_coefficient(w, i);
            out.iter_mut().zip(self.x(i)).for_each(|(o, x)| *o += c * x);
        }
        out.iter_mut().for_each(|o| *o /= idx.len() as f64);
        self.add_ridge_gradient(w, out);
    }

    /// The second-moment matrix $\frac1{|S|}\sum_{i\in S}\nabla\ell(w,z_i)\nabla\ell(w,z_i)^\top$.
    pub fn second_moment(&self, w: &[f64], idx: &[usize]) -> DMatrix<f64> {
        let grads = self.gradient_matrix(w, idx);
        (&grads * grads.transpose()) / idx.len() as f64
    }

    /// The gradients at `w` of the points `idx` as the columns of a $p\times|S|$ matrix.
    pub fn gradient_matrix(&self, w: &[f64], idx: &[usize]) -> DMatrix<f64> {
        let mut grads = DMatrix::zeros(self.p, idx.len());
        let mut g = vec![0.0; self.p];
        for (c, &i) in idx.iter().enumerate() {
            self.gradient(w, i, &mut g);
            grads.column_mut(c).copy_from_slice(&g);
        }
        grads
    }
}

/// An orthonormal basis ($p\times k$) of the top-$k$ eigenspace of the public second moment
/// $M=\frac1m\sum_i\nabla\ell(w,\tilde z_i)\nabla\ell(w,\tilde z_i)^\top=\frac1mGG^\top$, computed
/// exactly from the small $m\times m$ eigenproblem of $G^\top G$ ($GG^\top u=\lambda u$ with
/// $u=Gv/\sqrt\lambda$); cost $O(pm^2+m^3)$ instead of $O(p^3)$. Directions with
/// $\lambda\le10^{-12}\lambda_{\max}$ are left out, so fewer than `k` columns means
/// $\mathrm{rank}\thinspace M<k$. When $m>p$ the $p\times p$ eigenproblem of $GG^\top$ is solved
/// instead ($O(mp^2+p^3)$, the same eigenvalues above 0 and the same eigenspaces).
pub fn public_eigenbasis(
    pool: &LogisticDesign,
    w: &[f64],
    public: &[usize],
    k: usize,
) -> DMatrix<f64> {
    let grads = pool.gradient_matrix(w, public);
    // The indices of the top k eigenvalues, largest first, dropping those below 1e-12 of the top.
    let top_k = |values: &DVector<f64>| -> Vec<usize> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        let top = values[order[0]].max(0.0);
        order
            .into_iter()
            .take(k)
            .filter(|&j| values[j] > 1e-12 * top)
            .collect()
    };
    if public.len() > pool.p {
        let eig = (&grads * grads.transpose()).symmetric_eigen();
        let kept = top_k(&eig.eigenvalues);
        let mut basis = DMatrix::zeros(pool.p, kept.len());
        for (c, &j) in kept.iter().enumerate() {
            basis.column_mut(c).copy_from(&eig.eigenvectors.column(j));
        }
        return basis;
    }
    let gram = grads.transpose() * &grads;
    let eig = gram.symmetric_eigen();
    let kept = top_k(&eig.eigenvalues);
    let mut basis = DMatrix::zeros(pool.p, kept.len());
    for (c, &j) in kept.iter().enumerate() {
        let u = &grads * eig.eigenvectors.column(j) / eig.eigenvalues[j].sqrt();
        basis.column_mut(c).copy_from(&u);
    }
    basis
}

/// One PDP-SGD step from `w` with the projector $VV^\top$ of `basis` (orthonormal columns): a
/// uniform minibatch of `idx.len()` private samples without replacement,
/// $w\leftarrow w-\eta VV^\top(g+b)$, $b\sim\mathcal N(0,\sigma^2I_p)$, sampled as
/// $V(V^\top g+z)$, $z\sim\mathcal N(0,\sigma^2I_r)$ (the same law). `project_noise = false`:
/// $w\leftarrow w-\eta(VV^\top g+b)$, the noise added after the projection (a mutant);
/// `basis = None`: no projection (DP-SGD).
#[allow(clippy::too_many_arguments)]
pub fn pdp_step<R: rand::Rng + ?Sized>(
    pool: &LogisticDesign,
    w: &mut [f64],
    basis: Option<&DMatrix<f64>>,
    private: &[usize],
    idx: &mut [usize],
    eta: f64,
    sigma: f64,
    project_noise: bool,
    gradient_scale: f64,
    rng: &mut R,
) {
    let p = pool.p;
    // Partial Fisher-Yates over a copy of the private indices.
    let mut order: Vec<usize> = private.to_vec();
    for (j, slot) in idx.iter_mut().enumerate() {
        let r = rng.random_range(j..order.len());
        order.swap(j, r);
        *slot = order[j];
    }
    let mut g = vec![0.0; p];
    pool.mean_gradient(w, idx, &mut g);
    let g = DVector::from_column_slice(&g) * gradient_scale;
    let mut gaussian = |len: usize| {
        DVector::from_fn(len, |_, _| -> f64 {
            let z: f64 = StandardNormal.sample(&mut *rng);
            sigma * z
        })
    };
    let step = match (basis, project_noise) {
        // V V^T (g + b) with b ~ N(0, sigma^2 I_p) has the law of V (V^T g + z), z ~ N(0,
        // sigma^2 I_r), r = rank: r normal draws instead of p.
        (Some(v), true) => v * (v.transpose() * g + gaussian(v.ncols())),
        (Some(v), false) => v * (v.transpose() * g) + gaussian(p),
        (None, _) => g + gaussian(p),
    };
    w.iter_mut()
        .zip(step.iter())
        .for_each(|(wi, s)| *wi -= eta * s);
}

/// Where a run projects its noisy gradients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projection {
    /// PDP-SGD: onto the public top-$k$ eigenspace, noise included.
    Public,
    /// A mutant: the gradient projected, the noise added after the projection.
    NoiseAfterProjection,
    /// DP-SGD: no projection.
    None,
}

/// A PDP-SGD configuration (THEOREMS.md §6): from $w_0=0$, `steps` steps of [`pdp_step`] with
/// a minibatch of `batch`, step size `eta`, noise std `sigma`, the public eigenbasis
/// ([`public_eigenbasis`], top `k`) recomputed every `refresh` steps; `gradient_scale = n` runs
/// on the sum loss $n\hat L_n$ (a mutant).
#[derive(Debug, Clone)]
pub struct PdpSgd {
    /// Subspace dimension $k$.
    pub k: usize,
    /// Number of steps.
    pub steps: usize,
    /// Minibatch size.
    pub batch: usize,
    /// Step size $\eta$.
    pub eta: f64,
    /// Noise standard deviation $\sigma$.
    pub sigma: f64,
    /// Steps between recomputations of the public eigenbasis.
    pub refresh: usize,
    /// Which projection the step uses.
    pub projection: Projection,
    /// 1 for the mean loss; $n$ for the sum loss (a mutant).
    pub gradient_scale: f64,
}

impl PdpSgd {
    /// Runs once; `visit(t, w_t, V_t)` sees every iterate before its step with the basis used
    /// for it (`None` for DP-SGD). Returns the average iterate $\bar w=\frac1T\sum_{t<T}w_t$.
    pub fn run<R: rand::Rng + ?Sized>(
        &self,
        pool: &LogisticDesign,
        private: &[usize],
        public: &[usize],
        rng: &mut R,
        mut visit: impl FnMut(usize, &[f64], Option<&DMatrix<f64>>),
    ) -> Vec<f64> {
        let p = pool.p;
        let mut w = vec![0.0; p];
        let mut average = vec![0.0; p];
        let mut basis = DMatrix::zeros(p, 0);
        let mut idx = vec![0usize; self.batch];
        for t in 0..self.steps {
            let projected = self.projection != Projection::None;
            if projected && t % self.refresh.max(1) == 0 {
                basis = public_eigenbasis(pool, &w, public, self.k);
            }
            let v = projected.then_some(&basis);
            visit(t, &w, v);
            average.iter_mut().zip(&w).for_each(|(a, x)| *a += x);
            pdp_step(
                pool,
                &mut w,
                v,
                private,
                &mut idx,
                self.eta,
                self.sigma,
                self.projection != Projection::NoiseAfterProjection,
                self.gradient_scale,
                rng,
            );
        }
        average
            .iter_mut()
            .for_each(|a| *a /= self.steps.max(1) as f64);
        average
    }

    /// One run's $\frac1T\sum_{t<T}\Vert\hat P_t\nabla\hat L_n(w_t)\Vert^2$ (S3's left side; the
    /// gradient on the loss actually optimised, `gradient_scale` included).
    pub fn projected_gradient<R: rand::Rng + ?Sized>(
        &self,
        pool: &LogisticDesign,
        private: &[usize],
        public: &[usize],
        rng: &mut R,
    ) -> f64 {
        let mut full = vec![0.0; pool.p];
        let mut total = 0.0;
        self.run(pool, private, public, rng, |_, w, basis| {
            pool.mean_gradient(w, private, &mut full);
            let g = DVector::from_column_slice(&full) * self.gradient_scale;
            total += match basis {
                Some(v) => (v.transpose() * g).norm_squared(),
                None => g.norm_squared(),
            };
        });
        total / self.steps.max(1) as f64
    }
}

/// E3-2 (`thm1`): the deviation $\sup_{w\in\mathcal W}\Vert M(w)-\Sigma(w)\Vert_2$ of the public second
/// moment from the population one over a fixed finite set $\mathcal W$, on several pools (each a
/// population with its exact $\Sigma(w)$); the public samples are drawn i.i.d. from one pool.
#[derive(Debug, Clone)]
pub struct UniformDeviation {
    pools: Vec<LogisticDesign>,
    points: Vec<Vec<f64>>,
    /// `sigmas[pool][point]` $=\Sigma(w)$ on that pool.
    sigmas: Vec<Vec<DMatrix<f64>>>,
}

impl UniformDeviation {
    /// `pools` ellipsoid pools ([`LogisticDesign::ellipsoid`]) of `size` points in dimension
    /// `p`, and `points` points $w=2g/\sqrt p$, $g\sim\mathcal N(0,I_p)$.
    pub fn generate<R: rand::Rng + ?Sized>(
        p: usize,
        size: usize,
        pools: usize,
        points: usize,
        rng: &mut R,
    ) -> Self {
        let pools: Vec<LogisticDesign> = (0..pools)
            .map(|_| LogisticDesign::ellipsoid(size, p, rng))
            .collect();
        let points: Vec<Vec<f64>> = (0..points)
            .map(|_| {
                (0..p)
                    .map(|_| {
                        let g: f64 = StandardNormal.sample(&mut *rng);
                        2.0 * g / (p as f64).sqrt()
                    })
                    .collect()
            })
            .collect();
        let all: Vec<usize> = (0..size).collect();
        let sigmas = pools
            .iter()
            .map(|pool| points.iter().map(|w| pool.second_moment(w, &all)).collect())
            .collect();
        Self {
            pools,
            points,
            sigmas,
        }
    }

    /// Number of public pools.
    pub fn pool_count(&self) -> usize {
        self.pools.len()
    }

    /// $\max_{\text{pool},w}\Vert\Sigma(w)\Vert_2$ (the variance proxy of the Bernstein reference).
    pub fn largest_population_norm(&self) -> f64 {
        self.sigmas
            .iter()
            .flatten()
            .map(spectral_norm)
            .fold(0.0, f64::max)
    }

    /// One draw of `m` public samples, i.i.d. uniform from pool `pool`:
    /// $\sup_{w\in\mathcal W}\Vert M(w)-\Sigma(w)\Vert_2$.
    pub fn sup_deviation<R: rand::Rng + ?Sized>(&self, pool: usize, m: usize, rng: &mut R) -> f64 {
        let design = &self.pools[pool];
        let public: Vec<usize> = (0..m)
            .map(|_| rng.random_range(0..design.ys.len()))
            .collect();
        self.points
            .iter()
            .zip(&self.sigmas[pool])
            .map(|(w, sigma)| spectral_norm(&(design.second_moment(w, &public) - sigma)))
            .fold(0.0, f64::max)
    }
}

/// The audit pair of `subspace.privacy.post`: one PDP-SGD step from $w_0=0$ in $\mathbb R^2$
/// with sum aggregation, $w_1=-\hat P(\sum_ig_i+b)$, $b\sim\mathcal N(0,\sigma^2I_2)$, $k=1$, on
/// $D$ ($n$ samples with gradient $ae_1$) and $D'=D\cup\lbrace z^\ast\rbrace$ ($\nabla\ell(z^\ast)=(e_1+e_2)/\sqrt2$,
/// norm 1 = the clipping bound). The public eigenspace is $e_1$ (public gradients along $e_1$);
/// `private_eigenspace` (a mutant) takes $\hat P$ from the private batch's second moment
/// instead. Returns the test statistic $s(w_1)=-\langle w_1,e_1\rangle+10|\langle w_1,e_2\rangle|$
/// under $D$ and under $D'$ (independent noise).
pub fn post_processing_audit_pair<R: rand::Rng + ?Sized>(
    n: usize,
    a: f64,
    sigma: f64,
    private_eigenspace: bool,
    rng: &mut R,
) -> (f64, f64) {
    let star = DVector::from_vec(vec![std::f64::consts::FRAC_1_SQRT_2; 2]);
    let mut draw = |with_star: bool| {
        let mut sum = DVector::from_vec(vec![n as f64 * a, 0.0]);
        let mut second = DMatrix::from_diagonal(&DVector::from_vec(vec![n as f64 * a * a, 0.0]));
        if with_star {
            sum += &star;
            second += &star * star.transpose();
        }
        let proj = if private_eigenspace {
            top_k_projector(&second, 1).0
        } else {
            DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 0.0]))
        };
        let noise = DVector::from_fn(2, |_, _| -> f64 {
            let z: f64 = StandardNormal.sample(&mut *rng);
            sigma * z
        });
        let w = -(proj * (sum + noise));
        -w[0] + 10.0 * w[1].abs()
    };
    (draw(false), draw(true))
}

/// A Monte Carlo estimate of the Gaussian width $w(\mathcal W)=\mathbb E\sup_{w\in\mathcal W}
/// \langle g,w\rangle$, $g\sim\mathcal N(0,I_p)$, of a finite set of points (the $\gamma_2$
/// proxy of Talagrand's majorising-measure theorem), from `draws` draws.
pub fn gaussian_width<R: rand::Rng + ?Sized>(
    points: &[Vec<f64>],
    draws: usize,
    rng: &mut R,
) -> f64 {
    let Some(p) = points.first().map(Vec::len) else {
        return 0.0;
    };
    let mut g = vec![0.0; p];
    let mut total = 0.0;
    for _ in 0..draws {
        g.iter_mut()
            .for_each(|v| *v = StandardNormal.sample(&mut *rng));
        total += points
            .iter()
            .map(|w| w.iter().zip(&g).map(|(a, b)| a * b).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
    }
    total / draws.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

    #[test]
    fn gaussian_width_of_a_segment() {
        // W = {-e_1, e_1}: sup <g, w> = |g_1|, mean sqrt(2/pi).
        let key = StreamKey::new(3, &["test", "width"]);
        let points = vec![vec![-1.0, 0.0], vec![1.0, 0.0]];
        let width = gaussian_width(&points, 200_000, &mut key.trial(0));
        assert!((width - (2.0 / std::f64::consts::PI).sqrt()).abs() < 5e-3);
    }

    #[test]
    fn embedding_keeps_the_in_span_losses() {
        let key = StreamKey::new(4, &["test", "embed"]);
        let planar = LogisticDesign::generate(50, 2, 0.0, &mut key.trial(0));
        let big = planar.clone().embedded(30, &mut key.trial(1));
        let all: Vec<usize> = (0..50).collect();
        let w2 = [0.3, -1.2];
        // w = U (U_2^T w2) in the big space has the same margins as w2 (U_2 orthogonal).
        let coords = planar.basis.transpose() * DVector::from_column_slice(&w2);
        let w = &big.basis * coords;
        assert!((planar.loss(&w2, &all) - big.loss(w.as_slice(), &all)).abs() < 1e-12);
        assert!((big.basis.transpose() * &big.basis - DMatrix::identity(2, 2)).amax() < 1e-12);
    }

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

    #[test]
    fn public_eigenbasis_spans_the_top_k_eigenspace_of_the_second_moment() {
        let key = StreamKey::new(2, &["test", "eigenbasis"]);
        let pool = LogisticDesign::generate(64, 12, 0.3, &mut key.trial(0));
        let w = vec![0.1; 12];
        // m = 5 < p (the m x m Gram route) and m = 20 > p (the p x p route).
        for m in [5, 20] {
            let public: Vec<usize> = (0..m).collect();
            let basis = public_eigenbasis(&pool, &w, &public, 3);
            let (proj, _) = top_k_projector(&pool.second_moment(&w, &public), 3);
            let from_basis = &basis * basis.transpose();
            assert!((from_basis - proj).amax() < 1e-9, "m = {m}");
            assert!((basis.transpose() * &basis - DMatrix::identity(3, 3)).amax() < 1e-9);
        }
    }
}
