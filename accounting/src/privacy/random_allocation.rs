//! Random allocation of the Gaussian mechanism (each record in $k$ of the $t$ steps of an
//! epoch, chosen uniformly; $k=1$ is "balls-in-bins"): a certified PLD bracket per epoch, under
//! add/remove, that composes over epochs and with every other event through [`super::pld`].
//!
//! # The dominating pair (what is relied on, and from where)
//! For $k=1$ and noise multiplier $\sigma$ (sensitivity $1$ in units of the clipping norm), the
//! pair
//! $$P=\frac1t\sum_{i=1}^t\mathcal N(e_i,\sigma^2I_t),\qquad Q=\mathcal N(0,\sigma^2I_t)$$
//! tightly dominates one epoch of the adaptive Gaussian steps with balls-in-bins batches:
//! $(P,Q)$ for removal of a record and $(Q,P)$ for its addition (Chua, Ghazi, Harrison, Leeman,
//! Kamath, Kumar, Manurangsi, Sinha & Zhang, *Balls-and-Bins Sampling for DP-SGD*, arXiv
//! 2412.16802, the dominating pair of $\mathcal{ABLQ}_{\mathcal B}$; Feldman & Shenfeld, arXiv
//! 2502.08202 and arXiv 2602.17284, whose PLD of random allocation applied to the Gaussian
//! mechanism is the PLD of this pair, exact for $k=1$). The reduction of adaptive steps to this
//! pair is taken from those papers, not re-derived here. The pair is *realised* (a record whose
//! clipped gradient is $C$ times a fixed unit vector while every other record's is $0$: the
//! outputs' projections on that vector are the $t$ coordinates), so a lower end computed from it
//! is a certified lower reference.
//!
//! # The loss as a sum of lognormals
//! With $y\sim Q$, $\frac{dP}{dQ}(y)=\frac1t\sum_ie^{(y_i-1/2)/\sigma^2}$. Write
//! $W_i=\frac1te^{(y_i-1/2)/\sigma^2}=\frac1te^{Z_i/\sigma-1/(2\sigma^2)}$ ($Z_i$ standard normal)
//! and $S=\sum_iW_i$. Then
//! - *remove* ($P$ against $Q$, $y\sim P$): $L=\ln S$, where under $P$ (by symmetry, the shift in
//!   coordinate 1) $W_1=\frac1te^{Z_1/\sigma+1/(2\sigma^2)}$ and $W_2,\dots,W_t$ are as above;
//! - *add* ($Q$ against $P$, $y\sim Q$): $L=-\ln S$ with all $t$ terms unshifted.
//!
//! In both, the loss is a non-decreasing function of the lattice variable $U=\sum_iU_i$ with
//! $U_i=W_i$ (remove) or $U_i=-W_i$ (add), a sum of independent terms.
//!
//! # The bracket (a coupling, first order)
//! Each $U_i$ is rounded to the lattice $jh$: up (pessimistic) or down (optimistic), so that
//! $\bar U=\sum_i\bar U_i\ge U$ (resp. $\le U$) almost surely; its law is an FFT power of one term's
//! lattice law ([`Pld::compose_with`], Chernoff window) convolved with the shifted term's
//! ([`Pld::convolve`]). The loss of each lattice value is then rounded up (pessimistic) or
//! down (optimistic) to the loss grid $\ell_k=k\Delta_L$. As $g(\ell)=\max(0,1-e^{\epsilon-\ell})$ is
//! non-decreasing, a loss $L'\ge L$ almost surely gives $\mathbb E\thinspace g(L')\ge\mathbb E\thinspace g(L)$, and
//! sums of independent such losses (epochs, other events of the same direction) keep the
//! order, so the pessimistic PLD composes into an upper bound on every hockey-stick
//! divergence and the optimistic one into a lower bound (the coupling argument of
//! [`super::mechanism_pld`]). Terms beyond the truncation point $w_{\max}$ of one term (chosen
//! with the tail mass) go to loss $+\infty$ (pessimistic remove), are clamped to the top lattice
//! point (a smaller value: optimistic remove, pessimistic add) or dropped (loss $-\infty$:
//! optimistic add). Mass outside the composition's window goes to $+\infty$ (pessimistic) or is
//! subtracted (optimistic), as in [`Pld::compose_with`]. A lattice value $\le0$ under remove
//! has loss $-\infty$ (dropped); a value $\ge0$ under add has loss $+\infty$.
//!
//! Error per epoch: at most $th$ in $S$ (each of the $t$ terms moves by less than $h$), i.e. a
//! loss error of at most $th/S$, plus $\Delta_L$ from the loss grid; both are first order and
//! add up over epochs, so the default spacing is $h=4\Delta_L/t$.
//!
//! Floating point: each lattice cell's mass $\Phi(z_b)-\Phi(z_a)$ is computed from the smaller
//! side of $\Phi$ with an error bound (`erfc` to $8u$ plus $2z^2u$ for the rounding of its
//! argument); the sum of the bounds is the input envelope of the composition, which
//! [`Pld::compose_with`] propagates with its own FFT error. The composed lattice law's envelope
//! (relative $\rho$, absolute $a_s$) is moved to $+\infty$ (pessimistic: $\rho\sum_s\hat p_s+\sum_sa_s$,
//! with $\sum_sa_s\le\sqrt n\lVert a\rVert_2$) or to the subtracted alias mass (optimistic): a
//! measure that dominates the true one, and $g\le1$ at $+\infty$.
//!
//! # What is not covered
//! $k>1$ (the paper splits $t$ into $k$ blocks for the upper end; not implemented) and
//! replace-one (no worst pair proved here): both are refused with an error naming the field.

use super::mechanism_pld::PldPair;
use super::pld::{Focus, Pld, PldBracket, PldOptions, Rounding};
use crate::error::{ParamError, at_least, positive};
use crate::numerics::{log_norm_cdf, norm_cdf};
use rustfft::FftPlanner;

/// Unit round-off of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// The default lattice spacing of the sum is `SPACING / t` times the loss grid's.
pub const SPACING: f64 = 4.0;

/// One epoch of random allocation ($k=1$) of the Gaussian mechanism under add/remove.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomAllocation {
    /// Noise multiplier $\sigma>0$.
    pub sigma: f64,
    /// Steps per epoch $t\ge1$.
    pub num_steps: u64,
}

impl RandomAllocation {
    /// A validated epoch: $\sigma>0$, $t\ge1$, $k=1$ (`num_selected`); an error names the field.
    pub fn new(sigma: f64, num_selected: u64, num_steps: u64) -> Result<Self, ParamError> {
        positive("noise_multiplier", sigma)?;
        at_least("num_steps", num_steps, 1)?;
        if num_selected != 1 {
            return Err(ParamError::new(
                "num_selected",
                num_selected,
                "1 (random allocation of k > 1 of t steps is not covered yet)",
            ));
        }
        if num_steps > 1 << 24 {
            return Err(ParamError::new("num_steps", num_steps, "at most 2^24"));
        }
        Ok(Self { sigma, num_steps })
    }

    /// The PLDs of one epoch, `[remove, add]`, with the sum's lattice spacing
    /// $h=$ [`SPACING`]$\cdot\Delta_L/t$.
    pub fn epoch(&self, opts: &PldOptions) -> Result<[PldPair; 2], ParamError> {
        self.epoch_with(opts, SPACING * opts.interval / self.num_steps as f64)
    }

    /// [`RandomAllocation::epoch`] with the lattice spacing `h` of the sum given. The tail
    /// mass is `t * opts.tail_mass` per epoch and side: a quarter each to the shifted term's
    /// truncation, the other terms' truncations (together) and each side of the window.
    pub fn epoch_with(&self, opts: &PldOptions, h: f64) -> Result<[PldPair; 2], ParamError> {
        opts.check()?;
        positive("sum_spacing", h)?;
        let t = self.num_steps;
        let budget = opts.tail_mass * t as f64;
        let c = 0.5 / (self.sigma * self.sigma);
        let shifted = Cells::new(self.sigma, c, t, h, 0.25 * budget)?;
        let plain = Cells::new(self.sigma, -c, t, h, 0.25 * budget / t as f64)?;
        let lattice_opts = PldOptions {
            tail_mass: 0.25 * budget,
            ..*opts
        };
        let mut planner = FftPlanner::new();
        let mut one = |remove: bool, rounding: Rounding| -> Result<Pld, ParamError> {
            let lattice = Lattice { remove, rounding };
            let terms = plain.pld(lattice, h);
            // Remove: t - 1 plain terms and the shifted one; add: t plain terms.
            let count = if remove { t - 1 } else { t };
            let many = match count {
                0 => None,
                1 => Some(terms),
                _ => Some(terms.compose_with(count, &lattice_opts, 0.0, &mut planner)?),
            };
            let sum = match (many, remove) {
                (Some(m), true) => m.convolve(&shifted.pld(lattice, h), 0.0)?,
                (None, true) => shifted.pld(lattice, h),
                (Some(m), false) => m,
                (None, false) => unreachable!("t >= 1"),
            };
            to_loss(&sum, lattice, opts.interval)
        };
        let mut pair = |remove: bool| -> Result<PldPair, ParamError> {
            Ok(PldPair {
                pessimistic: one(remove, Rounding::Pessimistic)?,
                optimistic: one(remove, Rounding::Optimistic)?,
            })
        };
        let remove = pair(true)?;
        let add = pair(false)?;
        Ok([remove, add])
    }
}

/// $\epsilon(\delta)$ of `epochs` epochs: [optimistic, pessimistic], the worse direction.
///
/// Each direction's pair is composed over the epochs on its own, as
/// [`Directions`](super::event_pld::Directions) does for an event; this module does not import
/// [`super::event_pld`], whose walker calls it (the import graph stays one-way).
pub fn epsilon(
    ra: &RandomAllocation,
    epochs: u64,
    delta: f64,
    opts: &PldOptions,
) -> Result<PldBracket, ParamError> {
    super::check_delta(delta)?;
    let dirs = composed(ra, epochs, &opts.focused(Focus::Delta(delta)))?;
    PldBracket::checked(
        PldBracket::worst(dirs.iter().map(|p| p.optimistic.epsilon(delta))),
        PldBracket::worst(dirs.iter().map(|p| p.pessimistic.epsilon(delta))),
    )
}

/// The PLDs of `epochs` epochs, `[remove, add]`, each direction composed on its own (`opts`
/// as given, sized for the run's `epochs`·$t$ steps): the worse direction's pessimistic
/// $\delta(\epsilon)$ bounds the run's from above, its optimistic one from below.
pub fn composed(
    ra: &RandomAllocation,
    epochs: u64,
    opts: &PldOptions,
) -> Result<[PldPair; 2], ParamError> {
    at_least("epochs", epochs, 1)?;
    let opts = opts.for_steps(epochs as f64 * ra.num_steps as f64);
    let mut dirs = ra.epoch(&opts)?;
    if epochs > 1 {
        for p in &mut dirs {
            *p = PldPair {
                pessimistic: p.pessimistic.compose(epochs, &opts)?,
                optimistic: p.optimistic.compose(epochs, &opts)?,
            };
        }
    }
    Ok(dirs)
}

/// Which lattice variable and rounding: $U_i=W_i$ (remove) or $-W_i$ (add), up or down.
#[derive(Debug, Clone, Copy)]
struct Lattice {
    remove: bool,
    rounding: Rounding,
}

/// A bound on the relative error of [`norm_cdf`] at `z` (`erfc` to $8u$, and the rounding of
/// its argument $z/\sqrt2$, relative $2u$, moves $\ln\operatorname{erfc}$ by at most $2z^2u$
/// more for $|z|\ge1$).
fn cdf_error(z: f64) -> f64 {
    (10.0 + 2.0 * z * z) * U
}

/// The cells $((j-1)h,jh]$, $j=1..n$, of one term $W=\frac1te^{Z/\sigma+c}$: their masses, the
/// mass above $nh$, and a bound on the sum of the masses' absolute errors.
struct Cells {
    masses: Vec<f64>,
    above: f64,
    error: f64,
}

impl Cells {
    fn new(sigma: f64, c: f64, t: u64, h: f64, tail: f64) -> Result<Self, ParamError> {
        let tf = t as f64;
        // Smallest z with Phi(-z) <= tail (bisection on ln Phi), then n with nh >= w(z).
        let ln_tail = tail.ln();
        let (mut lo, mut hi) = (0.0f64, 40.0f64);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if log_norm_cdf(-mid) <= ln_tail {
                hi = mid
            } else {
                lo = mid
            }
        }
        let w_max = (hi / sigma + c).exp() / tf;
        let n_f = (w_max / h).ceil();
        if !(n_f < (1u64 << 27) as f64) {
            return Err(ParamError::too_fine(
                h,
                format_args!(
                    "one term of the random allocation sum needs {n_f} lattice points, more than 2^27"
                ),
            ));
        }
        let n = (n_f as usize).max(1);
        // z of the lattice value w: sigma (ln(t w) - c); -inf at w = 0.
        let z = |j: usize| {
            if j == 0 {
                f64::NEG_INFINITY
            } else {
                sigma * ((tf * j as f64 * h).ln() - c)
            }
        };
        // Phi(z) and Phi(-z), each with an error bound, on the side where it is accurate.
        let mut masses = Vec::with_capacity(n);
        let mut error = 0.0;
        let mut za = z(0);
        for j in 1..=n {
            if j % (1 << 16) == 0 {
                crate::cancel::check()?;
            }
            let zb = z(j);
            let (m, e) = cell(za, zb);
            masses.push(m);
            error += e;
            za = zb;
        }
        let above = norm_cdf(-za);
        error += above * cdf_error(za) + masses.len() as f64 * 2.0 * f64::MIN_POSITIVE;
        Ok(Self {
            masses,
            above,
            error: error * (1.0 + 1e-6),
        })
    }

    /// The lattice law of $U_i$ (see the module documentation), carrying the mass error as its
    /// envelope.
    fn pld(&self, lattice: Lattice, h: f64) -> Pld {
        let n = self.masses.len();
        let (offset, mut pmf, infinity) = match (lattice.remove, lattice.rounding) {
            // W up: cell j at j; above at +inf.
            (true, Rounding::Pessimistic) => (1i64, self.masses.clone(), self.above),
            // W down: cell j at j - 1; above clamped to n.
            (true, Rounding::Optimistic) => {
                let mut p = self.masses.clone();
                p.push(self.above);
                (0, p, 0.0)
            }
            // U = -W up (W down): cell j at -(j - 1); above clamped to -n (index 0).
            (false, Rounding::Pessimistic) => {
                let mut p: Vec<f64> = self.masses.iter().rev().copied().collect();
                p.insert(0, 0.0);
                p[0] += self.above;
                (-(n as i64), p, 0.0)
            }
            // U = -W down (W up): cell j at -j; above dropped.
            (false, Rounding::Optimistic) => {
                let p: Vec<f64> = self.masses.iter().rev().copied().collect();
                (-(n as i64), p, 0.0)
            }
        };
        // (An empty edge would only widen the window.)
        if pmf.is_empty() {
            pmf.push(0.0);
        }
        let mut pld = Pld::exact(h, offset, pmf, infinity, lattice.rounding);
        if self.error > 0.0 {
            pld.roundoff = super::pld::RoundOff {
                relative: 0.0,
                ln_scale: self.error.ln(),
                tilt: 0.0,
            };
        }
        pld
    }
}

/// $\Phi(z_b)-\Phi(z_a)$ for $z_a\le z_b$ and a bound on its absolute error.
///
/// A narrow cell ($w=z_b-z_a\le0.02$) by the 3-point Gauss–Legendre rule, whose error is at
/// most $\frac{w^7}{2016000}\max|\varphi^{(6)}|$ with $\varphi^{(6)}=\mathrm{He}_6\varphi$,
/// $|\mathrm{He}_6(z)|\le z^6+15z^4+45z^2+15$, plus the rounding of the three values of
/// $\varphi$ (each $e^{-z^2/2}$ to $(4+z^2)u$ relative) and of the sum. A wide cell from the small
/// side(s) of $\Phi$ (a difference of two values of $\Phi$, each to [`cdf_error`]): that loses
/// digits only where the cell is narrow, which the first rule covers. (Differences of
/// $\Phi$ for every cell cost about $10^{-16}$ per cell whatever its mass, which the $t$-fold
/// composition multiplied into $5\cdot10^{-7}$ of $\delta$ per epoch at $t=100$.)
fn cell(za: f64, zb: f64) -> (f64, f64) {
    let w = zb - za;
    if w.is_finite() && w <= 0.02 {
        const X: f64 = 0.774_596_669_241_483_4; // sqrt(3/5)
        let (mid, half) = (0.5 * (za + zb), 0.5 * w);
        let phi = |z: f64| (-0.5 * z * z).exp() * 0.398_942_280_401_432_7;
        let (a, b, c) = (phi(mid - X * half), phi(mid), phi(mid + X * half));
        let m = half * (5.0 * a + 8.0 * b + 5.0 * c) / 9.0;
        let zmax = za.abs().max(zb.abs());
        let z_near = if za <= 0.0 && zb >= 0.0 {
            0.0
        } else {
            za.abs().min(zb.abs())
        };
        let z2 = zmax * zmax;
        let he6 = z2 * z2 * z2 + 15.0 * z2 * z2 + 45.0 * z2 + 15.0;
        let truncation = w.powi(7) / 2_016_000.0 * he6 * phi(z_near);
        let rounding = m * (4.0 + z2 + 8.0) * U * 2.0;
        return (m, truncation + rounding + f64::MIN_POSITIVE);
    }
    let lo = |z: f64| {
        if z == f64::NEG_INFINITY {
            (0.0, 0.0)
        } else {
            let p = norm_cdf(z);
            (p, p * cdf_error(z))
        }
    };
    let ((a, ea), (b, eb)) = if zb <= 0.0 {
        (lo(za), lo(zb))
    } else if za >= 0.0 {
        // Phi(-za) - Phi(-zb).
        (lo(-zb), lo(-za))
    } else {
        // 1 - Phi(za) - Phi(-zb).
        let (x, ex) = lo(za);
        let (y, ey) = lo(-zb);
        let m = 1.0 - x - y;
        return (m.max(0.0), ex + ey + 2.0 * U);
    };
    let m = b - a;
    (m.max(0.0), ea + eb + U * b)
}

/// The loss law of a composed lattice law (see the module documentation): each lattice value
/// $v$ has loss $\ln v$ (remove) or $-\ln(-v)$ (add), rounded to the grid $k\Delta_L$ up
/// (pessimistic) or down (optimistic) with a margin for the rounding of $v$ and of $\ln$.
fn to_loss(sum: &Pld, lattice: Lattice, interval: f64) -> Result<Pld, ParamError> {
    crate::cancel::check()?;
    let pess = lattice.rounding == Rounding::Pessimistic;
    let h = sum.interval;
    // The composed envelope, as a mass (tilt 0: sum_s a_s <= sqrt(n) ||a||_2).
    let r = &sum.roundoff;
    let total: f64 = sum.pmf.iter().sum();
    let envelope = r.relative * total * (1.0 + 1e-9)
        + if r.ln_scale == f64::NEG_INFINITY {
            0.0
        } else {
            debug_assert_eq!(r.tilt, 0.0);
            (sum.pmf.len() as f64).sqrt() * r.ln_scale.exp() * (1.0 + 1e-9)
        };
    let mut infinity = sum.infinity_mass;
    let mut placed: Vec<(i64, f64)> = Vec::with_capacity(1 << 16);
    for (i, p) in sum.pmf.iter().enumerate() {
        if *p <= 0.0 {
            continue;
        }
        let v = (sum.offset + i as i64) as f64 * h;
        let l = if lattice.remove {
            if v <= 0.0 {
                continue; // loss -inf
            }
            v.ln()
        } else {
            if v >= 0.0 {
                if pess {
                    infinity += p;
                }
                continue;
            }
            -(-v).ln()
        };
        let margin = 4.0 * U * (1.0 + l.abs());
        let k = if pess {
            let target = l + margin;
            let mut k = (target / interval).ceil() as i64;
            while (k as f64) * interval < target {
                k += 1;
            }
            k
        } else {
            let target = l - margin;
            let mut k = (target / interval).floor() as i64;
            while (k as f64) * interval > target {
                k -= 1;
            }
            k
        };
        placed.push((k, *p));
    }
    let (k_lo, k_hi) = placed.iter().fold((i64::MAX, i64::MIN), |(a, b), (k, _)| {
        (a.min(*k), b.max(*k))
    });
    let (offset, pmf) = if placed.is_empty() {
        (0, vec![0.0])
    } else {
        let mut pmf = vec![0.0; (k_hi - k_lo + 1) as usize];
        for (k, p) in placed {
            pmf[(k - k_lo) as usize] += p;
        }
        (k_lo, pmf)
    };
    let mut out = Pld::exact(interval, offset, pmf, 0.0, lattice.rounding);
    if pess {
        out.infinity_mass = (infinity + envelope).min(1.0);
    } else {
        out.alias_mass = sum.alias_mass + envelope;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
