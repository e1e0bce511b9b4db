//! The proof maps of seed 004 (Ganesh, Talwar 2020, arXiv 2010.14658): Theorem 12, whose proof
//! survives in prose (displays lost), and the printed intuitions of Lemma 13 (proof deferred to
//! Section 7, not in our copy) and of the final pipeline (Lemmas 10 and 14 not in our copy). Data
//! for [`dpclaims_core::proofs`]; step claims in [`super::steps`].

use dpclaims_core::proofs::ProofMap;
use dpclaims_core::proofs::{claim, definition, fixed, none, statement};

const PAPER: &str = "004_eaab97274611faab.txt";

/// The maps, in the order of the paper.
pub static MAPS: [ProofMap; 3] = [
    ProofMap {
        id: "renyi_discretization.thm12",
        paper: PAPER,
        result: "Theorem 12, discrete vs continuous Langevin on E_r (statement lost, reconstructed; its proof printed in prose), and its one-sided version",
        hypotheses: "f L-smooth; alpha >= 1, r > 0, k, T >= 1; the processes stopped (state bot) once they move more than r within a step of size eta; fine steps of size eta/k with noise N(0, (2 eta/k) I)",
        statement_claims: &["renyi_discretization.thm12", "renyi_discretization.kl_path"],
        steps: &[
            definition(
                "'If E_r does not hold at time t*, we will instead let x_t = bot for all t >= t*'",
                "definition",
            ),
            claim(
                "'By post-processing (Fact 4), it suffices to bound the divergence between X_{0:Tk} and X'_{0:Tk}'",
                "renyi_discretization.thm12.step.dpi",
            ),
            definition(
                "X_{0:Tk} = psi^{Tk}(X_0), X'_{0:Tk} = psi'^{Tk}(X_0): psi freezes the gradient at the step's anchor x_{floor(j/k) eta}, psi' uses x'_{j eta/k}; bot is absorbing",
                "construction (as printed)",
            ),
            claim(
                "On a history where E_r holds both kernels are N(., (2 eta/k) I) with means (eta/k)||grad f(x_anchor) - grad f(x_j)|| <= (eta/k) L r apart: one step costs <= alpha eta L^2 r^2/(4k)",
                "renyi_discretization.thm12.step.per_step",
            ),
            claim(
                "A history with bot contributes 0, and the bot replacement is the same map of the path for psi and psi' (post-processing, Fact 4; with the printed anchor floor((j+1)/k) eta the check at a block's last fine step is vacuous, and the next step's means coincide there: checked by hand)",
                "renyi_discretization.thm12.step.dpi",
            ),
            statement(
                "'allowing us to use Fact 6': D_alpha(X_{0:Tk} || X'_{0:Tk}) <= Tk alpha eta L^2 r^2/(4k) = alpha L^2 r^2 T eta/4, independent of k",
                "renyi_discretization.thm12",
                "Fact 6, adaptive composition of Renyi divergence (cited); the composed bound on the stopped paths is the statement claim (path likelihood ratios)",
            ),
            none(
                "'By taking the limit as k goes to infinity and applying Fact 4': psi' gives the stopped diffusion",
                "a limit argument (weak convergence and lower semicontinuity of D_alpha, not stated in our copy)",
            ),
            claim(
                "'r will end up being roughly proportional to sqrt(eta), so the above bound is then roughly proportional to eta' (T = tau/eta)",
                "renyi_discretization.thm12.step.proportional",
            ),
        ],
    },
    ProofMap {
        id: "renyi_discretization.lemma13",
        paper: PAPER,
        result: "Lemma 13, the per-step movement (statement lost; proof deferred to Section 7, not in our copy; its intuition printed)",
        hypotheses: "f L-smooth and m-strongly convex; the Langevin process started from N(x*, I/L); T steps of size eta; failure probability delta",
        statement_claims: &["renyi_discretization.lemma13"],
        steps: &[
            claim(
                "'the sqrt(eta) accounts for movement due to Brownian motion, which dominates the movement due to the gradient'",
                "renyi_discretization.lemma13.step.brownian",
            ),
            fixed(
                "'cL(sqrt(d) + sqrt(ln(T/delta))) is a tail bound on norm of the gradient by smoothness'",
                "renyi_discretization.lemma13.step.gradient_tail",
                "renyi_discretization.lemma13.step.gradient_tail.corrected",
            ),
            statement(
                "Union over the T steps: no step moves further than eta G + sqrt(2 eta)(2 sqrt d + sqrt(2 ln(2T/delta))) except with probability delta/2 + P(max_k ||grad f|| > G)",
                "renyi_discretization.lemma13",
                "the derived form, checked by its statement claim (Monte Carlo)",
            ),
        ],
    },
    ProofMap {
        id: "renyi_discretization.main",
        paper: PAPER,
        result: "the final lemma ('Putting it all together'; statement lost; its intuition printed) and the iteration complexity of Figure 1",
        hypotheses: "f L-smooth and m-strongly convex; ULA from N(x*, I/L); Lemmas 10, 13, 14; Vempala and Wibisono (2019) for the diffusion",
        statement_claims: &[
            "renyi_discretization.complexity",
            "renyi_discretization.exact_gaussian",
        ],
        steps: &[
            none(
                "'Plugging Lemma 13 into Lemma 10 gives a bound on roughly the alpha'-Renyi divergence between P conditioned on some probability 1 - delta_1 event and Q conditioned on some probability 1 - delta_2 event'",
                "Lemma 10 is not in our copy",
            ),
            none(
                "'We apply Lemma 14 once for P and once for Q to remove the conditioning, giving a bound of about ln(alpha')/(alpha' - 1) ... if eta is sufficiently small'",
                "Lemma 14's statement is not in our copy",
            ),
            claim(
                "'Using Jensen's inequality, we can turn this into a bound of eps on the alpha-Renyi divergence between P, Q for any alpha if alpha' is large enough'",
                "renyi_discretization.main.step.monotone_order",
            ),
            claim(
                "'The continuous process is known (Vempala and Wibisono 2019) to converge very quickly in Renyi divergence to the target': R_q(rho_t || pi) <= e^{-2mt/q} R_q(rho_0 || pi), from R_q(N(x*, I/L) || pi) <= (d/2) ln(L/m)",
                "renyi_discretization.main.step.vw19",
            ),
            claim(
                "Discrete to target through the diffusion: the weak triangle inequality D_alpha(ULA_T || pi) <= (alpha - 1/2)/(alpha - 1) D_{2 alpha}(ULA_T || OU_{T eta}) + D_{2 alpha - 1}(OU_{T eta} || pi)",
                "renyi_discretization.main.step.weak_triangle",
            ),
            claim(
                "Hence the iteration complexity of Figure 1, near-linear in d (the derived pipeline's (eta, T) give D_alpha(ULA_T || pi) <= eps)",
                "renyi_discretization.complexity",
            ),
        ],
    },
];
