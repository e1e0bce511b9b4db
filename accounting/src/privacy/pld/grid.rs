//! The discretised privacy-loss distribution [`Pld`]: mass on the grid $\ell_k=k\Delta_L$ and
//! at $+\infty$, the bound on its floating-point error ([`RoundOff`]), and its queries:
//! $\delta(\epsilon)$, $\epsilon(\delta)$, the log-MGF and the window of a composition. The
//! rest of the PLD accountant builds on it.

use crate::error::ParamError;
use serde::{Deserialize, Serialize};

/// Unit round-off of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// The window of a composition: its bottom grid index, its length and the FFT length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub lo_idx: i64,
    pub len: usize,
    pub fft_len: usize,
}

/// A discretised privacy-loss distribution: mass `pmf[i]` at loss `(offset + i) * interval`,
/// plus mass at $+\infty$.
#[derive(Debug, Clone, PartialEq)]
pub struct Pld {
    pub interval: f64,
    pub offset: i64,
    pub pmf: Vec<f64>,
    pub infinity_mass: f64,
    /// Mass that may be misplaced by the composition window (subtracted from optimistic δ).
    pub alias_mass: f64,
    /// Whether this PLD bounds $\delta(\epsilon)$ from above or from below.
    pub rounding: Rounding,
    /// The floating-point error of `pmf` (zero for a PLD built directly).
    pub roundoff: RoundOff,
}

/// A bound on the floating-point error of a computed PLD: for every grid index $s$,
/// $|p_s-\hat p_s|\le\rho\thinspace\hat p_s+a_s$ with $\big(\sum_s(a_se^{\theta\ell_s})^2\big)^{1/2}\le e^{a}$,
/// $p$ the PLD the computation stands for (`relative` $=\rho$, `ln_scale` $=a$, `tilt`
/// $=\theta$; in particular $a_s\le e^{a-\theta\ell_s}$). [`Pld::delta`] and
/// [`Pld::epsilon`] add it (pessimistic) or subtract it (optimistic).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundOff {
    pub relative: f64,
    pub ln_scale: f64,
    pub tilt: f64,
}

impl RoundOff {
    /// No error.
    pub const EXACT: RoundOff = RoundOff {
        relative: 0.0,
        ln_scale: f64::NEG_INFINITY,
        tilt: 0.0,
    };
}

/// Which way losses are rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rounding {
    /// Up: an upper bound on δ(ε).
    Pessimistic,
    /// Down: a lower bound.
    Optimistic,
}

impl Pld {
    /// A PLD built directly (no floating-point error to carry): mass `pmf[i]` at loss
    /// `(offset + i) * interval` and `infinity_mass` at $+\infty$.
    pub fn exact(
        interval: f64,
        offset: i64,
        pmf: Vec<f64>,
        infinity_mass: f64,
        rounding: Rounding,
    ) -> Self {
        Pld {
            interval,
            offset,
            pmf,
            infinity_mass,
            alias_mass: 0.0,
            rounding,
            roundoff: RoundOff::EXACT,
        }
    }

    /// The law of $L+m\Delta_L$: every finite loss moved by `cells` $=m$ grid cells (masses,
    /// $+\infty$ and the round-off envelope kept: its weights $a_se^{\theta\ell_s}$ at the moved
    /// losses scale by $e^{\theta m\Delta_L}$); an error where the offset would overflow.
    pub fn shifted(&self, cells: i64) -> Result<Pld, ParamError> {
        let offset = self
            .offset
            .checked_add(cells)
            .ok_or_else(|| ParamError::new("cells", cells, "a shift the grid offset can hold"))?;
        Ok(Pld {
            offset,
            roundoff: RoundOff {
                ln_scale: self.roundoff.ln_scale
                    + self.roundoff.tilt * cells as f64 * self.interval,
                ..self.roundoff
            },
            ..self.clone()
        })
    }

    /// The same masses on the grid of spacing `interval` $=c\Delta_L$: the law of $cL$
    /// ($c>0$). The round-off envelope's tilt is divided by $c$, so its weights stay the same.
    pub fn rescaled(&self, interval: f64) -> Pld {
        let c = interval / self.interval;
        Pld {
            interval,
            roundoff: RoundOff {
                tilt: self.roundoff.tilt / c,
                ..self.roundoff
            },
            ..self.clone()
        }
    }

    /// $\ln\sum_kp_ke^{t\ell_k}$ (finite part), without a transcendental per point: from the
    /// end where $t\ell_k$ is largest, $\sum_kp_ke^{t\ell_k}=e^{t\ell_{\rm end}}\sum_jp_jr^j$ with
    /// $r=e^{-|t|\Delta_L}\le1$ (Horner). Inflated by $10^{-9}$ relative, which covers the
    /// rounding of the recurrence: it is used as an upper bound (Chernoff). Where the masses
    /// near that end are zero and $r^j$ underflows before the bulk (a PLD of losses in the
    /// thousands: the sum came out 0 and $\Lambda=-\infty$ put the composition's window past
    /// its support), the sum is redone outward from the end with rescaling
    /// (`Pld::far_sum`).
    pub fn log_mgf(&self, t: f64) -> f64 {
        let r = (-t.abs() * self.interval).exp();
        let mut sum = 0.0;
        let end = if t >= 0.0 {
            for p in &self.pmf {
                sum = sum * r + p;
            }
            self.offset + self.pmf.len() as i64 - 1
        } else {
            for p in self.pmf.iter().rev() {
                sum = sum * r + p;
            }
            self.offset
        };
        // Terms lost to underflow are each below 2^-1074: negligible against a sum >= 1e-290.
        let ln_sum = if sum >= 1e-290 {
            (sum * (1.0 + 1e-9)).ln()
        } else {
            let ln_r = -t.abs() * self.interval;
            let far = if t >= 0.0 {
                Self::far_sum(self.pmf.iter().rev(), ln_r)
            } else {
                Self::far_sum(self.pmf.iter(), ln_r)
            };
            // Added to t l_end below, whose magnitude can swallow an absolute margin: 4u of it.
            far + 4.0 * UNIT * (t * end as f64 * self.interval).abs()
        };
        t * end as f64 * self.interval + ln_sum
    }

    /// $\ln\sum_jp_jr^j$ ($\ln r$ given), `masses` in order of $j$, as a streaming
    /// log-sum-exp: the sum kept as $e^{m}s$ with $m$ the largest $\ln p_j+j\ln r$ so far (no
    /// power underflows, no term is lost below the last place of $m$). It stops once $r^j$ is
    /// below $e^{-80}$ of the sum, adding $r^j$ (the rest has mass at most 1 and powers at most
    /// $r^j$) as a bound. An upper bound: inflated by $10^{-9}$ plus the rounding of $m$.
    fn far_sum<'a>(masses: impl Iterator<Item = &'a f64>, ln_r: f64) -> f64 {
        let (mut m, mut s) = (f64::NEG_INFINITY, 0.0f64);
        let add = |(m, s): (f64, f64), v: f64| {
            if v > m {
                (v, s * (m - v).exp() + 1.0)
            } else {
                (m, s + (v - m).exp())
            }
        };
        for (j, p) in masses.enumerate() {
            let ln_w = j as f64 * ln_r;
            if m > f64::NEG_INFINITY && ln_w < m + s.ln() - 80.0 {
                (m, s) = add((m, s), ln_w);
                break;
            }
            if *p > 0.0 {
                (m, s) = add((m, s), p.ln() + ln_w);
            }
        }
        m + s.ln() + 1e-9 + 4.0 * UNIT * (1.0 + m.abs())
    }

    /// The log-MGF of the composition of `steps` copies, for choosing a [`Focus`](super::Focus)'s tilt.
    pub fn log_mgf_of(&self, steps: u64) -> impl Fn(f64) -> f64 + '_ {
        move |t| steps as f64 * self.log_mgf(t)
    }

    /// The window of the `steps`-fold composition (see [`Pld::compose_with`]) and its FFT
    /// length.
    pub fn window(&self, steps: u64, tail_mass: f64, tilt: f64) -> Window {
        let tf = steps as f64;
        let ln_tau = tail_mass.ln();
        let log_mgf = |t: f64| self.log_mgf(t);
        let width = self.pmf.len() as i64;
        // Saturating: a count near 2^64 must not wrap into a window with lo > hi (a panic of
        // `clamp`); such a composition is refused later by its size.
        let steps_i = i64::try_from(steps).unwrap_or(i64::MAX);
        let full_lo = self.offset.saturating_mul(steps_i);
        let full_hi = (self.offset + width - 1).saturating_mul(steps_i);
        let mut lower = f64::NEG_INFINITY;
        for i in 0..24 {
            let t = 1e-3 * 2f64.powi(i);
            lower = lower.max((ln_tau - tf * log_mgf(-t)) / t);
        }
        let lo_idx = ((lower / self.interval).floor() as i64).clamp(full_lo, full_hi);
        let lo_loss = lo_idx as f64 * self.interval;
        let mut upper = f64::INFINITY;
        for i in 0..24 {
            let t = 1e-3 * 2f64.powi(i);
            upper = upper.min((tf * log_mgf(tilt + t) - tilt * lo_loss - ln_tau) / t);
        }
        let hi_idx = ((upper / self.interval).ceil() as i64).clamp(lo_idx, full_hi);
        let len = (hi_idx - lo_idx + 1) as usize;
        Window {
            lo_idx,
            len,
            fft_len: len.max(self.pmf.len()).next_power_of_two(),
        }
    }

    /// The largest $|\ell|$ of the grid.
    fn max_abs_loss(&self) -> f64 {
        let end = (self.offset + self.pmf.len() as i64 - 1) as f64 * self.interval;
        (self.offset as f64 * self.interval).abs().max(end.abs())
    }

    /// A bound on $\sum_{i\ge\text{first}}a_i$, the absolute part of the round-off envelope
    /// above an index: by Cauchy–Schwarz, $e^{a}\big(\sum_{i\ge\text{first}}e^{-2\theta\ell_i}\big)^{1/2}$
    /// (a geometric sum; inflated by $10^{-6}$ for the rounding of its exponent).
    pub(crate) fn envelope_from(&self, first: usize) -> f64 {
        let r = &self.roundoff;
        let n = self.pmf.len();
        if r.ln_scale == f64::NEG_INFINITY || first >= n {
            return 0.0;
        }
        let count = (n - first) as f64;
        let l_first = (self.offset + first as i64) as f64 * self.interval;
        let l_last = (self.offset + n as i64 - 1) as f64 * self.interval;
        let step = 2.0 * r.tilt.abs() * self.interval;
        // The largest term of sum e^{-2θℓ_i}, times the sum of a geometric series of ratio
        // e^{-2|θ|Δ}.
        let top = if r.tilt >= 0.0 {
            -2.0 * r.tilt * l_first
        } else {
            -2.0 * r.tilt * l_last
        };
        let series = if step == 0.0 {
            count
        } else {
            (-step * count).exp_m1() / (-step).exp_m1()
        };
        (r.ln_scale + 0.5 * (top + series.ln())).exp() * (1.0 + 1e-6)
    }

    /// A computed $\delta$-sum `sum` (the finite part, before the corrections) moved in the
    /// safe direction: its own rounding `sum_error`, the relative envelope on `positive` (the
    /// sum of the masses it weights), the absolute envelope above index `first`, the alias mass.
    fn bounded(&self, sum: f64, sum_error: f64, positive: f64, first: usize) -> f64 {
        let margin = sum_error + self.roundoff.relative * positive + self.envelope_from(first);
        self.moved(sum, margin)
    }

    /// The infinity mass plus `sum`, moved by `margin` (and the alias mass) in the safe
    /// direction, within [0, 1].
    fn moved(&self, sum: f64, margin: f64) -> f64 {
        match self.rounding {
            Rounding::Pessimistic => {
                ((self.infinity_mass + sum + margin) * (1.0 + 4.0 * UNIT)).min(1.0)
            }
            Rounding::Optimistic => ((self.infinity_mass + sum - margin - self.alias_mass)
                * (1.0 - 4.0 * UNIT))
                .max(0.0),
        }
    }

    /// $\delta(\epsilon)$ of this PLD composed with an independent mechanism $G$ whose privacy
    /// profile is known in closed form: with $L=L_G+L_R$ the composed loss,
    /// $$\delta(\epsilon)=\mathbb E_P\big[(1-e^{\epsilon-L_G-L_R})\_+\big]
    ///   =P(L_R=\infty)+\sum_k p_k\thinspace\delta_G(\epsilon-\ell_k)$$
    /// (condition on $L_R$; $L_G$ is independent of it, and $\delta_G(x)=\mathbb E[(1-e^{x-L_G})\_+]$
    /// for every real $x$). `ln_lower(x)` and `ln_upper(x)` bound $\ln\delta_G(x)$ from below
    /// and above. A pessimistic PLD is a dominating pair's, and composition keeps domination,
    /// so the sum with the upper weights is an upper bound; an optimistic PLD's losses lie
    /// below the true ones and $\delta_G(\epsilon-\ell)$ does not decrease in $\ell$, so the sum
    /// with the lower weights is a lower bound. The exact $x=\epsilon-\ell_k$ lies within
    /// $d=4u(|\epsilon|+|\hat\ell_k|)$ of the computed one (the rounding of $\ell_k$ and of the
    /// difference), so the weights are taken at $\hat x\mp d$ ($\delta_G$ does not increase):
    /// no absolute error, which would put a floor of $n u$ under the upper end. The sums are
    /// of non-negative terms, so their rounding is relative to them; then the safe direction
    /// takes the relative round-off on the masses (weighted by the upper weights), the
    /// absolute envelope weighted by them (Cauchy–Schwarz as in `envelope_from`:
    /// $\sum_kw_ka_k\le e^{a}(\sum_kw_k^2e^{-2\theta\ell_k})^{1/2}$), and the alias mass.
    pub fn delta_composed_with(
        &self,
        epsilon: f64,
        ln_lower: &dyn Fn(f64) -> f64,
        ln_upper: &dyn Fn(f64) -> f64,
    ) -> f64 {
        let pessimistic = self.rounding == Rounding::Pessimistic;
        let r = &self.roundoff;
        let with_envelope = r.ln_scale > f64::NEG_INFINITY;
        // The upper weights: the pessimistic sum itself, and for an optimistic PLD the weights
        // of its error terms (not needed when it has none).
        let need_upper = pessimistic || with_envelope || r.relative > 0.0;
        let (mut lower_sum, mut upper_sum, mut terms) = (0.0, 0.0, 0.0);
        let mut weighted = false;
        // Streaming log-sum-exp of 2 ln w_k - 2 theta l_k: (max, sum of exp(. - max)).
        let (mut env_max, mut env_sum) = (f64::NEG_INFINITY, 0.0);
        for (i, p) in self.pmf.iter().enumerate() {
            if !(*p > 0.0 || with_envelope) {
                continue;
            }
            let l = (self.offset + i as i64) as f64 * self.interval;
            let x = epsilon - l;
            // (MIN_POSITIVE: a subnormal l or x carries absolute, not relative, rounding.)
            let d = 4.0 * UNIT * (epsilon.abs() + l.abs()) + f64::MIN_POSITIVE;
            let hi = if need_upper { ln_upper(x - d) } else { 0.0 };
            if *p > 0.0 {
                upper_sum += p * hi.exp();
                weighted |= hi > f64::NEG_INFINITY;
                if !pessimistic {
                    lower_sum += p * ln_lower(x + d).exp();
                }
                terms += 1.0;
            }
            if with_envelope && hi > f64::NEG_INFINITY {
                let t = 2.0 * hi - 2.0 * r.tilt * l;
                if t > env_max {
                    env_sum = env_sum * (env_max - t).exp() + 1.0;
                    env_max = t;
                } else {
                    env_sum += (t - env_max).exp();
                }
            }
        }
        let envelope = if env_sum > 0.0 {
            (r.ln_scale + 0.5 * (env_max + env_sum.ln())).exp() * (1.0 + 1e-6)
        } else {
            0.0
        };
        let sum = if pessimistic { upper_sum } else { lower_sum };
        // Each term carries 3u (the exponential, the product), the summation (terms - 1)u, all
        // relative to the (non-negative) sums; upper_sum enters the margin only through the
        // relative round-off.
        let rounding = (terms + 4.0) * UNIT;
        let margin = rounding * sum + r.relative * upper_sum * (1.0 + rounding) + envelope;
        let bound = self.moved(sum, margin);
        // A positive upper weight on a positive mass: the true delta is positive even where
        // its bound underflows (the smallest subnormal, not 0, is then an upper bound).
        if pessimistic && weighted {
            bound.max(f64::from_bits(1))
        } else {
            bound
        }
    }

    /// $\delta(\epsilon)=P(L=\infty)+\sum_k p_k(1-e^{\epsilon-\ell_k})_+$, moved in the safe
    /// direction by the round-off envelope (and, for optimistic PLDs, the alias mass).
    pub fn delta(&self, epsilon: f64) -> f64 {
        let first = ((epsilon / self.interval).floor() as i64 + 1 - self.offset)
            .clamp(0, self.pmf.len() as i64) as usize;
        let (mut sum, mut positive, mut terms) = (0.0, 0.0, 0.0);
        for (i, p) in self.pmf.iter().enumerate().skip(first) {
            if *p > 0.0 {
                let l = (self.offset + i as i64) as f64 * self.interval;
                sum += p * -(epsilon - l).exp_m1();
                positive += p;
                terms += 1.0; // (zeros add no rounding)
            }
        }
        // Each ℓ = (offset + i)Δ carries u|ℓ| of rounding, and e^{ε-ℓ} relative u(|ε| + |ℓ|).
        let spread = 2.0 * (epsilon.abs() + self.max_abs_loss());
        self.bounded(sum, (terms + 4.0 + spread) * UNIT * sum, positive, first)
    }

    /// The smallest $\epsilon\ge0$ with $\delta(\epsilon)\le\delta$ ($+\infty$ if none), for the
    /// bounded $\delta$ of [`Pld::delta`]: for a pessimistic PLD an upper bound on the true
    /// $\epsilon(\delta)$, for an optimistic one a lower bound (the bisection returns the side of
    /// its last interval that keeps the bound).
    pub fn epsilon(&self, delta: f64) -> f64 {
        // +inf only where the true mass at +inf may reach delta (pessimistic) or surely exceeds
        // it (optimistic: a lower end of +inf over a true finite epsilon would be unsound).
        let infinite = match self.rounding {
            Rounding::Pessimistic => self.infinity_mass * (1.0 + 4.0 * UNIT) >= delta,
            Rounding::Optimistic => self.infinity_mass * (1.0 - 4.0 * UNIT) > delta,
        };
        if infinite {
            return f64::INFINITY;
        }
        if self.rounding == Rounding::Pessimistic && self.delta(0.0) <= delta {
            return 0.0;
        }
        // For eps >= 0: delta(eps) = inf + sum_{l_k > eps} p_k - e^eps sum_{l_k > eps} p_k e^{-l_k};
        // suffix sums over l_k > 0 make each evaluation O(1). The second is kept as
        // w_i = sum_{j >= i} p_j e^{-(l_j - l_i)} <= 1 (Horner from the top, no transcendental
        // per point, no overflow), so that e^eps sum = e^{eps - l_i} w_i. Both carry at most
        // 3(n - i)u relative error.
        let first = (1 - self.offset).max(0) as usize;
        let n = self.pmf.len();
        let r = (-self.interval).exp();
        let (mut sp, mut w) = (vec![0.0; n + 1], vec![0.0; n + 1]);
        for i in (first..n).rev() {
            sp[i] = sp[i + 1] + self.pmf[i];
            w[i] = self.pmf[i] + r * w[i + 1];
        }
        let max_loss = self.max_abs_loss();
        let delta_at = |eps: f64| {
            let i = (((eps / self.interval).floor() as i64 + 1 - self.offset).max(first as i64)
                as usize)
                .min(n);
            let l_i = (self.offset + i as i64) as f64 * self.interval;
            let tail = if i < n { (eps - l_i).exp() * w[i] } else { 0.0 };
            let spread = 2.0 * (eps.abs() + max_loss);
            let error = (3.0 * (n - i) as f64 + 6.0 + spread) * UNIT * (sp[i] + tail);
            self.bounded(sp[i] - tail, error, sp[i], i)
        };
        let top = (self.offset + n as i64) as f64 * self.interval;
        let (mut lo, mut hi) = (0.0, top);
        if self.rounding == Rounding::Optimistic {
            // The bounded δ need not be monotone (the envelope grows away from the tilt's
            // focus), and any ε with bounded δ(ε) > δ is a lower bound on the true ε(δ): start
            // from the largest such point of a scan down from the top.
            const SCAN: usize = 512;
            let Some(j) = (0..SCAN)
                .rev()
                .find(|j| delta_at(top * *j as f64 / SCAN as f64) > delta)
            else {
                return 0.0;
            };
            (lo, hi) = (
                top * j as f64 / SCAN as f64,
                top * (j + 1) as f64 / SCAN as f64,
            );
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if delta_at(mid) > delta {
                lo = mid
            } else {
                hi = mid
            }
            if hi - lo < 1e-12 * hi.max(1e-300) {
                break;
            }
        }
        match self.rounding {
            Rounding::Pessimistic => hi,
            Rounding::Optimistic => lo,
        }
    }
}
