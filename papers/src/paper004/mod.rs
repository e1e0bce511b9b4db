//! Seed 004: Ganesh & Talwar (2020), a Rényi bound between discretized and continuous Langevin
//! (THEOREMS.md §5): the claims checked by simulation ([`renyi`]) and on exact Gaussian laws
//! ([`renyi_exact`]), the steps of their proofs ([`steps`]) and the proof maps ([`proof_map`]).

pub mod proof_map;
pub mod renyi;
pub mod renyi_exact;
pub mod steps;
