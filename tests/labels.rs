//! Labels that say what a computed value is (issue 18, item 2): a PLD value is a certified
//! bracket, not an exact number; a grid value checked by refinement carries an error estimate,
//! not a bound; a maximum over random instances is a sampled maximum with its n; an equality
//! reached by a claim is checked to a stated tolerance with its numerical error in the interval.

use dpclaims::claims::registry;
use dpclaims::harness::{CheckOptions, check};
use dpclaims::verdict::{Outcome, Relation, Verdict};
use dpclaims_empirical::stats::{Method, bracket};
use serde_json::{Value, json};

fn run(id: &str, sets: &[(&str, Value)]) -> Vec<Outcome> {
    let opts = CheckOptions {
        patterns: vec![id.to_string()],
        sets: sets
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        max_trials: Some(64),
        ..CheckOptions::default()
    };
    check(&registry(), &opts).unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn pld_values_are_brackets() {
    for id in [
        "multipass.thm2.dp",
        "multipass.lemma6",
        "subspace.privacy.calib",
        "adaptive.thm1.experiments",
        "adaptive.thm1.experiments.replace_one",
    ] {
        let pld: Vec<Outcome> = run(id, &[])
            .into_iter()
            .filter(|o| {
                o.params
                    .str("accountant")
                    .map_or(true, |a| a.starts_with("PLD"))
            })
            .collect();
        assert!(!pld.is_empty(), "{id}: no PLD outcome");
        for o in &pld {
            let m = &o.measured;
            assert_eq!(m.method, Method::Bracket, "{id} [{}]", o.params.compact());
            assert!(m.lower <= m.mean && m.mean <= m.upper, "{id}: {m:?}");
            assert!(m.lower < m.upper, "{id}: a bracket of zero width: {m:?}");
            // The bracket is the interval: violated only when all of it is past the bound.
            let expected = if m.upper <= o.bound {
                Verdict::Respected
            } else if m.lower > o.bound {
                Verdict::Violated
            } else {
                Verdict::Inconclusive
            };
            assert_eq!(o.verdict, expected, "{id}: {m:?} against {}", o.bound);
        }
    }
    // A bracket that straddles the bound decides nothing.
    let b = bracket(0.9, 1.1, 0).unwrap();
    assert_eq!(Relation::AtMost.judge(&b, 1.0), Verdict::Inconclusive);
    assert_eq!(Relation::AtMost.judge(&b, 0.8), Verdict::Violated);
    assert_eq!(Relation::AtMost.judge(&b, 1.1), Verdict::Respected);
}

#[test]
fn refinement_errors_are_labelled_estimates() {
    for id in ["contraction.main", "contraction.thm3"] {
        let outcomes = run(id, &[("cells", json!(64)), ("T", json!([1, 5]))]);
        assert!(!outcomes.is_empty());
        for o in &outcomes {
            assert_eq!(o.measured.method, Method::RefinementEstimate, "{id}");
        }
    }
}

#[test]
fn maxima_over_random_instances_are_sampled_with_their_n() {
    let dk = run("subspace.thm2.dk", &[("instances", json!(500))]);
    assert_eq!(dk[0].measured.method, Method::SampledMaximum);
    assert!(
        dk[0].measured.n > 400 && dk[0].measured.n <= 500,
        "{:?}",
        dk[0].measured
    );
    for o in run("contraction.sdpi", &[("pairs", json!(50))]) {
        let m = &o.measured;
        assert_eq!(m.method, Method::SampledMaximum);
        assert!(m.n >= 50 && m.n <= 53, "{m:?}");
        // The numerical error of the instances' ratios is in the interval.
        assert!(m.lower < m.upper, "{m:?}");
        if o.params.contains("theta") {
            // The SDPI is an equality at the extremal pairs: its bound is theta (1 + tolerance)
            // and the interval reaches theta (the maximum is attained up to the numerics).
            let theta = o.params.f64("theta").unwrap();
            let tolerance = o.params.f64("tolerance").unwrap();
            assert_eq!(o.bound, theta * (1.0 + tolerance));
            assert!(
                m.upper > theta - 1e-6 * theta && m.upper <= o.bound,
                "{m:?} {theta}"
            );
        }
    }
}
