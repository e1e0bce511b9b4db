//! Algorithm 1 of seed 002 (DPAGD: DP GD, DP RMSprop, DP Adam) on the non-convex P-cauchy
//! problem, and the Appendix D instance (THEOREMS.md §7).
//!
//! DPAGD: $\tilde g_t=\nabla\hat f(w_t)+b_t$, $b_t\sim\mathcal N(0,\sigma^2I_p)$ (full batch);
//! $m_t=\phi_t(\tilde g_{1..t})$, $v_t=\psi_t(\tilde g_{1..t})$ clipped at $\lambda$;
//! $w_{t+1}=w_t-\eta\thinspace m_t/(\sqrt{v_t}+\nu)$ coordinate-wise. No bias correction.

use rand::RngExt;
use rand_distr::{ChiSquared, Distribution, StandardNormal};

/// P-cauchy: $\ell(w,(x,y))=\ln(1+r^2/2)$, $r=\langle w,x\rangle-y$, $x$ uniform on $S^{p-1}$,
/// $y=\langle\mathbf 1/\sqrt p,x\rangle+0.3\thinspace t_3$; a pool of $K$ points is the population.
/// $\Vert\nabla\ell\Vert=|r|/(1+r^2/2)\le1/\sqrt2=G$, $L=1$, $\ell\ge0$.
#[derive(Debug, Clone, PartialEq)]
pub struct CauchyPool {
    p: usize,
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl CauchyPool {
    /// Draws a pool of `k` points in dimension `p` from `rng`.
    pub fn generate<R: rand::Rng + ?Sized>(k: usize, p: usize, rng: &mut R) -> Self {
        let chi3 = ChiSquared::new(3.0).expect("3 degrees of freedom");
        let mut xs = Vec::with_capacity(k * p);
        let mut ys = Vec::with_capacity(k);
        for _ in 0..k {
            let start = xs.len();
            uniform_on_sphere(p, rng, &mut xs);
            let mean_dir = xs[start..].iter().sum::<f64>() / (p as f64).sqrt();
            let z: f64 = StandardNormal.sample(rng);
            let chi: f64 = chi3.sample(rng);
            let t3 = z / (chi / 3.0).sqrt();
            ys.push(mean_dir + 0.3 * t3);
        }
        Self { p, xs, ys }
    }

    /// The dimension $p$.
    pub fn dim(&self) -> usize {
        self.p
    }

    /// The number of points $K$.
    pub fn size(&self) -> usize {
        self.ys.len()
    }

    #[inline]
    fn x(&self, i: usize) -> &[f64] {
        &self.xs[i * self.p..(i + 1) * self.p]
    }

    #[inline]
    fn residual(&self, w: &[f64], i: usize) -> f64 {
        dot(self.x(i), w) - self.ys[i]
    }

    /// The points `data` as a pool of their own (contiguous rows, faster full-batch passes).
    pub fn subset(&self, data: &[usize]) -> Self {
        Self {
            p: self.p,
            xs: data
                .iter()
                .flat_map(|&i| self.x(i).iter().copied())
                .collect(),
            ys: data.iter().map(|&i| self.ys[i]).collect(),
        }
    }

    /// $\ell(w,z_i)$.
    pub fn loss(&self, w: &[f64], i: usize) -> f64 {
        let r = self.residual(w, i);
        (r * r / 2.0).ln_1p()
    }

    /// $\frac1{|S|}\sum_{i\in S}\ell(w,z_i)$.
    pub fn mean_loss(&self, w: &[f64], data: &[usize]) -> f64 {
        data.iter().map(|&i| self.loss(w, i)).sum::<f64>() / data.len() as f64
    }

    /// $\frac1{|S|}\sum_{i\in S}\nabla\ell(w,z_i)$ into `out`.
    pub fn mean_gradient(&self, w: &[f64], data: &[usize], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        for &i in data {
            let r = self.residual(w, i);
            let c = r / (1.0 + r * r / 2.0);
            out.iter_mut().zip(self.x(i)).for_each(|(o, x)| *o += c * x);
        }
        let inv = 1.0 / data.len() as f64;
        out.iter_mut().for_each(|o| *o *= inv);
    }

    /// The mean gradient over every point of the pool (the population gradient $\nabla f(w)$
    /// of the pool, or $\nabla\hat f(w)$ of a dataset made by [`CauchyPool::subset`]).
    pub fn gradient(&self, w: &[f64], out: &mut [f64]) {
        self.clipped_gradient(w, f64::INFINITY, out)
    }

    /// [`CauchyPool::gradient`] with each per-sample gradient clipped to norm at most `clip`
    /// (the paper's experiments clip at 1.0; on P-cauchy $\Vert\nabla\ell\Vert\le1/\sqrt2$, so clips
    /// at or above that change nothing).
    pub fn clipped_gradient(&self, w: &[f64], clip: f64, out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        for (x, &y) in self.xs.chunks_exact(self.p).zip(&self.ys) {
            let r = dot(x, w) - y;
            // ||grad l|| = |c| ||x|| with ||x|| = 1.
            let c = (r / (1.0 + r * r / 2.0)).clamp(-clip, clip);
            out.iter_mut().zip(x).for_each(|(o, xi)| *o += c * xi);
        }
        let inv = 1.0 / self.size() as f64;
        out.iter_mut().for_each(|o| *o *= inv);
    }
}

/// Appends a point drawn uniformly on $S^{p-1}$ (a normalised standard Gaussian).
pub fn uniform_on_sphere<R: rand::Rng + ?Sized>(p: usize, rng: &mut R, out: &mut Vec<f64>) {
    let start = out.len();
    out.extend((0..p).map(|_| -> f64 { StandardNormal.sample(rng) }));
    let norm = out[start..].iter().map(|v| v * v).sum::<f64>().sqrt();
    out[start..].iter_mut().for_each(|v| *v /= norm);
}

/// Where the second-moment clip $\lambda$ sits (Table 1 readings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClipReading {
    /// `clip-sum`: $v_t=\min((1-\beta_2)\sum_{i\le t}\beta_2^{t-i}\tilde g_i^2,\lambda)$, raw EMA kept.
    Sum,
    /// `clip-rec`: $v_t=\min(\beta_2v_{t-1}+(1-\beta_2)\tilde g_t^2,\lambda)$.
    Recursive,
}

/// The averaging functions $\phi_t,\psi_t$ of Table 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Averaging {
    /// DP GD: $m_t=\tilde g_t$, $v_t=1$, $\nu=0$.
    Gd,
    /// DP RMSprop: $m_t=\tilde g_t$.
    Rmsprop {
        /// $\beta_2$ of $v_t$.
        beta2: f64,
        /// $\nu$ added to $\sqrt{v_t}$ in the denominator.
        nu: f64,
        /// The clipping level $\lambda$ of $v_t$.
        lambda: f64,
        /// How $v_t$ is clipped.
        clip: ClipReading,
    },
    /// DP Adam: $m_t=(1-\beta_1)\sum_i\beta_1^{t-i}\tilde g_i$.
    Adam {
        /// $\beta_1$ of $m_t$.
        beta1: f64,
        /// $\beta_2$ of $v_t$.
        beta2: f64,
        /// $\nu$ added to $\sqrt{v_t}$ in the denominator.
        nu: f64,
        /// The clipping level $\lambda$ of $v_t$.
        lambda: f64,
        /// How $v_t$ is clipped.
        clip: ClipReading,
    },
}

/// One DPAGD run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dpagd {
    /// Step size $\eta$.
    pub eta: f64,
    /// Number of steps $T$.
    pub steps: u64,
    /// Noise standard deviation $\sigma$ of the gradient.
    pub sigma: f64,
    /// The averaging functions $\phi_t,\psi_t$.
    pub averaging: Averaging,
    /// Per-sample clipping norm (`f64::INFINITY`: none, the analysed algorithm).
    pub clip: f64,
    /// 1 for the paper's mean loss $\hat f$; $n$ runs (and records) the sum loss $n\hat f$
    /// instead, a units error the harness must catch.
    pub gradient_scale: f64,
}

/// What one run records (over $t=1..T$).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DpagdTrace {
    /// $\frac1T\sum_t\Vert\nabla\hat f(w_t)\Vert^2$.
    pub mean_sq_empirical_gradient: f64,
    /// $\frac1T\sum_t\Vert\nabla f(w_t)\Vert^2$ (population; 0 unless tracked).
    pub mean_sq_population_gradient: f64,
    /// $\max_t\Vert\nabla\hat f(w_t)-\nabla f(w_t)\Vert$ (0 unless tracked).
    pub max_generalisation_gap: f64,
    /// $\max_t\Vert\tilde g_t-\nabla f(w_t)\Vert^2$ (0 unless tracked).
    pub max_sq_noisy_deviation: f64,
    /// $\max_t\Vert b_t\Vert$.
    pub max_noise_norm: f64,
}

/// Scratch vectors of one run.
#[derive(Debug, Clone)]
pub struct DpagdWorkspace {
    w: Vec<f64>,
    grad: Vec<f64>,
    pop: Vec<f64>,
    noisy: Vec<f64>,
    m: Vec<f64>,
    v: Vec<f64>,
    v_raw: Vec<f64>,
}

impl DpagdWorkspace {
    /// Buffers for dimension `p`.
    pub fn new(p: usize) -> Self {
        Self {
            w: vec![0.0; p],
            grad: vec![0.0; p],
            pop: vec![0.0; p],
            noisy: vec![0.0; p],
            m: vec![0.0; p],
            v: vec![0.0; p],
            v_raw: vec![0.0; p],
        }
    }
}

impl Dpagd {
    /// Runs from $w_1=0$ on `dataset` (full batch); with `population = Some(pool)` also
    /// tracks the population gradient.
    pub fn run<R: rand::Rng + ?Sized>(
        &self,
        dataset: &CauchyPool,
        population: Option<&CauchyPool>,
        rng: &mut R,
        ws: &mut DpagdWorkspace,
    ) -> DpagdTrace {
        for buf in [&mut ws.w, &mut ws.m, &mut ws.v, &mut ws.v_raw] {
            buf.iter_mut().for_each(|x| *x = 0.0);
        }
        let mut trace = DpagdTrace::default();
        for _ in 0..self.steps {
            dataset.clipped_gradient(&ws.w, self.clip, &mut ws.grad);
            if self.gradient_scale != 1.0 {
                ws.grad.iter_mut().for_each(|g| *g *= self.gradient_scale);
            }
            trace.mean_sq_empirical_gradient += norm_sq(&ws.grad);
            let mut noise_sq = 0.0;
            for (n, g) in ws.noisy.iter_mut().zip(&ws.grad) {
                let xi: f64 = StandardNormal.sample(rng);
                let b = self.sigma * xi;
                noise_sq += b * b;
                *n = g + b;
            }
            trace.max_noise_norm = trace.max_noise_norm.max(noise_sq.sqrt());
            if let Some(pool) = population {
                pool.gradient(&ws.w, &mut ws.pop);
                ws.pop.iter_mut().for_each(|g| *g *= self.gradient_scale);
                let sq = norm_sq(&ws.pop);
                trace.mean_sq_population_gradient += sq;
                let gap: f64 = ws
                    .grad
                    .iter()
                    .zip(&ws.pop)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                trace.max_generalisation_gap = trace.max_generalisation_gap.max(gap.sqrt());
                let dev: f64 = ws
                    .noisy
                    .iter()
                    .zip(&ws.pop)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum();
                trace.max_sq_noisy_deviation = trace.max_sq_noisy_deviation.max(dev);
            }
            self.step(ws);
        }
        let t = self.steps as f64;
        trace.mean_sq_empirical_gradient /= t;
        trace.mean_sq_population_gradient /= t;
        trace
    }

    /// $w\leftarrow w-\eta\thinspace m_t/(\sqrt{v_t}+\nu)$ from the noisy gradient in `ws.noisy`.
    fn step(&self, ws: &mut DpagdWorkspace) {
        let eta = self.eta;
        match self.averaging {
            Averaging::Gd => {
                ws.w.iter_mut()
                    .zip(&ws.noisy)
                    .for_each(|(w, g)| *w -= eta * g)
            }
            Averaging::Rmsprop {
                beta2,
                nu,
                lambda,
                clip,
            } => {
                for i in 0..ws.w.len() {
                    let g = ws.noisy[i];
                    let v = second_moment(&mut ws.v_raw[i], &mut ws.v[i], g, beta2, lambda, clip);
                    ws.w[i] -= eta * g / (v.sqrt() + nu);
                }
            }
            Averaging::Adam {
                beta1,
                beta2,
                nu,
                lambda,
                clip,
            } => {
                for i in 0..ws.w.len() {
                    let g = ws.noisy[i];
                    ws.m[i] = beta1 * ws.m[i] + (1.0 - beta1) * g;
                    let v = second_moment(&mut ws.v_raw[i], &mut ws.v[i], g, beta2, lambda, clip);
                    ws.w[i] -= eta * ws.m[i] / (v.sqrt() + nu);
                }
            }
        }
    }
}

/// The clipped second moment of one coordinate under either reading.
#[inline]
fn second_moment(
    raw: &mut f64,
    clipped: &mut f64,
    g: f64,
    beta2: f64,
    lambda: f64,
    clip: ClipReading,
) -> f64 {
    let fresh = (1.0 - beta2) * g * g;
    *clipped = match clip {
        ClipReading::Sum => {
            *raw = beta2 * *raw + fresh;
            raw.min(lambda)
        }
        ClipReading::Recursive => (beta2 * *clipped + fresh).min(lambda),
    };
    *clipped
}

/// $\langle a,b\rangle$ with four independent accumulators (the loop is latency-bound otherwise).
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

#[inline]
fn norm_sq(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum()
}

/// Appendix D (P-tanh, $C\to\infty$): $n$ points uniform on $S^{p-1}$, $\bar x$ their normalised
/// sum (or, with `data_dependent = false`, an independent uniform direction),
/// $X=\frac Gn\sum_i\mathrm{sign}\langle\bar x,x_i\rangle=\lim\partial_{w_0}\hat f$ at $w=(0,C\bar x)$,
/// a lower bound on $\sup_w\Vert\nabla\hat f(w)-\nabla f(w)\Vert$ since $\nabla f\equiv0$.
pub fn appendix_d_statistic<R: rand::Rng + ?Sized>(
    p: usize,
    n: usize,
    g: f64,
    data_dependent: bool,
    rng: &mut R,
    points: &mut Vec<f64>,
) -> f64 {
    points.clear();
    for _ in 0..n {
        uniform_on_sphere(p, rng, points);
    }
    let mut dir = vec![0.0; p];
    if data_dependent {
        for x in points.chunks_exact(p) {
            dir.iter_mut().zip(x).for_each(|(d, v)| *d += v);
        }
    } else {
        let mut tmp = Vec::with_capacity(p);
        uniform_on_sphere(p, rng, &mut tmp);
        dir.copy_from_slice(&tmp);
    }
    let count: f64 = points
        .chunks_exact(p)
        .map(|x| {
            let s: f64 = x.iter().zip(&dir).map(|(a, b)| a * b).sum();
            if s > 0.0 {
                1.0
            } else if s < 0.0 {
                -1.0
            } else {
                0.0
            }
        })
        .sum();
    g * count / n as f64
}

/// A dataset of `n` indices drawn uniformly with replacement from a pool of `k` points.
pub fn draw_indices<R: rand::Rng + ?Sized>(k: usize, n: usize, rng: &mut R) -> Vec<usize> {
    (0..n).map(|_| rng.random_range(0..k)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamKey;

    #[test]
    fn cauchy_gradient_is_bounded_and_matches_finite_differences() {
        let mut rng = StreamKey::new(1, &["test", "cauchy"]).trial(0);
        let pool = CauchyPool::generate(64, 5, &mut rng);
        let w = [0.3, -0.2, 0.5, 1.0, -2.0];
        let data: Vec<usize> = (0..64).collect();
        let mut g = vec![0.0; 5];
        pool.mean_gradient(&w, &data, &mut g);
        for j in 0..5 {
            let mut wp = w;
            let mut wm = w;
            wp[j] += 1e-6;
            wm[j] -= 1e-6;
            let fd = (pool.mean_loss(&wp, &data) - pool.mean_loss(&wm, &data)) / 2e-6;
            assert!((fd - g[j]).abs() < 1e-7, "{j}: {fd} vs {}", g[j]);
        }
        let mut full = vec![0.0; 5];
        pool.gradient(&w, &mut full);
        let sub = pool.subset(&[3, 3, 7]);
        let mut g_sub = vec![0.0; 5];
        sub.gradient(&w, &mut g_sub);
        pool.mean_gradient(&w, &[3, 3, 7], &mut g);
        for j in 0..5 {
            assert!(
                (full[j] - {
                    let mut all = vec![0.0; 5];
                    pool.mean_gradient(&w, &data, &mut all);
                    all[j]
                })
                .abs()
                    < 1e-15
            );
            assert!((g_sub[j] - g[j]).abs() < 1e-15);
        }
        let mut clipped = vec![0.0; 5];
        pool.clipped_gradient(&w, 1.0, &mut clipped);
        assert_eq!(clipped, full);
        pool.clipped_gradient(&w, 0.0, &mut clipped);
        assert!(clipped.iter().all(|c| *c == 0.0));
        for i in 0..64 {
            pool.mean_gradient(&w, &[i], &mut g);
            assert!(norm_sq(&g).sqrt() <= 0.5_f64.sqrt() + 1e-12);
        }
    }

    #[test]
    fn clip_readings_agree_until_the_clip_binds() {
        let (mut raw_a, mut c_a, mut raw_b, mut c_b) = (0.0, 0.0, 0.0, 0.0);
        for g in [0.1, 0.2, -0.1] {
            let a = second_moment(&mut raw_a, &mut c_a, g, 0.9, 1.0, ClipReading::Sum);
            let b = second_moment(&mut raw_b, &mut c_b, g, 0.9, 1.0, ClipReading::Recursive);
            assert_eq!(a, b);
        }
        // Once the clip binds, the sum reading keeps the raw state, the recursive one does not.
        for g in [10.0, 0.0] {
            second_moment(&mut raw_a, &mut c_a, g, 0.5, 1.0, ClipReading::Sum);
            second_moment(&mut raw_b, &mut c_b, g, 0.5, 1.0, ClipReading::Recursive);
        }
        assert_eq!(c_a, 1.0);
        assert_eq!(c_b, 0.5);
    }

    #[test]
    fn appendix_d_statistic_is_of_order_sqrt_p_over_n() {
        let key = StreamKey::new(3, &["test", "appd"]);
        let mut points = Vec::new();
        let m: f64 = (0..200)
            .map(|i| appendix_d_statistic(50, 1000, 1.0, true, &mut key.trial(i), &mut points))
            .sum::<f64>()
            / 200.0;
        // 2 Phi(sqrt(50/999)) - 1 = 0.177.
        assert!((m - 0.177).abs() < 0.02, "{m}");
        let indep: f64 = (0..200)
            .map(|i| appendix_d_statistic(50, 1000, 1.0, false, &mut key.trial(i), &mut points))
            .sum::<f64>()
            / 200.0;
        assert!(indep.abs() < 0.02, "{indep}");
    }
}
