//! # dpclaims-accounting
//!
//! Privacy accountants for DP-SGD and the tools that check other accountants against them. It
//! imports nothing of the claim harness: it stands on its own (the Python package wraps it), and
//! the `dpclaims` CLI re-exports it.
//!
//! - [`privacy`]: the mathematics. Events ([`privacy::event`]), the dominating pair of one step
//!   ([`privacy::pair`], [`privacy::dominating`]), PLD accounting ([`privacy::pld`]), RDP
//!   ([`privacy::rdp`]), the Gaussian mechanism, shuffled batches, composition theorems.
//! - [`query`]: one ε or δ query to the reference accountants, with its bracket and its notes
//!   (`dpclaims epsilon` / `delta`).
//! - [`compare`]: one run under each batch sampler (Poisson, random allocation, shuffling, no
//!   amplification) side by side, certified brackets grouped by relation (`dpclaims compare`).
//! - [`audit`]: is a reported ε right? Certified references and a Monte Carlo lower limit
//!   (`dpclaims audit`).
//! - [`conformance`]: a seeded suite of event queries judged by metamorphic properties and the
//!   certified bracket (`dpclaims conformance`).
//! - [`line_protocol`]: the JSON-lines exchange with an external accountant (one line each way,
//!   a timeout per query), shared by the audit and the conformance suite.
//! - `cli` (feature `cli`): the accountant commands of the command line, which the `dpclaims`
//!   binary and the Python package's `dpclaims` command both run.
//! - [`error`] and [`numerics`]: the typed parameter error ([`ParamError`], whose
//!   [`ParamErrorKind`] says e.g. that a PLD grid is too fine) and the log-space special
//!   functions.
//!
//! Imports flow one way: `query` → `privacy` → `error`, `numerics`; `compare` → `query`,
//! `privacy`; `audit` and `conformance` →
//! `query`, `line_protocol`, `privacy`. Inside `privacy`, the one-step pair ([`privacy::pair`])
//! is below the dominating pairs, which are below the PLD composition
//! ([`privacy::pld`]'s `compose`); the discretised distribution ([`privacy::pld::Pld`]) is below
//! both its tilted FFT and its composition.
//!
//! ## Where a new thing goes
//! - **A new event type**: a variant of [`privacy::event::Event`] (its JSON name and fields as
//!   dp_accounting spells them, parsed and validated in the same module, an error naming the
//!   JSON path), then its PLD in [`privacy::event_pld`]'s walk (a Gaussian-like one through
//!   [`privacy::dominating`], a discrete or Laplace-like one in [`privacy::mechanism_pld`]);
//!   an event the PLD does not cover stays an `Unsupported` error naming its path. Add it to the
//!   conformance suite's generator ([`conformance::generate`]).
//! - **A new sampling scheme**: a variant of [`privacy::Sampling`] (its `FromStr`/`Display`
//!   name is what the CLI and the audit rows accept), then its dominating pairs, derived in the
//!   rustdoc of [`privacy::dominating`] (one place: the PLD, the RDP and the Monte Carlo all
//!   read the pairs from there), and the Monte Carlo's simulated pairs in [`audit`]. An
//!   accountant that does not cover a scheme says so with an error naming `sampling`.
//! - **A new reference accountant**: a module under [`privacy`] returning
//!   `Result<_, ParamError>`, and an [`query::Accountant`] variant that runs it.

#![warn(missing_docs)]

pub mod audit;
pub mod cancel;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compare;
pub mod conformance;
pub mod error;
pub mod line_protocol;
pub mod numerics;
pub mod privacy;
pub mod query;

pub use error::{ParamError, ParamErrorKind};
