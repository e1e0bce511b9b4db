//! Dominating pairs of one DP-SGD step, for each (sampling scheme, neighbouring relation).
//!
//! This is the one place where dpclaims decides which pair of output laws stands for a
//! mechanism: the PLD accountant, the audit's Monte Carlo and the claims all read it from here.
//!
//! Notation: one step releases $y=\sum_{j\in B}g_j+\mathcal N(0,\sigma^2I)$, in units of the
//! clipping norm $C$ (every clipped gradient has $\Vert g_j\Vert\le1$); the other records' gradients are
//! the adversary's to choose at every step (adaptively). A pair $(P,Q)$ *dominates* a step if
//! $H_{e^\epsilon}(M(D)\Vert M(D'))\le H_{e^\epsilon}(P\Vert Q)$ for every $\epsilon\in\mathbb R$ and
//! every neighbouring $(D,D')$, in the order the relation allows; per-step dominating pairs
//! compose (Zhu, Dong & Wang, AISTATS 2022). Write $\mathcal N_m=\mathcal N(m,\sigma^2)$.
//!
//! **No sampling, add/remove**: $\mathcal N_1$ vs $\mathcal N_0$ (sensitivity 1; the Gaussian pair is
//! symmetric). **No sampling, replace-one**: $\mathcal N_1$ vs $\mathcal N_{-1}$ (sensitivity 2).
//!
//! **Poisson rate $q$, add/remove**: remove $P=(1-q)\mathcal N_0+q\mathcal N_1$, $Q=\mathcal N_0$;
//! add: reversed. The direction is fixed for the whole run by which dataset holds the record, so
//! the run's $\delta$ is the larger of the $T$-fold remove and $T$-fold add compositions (Zhu et
//! al. 2022). Realised exactly by others at $0$ and the record at $e_1$.
//!
//! **Poisson rate $q$, replace-one** ($x$ vs $x'$): the others' inclusions are independent of the
//! record's, so $M(D)=\mathbb E_S[(1-q)\mathcal N_S+q\mathcal N_{S+g}]$ and $M(D')$ the same with $g'$,
//! over the same law of the others' sum $S$; by joint convexity of $H_{e^\epsilon}$ it suffices to
//! dominate $(1-q)\mathcal N_0+q\mathcal N_g$ vs $(1-q)\mathcal N_0+q\mathcal N_{g'}$ over
//! $\Vert g\Vert,\Vert g'\Vert\le1$. The antipodal $g=-g'=e_1$ is the worst (Lebeda, Regehr, Kamath & Steinke
//! 2024 analyse this relation; dpclaims also checks it numerically against the whole family in
//! one and two dimensions, `tests` below and `tests/dominating.rs`). The centred pair
//! $(1-q)\mathcal N_0+q\mathcal N_1$ vs $(1-q)\mathcal N_0+q\mathcal N_{-1}$ is symmetric
//! ($x\mapsto-x$ swaps it), so it dominates both orders and composes whatever the adversary does.
//!
//! **Fixed-size batches of $b$ out of $n$ without replacement, $q=b/n$, replace-one** (also
//! Algorithm 1's one record per step, $q=1/n$): couple the batches so that a batch $B\not\ni i$
//! and a uniform $j\in B$ give $\tilde B=B\setminus\lbrace j\rbrace\cup\lbrace i\rbrace$, uniform among the batches that
//! hold $i$. Then $M(D)=\mathbb E_{B,j}[(1-q)\mathcal N_{s_B}+q\mathcal N_{s_B-g_j+x}]$ and $M(D')$
//! the same with $x'$: the slot the record leaves is filled by another record $j$ whose gradient
//! the adversary chooses. With every other record at $x'$ ($g_j=x'$, $x=-x'=e_1$) the neighbour's
//! output is exactly $\mathcal N_{s_B}$ and
//! $$P=(1-q)\mathcal N_0+q\mathcal N_2,\qquad Q=\mathcal N_0,$$
//! the *remove* pair with sensitivity 2 (others at $x$ give the reversed, *add* pair). By joint
//! convexity and the without-replacement dominating pair of Zhu et al. (2022), these two orders
//! dominate one step. Unlike add/remove, the adversary picks the order **at every step** (others
//! at $x'$ in one step, at $x$ in the next), so the $T$-fold composition of either order alone is
//! not an upper bound (Lebeda et al. 2024). dpclaims composes the *symmetrised* pair instead: the
//! pair whose tradeoff function is the convex hull of $\min(f,f^{-1})$, i.e. whose privacy profile
//! is $\max(\delta_{(P,Q)}(\epsilon),\delta_{(Q,P)}(\epsilon))$ at every $\epsilon$ (the convex
//! conjugate of a minimum is the maximum of the conjugates), which dominates both orders. The
//! $T$-fold compositions of each order alone are realised by datasets and remain certified
//! *lower* references. The centred pair of the Poisson case is **not** an upper bound here: at
//! $q=0.01$, $\sigma=1$, $T=1000$, $\delta=10^{-5}$ it gives $\epsilon=2.84$ while the remove pair
//! with sensitivity 2 needs $\epsilon\ge13.35$.
//!
//! **Without replacement, add/remove** is not defined (adding a record changes the batch size).

use super::pair::Pair;
use super::{DpSgd, Neighbouring, Sampling};
use crate::error::ParamError;

/// How one step's upper (pessimistic) bound is built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepBound {
    /// The pair itself: its order is fixed for the whole run, or the pair is symmetric.
    Pair(Pair),
    /// Either order of the pair at every step, at the adversary's choice: the symmetrised pair
    /// with privacy profile $\max(\delta_{(P,Q)},\delta_{(Q,P)})$.
    EitherOrder(Pair),
}

/// The dominating pairs of one step of a mechanism.
#[derive(Debug, Clone, PartialEq)]
pub struct Dominating {
    /// Upper bound: the true $\delta(\epsilon)$ of $T$ steps is at most the largest, over these,
    /// of the $T$-fold composition of the step bound.
    pub upper: Vec<StepBound>,
    /// Lower bound: pairs realised exactly by neighbouring datasets (other records chosen by the
    /// adversary, the same every step); the worst-case $\delta(\epsilon)$ of $T$ steps is at least
    /// the largest of their $T$-fold compositions. These are the pairs the Monte Carlo simulates.
    pub lower: Vec<Pair>,
    /// What the pairs are, in words (reported with the answers).
    pub description: &'static str,
}

impl Dominating {
    /// The dominating pairs of one step with rate `q` and noise multiplier `sigma` (see the
    /// module documentation for each derivation).
    pub fn new(
        q: f64,
        sigma: f64,
        sampling: Sampling,
        relation: Neighbouring,
    ) -> Result<Self, ParamError> {
        Ok(match (sampling, relation) {
            (Sampling::Poisson | Sampling::None, Neighbouring::AddRemove) => {
                let (remove, add) = (Pair::Remove { q, sigma }, Pair::Add { q, sigma });
                Dominating {
                    upper: vec![StepBound::Pair(remove), StepBound::Pair(add)],
                    lower: vec![remove, add],
                    description: "remove (1-q)N(0)+qN(1) vs N(0) and add (reversed), each for the whole run",
                }
            }
            (Sampling::Poisson | Sampling::None, Neighbouring::ReplaceOne) => {
                let centred = Pair::ReplaceOne { q, sigma };
                Dominating {
                    upper: vec![StepBound::Pair(centred)],
                    lower: vec![centred],
                    description: "replace-one (1-q)N(0)+qN(1) vs (1-q)N(0)+qN(-1) (symmetric)",
                }
            }
            (Sampling::WithoutReplacement, Neighbouring::ReplaceOne) => {
                // Sensitivity 2: (1-q)N(0, s^2) + qN(2, s^2) vs N(0, s^2) is Remove at s / 2.
                let (remove, add) = (
                    Pair::Remove {
                        q,
                        sigma: sigma / 2.0,
                    },
                    Pair::Add {
                        q,
                        sigma: sigma / 2.0,
                    },
                );
                Dominating {
                    upper: vec![StepBound::EitherOrder(remove)],
                    lower: vec![remove, add],
                    description: "fixed-size batch, replace-one: (1-q)N(0)+qN(2) vs N(0) in either order at every step (symmetrised)",
                }
            }
            (Sampling::Shuffle, _) => {
                return Err(ParamError::new(
                    "sampling",
                    "shuffle",
                    "poisson, wor or none (shuffled batches have no dominating pair of one step: the audit bounds them per epoch)",
                ));
            }
            (Sampling::RandomAllocation, _) => {
                return Err(ParamError::new(
                    "sampling",
                    "random-allocation",
                    "poisson, wor or none (random allocation has no dominating pair of one step: its epochs are bounded by the random_allocation module)",
                ));
            }
            (Sampling::WithoutReplacement, Neighbouring::AddRemove) => {
                return Err(ParamError::new(
                    "relation",
                    "add-remove",
                    "replace-one for fixed-size batches without replacement (adding a record changes the batch size)",
                ));
            }
        })
    }

    /// The dominating pairs of one step of `mech`.
    pub fn of(mech: &DpSgd) -> Result<Self, ParamError> {
        Self::new(mech.q, mech.sigma, mech.sampling, mech.neighbouring)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// $H_{e^\epsilon}(P\Vert Q)$ of two one-dimensional Gaussian mixtures with common $\sigma$ by
    /// the trapezoidal rule on a fine grid (independent of the PLD code).
    fn hockey_stick(p: &[(f64, f64)], q: &[(f64, f64)], sigma: f64, eps: f64) -> f64 {
        let dens = |mix: &[(f64, f64)], x: f64| {
            mix.iter()
                .map(|(w, m)| w * (-(x - m) * (x - m) / (2.0 * sigma * sigma)).exp())
                .sum::<f64>()
        };
        let (lo, hi, n) = (-10.0 * sigma - 3.0, 10.0 * sigma + 3.0, 20_000);
        let h = (hi - lo) / n as f64;
        (0..=n)
            .map(|k| {
                let x = lo + k as f64 * h;
                let w = if k == 0 || k == n { 0.5 } else { 1.0 };
                w * (dens(p, x) - eps.exp() * dens(q, x)).max(0.0)
            })
            .sum::<f64>()
            * h
            / (sigma * (2.0 * std::f64::consts::PI).sqrt())
    }

    /// $(1-q)\mathcal N_0+q\mathcal N_m$.
    fn mixture(q: f64, m: f64) -> Vec<(f64, f64)> {
        vec![(1.0 - q, 0.0), (q, m)]
    }

    /// One step's upper profile by the same quadrature on the same grid (the pairs' means
    /// rescaled to noise `sigma`): the largest over the upper step bounds (both orders for
    /// `EitherOrder`).
    fn upper_profile(d: &Dominating, sigma: f64, eps: f64) -> f64 {
        let h = |p: &Pair| {
            let (a, b) = match *p {
                Pair::Remove { q, sigma: s } => (mixture(q, sigma / s), mixture(0.0, 0.0)),
                Pair::Add { q, sigma: s } => (mixture(0.0, 0.0), mixture(q, sigma / s)),
                Pair::ReplaceOne { q, sigma: s } => (mixture(q, sigma / s), mixture(q, -sigma / s)),
            };
            hockey_stick(&a, &b, sigma, eps)
        };
        d.upper
            .iter()
            .map(|b| match b {
                StepBound::Pair(p) => h(p),
                StepBound::EitherOrder(p) => h(p).max(h(&p.reversed())),
            })
            .fold(0.0, f64::max)
    }

    /// Adversarial one-step configurations (the record's clipped gradients and the gradient of
    /// the record that fills its slot, on a grid in [-1, 1]): none may exceed the dominating
    /// pair's profile, at negative and positive eps.
    #[test]
    fn one_step_pairs_dominate_adversarial_records() {
        let grid = [-1.0, -0.5, 0.0, 0.5, 1.0];
        for (q, sigma) in [(0.01, 1.0), (0.2, 0.7), (0.6, 2.0)] {
            let dom = |s, r| Dominating::new(q, sigma, s, r).unwrap();
            let poisson_ar = dom(Sampling::Poisson, Neighbouring::AddRemove);
            let poisson_r1 = dom(Sampling::Poisson, Neighbouring::ReplaceOne);
            let wor = dom(Sampling::WithoutReplacement, Neighbouring::ReplaceOne);
            for eps in [-1.0, -0.2, 0.0, 0.1, 0.5, 1.5, 3.0] {
                let (up_ar, up_r1, up_wor) = (
                    upper_profile(&poisson_ar, sigma, eps),
                    upper_profile(&poisson_r1, sigma, eps),
                    upper_profile(&wor, sigma, eps),
                );
                // The trapezoidal rule is O(h^2) accurate across the kink of (p - e^eps q)_+
                // (h ~ 1e-3): configurations equal to the pair at this eps (e.g. any shift of
                // the same difference at eps = 0) agree to ~1e-7 relative, not to rounding.
                let tol = 1e-6 * up_ar.max(up_r1).max(up_wor) + 1e-12;
                for &x in &grid {
                    // Poisson add/remove: the record x present vs absent (the others cancel).
                    let d = hockey_stick(&mixture(q, x), &mixture(0.0, 0.0), sigma, eps)
                        .max(hockey_stick(&mixture(0.0, 0.0), &mixture(q, x), sigma, eps));
                    assert!(
                        d <= up_ar + tol,
                        "poisson a/r x={x} eps={eps}: {d} > {up_ar}"
                    );
                    for &x2 in &grid {
                        // Poisson replace-one: x vs x2, each in the batch with probability q.
                        let d = hockey_stick(&mixture(q, x), &mixture(q, x2), sigma, eps);
                        assert!(
                            d <= up_r1 + tol,
                            "poisson r1 {x} {x2} eps={eps}: {d} > {up_r1}"
                        );
                        // Without replacement: the slot is filled by another record at g; the
                        // outputs are (1-q)N(0)+qN(x-g) vs (1-q)N(0)+qN(x2-g), shifted by the rest.
                        for &g in &grid {
                            let d =
                                hockey_stick(&mixture(q, x - g), &mixture(q, x2 - g), sigma, eps);
                            assert!(
                                d <= up_wor + tol,
                                "wor {x} {x2} {g} eps={eps}: {d} > {up_wor}"
                            );
                        }
                    }
                }
                // The adversarial-record construction attains the lower pairs (others at -1,
                // the record +1 vs -1; others at +1 for the reversed order), and the centred
                // Poisson pair is below it at eps >= 0.5: it is no upper bound for fixed batches.
                let attained = hockey_stick(&mixture(q, 2.0), &mixture(0.0, 0.0), sigma, eps);
                let reversed = hockey_stick(&mixture(0.0, 0.0), &mixture(q, 2.0), sigma, eps);
                let (p0, p1) = (wor.lower[0].profile(eps), wor.lower[1].profile(eps));
                assert!(
                    (attained - p0).abs() < 1e-7,
                    "wor remove {attained} vs {p0}"
                );
                assert!((reversed - p1).abs() < 1e-7, "wor add {reversed} vs {p1}");
                if eps >= 0.5 && q < 0.5 {
                    assert!(up_r1 < attained, "q={q} eps={eps}: {up_r1} vs {attained}");
                }
            }
        }
    }
}
