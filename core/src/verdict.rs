//! Verdicts: how a measured quantity, with its confidence interval, is compared with a bound.
//!
//! Let $c$ be the per-outcome confidence level (the run's level $C$ split over its $k$
//! outcomes by Bonferroni: $c = 1-(1-C)/k$), and $[L, U]$ the estimate's limits.
//! - `at-most` (measured $\le$ bound): **respected** if $U\le$ bound, **violated** if
//!   $L>$ bound, else **inconclusive**; $L$ and $U$ are one-sided limits at level $c$.
//! - `at-least`: mirrored.
//! - `within` (the measured quantity must lie in the window [`lower`, bound], e.g. a Monte Carlo
//!   δ in an accountant's [optimistic, pessimistic] bracket, or a rate exponent in a stated
//!   range): $\[L,U\]$ two-sided at level $c$; **violated** if $U<$ lower or $L>$ bound (the
//!   whole interval outside the window), **respected** only if the whole interval lies inside
//!   the window widened by its stated `slack` on each side,
//!   $\[L,U\]\subseteq[\text{lower}-s,\text{bound}+s]$, else **inconclusive**. Overlap is not
//!   enough: an interval that merely touches the window has not shown the value is in it. The
//!   slack is the window's own tolerance (an equivalence margin), stated by the claim and
//!   recorded in the outcome; a window that is itself a tolerance band around a point
//!   prediction (e.g. a slope $-\tfrac12\pm0.15$) has slack 0.
//! - `lcl<=` (the claim bounds a quantity from above, and the measurement bounds it only from
//!   below): **violated** if the one-sided lower limit $L>$ bound, else **not refuted**, never
//!   *respected*: no upper limit was compared with the bound. A `not-refuted` outcome does not
//!   make `check` fail, and summaries count it on its own.
//! - `reproduces` (the simulation must reproduce an exactly computed value $v$ within a
//!   relative tolerance $\tau$): $\[L,U\]$ is two-sided at level $c$; **violated** if
//!   $v\notin\[L,U\]$, **respected** if $\[L,U\]\subseteq[v-\tau|v|,v+\tau|v|]$ (an equivalence
//!   test), else **inconclusive**.
//!
//! The probability that any verdict of a run is wrong is at most $1-C$ (when the intervals'
//! nominal coverage holds).

use dpclaims_empirical::stats::{Estimate, Sides};
use serde::{Deserialize, Serialize, Serializer};

use crate::params::Params;

/// The relation the measured quantity must have to the bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Relation {
    /// measured $\le$ bound.
    AtMost,
    /// measured $\ge$ bound.
    AtLeast,
    /// The measurement reproduces the exactly computed value `bound` (equivalence test).
    Reproduces {
        /// Relative tolerance $\tau$.
        tolerance: f64,
    },
    /// measured $\in$ [`lower`, bound]: respected when the whole interval lies in the window
    /// widened by `slack` on each side, violated when it lies wholly outside the window.
    Within {
        /// Lower end of the admissible range.
        lower: f64,
        /// Absolute margin added to each end of the window for `respected` (the window's own
        /// tolerance; 0 when the window is already a tolerance band).
        slack: f64,
    },
    /// The claim bounds a quantity from above, and the measurement only bounds that quantity
    /// from below (e.g. a Monte Carlo lower confidence limit on a hockey-stick divergence):
    /// violated if the lower limit exceeds the bound, otherwise [`Verdict::NotRefuted`]. Used
    /// only where an exact route checks the same claim from above.
    LowerLimitAtMost,
}

impl Relation {
    /// The sidedness the estimate's interval needs.
    pub fn sides(&self) -> Sides {
        match self {
            Relation::AtMost | Relation::AtLeast | Relation::LowerLimitAtMost => Sides::One,
            Relation::Reproduces { .. } | Relation::Within { .. } => Sides::Two,
        }
    }

    /// `<=`, `>=`, `==`, `in` or `lcl<=` (tables).
    pub fn symbol(&self) -> &'static str {
        match self {
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
            Relation::Reproduces { .. } => "==",
            Relation::Within { .. } => "in",
            Relation::LowerLimitAtMost => "lcl<=",
        }
    }

    /// The verdict for an estimate against `bound`.
    pub fn judge(&self, m: &Estimate, bound: f64) -> Verdict {
        match *self {
            Relation::LowerLimitAtMost if m.lower > bound => Verdict::Violated,
            Relation::LowerLimitAtMost => Verdict::NotRefuted,
            Relation::AtMost if m.upper <= bound => Verdict::Respected,
            Relation::AtMost if m.lower > bound => Verdict::Violated,
            Relation::AtLeast if m.lower >= bound => Verdict::Respected,
            Relation::AtLeast if m.upper < bound => Verdict::Violated,
            Relation::Reproduces { tolerance } => {
                if bound < m.lower || bound > m.upper {
                    Verdict::Violated
                } else if m.lower >= bound - tolerance * bound.abs()
                    && m.upper <= bound + tolerance * bound.abs()
                {
                    Verdict::Respected
                } else {
                    Verdict::Inconclusive
                }
            }
            Relation::Within { lower, slack } => {
                if m.upper < lower || m.lower > bound {
                    Verdict::Violated
                } else if m.lower >= lower - slack && m.upper <= bound + slack {
                    Verdict::Respected
                } else {
                    Verdict::Inconclusive
                }
            }
            _ => Verdict::Inconclusive,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
/// The result of comparing an estimate with its bound (module documentation).
pub enum Verdict {
    /// The claim holds on this case at the stated confidence.
    Respected,
    /// The claim fails on this case at the stated confidence.
    Violated,
    /// The interval is too wide to tell (run more trials).
    Inconclusive,
    /// A one-sided check from below (`lcl<=`) found no violation: the claim is not refuted, but
    /// nothing was shown to hold (no upper limit was compared with the bound).
    NotRefuted,
}

impl Verdict {
    /// `respected`, `violated`, `inconclusive` or `not-refuted`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Respected => "respected",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotRefuted => "not-refuted",
        }
    }
}

/// Per-outcome level after splitting the run's level `family` over `k` outcomes.
pub fn bonferroni(family: f64, k: usize) -> f64 {
    1.0 - (1.0 - family) / k.max(1) as f64
}

/// JSON has no infinities: finite numbers stay numbers, others become `"inf"`, `"-inf"`, `"nan"`.
pub fn serialize_f64<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else if x.is_nan() {
        s.serialize_str("nan")
    } else if *x > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

/// The result of checking one case of one claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Claim id, e.g. `stability.lemma5`.
    pub claim: String,
    /// The case's parameters (after `--set`), including the checkpoint it reports.
    pub params: Params,
    /// The bound.
    #[serde(serialize_with = "serialize_f64")]
    pub bound: f64,
    /// The estimate with its interval, n, level, method and seed.
    pub measured: Estimate,
    /// The relation that must hold.
    pub relation: Relation,
    /// The verdict.
    pub verdict: Verdict,
    /// measured mean / bound.
    #[serde(serialize_with = "serialize_f64")]
    pub tightness: f64,
    /// The run seed.
    pub seed: u64,
    /// The run's family-wise confidence level (split over the run's outcomes).
    pub family_confidence: f64,
    /// The mutant run, if any.
    pub mutant: Option<String>,
    /// The claim's printed statement is known to fail here ([`crate::claim::ClaimInfo::known_false`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub known_false: bool,
    /// The outcome holds by construction ([`crate::claim::ClaimInfo::tautologies`]): why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tautology: Option<&'static str>,
    /// For a slope statistic (a rate exponent fitted through design points), the points the
    /// line is fitted through, in design order; empty for every other statistic. Used by the
    /// report's plots only: not serialized (snapshots and JSON lines record the slope).
    #[serde(skip)]
    pub design: Vec<DesignPoint>,
}

/// One design point of a fitted log–log slope: the mean of the measured quantity at `x` and a
/// two-sided interval on it. The intervals of a slope's $k$ points are simultaneous at the
/// outcome's per-outcome level $c$ (each at $1-(1-c)/k$, Bonferroni), and they are for display:
/// the verdict uses the slope's own interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DesignPoint {
    /// The design point $x$ (e.g. the dimension $p$ or the sample size $n$).
    pub x: f64,
    /// The mean of the measured quantity at $x$.
    pub mean: f64,
    /// Lower end of its interval.
    pub lower: f64,
    /// Upper end of its interval.
    pub upper: f64,
}

impl Outcome {
    /// Violated where the claim is expected to hold: what makes `check` exit 1.
    pub fn unexpectedly_violated(&self) -> bool {
        self.verdict == Verdict::Violated && !self.known_false
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use dpclaims_empirical::stats::{Method, exact};

    /// An estimate with limits `lower` and `upper` (test helper, also for `detection`).
    pub(crate) fn est(lower: f64, upper: f64) -> Estimate {
        Estimate {
            mean: (lower + upper) / 2.0,
            lower,
            upper,
            n: 10,
            confidence: 0.99,
            sides: Sides::One,
            method: Method::StudentT,
            seed: 0,
        }
    }

    #[test]
    fn verdict_rules() {
        assert_eq!(
            Relation::AtMost.judge(&est(0.0, 1.0), 1.0),
            Verdict::Respected
        );
        assert_eq!(
            Relation::AtMost.judge(&est(0.5, 1.5), 1.0),
            Verdict::Inconclusive
        );
        assert_eq!(
            Relation::AtMost.judge(&est(1.1, 1.5), 1.0),
            Verdict::Violated
        );
        assert_eq!(
            Relation::AtLeast.judge(&est(1.1, 1.5), 1.0),
            Verdict::Respected
        );
        assert_eq!(
            Relation::AtLeast.judge(&est(0.0, 0.9), 1.0),
            Verdict::Violated
        );
        let r = Relation::Reproduces { tolerance: 0.05 };
        assert_eq!(r.judge(&est(0.98, 1.02), 1.0), Verdict::Respected);
        assert_eq!(r.judge(&est(0.9, 1.02), 1.0), Verdict::Inconclusive);
        assert_eq!(r.judge(&est(1.01, 1.02), 1.0), Verdict::Violated);
        assert_eq!(
            Relation::AtMost.judge(&exact(2.0, 0), f64::INFINITY),
            Verdict::Respected
        );
        assert!((bonferroni(0.999, 10) - 0.9999).abs() < 1e-15);
    }

    /// Issue 18 item 4: a lower limit at or below the bound does not make the claim respected.
    #[test]
    fn lower_limit_checks_are_not_refuted_never_respected() {
        let r = Relation::LowerLimitAtMost;
        assert_eq!(r.judge(&est(0.1, 0.9), 1.0), Verdict::NotRefuted);
        assert_eq!(r.judge(&est(1.1, 1.9), 1.0), Verdict::Violated);
        assert_eq!(Verdict::NotRefuted.as_str(), "not-refuted");
        assert_eq!(
            serde_json::to_value(Verdict::NotRefuted).unwrap(),
            serde_json::json!("not-refuted")
        );
    }

    /// Issue 18 item 3: an interval that only overlaps the window is not respected.
    #[test]
    fn within_needs_the_interval_inside_the_window() {
        let w = Relation::Within {
            lower: -0.65,
            slack: 0.0,
        };
        // Touching the window from above (was `respected`: overlap and a narrow interval).
        assert_eq!(w.judge(&est(-0.40, -0.10), -0.35), Verdict::Inconclusive);
        assert_eq!(w.judge(&est(-0.60, -0.40), -0.35), Verdict::Respected);
        assert_eq!(w.judge(&est(-0.30, -0.10), -0.35), Verdict::Violated);
        assert_eq!(w.judge(&est(-0.90, -0.70), -0.35), Verdict::Violated);
        // The slack widens the window for `respected` only.
        let s = Relation::Within {
            lower: 1.0,
            slack: 0.1,
        };
        assert_eq!(s.judge(&est(0.95, 2.05), 2.0), Verdict::Respected);
        assert_eq!(s.judge(&est(0.95, 2.15), 2.0), Verdict::Inconclusive);
        assert_eq!(s.judge(&est(2.01, 2.05), 2.0), Verdict::Violated);
    }
}
