//! # dpclaims-papers
//!
//! The built-in claims: one folder per paper, each holding the paper's statement claims, the
//! claims of its proof steps and the proof maps that order them, plus the claims about the
//! reference accountants ([`accountants`]). Everything here implements the contract of
//! [`dpclaims_core::claim::Claim`] and runs through the same harness as an outside claim.
//!
//! A new claim about paper N goes into `paperN/` (a statement claim beside the paper's others,
//! a proof step into its `steps` module and the map that uses it into `proof_map`); add it to
//! the paper's `claims()` list, and give it a test in `tests/claims.rs` of the `dpclaims`
//! crate.
#![warn(missing_docs)]

pub mod accountants;
pub mod paper000;
pub mod paper001;
pub mod paper002;
pub mod paper003;
pub mod paper004;

use dpclaims_core::claim::Claim;
use dpclaims_core::detection::DetectionFile;
use dpclaims_core::proofs::ProofMap;

pub use paper000::{last_iterate, multipass, stability};
pub use paper001::contraction;
pub use paper002::adaptive;
pub use paper003::subspace;
pub use paper004::{renyi, renyi_exact};

/// Every built-in claim, in a stable order.
pub fn registry() -> Vec<&'static dyn Claim> {
    let mut all = stability::claims();
    all.extend(last_iterate::claims());
    all.extend(multipass::claims());
    all.extend(accountants::claims());
    all.extend(renyi::claims());
    all.extend(renyi_exact::claims());
    all.extend(adaptive::claims());
    all.extend(contraction::claims());
    all.extend(subspace::claims());
    all.extend(paper000::steps::claims());
    all.extend(paper001::steps::claims());
    all.extend(paper001::identities::claims());
    all.extend(paper002::steps::claims());
    all.extend(paper003::steps::claims());
    all.extend(paper004::steps::claims());
    all
}

/// Every built-in proof map, in paper order.
pub fn maps() -> Vec<&'static ProofMap> {
    paper000::proof_map::MAPS
        .iter()
        .chain(paper001::proof_map::MAPS.iter())
        .chain(paper002::proof_map::MAPS.iter())
        .chain(paper003::proof_map::MAPS.iter())
        .chain(paper004::proof_map::MAPS.iter())
        .collect()
}

/// The detection thresholds of the built-in claims (`docs/detection.json`), compiled in.
pub const DETECTION_JSON: &str = include_str!("../../docs/detection.json");

/// The committed detection table ([`DETECTION_JSON`]); `None` if it does not parse (a test
/// guards it).
pub fn detection() -> Option<DetectionFile> {
    DetectionFile::parse(DETECTION_JSON).ok()
}
