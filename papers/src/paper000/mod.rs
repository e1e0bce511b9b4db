//! Seed 000: Ma, Marinov, Zhang (2022), *Dimension independent generalization of DP-SGD for
//! overparameterized smooth convex optimization*, arXiv 2206.01836 (THEOREMS.md §1–3).
//! DP-SGD as a Langevin algorithm: Lemma 5 and Proposition 2 ([`stability`]), the single-pass
//! last-iterate results ([`last_iterate`]), the multi-pass results ([`multipass`]), the steps
//! of their proofs ([`steps`]) and the proof maps that order them ([`proof_map`]).

pub mod last_iterate;
pub mod multipass;
pub mod proof_map;
pub mod stability;
pub mod steps;
