//! Each claim, at its default size, must come out respected (violated where its printed
//! statement is known false); each of its mutants violated. The built-in claims go through the
//! public test helper ([`dpclaims::testing`]) that outside claims use.
//!
//! Two tiers (the switch and the rule: [`dpclaims::testing`]): in the fast tier (`cargo test`)
//! a claim listed in [`FAST`] runs its cases and its mutants with at most the trials listed
//! there (each mutant stopping at its first case caught by a level-free outcome,
//! [`TestOptions::first_catch`]), and its snapshot is compared only when its cases run at their
//! default size; under
//! `DPCLAIMS_FULL=1` every claim runs at its default size with its snapshot compared, and each
//! entry of [`FAST`] is checked against the rule on the full-size outcomes.

use dpclaims::claims::{Claim, registry};
use dpclaims::testing::{
    MUTANT_TRIALS, TestOptions, assert_cases, assert_mutants, fewest_mutant_trials, fewest_trials,
    full_tier, snapshot_value,
};

/// The fast tier's sizes: `(claim, cap on its cases' trials, caps on its mutants' trials)`,
/// `None` for the cases' default size, an unlisted mutant at [`MUTANT_TRIALS`]. Each is the size
/// the rule of [`dpclaims::testing`] gives from the claim's full-size run at the test seed (its
/// margin: the distance of each estimate from its verdict's limit, in half-widths), rounded up
/// to two significant digits; the full-size tier fails on an entry below the rule. A claim not
/// listed runs at its default size in both tiers, and a threshold mutant
/// ([`Claim::mutant_trials`]) always at the size it declares.
type Sizes = (&'static str, Option<u64>, &'static [(&'static str, u64)]);
#[rustfmt::skip]
const FAST: &[Sizes] = &[
    ("accounting.pld_bracket", Some(340_000), &[("add-remove-sensitivity-for-replace-one", 840), ("no-subsampling-in-remove", 140)]),
    ("accounting.rdp_upper", Some(4400), &[("add-remove-sensitivity-for-replace-one", 840), ("sigma-doubled", 840)]),
    ("adaptive.appD", None, &[("dataset-1.35n", 130), ("direction-independent-of-data", 20)]),
    ("adaptive.rates", Some(90), &[("sum-loss", 20)]),
    ("adaptive.thm3.components", None, &[("noise-norm-without-sqrt-p", 20), ("noise-std-understated-0.25", 280)]),
    ("adaptive.thm4.derived", Some(20), &[("sum-loss", 20)]),
    ("adaptive.thm5.derived", Some(20), &[("sum-loss", 20)]),
    ("contraction.mc2d", Some(20), &[]),
    ("contraction.prop4.step.tv", Some(3300), &[("tau-one-step", 180)]),
    ("last_iterate.cor3", Some(76), &[("noise-std-understated-0.98", 240), ("noise-variance-x10000", 80)]),
    ("last_iterate.thm1.util", Some(20), &[("noise-std-understated-0.95", 490), ("noise-variance-x10000", 53)]),
    ("multipass.cor2", Some(36), &[("noise-std-understated-0.8", 570), ("noise-variance-x10000", 33)]),
    ("multipass.lemma4.step.hessian.jensen", Some(180), &[("bound-with-half-H", 20)]),
    ("renyi_discretization.kl_path", Some(410_000), &[]),
    ("renyi_discretization.lemma13", Some(3100), &[("radius-without-2sqrt-d", 20)]),
    ("renyi_discretization.thm12", Some(840), &[("no-stop", 440)]),
    ("stability.lemma5", None, &[("bound-without-t-term", 96), ("independent-noise", 20), ("neighbours-differ-in-5", 20)]),
    ("stability.lemma5.derived", None, &[("bound-without-mean-term", 28), ("independent-noise", 20), ("no-contraction", 160)]),
    ("stability.prop2", Some(89), &[("bound-g-not-squared", 590), ("duplicated-data", 170)]),
    ("stability.prop2.lin", Some(110_000), &[("duplicated-data", 130), ("no-contraction", 680)]),
    ("subspace.privacy.post", Some(20), &[("eigenspace-from-private-minibatch", 300)]),
    ("subspace.rate", Some(87), &[("noise-after-projection", 20)]),
    ("subspace.thm1", Some(190), &[("rate-1-over-m", 20)]),
    ("subspace.thm3.derived", Some(20), &[("sum-loss", 20)]),
    ("subspace.thm5.derived", Some(20), &[("noise-std-understated-0.8", 170)]),
];

/// The fast tier's sizes of claim `id`: the cap on its cases' trials and its mutants' caps.
pub(crate) fn fast_sizes(id: &str) -> (Option<u64>, &'static [(&'static str, u64)]) {
    FAST.iter()
        .find(|(c, _, _)| *c == id)
        .map(|&(_, cases, mutants)| (cases, mutants))
        .unwrap_or((None, &[]))
}

fn claim(id: &str) -> &'static dyn Claim {
    registry()
        .into_iter()
        .find(|c| c.info().id == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

fn options() -> TestOptions {
    TestOptions {
        seed: crate::SEED,
        // The registry's claims; the proof maps' tests run the statement claims at these sizes.
        remember: true,
        ..TestOptions::default()
    }
}

fn snapshot(name: &str, value: serde_json::Value) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_json_snapshot!(name.to_string(), value));
}

/// A fast-tier cap (`None`: none) is at least the rule's (`None`: nothing can be cut).
fn check_rule(id: &str, what: &str, listed: Option<u64>, rule: Option<u64>) {
    eprintln!("{id}: {what}: the rule allows {rule:?}, the fast tier runs {listed:?}");
    if let Some(listed) = listed {
        assert!(
            rule.is_some_and(|r| r <= listed),
            "{id}: the fast tier runs its {what} with {listed} trials, below what the rule gives \
             from this full-size run ({}): raise its entry in FAST or remove it",
            rule.map_or("no cut".to_string(), |r| format!("{r} trials"))
        );
    }
}

/// Runs claim `id` (at its default size, or in the fast tier at its [`FAST`] size), asserts
/// every outcome respected (violated for a claim known false as printed) and, at the default
/// size, compares them with the snapshot.
fn assert_respected(id: &str) {
    let c = claim(id);
    let (cases, _) = fast_sizes(id);
    let full = full_tier();
    let opts = TestOptions {
        max_trials: if full { None } else { cases },
        ..options()
    };
    let outcomes = assert_cases(c, &opts);
    assert!(
        outcomes
            .iter()
            .all(|o| o.known_false == c.info().known_false)
    );
    if opts.max_trials.is_none() {
        snapshot(id, snapshot_value(&outcomes));
    }
    if full {
        check_rule(id, "cases", cases, fewest_trials(&outcomes));
    }
}

/// Every mutant of claim `id` must be reported violated somewhere (in the fast tier with at
/// most its [`FAST`] size).
fn assert_mutants_violated(id: &str) {
    let c = claim(id);
    let (_, caps) = fast_sizes(id);
    let full = full_tier();
    let opts = TestOptions {
        mutant_caps: if full {
            Vec::new()
        } else {
            caps.iter()
                .map(|&(m, cap)| (m.to_string(), cap.min(MUTANT_TRIALS)))
                .collect()
        },
        // Fast tier: a mutant stops at its first case caught by a level-free outcome (the
        // full tier runs every case: the rule needs them all).
        first_catch: !full,
        ..options()
    };
    let runs = assert_mutants(c, &opts);
    for (name, outcomes) in &runs {
        assert!(
            outcomes
                .iter()
                .all(|o| o.mutant.as_deref() == Some(name.as_str()))
        );
    }
    if full {
        for (name, outcomes) in &runs {
            let listed = caps.iter().find(|(m, _)| m == name).map(|&(_, cap)| cap);
            if c.mutant_trials(name).is_none() {
                let what = format!("mutant {name}");
                check_rule(id, &what, listed, fewest_mutant_trials(outcomes));
            }
        }
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
    adaptive_assumptions_step_mean_gradient => "adaptive.assumptions.step.mean_gradient",
    adaptive_assumptions_step_mean_smoothness => "adaptive.assumptions.step.mean_smoothness",
    adaptive_uniform_convergence_step_jensen => "adaptive.uniform_convergence.step.jensen",
    adaptive_thm3_step_union_bound => "adaptive.thm3.step.union_bound",
    adaptive_thm1_step_post_processing => "adaptive.thm1.step.post_processing",
    multipass_prop1_step_lambda1 => "multipass.prop1.step.lambda1",
    multipass_prop1_step_divide => "multipass.prop1.step.divide",
    multipass_lemma3_step_g_bound => "multipass.lemma3.step.g_bound",
    stability_lemma5_step_shrink => "stability.lemma5.step.shrink",
    multipass_cor2_step_telescoping => "multipass.cor2.step.telescoping",
    multipass_prop3_step_rewrite => "multipass.prop3.step.rewrite",
    multipass_thm2_step_substitution => "multipass.thm2.step.substitution",
    last_iterate_cor3_step_recursion => "last_iterate.cor3.step.recursion",
    last_iterate_thm1_step_beta0 => "last_iterate.thm1.step.beta0",
    last_iterate_thm1_step_alpha => "last_iterate.thm1.step.alpha",
    contraction_cdpi_step_batch_weight => "contraction.cdpi.step.batch_weight",
    contraction_cdpi_step_joint_convexity => "contraction.cdpi.step.joint_convexity",
    contraction_cdpi_step_projection_dpi => "contraction.cdpi.step.projection_dpi",
    contraction_lemma1_step_differing_sample => "contraction.lemma1.step.differing_sample",
    renyi_discretization_thm12_step_dpi => "renyi_discretization.thm12.step.dpi",
    renyi_discretization_main_step_monotone_order => "renyi_discretization.main.step.monotone_order",
    contraction_main_step_unroll => "contraction.main.step.unroll",
    contraction_main_step_below_one => "contraction.main.step.below_one",
    contraction_app_a_step_x_inf => "contraction.appA.step.x_inf",
    contraction_thm3_step_twice => "contraction.thm3.step.twice",
    subspace_privacy_step_multiplier => "subspace.privacy.step.multiplier",
    subspace_thm1_step_rank_one => "subspace.thm1.step.rank_one",
    subspace_thm3_step_average => "subspace.thm3.step.average",
    subspace_thm5_step_range => "subspace.thm5.step.range",
    subspace_thm5_step_convexity => "subspace.thm5.step.convexity",
    subspace_thm3_step_plug_in => "subspace.thm3.step.plug_in",
    subspace_thm4_step_chain => "subspace.thm4.step.chain",
    subspace_thm5_step_expand => "subspace.thm5.step.expand",
    last_iterate_prop4_step_sigma => "last_iterate.prop4.step.sigma",
    multipass_lemma4_step_exponent => "multipass.lemma4.step.exponent",
    last_iterate_prop4_step_factor_range => "last_iterate.prop4.step.factor_range",
    last_iterate_cor3_step_sum => "last_iterate.cor3.step.sum",
    contraction_gauss_kernel_step_monotone => "contraction.gauss_kernel.step.monotone",
    contraction_thm3_step_unroll => "contraction.thm3.step.unroll",
    contraction_app_a_step_inversion => "contraction.appA.step.inversion",
    contraction_gauss_kernel_step_hockey_stick => "contraction.gauss_kernel.step.hockey_stick",
    renyi_discretization_thm12_step_proportional => "renyi_discretization.thm12.step.proportional",
    renyi_discretization_lemma13_step_brownian => "renyi_discretization.lemma13.step.brownian",
}

/// Every entry of [`FAST`] names a registered claim, once, and mutants of it that take a cap
/// (not threshold mutants, which run at the size they declare).
#[test]
fn fast_sizes_name_registered_claims_and_mutants() {
    for (i, (id, _, caps)) in FAST.iter().enumerate() {
        let c = registry()
            .into_iter()
            .find(|c| c.info().id == *id)
            .unwrap_or_else(|| panic!("FAST lists {id}, not a registered claim"));
        assert!(
            FAST[..i].iter().all(|(other, _, _)| other != id),
            "FAST lists {id} twice"
        );
        for (m, _) in *caps {
            assert!(
                c.info().mutants.iter().any(|x| x.name == *m),
                "FAST lists {m}, not a mutant of {id}"
            );
            assert!(
                c.mutant_trials(m).is_none(),
                "FAST lists {id}'s threshold mutant {m}, which runs at the size it declares"
            );
        }
    }
}
