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

/// The JSON objects of a command's stdout, one per line.
fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The audit's Monte Carlo (pilot, choice of pair and strata, stratified main run) gives the
/// same JSON on 1 and 2 threads: a Poisson row stratified on the record's draws and a
/// shuffled one, by Monte Carlo alone at a small budget.
#[test]
fn audit_same_seed_same_json_on_one_and_two_threads() {
    let dir = std::env::temp_dir().join(format!("dpclaims-audit-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rows.jsonl");
    std::fs::write(
        &file,
        r#"{"name": "strata", "sampling": "poisson", "q": 0.001, "sigma": 0.6, "steps": 100, "delta": 1e-5, "epsilon": 0.7}
{"name": "shuffled", "sampling": "shuffle", "batch": 20, "n": 100, "sigma": 1.0, "steps": 50, "delta": 1e-5, "epsilon": 2.0, "relation": "replace-one"}
"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let args = [
        "audit",
        path,
        "--json",
        "--no-reference",
        "--seed",
        "7",
        "--max-steps",
        "2000000",
    ];
    let one = dpclaims(&args, Some(1));
    let two = dpclaims(&args, Some(2));
    std::fs::remove_dir_all(&dir).ok();
    assert!(!one.stdout.is_empty(), "{}", stderr(&one));
    assert_eq!(
        one.stdout, two.stdout,
        "audit JSON differs between 1 and 2 threads"
    );
    let lines = json_lines(&one);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let proposal = lines[0]["monte_carlo"]["proposal"].as_str().unwrap();
    assert!(proposal.starts_with("stratified"), "{proposal}");
}

/// Fast tier: 600 trials a case (3 blocks of trials over 2 threads); `DPCLAIMS_FULL=1`: 3000.
#[test]
fn same_seed_same_json_on_one_and_two_threads() {
    let trials = if crate::full() { "3000" } else { "600" };
    let args = [
        "check",
        "stability.*",
        "--json",
        "--seed",
        "7",
        "--trials",
        trials,
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
    let lines = json_lines(&o);
    assert_eq!(lines.len(), dpclaims::claims::registry().len());
    for v in &lines {
        for key in ["id", "paper", "result", "statement"] {
            assert!(v[key].as_str().is_some_and(|s| !s.is_empty()), "{v}");
        }
        // A claim known false as printed is expected violated and needs no mutant.
        assert!(
            v["known_false"].as_bool().unwrap() || !v["mutants"].as_array().unwrap().is_empty()
        );
    }
    // The space `search` uses (the field its error message points to), null where none.
    let prop4 = lines
        .iter()
        .find(|v| v["id"] == "last_iterate.prop4")
        .unwrap();
    let axes: Vec<&str> = prop4["space"]["axes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(axes.contains(&"T") && axes.contains(&"batch"), "{axes:?}");
    let spaced = lines.iter().filter(|v| !v["space"].is_null()).count();
    assert!(spaced >= 40, "{spaced}");
}

#[test]
fn epsilon_reports_every_accountant_as_json() {
    let o = dpclaims(
        &[
            "epsilon",
            "--accountant",
            "all",
            "--q",
            "0.004266",
            "--sigma",
            "1.1",
            "--steps",
            "14063",
            "--delta",
            "1e-5",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 3);
    let eps = |name: &str| {
        rows.iter().find(|r| r["accountant"] == name).unwrap()["epsilon"]
            .as_f64()
            .unwrap()
    };
    assert!((eps("rdp") - 2.597).abs() < 2e-3, "{rows:?}");
    assert!((eps("pld") - 2.382).abs() < 2e-3, "{rows:?}");
    let pld = rows.iter().find(|r| r["accountant"] == "pld").unwrap();
    assert!(pld["bracket"][0].as_f64().unwrap() <= pld["bracket"][1].as_f64().unwrap());
    assert!(rows.iter().all(|r| r["seconds"].as_f64().unwrap() < 5.0));
    assert!(
        rows.iter().find(|r| r["accountant"] == "rdp").unwrap()["alpha"]
            .as_f64()
            .unwrap()
            > 1.0
    );
}

#[test]
fn accountant_bad_input_exits_2() {
    let base = ["--sigma", "1", "--steps", "10"];
    for extra in [
        &["--q", "1.5", "--delta", "1e-5"][..],
        &["--q", "0", "--delta", "1e-5"],
        &["--q", "NaN", "--delta", "1e-5"],
        &["--q", "0.1", "--delta", "1"],
        &["--q", "0.1", "--delta", "0"],
    ] {
        let mut args = vec!["epsilon"];
        args.extend(base);
        args.extend(extra);
        let o = dpclaims(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("error: "), "{args:?}");
    }
    for args in [
        &[
            "epsilon", "--q", "0.1", "--sigma", "0", "--steps", "10", "--delta", "1e-5",
        ][..],
        &[
            "epsilon", "--q", "0.1", "--sigma", "1", "--steps", "0", "--delta", "1e-5",
        ],
        &[
            "delta",
            "--q",
            "0.1",
            "--sigma",
            "1",
            "--steps",
            "10",
            "--epsilon",
            "inf",
        ],
    ] {
        assert_eq!(dpclaims(args, None).status.code(), Some(2), "{args:?}");
    }
}

/// `check --shard K/N` + `merge` prints exactly what `check` prints, for N = 1, 2, 3 (fast
/// tier: N = 3, the shards on 3, 2 and 1 threads), as JSON and as the table.
#[test]
fn shards_merge_to_the_one_pass_output() {
    let args = [
        "check",
        "stability.lemma5",
        "stability.lemma5.cond",
        "accounting.pld_bracket",
        "--seed",
        "7",
        "--trials",
        "3000",
    ];
    let dir = std::env::temp_dir().join(format!("dpclaims-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for json in [true, false] {
        let mut full_args = args.to_vec();
        if json {
            full_args.push("--json");
        }
        let full = dpclaims(&full_args, None);
        assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
        let first = if crate::full() { 1 } else { 3 };
        for n in first..=3 {
            let mut files = Vec::new();
            for k in (1..=n).rev() {
                let shard = format!("{k}/{n}");
                let mut a = args.to_vec();
                a.extend(["--shard", &shard]);
                let o = dpclaims(&a, Some(k));
                assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
                let path = dir.join(format!("shard-{k}-{n}.json"));
                std::fs::write(&path, &o.stdout).unwrap();
                files.push(path.to_string_lossy().into_owned());
            }
            let mut m = vec!["merge"];
            m.extend(files.iter().map(String::as_str));
            if json {
                m.push("--json");
            }
            let merged = dpclaims(&m, None);
            assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
            assert_eq!(merged.stdout, full.stdout, "N = {n}, json = {json}");
        }
    }
    // An incomplete set of shards is refused.
    let o = dpclaims(
        &["merge", dir.join("shard-1-3.json").to_str().unwrap()],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
}

/// The CLI with `env` set (and every other scheduler variable removed).
fn dpclaims_env(args: &[&str], env: &[(&str, String)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dpclaims"));
    cmd.args(args);
    for k in dpclaims::harness::SHARD_ENV {
        cmd.env_remove(k);
    }
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    cmd.output().expect("the binary runs")
}

/// `--shard auto` inside a Slurm job array (ids 1..3 and 0..2) and a Kubernetes Indexed Job
/// (indices 0..2 with `--shards 3`): the merged shards print exactly what one `check` prints.
#[test]
fn shard_auto_under_slurm_and_kubernetes_merges_to_the_one_pass_output() {
    let args = [
        "check",
        "stability.lemma5.cond",
        "accounting.rdp_upper",
        "--seed",
        "7",
        "--trials",
        "2000",
        "--json",
    ];
    let full = dpclaims_env(&args, &[]);
    assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
    let slurm = |first: u64| {
        move |k: u64| {
            vec![
                ("SLURM_ARRAY_TASK_ID", (first + k).to_string()),
                ("SLURM_ARRAY_TASK_MIN", first.to_string()),
                ("SLURM_ARRAY_TASK_MAX", (first + 2).to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "3".to_string()),
            ]
        }
    };
    let kube = |k: u64| vec![("JOB_COMPLETION_INDEX", k.to_string())];
    let schedulers: [(
        &str,
        Box<dyn Fn(u64) -> Vec<(&'static str, String)>>,
        &[&str],
    ); 3] = [
        ("slurm-1", Box::new(slurm(1)), &[]),
        ("slurm-0", Box::new(slurm(0)), &[]),
        ("kubernetes", Box::new(kube), &["--shards", "3"]),
    ];
    let dir = std::env::temp_dir().join(format!("dpclaims-auto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, env, extra) in &schedulers {
        let mut files = Vec::new();
        for k in 0..3 {
            let mut a = args[..args.len() - 1].to_vec();
            a.extend(["--shard", "auto"]);
            a.extend(extra.iter());
            let o = dpclaims_env(&a, &env(k));
            assert_eq!(o.status.code(), Some(0), "{name} {k}: {}", stderr(&o));
            let shard: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(shard["shard"]["index"], k + 1, "{name}");
            assert_eq!(shard["shard"]["count"], 3, "{name}");
            let path = dir.join(format!("{name}-{k}.json"));
            std::fs::write(&path, &o.stdout).unwrap();
            files.push(path.to_string_lossy().into_owned());
        }
        let mut m = vec!["merge", "--json"];
        m.extend(files.iter().map(String::as_str));
        let merged = dpclaims_env(&m, &[]);
        assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
        assert_eq!(merged.stdout, full.stdout, "{name}");
    }
    // Outside a scheduler, or an Indexed Job without its count: exit 2 naming what is missing.
    let o = dpclaims_env(&["check", "stability.lemma5.cond", "--shard", "auto"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("SLURM_ARRAY_TASK_ID"), "{}", stderr(&o));
    let o = dpclaims_env(
        &["check", "stability.lemma5.cond", "--shard", "auto"],
        &kube(0),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--shards N"), "{}", stderr(&o));
}

#[test]
fn bad_shard_exits_2() {
    for bad in ["0/2", "3/2", "x/y", "2", "1/0"] {
        let o = dpclaims(&["check", "stability.lemma5.cond", "--shard", bad], None);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("--shard"), "{bad}: {}", stderr(&o));
    }
}

/// `report --out DIR` writes report.md and one SVG per family; each SVG is XML with one
/// marker per outcome and a legend entry per claim.
#[test]
fn report_writes_markdown_and_svg_plots() {
    let dir = std::env::temp_dir().join(format!("dpclaims-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = dpclaims(
        &[
            "report",
            "stability.lemma5",
            "stability.lemma5.derived",
            "stability.lemma5.cond",
            "accounting.rdp_upper",
            "--trials",
            "3000",
            "--seed",
            "7",
            "--out",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for needle in [
        "## `stability.lemma5`",
        "## `stability.lemma5.derived`",
        "## `accounting.rdp_upper`",
        "Seed 7",
        "stability.svg",
        "accounting.svg",
        "Mutants",
        "## Proofs",
        "`stability.lemma5.cond`",
    ] {
        assert!(md.contains(needle), "report.md lacks {needle}");
    }
    // The proof maps follow the claims' sections; the plots count the claims' tables only.
    let md = md.split("\n## Proofs").next().unwrap().to_string();
    for (family, claims) in [
        (
            "stability",
            vec![
                "stability.lemma5",
                "stability.lemma5.derived",
                "stability.lemma5.cond",
            ],
        ),
        ("accounting", vec!["accounting.rdp_upper"]),
    ] {
        let svg = std::fs::read_to_string(dir.join(format!("{family}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let circles = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "circle")
            .count();
        let expected = md
            .lines()
            .filter(|l| {
                l.starts_with("| ")
                    && !l.starts_with("| case")
                    && claims.iter().any(|c| md_section_of(&md, l) == *c)
            })
            .count();
        // The family overview: one labelled row (marker) per outcome, plus one legend marker
        // per claim; no index axis.
        assert!(
            !svg.contains("outcome (in the order"),
            "{family}.svg has an index axis"
        );
        assert_eq!(
            circles,
            expected + claims.len(),
            "{family}: {circles} circles for {expected} outcomes"
        );
        let texts: String = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        for c in claims {
            assert!(
                texts.contains(c),
                "{family}.svg has no legend entry for {c}"
            );
        }
    }
}

/// The claim whose report section contains `line`.
fn md_section_of<'a>(md: &'a str, line: &str) -> &'a str {
    let pos = md.find(line).unwrap();
    let head = md[..pos].rfind("## `").unwrap();
    let rest = &md[head + 4..];
    &rest[..rest.find('`').unwrap()]
}

#[test]
fn contraction_series_is_plot_ready_and_rejects_unknown_instances() {
    let o = dpclaims(
        &[
            "contraction-series",
            "--instance",
            "B_q0.1",
            "--steps",
            "4",
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 4);
    for (t, r) in rows.iter().enumerate() {
        assert_eq!(r["T"].as_u64(), Some(t as u64 + 1));
        let (bound, exact) = (
            r["contraction_bound"].as_f64().unwrap(),
            r["exact"].as_f64().unwrap(),
        );
        assert!(exact + r["exact_error"].as_f64().unwrap() <= bound, "{r}");
        assert!(r["composition_bound"].as_f64().unwrap() >= exact, "{r}");
    }
    let bad = dpclaims(&["contraction-series", "--instance", "NC"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("instance"), "{}", stderr(&bad));
}

/// `epsilon --phase q,sigma,steps` (repeated): a schedule; two equal phases give the bracket of
/// the unsplit run, a real schedule lies between its phases run alone, bad phases exit 2.
#[test]
fn epsilon_accepts_a_schedule_of_phases() {
    let bracket = |args: &[&str]| -> [f64; 2] {
        let mut all = vec![
            "epsilon",
            "--delta",
            "1e-5",
            "--accountant",
            "pld",
            "--json",
        ];
        all.extend_from_slice(args);
        let o = dpclaims(&all, None);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let v = &json_lines(&o)[0];
        let b = v["bracket"].as_array().expect("a bracket");
        [b[0].as_f64().unwrap(), b[1].as_f64().unwrap()]
    };
    let one = bracket(&["--q", "0.01", "--sigma", "1", "--steps", "1000"]);
    let split = bracket(&["--phase", "0.01,1,400", "--phase", "0.01,1,600"]);
    assert!(
        (one[1] - split[1]).abs() < 1e-6 * one[1],
        "{one:?} vs {split:?}"
    );
    let low = bracket(&["--q", "0.005", "--sigma", "1.2", "--steps", "1000"]);
    let high = bracket(&["--q", "0.02", "--sigma", "0.9", "--steps", "1000"]);
    let mixed = bracket(&["--phase", "0.005,1.2,500", "--phase", "0.02,0.9,500"]);
    assert!(
        low[1] < mixed[1] && mixed[1] < high[1],
        "{low:?} {mixed:?} {high:?}"
    );
    for bad in ["0.01,1", "2,1,5", "0.01,abc,5", "0.01,1,0"] {
        let o = dpclaims(&["epsilon", "--delta", "1e-5", "--phase", bad], None);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
    }
}

/// Issue 20: a PLD grid too fine for the point budget is coarsened (and said so) instead of
/// refused, and the RDP answers still come with `--accountant all`. Fast tier: 20 steps, whose
/// default grid (interval 1e-4) still needs more than the 65536 points of the budget;
/// `DPCLAIMS_FULL=1`: the issue's 2000 steps, whose default grid takes 4.3 GB (two
/// compositions of over 2 GB each, run at once).
#[test]
fn pld_coarsens_past_the_point_budget() {
    let steps = if crate::full() { "2000" } else { "20" };
    let args = [
        "epsilon",
        "--q",
        "0.5",
        "--sigma",
        "0.5",
        "--steps",
        steps,
        "--delta",
        "1e-5",
        "--max-points",
        "65536",
        "--json",
    ];
    let o = dpclaims(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON answer per line"))
        .collect();
    let by = |name: &str| {
        answers
            .iter()
            .find(|a| a["accountant"] == name)
            .unwrap_or_else(|| panic!("no {name} answer in {answers:?}"))
    };
    let pld = by("pld");
    assert!(pld["interval"].as_f64().unwrap() > 1e-4, "{pld}");
    assert!(
        pld["note"]
            .as_str()
            .unwrap()
            .contains("answered at interval"),
        "{pld}"
    );
    let [lo, hi] = [0, 1].map(|i| pld["bracket"][i].as_f64().unwrap());
    assert!(lo <= hi && hi.is_finite(), "{pld}");
    // RDP (an upper bound) is above the coarser bracket's lower end.
    let rdp = by("rdp")["epsilon"].as_f64().unwrap();
    assert!(lo <= rdp, "{lo} vs rdp {rdp}");
    // Without the budget the default grid answers without a note.
    let plain: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| *a != "--max-points" && *a != "65536")
        .collect();
    let o = dpclaims(&plain, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("note"));
}

/// `list --detection` prints every claim's detection threshold, smallest first.
#[test]
fn list_detection_sorts_by_threshold() {
    let o = dpclaims(&["list", "--detection"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    for c in dpclaims::claims::registry() {
        assert!(out.contains(c.info().id), "{} missing:\n{out}", c.info().id);
    }
    let thresholds: Vec<f64> = out
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect();
    assert!(thresholds.len() > 10, "{out}");
    assert!(thresholds.windows(2).all(|w| w[0] <= w[1]), "{out}");
}

/// `docs/claims.md` is what `dpclaims list --markdown` prints: generated, never typed by hand.
#[test]
fn claims_markdown_is_current() {
    let o = dpclaims(&["list", "--markdown"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/claims.md")).unwrap();
    assert!(
        String::from_utf8(o.stdout).unwrap() == committed,
        "docs/claims.md is stale: regenerate it with `dpclaims list --markdown > docs/claims.md`"
    );
}

/// `check` leads with one line per claim and the totals; the case table is `--cases`.
#[test]
fn check_prints_one_line_per_claim_and_the_cases_on_request() {
    let args = ["check", "renyi_discretization.*", "--max-trials", "200"];
    let o = dpclaims(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = String::from_utf8(o.stdout).unwrap();
    let claims: Vec<&str> = dpclaims::claims::registry()
        .into_iter()
        .map(|c| c.info().id)
        .filter(|id| id.starts_with("renyi_discretization."))
        .collect();
    // A header, one line per claim, the totals.
    assert_eq!(summary.lines().count(), claims.len() + 2, "{summary}");
    for id in &claims {
        assert!(
            summary
                .lines()
                .any(|l| l.split_whitespace().next() == Some(*id)),
            "{id} has no line in\n{summary}"
        );
    }
    assert!(summary.contains("the case table: --cases"), "{summary}");
    let mut with_cases = args.to_vec();
    with_cases.push("--cases");
    let table = String::from_utf8(dpclaims(&with_cases, None).stdout).unwrap();
    assert!(table.lines().count() > summary.lines().count(), "{table}");
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header[..2], ["claim", "verdict"], "{table}");
}

/// A conformance query line (what the suite's reproducers print) is accepted as it is by
/// `epsilon --event` and `delta --event`: its `id` ignored, its `delta` / `epsilon` field the
/// value asked at; a flag that differs from the field, or the other command, is an error
/// naming both.
#[test]
fn epsilon_and_delta_accept_a_conformance_query_line() {
    let dir = std::env::temp_dir().join(format!("dpclaims-query-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = r#""version":1,"neighbouring":"add-remove","event":{"type":"Gaussian","noise_multiplier":2.0}"#;
    let eps_line = dir.join("eps.json");
    std::fs::write(&eps_line, format!("{{{doc},\"id\":17,\"delta\":1e-5}}\n")).unwrap();
    let delta_line = dir.join("delta.json");
    std::fs::write(
        &delta_line,
        format!("{{{doc},\"id\":18,\"epsilon\":1.5}}\n"),
    )
    .unwrap();
    let plain = dir.join("doc.json");
    std::fs::write(&plain, format!("{{{doc}}}\n")).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let answer = |args: &[&str]| {
        let o = dpclaims(args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let mut v = json_lines(&o)[0].clone();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    // The field is the value: the same answer as the flag on the bare document.
    let by_line = answer(&["epsilon", "--event", &path(&eps_line), "--json"]);
    let by_flag = answer(&[
        "epsilon",
        "--event",
        &path(&plain),
        "--delta",
        "1e-5",
        "--json",
    ]);
    assert_eq!(by_line, by_flag);
    let agreeing = answer(&[
        "epsilon",
        "--event",
        &path(&eps_line),
        "--delta",
        "1e-5",
        "--json",
    ]);
    assert_eq!(agreeing, by_flag);
    let by_line = answer(&["delta", "--event", &path(&delta_line), "--json"]);
    let by_flag = answer(&[
        "delta",
        "--event",
        &path(&plain),
        "--epsilon",
        "1.5",
        "--json",
    ]);
    assert_eq!(by_line, by_flag);
    for (args, words) in [
        (
            vec!["epsilon", "--event", &path(&eps_line), "--delta", "1e-6"],
            &["--delta", "`delta` field"][..],
        ),
        (
            vec!["delta", "--event", &path(&delta_line), "--epsilon", "2"],
            &["--epsilon", "`epsilon` field"][..],
        ),
        (
            vec!["delta", "--event", &path(&eps_line)],
            &["dpclaims epsilon --event", "`delta` field"][..],
        ),
        (
            vec!["epsilon", "--event", &path(&plain)],
            &["--delta", "`delta` field"][..],
        ),
    ] {
        let o = dpclaims(&args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        for w in words {
            assert!(e.contains(w), "{args:?}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary directory holding `doc.json`: `E = 3` epochs of `RandomAllocation(Gaussian(2),
/// k, 8)`; and the JSON answer of `dpclaims args... extra...` (exit 0 asserted), without its
/// `seconds`.
fn random_allocation_doc(name: &str, k: u64) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("dpclaims-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("doc.json");
    std::fs::write(
        &doc,
        format!(
            r#"{{"version": 1, "neighbouring": "add-remove",
            "event": {{"type": "SelfComposed", "count": 3,
                      "event": {{"type": "RandomAllocation", "num_selected": {k}, "num_steps": 8,
                                "event": {{"type": "Gaussian", "noise_multiplier": 2.0}}}}}}}}"#
        ),
    )
    .unwrap();
    let doc = doc.to_str().unwrap().to_string();
    (dir, doc)
}

fn json_answer(args: &[&str], extra: &[&str]) -> serde_json::Value {
    let all = [args, extra].concat();
    let o = dpclaims(&all, None);
    assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
    let mut v = json_lines(&o)[0].clone();
    v.as_object_mut().unwrap().remove("seconds");
    v
}

/// `--sampling random-allocation --selected k` ($k$ of $t$ steps per epoch): the answer is the
/// PLD accountant's answer to the event document with `num_selected` $k$, with $t$ given as
/// `--steps-per-epoch` or as `--q` = k/t; it differs from $k=1$'s; a $k$ of 0, above $t$, or
/// given to another sampler exits 2 naming it.
#[test]
fn random_allocation_selected_answers_the_event_of_the_same_run() {
    let (dir, doc) = random_allocation_doc("ralloc-k", 2);
    let answer =
        |args: &[&str]| json_answer(args, &["--delta", "1e-5", "--interval", "1e-3", "--json"]);
    let by_event = answer(&["epsilon", "--event", &doc]);
    let run = [
        "epsilon",
        "--sampling",
        "random-allocation",
        "--sigma",
        "2",
        "--epochs",
        "3",
    ];
    let with = |extra: &[&str]| answer(&[&run[..], extra].concat());
    assert_eq!(
        with(&["--selected", "2", "--steps-per-epoch", "8"]),
        by_event
    );
    assert_eq!(with(&["--selected", "2", "--q", "0.25"]), by_event);
    let one = with(&["--steps-per-epoch", "8"]);
    assert_ne!(one["bracket"], by_event["bracket"], "{one}");
    for (extra, word) in [
        (
            &["--selected", "0", "--steps-per-epoch", "8"][..],
            "--selected 0",
        ),
        (
            &["--selected", "9", "--steps-per-epoch", "8"][..],
            "num_selected",
        ),
        (&["--selected", "3", "--q", "0.4"][..], "3/q"),
    ] {
        let o = dpclaims(&[&run[..], extra, &["--delta", "1e-5"]].concat(), None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(
            e.contains(word) && !e.contains("panicked"),
            "{extra:?}: {e}"
        );
    }
    let o = dpclaims(
        &[
            "epsilon",
            "--q",
            "0.1",
            "--sigma",
            "2",
            "--steps",
            "10",
            "--delta",
            "1e-5",
            "--selected",
            "2",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--selected"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--sampling random-allocation` (issue 30, balls-in-bins: $k=1$): the answer is the PLD
/// accountant's answer to the event document of the same run (`E` epochs of
/// `RandomAllocation(Gaussian, 1, t)`), for ε and δ, with `t` and `E` given as
/// `--steps-per-epoch`/`--epochs` or as `--q` = 1/t and `--steps` = E t (the run with `t` and `E`
/// swapped answers otherwise); what it does not cover exits 2 with a message naming the
/// flag, never a panic.
#[test]
fn random_allocation_sampling_answers_the_event_of_the_same_run() {
    let (dir, doc) = random_allocation_doc("ralloc", 1);
    let answer = |args: &[&str]| json_answer(args, &["--interval", "1e-3", "--json"]);
    let run = ["--sampling", "random-allocation", "--sigma", "2"];
    for (command, flag, value) in [("epsilon", "--delta", "1e-5"), ("delta", "--epsilon", "1")] {
        let by_event = answer(&[command, "--event", &doc, flag, value]);
        let with = |extra: &[&str]| {
            let mut args = vec![command, flag, value];
            args.extend(run);
            args.extend(extra);
            answer(&args)
        };
        let by_flags = with(&["--steps-per-epoch", "8", "--epochs", "3"]);
        assert_eq!(by_flags, by_event);
        assert_eq!(with(&["--q", "0.125", "--steps", "24"]), by_event);
        assert_eq!(
            with(&["--steps-per-epoch", "8", "--steps", "24", "--q", "0.125"]),
            by_event
        );
        let b = by_event["bracket"].as_array().unwrap();
        assert!(
            b[0].as_f64().unwrap() <= b[1].as_f64().unwrap(),
            "{by_event}"
        );
        // Replace-one: the same document under replace-one (two hops), a lower end above the
        // add/remove one (the antipodal pair: +C against -C in the same step), a larger upper
        // end, and a note that says how.
        let replace = with(&[
            "--steps-per-epoch",
            "8",
            "--epochs",
            "3",
            "--relation",
            "replace-one",
        ]);
        let r = replace["bracket"].as_array().unwrap();
        assert!(r[0].as_f64().unwrap() > b[0].as_f64().unwrap(), "{replace}");
        assert!(
            r[0].as_f64().unwrap() <= r[1].as_f64().unwrap(),
            "{replace}"
        );
        assert!(r[1].as_f64().unwrap() > b[1].as_f64().unwrap(), "{replace}");
        let note = replace["note"].as_str().unwrap();
        assert!(note.contains("two add/remove hops"), "{replace}");
        assert!(note.contains("antipodal pair"), "{replace}");
        let swapped = with(&["--steps-per-epoch", "3", "--epochs", "8"]);
        assert_ne!(swapped["bracket"], by_event["bracket"], "{swapped}");
    }
    let base = [
        "epsilon",
        "--delta",
        "1e-5",
        "--sampling",
        "random-allocation",
        "--sigma",
        "2",
    ];
    for (extra, words) in [
        (
            &[
                "--steps-per-epoch",
                "8",
                "--epochs",
                "3",
                "--accountant",
                "rdp",
            ][..],
            &["PLD accountant only"][..],
        ),
        (
            &["--steps-per-epoch", "8", "--epochs", "3", "--orders", "2,4"],
            &["--orders"],
        ),
        (
            &["--q", "0.3", "--steps", "30"],
            &["1/q", "--steps-per-epoch"],
        ),
        (
            &["--q", "0.2", "--steps-per-epoch", "8", "--epochs", "3"],
            &["--q 0.2", "--steps-per-epoch 8", "disagree"],
        ),
        (
            &["--steps-per-epoch", "8", "--steps", "25"],
            &["--steps 25", "whole number of epochs"],
        ),
        (
            &["--steps-per-epoch", "8", "--epochs", "3", "--steps", "25"],
            &["--steps 25", "--epochs 3"],
        ),
        (
            &["--steps-per-epoch", "0", "--epochs", "3"],
            &["--steps-per-epoch 0"],
        ),
        (
            &["--steps-per-epoch", "8", "--epochs", "0"],
            &["--epochs 0"],
        ),
        (&["--q", "1.5", "--steps", "3"], &["`q` = 1.5"]),
        (
            &[
                "--steps-per-epoch",
                "8",
                "--epochs",
                "3",
                "--phase",
                "0.1,2,10",
            ],
            &["--phase"],
        ),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let o = dpclaims(&args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.starts_with("error: ") && !e.contains("panicked"),
            "{args:?}: {e}"
        );
        for w in words {
            assert!(e.contains(w), "{args:?}: {e}");
        }
    }
    // sigma 0, and t and E given to another sampler.
    for (args, word) in [
        (
            &[
                "epsilon",
                "--delta",
                "1e-5",
                "--sampling",
                "random-allocation",
                "--sigma",
                "0",
                "--steps-per-epoch",
                "8",
                "--epochs",
                "3",
            ][..],
            "`sigma` = 0",
        ),
        (
            &[
                "epsilon",
                "--delta",
                "1e-5",
                "--sigma",
                "2",
                "--q",
                "0.1",
                "--steps-per-epoch",
                "8",
                "--epochs",
                "3",
            ],
            "--sampling random-allocation",
        ),
    ] {
        let o = dpclaims(args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.starts_with("error: ") && e.contains(word),
            "{args:?}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `compare`: every row is what the sampler's own command answers for the same run (Poisson
/// and random allocation: `epsilon --sampling ...`, bit for bit; no amplification and the
/// shuffled upper end: the Gaussian closed form; the shuffled lower end: the maximum
/// statistic's PLD), uncovered pairs say "not derived", no amplification is above every upper
/// end of its relation, and the table and the plot say which relation each row is under.
#[test]
fn compare_rows_are_the_samplers_own_answers() {
    use dpclaims_theorems::privacy::gaussian;
    use dpclaims_theorems::privacy::pld::{Focus, PldOptions};
    use dpclaims_theorems::privacy::shuffle;
    // n = 80, b = 10: q = 1/8, t = 8 steps per epoch, E = 3, T = 24.
    let (delta, sigma, t, epochs) = (1e-5, 2.0, 8u64, 3u64);
    let run = [
        "compare",
        "--n",
        "80",
        "--batch",
        "10",
        "--epochs",
        "3",
        "--sigma",
        "2",
        "--delta",
        "1e-5",
        "--interval",
        "1e-3",
    ];
    let with = |extra: &[&str]| {
        let mut args = run.to_vec();
        args.extend(extra);
        let o = dpclaims(&args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        o
    };
    let rows = json_lines(&with(&["--json"]));
    assert_eq!(rows.len(), 8, "{rows:?}");
    let get = |sampler: &str, relation: &str| {
        rows.iter()
            .find(|r| r["sampler"] == sampler && r["relation"] == relation)
            .unwrap_or_else(|| panic!("no row {sampler} {relation}: {rows:?}"))
    };
    let ends = |r: &serde_json::Value| {
        let (lo, hi) = (r["lower"].as_f64(), r["upper"].as_f64());
        (
            lo.unwrap_or_else(|| panic!("{r}")),
            hi.unwrap_or_else(|| panic!("{r}")),
        )
    };
    for r in &rows {
        assert_eq!(
            (r["n"].as_u64(), r["batch"].as_u64()),
            (Some(80), Some(10)),
            "{r}"
        );
        assert_eq!(
            (r["steps_per_epoch"].as_u64(), r["steps"].as_u64()),
            (Some(t), Some(t * epochs))
        );
    }
    // Poisson and random allocation: the commands' brackets, exactly.
    let bracket = |args: &[&str]| {
        let mut all = vec![
            "epsilon",
            "--delta",
            "1e-5",
            "--sigma",
            "2",
            "--interval",
            "1e-3",
            "--json",
        ];
        all.extend(args);
        let o = dpclaims(&all, None);
        assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
        let v = json_lines(&o)[0].clone();
        (
            v["bracket"][0].as_f64().unwrap(),
            v["bracket"][1].as_f64().unwrap(),
        )
    };
    for relation in ["add-remove", "replace-one"] {
        let poisson = bracket(&[
            "--sampling",
            "poisson",
            "--q",
            "0.125",
            "--steps",
            "24",
            "--accountant",
            "pld",
            "--relation",
            relation,
        ]);
        assert_eq!(ends(get("poisson", relation)), poisson, "{relation}");
    }
    let ra = bracket(&[
        "--sampling",
        "random-allocation",
        "--steps-per-epoch",
        "8",
        "--epochs",
        "3",
    ]);
    assert_eq!(ends(get("random-allocation", "add-remove")), ra);
    let ra_replace = bracket(&[
        "--sampling",
        "random-allocation",
        "--steps-per-epoch",
        "8",
        "--epochs",
        "3",
        "--relation",
        "replace-one",
    ]);
    assert_eq!(ends(get("random-allocation", "replace-one")), ra_replace);
    // No amplification: the Gaussian mechanism over all T steps (sensitivity 1 or 2), and the
    // shuffled upper end: once per epoch with sensitivity 2; each a bracket around the closed
    // form at the exact mu.
    let closed = |mu: f64| gaussian::epsilon_bracket(mu, mu, delta).unwrap();
    let around = |(lo, hi): (f64, f64), (a, b): (f64, f64), what: &str| {
        assert!(
            lo <= a && b <= hi && hi - lo < 1e-9 * hi,
            "{what}: [{lo}, {hi}] vs [{a}, {b}]"
        );
    };
    let steps = (t * epochs) as f64;
    around(
        ends(get("no-amplification", "add-remove")),
        closed(steps.sqrt() / sigma),
        "no amp a/r",
    );
    around(
        ends(get("no-amplification", "replace-one")),
        closed(2.0 * steps.sqrt() / sigma),
        "no amp r/1",
    );
    let (shuffle_lo, shuffle_hi) = ends(get("shuffle", "replace-one"));
    let upper = closed(2.0 * (epochs as f64).sqrt() / sigma);
    assert!(
        shuffle_hi >= upper.1 && shuffle_hi - upper.1 < 1e-9 * upper.1,
        "{shuffle_hi} vs {upper:?}"
    );
    let opts = PldOptions {
        interval: 1e-3,
        ..PldOptions::default()
    }
    .focused(Focus::Delta(delta));
    let lower = shuffle::lower_plds(t, sigma, epochs, &opts)
        .unwrap()
        .iter()
        .map(|p| p.epsilon(delta))
        .fold(0.0, f64::max);
    assert_eq!(shuffle_lo, lower);
    assert!(0.0 < shuffle_lo && shuffle_lo < shuffle_hi);
    // Not derived: no number.
    for (sampler, relation) in [("shuffle", "add-remove")] {
        let r = get(sampler, relation);
        assert!(r.get("lower").is_none() && r.get("upper").is_none(), "{r}");
        assert!(
            r["not_derived"].as_str().is_some_and(|s| !s.is_empty()),
            "{r}"
        );
    }
    // No amplification is above every upper end of its relation.
    for relation in ["add-remove", "replace-one"] {
        let (none_lo, _) = ends(get("no-amplification", relation));
        for r in rows.iter().filter(|r| r["relation"] == relation) {
            if let Some(hi) = r["upper"].as_f64() {
                assert!(hi <= none_lo || r["sampler"] == "no-amplification", "{r}");
            }
        }
    }
    // The table: one group per relation, "not derived" where there is no number, the same
    // numbers as the JSON (six decimals).
    let text = String::from_utf8(with(&[]).stdout).unwrap();
    let add = text.find("under add-remove").expect("add/remove group");
    let rep = text.find("under replace-one").expect("replace-one group");
    assert!(add < rep, "{text}");
    assert_eq!(text.matches("not derived").count(), 1, "{text}");
    assert!(text[add..rep].contains(&format!("{:.6}", ra.1)), "{text}");
    assert!(text[rep..].contains(&format!("{shuffle_lo:.6}")), "{text}");
    // One relation: one group, four rows.
    let one = json_lines(&with(&["--relation", "replace-one", "--json"]));
    assert_eq!(one.len(), 4);
    assert!(one.iter().all(|r| r["relation"] == "replace-one"));
    // The plot: an SVG naming each sampler with its relation.
    let dir = std::env::temp_dir().join(format!("dpclaims-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("compare.svg");
    let o = with(&[
        "--plot",
        file.to_str().unwrap(),
        "--plot-points",
        "3",
        "--plot-interval",
        "1e-2",
    ]);
    assert!(stderr(&o).contains("3 values of sigma"), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&file).unwrap();
    roxmltree::Document::parse(&svg).expect("well-formed SVG");
    for name in [
        "poisson, add-remove",
        "poisson, replace-one",
        "random allocation (k=1), add-remove",
        "shuffling, replace-one",
        "no amplification, add-remove",
        "no amplification, replace-one",
        "n = 80, b = 10, E = 3",
    ] {
        assert!(svg.contains(name), "{name} missing from the plot");
    }
    assert!(svg.contains("random allocation (k=1), replace-one") && !svg.contains("NaN"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_bad_input_exits_2() {
    for (extra, word) in [
        (
            &["--n", "10", "--batch", "11", "--sigma", "1"][..],
            "`batch` = 11",
        ),
        (
            &["--n", "10", "--batch", "0", "--sigma", "1"],
            "`batch` = 0",
        ),
        (&["--n", "0", "--batch", "1", "--sigma", "1"], "`n` = 0"),
        (
            &["--n", "10", "--batch", "2", "--sigma", "0"],
            "`sigma` = 0",
        ),
        (
            &["--n", "10", "--batch", "2", "--sigma", "-1"],
            "`sigma` = -1",
        ),
        (
            &["--n", "10", "--batch", "2", "--sigma", "NaN"],
            "`sigma` = NaN",
        ),
        (
            &["--n", "10", "--batch", "2", "--sigma", "1", "--epochs", "0"],
            "`epochs` = 0",
        ),
        (
            &["--n", "10", "--batch", "2", "--sigma", "1", "--delta", "1"],
            "`delta` = 1",
        ),
        (
            &[
                "--n",
                "10",
                "--batch",
                "2",
                "--sigma",
                "1",
                "--interval",
                "0",
            ],
            "`interval` = 0",
        ),
        (
            &[
                "--n", "10", "--batch", "2", "--sigma", "1", "--plot", "x.png",
            ],
            "SVG",
        ),
        (
            &[
                "--n",
                "10",
                "--batch",
                "2",
                "--sigma",
                "1",
                "--plot",
                "x.svg",
                "--plot-points",
                "1",
            ],
            "--plot-points 1",
        ),
    ] {
        let mut args = vec!["compare"];
        args.extend(extra);
        for (flag, default) in [("--epochs", "2"), ("--delta", "1e-5")] {
            if !extra.contains(&flag) {
                args.extend([flag, default]);
            }
        }
        let o = dpclaims(&args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.starts_with("error: ") && !e.contains("panicked"),
            "{args:?}: {e}"
        );
        assert!(e.contains(word), "{args:?}: {e}");
        assert!(o.stdout.is_empty(), "{args:?}: no table on bad input");
    }
}
