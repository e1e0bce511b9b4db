//! Counterexample search: the instance of a claim's parameter space where its bound is
//! tightest, confirmed on a fresh seed.
//!
//! A claim declares the space its statement quantifies over ([`Space`], from
//! [`Claim::space`](crate::claim::Claim)): ranges and choices of its parameters
//! ([`Axis`]) and the theorem's hypotheses ([`Constraint`](crate::space::Constraint), e.g. $\eta\le 1/L$). [`search`]
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
use crate::claim::{Claim, RunSpec};
use crate::harness::{self, Measured};
use crate::params::Params;
use crate::space::{Axis, Range, Space};
use crate::verdict::{Outcome, Relation, Verdict};
use dpclaims_empirical::rng::StreamKey;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Instant;

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
pub fn key_compact(p: &Params, space: &Space) -> String {
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
        Some(x) if !v.is_u64() && !v.is_i64() => format!("{}", crate::fmt::round_sig(x, 6)),
        _ => plain(v),
    }
}

/// A score for a table: 4 decimals, or 3 significant digits when that would hide it.
pub fn score_text(x: f64) -> String {
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
                .map(|d| crate::fmt::round_sig(x, d))
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

/// Searches every claim of `claims` matching `patterns` that declares a space (all such
/// claims when `patterns` is empty); an error when a pattern selects none that does.
pub fn search_all(
    claims: &[&dyn Claim],
    patterns: &[String],
    opts: &SearchOptions,
) -> Result<Vec<SearchResult>, Error> {
    let selected: Vec<&dyn Claim> = crate::claim::select(claims, patterns)?
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
