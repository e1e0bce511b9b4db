//! # dpclaims-render
//!
//! Rendering of outcomes: the terminal tables of `check` and `search`, `report.md` and SVG
//! plots. It reads the data types of `dpclaims-core` ([`dpclaims_core::verdict::Outcome`],
//! search results, proof-map results, detection tables) and imports nothing else of the
//! workspace: what a report shows beside the outcomes comes in as arguments
//! ([`report::ReportContext`]).
#![warn(missing_docs)]

pub mod claim_plots;
pub mod plot;
pub mod report;
pub mod search;
