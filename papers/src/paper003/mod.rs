//! Seed 003: Zhou, Wu, Banerjee (2021), a gradient subspace identified from public data
//! (PDP-SGD; THEOREMS.md §6): the statement claims ([`subspace`]), the algebraic steps of their
//! proofs ([`steps`]) and the proof maps ([`proof_map`]).

pub mod proof_map;
pub mod steps;
pub mod subspace;
