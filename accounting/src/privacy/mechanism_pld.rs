//! Privacy-loss distributions of the non-Gaussian mechanisms of the event algebra
//! ([`super::event`]): randomized response and $(\epsilon,\delta)$ (discrete, placed exactly),
//! and the Laplace mechanism, alone and under Poisson sampling.
//!
//! Each constructor returns a [`PldPair`]: a **pessimistic** PLD (every loss rounded *up* to the
//! grid $\ell_j=j\Delta_L$) and an **optimistic** one (rounded *down*). For independent losses
//! $L_i$ with roundings $\lfloor L_i\rfloor\le L_i\le\lceil L_i\rceil$ and the non-decreasing
//! $g(\ell)=(1-e^{\epsilon-\ell})_+$, $\mathbb E\thinspace g(\sum_i\lfloor L_i\rfloor)\le\delta(\epsilon)
//! \le\mathbb E\thinspace g(\sum_i\lceil L_i\rceil)$ (plus $P(L=\infty)$, which is kept exactly), so the
//! two compose into a bracket of the composed privacy profile. The error is first order in
//! $\Delta_L$ per composed step, and zero for a discrete loss that sits on the grid.
//!
//! **Discrete pairs.** For outcomes $o$ with masses $(P(o),Q(o))$ the loss $\ln(P(o)/Q(o))$ takes
//! finitely many values; each atom is placed at the nearest grid loss above (pessimistic) and
//! below (optimistic), exactly when it is a grid loss; $Q(o)=0<P(o)$ is mass at $+\infty$.
//! - Randomized response over $k$ buckets with noise $p$ (dp_accounting's
//!   `RandomizedResponseDpEvent`), replace-one (input bucket $a$ against $b$):
//!   $P(a)=1-p+p/k$, $P(b)=p/k$, the other $k-2$ buckets $p/k$ each, and $Q$ the same with $a$ and
//!   $b$ swapped: losses $\pm\ln\frac{1-p+p/k}{p/k}$ and $0$.
//! - $(\epsilon,\delta)$: the pair of Kairouz, Oh & Viswanath (2015), which dominates every
//!   $(\epsilon,\delta)$-DP mechanism: $P=(\delta,\ (1-\delta)\frac{e^\epsilon}{1+e^\epsilon},
//!   \ (1-\delta)\frac1{1+e^\epsilon},\ 0)$, $Q$ its mirror image.
//! - Poisson sampling with rate $q$ under add/remove (Zhu, Dong & Wang 2022, dominating pairs of
//!   subsampled mechanisms): remove $(qP+(1-q)Q,\ Q)$, add $(Q,\ qP+(1-q)Q)$.
//!
//! **Laplace.** Scale $b$ (the noise multiplier), sensitivity $s$ (1 under add/remove, 2 under
//! replace-one), Poisson rate $q$ ($q=1$: no sampling). Remove direction:
//! $P=(1-q)\mathrm{Lap}(0,b)+q\thinspace\mathrm{Lap}(s,b)$ against $Q=\mathrm{Lap}(0,b)$, with loss
//! $$L(x)=\ln\big(1-q+q\thinspace e^{(|x|-|x-s|)/b}\big),$$
//! non-decreasing in $x$, constant below $0$ and above $s$ (two atoms,
//! $L_{\min}=\ln(1-q+qe^{-s/b})$ and $L_{\max}=\ln(1-q+qe^{s/b})$) and strictly increasing in
//! between, where $L(x)=\ell$ at $x^\ast(\ell)=\tfrac12\big(s+b\ln\frac{e^\ell-(1-q)}q\big)$. The add
//! direction is the pair reversed (its loss $-L(x)$, $x\sim Q$). For $q=1$ the two directions
//! are mirror images, and the profile is
//! $\delta(\epsilon)=1-e^{(\epsilon-s/b)/2}$ for $0\le\epsilon<s/b$. Cell masses come from the
//! Laplace CDF on whichever side of the cell is smaller (no $1-x$ cancellation).

use super::pld::{Pld, Rounding};
use crate::error::ParamError;
use crate::numerics::{log_add_exp, log_sub_exp};

/// The most grid points one discretised step may have.
pub const MAX_POINTS: usize = 1 << 24;

/// A pessimistic (upper) and an optimistic (lower) PLD of the same mechanism.
#[derive(Debug, Clone, PartialEq)]
pub struct PldPair {
    /// Rounded up: its privacy profile is an upper bound on the mechanism's.
    pub pessimistic: Pld,
    /// Rounded down: its privacy profile is a lower bound on the mechanism's.
    pub optimistic: Pld,
}

impl PldPair {
    /// The mechanism that releases nothing: all mass at loss 0.
    pub fn identity(interval: f64) -> Self {
        let p = |rounding| Pld::exact(interval, 0, vec![1.0], 0.0, rounding);
        Self {
            pessimistic: p(Rounding::Pessimistic),
            optimistic: p(Rounding::Optimistic),
        }
    }
}

fn grid(j: i64, interval: f64) -> f64 {
    j as f64 * interval
}

/// The smallest $j$ with $j\Delta\ge\ell$ and the largest with $j\Delta\le\ell$, exact with
/// respect to the grid losses as [`Pld::delta`] computes them; an error when $|\ell|/\Delta$ is
/// beyond any grid dpclaims can hold.
fn grid_up_down(l: f64, interval: f64) -> Result<(i64, i64), ParamError> {
    if !((l / interval).abs() < 1e15) {
        return Err(too_many(interval, "a privacy loss this large"));
    }
    let mut up = (l / interval).ceil() as i64;
    while grid(up, interval) < l {
        up += 1;
    }
    while grid(up - 1, interval) >= l {
        up -= 1;
    }
    let mut down = (l / interval).floor() as i64;
    while grid(down, interval) > l {
        down -= 1;
    }
    while grid(down + 1, interval) <= l {
        down += 1;
    }
    Ok((up, down))
}

fn too_many(interval: f64, what: &str) -> ParamError {
    ParamError::too_fine(
        interval,
        format_args!("{what} needs more than 2^24 grid points"),
    )
}

/// The atoms `(loss, P-mass)` and the mass at $+\infty$ of a discrete pair given as outcome
/// masses `(P(o), Q(o))`.
pub fn discrete_losses(outcomes: &[(f64, f64)]) -> (Vec<(f64, f64)>, f64) {
    let mut atoms = Vec::new();
    let mut infinity = 0.0;
    for &(p, q) in outcomes {
        if p <= 0.0 {
            continue;
        }
        if q <= 0.0 {
            infinity += p;
            continue;
        }
        let r = p / q;
        let loss = if r.is_finite() && r > 0.0 {
            r.ln()
        } else {
            p.ln() - q.ln()
        };
        atoms.push((loss, p));
    }
    (atoms, infinity)
}

/// Atoms placed on the grid: up (pessimistic) and down (optimistic); exact on grid losses.
pub fn place_atoms(
    atoms: &[(f64, f64)],
    infinity: f64,
    interval: f64,
) -> Result<PldPair, ParamError> {
    let idx: Vec<(i64, i64, f64)> = atoms
        .iter()
        .map(|&(l, m)| grid_up_down(l, interval).map(|(up, down)| (up, down, m)))
        .collect::<Result<_, _>>()?;
    let build = |pick: fn(&(i64, i64, f64)) -> i64, rounding| -> Result<Pld, ParamError> {
        let lo = idx.iter().map(pick).min().unwrap_or(0);
        let hi = idx.iter().map(pick).max().unwrap_or(0);
        let n = usize::try_from(hi - lo + 1).unwrap_or(usize::MAX);
        if n > MAX_POINTS {
            return Err(too_many(interval, "the range of the privacy loss"));
        }
        let mut pmf = vec![0.0; n];
        for a in &idx {
            pmf[(pick(a) - lo) as usize] += a.2;
        }
        Ok(Pld::exact(interval, lo, pmf, infinity, rounding))
    };
    Ok(PldPair {
        pessimistic: build(|a| a.0, Rounding::Pessimistic)?,
        optimistic: build(|a| a.1, Rounding::Optimistic)?,
    })
}

/// The PLD of a discrete pair (outcome masses `(P(o), Q(o))`).
pub fn discrete_pair(outcomes: &[(f64, f64)], interval: f64) -> Result<PldPair, ParamError> {
    let (atoms, infinity) = discrete_losses(outcomes);
    place_atoms(&atoms, infinity, interval)
}

/// Randomized response over `k` buckets with noise parameter `p`, replace-one: the atoms
/// `(loss, mass)` and the mass at $+\infty$ (the pair is symmetric: one direction). The losses
/// $\pm\ln\frac{1-p+p/k}{p/k}$ are computed once, so that they are exact negatives.
pub fn randomized_response_atoms(p: f64, k: u64) -> (Vec<(f64, f64)>, f64) {
    if k <= 1 {
        return (vec![(0.0, 1.0)], 0.0);
    }
    let kf = k as f64;
    let keep = 1.0 - p + p / kf;
    let other = p / kf;
    if other == 0.0 {
        return (vec![], 1.0);
    }
    let loss = (keep / other).ln();
    let mut atoms = vec![(loss, keep), (-loss, other)];
    if k > 2 {
        atoms.push((0.0, (kf - 2.0) * other));
    }
    (atoms, 0.0)
}

/// The outcome masses $(P(o),Q(o))$ of the pair of Kairouz, Oh & Viswanath (2015), which
/// dominates every $(\epsilon,\delta)$-DP mechanism.
pub fn epsilon_delta_outcomes(epsilon: f64, delta: f64) -> Vec<(f64, f64)> {
    let hi = (1.0 - delta) / (1.0 + (-epsilon).exp()); // (1-δ) e^ε / (1 + e^ε)
    let lo = (1.0 - delta) / (1.0 + epsilon.exp());
    vec![(delta, 0.0), (hi, lo), (lo, hi), (0.0, delta)]
}

/// The same pair as atoms, with the losses exactly $\pm\epsilon$ (mass $\delta$ at $+\infty$).
pub fn epsilon_delta_atoms(epsilon: f64, delta: f64) -> (Vec<(f64, f64)>, f64) {
    let o = epsilon_delta_outcomes(epsilon, delta);
    (vec![(epsilon, o[1].0), (-epsilon, o[2].0)], delta)
}

/// The discrete Laplace mechanism (dp_accounting's `DiscreteLaplaceDpEvent`) with noise
/// parameter $a>0$ and an integer shift $s\ge0$ (the sensitivity $\Delta$ under add/remove,
/// $2\Delta$ under replace-one): the atoms `(loss, P-mass)` of its privacy loss, exact.
///
/// # Formula
/// Write $u=e^{-a}$ and $\mathrm{DLap}(a)$ for the law on $\mathbb Z$ with mass
/// $\tanh(a/2)\thinspace u^{|z|}$. For $P=s+\mathrm{DLap}(a)$ against $Q=\mathrm{DLap}(a)$ the loss at
/// $y$ is $a(|y|-|y-s|)=a(s-2D)$ with $D=\min(\max(s-y,0),s)\in\lbrace0,\dots,s\rbrace$, and under $P$
/// ($y=s+z$, $D=\min(\max(-z,0),s)$)
/// $$P(D=0)=\frac1{1+u},\qquad P(D=d)=\tanh(a/2)\thinspace u^d\ (0<d<s),\qquad
/// P(D=s)=\frac{u^s}{1+u},$$
/// from $P(z\ge0)=P(z\le-s)u^{-s}=\frac1{1+u}$. $Q(D=d)=P(D=s-d)$ (the reflection
/// $y\mapsto s-y$ swaps $P$ and $Q$), so the pair is symmetric: one PLD for both directions.
///
/// # The worst case (proved here)
/// The released vector is $\sum_iv_i+z$ with integer $v_i$, $\Vert v_i\Vert_1\le\Delta$, and $z$
/// independent $\mathrm{DLap}(a)$ coordinates; neighbours shift it by an integer vector
/// $t$ with $\Vert t\Vert_1\le s$. Write $T(t)$ for the pair $(t+z,z)$; $T(t)$ is the product
/// of the one-dimensional pairs $T(|t_j|)$ (reflect the coordinates with $t_j<0$).
///
/// *Lemma.* For integers $s_1,s_2\ge0$, $\delta_{T(s_1)\otimes T(s_2)}(\epsilon)\le
/// \delta_{T(s_1+s_2)}(\epsilon)$ for every $\epsilon\in\mathbb R$. *Proof.* Let $s=s_1+s_2$,
/// $W=\max(-z,0)$, so $P(W\ge m)=u^m/(1+u)$ for $m\ge1$. Under $P$ the loss of $T(s)$ is
/// $a(s-2D)$ with $D=\min(W,s)$, that of the product $a(s-2(D_1+D_2))$ with
/// $D_k=\min(W_k,s_k)$, $W_1,W_2$ independent copies of $W$. For $\epsilon\ge0$,
/// $\delta(\epsilon)=\mathbb E_P\thinspace h(D)$ with $h(d)=\max\lbrace0,1-e^{\epsilon-as}e^{2ad}\rbrace$,
/// non-increasing, and $h(d)=0$ for $d\ge M$, $M$ the least integer $\ge s/2-\epsilon/(2a)$, so
/// $M\le\lceil s/2\rceil\le\max(s_1,s_2)$. Summing by parts,
/// $\mathbb E\thinspace h(X)=\sum_{m=0}^{M-1}(h(m)-h(m+1))\thinspace P(X\le m)$ with non-negative
/// weights, and for $1\le m\le\max(s_1,s_2)$,
/// $P(D_1+D_2\ge m)\ge P(D_k\ge m)=u^m/(1+u)=P(D\ge m)$ for the $k$ with $s_k=\max(s_1,s_2)$;
/// so $\mathbb E\thinspace h(D_1+D_2)\le\mathbb E\thinspace h(D)$. For $\epsilon<0$ both pairs are
/// symmetric, and for a symmetric pair without singular part
/// $\delta(\epsilon)=1-e^\epsilon+e^\epsilon\delta(-\epsilon)$, which carries the order over. $\square$
///
/// By induction with the lemma (composition preserves the order of privacy profiles, Dong, Roth
/// & Su 2022, and $\delta_{T(s_1)}\le\delta_{T(s_1)\otimes T(s_2)}$ since the second coordinate
/// may be ignored), every $T(t)$ with $\Vert t\Vert_1\le s$ is dominated by $T(s)$, and
/// $T(s)$ itself is realised ($v=\Delta e_1$ against nothing, or against $-\Delta e_1$ under
/// replace-one). The profile of every direction is therefore exactly that of $T(s)$.
///
/// # Errors
/// A shift above $2^{24}$ (more atoms than one discretised step may hold).
pub fn discrete_laplace_atoms(a: f64, s: u64) -> Result<Vec<(f64, f64)>, ParamError> {
    crate::error::positive("noise_parameter", a)?;
    if s > MAX_POINTS as u64 {
        return Err(ParamError::new(
            "sensitivity",
            s,
            "at most 2^24 in units of the noise (the loss takes sensitivity + 1 values)",
        ));
    }
    if s == 0 {
        return Ok(vec![(0.0, 1.0)]);
    }
    // ln(1 + u) and ln tanh(a/2), each without cancellation.
    let ln_1pu = (-a).exp().ln_1p();
    let ln_tanh = (-(-a).exp_m1() / (1.0 + (-a).exp())).ln();
    let atoms = (0..=s)
        .map(|d| {
            let ln_mass = if d == 0 {
                -ln_1pu
            } else if d == s {
                -a * s as f64 - ln_1pu
            } else {
                ln_tanh - a * d as f64
            };
            // s - 2d is an exact integer in f64 (s <= 2^24): one rounding, and the losses of
            // d and s - d are exact negatives.
            (a * (s as f64 - 2.0 * d as f64), ln_mass.exp())
        })
        .collect();
    Ok(atoms)
}

/// Poisson sampling with rate `q` of a discrete pair under add/remove: the (remove, add) pairs
/// $(qP+(1-q)Q,\thinspace Q)$ and $(Q,\thinspace qP+(1-q)Q)$.
pub fn poisson_outcomes(outcomes: &[(f64, f64)], q: f64) -> [Vec<(f64, f64)>; 2] {
    let mix = |p: f64, r: f64| q * p + (1.0 - q) * r;
    [
        outcomes.iter().map(|&(p, r)| (mix(p, r), r)).collect(),
        outcomes.iter().map(|&(p, r)| (r, mix(p, r))).collect(),
    ]
}

/// Which way round a Laplace pair is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// $P$ with the record (the mixture), $Q$ without.
    Remove,
    /// The pair reversed.
    Add,
}

/// $\ln(1-q+qe^a)$.
fn ln_mix(q: f64, a: f64) -> f64 {
    log_add_exp((-q).ln_1p(), q.ln() + a)
}

/// Laplace CDF of $\mathrm{Lap}(m,b)$: $(P(X\le x), P(X>x))$, each computed directly.
fn laplace_cdf(m: f64, b: f64, x: f64) -> (f64, f64) {
    let z = (x - m) / b;
    if z < 0.0 {
        let t = 0.5 * z.exp();
        (t, 1.0 - t)
    } else {
        let t = 0.5 * (-z).exp();
        (1.0 - t, t)
    }
}

/// The Laplace mechanism with scale `b`, sensitivity `s`, Poisson rate `q` (1: no sampling), in
/// one direction (see the module documentation).
pub fn laplace(
    b: f64,
    s: f64,
    q: f64,
    direction: Direction,
    interval: f64,
) -> Result<PldPair, ParamError> {
    crate::error::positive("noise_multiplier", b)?;
    if !(q > 0.0 && q <= 1.0) {
        return Err(ParamError::new("q", q, "a sampling rate in (0, 1]"));
    }
    let a = s / b;
    let (lr_min, lr_max) = (ln_mix(q, -a), ln_mix(q, a)); // remove-direction extremes
    // Threshold of the remove loss: L(x) = t at x*(t), clamped to [0, s].
    let x_star = |t: f64| (0.5 * (s + b * (log_sub_exp(t, (-q).ln_1p()) - q.ln()))).clamp(0.0, s);
    // Mixture P = (1-q) Lap(0) + q Lap(s) and Q = Lap(0): (mass <= x, mass > x).
    let p_cdf = |x: f64| {
        let (l0, u0) = laplace_cdf(0.0, b, x);
        let (l1, u1) = laplace_cdf(s, b, x);
        ((1.0 - q) * l0 + q * l1, (1.0 - q) * u0 + q * u1)
    };
    // (P'(L' <= l), P'(L' > l)) for the direction's own pair (P', L').
    let law = |l: f64| -> (f64, f64) {
        match direction {
            Direction::Remove => {
                if l < lr_min {
                    (0.0, 1.0)
                } else if l >= lr_max {
                    (1.0, 0.0)
                } else {
                    p_cdf(x_star(l))
                }
            }
            Direction::Add => {
                // L' = -L(x), x ~ Lap(0): L' <= l iff L(x) >= -l iff x >= x*(-l).
                let t = -l;
                if t > lr_max {
                    (0.0, 1.0)
                } else if t <= lr_min {
                    (1.0, 0.0)
                } else {
                    let (below, above) = laplace_cdf(0.0, b, x_star(t));
                    (above, below)
                }
            }
        }
    };
    let (l_min, l_max) = match direction {
        Direction::Remove => (lr_min, lr_max),
        Direction::Add => (-lr_max, -lr_min),
    };
    discretise(&law, l_min, l_max, interval)
}

/// Rounds a loss law with finite support $[\ell_{\min},\ell_{\max}]$ (no mass at $+\infty$) to
/// the grid. `law(l)` is $(P(L\le\ell), P(L>\ell))$. The cells are $(\ell_{j-1},\ell_j]$ for
/// $j=J_0..J_1$ with $\ell_{J_0-1}\le\ell_{\min}<\ell_{J_0}$ and $\ell_{J_1}\ge\ell_{\max}$ (the
/// first and last cells open to the outside); cell $j$ goes to $\ell_j$ (pessimistic) or
/// $\ell_{j-1}$ (optimistic).
fn discretise(
    law: &dyn Fn(f64) -> (f64, f64),
    l_min: f64,
    l_max: f64,
    interval: f64,
) -> Result<PldPair, ParamError> {
    let (_, below_min) = grid_up_down(l_min, interval)?;
    let j0 = below_min + 1;
    let (above_max, _) = grid_up_down(l_max, interval)?;
    let j1 = above_max.max(j0);
    let n = usize::try_from(j1 - j0 + 1).unwrap_or(usize::MAX);
    if n > MAX_POINTS {
        return Err(too_many(interval, "the range of the privacy loss"));
    }
    // Boundaries l_{j0}, ..., l_{j1-1} (n - 1 of them).
    let bounds: Vec<(f64, f64)> = (j0..j1).map(|j| law(grid(j, interval))).collect();
    let mut pmf = vec![0.0; n];
    if n == 1 {
        pmf[0] = 1.0;
    } else {
        pmf[0] = bounds[0].0;
        pmf[n - 1] = bounds[n - 2].1;
        for i in 1..n - 1 {
            let (lo, hi) = (bounds[i - 1], bounds[i]);
            // Mass of (l_{j-1}, l_j]: the difference on the side where both are small.
            let m = if hi.0 < 0.5 { hi.0 - lo.0 } else { lo.1 - hi.1 };
            pmf[i] = m.max(0.0);
        }
    }
    let pld = |offset: i64, rounding| Pld::exact(interval, offset, pmf.clone(), 0.0, rounding);
    Ok(PldPair {
        pessimistic: pld(j0, Rounding::Pessimistic),
        optimistic: pld(j0 - 1, Rounding::Optimistic),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Laplace (q = 1, sensitivity 1, scale b): delta(eps) = 1 - e^{(eps - 1/b)/2}, bracketed by
    /// the two roundings, within first order of the interval.
    #[test]
    fn laplace_matches_its_closed_form_profile() {
        for b in [0.5, 1.0, 3.0] {
            for interval in [1e-3, 1e-4] {
                for direction in [Direction::Remove, Direction::Add] {
                    let pair = laplace(b, 1.0, 1.0, direction, interval).unwrap();
                    for eps in [0.0, 0.1, 0.3, 0.5 / b, 0.9 / b] {
                        let exact = 1.0 - ((eps - 1.0 / b) / 2.0).exp();
                        let (opt, pess) = (pair.optimistic.delta(eps), pair.pessimistic.delta(eps));
                        assert!(
                            opt <= exact + 1e-15 && exact <= pess + 1e-15,
                            "b {b} {direction:?} eps {eps}: [{opt}, {pess}] vs {exact}"
                        );
                        // Rounding moves each loss by at most one cell: e^{±interval}.
                        assert!(pess - opt <= 2.0 * interval, "[{opt}, {pess}]");
                    }
                    // Pure DP: delta(1/b) = 0 (up to the atom rounded up one cell).
                    assert!(pair.optimistic.delta(1.0 / b) <= 1e-15);
                }
            }
        }
    }

    /// Sensitivity s with scale b is the same mechanism as sensitivity 1 with scale b / s.
    #[test]
    fn laplace_sensitivity_scales_the_noise() {
        let a = laplace(2.0, 2.0, 1.0, Direction::Remove, 1e-4).unwrap();
        let b = laplace(1.0, 1.0, 1.0, Direction::Remove, 1e-4).unwrap();
        for eps in [0.0, 0.2, 0.7] {
            let (x, y) = (a.pessimistic.delta(eps), b.pessimistic.delta(eps));
            assert!((x - y).abs() <= 1e-12, "{x} vs {y}");
        }
    }

    /// Poisson-sampled Laplace, remove direction, against a direct quadrature of
    /// delta(eps) = E_Q[(p/q - e^eps)_+] on a fine grid of x.
    #[test]
    fn sampled_laplace_matches_quadrature() {
        let (b, q) = (0.8, 0.3);
        let dens = |m: f64, x: f64| (-(x - m).abs() / b).exp() / (2.0 * b);
        for (direction, eps) in [
            (Direction::Remove, 0.1f64),
            (Direction::Remove, 0.5),
            (Direction::Add, 0.1),
            (Direction::Add, 0.3),
        ] {
            // Midpoint rule on [-40, 41]; the integrand is piecewise smooth with kinks at 0, 1.
            let h = 1e-4;
            let mut exact = 0.0;
            let mut x = -40.0 + h / 2.0;
            while x < 41.0 {
                let mix = (1.0 - q) * dens(0.0, x) + q * dens(1.0, x);
                let base = dens(0.0, x);
                let (p, r) = match direction {
                    Direction::Remove => (mix, base),
                    Direction::Add => (base, mix),
                };
                exact += (p - eps.exp() * r).max(0.0) * h;
                x += h;
            }
            let pair = laplace(b, 1.0, q, direction, 1e-4).unwrap();
            let (opt, pess) = (pair.optimistic.delta(eps), pair.pessimistic.delta(eps));
            assert!(
                opt <= exact + 1e-7 && exact <= pess + 1e-7,
                "{direction:?} eps {eps}: [{opt}, {pess}] vs {exact}"
            );
            assert!(pess - opt < 1e-3, "[{opt}, {pess}]");
        }
    }

    /// Randomized response, k = 4, p = 0.5: P = (5/8, 1/8, 1/8, 1/8), Q = (1/8, 5/8, 1/8, 1/8),
    /// loss ln 5 with mass 5/8, -ln 5 with 1/8, 0 with 2/8. By hand:
    /// delta(0) = 5/8 (1 - 1/5) = 1/2; delta(ln 2) = 5/8 (1 - 2/5) = 3/8; delta(ln 5) = 0.
    /// Two-fold: the loss 2 ln 5 has mass 25/64, ln 5 has 2 * 5/8 * 2/8 = 20/64, so
    /// delta(ln 5) = 25/64 (1 - 1/5) = 20/64.
    #[test]
    fn randomized_response_by_hand() {
        let (atoms, inf) = randomized_response_atoms(0.5, 4);
        let pair = place_atoms(&atoms, inf, 1e-4).unwrap();
        let ln5 = 5f64.ln();
        for (eps, want) in [(0.0, 0.5), (2f64.ln(), 0.375), (ln5, 0.0)] {
            let (opt, pess) = (pair.optimistic.delta(eps), pair.pessimistic.delta(eps));
            assert!(
                opt <= want + 1e-15 && want <= pess + 1e-15,
                "{eps}: [{opt}, {pess}]"
            );
            assert!(pess - opt <= 2e-4, "{eps}: [{opt}, {pess}]");
        }
        let two = pair.pessimistic.convolve(&pair.pessimistic, 0.0).unwrap();
        let two_opt = pair.optimistic.convolve(&pair.optimistic, 0.0).unwrap();
        let want = 20.0 / 64.0;
        let (opt, pess) = (two_opt.delta(ln5), two.delta(ln5));
        assert!(
            opt <= want + 1e-12 && want <= pess + 1e-12,
            "[{opt}, {pess}]"
        );
        assert!(pess - opt <= 1e-3);
        // k = 1 releases nothing; p = 0 releases the bucket: infinite loss with mass 1.
        let (atoms, inf) = randomized_response_atoms(0.3, 1);
        let none = place_atoms(&atoms, inf, 1e-4).unwrap();
        assert_eq!(none.pessimistic.delta(0.0), 0.0);
        let (atoms, inf) = randomized_response_atoms(0.0, 2);
        let all = place_atoms(&atoms, inf, 1e-4).unwrap();
        assert_eq!(all.pessimistic.infinity_mass, 1.0);
        assert_eq!(all.pessimistic.epsilon(0.5), f64::INFINITY);
    }

    /// A discrete loss on the grid is placed exactly: both roundings agree.
    #[test]
    fn epsilon_delta_on_the_grid_is_exact() {
        let (atoms, inf) = epsilon_delta_atoms(0.5, 1e-6);
        let pair = place_atoms(&atoms, inf, 1e-4).unwrap();
        let (a, b) = (&pair.pessimistic, &pair.optimistic);
        assert!(
            (a.offset, &a.pmf, a.infinity_mass) == (b.offset, &b.pmf, b.infinity_mass),
            "the atoms at +-0.5 are grid losses"
        );
        // delta(eps') = delta + hi (1 - e^{eps' - eps}) below eps: eps(1.5e-6) in closed form.
        let hi = atoms[0].1;
        let want = 0.5 + (-0.5e-6 / hi).ln_1p();
        let got = pair.pessimistic.epsilon(1.5e-6);
        assert!((got - want).abs() <= 1e-11, "{got} vs {want}");
        // (the bound adds only its 4u rounding margin)
        assert!((pair.pessimistic.delta(0.5) - 1e-6).abs() <= 1e-20);
        // delta(0) = delta + (1 - delta) (e^eps - 1) / (1 + e^eps)
        let want = 1e-6 + (1.0 - 1e-6) * 0.5f64.exp_m1() / (1.0 + 0.5f64.exp());
        let got = pair.pessimistic.delta(0.0);
        assert!((got - want).abs() <= 1e-15, "{got} vs {want}");
    }

    /// Poisson sampling of (eps, delta) under add/remove: at eps' = ln(1 + q(e^eps - 1)) the
    /// remove pair has delta' = q delta (Balle, Barthe & Gaboardi 2018, Thm 8), and the add pair
    /// no more.
    #[test]
    fn sampled_epsilon_delta_amplifies() {
        let (eps, delta, q) = (1.0f64, 1e-5, 0.1);
        let amplified = (q * eps.exp_m1()).ln_1p();
        for (i, outcomes) in poisson_outcomes(&epsilon_delta_outcomes(eps, delta), q)
            .iter()
            .enumerate()
        {
            let pair = discrete_pair(outcomes, 1e-4).unwrap();
            let (opt, pess) = (
                pair.optimistic.delta(amplified),
                pair.pessimistic.delta(amplified),
            );
            assert!(opt <= q * delta * (1.0 + 1e-12), "direction {i}: {opt}");
            assert!(opt <= pess);
            if i == 0 {
                assert!(pess >= q * delta * (1.0 - 1e-12), "{pess}");
            }
        }
    }

    /// delta(eps) of the shift-`s` discrete Laplace pair by direct summation of
    /// (P(y) - e^eps Q(y))_+ over the integers y in [-m, s + m] (the tails beyond hold less than
    /// 2 u^m).
    fn dlap_delta_by_sum(a: f64, s: i64, eps: f64, m: i64) -> f64 {
        let c = (a / 2.0).tanh();
        (-m..=s + m)
            .map(|y| {
                let p = c * (-a * (y - s).abs() as f64).exp();
                let q = c * (-a * y.abs() as f64).exp();
                (p - eps.exp() * q).max(0.0)
            })
            .sum()
    }

    /// The atoms' profile is the directly summed one, and the two roundings bracket it.
    #[test]
    fn discrete_laplace_atoms_match_direct_summation() {
        for a in [0.2, 1.0, 3.0] {
            for s in [1u64, 2, 5] {
                let atoms = discrete_laplace_atoms(a, s).unwrap();
                let total: f64 = atoms.iter().map(|x| x.1).sum();
                assert!((total - 1.0).abs() <= 1e-14, "{a} {s}: mass {total}");
                let pair = place_atoms(&atoms, 0.0, 1e-4).unwrap();
                for eps in [-1.0, -0.1, 0.0, 0.05, 0.3, 1.0, 2.5] {
                    let want = dlap_delta_by_sum(a, s as i64, eps, 400);
                    let exact: f64 = atoms
                        .iter()
                        .map(|&(l, m)| m * -(eps - l).exp_m1().min(0.0))
                        .sum();
                    assert!(
                        (exact - want).abs() <= 1e-13,
                        "{a} {s} {eps}: {exact} vs {want}"
                    );
                    let (opt, pess) = (pair.optimistic.delta(eps), pair.pessimistic.delta(eps));
                    assert!(
                        opt <= want + 1e-14 && want <= pess + 1e-14,
                        "{a} {s} {eps}: [{opt}, {pess}] vs {want}"
                    );
                }
            }
        }
        assert_eq!(discrete_laplace_atoms(1.0, 0).unwrap(), vec![(0.0, 1.0)]);
        assert!(discrete_laplace_atoms(0.0, 1).is_err());
        assert!(discrete_laplace_atoms(1.0, 1 << 25).is_err());
    }

    /// The worst case of the rustdoc's lemma, checked by direct double sums: a shift spread over
    /// two coordinates, (s1, s2), never has a larger delta(eps) than the shift s1 + s2 on one.
    #[test]
    fn discrete_laplace_one_coordinate_is_the_worst_case() {
        for a in [0.3f64, 1.0, 2.0] {
            let c = (a / 2.0).tanh();
            let dens = |y: i64| c * (-a * y.abs() as f64).exp();
            for (s1, s2) in [(1i64, 1i64), (2, 1), (1, 3), (2, 2)] {
                let m = 60;
                for eps in [-1.5f64, -0.5, 0.0, 0.2, 0.7, 1.5, 3.0] {
                    let mut spread = 0.0;
                    for y1 in -m..=s1 + m {
                        for y2 in -m..=s2 + m {
                            let p = dens(y1 - s1) * dens(y2 - s2);
                            let q = dens(y1) * dens(y2);
                            spread += (p - eps.exp() * q).max(0.0);
                        }
                    }
                    let one = dlap_delta_by_sum(a, s1 + s2, eps, m);
                    assert!(
                        spread <= one + 1e-12,
                        "a {a} ({s1}, {s2}) eps {eps}: {spread} > {one}"
                    );
                }
            }
        }
    }

    #[test]
    fn too_fine_a_grid_is_refused() {
        let e = laplace(1e-3, 1.0, 1.0, Direction::Remove, 1e-5).unwrap_err();
        assert!(e.name == "interval" && e.is_too_fine(), "{e}");
        // Losses far beyond any grid: an error, not an overflow.
        let e = laplace(1e-300, 1.0, 1.0, Direction::Remove, 1e-4).unwrap_err();
        assert!(e.name == "interval" && e.is_too_fine(), "{e}");
        let (atoms, inf) = epsilon_delta_atoms(1e300, 0.0);
        let e = place_atoms(&atoms, inf, 1e-4).unwrap_err();
        assert!(e.name == "interval" && e.is_too_fine(), "{e}");
    }
}
