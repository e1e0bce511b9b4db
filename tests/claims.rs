//! Each claim, at its default size, must come out respected (violated where its printed
//! statement is known false); each of its mutants violated. The built-in claims go through the
//! public test helper ([`dpclaims::testing`]) that outside claims use.

use dpclaims::claims::{Claim, registry};
use dpclaims::testing::{TestOptions, assert_cases, assert_mutants, snapshot_value};

fn claim(id: &str) -> &'static dyn Claim {
    registry()
        .into_iter()
        .find(|c| c.info().id == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

fn options() -> TestOptions {
    TestOptions {
        seed: crate::SEED,
        ..TestOptions::default()
    }
}

fn snapshot(name: &str, value: serde_json::Value) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_json_snapshot!(name.to_string(), value));
}

/// Runs claim `id` at default size, asserts every outcome respected (violated for a claim known
/// false as printed) and records them.
fn assert_respected(id: &str) {
    let c = claim(id);
    let outcomes = assert_cases(c, &options());
    assert!(
        outcomes
            .iter()
            .all(|o| o.known_false == c.info().known_false)
    );
    snapshot(id, snapshot_value(&outcomes));
}

/// Every mutant of claim `id` must be reported violated somewhere.
fn assert_mutants_violated(id: &str) {
    for (name, outcomes) in assert_mutants(claim(id), &options()) {
        assert!(
            outcomes
                .iter()
                .all(|o| o.mutant.as_deref() == Some(name.as_str()))
        );
    }
}

macro_rules! claim_tests {
    ($($name:ident => $id:literal),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn verdict_as_expected() {
                    super::assert_respected($id);
                }
                #[test]
                fn mutants_violated() {
                    super::assert_mutants_violated($id);
                }
            }
        )*

        /// Every registered claim has a test here.
        #[test]
        fn every_claim_is_tested() {
            let tested = [$($id),*];
            for c in registry() {
                assert!(tested.contains(&c.info().id), "claim {} has no test", c.info().id);
            }
        }
    };
}

claim_tests! {
    stability_lemma5 => "stability.lemma5",
    stability_lemma5_derived => "stability.lemma5.derived",
    stability_lemma5_cond => "stability.lemma5.cond",
    stability_prop2 => "stability.prop2",
    stability_prop2_lin => "stability.prop2.lin",
    last_iterate_cor3 => "last_iterate.cor3",
    last_iterate_thm1_util => "last_iterate.thm1.util",
    last_iterate_prop4 => "last_iterate.prop4",
    last_iterate_prop4_factor => "last_iterate.prop4.factor",
    last_iterate_lemma1 => "last_iterate.lemma1",
    last_iterate_thm1_rdp => "last_iterate.thm1.rdp",
    last_iterate_thm1_dp => "last_iterate.thm1.dp",
    last_iterate_samples => "last_iterate.samples",
    multipass_prop1 => "multipass.prop1",
    multipass_prop1_idx_a => "multipass.prop1.idx_a",
    multipass_cor2 => "multipass.cor2",
    multipass_lemma6 => "multipass.lemma6",
    multipass_prop3_step => "multipass.prop3.step",
    multipass_thm2_dp => "multipass.thm2.dp",
    multipass_thm2_dp_from_prop3 => "multipass.thm2.dp_from_prop3",
    accounting_pld_bracket => "accounting.pld_bracket",
    accounting_rdp_upper => "accounting.rdp_upper",
    renyi_discretization_thm12 => "renyi_discretization.thm12",
    renyi_discretization_kl_path => "renyi_discretization.kl_path",
    renyi_discretization_lemma13 => "renyi_discretization.lemma13",
    renyi_discretization_exact_gaussian => "renyi_discretization.exact_gaussian",
    renyi_discretization_alpha_critical => "renyi_discretization.alpha_critical",
    renyi_discretization_complexity => "renyi_discretization.complexity",
    adaptive_thm1_gdp => "adaptive.thm1.gdp",
    adaptive_thm1_ma_saving => "adaptive.thm1.ma_saving",
    adaptive_thm1_experiments => "adaptive.thm1.experiments",
    adaptive_thm1_experiments_replace_one => "adaptive.thm1.experiments.replace_one",
    adaptive_thm4_derived => "adaptive.thm4.derived",
    adaptive_thm5_derived => "adaptive.thm5.derived",
    adaptive_thm3_components => "adaptive.thm3.components",
    adaptive_rates => "adaptive.rates",
    adaptive_appd => "adaptive.appD",
    contraction_main => "contraction.main",
    contraction_thm3 => "contraction.thm3",
    contraction_sdpi => "contraction.sdpi",
    contraction_mc2d => "contraction.mc2d",
    subspace_thm1 => "subspace.thm1",
    subspace_thm2_dk => "subspace.thm2.dk",
    subspace_privacy_calib => "subspace.privacy.calib",
    subspace_privacy_post => "subspace.privacy.post",
    subspace_thm3_derived => "subspace.thm3.derived",
    subspace_thm4_derived => "subspace.thm4.derived",
    subspace_thm5_rank => "subspace.thm5.rank",
    subspace_thm5_derived => "subspace.thm5.derived",
    subspace_rate => "subspace.rate",
    subspace_samples => "subspace.samples",
    subspace_samples_corrected => "subspace.samples.corrected",
    stability_lemma5_step_nonexpansive => "stability.lemma5.step.nonexpansive",
    stability_lemma5_step_expanded_square => "stability.lemma5.step.expanded_square",
    stability_lemma5_step_young => "stability.lemma5.step.young",
    stability_lemma5_step_recursion => "stability.lemma5.step.recursion",
    stability_lemma5_step_sum => "stability.lemma5.step.sum",
    stability_prop2_step_from_lemma5 => "stability.prop2.step.from_lemma5",
    last_iterate_cor3_step_lambda => "last_iterate.cor3.step.lambda",
    last_iterate_cor3_step_lambda_corrected => "last_iterate.cor3.step.lambda.corrected",
    last_iterate_cor3_step_harmonic => "last_iterate.cor3.step.harmonic",
    last_iterate_cor3_step_harmonic_corrected => "last_iterate.cor3.step.harmonic.corrected",
    last_iterate_cor3_step_gradient_constant => "last_iterate.cor3.step.gradient_constant",
    last_iterate_cor3_step_gradient_constant_corrected => "last_iterate.cor3.step.gradient_constant.corrected",
    last_iterate_cor3_step_w_term => "last_iterate.cor3.step.w_term",
    last_iterate_cor3_step_w_term_corrected => "last_iterate.cor3.step.w_term.corrected",
    last_iterate_thm1_step_from_cor3 => "last_iterate.thm1.step.from_cor3",
    last_iterate_thm1_step_from_cor3_corrected => "last_iterate.thm1.step.from_cor3.corrected",
    last_iterate_thm1_step_privacy_term => "last_iterate.thm1.step.privacy_term",
    last_iterate_thm1_step_privacy_term_large_epsilon => "last_iterate.thm1.step.privacy_term.large_epsilon",
    multipass_prop1_step_lemma2 => "multipass.prop1.step.lemma2",
    multipass_prop1_step_lemma3 => "multipass.prop1.step.lemma3",
    multipass_lemma4_step_gauss_integral => "multipass.lemma4.step.gauss_integral",
    multipass_lemma4_step_gauss_integral_norm => "multipass.lemma4.step.gauss_integral.norm",
    multipass_lemma4_step_hessian => "multipass.lemma4.step.hessian",
    multipass_lemma4_step_hessian_jensen => "multipass.lemma4.step.hessian.jensen",
    multipass_cor2_step_from_cor1 => "multipass.cor2.step.from_cor1",
    multipass_cor2_step_from_cor1_norm => "multipass.cor2.step.from_cor1.norm",
    multipass_thm2_step_from_cor2 => "multipass.thm2.step.from_cor2",
    multipass_thm2_step_from_cor2_derived => "multipass.thm2.step.from_cor2.derived",
    multipass_thm2_step_log_trace => "multipass.thm2.step.log_trace",
    multipass_prop3_step_log_ineq => "multipass.prop3.step.log_ineq",
    multipass_prop3_step_compose => "multipass.prop3.step.compose",
    multipass_prop5_step_budget => "multipass.prop5.step.budget",
    multipass_prop5_step_drv => "multipass.prop5.step.drv",
    multipass_lemma6_step_gaussian_mechanism => "multipass.lemma6.step.gaussian_mechanism",
    multipass_thm2_step_dp_from_prop3_corrected => "multipass.thm2.step.dp_from_prop3.corrected",
    last_iterate_prop4_step_factor_proof_sizes => "last_iterate.prop4.step.factor.proof_sizes",
    last_iterate_samples_corrected => "last_iterate.samples.corrected",
    contraction_thm3_step_lcv => "contraction.thm3.step.lcv",
    contraction_prop4_step_tv => "contraction.prop4.step.tv",
    contraction_main_step_monotone => "contraction.main.step.monotone",
    renyi_discretization_thm12_step_per_step => "renyi_discretization.thm12.step.per_step",
    renyi_discretization_lemma13_step_gradient_tail => "renyi_discretization.lemma13.step.gradient_tail",
    renyi_discretization_lemma13_step_gradient_tail_corrected => "renyi_discretization.lemma13.step.gradient_tail.corrected",
    renyi_discretization_main_step_weak_triangle => "renyi_discretization.main.step.weak_triangle",
    renyi_discretization_main_step_vw19 => "renyi_discretization.main.step.vw19",
    adaptive_uniform_convergence_step_combine => "adaptive.uniform_convergence.step.combine",
    adaptive_uniform_convergence_step_combine_corrected => "adaptive.uniform_convergence.step.combine.corrected",
    adaptive_thm4_step_optimum => "adaptive.thm4.step.optimum",
    multipass_thm2_step_constant => "multipass.thm2.step.constant",
    multipass_thm2_step_constant_corrected => "multipass.thm2.step.constant.corrected",
    adaptive_thm4_step_optimum_corrected => "adaptive.thm4.step.optimum.corrected",
}
