//! The claim holds on every case, its mutant is caught, and the outcomes are recorded.

use own_claim::NoisyGdRdp;

#[test]
fn noisy_gd_convergent_rdp() {
    let outcomes = dpclaims::testing::assert_claim(&NoisyGdRdp);
    insta::assert_json_snapshot!(dpclaims::testing::snapshot_value(&outcomes));
}

/// The crate's binary: `check` exits 0, `check --mutant noise-halved` exits 1.
#[test]
fn the_binary_checks_the_claim_and_catches_the_mutant() {
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_own-claim"))
            .args(args)
            .output();
        o.expect("the binary runs").status.code()
    };
    assert_eq!(run(&["check", "--json"]), Some(0));
    assert_eq!(run(&["check", "--mutant", "noise-halved"]), Some(1));
    assert_eq!(run(&["check", "--set", "eta=5"]), Some(2));
}
