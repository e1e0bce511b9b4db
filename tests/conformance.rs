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

#[path = "../examples/broken_accountant.rs"]
mod broken_accountant;

/// dpclaims' own PLD accountant passes its suite (small size; the full size is in the README).
#[test]
fn dpclaims_passes_its_own_suite() {
    let o = dpclaims(&[
        "conformance",
        "--self",
        "--events",
        "12",
        "--interval",
        "1e-3",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let all = outcomes(&o);
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
    use dpclaims::conformance::{Verdict, generate, judge, render};
    use dpclaims_theorems::privacy::pld::PldOptions;
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    };
    let suite = generate(1, 6, false);
    let replies: Vec<_> = suite
        .requests
        .iter()
        .map(|r| broken_accountant::broken_reply(r, &opts))
        .collect();
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
    let good: Vec<_> = suite
        .requests
        .iter()
        .map(|r| dpclaims::conformance::self_reply(r, &opts))
        .collect();
    assert!(!dpclaims::conformance::failed(&judge(
        &suite, &good, 1e-3, &opts
    )));
}

/// dpclaims' own accountant behind the line protocol (`dpclaims answer`) passes too, and its
/// answers are the in-process ones.
#[test]
fn the_protocol_round_trips_through_dpclaims_answer() {
    let cmd = format!("{} answer --interval 1e-3", env!("CARGO_BIN_EXE_dpclaims"));
    let o = dpclaims(&[
        "conformance",
        "--command",
        &cmd,
        "--events",
        "7",
        "--interval",
        "1e-3",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let by_command = outcomes(&o);
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
