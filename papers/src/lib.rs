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
    all.extend(paper002::steps::claims());
    all.extend(paper004::steps::claims());
    all
}

/// Every built-in proof map, in paper order.
pub fn maps() -> Vec<&'static ProofMap> {
    paper000::proof_map::MAPS
        .iter()
        .chain(paper001::proof_map::MAPS.iter())
        .chain(paper002::proof_map::MAPS.iter())
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

#[cfg(test)]
mod tests {
    use super::*;
    use dpclaims_core::claim::select;

    #[test]
    fn the_committed_table_parses() {
        assert!(detection().is_some(), "docs/detection.json does not parse");
    }

    #[test]
    fn select_filters_any_set_and_refuses_duplicate_ids() {
        let all = registry();
        let (a, b) = (all[0], all[1]);
        let picked = select(&[b, a], &[a.info().id.to_string()]).unwrap();
        assert_eq!(picked.len(), 1);
        assert_eq!(picked[0].info().id, a.info().id);
        assert_eq!(select(&[b, a], &[]).unwrap().len(), 2);
        match select(&[a, b, a], &[]) {
            Err(dpclaims_core::Error::DuplicateClaim(id)) => assert_eq!(id, a.info().id),
            other => panic!(
                "expected a duplicate-id error, got {:?}",
                other.map(|v| v.len())
            ),
        }
        assert!(matches!(
            select(&[a], &["nothing.*".to_string()]),
            Err(dpclaims_core::Error::UnknownClaim(_))
        ));
    }

    /// Issue 18 item 5: the outcomes true by construction are declared, and matched by value.
    #[test]
    fn tautologies_are_declared_and_matched() {
        let all = registry();
        let info = |id: &str| all.iter().find(|c| c.info().id == id).unwrap().info();
        let calib = info("subspace.privacy.calib");
        let rdp =
            dpclaims_core::params! { "accountant" => "RDP, integer orders 2..511", "c2" => 2.157 };
        let pld = dpclaims_core::params! { "accountant" => "PLD, pessimistic", "c2" => 2.157 };
        assert!(calib.tautology(&rdp).is_some());
        assert!(calib.tautology(&pld).is_none());
        let rank = info("subspace.thm5.rank");
        assert!(
            rank.tautology(&dpclaims_core::params! { "tau" => 0.0 })
                .is_some()
        );
        assert!(
            rank.tautology(&dpclaims_core::params! { "tau" => 0.15 })
                .is_none()
        );
        let rate = info("subspace.rate");
        assert!(
            rate.tautology(&dpclaims_core::params! { "method" => "pdp-sgd" })
                .is_some()
        );
        assert!(
            rate.tautology(&dpclaims_core::params! { "method" => "dp-sgd" })
                .is_none()
        );
        assert!(
            !info("stability.lemma5.cond")
                .mutants
                .iter()
                .any(|m| m.name == "constant-step")
        );
    }

    #[test]
    fn ids_are_unique_and_mutants_present() {
        let all = registry();
        let mut ids: Vec<_> = all.iter().map(|c| c.info().id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        assert!(
            all.iter()
                .all(|c| c.info().known_false || !c.info().mutants.is_empty())
        );
    }
}
