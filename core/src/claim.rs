//! The claim contract. A claim is one statement of one paper (or one reading of it), with the
//! parameter sets ("cases") it is checked on, the bound, the measured quantity and the
//! relation that must hold. Mutants are parameters of [`Claim::measure`], never separate
//! code paths through the harness.

use crate::params::Params;
use crate::verdict::Relation;
use dpclaims_accounting::ParamError;
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::Merge;
use dpclaims_empirical::runner::Shard;
use dpclaims_empirical::stats::{CountAcc, MeanAcc, TwoSampleHistogram, VectorAcc};
use serde::{Deserialize, Serialize};

/// Case parameters that never change what a simulation draws, and so stay out of every stream
/// key ([`StreamKey`]): `trials` (how many draws, not
/// which) and `tolerance` (a verdict's slack). A claim excludes its other non-random
/// parameters (a bound's level, an order only the estimate uses) the same way, so that changing
/// them leaves the measured numbers unchanged (`tests/streams.rs` checks it).
pub const NON_RANDOM: &[&str] = &["trials", "tolerance"];

/// A case's label for a trial stream key: every parameter except [`NON_RANDOM`], `also` (the
/// claim's other parameters that do not change what is drawn) and `population_seed` (which
/// keys the population's own stream, [`population_key`], not the trials').
pub fn stream_label(case: &Params, also: &[&str]) -> String {
    let skip: Vec<&str> = NON_RANDOM
        .iter()
        .chain(also)
        .chain(&[POPULATION_SEED])
        .copied()
        .collect();
    case.label_without(&skip)
}

/// The case parameter that seeds a claim's fixed population.
pub const POPULATION_SEED: &str = "population_seed";

/// The default `population_seed` of the built-in claims (the seed their populations were drawn
/// with before they had their own: the test seed, so the recorded numbers did not move).
pub const DEFAULT_POPULATION_SEED: u64 = 7;

/// The stream of a case's fixed population (a pool, a dataset drawn from it, fixed points):
/// keyed by the case's `population_seed`, not by the run seed. A claim whose statement is about
/// one population (a bound that holds for every dataset, a theorem about one distribution) is
/// conditional on it, and says so by this parameter: every run seed then measures the same
/// quantity, and `--set population_seed=N` checks another population. A claim whose statement
/// averages over populations draws one per trial instead.
pub fn population_key(case: &Params, labels: &[&str]) -> Result<StreamKey, ParamError> {
    Ok(StreamKey::new(case.u64(POPULATION_SEED)?, labels))
}

/// A deliberate error that the harness must report as violated.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Mutant {
    /// Kebab-case name, as given to `--mutant` (e.g. `noise-halved`).
    pub name: &'static str,
    /// What the mutant changes, and on which side (bound or measurement).
    pub description: &'static str,
}

/// What a claim is: its id, source and statement.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ClaimInfo {
    /// `<topic>.<result>`, e.g. `stability.lemma5`.
    pub id: &'static str,
    /// Source paper file and citation.
    pub paper: &'static str,
    /// Theorem / lemma / equation in the paper, with its status tag.
    pub result: &'static str,
    /// One-line statement.
    pub statement: &'static str,
    /// Deliberate errors the harness must report violated (at least one per claim, unless
    /// `known_false`).
    pub mutants: &'static [Mutant],
    /// The statement as printed is known to fail on the claim's cases (evidence in
    /// THEOREMS_NOTES.md): `violated` is its expected verdict, the tests assert it, and it does
    /// not make `check` exit 1. Such a claim needs no mutant.
    pub known_false: bool,
    /// Outcomes of this claim that are true by construction (they cannot fail whatever the
    /// paper says): kept because they check the code path or report a number, labelled
    /// `tautology` in `list`, the table, the JSON and the report.
    pub tautologies: &'static [Tautology],
    /// What [`RunSpec::perturbation`] changes in this claim's algorithm (e.g. "the noise std
    /// times 1 - kappa"), or `None` when the claim has no algorithm parameter to perturb (a
    /// closed form against a closed form): the algorithm side of its detection threshold.
    pub perturbation: Option<&'static str>,
}

/// Outcomes of a claim that hold by construction. The flag belongs to an outcome, not to a
/// claim, because one claim can mix informative outcomes with constructed ones (an RDP check
/// whose constant was solved from the same RDP routine beside an independent PLD check); the
/// claim declares it so that `dpclaims list` shows it without running anything, and the harness
/// stamps every outcome it covers.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Tautology {
    /// The outcomes covered: those whose parameters have every one of these `(key, value)`
    /// pairs (a value matches a JSON string equal to it, or a number equal to it parsed as
    /// `f64`); empty: every outcome of the claim.
    pub outcomes: &'static [(&'static str, &'static str)],
    /// Why these outcomes cannot fail.
    pub reason: &'static str,
}

impl Tautology {
    /// Which outcomes it covers, as text (`every outcome`, `accountant=RDP`).
    pub fn scope(&self) -> String {
        if self.outcomes.is_empty() {
            "every outcome".to_string()
        } else {
            self.outcomes
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    }

    /// Whether this tautology covers an outcome with parameters `params`.
    pub fn covers(&self, params: &Params) -> bool {
        self.outcomes.iter().all(|(key, value)| {
            params.0.get(*key).is_some_and(|v| match v {
                serde_json::Value::String(s) => s == value,
                serde_json::Value::Number(n) => value
                    .parse::<f64>()
                    .ok()
                    .is_some_and(|x| n.as_f64() == Some(x)),
                other => other.to_string() == *value,
            })
        })
    }
}

impl ClaimInfo {
    /// The reason an outcome with parameters `params` holds by construction, if it does.
    pub fn tautology(&self, params: &Params) -> Option<&'static str> {
        self.tautologies
            .iter()
            .find(|t| t.covers(params))
            .map(|t| t.reason)
    }
}

/// The sufficient statistics of a measured quantity; the harness turns them into an interval
/// once it knows the per-outcome confidence level. Sampled statistics keep one accumulator per
/// block of trials, in block order, so that shards of a run merge bit for bit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Statistic {
    /// A mean, interval by Student t.
    Mean {
        /// One accumulator per block of trials, in block order.
        blocks: Vec<MeanAcc>,
    },
    /// A mean of values known to lie in `[lo, hi]`, interval by empirical Bernstein.
    BoundedMean {
        /// One accumulator per block of trials, in block order.
        blocks: Vec<MeanAcc>,
        /// Lower end of the values' range.
        lo: f64,
        /// Upper end of the values' range.
        hi: f64,
    },
    /// A proportion, interval by Clopper–Pearson.
    Proportion {
        /// One count per block of trials, in block order.
        blocks: Vec<CountAcc>,
    },
    /// A Rényi divergence $D_\alpha=\frac1{\alpha-1}\ln M$ from the blocks of the mean
    /// $M=\mathbb E[e^{(\alpha-1)\ell}]$ of a log-likelihood ratio $\ell$: Student t interval on
    /// $M$, mapped through the increasing $\ln(\cdot)/(\alpha-1)$.
    RenyiMoment {
        /// Blocks of $e^{(\alpha-1)\ell}$, in block order.
        blocks: Vec<MeanAcc>,
        /// The order $\alpha>1$.
        alpha: f64,
    },
    /// A value computed exactly.
    Exact {
        /// The value.
        value: f64,
    },
    /// The largest sampled value of a quantity that a deterministic (pathwise) inequality
    /// bounds: a maximum over the `n` instances drawn, not a supremum (method
    /// `sampled-maximum`), mergeable across shards.
    Maximum {
        /// One accumulator per block of trials (its `max`), in block order: the instances'
        /// values, or their upper ends $v_i+e_i$ when `lower` is given.
        blocks: Vec<MeanAcc>,
        /// The instances' lower ends $v_i-e_i$ ($e_i$ a bound on the numerical error of $v_i$),
        /// block for block; `None` when the values are exact.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lower: Option<Vec<MeanAcc>>,
    },
    /// A value computed numerically with a rigorous bound on its error.
    Computed {
        /// The value.
        value: f64,
        /// A bound on its numerical error (the interval is value ± error).
        error: f64,
    },
    /// A value computed on a grid, with its refinement error *estimate*: the interval is
    /// `fine` ± 2|`fine` − `coarse`| (method `refinement-estimate`; see
    /// [`refinement_estimate`](dpclaims_empirical::stats::refinement_estimate) for why it is an
    /// estimate and why the factor 2).
    Refined {
        /// The value on the grid used.
        fine: f64,
        /// The value on the grid of half as many cells.
        coarse: f64,
    },
    /// A value known only to lie in `[lower, upper]` for certain (e.g. a PLD accountant's
    /// optimistic and pessimistic ends): the bracket is the interval (method `bracket`), so a
    /// verdict is violated only when the whole bracket is past the bound.
    Bracket {
        /// The lower end (e.g. the PLD's optimistic value).
        lower: f64,
        /// The upper end (e.g. the PLD's pessimistic value).
        upper: f64,
    },
    /// The half-line hockey-stick functional of two samples at order `epsilon` (DKW band).
    HalfLineHockeyStick {
        /// The two samples, binned.
        histogram: TwoSampleHistogram,
        /// The order $\varepsilon$ of $\mathsf E_\varepsilon$.
        epsilon: f64,
    },
    /// The slope of $\ln(\text{mean})$ against $\ln x$ over design points `xs`, one list of
    /// blocks per point (a rate exponent).
    LogSlope {
        /// The design points $x$.
        xs: Vec<f64>,
        /// For each design point, its blocks, in block order.
        points: Vec<Vec<MeanAcc>>,
    },
    /// The same slope from a paired design: every trial measures every design point (common
    /// random numbers, or data shared by a trial's points), so the points' means are dependent;
    /// interval by [`paired_log_slope`](dpclaims_empirical::stats::paired_log_slope).
    PairedLogSlope {
        /// The design points $x$.
        xs: Vec<f64>,
        /// One accumulator of the trials' vectors (one value per design point) per block of
        /// trials, in block order.
        blocks: Vec<VectorAcc>,
    },
}

impl Statistic {
    /// Appends the blocks of a later shard of the same measurement.
    pub fn extend(&mut self, later: Statistic) -> bool {
        match (self, later) {
            (Statistic::Mean { blocks }, Statistic::Mean { blocks: more }) => blocks.extend(more),
            (
                Statistic::BoundedMean { blocks, .. },
                Statistic::BoundedMean { blocks: more, .. },
            ) => blocks.extend(more),
            (Statistic::Proportion { blocks }, Statistic::Proportion { blocks: more }) => {
                blocks.extend(more)
            }
            (
                Statistic::Maximum { blocks, lower },
                Statistic::Maximum {
                    blocks: more,
                    lower: lower_more,
                },
            ) => match (lower, lower_more) {
                (None, None) => blocks.extend(more),
                (Some(l), Some(m)) => {
                    blocks.extend(more);
                    l.extend(m);
                }
                _ => return false,
            },
            (
                Statistic::RenyiMoment { blocks, alpha },
                Statistic::RenyiMoment {
                    blocks: more,
                    alpha: a,
                },
            ) if *alpha == a => blocks.extend(more),
            (Statistic::Exact { value }, Statistic::Exact { value: v }) => return *value == v,
            (
                Statistic::HalfLineHockeyStick { histogram, epsilon },
                Statistic::HalfLineHockeyStick {
                    histogram: more,
                    epsilon: e,
                },
            ) if *epsilon == e && histogram.p.len() == more.p.len() => histogram.merge(more),
            (Statistic::Computed { value, error }, Statistic::Computed { value: v, error: e }) => {
                return *value == v && *error == e;
            }
            (Statistic::Refined { fine, coarse }, Statistic::Refined { fine: f, coarse: c }) => {
                return *fine == f && *coarse == c;
            }
            (Statistic::Bracket { lower, upper }, Statistic::Bracket { lower: l, upper: u }) => {
                return *lower == l && *upper == u;
            }
            (
                Statistic::PairedLogSlope { xs, blocks },
                Statistic::PairedLogSlope {
                    xs: x2,
                    blocks: more,
                },
            ) if *xs == x2 => blocks.extend(more),
            (
                Statistic::LogSlope { xs, points },
                Statistic::LogSlope {
                    xs: x2,
                    points: more,
                },
            ) if *xs == x2 && points.len() == more.len() => {
                points.iter_mut().zip(more).for_each(|(p, m)| p.extend(m))
            }
            _ => return false,
        }
        true
    }
}

/// One measured quantity of one case, compared with its bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The case's parameters plus what distinguishes this measurement (e.g. the checkpoint `t`).
    pub params: Params,
    /// The bound the claim states for this case.
    pub bound: f64,
    /// How the measured quantity must relate to the bound.
    pub relation: Relation,
    /// The measured quantity's sufficient statistics.
    pub statistic: Statistic,
}

/// What a case is run with.
#[derive(Debug, Clone, Copy)]
pub struct RunSpec<'a> {
    /// The run seed: derive every random stream from it (see
    /// [`StreamKey`]).
    pub seed: u64,
    /// The mutant to run (one of the claim's [`Mutant`] names), or `None` for the claim as stated.
    pub mutant: Option<&'a str>,
    /// Run only this slice of every case's trials.
    pub shard: Option<Shard>,
    /// A relative error $\kappa\ge0$ injected into the algorithm (0: the algorithm as
    /// stated), in the direction that makes the claim fail: e.g. the noise std times
    /// $1-\kappa$ for a privacy bound, times $1+\kappa$ for a utility bound. What it changes is
    /// stated in [`ClaimInfo::perturbation`]; a claim without one ignores it. Used to measure
    /// the claim's detection threshold (the smallest $\kappa$ reported violated).
    pub perturbation: f64,
}

impl RunSpec<'_> {
    /// The relative error to inject: `kappa` when `threshold` is the mutant run (a claim's
    /// *threshold mutant*, the algorithm error at its detection threshold, rounded), else
    /// [`RunSpec::perturbation`].
    pub fn kappa(&self, threshold: &Mutant, kappa: f64) -> f64 {
        if self.mutant == Some(threshold.name) {
            kappa
        } else {
            self.perturbation
        }
    }
}

/// A claim: what it is ([`ClaimInfo`]), the cases it is checked on, and how one case is
/// measured. Built-in and outside claims implement this one trait and run through the same
/// harness ([`crate::harness::check`], shards, merge, reports, [`crate::testing`]).
///
/// A complete claim, a Monte Carlo one: for $Z\sim N(0,1)$ and scale $s>0$,
/// $\mathbb E|sZ|\le\sqrt{\mathbb E(sZ)^2}=s$ (Jensen; the truth is
/// $s\sqrt{2/\pi}\approx0.80\thinspace s$). The bound is the statement; the measurement is a
/// mean over seeded trials (one stream per trial, keyed by the claim id and the case, so
/// that the same seed gives the same numbers on any thread count and any shard); the mutant is
/// a deliberate error the harness must report violated.
///
/// ```
/// use dpclaims_core::prelude::*;
/// use dpclaims_core::claim::stream_label;
/// use dpclaims_core::harness::{CheckOptions, check};
/// use dpclaims_core::verdict::Verdict;
/// use dpclaims_empirical::rand_distr::{Distribution, StandardNormal};
/// use dpclaims_empirical::rng::StreamKey;
/// use dpclaims_empirical::runner::{run_blocks, trial_range};
/// use dpclaims_empirical::stats::MeanAcc;
///
/// const BOUND_HALVED: Mutant = Mutant {
///     name: "bound-halved",
///     description: "bound side: s / 2 instead of s",
/// };
///
/// static INFO: ClaimInfo = ClaimInfo {
///     id: "toy.abs_mean",
///     paper: "a textbook fact",
///     result: "Jensen's inequality",
///     statement: "E|sZ| <= s for Z ~ N(0, 1)",
///     mutants: &[BOUND_HALVED],
///     known_false: false,
///     tautologies: &[],
///     perturbation: None,
/// };
///
/// struct AbsMean;
///
/// impl Claim for AbsMean {
///     fn info(&self) -> &ClaimInfo {
///         &INFO
///     }
///     fn cases(&self) -> Vec<Params> {
///         [0.1, 1.0, 10.0]
///             .into_iter()
///             .map(|s| params! { "s" => s, "trials" => 4000 })
///             .collect()
///     }
///     fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
///         let s = case.f64("s")?;
///         if !(s > 0.0 && s.is_finite()) {
///             return Err(ParamError::new("s", s, "a positive number"));
///         }
///         let key = StreamKey::new(run.seed, &[INFO.id, &stream_label(case, &[])]);
///         let blocks = run_blocks(
///             trial_range(case.u64("trials")?, run.shard),
///             || ((), MeanAcc::new()),
///             |_, acc, i| {
///                 let z: f64 = StandardNormal.sample(&mut key.trial(i));
///                 acc.push((s * z).abs());
///             },
///         );
///         let halved = run.mutant == Some(BOUND_HALVED.name);
///         Ok(vec![Measurement {
///             params: case.clone(),
///             bound: if halved { s / 2.0 } else { s },
///             relation: Relation::AtMost,
///             statistic: Statistic::Mean { blocks },
///         }])
///     }
/// }
///
/// let outcomes = check(&[&AbsMean], &CheckOptions::default()).unwrap();
/// assert!(outcomes.iter().all(|o| o.verdict == Verdict::Respected));
/// let mutant = CheckOptions { mutant: Some("bound-halved".into()), ..CheckOptions::default() };
/// let outcomes = check(&[&AbsMean], &mutant).unwrap();
/// assert!(outcomes.iter().all(|o| o.verdict == Verdict::Violated));
/// ```
///
/// Under `cargo test`, [`crate::testing::assert_claim`] runs both checks (every case respected,
/// every mutant violated) and returns the outcomes for a snapshot.
pub trait Claim: Sync {
    /// Id, source, statement and mutants.
    fn info(&self) -> &ClaimInfo;
    /// The default cases, each a full parameter set (including `trials` where it simulates).
    fn cases(&self) -> Vec<Params>;
    /// Computes the bound and runs the simulation of one case.
    fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError>;
    /// The parameter space the statement quantifies over (ranges, choices and the theorem's
    /// hypotheses), searched by `dpclaims search` for the claim's tightest instance
    /// ([`crate::search`]); `None` (the default) when the claim declares none.
    fn space(&self) -> Option<crate::space::Space> {
        None
    }
    /// The trials per case that mutant `mutant` needs to be caught, when more than a test's
    /// mutant cap ([`crate::testing::MUTANT_TRIALS`]): a gross mutant shows at small sizes, but a
    /// *threshold* mutant sits at the edge of what the claim's default size detects, so it needs
    /// that size ([`DEFAULT_SIZE`]: the cases' own trials). `None` (the default): the test's cap.
    fn mutant_trials(&self, mutant: &str) -> Option<u64> {
        let _ = mutant;
        None
    }
    /// The claim's two sides as closed forms of its parameters, when both are exact
    /// calculators (no simulation): `prove` then proves it on a whole box
    /// ([`crate::prove`]). `None` (the default): it is checked at instances only.
    fn closed_form(&self) -> Option<ClosedForm> {
        None
    }
    /// The claim as an exact identity of its two sides (an algebraic step or substitution):
    /// `prove` then proves it exactly ([`crate::identity`]). `None` (the default): not one.
    fn identity(&self) -> Option<crate::identity::Identity> {
        None
    }
    /// Whether `prove` can decide the claim on its whole box (a closed form or an identity).
    fn provable(&self) -> bool {
        self.closed_form().is_some() || self.identity().is_some()
    }
}

/// [`Claim::mutant_trials`] for a mutant that runs at the cases' own (default) trials.
pub const DEFAULT_SIZE: u64 = u64::MAX;

/// Glob match with `*` (any run of characters) and `?` (one character).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// The claims of `all` matching any of `patterns` (all of them when `patterns` is empty), in
/// the order of `all`. A pattern that matches nothing is an error, and so are two claims with
/// the same id (an outside claim may not shadow a built-in one).
pub fn select<'a>(
    all: &[&'a dyn Claim],
    patterns: &[String],
) -> Result<Vec<&'a dyn Claim>, crate::Error> {
    let mut ids: Vec<&str> = all.iter().map(|c| c.info().id).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(crate::Error::DuplicateClaim(w[0].to_string()));
    }
    for p in patterns {
        if !all.iter().any(|c| glob_match(p, c.info().id)) {
            return Err(crate::Error::UnknownClaim(p.clone()));
        }
    }
    Ok(all
        .iter()
        .copied()
        .filter(|c| patterns.is_empty() || patterns.iter().any(|p| glob_match(p, c.info().id)))
        .collect())
}

/// The two sides of a claim as closed forms of its axes, written once against
/// [`Real`](crate::interval::Real) and given twice: enclosed ([`I`](crate::interval::I)) and plain (`f64`).
/// `mutant` is the run's mutant (a closed form changes with it like any measurement).
#[derive(Debug, Clone, Copy)]
pub struct ClosedForm {
    /// The box: real or integer axes (their names are the case parameters).
    pub axes: &'static [crate::space::Axis],
    /// `measured <= bound` ([`Relation::AtMost`]) or `>=` ([`Relation::AtLeast`]).
    pub relation: Relation,
    /// (measured, bound) enclosed on a box.
    pub interval:
        fn(&[crate::interval::I], Option<&str>) -> (crate::interval::I, crate::interval::I),
    /// (measured, bound) at a point.
    pub point: fn(&[f64], Option<&str>) -> (f64, f64),
    /// The hypotheses on a box: `Some(true)` on every point, `Some(false)` on none, `None`
    /// unknown (split). `None` here: no hypothesis beyond the box.
    pub admits: Option<fn(&[crate::interval::I]) -> Option<bool>>,
}

impl ClosedForm {
    pub(crate) fn holds(&self, measured: crate::interval::I, bound: crate::interval::I) -> bool {
        match self.relation {
            Relation::AtLeast => measured.lo >= bound.hi,
            _ => measured.hi <= bound.lo,
        }
    }
    pub(crate) fn fails(&self, measured: crate::interval::I, bound: crate::interval::I) -> bool {
        match self.relation {
            Relation::AtLeast => measured.hi < bound.lo,
            _ => measured.lo > bound.hi,
        }
    }
    pub(crate) fn fails_plain(&self, measured: f64, bound: f64) -> bool {
        match self.relation {
            Relation::AtLeast => measured < bound,
            _ => measured > bound,
        }
    }

    /// The axis values of a case (in axis order).
    pub fn values(&self, case: &Params) -> Result<Vec<f64>, ParamError> {
        self.axes.iter().map(|a| case.f64(a.name)).collect()
    }

    /// The measurement of one point: the enclosures of both sides at it as a computed value
    /// (midpoint of the measured side, error the two radii) against the bound side's midpoint,
    /// so that the verdict is `respected` exactly when the enclosures prove the point and
    /// `violated` exactly when they refute it.
    pub fn measure_point(
        &self,
        case: &Params,
        mutant: Option<&str>,
    ) -> Result<Measurement, ParamError> {
        let x: Vec<crate::interval::I> = self
            .values(case)?
            .into_iter()
            .map(crate::interval::I::point)
            .collect();
        let (m, b) = (self.interval)(&x, mutant);
        let rad = |v: crate::interval::I| {
            if v.lo == v.hi {
                0.0
            } else {
                (0.5 * v.width()).next_up()
            }
        };
        Ok(Measurement {
            params: case.clone(),
            bound: b.mid(),
            relation: self.relation,
            statistic: Statistic::Computed {
                value: m.mid(),
                error: (rad(m) + rad(b)).next_up(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("stability.*", "stability.lemma5"));
        assert!(glob_match("stability.lemma5", "stability.lemma5"));
        assert!(!glob_match("stability.lemma5", "stability.lemma5.derived"));
        assert!(glob_match("*.lemma?", "stability.lemma5"));
        assert!(!glob_match("multipass.*", "stability.lemma5"));
        assert!(glob_match("*", ""));
    }
}
