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
//! The loss is increasing in $S$ (remove) or decreasing (add), and $S$ is a sum of $t$
//! independent terms: a bound $S'\ge S$ almost surely gives a pessimistic remove loss and an
//! optimistic add loss, $S'\le S$ the other two.
//!
//! # Small and large terms (two lattices)
//! The loss needs $S$ to a relative accuracy ($\ln(S+e)-\ln S\le e/S$), but a term is lognormal,
//! $\ln(tW)$ with standard deviation $1/\sigma$: at small $\sigma$ a uniform lattice fine enough
//! near the mean $\mathbb ES=1$ has to reach far into the tail (at $t=500$, $\sigma=0.8344$, a
//! single lattice ran to $W\approx26$, 13000 times the term's mean $1/t$). So each term is split
//! at a threshold $a$: *small* ($W\le a$: fine cells $((j-1)h,jh]$, $j=1..J$, $a=Jh$) or
//! *large* ($W>a$: coarse cells $((k-1)H,kH]$, $k=J_H+1..N_H$, $H=Kh$, $J=J_HK$; above $N_HH$
//! the truncated tail). With $p_i=P(W_i>a)$ ($p_s$ the shifted term's, $p$ a plain one's) and
//! $M$ the number of large terms, the epoch is split into three events.
//! - $M=0$: $S$ is a sum of small terms, on the fine lattice: an FFT power of one plain term's
//!   small cells ([`Pld::compose_with`], Chernoff window): $G$ for $t-1$ terms and the $t$-fold
//!   power (add); $F$, $G$ convolved with the shifted term's small cells ([`Pld::convolve`])
//!   (remove). These are sub-probability measures of mass $P(M=0)$.
//! - $M=1$, term $i$ large: $S=W_i+R_i$, the others $R_i$ all small. As $S>a$, a coarse
//!   lattice is enough: $W_i$ on the cells of spacing $H$, $R_i$ rounded from the fine lattice
//!   to $H$ (in the bound's direction). The law of $R_i$ (given its terms small) is replaced by
//!   one ordered with it: under add, and under remove with $i$ the shifted term, $R_i$ is
//!   $t-1$ small plain terms, $G$ itself; under remove with $i$ plain, $R_i$ is $t-2$ small plain
//!   terms and the small shifted one, which is at most $F$ (one more independent small plain
//!   term, $\ge0$: for $S'\ge S$) and at least $G$ (for $S'\le S$: the shifted term's density is
//!   $tw$ times a plain one's, a monotone likelihood ratio, which conditioning on $W\le a$ and
//!   monotone rounding keep, so the small shifted term is stochastically larger than a small
//!   plain one). With $P(\text{only }i\text{ large})=p_i\prod_{j\ne i}(1-p_j)$ and $G$, $F$ of
//!   masses $(1-p)^{t-1}$, $(1-p)^{t-1}(1-p_s)$, the measures are, with $L_s$, $L_p$ the large
//!   cells' masses (totals $p_s$, $p$): $G\ast L_s+\frac{t-1}{1-p}F\ast L_p$ (remove, $S'\ge S$),
//!   $G\ast\big(L_s+(t-1)\frac{1-p_s}{1-p}L_p\big)$ (remove, $S'\le S$; the factor is taken as
//!   $(t-1)(1-p_s)$, smaller) and $tG\ast L_p$ (add), each convolution on the coarse lattice.
//! - $M\ge2$: probability at most $\sum_{i<j}p_ip_j$: at loss $+\infty$ (pessimistic remove), at
//!   loss $-\ln a$ (pessimistic add: $S>a$), dropped (optimistic).
//!
//! The threshold $a$ is the smallest (to the coarse lattice) with $\sum_ip_i\le\sqrt{2\cdot b/4}$,
//! $b$ the tail budget below, so that $M\ge2$ costs at most $b/4$; or, where that costs at most
//! twice the fine cells (large σ: $a$ near the mean $1/t$ of a term), with $\sum_ip_i\le b/4$,
//! so that the event $M=1$, whose loss is only bracketed to order $1/(ta)$ (below), weighs no
//! more than the tail budget (at $\sigma=52$, $t=3$, $E=10$, $\delta=3.2\cdot10^{-8}$ the
//! bracket was $[0.1559,0.1806]$ on the grid $10^{-6}$ before). At $t=500$, $\sigma=0.8344$ it
//! is $a\approx1.6$; the composition's window ends near $S\approx4.7$ instead of 20, and the
//! FFTs are 4 to 8 times shorter. At large $\sigma$, $a$ may be below the mean 1: nothing above
//! assumes otherwise.
//!
//! # Octave levels (small σ)
//! At small σ the threshold $a$ is far above the sum's mean 1 ($a\approx163$ at $\sigma=0.5$,
//! $t=100$), and one fine lattice up to it, with the composition's window beyond, needed more
//! than $2^{25}$ points. Where the single lattice's composition would need more than
//! $2^{23}$ points, the event $M=0$ is split by where the largest term lies:
//! $E_0=\lbrace \max_iW_i\le a_0\rbrace $ and $E_\ell=\lbrace \max_iW_i\in(a_{\ell-1},a_\ell]\rbrace $,
//! $a_\ell=2^\ell a_0$, $\ell=1..L$, $a_L=a$, $2<a_0\le4$ where $K$ allows, $a_0>2$ always ($K$
//! is rounded down to a multiple of $2^{L+1}$, fewer levels where it is smaller, so $H$ is a
//! multiple of twice the top level's spacing). Level $\ell$ is on the lattice
//! $2^\ell h$, where $a_{\ell-1}$ and $a_\ell$ are lattice points, so rounding a term keeps it on
//! its side of both and the law of the rounded sum on $E_\ell$ is exactly the law on
//! $\lbrace $every term $\le a_\ell\rbrace $ less the law on $\lbrace $every term $\le a_{\ell-1}\rbrace $ (nested
//! events), each an FFT power as above on that lattice; on $E_\ell$ the sum is
//! at least $a_{\ell-1}$, so its error $t2^\ell h$ is at most $2th/a_0\le th$ relative. $G$
//! and $F$ for $M=1$ are the top level's. Each level's laws carry their floating-point
//! envelopes at $+\infty$ (pessimistic) or subtracted (optimistic), relative to the *whole*
//! law's mass, not the level's: $2$–$5\cdot10^{-9}$ a level at $t=100$, which widens the
//! bracket where δ is small (at $\sigma=0.7$, $t=100$, $E=10$, $\delta=10^{-5}$: width 0.0126
//! against one lattice's 0.0055, which took 19 s and 7.4 GB against 10 s and 1.3 GB). The
//! window tails of the $2L+1$ compositions share the quarter of the budget per side.
//!
//! *The lowest cell.* Every term in the cell $(0,h]$ makes $S'=0$, which the pessimistic add
//! PLD (loss $-\ln S$) cannot place on the lattice; it is placed by the largest term instead
//! (`Epoch::spread_zero`; $3\cdot10^{-6}$ of the mass at $t=2$, $\sigma=0.5$, which at
//! $+\infty$ made the upper end of ten epochs infinite at $\delta=10^{-5}$).
//!
//! # The bracket (a coupling, first order)
//! Every cell's value is rounded up ($S'\ge S$) or down ($S'\le S$) and every substitution above
//! is an order between laws, so there is a coupling with $S'\ge S$ (resp. $S'\le S$) almost
//! surely, and so a loss $L'\ge L$ (pessimistic) or $L'\le L$ (optimistic). The loss of each
//! lattice value is rounded up (pessimistic) or down (optimistic) to the loss grid
//! $\ell_k=k\Delta_L$. As $g(\ell)=\max(0,1-e^{\epsilon-\ell})$ is non-decreasing, a loss $L'\ge L$
//! almost surely gives $\mathbb E\thinspace g(L')\ge\mathbb E\thinspace g(L)$, and sums of
//! independent such losses (epochs, other events of the same direction) keep the order, so the
//! pessimistic PLD composes into an upper bound on every hockey-stick divergence and the
//! optimistic one into a lower bound (the coupling argument of [`super::mechanism_pld`]). The
//! tail above $N_HH$ is $S'=+\infty$ when $S'\ge S$ (remove: loss $+\infty$; add: loss $-\infty$,
//! dropped) and clamped to $N_HH$ when $S'\le S$. A lattice value $S'=0$ has loss $-\infty$
//! (remove: dropped); under add (pessimistic, terms rounded down) it is placed by the largest
//! term ("The lowest cell", above). The terms rounded up serve the pessimistic remove and
//! the optimistic add PLD, rounded down the other two (the two halves run side by side).
//!
//! Error per epoch: on $M=0$ at most $th$ in $S$ (each of the $t$ terms moves by less than
//! $h$), a loss error of at most $th/S$ (with levels: $th/S$ on $E_0$, at most $2th/a_0$ on
//! $E_\ell$); on $M=1$ at most $(th_L+2H)/S$ with $S>a$, $h_L=2^Lh$ the top level's spacing,
//! and $H$ a multiple of $2h_L$ with $2H\le a\Delta_L$, so at most $th/a_0+\Delta_L$;
//! plus $\Delta_L$ from the loss grid. All are first order and add up over epochs; the default spacing is
//! $h=4\Delta_L/t$. Not in these bounds: where the others' law is replaced (remove, $i$ plain),
//! $S'$ moves further, by one more small plain term (mean below $1/t$) at the upper end and by
//! the small shifted term taken as a plain one (mean below $e^{1/\sigma^2}/t$) at the lower, on
//! events of mass at most $(t-1)p\le\sqrt{b/2}$: a loss error of order $1/(ta)$ resp.
//! $e^{1/\sigma^2}/(ta)$ there, which at the default tail mass is far below the bracket's width.
//!
//! Tail budget: $b=t\tau$ per epoch and direction ($\tau$ = `tail_mass`): $b/8$ for the shifted
//! term's truncation, $b/(8t)$ for each other term's, $b/4$ for $M\ge2$, $b/4$ for each side of
//! the composition's window. Mass outside the window goes to $+\infty$ (pessimistic) or is
//! subtracted (optimistic), as in [`Pld::compose_with`]; the laws of $S$ are computed once for
//! both uses, with that mass carried as `infinity_mass`, and each use moves it to its side.
//!
//! Floating point: each cell's mass $\Phi(z_b)-\Phi(z_a)$ is computed from the smaller side of
//! $\Phi$ with an error bound (`erfc` to $8u$ plus $2z^2u$ for the rounding of its argument);
//! the sum of the bounds is the input envelope of the composition, which [`Pld::compose_with`]
//! propagates with its own FFT error. A composed law's envelope (relative $\rho$, absolute $a_s$)
//! and its window mass are *misplaced mass*: moved to $+\infty$ (pessimistic:
//! $\rho\sum_s\hat p_s+\sum_sa_s$, with $\sum_sa_s\le\sqrt n\lVert a\rVert_2$) or to the subtracted
//! alias mass (optimistic): a measure that dominates the true one, and $g\le1$ at $+\infty$. On
//! $M=1$, $\lvert RL-\hat R\hat L\rvert\le\lvert R-\hat R\rvert\thinspace\lvert L\rvert+\lvert\hat
//! R\rvert\thinspace\lvert L-\hat L\rvert$ (total masses) is misplaced too, with the coarse
//! convolution's own envelope. Each grid mass is a sum of non-negative masses, with relative
//! error at most $(n+1)u$ for $n$ of them, also misplaced.
//!
//! # $k>1$ of $t$ steps
//! The realised pair is $P_k=\binom tk^{-1}\sum_{\lvert A\rvert=k}\mathcal N(1_A,\sigma^2I_t)$
//! against $Q=\mathcal N(0,\sigma^2I_t)$ (a record whose gradient is $C$ times a fixed unit
//! vector, the others' 0), with $\frac{dP_k}{dQ}=e_k(w)/\binom tk$, $e_k$ the elementary
//! symmetric polynomial of $w_i=e^{(y_i-1/2)/\sigma^2}$: not a function of one sum of
//! independent terms, so it is bracketed rather than computed.
//!
//! *Upper end: blocks.* Cut the $t$ steps into $k$ blocks, $k-r$ of $b=\lfloor t/k\rfloor$ steps
//! and $r=t-kb$ of $b+1$. A uniformly random permutation $\pi$ of the steps followed by one
//! uniform step in each block (of the permuted order) selects a set whose law is invariant under
//! every permutation of the steps, so it is the uniform $k$-subset: $P_k=\mathbb E_\pi
//! P_\pi$, where $P_\pi$ is the product over the blocks of one-of-$b_m$ allocations, and
//! $Q=\pi Q$. The hockey-stick divergence is jointly convex, so $H_\alpha(P_k\Vert Q)\le
//! \mathbb E_\pi H_\alpha(P_\pi\Vert Q)$ and $H_\alpha(Q\Vert P_k)\le\mathbb E_\pi
//! H_\alpha(Q\Vert P_\pi)$, and every $P_\pi$ is the same product up to relabelling the
//! coordinates: its PLD is the convolution of the blocks' (this module with $k=1$), in each
//! direction. This is the decomposition of Feldman & Shenfeld (arXiv 2502.08202), which also
//! carries it to adaptive steps; opake-accounting 0.16.1 and PLD_accounting 2.0 use the same
//! blocks (floor and ceiling sizes) for their upper ends.
//!
//! *Lower end, add: Maclaurin.* For $w\ge0$, $\big(e_k(w)/\binom tk\big)^{1/k}\le\frac1t
//! \sum_iw_i=S$ (Maclaurin's inequality), so the add loss $-\ln\frac{dP_k}{dQ}\ge-k\ln S$
//! pointwise, with $y\sim Q$ on both sides: $-k\ln S$ is $k$ times the add loss of one of $t$
//! steps, whose optimistic PLD (losses below it in the coupling above) is computed on the grid
//! $\Delta_L/k$ (with the sum's lattice of the grid $\Delta_L$, $h=4\Delta_L/t$: its error,
//! $k$ times larger once scaled, stays in this lower end, and the cost stays that of $k=1$) and
//! read on the grid $\Delta_L$, one cell lower for the floating-point mismatch of the two grids. It is tight where the terms are alike: $S^k\binom tk/e_k-1$ is of
//! order $\binom k2(e^{1/\sigma^2}-1)/t$.
//!
//! *Lower end, remove: the blocks moved.* Let $p_{\rm blk}=\prod_mb_m/\binom tk$ be the share of
//! $k$-subsets with one step in each block. For every $\pi$,
//! $e_k(w)/\binom tk\ge p_{\rm blk}\frac{dP_\pi}{dQ}$ (the sets with one step per block of
//! $\pi$ are some of the terms of $e_k$), so $L\ge L_\pi+\ln p_{\rm blk}$ pointwise. Draw
//! $y\sim P_k$ as $1_A+Z$ and $\pi$ uniformly among the permutations that put one step of $A$
//! in each block: given $\pi$, $A$ is uniform among those sets and $y\sim P_\pi$, so
//! $L\ge L_\pi+\ln p_{\rm blk}$ with $L_\pi$ distributed as the blocks' remove loss: the
//! blocks' optimistic remove PLD moved down by $\ln(1/p_{\rm blk})$ is optimistic for $P_k$.
//! The move is large ($\ln2$ per epoch at $k=2$, large $t$), so this end is weak; without it
//! the blocks' optimistic PLD is *not* a lower end (the tests show it above the direct δ at
//! $k=2$, $t=3$).
//!
//! *Lower end, both directions: a statistic.* The sum $S'$ of the steps' likelihood ratios,
//! each rounded to a lattice, is a function of the outputs, so the PLDs of its two laws are
//! below the pair's after any composition; its laws are FFT powers of one term's cells ($k$
//! shifted and $t-k$ plain against $t$ plain), and every floating-point error is taken off the
//! masses (module `statistic`). It keeps most of the evidence where the terms are alike (σ not
//! small), and none of the moves above. Of it and the ends above, each direction keeps the one
//! larger at the asked δ (or ε) after the run's epochs (the event walker passes the product of
//! the `SelfComposed` counts above the allocation: [`RandomAllocation::epoch_in_run`]; for a
//! `SelfComposed` of the allocation, its count as the epochs and the counts above it:
//! [`RandomAllocation::epochs_in_run`]); the other is dropped, so the bracket is the better of
//! two certified lower ends.
//!
//! [`composed`] composes each end over the $E$ epochs in one composition (one tilt), and so does
//! the event walker for a `SelfComposed` of the allocation ([`RandomAllocation::epochs_in_run`]);
//! an allocation inside a `Composed` has an epoch's blocks composed, then the epochs, at the
//! document's one tilt (whose far left, only floating-point envelope after the tilted
//! convolution, can widen the epochs' window past the point budget at large σ). At $k=t$ the
//! blocks are the steps and both lower ends are theirs. Measured at
//! $\sigma=1.4262$, $t=100$, $E=10$, $\delta=10^{-5}$: $[2.0186,2.0285]$ at $k=2$ and
//! $[4.3880,4.4315]$ at $k=4$ (Poisson with $q=k/t$: 2.1204 and 4.6223; without the statistic
//! the lower ends were 1.9178 and 3.9767).
//!
//! # What is not covered
//! Replace-one has no worst pair proved here. A whole event document under replace-one is
//! bracketed through the record's absence ([`super::event_pld::replace_one_by_two_hops`]) and,
//! per epoch, between the record's steps revealed (above) and the realised antipodal pair
//! (below: [`RandomAllocation::antipodal_epoch`], the statistic $S'$ of the record $+C$ against
//! $-C$ in the same steps).

use super::mechanism_pld::PldPair;
use super::pld::{Focus, Pld, PldBracket, PldOptions, Rounding, compose_plds};
use crate::error::{ParamError, at_least, positive};
use crate::numerics::{log_norm_cdf, norm_cdf};

/// Unit round-off of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// The default lattice spacing of the sum is `SPACING / t` times the loss grid's.
pub const SPACING: f64 = 4.0;

/// The most cells of one term's fine (small) part on one level, or of its coarse (large) part.
const MAX_CELLS: u64 = 1 << 27;

/// The most FFT points of the small terms' composition on one lattice; past it, octave levels.
const SINGLE_POINTS: usize = 1 << 23;

/// Level 0 of the small terms ends at most here ($a_0\le4$, four times the sum's mean).
const LEVEL_TOP: f64 = 4.0;

/// One epoch of random allocation ($k$ of $t$ steps) of the Gaussian mechanism under add/remove.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomAllocation {
    /// Noise multiplier $\sigma>0$.
    pub sigma: f64,
    /// Steps per epoch that use each record, $1\le k\le t$.
    pub num_selected: u64,
    /// Steps per epoch $t\ge1$.
    pub num_steps: u64,
}

impl RandomAllocation {
    /// A validated epoch: $\sigma>0$, $t\ge1$, $1\le k\le t$ (`num_selected`); an error names
    /// the field.
    pub fn new(sigma: f64, num_selected: u64, num_steps: u64) -> Result<Self, ParamError> {
        positive("noise_multiplier", sigma)?;
        at_least("num_steps", num_steps, 1)?;
        at_least("num_selected", num_selected, 1)?;
        if num_steps > 1 << 24 {
            return Err(ParamError::new("num_steps", num_steps, "at most 2^24"));
        }
        if num_selected > num_steps {
            return Err(ParamError::new(
                "num_selected",
                num_selected,
                format!("at most num_steps ({num_steps}): a record is in k of the t steps"),
            ));
        }
        Ok(Self {
            sigma,
            num_selected,
            num_steps,
        })
    }

    /// One of `num_steps` steps ($k=1$), noise multiplier `sigma`.
    fn one_of(sigma: f64, num_steps: u64) -> Self {
        Self {
            sigma,
            num_selected: 1,
            num_steps,
        }
    }

    /// The PLDs of one epoch, `[remove, add]`: for $k=1$ with the sum's lattice spacing
    /// $h=$ [`SPACING`]$\cdot\Delta_L/t$, for $k>1$ from the blocks, the Maclaurin bound and the
    /// statistic $S'$ (see the module documentation).
    pub fn epoch(&self, opts: &PldOptions) -> Result<[PldPair; 2], ParamError> {
        self.epoch_in_run(opts, 1, opts.focus)
    }

    /// [`RandomAllocation::epoch`] for a run that composes it `copies` times, answered at
    /// `target`: for $k>1$ each direction's lower end is the one of its two (the blocks moved
    /// or Maclaurin's, and the statistic $S'$) that is larger there after the `copies`-fold
    /// composition (a [`Focus::Tilt`] target: the larger mean loss). Either is a lower end: the
    /// choice only decides which is reported.
    pub fn epoch_in_run(
        &self,
        opts: &PldOptions,
        copies: u64,
        target: Focus,
    ) -> Result<[PldPair; 2], ParamError> {
        if self.num_selected > 1 {
            return self.blocks_with(1, opts, Some((copies, target)));
        }
        self.epoch_with(opts, SPACING * opts.interval / self.num_steps as f64)
    }

    /// [`RandomAllocation::epoch`] of one of $t$ steps ($k=1$; otherwise an error naming
    /// `num_selected`) with the lattice spacing `h` of the sum given. The tail
    /// mass is `t * opts.tail_mass` per epoch and direction: an eighth each to the truncation
    /// of the shifted term and of the other terms (together), a quarter to two or more large
    /// terms, a quarter to each side of the composition's window (see the module
    /// documentation).
    pub fn epoch_with(&self, opts: &PldOptions, h: f64) -> Result<[PldPair; 2], ParamError> {
        opts.check()?;
        positive("sum_spacing", h)?;
        if self.num_selected != 1 {
            return Err(ParamError::new(
                "num_selected",
                self.num_selected,
                "1 (a lattice spacing is given for one of t steps; k > 1 goes through `epoch`)",
            ));
        }
        let t = self.num_steps;
        let budget = opts.tail_mass * t as f64;
        let c = 0.5 / (self.sigma * self.sigma);
        let split = |octaves| Split::new(self.sigma, c, t, h, opts.interval, budget, octaves);
        let window_opts = PldOptions {
            tail_mass: 0.25 * budget,
            ..*opts
        };
        // One lattice below the threshold where its composition is small enough, octave levels
        // otherwise.
        let split = match split(false) {
            Ok(single) if single.fits(self.sigma, c, t, &window_opts)? => single,
            Err(e) if !e.is_too_fine() => return Err(e),
            _ => split(true)?,
        };
        self.epoch_on(split, opts)
    }

    /// [`RandomAllocation::epoch_with`] on a given split (threshold, coarse spacing and
    /// truncation; the tests choose them), with the composition's window at a quarter of the
    /// tail budget per side.
    fn epoch_on(&self, split: Split, opts: &PldOptions) -> Result<[PldPair; 2], ParamError> {
        let t = self.num_steps;
        let budget = opts.tail_mass * t as f64;
        let c = 0.5 / (self.sigma * self.sigma);
        let epoch = Epoch {
            t,
            sigma: self.sigma,
            c,
            shifted: Term::new(self.sigma, c, t, &split)?,
            plain: Term::new(self.sigma, -c, t, &split)?,
            split,
            interval: opts.interval,
        };
        // A quarter of the budget per side, shared by the 2L + 1 compositions whose window
        // tails one PLD carries (one on level 0, two on each other level).
        let lattice_opts = PldOptions {
            tail_mass: 0.25 * budget / f64::from(2 * split.levels + 1),
            ..*opts
        };
        // Each term rounded up serves the pessimistic remove and the optimistic add PLD;
        // rounded down, the other two. The two halves run side by side.
        let half = |up: bool| -> Result<(Pld, Pld), ParamError> {
            let sums = epoch.sums(up, &lattice_opts)?;
            Ok((epoch.remove(&sums, up)?, epoch.add(&sums, up)?))
        };
        let (up, down) = rayon::join(|| half(true), || half(false));
        let ((remove_pess, add_opt), (remove_opt, add_pess)) = (up?, down?);
        Ok(pairs(remove_pess, remove_opt, add_pess, add_opt))
    }

    /// $k>1$: `epochs` epochs composed at once (each block's PLD over the epochs, one
    /// composition per end; at most $2^{32}-1$ blocks of a size, i.e. $(k-r)\cdot$`epochs`),
    /// in a run that composes the result `copies` times (1: no further composition), answered
    /// at `target` (the statistic's end chosen as in [`RandomAllocation::epoch_in_run`]); for
    /// $k=1$ the epoch composed `epochs` times.
    pub fn epochs_in_run(
        &self,
        epochs: u64,
        opts: &PldOptions,
        copies: u64,
        target: Focus,
    ) -> Result<[PldPair; 2], ParamError> {
        at_least("epochs", epochs, 1)?;
        if self.num_selected > 1 {
            return self.blocks_with(epochs, opts, Some((copies, target)));
        }
        let mut dirs = self.epoch(opts)?;
        if epochs > 1 {
            for p in &mut dirs {
                *p = PldPair {
                    pessimistic: p.pessimistic.compose(epochs, opts)?,
                    optimistic: p.optimistic.compose(epochs, opts)?,
                };
            }
        }
        Ok(dirs)
    }

    /// An optimistic PLD of one epoch under replace-one: the antipodal pair (the record's
    /// gradient $+C$ against $-C$ in the same $k$ steps, the others' 0), through the statistic
    /// $S'$ (module `statistic`, `antipodal_pld`); realised and symmetric, so a lower end of either
    /// order. `None` where the statistic's lattice does not fit (small σ) or $k=t$ (every step:
    /// the Gaussian mechanism, which callers answer exactly).
    pub fn antipodal_epoch(&self, opts: &PldOptions) -> Result<Option<Pld>, ParamError> {
        opts.check()?;
        let (k, t) = (self.num_selected, self.num_steps);
        if k == t {
            return Ok(None);
        }
        match statistic::antipodal_pld(self.sigma, k, t, opts) {
            Ok(p) => Ok(Some(p)),
            Err(e) if e.is_too_fine() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// $k>1$, `epochs` epochs at once (one composition per PLD, so one tilt: a composition of
    /// compositions tilted differently inflates the round-off envelope): the pessimistic PLDs
    /// (both directions) and the optimistic remove PLD from the blocks, $E(k-r)$ of
    /// $b=\lfloor t/k\rfloor$ steps and $Er$ of $b+1$, each one of its steps; the optimistic
    /// remove PLD moved down by $E$ times $-\ln p_{\rm blk}$ (rounded up to the grid); the
    /// optimistic add PLD from $k$ times the loss of one of $t$ steps (Maclaurin), computed on
    /// the grid $\Delta_L/k$ with the sum's spacing of the grid $\Delta_L$, moved one cell down (the grids' floating-point mismatch) and
    /// composed over the epochs.
    ///
    /// The statistic $S'$ ([`statistic`]) gives the other lower end of each direction where one
    /// lattice holds it: with `Some((copies, target))`, of the two, the one larger at `target`
    /// after `copies` more compositions is kept ([`statistic::larger_in_run`]); with `None` it
    /// is left out (the blocks' own ends, which the tests check apart).
    fn blocks_with(
        &self,
        epochs: u64,
        opts: &PldOptions,
        statistic: Option<(u64, Focus)>,
    ) -> Result<[PldPair; 2], ParamError> {
        let (t, k) = (self.num_steps, self.num_selected);
        let (b, r) = (t / k, t % k);
        let times = |n: u64| {
            n.checked_mul(epochs)
                .ok_or_else(|| ParamError::new("epochs", epochs, "at most 2^64 / k blocks"))
        };
        let (small_count, large_count) = (times(k - r)?, times(r)?);
        let small = Self::one_of(self.sigma, b).epoch(opts)?;
        let large = match r {
            0 => None,
            _ => Some(Self::one_of(self.sigma, b + 1).epoch(opts)?),
        };
        let composed = |pick: &dyn Fn(&[PldPair; 2]) -> &Pld| {
            let mut groups = vec![(pick(&small).clone(), small_count)];
            if let Some(large) = &large {
                groups.push((pick(large).clone(), large_count));
            }
            compose_plds(&groups, opts)
        };
        let remove_pess = composed(&|p| &p[0].pessimistic)?;
        let add_pess = composed(&|p| &p[1].pessimistic)?;
        let remove_opt = composed(&|p| &p[0].optimistic)?;
        let (remove_opt, add_opt) = if k == t {
            // Every step: the blocks are the steps themselves, exactly the run (p_blk = 1).
            (remove_opt, composed(&|p| &p[1].optimistic)?)
        } else {
            let cells = block_share_cells(t, k, epochs, opts.interval)?;
            let fine = PldOptions {
                interval: opts.interval / k as f64,
                ..*opts
            };
            let [_, one_add] = Self::one_of(self.sigma, t)
                .epoch_with(&fine, SPACING * opts.interval / t as f64)?;
            let add_opt = one_add.optimistic.rescaled(opts.interval).shifted(-1)?;
            let add_opt = match epochs {
                1 => add_opt,
                _ => add_opt.compose(epochs, opts)?,
            };
            let remove_opt = remove_opt.shifted(-cells)?;
            // The statistic S' where one lattice holds it, and of the two lower ends of each
            // direction the one larger in the run (the other where the statistic's composition
            // is too fine for the point budget).
            let Some((copies, target)) = statistic else {
                return Ok(pairs(remove_pess, remove_opt, add_pess, add_opt));
            };
            match statistic::lower_plds(self.sigma, k, t, opts) {
                Ok([remove, add]) => {
                    let pick = |stat: Pld, other: Pld| -> Result<Pld, ParamError> {
                        let stat = match epochs {
                            1 => Ok(stat),
                            _ => stat.compose(epochs, opts),
                        };
                        Ok(match stat {
                            Ok(stat) => statistic::larger_in_run(stat, other, copies, target, opts),
                            Err(e) if e.is_too_fine() => other,
                            Err(e) => return Err(e),
                        })
                    };
                    (pick(remove, remove_opt)?, pick(add, add_opt)?)
                }
                Err(e) if e.is_too_fine() => (remove_opt, add_opt),
                Err(e) => return Err(e),
            }
        };
        Ok(pairs(remove_pess, remove_opt, add_pess, add_opt))
    }
}

/// `[remove, add]` from their pessimistic and optimistic PLDs.
fn pairs(remove_pess: Pld, remove_opt: Pld, add_pess: Pld, add_opt: Pld) -> [PldPair; 2] {
    [
        PldPair {
            pessimistic: remove_pess,
            optimistic: remove_opt,
        },
        PldPair {
            pessimistic: add_pess,
            optimistic: add_opt,
        },
    ]
}

/// An upper bound on $-\ln p_{\rm blk}=\ln\binom tk-(k-r)\ln b-r\ln(b+1)\ge0$
/// ($b=\lfloor t/k\rfloor$, $r=t-kb$): $p_{\rm blk}$ is the share of the $k$-subsets of the
/// $t$ steps with one step in each block. Each ratio $(t-i)/(i+1)$ is rounded (relative $u$,
/// so its logarithm is off by at most $u+u\lvert\ln\rvert$ after its own rounding), and a
/// sum of $n$ terms is off by at most $(n-1)u$ times the sum of their absolute values: with
/// $A=\sum_i\lvert\ln\frac{t-i}{i+1}\rvert+\lvert\text{blocks}\rvert$, the error is below
/// $(2k+4)u(A+k)$, which is added.
fn ln_one_over_block_share(t: u64, k: u64) -> f64 {
    let (b, r) = (t / k, t % k);
    let terms = (0..k).map(|i| ((t - i) as f64 / (i + 1) as f64).ln());
    let (ln_binomial, absolute) = terms.fold((0.0, 0.0), |(s, a), x| (s + x, a + x.abs()));
    let blocks = (k - r) as f64 * (b as f64).ln() + r as f64 * ((b + 1) as f64).ln();
    let x = (ln_binomial - blocks).max(0.0);
    let kf = k as f64;
    x + (2.0 * kf + 4.0) * U * (absolute + blocks.abs() + kf)
}

/// The grid cells the remove lower end of `epochs` epochs moves down: $E$ times
/// $\lceil-\ln p_{\rm blk}/\Delta_L\rceil$ (the division's rounding covered), an error past
/// $2^{62}$.
fn block_share_cells(t: u64, k: u64, epochs: u64, interval: f64) -> Result<i64, ParamError> {
    let per_epoch = (ln_one_over_block_share(t, k) / interval * (1.0 + 4.0 * U)).ceil();
    let cells = per_epoch * epochs as f64;
    if !(cells < (1u64 << 62) as f64) {
        return Err(ParamError::new(
            "epochs",
            epochs,
            "fewer: the remove lower end's move runs past 2^62 grid cells",
        ));
    }
    Ok(per_epoch as i64 * epochs as i64)
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
    ra.epochs_in_run(epochs, &opts, 1, opts.focus)
}

/// A bound on the relative error of [`norm_cdf`] at `z` (`erfc` to $8u$, and the rounding of
/// its argument $z/\sqrt2$, relative $2u$, moves $\ln\operatorname{erfc}$ by at most $2z^2u$
/// more for $|z|\ge1$).
fn cdf_error(z: f64) -> f64 {
    (10.0 + 2.0 * z * z) * U
}

/// The smallest $z\ge0$ (to $2^{-74}$) with $\Phi(-z)\le$ `tail`.
fn z_of_tail(tail: f64) -> f64 {
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
    hi
}

/// The two lattices of a term (see the module documentation): the fine cells
/// $((j-1)h,jh]$, $j=1..J$, below the threshold $a=Jh$, and the coarse cells
/// $((k-1)H,kH]$, $k=J_H+1..N_H$, above it, $H=Kh$, $J=J_HK$; above $N_HH$ the truncated tail.
#[derive(Debug, Clone, Copy)]
struct Split {
    h: f64,
    /// $K$ and $H=Kh$.
    k: u64,
    coarse: f64,
    /// $J_H$ ($J=J_HK$) and $N_H$.
    j_coarse: u64,
    n_coarse: u64,
    /// $L$: the small terms' octave levels above level 0 (the threshold $a=2^La_0$; level
    /// $\ell\ge1$ on the lattice $2^\ell h$); $2^{L+1}$ divides $K$ when $L\ge1$.
    levels: u32,
}

impl Split {
    /// The threshold $a$: the smallest (to the bisection) with
    /// $(t-1)P(W>a)+P(W_1>a)\le\sqrt{2\cdot\text{budget}/4}$ (then two or more large terms have
    /// probability at most budget/4), or $\le\text{budget}/4$ where that at most doubles $a$,
    /// rounded up to the coarse lattice; $H$ the largest multiple of
    /// $h$ with $2H\le a\Delta_L$ (with `octaves` and $a>4$: of $2^{L+1}h$, $L$ levels); $N_H$ from the truncations, budget/8 for the shifted term
    /// and budget/$(8t)$ for each other.
    fn new(
        sigma: f64,
        c: f64,
        t: u64,
        h: f64,
        interval: f64,
        budget: f64,
        octaves: bool,
    ) -> Result<Self, ParamError> {
        let tf = t as f64;
        // ln sum_i P(W_i > e^x / t): the shifted term and t - 1 plain ones.
        let ln_large = |x: f64| {
            let s = log_norm_cdf(-sigma * (x - c));
            if t == 1 {
                return s;
            }
            let p = (tf - 1.0).ln() + log_norm_cdf(-sigma * (x + c));
            let m = s.max(p);
            m + ((s - m).exp() + (p - m).exp()).ln()
        };
        // ln t a for the target: the smallest x (to the bisection) with ln_large(x) <= target.
        let threshold = |ln_target: f64| {
            let (mut lo, mut hi) = (-c - 40.0 / sigma, c + 40.0 / sigma);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if ln_large(mid) <= ln_target {
                    hi = mid
                } else {
                    lo = mid
                }
            }
            hi
        };
        // M = 1 (mass about sum_i p_i) is where the others' law is replaced by one ordered
        // with it (a loss error of order 1/(ta), large when a is near the mean 1/t of a term:
        // large sigma); where it costs at most twice the fine cells, sum_i p_i <= budget/4
        // instead, so that M = 1 weighs no more than the tail budget.
        let (loose, strict) = (
            threshold((0.5 * budget).sqrt().ln()),
            threshold((0.25 * budget).ln()),
        );
        let a = if strict - loose <= std::f64::consts::LN_2 {
            strict
        } else {
            loose
        }
        .exp()
            / tf;
        let w_max = |c_term: f64, tail: f64| (z_of_tail(tail) / sigma + c_term).exp() / tf;
        let top = w_max(c, 0.125 * budget).max(w_max(-c, 0.125 * budget / tf));
        let mut k = (a * interval / (2.0 * h))
            .floor()
            .clamp(1.0, (1u64 << 40) as f64) as u64;
        // Octave levels: the fewest with a / 2^L <= LEVEL_TOP, while 2^(L+1) divides K (K
        // rounded down to a multiple of it).
        let mut levels = 0u32;
        while octaves && a > LEVEL_TOP * 2f64.powi(levels as i32) && levels < 40 {
            levels += 1;
        }
        while levels > 0 && k < 2u64 << levels {
            levels -= 1;
        }
        if levels > 0 {
            k &= !((2u64 << levels) - 1);
        }
        let coarse = k as f64 * h;
        let j_coarse = (a / coarse).ceil().max(1.0);
        let n_coarse = (top / coarse).ceil().max(j_coarse);
        let fine = j_coarse * (k >> levels) as f64;
        // Every coarse boundary index n K (and J = J_H K) must be exact in f64 and u64.
        if !(fine <= MAX_CELLS as f64
            && n_coarse - j_coarse <= MAX_CELLS as f64
            && n_coarse * k as f64 <= (1u64 << 53) as f64)
        {
            return Err(ParamError::too_fine(
                interval,
                format_args!(
                    "one term of the random allocation sum needs {fine} fine and {} coarse \
                     lattice points, more than 2^27",
                    n_coarse - j_coarse
                ),
            ));
        }
        Ok(Self {
            h,
            k,
            coarse,
            j_coarse: j_coarse as u64,
            n_coarse: n_coarse as u64,
            levels,
        })
    }

    /// Whether the $t$-fold composition of one plain term's small cells on one lattice
    /// (`levels` = 0) needs at most [`SINGLE_POINTS`] points (its Chernoff window at `tail`).
    fn fits(&self, sigma: f64, c: f64, t: u64, opts: &PldOptions) -> Result<bool, ParamError> {
        let limit = SINGLE_POINTS.min(opts.max_points);
        if self.j_fine() > limit as u64 {
            return Ok(false);
        }
        let plain = Small::new(sigma, -c, t, self, 0)?.law(true, false);
        Ok(plain.window(t, opts.tail_mass, 0.0).fft_len <= limit)
    }

    /// $J$, the number of fine cells below the threshold on the lattice $h$.
    fn j_fine(&self) -> u64 {
        self.j_coarse * self.k
    }

    /// $K/2^L$: the coarse spacing $H$ in cells of the top level's lattice $2^Lh$.
    fn k_top(&self) -> u64 {
        self.k >> self.levels
    }

    /// $J_0=a_0/h$, the cells of every level (level $\ell$: $J_0$ cells of $2^\ell h$ up to
    /// $a_\ell=2^\ell a_0$; even when $L\ge1$).
    fn j_level(&self) -> u64 {
        self.j_coarse * self.k_top()
    }

    /// The lattice spacing $2^\ell h$ of level $\ell$.
    fn spacing(&self, level: u32) -> f64 {
        self.h * 2f64.powi(level as i32)
    }

    /// The threshold $a=Jh$ (the number the cells use).
    fn threshold(&self) -> f64 {
        self.j_fine() as f64 * self.h
    }
}

/// One term $W=\frac1te^{Z/\sigma+c}$ above the threshold: the masses of its coarse cells, of
/// the tail above the coarse lattice, and bounds on the sums of their absolute errors (the
/// small cells are per level: [`Small`]).
struct Term {
    large: Vec<f64>,
    above: f64,
    large_error: f64,
    /// An upper bound on $P(W>a)$.
    p_large: f64,
}

impl Term {
    fn new(sigma: f64, c: f64, t: u64, split: &Split) -> Result<Self, ParamError> {
        let z = z_of(sigma, c, t);
        let h = split.h;
        let k = split.k;
        // The coarse boundaries (k' K) h: the first is the top level's last, bit for bit.
        let (large, large_error, z_top) =
            cells(split.j_coarse, split.n_coarse, |i| z((i * k) as f64 * h))?;
        let above = norm_cdf(-z_top);
        let large_error = large_error + above * cdf_error(z_top);
        let n = large.len() as f64 + 1.0;
        let p_large =
            (large.iter().sum::<f64>() + above) * (1.0 + (n + 2.0) * U) + large_error * 1.01;
        Ok(Self {
            large,
            above,
            large_error,
            p_large: p_large.min(1.0),
        })
    }

    /// The coarse cells of $W>a$ as (offset, masses) on the coarse lattice: at their tops
    /// (`up`; the tail above is left out) or at their bottoms (the tail clamped to the top
    /// point $N_H$).
    fn large_law(&self, up: bool, split: &Split) -> (i64, Vec<f64>) {
        if up {
            (split.j_coarse as i64 + 1, self.large.clone())
        } else {
            let mut p = self.large.clone();
            p.push(self.above);
            (split.j_coarse as i64, p)
        }
    }
}

/// $z(w)=\sigma(\ln(tw)-c)$ of a lattice value $w$ of the term $\frac1te^{Z/\sigma+c}$
/// ($-\infty$ at $w=0$).
fn z_of(sigma: f64, c: f64, t: u64) -> impl Fn(f64) -> f64 {
    let tf = t as f64;
    move |w: f64| {
        if w <= 0.0 {
            f64::NEG_INFINITY
        } else {
            sigma * ((tf * w).ln() - c)
        }
    }
}

/// One term's small cells on one level: $((j-1)s,js]$, $j=1..J_0$, $s=2^\ell h$, the first
/// `lower` of them (up to $a_{\ell-1}=\frac12J_0s$ on a level $\ell\ge1$, none on level 0)
/// with their error bound apart.
struct Small {
    spacing: f64,
    masses: Vec<f64>,
    lower: usize,
    lower_error: f64,
    error: f64,
}

impl Small {
    fn new(sigma: f64, c: f64, t: u64, split: &Split, level: u32) -> Result<Self, ParamError> {
        let z = z_of(sigma, c, t);
        let (spacing, j) = (split.spacing(level), split.j_level());
        let at = |j: u64| z(j as f64 * spacing);
        if level == 0 {
            let (masses, error, _) = cells(0, j, at)?;
            return Ok(Self {
                spacing,
                masses,
                lower: 0,
                lower_error: 0.0,
                error,
            });
        }
        let (mut masses, lower_error, _) = cells(0, j / 2, at)?;
        let (upper, upper_error, _) = cells(j / 2, j, at)?;
        let lower = masses.len();
        masses.extend(upper);
        Ok(Self {
            spacing,
            masses,
            lower,
            lower_error,
            error: lower_error + upper_error,
        })
    }

    /// The law of the term on the event $W\le a_\ell$ (`lower`: $W\le a_{\ell-1}$), a
    /// sub-probability measure on the level's lattice, each cell at its top (`up`) or bottom,
    /// carrying the mass error as its envelope.
    fn law(&self, up: bool, lower: bool) -> Pld {
        let (masses, error) = if lower {
            (&self.masses[..self.lower], self.lower_error)
        } else {
            (&self.masses[..], self.error)
        };
        let mut pld = Pld::exact(
            self.spacing,
            i64::from(up),
            masses.to_vec(),
            0.0,
            Rounding::Pessimistic,
        );
        if error > 0.0 {
            pld.roundoff = super::pld::RoundOff {
                relative: 0.0,
                ln_scale: error.ln(),
                tilt: 0.0,
            };
        }
        pld
    }
}

/// The masses of the cells $(b_{j-1},b_j]$, $j=$ `from`$+1..=$ `to`, given $z(b_j)$ (`z_at`),
/// a bound on the sum of their absolute errors, and $z(b_{\text{to}})$.
fn cells(
    from: u64,
    to: u64,
    z_at: impl Fn(u64) -> f64,
) -> Result<(Vec<f64>, f64, f64), ParamError> {
    let mut masses = Vec::with_capacity((to - from) as usize);
    let mut error = 0.0;
    let mut za = z_at(from);
    for j in from + 1..=to {
        if j % (1 << 16) == 0 {
            crate::cancel::check()?;
        }
        let zb = z_at(j);
        let (m, e) = cell(za, zb);
        masses.push(m);
        error += e;
        za = zb;
    }
    error += masses.len() as f64 * 2.0 * f64::MIN_POSITIVE;
    Ok((masses, error * (1.0 + 1e-6), za))
}

/// What one epoch's four PLDs are built from.
struct Epoch {
    t: u64,
    sigma: f64,
    /// $c=1/(2\sigma^2)$: the shifted term is $\frac1te^{Z/\sigma+c}$, a plain one has $-c$.
    c: f64,
    split: Split,
    shifted: Term,
    plain: Term,
    interval: f64,
}

/// The small terms' laws, each term rounded the same way: on each level $\ell$ the law of the
/// sum on the event $E_\ell$ that the largest term is in $(a_{\ell-1},a_\ell]$ (level 0: every
/// term at most $a_0$), for remove ($t-1$ plain terms and the shifted one) and add ($t$ plain
/// ones); and on the top level's lattice, $G$ ($t-1$ plain terms, all small) and $F$ ($G$ and
/// the shifted term, all small). Window tails and envelopes are carried as `infinity_mass`
/// (pessimistic bookkeeping for both uses: see [`Losses`]).
struct Sums {
    g: Pld,
    /// $F$ when $L\ge1$ (when $L=0$ it is `remove[0]`).
    f_top: Option<Pld>,
    remove: Vec<Pld>,
    add: Vec<Pld>,
}

impl Sums {
    fn f(&self) -> &Pld {
        self.f_top.as_ref().unwrap_or(&self.remove[0])
    }
}

/// $G$, $F$ and the add law of all terms small on one level's lattice.
struct Restricted {
    g: Pld,
    remove: Pld,
    add: Pld,
}

/// The law of the sum on $E_\ell$ from the laws on $\lbrace $every term $\le a_\ell\rbrace $ (`all`) and
/// on $\lbrace $every term $\le a_{\ell-1}\rbrace $ (`lower`), on one lattice: their difference, exact as
/// measures (the events are nested, and a term's rounding to the lattice keeps it on the same
/// side of $a_{\ell-1}$ and $a_\ell$, which are lattice points), and 0 below $a_{\ell-1}$
/// (`floor`, in cells: on $E_\ell$ the sum is at least the largest term, rounded either way).
/// The computed difference is within the two laws' errors of the true one, their envelopes
/// at and above the floor (below it the result, 0, is exact) and their misplaced (window)
/// masses; negative values are set to 0, which only brings them
/// closer; all of that, with the subtraction's rounding, is carried as `infinity_mass`.
fn difference(all: &Pld, lower: &Pld, floor: i64) -> Pld {
    // The envelope of the entries at and above the floor (below it the result is exact: 0).
    let above = |p: &Pld| {
        let first = (floor - p.offset).clamp(0, p.pmf.len() as i64) as usize;
        let tail = &p.pmf[first..];
        let total = tail.iter().sum::<f64>() * (1.0 + (tail.len() as f64 + 2.0) * U);
        (
            total,
            p.roundoff.relative * total * (1.0 + 1e-9) + p.envelope_from(first),
        )
    };
    let ((t_all, e_all), (_, e_lower)) = (above(all), above(lower));
    let misplaced = all.infinity_mass
        + all.alias_mass
        + e_all
        + lower.infinity_mass
        + lower.alias_mass
        + e_lower
        + 2.0 * U * t_all;
    let start = floor.max(all.offset);
    let end = all.offset + all.pmf.len() as i64;
    let pmf: Vec<f64> = (start..end.max(start))
        .map(|i| {
            let j = i - lower.offset;
            let below = if j >= 0 && (j as usize) < lower.pmf.len() {
                lower.pmf[j as usize]
            } else {
                0.0
            };
            (all.pmf[(i - all.offset) as usize] - below).max(0.0)
        })
        .collect();
    let mut out = Pld::exact(all.interval, start, pmf, 0.0, Rounding::Pessimistic);
    out.infinity_mass = misplaced * (1.0 + 8.0 * U);
    out
}

impl Epoch {
    /// $G$, $F$ and the add law, every term's law given (`plain`, `shifted`), checked against
    /// the point budget.
    fn restricted(
        &self,
        plain: &Pld,
        shifted: &Pld,
        opts: &PldOptions,
    ) -> Result<Restricted, ParamError> {
        let g = match self.t - 1 {
            0 => Pld::exact(plain.interval, 0, vec![1.0], 0.0, Rounding::Pessimistic),
            1 => plain.clone(),
            n => plain.compose_with(n, opts, 0.0)?,
        };
        // The convolution's FFT is held to the point budget too.
        let points = (g.pmf.len() + shifted.pmf.len() - 1).next_power_of_two();
        if points > opts.max_points {
            return Err(ParamError::too_fine(
                opts.interval,
                format_args!(
                    "the composition needs {points} points, more than {}",
                    opts.max_points
                ),
            ));
        }
        let remove = g.convolve(shifted, 0.0)?;
        let add = plain.compose_with(self.t, opts, 0.0)?;
        Ok(Restricted { g, remove, add })
    }

    fn sums(&self, up: bool, opts: &PldOptions) -> Result<Sums, ParamError> {
        let levels = self.split.levels;
        let small = |c: f64, level: u32| Small::new(self.sigma, c, self.t, &self.split, level);
        let (plain, shifted) = (small(-self.c, 0)?, small(self.c, 0)?);
        let base = self.restricted(&plain.law(up, false), &shifted.law(up, false), opts)?;
        if levels == 0 {
            return Ok(Sums {
                g: base.g,
                f_top: None,
                remove: vec![base.remove],
                add: vec![base.add],
            });
        }
        let (mut remove, mut add) = (vec![base.remove], vec![base.add]);
        let mut top = None;
        for level in 1..=levels {
            let (plain, shifted) = (small(-self.c, level)?, small(self.c, level)?);
            let (p, q) = (plain.law(up, false), shifted.law(up, false));
            let all = self.restricted(&p, &q, opts)?;
            let (p, q) = (plain.law(up, true), shifted.law(up, true));
            let lower = self.restricted(&p, &q, opts)?;
            let floor = plain.lower as i64;
            remove.push(difference(&all.remove, &lower.remove, floor));
            add.push(difference(&all.add, &lower.add, floor));
            if level == levels {
                top = Some(all);
            }
        }
        let top = top.expect("levels >= 1");
        Ok(Sums {
            g: top.g,
            f_top: Some(top.remove),
            remove,
            add,
        })
    }

    /// The remove PLD: pessimistic from the terms rounded up, optimistic from them rounded down.
    fn remove(&self, sums: &Sums, up: bool) -> Result<Pld, ParamError> {
        let mut acc = Losses::new(self.interval, true, up);
        // No large term.
        for law in &sums.remove {
            acc.add(law, 1.0)?;
        }
        // One large term: the shifted one (the others are G), or one of the t - 1 plain ones.
        let tm1 = (self.t - 1) as f64;
        let (ls, lp) = (&self.shifted, &self.plain);
        if up {
            // The others rounded up are at most F (one more, independent, small plain term).
            let (offset, masses) = ls.large_law(true, &self.split);
            acc.one_large(
                &sums.g,
                offset,
                &masses,
                ls.large_error,
                1.0,
                &self.split,
                true,
            )?;
            acc.infinity += ls.above + ls.large_error;
            if self.t > 1 {
                let w = tm1 / (1.0 - lp.p_large) * (1.0 + 4.0 * U);
                let (offset, masses) = lp.large_law(true, &self.split);
                acc.one_large(
                    sums.f(),
                    offset,
                    &masses,
                    lp.large_error,
                    w,
                    &self.split,
                    true,
                )?;
                acc.infinity += w * (lp.above + lp.large_error);
            }
            // Two or more large terms: at most sum_{i<j} p_i p_j.
            let (p, ps) = (lp.p_large, ls.p_large);
            acc.infinity += (0.5 * tm1 * (tm1 - 1.0) * p * p + tm1 * p * ps) * (1.0 + 8.0 * U);
        } else {
            // The others rounded down are at least G (the shifted term, small, is
            // stochastically larger than a plain one): the two cases share G.
            let w = tm1 * (1.0 - ls.p_large) * (1.0 - 4.0 * U);
            let (offset, s) = ls.large_law(false, &self.split);
            let (_, p) = lp.large_law(false, &self.split);
            let masses: Vec<f64> = s.iter().zip(&p).map(|(a, b)| a + w * b).collect();
            let total: f64 = masses.iter().sum();
            let error = ls.large_error + w * lp.large_error + 4.0 * U * total;
            acc.one_large(&sums.g, offset, &masses, error, 1.0, &self.split, false)?;
        }
        Ok(acc.finish())
    }

    /// The add PLD: optimistic from the terms rounded up, pessimistic from them rounded down.
    fn add(&self, sums: &Sums, up: bool) -> Result<Pld, ParamError> {
        let pess = !up;
        let mut acc = Losses::new(self.interval, false, pess);
        // No large term.
        for law in &sums.add {
            acc.add(law, 1.0)?;
        }
        // One large term, one of t: the others are G.
        let tf = self.t as f64;
        let lp = &self.plain;
        let (offset, masses) = lp.large_law(up, &self.split);
        acc.one_large(
            &sums.g,
            offset,
            &masses,
            lp.large_error,
            tf,
            &self.split,
            up,
        )?;
        if pess {
            // Two or more (at most C(t, 2) p^2): S > a, loss below -ln a (optimistic: dropped,
            // as is the tail above the coarse lattice, S = +inf).
            let p = lp.p_large;
            acc.atom(
                -self.split.threshold().ln(),
                0.5 * tf * (tf - 1.0) * p * p * (1.0 + 8.0 * U),
            );
            self.spread_zero(&mut acc);
        }
        Ok(acc.finish())
    }

    /// The pessimistic add PLD's mass at the lattice value $S'=0$ (every term rounded down
    /// to 0: the event $\lbrace \max_iW_i\le h\rbrace $, as the lowest cell is $(0,h]$), placed by the
    /// largest term instead of at $+\infty$: $S\ge\max_iW_i$, so on $\lbrace \max_iW_i\in
    /// (x_{k+1},x_k]\rbrace $, $x_k=2^{-k/16}h$, the loss $-\ln S$ is below $-\ln x_{k+1}$. With
    /// $\hat G_k\ge P(\max_iW_i\le x_k)=\Phi(z(x_k))^t$ (rounded up) and $m$ the mass at
    /// $S'=0$, the masses $\min(m,\hat G_k)-\min(m,\hat G_{k+1})$ at $-\ln x_{k+1}$ and
    /// $\min(m,\hat G_K)$ at $+\infty$ have a distribution function in $x$ at least the true
    /// one's on that event ($\le\min(m,P(\max\le x))$), so the largest term they stand for is
    /// stochastically smaller and the loss larger: pessimistic. $K$ is the first with $\hat
    /// G_K\le10^{-6}m$ or $x_K<10^{-300}$. (At $t=2$, $\sigma=0.5$ the mass is $3\cdot10^{-6}$
    /// an epoch, which at $+\infty$ made the upper end of ten epochs infinite at $\delta=10^{-5}$;
    /// the bound is loose by at most $\ln t+\ln2/16$ in the loss, as $S\le t\max_iW_i$.)
    fn spread_zero(&self, acc: &mut Losses) {
        /// $x_{k+1}/x_k=2^{-1/16}$: each cell costs at most $\ln2/16$ in the loss.
        const STEP_DOWN: f64 = 0.957_603_280_698_573_7;
        let m = std::mem::take(&mut acc.zero);
        if m <= 0.0 {
            return;
        }
        let z = z_of(self.sigma, -self.c, self.t);
        let tf = self.t as f64;
        // Phi(z)^t rounded up: ln Phi to its relative error, times t, then exp.
        // z moved up by its own rounding (ln, +c, times sigma), then ln Phi to its relative
        // error and its own rounding, times t, then exp.
        let c_abs = self.c.abs();
        let g = |x: f64| {
            let zx = z(x);
            let zx = zx + 8.0 * U * (zx.abs() + self.sigma * ((tf * x).ln().abs() + c_abs));
            let ln_phi = log_norm_cdf(zx);
            let ln = tf * ln_phi + tf * (cdf_error(zx) + 2.0 * U * ln_phi.abs()) * 1.01 + 4.0 * U;
            ln.exp() * (1.0 + 4.0 * U)
        };
        let (mut x, mut below) = (self.split.h, m);
        while below > 1e-6 * m && x > 1e-300 {
            let next = x * STEP_DOWN;
            let g_next = g(next).min(m);
            acc.atom(-next.ln(), below - g_next);
            below = g_next;
            x = next;
        }
        // The differences' rounding: the placed masses may fall short of m by 2u m.
        acc.infinity += below + 2.0 * U * m;
    }
}

/// The sum of the absolute errors of a computed lattice law with tilt-0 envelope `roundoff`
/// (relative $\rho$, absolute $a_s$): $\rho\sum_s\hat p_s+\sqrt n\lVert a\rVert_2$.
fn envelope(law: &Pld, total: f64) -> f64 {
    let r = &law.roundoff;
    r.relative * total * (1.0 + 1e-9)
        + if r.ln_scale == f64::NEG_INFINITY {
            0.0
        } else {
            debug_assert_eq!(r.tilt, 0.0);
            (law.pmf.len() as f64).sqrt() * r.ln_scale.exp() * (1.0 + 1e-9)
        }
}

/// A loss PLD under construction from lattice laws of $S$ (see the module documentation):
/// each lattice value $v$ has loss $\ln v$ (remove) or $-\ln v$ (add), rounded to the grid
/// $k\Delta_L$ up (pessimistic) or down (optimistic) with a margin for the rounding of $v$ and
/// of $\ln$. The laws' misplaced mass (window tails, envelopes: `uncertain`) goes to $+\infty$
/// (pessimistic) or is subtracted as alias mass (optimistic).
struct Losses {
    interval: f64,
    remove: bool,
    pess: bool,
    /// (grid index, mass, number of masses added into it), runs of one index merged.
    bins: Vec<(i64, f64, u64)>,
    infinity: f64,
    uncertain: f64,
    /// The mass at the lattice value $S'=0$ (pessimistic add only).
    zero: f64,
}

impl Losses {
    fn new(interval: f64, remove: bool, pess: bool) -> Self {
        Self {
            interval,
            remove,
            pess,
            bins: Vec::with_capacity(1 << 16),
            infinity: 0.0,
            uncertain: 0.0,
            zero: 0.0,
        }
    }

    /// The grid index of loss `l`, rounded in this PLD's direction.
    fn index(&self, l: f64) -> i64 {
        let margin = 4.0 * U * (1.0 + l.abs());
        if self.pess {
            let target = l + margin;
            let mut k = (target / self.interval).ceil() as i64;
            while (k as f64) * self.interval < target {
                k += 1;
            }
            k
        } else {
            let target = l - margin;
            let mut k = (target / self.interval).floor() as i64;
            while (k as f64) * self.interval > target {
                k -= 1;
            }
            k
        }
    }

    fn push(&mut self, k: i64, m: f64) {
        match self.bins.last_mut() {
            Some((last, q, n)) if *last == k => {
                *q += m;
                *n += 1;
            }
            _ => self.bins.push((k, m, 1)),
        }
    }

    /// `weight` times the lattice law `law` of $S$.
    fn add(&mut self, law: &Pld, weight: f64) -> Result<(), ParamError> {
        crate::cancel::check()?;
        let total: f64 = law.pmf.iter().sum();
        self.uncertain += weight
            * (law.infinity_mass
                + law.alias_mass
                + envelope(law, total)
                + if weight == 1.0 { 0.0 } else { 4.0 * U * total });
        for (i, p) in law.pmf.iter().enumerate() {
            if *p <= 0.0 {
                continue;
            }
            let m = weight * p;
            let v = (law.offset + i as i64) as f64 * law.interval;
            if v <= 0.0 {
                // S' = 0: loss -inf (remove, dropped); add: spread by the largest term
                // ([`Epoch::spread_zero`]) or at +inf.
                if !self.remove && self.pess {
                    self.zero += m;
                }
                continue;
            }
            let l = if self.remove { v.ln() } else { -v.ln() };
            let k = self.index(l);
            self.push(k, m);
        }
        Ok(())
    }

    /// Mass `m` at loss `l` (rounded in this PLD's direction).
    fn atom(&mut self, l: f64, m: f64) {
        let k = self.index(l);
        self.push(k, m);
    }

    /// `weight` times the law of $S$ on the events with one large term: the others' fine law
    /// `others` (rounded to the coarse lattice, `up` or down) convolved with the large term's
    /// coarse masses (`offset`, `masses`, whose absolute errors sum to at most `error`).
    #[allow(clippy::too_many_arguments)]
    fn one_large(
        &mut self,
        others: &Pld,
        offset: i64,
        masses: &[f64],
        error: f64,
        weight: f64,
        split: &Split,
        up: bool,
    ) -> Result<(), ParamError> {
        if masses.iter().all(|m| *m <= 0.0) {
            return Ok(());
        }
        let k = split.k_top() as i64;
        let to_coarse = |j: i64| {
            if up {
                (j + k - 1).div_euclid(k)
            } else {
                j.div_euclid(k)
            }
        };
        let n = others.pmf.len();
        let lo = to_coarse(others.offset);
        let hi = to_coarse(others.offset + n as i64 - 1);
        let mut pmf = vec![0.0; (hi - lo + 1) as usize];
        for (i, p) in others.pmf.iter().enumerate() {
            pmf[(to_coarse(others.offset + i as i64) - lo) as usize] += p;
        }
        let total: f64 = others.pmf.iter().sum::<f64>() * (1.0 + (n as f64 + 2.0) * U);
        // Each coarse mass is a sum of at most K + 1 fine ones (relative error (K + 1) u).
        let misplaced = others.infinity_mass
            + others.alias_mass
            + envelope(others, total)
            + total * (split.k_top() as f64 + 2.0) * U;
        let large_total =
            masses.iter().sum::<f64>() * (1.0 + (masses.len() as f64 + 2.0) * U) + error;
        let coarse_others = Pld::exact(split.coarse, lo, pmf, 0.0, Rounding::Pessimistic);
        let large = Pld::exact(
            split.coarse,
            offset,
            masses.to_vec(),
            0.0,
            Rounding::Pessimistic,
        );
        let sum = coarse_others.convolve(&large, 0.0)?;
        // |O L - Ô L̂| <= |O - Ô| |L| + |Ô| |L - L̂|.
        self.uncertain += weight * (misplaced * large_total + total * error);
        self.add(&sum, weight)
    }

    fn finish(self) -> Pld {
        let (k_lo, k_hi) = self
            .bins
            .iter()
            .fold((i64::MAX, i64::MIN), |(a, b), (k, _, _)| {
                (a.min(*k), b.max(*k))
            });
        // Every grid mass is a sum of non-negative masses: relative error at most (count - 1) u
        // (counts added over the runs that land on one index; the sum's own rounding 2u more).
        let mut counts = vec![
            0u64;
            if self.bins.is_empty() {
                1
            } else {
                (k_hi - k_lo + 1) as usize
            }
        ];
        let (offset, pmf) = if self.bins.is_empty() {
            (0, vec![0.0])
        } else {
            let mut pmf = vec![0.0; (k_hi - k_lo + 1) as usize];
            for (k, p, n) in &self.bins {
                pmf[(k - k_lo) as usize] += p;
                counts[(k - k_lo) as usize] += n;
            }
            (k_lo, pmf)
        };
        let summation: f64 = pmf
            .iter()
            .zip(&counts)
            .map(|(p, n)| p * (*n as f64 + 2.0) * U)
            .sum::<f64>()
            * 1.01;
        let uncertain = self.uncertain + summation;
        if self.pess {
            let mut out = Pld::exact(self.interval, offset, pmf, 0.0, Rounding::Pessimistic);
            out.infinity_mass = (self.infinity + uncertain).min(1.0);
            out
        } else {
            let mut out = Pld::exact(self.interval, offset, pmf, 0.0, Rounding::Optimistic);
            out.alias_mass = uncertain;
            out
        }
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

mod statistic;

#[cfg(test)]
mod tests;
