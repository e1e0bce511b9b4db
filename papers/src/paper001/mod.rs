//! Seed 001: the contraction inequality that makes the privacy loss of projected DP-SGD
//! converge (THEOREMS.md §4): the statement claims ([`contraction`]), the steps of their proofs
//! ([`steps`]) and the proof maps ([`proof_map`]).

pub mod contraction;
pub mod identities;
pub mod proof_map;
pub mod steps;
