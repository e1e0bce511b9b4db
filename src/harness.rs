//! Running claims: selection, parameter overrides, simulation, intervals and verdicts.

use crate::Error;
use crate::claims::{self, Claim, Measurement, RunSpec, Statistic};
use crate::params::Params;
use crate::verdict::{Outcome, bonferroni};
use dpclaims_empirical::stats::{self, Estimate, StatsError};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Instant;

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 1;
/// The family-wise confidence level used when none is given.
pub const DEFAULT_CONFIDENCE: f64 = 0.999;

/// What `dpclaims check` runs.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Claim-id globs; empty = every claim.
    pub patterns: Vec<String>,
    /// Overrides the `trials` of every case that simulates.
    pub trials: Option<u64>,
    pub seed: u64,
    /// Family-wise confidence level of the whole run (Bonferroni over its outcomes).
    pub confidence: f64,
    /// `--set key=value` overrides, applied to every case that has the key.
    pub sets: Vec<(String, Value)>,
    /// Run this mutant of every selected claim that has it (the others are skipped).
    pub mutant: Option<String>,
    /// Progress lines on stderr.
    pub progress: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            patterns: Vec::new(),
            trials: None,
            seed: DEFAULT_SEED,
            confidence: DEFAULT_CONFIDENCE,
            sets: Vec::new(),
            mutant: None,
            progress: false,
        }
    }
}

/// The cases of `claim` with `--set` and `--trials` applied to every case that has the key.
fn cases_with_overrides(claim: &dyn Claim, opts: &CheckOptions) -> Vec<Params> {
    let mut cases = claim.cases();
    for case in &mut cases {
        for (key, value) in &opts.sets {
            if case.contains(key) {
                case.set(key, value.clone());
            }
        }
        if let Some(n) = opts.trials {
            if case.contains("trials") {
                case.set("trials", Value::from(n));
            }
        }
    }
    cases
}

fn estimate(
    statistic: &Statistic,
    confidence: f64,
    sides: stats::Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    match statistic {
        Statistic::Mean(acc) => stats::student_t(acc, confidence, sides, seed),
        Statistic::BoundedMean { acc, lo, hi } => {
            stats::empirical_bernstein(acc, *lo, *hi, confidence, sides, seed)
        }
        Statistic::Proportion(count) => stats::clopper_pearson(*count, confidence, sides, seed),
        Statistic::Exact(v) => Ok(stats::exact(*v, seed)),
    }
}

/// Selects the claims, validates the options, runs every case and returns the outcomes in
/// claim and case order.
pub fn check(opts: &CheckOptions) -> Result<Vec<Outcome>, Error> {
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        return Err(Error::Confidence(opts.confidence));
    }
    if let Some(n) = opts.trials {
        if n < 2 {
            return Err(Error::Trials(n));
        }
    }
    let mut selected = claims::select(&opts.patterns)?;
    if let Some(name) = &opts.mutant {
        let known: BTreeSet<&str> = selected
            .iter()
            .flat_map(|c| c.info().mutants.iter().map(|m| m.name))
            .collect();
        if !known.contains(name.as_str()) {
            return Err(Error::UnknownMutant {
                name: name.clone(),
                known: known.into_iter().collect::<Vec<_>>().join(", "),
            });
        }
        selected.retain(|c| c.info().mutants.iter().any(|m| m.name == name));
    }
    let known: BTreeSet<String> = selected
        .iter()
        .flat_map(|c| c.cases())
        .flat_map(|p| p.0.into_keys())
        .collect();
    for (key, _) in &opts.sets {
        if !known.contains(key) {
            return Err(Error::UnknownParam {
                key: key.clone(),
                known: known.iter().cloned().collect::<Vec<_>>().join(", "),
            });
        }
    }

    let mut measured: Vec<(&dyn Claim, Measurement)> = Vec::new();
    for (i, claim) in selected.iter().enumerate() {
        let id = claim.info().id;
        let start = Instant::now();
        let run = RunSpec {
            seed: opts.seed,
            mutant: opts.mutant.as_deref(),
        };
        for case in cases_with_overrides(*claim, opts) {
            let ms = claim.measure(&case, run).map_err(|source| Error::Param {
                claim: id.to_string(),
                source,
            })?;
            measured.extend(ms.into_iter().map(|m| (*claim, m)));
        }
        if opts.progress {
            eprintln!(
                "[{}/{}] {id}: done in {:.1} s",
                i + 1,
                selected.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }

    let level = bonferroni(opts.confidence, measured.len());
    measured
        .into_iter()
        .map(|(claim, m)| {
            let id = claim.info().id.to_string();
            let est =
                estimate(&m.statistic, level, m.relation.sides(), opts.seed).map_err(|source| {
                    Error::Stats {
                        claim: id.clone(),
                        source,
                    }
                })?;
            Ok(Outcome {
                verdict: m.relation.judge(&est, m.bound),
                tightness: est.mean / m.bound,
                claim: id,
                params: m.params,
                bound: m.bound,
                measured: est,
                relation: m.relation,
                seed: opts.seed,
                family_confidence: opts.confidence,
                mutant: opts.mutant.clone(),
            })
        })
        .collect()
}
