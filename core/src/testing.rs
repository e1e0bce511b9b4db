//! The test helper: one call in a `#[test]` checks a claim the way dpclaims checks its own.
//!
//! [`assert_claim`] runs every case of a claim at its default (test) size with a fixed seed
//! ([`TEST_SEED`]) and asserts
//! 1. every outcome is **respected** (or **violated**, for a claim marked
//!    [`ClaimInfo::known_false`](crate::claim::ClaimInfo::known_false)), with a finite bound and
//!    finite interval limits, so that the test could have failed; an `lcl<=` outcome
//!    ([`Relation::LowerLimitAtMost`]) can only be
//!    **not-refuted** where the others are respected, and that is what it must be;
//! 2. every mutant is **violated** on at least one of its outcomes, with a finite bound and
//!    interval (a violation through an infinity is no detection) (a mutant is a deliberate
//!    error the claim must catch; it is run with at most [`TestOptions::mutant_trials`] trials per
//!    case, since gross errors show at small sizes, or with the trials the claim declares for it,
//!    [`Claim::mutant_trials`], for a threshold mutant at the edge of detection).
//!
//! On failure it panics with one line per offending outcome naming the claim, the case's
//! parameters, the relation and bound, the estimate with its interval and level, `n` and the
//! seed. It returns the outcomes of the unmutated run, ready for an insta snapshot through
//! [`snapshot_value`] (floats rounded to 6 significant digits, so snapshots are stable).
//!
//! The built-in claims are tested with exactly these functions (`tests/claims.rs`).
//!
//! # Two tiers: `cargo test` and `DPCLAIMS_FULL=1 cargo test`
//!
//! One switch, the environment variable `DPCLAIMS_FULL` ([`FULL_ENV`], read by [`full_tier`]),
//! selects the size of the test suite:
//! - **fast tier** (unset, the default of `cargo test`): every claim and every mutant keeps a
//!   test that can fail, but a claim whose default-size run has room to spare runs with fewer
//!   trials, the sizes the rule below derives ([`fewest_trials`], [`fewest_mutant_trials`]),
//!   and the expensive property tests run a smaller instance of themselves. A run at a reduced
//!   size is not compared with its snapshot (snapshots are of the default-size runs). A
//!   mutant's run stops at its first case caught by an outcome whose interval does not depend
//!   on the run's level (exact, computed, refined, a bracket or a sampled maximum:
//!   [`TestOptions::first_catch`]): that outcome is what the whole run reports, so the
//!   assertion is the same (an error in a later case is left to the full tier).
//! - **full-size tier** (`DPCLAIMS_FULL=1`): every claim at its default size with its snapshot
//!   compared, every mutant at the helper's size, the expensive properties at full size; and
//!   the fast sizes are checked against the rule on the full-size outcomes.
//!
//! ## The rule that sizes a fast test
//!
//! A fast verdict is an ordinary verdict at the same confidence on fewer trials: its interval
//! is wider, so it misses smaller errors (the full-size tier keeps the power), but what it
//! reports holds at the same level. The rule picks the size at which the expected verdict
//! still comes out with room to spare, from the outcomes of the full-size run at the test seed (what its snapshot records):
//!
//! - The **allowance** $a$ of an outcome is the distance from its estimate to the limit its
//!   verdict must stay clear of (the bound for `<=` and `>=`; the nearer end of the tolerance
//!   band or window for `==` and `in`), in half-widths of its interval on that side. For a
//!   respected `<=` outcome with bound $B$ and lower limit $L$ this is the margin that
//!   `docs/detection.json` records as $\kappa^\ast_b=(B-L)/|B|$, in another unit:
//!   $a=\kappa^\ast_b|B|/h-1$ with $h$ the half-width (the unit that scales with the trials).
//! - With $f$ times fewer trials a half-width grows by $g(f)$: $\sqrt f$ times the ratio of
//!   the Student t quantiles for a t interval (mean, paired slope), $\sqrt f$ for a normal or
//!   DKW interval (log-slope of independent points, DKW band), and, conservatively, $f$ for
//!   Clopper–Pearson and the Bernstein limits (their $1/n$ term dominates near the ends of the
//!   range). The fast size is the fewest trials with $g(f)\le a/s$, the safety factor
//!   $s=$ [`FAST_SAFETY`] $=2$: the estimate of the smaller run would then have to move by
//!   more than its own half-width (about 3.7 standard errors at the harness's per-outcome
//!   levels) for the verdict to change. Where $a\le s$ nothing is cut.
//! - The cases: every outcome of the unmutated run must keep its verdict, so the cap on every
//!   case's trials is the largest fast size over the outcomes, and at least
//!   [`FAST_MIN_TRIALS`] (a sample variance from fewer is too uncertain to predict from). A
//!   not-refuted (`lcl<=`) outcome and a respected sampled maximum (a maximum over fewer of the
//!   same instances is no larger) do not limit it; an outcome computed without sampling
//!   ($n=0$) does not depend on the trials. A claim at the edge keeps its default size:
//!   [`fewest_trials`] is then `None`.
//! - A mutant: one of its outcomes must stay violated, so its cap is the smallest
//!   fast size over its violated outcomes (with finite limits), from its run at the
//!   helper's size ([`MUTANT_TRIALS`]). A threshold mutant ([`Claim::mutant_trials`]) keeps the
//!   size it declares in both tiers.
//!
//! Sizes go down only, and seeds stay: every trial draws from its own stream, so a fast run's
//! trials are the first trials of the full run, never new numbers. The built-in claims' fast
//! sizes are a table in `tests/claims.rs`, each at or above what the rule gives; the full-size
//! tier recomputes the rule from its own runs and fails on an entry below it.

use crate::claim::Claim;
use crate::harness::{CheckOptions, DEFAULT_CONFIDENCE, cases_with_overrides, check};
use crate::verdict::{Outcome, Relation, Verdict};
use dpclaims_empirical::stats::{self, Estimate, MeanAcc, Method};

/// The seed of every test run (and of the recorded snapshots).
pub const TEST_SEED: u64 = 7;

/// Trials per case, at most, of a mutant's run.
pub const MUTANT_TRIALS: u64 = 2000;

/// The environment variable that selects the full-size tier: `DPCLAIMS_FULL=1 cargo test`
/// (module documentation).
pub const FULL_ENV: &str = "DPCLAIMS_FULL";

/// Whether the full-size tier is selected: [`FULL_ENV`] set to anything but empty or `0`.
pub fn full_tier() -> bool {
    std::env::var_os(FULL_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The safety factor $s$ of the fast tier's sizes (module documentation): a fast run's
/// half-widths are at most $1/s$ of the distance from the estimate to its verdict's limit.
pub const FAST_SAFETY: f64 = 2.0;

/// The fewest trials per case the fast tier runs a sampled case with (a sample variance from
/// fewer is itself too uncertain for the rule's prediction).
pub const FAST_MIN_TRIALS: u64 = 20;

/// The factor by which an outcome's half-widths grow when its `n` samples are cut to `n_new`:
/// $\sqrt{n/n'}$ times the ratio of the Student t quantiles for a t interval (the Student t
/// mean and the paired slope), $\sqrt{n/n'}$ for a normal or DKW interval (the log-slope of
/// independent design points, the DKW band), $n/n'$ for the Clopper–Pearson and Bernstein
/// limits (conservative: their $1/n$ term dominates near the ends of the range). `None` where
/// the interval does not narrow with the samples in a known way.
fn growth(m: &Estimate, n_new: u64) -> Option<f64> {
    let ratio = m.n as f64 / n_new as f64;
    match m.method {
        Method::StudentT | Method::PairedLogSlope => {
            Some(ratio.sqrt() * t_quantile(n_new, m)? / t_quantile(m.n, m)?)
        }
        Method::LogSlope | Method::Dkw => Some(ratio.sqrt()),
        Method::EmpiricalBernstein | Method::ClopperPearson | Method::KlBernstein => Some(ratio),
        Method::Exact
        | Method::Computed
        | Method::RefinementEstimate
        | Method::Bracket
        | Method::SampledMaximum => None,
    }
}

/// The Student t quantile of an interval on `n` samples at `m`'s level and sides (`None` below
/// two samples).
fn t_quantile(n: u64, m: &Estimate) -> Option<f64> {
    // Unit variance: the half-width is the quantile over sqrt(n).
    let acc = MeanAcc {
        n,
        m2: n.saturating_sub(1) as f64,
        ..MeanAcc::default()
    };
    let e = stats::student_t(&acc, m.confidence, m.sides, 0).ok()?;
    Some((e.upper - e.mean) * (n as f64).sqrt())
}

/// `d / h`: how many half-widths `h` fit in the distance `d` (infinite for a zero half-width
/// and a positive distance).
fn in_half_widths(d: f64, h: f64) -> f64 {
    if h > 0.0 {
        d / h
    } else if d > 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// The allowance of an outcome (module documentation): the distance from its estimate to the
/// limit its verdict must stay clear of, in half-widths on that side; infinite for a verdict
/// no widening changes (not-refuted), 0 for an inconclusive one.
fn allowance(o: &Outcome) -> f64 {
    let m = &o.measured;
    let (mean, b) = (m.mean, o.bound);
    let (below, above) = (mean - m.lower, m.upper - mean);
    let up = |limit: f64| in_half_widths(limit - mean, above);
    let down = |limit: f64| in_half_widths(mean - limit, below);
    match (o.verdict, o.relation) {
        (Verdict::NotRefuted, _) => f64::INFINITY,
        (Verdict::Inconclusive, _) => 0.0,
        (Verdict::Respected, Relation::AtMost) => up(b),
        (Verdict::Respected, Relation::AtLeast) => down(b),
        (Verdict::Respected, Relation::Reproduces { tolerance }) => {
            up(b + tolerance * b.abs()).min(down(b - tolerance * b.abs()))
        }
        (Verdict::Respected, Relation::Within { lower, slack }) => {
            up(b + slack).min(down(lower - slack))
        }
        (Verdict::Respected, Relation::LowerLimitAtMost) => 0.0,
        (Verdict::Violated, Relation::AtMost | Relation::LowerLimitAtMost) => down(b),
        (Verdict::Violated, Relation::AtLeast) => up(b),
        (Verdict::Violated, Relation::Reproduces { .. }) => {
            if m.lower > b {
                down(b)
            } else {
                up(b)
            }
        }
        (Verdict::Violated, Relation::Within { lower, .. }) => {
            if m.lower > b {
                down(b)
            } else {
                up(lower)
            }
        }
    }
}

/// The fewest trials of an outcome's case that keep its verdict by the rule, or `None` when
/// the outcome does not depend on the trials (no `trials` parameter, or computed without
/// sampling); its case's trials when nothing can be cut.
fn outcome_trials(o: &Outcome) -> Option<u64> {
    let trials = o.params.u64("trials").ok()?;
    let m = &o.measured;
    if m.n == 0 {
        return None;
    }
    if m.method == Method::SampledMaximum {
        // Over fewer of the same instances a maximum is no larger, so a respected `<=` stays
        // respected; any other verdict on it needs every instance.
        return match (o.verdict, o.relation) {
            (Verdict::Respected, Relation::AtMost) => None,
            _ => Some(trials),
        };
    }
    let room = allowance(o) / FAST_SAFETY;
    // The samples a run of `t` trials draws (`n` is a multiple of the trials, or equal).
    let samples = |t: u64| ((m.n as f64 * t as f64 / trials as f64).round() as u64).max(1);
    let keeps = |t: u64| growth(m, samples(t)).is_some_and(|g| g <= room);
    if trials < 2 || !keeps(trials) {
        return Some(trials);
    }
    // The growth falls as the trials rise: bisect for the fewest that keep the verdict.
    let (mut bad, mut good) = (1, trials);
    if keeps(bad) {
        return Some(bad);
    }
    while good - bad > 1 {
        let mid = bad + (good - bad) / 2;
        if keeps(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Some(good)
}

/// The largest `trials` among the outcomes' cases (the default size the run had).
fn largest_trials(outcomes: &[Outcome]) -> Option<u64> {
    outcomes
        .iter()
        .filter_map(|o| o.params.u64("trials").ok())
        .max()
}

/// A cap of `need` trials (at least [`FAST_MIN_TRIALS`]), or `None` when it cuts nothing of
/// the run's `largest` case.
fn as_cap(need: u64, largest: Option<u64>) -> Option<u64> {
    let cap = need.max(FAST_MIN_TRIALS);
    largest.filter(|&l| cap < l).map(|_| cap)
}

/// The fast tier's cap on every case's trials, by the rule (module documentation), from the
/// outcomes of the claim's unmutated run at its default size: every outcome keeps its verdict
/// with the safety factor [`FAST_SAFETY`]. `None`: the claim keeps its default size (at the
/// edge, or nothing sampled to cut).
pub fn fewest_trials(outcomes: &[Outcome]) -> Option<u64> {
    let need = outcomes.iter().filter_map(outcome_trials).max()?;
    as_cap(need, largest_trials(outcomes))
}

/// The fast tier's cap on a mutant's trials, by the rule (module documentation), from the
/// outcomes of its run at the helper's size: one violated outcome (with a finite bound and
/// interval) stays violated with the safety factor [`FAST_SAFETY`]. `None`: no cut (nothing
/// caught with room, or nothing sampled to cut).
pub fn fewest_mutant_trials(outcomes: &[Outcome]) -> Option<u64> {
    let need = outcomes
        .iter()
        .filter(|o| caught(o))
        .map(|o| outcome_trials(o).unwrap_or(0))
        .min()?;
    as_cap(need, largest_trials(outcomes))
}

/// A mutant's outcome counts as caught: violated with a finite bound and interval (a violation
/// through an infinity, a division by a zero gap, is true by construction, not a detection).
fn caught(o: &Outcome) -> bool {
    o.verdict == Verdict::Violated
        && o.bound.is_finite()
        && o.measured.lower.is_finite()
        && o.measured.upper.is_finite()
}

/// Whether an outcome's interval is the same at any level: a value computed without
/// sampling (exact, computed with its error, refined on grids, a bracket) or a sampled
/// maximum, none of which is widened for confidence.
fn level_free(o: &Outcome) -> bool {
    matches!(
        o.measured.method,
        Method::Exact
            | Method::Computed
            | Method::RefinementEstimate
            | Method::Bracket
            | Method::SampledMaximum
    )
}

/// A mutant's run case by case, stopped at the first case with a caught, level-free outcome
/// ([`level_free`]): that outcome is exactly what the whole run reports for it (the level of
/// a run is split over all its outcomes, but a level-free interval does not depend on it),
/// so the mutant is caught without the cases after it. Returns the level-free outcomes of
/// the cases run, or None when no case catches it so (the caller then runs the whole mutant; the
/// cases measured here are remembered, so nothing is measured twice).
fn first_catch(
    claim: &dyn Claim,
    opts: &TestOptions,
    mutant: &str,
    cap: Option<u64>,
) -> Option<Vec<Outcome>> {
    let whole = CheckOptions {
        seed: opts.seed,
        confidence: opts.confidence,
        mutant: Some(mutant.to_string()),
        max_trials: cap,
        remember: true,
        ..CheckOptions::default()
    };
    let mut so_far = Vec::new();
    for case in cases_with_overrides(claim, &whole) {
        let one = CheckOptions {
            sets: case.0.into_iter().collect(),
            exact: true,
            ..whole.clone()
        };
        let outcomes = check(&[claim], &one).ok()?;
        let stop = outcomes.iter().any(|o| caught(o) && level_free(o));
        // (A sampled outcome of a case run alone is at that run's level, not the whole
        // run's: only the level-free ones are kept.)
        so_far.extend(outcomes.into_iter().filter(level_free));
        if stop {
            return Some(so_far);
        }
    }
    None
}

/// How [`assert_claim_with`] runs a claim.
#[derive(Debug, Clone)]
pub struct TestOptions {
    /// Run seed (same seed, same numbers, on any number of threads).
    pub seed: u64,
    /// Family-wise confidence level of each run (split over its outcomes).
    pub confidence: f64,
    /// Cap on every case's trials in the unmutated run (`None`: the cases' defaults).
    pub max_trials: Option<u64>,
    /// Cap on every case's trials in the mutants' runs.
    pub mutant_trials: Option<u64>,
    /// Caps on the trials of the named mutants' runs, in place of `mutant_trials` (the fast
    /// tier's sizes, [`fewest_mutant_trials`]); a threshold mutant still runs at the size it
    /// declares.
    pub mutant_caps: Vec<(String, u64)>,
    /// Answer a case already measured in this process from memory
    /// ([`CheckOptions::remember`]): only for claims whose id names one implementation.
    pub remember: bool,
    /// Stop a mutant's run at the first case with a caught outcome whose interval does not
    /// depend on the run's level (exact, computed, refined, a bracket, a sampled maximum);
    /// needs `remember`. That outcome is what the whole run reports, so the assertion is the
    /// same, except that an error in a case after the catch (which fails the whole run) goes
    /// unseen: the full tier runs every case. The fast tier's mode. A mutant no such outcome
    /// catches runs whole, its cases measured once.
    pub first_catch: bool,
}

impl Default for TestOptions {
    fn default() -> Self {
        Self {
            seed: TEST_SEED,
            confidence: DEFAULT_CONFIDENCE,
            max_trials: None,
            mutant_trials: Some(MUTANT_TRIALS),
            mutant_caps: Vec::new(),
            remember: false,
            first_catch: false,
        }
    }
}

/// One outcome as a failure line: claim, case, relation, bound, interval, level, n, seed.
pub fn describe(o: &Outcome) -> String {
    let m = &o.measured;
    format!(
        "{}{} case [{}]: {}; bound {} (measured {} bound), estimate {} in [{}, {}] ({:?}-sided at level {}, {:?}), n = {}, seed = {}",
        o.claim,
        o.mutant
            .as_ref()
            .map(|x| format!(" (mutant {x})"))
            .unwrap_or_default(),
        o.params.compact(),
        o.verdict.as_str(),
        o.bound,
        o.relation.symbol(),
        m.mean,
        m.lower,
        m.upper,
        m.sides,
        m.confidence,
        m.method,
        m.n,
        o.seed,
    )
}

fn run(
    claim: &dyn Claim,
    opts: &TestOptions,
    mutant: Option<&str>,
    cap: Option<u64>,
) -> Vec<Outcome> {
    let id = claim.info().id;
    let check_opts = CheckOptions {
        seed: opts.seed,
        confidence: opts.confidence,
        mutant: mutant.map(str::to_string),
        max_trials: cap,
        remember: opts.remember,
        ..CheckOptions::default()
    };
    match check(&[claim], &check_opts) {
        Ok(outcomes) => outcomes,
        Err(e) => panic!(
            "{id}{}: the run failed before a verdict: {e}",
            mutant.map(|m| format!(" (mutant {m})")).unwrap_or_default()
        ),
    }
}

/// Runs every case of `claim` and asserts each outcome respected (violated for a claim known
/// false as printed) with a finite bound and interval; returns the outcomes.
pub fn assert_cases(claim: &dyn Claim, opts: &TestOptions) -> Vec<Outcome> {
    let info = claim.info();
    let expected = if info.known_false {
        Verdict::Violated
    } else {
        Verdict::Respected
    };
    let outcomes = run(claim, opts, None, opts.max_trials);
    assert!(
        !outcomes.is_empty(),
        "{}: no outcome (cases() returned no case)",
        info.id
    );
    let mut failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| {
            let finite =
                o.bound.is_finite() && o.measured.lower.is_finite() && o.measured.upper.is_finite();
            // An lcl<= outcome of a claim expected to hold can at best be not refuted.
            let expected = match (expected, o.relation) {
                (Verdict::Respected, Relation::LowerLimitAtMost) => Verdict::NotRefuted,
                (e, _) => e,
            };
            if o.verdict != expected {
                Some(format!("expected {}: {}", expected.as_str(), describe(o)))
            } else if !finite {
                Some(format!(
                    "a bound or interval limit is not finite (a test that cannot fail): {}",
                    describe(o)
                ))
            } else {
                None
            }
        })
        .collect();
    // A declared tautology must cover some outcome (else its matcher is stale), and only
    // declared ones are stamped (the harness does it from the claim's info).
    for t in info.tautologies {
        if !outcomes.iter().any(|o| t.covers(&o.params)) {
            failures.push(format!(
                "the tautology ({}) covers no outcome: {}",
                t.scope(),
                t.reason
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}: {} of {} outcomes failed:\n  {}",
        info.id,
        failures.len(),
        outcomes.len(),
        failures.join("\n  ")
    );
    outcomes
}

/// Runs every mutant of `claim` and asserts each is violated on at least one outcome; returns
/// each mutant's outcomes.
pub fn assert_mutants(claim: &dyn Claim, opts: &TestOptions) -> Vec<(String, Vec<Outcome>)> {
    let info = claim.info();
    assert!(
        info.known_false || !info.mutants.is_empty(),
        "{}: a claim needs at least one mutant (a test that cannot fail is a defect)",
        info.id
    );
    let mut failures = Vec::new();
    let mut all = Vec::new();
    for m in info.mutants {
        // A threshold mutant declares the size it needs (Claim::mutant_trials): the cap is
        // raised to it, never lowered.
        let listed = opts
            .mutant_caps
            .iter()
            .find(|(name, _)| name == m.name)
            .map(|&(_, cap)| cap);
        let cap = match (claim.mutant_trials(m.name), listed.or(opts.mutant_trials)) {
            (Some(need), Some(cap)) => Some(need.max(cap)),
            (_, cap) => cap,
        };
        let outcomes = (opts.first_catch && opts.remember)
            .then(|| first_catch(claim, opts, m.name, cap))
            .flatten()
            .unwrap_or_else(|| run(claim, opts, Some(m.name), cap));
        if !outcomes.iter().any(caught) {
            failures.push(format!(
                "mutant {} ({}) was not caught: no outcome violated with a finite bound and interval\n    {}",
                m.name,
                m.description,
                outcomes
                    .iter()
                    .map(describe)
                    .collect::<Vec<_>>()
                    .join("\n    ")
            ));
        }
        all.push((m.name.to_string(), outcomes));
    }
    assert!(
        failures.is_empty(),
        "{}: {}",
        info.id,
        failures.join("\n  ")
    );
    all
}

/// [`assert_cases`] and [`assert_mutants`] with the default [`TestOptions`]; returns the
/// outcomes of the unmutated run.
///
/// ```no_run
/// # fn claim() -> &'static dyn dpclaims_core::claim::Claim { unimplemented!() }
/// use dpclaims_core::testing::{assert_claim, snapshot_value};
/// // Your claim, or a built-in one (`dpclaims::claims::registry()`).
/// let outcomes = assert_claim(claim());
/// assert!(snapshot_value(&outcomes).is_array());
/// ```
pub fn assert_claim(claim: &dyn Claim) -> Vec<Outcome> {
    assert_claim_with(claim, &TestOptions::default())
}

/// [`assert_claim`] with explicit options.
pub fn assert_claim_with(claim: &dyn Claim, opts: &TestOptions) -> Vec<Outcome> {
    let outcomes = assert_cases(claim, opts);
    assert_mutants(claim, opts);
    outcomes
}

/// The outcomes as JSON with floats rounded to 6 significant digits: what a snapshot records
/// (`insta::assert_json_snapshot!(snapshot_value(&outcomes))`).
pub fn snapshot_value(outcomes: &[Outcome]) -> serde_json::Value {
    crate::fmt::rounded(serde_json::to_value(outcomes).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::{ClaimInfo, Measurement, Mutant, RunSpec, Statistic};
    use crate::params::Params;
    use dpclaims_accounting::ParamError;

    const SHRUNK: Mutant = Mutant {
        name: "shrunk",
        description: "the bound divided by 10",
    };
    const NO_OP: Mutant = Mutant {
        name: "no-op",
        description: "changes nothing (must be reported as not caught)",
    };

    const INFINITE: Mutant = Mutant {
        name: "infinite",
        description: "measures +infinity (violated only through an infinity)",
    };

    /// Exact value 1 against bound `bound` (divided by 10 under `shrunk`, value +inf under
    /// `infinite`, 0.5 under `edge` when the case runs 5000 trials or more); declares the
    /// default size for `edge` when `declares`.
    struct Toy {
        info: ClaimInfo,
        bound: f64,
        declares: bool,
    }

    impl Claim for Toy {
        fn info(&self) -> &ClaimInfo {
            &self.info
        }
        fn cases(&self) -> Vec<Params> {
            vec![crate::params! { "x" => 1, "trials" => 10_000 }]
        }
        fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
            let edge = run.mutant == Some(EDGE.name) && case.u64("trials")? >= 5000;
            let shrink = if run.mutant == Some(SHRUNK.name) {
                10.0
            } else {
                1.0
            };
            Ok(vec![Measurement {
                params: case.clone(),
                bound: if edge { 0.5 } else { self.bound / shrink },
                relation: Relation::AtMost,
                statistic: Statistic::Exact {
                    value: if run.mutant == Some(INFINITE.name) {
                        f64::INFINITY
                    } else {
                        1.0
                    },
                },
            }])
        }
        fn mutant_trials(&self, mutant: &str) -> Option<u64> {
            (self.declares && mutant == EDGE.name).then_some(crate::claim::DEFAULT_SIZE)
        }
    }

    fn toy(bound: f64, mutants: &'static [Mutant]) -> Toy {
        Toy {
            info: ClaimInfo {
                id: "toy.claim",
                paper: "none",
                result: "none",
                statement: "1 <= bound",
                mutants,
                known_false: false,
                tautologies: &[],
                perturbation: None,
            },
            bound,
            declares: false,
        }
    }

    fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let err = std::panic::catch_unwind(f).expect_err("the helper must fail");
        err.downcast_ref::<String>().cloned().unwrap_or_default()
    }

    #[test]
    fn a_sound_claim_with_a_caught_mutant_passes() {
        let outcomes = assert_claim(&toy(2.0, &[SHRUNK]));
        assert_eq!(outcomes.len(), 1);
        assert_eq!(outcomes[0].verdict, Verdict::Respected);
        assert_eq!(snapshot_value(&outcomes)[0]["bound"], 2.0);
    }

    #[test]
    fn a_violated_case_fails_naming_case_bound_interval_n_and_seed() {
        let msg = panic_message(|| {
            assert_claim(&toy(0.5, &[SHRUNK]));
        });
        for needle in [
            "toy.claim case [trials=10000 x=1]",
            "violated",
            "bound 0.5",
            "in [1, 1]",
            "n = 0",
            "seed = 7",
        ] {
            assert!(msg.contains(needle), "{needle:?} not in: {msg}");
        }
    }

    const EDGE: Mutant = Mutant {
        name: "edge",
        description: "caught only with 5000 trials or more (a threshold mutant)",
    };

    /// Issue 18 item 6: a threshold mutant that needs more than the mutant cap is caught when
    /// the claim declares the size it needs, and only then.
    #[test]
    fn a_threshold_mutant_runs_at_the_size_it_declares() {
        let edge = |declares| Toy {
            declares,
            ..toy(2.0, &[EDGE])
        };
        assert_claim(&edge(true));
        let msg = panic_message(|| {
            assert_claim(&edge(false));
        });
        assert!(msg.contains("mutant edge"), "{msg}");
    }

    const EXACT_CATCH: Mutant = Mutant {
        name: "exact-catch",
        description: "violates the exact outcome of the first case",
    };
    const MEAN_CATCH: Mutant = Mutant {
        name: "mean-catch",
        description: "violates only the sampled mean of the last case",
    };

    /// Three cases, each an exact outcome and a sampled mean (of 0, 1, 2, ... mod 3, trials
    /// values); counts its measurements.
    struct Counted {
        info: ClaimInfo,
        measured: std::sync::atomic::AtomicUsize,
    }

    impl Claim for Counted {
        fn info(&self) -> &ClaimInfo {
            &self.info
        }
        fn cases(&self) -> Vec<Params> {
            (0..3)
                .map(|i| crate::params! { "i" => i, "trials" => 30 })
                .collect()
        }
        fn measure(&self, case: &Params, run: RunSpec<'_>) -> Result<Vec<Measurement>, ParamError> {
            self.measured
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let i = case.u64("i")?;
            let mut acc = MeanAcc::new();
            for k in 0..case.u64("trials")? {
                acc.push((k % 3) as f64);
            }
            let exact_bound = if run.mutant == Some(EXACT_CATCH.name) && i == 0 {
                0.5
            } else {
                2.0
            };
            let mean_bound = if run.mutant == Some(MEAN_CATCH.name) && i == 2 {
                0.2
            } else {
                3.0
            };
            Ok(vec![
                Measurement {
                    params: case.clone(),
                    bound: exact_bound,
                    relation: Relation::AtMost,
                    statistic: Statistic::Exact { value: 1.0 },
                },
                Measurement {
                    params: case.clone(),
                    bound: mean_bound,
                    relation: Relation::AtMost,
                    statistic: Statistic::Mean { blocks: vec![acc] },
                },
            ])
        }
    }

    /// The fast tier's mode: a mutant caught by a level-free (exact) outcome of its first case
    /// measures that case only (and reports its level-free outcomes, as the whole run has
    /// them); one caught only by a sampled mean (whose interval depends on
    /// the whole run's level) gets the whole run's outcomes, each case measured once; without
    /// `remember` every case runs as before. The verdicts are those of the whole run.
    #[test]
    fn first_catch_stops_only_at_a_level_free_catch() {
        let claim = |id: &'static str| Counted {
            info: ClaimInfo {
                id,
                mutants: &[EXACT_CATCH, MEAN_CATCH],
                ..toy(2.0, &[]).info
            },
            measured: Default::default(),
        };
        let count = |c: &Counted| c.measured.load(std::sync::atomic::Ordering::SeqCst);
        let fast = TestOptions {
            remember: true,
            first_catch: true,
            ..TestOptions::default()
        };
        let c = claim("toy.first_catch");
        let runs = assert_mutants(&c, &fast);
        // The exact catch: one case measured; the mean catch: three, each once.
        assert_eq!(runs[0].1.len(), 1);
        assert_eq!(runs[1].1.len(), 6);
        assert_eq!(count(&c), 1 + 3);
        let plain = claim("toy.first_catch.plain");
        let whole = assert_mutants(&plain, &TestOptions::default());
        assert_eq!(count(&plain), 3 + 3);
        // The same outcomes but for the claim's name.
        let named = |v: &[Outcome]| -> Vec<Outcome> {
            v.iter()
                .map(|o| Outcome {
                    claim: String::new(),
                    ..o.clone()
                })
                .collect()
        };
        assert_eq!(named(&whole[1].1), named(&runs[1].1));
        assert_eq!(named(&whole[0].1[..1]), named(&runs[0].1));
    }

    #[test]
    fn an_uncaught_mutant_or_none_at_all_fails() {
        let msg = panic_message(|| {
            assert_claim(&toy(2.0, &[SHRUNK, NO_OP]));
        });
        assert!(msg.contains("mutant no-op"), "{msg}");
        assert!(!msg.contains("mutant shrunk"), "{msg}");
        let msg = panic_message(|| {
            assert_claim(&toy(2.0, &[INFINITE]));
        });
        assert!(msg.contains("mutant infinite"), "{msg}");
        let msg = panic_message(|| {
            assert_claim(&toy(2.0, &[]));
        });
        assert!(msg.contains("needs at least one mutant"), "{msg}");
    }

    /// An outcome with estimate `mean` ± `half` on `trials` trials (`n` samples) by `method`.
    fn sampled(
        relation: Relation,
        verdict: Verdict,
        bound: f64,
        (mean, half): (f64, f64),
        trials: u64,
        method: Method,
    ) -> Outcome {
        Outcome {
            claim: "toy.claim".into(),
            params: crate::params! { "trials" => trials },
            bound,
            measured: Estimate {
                mean,
                lower: mean - half,
                upper: mean + half,
                n: trials,
                confidence: 0.9999,
                sides: stats::Sides::One,
                method,
                seed: TEST_SEED,
            },
            relation,
            verdict,
            tightness: mean / bound,
            seed: TEST_SEED,
            family_confidence: DEFAULT_CONFIDENCE,
            mutant: None,
            known_false: false,
            tautology: None,
            design: Vec::new(),
        }
    }

    /// Issue 27: a respected `<=` ten half-widths below its bound keeps its verdict with the
    /// half-width five times wider: a Student t mean on about 1/25 of the trials (a little more
    /// for the larger t quantile), Clopper–Pearson on 1/5; at two half-widths or less nothing
    /// is cut; the floor is FAST_MIN_TRIALS.
    #[test]
    fn fast_sizes_follow_the_margin() {
        let at = |half: f64, trials: u64, method: Method| {
            sampled(
                Relation::AtMost,
                Verdict::Respected,
                1.0,
                (0.0, half),
                trials,
                method,
            )
        };
        let t = fewest_trials(&[at(0.1, 10_000, Method::StudentT)]).unwrap();
        assert!((400..440).contains(&t), "{t}");
        assert_eq!(
            fewest_trials(&[at(0.1, 10_000, Method::ClopperPearson)]),
            Some(2000)
        );
        assert_eq!(fewest_trials(&[at(0.5, 10_000, Method::StudentT)]), None);
        assert_eq!(
            fewest_trials(&[at(1e-6, 10_000, Method::StudentT)]),
            Some(FAST_MIN_TRIALS)
        );
        // The cap is the largest need: a case at the edge keeps the run at its size.
        assert_eq!(
            fewest_trials(&[
                at(1e-6, 10_000, Method::StudentT),
                at(0.5, 10_000, Method::StudentT)
            ]),
            None
        );
        // A not-refuted outcome or one computed without sampling limits nothing.
        let mut lcl = at(0.5, 10_000, Method::Dkw);
        (lcl.relation, lcl.verdict) = (Relation::LowerLimitAtMost, Verdict::NotRefuted);
        let mut exact = at(0.0, 10_000, Method::Exact);
        exact.measured.n = 0;
        assert_eq!(
            fewest_trials(&[lcl, exact, at(0.1, 10_000, Method::ClopperPearson)]),
            Some(2000)
        );
        // Nothing to cut without trials.
        let mut untried = at(0.1, 10_000, Method::StudentT);
        untried.params = Params::default();
        assert_eq!(fewest_trials(&[untried]), None);
    }

    /// A mutant keeps the size at which one violated outcome (with finite limits) stays
    /// violated with the safety factor; an outcome violated through an infinity counts for
    /// nothing.
    #[test]
    fn fast_mutant_sizes_follow_the_best_caught_outcome() {
        let violated = |mean: f64, bound: f64| {
            sampled(
                Relation::AtMost,
                Verdict::Violated,
                bound,
                (mean, 0.1),
                2000,
                Method::ClopperPearson,
            )
        };
        // 1.5 and 10 half-widths above the bound: the second sets the size (2000 / 5).
        assert_eq!(
            fewest_mutant_trials(&[violated(0.15, 0.0), violated(1.0, 0.0)]),
            Some(400)
        );
        assert_eq!(fewest_mutant_trials(&[violated(0.15, 0.0)]), None);
        assert_eq!(
            fewest_mutant_trials(&[violated(1.0, f64::NEG_INFINITY)]),
            None
        );
        // At-least, violated below its bound: mirrored.
        let mut below = violated(-1.0, 0.0);
        below.relation = Relation::AtLeast;
        assert_eq!(fewest_mutant_trials(&[below]), Some(400));
    }
}
