//! One step of a dominating [`Pair`] on the grid: pessimistic by connect-the-dots
//! ([`Pld::single`] with [`Rounding::Pessimistic`]), optimistic by merging the outcomes of a cell
//! ([`Rounding::Optimistic`]), and the symmetrisation of a pair whose order the adversary may flip
//! at every step ([`Pld::symmetrized`]).

use super::grid::{Pld, Rounding};
use super::options::{MAX_FFT, PldOptions, too_fine};
use crate::error::ParamError;
use crate::privacy::pair::{Pair, ln_difference, ln_mass_error};
use std::f64::consts::LN_2;

/// The grid index range $[k_{lo}, k_{hi}]$ outside which each tail has mass $\le\tau$.
fn grid_range(pair: &Pair, interval: f64, tau: f64) -> (i64, i64) {
    let mut hi = interval;
    while pair.split(hi).1 > tau && hi < 1e6 {
        hi *= 2.0;
    }
    let mut lo = -interval;
    while pair.split(lo).0 > tau && lo > -1e6 {
        lo *= 2.0;
    }
    // Tighten both ends by bisection on the grid index.
    let tighten = |mut a: i64, mut b: i64, inside: &dyn Fn(i64) -> bool| {
        // invariant: inside(a), !inside(b)
        while b - a > 1 {
            let m = a + (b - a) / 2;
            if inside(m) { a = m } else { b = m }
        }
        b
    };
    let k_hi = tighten(0, (hi / interval).ceil() as i64, &|k| {
        pair.split(k as f64 * interval).1 > tau
    });
    let k_lo = -tighten(0, (-lo / interval).ceil() as i64, &|k| {
        pair.split(-k as f64 * interval).0 > tau
    });
    (k_lo.min(k_hi - 1), k_hi)
}

/// The number of grid points of a single step on `k_lo..=k_hi`, checked against the point
/// budget before anything is allocated (a single step is capped like a composition: a query
/// with a small `max_points` gets a coarser grid, through [`ParamError::is_too_fine`], not a huge one).
fn single_points(k_lo: i64, k_hi: i64, opts: &PldOptions) -> Result<usize, ParamError> {
    let n = k_hi.saturating_sub(k_lo).saturating_add(1);
    let limit = opts.max_points.min(MAX_FFT);
    if n < 2 || n as u64 > limit as u64 {
        return Err(too_fine(opts.interval, n.max(0) as usize, limit));
    }
    Ok(n as usize)
}

/// Connect the dots (Doroshenko et al. 2022): the discrete PLD on the grid losses
/// $k\Delta_L$, $k_{lo}\le k\le k_{hi}$, whose privacy profile equals `profile` at every grid
/// loss and is linear in $e^\epsilon$ between them. A privacy profile is convex in $e^\epsilon$,
/// so this one lies above it everywhere (above the last grid loss it is the constant
/// $\delta(\ell_{hi})$, carried as mass at $+\infty$): a pessimistic PLD.
fn connect_the_dots(profile: &dyn Fn(f64) -> f64, k_lo: i64, k_hi: i64, d: f64) -> Pld {
    let n = (k_hi - k_lo + 1) as usize;
    let mut pmf = vec![0.0; n];
    let ls: Vec<f64> = (k_lo..=k_hi).map(|k| k as f64 * d).collect();
    // Inflated by 1e-9 relative: the reconstruction from slope differences loses ~1e-12, and
    // the pessimistic profile must stay above the exact one.
    // Cancelled (crate::cancel): the remaining points are not computed (NaN), and the caller's
    // check discards the result.
    let deltas: Vec<f64> = ls
        .iter()
        .map(|l| {
            if crate::cancel::requested() {
                f64::NAN
            } else {
                profile(*l) * (1.0 + 1e-9)
            }
        })
        .collect();
    // The mass at l_j is e^{l_j}(s_j - s_{j-1}), s_j = (delta_{j+1} - delta_j)/(e^{l_{j+1}} -
    // e^{l_j}) the slope of delta against e^l. On the uniform grid, e^{l_j} s_j =
    // (delta_{j+1} - delta_j)/expm1(d) and e^{l_j} s_{j-1} = (delta_j - delta_{j-1})/(-expm1(-d)):
    // the same numbers without e^{l}, which overflows past l ~ 709 (a grid that long made
    // every mass there inf * 0 = NaN, dropped: the pessimistic delta lost the upper tail,
    // 1.2e-7 for a true 0.2 at q 0.2, sigma 0.023).
    let (up, down) = (d.exp_m1(), -(-d).exp_m1());
    for j in 1..n {
        let right = if j < n - 1 {
            (deltas[j + 1] - deltas[j]) / up
        } else {
            0.0
        };
        let left = (deltas[j] - deltas[j - 1]) / down;
        pmf[j] = (right - left).max(0.0);
    }
    let infinity_mass = deltas[n - 1];
    pmf[0] = (1.0 - infinity_mass - pmf[1..].iter().sum::<f64>()).max(0.0);
    Pld::exact(d, k_lo, pmf, infinity_mass, Rounding::Pessimistic)
}

impl Pld {
    /// One step of `pair`, discretised with `rounding`. An error (the grid too fine: see
    /// [`ParamError::is_too_fine`]) when its support needs more than `opts.max_points` grid points (a
    /// pair whose loss spans $\pm10^6$ at a fine interval would need ~$10^{10}$; this used
    /// to abort the process on the allocation).
    pub fn single(pair: &Pair, opts: &PldOptions, rounding: Rounding) -> Result<Self, ParamError> {
        let d = opts.interval;
        let (k_lo, k_hi) = grid_range(pair, d, opts.tail_mass);
        let n = single_points(k_lo, k_hi, opts)?;
        let mut pmf = vec![0.0; n];
        match rounding {
            Rounding::Pessimistic => {
                let pld = connect_the_dots(&|l| pair.profile(l), k_lo, k_hi, d);
                crate::cancel::check()?;
                return Ok(pld);
            }
            Rounding::Optimistic => {
                // Merge the outcomes with loss in a cell (a, b] into one outcome: a
                // post-processing, so the merged pair is dominated by the true one. Its loss is
                // m(a, b) = ln(P(cell)/Q(cell)), placed at the grid loss l_j, which must not exceed
                // it. Each b solves m(a, b) = l_j to within 1e-6 of a cell, on the side m >= l_j
                // (bracketed regula falsi from the midpoint l_j + d/2), so no loss is rounded down
                // by more than that. The widths this gives alternate, with a growing amplitude
                // where the loss density is steep, until a cell would start at or past its grid
                // loss: that grid loss then stays empty and the next cell is solved for the next
                // one. (Giving that cell the width d instead kept every later cell ahead of its
                // grid loss, rounding it down by about half a cell: measured at q 0.002, sigma 1,
                // interval 1e-4, the single step kept a third of its KL divergence.) A midpoint
                // cell is no substitute: where the remove pair's losses pile up just above
                // ln(1 - q), its merged loss lies far above l_j.
                // ln P and ln Q of the cell (a, b] from the log tails at both ends (the side
                // below b when that is under 1/2, else the side above a), each with a bound on
                // its rounding error: a cell past a loss of ~700 has a Q mass below the smallest
                // double, and read as 0 it made the merged loss +inf, placing the cell's P mass
                // at a grid loss above its true merged loss.
                let cell = |ma: &[f64; 4], mb: &[f64; 4]| -> [(f64, f64); 2] {
                    let side = |i: usize| {
                        if mb[i] < -LN_2 {
                            ln_difference(mb[i], ma[i])
                        } else {
                            ln_difference(ma[i + 1], mb[i + 1])
                        }
                    };
                    [side(0), side(2)]
                };
                // A lower bound on the merged loss ln(P(cell)/Q(cell)) of a cell above the loss
                // `edge`: the computed one less both logarithms' error bounds, and at least
                // `edge` itself (every outcome of the cell has L > edge and p = e^L q, so
                // P(cell) >= e^edge Q(cell)), which also holds where the Q mass is not resolved.
                // NaN (nothing to place) for a cell without P mass.
                let merged = |[(pm, pe), (qm, qe)]: [(f64, f64); 2], edge: f64| {
                    if pm == f64::NEG_INFINITY {
                        f64::NAN
                    } else if qm > f64::NEG_INFINITY {
                        (pm - qm - pe - qe).max(edge)
                    } else {
                        edge
                    }
                };
                // The P mass placed: its computed logarithm less its error bound (a lower
                // bound, as an optimistic PLD needs).
                let placed = |(pm, pe): (f64, f64)| (pm - pe).exp();
                let mut a = k_lo as f64 * d - 0.5 * d;
                let mut ma = pair.ln_masses(a);
                for j in 0..n {
                    if j % 4096 == 0 {
                        crate::cancel::check()?;
                    }
                    let target = (k_lo + j as i64) as f64 * d;
                    // The grid index the merged loss is rounded down to; `None` (the mass is
                    // dropped, which only lowers an optimistic delta) below the grid or for NaN.
                    let place = |loss: f64| -> Option<usize> {
                        if loss >= target {
                            Some(j)
                        } else if loss >= k_lo as f64 * d {
                            Some((((loss / d).floor() as i64 - k_lo).max(0) as usize).min(j))
                        } else {
                            None
                        }
                    };
                    if j == n - 1 {
                        // Everything above a, merged into one outcome.
                        let whole = |i: usize| (ma[i], ln_mass_error(ma[i]));
                        if let Some(k) = place(merged([whole(1), whole(3)], a)) {
                            pmf[k] += placed(whole(1));
                        }
                        break;
                    }
                    if a >= target {
                        continue;
                    }
                    // f(b) = m(a, b) - l_j; an empty cell (no mass on either side) counts as f < 0.
                    let eval = |b: f64| {
                        let mb = pair.ln_masses(b);
                        let masses = cell(&ma, &mb);
                        let f = if masses[0].0 == f64::NEG_INFINITY
                            && masses[1].0 == f64::NEG_INFINITY
                        {
                            f64::NEG_INFINITY
                        } else {
                            merged(masses, a) - target
                        };
                        (if f.is_nan() { f64::NEG_INFINITY } else { f }, mb)
                    };
                    let mut b = target + 0.5 * d;
                    let (mut f, mut mb) = eval(b);
                    if !(0.0..=1e-6 * d).contains(&f) {
                        // Bracket the root: lo has f < 0 (at b = a, m would be the loss at a, so
                        // f(a) ~ a - l_j), hi has f >= 0.
                        let (mut lo, mut f_lo) = (a, a - target);
                        let mut step = 0.5 * d;
                        while f < 0.0 && step <= 64.0 * d {
                            (lo, f_lo) = (b, f);
                            b += step;
                            step *= 2.0;
                            (f, mb) = eval(b);
                        }
                        if f >= 0.0 {
                            // Regula falsi with the Illinois rule, keeping hi on the side f >= 0.
                            let (mut hi, mut f_hi, mut m_hi) = (b, f, mb);
                            let mut side = 0;
                            for _ in 0..60 {
                                if f_hi <= 1e-6 * d || hi - lo <= 1e-9 * d {
                                    break;
                                }
                                let w = if f_lo.is_finite() && f_hi.is_finite() {
                                    f_hi / (f_hi - f_lo)
                                } else {
                                    0.5
                                };
                                let mid = hi - w.clamp(0.01, 0.99) * (hi - lo);
                                let (f_mid, m_mid) = eval(mid);
                                if f_mid >= 0.0 {
                                    (hi, f_hi, m_hi) = (mid, f_mid, m_mid);
                                    if side == 1 {
                                        f_lo *= 0.5;
                                    }
                                    side = 1;
                                } else {
                                    (lo, f_lo) = (mid, f_mid);
                                    if side == -1 {
                                        f_hi *= 0.5;
                                    }
                                    side = -1;
                                }
                            }
                            (b, mb) = (hi, m_hi);
                        }
                        // else: no b within 64 cells reaches l_j; the cell's mass is placed lower.
                    }
                    let masses = cell(&ma, &mb);
                    if let Some(k) = place(merged(masses, a)) {
                        pmf[k] += placed(masses[0]);
                    }
                    (a, ma) = (b, mb);
                }
            }
        }
        Ok(Pld::exact(d, k_lo, pmf, 0.0, Rounding::Optimistic))
    }

    /// One step of the symmetrisation of `pair`, discretised pessimistically: the pair whose
    /// tradeoff function is the convex hull of $\min(f,f^{-1})$, $f$ the tradeoff function of
    /// `pair`. Its privacy profile is $\max(\delta_{(P,Q)}(\epsilon),\delta_{(Q,P)}(\epsilon))$ at
    /// every $\epsilon$ (the convex conjugate of a pointwise minimum is the maximum of the
    /// conjugates, and $\delta_f(\epsilon)=1+f^\ast(-e^\epsilon)$), so it dominates both orders and
    /// its $T$-fold composition bounds any sequence of orders. Connect-the-dots on that profile,
    /// on the union of both orders' grids.
    /// An error when the grid needs more than `opts.max_points` points (as [`Pld::single`]).
    pub fn symmetrized(pair: &Pair, opts: &PldOptions) -> Result<Self, ParamError> {
        let d = opts.interval;
        let reverse = pair.reversed();
        let (a_lo, a_hi) = grid_range(pair, d, opts.tail_mass);
        let (b_lo, b_hi) = grid_range(&reverse, d, opts.tail_mass);
        let (lo, hi) = (a_lo.min(b_lo), a_hi.max(b_hi));
        single_points(lo, hi, opts)?;
        let pld = connect_the_dots(&|l| pair.profile(l).max(reverse.profile(l)), lo, hi, d);
        // A cancelled `connect_the_dots` has NaN points: never an answer.
        crate::cancel::check()?;
        Ok(pld)
    }
}
