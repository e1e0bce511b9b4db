//! `dpclaims audit`: published values are sound; broken accountants are caught.

use dpclaims::accounting::{self, Accountant, Query};
use dpclaims::audit::{
    Audit, AuditOptions, AuditVerdict, Format, Row, audit, parse, references, validate,
};
use dpclaims_theorems::privacy::pld::{self, Pair, Pld, PldOptions, Rounding};
use dpclaims_theorems::privacy::{DpSgd, Neighbouring, Sampling, gaussian};
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

/// The audits of rows that must all be audited (a row's error fails the test, naming it).
pub(crate) fn audited(rows: &[Row], opts: &AuditOptions) -> Vec<Audit> {
    audit(rows, opts, false)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("line {}: {}", e.line, e.reason)))
        .collect()
}

fn verdicts(text: &str) -> Vec<AuditVerdict> {
    let opts = AuditOptions {
        seed: crate::SEED,
        max_steps: 20_000_000,
        ..AuditOptions::default()
    };
    audited(&rows(text), &opts)
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
        .unwrap()
        .compose(steps, &opts)
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

/// Runs `dpclaims audit FILE ARGS` on a file `name` holding `text` (in a fresh directory).
fn audit_file(name: &str, text: &str, args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("dpclaims-audit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .arg("audit")
        .arg(&path)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn bad_rows_are_reported_by_line_and_the_rest_audited() {
    let o = audit_file(
        "rows.csv",
        "name,sampling,q,sigma,steps,delta,epsilon\n\
         good,poisson,0.01,1.0,100,1e-5,5.0\n\
         too-big-q,poisson,1.5,1.0,100,1e-5,1.0\n\
         negative-sigma,poisson,0.01,-1,100,1e-5,1.0\n\
         not-a-number,poisson,abc,1.0,100,1e-5,1.0\n\
         missing-delta,poisson,0.01,1.0,100,,1.0\n\
         short,poisson,0.01\n",
        &["--json"],
    );
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

fn audit_one(row: &str, opts: &AuditOptions) -> Audit {
    audited(&rows(row), opts).remove(0)
}

/// Issue 15: 50 shuffled batches of 20 from n = 1000, sigma = 0.9, 2 epochs, replace-one,
/// delta = 1e-5. The Poisson add/remove epsilon of q = 0.02, T = 100 (1.888) is unsound for the
/// shuffled mechanism. Issue 32: with the worst configuration of the other records (all at -C,
/// the record +C vs -C) the certified lower reference is 9.949 (it was 1.6095 with the others
/// at 0, when only the Monte Carlo could refute 1.888, delta(1.888) about 4e-5); delta(1.888)
/// is now above 0.1, and the Monte Carlo alone (`--no-reference`) still refutes it. The
/// Poisson replace-one epsilon (2.294), not refuted before, is below the lower reference too.
#[test]
fn shuffled_batches_refute_a_poisson_epsilon_by_monte_carlo() {
    let opts = AuditOptions {
        seed: crate::SEED,
        ..AuditOptions::default()
    };
    let row = |eps: f64| {
        format!(
            r#"{{"name": "shuffled", "sampling": "shuffle", "batch": 20, "n": 1000, "sigma": 0.9, "epochs": 2, "delta": 1e-5, "epsilon": {eps}, "relation": "replace-one"}}"#
        )
    };
    let a = audit_one(&row(1.888), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    let lower = a.lower_reference.unwrap();
    assert!((9.94..9.96).contains(&lower), "{a:?}");
    assert!(a.monte_carlo.delta_lower > 0.1, "{a:?}");
    let alone = AuditOptions {
        no_reference: true,
        max_steps: 20_000_000,
        ..opts
    };
    let a = audit_one(&row(1.888), &alone);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    let a = audit_one(&row(2.294), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    // A last partial epoch adds outputs: the upper reference counts it, the lower reference
    // (full epochs only) does not, so 101 steps (2 full epochs and one batch) has the lower
    // reference of 100 steps and a larger upper one.
    let steps = |t: u64| {
        format!(
            r#"{{"name": "shuffled", "sampling": "shuffle", "batch": 20, "n": 1000, "sigma": 0.9, "steps": {t}, "delta": 1e-5, "epsilon": 30, "relation": "replace-one"}}"#
        )
    };
    let small = AuditOptions {
        max_steps: 100_000,
        ..opts
    };
    let (a, b) = (
        audit_one(&steps(100), &small),
        audit_one(&steps(101), &small),
    );
    assert_eq!(a.lower_reference, b.lower_reference);
    assert!(b.upper_reference > a.upper_reference);
    let c = audit_one(&steps(149), &small);
    assert_eq!(
        c.lower_reference, a.lower_reference,
        "149 steps are 2 full epochs"
    );
}

/// Issue 15: by Monte Carlo alone (--no-reference), the TF-Privacy tutorial run (q = 256/60000,
/// sigma = 1.1, T = 14063, delta = 1e-5, true eps 2.3818): eps claimed 10% low (2.1436, where
/// delta is about 4.9e-5) is unsound within the default budget; the true eps + 2% is not.
/// Full tier only (DPCLAIMS_FULL=1; 17 s of Monte Carlo): in the fast tier the Monte Carlo's
/// power is checked by `monte_carlo_alone_refutes_ten_percent_low_across_the_grid`'s row.
#[test]
fn monte_carlo_alone_refutes_an_epsilon_ten_percent_low() {
    if !crate::full() {
        return;
    }
    let opts = AuditOptions {
        seed: crate::SEED,
        no_reference: true,
        ..AuditOptions::default()
    };
    let row = |eps: f64| {
        format!(
            r#"{{"name": "tf", "sampling": "poisson", "batch": 256, "n": 60000, "sigma": 1.1, "steps": 14063, "delta": 1e-5, "epsilon": {eps}}}"#
        )
    };
    let a = audit_one(&row(2.1436), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    assert!(a.upper_reference.is_none() && a.lower_reference.is_none());
    let a = audit_one(&row(2.3818 * 1.02), &opts);
    assert_ne!(a.verdict, AuditVerdict::Unsound, "{a:?}");
}

/// Issue 30: by Monte Carlo alone, at the default budget, Poisson add/remove runs of the grid
/// in docs/audit.md (q 1e-3..0.05, T 10..1e4, delta = 1e-5): eps claimed 0.9 x the PLD
/// bracket's lower end (certainly 10% below the truth) is unsound, 1.02 x its upper end is not.
/// Fast tier, at a tenth of that budget: q = 1e-3, T = 100, sigma = 0.6 (eps 0.7796), which
/// the Monte Carlo before the strata on the record's draws missed at the full budget, and
/// q = 3e-3, T = 1000, sigma = 0.8 (eps 0.9685), which every Monte Carlo before the loss tilt
/// missed at the full budget (limits 6.2e-7 and 6.7e-6 under the claimed 1e-5; with the tilt
/// 2.05e-5). Full tier (DPCLAIMS_FULL=1), at the default budget: six rows refuted before, and
/// the eleven the stratified Monte Carlo still missed (the brackets are the PLD's, stated so
/// the test does not spend minutes recomputing them).
#[test]
fn monte_carlo_alone_refutes_ten_percent_low_across_the_grid() {
    let default = AuditOptions::default().max_steps;
    let opts = AuditOptions {
        seed: crate::SEED,
        no_reference: true,
        max_steps: if crate::full() { default } else { default / 10 },
        ..AuditOptions::default()
    };
    // (q, T, sigma, the PLD bracket of eps at delta 1e-5).
    let fast: &[(f64, u64, f64, f64, f64)] = &[
        (0.001, 100, 0.6, 0.7796, 0.7796),
        (0.003, 1000, 0.8, 0.9685, 0.9685),
    ];
    let full: &[(f64, u64, f64, f64, f64)] = &[
        (0.001, 10, 0.5, 1.0860, 1.0860),
        (0.001, 100, 0.4, 4.9610, 4.9610),
        (0.001, 1000, 0.6, 1.4253, 1.4253),
        (0.001, 1000, 0.4, 7.0135, 7.0135),
        (0.05, 100, 2.0, 1.0972, 1.0972),
        (0.03, 10000, 5.0, 2.4814, 2.4815),
        (0.001, 10000, 0.8, 0.7822, 0.7825),
        (0.001, 10000, 0.6, 2.4561, 2.4562),
        (0.001, 10000, 0.5, 5.2267, 5.2268),
        (0.003, 1000, 0.8, 0.9685, 0.9685),
        (0.003, 1000, 0.5, 5.7108, 5.7108),
        (0.003, 10000, 0.8, 2.5743, 2.5744),
        (0.003, 10000, 0.6, 6.3723, 6.3724),
        (0.01, 1000, 0.8, 3.1410, 3.1410),
        (0.01, 1000, 0.6, 7.4336, 7.4336),
        (0.01, 10000, 1.0, 6.1877, 6.1877),
        (0.03, 1000, 0.8, 9.9316, 9.9316),
    ];
    let rows = if crate::full() { full } else { fast };
    for &(q, t, sigma, lo, hi) in rows {
        let row = |eps: f64| {
            format!(
                r#"{{"name": "grid", "sampling": "poisson", "q": {q}, "sigma": {sigma}, "steps": {t}, "delta": 1e-5, "epsilon": {eps}}}"#
            )
        };
        let a = audit_one(&row(0.9 * lo), &opts);
        assert_eq!(a.verdict, AuditVerdict::Unsound, "{q} {t} {sigma}: {a:?}");
        let a = audit_one(&row(1.02 * hi), &opts);
        assert_ne!(a.verdict, AuditVerdict::Unsound, "{q} {t} {sigma}: {a:?}");
    }
}

/// Issue 30, item 3, for the other samplers: the same loss tilt, on the one-hot epoch
/// (`dpclaims_empirical::loss_tilt::TiltedEpoch`), gives the Monte Carlo alone the power to
/// refute a claim 10% under the certified lower reference, at a tenth of the default budget:
/// random allocation (100 steps per epoch, 10 epochs, sigma 0.8: bracket [2.905168, 2.909936];
/// the claim 1.02 x its upper end is not refuted) and shuffling (10 batches of 10, 5 epochs,
/// sigma 3, replace-one: lower reference 1.746038, no upper one). Before the tilt the
/// random-allocation claim was missed even at the full budget (limit 4.3e-6, now 3.6e-5; at
/// a tenth 2.7e-7, now 3.4e-5); the shuffled one was refuted already, by a shift of the
/// record's batch (4.7e-4 at the full budget, now 5.0e-4).
#[test]
fn monte_carlo_alone_refutes_ten_percent_low_for_random_allocation_and_shuffling() {
    let opts = AuditOptions {
        seed: crate::SEED,
        no_reference: true,
        max_steps: AuditOptions::default().max_steps / 10,
        ..AuditOptions::default()
    };
    let ra = |eps: f64| {
        format!(
            r#"{{"name": "ra", "sampling": "random-allocation", "steps_per_epoch": 100, "sigma": 0.8, "epochs": 10, "delta": 1e-5, "epsilon": {eps}}}"#
        )
    };
    let a = audit_one(&ra(0.9 * 2.905168), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    let a = audit_one(&ra(1.02 * 2.909936), &opts);
    assert_ne!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    let shuffled = format!(
        r#"{{"name": "sh", "sampling": "shuffle", "batch": 10, "n": 100, "sigma": 3.0, "epochs": 5, "delta": 1e-5, "epsilon": {}}}"#,
        0.9 * 1.746038
    );
    let a = audit_one(&shuffled, &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
}

/// Coverage: on four runs whose simulated pairs' delta(eps) the PLD brackets to 1e-3 relative,
/// over 200 seeds (fast tier: the first 30) at a small size and level 0.9, the Monte Carlo
/// lower limit exceeds the (pessimistic, so at least the true) delta *of the pair the pilot
/// chose* in no more than the nominal 10% of the seeds. (Against the pair's own delta, not the
/// row's, which is the larger: a limit of the other pair above its own delta is a miss too.
/// Here the pilot chooses the remove or replace-one pair in every seed; the add pair's delta
/// is below 1e-16.) The fifth run is in the tail (delta 7.5e-9), where the pilot must
/// choose the exponential tilt of the loss in at least half the seeds.
#[test]
fn monte_carlo_lower_limits_cover_the_true_delta() {
    let configs = [
        ("poisson", 0.1, 1.0, 10u64, 1.0, "add-remove"),
        ("poisson", 0.02, 0.8, 50, 2.0, "add-remove"),
        ("poisson", 0.05, 1.5, 20, 0.5, "replace-one"),
        ("wor", 0.05, 2.0, 20, 1.0, "replace-one"),
        // A tail (delta 7.5e-9), where the pilot picks the exponential tilt of the loss.
        ("poisson", 0.02, 0.8, 50, 4.0, "add-remove"),
    ];
    for (sampling, q, sigma, steps, eps, relation) in configs {
        // The simulated pairs, by the start of their names: for Poisson the run's own; for
        // fixed batches the two realised orders (2C remove and add), each composed alone.
        let s = if sampling == "wor" {
            sigma / 2.0
        } else {
            sigma
        };
        let pairs = if relation == "replace-one" && sampling == "poisson" {
            vec![("replace-one", Pair::ReplaceOne { q, sigma: s })]
        } else {
            vec![
                ("remove", Pair::Remove { q, sigma: s }),
                ("add", Pair::Add { q, sigma: s }),
            ]
        };
        let truths: Vec<(&str, f64)> = pairs
            .iter()
            .map(|(name, p)| {
                let d = pld::pair_delta(p, steps, eps, &PldOptions::default()).unwrap();
                // (Or negligible: the add pair of the first run has delta 3e-17 at eps 1.)
                assert!(
                    d.pessimistic - d.optimistic < 1e-3 * d.pessimistic || d.pessimistic < 1e-12,
                    "{name}: {d:?}"
                );
                (*name, d.pessimistic)
            })
            .collect();
        let row = format!(
            r#"{{"name": "cov", "sampling": "{sampling}", "q": {q}, "sigma": {sigma}, "steps": {steps}, "delta": 0.5, "epsilon": {eps}, "relation": "{relation}"}}"#
        );
        let seeds: u64 = if crate::full() { 200 } else { 30 };
        let (mut missed, mut sum) = (0, 0.0);
        let mut chosen: Vec<&str> = Vec::new();
        let mut loss_tilted = 0;
        for seed in 1..=seeds {
            let opts = AuditOptions {
                seed,
                confidence: 0.9,
                no_reference: true,
                max_steps: 200_000,
                ..AuditOptions::default()
            };
            let mc = audit_one(&row, &opts).monte_carlo;
            let (name, truth) = truths
                .iter()
                .find(|(name, _)| mc.pair.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("which pair is {:?}?", mc.pair));
            chosen.push(name);
            loss_tilted += usize::from(mc.proposal.contains("the loss tilted"));
            sum += mc.delta_mean;
            if mc.delta_lower > *truth {
                missed += 1;
            }
        }
        let mean = sum / seeds as f64;
        assert!(
            missed <= seeds / 10,
            "{q} {sigma} {steps} {eps} {relation}: {missed} of {seeds} lower limits above their pair's delta {truths:?}"
        );
        if eps == 4.0 {
            assert!(
                loss_tilted as u64 >= seeds / 2,
                "the loss tilt was chosen in {loss_tilted} of {seeds} seeds"
            );
        }
        eprintln!(
            "coverage {q} {sigma} {steps} {eps} {relation}: deltas {truths:?}, {missed}/{seeds} above, pairs chosen {} remove/replace-one, {} add, the loss tilted in {loss_tilted}; mean of the means {mean:.4e}",
            chosen.iter().filter(|n| **n != "add").count(),
            chosen.iter().filter(|n| **n == "add").count(),
        );
    }
}

/// Schedules: a run split into two equal phases has the references of the unsplit run, a real
/// schedule is audited by heterogeneous composition, and malformed phases are rejected by name.
#[test]
fn schedules_are_audited_phase_by_phase() {
    let opts = AuditOptions {
        seed: crate::SEED,
        max_steps: 2_000_000,
        ..AuditOptions::default()
    };
    let text = r#"{"name": "one", "sampling": "poisson", "q": 0.01, "sigma": 1.0, "steps": 1000, "delta": 1e-5, "epsilon": 1.0}
{"name": "split", "sampling": "poisson", "phases": [{"q": 0.01, "sigma": 1.0, "steps": 400}, {"q": 0.01, "sigma": 1.0, "steps": 600}], "delta": 1e-5, "epsilon": 1.0}
{"name": "schedule", "sampling": "poisson", "phases": [{"q": 0.005, "sigma": 1.2, "steps": 500}, {"q": 0.02, "sigma": 0.9, "steps": 500}], "delta": 1e-5, "epsilon": 1.5}"#;
    let a = audited(&rows(text), &opts);
    let (one, split) = (a[0].upper_reference.unwrap(), a[1].upper_reference.unwrap());
    assert!((one - split).abs() < 1e-6 * one, "{one} vs {split}");
    assert!(
        a[1].monte_carlo.pair.contains("2 phases"),
        "{:?}",
        a[1].monte_carlo
    );
    // The schedule lies between its two phases run alone for all 1000 steps.
    let eps = |q: f64, sigma: f64| {
        let mech = DpSgd::new(q, sigma, 1000, Sampling::Poisson, Neighbouring::AddRemove).unwrap();
        pld::dp_sgd_epsilon(&mech, 1e-5, &PldOptions::default())
            .unwrap()
            .pessimistic
    };
    let s = a[2].upper_reference.unwrap();
    assert!(eps(0.005, 1.2) < s && s < eps(0.02, 0.9), "{s}");
    assert_eq!(a[2].verdict, AuditVerdict::Unsound);
    for (bad, word) in [
        (r#"[{"q": 2, "sigma": 1, "steps": 5}]"#, "phases[0].q"),
        (
            r#"[{"q": 0.1, "sigma": 1, "steps": 5}, {"q": 0.1, "steps": 5}]"#,
            "phases[1].sigma",
        ),
        (r#"[{"q": 0.1, "sigma": 1, "steps": 0}]"#, "phases[0].steps"),
        (
            r#"[{"q": 0.1, "sigma": 1, "steps": 5, "noise": 2}]"#,
            "phases[0].noise",
        ),
        (r#"[]"#, "empty"),
    ] {
        let row =
            format!(r#"{{"sampling": "poisson", "phases": {bad}, "delta": 1e-5, "epsilon": 1}}"#);
        let parsed = parse(&row, Format::JsonLines).remove(0).unwrap();
        let e = validate(parsed.0, parsed.1, true).unwrap_err();
        assert!(e.reason.contains(word), "{bad}: {}", e.reason);
    }
}

/// `audit --plot DIR` writes one SVG per row (valid XML, with the references' curves, the
/// Monte Carlo points and the claim in its legend).
#[test]
fn plot_writes_one_svg_per_row() {
    let dir = std::env::temp_dir().join(format!("dpclaims-audit-plot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rows = dir.with_extension("jsonl");
    std::fs::write(
        &rows,
        "{\"name\": \"p\", \"sampling\": \"poisson\", \"q\": 0.01, \"sigma\": 1.0, \"steps\": 100, \"delta\": 1e-5, \"epsilon\": 1.0}\n\
         {\"name\": \"s\", \"sampling\": \"shuffle\", \"batch\": 10, \"n\": 100, \"sigma\": 1.0, \"epochs\": 1, \"delta\": 1e-3, \"epsilon\": 2.0}\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args([
            "audit",
            rows.to_str().unwrap(),
            "--max-steps",
            "200000",
            "--plot",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        o.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for name in ["line-1-p.svg", "line-2-s.svg"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let doc = roxmltree::Document::parse(&text).expect("valid SVG");
        let texts: String = doc.descendants().filter_map(|n| n.text()).collect();
        for word in [
            "upper reference",
            "lower reference",
            "Monte Carlo",
            "claimed",
        ] {
            assert!(texts.contains(word), "{name}: no {word:?}");
        }
        assert!(
            doc.descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .count()
                >= 2,
            "{name}"
        );
    }
}

/// Audit options for rows at the edges: small point budget (grids coarsen after a few tries),
/// the smallest Monte Carlo (200 trials per pair).
fn edge_options(max_points: usize) -> AuditOptions {
    AuditOptions {
        seed: crate::SEED,
        max_steps: 1000,
        trials: Some(200),
        pld: PldOptions {
            max_points,
            ..PldOptions::default()
        },
        ..AuditOptions::default()
    }
}

/// Issue 33, item 3: 2 shuffled batches at sigma 0.03 aborted the audit (capacity overflow in
/// the lower reference, exit 101) and at sigma 0.02 had a lower reference of 0. Both now get a
/// positive lower reference below the upper one, on a grid coarsened for the budget (said in a
/// note). A claim of 400 at sigma 0.03 is refuted by it: the threshold test M > 0.9 alone gives
/// epsilon >= 559 (`shuffle` unit tests).
#[test]
fn shuffle_at_small_sigma_has_a_lower_reference() {
    let text = r#"{"name":"sh","sampling":"shuffle","batch":50,"n":100,"sigma":0.03,"epochs":1,"delta":1e-5,"epsilon":100000}
{"name":"sh","sampling":"shuffle","batch":50,"n":100,"sigma":0.02,"epochs":1,"delta":1e-5,"epsilon":100000}
{"name":"low","sampling":"shuffle","batch":50,"n":100,"sigma":0.03,"epochs":1,"delta":1e-5,"epsilon":400}"#;
    let a = audited(&rows(text), &edge_options(1 << 20));
    for a in &a {
        let (lo, up) = (a.lower_reference.unwrap(), a.upper_reference.unwrap());
        assert!(0.0 < lo && lo < up, "{a:?}");
        assert!(
            a.notes.len() == 1 && a.notes[0].contains("lower reference answered at interval"),
            "{a:?}"
        );
    }
    assert_eq!(a[0].verdict, AuditVerdict::SoundLoose, "{:?}", a[0]);
    assert_eq!(a[1].verdict, AuditVerdict::SoundLoose, "{:?}", a[1]);
    assert!(
        a[1].lower_reference > a[0].lower_reference,
        "less noise, more loss"
    );
    assert_eq!(a[2].verdict, AuditVerdict::Unsound, "{:?}", a[2]);
    assert!(a[2].reasons[0].contains("below the certified lower reference"));
}

/// Issue 33, item 4: q 0.5, sigma 0.05, 2000 Poisson steps needs 2^31 grid points at the
/// default interval; it ended the whole audit (exit 2, no row reported). Within a budget some
/// grid fits (2^18 points: interval 1), the row is answered on it with a note, with the bracket
/// `dpclaims epsilon` gives at that budget; within one no grid fits (2^16), the row is an error
/// and the other rows are audited.
#[test]
fn a_row_past_the_point_budget_is_coarsened_or_its_own_error() {
    let big = r#"{"name":"big","sampling":"poisson","q":0.5,"sigma":0.05,"steps":2000,"delta":1e-5,"epsilon":10}"#;
    let text = format!(
        r#"{big}
{{"name":"small","sampling":"poisson","q":0.01,"sigma":1.0,"steps":100,"delta":1e-5,"epsilon":5}}
{{"name":"sh","sampling":"shuffle","batch":10,"n":100,"sigma":1.0,"epochs":1,"delta":1e-5,"epsilon":20}}"#
    );
    let opts = edge_options(1 << 18);
    let a = audit_one(big, &opts);
    let mech = DpSgd::new(0.5, 0.05, 2000, Sampling::Poisson, Neighbouring::AddRemove).unwrap();
    let answer = accounting::run(
        Accountant::Pld,
        &mech,
        Query::Epsilon { delta: 1e-5 },
        &opts.pld,
        None,
    )
    .unwrap();
    let interval = answer.interval.unwrap();
    assert!(interval > 1e-4, "{answer:?}");
    assert_eq!(
        [a.lower_reference.unwrap(), a.upper_reference.unwrap()],
        answer.bracket.unwrap(),
        "{a:?}"
    );
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    assert!(
        a.notes[0].contains(&format!("references answered at interval {interval} ")),
        "{a:?}"
    );
    let results = audit(&rows(&text), &edge_options(1 << 16), false);
    let e = results[0].as_ref().unwrap_err();
    assert_eq!(e.line, 1);
    assert!(
        e.reason.contains("no PLD grid up to interval 1"),
        "{}",
        e.reason
    );
    for (r, name) in results[1..].iter().zip(["small", "sh"]) {
        assert_eq!(r.as_ref().map(|a| a.name.as_str()), Ok(name), "{r:?}");
    }
}

/// The CLI on the row of item 4 with `--max-points 65536`: that row is reported as an error
/// (exit 2, its line and reason on stderr and as a JSON error line), the valid row is audited.
#[test]
fn cli_reports_a_row_no_grid_fits_and_audits_the_rest() {
    let o = audit_file(
        "budget.jsonl",
        "{\"name\":\"big\",\"sampling\":\"poisson\",\"q\":0.5,\"sigma\":0.05,\"steps\":2000,\"delta\":1e-5,\"epsilon\":10}\n\
         {\"name\":\"good\",\"sampling\":\"poisson\",\"q\":0.01,\"sigma\":1.0,\"steps\":100,\"delta\":1e-5,\"epsilon\":5}\n",
        &[
            "--json",
            "--max-points",
            "65536",
            "--max-steps",
            "1000",
            "--trials",
            "200",
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: line 1: references: no PLD grid"),
        "{stderr}"
    );
    let out: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0]["name"], "good");
    assert_eq!(out[0]["verdict"], "sound-loose");
    assert_eq!(out[1]["line"], 1);
    assert!(out[1]["error"].as_str().unwrap().contains("--max-points"));
}

/// Checks an audit of a row at the edges: its numbers are not NaN, its lower reference is at
/// most its upper one, and a lower reference of 0 below a positive upper one carries a note.
fn check_edge_audit(a: &Audit) {
    let numbers = [a.lower_reference, a.upper_reference, a.ratio]
        .into_iter()
        .flatten()
        .chain([a.monte_carlo.delta_lower, a.monte_carlo.delta_mean]);
    for x in numbers {
        assert!(!x.is_nan(), "{a:?}");
    }
    if let (Some(lo), Some(up)) = (a.lower_reference, a.upper_reference) {
        assert!(lo <= up, "{a:?}");
        assert!(
            !(lo == 0.0 && up > 0.0) || a.notes.iter().any(|n| n.contains("uninformative")),
            "{a:?}"
        );
    }
}

/// Issue 33: `audit` never panics on a legal row. Rows at the edges of the legal range (sigma
/// 1e-9 to 1e8, q from 1e-12 to 1, 1 step, delta from 1e-300 to 0.99, epsilon 0 and 1e300,
/// shuffled batches at small sigma or without a full epoch, schedules, fixed-size batches)
/// each get a verdict or an error of their own, with a reason; the verdicts pass
/// [`check_edge_audit`].
#[test]
fn rows_at_the_edges_get_a_verdict_or_their_own_error() {
    let text = r#"{"name":"tiny-sigma","sampling":"poisson","q":0.01,"sigma":1e-3,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"tinier-sigma","sampling":"poisson","q":0.01,"sigma":1e-9,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"huge-sigma","sampling":"poisson","q":0.01,"sigma":1e8,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"q-tiny","sampling":"poisson","q":1e-12,"sigma":1,"steps":100,"delta":1e-5,"epsilon":1}
{"name":"q-near-1","sampling":"poisson","q":0.999999,"sigma":1,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"q-1","sampling":"poisson","relation":"replace-one","q":1,"sigma":0.5,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"steps-1","sampling":"poisson","q":0.5,"sigma":1,"steps":1,"delta":1e-5,"epsilon":1}
{"name":"delta-tiny","sampling":"poisson","q":0.01,"sigma":1,"steps":100,"delta":1e-300,"epsilon":1}
{"name":"delta-big","sampling":"poisson","q":0.01,"sigma":1,"steps":100,"delta":0.99,"epsilon":0}
{"name":"eps-huge","sampling":"poisson","q":0.01,"sigma":1,"steps":100,"delta":1e-5,"epsilon":1e300}
{"name":"eps-0","sampling":"none","sigma":2,"steps":3,"delta":1e-5,"epsilon":0}
{"name":"wor-tiny-sigma","sampling":"wor","q":0.1,"sigma":1e-4,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"wor-q-1","sampling":"wor","q":1,"sigma":1,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"wor-q-tiny","sampling":"wor","batch":1,"n":1000000000,"sigma":0.5,"steps":10,"delta":1e-5,"epsilon":1}
{"name":"none-tiny-sigma","sampling":"none","sigma":1e-6,"steps":3,"delta":1e-5,"epsilon":1}
{"name":"none-huge-sigma","sampling":"none","sigma":1e8,"steps":5,"delta":0.99,"epsilon":1e5}
{"name":"replace-tiny-sigma","sampling":"poisson","relation":"replace-one","q":0.3,"sigma":1e-3,"steps":5,"delta":1e-5,"epsilon":1}
{"name":"sh-0.03","sampling":"shuffle","batch":50,"n":100,"sigma":0.03,"epochs":1,"delta":1e-5,"epsilon":100000}
{"name":"sh-1e-3","sampling":"shuffle","batch":50,"n":100,"sigma":1e-3,"epochs":1,"delta":1e-5,"epsilon":1}
{"name":"sh-1e-9","sampling":"shuffle","batch":50,"n":100,"sigma":1e-9,"epochs":3,"delta":1e-5,"epsilon":1}
{"name":"sh-huge-sigma","sampling":"shuffle","batch":50,"n":100,"sigma":1e8,"epochs":1,"delta":1e-5,"epsilon":1}
{"name":"sh-delta-tiny","sampling":"shuffle","batch":10,"n":100,"sigma":1,"epochs":2,"delta":1e-300,"epsilon":1}
{"name":"sh-one-batch","sampling":"shuffle","batch":100,"n":100,"sigma":1e-3,"epochs":2,"delta":1e-5,"epsilon":1}
{"name":"sh-no-full-epoch","sampling":"shuffle","batch":30,"n":100,"sigma":1,"steps":2,"delta":1e-5,"epsilon":1}
{"name":"phases","sampling":"poisson","phases":[{"q":1e-9,"sigma":1e-3,"steps":1},{"q":0.9,"sigma":1e5,"steps":3}],"delta":1e-5,"epsilon":1}
{"name":"q-0.5-sigma-0.05","sampling":"poisson","q":0.5,"sigma":0.05,"steps":2000,"delta":1e-5,"epsilon":10}
{"name":"ra-tiny-sigma","sampling":"random-allocation","steps_per_epoch":10,"sigma":1e-3,"epochs":2,"delta":1e-5,"epsilon":1}
{"name":"ra-huge-sigma","sampling":"random-allocation","steps_per_epoch":10,"sigma":1e8,"epochs":2,"delta":0.99,"epsilon":1}
{"name":"ra-one-step","sampling":"balls-in-bins","steps_per_epoch":1,"sigma":1,"epochs":3,"delta":1e-5,"epsilon":1}
{"name":"ra-no-full-epoch","sampling":"balls-in-bins","steps_per_epoch":10,"sigma":1,"steps":3,"delta":1e-5,"epsilon":1}"#;
    let rows = rows(text);
    let results = audit(&rows, &edge_options(1 << 16), false);
    assert_eq!(results.len(), rows.len());
    for (row, r) in rows.iter().zip(&results) {
        match r {
            Ok(a) => {
                assert_eq!(a.line, row.line);
                check_edge_audit(a);
            }
            Err(e) => assert!(e.line == row.line && !e.reason.is_empty(), "{e:?}"),
        }
    }
    // The edges are not all errors: most rows are answered on some grid.
    let answered = results.iter().filter(|r| r.is_ok()).count();
    assert!(answered >= rows.len() / 2, "{results:?}");
}

/// A million steps: the references of such rows (their Monte Carlo is 200 paths of a million
/// steps, too slow for a test) are answered, or are the row's error, as above.
#[test]
fn a_million_steps_get_references_or_an_error() {
    let text = r#"{"name":"poisson","sampling":"poisson","q":1e-4,"sigma":1,"steps":1000000,"delta":1e-5,"epsilon":1}
{"name":"replace-one","sampling":"poisson","relation":"replace-one","q":1e-3,"sigma":0.8,"steps":1000000,"delta":1e-5,"epsilon":1}
{"name":"small-sigma","sampling":"poisson","q":0.5,"sigma":0.05,"steps":1000000,"delta":1e-5,"epsilon":1}
{"name":"wor","sampling":"wor","q":1e-3,"sigma":2,"steps":1000000,"delta":1e-5,"epsilon":1}
{"name":"shuffle","sampling":"shuffle","batch":1,"n":1000000,"sigma":1,"epochs":1,"delta":1e-5,"epsilon":1}"#;
    let opts = edge_options(1 << 16);
    let mut answered = 0;
    for row in rows(text) {
        match references(&row, &opts) {
            Ok(r) => {
                answered += 1;
                let (lo, up) = (r.lower.unwrap(), r.upper.unwrap());
                assert!(
                    !lo.is_nan() && !up.is_nan() && lo <= up,
                    "{}: [{lo}, {up}]",
                    row.name
                );
                assert!(
                    !(lo == 0.0 && up > 0.0) || r.notes.iter().any(|n| n.contains("uninformative")),
                    "{}: {:?}",
                    row.name,
                    r.notes
                );
            }
            Err(e) => assert!(!e.is_empty(), "{}", row.name),
        }
    }
    assert!(answered >= 3);
}

/// The random-allocation rows' options: a small Monte Carlo (its limit is checked for
/// soundness there, not for power) and a grid ten times coarser than the default (the
/// references are compared with the bracket on the same grid; the default's cost is the CLI
/// tests' and the speed points').
fn random_allocation_options() -> AuditOptions {
    AuditOptions {
        seed: crate::SEED,
        max_steps: 300_000,
        pld: PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        },
        ..AuditOptions::default()
    }
}

/// A replace-one random-allocation row (`replace(ε)`, its add/remove bracket `add_remove`, its
/// allocation `ra` over `epochs` full epochs): its lower reference is the larger of the
/// add/remove one and the antipodal pair's statistic composed over the epochs (which is the
/// larger at the rows tested: above the add/remove lower end), its upper one above the add/remove upper end
/// and at most the record's steps revealed (the Gaussian mechanism of parameter `revealed_mu`),
/// and at a claim 2% above that upper end the audit is not unsound and the Monte Carlo's lower
/// limit (the antipodal pair among others) is under the upper reference's delta.
fn replace_one_is_between_add_remove_and_revealed(
    replace: &dyn Fn(f64) -> String,
    add_remove: [f64; 2],
    (ra, epochs): (
        &dpclaims_theorems::privacy::random_allocation::RandomAllocation,
        u64,
    ),
    revealed_mu: f64,
    opts: &AuditOptions,
) {
    let r = references(&rows(&replace(1.0))[0], opts).unwrap();
    let delta = rows(&replace(1.0))[0].delta;
    let revealed = gaussian::epsilon_bracket(revealed_mu, revealed_mu, delta)
        .unwrap()
        .1;
    let upper = r.upper.unwrap();
    let focused = opts.pld.focused(pld::Focus::Delta(delta));
    let antipodal = ra
        .antipodal_epoch(&focused)
        .unwrap()
        .expect("the statistic's lattice fits")
        .compose(epochs, &focused)
        .unwrap()
        .epsilon(delta);
    assert!(antipodal > add_remove[0], "{antipodal} vs {add_remove:?}");
    assert_eq!(r.lower, Some(antipodal));
    assert!(antipodal <= upper, "{antipodal} vs {upper}");
    assert!(
        add_remove[1] < upper && upper <= revealed,
        "{upper} vs {add_remove:?}, {revealed}"
    );
    let high = 1.02 * upper;
    let a = audit_one(&replace(high), opts);
    assert_ne!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    assert!(
        a.monte_carlo.delta_lower <= (r.upper_delta.unwrap())(high),
        "{a:?}"
    );
}

/// Issue 30, item 1: random-allocation rows (`random-allocation` or `balls-in-bins`, t steps
/// per epoch from `steps_per_epoch`, `n`/`batch` or 1/`q`) get the certified bracket of
/// `random_allocation::epsilon` (full epochs for the lower end, started epochs for the upper
/// one); a claim 10% under the lower end is unsound, one 2% over the upper end is not, and the
/// Monte Carlo's lower limit on delta (the realised pair) stays under the pessimistic delta at
/// the claimed epsilon. Rows it does not cover (replace-one, a fractional t, q and t that
/// disagree) are each their own error.
#[test]
fn random_allocation_rows_are_bracketed_and_audited() {
    use dpclaims_theorems::privacy::random_allocation::{self, RandomAllocation};
    let opts = random_allocation_options();
    let (t, sigma, delta) = (10u64, 1.0, 1e-5);
    let ra = RandomAllocation::new(sigma, 1, t).unwrap();
    let bracket = |epochs: u64| random_allocation::epsilon(&ra, epochs, delta, &opts.pld).unwrap();
    let pessimistic_delta = |epochs: u64, eps: f64| {
        let dirs =
            random_allocation::composed(&ra, epochs, &opts.pld.focused(pld::Focus::Delta(delta)))
                .unwrap();
        dirs.iter()
            .map(|p| p.pessimistic.delta(eps))
            .fold(0.0, f64::max)
    };
    let b = bracket(3);
    let row = |sampling: &str, how: &str, eps: f64| {
        format!(
            r#"{{"name": "ra", "sampling": "{sampling}", {how}, "sigma": {sigma}, "delta": {delta}, "epsilon": {eps}}}"#
        )
    };
    // The references alone (the Monte Carlo is checked on two rows below).
    let references_of = |text: &str| {
        let r = references(&rows(text)[0], &opts).unwrap();
        (r.lower, r.upper)
    };
    for how in [
        r#""steps_per_epoch": 10, "epochs": 3"#,
        r#""n": 1000, "batch": 100, "steps": 30"#,
        r#""q": 0.1, "steps": 30"#,
    ] {
        let r = references_of(&row("random-allocation", how, 1.0));
        assert_eq!(r, (Some(b.optimistic), Some(b.pessimistic)), "{how}");
    }
    assert!(
        b.optimistic <= b.pessimistic && b.pessimistic - b.optimistic < 0.01,
        "{b:?}"
    );
    let how = r#""steps_per_epoch": 10, "epochs": 3"#;
    let low = 0.9 * b.optimistic;
    let a = audit_one(&row("balls-in-bins", how, low), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    assert!(
        a.monte_carlo.delta_lower <= pessimistic_delta(3, low),
        "{a:?}"
    );
    let high = 1.02 * b.pessimistic;
    let a = audit_one(&row("balls-in-bins", how, high), &opts);
    assert_ne!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    assert_eq!(a.selected, None, "k = 1 is not shown");
    assert!(
        a.monte_carlo.delta_lower <= pessimistic_delta(3, high),
        "{a:?}"
    );
    // A partial last epoch: the upper end counts it in full, the lower end drops it.
    let r = references_of(&row(
        "random-allocation",
        r#""steps_per_epoch": 10, "steps": 35"#,
        1.0,
    ));
    assert_eq!(r, (Some(b.optimistic), Some(bracket(4).pessimistic)));
    // Replace-one: the antipodal pair's lower end, an upper end between the add/remove one and the
    // step revealed (two hops through the record's absence), and the Monte Carlo of the
    // antipodal pair under the upper reference's delta at a claim just above it.
    let replace = |eps: f64| {
        row(
            "random-allocation",
            r#""steps_per_epoch": 10, "epochs": 3, "relation": "replace-one""#,
            eps,
        )
    };
    replace_one_is_between_add_remove_and_revealed(
        &replace,
        [b.optimistic, b.pessimistic],
        (&ra, 3),
        2.0 * 3f64.sqrt() / sigma,
        &opts,
    );
    let a = audit_one(&replace(0.9 * b.optimistic), &opts);
    assert_eq!(a.verdict, AuditVerdict::Unsound, "{a:?}");
    // Not covered: each its own error, naming what is wrong.
    for (how, needle) in [
        (r#""n": 1000, "batch": 300, "steps": 30"#, "not a multiple"),
        (
            r#""q": 0.3, "steps": 30"#,
            "whole number of steps per epoch",
        ),
        (
            r#""q": 0.1, "steps_per_epoch": 20, "steps": 30"#,
            "disagree",
        ),
        (r#""steps": 30"#, "missing `steps_per_epoch`"),
    ] {
        let text = row("random-allocation", how, 1.0);
        let (line, obj) = parse(&text, Format::JsonLines).remove(0).unwrap();
        let e = validate(line, obj, true).unwrap_err();
        assert!(e.reason.contains(needle), "{how}: {e:?}");
    }
}

/// Issue 30, item 1, k > 1: a random-allocation row whose records are each in `selected` = k of
/// the t steps of an epoch (t from `steps_per_epoch`, from k·n/`batch`, or k/`q`; `epochs`
/// counts t steps each) gets the certified bracket of `random_allocation::epsilon` at that k,
/// and its Monte Carlo simulates the realised pair (the record +C in a uniformly random
/// k-subset of the steps, the others 0), whose lower limit on delta stays under the
/// pessimistic delta; under replace-one the upper end lies between the add/remove one and the
/// k steps revealed (sensitivity 2C, k steps an epoch). Each row it does not cover is its own
/// error. Measured (release, default options): at t = 10, k = 2, sigma 1, 3 epochs, delta 1e-5,
/// the bracket is [5.8244, 6.5718] and the Monte Carlo alone (`--no-reference`) refutes 6.0
/// (delta at least 1.89e-5), so the truth is in (6.0, 6.5718].
#[test]
fn random_allocation_rows_of_k_steps_are_bracketed_and_audited() {
    use dpclaims_theorems::privacy::random_allocation::{self, RandomAllocation};
    let opts = random_allocation_options();
    let (t, k, sigma, delta, epochs) = (10u64, 2u64, 1.0, 1e-5, 3u64);
    let ra = RandomAllocation::new(sigma, k, t).unwrap();
    let b = random_allocation::epsilon(&ra, epochs, delta, &opts.pld).unwrap();
    let one = random_allocation::epsilon(
        &RandomAllocation::new(sigma, 1, t).unwrap(),
        epochs,
        delta,
        &opts.pld,
    )
    .unwrap();
    assert!(
        one.pessimistic < b.optimistic,
        "two steps an epoch cost more than one: {one:?} {b:?}"
    );
    let pessimistic_delta = |eps: f64| {
        random_allocation::composed(&ra, epochs, &opts.pld.focused(pld::Focus::Delta(delta)))
            .unwrap()
            .iter()
            .map(|p| p.pessimistic.delta(eps))
            .fold(0.0, f64::max)
    };
    let row = |how: &str, eps: f64| {
        format!(
            r#"{{"name": "ra", "sampling": "random-allocation", {how}, "sigma": {sigma}, "delta": {delta}, "epsilon": {eps}}}"#
        )
    };
    for how in [
        r#""steps_per_epoch": 10, "selected": 2, "epochs": 3"#,
        r#""n": 1000, "batch": 200, "selected": 2, "epochs": 3"#,
        r#""q": 0.2, "selected": 2, "steps": 30"#,
    ] {
        let parsed = rows(&row(how, 1.0));
        assert_eq!(
            (parsed[0].steps, parsed[0].selected, parsed[0].q),
            (30, Some(2), 0.2),
            "{how}"
        );
        let r = references(&parsed[0], &opts).unwrap();
        assert_eq!(
            (r.lower, r.upper),
            (Some(b.optimistic), Some(b.pessimistic)),
            "{how}"
        );
    }
    let how = r#""steps_per_epoch": 10, "selected": 2, "epochs": 3"#;
    for (eps, unsound) in [(0.9 * b.optimistic, true), (1.02 * b.pessimistic, false)] {
        let a = audit_one(&row(how, eps), &opts);
        assert_eq!(a.verdict == AuditVerdict::Unsound, unsound, "{a:?}");
        assert!(a.monte_carlo.pair.contains("2 of 10 steps"), "{a:?}");
        assert_eq!(a.selected, Some(2));
        let text = dpclaims::audit::table(std::slice::from_ref(&a), &[], false);
        assert!(text.contains("random-allocation (k = 2)"), "{text}");
        assert!(a.monte_carlo.delta_lower <= pessimistic_delta(eps), "{a:?}");
    }
    // Replace-one: the antipodal pair's lower end; the upper end two hops through the record's
    // absence or its k steps revealed, and the antipodal pair's Monte Carlo under it.
    let replace = |eps: f64| row(&format!(r#"{how}, "relation": "replace-one""#), eps);
    let mu = 2.0 * ((k * epochs) as f64).sqrt() / sigma;
    replace_one_is_between_add_remove_and_revealed(
        &replace,
        [b.optimistic, b.pessimistic],
        (&ra, epochs),
        mu,
        &opts,
    );
    // k = t: the record in every step, so add/remove is the Gaussian mechanism of
    // mu = sqrt(tE)/sigma and replace-one that of 2 sqrt(tE)/sigma, exactly: the references
    // must bracket those closed forms (a revealed mu too small would put the replace-one upper
    // end below the truth), and under replace-one the revealed steps bound the upper end.
    // (The add/remove upper end is loose here: 13.0514 against the exact 12.8707 on this grid
    // of 1e-3, 12.8876 on the default 1e-4: the lattice of one step of t = 1.)
    let every = |relation: &str| {
        row(
            &format!(
                r#""steps_per_epoch": 2, "selected": 2, "epochs": 3, "relation": "{relation}""#
            ),
            1.0,
        )
    };
    for (relation, mu) in [
        ("add-remove", 6f64.sqrt()),
        ("replace-one", 2.0 * 6f64.sqrt()),
    ] {
        let r = references(&rows(&every(relation))[0], &opts).unwrap();
        let exact = gaussian::epsilon_bracket(mu / sigma, mu / sigma, delta).unwrap();
        let (lower, upper) = (r.lower.unwrap(), r.upper.unwrap());
        assert!(
            lower <= exact.1 && exact.0 <= upper,
            "{relation}: [{lower}, {upper}] vs {exact:?}"
        );
        if relation == "replace-one" {
            // Both ends are the Gaussian's own (k = t: the antipodal pair in every step is
            // the mechanism, the record's steps revealed too).
            assert!(upper <= exact.1, "{upper} vs the steps revealed {exact:?}");
            assert!(lower >= exact.0, "{lower} vs the antipodal pair {exact:?}");
        }
    }
    for (text, needle) in [
        (
            row(r#""steps_per_epoch": 10, "selected": 0, "epochs": 3"#, 1.0),
            "`selected` = 0",
        ),
        (
            r#"{"sampling": "poisson", "phases": [{"q": 0.1, "sigma": 1, "steps": 3}], "selected": 2, "delta": 1e-5, "epsilon": 1}"#.to_string(),
            "field of random-allocation rows",
        ),
        (
            row(r#""steps_per_epoch": 10, "selected": 11, "epochs": 3"#, 1.0),
            "more than the 10 steps",
        ),
        (
            row(r#""n": 1000, "batch": 300, "selected": 2, "steps": 30"#, 1.0),
            "not a multiple",
        ),
        (
            row(r#""q": 0.1, "steps_per_epoch": 10, "selected": 2, "steps": 30"#, 1.0),
            "disagree",
        ),
        (
            r#"{"sampling": "poisson", "q": 0.1, "selected": 2, "sigma": 1, "steps": 30, "delta": 1e-5, "epsilon": 1}"#.to_string(),
            "field of random-allocation rows",
        ),
    ] {
        let (line, obj) = parse(&text, Format::JsonLines).remove(0).unwrap();
        let e = validate(line, obj, true).unwrap_err();
        assert!(e.reason.contains(needle), "{text}: {e:?}");
    }
}
