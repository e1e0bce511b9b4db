//! `dpclaims epsilon --event` / `delta --event`: answers, brackets, refusals with JSON paths.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dpclaims(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("the binary finishes")
}

fn example(name: &str) -> String {
    format!("{}/examples/events/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The one JSON answer of a successful run (the test fails with its stderr otherwise).
fn answer(args: &[&str]) -> serde_json::Value {
    let o = dpclaims(args, None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON answer")
}

/// The DP-SGD event gives exactly what the flag form gives for the same run.
#[test]
fn event_and_flags_agree_on_dp_sgd() {
    let e = answer(&[
        "epsilon",
        "--event",
        &example("dp_sgd.json"),
        "--delta",
        "1e-5",
        "--json",
    ]);
    let f = answer(&[
        "epsilon",
        "--q",
        "0.004266",
        "--sigma",
        "1.1",
        "--steps",
        "14063",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
        "--json",
    ]);
    assert_eq!(e["bracket"], f["bracket"]);
    assert_eq!(e["epsilon"], f["epsilon"]);
    assert_eq!(e["relation"], "add-remove");
}

/// Every example answers with a bracket that is a bracket, for epsilon and for delta.
#[test]
fn examples_answer_with_brackets() {
    for name in [
        "dp_sgd.json",
        "mixed.json",
        "randomized_response.json",
        "dp_ftrl_tree.json",
    ] {
        for (cmd, flag, value) in [
            ("epsilon", "--delta", "1e-6"),
            ("delta", "--epsilon", "1.5"),
        ] {
            let v = answer(&[cmd, "--event", &example(name), flag, value, "--json"]);
            let (lo, hi) = (
                v["bracket"][0].as_f64().unwrap(),
                v["bracket"][1].as_f64().unwrap(),
            );
            assert!(
                lo <= hi && lo >= 0.0 && hi.is_finite(),
                "{name} {cmd}: [{lo}, {hi}]"
            );
            assert_eq!(v[cmd].as_f64(), Some(hi));
        }
    }
}

/// Malformed documents and uncovered events: exit 2, the message names the JSON path.
#[test]
fn refusals_name_the_json_path() {
    let cases = [
        (
            r#"{"version": 1, "neighbouring": "add-remove", "event": {"type": "Composed", "events": [{"type": "NoOp"}, {"type": "PoissonSampled", "sampling_probability": 2, "event": {"type": "NoOp"}}]}}"#,
            "event.events[1].sampling_probability",
        ),
        (
            r#"{"version": 1, "neighbouring": "add-remove", "event": {"type": "SelfComposed", "count": 2, "event": {"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 3}}}"#,
            "`event.event`: RandomizedResponse is not covered",
        ),
        (
            r#"{"version": 1, "neighbouring": "add-remove", "event": {"type": "Gaussian", "noise_multiplier": 1, "count": 3}}"#,
            "event.count",
        ),
        (
            r#"{"version": 1, "neighbouring": "add-remove", "event": {"type": "Composed", "events": [{"type": "NoOp"}, {"type": "ZCDp", "rho": 0.5}]}}"#,
            "`event.events[1]`: ZCDp is not covered by the PLD accountant under add-remove: metamorphic checks only: ",
        ),
        (
            r#"{"version": 1, "neighbouring": "replace-one", "event": {"type": "SingleEpochTreeAggregation", "noise_multiplier": 1, "step_counts": [4, -2]}}"#,
            "event.step_counts[1]",
        ),
    ];
    for (doc, want) in cases {
        let o = dpclaims(&["delta", "--event", "-", "--epsilon", "1"], Some(doc));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{doc}: {err}");
        assert!(err.contains(want), "{doc}: {err}");
        assert!(o.stdout.is_empty());
    }
}

/// A negative ε is a value, not an unknown flag.
#[test]
fn negative_epsilon_is_accepted() {
    let rr = example("randomized_response.json");
    let at = |eps: &str| {
        answer(&["delta", "--event", &rr, "--epsilon", eps, "--json"])["delta"]
            .as_f64()
            .unwrap()
    };
    assert!(at("-1") > at("1"));
}
