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

/// dpclaims' own PLD accountant passes its suite (small size: one base event of every family,
/// random allocation last; the full size is in docs/conformance.md, "Cost").
#[test]
fn dpclaims_passes_its_own_suite() {
    let all = passing(&[
        "conformance",
        "--self",
        "--events",
        "15",
        "--interval",
        "1e-3",
        "--json",
    ]);
    assert!(all.len() >= 15 * 8, "{} checks", all.len());
    // The random-allocation base event is asked and answered: its checks pass, its references
    // pass or are `imprecise` (at this coarse grid its bracket is about fifty cells wide over
    // ten epochs of large σ), none is a finding.
    let allocation: Vec<_> = all
        .iter()
        .filter(|v| v["family"] == "random-allocation")
        .collect();
    assert!(
        allocation
            .iter()
            .any(|v| v["property"] == "self-composition" && v["verdict"] == "pass"),
        "no passing random-allocation self-composition"
    );
    assert!(
        allocation
            .iter()
            .filter(|v| v["property"] == "reference")
            .all(|v| v["verdict"] == "pass" || v["verdict"] == "imprecise"),
        "{allocation:?}"
    );
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
    // Each query's reproducer for dpclaims' own answer runs as printed.
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("  dpclaims:  "))
        .expect("a dpclaims reproducer");
    let o = Command::new("sh")
        .arg("-c")
        .arg(line.replace(
            "| dpclaims ",
            &format!("| {} ", env!("CARGO_BIN_EXE_dpclaims")),
        ))
        .output()
        .unwrap();
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("bracket ["),
        "{line}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
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
///
/// Only the two properties read here are judged: the suite keeps their checks, and only the
/// requests they read (and the answers their follow-ups take their parameter from) are asked;
/// dpclaims' own replies are computed once per request and shared by the first two accountants
/// (the second changes only δ answers, and a follow-up with another parameter is another request).
#[test]
fn the_epsilon_delta_round_trip_catches_an_inconsistent_delta() {
    use dpclaims::accounting::Query;
    use dpclaims::conformance::{
        Reply, Request, Verdict, ask_in_rounds_with_ids, generate, judge, self_reply,
    };
    use dpclaims_theorems::privacy::pld::PldOptions;
    use std::cell::RefCell;
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    };
    let read = ["epsilon-delta-round-trip", "self-composition"];
    let mut base = generate(2, 6, false);
    base.checks.retain(|c| read.contains(&c.property));
    let mut needed = vec![false; base.requests.len()];
    base.checks
        .iter()
        .flat_map(|c| &c.queries)
        .for_each(|&i| needed[i] = true);
    // (a follow-up may follow up on a follow-up: to the fixed point)
    while let Some(f) = base
        .follow_ups
        .iter()
        .find(|f| needed[f.request] && !needed[f.from])
    {
        needed[f.from] = true;
    }
    let own: RefCell<Vec<(Request, Reply)>> = RefCell::default();
    let own_reply = |r: &Request| {
        if let Some((_, reply)) = own.borrow().iter().find(|(q, _)| q == r) {
            return reply.clone();
        }
        let reply = self_reply(r, &opts);
        own.borrow_mut().push((r.clone(), reply.clone()));
        reply
    };
    let verdicts = |reply: &dyn Fn(&Request) -> Reply| {
        let mut suite = base.clone();
        let replies = ask_in_rounds_with_ids(&mut suite, |ids, batch| {
            ids.iter()
                .zip(batch)
                .map(|(&i, r)| {
                    if needed[i] {
                        reply(r)
                    } else {
                        Reply::Refused("unsupported: not read by this test".into())
                    }
                })
                .collect()
        });
        let outcomes = judge(&suite, &replies, 1e-3, &opts);
        let count = |property: &str, verdict: Verdict| {
            outcomes
                .iter()
                .filter(|o| o.property == property && o.verdict == verdict)
                .count()
        };
        (
            count(read[0], Verdict::Pass),
            count(read[0], Verdict::Finding),
            count(read[1], Verdict::Finding),
        )
    };
    let (pass, found, _) = verdicts(&own_reply);
    assert!(
        pass >= 4 && found == 0,
        "dpclaims: {pass} pass, {found} findings"
    );
    let (_, found, _) = verdicts(&|r| match (r.query, own_reply(r)) {
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
    // `dpclaims answer --supports` declares the setting `interval`: the suite is asked again
    // under drawn grids (regime `settings`) after the defaults, which match in-process.
    let (defaults, settings): (Vec<_>, Vec<_>) =
        by_command.iter().partition(|v| v["regime"] != "settings");
    assert_eq!(defaults.len(), in_process.len());
    for (a, b) in defaults.iter().zip(&in_process) {
        assert_eq!(a["answers"], b["answers"], "{a} vs {b}");
    }
    assert_eq!(settings.len(), in_process.len());
    let lines: Vec<&str> = settings
        .iter()
        .flat_map(|v| v["queries"].as_array().unwrap())
        .map(|q| q.as_str().unwrap())
        .collect();
    assert!(
        lines
            .iter()
            .all(|q| q.contains("\"settings\":{\"interval\":"))
    );
    assert!(lines.iter().any(|q| q.contains("\"interval\":0.0003")));
    // An undeclared setting is an error answer naming it.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "echo '{{\"id\": 3, \"version\": 1, \"neighbouring\": \"add-remove\", \"event\": {{\"type\": \"Gaussian\", \"noise_multiplier\": 1.0}}, \"delta\": 1e-5, \"settings\": {{\"orders\": [2]}}}}' | {cmd}"
        ))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"id\":3") && text.contains("unknown setting `orders`"),
        "{text}"
    );
}

/// Every check is broken, but those of the follow-ups alone, which are never asked (their
/// parameter is an answer that did not come): skipped, with that reason.
fn all_broken(all: &[serde_json::Value]) {
    assert!(all.iter().any(|v| v["verdict"] == "broken"));
    assert!(
        all.iter().all(|v| v["verdict"] == "broken"
            || (v["verdict"] == "skipped"
                && v["detail"]
                    .as_str()
                    .unwrap()
                    .starts_with("not asked: the query it follows up on has no answer"))),
        "{all:?}"
    );
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
    all_broken(&outcomes(&o));
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
    all_broken(&all);
    assert!(all.iter().any(|v| {
        v["detail"]
            .as_str()
            .unwrap_or("")
            .contains("no answer within")
    }));
}

/// A temporary directory for this test (removed first if a run before left it).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dpclaims-conf-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dpclaims answer` (interval 1e-3) behind a shell pipe `filter` that rewrites its output.
/// (A filter that buffers its output, as `sed` without `-u` does, answers nothing before it has
/// every question: it gets them all at once after the line protocol's patience.)
fn answer_through(filter: &str) -> String {
    format!(
        "{} answer --interval 1e-3 | {filter}",
        env!("CARGO_BIN_EXE_dpclaims")
    )
}

/// The answers of each check of `args`, its exit code, and its stderr.
fn run_json(args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>, String) {
    let o = dpclaims(args);
    (
        outcomes(&o),
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A command that prints a line that is not an answer before each of its answers gets every
/// question right (answers go by id, the stray lines are skipped and counted); one that
/// answers without ids (an adapter of the old protocol) gets them in order, with a note.
#[test]
fn stray_lines_do_not_shift_the_answers() {
    let args = |cmd: &str| -> Vec<String> {
        [
            "conformance",
            "--command",
            cmd,
            "--events",
            "3",
            "--interval",
            "1e-3",
            "--json",
        ]
        .map(String::from)
        .to_vec()
    };
    let reference = passing(&[
        "conformance",
        "--self",
        "--events",
        "3",
        "--interval",
        "1e-3",
        "--json",
    ]);
    for (filter, note) in [
        (
            r#"while read -r l; do echo "Warning: numpy is old"; echo "$l"; done"#,
            "line(s) that are not answers skipped",
        ),
        (
            // The id anywhere in the object (first in `{"id":..,"noise_multiplier":..}`).
            r#"sed -u -E 's/"id":[0-9]+//; s/\{,/{/; s/,,/,/; s/,\}/}/'"#,
            "answer(s) without an id taken in order",
        ),
    ] {
        let cmd = answer_through(filter);
        let a: Vec<String> = args(&cmd);
        let (got, code, stderr) = run_json(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, Some(0), "{filter}: {stderr}");
        assert_eq!(got.len(), reference.len());
        for (x, y) in got.iter().zip(&reference) {
            assert_eq!(x["answers"], y["answers"], "{filter}: {x} vs {y}");
        }
        assert!(stderr.contains(note), "{filter}: {stderr}");
    }
}

/// An answer with a wrong id is reported and skipped: its question gets no answer (broken,
/// not shifted onto the next one), the others are right.
#[test]
fn a_wrong_id_is_reported_and_costs_its_question_only() {
    let cmd = answer_through(r#"sed -u 's/"id":0}/"id":99999}/'"#);
    let o = dpclaims(&[
        "conformance",
        "--command",
        &cmd,
        "--events",
        "2",
        "--interval",
        "1e-3",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("ignored an answer for id 99999, which was not asked"),
        "{text}"
    );
    assert!(
        text.contains("answered the question with id 0 with an answer for id 99999"),
        "{text}"
    );
    let (all, _, _) = run_json(&[
        "conformance",
        "--command",
        &cmd,
        "--events",
        "2",
        "--interval",
        "1e-3",
        "--json",
    ]);
    // Only the checks that ask query 0 are broken.
    for v in &all {
        let asks_0 = v["queries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q.as_str().unwrap().contains("\"id\":0,"));
        assert_eq!(v["verdict"] == "broken", asks_0, "{v}");
    }
}

/// A shell accountant that answers every query `unsupported`, after a traceback on stderr; with
/// `declare`, `--supports` declares every event type but Laplace.
fn refusing_accountant(dir: &std::path::Path, declare: bool) -> String {
    let script = dir.join("refuses.sh");
    let supports = if declare {
        r#"if [ "$1" = --supports ]; then
  echo '{"events": ["Composed", "EpsilonDelta", "Gaussian", "NoOp", "PoissonSampled", "RandomizedResponse", "SampledWithoutReplacement", "SelfComposed"], "relations": ["add-remove", "replace-one"], "queries": ["epsilon", "delta"]}'
  exit 0
fi
"#
    } else {
        ""
    };
    std::fs::write(
        &script,
        format!(
            r#"{supports}while read -r line; do
  id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  echo "Traceback (most recent call last): query $id" >&2
  echo "{{\"id\": $id, \"error\": \"unsupported: not today\"}}"
done
"#
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

/// With a declaration, `unsupported` on a declared query is an `error` (a finding), shown with
/// the accountant's stderr; outside it (a Laplace event) a skip. Without one every refusal is
/// a skip, listed by reason, and the scorecard says there is no declaration.
#[test]
fn declared_support_makes_a_refusal_an_error_with_its_stderr() {
    let dir = scratch("declared");
    let cmd = refusing_accountant(&dir, true);
    let (all, code, _) = run_json(&["conformance", "--command", &cmd, "--events", "3", "--json"]);
    assert_eq!(code, Some(1));
    let errors: Vec<_> = all.iter().filter(|v| v["verdict"] == "error").collect();
    assert!(!errors.is_empty());
    for v in &errors {
        let detail = v["detail"].as_str().unwrap();
        assert!(
            detail.contains("declared supported, answered unsupported: unsupported: not today"),
            "{detail}"
        );
        assert!(
            detail.contains("Traceback (most recent call last): query "),
            "{detail}"
        );
    }
    // Event 2 is a sampled Laplace: not declared, so skipped.
    let laplace: Vec<_> = all
        .iter()
        .filter(|v| v["queries"][0].as_str().unwrap().contains("Laplace"))
        .collect();
    assert!(!laplace.is_empty() && laplace.iter().all(|v| v["verdict"] == "skipped"));
    let text = String::from_utf8_lossy(
        &dpclaims(&[
            "conformance",
            "--command",
            &cmd,
            "--events",
            "3",
            "--markdown",
        ])
        .stdout,
    )
    .into_owned();
    assert!(text.contains("| errors |"), "{text}");
    assert!(
        text.contains("declared supported: events Composed, EpsilonDelta"),
        "{text}"
    );
    assert!(
        text.contains("Error valid (ordinary): declared supported"),
        "{text}"
    );
    assert!(
        text.contains("    Traceback (most recent call last): query 0"),
        "{text}"
    );
    assert!(text.contains("skipped checks by reason"), "{text}");

    let cmd = refusing_accountant(&dir, false);
    let o = dpclaims(&["conformance", "--command", &cmd, "--events", "3"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("no declaration (`sh "), "{text}");
    assert!(text.contains("× unsupported: not today"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The process group of `pid` (field 5 of /proc/PID/stat), if it runs (a zombie, waiting for
/// its reaper, does not).
fn group_of(pid: &str) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name in parentheses: state, ppid, pgrp.
    let mut rest = stat[stat.rfind(')')? + 2..].split_whitespace();
    let state = rest.next()?;
    (state != "Z").then(|| rest.nth(1).map(str::to_string))?
}

/// Pids of the shells whose command line carries `marker` (not dpclaims, whose arguments carry
/// it too, nor the `--supports` probe).
fn running(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| {
            let e = e.ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmd = String::from_utf8_lossy(&cmd);
            let cmd = cmd.trim_end_matches('\0');
            (cmd.starts_with("sh\0") && cmd.contains(marker) && !cmd.ends_with("--supports"))
                .then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect()
}

/// Ctrl-C (SIGINT to dpclaims) during `conformance --command` ends the accountant's whole
/// process group, and dpclaims exits with 130.
#[test]
fn ctrl_c_ends_the_accountants_process_group() {
    let marker = format!("dpclaims-ctrl-c-{}", std::process::id());
    // A shell that starts a long sleep in a child process (not exec'd): two processes. Its
    // `--supports` ($0 of the inner shell) fails at once.
    let cmd = format!("sh -c '[ \"$0\" = --supports ] && exit 1; sleep 1000; : {marker}'");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args([
            "conformance",
            "--command",
            &cmd,
            "--events",
            "1",
            "--timeout",
            "600",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // If the test fails before its SIGINT, the run is interrupted all the same.
    struct Interrupt(u32);
    impl Drop for Interrupt {
        fn drop(&mut self) {
            // SAFETY: a signal to the child this test started (gone already if it exited).
            unsafe { libc::kill(self.0 as libc::pid_t, libc::SIGINT) };
        }
    }
    let _interrupt = Interrupt(child.id());
    // Wait for the accountant to run.
    let started = std::time::Instant::now();
    let group = loop {
        if let Some(g) = running(&marker).iter().find_map(|p| group_of(p)) {
            break g;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the accountant did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // SAFETY: a signal to the child this test started.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let status = child.wait().unwrap();
    std::mem::forget(_interrupt); // reaped: its pid is no longer ours
    assert_eq!(status.code(), Some(130), "{status:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|p| p.parse::<u32>().is_ok() && group_of(p).as_deref() == Some(group.as_str()))
        .collect();
    assert!(left.is_empty(), "left in group {group}: {left:?}");
    assert!(running(&marker).is_empty());
}
