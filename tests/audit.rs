//! `dpclaims audit`: published values are sound; broken accountants are caught.

use dpclaims::audit::{AuditOptions, AuditVerdict, Format, Row, audit, parse, validate};
use dpclaims_theorems::privacy::pld::{self, Pair, Pld, PldOptions, Rounding};
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling};
use std::process::Command;

fn rows(text: &str) -> Vec<Row> {
    parse(text, Format::JsonLines)
        .into_iter()
        .map(|r| {
            r.and_then(|(line, obj)| validate(line, obj, true))
                .expect("valid row")
        })
        .collect()
}

fn verdicts(text: &str) -> Vec<AuditVerdict> {
    let opts = AuditOptions {
        seed: crate::SEED,
        max_steps: 20_000_000,
        ..AuditOptions::default()
    };
    audit(&rows(text), &opts, false)
        .expect("audits")
        .into_iter()
        .map(|a| a.verdict)
        .collect()
}

#[test]
fn published_values_are_sound() {
    let text = r#"
{"name": "tf-privacy-test-1", "sampling": "poisson", "batch": 150, "n": 60000, "sigma": 1.3, "epochs": 15, "delta": 1e-5, "epsilon": 0.7242234026}
{"name": "opacus-rdp", "sampling": "poisson", "q": 0.04, "sigma": 1.5, "steps": 2250, "delta": 1e-5, "epsilon": 7.32911117143}
{"name": "opacus-prv-1", "sampling": "poisson", "q": 0.001, "sigma": 0.8, "steps": 100, "delta": 1e-6, "epsilon": 0.270403364058}
{"name": "opacus-prv-2", "sampling": "poisson", "q": 0.05, "sigma": 1.5, "steps": 1000, "delta": 1e-6, "epsilon": 6.209969246577}
"#;
    let v = verdicts(text);
    assert_eq!(
        v,
        [
            AuditVerdict::SoundLoose,
            AuditVerdict::SoundLoose,
            AuditVerdict::SoundTight,
            AuditVerdict::SoundTight
        ]
    );
}

fn single_pair_epsilon(pair: Pair, steps: u64, delta: f64) -> f64 {
    let opts = PldOptions::default();
    Pld::single(&pair, &opts, Rounding::Pessimistic)
        .compose(steps, opts.tail_mass, Rounding::Pessimistic)
        .unwrap()
        .epsilon(delta)
}

/// Three broken accountants on one run (q = 0.01, sigma = 1, T = 1000, delta = 1e-5).
#[test]
fn broken_accountants_are_unsound() {
    let (q, sigma, steps, delta) = (0.01, 1.0, 1000, 1e-5);
    let mech = DpSgd::new(q, sigma, steps, Sampling::Poisson, Neighbouring::AddRemove).unwrap();
    let right = pld::dp_sgd_epsilon(&mech, delta, &PldOptions::default())
        .unwrap()
        .pessimistic;
    let halved = right / 2.0;
    let add_only = single_pair_epsilon(Pair::Add { q, sigma }, steps, delta);
    assert!(add_only < right);
    let row = |name: &str, eps: f64, relation: &str| {
        format!(
            r#"{{"name": "{name}", "sampling": "poisson", "q": {q}, "sigma": {sigma}, "steps": {steps}, "delta": {delta}, "epsilon": {eps}, "relation": "{relation}"}}"#
        )
    };
    let text = [
        row("right", right, "add-remove"),
        row("halves-epsilon", halved, "add-remove"),
        row("ignores-remove-direction", add_only, "add-remove"),
        row("replace-one-as-add-remove", right, "replace-one"),
    ]
    .join("\n");
    let v = verdicts(&text);
    assert_eq!(
        v,
        [
            AuditVerdict::SoundTight,
            AuditVerdict::Unsound,
            AuditVerdict::Unsound,
            AuditVerdict::Unsound
        ]
    );
}

/// A Poisson add/remove epsilon reported for shuffled fixed-size batches: 10 batches of 10,
/// sigma = 1, one epoch, delta = 1e-3. The shuffled mechanism's delta at that epsilon is
/// certified above 1e-3 by the Monte Carlo bound.
#[test]
fn shuffle_check_flags_a_poisson_epsilon() {
    let mech = DpSgd::new(0.1, 1.0, 10, Sampling::Poisson, Neighbouring::AddRemove).unwrap();
    let poisson = pld::dp_sgd_epsilon(&mech, 1e-3, &PldOptions::default())
        .unwrap()
        .pessimistic;
    let text = format!(
        r#"{{"name": "shuffled", "sampling": "shuffle", "batch": 10, "n": 100, "sigma": 1.0, "epochs": 1, "delta": 1e-3, "epsilon": {poisson}}}"#
    );
    assert_eq!(verdicts(&text), [AuditVerdict::Unsound]);
    // The same epsilon for the Poisson run it was computed for is sound.
    let text = format!(
        r#"{{"name": "poisson", "sampling": "poisson", "q": 0.1, "sigma": 1.0, "steps": 10, "delta": 1e-3, "epsilon": {poisson}}}"#
    );
    assert_eq!(verdicts(&text), [AuditVerdict::SoundTight]);
}

#[test]
fn bad_rows_are_reported_by_line_and_the_rest_audited() {
    let dir = std::env::temp_dir().join(format!("dpclaims-audit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rows.csv");
    std::fs::write(
        &path,
        "name,sampling,q,sigma,steps,delta,epsilon\n\
         good,poisson,0.01,1.0,100,1e-5,5.0\n\
         too-big-q,poisson,1.5,1.0,100,1e-5,1.0\n\
         negative-sigma,poisson,0.01,-1,100,1e-5,1.0\n\
         not-a-number,poisson,abc,1.0,100,1e-5,1.0\n\
         missing-delta,poisson,0.01,1.0,100,,1.0\n\
         short,poisson,0.01\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args(["audit", path.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    for (line, word) in [
        (3, "`q`"),
        (4, "`sigma`"),
        (5, "`q`"),
        (6, "`delta`"),
        (7, "fields"),
    ] {
        assert!(
            stderr.contains(&format!("line {line}: "))
                && stderr
                    .lines()
                    .any(|l| l.contains(&format!("line {line}:")) && l.contains(word)),
            "line {line}: {stderr}"
        );
    }
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.lines()
            .any(|l| l.contains("\"name\":\"good\"") && l.contains("sound-loose")),
        "{out}"
    );
}

#[test]
fn command_accountant_is_audited() {
    let dir = std::env::temp_dir().join(format!("dpclaims-audit-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rows = dir.join("rows.jsonl");
    let answers = dir.join("answers.jsonl");
    std::fs::write(&rows, "{\"name\": \"a\", \"sampling\": \"poisson\", \"q\": 0.01, \"sigma\": 1.0, \"steps\": 1000, \"delta\": 1e-5}\n").unwrap();
    // A "broken accountant" that answers epsilon = 0.1 whatever it is asked.
    std::fs::write(&answers, "{\"epsilon\": 0.1}\n").unwrap();
    let cmd = format!("cat > /dev/null; cat {}", answers.display());
    let o = Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args(["audit", rows.to_str().unwrap(), "--command", &cmd, "--json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        String::from_utf8(o.stdout)
            .unwrap()
            .contains("\"verdict\":\"unsound\"")
    );
}
