//! Proof maps: every map refers to registered claims, covers the results it must, and its
//! steps come out as registered (failed exactly where the printed step is known false, with a
//! corrected step that holds); `dpclaims proofs --json` lists them.

use dpclaims::claims::registry;
use dpclaims::harness::CheckOptions;
use dpclaims::proofs::{self, Check, StepStatus};

/// The results of seed 000's Sections 4-5 (and the cited results they apply) that must have a map.
const SEED_000_RESULTS: &[&str] = &[
    "last_iterate.thm1",
    "multipass.thm2",
    "last_iterate.lemma1",
    "multipass.lemma2",
    "multipass.lemma3",
    "multipass.lemma4",
    "stability.lemma5",
    "multipass.lemma6",
    "multipass.prop1",
    "stability.prop2",
    "multipass.prop3",
    "last_iterate.prop4",
    "multipass.prop5",
    "multipass.cor1",
    "multipass.cor2",
    "last_iterate.cor3",
    "last_iterate.fkt",
];

/// The results of seeds 001, 002 and 004 whose proofs (or proof outlines) survive in our copies,
/// and the cited results they apply.
const SEEDS_001_002_004_RESULTS: &[&str] = &[
    "contraction.postprocessing",
    "contraction.gauss_kernel",
    "contraction.lemma1",
    "contraction.cdpi",
    "contraction.poisson",
    "contraction.main",
    "contraction.appA",
    "contraction.prop4",
    "contraction.thm3",
    "adaptive.assumptions",
    "adaptive.thm1",
    "adaptive.thm3",
    "adaptive.uniform_convergence",
    "renyi_discretization.thm12",
    "renyi_discretization.lemma13",
    "renyi_discretization.main",
];

/// The results of seed 003 whose proofs survive in our copy as outlines (Appendices A-C), and
/// its privacy statement.
const SEED_003_RESULTS: &[&str] = &[
    "subspace.privacy",
    "subspace.thm1",
    "subspace.thm2",
    "subspace.gamma2",
    "subspace.thm3",
    "subspace.thm4",
    "subspace.thm5",
];

#[test]
fn maps_refer_to_registered_claims_and_cover_seed_000() {
    let all = registry();
    let maps = proofs::maps();
    for id in proofs::claim_ids(&maps) {
        assert!(
            all.iter().any(|c| c.info().id == id),
            "proof step claim {id} is not registered"
        );
    }
    for r in SEED_000_RESULTS
        .iter()
        .chain(SEEDS_001_002_004_RESULTS)
        .chain(SEED_003_RESULTS)
    {
        assert!(maps.iter().any(|m| m.id == *r), "no proof map for {r}");
    }
    for m in &maps {
        assert!(!m.steps.is_empty(), "{} has no step", m.id);
        for s in m.steps {
            match s.check {
                Check::NotCheckable { reason } | Check::Definition { reason } => {
                    assert!(!reason.trim().is_empty(), "{}: a step without reason", m.id)
                }
                Check::Statement { id, reason } => {
                    assert!(!reason.trim().is_empty(), "{}: a step without reason", m.id);
                    let info = all.iter().find(|c| c.info().id == id).unwrap().info();
                    // A statement claim checks the step only if it can fail: it has mutants.
                    assert!(!info.mutants.is_empty(), "{}: statement claim {id}", m.id);
                }
                Check::Claim { id, corrected } => {
                    let info = all.iter().find(|c| c.info().id == id).unwrap().info();
                    // A printed step known false has its corrected step beside it, and only then.
                    assert_eq!(
                        info.known_false,
                        corrected.is_some(),
                        "{}: step claim {id} known_false = {} but corrected = {corrected:?}",
                        m.id,
                        info.known_false
                    );
                    if let Some(c) = corrected {
                        let fix = all.iter().find(|x| x.info().id == c).unwrap().info();
                        assert!(!fix.known_false && !fix.mutants.is_empty(), "{c}");
                    }
                }
            }
        }
    }
    let selected = proofs::select(
        &maps,
        &[
            "last_iterate.*".to_string(),
            "multipass.*".to_string(),
            "stability.*".to_string(),
        ],
    )
    .unwrap();
    let steps: usize = selected.iter().map(|m| m.steps.len()).sum();
    assert!(steps >= 40, "only {steps} steps");
    assert!(proofs::select(&maps, &["nothing.*".to_string()]).is_err());
}

/// The statement claims' size: in the fast tier the cap its claim test runs it with
/// (`tests/claims.rs`, FAST), under `DPCLAIMS_FULL=1` its default size (what `dpclaims proofs`
/// runs).
fn statement_cap(id: &str) -> Option<u64> {
    if dpclaims::testing::full_tier() {
        None
    } else {
        crate::claims::fast_sizes(id).0
    }
}

#[test]
fn steps_fail_exactly_where_known_false_and_corrections_hold() {
    let all = registry();
    let maps = proofs::maps();
    let opts = CheckOptions {
        seed: crate::SEED,
        max_trials: Some(200),
        // The statement claims' measurements of their claim tests (tests/claims.rs), when
        // those ran first: the same claims, cases and seed.
        remember: true,
        ..CheckOptions::default()
    };
    let results = proofs::run_sized(&all, &maps, &opts, &statement_cap).unwrap();
    // One record per paper: seed 000's snapshot stays as it was when the other papers joined.
    let mut records: std::collections::BTreeMap<&str, serde_json::Map<String, serde_json::Value>> =
        Default::default();
    for r in &results {
        for s in &r.results {
            match s.status {
                StepStatus::NotCheckable | StepStatus::Definition => {}
                StepStatus::Failed => {
                    assert!(s.known_false, "{} failed unexpectedly", s.step);
                    assert_eq!(
                        s.corrected_status,
                        Some(StepStatus::Held),
                        "{}: its corrected step",
                        s.step
                    );
                }
                StepStatus::Held => assert!(!s.known_false, "{} held", s.step),
                other => panic!("{}: {other:?}", s.step),
            }
            assert!(!s.unexpected());
            records
                .entry(r.map.paper)
                .or_default()
                .insert(s.step.clone(), s.status.as_str().into());
        }
    }
    let papers = proofs::paper_summaries(&results);
    assert_eq!(papers.len(), records.len());
    for p in &papers {
        let s = p.summary;
        assert_eq!(s.steps, s.checked + s.not_checkable + s.definitions);
        assert_eq!(s.checked, s.held + s.failed);
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for p in &papers {
            let name = match &p.paper[..3] {
                "000" => "proofs.seed000".to_string(),
                seed => format!("proofs.seed{seed}"),
            };
            insta::assert_json_snapshot!(
                name,
                serde_json::json!({ "steps": records[p.paper], "papers": [p] })
            );
        }
    });
    // The report's section renders the same maps.
    let md = proofs::markdown(&results, "##");
    assert!(md.starts_with("## Proofs"));
    assert!(md.contains("`multipass.lemma4.step.gauss_integral.norm` (corrected: `multipass.lemma4.step.gauss_integral`)"));
}

#[test]
fn cli_lists_every_map_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args([
            "proofs",
            "last_iterate.*",
            "multipass.*",
            "stability.*",
            "--json",
            "--seed",
            "7",
        ])
        .output()
        .expect("the binary runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let maps = doc["maps"].as_array().unwrap();
    assert_eq!(maps.len(), SEED_000_RESULTS.len());
    let steps: usize = maps
        .iter()
        .map(|m| m["results"].as_array().unwrap().len())
        .sum();
    assert!(steps >= 40);
    assert_eq!(doc["papers"][0]["steps"].as_u64(), Some(steps as u64));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_dpclaims"))
        .args(["proofs", "nothing.*"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// Seed 000's exact steps with closed forms, decided on their whole box: each printed false step
/// refuted (with a point that fails plainly), its corrected form proved, the corrected form's
/// mutant refuted; the Theorem 1 consistency step's correction is undecided within a small
/// budget (a 7-axis box whose sides share their largest terms) and says how much is left.
#[test]
fn seed_000_exact_steps_are_decided_on_their_box() {
    use dpclaims::prove::{Budget, ProofVerdict, prove};
    let all = registry();
    let get = |id: &str| *all.iter().find(|c| c.info().id == id).unwrap();
    let budget = Budget {
        boxes: 5_000,
        seconds: 30.0,
    };
    for (printed, corrected, mutant) in [
        (
            "last_iterate.cor3.step.lambda",
            "last_iterate.cor3.step.lambda.corrected",
            "bound-ln-plus-half",
        ),
        (
            "last_iterate.cor3.step.harmonic",
            "last_iterate.cor3.step.harmonic.corrected",
            "bound-ln-halved",
        ),
    ] {
        let r = prove(get(printed), None, budget).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Refuted, "{printed}");
        let c = r.counterexample.unwrap();
        assert!(c.measured > c.bound && c.command.contains(printed));
        let r = prove(get(corrected), None, budget).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Proved, "{corrected}");
        let m = prove(get(corrected), Some(mutant), budget).unwrap();
        assert_eq!(
            m.verdict,
            ProofVerdict::Refuted,
            "{corrected} --mutant {mutant}"
        );
    }
    let r = prove(get("last_iterate.thm1.step.from_cor3"), None, budget).unwrap();
    assert_eq!(r.verdict, ProofVerdict::Refuted);
    let fix = "last_iterate.thm1.step.from_cor3.corrected";
    let r = prove(get(fix), None, budget).unwrap();
    assert_eq!(r.verdict, ProofVerdict::Undecided);
    assert!(r.undecided_share > 0.0 && !r.undecided_boxes.is_empty());
    let m = prove(get(fix), Some("printed-w-coefficient"), budget).unwrap();
    assert_eq!(m.verdict, ProofVerdict::Refuted);
    // Corollary 3's last step (false for T <= 5) and Theorem 1's privacy term for
    // eps > ln(1/delta): refuted on their boxes; the corrected privacy term (eps <= ln(1/delta))
    // is not refuted, its leftover volume (along the hypothesis' edge eps = ln(1/delta), where
    // the two sides are equal) said, and its mutant refuted.
    for printed in [
        "last_iterate.cor3.step.w_term",
        "last_iterate.thm1.step.privacy_term.large_epsilon",
    ] {
        let r = prove(get(printed), None, budget).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Refuted, "{printed}");
    }
    let fix = "last_iterate.thm1.step.privacy_term";
    let r = prove(get(fix), None, budget).unwrap();
    assert_ne!(r.verdict, ProofVerdict::Refuted, "{fix}");
    assert!(r.proved_share + r.excluded_share > 0.9, "{r:?}");
    let m = prove(get(fix), Some("statement-term-halved"), budget).unwrap();
    assert_eq!(m.verdict, ProofVerdict::Refuted);
}

/// The proof maps with the prover: steps with closed forms are decided on their box (the printed
/// false ones refuted, their corrections proved), no step is proved on its box yet failed at an
/// instance, and the per-paper counts add up.
#[test]
fn proof_maps_decide_closed_form_steps_on_their_box() {
    use dpclaims::prove::{Budget, ProofVerdict};
    let all = registry();
    let maps = proofs::select(&proofs::maps(), &["last_iterate.*".to_string()]).unwrap();
    let opts = CheckOptions {
        seed: crate::SEED,
        max_trials: Some(50),
        remember: true,
        ..CheckOptions::default()
    };
    let mut results = proofs::run_sized(&all, &maps, &opts, &statement_cap).unwrap();
    let budget = Budget {
        boxes: 5_000,
        seconds: 30.0,
    };
    proofs::prove_steps(&all, &mut results, budget).unwrap();
    assert!(proofs::contradictions(&results).is_empty());
    let steps: Vec<_> = results.iter().flat_map(|r| &r.results).collect();
    let lambda = steps
        .iter()
        .find(
            |s| matches!(s.check, Check::Claim { id, .. } if id == "last_iterate.cor3.step.lambda"),
        )
        .unwrap();
    assert_eq!(lambda.on_box.unwrap().verdict, ProofVerdict::Refuted);
    assert_eq!(
        lambda.corrected_on_box.unwrap().verdict,
        ProofVerdict::Proved
    );
    let papers = proofs::paper_summaries(&results);
    let s = papers[0].summary;
    assert!(s.refuted >= 3 && s.refuted <= s.failed, "{s:?}");
    assert_eq!(
        s.steps,
        s.held + s.failed + s.inconclusive + s.not_checkable + s.definitions
    );
    let text = proofs::text(&results);
    assert!(text.contains("refuted on the box (corrected: proved on the box)"));
    assert!(
        proofs::markdown(&results, "##")
            .contains("| definitions | proved on the box | held at instances |")
    );
}

/// Every step claim that is an exact identity (algebra, a substitution, a certificate) is
/// proved, and each of its mutants (a perturbed coefficient) refuted, by the exact prover.
#[test]
fn identity_steps_are_proved_exactly_and_their_mutants_refuted() {
    use dpclaims::prove::{Budget, ProofVerdict, prove};
    let all = registry();
    let maps = proofs::maps();
    let budget = Budget {
        boxes: 1,
        seconds: 10.0,
    };
    let mut n = 0;
    for id in proofs::claim_ids(&maps) {
        let c = *all.iter().find(|c| c.info().id == id).unwrap();
        if c.identity().is_none() {
            continue;
        }
        n += 1;
        let r = prove(c, None, budget).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Proved, "{id}: {r:?}");
        assert!(!c.info().mutants.is_empty(), "{id} has no mutant");
        for m in c.info().mutants {
            let r = prove(c, Some(m.name), budget).unwrap();
            assert_eq!(r.verdict, ProofVerdict::Refuted, "{id} --mutant {}", m.name);
            let x = r.counterexample.unwrap();
            assert!(x.measured != x.bound, "{id} --mutant {}", m.name);
        }
    }
    assert!(n >= 21, "only {n} identity steps");
}

/// The closed-form steps of seed 004 (Theorem 12's closing remark, Lemma 13's intuition): proved
/// on their whole box, and each mutant refuted at a point.
#[test]
fn closed_form_steps_of_seed_004_are_proved_on_their_box() {
    use dpclaims::prove::{Budget, ProofVerdict, prove};
    let all = registry();
    let budget = Budget {
        boxes: 200_000,
        seconds: 60.0,
    };
    for id in [
        "renyi_discretization.thm12.step.proportional",
        "renyi_discretization.lemma13.step.brownian",
    ] {
        let c = *all.iter().find(|c| c.info().id == id).unwrap();
        assert!(c.closed_form().is_some(), "{id}");
        let r = prove(c, None, budget).unwrap();
        assert_eq!(r.verdict, ProofVerdict::Proved, "{id}: {r:?}");
        assert!(!c.info().mutants.is_empty(), "{id} has no mutant");
        for m in c.info().mutants {
            let r = prove(c, Some(m.name), budget).unwrap();
            assert_eq!(r.verdict, ProofVerdict::Refuted, "{id} --mutant {}", m.name);
            let x = r.counterexample.unwrap();
            assert!(x.command.contains(m.name), "{}", x.command);
        }
    }
}
