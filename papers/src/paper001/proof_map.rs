//! The proof maps of seed 001 (Asoodeh, Diaz 2023, arXiv 2305.09903). Our copy lost Appendix B
//! (the proofs) and every display; what survives of each proof is its outline in prose, and the
//! maps follow THEOREMS.md §4's reconstruction of it, step by step (data for
//! [`dpclaims_core::proofs`]). The step claims are in [`super::steps`] and the
//! statement claims in the `contraction` family.

use dpclaims_core::proofs::ProofMap;
use dpclaims_core::proofs::{claim, definition, none, statement};

const PAPER: &str = "001_34c1b2bc7e1d7728.txt";

/// The maps, in the order of the paper (Sec. II, Sec. III, Sec. III-B, Appendix A).
pub static MAPS: [ProofMap; 9] = [
    ProofMap {
        id: "contraction.postprocessing",
        paper: PAPER,
        result: "privacy amplification by post-processing (Sec. II, the display lost; the chain survives in prose)",
        hypotheses: "M (eps, delta)-DP; K any Markov kernel on W; [ADC23, Thm 2] for its contraction coefficient",
        statement_claims: &["contraction.sdpi"],
        steps: &[
            definition(
                "E_eps(K M(X) || K M(X')) <= eta_eps(K) E_eps(M(X) || M(X'))",
                "definition of the contraction coefficient eta_eps(K) (the smallest such constant)",
            ),
            claim(
                "[ADC23, Thm 2]: eta_eps(K) = sup_{x1, x2} E_eps(K(x1) || K(x2)) (cited), for the W-constrained Gaussian kernel theta_eps(dia(W)/sigma), attained by point masses at the ends of W",
                "contraction.sdpi",
            ),
            none(
                "'indicating M o K is (eps, delta')-DP with delta' = delta sup E_eps(K(x1) || K(x2))'",
                "definition of (eps, delta)-DP through E_eps (ordered pairs of neighbours)",
            ),
        ],
    },
    ProofMap {
        id: "contraction.gauss_kernel",
        paper: PAPER,
        result: "Sec. II proposition: the contraction coefficient of the W-constrained Gaussian kernel (statement lost, reconstructed; no proof in our copy, 'proved by Asoodeh et al. in [ADC23]')",
        hypotheses: "W subset R^d with dia(W) < infinity, sigma > 0",
        statement_claims: &["contraction.sdpi"],
        steps: &[
            claim(
                "E_eps(N(x1, sigma^2 I) || N(x2, sigma^2 I)) = theta_eps(||x1 - x2||/sigma)",
                "contraction.gauss_kernel.step.hockey_stick",
            ),
            claim(
                "theta_eps(r) increases in r, so the supremum over W is attained at distance dia(W)",
                "contraction.gauss_kernel.step.monotone",
            ),
            claim(
                "Hence eta_eps(K_G^sigma) = theta_eps(dia(W)/sigma) (with ADC23, Thm 2): attained on the extremal pairs, never exceeded on random pairs",
                "contraction.sdpi",
            ),
        ],
    },
    ProofMap {
        id: "contraction.lemma1",
        paper: PAPER,
        result: "Lemma 1, the 'key boundedness property' (statement lost, reconstructed; proof in Appendix B, not in our copy)",
        hypotheses: "psi_B(w) = w - (eta/|B|) sum_{i in B} Clip_C(grad l(w, x_i)); w, w' in W; batches B, B'",
        statement_claims: &[],
        steps: &[
            none(
                "(a) ||psi_B(w) - w|| <= M = eta C (the mean of vectors of norm <= C has norm <= C)",
                "triangle inequality; attained by aligned clipped gradients",
            ),
            none(
                "(b) ||psi_B(w) - psi'_B'(w')|| <= ||w - w'|| + 2M <= dia(W) + 2M, so the Gaussian's input set S has dia(S) <= dia(W) + 2M",
                "triangle inequality with (a); attained on contraction.main's worst-case neighbours (gradients +-C at the ends of W = [0, D]); its mutant diameter-without-2M is violated there",
            ),
            claim(
                "(c) ||psi_B(w) - psi'_B(w)|| <= 2 eta C/|B| if i* in B, and 0 otherwise",
                "contraction.lemma1.step.differing_sample",
            ),
        ],
    },
    ProofMap {
        id: "contraction.cdpi",
        paper: PAPER,
        result: "Proposition 3, the coupled non-linear DPI (4)/(10), sampling without replacement (reconstructed; outline printed: 'relies on the joint-convexity of the hockey-stick divergence and the strong data processing inequality for the input-constrained Gaussian kernel [ADC23]'; proof in Appendix B)",
        hypotheses: "uniform b-subsets of [n] (q = b/n); Lemma 1; W closed convex with dia(W) < infinity; any mu, nu in P(W), both orders",
        statement_claims: &["contraction.sdpi"],
        steps: &[
            definition(
                "'K_t could be expressed as a composition of three Markov kernels': sub-sampling with the update, the Gaussian kernel, the projection",
                "definition (as printed)",
            ),
            claim(
                "Both datasets use the same batch mixture: batches containing the differing index i* have total weight q = b/n (C(n-1, b-1)/C(n, b) = b/n)",
                "contraction.cdpi.step.batch_weight",
            ),
            claim(
                "Joint convexity: E_eps((1-q) P1 + q P2 || (1-q) Q1 + q Q2) <= (1-q) E_eps(P1 || Q1) + q E_eps(P2 || Q2)",
                "contraction.cdpi.step.joint_convexity",
            ),
            claim(
                "DPI for the projection Pi",
                "contraction.cdpi.step.projection_dpi",
            ),
            claim(
                "Per term, ADC23 Thm 2 on S (dia(S) <= dia(W) + 2M): i* not in B: psi_B = psi'_B and E_eps(K psi_B mu || K psi_B nu) <= theta E_eps(mu || nu); i* in B: <= theta, since E_eps <= 1; hence E_eps(K_t mu || K'_t nu) <= (1-q) theta E_eps(mu || nu) + q theta",
                "contraction.sdpi",
            ),
        ],
    },
    ProofMap {
        id: "contraction.poisson",
        paper: PAPER,
        result: "the coupled DPI under Poisson sampling (Sec. III, 'we prove that the coupled non-linear DPI in (10) is satisfied ... under both Poisson sampling and sampling without replacement'; proof in Appendix B)",
        hypotheses: "each index in the batch with probability p (q = p); psi_empty = id; the norm-B normalisation (M = eta C); replace-one and add/remove",
        statement_claims: &["contraction.main"],
        steps: &[
            definition(
                "Couple both datasets on the coins of the common indices; the differing index's coin has weight p",
                "a coupling (add/remove: the extra sample's coin)",
            ),
            statement(
                "The rest of Proposition 3's proof with q = p: eq. (5) with q = p",
                "contraction.main",
                "the statement itself, checked on the exact laws (instances P_A, P_B) by its statement claim contraction.main (an exact grid)",
            ),
        ],
    },
    ProofMap {
        id: "contraction.main",
        paper: PAPER,
        result: "the main theorem, eq. (5) (statement lost, reconstructed; 'upon the coupled non-linear data processing inequality (4)')",
        hypotheses: "Proposition 3's; hidden state (only W_T released); no convexity or smoothness of the loss",
        statement_claims: &["contraction.main", "contraction.mc2d"],
        steps: &[
            none(
                "E_eps(mu_0 || mu_0) = 0: both processes start from the same law",
                "E_eps(P || P) = sup_S (1 - e^eps) P(S) = 0 for eps >= 0 (the empty set): a supremum over events, not a closed form of numbers",
            ),
            claim("Apply the coupled DPI (4) at t = 1..T", "contraction.sdpi"),
            claim(
                "Unroll: delta_T(eps) = q theta sum_{k<T} ((1-q) theta)^k = q theta (1 - ((1-q) theta)^T)/(1 - (1-q) theta)",
                "contraction.main.step.unroll",
            ),
            statement(
                "Hence (eps, delta_T(eps))-DP",
                "contraction.main",
                "the statement itself: the exact E_eps of the two neighbouring laws <= delta_T (an exact grid)",
            ),
            claim(
                "'the upper bound in (5) is always less than 1': delta_inf = q theta/(1 - (1-q) theta) < 1 iff theta < 1 (and theta_eps(r) <= 2 Phi(r/2) - 1 < 1 for finite r; in floating point delta_inf rounds to 1 once 1 - theta < 1e-16, e.g. r_bar = 40 on A_small)",
                "contraction.main.step.below_one",
            ),
            claim(
                "'converges exponentially fast': delta_T increases to delta_inf, delta_inf - delta_T = delta_inf ((1-q) theta)^T; the bound at a later horizon is at least the earlier one",
                "contraction.main.step.monotone",
            ),
        ],
    },
    ProofMap {
        id: "contraction.appA",
        paper: PAPER,
        result: "Appendix A, the conversion to a convergent bound on eps for a given delta (not in our copy; reconstructed)",
        hypotheses: "eq. (5); g_T(x) = q x sum_{k<T} ((1-q) x)^k increasing on [0, 1]; eps -> theta_eps(r_bar) continuous and decreasing",
        statement_claims: &[],
        steps: &[
            claim(
                "eps_T(delta) = inf{eps : delta_T(eps) <= delta} solves theta_eps(r_bar) = x_T, g_T(x_T) = delta (0 if theta_0(r_bar) <= x_T)",
                "contraction.appA.step.inversion",
            ),
            claim(
                "x_inf = delta/(q + (1-q) delta), solving q x/(1 - (1-q) x) = delta",
                "contraction.appA.step.x_inf",
            ),
            claim(
                "eps_T(delta) is non-decreasing in T and converges to eps_inf(delta) (Fig. 1)",
                "contraction.main.step.monotone",
            ),
        ],
    },
    ProofMap {
        id: "contraction.prop4",
        paper: PAPER,
        result: "Proposition 4 (Sec. III-B, statement lost, reconstructed; 'formalizes the first intuition')",
        hypotheses: "regularised DP-SGD (16) and the auxiliary process (18) driven by the same batches and noise; radii r-lin or r-sum; any kappa > 0",
        statement_claims: &[],
        steps: &[
            none(
                "Synchronous coupling: TV(P_W~T, P_WT) <= P(W~_T != W_T) <= P(some projection Pi_t active, t <= T)",
                "the coupling inequality",
            ),
            none(
                "r-lin: if ||Z_s|| <= kappa for all s <= t then ||W~_t|| <= c r_{t-1} + eta C + sigma kappa = r_t (no projection active)",
                "induction with the triangle inequality (by hand); fails for r-sum, whose radius is not a pathwise bound",
            ),
            claim(
                "P(some projection active) <= tau_T(kappa): 1 - F_chi2_d(kappa^2)^T (r-lin), T (1 - F_chi2_d(kappa^2)) (r-sum: the Gaussian part of W~_t has covariance sigma^2 (1 - c^{2t})/(1 - c^2) I, union over t)",
                "contraction.prop4.step.tv",
            ),
        ],
    },
    ProofMap {
        id: "contraction.thm3",
        paper: PAPER,
        result: "Theorem 3, eq. (21) (statement lost, reconstructed; proof in Appendix B, 'relies on a triangle inequality for the hockey-stick divergence proved by Liu et al. [LCV16]', upon Propositions 4 and 5)",
        hypotheses: "regularised DP-SGD (16) with lambda in (0, 1), W~_0 = 0, size-b batches; Propositions 4 and 5; any kappa > 0",
        statement_claims: &["contraction.thm3"],
        steps: &[
            claim(
                "[LCV16] E_{eps1+eps2}(P || R) <= E_eps1(P || Q) + e^eps1 E_eps2(Q || R) (cited, eps1, eps2 >= 0)",
                "contraction.thm3.step.lcv",
            ),
            claim(
                "Twice (eps1 = 0, then eps2 = 0): E_eps(P~ || P~') <= E_0(P~ || P) + E_eps(P || P') + e^eps E_0(P' || P~')",
                "contraction.thm3.step.twice",
            ),
            claim(
                "E_0 = TV <= tau_T(kappa) for each dataset (Proposition 4)",
                "contraction.prop4.step.tv",
            ),
            none(
                "Proposition 5: on B(r_{t-1}), psi~_B maps into B(c r_{t-1} + eta C), so the coupled DPI holds with theta_eps(rho_t), rho_t = 2(c r_{t-1} + eta C)/sigma",
                "Proposition 3's argument on a set of diameter 2(c r_{t-1} + eta C) (Lemma 1 with the regulariser; by hand)",
            ),
            claim(
                "Iterate from E_eps(delta_0 || delta_0) = 0: E_eps(P || P') <= sum_t q theta_eps(rho_t) prod_{s>t} (1-q) theta_eps(rho_s)",
                "contraction.thm3.step.unroll",
            ),
            statement(
                "Hence (21): delta(kappa) = (1 + e^eps) tau_T(kappa) + sum_t q theta_eps(rho_t) prod_{s>t} (1-q) theta_eps(rho_s), for every kappa (optimised numerically)",
                "contraction.thm3",
                "the statement itself, against the exact laws (an exact grid)",
            ),
        ],
    },
];
