//! Algorithm 1 of Ma, Marinov & Zhang (2022) (seed 000): DP-SGD as a Langevin algorithm, with
//! one sample per step ($|\mathcal M_t|=1$).
//!
//! $w_1\sim\mathcal N(0,\beta_0I_d)$; for $t=2..T$, with $i_t$ uniform,
//! $$w_t = c_t\big(w_{t-1}-h_t\nabla\ell(w_{t-1},z_{i_t})\big)+\sigma_t\xi_t,\qquad
//! \sigma_t^2=(1-c_t^2)\beta_0,\ \xi_t\sim\mathcal N(0,I_d),$$
//! which is (3)–(4) of the paper with $c_t=1-\lambda_t\eta_t$ and
//! $\lambda_t\eta_t(2-\lambda_t\eta_t)=1-c_t^2$. The caller chooses $h_t$ (`idx-A`:
//! $h_t=\eta_t$, `idx-B`: $\eta_{t-1}$).
//!
//! Two chains on neighbouring datasets can run under the **synchronous coupling** of
//! Lemma 5's proof: same $w_1$, same indices, same noise.

use crate::problems::FinitePopulation;
use crate::rng::TrialRng;
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

/// One step of Algorithm 1: gradient step of size `h`, contraction `c`, noise std `sigma`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Gradient step size $h$.
    pub h: f64,
    /// Contraction factor $c$ applied to the iterate.
    pub c: f64,
    /// Noise standard deviation $\sigma$.
    pub sigma: f64,
}

impl Step {
    /// The step with noise $\sigma=\sqrt{(1-c^2)\beta_0}$ that keeps $\mathcal N(0,\beta_0I)$ invariant.
    pub fn langevin(h: f64, c: f64, beta0: f64) -> Self {
        Self {
            h,
            c,
            sigma: ((1.0 - c * c).max(0.0) * beta0).sqrt(),
        }
    }
}

/// How the noise of two coupled chains is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoiseCoupling {
    /// Same initial point and same noise in both chains (Lemma 5's proof).
    Synchronous,
    /// Independent initial points and noise (indices still shared): a mutant.
    Independent,
}

/// A configured run of Algorithm 1.
#[derive(Debug, Clone, Copy)]
pub struct Sgld<'a, P> {
    /// The population the samples are drawn from.
    pub population: &'a P,
    /// Steps producing $w_2,\dots,w_T$.
    pub steps: &'a [Step],
    /// Variance $\beta_0$ of the start law $\mathcal N(0,\beta_0I)$.
    pub beta0: f64,
}

/// Buffers for up to two chains, reused across trials so that steps allocate nothing.
#[derive(Debug, Clone, Default)]
pub struct Workspace {
    w: Vec<f64>,
    w2: Vec<f64>,
    noise: Vec<f64>,
}

impl Workspace {
    /// Buffers for dimension `d`.
    pub fn new(d: usize) -> Self {
        Self {
            w: vec![0.0; d],
            w2: vec![0.0; d],
            noise: vec![0.0; d],
        }
    }
}

#[inline]
fn fill_normal(rng: &mut TrialRng, out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = StandardNormal.sample(rng));
}

#[inline]
fn contract_and_add(w: &mut [f64], c: f64, sigma: f64, noise: &[f64]) {
    for (wj, nj) in w.iter_mut().zip(noise) {
        *wj = c * *wj + sigma * nj;
    }
}

impl<P: FinitePopulation> Sgld<'_, P> {
    /// Number of iterates $T$ (steps + 1).
    pub fn horizon(&self) -> usize {
        self.steps.len() + 1
    }

    #[inline]
    fn draw_index(&self, data_len: usize, rng: &mut TrialRng) -> usize {
        rng.random_range(0..data_len)
    }

    /// Runs one chain on `data`; `visit(t, w_t)` sees every iterate $t=1..T$.
    pub fn run(
        &self,
        data: &[usize],
        rng: &mut TrialRng,
        ws: &mut Workspace,
        mut visit: impl FnMut(usize, &[f64]),
    ) {
        let Workspace { w, noise, .. } = ws;
        fill_normal(rng, w);
        w.iter_mut().for_each(|v| *v *= self.beta0.sqrt());
        visit(1, w);
        for (k, step) in self.steps.iter().enumerate() {
            let i = self.draw_index(data.len(), rng);
            self.population.gradient_step(w, data[i], step.h);
            if step.sigma > 0.0 {
                fill_normal(rng, noise);
            } else {
                noise.iter_mut().for_each(|v| *v = 0.0);
            }
            contract_and_add(w, step.c, step.sigma, noise);
            visit(k + 2, w);
        }
    }

    /// Runs two chains on neighbouring datasets `data` and `data_prime` (same length) with
    /// shared indices; `visit(t, w_t, w'_t)` sees every pair of iterates.
    pub fn run_coupled(
        &self,
        data: &[usize],
        data_prime: &[usize],
        coupling: NoiseCoupling,
        rng: &mut TrialRng,
        ws: &mut Workspace,
        mut visit: impl FnMut(usize, &[f64], &[f64]),
    ) {
        debug_assert_eq!(data.len(), data_prime.len());
        let Workspace { w, w2, noise } = ws;
        let sd = self.beta0.sqrt();
        fill_normal(rng, w);
        w.iter_mut().for_each(|v| *v *= sd);
        match coupling {
            NoiseCoupling::Synchronous => w2.copy_from_slice(w),
            NoiseCoupling::Independent => {
                fill_normal(rng, w2);
                w2.iter_mut().for_each(|v| *v *= sd);
            }
        }
        visit(1, w, w2);
        for (k, step) in self.steps.iter().enumerate() {
            let i = self.draw_index(data.len(), rng);
            self.population.gradient_step(w, data[i], step.h);
            self.population.gradient_step(w2, data_prime[i], step.h);
            if step.sigma > 0.0 {
                fill_normal(rng, noise);
                contract_and_add(w, step.c, step.sigma, noise);
                if coupling == NoiseCoupling::Independent {
                    fill_normal(rng, noise);
                }
                contract_and_add(w2, step.c, step.sigma, noise);
            } else {
                w.iter_mut().for_each(|v| *v *= step.c);
                w2.iter_mut().for_each(|v| *v *= step.c);
            }
            visit(k + 2, w, w2);
        }
    }
}

/// $\Vert a-b\Vert^2$.
#[inline]
pub fn squared_distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Algorithm 1 on the quadratic losses $\ell_t(w)=\frac a2\Vert w-z_t\Vert^2$ (P-quad), where
/// every $p_t$ is $\mathcal N(m_t,s_t^2I)$: the exact means and variances of $p_1..p_T$.
/// `grad_steps[t]` is the gradient-step size out of $p_{t+1}$'s predecessor ($t=0..T-2$) and
/// `contractions[t]` the matching $c$; $m_1=0$, $s_1^2=\beta_0$. Per step:
/// $m\leftarrow(1-ha)m+haz_t$, $s^2\leftarrow(1-ha)^2s^2$, then $m\leftarrow cm$,
/// $s^2\leftarrow c^2s^2+(1-c^2)\beta_0$.
pub fn quadratic_sgld_laws(
    a: f64,
    beta0: f64,
    z: &[Vec<f64>],
    grad_steps: &[f64],
    contractions: &[f64],
) -> Vec<(Vec<f64>, f64)> {
    let d = z.first().map_or(0, Vec::len);
    let mut m = vec![0.0; d];
    let mut s2 = beta0;
    let mut laws = vec![(m.clone(), s2)];
    for t in 0..z.len().saturating_sub(1) {
        let (h, c) = (grad_steps[t], contractions[t]);
        for (mi, zi) in m.iter_mut().zip(&z[t]) {
            *mi = c * ((1.0 - h * a) * *mi + h * a * zi);
        }
        s2 = c * c * (1.0 - h * a).powi(2) * s2 + (1.0 - c * c) * beta0;
        laws.push((m.clone(), s2));
    }
    laws
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::LinearPm1;
    use crate::rng::StreamKey;

    /// On P-lin with c = 1 the coupled distance is 2*G*h times the number of hits of index n.
    #[test]
    fn coupled_plin_distance_counts_hits() {
        let pop = LinearPm1 { g: 1.0 };
        let steps = vec![Step::langevin(0.1, 1.0, 1.0); 50];
        let sgld = Sgld {
            population: &pop,
            steps: &steps,
            beta0: 1.0,
        };
        let mut data = vec![LinearPm1::PLUS; 5];
        let mut prime = data.clone();
        prime[4] = LinearPm1::MINUS;
        data[0] = LinearPm1::MINUS;
        prime[0] = LinearPm1::MINUS;
        let mut ws = Workspace::new(1);
        let mut last = 0.0;
        sgld.run_coupled(
            &data,
            &prime,
            NoiseCoupling::Synchronous,
            &mut StreamKey::new(1, &[]).trial(0),
            &mut ws,
            |t, a, b| {
                if t == 51 {
                    last = squared_distance(a, b);
                }
            },
        );
        let hits = (last.sqrt() / 0.2).round();
        assert!((last.sqrt() - 0.2 * hits).abs() < 1e-12 && hits > 0.0);
    }

    #[test]
    fn langevin_step_keeps_the_prior_invariant() {
        let s = Step::langevin(0.0, 0.6, 2.0);
        assert!((s.c * s.c * 2.0 + s.sigma * s.sigma - 2.0).abs() < 1e-12);
    }
}
