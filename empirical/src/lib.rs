//! # dpclaims-empirical
//!
//! Seeded simulations of the algorithms the papers analyse, and the estimators that turn
//! their trials into confidence intervals. Nothing here knows a bound: this crate never
//! imports `dpclaims-theorems`.
//!
//! - [`rng`]: one ChaCha8 stream per (run seed, claim, case, trial).
//! - [`runner`]: trials in parallel, reduced in trial order (bit-identical for any thread count).
//! - [`subspace`]: eigenprojector perturbation instances (seed 003).
//! - [`stats`]: mergeable accumulators and intervals (Student t, empirical Bernstein,
//!   Clopper–Pearson), each estimate carrying n, confidence level and seed.
//! - [`problems`]: finite populations with exact population quantities.
//! - [`adaptive`]: DPAGD (DP GD / RMSprop / Adam) on P-cauchy and the Appendix D instance (seed 002).
//! - [`contraction`]: exact 1-D law propagation of projected noisy SGD on a grid, 2-D projected chain (seed 001).
//! - [`algorithms`]: Algorithm 1 of seed 000 (SGLD / DP-SGD), single and coupled chains.
//! - [`privacy_loss`]: the privacy loss of the subsampled Gaussian, sampled from the mechanism.
//! - [`loss_tilt`]: the exponential tilt of that loss (the remove pair), importance sampling of its tail.

#![warn(missing_docs)]

pub mod adaptive;
pub mod algorithms;
pub mod contraction;
pub mod langevin;
pub mod loss_tilt;
pub mod privacy_loss;
pub mod problems;
pub mod rng;
pub mod runner;
pub mod stats;
pub mod subspace;

/// The `rand` every simulation here draws with ([`rng::TrialRng`] implements its traits):
/// use this one in code that samples from a [`rng::TrialRng`], so the traits match.
pub use rand;
/// The `rand_distr` matching [`rand`] (normal, chi-squared, ... samplers).
pub use rand_distr;
