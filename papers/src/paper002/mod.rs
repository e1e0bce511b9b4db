//! Seed 002: privacy and generalization of DP GD, DP RMSprop and DP Adam (THEOREMS.md §7): the
//! statement claims ([`adaptive`]), the steps of their proofs ([`steps`]) and the proof maps
//! ([`proof_map`]).

pub mod adaptive;
pub mod proof_map;
pub mod steps;
