//! Seed 003: Zhou, Wu, Banerjee (2021), a gradient subspace identified from public data
//! (PDP-SGD; THEOREMS.md §6): the statement claims ([`subspace`]). No proof map yet.

pub mod subspace;
