//! `dpclaims audit`: is a reported ε for a DP-SGD run right?
//!
//! Each row states a run (sampling scheme, rate or batch/dataset size, σ, steps or epochs or a
//! schedule of phases, neighbouring relation) and a claimed (ε, δ). dpclaims computes
//! - an **upper reference**: an ε certified to be at least the true one (the PLD pessimistic
//!   composition of the [`Dominating`](crate::privacy::dominating::Dominating) pairs; for
//!   shuffled batches, the Gaussian mechanism with sensitivity 2C once per started epoch, which
//!   reveals the hidden batch position);
//! - a **lower reference**: an ε certified to be at most the true one (the PLD optimistic
//!   composition of the pairs that datasets realise; for shuffled batches, of the largest batch
//!   output of each full epoch in the worst configuration of the other records,
//!   [`shuffle`](crate::privacy::shuffle));
//! - a **Monte Carlo lower confidence limit** on δ(claimed ε) from simulated privacy losses of
//!   the realised pairs (stratified on the number of steps that draw the record, with exact
//!   Binomial weights, for one-phase runs; importance sampling with defensive mixtures; pair,
//!   strata, proposals and truncation levels chosen by a pilot run on its own streams;
//!   KL-Chernoff and Bernstein limits; the level split over the rows).
//!
//! Verdict: **unsound** if the claimed ε is below the lower reference or the Monte Carlo limit
//! on δ(claimed ε) exceeds the claimed δ; otherwise **sound-tight** if the claimed ε is at or
//! above the upper reference by at most the tolerance, **sound-loose** above that (with the
//! ratio), and **unverified** below the upper reference (nothing certifies it, nothing refutes it).
//!
//! The module, bottom up (each file imports only the ones before it): `rows` (the input:
//! [`validate`], [`parse`], [`ask_command`]), `outcome` (the types of an answer: [`Audit`],
//! [`AuditVerdict`], [`AuditOptions`]), `references` ([`references`]), `monte_carlo` (the
//! simulated pairs and their lower limits), `verdict` ([`audit`]) and `render` ([`table`],
//! [`svg`]).

mod monte_carlo;
mod outcome;
mod references;
mod render;
mod rows;
mod verdict;

pub use outcome::{Audit, AuditOptions, AuditVerdict, Curves, McPoint, MonteCarlo};
pub use references::{References, references};
pub use render::{svg, table};
pub use rows::{Format, NumberedRow, Row, RowError, ask_command, parse, parse_phases, validate};
pub use verdict::audit;
