//! Seed 000 multipass: THEOREMS.md §3 reference values of Proposition 1 on P-quad.

use approx::assert_relative_eq;
use dpclaims::harness::{CheckOptions, check};

#[test]
fn proposition1_reference_table() {
    let outcomes = check(
        &dpclaims::claims::registry(),
        &CheckOptions {
            patterns: vec!["multipass.prop1".into()],
            ..CheckOptions::default()
        },
    )
    .unwrap();
    // (LHS, inf-term, gradient term) for eta = 0.3; 0.5/sqrt(t) A, B; 1/t A, B.
    let table = [
        (803.497171, 627.195498, 241.049151),
        (759.851887, 727.675323, 51.032864),
        (760.962942, 727.675323, 50.896606),
        (976.978480, 960.494786, 30.689252),
        (979.897929, 960.494786, 30.560744),
    ];
    for (o, (lhs, inf, grad)) in outcomes.iter().zip(table) {
        assert_relative_eq!(o.measured.mean, lhs, max_relative = 1e-8);
        assert_relative_eq!(o.params.f64("infimum").unwrap(), inf, max_relative = 1e-8);
        assert_relative_eq!(
            o.params.f64("gradient_term").unwrap(),
            grad,
            max_relative = 1e-8
        );
    }
}
