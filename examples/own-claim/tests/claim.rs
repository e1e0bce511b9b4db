//! The claim holds on every case, its mutant is caught, and the outcomes are recorded.

use own_claim::NoisyGdRdp;

#[test]
fn noisy_gd_convergent_rdp() {
    let outcomes = dpclaims::testing::assert_claim(&NoisyGdRdp);
    insta::assert_json_snapshot!(dpclaims::testing::snapshot_value(&outcomes));
}
