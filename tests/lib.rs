//! dpclaims integration tests (one binary).
//!
//! - `claims`: every claim respected at its default size with a fixed seed, outcomes
//!   snapshot-recorded; every mutant reported violated.
//! - `contraction`: THEOREMS.md §4 grid reference values.
//! - `detection`: the committed detection thresholds cover every claim and recompute.
//! - `cli`: exit codes, error messages, and byte-identical JSON for 1 and 2 threads.
//! - `properties`: proptest properties of the bound calculators, quickcheck properties of stats.

mod audit;
mod claims;
mod cli;
mod conformance;
mod contraction;
mod detection;
mod dominating;
mod events;
mod labels;
mod multipass;
mod plots;
mod proofs;
mod properties;
mod randomness;
mod renyi;
mod search;

/// The seed of every recorded outcome.
pub const SEED: u64 = 7;
