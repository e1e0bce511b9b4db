//! Projected noisy SGD in one dimension by **exact law propagation** on a grid, and the 2-D
//! projected chain by Monte Carlo (seed 001, THEOREMS.md §4 "What to measure").
//!
//! The grid on $\[lo,hi\]$ has an atom at each end and $N$ cells of width $h=(hi-lo)/N$; a cell's
//! mass sits at its centre. One step maps a source $x$ to $\Pi(m(x)+\sigma Z)$: mass
//! $\Phi(\frac{lo-m}\sigma)$ to the atom $lo$ (everything the projection clamps there), the
//! Gaussian mass of each cell, and $Q(\frac{hi-m}\sigma)$ to the atom $hi$. A step of DP-SGD is
//! a mixture over batches of such maps; its kernel is precomputed once as a dense matrix.

use rayon::prelude::*;

/// $\Phi(x)$.
fn norm_cdf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

/// The grid of states: atom `lo`, `n` cells, atom `hi`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Left end (an atom).
    pub lo: f64,
    /// Right end (an atom).
    pub hi: f64,
    /// Number of cells between the atoms.
    pub cells: usize,
}

/// One map of a batch mixture: weight and pre-noise map $m(x)$.
pub type WeightedMap<'a> = (f64, &'a (dyn Fn(f64) -> f64 + Sync));

impl Grid {
    /// Number of states: the cells and the two atoms.
    pub fn states(&self) -> usize {
        self.cells + 2
    }

    fn width(&self) -> f64 {
        (self.hi - self.lo) / self.cells as f64
    }

    /// Where state `s`'s mass sits: the atoms at the ends, cell centres between.
    pub fn source(&self, s: usize) -> f64 {
        match s {
            0 => self.lo,
            s if s == self.cells + 1 => self.hi,
            s => self.lo + (s as f64 - 0.5) * self.width(),
        }
    }

    /// The law of $\Pi(m+\sigma Z)$ on the states, added with weight `w` into `out`.
    pub fn add_row(&self, m: f64, sigma: f64, w: f64, out: &mut [f64]) {
        let h = self.width();
        let mut prev = norm_cdf((self.lo - m) / sigma);
        out[0] += w * prev;
        for (j, o) in out[1..=self.cells].iter_mut().enumerate() {
            let next = norm_cdf((self.lo + (j + 1) as f64 * h - m) / sigma);
            *o += w * (next - prev);
            prev = next;
        }
        // Upper atom from the upper tail directly (no cancellation).
        out[self.cells + 1] += w * norm_cdf(-(self.hi - m) / sigma);
    }

    /// The kernel matrix (row-major, `states x states`) of one step: the mixture
    /// $\sum_kw_k\thinspace\mathcal L(\Pi(m_k(x)+\sigma Z))$ from every source $x$.
    pub fn kernel(&self, sigma: f64, mixture: &[WeightedMap<'_>]) -> Kernel {
        let n = self.states();
        let mut matrix = vec![0.0; n * n];
        matrix.par_chunks_mut(n).enumerate().for_each(|(s, row)| {
            let x = self.source(s);
            for (w, map) in mixture {
                self.add_row(map(x), sigma, *w, row);
            }
        });
        Kernel { n, matrix }
    }

    /// The law after one step from the point mass at `x` (exact start, not a cell centre).
    pub fn from_point(&self, x: f64, sigma: f64, mixture: &[WeightedMap<'_>]) -> Vec<f64> {
        let mut out = vec![0.0; self.states()];
        for (w, map) in mixture {
            self.add_row(map(x), sigma, *w, &mut out);
        }
        out
    }
}

/// A precomputed one-step kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    n: usize,
    matrix: Vec<f64>,
}

impl Kernel {
    /// `out = p K` (row vector times matrix).
    pub fn apply(&self, p: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        for (ps, row) in p.iter().zip(self.matrix.chunks_exact(self.n)) {
            if *ps != 0.0 {
                out.iter_mut().zip(row).for_each(|(o, k)| *o += ps * k);
            }
        }
    }
}

/// $\mathsf E_\varepsilon(P\Vert Q)=\sum_s(P(s)-e^\varepsilon Q(s))_+$ on a common finite support.
pub fn hockey_stick(p: &[f64], q: &[f64], epsilon: f64) -> f64 {
    let g = epsilon.exp();
    p.iter().zip(q).map(|(a, b)| (a - g * b).max(0.0)).sum()
}

/// Rényi divergence of order $\alpha\in(0,1)\cup(1,\infty)$ between two laws on the same finite
/// set: $D_\alpha(P\Vert Q)=\frac1{\alpha-1}\ln\sum_xp(x)^\alpha q(x)^{1-\alpha}$ (log-sum-exp over the
/// states with $p>0$); $+\infty$ for $\alpha>1$ when some $p(x)>0=q(x)$.
pub fn renyi(p: &[f64], q: &[f64], alpha: f64) -> f64 {
    let logs: Vec<f64> = p
        .iter()
        .zip(q)
        .filter(|(a, _)| **a > 0.0)
        .map(|(a, b)| alpha * a.ln() + (1.0 - alpha) * b.ln())
        .collect();
    if alpha > 1.0 && logs.iter().any(|l| *l == f64::INFINITY) {
        return f64::INFINITY;
    }
    let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return f64::INFINITY; // (alpha < 1 and disjoint supports)
    }
    let sum: f64 = logs.iter().map(|l| (l - max).exp()).sum();
    (max + sum.ln()) / (alpha - 1.0)
}

/// The law of $f(X)$, $X\sim P$, for a map `f` of the states to `0..outputs`.
pub fn push_forward(p: &[f64], f: &[usize], outputs: usize) -> Vec<f64> {
    let mut out = vec![0.0; outputs];
    for (x, &y) in f.iter().enumerate() {
        out[y] += p[x];
    }
    out
}

/// The largest `lhs / rhs` over the pairs whose `rhs` exceeds $10^{-12}$ (below it the left side
/// is 0 or numerically meaningless); 0 if none does.
pub fn worst_ratio(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    pairs
        .filter(|(_, rhs)| *rhs > 1e-12)
        .map(|(lhs, rhs)| lhs / rhs)
        .fold(0.0, f64::max)
}

/// The data processing inequality of `divergence` for deterministic maps, at random instances:
/// the largest $D(P\circ f^{-1}\Vert Q\circ f^{-1})/(c\thinspace D(P\Vert Q))$ over `pairs` pairs drawn by `draw` from the
/// trial generators of `key`, $f$ the identity for every fifth pair and else a uniformly random
/// map of the 12 states onto $2..6$ (`factor` $c$ is 1, or a mutant's).
pub fn dpi_worst_ratio(
    key: &crate::rng::StreamKey,
    pairs: u64,
    factor: f64,
    draw: impl Fn(&mut crate::rng::TrialRng) -> (Vec<f64>, Vec<f64>),
    divergence: impl Fn(&[f64], &[f64]) -> f64,
) -> f64 {
    use rand::RngExt;
    worst_ratio((0..pairs).map(|i| {
        let mut rng = key.trial(i);
        let (p, q) = draw(&mut rng);
        let states = p.len();
        let k = if i % 5 == 0 {
            states
        } else {
            rng.random_range(2..=6)
        };
        let f: Vec<usize> = (0..states)
            .map(|x| {
                if k == states {
                    x
                } else {
                    rng.random_range(0..k)
                }
            })
            .collect();
        let lhs = divergence(&push_forward(&p, &f, k), &push_forward(&q, &f, k));
        (lhs, factor * divergence(&p, &q))
    }))
}

/// Both neighbouring processes' laws after every step $1..T$: $\max$ of the two orders of
/// $\mathsf E_\varepsilon$ at each $t$ for each order in `epsilons`.
pub fn propagate_pair(
    grid: &Grid,
    start: f64,
    sigma: f64,
    mixture: &[WeightedMap<'_>],
    mixture_prime: &[WeightedMap<'_>],
    steps: usize,
    epsilons: &[f64],
) -> Vec<Vec<f64>> {
    // The kernels are only needed after the first step (which starts from a point).
    let kernels = (steps > 1).then(|| {
        rayon::join(
            || grid.kernel(sigma, mixture),
            || grid.kernel(sigma, mixture_prime),
        )
    });
    let mut p = grid.from_point(start, sigma, mixture);
    let mut p_prime = grid.from_point(start, sigma, mixture_prime);
    let mut buf = vec![0.0; grid.states()];
    let mut out = Vec::with_capacity(steps);
    for t in 1..=steps {
        if let (true, Some((k, k_prime))) = (t > 1, &kernels) {
            k.apply(&p, &mut buf);
            std::mem::swap(&mut p, &mut buf);
            k_prime.apply(&p_prime, &mut buf);
            std::mem::swap(&mut p_prime, &mut buf);
        }
        out.push(
            epsilons
                .iter()
                .map(|&e| hockey_stick(&p, &p_prime, e).max(hockey_stick(&p_prime, &p, e)))
                .collect(),
        );
    }
    out
}

/// A random law on `states` grid states: `support` distinct states chosen uniformly, weights
/// Dirichlet(1, ..., 1) (normalised exponentials).
pub fn random_sparse_law<R: rand::Rng + ?Sized>(
    states: usize,
    support: usize,
    rng: &mut R,
) -> Vec<f64> {
    use rand::RngExt;
    use rand_distr::{Distribution, Exp1};
    let mut law = vec![0.0; states];
    let mut total = 0.0;
    let mut placed = 0;
    while placed < support.min(states) {
        let s = rng.random_range(0..states);
        if law[s] == 0.0 {
            let w: f64 = Exp1.sample(rng);
            law[s] = w;
            total += w;
            placed += 1;
        }
    }
    law.iter_mut().for_each(|v| *v /= total);
    law
}

/// How each step's batch is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BatchSampling {
    /// A uniform `b`-subset of the `n` samples, without replacement.
    WithoutReplacement {
        /// Batch size $b$.
        b: usize,
    },
    /// Each sample independently with probability `p`; the clipped gradients are averaged over
    /// the batch drawn (`norm-B`; an empty batch leaves $w$ unchanged).
    Poisson {
        /// Inclusion probability $p$.
        p: f64,
    },
}

/// Projected (or regularised) DP-SGD in $d$ dimensions with per-sample clipping
/// (THEOREMS.md §4 (1)–(2) and (16)):
/// $W_t=\Pi\big(cW_{t-1}-\frac\eta{|B|}\sum_{i\in B}\mathrm{Clip}\_C(\nabla\ell(W_{t-1},x_i))+\sigma Z_t\big)$,
/// $\Pi$ the projection onto the ball of radius `radius` ($+\infty$: none), $c=1$ for projected
/// DP-SGD and $c\in(0,1)$ for the regularised variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectedDpSgd {
    /// Dimension $d$.
    pub dim: usize,
    /// Dataset size $n$.
    pub n: usize,
    /// Step size $\eta$.
    pub eta: f64,
    /// Clipping norm $C$.
    pub clip: f64,
    /// Noise standard deviation $\sigma$.
    pub sigma: f64,
    /// Projection radius ($+\infty$: none).
    pub radius: f64,
    /// Contraction factor $c$ ($1$: projected DP-SGD).
    pub contraction: f64,
    /// How batches are drawn.
    pub sampling: BatchSampling,
}

impl ProjectedDpSgd {
    /// One step from `w` in place; `gradient(i, w, out)` writes $\nabla\ell(w,x_i)$.
    /// `scratch` holds at least `2 * dim` values.
    pub fn step<R: rand::Rng + ?Sized>(
        &self,
        w: &mut [f64],
        gradient: &impl Fn(usize, &[f64], &mut [f64]),
        rng: &mut R,
        scratch: &mut [f64],
    ) {
        use rand::RngExt;
        use rand_distr::{Distribution, StandardNormal};
        let d = self.dim;
        let (sum, g) = scratch[..2 * d].split_at_mut(d);
        sum.iter_mut().for_each(|v| *v = 0.0);
        let mut size = 0usize;
        let add = |i: usize, sum: &mut [f64], g: &mut [f64]| {
            gradient(i, w, g);
            let norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
            let scale = if norm > self.clip {
                self.clip / norm
            } else {
                1.0
            };
            sum.iter_mut()
                .zip(g.iter())
                .for_each(|(s, v)| *s += scale * v);
        };
        match self.sampling {
            BatchSampling::WithoutReplacement { b } => {
                // Floyd's algorithm: b distinct indices of n with b draws.
                let mut chosen: Vec<usize> = Vec::with_capacity(b);
                for j in self.n - b..self.n {
                    let t = rng.random_range(0..=j);
                    let pick = if chosen.contains(&t) { j } else { t };
                    chosen.push(pick);
                    add(pick, sum, g);
                }
                size = b;
            }
            BatchSampling::Poisson { p } => {
                for i in 0..self.n {
                    if rng.random_bool(p) {
                        add(i, sum, g);
                        size += 1;
                    }
                }
            }
        }
        let step = if size > 0 {
            self.eta / size as f64
        } else {
            0.0
        };
        for (wk, sk) in w.iter_mut().zip(sum.iter()) {
            let z: f64 = StandardNormal.sample(rng);
            *wk = self.contraction * *wk - step * sk + self.sigma * z;
        }
        crate::problems::project_to_ball(w, self.radius);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_probability_vectors_and_kernels_preserve_mass() {
        let grid = Grid {
            lo: 0.0,
            hi: 1.0,
            cells: 200,
        };
        let shift = |x: f64| x - 0.3;
        let id = |x: f64| x;
        let k = grid.kernel(0.2, &[(0.7, &id), (0.3, &shift)]);
        let mut p = grid.from_point(0.5, 0.2, &[(1.0, &id)]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mut buf = vec![0.0; grid.states()];
        for _ in 0..20 {
            k.apply(&p, &mut buf);
            std::mem::swap(&mut p, &mut buf);
        }
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p.iter().all(|v| *v >= 0.0));
    }

    #[test]
    fn one_step_gaussian_mechanism_matches_the_closed_form() {
        // No projection in reach (wide grid): one step of x -> x +- s gives the Gaussian
        // mechanism, E_eps = theta_eps(2s/sigma), here theta_1(1) = 0.1269367375 (THEOREMS.md).
        let grid = Grid {
            lo: -20.0,
            hi: 20.0,
            cells: 40_000,
        };
        let plus = |x: f64| x + 0.5;
        let minus = |x: f64| x - 0.5;
        let e = propagate_pair(
            &grid,
            0.0,
            1.0,
            &[(1.0, &plus)],
            &[(1.0, &minus)],
            1,
            &[1.0],
        );
        assert!((e[0][0] - 0.1269367375).abs() < 2e-4, "{}", e[0][0]);
    }

    #[test]
    fn projected_dp_sgd_stays_in_the_ball_and_clips() {
        use crate::rng::StreamKey;
        let alg = ProjectedDpSgd {
            dim: 3,
            n: 10,
            eta: 1.0,
            clip: 0.5,
            sigma: 0.0,
            radius: 2.0,
            contraction: 1.0,
            sampling: BatchSampling::WithoutReplacement { b: 10 },
        };
        // Every gradient is (1000, 0, 0): clipped to 0.5, the full batch moves w by -0.5 e1.
        let grad = |_: usize, _: &[f64], out: &mut [f64]| {
            out.copy_from_slice(&[1000.0, 0.0, 0.0]);
        };
        let mut rng = StreamKey::new(1, &["test", "pdpsgd"]).trial(0);
        let mut w = vec![0.0; 3];
        let mut scratch = vec![0.0; 6];
        alg.step(&mut w, &grad, &mut rng, &mut scratch);
        assert_eq!(w, vec![-0.5, 0.0, 0.0]);
        for _ in 0..10 {
            alg.step(&mut w, &grad, &mut rng, &mut scratch);
        }
        assert!((w[0] + 2.0).abs() < 1e-12, "{w:?}");
        // Poisson with p = 0: no sample, no move (sigma 0).
        let still = ProjectedDpSgd {
            sampling: BatchSampling::Poisson { p: 0.0 },
            ..alg
        };
        let before = w.clone();
        still.step(&mut w, &grad, &mut rng, &mut scratch);
        assert_eq!(w, before);
    }
}

#[cfg(test)]
mod divergence_tests {
    use super::*;

    /// Closed forms: two-point laws, and the Gaussian-free identities D_alpha(P||P) = 0.
    #[test]
    fn renyi_against_closed_forms() {
        let (p, q) = ([0.25, 0.75], [0.5, 0.5]);
        for alpha in [0.5, 2.0, 7.0] {
            let exact = ((0.25f64.powf(alpha) * 0.5f64.powf(1.0 - alpha)
                + 0.75f64.powf(alpha) * 0.5f64.powf(1.0 - alpha))
            .ln())
                / (alpha - 1.0);
            assert!((renyi(&p, &q, alpha) - exact).abs() < 1e-14);
            assert!(renyi(&p, &p, alpha).abs() < 1e-15);
        }
        assert_eq!(renyi(&[0.5, 0.5], &[1.0, 0.0], 2.0), f64::INFINITY);
        assert!(renyi(&[0.5, 0.5], &[1.0, 0.0], 0.5).is_finite());
        let pushed = push_forward(&[0.1, 0.2, 0.7], &[1, 0, 1], 2);
        assert!((pushed[0] - 0.2).abs() < 1e-16 && (pushed[1] - 0.8).abs() < 1e-15);
    }
}
