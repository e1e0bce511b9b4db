//! The built-in claims' crate (`dpclaims-papers`) through its public API: the registry, the
//! committed detection table, declared tautologies, and two claims' internals. These were its
//! unit tests; here they keep it from being compiled a second time as a test harness
//! (`[lib] test = false` in `papers/Cargo.toml`).

use dpclaims::claims::{Claim, RunSpec, registry, select};
use dpclaims::verdict::Relation;
use dpclaims_core::params;

fn claim(id: &str) -> &'static dyn Claim {
    registry()
        .into_iter()
        .find(|c| c.info().id == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

#[test]
fn the_committed_table_parses() {
    assert!(
        dpclaims::papers::detection().is_some(),
        "docs/detection.json does not parse"
    );
}

#[test]
fn select_filters_any_set_and_refuses_duplicate_ids() {
    let all = registry();
    let (a, b) = (all[0], all[1]);
    let picked = select(&[b, a], &[a.info().id.to_string()]).unwrap();
    assert_eq!(picked.len(), 1);
    assert_eq!(picked[0].info().id, a.info().id);
    assert_eq!(select(&[b, a], &[]).unwrap().len(), 2);
    match select(&[a, b, a], &[]) {
        Err(dpclaims::Error::DuplicateClaim(id)) => assert_eq!(id, a.info().id),
        other => panic!(
            "expected a duplicate-id error, got {:?}",
            other.map(|v| v.len())
        ),
    }
    assert!(matches!(
        select(&[a], &["nothing.*".to_string()]),
        Err(dpclaims::Error::UnknownClaim(_))
    ));
}

/// Issue 18 item 5: the outcomes true by construction are declared, and matched by value.
#[test]
fn tautologies_are_declared_and_matched() {
    let info = |id: &str| claim(id).info();
    let calib = info("subspace.privacy.calib");
    let rdp = params! { "accountant" => "RDP, integer orders 2..511", "c2" => 2.157 };
    let pld = params! { "accountant" => "PLD, pessimistic", "c2" => 2.157 };
    assert!(calib.tautology(&rdp).is_some());
    assert!(calib.tautology(&pld).is_none());
    let rank = info("subspace.thm5.rank");
    assert!(rank.tautology(&params! { "tau" => 0.0 }).is_some());
    assert!(rank.tautology(&params! { "tau" => 0.15 }).is_none());
    let rate = info("subspace.rate");
    assert!(rate.tautology(&params! { "method" => "pdp-sgd" }).is_some());
    assert!(rate.tautology(&params! { "method" => "dp-sgd" }).is_none());
    assert!(
        !info("stability.lemma5.cond")
            .mutants
            .iter()
            .any(|m| m.name == "constant-step")
    );
}

#[test]
fn ids_are_unique_and_mutants_present() {
    let all = registry();
    let mut ids: Vec<_> = all.iter().map(|c| c.info().id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    assert!(
        all.iter()
            .all(|c| c.info().known_false || !c.info().mutants.is_empty())
    );
}

const RUN: RunSpec<'static> = RunSpec {
    seed: 3,
    mutant: None,
    shard: None,
    perturbation: 0.0,
};

/// The sampled step claims key their streams by `stream_label`: a non-random parameter
/// (`tolerance`, `trials`) added to a case moves no number.
#[test]
fn non_random_parameters_stay_out_of_the_step_streams() {
    for id in [
        "stability.lemma5.step.nonexpansive",
        "multipass.lemma4.step.hessian.jensen",
    ] {
        let c = claim(id);
        let mut case = c.cases().remove(0);
        if case.contains("trials") {
            case.set("trials", 8.into());
        }
        let before = c.measure(&case, RUN).unwrap();
        case.set("tolerance", 0.25.into());
        let after = c.measure(&case, RUN).unwrap();
        assert_eq!(
            before.iter().map(|m| &m.statistic).collect::<Vec<_>>(),
            after.iter().map(|m| &m.statistic).collect::<Vec<_>>(),
            "{id}"
        );
    }
}

/// On P-lin a negative contraction ($\lambda\eta>1$) makes the derived bound strict: it is
/// checked as a bound there, not reproduced (`dpclaims search stability.lemma5.derived` found
/// the equality refuted at lambda eta = 1.67).
#[test]
fn lemma5_derived_reproduces_only_when_every_contraction_is_non_negative() {
    let c = claim("stability.lemma5.derived");
    let run = |lambda: f64| {
        // The first default case (E1, P-lin) on 200 trials, checkpoint t = 20.
        let mut case = c.cases().remove(0);
        assert_eq!(case.str("instance").unwrap(), "lin");
        case.set("trials", 200.into());
        case.set("t", 20.into());
        case.set("lambda", lambda.into());
        case.set("tolerance", 0.05.into());
        let spec = RunSpec { seed: 1, ..RUN };
        c.measure(&case, spec).map(|m| m[0].relation)
    };
    assert!(matches!(run(5.0), Ok(Relation::Reproduces { .. })));
    assert!(matches!(run(15.0), Ok(Relation::AtMost)));
}
