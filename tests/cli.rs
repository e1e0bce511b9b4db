//! The command line: exit codes, error messages, determinism across thread counts.

use std::process::{Command, Output};

fn dpclaims(args: &[&str], threads: Option<usize>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dpclaims"));
    cmd.args(args);
    if let Some(t) = threads {
        cmd.env("RAYON_NUM_THREADS", t.to_string());
    }
    cmd.output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn same_seed_same_json_on_one_and_two_threads() {
    let args = [
        "check",
        "stability.*",
        "--json",
        "--seed",
        "7",
        "--trials",
        "3000",
    ];
    let one = dpclaims(&args, Some(1));
    let two = dpclaims(&args, Some(2));
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert!(!one.stdout.is_empty());
    assert_eq!(
        one.stdout, two.stdout,
        "JSON differs between 1 and 2 threads"
    );
    for line in String::from_utf8(one.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["seed"], 7);
        for key in [
            "claim",
            "params",
            "bound",
            "measured",
            "relation",
            "verdict",
            "tightness",
            "mutant",
        ] {
            assert!(v.get(key).is_some(), "missing {key} in {line}");
        }
        for key in ["mean", "lower", "upper", "n", "confidence"] {
            assert!(
                v["measured"].get(key).is_some(),
                "missing measured.{key} in {line}"
            );
        }
    }
}

#[test]
fn bad_parameter_exits_2_naming_it() {
    let o = dpclaims(&["check", "stability.lemma5", "--set", "n=0"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`n`"), "{}", stderr(&o));
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["check", "no.such.claim"][..],
        &["check", "stability.lemma5", "--set", "n"],
        &["check", "stability.lemma5", "--set", "nosuchkey=1"],
        &["check", "stability.lemma5", "--mutant", "nosuchmutant"],
        &["check", "stability.lemma5", "--confidence", "1.5"],
        &["check", "stability.lemma5", "--trials", "1"],
        &["check", "stability.lemma5", "--set", "t=5000"],
        &["check", "stability.lemma5", "--set", "eta=-1"],
        &["check", "stability.lemma5", "--set", "index=C"],
    ] {
        let o = dpclaims(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("error: "),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn mutant_exits_1_with_a_violated_outcome() {
    let o = dpclaims(
        &[
            "check",
            "stability.*",
            "--mutant",
            "bound-without-t-term",
            "--trials",
            "2000",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.lines().any(|l| l.contains("\"verdict\":\"violated\"")
        && l.contains("\"mutant\":\"bound-without-t-term\"")));
}

#[test]
fn list_names_every_claim_and_its_mutants() {
    let o = dpclaims(&["list", "--json"], None);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), dpclaims::claims::registry().len());
    for v in &lines {
        for key in ["id", "paper", "result", "statement"] {
            assert!(v[key].as_str().is_some_and(|s| !s.is_empty()), "{v}");
        }
        assert!(!v["mutants"].as_array().unwrap().is_empty());
    }
}
