//! The PLD accountant of an [`EventDoc`]: a bracket [optimistic, pessimistic] on $\epsilon(\delta)$
//! or $\delta(\epsilon)$ of any event it covers, and a typed [`EventPldError::Unsupported`]
//! naming the JSON path of any event it does not.
//!
//! **Directions.** Under add/remove the neighbouring pairs are $(D\cup\lbrace x\rbrace,D)$ (remove) and
//! $(D,D\cup\lbrace x\rbrace)$ (add). A composition of mechanisms run on one pair of datasets keeps the same
//! direction in every component, so each direction's PLDs are composed on their own and the
//! answer is the worse of the two *after* composition:
//! $\delta(\epsilon)=\max_{d}\delta_{\bigotimes_iP_i^d\Vert\bigotimes_iQ_i^d}(\epsilon)$ (Zhu, Dong &
//! Wang 2022, composition of dominating pairs). A mechanism whose two directions have the same
//! PLD (Gaussian, Laplace, randomized response, $(\epsilon,\delta)$) is kept once
//! ([`Directions::Symmetric`]) until it meets one that has two.
//!
//! **What is covered** (anything else is `Unsupported` with its path):
//!
//! | event | add-remove | replace-one |
//! |---|---|---|
//! | `Gaussian`, `PoissonSampled(Gaussian)` | [`Dominating`] pairs of [`DpSgd`] | the same |
//! | `SampledWithoutReplacement(Gaussian)` | not covered (adding a record changes the batch) | [`Dominating`] pairs (symmetrised upper bound) |
//! | `Laplace` ($s=1$ / $s=2$) | [`mechanism_pld::laplace`] | the same |
//! | `PoissonSampled(Laplace)` | [`mechanism_pld::laplace`], two directions | not covered |
//! | `RandomizedResponse` | not covered (a replace-one mechanism) | exact atoms |
//! | `EpsilonDelta` | exact atoms | exact atoms |
//! | `PoissonSampled(EpsilonDelta)` | exact atoms, two directions | not covered |
//! | `PoissonSampled(PoissonSampled(e, q₂), q₁)` | `PoissonSampled(e, q₁q₂)` | the same |
//! | `PoissonSampled(e, 1)`, `SampledWithoutReplacement(e, n, n)` | `e` | `e` |
//! | `PoissonSampled(e, 0)`, `SampledWithoutReplacement(e, n, 0)`, `SelfComposed(e, 0)`, `Composed([])`, `NoOp` | no privacy cost | the same |
//! | `SelfComposed(e, k)` | $k$-fold FFT composition ([`Pld::compose`]); a Gaussian unit goes through [`pld::composed`] with $T=k$ | the same |
//! | `Composed(e₁, …)` | convolution of the components ([`Pld::convolve`]) | the same |
//! | `DiscreteLaplace` | exact atoms, shift $\Delta$ ([`mechanism_pld::discrete_laplace_atoms`], which derives the worst case) | exact atoms, shift $2\Delta$ |
//! | `RandomAllocation(Gaussian, k, t)` | [`random_allocation`](super::random_allocation) (remove and add; $k>1$: $k$ blocks of one of about $t/k$ steps above, a wider lower end) | the record's steps revealed above, the antipodal pair's statistic below; a whole document holding one also through [two hops](replace_one_by_two_hops) of the record's absence (upper), its add/remove lower end and the document with the allocations silenced (lower) |
//! | `SingleEpochTreeAggregation` | `SelfComposed(Gaussian, d)`, $d$ the deepest tree's depth ([`tree_depth`], which derives it) | the same |
//! | `ZCDp`, `MixtureOfGaussians`, `TruncatedSubsampledGaussian`, `SampledWithReplacement`, `RepeatAndSelect` | `Unsupported`, "metamorphic checks only: …" ([`metamorphic_only`] says why) | the same |
//!
//! The Gaussian events go through [`DpSgd::new`], [`Dominating::of`] and [`pld::composed`], so
//! the choice of dominating pairs lives in [`super::dominating`] only. An event that is exactly
//! one Gaussian mechanism (unsampled runs, trees, their compositions: [`exact_gaussian_mu`]) is
//! answered by the certified closed form of [`gaussian`] instead, without a grid.
//! A composed optimistic PLD carries the mass its window may have misplaced (`alias_mass`);
//! composing it again $k$ times multiplies that mass by at most $k$, which is added here.

use super::dominating::{Dominating, StepBound};
use super::event::{Event, EventDoc};
use super::gaussian;
use super::mechanism_pld::{self, Direction, PldPair};
use super::pair::Pair;
use super::pld::{self, Focus, Pld, PldBracket, PldOptions};
use super::{DpSgd, Neighbouring, Sampling, check_delta};
use crate::error::ParamError;

/// Why an event cannot be accounted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventPldError {
    /// dpclaims has no PLD for this event under this relation.
    #[error("`{path}`: {event} is not covered by the PLD accountant under {relation}: {reason}")]
    Unsupported {
        path: String,
        event: &'static str,
        relation: &'static str,
        reason: String,
    },
    /// A parameter the accountant cannot use (a grid too fine for the event, δ out of range...).
    #[error("`{path}`: {source}")]
    Param {
        path: String,
        #[source]
        source: ParamError,
    },
}

/// The composed PLDs of an event, per direction.
#[derive(Debug, Clone, PartialEq)]
pub enum Directions {
    /// Both directions have this PLD.
    Symmetric(PldPair),
    /// `[remove, add]` under add/remove.
    Two([PldPair; 2]),
}

/// A parameter error of the whole document (path `""`).
impl From<ParamError> for EventPldError {
    fn from(source: ParamError) -> Self {
        param("")(source)
    }
}

impl EventPldError {
    /// Whether the PLD grid is too fine for the point budget (a coarser grid may do; see
    /// [`ParamError::is_too_fine`]).
    pub fn is_too_fine(&self) -> bool {
        matches!(self, EventPldError::Param { source, .. } if source.is_too_fine())
    }
}

fn relation_name(r: Neighbouring) -> &'static str {
    match r {
        Neighbouring::AddRemove => "add-remove",
        Neighbouring::ReplaceOne => "replace-one",
    }
}

#[derive(Clone, Copy)]
struct Walker<'a> {
    relation: Neighbouring,
    opts: &'a PldOptions,
    /// How many times the event being walked is composed in the document (the product of the
    /// counts of the `SelfComposed` above it): a random allocation's choice of its lower end
    /// looks at the run ([`RandomAllocation::epoch_in_run`](super::random_allocation::RandomAllocation::epoch_in_run);
    /// for a `SelfComposed` of the allocation, the counts above that one, to
    /// [`RandomAllocation::epochs_in_run`](super::random_allocation::RandomAllocation::epochs_in_run)).
    copies: u64,
    /// The document's focus (before the walk's one tilt replaced it in `opts`).
    target: Focus,
}

fn param(path: &str) -> impl Fn(ParamError) -> EventPldError + '_ {
    move |source| EventPldError::Param {
        path: path.to_string(),
        source,
    }
}

fn pair_map(
    a: &PldPair,
    b: &PldPair,
    f: impl Fn(&Pld, &Pld) -> Result<Pld, ParamError>,
) -> Result<PldPair, ParamError> {
    Ok(PldPair {
        pessimistic: f(&a.pessimistic, &b.pessimistic)?,
        optimistic: f(&a.optimistic, &b.optimistic)?,
    })
}

impl Directions {
    /// The PLDs of running `self` and then `other` (per direction).
    pub fn convolve(&self, other: &Directions, tilt: f64) -> Result<Directions, ParamError> {
        let conv = |a: &PldPair, b: &PldPair| pair_map(a, b, |x, y| x.convolve(y, tilt));
        Ok(match (self, other) {
            (Directions::Symmetric(a), Directions::Symmetric(b)) => {
                Directions::Symmetric(conv(a, b)?)
            }
            (Directions::Symmetric(a), Directions::Two([b0, b1]))
            | (Directions::Two([b0, b1]), Directions::Symmetric(a)) => {
                Directions::Two([conv(a, b0)?, conv(a, b1)?])
            }
            (Directions::Two([a0, a1]), Directions::Two([b0, b1])) => {
                Directions::Two([conv(a0, b0)?, conv(a1, b1)?])
            }
        })
    }

    /// The `count`-fold composition (per direction); `count >= 1`.
    pub fn compose(&self, count: u64, opts: &PldOptions) -> Result<Directions, ParamError> {
        // (`compose` carries `count` times the input's misplaced mass.)
        let one = |p: &PldPair| -> Result<PldPair, ParamError> {
            Ok(PldPair {
                pessimistic: p.pessimistic.compose(count, opts)?,
                optimistic: p.optimistic.compose(count, opts)?,
            })
        };
        Ok(match self {
            Directions::Symmetric(p) => Directions::Symmetric(one(p)?),
            Directions::Two([a, b]) => Directions::Two([one(a)?, one(b)?]),
        })
    }

    /// Whether this is the PLD of an event without privacy cost (all mass at loss 0).
    fn is_identity(&self) -> bool {
        let unit = |p: &Pld| {
            p.offset == 0 && p.pmf == [1.0] && p.infinity_mass == 0.0 && p.alias_mass == 0.0
        };
        matches!(self, Directions::Symmetric(p) if unit(&p.pessimistic) && unit(&p.optimistic))
    }

    fn all(&self) -> Vec<&PldPair> {
        match self {
            Directions::Symmetric(p) => vec![p],
            Directions::Two([a, b]) => vec![a, b],
        }
    }

    /// $\epsilon(\delta)$: the worst direction's optimistic and pessimistic values.
    pub fn epsilon(&self, delta: f64) -> Result<PldBracket, ParamError> {
        check_delta(delta)?;
        self.bracket(|p| p.epsilon(delta))
    }

    /// $\delta(\epsilon)$: the worst direction's optimistic and pessimistic values.
    pub fn delta(&self, epsilon: f64) -> Result<PldBracket, ParamError> {
        if !epsilon.is_finite() {
            return Err(ParamError::new("epsilon", epsilon, "a finite number"));
        }
        self.bracket(|p| p.delta(epsilon))
    }

    /// The worst direction's ends (an error if inverted).
    fn bracket(&self, f: impl Fn(&Pld) -> f64) -> Result<PldBracket, ParamError> {
        let dirs = self.all();
        PldBracket::checked(
            PldBracket::worst(dirs.iter().map(|p| f(&p.optimistic))),
            PldBracket::worst(dirs.iter().map(|p| f(&p.pessimistic))),
        )
    }
}

/// The composed PLDs of the document's event under its relation.
pub fn plds(doc: &EventDoc, opts: &PldOptions) -> Result<Directions, EventPldError> {
    // The option checks of `pld` (interval in (0, 1], tail mass) apply here too.
    if !(opts.interval > 0.0 && opts.interval <= 1.0) {
        return Err(param("")(ParamError::new(
            "interval",
            opts.interval,
            "a grid spacing in (0, 1]",
        )));
    }
    let opts = &opts.for_steps(runs(&doc.event));
    let target = opts.focus;
    let walk = |opts: &PldOptions| {
        Walker {
            relation: doc.neighbouring,
            opts,
            copies: 1,
            target,
        }
        .walk(&doc.event, "event")
    };
    // One tilt for every composition and convolution of the tree, from a coarse untilted pass
    // (16 times the spacing): the direction that decides the answer there, and the tilt that
    // centres its composed loss at the answer's ε.
    let tilt = match opts.focus {
        Focus::Tilt(t) => t,
        // One composition is the whole event: it tilts itself for the focus.
        _ if compositions(&doc.event) <= 1 => return walk(opts),
        focus => {
            let coarse = PldOptions {
                interval: (16.0 * opts.interval).min(1.0),
                focus: Focus::Tilt(0.0),
                ..*opts
            };
            let dirs = walk(&coarse)?;
            let score = |p: &PldPair| match focus {
                Focus::Delta(d) => p.pessimistic.epsilon(d),
                Focus::Epsilon(e) => p.pessimistic.delta(e),
                Focus::Tilt(_) => 0.0,
            };
            let worst = dirs
                .all()
                .into_iter()
                .max_by(|a, b| score(a).total_cmp(&score(b)))
                .expect("at least one direction");
            let at = match focus {
                Focus::Delta(d) => match worst.pessimistic.epsilon(d) {
                    e if e.is_finite() => Focus::Epsilon(e),
                    _ => focus,
                },
                other => other,
            };
            at.tilt(&|t| worst.pessimistic.log_mgf(t))
        }
    };
    walk(&opts.focused(Focus::Tilt(tilt)))
}

/// How many compositions (FFT powers or convolutions) the walk of `event` performs, roughly:
/// 0 for one mechanism, 1 for one self-composition of one, more otherwise.
fn compositions(event: &Event) -> usize {
    match event {
        Event::PoissonSampled { event, .. } | Event::SampledWithoutReplacement { event, .. } => {
            compositions(event)
        }
        Event::SelfComposed { event, .. } => {
            if Walker::gaussian_unit(event).is_some()
                || matches!(**event, Event::SingleEpochTreeAggregation { .. })
            {
                1
            } else {
                1 + compositions(event)
            }
        }
        Event::Composed { events } => {
            let real: Vec<&Event> = events.iter().filter(|e| !is_trivial(e)).collect();
            match real.as_slice() {
                [one] => compositions(one),
                _ => 2 + real.iter().map(|e| compositions(e)).sum::<usize>(),
            }
        }
        // The Gaussian composed over the tree's depth (one composition, tilted by itself).
        Event::SingleEpochTreeAggregation { .. } => 1,
        // k > 1: the blocks of one epoch composed.
        Event::RandomAllocation { num_selected, .. } if *num_selected > 1 => 1,
        _ => 0,
    }
}

/// The number of mechanism runs in `event` (for the tail mass, [`PldOptions::for_steps`]).
fn runs(event: &Event) -> f64 {
    match event {
        Event::PoissonSampled { event, .. } | Event::SampledWithoutReplacement { event, .. } => {
            runs(event)
        }
        Event::SelfComposed { event, count } => *count as f64 * runs(event),
        Event::Composed { events } => events.iter().map(runs).sum(),
        Event::SingleEpochTreeAggregation { step_counts, .. } => tree_depth(step_counts) as f64,
        Event::RandomAllocation {
            event, num_steps, ..
        } => *num_steps as f64 * runs(event),
        Event::NoOp => 0.0,
        _ => 1.0,
    }
}

/// Whether `event` visibly releases nothing (the walk skips it: no FFT, no rounding).
fn is_trivial(event: &Event) -> bool {
    match event {
        Event::NoOp => true,
        Event::SelfComposed { count, event } => *count == 0 || is_trivial(event),
        Event::PoissonSampled {
            sampling_probability,
            event,
        } => *sampling_probability == 0.0 || is_trivial(event),
        Event::Composed { events } => events.iter().all(is_trivial),
        Event::SingleEpochTreeAggregation { step_counts, .. } => tree_depth(step_counts) == 0,
        Event::DiscreteLaplace { sensitivity, .. } => *sensitivity == 0,
        _ => false,
    }
}

/// The most tree nodes one record enters in [`Event::SingleEpochTreeAggregation`]: over trees
/// of $T_1,T_2,\dots$ steps, $\max_k\lceil\log_2(T_k+1)\rceil$ (the bit length of $T_k$).
///
/// # Derivation (the tree event is exactly a Gaussian mechanism)
/// *The tree.* A tree over the steps $1..T$ has a node for every dyadic interval
/// $\lbrace k2^j+1,\dots,(k+1)2^j\rbrace\subseteq\lbrace1,\dots,T\rbrace$ ($j\ge0$), whose value is the sum
/// of the clipped values ($\Vert g\Vert_2\le C$) of its steps plus fresh
/// $\mathcal N(0,\sigma^2C^2I)$ noise; every node is released once complete (the online tree
/// aggregation of Kairouz, McMahan, Song, Thakkar, Thakurta & Xu 2021, appendix D, whose
/// depth dp_accounting 0.6.0's RDP accountant uses: `ceil(log2(max(step_counts) + 1))`).
/// Step $t$ lies in the level-$j$ node $\lbrace\lceil t/2^j\rceil2^j-2^j+1,\dots,\lceil
/// t/2^j\rceil2^j\rbrace$, which exists iff $\lceil t/2^j\rceil2^j\le T$; as
/// $\lceil t/2^j\rceil2^j\ge2^j$ with equality at $t=1$, the number $d_t$ of nodes holding $t$ is
/// at most $\vert\lbrace j:2^j\le T\rbrace\vert=\lfloor\log_2T\rfloor+1=\lceil\log_2(T+1)\rceil$, reached at $t=1$.
///
/// *Upper bound.* Each record is in at most one step $t$ of one tree. Given the transcript
/// before step $t$ (equal in law on both datasets: no node released before $t$ holds it), the
/// record's value $g_t$ is fixed, and each of the $d_t$ later nodes holding $t$ has its mean
/// moved by $g_t$ (by $g_t$ against nothing under add/remove, the other records keeping their
/// steps — dp_accounting's `REPLACE_SPECIAL`; by $g_t-g_t'$, norm $\le2C$, under replace-one),
/// all other nodes having the same conditional law on both datasets. The loss of the transcript
/// is then exactly that of a Gaussian pair with $\mu_t=\sqrt{d_t}\Vert g_t\Vert/(\sigma C)\le
/// \sqrt d\thinspace s/\sigma$ ($s=1$ or $2$), and a mixture over the prefix of pairs dominated
/// by $G_\mu$ is dominated by $G_\mu$ (the hockey-stick divergence is an average over the
/// prefix). *Realised* by the record at step 1 of the deepest tree with $\Vert g\Vert=C$ (and
/// $-g$ under replace-one). So the tree event is exactly the Gaussian mechanism with
/// $\mu=\sqrt d\thinspace s/\sigma$, i.e. `SelfComposed(Gaussian(noise_multiplier), d)` under
/// the same relation, with no rounding of $\sigma/\sqrt d$.
///
/// (A record in one step of each of several trees is `SelfComposed`/`Composed` of tree events,
/// as dp_accounting documents. Were only the prefix sums released, a post-processing of the
/// nodes, this pair would be an upper bound only.)
pub fn tree_depth(step_counts: &[u64]) -> u64 {
    step_counts
        .iter()
        .map(|t| u64::from(u64::BITS - t.leading_zeros()))
        .max()
        .unwrap_or(0)
}

/// Why an event type has metamorphic checks only (no certified PLD bracket), if it is one.
pub fn metamorphic_only(event: &Event) -> Option<&'static str> {
    Some(match event {
        Event::ZCDp { .. } => {
            "metamorphic checks only: a zCDP event stands for every mechanism with \
             (alpha, xi + rho alpha)-RDP, and dpclaims has no dominating pair of that class: the \
             Gaussian with mu = sqrt(2 rho) is one member (a lower end, not the worst case) and an \
             RDP conversion bounds epsilon from above only, neither composes as a certified PLD"
        }
        Event::MixtureOfGaussians { .. } => {
            "metamorphic checks only: the privacy loss of sum_i p_i N(c_i, sigma^2) against \
             N(0, sigma^2) has no closed-form inverse for several sensitivities, and dpclaims has \
             no certified discretisation of it (nor a derivation of the vector-valued case's \
             reduction to norms, Choquette-Choo et al. 2023, Cor. 4.7)"
        }
        Event::TruncatedSubsampledGaussian { .. } => {
            "metamorphic checks only: no dominating pair of truncated Poisson sampling is derived \
             in dpclaims (dp_accounting's PLD is a mixture of a sensitivity-1 and a \
             sensitivity-2 pair that it calls a slightly loose upper bound, with no lower end)"
        }
        Event::SampledWithReplacement { .. } => {
            "metamorphic checks only: a record drawn k ~ Binomial(m, 1/n) times and the change of \
             n under add/remove give no dominating pair derived in dpclaims (dp_accounting's \
             accountants do not cover it either)"
        }
        Event::RepeatAndSelect { .. } => {
            "metamorphic checks only: only RDP upper bounds of repeat-and-select are known \
             (Papernot & Steinke 2022, Thms 2 and 6), no privacy loss distribution, so no \
             certified lower end"
        }
        _ => return None,
    })
}

/// Whether `event` holds a random allocation (answered under replace-one by
/// [`replace_one_by_two_hops`]).
fn holds_random_allocation(event: &Event) -> bool {
    if is_trivial(event) {
        return false; // (no privacy cost: answered as the rest of the document is)
    }
    match event {
        Event::RandomAllocation { .. } => true,
        Event::PoissonSampled { event, .. }
        | Event::SampledWithoutReplacement { event, .. }
        | Event::SelfComposed { event, .. } => holds_random_allocation(event),
        Event::Composed { events } => events.iter().any(holds_random_allocation),
        _ => false,
    }
}

/// Replace-one for a document that holds a random allocation, through the record's absence:
/// a certified bracket without a replace-one dominating pair (none is proved for random
/// allocation: the pair $\frac1t\sum_j\mathcal N(ve_j)$ vs $\frac1t\sum_j\mathcal N(v'e_j)$, same
/// slot $j$, is not reduced to one $(v,v')$ here; `THEOREMS_NOTES.md`).
///
/// **Upper end (two hops).** Replace-one datasets $D=S\cup\lbrace x\rbrace$, $D'=S\cup\lbrace x'\rbrace$
/// are both add/remove neighbours of $S$ (random allocation places each record independently of
/// the others, so $M(S)$ is the same mechanism on one record fewer). An event stated by its
/// guarantee only (`EpsilonDelta`) is run on $S$ as on $D'$: the first hop costs its
/// $(\epsilon,\delta)$ pair, the second nothing, within the add/remove profiles used. If $M(D)(A)\le
/// e^{\epsilon_1}M(S)(A)+\delta_1$ and $M(S)(A)\le e^{\epsilon_2}M(D')(A)+\delta_2$ for every event
/// $A$, then $M(D)(A)\le e^{\epsilon_1+\epsilon_2}M(D')(A)+\delta_1+e^{\epsilon_1}\delta_2$, i.e.
/// $$H_{e^{\epsilon_1+\epsilon_2}}(M(D)\Vert M(D'))\le\delta_{\rm rem}(\epsilon_1)+e^{\epsilon_1}\delta_{\rm add}(\epsilon_2),$$
/// with $\delta_{\rm rem}$, $\delta_{\rm add}$ the whole run's add/remove profiles (every event of
/// the document in the same direction: the hops are between whole datasets), read from the
/// pessimistic PLDs. Through $S\cup\lbrace x,x'\rbrace$ instead the hops are add then remove;
/// both orders of $(D,D')$ have the same two chains. Every split is an upper bound, so the
/// search over splits needs no optimum: $\epsilon(\delta)$ tries $\delta_1=f\delta$ for
/// $f=1/32,\dots,31/32$, $\epsilon_1=\epsilon_{\rm rem}(\delta_1)$,
/// $\epsilon_2=\epsilon_{\rm add}((\delta-\delta_1)e^{-\epsilon_1})$; $\delta(\epsilon)$ tries
/// $\epsilon_1=i\epsilon/64$, $i=0..64$.
///
/// **Lower end.** A record $x'$ whose clipped gradient is $0$ at every step makes the
/// replace-one pair $(D,D')$ the remove pair of $x$, and $(D',D)$ the add pair, for every event
/// at once: the add/remove optimistic ends are realised replace-one values, so the larger is a
/// certified lower end. A second realised pair: $x$ and $x'$ with the same clipped gradient at every step of every
/// allocation (gradients may depend on the step) and any gradients elsewhere. An allocation
/// places the record in the same steps on $D$ and $D'$ (it does not look at the data), so given
/// the outputs before it each allocated step has the same law on both: the run's replace-one
/// profile is that of the document with every allocation silenced (`NoOp`), whose optimistic
/// end is realised by the rest's own pairs. The lower end is the larger of the two, where the
/// silenced document is not trivial (a document that is one allocation gains nothing).
/// A third, usually the largest: the antipodal record, $x'$'s gradient $-1$ times $x$'s at
/// every step of every allocation: the document walked under replace-one with each allocation
/// as the optimistic PLD of that pair's statistic
/// ([`RandomAllocation::antipodal_epoch`](super::random_allocation::RandomAllocation::antipodal_epoch))
/// and every other event as its own replace-one pairs, each realised by $x$ against $x'=-x$
/// with the other records' gradients chosen per step (0 in an allocation's steps, $\pm C$
/// where a pair needs them: the gradients at each step are the adversary's to choose, so the
/// pairs of different events are realised at once); where an
/// allocation's statistic needs more than one lattice this end is left out. At $\sigma=2$,
/// $t=10$, three epochs, $\delta=10^{-5}$: $2.0165$ against the add/remove $1.1096$ (upper end
/// $2.3610$).
///
/// **Revealed allocation.** The record's steps, drawn independently of the data, revealed to
/// the adversary can only help it (the output is a post-processing of output and steps): the
/// epoch is then the Gaussian mechanism in the record's $k$ steps with replace-one sensitivity
/// $2$, and the other steps' outputs do not depend on the record. The answer's upper end is the
/// smaller of this and the two hops (two hops win at small sampling rates, the revealed
/// allocation when there are few steps per epoch).
pub fn replace_one_by_two_hops(doc: &EventDoc) -> Option<EventDoc> {
    (doc.neighbouring == Neighbouring::ReplaceOne && holds_random_allocation(&doc.event)).then(
        || EventDoc {
            neighbouring: Neighbouring::AddRemove,
            ..doc.clone()
        },
    )
}

/// `event` with each `RandomAllocation(e, k, t)` replaced by `allocation(e, k)`, the rest of the
/// tree kept.
fn map_allocations(event: &Event, allocation: &dyn Fn(&Event, u64) -> Event) -> Event {
    let boxed = |e: &Event| Box::new(map_allocations(e, allocation));
    match event {
        Event::RandomAllocation {
            event,
            num_selected,
            ..
        } => allocation(event, *num_selected),
        Event::PoissonSampled {
            event,
            sampling_probability,
        } => Event::PoissonSampled {
            event: boxed(event),
            sampling_probability: *sampling_probability,
        },
        Event::SampledWithoutReplacement {
            event,
            source_dataset_size,
            sample_size,
        } => Event::SampledWithoutReplacement {
            event: boxed(event),
            source_dataset_size: *source_dataset_size,
            sample_size: *sample_size,
        },
        Event::SelfComposed { event, count } => Event::SelfComposed {
            event: boxed(event),
            count: *count,
        },
        Event::Composed { events } => Event::Composed {
            events: events
                .iter()
                .map(|e| map_allocations(e, allocation))
                .collect(),
        },
        other => other.clone(),
    }
}

/// The document with each random allocation's steps revealed: `RandomAllocation(e, k, t)` becomes
/// `SelfComposed(e, k)` (the record's $k$ steps known, the other $t-k$ steps do not depend on it).
fn allocation_revealed(event: &Event) -> Event {
    map_allocations(event, &|inner, k| Event::SelfComposed {
        event: Box::new(allocation_revealed(inner)),
        count: k,
    })
}

/// The document with each random allocation silenced (`NoOp`): the replace-one pair whose two
/// records have the same gradient at every step of every allocation and differ elsewhere
/// ([`replace_one_by_two_hops`], lower end).
fn allocation_silenced(event: &Event) -> Event {
    map_allocations(event, &|_, _| Event::NoOp)
}

/// The lower end of a replace-one document holding a random allocation: the larger of its
/// add/remove lower end `add_remove` and the replace-one lower end of the document with every
/// allocation silenced, where the rest is not trivial ([`replace_one_by_two_hops`]).
fn silenced_lower(
    doc: &EventDoc,
    add_remove: f64,
    answer: impl Fn(&EventDoc) -> Result<PldBracket, EventPldError>,
) -> Result<f64, EventPldError> {
    let silenced = allocation_silenced(&doc.event);
    if is_trivial(&silenced) {
        return Ok(add_remove);
    }
    let silenced = EventDoc {
        event: silenced,
        ..doc.clone()
    };
    Ok(add_remove.max(answer(&silenced)?.optimistic))
}

/// The upper end of a replace-one document holding a random allocation: the smaller of the two
/// hops' and the one with the allocation revealed ([`replace_one_by_two_hops`]).
fn revealed_upper(
    doc: &EventDoc,
    answer: impl Fn(&EventDoc) -> Result<PldBracket, EventPldError>,
) -> Result<f64, EventPldError> {
    let revealed = EventDoc {
        event: allocation_revealed(&doc.event),
        ..doc.clone()
    };
    Ok(answer(&revealed)?.pessimistic)
}

/// The replace-one bracket of a document holding a random allocation, walked with each
/// allocation's own replace-one ends (the antipodal pair's statistic below, the steps revealed
/// above: `Walker::random_allocation`), `answer` read from its PLDs; `None` where an
/// allocation's statistic needs more than one lattice or the walk more points than the budget
/// (the two hops and the other ends alone then).
fn walked_replace_one(
    doc: &EventDoc,
    opts: &PldOptions,
    answer: impl Fn(&Directions) -> Result<PldBracket, ParamError>,
) -> Result<Option<PldBracket>, EventPldError> {
    match plds(doc, opts) {
        Ok(dirs) => answer(&dirs).map(Some).map_err(param("")),
        Err(EventPldError::Unsupported { .. }) => Ok(None),
        Err(EventPldError::Param { source, .. }) if source.is_too_fine() => Ok(None),
        Err(e) => Err(e),
    }
}

/// `[lower, upper]` narrowed by the walked bracket where there is one (both are certified:
/// the larger lower end and the smaller upper end).
fn within_walked(
    lower: f64,
    upper: f64,
    walked: Option<PldBracket>,
) -> Result<PldBracket, EventPldError> {
    let b = PldBracket::checked(lower, upper)?;
    Ok(match walked {
        Some(w) => b.intersect(&w)?,
        None => b,
    })
}

/// The add/remove PLDs of a replace-one document's two hops; an event without add/remove PLDs
/// is `Unsupported` under replace-one, with why.
fn hops_plds(add_remove: &EventDoc, opts: &PldOptions) -> Result<Directions, EventPldError> {
    plds(add_remove, opts).map_err(|e| match e {
        EventPldError::Unsupported {
            path,
            event,
            reason,
            ..
        } => EventPldError::Unsupported {
            path,
            event,
            relation: "replace-one",
            reason: format!(
                "{reason} (a document holding a random allocation is answered under replace-one through two add/remove hops, and this event has no add/remove PLD)"
            ),
        },
        other => other,
    })
}

/// The `[remove, add]` PLD pairs of add/remove directions.
fn remove_add(dirs: &Directions) -> [&PldPair; 2] {
    match dirs {
        Directions::Symmetric(p) => [p, p],
        Directions::Two([r, a]) => [r, a],
    }
}

/// $\epsilon(\delta)$ under replace-one from the add/remove directions
/// ([`replace_one_by_two_hops`]).
pub(crate) fn two_hops_epsilon(dirs: &Directions, delta: f64) -> Result<PldBracket, ParamError> {
    let lower = dirs.epsilon(delta)?.optimistic;
    let [rem, add] = remove_add(dirs);
    let mut upper = f64::INFINITY;
    for (first, second) in [(rem, add), (add, rem)] {
        for i in 1..32 {
            let d1 = delta * i as f64 / 32.0;
            let e1 = first.pessimistic.epsilon(d1);
            if !e1.is_finite() {
                continue;
            }
            // (δ − δ₁)e^{−ε₁}, a little smaller than computed: the split stays within δ.
            let d2 = (delta - d1) * (-e1).exp() * (1.0 - 1e-12);
            // (Rounded up: the bound holds at the exact sum.)
            upper = upper.min((e1 + second.pessimistic.epsilon(d2)).next_up());
        }
    }
    PldBracket::checked(lower, upper)
}

/// $\delta(\epsilon)$ under replace-one from the add/remove directions
/// ([`replace_one_by_two_hops`]).
pub(crate) fn two_hops_delta(dirs: &Directions, epsilon: f64) -> Result<PldBracket, ParamError> {
    let lower = dirs.delta(epsilon)?.optimistic;
    let [rem, add] = remove_add(dirs);
    let mut upper: f64 = 1.0;
    for (first, second) in [(rem, add), (add, rem)] {
        for i in 0..=64 {
            let e1 = epsilon * i as f64 / 64.0;
            // ε₂ rounded down so that ε₁ + ε₂ ≤ ε (δ(ε) is non-increasing); the sum and e^{ε₁}
            // with a relative margin far above their rounding.
            let e2 = (epsilon - e1).next_down();
            let bound = (first.pessimistic.delta(e1) + e1.exp() * second.pessimistic.delta(e2))
                * (1.0 + 1e-12);
            upper = upper.min(bound);
        }
    }
    PldBracket::checked(lower, upper)
}

/// $\epsilon(\delta)$ of an event document: [optimistic, pessimistic] (composed with the focus
/// on $\delta$).
pub fn epsilon(doc: &EventDoc, delta: f64, opts: &PldOptions) -> Result<PldBracket, EventPldError> {
    check_delta(delta).map_err(param(""))?;
    if let Some(ar) = replace_one_by_two_hops(doc) {
        let dirs = hops_plds(&ar, &opts.focused(Focus::Delta(delta)))?;
        let b = two_hops_epsilon(&dirs, delta).map_err(param(""))?;
        let revealed = revealed_upper(doc, |d| epsilon(d, delta, opts))?;
        let lower = silenced_lower(doc, b.optimistic, |d| epsilon(d, delta, opts))?;
        let walked = walked_replace_one(doc, &opts.focused(Focus::Delta(delta)), |d| {
            d.epsilon(delta)
        })?;
        return within_walked(lower, b.pessimistic.min(revealed), walked);
    }
    if let Some((mu_lo, mu_hi)) = exact_gaussian_mu(doc) {
        return gaussian::epsilon_bracket(mu_lo, mu_hi, delta)
            .and_then(|(o, p)| PldBracket::checked(o, p))
            .map_err(param(""));
    }
    if let Some((mu, rest)) = gaussian_split(doc) {
        if let Some(dirs) = split_plds(&rest, &opts.focused(Focus::Delta(delta)))? {
            return split_epsilon(mu, &dirs, delta).map_err(param(""));
        }
    }
    plds(doc, &opts.focused(Focus::Delta(delta)))?
        .epsilon(delta)
        .map_err(param(""))
}

/// $\delta(\epsilon)$ of an event document: [optimistic, pessimistic].
pub fn delta(doc: &EventDoc, epsilon: f64, opts: &PldOptions) -> Result<PldBracket, EventPldError> {
    if !epsilon.is_finite() {
        return Err(param("")(ParamError::new(
            "epsilon",
            epsilon,
            "a finite number",
        )));
    }
    if let Some(ar) = replace_one_by_two_hops(doc) {
        let dirs = hops_plds(&ar, &opts.focused(Focus::Epsilon(epsilon)))?;
        let b = two_hops_delta(&dirs, epsilon).map_err(param(""))?;
        let revealed = revealed_upper(doc, |d| delta(d, epsilon, opts))?;
        let lower = silenced_lower(doc, b.optimistic, |d| delta(d, epsilon, opts))?;
        let walked = walked_replace_one(doc, &opts.focused(Focus::Epsilon(epsilon)), |d| {
            d.delta(epsilon)
        })?;
        return within_walked(lower, b.pessimistic.min(revealed), walked);
    }
    if let Some((mu_lo, mu_hi)) = exact_gaussian_mu(doc) {
        return gaussian::delta_bracket(mu_lo, mu_hi, epsilon)
            .and_then(|(o, p)| PldBracket::checked(o, p))
            .map_err(param(""));
    }
    let opts = opts.focused(Focus::Epsilon(epsilon));
    if let Some((mu, rest)) = gaussian_split(doc) {
        if let Some(dirs) = split_plds(&rest, &opts)? {
            // The rest's tail mass lowered below the answer as on the grid path; a rest grown
            // past the split's size ends the refinement (an error there keeps the brackets had).
            let first = split_delta(mu, &dirs, epsilon).map_err(param(""))?;
            return pld::delta_with_tails_below_it(&opts, runs(&rest.event), |o| {
                if *o == opts {
                    return Ok(first);
                }
                match split_plds(&rest, o)? {
                    Some(dirs) => split_delta(mu, &dirs, epsilon).map_err(param("")),
                    None => Err(param("")(ParamError::new(
                        "tail_mass",
                        o.tail_mass,
                        "a rest small enough to sum the Gaussian part over",
                    ))),
                }
            });
        }
    }
    pld::delta_with_tails_below_it(&opts, runs(&doc.event), |o| {
        plds(doc, o)?.delta(epsilon).map_err(param(""))
    })
}

/// $[\mu_-,\mu_+]\ni\mu$ when the document's event is exactly one Gaussian mechanism: unsampled
/// Gaussian runs (`Gaussian`, a `SingleEpochTreeAggregation`, `SelfComposed` and `Composed` of
/// such runs, a Poisson sampling at $q=1$ of any of them, `NoOp`s), answered by the closed form ([`gaussian::epsilon_bracket`],
/// [`gaussian::delta_bracket`]) instead of a discretised PLD: exact up to the stated rounding,
/// and it costs microseconds where a large-$\mu$ grid costs seconds.
///
/// Runs $i$ with noise multipliers $\sigma_i$, $k_i$ times each, are one run with
/// $\mu=\Delta\sqrt{\sum_i k_i/\sigma_i^2}$, $\Delta$ = 1 (add/remove) or 2 (replace-one) in
/// units of the clipping norm (the walker's Gaussian step derives the merge: loss means and variances
/// add). In either direction the pair is $\mathcal N(0,1)$ versus $\mathcal N(\mu,1)$ up to a
/// reflection, so one profile answers both. The sum of $n$ terms, the square root and the
/// product are rounded: $\mu$ lies within a relative $2^{-44}(n+1)$ of the computed value (a
/// margin of over 100 on the $(n+3)$ units in the last place the operations can cost).
/// `None` (the PLD path) for anything else, or when $\mu$ is 0 or not finite.
pub fn exact_gaussian_mu(doc: &EventDoc) -> Option<(f64, f64)> {
    /// `(precision, terms)`: the sum of `k / sigma^2` and how many were added.
    fn precision(event: &Event) -> Option<(f64, u64)> {
        if let Some((sigma, k)) = Walker::unsampled_gaussian_runs(event) {
            return Some((k as f64 / (sigma * sigma), 1));
        }
        match event {
            Event::NoOp => Some((0.0, 0)),
            // The tree is the Gaussian mechanism over its depth ([`tree_depth`] derives it).
            Event::SingleEpochTreeAggregation {
                noise_multiplier,
                step_counts,
            } if *noise_multiplier > 0.0 => Some((
                tree_depth(step_counts) as f64 / (noise_multiplier * noise_multiplier),
                1,
            )),
            Event::SelfComposed { event, count } => {
                precision(event).map(|(p, n)| (p * *count as f64, n + 1))
            }
            // Sampled with probability 1: the record is in every batch, the inner event itself.
            Event::PoissonSampled {
                sampling_probability,
                event,
            } if *sampling_probability == 1.0 => precision(event),
            Event::Composed { events } => events.iter().try_fold((0.0, 0), |(p, n), e| {
                precision(e).map(|(q, m)| (p + q, n + m))
            }),
            _ => None,
        }
    }
    let (p, n) = precision(&doc.event)?;
    let sensitivity = match doc.neighbouring {
        Neighbouring::AddRemove => 1.0,
        Neighbouring::ReplaceOne => 2.0,
    };
    let mu = sensitivity * p.sqrt();
    if !(mu.is_finite() && mu > 0.0) {
        return None;
    }
    let rel = (n + 1) as f64 / (1u64 << 44) as f64;
    Some((mu * (1.0 - rel), mu * (1.0 + rel)))
}

/// The largest PLD of the rest [`gaussian_split`] sums the Gaussian's closed form over (each
/// point costs one closed-form evaluation per query bisection step); beyond it the grid path is
/// cheaper.
const SPLIT_MAX_POINTS: usize = 1 << 16;

/// A `Composed` event with an exactly-Gaussian part and a rest: $[\mu_-,\mu_+]$ of the part
/// (all its members merged, as in [`exact_gaussian_mu`]) and the document of the rest.
/// `None` when there is no such part, or no rest (then [`exact_gaussian_mu`] answers).
fn gaussian_split(doc: &EventDoc) -> Option<((f64, f64), EventDoc)> {
    let Event::Composed { events } = &doc.event else {
        return None;
    };
    let one = |e: &Event| EventDoc {
        event: e.clone(),
        ..doc.clone()
    };
    let (gauss, rest): (Vec<&Event>, Vec<&Event>) = events
        .iter()
        .partition(|e| !matches!(e, Event::NoOp) && exact_gaussian_mu(&one(e)).is_some());
    if gauss.is_empty() || rest.iter().all(|e| matches!(e, Event::NoOp)) {
        return None;
    }
    let part = one(&Event::Composed {
        events: gauss.into_iter().cloned().collect(),
    });
    let rest = one(&Event::Composed {
        events: rest.into_iter().cloned().collect(),
    });
    Some((exact_gaussian_mu(&part)?, rest))
}

/// The rest's PLDs of a split, if small enough to sum over.
fn split_plds(rest: &EventDoc, opts: &PldOptions) -> Result<Option<Directions>, EventPldError> {
    let dirs = plds(rest, opts)?;
    let small = dirs
        .all()
        .iter()
        .all(|p| p.pessimistic.pmf.len().max(p.optimistic.pmf.len()) <= SPLIT_MAX_POINTS);
    Ok(small.then_some(dirs))
}

/// $\delta(\epsilon)$ of a split: the worst direction's [lower, upper] by
/// [`Pld::delta_composed_with`] with the Gaussian part's certified profile.
fn split_delta(mu: (f64, f64), dirs: &Directions, epsilon: f64) -> Result<PldBracket, ParamError> {
    let lower = |x: f64| gaussian::log_delta_lower(mu.0, mu.1, x).unwrap_or(f64::NEG_INFINITY);
    let upper = |x: f64| gaussian::log_delta_upper(mu.0, mu.1, x).unwrap_or(0.0);
    dirs.bracket(|p| p.delta_composed_with(epsilon, &lower, &upper))
}

/// Where [`split_epsilon`] stops searching up (as [`gaussian::epsilon_bracket`]: a Gaussian
/// part of $\mu=2^{32}$ needs $\epsilon$ near $2^{63}$).
const SPLIT_EPSILON_MAX: f64 = 1e300;

/// $\epsilon(\delta)$ of a split: bisections on the two ends of [`split_delta`] (the exact
/// $\delta(\epsilon)$ does not increase, so a point whose upper end is at most $\delta$ bounds
/// $\epsilon(\delta)$ from above and one whose lower end exceeds $\delta$ from below, as in
/// [`gaussian::epsilon_bracket`]).
fn split_epsilon(mu: (f64, f64), dirs: &Directions, delta: f64) -> Result<PldBracket, ParamError> {
    let at = |e: f64| split_delta(mu, dirs, e);
    // Each evaluation sums over the rest's points: stop at a relative width of 1e-10.
    let bisect = |lo, hi, holds: &dyn Fn(f64) -> Result<bool, ParamError>| {
        gaussian::bisect(lo, hi, 1e-10, holds)
    };
    // The pessimistic end: a point whose upper delta is at most `delta`; +inf if none up to
    // the cap, or at once when a direction's mass at +inf (which every upper delta includes)
    // reaches `delta`.
    let at_infinity = dirs
        .all()
        .iter()
        .any(|p| p.pessimistic.infinity_mass >= delta);
    let pessimistic = if at_infinity {
        f64::INFINITY
    } else if at(0.0)?.pessimistic <= delta {
        0.0
    } else {
        let mut hi = 1.0;
        while hi <= SPLIT_EPSILON_MAX && at(hi)?.pessimistic > delta {
            hi *= 2.0;
        }
        if hi > SPLIT_EPSILON_MAX {
            f64::INFINITY
        } else {
            bisect(0.0, hi, &|e| Ok(at(e)?.pessimistic <= delta))?.1
        }
    };
    // The optimistic end: a point whose lower delta still exceeds `delta` (or 0); the lower
    // delta is at most the upper one, so it is at most `delta` at the pessimistic end. +inf
    // when a direction's optimistic mass at +inf (computed within a few units in the last
    // place, below the true one) exceeds `delta`: every delta(epsilon) includes it.
    let beyond = |p: &&PldPair| p.optimistic.infinity_mass * (1.0 - 4.0 * f64::EPSILON) > delta;
    let optimistic = if dirs.all().iter().any(beyond) {
        f64::INFINITY
    } else if at(0.0)?.optimistic <= delta {
        0.0
    } else {
        bisect(0.0, pessimistic.min(SPLIT_EPSILON_MAX), &|e| {
            Ok(at(e)?.optimistic <= delta)
        })?
        .0
    };
    PldBracket::checked(optimistic, pessimistic)
}

/// A Gaussian event, possibly sampled: what [`DpSgd`] describes.
struct GaussianUnit {
    q: f64,
    sigma: f64,
    sampling: Sampling,
}

impl Walker<'_> {
    /// The walk's one tilt (set by [`plds`]).
    fn tilt(&self) -> f64 {
        match self.opts.focus {
            Focus::Tilt(t) => t,
            _ => 0.0,
        }
    }

    fn unsupported(&self, path: &str, event: &Event, reason: impl Into<String>) -> EventPldError {
        EventPldError::Unsupported {
            path: path.to_string(),
            event: event.type_name(),
            relation: relation_name(self.relation),
            reason: reason.into(),
        }
    }

    fn identity(&self) -> Directions {
        Directions::Symmetric(PldPair::identity(self.opts.interval))
    }

    /// `(sigma, runs)` of an event that is `runs` unsampled runs of one Gaussian mechanism
    /// (`Gaussian`, `SelfComposed` of one, a Poisson sampling at q = 1 of one), if it is.
    fn unsampled_gaussian_runs(event: &Event) -> Option<(f64, u64)> {
        match event {
            Event::SelfComposed { event, count } if *count > 0 => {
                let (sigma, k) = Self::unsampled_gaussian_runs(event)?;
                Some((sigma, k.checked_mul(*count)?))
            }
            _ => {
                let unit = Self::gaussian_unit(event)?;
                (unit.sampling == Sampling::None && unit.sigma > 0.0).then_some((unit.sigma, 1))
            }
        }
    }

    /// The Gaussian unit an event is, if it is one (after flattening nested Poisson sampling).
    fn gaussian_unit(event: &Event) -> Option<GaussianUnit> {
        match event {
            Event::Gaussian { noise_multiplier } => Some(GaussianUnit {
                q: 1.0,
                sigma: *noise_multiplier,
                sampling: Sampling::None,
            }),
            Event::PoissonSampled {
                sampling_probability,
                event,
            } if *sampling_probability > 0.0 => {
                let inner = Self::gaussian_unit(event)?;
                if inner.sampling == Sampling::WithoutReplacement {
                    return None;
                }
                let q = sampling_probability * inner.q;
                Some(GaussianUnit {
                    q,
                    sigma: inner.sigma,
                    sampling: if q == 1.0 {
                        Sampling::None
                    } else {
                        Sampling::Poisson
                    },
                })
            }
            Event::SampledWithoutReplacement {
                source_dataset_size: n,
                sample_size: m,
                event,
            } if *m > 0 => match event.as_ref() {
                Event::Gaussian { noise_multiplier } => {
                    let q = *m as f64 / *n as f64;
                    Some(GaussianUnit {
                        q,
                        sigma: *noise_multiplier,
                        sampling: if m == n {
                            Sampling::None
                        } else {
                            Sampling::WithoutReplacement
                        },
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `steps` compositions of a Gaussian unit, through [`Dominating::of`] and
    /// [`pld::composed`]. Each upper step bound and each realised (lower) pair is labelled by the
    /// direction it describes: `Remove`/`Add` pairs by theirs, a symmetric or symmetrised bound
    /// ([`StepBound::EitherOrder`], `ReplaceOne`) by both. A direction takes the upper and the lower
    /// PLD labelled with it; when every label is "both" the event is [`Directions::Symmetric`].
    /// (Under replace-one with fixed-size batches the two lower pairs are the two realised
    /// configurations of the other records, each paired with the symmetrised upper bound.)
    ///
    /// Unsampled runs are composed exactly, without an FFT: $T$ runs with noise multiplier
    /// $\sigma$ are one run with $\sigma/\sqrt T$. With $\mu=\Delta/\sigma$ the privacy loss of
    /// one run is $\mathcal N(\mu^2/2,\mu^2)$ under the first distribution and
    /// $\mathcal N(-\mu^2/2,\mu^2)$ under the second, in either direction; the sum of $T$
    /// independent ones is $\mathcal N(T\mu^2/2,T\mu^2)$ and $\mathcal N(-T\mu^2/2,T\mu^2)$, the
    /// loss of one run with $\mu\sqrt T$. Equal loss distributions give equal
    /// $\delta(\epsilon)$ for every $\epsilon$, so the one run's certified bracket is the $T$
    /// runs'.
    fn gaussian(
        &self,
        unit: &GaussianUnit,
        steps: u64,
        path: &str,
        event: &Event,
    ) -> Result<Directions, EventPldError> {
        let (sigma, steps) = if unit.sampling == Sampling::None && steps > 1 {
            (unit.sigma / (steps as f64).sqrt(), 1)
        } else {
            (unit.sigma, steps)
        };
        let mech =
            DpSgd::new(unit.q, sigma, steps, unit.sampling, self.relation).map_err(param(path))?;
        let dominating = match Dominating::of(&mech) {
            Ok(d) => d,
            Err(e) if e.name == "relation" || e.name == "sampling" => {
                return Err(self.unsupported(path, event, e.to_string()));
            }
            Err(e) => return Err(param(path)(e)),
        };
        let composed = pld::composed(&mech, self.opts).map_err(param(path))?;
        // Direction labels: Some(0) remove, Some(1) add, None both.
        let of_pair = |p: &Pair| match p {
            Pair::Remove { .. } => Some(0),
            Pair::Add { .. } => Some(1),
            Pair::ReplaceOne { .. } => None,
        };
        let upper: Vec<Option<usize>> = dominating
            .upper
            .iter()
            .map(|b| match b {
                StepBound::Pair(p) => of_pair(p),
                StepBound::EitherOrder(_) => None,
            })
            .collect();
        let lower: Vec<Option<usize>> = dominating.lower.iter().map(of_pair).collect();
        let pick = |labels: &[Option<usize>], plds: &[Pld], d: usize| -> Option<Pld> {
            labels
                .iter()
                .zip(plds)
                .find(|(l, _)| **l == Some(d) || l.is_none())
                .map(|(_, p)| p.clone())
        };
        let direction = |d: usize| -> Option<PldPair> {
            Some(PldPair {
                pessimistic: pick(&upper, &composed.pessimistic, d)?,
                optimistic: pick(&lower, &composed.optimistic, d)?,
            })
        };
        let unexpected = || {
            self.unsupported(
                path,
                event,
                "the dominating pairs do not map to the remove and add directions",
            )
        };
        if upper.iter().chain(&lower).all(Option::is_none) {
            return direction(0)
                .map(Directions::Symmetric)
                .ok_or_else(unexpected);
        }
        match (direction(0), direction(1)) {
            (Some(r), Some(a)) => Ok(Directions::Two([r, a])),
            _ => Err(unexpected()),
        }
    }

    fn walk(&self, event: &Event, path: &str) -> Result<Directions, EventPldError> {
        let interval = self.opts.interval;
        if let Some(unit) = Self::gaussian_unit(event) {
            return self.gaussian(&unit, 1, path, event);
        }
        if let Some(why) = metamorphic_only(event) {
            return Err(self.unsupported(path, event, why));
        }
        match event {
            Event::NoOp => Ok(self.identity()),
            Event::Gaussian { .. } => unreachable!("a Gaussian unit"),
            Event::ZCDp { .. }
            | Event::MixtureOfGaussians { .. }
            | Event::TruncatedSubsampledGaussian { .. }
            | Event::SampledWithReplacement { .. }
            | Event::RepeatAndSelect { .. } => unreachable!("metamorphic checks only"),
            Event::DiscreteLaplace {
                noise_parameter,
                sensitivity,
            } => {
                // Shift Delta under add/remove, 2 Delta under replace-one (both exact worst
                // cases: `mechanism_pld::discrete_laplace_atoms`).
                let s = match self.relation {
                    Neighbouring::AddRemove => Some(*sensitivity),
                    Neighbouring::ReplaceOne => sensitivity.checked_mul(2),
                }
                .ok_or_else(|| {
                    param(path)(ParamError::new(
                        "sensitivity",
                        sensitivity,
                        "at most 2^24 in units of the noise",
                    ))
                })?;
                let atoms = mechanism_pld::discrete_laplace_atoms(*noise_parameter, s)
                    .map_err(param(path))?;
                Ok(Directions::Symmetric(
                    mechanism_pld::place_atoms(&atoms, 0.0, interval).map_err(param(path))?,
                ))
            }
            Event::SingleEpochTreeAggregation {
                noise_multiplier,
                step_counts,
            } => self.tree(*noise_multiplier, step_counts, 1, path, event),
            Event::RandomAllocation {
                event: inner,
                num_selected,
                num_steps,
            } => self.random_allocation(inner, *num_selected, *num_steps, path, event),
            Event::Laplace { noise_multiplier } => {
                let s = self.sensitivity();
                let p =
                    mechanism_pld::laplace(*noise_multiplier, s, 1.0, Direction::Remove, interval)
                        .map_err(param(path))?;
                Ok(Directions::Symmetric(p))
            }
            Event::RandomizedResponse {
                noise_parameter,
                num_buckets,
            } => {
                if self.relation == Neighbouring::AddRemove {
                    return Err(self.unsupported(
                        path,
                        event,
                        "randomized response changes one record's bucket: use replace-one",
                    ));
                }
                let (atoms, inf) =
                    mechanism_pld::randomized_response_atoms(*noise_parameter, *num_buckets);
                Ok(Directions::Symmetric(
                    mechanism_pld::place_atoms(&atoms, inf, interval).map_err(param(path))?,
                ))
            }
            Event::EpsilonDelta { epsilon, delta } => {
                let (atoms, inf) = mechanism_pld::epsilon_delta_atoms(*epsilon, *delta);
                Ok(Directions::Symmetric(
                    mechanism_pld::place_atoms(&atoms, inf, interval).map_err(param(path))?,
                ))
            }
            Event::PoissonSampled {
                sampling_probability,
                event: inner,
            } => self.poisson(
                *sampling_probability,
                inner,
                &format!("{path}.event"),
                path,
                event,
            ),
            Event::SampledWithoutReplacement {
                source_dataset_size: n,
                sample_size: m,
                event: inner,
            } => {
                if *m == 0 {
                    Ok(self.identity())
                } else if m == n {
                    self.walk(inner, &format!("{path}.event"))
                } else if matches!(inner.as_ref(), Event::NoOp) {
                    Ok(self.identity())
                } else {
                    Err(self.unsupported(
                        path,
                        event,
                        format!(
                            "sampling without replacement is covered for a Gaussian event only (found {})",
                            inner.type_name()
                        ),
                    ))
                }
            }
            Event::SelfComposed {
                event: inner,
                count,
            } => {
                if *count == 0 {
                    return Ok(self.identity());
                }
                let inner_path = format!("{path}.event");
                if let Some(unit) = Self::gaussian_unit(inner) {
                    return self.gaussian(&unit, *count, &inner_path, inner);
                }
                if let Event::SingleEpochTreeAggregation {
                    noise_multiplier,
                    step_counts,
                } = inner.as_ref()
                {
                    return self.tree(*noise_multiplier, step_counts, *count, &inner_path, inner);
                }
                if let Some(dirs) = self.allocation_epochs(inner, *count, &inner_path)? {
                    return Ok(dirs);
                }
                let within = Walker {
                    copies: self.copies.saturating_mul(*count),
                    ..*self
                };
                let one = within.walk(inner, &inner_path)?;
                if *count == 1 {
                    return Ok(one);
                }
                one.compose(*count, self.opts).map_err(param(path))
            }
            Event::Composed { events } => {
                // Unsampled Gaussian runs among the events are merged exactly into one
                // (runs with sigma_i, k_i times each, are one run with
                // sigma = (sum_i k_i / sigma_i^2)^(-1/2): the loss means and variances add, see
                // [`Walker::gaussian`]), walked first; the others are convolved after it.
                let mut precision = 0.0;
                let mut merged = Vec::new();
                let mut rest = Vec::new();
                for (i, e) in events.iter().enumerate() {
                    match Self::unsampled_gaussian_runs(e) {
                        Some((sigma, k)) => {
                            precision += k as f64 / (sigma * sigma);
                            merged.push(i);
                        }
                        None => rest.push(i),
                    }
                }
                let mut walked: Vec<(String, Event)> = Vec::new();
                if merged.len() > 1 && precision.is_finite() && precision > 0.0 {
                    walked.push((
                        format!("{path}.events[{}]", merged[0]),
                        Event::Gaussian {
                            noise_multiplier: precision.sqrt().recip(),
                        },
                    ));
                } else {
                    rest = (0..events.len()).collect();
                }
                for i in rest {
                    walked.push((format!("{path}.events[{i}]"), events[i].clone()));
                }
                let mut total: Option<Directions> = None;
                for (at, e) in &walked {
                    let d = self.walk(e, at)?;
                    if d.is_identity() {
                        continue; // exactly nothing to add (and no FFT rounding)
                    }
                    total = Some(match total {
                        None => d,
                        Some(t) => t.convolve(&d, self.tilt()).map_err(param(path))?,
                    });
                }
                Ok(total.unwrap_or_else(|| self.identity()))
            }
        }
    }

    /// `count` repetitions of a tree event: the Gaussian mechanism composed `count` times the
    /// tree's depth ([`tree_depth`], which derives it).
    fn tree(
        &self,
        sigma: f64,
        step_counts: &[u64],
        count: u64,
        path: &str,
        event: &Event,
    ) -> Result<Directions, EventPldError> {
        let depth = tree_depth(step_counts);
        if depth == 0 || count == 0 {
            return Ok(self.identity());
        }
        let steps = depth.checked_mul(count).ok_or_else(|| {
            param(path)(ParamError::new(
                "count",
                count,
                "a number of repetitions whose product with the tree depth fits in 64 bits",
            ))
        })?;
        let unit = GaussianUnit {
            q: 1.0,
            sigma,
            sampling: Sampling::None,
        };
        self.gaussian(&unit, steps, path, event)
    }

    /// One epoch of random allocation: $k$ of $t$ steps of a Gaussian. Under add/remove
    /// ([`super::random_allocation`]; for $k>1$ the blocks' upper end and the Maclaurin and
    /// block lower ends). Under replace-one no worst pair is proved, but each end has a pair of
    /// its own: upper, the record's $k$ steps revealed (the Gaussian mechanism of sensitivity
    /// $2C$ over them, a post-processing of which the epoch is: [`replace_one_by_two_hops`],
    /// "Revealed allocation"); lower, the realised antipodal pair through the statistic $S'$
    /// ([`RandomAllocation::antipodal_epoch`](super::random_allocation::RandomAllocation::antipodal_epoch)),
    /// symmetric, so both orders; at $k=t$ the revealed Gaussian is the epoch itself. Where the
    /// statistic's lattice does not fit (small σ) the epoch is `Unsupported` and the document
    /// goes through the two hops alone. Anything else is `Unsupported` with the reason.
    fn random_allocation(
        &self,
        inner: &Event,
        num_selected: u64,
        num_steps: u64,
        path: &str,
        event: &Event,
    ) -> Result<Directions, EventPldError> {
        let Event::Gaussian { noise_multiplier } = inner else {
            return Err(self.unsupported(
                path,
                event,
                format!(
                    "random allocation is covered for a Gaussian event only (found {})",
                    inner.type_name()
                ),
            ));
        };
        let ra = super::random_allocation::RandomAllocation::new(
            *noise_multiplier,
            num_selected,
            num_steps,
        )
        .map_err(param(path))?;
        if self.relation == Neighbouring::ReplaceOne {
            let revealed = self.walk(
                &Event::SelfComposed {
                    event: Box::new(inner.clone()),
                    count: num_selected,
                },
                path,
            )?;
            if num_selected == num_steps {
                return Ok(revealed);
            }
            let Some(antipodal) = ra.antipodal_epoch(self.opts).map_err(param(path))? else {
                return Err(self.unsupported(
                    path,
                    event,
                    "no worst-case pair of random allocation under replace-one is proved in dpclaims, and the antipodal pair's statistic (its lower end) needs more than one lattice here (small sigma): the epsilon and delta of a whole document go through the record's absence (`replace_one_by_two_hops`)",
                ));
            };
            // (The revealed Gaussian is symmetric; each order keeps its own upper end anyway.)
            let with_lower = |upper: PldPair, optimistic: Pld| PldPair {
                pessimistic: upper.pessimistic,
                optimistic,
            };
            return Ok(match revealed {
                Directions::Symmetric(upper) => Directions::Symmetric(with_lower(upper, antipodal)),
                Directions::Two([a, b]) => {
                    Directions::Two([with_lower(a, antipodal.clone()), with_lower(b, antipodal)])
                }
            });
        }
        let [remove, add] = ra
            .epoch_in_run(self.opts, self.copies, self.target)
            .map_err(param(path))?;
        Ok(Directions::Two([remove, add]))
    }

    /// `count` epochs of a random allocation of $k>1$ of $t$ steps of a Gaussian under
    /// add/remove, composed at once ([`RandomAllocation::epochs_in_run`](super::random_allocation::RandomAllocation::epochs_in_run):
    /// each block's PLD composed over the epochs, one composition at the run's tilt). Composing
    /// an epoch's blocks first and then the epochs puts the far left of the epoch's PLD, where
    /// the tilted convolution leaves only its floating-point envelope, into the epochs'
    /// Chernoff window, which then spans the whole support (σ 26, 2 of 5 steps, 20 epochs,
    /// δ 3.2e-8: past the point budget at interval 2.5e-5). `None` for anything else (the
    /// walk as usual).
    fn allocation_epochs(
        &self,
        inner: &Event,
        count: u64,
        path: &str,
    ) -> Result<Option<Directions>, EventPldError> {
        let Event::RandomAllocation {
            event,
            num_selected,
            num_steps,
        } = inner
        else {
            return Ok(None);
        };
        let Event::Gaussian { noise_multiplier } = event.as_ref() else {
            return Ok(None);
        };
        if self.relation != Neighbouring::AddRemove || *num_selected < 2 {
            return Ok(None);
        }
        let ra = super::random_allocation::RandomAllocation::new(
            *noise_multiplier,
            *num_selected,
            *num_steps,
        )
        .map_err(param(path))?;
        let [remove, add] = ra
            .epochs_in_run(count, self.opts, self.copies, self.target)
            .map_err(param(path))?;
        Ok(Some(Directions::Two([remove, add])))
    }

    /// Sensitivity of the Laplace and Gaussian mechanisms in units of the clipping norm.
    fn sensitivity(&self) -> f64 {
        match self.relation {
            Neighbouring::AddRemove => 1.0,
            Neighbouring::ReplaceOne => 2.0,
        }
    }

    /// `PoissonSampled(inner, q)` at `path` (`inner` at `inner_path`).
    fn poisson(
        &self,
        q: f64,
        inner: &Event,
        inner_path: &str,
        path: &str,
        event: &Event,
    ) -> Result<Directions, EventPldError> {
        let interval = self.opts.interval;
        if q == 0.0 || matches!(inner, Event::NoOp) {
            return Ok(self.identity());
        }
        if q == 1.0 {
            return self.walk(inner, inner_path);
        }
        if let Some(why) = metamorphic_only(inner) {
            return Err(self.unsupported(inner_path, inner, why));
        }
        let not_covered = |what: &str| self.unsupported(path, event, what.to_string());
        match inner {
            Event::PoissonSampled {
                sampling_probability,
                event: deeper,
            } => self.poisson(
                q * sampling_probability,
                deeper,
                &format!("{inner_path}.event"),
                path,
                event,
            ),
            Event::Laplace { noise_multiplier } => {
                if self.relation == Neighbouring::ReplaceOne {
                    return Err(not_covered(
                        "Poisson-sampled Laplace is covered under add-remove only",
                    ));
                }
                let dir = |d| {
                    mechanism_pld::laplace(*noise_multiplier, 1.0, q, d, interval)
                        .map_err(param(path))
                };
                Ok(Directions::Two([
                    dir(Direction::Remove)?,
                    dir(Direction::Add)?,
                ]))
            }
            Event::EpsilonDelta { epsilon, delta } => {
                if self.relation == Neighbouring::ReplaceOne {
                    return Err(not_covered(
                        "Poisson-sampled (epsilon, delta) is covered under add-remove only",
                    ));
                }
                let [remove, add] = mechanism_pld::poisson_outcomes(
                    &mechanism_pld::epsilon_delta_outcomes(*epsilon, *delta),
                    q,
                );
                let dir = |o: &[(f64, f64)]| {
                    mechanism_pld::discrete_pair(o, interval).map_err(param(path))
                };
                Ok(Directions::Two([dir(&remove)?, dir(&add)?]))
            }
            other => Err(not_covered(&format!(
                "Poisson sampling is covered for Gaussian, Laplace and EpsilonDelta events (found {})",
                other.type_name()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::event::FORMAT_VERSION;

    fn doc(relation: Neighbouring, event: Event) -> EventDoc {
        EventDoc {
            version: FORMAT_VERSION,
            neighbouring: relation,
            event,
        }
    }

    fn gaussian(sigma: f64) -> Box<Event> {
        Box::new(Event::Gaussian {
            noise_multiplier: sigma,
        })
    }

    /// `RandomAllocation(Gaussian(sigma), k, t)`.
    fn allocation(sigma: f64, k: u64, t: u64) -> Event {
        Event::RandomAllocation {
            event: gaussian(sigma),
            num_selected: k,
            num_steps: t,
        }
    }

    fn poisson(q: f64, event: Box<Event>) -> Box<Event> {
        Box::new(Event::PoissonSampled {
            sampling_probability: q,
            event,
        })
    }

    fn self_composed(event: Box<Event>, count: u64) -> Event {
        Event::SelfComposed { event, count }
    }

    fn laplace(b: f64) -> Box<Event> {
        Box::new(Event::Laplace {
            noise_multiplier: b,
        })
    }

    fn rr(p: f64, k: u64) -> Box<Event> {
        Box::new(Event::RandomizedResponse {
            noise_parameter: p,
            num_buckets: k,
        })
    }

    fn eps_delta(epsilon: f64, delta: f64) -> Box<Event> {
        Box::new(Event::EpsilonDelta { epsilon, delta })
    }

    fn assert_bracket(b: PldBracket, what: &str) {
        assert!(
            b.optimistic <= b.pessimistic,
            "{what}: inverted bracket [{}, {}]",
            b.optimistic,
            b.pessimistic
        );
    }

    /// The same bracket up to the round-off margins of two computations (tilted differently).
    fn assert_same(a: PldBracket, b: PldBracket) {
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * y.abs();
        assert!(
            close(a.optimistic, b.optimistic) && close(a.pessimistic, b.pessimistic),
            "{a:?} vs {b:?}"
        );
    }

    /// A Gaussian event answers what the DP-SGD accountant answers for the same run (to the
    /// round-off margins).
    #[test]
    fn gaussian_events_are_dp_sgd() {
        let opts = PldOptions::default();
        let d = doc(
            Neighbouring::AddRemove,
            self_composed(poisson(0.01, gaussian(1.1)), 500),
        );
        let mech = DpSgd::new(0.01, 1.1, 500, Sampling::Poisson, Neighbouring::AddRemove).unwrap();
        assert_same(
            epsilon(&d, 1e-5, &opts).unwrap(),
            pld::dp_sgd_epsilon(&mech, 1e-5, &opts).unwrap(),
        );
        // Nested Poisson sampling is one Poisson sampling with the product of the rates.
        let nested = doc(
            Neighbouring::AddRemove,
            self_composed(poisson(0.5, poisson(0.02, gaussian(1.1))), 500),
        );
        assert_same(
            epsilon(&nested, 1e-5, &opts).unwrap(),
            pld::dp_sgd_epsilon(&mech, 1e-5, &opts).unwrap(),
        );
    }

    /// Fixed-size batches under replace-one are DP-SGD's `wor` sampling with q = m / n.
    #[test]
    fn sampling_without_replacement_is_dp_sgd_wor() {
        let opts = PldOptions::default();
        let event = self_composed(
            Box::new(Event::SampledWithoutReplacement {
                source_dataset_size: 1000,
                sample_size: 10,
                event: gaussian(1.5),
            }),
            300,
        );
        let d = doc(Neighbouring::ReplaceOne, event);
        let mech = DpSgd::new(
            0.01,
            1.5,
            300,
            Sampling::WithoutReplacement,
            Neighbouring::ReplaceOne,
        )
        .unwrap();
        assert_same(
            epsilon(&d, 1e-6, &opts).unwrap(),
            pld::dp_sgd_epsilon(&mech, 1e-6, &opts).unwrap(),
        );
    }

    /// The new mechanisms' brackets are brackets in floating point over a grid of parameters,
    /// for epsilon(delta) and delta(epsilon), alone and composed.
    #[test]
    fn brackets_are_brackets() {
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let mut units: Vec<(Neighbouring, Box<Event>)> = Vec::new();
        for b in [0.3, 1.0, 5.0] {
            for q in [0.01, 0.5, 1.0] {
                units.push((Neighbouring::AddRemove, poisson(q, laplace(b))));
                units.push((
                    Neighbouring::AddRemove,
                    poisson(q, eps_delta(1.0 / b, 1e-7)),
                ));
            }
            units.push((Neighbouring::ReplaceOne, laplace(b)));
            units.push((Neighbouring::ReplaceOne, rr(1.0 / (1.0 + b), 2 + b as u64)));
        }
        for (relation, unit) in units {
            for count in [1, 10, 100] {
                let d = doc(relation, self_composed(unit.clone(), count));
                let dirs = plds(&d, &opts).unwrap();
                for delta in [1e-10, 1e-5, 1e-2] {
                    assert_bracket(
                        dirs.epsilon(delta).unwrap(),
                        &format!("{d:?} at delta {delta}"),
                    );
                }
                for eps in [-0.5, 0.0, 1.0, 5.0] {
                    assert_bracket(dirs.delta(eps).unwrap(), &format!("{d:?} at eps {eps}"));
                }
            }
        }
    }

    /// SelfComposed(e, k) equals e composed k times one by one, for every mechanism family.
    #[test]
    fn self_composition_equals_repeated_composition() {
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let cases = [
            (Neighbouring::AddRemove, poisson(0.05, gaussian(1.0))),
            (Neighbouring::ReplaceOne, poisson(0.05, gaussian(2.0))),
            (Neighbouring::AddRemove, laplace(2.0)),
            (Neighbouring::AddRemove, poisson(0.2, laplace(1.0))),
            (Neighbouring::ReplaceOne, rr(0.5, 3)),
            (Neighbouring::AddRemove, eps_delta(0.3, 1e-6)),
            (Neighbouring::AddRemove, poisson(0.1, eps_delta(1.0, 1e-6))),
        ];
        let k = 6;
        for (relation, e) in cases {
            let whole = doc(relation, self_composed(e.clone(), k));
            let one_by_one = doc(
                relation,
                Event::Composed {
                    events: vec![(*e).clone(); k as usize],
                },
            );
            for eps in [0.0, 0.5, 1.5] {
                let (a, b) = (
                    delta(&whole, eps, &opts).unwrap(),
                    delta(&one_by_one, eps, &opts).unwrap(),
                );
                assert_bracket(a, "self-composed");
                assert_bracket(b, "composed");
                for (x, y) in [(a.optimistic, b.optimistic), (a.pessimistic, b.pessimistic)] {
                    assert!(
                        (x - y).abs() <= 1e-9 + 1e-6 * y,
                        "{e:?} eps {eps}: {a:?} vs {b:?}"
                    );
                }
            }
        }
    }

    /// Composing canonical (eps_i, delta_i) pairs: at eps = sum eps_i the exact composed delta is
    /// 1 - prod(1 - delta_i) (every finite loss sum is at most sum eps_i), at most the basic
    /// composition sum delta_i; for k = 1 the event's own (eps, delta) comes back.
    #[test]
    fn epsilon_delta_composition_against_basic_composition() {
        let opts = PldOptions::default();
        let parts = [(0.5, 1e-6), (0.25, 2e-6), (1.0, 5e-7)];
        for k in 1..=parts.len() {
            let events: Vec<Event> = parts[..k].iter().map(|&(e, d)| *eps_delta(e, d)).collect();
            let d = doc(Neighbouring::AddRemove, Event::Composed { events });
            let eps_sum: f64 = parts[..k].iter().map(|p| p.0).sum();
            let delta_sum: f64 = parts[..k].iter().map(|p| p.1).sum();
            let exact = 1.0 - parts[..k].iter().map(|p| 1.0 - p.1).product::<f64>();
            let b = delta(&d, eps_sum, &opts).unwrap();
            assert_bracket(b, "eps-delta");
            assert!(
                (b.pessimistic - exact).abs() <= 1e-15,
                "k {k}: {b:?} vs {exact}"
            );
            assert!(b.pessimistic <= delta_sum * (1.0 + 1e-12));
            // The basic composition's eps at delta_sum is never beaten by the PLD's upper value.
            let e = epsilon(&d, delta_sum * 1.000001, &opts).unwrap();
            assert_bracket(e, "eps-delta epsilon");
            assert!(
                e.pessimistic <= eps_sum + 1e-12,
                "k {k}: {e:?} vs {eps_sum}"
            );
            if k == 1 {
                assert!((b.pessimistic - parts[0].1).abs() <= 1e-18, "{b:?}");
                assert!(e.pessimistic >= 0.5 - 1e-4, "{e:?}");
            }
        }
    }

    /// Laplace under add/remove: the closed form delta(eps) = 1 - e^{(eps - 1/b)/2} inside the
    /// bracket; under replace-one the sensitivity is 2 (the same as scale b/2).
    #[test]
    fn laplace_events() {
        let opts = PldOptions::default();
        let b = 1.5;
        let ar = doc(Neighbouring::AddRemove, *laplace(b));
        let ro = doc(Neighbouring::ReplaceOne, *laplace(b));
        let ar_half = doc(Neighbouring::AddRemove, *laplace(b / 2.0));
        for eps in [0.0, 0.2, 0.5] {
            let exact = 1.0 - ((eps - 1.0 / b) / 2.0).exp();
            let x = delta(&ar, eps, &opts).unwrap();
            assert!(
                x.optimistic <= exact + 1e-15 && exact <= x.pessimistic + 1e-15,
                "{x:?} vs {exact}"
            );
            let (y, z) = (
                delta(&ro, eps, &opts).unwrap(),
                delta(&ar_half, eps, &opts).unwrap(),
            );
            assert!(
                (y.pessimistic - z.pessimistic).abs() < 1e-12,
                "{y:?} vs {z:?}"
            );
        }
        // Poisson-sampled Laplace lies below the unsampled one.
        let sampled = doc(
            Neighbouring::AddRemove,
            self_composed(poisson(0.1, laplace(b)), 10),
        );
        let full = doc(Neighbouring::AddRemove, self_composed(laplace(b), 10));
        let (s, f) = (
            epsilon(&sampled, 1e-6, &opts).unwrap(),
            epsilon(&full, 1e-6, &opts).unwrap(),
        );
        assert_bracket(s, "sampled laplace");
        assert!(s.pessimistic < f.optimistic, "{s:?} vs {f:?}");
    }

    /// A composition of different events, remove and add accounted separately: Poisson-sampled
    /// Gaussian has two directions; the max is taken after composition, so the answer is at least
    /// each direction composed alone and at most the sum of the parts' worst cases.
    #[test]
    fn heterogeneous_composition_brackets() {
        let opts = PldOptions::default();
        let mixed = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![
                    self_composed(poisson(0.02, gaussian(1.0)), 200),
                    self_composed(poisson(0.1, laplace(2.0)), 20),
                    *eps_delta(0.1, 1e-7),
                ],
            },
        );
        let b = epsilon(&mixed, 1e-5, &opts).unwrap();
        assert_bracket(b, "mixed");
        let alone = epsilon(
            &doc(
                Neighbouring::AddRemove,
                self_composed(poisson(0.02, gaussian(1.0)), 200),
            ),
            1e-5,
            &opts,
        )
        .unwrap();
        assert!(b.optimistic > alone.pessimistic, "{b:?} vs {alone:?}");
        // Order does not matter.
        let Event::Composed { events } = &mixed.event else {
            unreachable!()
        };
        let reversed = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: events.iter().rev().cloned().collect(),
            },
        );
        let r = epsilon(&reversed, 1e-5, &opts).unwrap();
        assert!(
            (r.pessimistic - b.pessimistic).abs() <= 1e-9 * b.pessimistic,
            "{r:?} vs {b:?}"
        );
    }

    /// What is not covered says so, with the path of the event.
    #[test]
    fn unsupported_events_name_their_path() {
        let opts = PldOptions::default();
        let cases = [
            (
                doc(
                    Neighbouring::AddRemove,
                    Event::Composed {
                        events: vec![*gaussian(1.0), *rr(0.5, 2)],
                    },
                ),
                "event.events[1]",
                "RandomizedResponse",
            ),
            (
                doc(
                    Neighbouring::ReplaceOne,
                    self_composed(poisson(0.1, rr(0.5, 2)), 3),
                ),
                "event.event",
                "PoissonSampled",
            ),
            (
                doc(
                    Neighbouring::AddRemove,
                    Event::SampledWithoutReplacement {
                        source_dataset_size: 100,
                        sample_size: 10,
                        event: gaussian(1.0),
                    },
                ),
                "event",
                "SampledWithoutReplacement",
            ),
            (
                doc(Neighbouring::ReplaceOne, *poisson(0.1, laplace(1.0))),
                "event",
                "PoissonSampled",
            ),
        ];
        for (d, path, name) in cases {
            match plds(&d, &opts) {
                Err(EventPldError::Unsupported { path: p, event, .. }) => {
                    assert_eq!((p.as_str(), event), (path, name), "{d:?}");
                }
                other => panic!("{d:?}: {:?}", other.map(|_| ())),
            }
        }
        // Under replace-one a random allocation is answered through add/remove hops: an event
        // without add/remove PLDs beside it is unsupported under replace-one, saying why.
        let ra = Event::RandomAllocation {
            event: gaussian(1.0),
            num_selected: 1,
            num_steps: 4,
        };
        let d = doc(
            Neighbouring::ReplaceOne,
            Event::Composed {
                events: vec![ra, *rr(0.5, 2)],
            },
        );
        match epsilon(&d, 1e-5, &opts) {
            Err(EventPldError::Unsupported {
                path,
                event,
                relation,
                reason,
            }) => {
                assert_eq!(
                    (path.as_str(), event, relation),
                    ("event.events[1]", "RandomizedResponse", "replace-one")
                );
                assert!(reason.contains("two add/remove hops"), "{reason}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    fn dlap(a: f64, sensitivity: u64) -> Box<Event> {
        Box::new(Event::DiscreteLaplace {
            noise_parameter: a,
            sensitivity,
        })
    }

    fn tree(sigma: f64, step_counts: &[u64]) -> Box<Event> {
        Box::new(Event::SingleEpochTreeAggregation {
            noise_multiplier: sigma,
            step_counts: step_counts.to_vec(),
        })
    }

    /// Discrete Laplace events against direct sums over the integers: one release under
    /// add-remove (shift Delta) and replace-one (shift 2 Delta), and two releases composed
    /// (a double sum over the pairs of outputs).
    #[test]
    fn discrete_laplace_events_against_direct_sums() {
        let opts = PldOptions::default();
        let direct = |a: f64, shifts: &[i64], eps: f64| -> f64 {
            let c = (a / 2.0).tanh();
            let dens = |y: i64| c * (-a * y.abs() as f64).exp();
            let m = 80;
            match *shifts {
                [s] => (-m..=s + m)
                    .map(|y| (dens(y - s) - eps.exp() * dens(y)).max(0.0))
                    .sum(),
                [s, t] => (-m..=s + m)
                    .flat_map(|y| (-m..=t + m).map(move |z| (y, z)))
                    .map(|(y, z)| {
                        (dens(y - s) * dens(z - t) - eps.exp() * dens(y) * dens(z)).max(0.0)
                    })
                    .sum(),
                _ => unreachable!(),
            }
        };
        for (a, delta_1) in [(0.5, 1u64), (1.2, 2)] {
            let s = delta_1 as i64;
            for (relation, shift) in [
                (Neighbouring::AddRemove, s),
                (Neighbouring::ReplaceOne, 2 * s),
            ] {
                let one = doc(relation, *dlap(a, delta_1));
                let two = doc(relation, self_composed(dlap(a, delta_1), 2));
                for eps in [0.0, 0.3, 1.0, 2.0] {
                    for (d, shifts) in [(&one, vec![shift]), (&two, vec![shift, shift])] {
                        let want = direct(a, &shifts, eps);
                        let b = delta(d, eps, &opts).unwrap();
                        assert!(
                            b.optimistic <= want + 1e-12 && want <= b.pessimistic + 1e-12,
                            "{d:?} eps {eps}: {b:?} vs {want}"
                        );
                        assert!(b.pessimistic - b.optimistic <= 1e-3, "{b:?}");
                    }
                }
            }
        }
        // Sensitivity 0 releases nothing.
        let none = delta(&doc(Neighbouring::AddRemove, *dlap(1.0, 0)), 0.0, &opts).unwrap();
        assert_eq!((none.optimistic, none.pessimistic), (0.0, 0.0));
    }

    /// The depth a record can reach, counted by brute force over the dyadic intervals inside
    /// [1, T] for every step t, is the bit length [`tree_depth`] uses (dp_accounting's
    /// ceil(log2(T + 1))).
    #[test]
    fn tree_depth_is_the_most_nodes_a_step_enters() {
        for t_max in 0u64..=300 {
            let nodes_of = |t: u64| {
                (0..20)
                    .filter(|&j| t.div_ceil(1 << j) * (1 << j) <= t_max)
                    .count() as u64
            };
            let brute = (1..=t_max).map(nodes_of).max().unwrap_or(0);
            assert_eq!(tree_depth(&[t_max]), brute, "T = {t_max}");
            assert_eq!(
                tree_depth(&[t_max]),
                ((t_max + 1) as f64).log2().ceil() as u64,
                "T = {t_max}"
            );
        }
        assert_eq!(tree_depth(&[3, 100, 7]), 7);
        assert_eq!(tree_depth(&[0]), 0);
    }

    /// A tree event is the Gaussian mechanism with mu = sqrt(depth) s / sigma: its bracket holds
    /// the closed form delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (Balle & Wang
    /// 2018, Thm 8), and SelfComposed(tree, k) is SelfComposed(Gaussian, k depth).
    #[test]
    fn tree_events_are_gaussian_over_the_depth() {
        let opts = PldOptions::default();
        let phi = |x: f64| 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2);
        for (sigma, steps, relation, s) in [
            (2.0, vec![10u64], Neighbouring::AddRemove, 1.0),
            (5.0, vec![3, 100], Neighbouring::AddRemove, 1.0),
            (8.0, vec![64], Neighbouring::ReplaceOne, 2.0),
        ] {
            let depth = tree_depth(&steps) as f64;
            let mu = depth.sqrt() * s / sigma;
            let d = doc(relation, *tree(sigma, &steps));
            for eps in [0.0, 0.5, 1.0, 2.0] {
                let want = phi(mu / 2.0 - eps / mu) - eps.exp() * phi(-mu / 2.0 - eps / mu);
                let b = delta(&d, eps, &opts).unwrap();
                assert!(
                    b.optimistic <= want + 1e-12 && want <= b.pessimistic + 1e-12,
                    "{steps:?} eps {eps}: {b:?} vs {want}"
                );
            }
            let k = 7;
            let repeated = doc(relation, self_composed(tree(sigma, &steps), k));
            let gauss = doc(
                relation,
                self_composed(gaussian(sigma), k * tree_depth(&steps)),
            );
            assert_same(
                epsilon(&repeated, 1e-6, &opts).unwrap(),
                epsilon(&gauss, 1e-6, &opts).unwrap(),
            );
        }
        // Trees of no steps release nothing.
        let none = delta(
            &doc(Neighbouring::AddRemove, *tree(1.0, &[0, 0])),
            0.0,
            &opts,
        )
        .unwrap();
        assert_eq!((none.optimistic, none.pessimistic), (0.0, 0.0));
    }

    /// T unsampled Gaussian runs are one run with sigma / sqrt(T): the PLD path's bracket holds
    /// the closed form with mu = Delta sqrt(T) / sigma (Balle & Wang 2018, Thm 8), stays one grid
    /// step wide however large T is, and is the bracket of Gaussian(sigma / sqrt(T)). (On a grid
    /// of 1e-3: the default's 1e-4 tests nothing more here and cost 8 s.)
    #[test]
    fn unsampled_gaussian_runs_compose_exactly() {
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let phi = |x: f64| 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2);
        let pld_epsilon = |d: &EventDoc, delta: f64| {
            plds(d, &opts.focused(Focus::Delta(delta)))
                .unwrap()
                .epsilon(delta)
                .unwrap()
        };
        for (sigma, t, relation, s) in [
            (30.0, 1000u64, Neighbouring::AddRemove, 1.0),
            (200.0, 40_000, Neighbouring::ReplaceOne, 2.0),
        ] {
            let mu = s * (t as f64).sqrt() / sigma;
            let d = doc(relation, self_composed(gaussian(sigma), t));
            for eps in [0.5, 1.0, 3.0] {
                let want = phi(mu / 2.0 - eps / mu) - eps.exp() * phi(-mu / 2.0 - eps / mu);
                let b = plds(&d, &opts.focused(Focus::Epsilon(eps)))
                    .unwrap()
                    .delta(eps)
                    .unwrap();
                assert!(
                    b.optimistic <= want * (1.0 + 1e-9) && want <= b.pessimistic * (1.0 + 1e-9),
                    "T {t} eps {eps}: {b:?} vs {want}"
                );
            }
            let e = pld_epsilon(&d, 1e-6);
            assert!(e.pessimistic - e.optimistic <= 2.0 * opts.interval, "{e:?}");
            let one = doc(relation, *gaussian(sigma / (t as f64).sqrt()));
            assert_same(e, pld_epsilon(&one, 1e-6));
        }
    }

    /// Events that are exactly one Gaussian mechanism are answered by the certified closed form
    /// (`exact_gaussian_mu`): its bracket lies inside the PLD path's bracket for the same event
    /// (Gaussian, SelfComposed, PoissonSampled at q = 1, Composed with NoOp, both relations),
    /// is far narrower, and a mutant closed form with the other relation's sensitivity falls
    /// outside the PLD bracket. Sampled events keep the PLD path.
    #[test]
    fn exact_gaussian_events_take_the_closed_form() {
        let opts = PldOptions::default();
        for relation in [Neighbouring::AddRemove, Neighbouring::ReplaceOne] {
            let s = if relation == Neighbouring::ReplaceOne {
                2.0
            } else {
                1.0
            };
            for (event, mu) in [
                (*gaussian(4.0), s / 4.0),
                (self_composed(gaussian(16.0), 16), s * 0.25),
                (*poisson(1.0, gaussian(3.0)), s / 3.0),
                (
                    *poisson(1.0, Box::new(self_composed(gaussian(6.0), 4))),
                    s / 3.0,
                ),
                (
                    Event::Composed {
                        events: vec![
                            *gaussian(4.0),
                            Event::NoOp,
                            self_composed(gaussian(8.0), 12),
                        ],
                    },
                    s * (1.0f64 / 16.0 + 12.0 / 64.0).sqrt(),
                ),
            ] {
                let d = doc(relation, event);
                let (lo, hi) = exact_gaussian_mu(&d).expect("an exact Gaussian");
                assert!(
                    lo <= mu && mu <= hi && hi - lo < 1e-12 * mu,
                    "{lo} {hi} vs {mu}"
                );
                for delta_ in [1e-5] {
                    let closed = epsilon(&d, delta_, &opts).unwrap();
                    let grid = plds(&d, &opts.focused(Focus::Delta(delta_)))
                        .unwrap()
                        .epsilon(delta_)
                        .unwrap();
                    assert!(
                        grid.optimistic <= closed.optimistic
                            && closed.pessimistic <= grid.pessimistic,
                        "{relation:?} delta {delta_}: closed {closed:?} grid {grid:?}"
                    );
                    assert!(
                        closed.pessimistic - closed.optimistic < 1e-9 * (1.0 + closed.pessimistic)
                    );
                    let other = 3.0 - s; // 1 <-> 2
                    let mutant =
                        gaussian::epsilon_bracket(mu * other / s, mu * other / s, delta_).unwrap();
                    assert!(
                        mutant.1 < grid.optimistic || mutant.0 > grid.pessimistic,
                        "{relation:?} delta {delta_}: mutant {mutant:?} inside {grid:?}"
                    );
                }
                for eps in [0.5] {
                    let closed = delta(&d, eps, &opts).unwrap();
                    let grid = plds(&d, &opts.focused(Focus::Epsilon(eps)))
                        .unwrap()
                        .delta(eps)
                        .unwrap();
                    assert!(
                        grid.optimistic <= closed.optimistic
                            && closed.pessimistic <= grid.pessimistic,
                        "{relation:?} eps {eps}: closed {closed:?} grid {grid:?}"
                    );
                }
            }
            // Sampled, or without replacement: not an exact Gaussian.
            assert!(exact_gaussian_mu(&doc(relation, *poisson(0.5, gaussian(1.0)))).is_none());
            assert!(exact_gaussian_mu(&doc(relation, self_composed(laplace(1.0), 3))).is_none());
        }
    }

    /// A Gaussian part composed with a rest is answered by summing the Gaussian's certified
    /// closed form over the rest's PLD (`gaussian_split`): exact against the closed form of a
    /// Gaussian composed with a pure eps0-DP pair (delta = p delta_G(eps - eps0) + (1 - p)
    /// delta_G(eps + eps0), p = e^eps0 / (1 + e^eps0)); against the grid path (the brackets
    /// meet; both widths are the rest's discretisation, the split one no wider beyond 1%); a mutant with twice the Gaussian's mu is disjoint from the
    /// grid path's bracket.
    #[test]
    fn gaussian_part_composes_by_its_closed_form() {
        let opts = PldOptions::default();
        let phi = |x: f64| 0.5 * libm::erfc(-x / std::f64::consts::SQRT_2);
        let dg = |mu: f64, e: f64| phi(mu / 2.0 - e / mu) - e.exp() * phi(-mu / 2.0 - e / mu);
        // Gaussian(2) with a pure 0.5-DP pair, add/remove: mu = 1/2.
        let (mu, e0) = (0.5, 0.5f64);
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(2.0), *eps_delta(e0, 0.0)],
            },
        );
        assert!(gaussian_split(&d).is_some());
        let p = e0.exp() / (1.0 + e0.exp());
        for eps in [0.0, 0.3, 1.0, 2.0] {
            let want = p * dg(mu, eps - e0) + (1.0 - p) * dg(mu, eps + e0);
            let b = delta(&d, eps, &opts).unwrap();
            assert!(
                b.optimistic <= want * (1.0 + 1e-12) && want <= b.pessimistic * (1.0 + 1e-12),
                "eps {eps}: {b:?} vs {want}"
            );
            assert!(
                b.pessimistic - b.optimistic <= 1e-9 * want,
                "eps {eps}: {b:?}"
            );
        }
        for relation in [Neighbouring::AddRemove, Neighbouring::ReplaceOne] {
            for events in [
                vec![*gaussian(2.0), *laplace(5.0)],
                vec![*laplace(3.0), self_composed(gaussian(4.0), 4), Event::NoOp],
            ] {
                let d = doc(relation, Event::Composed { events });
                let ((lo, hi), rest) = gaussian_split(&d).expect("a split");
                for delta_ in [1e-5, 1e-2] {
                    let split = epsilon(&d, delta_, &opts).unwrap();
                    let grid = plds(&d, &opts.focused(Focus::Delta(delta_)))
                        .unwrap()
                        .epsilon(delta_)
                        .unwrap();
                    assert!(
                        split.optimistic <= grid.pessimistic
                            && grid.optimistic <= split.pessimistic,
                        "{relation:?} delta {delta_}: split {split:?} grid {grid:?}"
                    );
                    assert!(
                        split.pessimistic - split.optimistic
                            <= 1.01 * (grid.pessimistic - grid.optimistic),
                        "{relation:?} delta {delta_}: split {split:?} grid {grid:?}"
                    );
                    let dirs = split_plds(&rest, &opts.focused(Focus::Delta(delta_)))
                        .unwrap()
                        .unwrap();
                    let mutant = split_epsilon((2.0 * lo, 2.0 * hi), &dirs, delta_).unwrap();
                    assert!(
                        mutant.optimistic > grid.pessimistic,
                        "{relation:?} delta {delta_}: mutant {mutant:?} meets {grid:?}"
                    );
                }
                let eps = 1.0;
                let split = delta(&d, eps, &opts).unwrap();
                let grid = plds(&d, &opts.focused(Focus::Epsilon(eps)))
                    .unwrap()
                    .delta(eps)
                    .unwrap();
                assert!(
                    split.optimistic <= grid.pessimistic && grid.optimistic <= split.pessimistic,
                    "{relation:?} eps {eps}: split {split:?} grid {grid:?}"
                );
            }
        }
        // No Gaussian part, or nothing else: no split.
        let d = doc(Neighbouring::AddRemove, self_composed(laplace(1.0), 3));
        assert!(gaussian_split(&d).is_none());
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(1.0), Event::NoOp],
            },
        );
        assert!(gaussian_split(&d).is_none());
    }

    /// The split's epsilon search: a Gaussian part of mu = 2^32 (epsilon near 2^63, as the
    /// closed form alone searches up to 1e300) was [1e6, inf]; a rest whose mass at +inf
    /// exceeds delta was [1e6, inf] for a true +inf (now +inf at both ends, as on the grid
    /// path); delta near 1 is answered at 0.
    #[test]
    fn gaussian_split_epsilon_search_ends() {
        let opts = PldOptions {
            interval: 1e-2,
            ..PldOptions::default()
        };
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(2f64.powi(-32)), *laplace(1.0)],
            },
        );
        let mu: f64 = 2f64.powi(32);
        let b = epsilon(&d, 1e-6, &opts).unwrap();
        // The Gaussian part alone needs about mu^2/2 + mu z, z ~ 4.75 at 1e-6; the Laplace
        // part adds at most 1.
        let alone = gaussian::epsilon_bracket(mu, mu, 1e-6).unwrap();
        assert!(
            b.optimistic >= alone.0 * (1.0 - 1e-9)
                && b.pessimistic <= (alone.1 + 1.0) * (1.0 + 1e-9),
            "{b:?} vs {alone:?}"
        );
        for events in [
            vec![*gaussian(1.0), *eps_delta(0.0, 0.999999)],
            vec![*gaussian(1.0), *eps_delta(1.0, 1.0)],
        ] {
            let d = doc(Neighbouring::AddRemove, Event::Composed { events });
            let b = epsilon(&d, 0.99, &opts).unwrap();
            assert_eq!(
                (b.optimistic, b.pessimistic),
                (f64::INFINITY, f64::INFINITY)
            );
        }
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(2.0), *laplace(1.0)],
            },
        );
        let b = epsilon(&d, 0.99, &opts).unwrap();
        assert_eq!((b.optimistic, b.pessimistic), (0.0, 0.0));
    }

    /// `Pld::delta_composed_with` moves its sum by every error the PLD states: masses within
    /// $\rho\hat p_s+a_s$ of the computed ones ([`pld::RoundOff`]) and misplaced (alias) mass.
    /// Adversarial true masses at the edge of each error (every $a_s$ at its share of the
    /// norm $e^{a}$, with and without a tilt) stay inside the bracket, and the bracket of the
    /// same PLD told of no error does not hold them: a mutant that dropped the envelope, the
    /// relative term or the alias mass fails here.
    #[test]
    fn composed_with_closed_form_covers_the_stated_errors() {
        use pld::{RoundOff, Rounding};
        let mu = 1.0;
        let lower = |x: f64| gaussian::log_delta_lower(mu, mu, x).unwrap();
        let upper = |x: f64| gaussian::log_delta_upper(mu, mu, x).unwrap();
        let w = |x: f64| gaussian::delta(mu, x).unwrap();
        let (interval, offset, pmf) = (0.5, -2i64, vec![0.1, 0.2, 0.3, 0.25, 0.15]);
        let loss = |i: usize| (offset + i as i64) as f64 * interval;
        let n = pmf.len() as f64;
        let eps = 0.7;
        let stated = |rounding, roundoff, alias_mass| Pld {
            interval,
            offset,
            pmf: pmf.clone(),
            infinity_mass: 0.0,
            alias_mass,
            rounding,
            roundoff,
        };
        for (roundoff, alias) in [
            (
                RoundOff {
                    relative: 1e-3,
                    ln_scale: f64::NEG_INFINITY,
                    tilt: 0.0,
                },
                0.0,
            ),
            (
                RoundOff {
                    relative: 0.0,
                    ln_scale: 1e-3f64.ln(),
                    tilt: 0.0,
                },
                0.0,
            ),
            (
                RoundOff {
                    relative: 0.0,
                    ln_scale: 1e-3f64.ln(),
                    tilt: 1.5,
                },
                0.0,
            ),
            (RoundOff::EXACT, 1e-3),
        ] {
            // a_s = e^{a - theta l_s} / sqrt(n): (sum (a_s e^{theta l_s})^2)^{1/2} = e^a.
            let a = |i: usize| (roundoff.ln_scale - roundoff.tilt * loss(i)).exp() / n.sqrt();
            for rounding in [Rounding::Pessimistic, Rounding::Optimistic] {
                let sign = if rounding == Rounding::Pessimistic {
                    1.0
                } else {
                    -1.0
                };
                let mut truth: f64 = (0..pmf.len())
                    .map(|i| {
                        (pmf[i] + sign * (roundoff.relative * pmf[i] + a(i))) * w(eps - loss(i))
                    })
                    .sum();
                if rounding == Rounding::Optimistic {
                    // The misplaced mass belongs where the weight is 0, not at the top loss.
                    truth -= alias * w(eps - loss(pmf.len() - 1));
                }
                let got =
                    stated(rounding, roundoff, alias).delta_composed_with(eps, &lower, &upper);
                let bare =
                    stated(rounding, RoundOff::EXACT, 0.0).delta_composed_with(eps, &lower, &upper);
                if rounding == Rounding::Pessimistic {
                    // (The alias mass moves the optimistic end only.)
                    let moved = roundoff != RoundOff::EXACT;
                    assert!(
                        got >= truth && (bare < truth || !moved),
                        "{roundoff:?}: {got} {bare} {truth}"
                    );
                } else {
                    assert!(
                        got <= truth && bare > truth,
                        "{roundoff:?} alias {alias}: {got} {bare} {truth}"
                    );
                }
            }
        }
    }

    /// Tiny masses at $+\infty$ survive a composition (`Pld::convolve` computed
    /// `1 - (1 - a)(1 - b)`, 0 for a = b = 1e-20): the pessimistic delta(1) of two
    /// EpsilonDelta(0.1, 1e-20) was 0 for a true 2e-20, and epsilon(1e-20) was 0.2 for a
    /// true +inf; the split path's rest composes the same way.
    #[test]
    fn tiny_masses_at_infinity_compose() {
        let opts = PldOptions::default();
        let want = 2e-20 - 1e-40;
        for events in [
            vec![*eps_delta(0.1, 1e-20), *eps_delta(0.1, 1e-20)],
            vec![
                *gaussian(1e6),
                *eps_delta(0.1, 1e-20),
                *eps_delta(0.1, 1e-20),
            ],
        ] {
            let d = doc(Neighbouring::AddRemove, Event::Composed { events });
            let b = delta(&d, 10.0, &opts).unwrap();
            assert!(b.optimistic <= want && want <= b.pessimistic, "{b:?}");
            let e = epsilon(&d, 1e-20, &opts).unwrap();
            assert_eq!(e.pessimistic, f64::INFINITY, "{e:?}");
        }
    }

    /// The split's ends carry no absolute error: its upper end had a floor of n u (the
    /// rounding of each loss charged as an absolute error on its weight, and the sum's
    /// rounding charged on the total mass), 2.2e-12 for a Laplace rest of 20001 points, so
    /// that epsilon(1e-12) of Gaussian(2) with Laplace(1) was [4.31, inf] where the grid path
    /// answers [4.4010, 4.4011], and delta(5) of Gaussian(2) with a pure 0.5-DP pair was
    /// [0, 1.9e-15] for an exact 3.5e-20. Now: within 1e-6 of the exact value (the closed form
    /// as above, in log space) down to 1e-80, and epsilon(1e-12) finite and meeting the grid
    /// path's.
    #[test]
    fn gaussian_split_has_no_absolute_floor() {
        let opts = PldOptions::default();
        let (mu, e0) = (0.5, 0.5f64);
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(2.0), *eps_delta(e0, 0.0)],
            },
        );
        let p = e0.exp() / (1.0 + e0.exp());
        let dg = |e: f64| gaussian::delta(mu, e).unwrap();
        for eps in [5.0, 10.0] {
            let want = p * dg(eps - e0) + (1.0 - p) * dg(eps + e0);
            assert!(want > 1e-81 && want < 1e-19, "eps {eps}: {want}");
            let b = delta(&d, eps, &opts).unwrap();
            assert!(
                b.optimistic >= want * (1.0 - 1e-6) && b.pessimistic <= want * (1.0 + 1e-6),
                "eps {eps}: {b:?} vs {want}"
            );
            assert!(
                b.optimistic <= want * (1.0 + 1e-9) && want <= b.pessimistic * (1.0 + 1e-9),
                "eps {eps}: {b:?} vs {want}"
            );
        }
        // Past the underflow (an exact 6.9e-8584) the upper end is the smallest subnormal, not 0.
        let b = delta(&d, 100.0, &opts).unwrap();
        assert!(b.optimistic == 0.0 && b.pessimistic > 0.0, "{b:?}");
        let d = doc(
            Neighbouring::AddRemove,
            Event::Composed {
                events: vec![*gaussian(2.0), *laplace(1.0)],
            },
        );
        let delta_ = 1e-12;
        let split = epsilon(&d, delta_, &opts).unwrap();
        let grid = plds(&d, &opts.focused(Focus::Delta(delta_)))
            .unwrap()
            .epsilon(delta_)
            .unwrap();
        assert!(
            split.pessimistic.is_finite()
                && split.optimistic <= grid.pessimistic
                && grid.optimistic <= split.pessimistic
                && split.pessimistic - split.optimistic
                    <= 1.01 * (grid.pessimistic - grid.optimistic),
            "split {split:?} grid {grid:?}"
        );
    }

    /// The five types without a certified reference are refused, at their path, with
    /// "metamorphic checks only" and the reason; inside PoissonSampled too.
    #[test]
    fn metamorphic_only_events_say_so() {
        let opts = PldOptions::default();
        let cases: Vec<Event> = vec![
            Event::ZCDp { rho: 0.5, xi: 0.0 },
            Event::MixtureOfGaussians {
                standard_deviation: 1.0,
                sensitivities: vec![0.0, 1.0],
                sampling_probs: vec![0.9, 0.1],
            },
            Event::TruncatedSubsampledGaussian {
                dataset_size: 1000,
                sampling_probability: 0.01,
                truncated_batch_size: 15,
                noise_multiplier: 1.0,
            },
            Event::SampledWithReplacement {
                source_dataset_size: 1000,
                sample_size: 10,
                event: gaussian(1.0),
            },
            Event::RepeatAndSelect {
                event: gaussian(1.0),
                mean: 3.0,
                shape: 1.0,
            },
        ];
        for e in cases {
            for relation in [Neighbouring::AddRemove, Neighbouring::ReplaceOne] {
                for (d, path) in [
                    (
                        doc(
                            relation,
                            Event::Composed {
                                events: vec![*gaussian(1.0), e.clone()],
                            },
                        ),
                        "event.events[1]",
                    ),
                    (
                        doc(relation, *poisson(0.1, Box::new(e.clone()))),
                        "event.event",
                    ),
                ] {
                    match plds(&d, &opts) {
                        Err(err @ EventPldError::Unsupported { .. }) => {
                            let EventPldError::Unsupported {
                                path: p,
                                event,
                                reason,
                                ..
                            } = &err
                            else {
                                unreachable!()
                            };
                            assert_eq!((p.as_str(), *event), (path, e.type_name()), "{err}");
                            assert!(reason.starts_with("metamorphic checks only: "), "{err}");
                        }
                        other => panic!("{d:?}: {:?}", other.map(|_| ())),
                    }
                }
            }
        }
    }

    /// Events without privacy cost give delta(0) = 0, and adding one changes nothing.
    #[test]
    fn no_ops_change_nothing() {
        let opts = PldOptions::default();
        let base = self_composed(poisson(0.05, gaussian(1.0)), 100);
        let with = Event::Composed {
            events: vec![
                base.clone(),
                Event::NoOp,
                self_composed(laplace(1.0), 0),
                *poisson(0.0, laplace(1.0)),
                Event::Composed { events: vec![] },
            ],
        };
        let (a, b) = (
            epsilon(&doc(Neighbouring::AddRemove, base), 1e-6, &opts).unwrap(),
            epsilon(&doc(Neighbouring::AddRemove, with), 1e-6, &opts).unwrap(),
        );
        assert!(
            (a.pessimistic - b.pessimistic).abs() <= 1e-12
                && (a.optimistic - b.optimistic).abs() <= 1e-12,
            "{a:?} vs {b:?}"
        );
        let none = delta(&doc(Neighbouring::ReplaceOne, Event::NoOp), 0.0, &opts).unwrap();
        assert_eq!((none.optimistic, none.pessimistic), (0.0, 0.0));
    }

    /// Over epochs: [`random_allocation::composed`] (one composition of all the epochs' blocks),
    /// the event walker on `SelfComposed` of the allocation (the same, at once) and the walker
    /// epoch by epoch (an allocation in a `Composed`: the blocks of an epoch, then the epochs)
    /// bracket the same run, so their brackets meet.
    #[test]
    fn epochs_composed_at_once_meet_the_walker() {
        use super::super::random_allocation::{self, RandomAllocation};
        let (sigma, t, epochs, delta) = (1.0, 3u64, 3u64, 1e-4);
        let ra = RandomAllocation::new(sigma, 2, t).unwrap();
        let coarse = PldOptions {
            interval: 1e-3,
            tail_mass: 1e-11,
            ..PldOptions::default()
        };
        let at_once = random_allocation::epsilon(&ra, epochs, delta, &coarse).unwrap();
        let allocation = allocation(sigma, 2, t);
        let epochs_of = |event: Event| EventDoc {
            version: 1,
            neighbouring: Neighbouring::AddRemove,
            event: Event::SelfComposed {
                count: epochs,
                event: Box::new(event),
            },
        };
        // SelfComposed(allocation) is composed at once by the walker too: the same bracket (up
        // to the document's tilt, chosen by its own pass: 1e-12 apart here).
        let direct = epsilon(&epochs_of(allocation.clone()), delta, &coarse).unwrap();
        assert!(
            (direct.optimistic - at_once.optimistic).abs() < 1e-9
                && (direct.pessimistic - at_once.pessimistic).abs() < 1e-9,
            "{direct:?} vs {at_once:?}"
        );
        // Through a Composed the walker composes an epoch's blocks, then the epochs.
        let per_epoch = Event::Composed {
            events: vec![allocation, Event::NoOp],
        };
        let walked = epsilon(&epochs_of(per_epoch), delta, &coarse).unwrap();
        assert!(
            at_once.optimistic <= walked.pessimistic && walked.optimistic <= at_once.pessimistic,
            "{at_once:?} vs {walked:?}"
        );
        assert!(
            (at_once.pessimistic - walked.pessimistic).abs() < 0.02,
            "{at_once:?} vs {walked:?}"
        );
    }

    /// $k>1$ at large σ and small δ (σ 26, 2 of 5 steps, 20 epochs, δ 3.2·10⁻⁸, interval
    /// 2.5·10⁻⁵, 2²² points): epoch by epoch (an allocation in a `Composed`) the epochs' window
    /// spans the far left of an epoch's PLD, which the tilted convolution of its blocks leaves
    /// as floating-point envelope, and the point budget refuses it; `SelfComposed` of the
    /// allocation is composed at once and answered, a narrow bracket (measured [0.737167,
    /// 0.756204]; [0.735598, 0.763938] at 10⁻⁴). The mutant "the walker composes epoch by
    /// epoch" fails here.
    #[test]
    fn many_epochs_of_k_steps_are_composed_at_once() {
        let allocation = allocation(26.085147126551973, 2, 5);
        let opts = PldOptions {
            interval: 2.5e-5,
            max_points: 1 << 22,
            ..PldOptions::default()
        };
        let delta = 3.244881410027035e-8;
        let epochs_of = |event: Event| {
            doc(
                Neighbouring::AddRemove,
                Event::SelfComposed {
                    count: 20,
                    event: Box::new(event),
                },
            )
        };
        let at_once = epsilon(&epochs_of(allocation.clone()), delta, &opts).unwrap();
        assert!(
            at_once.pessimistic - at_once.optimistic < 0.03 && at_once.optimistic > 0.73,
            "{at_once:?}"
        );
        let per_epoch = Event::Composed {
            events: vec![allocation, Event::NoOp],
        };
        let e = epsilon(&epochs_of(per_epoch), delta, &opts).unwrap_err();
        assert!(e.to_string().contains("points"), "{e}");
    }

    /// The walker hands a random allocation the run it is composed in (`copies`: the counts of
    /// the `SelfComposed` above it, through a `Composed`; `target`: the document's focus), so
    /// that $k>1$ keeps the lower end that is larger there: at σ = 1, 2 of 10 steps, δ = 10⁻⁵,
    /// three epochs, the statistic's (5.82 on the grid 10⁻³; the blocks moved: 5.32), one
    /// epoch, the blocks moved (3.21; the statistic: 3.08). The mutants "copies left at 1"
    /// (three epochs pick the blocks moved) and "one copy more per level" are caught.
    #[test]
    fn the_walker_picks_the_lower_end_for_the_run() {
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let allocation = Event::RandomAllocation {
            event: Box::new(Event::Gaussian {
                noise_multiplier: 1.0,
            }),
            num_selected: 2,
            num_steps: 10,
        };
        let doc = |event: Event| EventDoc {
            version: 1,
            neighbouring: Neighbouring::AddRemove,
            event,
        };
        let three = doc(Event::SelfComposed {
            count: 3,
            event: Box::new(Event::Composed {
                events: vec![allocation.clone(), Event::NoOp],
            }),
        });
        // The same run through the at-once branch (`allocation_epochs`) with copies = 3 above
        // it: the mutant "copies left at 1" there picks the blocks moved (measured 5.49).
        let three_at_once = doc(Event::SelfComposed {
            count: 3,
            event: Box::new(Event::SelfComposed {
                count: 1,
                event: Box::new(allocation.clone()),
            }),
        });
        let one = doc(Event::SelfComposed {
            count: 1,
            event: Box::new(allocation),
        });
        let (three, three_at_once, one) = (
            epsilon(&three, 1e-5, &opts).unwrap(),
            epsilon(&three_at_once, 1e-5, &opts).unwrap(),
            epsilon(&one, 1e-5, &opts).unwrap(),
        );
        assert!(three.optimistic > 5.8, "{three:?}");
        assert!(three_at_once.optimistic > 5.8, "{three_at_once:?}");
        assert!(one.optimistic > 3.2, "{one:?}");
    }

    /// Replace-one with an allocation and another mechanism: the silenced lower end
    /// (`silenced_lower`, tested apart: the walked antipodal end is larger here and would hide
    /// it) is the rest's replace-one value (the records alike in the allocation's steps,
    /// antipodal in the Gaussian step: exactly the Gaussian mechanism with $\mu=2/\sigma$), far
    /// above the add/remove lower end; the answer's lower end is at least it (the antipodal pair
    /// in both parts adds the allocation's evidence) and below the upper end. A document that is
    /// the allocation alone has no silenced end; its lower end is at least the add/remove one.
    #[test]
    fn replace_one_lower_end_takes_the_rest_with_the_allocation_silenced() {
        let ra = Event::RandomAllocation {
            event: gaussian(1.0),
            num_selected: 1,
            num_steps: 8,
        };
        let both = Event::Composed {
            events: vec![ra.clone(), *gaussian(0.5)],
        };
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let replace = doc(Neighbouring::ReplaceOne, both.clone());
        for eps in [1.0, 4.0] {
            let b = delta(&replace, eps, &opts).unwrap();
            let rest = gaussian::delta(4.0, eps).unwrap();
            let add_remove = delta(&doc(Neighbouring::AddRemove, both.clone()), eps, &opts)
                .unwrap()
                .optimistic;
            let silenced = silenced_lower(&replace, add_remove, |d| delta(d, eps, &opts)).unwrap();
            assert!(
                silenced <= rest && silenced >= rest * (1.0 - 1e-9),
                "eps {eps}: {silenced} vs {rest}"
            );
            assert!(silenced > 1.5 * add_remove, "{silenced} vs {add_remove}");
            assert!(b.optimistic >= silenced, "{b:?} vs {silenced}");
            assert!(b.optimistic <= b.pessimistic, "{b:?}");
            let alone = doc(Neighbouring::ReplaceOne, ra.clone());
            let alone_ar = delta(&doc(Neighbouring::AddRemove, ra.clone()), eps, &opts).unwrap();
            assert_eq!(
                silenced_lower(&alone, alone_ar.optimistic, |d| delta(d, eps, &opts)).unwrap(),
                alone_ar.optimistic
            );
            assert!(delta(&alone, eps, &opts).unwrap().optimistic >= alone_ar.optimistic);
        }
        let b = epsilon(&replace, 1e-5, &opts).unwrap();
        let add_remove = epsilon(&doc(Neighbouring::AddRemove, both), 1e-5, &opts)
            .unwrap()
            .optimistic;
        let silenced = silenced_lower(&replace, add_remove, |d| epsilon(d, 1e-5, &opts)).unwrap();
        let rest = gaussian::epsilon(4.0, 1e-5).unwrap();
        assert!(
            silenced <= rest && silenced >= rest - 1e-9,
            "{silenced} vs {rest}"
        );
        assert!(b.optimistic >= silenced, "{b:?} vs {silenced}");
    }

    /// Replace-one with random allocation, one epoch of $t=2$ steps, $\sigma=1$: every realised
    /// pair in one dimension (the record's gradient $a$ in $D$, $b$ in $D'$, the same slot:
    /// $\frac12\mathcal N((a,0),I)+\frac12\mathcal N((0,a),I)$ against the same with $b$), its
    /// $\delta(\epsilon)$ by 2-D quadrature (midpoint rule, step $0.02$ on $[-7,7]^2$; its error,
    /// measured on the Gaussian pair of $\mu=2$ against the closed form, is under $3\cdot10^{-5}$),
    /// lies under the upper end, the antipodal pair included; the lower end is at most the
    /// antipodal $(1,-1)$ pair's (whose statistic it is) and above the $(1,0)$ and $(0,1)$
    /// pairs' (the add/remove lower end it improves on). Mutant: the add/remove upper end
    /// taken as the replace-one upper end is exceeded by the antipodal pair.
    #[test]
    fn random_allocation_replace_one_against_quadrature() {
        const H: f64 = 0.02;
        let n = (14.0 / H) as usize;
        let ys: Vec<f64> = (0..n).map(|i| -7.0 + (i as f64 + 0.5) * H).collect();
        let phi = |z: f64| (-z * z / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let g = |a: f64| ys.iter().map(|y| phi(y - a)).collect::<Vec<f64>>();
        // δ(ε) of two mixtures of two products each: p(y) = (u(y1)v(y2) + u'(y1)v'(y2)) / 2.
        type Mix = [Vec<f64>; 4];
        let quad = |p: &Mix, q: &Mix, eps: f64| {
            let w = eps.exp();
            let mut sum = 0.0;
            for i in 0..n {
                let (p0, p2, q0, q2) = (p[0][i], p[2][i], w * q[0][i], w * q[2][i]);
                for j in 0..n {
                    let d = p0 * p[1][j] + p2 * p[3][j] - q0 * q[1][j] - q2 * q[3][j];
                    sum += d.max(0.0);
                }
            }
            sum * H * H / 2.0
        };
        let mix = |a: f64| [g(a), g(0.0), g(0.0), g(a)];
        for eps in [0.5, 2.0] {
            let exact = gaussian::delta(2.0, eps).unwrap();
            let shifted = |a: f64| [g(a), g(0.0), g(a), g(0.0)];
            let q = quad(&shifted(1.0), &shifted(-1.0), eps);
            assert!((q - exact).abs() < 3e-5, "quadrature {q} vs {exact}");
        }
        let ra = allocation(1.0, 1, 2);
        let opts = PldOptions {
            interval: 1e-2,
            ..PldOptions::default()
        };
        let replace = doc(Neighbouring::ReplaceOne, ra.clone());
        let add_remove = doc(Neighbouring::AddRemove, ra);
        for eps in [0.5, 1.0, 2.0] {
            let b = delta(&replace, eps, &opts).unwrap();
            let realised = |a: f64, b: f64| quad(&mix(a), &mix(b), eps);
            for (a, b_) in [
                (1.0, -1.0),
                (1.0, -0.5),
                (0.8, -1.0),
                (1.0, 0.0),
                (0.0, 1.0),
            ] {
                let d = realised(a, b_);
                assert!(
                    d <= b.pessimistic + 3e-5,
                    "eps {eps}: ({a}, {b_}) {d} > {b:?}"
                );
            }
            // The lower end is the antipodal pair's statistic: under that pair's δ, and above
            // the add/remove pairs' (which it replaced as the lower end).
            let antipodal = realised(1.0, -1.0);
            let add_remove_pairs = realised(1.0, 0.0).max(realised(0.0, 1.0));
            assert!(
                b.optimistic <= antipodal + 3e-5,
                "eps {eps}: {b:?} vs {antipodal}"
            );
            assert!(
                b.optimistic > add_remove_pairs + 1e-3,
                "eps {eps}: {b:?} vs {add_remove_pairs}"
            );
            let mutant = delta(&add_remove, eps, &opts).unwrap().pessimistic;
            assert!(
                antipodal > mutant + 1e-3,
                "eps {eps}: mutant {mutant} not refuted"
            );
        }
        // ε(δ) on a finer grid: the antipodal pair's δ at the upper end is at most δ (a split without
        // the e^{-ε₁} of the second hop gives about 1.71 at δ = 0.15, where that pair's δ is
        // 0.155), and at the lower end (that pair's statistic) at least δ.
        let fine = PldOptions {
            interval: 1e-3,
            ..opts
        };
        for target in [0.15, 0.05] {
            let b = epsilon(&replace, target, &fine).unwrap();
            let at = quad(&mix(1.0), &mix(-1.0), b.pessimistic);
            assert!(at <= target + 3e-5, "delta {target}: {at} at {b:?}");
            let lower = quad(&mix(1.0), &mix(-1.0), b.optimistic);
            assert!(lower >= target - 3e-5, "delta {target}: {lower} at {b:?}");
        }
    }
}
