//! `dpclaims conformance`: dpclaims passes its own suite; a broken accountant is caught.

use std::process::{Command, Output};

fn dpclaims(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn outcomes(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON outcome per line"))
        .collect()
}

/// The outcomes of a run that must exit 0 (the stdout shown if it does not).
fn passing(args: &[&str]) -> Vec<serde_json::Value> {
    let o = dpclaims(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    outcomes(&o)
}

#[path = "../examples/broken_accountant.rs"]
mod broken_accountant;

/// dpclaims' own PLD accountant passes its suite (small size; the full size is in docs/conformance.md, "Cost").
#[test]
fn dpclaims_passes_its_own_suite() {
    let all = passing(&[
        "conformance",
        "--self",
        "--events",
        "12",
        "--interval",
        "1e-3",
        "--json",
    ]);
    assert!(all.len() >= 12 * 8, "{} checks", all.len());
    for property in [
        "valid",
        "reference",
        "self-composition",
        "monotone-count",
        "no-op",
        "poisson-q1",
        "monotone-delta",
        "composition-order",
        "monotone-sigma",
        "epsilon-delta-round-trip",
    ] {
        let passed = all
            .iter()
            .filter(|v| v["property"] == property && v["verdict"] == "pass")
            .count();
        assert!(passed > 0, "no passing {property} check");
    }
}

/// The accountant of examples/broken_accountant.rs ignores SelfComposed's count: the
/// self-composition property catches it (and the reference check calls it unsound), and the
/// report carries a reproducer for each finding.
#[test]
fn an_accountant_that_ignores_the_count_is_caught() {
    use dpclaims::conformance::{Verdict, ask_in_rounds, generate, judge, render};
    use dpclaims_theorems::privacy::pld::PldOptions;
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    };
    let mut suite = generate(1, 6, false);
    let replies = ask_in_rounds(&mut suite, |batch| {
        batch
            .iter()
            .map(|r| broken_accountant::broken_reply(r, &opts))
            .collect()
    });
    let outcomes = judge(&suite, &replies, 1e-3, &opts);
    let caught = |property: &str| {
        outcomes
            .iter()
            .filter(|o| o.property == property && o.verdict == Verdict::Finding)
            .count()
    };
    assert!(
        caught("self-composition") > 0,
        "self-composition did not catch it"
    );
    assert!(
        caught("reference") > 0,
        "the reference check did not catch it"
    );
    // Properties the bug does not touch still pass.
    assert_eq!(caught("no-op"), 0);
    assert!(dpclaims::conformance::failed(&outcomes));
    let text = render(&outcomes, "broken_accountant", false);
    assert!(text.contains("Finding self-composition"), "{text}");
    assert!(text.contains("}' | broken_accountant"), "{text}");
    // The correct accountant gives no finding on the same suite.
    let mut suite = generate(1, 6, false);
    let good = ask_in_rounds(&mut suite, |batch| {
        batch
            .iter()
            .map(|r| dpclaims::conformance::self_reply(r, &opts))
            .collect()
    });
    assert!(!dpclaims::conformance::failed(&judge(
        &suite, &good, 1e-3, &opts
    )));
}

/// `epsilon-delta-round-trip`: dpclaims' accountant passes it (its δ(ε) and ε(δ) are inverse
/// to the tolerance); an accountant whose δ answers are 10 times too large fails it, and the
/// broken accountant, consistent with itself, passes it while it fails `self-composition`.
#[test]
fn the_epsilon_delta_round_trip_catches_an_inconsistent_delta() {
    use dpclaims::accounting::Query;
    use dpclaims::conformance::{Reply, Verdict, ask_in_rounds, generate, judge, self_reply};
    use dpclaims_theorems::privacy::pld::PldOptions;
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    };
    let verdicts = |reply: &dyn Fn(&dpclaims::conformance::Request) -> Reply| {
        let mut suite = generate(2, 6, false);
        let replies = ask_in_rounds(&mut suite, |batch| batch.iter().map(reply).collect());
        let outcomes = judge(&suite, &replies, 1e-3, &opts);
        let count = |property: &str, verdict: Verdict| {
            outcomes
                .iter()
                .filter(|o| o.property == property && o.verdict == verdict)
                .count()
        };
        (
            count("epsilon-delta-round-trip", Verdict::Pass),
            count("epsilon-delta-round-trip", Verdict::Finding),
            count("self-composition", Verdict::Finding),
        )
    };
    let (pass, found, _) = verdicts(&|r| self_reply(r, &opts));
    assert!(
        pass >= 4 && found == 0,
        "dpclaims: {pass} pass, {found} findings"
    );
    let (_, found, _) = verdicts(&|r| match (r.query, self_reply(r, &opts)) {
        (Query::Delta { .. }, Reply::Bracket([lo, hi])) => {
            Reply::Bracket([(10.0 * lo).min(1.0), (10.0 * hi).min(1.0)])
        }
        (_, reply) => reply,
    });
    assert!(found > 0, "a delta 10 times too large was not caught");
    let (pass, found, count_findings) = verdicts(&|r| broken_accountant::broken_reply(r, &opts));
    assert!(
        pass > 0 && found == 0,
        "broken: {pass} pass, {found} findings"
    );
    assert!(
        count_findings > 0,
        "the broken accountant no longer fails self-composition"
    );
}

/// dpclaims' own accountant behind the line protocol (`dpclaims answer`) passes too, and its
/// answers are the in-process ones.
#[test]
fn the_protocol_round_trips_through_dpclaims_answer() {
    let cmd = format!("{} answer --interval 1e-3", env!("CARGO_BIN_EXE_dpclaims"));
    let by_command = passing(&[
        "conformance",
        "--command",
        &cmd,
        "--events",
        "7",
        "--interval",
        "1e-3",
        "--json",
    ]);
    let o = dpclaims(&[
        "conformance",
        "--self",
        "--events",
        "7",
        "--interval",
        "1e-3",
        "--json",
    ]);
    let in_process = outcomes(&o);
    assert_eq!(by_command.len(), in_process.len());
    for (a, b) in by_command.iter().zip(&in_process) {
        assert_eq!(a["answers"], b["answers"], "{a} vs {b}");
    }
}

/// A command that dies or does not exist is a broken accountant, not a dpclaims failure.
#[test]
fn a_crashing_accountant_is_broken() {
    let o = dpclaims(&[
        "conformance",
        "--command",
        "exit 3",
        "--events",
        "2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(outcomes(&o).iter().all(|v| v["verdict"] == "broken"));
    let o = dpclaims(&[
        "conformance",
        "--command",
        "sleep 5",
        "--events",
        "1",
        "--timeout",
        "0.5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let all = outcomes(&o);
    assert!(all.iter().all(|v| v["verdict"] == "broken"));
    assert!(all.iter().any(|v| {
        v["detail"]
            .as_str()
            .unwrap_or("")
            .contains("no answer within")
    }));
}
