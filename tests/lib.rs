//! dpclaims integration tests (one binary).
//!
//! Two tiers, one switch: `cargo test` runs the fast tier; `DPCLAIMS_FULL=1 cargo test` the
//! full-size tier (every claim at its default size with its snapshot compared, the expensive
//! properties at full size). The fast tier keeps every claim's and every mutant's test, each
//! at the size the rule of [`dpclaims::testing`] derives from its margin (`tests/claims.rs`),
//! and runs a smaller, fixed instance of each expensive property (fewer adversarial runs,
//! fewer seeds or claims, fewer trials), chosen so that it can still fail. [`full`] reads the
//! switch.
//!
//! - `claims`: every claim respected at its default size with a fixed seed, outcomes
//!   snapshot-recorded; every mutant reported violated.
//! - `contraction`: THEOREMS.md §4 grid reference values; theta's derivative in r.
//! - `detection`: the committed detection thresholds cover every claim and recompute.
//! - `cli`: exit codes, error messages, and byte-identical JSON for 1 and 2 threads.
//! - `papers`: the built-in claims' registry and crate (its unit tests, kept here so that the
//!   crate compiles once).
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
mod papers;
mod plots;
mod proofs;
mod properties;
mod randomness;
mod renyi;
mod search;

/// The seed of every recorded outcome.
pub const SEED: u64 = 7;

/// Whether the full-size tier is selected (`DPCLAIMS_FULL=1`, [`dpclaims::testing::full_tier`]).
pub fn full() -> bool {
    dpclaims::testing::full_tier()
}
