//! Privacy-loss-distribution (PLD) accounting for DP-SGD.
//!
//! For a pair of output distributions $(P,Q)$ of one step, the privacy loss is
//! $L=\ln\frac{p(x)}{q(x)}$, $x\sim P$, and for every $\epsilon$
//! $$\delta(\epsilon)=\mathbb E_P\big[(1-e^{\epsilon-L})_+\big]+P(L=\infty).$$
//! $T$ steps compose by adding independent losses. dpclaims discretises $L$ on the grid
//! $\ell_k=k\Delta_L$. **Pessimistic** (an upper bound on $\delta(\epsilon)$): the
//! connect-the-dots distribution of Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (2022), whose
//! profile matches the exact one at every grid point and is linear in $e^\epsilon$ in between
//! (above the convex exact profile, so it dominates the true pair; its error is second order in
//! $\Delta_L$ and does not grow like $T\Delta_L$). **Optimistic** (a lower bound): the outcomes
//! whose loss falls in a cell are merged into one outcome (post-processing, so the merged pair
//! is dominated by the true one), with cell boundaries chosen so that each merged loss
//! $\ln(P(\text{cell})/Q(\text{cell}))$ is at least the grid loss its mass is placed at
//! (placing mass at a lower loss only lowers $\delta$); the mass below the grid is dropped.
//! Its error is also second order. Composition is one FFT power on a window of the composed support chosen by
//! Chernoff bounds; the mass outside the window (at most `tail_mass` per side) is added to
//! $+\infty$ for the pessimistic estimate and subtracted from the optimistic one, so both stay
//! bounds up to floating point.
//!
//! Dominating pairs: [`super::dominating`] says, for each sampling scheme and relation, which
//! pairs bound one step from above (composed pessimistically) and which are realised by
//! neighbouring datasets (composed optimistically: certified lower references). A pair whose
//! order the adversary may flip at every step (fixed-size batches under replace-one) is composed
//! as its symmetrisation ([`Pld::symmetrized`]).
//!
//! The module, bottom up (each file imports only the ones before it):
//! - `options`: [`PldOptions`] (grid spacing, tail mass, [`Focus`], point budget);
//! - `grid`: the discretised distribution [`Pld`], its round-off envelope [`RoundOff`], and its
//!   queries [`Pld::delta`], [`Pld::epsilon`], [`Pld::log_mgf`];
//! - `bracket`: [`PldBracket`], the [optimistic, pessimistic] answer;
//! - `discretise`: one step of a [`Pair`] on the grid ([`Pld::single`], [`Pld::symmetrized`]);
//! - [`tilted_fft`]: the exponentially tilted FFT with its certified error bound;
//! - `compose`: $T$-fold composition ([`Pld::compose`]), convolution ([`Pld::convolve`]) and the
//!   compositions of DP-SGD's dominating pairs ([`compose_groups`], [`dp_sgd_epsilon`], ...).

mod bracket;
mod compose;
mod discretise;
mod grid;
mod options;
pub mod tilted_fft;

pub use super::pair::Pair;
pub use bracket::PldBracket;
pub use compose::{
    Composed, compose_groups, compose_heterogeneous, compose_plds, composed,
    delta_with_tails_below_it, dp_sgd_delta, dp_sgd_epsilon, pair_delta,
};
pub use grid::{Pld, RoundOff, Rounding, Window};
pub use options::{Focus, MAX_FFT, PldOptions};

#[cfg(test)]
mod tests;
