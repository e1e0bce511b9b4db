//! Privacy accountants for DP-SGD, used as certified references (ACCOUNTING.md).
//!
//! DP-SGD is the $T$-fold composition of the subsampled Gaussian mechanism with noise
//! multiplier $\sigma$ (noise std / clipping norm $C$) and sampling rate $q$. Every result
//! carries its neighbouring relation and sampling scheme:
//! - [`gaussian`]: the exact privacy profile of the Gaussian mechanism (Balle & Wang 2018).
//! - [`rdp`]: Rényi DP of the Poisson-subsampled Gaussian (Mironov, Talwar & Zhang 2019) and
//!   its conversions to $(\epsilon,\delta)$ (Mironov 2017; Canonne, Kamath & Steinke 2020).
//! - [`pld`]: privacy-loss-distribution accounting with pessimistic (upper) and optimistic
//!   (lower) discretisations, composed by FFT.
//! - [`pair`]: the dominating pair of one step in closed form (masses, exact privacy profile).
//! - [`dominating`]: which pairs dominate one step, for each sampling scheme and relation.
//! - [`shuffle`]: a certified lower reference for shuffled fixed-size batches (maximum statistic).
//! - [`composition`]: advanced composition and amplification by subsampling for
//!   $(\epsilon,\delta)$ mechanisms.

pub mod composition;
pub mod dominating;
pub mod event;
#[allow(missing_docs)] // documented in the PLD work
pub mod event_pld;
pub mod gaussian;
pub mod mechanism_pld;
pub mod pair;
#[allow(missing_docs)] // documented in the PLD work
pub mod pld;
pub mod random_allocation;
pub mod rdp;
pub mod shuffle;

use crate::error::{ParamError, at_least, positive};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which datasets are neighbours (names `add-remove`, `replace-one`; with the `clap` feature a
/// `clap::ValueEnum` of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Neighbouring {
    /// One record present in one dataset and absent in the other (sensitivity $C$).
    AddRemove,
    /// One record's value changed (sensitivity $2C$ under clipping).
    ReplaceOne,
}

/// How each step's batch is drawn: the one sampling enum of dpclaims (the accountants, the
/// audit rows and the CLI's `--sampling`).
///
/// Its names ([`FromStr`], [`Display`](fmt::Display), the CLI and the audit
/// rows) are `poisson`, `wor`, `shuffle`, `none` and `random-allocation` (read also as
/// `balls-in-bins`). Serde writes `without-replacement` for `wor` (the accountants' JSON
/// answers) and reads either. With the `clap` feature it is a `clap::ValueEnum` of the schemes
/// a one-step accountant covers (`shuffle` and `random-allocation` are not: the CLI's
/// `--sampling random-allocation` is its own value, routed to an event).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Sampling {
    /// Each record independently with probability $q$.
    Poisson,
    /// A fixed-size batch of $qn$ records without replacement, independently at every step.
    #[serde(alias = "wor")]
    #[cfg_attr(feature = "clap", value(name = "wor"))]
    WithoutReplacement,
    /// Fixed-size batches cut from a fresh random permutation every epoch. No dominating pair of
    /// one step covers it (the accountants refuse it, naming `sampling`); the audit bounds it per
    /// epoch ([`shuffle`]).
    #[cfg_attr(feature = "clap", value(skip))]
    Shuffle,
    /// Every record every step ($q=1$).
    None,
    /// Random allocation ($k=1$, "balls-in-bins"): each record in exactly one of the $t$ steps
    /// of an epoch, uniformly. No dominating pair of one step covers it (the accountants refuse
    /// it, naming `sampling`); its epochs are bounded by [`random_allocation`], in the audit too.
    #[serde(alias = "balls-in-bins")]
    #[cfg_attr(feature = "clap", value(skip))]
    RandomAllocation,
}

impl Sampling {
    /// Every scheme, in the order of its names.
    pub const ALL: [Sampling; 5] = [
        Sampling::Poisson,
        Sampling::Shuffle,
        Sampling::WithoutReplacement,
        Sampling::None,
        Sampling::RandomAllocation,
    ];

    /// The scheme's name: `poisson`, `shuffle`, `wor`, `none` or `random-allocation`.
    pub fn name(self) -> &'static str {
        match self {
            Sampling::Poisson => "poisson",
            Sampling::Shuffle => "shuffle",
            Sampling::WithoutReplacement => "wor",
            Sampling::None => "none",
            Sampling::RandomAllocation => "random-allocation",
        }
    }
}

impl fmt::Display for Sampling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scheme by its name ([`Sampling::name`]); an error names `sampling` and the names.
impl FromStr for Sampling {
    type Err = ParamError;

    fn from_str(s: &str) -> Result<Self, ParamError> {
        if s == "balls-in-bins" {
            return Ok(Sampling::RandomAllocation);
        }
        Sampling::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                ParamError::new(
                    "sampling",
                    format!("{s:?}"),
                    "poisson, shuffle, wor, none or random-allocation (balls-in-bins)",
                )
            })
    }
}

/// A DP-SGD run as an accountant sees it: $T$ steps of the subsampled Gaussian mechanism.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DpSgd {
    /// Sampling rate $q\in(0,1]$ (1 when `sampling` is `None`).
    pub q: f64,
    /// Noise multiplier $\sigma>0$.
    pub sigma: f64,
    /// Number of steps $T\ge1$.
    pub steps: u64,
    /// How each step's batch is drawn.
    pub sampling: Sampling,
    /// Which datasets are neighbours.
    pub neighbouring: Neighbouring,
}

impl DpSgd {
    /// A validated run: $q\in(0,1]$ ($q=1$ without sampling), $\sigma>0$, $T\ge1$.
    pub fn new(
        q: f64,
        sigma: f64,
        steps: u64,
        sampling: Sampling,
        neighbouring: Neighbouring,
    ) -> Result<Self, ParamError> {
        if !(q > 0.0 && q <= 1.0) {
            return Err(ParamError::new("q", q, "a sampling rate in (0, 1]"));
        }
        if sampling == Sampling::None && q != 1.0 {
            return Err(ParamError::new("q", q, "1 when sampling is none"));
        }
        positive("sigma", sigma)?;
        at_least("steps", steps, 1)?;
        Ok(Self {
            q,
            sigma,
            steps,
            sampling,
            neighbouring,
        })
    }
}

/// `delta` in $(0,1)$.
pub(crate) fn check_delta(delta: f64) -> Result<f64, ParamError> {
    if delta > 0.0 && delta < 1.0 {
        Ok(delta)
    } else {
        Err(ParamError::new("delta", delta, "a number in (0, 1)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the CLI and the audit rows accept, and the serde names of the JSON answers
    /// (`without-replacement`), stay what they were.
    #[test]
    fn sampling_names_round_trip_and_serde_keeps_its_names() {
        for s in Sampling::ALL {
            assert_eq!(s.to_string().parse::<Sampling>(), Ok(s));
        }
        let names: Vec<String> = Sampling::ALL.iter().map(Sampling::to_string).collect();
        assert_eq!(
            names,
            ["poisson", "shuffle", "wor", "none", "random-allocation"]
        );
        assert_eq!(
            "balls-in-bins".parse::<Sampling>(),
            Ok(Sampling::RandomAllocation)
        );
        let e = "bernoulli".parse::<Sampling>().unwrap_err();
        assert_eq!(e.name, "sampling");
        let json = |s: Sampling| serde_json::to_string(&s).unwrap();
        assert_eq!(
            json(Sampling::WithoutReplacement),
            r#""without-replacement""#
        );
        assert_eq!(json(Sampling::Poisson), r#""poisson""#);
        for text in [r#""wor""#, r#""without-replacement""#] {
            let s: Sampling = serde_json::from_str(text).unwrap();
            assert_eq!(s, Sampling::WithoutReplacement);
        }
    }
}
