//! Composition: a PLD's $T$-fold power by a tilted FFT on a Chernoff window ([`Pld::compose`]),
//! the convolution of two PLDs ([`Pld::convolve`]), and the runs of DP-SGD: every upper step
//! bound of its [`Dominating`] pairs composed pessimistically, every realised pair
//! optimistically ([`compose_groups`], [`dp_sgd_epsilon`], [`dp_sgd_delta`]).

use super::bracket::PldBracket;
use super::grid::{Pld, Rounding, Window};
use super::options::{Focus, MAX_FFT, PldOptions, too_fine, validate};
use super::tilted_fft;
use crate::error::ParamError;
use crate::privacy::dominating::{Dominating, StepBound};
use crate::privacy::pair::Pair;
use crate::privacy::{DpSgd, check_delta};

impl Pld {
    /// One step of an upper step bound, discretised pessimistically.
    pub fn upper_step(bound: &StepBound, opts: &PldOptions) -> Result<Self, ParamError> {
        match bound {
            StepBound::Pair(pair) => Pld::single(pair, opts, Rounding::Pessimistic),
            StepBound::EitherOrder(pair) => Pld::symmetrized(pair, opts),
        }
    }

    /// The $T$-fold composition by a tilted FFT ([`super::tilted_fft`]) on a Chernoff window of
    /// the composed support, tilted for `opts.focus`.
    pub fn compose(&self, steps: u64, opts: &PldOptions) -> Result<Pld, ParamError> {
        let tilt = opts.focus.tilt(&self.log_mgf_of(steps));
        self.compose_with(steps, opts, tilt)
    }

    /// [`Pld::compose`] with the tilt $\theta$ given.
    ///
    /// Window: with $S$ the composed loss and $\ell_{lo}$ the window's bottom, the mass below
    /// the window is at most $\tau$ by Chernoff, $P(S<l)\le e^{T\Lambda(-t)+tl}$; mass above the
    /// top wraps around onto losses at least $nΔ$ lower, where untilting multiplies it by at most
    /// $e^{\theta(S-\ell_{lo})}$, so the top is chosen with
    /// $E[e^{\theta(S-\ell_{lo})};S>u]\le e^{T\Lambda(\theta+t)-\theta\ell_{lo}-tu}\le\tau$.
    /// The optimistic result subtracts $2\tau$ (and `steps` times the input's own misplaced
    /// mass); the pessimistic one carries $2\tau$ at $+\infty$ (both tails may be dropped).
    pub fn compose_with(
        &self,
        steps: u64,
        opts: &PldOptions,
        tilt: f64,
    ) -> Result<Pld, ParamError> {
        crate::cancel::check()?;
        if steps == 1 {
            return Ok(self.clone());
        }
        let t_steps = u32::try_from(steps)
            .map_err(|_| ParamError::new("steps", steps, "at most 2^32 - 1"))?;
        let tf = steps as f64;
        let tail_mass = opts.tail_mass;
        let Window {
            lo_idx,
            len: window,
            fft_len: n,
        } = self.window(steps, tail_mass, tilt);
        if n > opts.max_points.min(MAX_FFT) {
            return Err(too_fine(self.interval, n, opts.max_points));
        }
        let full_lo = self.offset * steps as i64;
        let tilted = tilted_fft::tilt(self, tilt);
        let (circular, fft_error) = tilted_fft::power(&tilted, t_steps, n);
        let (relative, propagated) = tilted_fft::propagated_power(&tilted, steps);
        let base = (lo_idx - full_lo).rem_euclid(n as i64) as usize;
        let values: Vec<f64> = (0..window)
            .map(|s| circular[(base + s) % n].max(0.0))
            .collect();
        let inf_composed = -(tf * (-self.infinity_mass).ln_1p()).exp_m1();
        let (infinity_mass, alias_mass) = match self.rounding {
            Rounding::Pessimistic => (inf_composed + 2.0 * tail_mass, 0.0),
            Rounding::Optimistic => (inf_composed, 2.0 * tail_mass + tf * self.alias_mass),
        };
        Ok(tilted_fft::untilt(
            &values,
            tilted_fft::Untilt {
                interval: self.interval,
                offset: lo_idx,
                ln_norm: tf * tilted.ln_norm,
                theta: tilt,
                relative,
                absolute: fft_error * (1.0 + relative) + propagated,
                infinity_mass,
                alias_mass,
                rounding: self.rounding,
            },
        ))
    }

    /// The mass at $+\infty$ of the composition with `other`: $1-(1-a)(1-b)=a+b(1-a)$, a sum of
    /// non-negative terms (no cancellation: $1-(1-a)(1-b)$ rounded $a=b=10^{-20}$ to 0) within
    /// $3u$ relative, moved by $4u$ to the side of the rounding.
    fn combined_infinity_mass(&self, other: &Pld) -> f64 {
        let (a, b) = (self.infinity_mass, other.infinity_mass);
        let m = a + b * (1.0 - a);
        match self.rounding {
            Rounding::Pessimistic => (m * (1.0 + 2.0 * f64::EPSILON)).min(1.0),
            Rounding::Optimistic => m * (1.0 - 2.0 * f64::EPSILON),
        }
    }

    /// The composition of two different mechanisms: the PLD of the sum of their losses (full
    /// linear convolution by a tilted FFT, no truncation; masses at $+\infty$ combine as
    /// $a+b(1-a)$, alias masses add). Both must have the same grid and rounding.
    pub fn convolve(&self, other: &Pld, tilt: f64) -> Result<Pld, ParamError> {
        crate::cancel::check()?;
        if self.interval != other.interval {
            return Err(ParamError::new(
                "interval",
                other.interval,
                format!("the same grid spacing as the first PLD ({})", self.interval),
            ));
        }
        if self.rounding != other.rounding {
            return Err(ParamError::new(
                "rounding",
                format!("{:?}", other.rounding),
                format!("the rounding of the first PLD ({:?})", self.rounding),
            ));
        }
        let len = self.pmf.len() + other.pmf.len() - 1;
        if len.next_power_of_two() > MAX_FFT {
            return Err(too_fine(self.interval, len.next_power_of_two(), MAX_FFT));
        }
        let (a, b) = (tilted_fft::tilt(self, tilt), tilted_fft::tilt(other, tilt));
        let (values, fft_error) = tilted_fft::convolution(&a, &b);
        let (relative, propagated) = tilted_fft::propagated_convolution(&a, &b);
        let values: Vec<f64> = values.iter().map(|v| v.max(0.0)).collect();
        Ok(tilted_fft::untilt(
            &values,
            tilted_fft::Untilt {
                interval: self.interval,
                offset: self.offset + other.offset,
                ln_norm: a.ln_norm + b.ln_norm,
                theta: tilt,
                relative,
                absolute: fft_error * (1.0 + relative) + propagated,
                infinity_mass: self.combined_infinity_mass(other),
                alias_mass: self.alias_mass + other.alias_mass,
                rounding: self.rounding,
            },
        ))
    }
}

/// The `steps`-fold pessimistic and optimistic compositions of one pair.
fn composed_pair(pair: &Pair, steps: u64, opts: &PldOptions) -> Result<(Pld, Pld), ParamError> {
    let one =
        |rounding: Rounding| compose_plds(&[(Pld::single(pair, opts, rounding)?, steps)], opts);
    Ok((one(Rounding::Pessimistic)?, one(Rounding::Optimistic)?))
}

/// The composed PLDs of a run: the pessimistic composition of every upper step bound and the
/// optimistic composition of every realised (lower) pair of its [`Dominating`] pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    /// Upper bounds: the true $\delta(\epsilon)$ is at most the largest of their $\delta(\epsilon)$.
    pub pessimistic: Vec<Pld>,
    /// Lower bounds: the worst-case $\delta(\epsilon)$ is at least the largest of theirs.
    pub optimistic: Vec<Pld>,
}

impl Composed {
    /// $\epsilon(\delta)$: [largest optimistic, largest pessimistic] (an error if inverted).
    pub fn epsilon(&self, delta: f64) -> Result<PldBracket, ParamError> {
        let worst = |plds: &[Pld]| PldBracket::worst(plds.iter().map(|p| p.epsilon(delta)));
        PldBracket::checked(worst(&self.optimistic), worst(&self.pessimistic))
    }

    /// $\delta(\epsilon)$: [largest optimistic, largest pessimistic] (an error if inverted).
    pub fn delta(&self, epsilon: f64) -> Result<PldBracket, ParamError> {
        let worst = |plds: &[Pld]| PldBracket::worst(plds.iter().map(|p| p.delta(epsilon)));
        PldBracket::checked(worst(&self.optimistic), worst(&self.pessimistic))
    }
}

/// A run of groups of steps, each group `count` alike steps with its own [`Dominating`] pairs
/// (all of one sampling scheme and relation, so that the i-th bound of every group describes the
/// same neighbouring datasets): each bound composed over the groups (FFT within a group,
/// convolution across), on one thread per bound.
pub fn compose_groups(
    groups: &[(Dominating, u64)],
    opts: &PldOptions,
) -> Result<Composed, ParamError> {
    validate(opts)?;
    let Some((first, _)) = groups.iter().find(|(_, count)| *count > 0) else {
        return Err(ParamError::new("steps", 0, "at least one step"));
    };
    let (n_upper, n_lower) = (first.upper.len(), first.lower.len());
    if groups
        .iter()
        .any(|(d, _)| d.upper.len() != n_upper || d.lower.len() != n_lower)
    {
        return Err(ParamError::new(
            "groups",
            "mixed sampling schemes or relations",
            "groups of one sampling scheme and relation",
        ));
    }
    let total: f64 = groups.iter().map(|(_, c)| *c as f64).sum();
    let opts = &opts.for_steps(total);
    // Every bound's single steps first, then the point budget checked for all of them before
    // any FFT runs (a refusal comes at once, not after the other bounds' compositions).
    let singles = |single: &dyn Fn(&Dominating) -> Result<Pld, ParamError>| {
        groups
            .iter()
            .map(|(d, c)| Ok((single(d)?, *c)))
            .collect::<Result<Vec<(Pld, u64)>, ParamError>>()
    };
    let uppers: Vec<Vec<(Pld, u64)>> = (0..n_upper)
        .map(|i| singles(&|d: &Dominating| Pld::upper_step(&d.upper[i], opts)))
        .collect::<Result<_, _>>()?;
    let lowers: Vec<Vec<(Pld, u64)>> = (0..n_lower)
        .map(|i| singles(&|d: &Dominating| Pld::single(&d.lower[i], opts, Rounding::Optimistic)))
        .collect::<Result<_, _>>()?;
    let tilted = |all: Vec<Vec<(Pld, u64)>>| -> Result<Vec<(Vec<(Pld, u64)>, f64)>, ParamError> {
        all.into_iter()
            .map(|s| {
                let tilt = tilt_of(&s, opts);
                check_points(&s, opts, tilt)?;
                Ok((s, tilt))
            })
            .collect()
    };
    let (uppers, lowers) = (tilted(uppers)?, tilted(lowers)?);
    std::thread::scope(|scope| {
        let uppers: Vec<_> = uppers
            .iter()
            .map(|(s, tilt)| scope.spawn(move || compose_tilted(s, opts, *tilt)))
            .collect();
        let lowers: Vec<_> = lowers
            .iter()
            .map(|(s, tilt)| scope.spawn(move || compose_tilted(s, opts, *tilt)))
            .collect();
        let join = |hs: Vec<std::thread::ScopedJoinHandle<'_, Result<Pld, ParamError>>>| {
            hs.into_iter()
                .map(|h| h.join().expect("a PLD thread panicked"))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Composed {
            pessimistic: join(uppers)?,
            optimistic: join(lowers)?,
        })
    })
}

/// The tilt `opts.focus` gives for the composition of `groups`.
fn tilt_of(groups: &[(Pld, u64)], opts: &PldOptions) -> f64 {
    let log_mgf = |t: f64| {
        groups
            .iter()
            .map(|(single, count)| *count as f64 * single.log_mgf(t))
            .sum::<f64>()
    };
    opts.focus.tilt(&log_mgf)
}

/// Refuses (with a [`ParamError::is_too_fine`] error) a composition of `groups` whose FFTs would need
/// more than `opts.max_points` points at tilt `tilt`: each group's window, and their sum for
/// the convolutions.
fn check_points(groups: &[(Pld, u64)], opts: &PldOptions, tilt: f64) -> Result<(), ParamError> {
    let mut sum = 0usize;
    for (single, count) in groups.iter().filter(|(_, c)| *c > 0) {
        let w = if *count == 1 {
            Window {
                lo_idx: single.offset,
                len: single.pmf.len(),
                fft_len: single.pmf.len().next_power_of_two(),
            }
        } else {
            single.window(*count, opts.tail_mass, tilt)
        };
        sum += w.len;
        let need = w.fft_len.max(sum.next_power_of_two());
        if need > opts.max_points.min(MAX_FFT) {
            return Err(too_fine(
                single.interval,
                need,
                opts.max_points.min(MAX_FFT),
            ));
        }
    }
    Ok(())
}

/// The composed PLDs of DP-SGD's [`Dominating`] pairs over its `steps`.
pub fn composed(mech: &DpSgd, opts: &PldOptions) -> Result<Composed, ParamError> {
    compose_groups(&[(Dominating::of(mech)?, mech.steps)], opts)
}

/// $\epsilon(\delta)$ of DP-SGD: [the realised pairs' optimistic, the upper bounds' pessimistic].
pub fn dp_sgd_epsilon(
    mech: &DpSgd,
    delta: f64,
    opts: &PldOptions,
) -> Result<PldBracket, ParamError> {
    check_delta(delta)?;
    composed(mech, &opts.focused(Focus::Delta(delta)))?.epsilon(delta)
}

/// $\delta(\epsilon)$ of $T$ compositions of one pair: [optimistic, pessimistic].
pub fn pair_delta(
    pair: &Pair,
    steps: u64,
    epsilon: f64,
    opts: &PldOptions,
) -> Result<PldBracket, ParamError> {
    validate(opts)?;
    crate::error::at_least("steps", steps, 1)?;
    if !epsilon.is_finite() {
        return Err(ParamError::new("epsilon", epsilon, "a finite number"));
    }
    delta_with_tails_below_it(&opts.focused(Focus::Epsilon(epsilon)), steps as f64, |o| {
        let (pess, opt) = composed_pair(pair, steps, o)?;
        PldBracket::checked(opt.delta(epsilon), pess.delta(epsilon))
    })
}

/// A $\delta$ query whose tail mass follows its answer. The pessimistic bound carries up to
/// $2(T+2)\tau$ at $+\infty$ ($\tau$ per step beyond each single step's grid, and per side of
/// the composed window; twice what is needed, which only costs a rerun), which at a tiny
/// $\delta$ can be most of the bracket (q 0.002, σ 1, T 70 000, ε 5.5: [5.7e-15, 6.9e-12] at
/// τ = 1e-15). While it exceeds a thousandth of the pessimistic $\delta$, `query` is asked
/// again with $\tau$ lowered to a thousandth of the optimistic $\delta$ over $2(T+2)$ (at most
/// four times; τ ≥ 1e-250, above the subnormals). Every attempt is a bracket, so the answer is
/// their intersection; an attempt that fails (a finer window past the point budget) ends the
/// refinement with the brackets already had.
pub fn delta_with_tails_below_it<E: From<ParamError>>(
    opts: &PldOptions,
    steps: f64,
    query: impl Fn(&PldOptions) -> Result<PldBracket, E>,
) -> Result<PldBracket, E> {
    const TAIL_FLOOR: f64 = 1e-250;
    let mut opts = *opts;
    let mut b = query(&opts)?;
    for _ in 0..4 {
        let carried = 2.0 * (steps + 2.0) * opts.tail_mass;
        if !(carried > 1e-3 * b.pessimistic) || opts.tail_mass <= TAIL_FLOOR {
            break;
        }
        let scale = b.optimistic.max(1e-6 * b.pessimistic);
        opts.tail_mass = (1e-3 * scale / (2.0 * (steps + 2.0)))
            .min(opts.tail_mass * 1e-3)
            .max(TAIL_FLOOR);
        match query(&opts) {
            Ok(next) => b = b.intersect(&next)?,
            Err(_) => break,
        }
    }
    Ok(b)
}

/// Single-step PLDs composed in turn, `count` of each (each group by FFT, the groups
/// convolved), all with the tilt `opts.focus` gives for the whole composition.
pub fn compose_plds(groups: &[(Pld, u64)], opts: &PldOptions) -> Result<Pld, ParamError> {
    validate(opts)?;
    let tilt = tilt_of(groups, opts);
    check_points(groups, opts, tilt)?;
    compose_tilted(groups, opts, tilt)
}

/// [`compose_plds`] at a given tilt, its point budget already checked.
fn compose_tilted(groups: &[(Pld, u64)], opts: &PldOptions, tilt: f64) -> Result<Pld, ParamError> {
    let mut total: Option<Pld> = None;
    for (single, count) in groups {
        if *count == 0 {
            continue;
        }
        let group = single.compose_with(*count, opts, tilt)?;
        total = Some(match total {
            None => group,
            Some(t) => t.convolve(&group, tilt)?,
        });
    }
    total.ok_or_else(|| ParamError::new("groups", 0, "at least one step"))
}

/// A heterogeneous composition of fixed pairs: `count` steps of each `pair` in turn,
/// discretised with `rounding`.
pub fn compose_heterogeneous(
    groups: &[(Pair, u64)],
    opts: &PldOptions,
    rounding: Rounding,
) -> Result<Pld, ParamError> {
    let singles: Vec<(Pld, u64)> = groups
        .iter()
        .map(|(pair, count)| Ok((Pld::single(pair, opts, rounding)?, *count)))
        .collect::<Result<_, ParamError>>()?;
    compose_plds(&singles, opts)
}

/// $\delta(\epsilon)$ of DP-SGD: [the realised pairs' optimistic, the upper bounds' pessimistic].
pub fn dp_sgd_delta(
    mech: &DpSgd,
    epsilon: f64,
    opts: &PldOptions,
) -> Result<PldBracket, ParamError> {
    if !epsilon.is_finite() {
        return Err(ParamError::new("epsilon", epsilon, "a finite number"));
    }
    let opts = opts.focused(Focus::Epsilon(epsilon));
    delta_with_tails_below_it(&opts, mech.steps as f64, |o| {
        composed(mech, o)?.delta(epsilon)
    })
}
