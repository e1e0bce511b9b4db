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

use crate::claim::Claim;
use crate::harness::{CheckOptions, DEFAULT_CONFIDENCE, check};
use crate::verdict::{Outcome, Relation, Verdict};

/// The seed of every test run (and of the recorded snapshots).
pub const TEST_SEED: u64 = 7;

/// Trials per case, at most, of a mutant's run.
pub const MUTANT_TRIALS: u64 = 2000;

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
}

impl Default for TestOptions {
    fn default() -> Self {
        Self {
            seed: TEST_SEED,
            confidence: DEFAULT_CONFIDENCE,
            max_trials: None,
            mutant_trials: Some(MUTANT_TRIALS),
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
        let cap = match (claim.mutant_trials(m.name), opts.mutant_trials) {
            (Some(need), Some(cap)) => Some(need.max(cap)),
            (_, cap) => cap,
        };
        let outcomes = run(claim, opts, Some(m.name), cap);
        // Caught means violated with a finite bound and interval: a violation through an
        // infinity (a division by a zero gap) is true by construction, not a detection.
        let caught = |o: &&Outcome| {
            o.verdict == Verdict::Violated
                && o.bound.is_finite()
                && o.measured.lower.is_finite()
                && o.measured.upper.is_finite()
        };
        if !outcomes.iter().any(|o| caught(&o)) {
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
}
