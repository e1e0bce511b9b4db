//! Detection thresholds (issue 18 item 6): the committed table covers every claim, is what
//! `dpclaims detection` computes (recomputed here for cheap claims at the file's seed and size),
//! and a claim whose threshold is above 50% says so in its statement.

use dpclaims::claims::registry;
use dpclaims::detection::{self, DetectOptions};

fn committed() -> detection::DetectionFile {
    detection::builtin().expect("docs/detection.json parses")
}

#[test]
fn the_committed_table_covers_every_claim() {
    let file = committed();
    for c in registry() {
        assert!(
            file.get(c.info().id).is_some(),
            "{} has no row in docs/detection.json (run `dpclaims detection {}`)",
            c.info().id,
            c.info().id
        );
    }
}

/// Cheap claims (exact statistics) recomputed at the file's seed and level: the same rows.
#[test]
fn recomputed_rows_match_the_committed_table() {
    let file = committed();
    assert_eq!(file.size, "each claim's default cases");
    for id in ["stability.lemma5.cond", "last_iterate.thm1.dp"] {
        let claim = registry().into_iter().find(|c| c.info().id == id).unwrap();
        let row = file.get(id).unwrap();
        let (steps, kappa_max) = row
            .algorithm
            .as_ref()
            .map_or((0, 0.99), |a| (a.steps, a.kappa_max));
        let opts = DetectOptions {
            seed: file.seed,
            confidence: file.confidence,
            max_trials: None,
            steps,
            kappa_max,
        };
        let fresh = detection::detect_one(claim, &opts).unwrap();
        assert_eq!(&fresh, row, "{id}");
    }
}

/// The algorithm threshold is a real edge: just below it the claim is not caught, at its
/// upper end it is (last_iterate.thm1.dp, exact).
#[test]
fn the_algorithm_threshold_is_an_edge() {
    use dpclaims::harness::{CheckOptions, check};
    let file = committed();
    let a = file
        .get("last_iterate.thm1.dp")
        .and_then(|d| d.algorithm.clone())
        .expect("thm1.dp perturbs its algorithm");
    let hi = a.kappa_high.expect("caught below kappa_max");
    let claim = registry()
        .into_iter()
        .find(|c| c.info().id == "last_iterate.thm1.dp")
        .unwrap();
    let violated = |kappa: f64| {
        check(
            &[claim],
            &CheckOptions {
                seed: file.seed,
                perturbation: kappa,
                ..CheckOptions::default()
            },
        )
        .unwrap()
        .iter()
        .any(|o| o.verdict == dpclaims::verdict::Verdict::Violated)
    };
    assert!(violated(hi));
    assert!(!violated(a.kappa_low));
}

#[test]
fn weak_claims_say_so_in_their_statement() {
    let file = committed();
    for c in registry() {
        let Some(d) = file.get(c.info().id) else {
            continue;
        };
        // Weak: the bound can be off by more than half, or the algorithm's noise or step.
        let weak_bound = d.bound_kappa.is_some_and(|k| k > 0.5);
        let weak_algorithm = d
            .algorithm
            .as_ref()
            .is_some_and(|a| a.kappa_high.is_none_or(|k| k > 0.5));
        if weak_bound || weak_algorithm {
            assert!(
                c.info().statement.contains("detection threshold"),
                "{}: a threshold above 0.5 ({d:?}) but its statement does not say so",
                c.info().id
            );
        }
    }
}
