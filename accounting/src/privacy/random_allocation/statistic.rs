//! Lower ends from one statistic, the sum $S'$ of the likelihood ratios of the $t$ steps, each
//! rounded to the lattice: of $k>1$ of $t$ steps under add/remove (module documentation, "k >
//! 1 of t steps"), and of the antipodal pair under replace-one (any $k<t$).
//!
//! $S'=\sum_i\mathrm{round}(w_i)$, $w_i=\frac1te^{(y_i-1/2)/\sigma^2}$, is a function of the
//! outputs $y$, so the pair of its laws, $(P_k\circ S'^{-1},Q\circ S'^{-1})$, is a
//! post-processing of $(P_k,Q)$, and its privacy loss distributions (remove: the loss
//! $\ln\frac{p_s}{q_s}$ at mass $p_s$; add: $\ln\frac{q_s}{p_s}$ at $q_s$) are below the
//! pair's in every hockey-stick divergence, composed over epochs too (a post-processing of each
//! epoch is one of the product). Under $Q$ the $t$ terms are plain; under $P_k$ (given its
//! $k$-subset, and so unconditionally: the law of $S'$ is symmetric in the steps) $k$ are shifted
//! and $t-k$ plain, so on the event that every term is at most the threshold $a$ (chosen so that
//! under $Q$, or with one shifted term, a large term has probability at most a quarter of the
//! tail budget; with $k$ shifted terms about $k$ times that) the laws are
//! the FFT powers $q=\pi^t$ and $p=\pi^{t-k}\ast\varsigma^k$ of one term's small cells ($\pi$
//! plain, $\varsigma$ shifted, cells at their tops: the same rounding on both sides, so that
//! $S'$ is one function). The events with a large term are merged into one value of the
//! statistic, whose share of δ, $(p-e^\epsilon q)_+\ge0$, is dropped, as are the values
//! outside the compositions' windows.
//!
//! **Floating point.** Each computed mass $\hat p_s$ is within $\rho\hat p_s+A+W$ of the true
//! one ($\rho$, $A$ the composition's relative and absolute envelope, each absolute error at
//! most the $\ell_2$ bound $A$; $W$ its misplaced window mass, which may have aliased into any
//! value). The remove PLD puts $\underline p_s=\hat p_s(1-\rho)-A-W$ (if positive) at the loss
//! $\ln(\underline p_s/\overline q_s)$, $\overline q_s=\hat q_s(1+\rho)+A+W$, rounded down to
//! the grid: less mass at lower losses than the statistic's own PLD, so below it after any
//! composition (the coupling of [`super::super::mechanism_pld`]); the add PLD the same with the
//! roles swapped. So this is an optimistic PLD of each direction.
//!
//! Where the terms are alike (large σ) $S$ carries nearly all of $e_k(w)$'s information
//! (Maclaurin's inequality is then tight): at $\sigma=1.4262$, $t=100$, $k=2$, ten epochs,
//! $\delta=10^{-5}$ the lower end rises from 1.9178 (Maclaurin's, of the add direction; the
//! blocks moved give about 0 there, ten times $\ln2$ lower) to 2.0186 (remove).
//!
//! The same statistic gives the replace-one lower end of the antipodal pair (the record $+C$
//! against $-C$ in the same steps: [`antipodal_pld`]), whose laws differ only in the shift of
//! the selected terms.
//!
//! Values whose lower mass is below $10^{-6}$ of the tail mass over their number are dropped
//! (mass at $-\infty$: still a lower end): the slack leaves such values at losses far below
//! any that count, which would make the composition's grid needlessly long.

use super::{Losses, Pld, PldOptions, SPACING, Small, Split, U};
use crate::error::ParamError;
use crate::privacy::pld::Focus;

/// The statistic's lattice spacing is `STATISTIC_SPACING / t` times the loss grid's: 16 times
/// the sum's for $k=1$ ([`SPACING`]). The statistic is any function of the outputs, so its
/// spacing decides how much it keeps, not whether the bound holds; coarser lattices cost less
/// and carry less floating-point slack (at $\sigma=1$, $t=10$, $k=2$, three epochs: lower end
/// 5.8224 at the sum's spacing, 5.8243 at 16 times it, 1.5 s less).
const STATISTIC_SPACING: f64 = 16.0 * SPACING;

/// The optimistic `[remove, add]` PLDs of one epoch of `k` of `t` steps from the statistic
/// $S'$ (module documentation), or an error: too fine for one lattice below the threshold
/// (the caller keeps its other lower ends).
pub(super) fn lower_plds(
    sigma: f64,
    k: u64,
    t: u64,
    opts: &PldOptions,
) -> Result<[Pld; 2], ParamError> {
    debug_assert!(1 < k && k < t);
    let c = 0.5 / (sigma * sigma);
    let (split, window) = lattice(sigma, t, opts)?;
    let plain = small_law(sigma, -c, t, &split)?;
    let shifted = small_law(sigma, c, t, &split)?;
    let q = plain.compose_with(t, &window, 0.0)?;
    let rest = plain.compose_with(t - k, &window, 0.0)?;
    let p = with_selected(&rest, &shifted, k, &window, opts)?;
    Ok([
        pair_losses(&p, &q, opts, true),
        pair_losses(&p, &q, opts, false),
    ])
}

/// The optimistic PLD of one epoch of `k` of `t` steps under replace-one, from the same
/// statistic $S'$ for the *antipodal* pair: a record whose clipped gradient is $+C$ times a
/// fixed unit vector at each of its steps, replaced by one whose gradient is $-C$ times it
/// (the others' 0). Both datasets put the record in the same $k$ steps (the allocation does not
/// look at the data), so the pair is $P_+=\binom tk^{-1}\sum_{\lvert A\rvert=k}\mathcal
/// N(1_A,\sigma^2I_t)$ against $P_-$, the same with $-1_A$: realised, and symmetric (the map
/// $y\mapsto-y$ exchanges them, so one PLD serves both orders). $S'=\sum_i\mathrm{round}(w_i)$,
/// $w_i=\frac1te^{(y_i-1/2)/\sigma^2}$, is a function of the outputs; under $P_\pm$ its $k$
/// selected terms are $\frac1te^{Z/\sigma+c}$ ($+$) or $\frac1te^{Z/\sigma-3c}$ ($-$),
/// $c=1/(2\sigma^2)$, and the others plain ($-c$). So its laws on $\lbrace$every term $\le
/// a\rbrace$ are $\pi^{t-k}\ast\varsigma_+^k$ and $\pi^{t-k}\ast\varsigma_-^k$, and the PLD of
/// the pair of laws ($\ln\frac{p_s}{q_s}$ at mass $p_s$, every floating-point error taken off,
/// the events with a large term dropped) is below the antipodal pair's after any composition
/// (post-processing). `k < t` (at $k=t$ the pair is the Gaussian mechanism itself).
pub(super) fn antipodal_pld(
    sigma: f64,
    k: u64,
    t: u64,
    opts: &PldOptions,
) -> Result<Pld, ParamError> {
    antipodal_with(sigma, k, t, opts, -3.0)
}

/// [`antipodal_pld`] with the exponent of the replaced record's terms given as `minus` times
/// $c$ ($-3$; the tests' mutant moves it).
pub(super) fn antipodal_with(
    sigma: f64,
    k: u64,
    t: u64,
    opts: &PldOptions,
    minus: f64,
) -> Result<Pld, ParamError> {
    debug_assert!(0 < k && k < t);
    let c = 0.5 / (sigma * sigma);
    let (split, window) = lattice(sigma, t, opts)?;
    let plain = small_law(sigma, -c, t, &split)?;
    let rest = plain.compose_with(t - k, &window, 0.0)?;
    let p = with_selected(&rest, &small_law(sigma, c, t, &split)?, k, &window, opts)?;
    let q = with_selected(
        &rest,
        &small_law(sigma, minus * c, t, &split)?,
        k,
        &window,
        opts,
    )?;
    Ok(pair_losses(&p, &q, opts, true))
}

/// The statistic's lattice (one, below the threshold) and the options of its compositions'
/// windows, or a too-fine error where one lattice does not hold it.
fn lattice(sigma: f64, t: u64, opts: &PldOptions) -> Result<(Split, PldOptions), ParamError> {
    let c = 0.5 / (sigma * sigma);
    let h = STATISTIC_SPACING * opts.interval / t as f64;
    let budget = opts.tail_mass * t as f64;
    // The events with a large term are dropped here: the threshold holds their mass to
    // budget/4 ([`Split::new`]'s target sqrt(b'/2) at b' = b^2/8), not sqrt(b/2).
    let split = Split::new(sigma, c, t, h, opts.interval, budget * budget / 8.0, false)?;
    let window = PldOptions {
        tail_mass: 0.25 * budget,
        ..*opts
    };
    if !split.fits(sigma, c, t, &window)? {
        return Err(ParamError::too_fine(
            opts.interval,
            format_args!(
                "the statistic's lattice below the threshold needs more than one composition \
                 of at most 2^23 points"
            ),
        ));
    }
    Ok((split, window))
}

/// One term's small cells (exponent `c`: $\frac1te^{Z/\sigma+c}$), each at its top.
fn small_law(sigma: f64, c: f64, t: u64, split: &Split) -> Result<Pld, ParamError> {
    Ok(Small::new(sigma, c, t, split, 0)?.law(true, false))
}

/// The law of `rest` plus `k` independent terms of law `selected`, within the point budget.
fn with_selected(
    rest: &Pld,
    selected: &Pld,
    k: u64,
    window: &PldOptions,
    opts: &PldOptions,
) -> Result<Pld, ParamError> {
    let selected = selected.compose_with(k, window, 0.0)?;
    let points = (rest.pmf.len() + selected.pmf.len() - 1).next_power_of_two();
    if points > opts.max_points {
        return Err(ParamError::too_fine(
            opts.interval,
            format_args!(
                "the composition needs {points} points, more than {}",
                opts.max_points
            ),
        ));
    }
    rest.convolve(&selected, 0.0)
}

/// Per-value bounds `(lower, upper)` of a computed lattice law at absolute index `s`
/// (0 outside its window): $\hat p(1\mp\rho)\mp(A+W)$, the lower end clamped at 0.
fn bounds(law: &Pld, s: i64) -> (f64, f64) {
    let r = &law.roundoff;
    debug_assert_eq!(r.tilt, 0.0);
    let slack = (r.ln_scale.exp() + law.infinity_mass + law.alias_mass) * (1.0 + 4.0 * U);
    let i = s - law.offset;
    let v = if i >= 0 && (i as usize) < law.pmf.len() {
        law.pmf[i as usize]
    } else {
        0.0
    };
    let lower = ((v * (1.0 - r.relative) * (1.0 - 4.0 * U) - slack) * (1.0 - U)).max(0.0);
    let upper = (v * (1.0 + r.relative) + slack) * (1.0 + 2.0 * U);
    (lower, upper)
}

/// The optimistic loss PLD of the pair of lattice laws `(p, q)`: remove (mass $\underline p_s$
/// at $\ln\underline p_s-\ln\overline q_s$) or add (mass $\underline q_s$ at
/// $\ln\underline q_s-\ln\overline p_s$), rounded down to the grid of `opts` with the
/// logarithms' rounding ($4u$ of each) taken off first.
fn pair_losses(p: &Pld, q: &Pld, opts: &PldOptions, remove: bool) -> Pld {
    let (num, den) = if remove { (p, q) } else { (q, p) };
    let mut acc = Losses::new(opts.interval, remove, false);
    let floor = 1e-6 * opts.tail_mass / num.pmf.len() as f64;
    for i in 0..num.pmf.len() {
        let s = num.offset + i as i64;
        let (mass, _) = bounds(num, s);
        if mass <= floor {
            continue;
        }
        let (_, other) = bounds(den, s);
        let (a, b) = (mass.ln(), other.ln());
        // (the loss is ln(mass / other); Losses adds its own margin for |loss|)
        let loss = a - b - 4.0 * U * (a.abs() + b.abs());
        acc.atom(loss, mass);
    }
    acc.finish()
}

/// Of two optimistic PLDs (both lower ends of one direction), the one that is larger in a run
/// composing it `copies` times, answered at `target`: ε at a [`Focus::Delta`], δ at a
/// [`Focus::Epsilon`], after the composition (on `opts`' grid, focused there); for a
/// [`Focus::Tilt`], or where a composition fails, the larger mean loss $\sum_sp_s\ell_s$ over
/// the finite losses (a heuristic: over many epochs the composed loss's mean, the relative
/// entropy, decides δ). Either is a lower end: the choice only decides which is reported.
pub(super) fn larger_in_run(a: Pld, b: Pld, copies: u64, target: Focus, opts: &PldOptions) -> Pld {
    let mean = |p: &Pld| {
        p.pmf
            .iter()
            .enumerate()
            .map(|(i, m)| m * (p.offset + i as i64) as f64 * p.interval)
            .sum::<f64>()
    };
    let at_target = || -> Result<bool, ParamError> {
        let run = |p: &Pld| match copies {
            0 | 1 => Ok(p.clone()),
            n => p.compose(n, &opts.focused(target)),
        };
        let (ra, rb) = (run(&a)?, run(&b)?);
        Ok(match target {
            Focus::Epsilon(e) => ra.delta(e) >= rb.delta(e),
            Focus::Delta(d) => ra.epsilon(d) >= rb.epsilon(d),
            Focus::Tilt(_) => mean(&a) >= mean(&b),
        })
    };
    let a_wins = at_target().unwrap_or_else(|_| mean(&a) >= mean(&b));
    if a_wins { a } else { b }
}
