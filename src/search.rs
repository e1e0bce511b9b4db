//! Counterexample search: the instance of a claim's parameter space where its bound is
//! tightest, confirmed on a fresh seed.
//!
//! A claim declares the space its statement quantifies over ([`Space`], from
//! [`Claim::space`](crate::claims::Claim)): ranges and choices of its parameters
//! ([`Axis`]) and the theorem's hypotheses ([`Constraint`], e.g. $\eta\le 1/L$). [`search`]
//!
//! 1. measures the claim's default cases at the search size (the *default tightness*);
//! 2. draws candidates from the space ([`Space::strategy`], a proptest strategy, seeded), then
//!    refines the best by coordinate search (multiplicative steps on log axes, additive on
//!    linear ones, halving when a sweep finds nothing better), each candidate measured cheaply
//!    (the space's `search_trials`, on the streams of [`candidate_seed`], which no `check` with
//!    a small seed shares, so a case adopted from the search and checked on the default seed is
//!    not judged on the draws that chose it); a candidate whose measurement fails (an error, a
//!    NaN) is counted and the first failure reported, not ranked;
//! 3. **confirms** the best few at the claim's default size on a *fresh* seed, so that the
//!    selection does not bias the verdict (the maximum of many noisy estimates is biased up;
//!    a re-measurement on independent streams is not), with the run's level shared over every
//!    confirmed outcome (Bonferroni);
//! 4. shrinks a confirmed violation toward the simplest violating instance (integers toward
//!    their lower end, reals to one or two significant digits, choices to the first), re-checked
//!    at each step at the search size and seed; a shrunk instance that differs is confirmed on a
//!    third seed (the confirmation seed + [`CONFIRM_SEED_OFFSET`]: the confirmation seed chose
//!    the instance it was shrunk from), as its own family; the reproducing
//!    `dpclaims check ... --seed ... --exact --set ...` command is printed (every parameter of the
//!    case as measured, search-only axes included: they are part of its stream labels).
//!
//! The score of an outcome is its *closeness to violation* ([`closeness`]): the usual tightness
//! measured/bound for an upper bound, bound/measured for a lower bound, so that 1 is the
//! boundary and more than 1 is a violation by the point estimate. Its *certified* score
//! ([`certified_closeness`]) is the same at the end of the interval that the verdict must pass
//! (the lower limit for an upper bound): more than 1 is a violated verdict. A candidate's scores
//! are the largest over its outcomes that are not true by construction; the search ranks by
//! the certified one, so that a candidate does not win by Monte Carlo noise (a tiny $\delta$
//! estimated from a few hits) or by the midpoint of a wide bracket.
//!
//! The number of candidates is fixed by `evaluations` (reproducible: same seed, same
//! candidates, same numbers on any thread count); `budget_seconds` only stops the search
//! earlier, and the result says how many candidates ran, so that `--evaluations E --stop-after
//! N` (the plan of E, cut after N) reproduces a time-limited search.

use crate::Error;
use crate::claims::{Claim, RunSpec};
use crate::harness::{self, Measured};
use crate::params::Params;
use crate::verdict::{Outcome, Relation, Verdict};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_theorems::ParamError;
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Instant;

/// The values one parameter ranges over.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Range {
    /// A real in `[lo, hi]`, drawn uniformly (uniformly in $\ln x$ when `log`, which needs
    /// $0<$ `lo`).
    Real {
        /// Lower end.
        lo: f64,
        /// Upper end.
        hi: f64,
        /// Log scale.
        log: bool,
    },
    /// An integer in `[lo, hi]`, drawn uniformly (log-uniformly when `log`, `lo` $\ge1$).
    Int {
        /// Lower end.
        lo: u64,
        /// Upper end.
        hi: u64,
        /// Log scale.
        log: bool,
    },
    /// One of these strings.
    Choice {
        /// The choices (the first is the simplest, where shrinking goes).
        values: &'static [&'static str],
    },
}

/// One searched parameter.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Axis {
    /// The case parameter it sets.
    pub name: &'static str,
    /// Its values.
    pub range: Range,
}

impl Axis {
    /// A real axis on a linear scale.
    pub const fn real(name: &'static str, lo: f64, hi: f64) -> Self {
        Self {
            name,
            range: Range::Real { lo, hi, log: false },
        }
    }
    /// A real axis on a log scale.
    pub const fn log(name: &'static str, lo: f64, hi: f64) -> Self {
        Self {
            name,
            range: Range::Real { lo, hi, log: true },
        }
    }
    /// An integer axis (log scale when it starts at 1 or more and spans more than a decade).
    pub const fn int(name: &'static str, lo: u64, hi: u64) -> Self {
        Self {
            name,
            range: Range::Int {
                lo,
                hi,
                log: lo >= 1 && hi / 10 > lo,
            },
        }
    }
    /// A choice axis.
    pub const fn choice(name: &'static str, values: &'static [&'static str]) -> Self {
        Self {
            name,
            range: Range::Choice { values },
        }
    }

    /// Whether `v` is one of the axis' values.
    pub fn contains(&self, v: &Value) -> bool {
        match self.range {
            Range::Real { lo, hi, .. } => v.as_f64().is_some_and(|x| x >= lo && x <= hi),
            Range::Int { lo, hi, .. } => v.as_u64().is_some_and(|x| x >= lo && x <= hi),
            Range::Choice { values } => v.as_str().is_some_and(|s| values.contains(&s)),
        }
    }

    fn validate(&self) -> Result<(), String> {
        let ok = match self.range {
            Range::Real { lo, hi, log } => {
                lo.is_finite() && hi.is_finite() && lo <= hi && (!log || lo > 0.0)
            }
            Range::Int { lo, hi, log } => lo <= hi && (!log || lo >= 1),
            Range::Choice { values } => !values.is_empty(),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "axis `{}` has an empty or invalid range",
                self.name
            ))
        }
    }

    fn strategy(self) -> BoxedStrategy<Value> {
        match self.range {
            Range::Real { lo, hi, .. } if lo == hi => {
                proptest::strategy::Just(Value::from(lo)).boxed()
            }
            Range::Real { lo, hi, log: true } => (lo.ln()..=hi.ln())
                .prop_map(move |l| Value::from(l.exp().clamp(lo, hi)))
                .boxed(),
            Range::Real { lo, hi, log: false } => (lo..=hi).prop_map(Value::from).boxed(),
            Range::Int { lo, hi, log: true } => ((lo as f64).ln()..=(hi as f64 + 1.0).ln())
                .prop_map(move |l| Value::from((l.exp().floor() as u64).clamp(lo, hi)))
                .boxed(),
            Range::Int { lo, hi, log: false } => (lo..=hi).prop_map(Value::from).boxed(),
            Range::Choice { values } => proptest::sample::select(values)
                .prop_map(Value::from)
                .boxed(),
        }
    }
}

/// A hypothesis of the theorem that every searched instance must satisfy.
#[derive(Debug, Clone, Copy)]
pub struct Constraint {
    /// The hypothesis as printed, e.g. `eta <= 1/L`.
    pub hypothesis: &'static str,
    /// Whether a case satisfies it (an error counts as not satisfied).
    pub holds: fn(&Params) -> Result<bool, ParamError>,
}

impl Serialize for Constraint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.hypothesis)
    }
}

/// The space a claim's statement quantifies over, as data beside its default cases.
#[derive(Debug, Clone, Serialize)]
pub struct Space {
    /// The case the searched parameters are written into; its other parameters (and its
    /// `trials`, the default size used to confirm) are kept.
    pub base: Params,
    /// The searched parameters.
    pub axes: Vec<Axis>,
    /// The theorem's hypotheses.
    pub constraints: Vec<Constraint>,
    /// Trials per candidate while searching (cases that simulate).
    pub search_trials: u64,
    /// Parameters computed from the searched ones (e.g. a checkpoint `t = T`), applied after
    /// the axes and before the constraints.
    #[serde(skip)]
    pub derive: Option<fn(&mut Params)>,
}

impl Space {
    /// A space around `base` with no axes yet.
    pub fn new(base: Params, search_trials: u64) -> Self {
        Self {
            base,
            axes: Vec::new(),
            constraints: Vec::new(),
            search_trials,
            derive: None,
        }
    }

    /// Adds an axis.
    pub fn axis(mut self, axis: Axis) -> Self {
        self.axes.push(axis);
        self
    }

    /// Adds a hypothesis.
    pub fn constraint(
        mut self,
        hypothesis: &'static str,
        holds: fn(&Params) -> Result<bool, ParamError>,
    ) -> Self {
        self.constraints.push(Constraint { hypothesis, holds });
        self
    }

    /// Sets the derived parameters.
    pub fn derived(mut self, derive: fn(&mut Params)) -> Self {
        self.derive = Some(derive);
        self
    }

    /// Checks the space itself: at least one axis, each valid and declared once (the base case
    /// need not lie inside it: it is evaluated first, and counted as rejected if outside).
    pub fn validate(&self) -> Result<(), String> {
        let mut names = BTreeSet::new();
        for a in &self.axes {
            a.validate()?;
            if !names.insert(a.name) {
                return Err(format!("axis `{}` is declared twice", a.name));
            }
        }
        if self.axes.is_empty() {
            return Err("the space has no axes".into());
        }
        if self.search_trials < 2 {
            return Err("search_trials must be at least 2".into());
        }
        Ok(())
    }

    /// The case for axis values `values` (in axis order): the base with them written in,
    /// then the derived parameters; `None` when it is outside the space (a range or a
    /// hypothesis fails).
    pub fn case(&self, values: &[Value]) -> Option<Params> {
        let mut p = self.base.clone();
        for (a, v) in self.axes.iter().zip(values) {
            if !a.contains(v) {
                return None;
            }
            p.set(a.name, v.clone());
        }
        if let Some(d) = self.derive {
            d(&mut p);
        }
        self.admits(&p).then_some(p)
    }

    /// Whether a full case satisfies every hypothesis.
    pub fn admits(&self, p: &Params) -> bool {
        self.constraints
            .iter()
            .all(|c| (c.holds)(p).unwrap_or(false))
    }

    /// A proptest strategy over the space: the axes' values (in axis order), filtered by the
    /// hypotheses. Map them to cases with [`Space::case`].
    pub fn strategy(&self) -> BoxedStrategy<Vec<Value>> {
        let axes: Vec<BoxedStrategy<Value>> = self.axes.iter().map(|a| a.strategy()).collect();
        let space = self.clone();
        axes.prop_filter("the theorem's hypotheses", move |v| space.case(v).is_some())
            .boxed()
    }

    fn values_of(&self, p: &Params) -> Vec<Value> {
        self.axes
            .iter()
            .map(|a| p.0.get(a.name).cloned().unwrap_or(Value::Null))
            .collect()
    }
}

/// Closeness to violation of one outcome: measured/bound for an upper bound (the usual
/// tightness), bound/measured for a lower bound, the larger of the two sides for a window,
/// |measured − bound|/(tolerance·|bound|) for a reproduction; where a ratio has no meaning
/// (a sign change, a zero), $1+(\text{excess})/|\text{reference}|$. In every case 1 is the
/// boundary and more than 1 a violation by the point estimate.
pub fn closeness(relation: &Relation, bound: f64, mean: f64) -> f64 {
    fn upper(m: f64, b: f64) -> f64 {
        if b > 0.0 && m >= 0.0 {
            m / b
        } else if b == 0.0 {
            if m > 0.0 { f64::INFINITY } else { 1.0 + m }
        } else {
            1.0 + (m - b) / b.abs()
        }
    }
    fn lower(m: f64, b: f64) -> f64 {
        if m > 0.0 && b >= 0.0 {
            b / m
        } else if b == 0.0 {
            if m < 0.0 { f64::INFINITY } else { 1.0 }
        } else {
            1.0 + (b - m) / b.abs()
        }
    }
    let s = match *relation {
        Relation::AtMost | Relation::LowerLimitAtMost => upper(mean, bound),
        Relation::AtLeast => lower(mean, bound),
        Relation::Within { lower: lo, .. } => upper(mean, bound).max(lower(mean, lo)),
        Relation::Reproduces { tolerance } => {
            (mean - bound).abs() / (tolerance * bound.abs()).max(f64::MIN_POSITIVE)
        }
    };
    if s.is_nan() { f64::NEG_INFINITY } else { s }
}

/// The score of a candidate: the largest [`closeness`] of its point estimates over its
/// outcomes that are not true by construction (`-inf` when it has none).
pub fn score(outcomes: &[Outcome]) -> f64 {
    outcomes
        .iter()
        .filter(|o| o.tautology.is_none())
        .map(|o| closeness(&o.relation, o.bound, o.measured.mean))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The closeness of an outcome at the end of its interval that the verdict must pass (the
/// lower limit for an upper bound, the upper limit for a lower bound, the inner ends for a
/// window; for a reproduction, $1+d/(\tau|\text{reference}|)$ with $d$ the distance from the
/// reference to the interval, negative inside it): what the interval certifies, so more than 1
/// is a violation verdict. The search
/// ranks candidates by it, so that a candidate does not win by noise (a small-$\delta$ Monte
/// Carlo mean) or by a wide bracket's midpoint.
pub fn certified_closeness(o: &Outcome) -> f64 {
    interval_closeness(&o.relation, o.bound, &o.measured)
}

/// [`certified_closeness`] of an estimate against `bound`: more than 1 exactly when
/// [`Relation::judge`] says violated.
pub fn interval_closeness(
    relation: &Relation,
    bound: f64,
    est: &dpclaims_empirical::stats::Estimate,
) -> f64 {
    let (lo, hi) = (est.lower, est.upper);
    match *relation {
        Relation::AtMost | Relation::LowerLimitAtMost => closeness(relation, bound, lo),
        Relation::AtLeast => closeness(relation, bound, hi),
        Relation::Within { lower, .. } => {
            closeness(&Relation::AtMost, bound, lo).max(closeness(&Relation::AtLeast, lower, hi))
        }
        // Violated when the reference lies outside the interval: 1 + (distance from the
        // reference to the interval, negative inside it) / (tolerance |reference|).
        Relation::Reproduces { tolerance } => {
            let gap = (lo - bound).max(bound - hi);
            let s = 1.0 + gap / (tolerance * bound.abs()).max(f64::MIN_POSITIVE);
            if s.is_nan() { f64::NEG_INFINITY } else { s }
        }
    }
}

/// The largest [`certified_closeness`] over a candidate's outcomes that are not true by
/// construction.
pub fn certified(outcomes: &[Outcome]) -> f64 {
    outcomes
        .iter()
        .filter(|o| o.tautology.is_none())
        .map(certified_closeness)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// What [`search`] runs.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Seed of the search: it draws the candidates, and their cheap measurements run on
    /// [`candidate_seed`] of it.
    pub seed: u64,
    /// Seed of the confirmation runs; must differ from `seed`.
    pub confirm_seed: u64,
    /// Candidates measured (random and local together), not counting the default cases.
    pub evaluations: u64,
    /// Stop drawing candidates after this many seconds (the result records how many ran).
    pub budget_seconds: f64,
    /// Stop after this many candidates without changing the search's plan (the random phase
    /// is still half of `evaluations`): reproduces a search the time budget stopped.
    pub stop_after: Option<u64>,
    /// How many of the best distinct candidates are confirmed.
    pub confirm: usize,
    /// Family-wise level of the confirmation run.
    pub confidence: f64,
    /// Search for this mutant's violations instead of the claim as stated.
    pub mutant: Option<String>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// Cap the confirmation's trials at this number (the default size otherwise): a quick
    /// run, whose confirmation is then weaker, and says so by its `trials`.
    pub max_trials: Option<u64>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            seed: harness::DEFAULT_SEED,
            confirm_seed: harness::DEFAULT_SEED + CONFIRM_SEED_OFFSET,
            evaluations: 200,
            budget_seconds: 60.0,
            stop_after: None,
            confirm: 3,
            confidence: harness::DEFAULT_CONFIDENCE,
            mutant: None,
            progress: false,
            max_trials: None,
        }
    }
}

/// The default confirmation seed is the search seed plus this (any fixed offset gives
/// independent streams: every stream key hashes the seed).
pub const CONFIRM_SEED_OFFSET: u64 = 1_000_003;

/// The run seed the search measures its candidates with: the search seed XOR this mask
/// ([`candidate_seed`]). It keeps the draws that select an instance apart from every `check`
/// run with a small seed: a case adopted from `search --seed 1` and then checked (and
/// snapshotted) on the default seed 1 does not re-use the draws that chose it.
pub const CANDIDATE_SEED_MASK: u64 = 0x9e37_79b9_7f4a_7c15;

/// The run seed of the search's candidate measurements for search seed `seed`.
pub fn candidate_seed(seed: u64) -> u64 {
    seed ^ CANDIDATE_SEED_MASK
}

/// One measured candidate.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    /// Its case (search size: `trials` is the search's).
    pub params: Params,
    /// Its score (point estimates) at the search size and seed.
    #[serde(serialize_with = "crate::verdict::serialize_f64")]
    pub score: f64,
    /// Its certified score ([`certified`]) at the search size and seed: what the search ranks.
    #[serde(serialize_with = "crate::verdict::serialize_f64")]
    pub certified: f64,
    /// How it was found: `default`, `random`, `local` or `shrunk`.
    pub found_by: &'static str,
}

/// A candidate re-measured at the default size on the confirmation seed.
#[derive(Debug, Clone, Serialize)]
pub struct Confirmed {
    /// The case as run (default `trials`).
    pub params: Params,
    /// Its certified score at the search size (the selection's, biased up).
    #[serde(serialize_with = "crate::verdict::serialize_f64")]
    pub search_score: f64,
    /// Its score (point estimates) on the confirmation run.
    #[serde(serialize_with = "crate::verdict::serialize_f64")]
    pub score: f64,
    /// Its certified score on the confirmation run (above 1: violated).
    #[serde(serialize_with = "crate::verdict::serialize_f64")]
    pub certified: f64,
    /// The worst verdict of its outcomes (violated, inconclusive, not-refuted, respected).
    pub verdict: Verdict,
    /// The outcomes of the confirmation run.
    pub outcomes: Vec<Outcome>,
}

/// A confirmed violation, shrunk.
#[derive(Debug, Clone, Serialize)]
pub struct Violation {
    /// The simplest violating instance found (confirmed on the confirmation seed).
    pub instance: Confirmed,
    /// The instance it was shrunk from.
    pub shrunk_from: Params,
    /// The seed that confirmed `instance`: the confirmation seed when shrinking changed
    /// nothing, else the confirmation seed + [`CONFIRM_SEED_OFFSET`] (the confirmation seed
    /// selected the instance shrunk from, so the shrunk one is judged on fresh streams).
    pub seed: u64,
    /// A command that reproduces it.
    pub command: String,
}

/// What [`search`] found for one claim.
#[derive(Debug, Clone, Serialize)]
pub struct SearchResult {
    /// The claim's id.
    pub claim: String,
    /// The searched space.
    pub space: Space,
    /// Search seed.
    pub seed: u64,
    /// Confirmation seed.
    pub confirm_seed: u64,
    /// The mutant searched, if any.
    pub mutant: Option<String>,
    /// Candidates measured by the search (not counting the default cases, nor the shrinking's
    /// candidates, which are in `candidates` too, marked `shrunk`).
    pub evaluations: u64,
    /// Candidates drawn outside the space (a range or a hypothesis fails): not counted as
    /// evaluations.
    pub rejected: u64,
    /// Candidates (default cases included) whose measurement returned an error (a parameter the
    /// claim cannot compute, a grid too fine, a NaN): not counted as evaluations, reported.
    pub failed: u64,
    /// The first of those errors, with its case.
    pub first_failure: Option<String>,
    /// Wall time of the search (not reproducible; `evaluations` is).
    pub seconds: f64,
    /// The time budget stopped the search before `requested` candidates.
    pub stopped_by_budget: bool,
    /// The candidates asked for (`--evaluations`).
    pub requested: u64,
    /// The default cases at the search size.
    pub defaults: Vec<Candidate>,
    /// Every candidate measured, in order.
    pub candidates: Vec<Candidate>,
    /// The best candidates, confirmed.
    pub confirmed: Vec<Confirmed>,
    /// A confirmed violation, shrunk, if one was found.
    pub violation: Option<Violation>,
}

impl SearchResult {
    /// The largest default-case score (point estimates, search size).
    pub fn default_score(&self) -> f64 {
        self.defaults
            .iter()
            .map(|c| c.score)
            .fold(f64::NEG_INFINITY, f64::max)
    }
    /// The best candidate of the search by certified score (search size).
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates
            .iter()
            .max_by(|a, b| a.certified.total_cmp(&b.certified))
    }
    /// The confirmed candidate of largest confirmed certified score.
    pub fn worst_confirmed(&self) -> Option<&Confirmed> {
        self.confirmed
            .iter()
            .max_by(|a, b| a.certified.total_cmp(&b.certified))
    }
}

/// The outcomes of one case of one claim (its own Bonferroni family).
fn run_case(
    claim: &dyn Claim,
    case: &Params,
    seed: u64,
    mutant: Option<&str>,
    confidence: f64,
) -> Result<Vec<Outcome>, Error> {
    let measured = measure_case(claim, case, seed, mutant)?;
    harness::outcomes(&[claim], measured, seed, confidence, mutant)
}

fn measure_case(
    claim: &dyn Claim,
    case: &Params,
    seed: u64,
    mutant: Option<&str>,
) -> Result<Vec<Measured>, Error> {
    let run = RunSpec {
        seed,
        mutant,
        shard: None,
        perturbation: 0.0,
    };
    let id = claim.info().id;
    let ms = claim.measure(case, run).map_err(|source| Error::Param {
        claim: id.to_string(),
        source,
    })?;
    Ok(ms
        .into_iter()
        .map(|m| Measured {
            claim: id.to_string(),
            measurement: m,
        })
        .collect())
}

fn with_trials(case: &Params, trials: u64) -> Params {
    let mut p = case.clone();
    harness::cap_trials(&mut p, trials);
    p
}

/// The label of a case without its `trials` (candidates are compared by it).
fn key(p: &Params) -> String {
    p.label_without(&["trials"])
}

/// Searches `claim`'s space (module documentation). Errors: the claim has no space, the space
/// is invalid, or the options are out of range.
pub fn search(claim: &dyn Claim, opts: &SearchOptions) -> Result<SearchResult, Error> {
    let id = claim.info().id;
    let space = claim
        .space()
        .ok_or_else(|| Error::Input(format!("{id} declares no parameter space to search")))?;
    space
        .validate()
        .map_err(|e| Error::Input(format!("{id}: {e}")))?;
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        return Err(Error::Confidence(opts.confidence));
    }
    if opts.evaluations == 0 || opts.confirm == 0 {
        return Err(Error::Input(
            "--evaluations and --confirm must be at least 1".into(),
        ));
    }
    if let Some(n) = opts.max_trials.filter(|n| *n < 2) {
        return Err(Error::Trials(n));
    }
    let streams = candidate_seed(opts.seed);
    if opts.confirm_seed == opts.seed
        || opts.confirm_seed == streams
        || opts.confirm_seed.wrapping_add(CONFIRM_SEED_OFFSET) == streams
    {
        return Err(Error::Input(
            "--confirm-seed must differ from --seed and from the seed the candidates are measured with: the confirmation must not reuse the search's streams".into(),
        ));
    }
    if !(opts.budget_seconds > 0.0) {
        return Err(Error::Input(format!(
            "--budget-seconds {} is out of range: expected a positive number",
            opts.budget_seconds
        )));
    }
    if let Some(m) = &opts.mutant {
        if !claim.info().mutants.iter().any(|x| x.name == m) {
            return Err(Error::UnknownMutant {
                name: m.clone(),
                known: claim
                    .info()
                    .mutants
                    .iter()
                    .map(|x| x.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    let start = Instant::now();
    let mutant = opts.mutant.as_deref();
    let mut state = State {
        claim,
        space: &space,
        opts,
        seen: BTreeSet::new(),
        candidates: Vec::new(),
        rejected: 0,
        failed: 0,
        first_failure: None,
    };
    // 1. The default cases at the search size.
    let defaults: Vec<Candidate> = claim
        .cases()
        .iter()
        .filter_map(|c| {
            let c = with_trials(c, space.search_trials);
            let o = match run_case(
                claim,
                &c,
                candidate_seed(opts.seed),
                mutant,
                opts.confidence,
            ) {
                Ok(o) => o,
                Err(e) => {
                    state.fail(&c, &e);
                    return None;
                }
            };
            Some(Candidate {
                params: c,
                score: score(&o),
                certified: certified(&o),
                found_by: "default",
            })
        })
        .collect();
    let budget_hit = std::cell::Cell::new(false);
    let out_of_time = |s: &State| {
        let n = s.candidates.len() as u64;
        if n >= opts.evaluations || opts.stop_after.is_some_and(|m| n >= m) {
            return true;
        }
        let late = start.elapsed().as_secs_f64() >= opts.budget_seconds;
        if late {
            budget_hit.set(true);
        }
        late
    };
    // 2a. Random candidates from the proptest strategy: half the evaluations.
    let mut seed32 = [0u8; 32];
    {
        use rand::RngExt;
        let mut rng = StreamKey::new(opts.seed, &["search", id]).trial(0);
        for b in seed32.iter_mut() {
            *b = rng.random();
        }
    }
    let mut runner = TestRunner::new_with_rng(
        // Fixed, not read from PROPTEST_* variables: the rejects allowed decide what is drawn.
        Config {
            max_local_rejects: 65_536,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed32),
    );
    let strategy = space.strategy();
    let random_phase = opts.evaluations.div_ceil(2);
    let mut draws = 0u64;
    // The base case first (it is the space's centre, and often a default case).
    state.evaluate(space.values_of(&space.base), "random");
    while (state.candidates.len() as u64) < random_phase && !out_of_time(&state) {
        draws += 1;
        if draws > opts.evaluations.saturating_mul(20).saturating_add(100) {
            break;
        }
        match strategy.new_tree(&mut runner) {
            Ok(tree) => {
                state.evaluate(tree.current(), "random");
            }
            Err(_) => {
                // The hypotheses reject too much of the box: count it and go on drawing.
                state.rejected += 1;
            }
        }
    }
    // 2b. Coordinate search from the best candidate.
    let mut steps: Vec<f64> = space
        .axes
        .iter()
        .map(|a| match a.range {
            Range::Real { log: true, .. } | Range::Int { log: true, .. } => 2.0,
            Range::Real { lo, hi, .. } => (hi - lo) / 8.0,
            Range::Int { lo, hi, .. } => ((hi - lo) as f64 / 8.0).max(1.0),
            Range::Choice { .. } => 0.0,
        })
        .collect();
    'local: while !out_of_time(&state) {
        let Some(best) = state.best().cloned() else {
            break;
        };
        let centre = space.values_of(&best.params);
        let mut improved = false;
        for (i, axis) in space.axes.iter().enumerate() {
            for v in neighbours(axis, &centre[i], steps[i]) {
                if out_of_time(&state) {
                    break 'local;
                }
                let mut values = centre.clone();
                values[i] = v;
                if let Some(s) = state.evaluate(values, "local") {
                    if s > best.certified {
                        improved = true;
                    }
                }
            }
        }
        if !improved {
            let mut any = false;
            for (s, a) in steps.iter_mut().zip(&space.axes) {
                match a.range {
                    Range::Real { log: true, .. } | Range::Int { log: true, .. } => {
                        *s = s.sqrt();
                        any |= *s > 1.0 + 1e-3;
                    }
                    Range::Int { .. } => {
                        *s = (*s / 2.0).max(1.0);
                    }
                    Range::Real { lo, hi, .. } => {
                        *s /= 2.0;
                        any |= *s > (hi - lo) * 1e-4;
                    }
                    Range::Choice { .. } => {}
                }
            }
            if !any {
                break;
            }
        }
    }
    let seconds_searched = start.elapsed().as_secs_f64();
    let evaluations = state.candidates.len() as u64;
    // 3. Confirm the best distinct candidates at the default size on the fresh seed, one
    // Bonferroni family over all their outcomes.
    let mut ranked: Vec<&Candidate> = state
        .candidates
        .iter()
        .filter(|c| !c.certified.is_nan() && c.certified > f64::NEG_INFINITY)
        .collect();
    ranked.sort_by(|a, b| b.certified.total_cmp(&a.certified));
    let chosen: Vec<Candidate> = ranked.into_iter().take(opts.confirm).cloned().collect();
    let confirmed = confirm(claim, &space, &chosen, opts, opts.confirm_seed)?;
    // 4. Shrink a confirmed violation.
    let violation = match confirmed
        .iter()
        .filter(|c| c.verdict == Verdict::Violated)
        .max_by(|a, b| a.certified.total_cmp(&b.certified))
    {
        Some(v) => shrink(&mut state, v)?,
        None => None,
    };
    Ok(SearchResult {
        claim: id.to_string(),
        seed: opts.seed,
        confirm_seed: opts.confirm_seed,
        mutant: opts.mutant.clone(),
        evaluations,
        stopped_by_budget: budget_hit.get(),
        requested: opts.evaluations,
        rejected: state.rejected,
        failed: state.failed,
        first_failure: state.first_failure,
        seconds: seconds_searched,
        defaults,
        candidates: state.candidates,
        confirmed,
        violation,
        space,
    })
}

/// The search's bookkeeping.
struct State<'a> {
    claim: &'a dyn Claim,
    space: &'a Space,
    opts: &'a SearchOptions,
    seen: BTreeSet<String>,
    candidates: Vec<Candidate>,
    rejected: u64,
    failed: u64,
    first_failure: Option<String>,
}

impl State<'_> {
    /// Measures the candidate with these axis values (once: a case seen before returns
    /// `None`), records it and returns its score.
    fn evaluate(&mut self, values: Vec<Value>, found_by: &'static str) -> Option<f64> {
        let Some(case) = self.space.case(&values) else {
            self.rejected += 1;
            return None;
        };
        let case = with_trials(&case, self.space.search_trials);
        if !self.seen.insert(key(&case)) {
            return None;
        }
        match run_case(
            self.claim,
            &case,
            candidate_seed(self.opts.seed),
            self.opts.mutant.as_deref(),
            self.opts.confidence,
        ) {
            Ok(o) => {
                let s = certified(&o);
                if self.opts.progress {
                    eprintln!(
                        "search {} #{} {found_by}: score {:.4}  {}",
                        self.claim.info().id,
                        self.candidates.len() + 1,
                        s,
                        key_compact(&case, self.space)
                    );
                }
                self.candidates.push(Candidate {
                    params: case,
                    score: score(&o),
                    certified: s,
                    found_by,
                });
                Some(s)
            }
            Err(e) => {
                self.fail(&case, &e);
                None
            }
        }
    }

    /// Counts a candidate whose measurement failed and keeps the first error.
    fn fail(&mut self, case: &Params, e: &Error) {
        self.failed += 1;
        if self.first_failure.is_none() {
            self.first_failure = Some(format!("{} ({e})", key_compact(case, self.space)));
        }
    }

    fn best(&self) -> Option<&Candidate> {
        self.candidates
            .iter()
            .filter(|c| c.found_by != "shrunk")
            .max_by(|a, b| a.certified.total_cmp(&b.certified))
    }

    /// Whether a case is violated at the search size and seed (its own family).
    fn violated(&mut self, values: &[Value]) -> Option<Params> {
        let case = with_trials(&self.space.case(values)?, self.space.search_trials);
        let o = run_case(
            self.claim,
            &case,
            candidate_seed(self.opts.seed),
            self.opts.mutant.as_deref(),
            self.opts.confidence,
        )
        .ok()?;
        if self.seen.insert(key(&case)) {
            self.candidates.push(Candidate {
                params: case.clone(),
                score: score(&o),
                certified: certified(&o),
                found_by: "shrunk",
            });
        }
        o.iter()
            .any(|x| x.verdict == Verdict::Violated && x.tautology.is_none())
            .then_some(case)
    }
}

/// `axis = value` for the searched axes only.
fn key_compact(p: &Params, space: &Space) -> String {
    space
        .axes
        .iter()
        .filter_map(|a| {
            p.0.get(a.name)
                .map(|v| format!("{}={}", a.name, short_value(v)))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value rounded to 6 significant digits for a table (the JSON has every digit).
fn short_value(v: &Value) -> String {
    match v.as_f64() {
        Some(x) if !v.is_u64() && !v.is_i64() => format!("{}", crate::report::round_sig(x, 6)),
        _ => plain(v),
    }
}

/// A score for a table: 4 decimals, or 3 significant digits when that would hide it.
fn score_text(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 && x.is_finite() {
        format!("{x:.3e}")
    } else {
        format!("{x:.4}")
    }
}

/// The values next to `v` on `axis` at step `step`.
fn neighbours(axis: &Axis, v: &Value, step: f64) -> Vec<Value> {
    match axis.range {
        Range::Real { lo, hi, log } => {
            let Some(x) = v.as_f64() else { return vec![] };
            let (a, b) = if log {
                (x * step, x / step)
            } else {
                (x + step, x - step)
            };
            [a, b]
                .into_iter()
                .map(|y| y.clamp(lo, hi))
                .filter(|y| *y != x)
                .map(Value::from)
                .collect()
        }
        Range::Int { lo, hi, log } => {
            let Some(x) = v.as_u64() else { return vec![] };
            let xf = x as f64;
            let (a, b) = if log {
                ((xf * step).round(), (xf / step).round())
            } else {
                (xf + step.round(), xf - step.round())
            };
            let mut out: Vec<Value> = [a, b]
                .into_iter()
                .map(|y| (y.max(0.0) as u64).clamp(lo, hi))
                .filter(|y| *y != x)
                .map(Value::from)
                .collect();
            out.dedup();
            out
        }
        Range::Choice { values } => values
            .iter()
            .filter(|c| v.as_str() != Some(**c))
            .map(|c| Value::from(*c))
            .collect(),
    }
}

/// Re-measures `chosen` at the default size on the confirmation seed, one family.
fn confirm(
    claim: &dyn Claim,
    space: &Space,
    chosen: &[Candidate],
    opts: &SearchOptions,
    seed: u64,
) -> Result<Vec<Confirmed>, Error> {
    let full: Vec<Params> = chosen
        .iter()
        .map(|c| {
            let mut p = c.params.clone();
            if let Ok(n) = space.base.u64("trials") {
                p.set("trials", Value::from(n));
            }
            if let Some(cap) = opts.max_trials {
                harness::cap_trials(&mut p, cap);
            }
            p
        })
        .collect();
    let mut measured = Vec::new();
    let mut counts = Vec::new();
    for p in &full {
        let m = measure_case(claim, p, seed, opts.mutant.as_deref())?;
        counts.push(m.len());
        measured.extend(m);
    }
    let mut outcomes = harness::outcomes(
        &[claim],
        measured,
        seed,
        opts.confidence,
        opts.mutant.as_deref(),
    )?
    .into_iter();
    Ok(chosen
        .iter()
        .zip(full)
        .zip(counts)
        .map(|((c, params), k)| {
            let o: Vec<Outcome> = outcomes.by_ref().take(k).collect();
            Confirmed {
                params,
                search_score: c.certified,
                score: score(&o),
                certified: certified(&o),
                verdict: worst_verdict(&o),
                outcomes: o,
            }
        })
        .collect())
}

/// Violated before inconclusive before not-refuted before respected (tautologies ignored
/// unless nothing else is there).
pub fn worst_verdict(outcomes: &[Outcome]) -> Verdict {
    let rank = |v: Verdict| match v {
        Verdict::Violated => 3,
        Verdict::Inconclusive => 2,
        Verdict::NotRefuted => 1,
        Verdict::Respected => 0,
    };
    outcomes
        .iter()
        .filter(|o| o.tautology.is_none())
        .map(|o| o.verdict)
        .max_by_key(|v| rank(*v))
        .unwrap_or(Verdict::Respected)
}

/// Simpler values of an axis, simplest first.
fn simpler(axis: &Axis, v: &Value) -> Vec<Value> {
    match axis.range {
        Range::Int { lo, .. } => {
            // lo, then x/2^k above lo, ascending: the first that still violates is the smallest
            // of them that does.
            let Some(x) = v.as_u64() else { return vec![] };
            let mut out = vec![lo];
            let mut y = x / 2;
            while y > lo {
                out.push(y);
                y /= 2;
            }
            out.sort_unstable();
            out.dedup();
            out.into_iter()
                .filter(|y| *y < x)
                .map(Value::from)
                .collect()
        }
        Range::Real { .. } => {
            let Some(x) = v.as_f64() else { return vec![] };
            [1, 2]
                .into_iter()
                .map(|d| crate::report::round_sig(x, d))
                .filter(|y| *y != x)
                .map(Value::from)
                .collect()
        }
        Range::Choice { values } => match v.as_str() {
            Some(s) if s != values[0] => vec![Value::from(values[0])],
            _ => vec![],
        },
    }
}

/// Shrinks a confirmed violation: each axis in turn to its simplest value that still violates
/// at the search size, until nothing changes; then confirms the shrunk instance.
fn shrink(state: &mut State<'_>, v: &Confirmed) -> Result<Option<Violation>, Error> {
    let space = state.space;
    let mut values = space.values_of(&v.params);
    let mut budget = 64;
    loop {
        let mut changed = false;
        for i in 0..space.axes.len() {
            for s in simpler(&space.axes[i], &values[i]) {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let mut trial = values.clone();
                trial[i] = s;
                if state.violated(&trial).is_some() {
                    values = trial;
                    changed = true;
                    break;
                }
            }
        }
        if !changed || budget == 0 {
            break;
        }
    }
    // Unchanged: the confirmed candidate itself (its family's verdict). Changed: a new
    // instance, confirmed on a third seed (the confirmation seed chose it), its own family.
    let (instance, seed) = if values == space.values_of(&v.params) {
        (v.clone(), state.opts.confirm_seed)
    } else {
        let seed = state.opts.confirm_seed.wrapping_add(CONFIRM_SEED_OFFSET);
        let shrunk = space.case(&values).unwrap_or_else(|| v.params.clone());
        let mut confirmed = confirm(
            state.claim,
            space,
            &[Candidate {
                params: shrunk,
                score: f64::NAN,
                certified: f64::NAN,
                found_by: "shrunk",
            }],
            state.opts,
            seed,
        )?;
        match confirmed.pop() {
            Some(c) if c.verdict == Verdict::Violated => (c, seed),
            _ => (v.clone(), state.opts.confirm_seed),
        }
    };
    // Every parameter of the case as measured, search-only axes (those `derived` turns into
    // case parameters) included: they are part of its stream labels, and `check --exact` runs
    // exactly this case, whatever shape the default cases have.
    let command = reproduce(state.claim.info().id, &instance.params, seed, state.opts);
    Ok(Some(Violation {
        command,
        seed,
        shrunk_from: v.params.clone(),
        instance,
    }))
}

/// `dpclaims check ID --seed S --exact --set k=v ...` for every parameter of a case (`--exact`:
/// that one case, whatever shape the default cases have).
pub fn reproduce(id: &str, case: &Params, seed: u64, opts: &SearchOptions) -> String {
    let mut cmd = format!("dpclaims check {id} --seed {seed} --exact");
    if opts.confidence != harness::DEFAULT_CONFIDENCE {
        cmd.push_str(&format!(" --confidence {}", opts.confidence));
    }
    if let Some(m) = &opts.mutant {
        cmd.push_str(&format!(" --mutant {m}"));
    }
    for (k, v) in &case.0 {
        let v = match v {
            Value::Array(items) => items.iter().map(plain).collect::<Vec<_>>().join(","),
            other => plain(other),
        };
        cmd.push_str(&format!(" --set {k}={v}"));
    }
    cmd
}

/// The table of search results: claim, default score, worst found, confirmed (score, verdict,
/// seed) and the instance.
pub fn table(results: &[SearchResult]) -> String {
    let mut rows = vec![[
        "claim".to_string(),
        "default".into(),
        "worst found".into(),
        "confirmed (certified)".into(),
        "verdict".into(),
        "evaluated".into(),
        "instance".into(),
    ]];
    for r in results {
        let best = r.worst_confirmed();
        rows.push([
            r.claim.clone(),
            score_text(r.default_score()),
            r.best().map_or("-".into(), |b| score_text(b.score)),
            best.map_or("-".into(), |c| {
                format!("{} ({})", score_text(c.score), score_text(c.certified))
            }),
            best.map_or("-".into(), |c| c.verdict.as_str().to_string()),
            format!("{} in {:.0} s", r.evaluations, r.seconds),
            best.map_or("-".into(), |c| key_compact(&c.params, &r.space)),
        ]);
    }
    let mut s = crate::report::aligned(&rows);
    for r in results {
        let again = if r.stopped_by_budget {
            format!(
                "stopped by the time budget after {} of {}: reproduce with --evaluations {} --stop-after {} --seed {}",
                r.evaluations, r.requested, r.requested, r.evaluations, r.seed
            )
        } else {
            format!(
                "reproduce the search with --evaluations {} --seed {}",
                r.requested, r.seed
            )
        };
        s.push_str(&format!(
            "{}: search seed {}, confirmed on seed {} at the default size ({again})\n",
            r.claim, r.seed, r.confirm_seed
        ));
        if let Some(f) = &r.first_failure {
            s.push_str(&format!(
                "  {} candidate(s) could not be measured; the first: {f}\n",
                r.failed
            ));
        }
        if let Some(v) = &r.violation {
            s.push_str(&format!(
                "  VIOLATED at {} (shrunk from {}); reproduce: {}\n",
                key_compact(&v.instance.params, &r.space),
                key_compact(&v.shrunk_from, &r.space),
                v.command
            ));
        }
    }
    s
}

/// Searches every claim of `claims` matching `patterns` that declares a space (all such
/// claims when `patterns` is empty); an error when a pattern selects none that does.
pub fn search_all(
    claims: &[&dyn Claim],
    patterns: &[String],
    opts: &SearchOptions,
) -> Result<Vec<SearchResult>, Error> {
    let selected: Vec<&dyn Claim> = crate::claims::select(claims, patterns)?
        .into_iter()
        .filter(|c| c.space().is_some())
        .collect();
    if selected.is_empty() {
        return Err(Error::Input(
            "no selected claim declares a parameter space to search (see `dpclaims list --json`, field `space`)".into(),
        ));
    }
    let mut out = Vec::new();
    for c in selected {
        if opts.mutant.is_some()
            && !c
                .info()
                .mutants
                .iter()
                .any(|m| Some(m.name) == opts.mutant.as_deref())
        {
            continue;
        }
        if opts.progress {
            eprintln!("searching {}", c.info().id);
        }
        out.push(search(c, opts)?);
    }
    if out.is_empty() {
        return Err(Error::Input(format!(
            "no selected claim with a space has the mutant `{}`",
            opts.mutant.as_deref().unwrap_or_default()
        )));
    }
    Ok(out)
}

/// Whether a search found a confirmed violation of a claim expected to hold (not known false
/// as printed, and not a mutant run).
pub fn unexpected_violation(claims: &[&dyn Claim], results: &[SearchResult]) -> bool {
    results.iter().any(|r| {
        r.violation.is_some()
            && r.mutant.is_none()
            && !claims
                .iter()
                .any(|c| c.info().id == r.claim && c.info().known_false)
    })
}

/// The numeric axes of a search ordered by how much the score's frontier moves along them:
/// the candidates are cut into (up to) 8 quantile bins of the axis, and an axis' importance is
/// the range of the bins' largest scores (the frontier's own variation, not a correlation, so
/// that a peak inside the range counts).
pub fn axes_by_importance(r: &SearchResult) -> Vec<(&'static str, f64)> {
    let mut out: Vec<(&'static str, f64)> = r
        .space
        .axes
        .iter()
        .filter(|a| !matches!(a.range, Range::Choice { .. }))
        .map(|a| {
            let mut pts: Vec<(f64, f64)> = r
                .candidates
                .iter()
                .filter(|c| c.score.is_finite())
                .filter_map(|c| Some((c.params.0.get(a.name)?.as_f64()?, c.score)))
                .collect();
            pts.sort_by(|x, y| x.0.total_cmp(&y.0));
            let bins = pts.len().clamp(1, 8);
            let maxima: Vec<f64> = (0..bins)
                .filter_map(|b| {
                    let chunk = &pts[b * pts.len() / bins..(b + 1) * pts.len() / bins];
                    chunk.iter().map(|p| p.1).reduce(f64::max)
                })
                .collect();
            let spread = match (
                maxima.iter().copied().reduce(f64::max),
                maxima.iter().copied().reduce(f64::min),
            ) {
                (Some(hi), Some(lo)) => hi - lo,
                _ => 0.0,
            };
            (a.name, spread)
        })
        .collect();
    out.sort_by(|x, y| y.1.total_cmp(&x.1));
    out
}

/// The tightness frontier of a search as SVG: every candidate's score against the most
/// important axis (its natural scale: log when the axis is), split in two series by the
/// second most important axis (below / above its median), the confirmed candidates with their
/// confirmation scores, and the violation boundary (score 1) as a dashed line. `None` when
/// the space has no numeric axis or no finite score.
pub fn frontier_svg(r: &SearchResult) -> Option<Result<String, String>> {
    use crate::plot::{Point, Series, Style, xy_svg};
    let order = axes_by_importance(r);
    let (x_name, _) = *order.first()?;
    let x_axis = r.space.axes.iter().find(|a| a.name == x_name)?;
    let log_x = matches!(
        x_axis.range,
        Range::Real { log: true, .. } | Range::Int { log: true, .. }
    );
    let point = |p: &Params, score: f64| -> Option<Point> {
        let x = p.0.get(x_name)?.as_f64()?;
        (score.is_finite() && x.is_finite()).then_some(Point {
            x,
            y: score,
            interval: None,
        })
    };
    let finite: Vec<&Candidate> = r
        .candidates
        .iter()
        .filter(|c| c.score.is_finite())
        .collect();
    let log_y = finite.iter().all(|c| c.score > 0.0) && {
        let (lo, hi) = finite.iter().fold((f64::INFINITY, 0.0f64), |(l, h), c| {
            (l.min(c.score), h.max(c.score))
        });
        hi / lo > 100.0
    };
    let second = order.get(1).map(|(n, _)| *n);
    let mut series = Vec::new();
    match second {
        Some(y_name) => {
            let mut vals: Vec<f64> = finite
                .iter()
                .filter_map(|c| c.params.0.get(y_name)?.as_f64())
                .collect();
            vals.sort_by(f64::total_cmp);
            let median = vals.get(vals.len() / 2).copied().unwrap_or(0.0);
            for (k, (name, low)) in [
                (
                    format!("candidates, {y_name} <= {}", crate::plot::tick(median)),
                    true,
                ),
                (
                    format!("candidates, {y_name} > {}", crate::plot::tick(median)),
                    false,
                ),
            ]
            .into_iter()
            .enumerate()
            {
                let points: Vec<Point> = finite
                    .iter()
                    .filter(|c| {
                        c.params
                            .0
                            .get(y_name)
                            .and_then(Value::as_f64)
                            .map(|v| v <= median)
                            == Some(low)
                    })
                    .filter_map(|c| point(&c.params, c.score))
                    .collect();
                if !points.is_empty() {
                    series.push(Series {
                        name,
                        points,
                        style: Style::Points,
                        color: k,
                    });
                }
            }
        }
        None => series.push(Series {
            name: "candidates (search size and seed)".into(),
            points: finite
                .iter()
                .filter_map(|c| point(&c.params, c.score))
                .collect(),
            style: Style::Points,
            color: 0,
        }),
    }
    let confirmed: Vec<Point> = r
        .confirmed
        .iter()
        .filter_map(|c| point(&c.params, c.score))
        .collect();
    if !confirmed.is_empty() {
        series.push(Series {
            name: format!("confirmed (seed {}, default size)", r.confirm_seed),
            points: confirmed,
            style: Style::Points,
            color: 6,
        });
    }
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.x))
        .collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(*x), h.max(*x))
        });
    if !x0.is_finite() {
        return None;
    }
    series.push(Series {
        name: "violation boundary (score 1)".into(),
        points: [x0, x1]
            .into_iter()
            .map(|x| Point {
                x,
                y: 1.0,
                interval: None,
            })
            .collect(),
        style: Style::Dashed,
        color: 1,
    });
    Some(xy_svg(
        &format!("{}: tightness frontier", r.claim),
        x_name,
        "closeness to violation (measured/bound for an upper bound)",
        &series,
        log_x,
        log_y,
    ))
}

/// The report section of a set of searches: the table (claim, default tightness, worst found,
/// confirmed, verdict, instance), the seeds, every violation with its command, and a link to
/// each claim's frontier plot `search-<claim>.svg`.
pub fn markdown(results: &[SearchResult], plots: &[(String, String)]) -> String {
    let mut md = String::from(
        "## Tightness frontier (counterexample search)\n\nEach claim's declared parameter space searched for its tightest instance (random candidates from the space's proptest strategy, then coordinate refinement), at the search size and seed; the best candidates re-measured at the default size on a fresh seed (the confirmation, not biased by the selection). Score: measured/bound for an upper bound, bound/measured for a lower bound (point estimates); above 1 is a violation by the point estimate. The certified score (in brackets) takes the interval's end the verdict must pass (the lower limit for an upper bound): above 1 is a violated verdict. The search ranks by the certified score, so that noise or a wide bracket does not win; 'worst found' is the point score of the candidate it ranked first.\n\n| claim | default | worst found | confirmed (certified) | verdict | evaluated | instance |\n|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        let best = r.worst_confirmed();
        md.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} (seed {}; confirmed on seed {}) | {} |\n",
            r.claim,
            score_text(r.default_score()),
            r.best().map_or("-".into(), |b| score_text(b.score)),
            best.map_or("-".into(), |c| format!(
                "{} ({})",
                score_text(c.score),
                score_text(c.certified)
            )),
            best.map_or("-", |c| c.verdict.as_str()),
            r.evaluations,
            r.seed,
            r.confirm_seed,
            best.map_or("-".into(), |c| key_compact(&c.params, &r.space)),
        ));
    }
    for r in results {
        if let Some(v) = &r.violation {
            md.push_str(&format!(
                "\n**{} violated** at {} (shrunk from {}): `{}`\n",
                r.claim,
                key_compact(&v.instance.params, &r.space),
                key_compact(&v.shrunk_from, &r.space),
                v.command
            ));
        }
    }
    for (claim, file) in plots {
        md.push_str(&format!(
            "\n### `{claim}`\n\n![{claim} tightness frontier]({file})\n"
        ));
    }
    md
}

/// Writes one frontier plot per search into `dir` (`search-<claim>.svg`) and appends the
/// "Tightness frontier" section to `dir/report.md`; returns the files written.
pub fn write_section(
    dir: &std::path::Path,
    results: &[SearchResult],
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    let mut plots = Vec::new();
    for r in results {
        if let Some(svg) = frontier_svg(r) {
            let name = format!("search-{}.svg", r.claim);
            let path = dir.join(&name);
            std::fs::write(&path, svg?)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            files.push(path);
            plots.push((r.claim.clone(), name));
        }
    }
    let md_path = dir.join("report.md");
    let mut md = std::fs::read_to_string(&md_path).unwrap_or_default();
    if !md.is_empty() && !md.ends_with("\n\n") {
        md.push('\n');
    }
    md.push_str(&markdown(results, &plots));
    std::fs::write(&md_path, md).map_err(|e| format!("cannot write {}: {e}", md_path.display()))?;
    files.push(md_path);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::tests::est;
    use proptest::prelude::*;

    /// Values on a grid of quarters in \[-4, 4\], so that ties (an interval end at the bound) are
    /// drawn often and no ratio rounds across 1.
    fn grid() -> impl Strategy<Value = f64> {
        (-16i32..=16).prop_map(|k| k as f64 / 4.0)
    }

    proptest! {
        /// The search ranks by the certified score: it must cross 1 exactly where the verdict
        /// becomes violated, for every relation (a reproduction's score used the point estimate
        /// before, whose 1 is the tolerance, not the violation).
        #[test]
        fn certified_score_is_above_one_exactly_when_violated(
            kind in 0usize..5, bound in grid(), other in grid(), a in grid(), b in grid(),
            tolerance in (1i32..=8).prop_map(|k| k as f64 / 8.0),
        ) {
            let relation = match kind {
                0 => Relation::AtMost,
                1 => Relation::AtLeast,
                2 => Relation::LowerLimitAtMost,
                3 => Relation::Reproduces { tolerance },
                _ => Relation::Within { lower: other.min(bound), slack: 0.1 },
            };
            let e = est(a.min(b), a.max(b));
            let violated = relation.judge(&e, bound) == Verdict::Violated;
            let score = interval_closeness(&relation, bound, &e);
            prop_assert_eq!(score > 1.0, violated, "{:?} bound {} [{}, {}]: score {}",
                relation, bound, e.lower, e.upper, score);
        }
    }
}
