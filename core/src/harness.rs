//! Running claims: selection, parameter overrides, simulation, intervals and verdicts.

use crate::Error;
use crate::claim::{self, Claim, Measurement, RunSpec, Statistic};
use crate::params::Params;
use crate::verdict::{DesignPoint, Outcome, bonferroni};
use dpclaims_empirical::runner::{Shard, fold};
use dpclaims_empirical::stats::{self, Estimate, StatsError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

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
    /// Caps the `trials` of every case (after `trials`): quick runs that keep small defaults.
    pub max_trials: Option<u64>,
    /// Run seed: same seed, same numbers, on any number of threads.
    pub seed: u64,
    /// Family-wise confidence level of the whole run (Bonferroni over its outcomes).
    pub confidence: f64,
    /// `--set key=value` overrides, applied to every case that has the key.
    pub sets: Vec<(String, Value)>,
    /// The `sets` are the whole case (`--exact`): every selected claim runs that one case, not
    /// its default cases with overrides, so its keys need not be in any default case (a search's
    /// reproducer, whose instance can have a shape no default case has).
    pub exact: bool,
    /// Run this mutant of every selected claim that has it (the others are skipped).
    pub mutant: Option<String>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// Run only this slice of every case's trials (see [`check_shard`]).
    pub shard: Option<Shard>,
    /// Relative error injected into every selected claim's algorithm ([`RunSpec::perturbation`];
    /// 0: none).
    pub perturbation: f64,
    /// Remember each case's measurement for the process, by claim id, case and run (seed,
    /// mutant, shard, perturbation), and answer a repeat from memory. A measurement is a
    /// deterministic function of these, so no number changes — provided a claim id names one
    /// implementation in the process (the registry's claims; not a test's wrapper that keeps
    /// the id of the claim it wraps). The test tiers set it: a claim's test and the proof maps
    /// run the same statement claims at the same sizes.
    pub remember: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            patterns: Vec::new(),
            trials: None,
            max_trials: None,
            seed: DEFAULT_SEED,
            confidence: DEFAULT_CONFIDENCE,
            sets: Vec::new(),
            exact: false,
            mutant: None,
            progress: false,
            shard: None,
            perturbation: 0.0,
            remember: false,
        }
    }
}

/// The measurements [`CheckOptions::remember`] keeps, by claim id, case and run.
fn remembered() -> &'static std::sync::Mutex<std::collections::HashMap<String, Vec<Measurement>>> {
    static MEMO: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, Vec<Measurement>>>,
    > = std::sync::OnceLock::new();
    MEMO.get_or_init(Default::default)
}

/// The cases of `claim` with `--set` and `--trials` applied to every case that has the key.
/// Caps a case's `trials` at `cap` (a case that does not simulate has none and is unchanged).
pub(crate) fn cap_trials(case: &mut Params, cap: u64) {
    if let Ok(n) = case.u64("trials") {
        if n > cap {
            case.set("trials", Value::from(cap));
        }
    }
}

/// The claim's cases with `--set`, `--trials` and `--max-trials` applied; cases that the
/// overrides make identical are run once (a `search` reproducer sets every parameter, which
/// makes every default case of that shape the instance).
pub(crate) fn cases_with_overrides(claim: &dyn Claim, opts: &CheckOptions) -> Vec<Params> {
    let mut cases = if opts.exact {
        vec![Params(opts.sets.iter().cloned().collect())]
    } else {
        claim.cases()
    };
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
        if let Some(cap) = opts.max_trials {
            cap_trials(case, cap);
        }
    }
    let mut seen = Vec::new();
    cases.retain(|c| {
        let fresh = !seen.contains(c);
        if fresh {
            seen.push(c.clone());
        }
        fresh
    });
    cases
}

fn estimate(
    statistic: &Statistic,
    confidence: f64,
    sides: stats::Sides,
    seed: u64,
) -> Result<Estimate, StatsError> {
    let folded = |blocks: &[stats::MeanAcc]| fold(blocks.to_vec()).unwrap_or_default();
    match statistic {
        Statistic::Mean { blocks } => stats::student_t(&folded(blocks), confidence, sides, seed),
        Statistic::BoundedMean { blocks, lo, hi } => {
            stats::empirical_bernstein(&folded(blocks), *lo, *hi, confidence, sides, seed)
        }
        Statistic::Proportion { blocks } => stats::clopper_pearson(
            fold(blocks.clone()).unwrap_or_default(),
            confidence,
            sides,
            seed,
        ),
        Statistic::RenyiMoment { blocks, alpha } => {
            let m = stats::student_t(&folded(blocks), confidence, sides, seed)?;
            let to_d = |x: f64| {
                if x > 0.0 {
                    x.ln() / (alpha - 1.0)
                } else {
                    f64::NEG_INFINITY
                }
            };
            Ok(Estimate {
                mean: to_d(m.mean),
                lower: to_d(m.lower),
                upper: to_d(m.upper),
                ..m
            })
        }
        Statistic::Exact { value } => Ok(stats::exact(*value, seed)),
        Statistic::Maximum { blocks, lower } => {
            let lower = lower.as_ref().map(|l| folded(l));
            stats::maximum(&folded(blocks), lower.as_ref(), seed)
        }
        Statistic::Computed { value, error } => Ok(stats::computed(*value, *error, seed)),
        Statistic::Refined { fine, coarse } => Ok(stats::refinement_estimate(*fine, *coarse, seed)),
        Statistic::Bracket { lower, upper } => stats::bracket(*lower, *upper, seed),
        Statistic::HalfLineHockeyStick { histogram, epsilon } => {
            stats::half_line_hockey_stick(histogram, *epsilon, confidence, sides, seed)
        }
        Statistic::LogSlope { xs, points } => {
            let accs: Vec<stats::MeanAcc> = points.iter().map(|b| folded(b)).collect();
            stats::log_slope(xs, &accs, confidence, sides, seed)
        }
        Statistic::PairedLogSlope { xs, blocks } => {
            let acc = fold(blocks.clone()).unwrap_or_else(|| stats::VectorAcc::new(xs.len()));
            stats::paired_log_slope(xs, &acc, confidence, sides, seed)
        }
    }
}

/// The design points of a slope statistic, each mean with a two-sided Student t interval, the
/// $k$ points simultaneous at `confidence` (each at $1-(1-c)/k$); empty for any other statistic,
/// or when a point has too few trials for an interval (the slope's own estimate then fails and
/// says why). For a paired design the interval of point $j$ is the marginal one (component $j$
/// of the trials' vectors).
fn design_points(statistic: &Statistic, confidence: f64, seed: u64) -> Vec<DesignPoint> {
    let point = |x: f64, acc: &stats::MeanAcc, level: f64| {
        stats::student_t(acc, level, stats::Sides::Two, seed)
            .ok()
            .map(|e| DesignPoint {
                x,
                mean: e.mean,
                lower: e.lower,
                upper: e.upper,
            })
    };
    let points: Option<Vec<DesignPoint>> = match statistic {
        Statistic::LogSlope { xs, points } => {
            let level = bonferroni(confidence, xs.len());
            xs.iter()
                .zip(points)
                .map(|(x, blocks)| point(*x, &fold(blocks.to_vec()).unwrap_or_default(), level))
                .collect()
        }
        Statistic::PairedLogSlope { xs, blocks } => {
            let level = bonferroni(confidence, xs.len());
            let acc = fold(blocks.clone()).unwrap_or_else(|| stats::VectorAcc::new(xs.len()));
            xs.iter()
                .enumerate()
                .map(|(j, x)| {
                    let marginal = stats::MeanAcc {
                        n: acc.n,
                        mean: acc.mean.get(j).copied().unwrap_or(f64::NAN),
                        m2: acc.covariance(j, j) * acc.n.saturating_sub(1) as f64,
                        non_finite: acc.non_finite,
                        ..stats::MeanAcc::default()
                    };
                    point(*x, &marginal, level)
                })
                .collect()
        }
        _ => None,
    };
    points.unwrap_or_default()
}

/// One claim's measurement, tagged with the claim id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The claim's id.
    pub claim: String,
    /// What its `measure` returned.
    #[serde(flatten)]
    pub measurement: Measurement,
}

/// Selects the claims of `claims` matching `opts.patterns`, validates the options and runs
/// every case (or its shard).
pub fn measure(claims: &[&dyn Claim], opts: &CheckOptions) -> Result<Vec<Measured>, Error> {
    if !(opts.confidence > 0.0 && opts.confidence < 1.0) {
        return Err(Error::Confidence(opts.confidence));
    }
    if !(opts.perturbation >= 0.0 && opts.perturbation < 1.0) {
        return Err(Error::Input(format!(
            "--perturb {} is out of range: expected a relative error in [0, 1)",
            opts.perturbation
        )));
    }
    for n in [opts.trials, opts.max_trials].into_iter().flatten() {
        if n < 2 {
            return Err(Error::Trials(n));
        }
    }
    let mut selected = claim::select(claims, &opts.patterns)?;
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
    if opts.exact && opts.sets.is_empty() {
        return Err(Error::Input(
            "--exact runs the case given by --set: give every parameter with --set key=value"
                .into(),
        ));
    }
    for (key, _) in opts.sets.iter().filter(|_| !opts.exact) {
        if !known.contains(key) {
            return Err(Error::UnknownParam {
                key: key.clone(),
                known: known.iter().cloned().collect::<Vec<_>>().join(", "),
            });
        }
    }
    let work: Vec<(&dyn Claim, Vec<crate::params::Params>)> = selected
        .iter()
        .map(|c| (*c, cases_with_overrides(*c, opts)))
        .collect();
    // A progress bar on stderr over the cases (only when asked for: terminals, no --quiet).
    let bar = if opts.progress {
        let total = work.iter().map(|(_, cases)| cases.len() as u64).sum();
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} cases  {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut measured = Vec::new();
    for (claim, cases) in work {
        let id = claim.info().id;
        bar.set_message(id);
        let run = RunSpec {
            seed: opts.seed,
            mutant: opts.mutant.as_deref(),
            shard: opts.shard,
            perturbation: opts.perturbation,
        };
        for case in cases {
            let key = opts.remember.then(|| {
                format!(
                    "{id}|{}|{}|{:?}|{:?}|{}",
                    serde_json::to_string(&case).unwrap_or_default(),
                    run.seed,
                    run.mutant,
                    run.shard,
                    run.perturbation
                )
            });
            let known = key
                .as_ref()
                .and_then(|k| remembered().lock().ok()?.get(k).cloned());
            let ms = match known {
                Some(ms) => ms,
                None => {
                    let ms = claim.measure(&case, run).map_err(|source| Error::Param {
                        claim: id.to_string(),
                        source,
                    })?;
                    if let (Some(k), Ok(mut memo)) = (key, remembered().lock()) {
                        memo.insert(k, ms.clone());
                    }
                    ms
                }
            };
            measured.extend(ms.into_iter().map(|m| Measured {
                claim: id.to_string(),
                measurement: m,
            }));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(measured)
}

/// Intervals and verdicts for measurements of `claims`, with the run's level split over all
/// of them. A NaN bound or estimate is an error ([`Error::NotANumber`]), never a verdict.
pub fn outcomes(
    claims: &[&dyn Claim],
    measured: Vec<Measured>,
    seed: u64,
    confidence: f64,
    mutant: Option<&str>,
) -> Result<Vec<Outcome>, Error> {
    let level = bonferroni(confidence, measured.len());
    let infos: std::collections::BTreeMap<&str, &claim::ClaimInfo> =
        claims.iter().map(|c| (c.info().id, c.info())).collect();
    measured
        .into_iter()
        .map(
            |Measured {
                 claim,
                 measurement: m,
             }| {
                let est =
                    estimate(&m.statistic, level, m.relation.sides(), seed).map_err(|source| {
                        Error::Stats {
                            claim: claim.clone(),
                            source,
                        }
                    })?;
                let relation_nan = match m.relation {
                    crate::verdict::Relation::Within { lower, slack } => {
                        lower.is_nan() || slack.is_nan()
                    }
                    crate::verdict::Relation::Reproduces { tolerance } => tolerance.is_nan(),
                    _ => false,
                };
                let nan = if m.bound.is_nan() || relation_nan {
                    Some("bound")
                } else if est.mean.is_nan() || est.lower.is_nan() || est.upper.is_nan() {
                    Some("estimate")
                } else {
                    None
                };
                if let Some(what) = nan {
                    return Err(Error::NotANumber {
                        claim,
                        case: m.params.compact(),
                        what,
                    });
                }
                let info = infos.get(claim.as_str());
                let known_false = info.is_some_and(|i| i.known_false);
                let tautology = info.and_then(|i| i.tautology(&m.params));
                let design = design_points(&m.statistic, level, seed);
                Ok(Outcome {
                    design,
                    verdict: m.relation.judge(&est, m.bound),
                    tightness: est.mean / m.bound,
                    claim,
                    params: m.params,
                    bound: m.bound,
                    measured: est,
                    relation: m.relation,
                    seed,
                    family_confidence: confidence,
                    mutant: mutant.map(str::to_string),
                    known_false,
                    tautology,
                })
            },
        )
        .collect()
}

/// Selects the claims of `claims` matching `opts.patterns` (built-in ones from
/// `dpclaims::claims::registry`, outside ones, or both), validates the options, runs every case and
/// returns the outcomes in claim and case order.
pub fn check(claims: &[&dyn Claim], opts: &CheckOptions) -> Result<Vec<Outcome>, Error> {
    let measured = measure(
        claims,
        &CheckOptions {
            shard: None,
            ..opts.clone()
        },
    )?;
    outcomes(
        claims,
        measured,
        opts.seed,
        opts.confidence,
        opts.mutant.as_deref(),
    )
}

/// What a shard writes: the run's settings and the sufficient statistics of its slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// `dpclaims-shard-1`.
    pub format: String,
    /// Which slice of the run this is.
    pub shard: Shard,
    /// The run's settings ([`CheckOptions`]): claim globs, trials, seed, family-wise
    /// confidence, `--set` overrides and mutant. Shards merge only when these agree.
    pub patterns: Vec<String>,
    /// See `patterns`.
    pub trials: Option<u64>,
    /// See `patterns`.
    pub seed: u64,
    /// See `patterns`.
    pub confidence: f64,
    /// See `patterns`.
    pub sets: Vec<(String, serde_json::Value)>,
    /// See `patterns`.
    pub mutant: Option<String>,
    /// See `patterns`.
    #[serde(default)]
    pub perturbation: f64,
    /// The slice's sufficient statistics, in claim and case order.
    pub measurements: Vec<Measured>,
}

const SHARD_FORMAT: &str = "dpclaims-shard-1";

/// Runs one shard of [`check`] (`opts.shard` must be set).
pub fn check_shard(claims: &[&dyn Claim], opts: &CheckOptions) -> Result<ShardFile, Error> {
    let shard = opts
        .shard
        .ok_or_else(|| Error::Input("a shard run needs --shard K/N".into()))?;
    Ok(ShardFile {
        format: SHARD_FORMAT.into(),
        shard,
        patterns: opts.patterns.clone(),
        trials: opts.trials,
        seed: opts.seed,
        confidence: opts.confidence,
        sets: opts.sets.clone(),
        mutant: opts.mutant.clone(),
        perturbation: opts.perturbation,
        measurements: measure(claims, opts)?,
    })
}

/// Merges the shards `1/N..N/N` of one run into the outcomes [`check`] gives for the whole run
/// (`claims` must contain the claims the shards ran).
pub fn merge(claims: &[&dyn Claim], mut files: Vec<ShardFile>) -> Result<Vec<Outcome>, Error> {
    let first = files
        .first()
        .ok_or_else(|| Error::Input("merge needs at least one shard file".into()))?
        .clone();
    let n = first.shard.count;
    files.sort_by_key(|f| f.shard.index);
    let indices: Vec<u64> = files.iter().map(|f| f.shard.index).collect();
    if indices != (1..=n).collect::<Vec<_>>() || files.iter().any(|f| f.shard.count != n) {
        return Err(Error::Input(format!(
            "merge needs the shards 1/{n} to {n}/{n}, each once; got {}",
            files
                .iter()
                .map(|f| format!("{}/{}", f.shard.index, f.shard.count))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let same_run = |f: &ShardFile| {
        f.format == SHARD_FORMAT
            && f.patterns == first.patterns
            && f.trials == first.trials
            && f.seed == first.seed
            && f.confidence == first.confidence
            && f.sets == first.sets
            && f.mutant == first.mutant
            && f.perturbation == first.perturbation
            && f.measurements.len() == first.measurements.len()
    };
    if let Some(f) = files.iter().find(|f| !same_run(f)) {
        return Err(Error::Input(format!(
            "shard {}/{n} is not from the same run as the others (its settings differ)",
            f.shard.index
        )));
    }
    let mut iter = files.into_iter();
    let mut merged = iter.next().expect("at least one shard").measurements;
    for f in iter {
        for (m, later) in merged.iter_mut().zip(f.measurements) {
            let same = m.claim == later.claim && m.measurement.params == later.measurement.params;
            if !same || !m.measurement.statistic.extend(later.measurement.statistic) {
                return Err(Error::Input(format!(
                    "shard {}/{n}: a measurement of {} does not match",
                    f.shard.index, m.claim
                )));
            }
        }
    }
    outcomes(
        claims,
        merged,
        first.seed,
        first.confidence,
        first.mutant.as_deref(),
    )
}

/// The environment variables `--shard auto` reads.
pub const SHARD_ENV: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

/// The shard a run covers, from `--shard` (`K/N` or `auto`) and `--shards N`, reading the
/// scheduler's job-array index from `env` (a lookup such as `|k| std::env::var(k).ok()`) for
/// `auto`:
///
/// - **Slurm** job arrays (`sbatch --array=A-B[:S]`): task `SLURM_ARRAY_TASK_ID` $=i$ of the
///   range with `SLURM_ARRAY_TASK_MIN` $=a$, `SLURM_ARRAY_TASK_STEP` $=s$ (default 1) and
///   `SLURM_ARRAY_TASK_COUNT` $=N$ (or `SLURM_ARRAY_TASK_MAX` $=b$, $N=(b-a)/s+1$) is shard
///   $K=(i-a)/s+1$ of $N$, whether the array counts from 0 or 1;
/// - **Kubernetes** Indexed Jobs: `JOB_COMPLETION_INDEX` $=i\in[0,N)$ is shard $K=i+1$ of the
///   $N$ given by `--shards` (the Job's `completions`; the pod does not see it).
///
/// `--shards N`, when given, must agree with the shard count found. Every error names the
/// option or variable at fault.
pub fn resolve_shard(
    shard: Option<&str>,
    shards: Option<u64>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, Error> {
    let resolved = match shard {
        None if shards.is_some() => {
            return Err(Error::Input(
                "--shards N needs --shard auto (or --shard K/N)".into(),
            ));
        }
        None => return Ok(None),
        Some("auto") => auto_shard(shards, env)?,
        Some(spec) => Shard::parse(spec).map_err(Error::Input)?,
    };
    match shards {
        Some(n) if n != resolved.count => Err(Error::Input(format!(
            "--shards {n} disagrees with the {} shards of the run (shard {}/{})",
            resolved.count, resolved.index, resolved.count
        ))),
        _ => Ok(Some(resolved)),
    }
}

fn auto_shard(shards: Option<u64>, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, Error> {
    let int = |name: &str| -> Result<Option<u64>, Error> {
        env(name)
            .map(|v| {
                v.trim().parse::<u64>().map_err(|_| {
                    Error::Input(format!(
                        "--shard auto: {name}={v:?} is not a non-negative integer"
                    ))
                })
            })
            .transpose()
    };
    let bad = |what: String| Error::Input(format!("--shard auto: {what}"));
    if let Some(id) = int("SLURM_ARRAY_TASK_ID")? {
        let min = int("SLURM_ARRAY_TASK_MIN")?.ok_or_else(|| {
            bad("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not".into())
        })?;
        let step = int("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
        if step == 0 {
            return Err(bad("SLURM_ARRAY_TASK_STEP=0: expected a step >= 1".into()));
        }
        let from_max = int("SLURM_ARRAY_TASK_MAX")?
            .filter(|max| *max >= min)
            .map(|max| (max - min) / step + 1);
        let count = match (int("SLURM_ARRAY_TASK_COUNT")?, from_max) {
            (Some(c), Some(m)) if c != m => {
                return Err(bad(format!(
                    "SLURM_ARRAY_TASK_COUNT={c} but MIN/MAX/STEP give {m} tasks: the array must be one range A-B[:S]"
                )));
            }
            (Some(c), _) | (None, Some(c)) => c,
            (None, None) => {
                return Err(bad(
                    "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is"
                        .into(),
                ));
            }
        };
        if id < min || (id - min) % step != 0 || (id - min) / step >= count {
            return Err(bad(format!(
                "SLURM_ARRAY_TASK_ID={id} is not in the array {min}-{}:{step}",
                min + (count.max(1) - 1) * step
            )));
        }
        return Ok(Shard {
            index: (id - min) / step + 1,
            count,
        });
    }
    if let Some(i) = int("JOB_COMPLETION_INDEX")? {
        let n = shards.ok_or_else(|| {
            bad(
                "JOB_COMPLETION_INDEX is set: give the number of completions with --shards N"
                    .into(),
            )
        })?;
        if i >= n {
            return Err(bad(format!(
                "JOB_COMPLETION_INDEX={i} is not below --shards {n}"
            )));
        }
        return Ok(Shard {
            index: i + 1,
            count: n,
        });
    }
    Err(bad(
        "neither SLURM_ARRAY_TASK_ID (Slurm job array) nor JOB_COMPLETION_INDEX (Kubernetes Indexed Job) is set"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `remember`: a repeat (same id, case and run) is answered from memory with the same
    /// measurement; another seed, mutant or size is measured; without `remember` every run
    /// measures.
    #[test]
    fn remembered_measurements_are_reused_only_for_the_same_case_and_run() {
        use crate::claim::{ClaimInfo, Mutant};
        use crate::verdict::Relation;
        use dpclaims_accounting::ParamError;
        use std::sync::atomic::{AtomicUsize, Ordering};
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        const M: Mutant = Mutant {
            name: "m",
            description: "a mutant",
        };
        struct Counted;
        static INFO: ClaimInfo = ClaimInfo {
            id: "harness.memo_test",
            paper: "none",
            result: "none",
            statement: "value <= 1",
            mutants: &[M],
            known_false: false,
            tautologies: &[],
            perturbation: None,
        };
        impl Claim for Counted {
            fn info(&self) -> &ClaimInfo {
                &INFO
            }
            fn cases(&self) -> Vec<Params> {
                vec![crate::params! { "trials" => 100 }]
            }
            fn measure(
                &self,
                case: &Params,
                run: RunSpec<'_>,
            ) -> Result<Vec<Measurement>, ParamError> {
                CALLS.fetch_add(1, Ordering::SeqCst);
                Ok(vec![Measurement {
                    params: case.clone(),
                    bound: 1.0,
                    relation: Relation::AtMost,
                    statistic: Statistic::Exact {
                        value: (run.seed + case.u64("trials")?) as f64
                            + if run.mutant.is_some() { 1000.0 } else { 0.0 },
                    },
                }])
            }
        }
        let run = |opts: &CheckOptions| measure(&[&Counted], opts).unwrap();
        let calls = || CALLS.load(Ordering::SeqCst);
        let base = CheckOptions {
            seed: 3,
            remember: true,
            ..CheckOptions::default()
        };
        let first = run(&base);
        assert_eq!(calls(), 1);
        assert_eq!(run(&base), first);
        assert_eq!(calls(), 1, "a repeat is answered from memory");
        for other in [
            CheckOptions {
                seed: 4,
                ..base.clone()
            },
            CheckOptions {
                max_trials: Some(50),
                ..base.clone()
            },
            CheckOptions {
                mutant: Some("m".into()),
                ..base.clone()
            },
        ] {
            let before = calls();
            assert_ne!(run(&other), first);
            assert_eq!(calls(), before + 1, "{other:?}");
        }
        let before = calls();
        let forget = CheckOptions {
            remember: false,
            ..base
        };
        assert_eq!(run(&forget), first);
        assert_eq!(calls(), before + 1);
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    fn shard(index: u64, count: u64) -> Option<Shard> {
        Some(Shard { index, count })
    }

    #[test]
    fn slurm_arrays_from_0_or_1_with_steps() {
        let auto = |vars: &[(&str, &str)], n| resolve_shard(Some("auto"), n, &env(vars)).unwrap();
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ];
        assert_eq!(auto(&one_based, None), shard(3, 4));
        assert_eq!(auto(&one_based, Some(4)), shard(3, 4));
        let zero_based = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "5"),
        ];
        assert_eq!(auto(&zero_based, None), shard(1, 5));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto(&stepped, None), shard(4, 4));
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_count() {
        let vars = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(
            resolve_shard(Some("auto"), Some(3), &env(&vars)).unwrap(),
            shard(1, 3)
        );
        let e = resolve_shard(Some("auto"), None, &env(&vars)).unwrap_err();
        assert!(e.to_string().contains("--shards"), "{e}");
        let e = resolve_shard(
            Some("auto"),
            Some(3),
            &env(&[("JOB_COMPLETION_INDEX", "3")]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("JOB_COMPLETION_INDEX=3"), "{e}");
    }

    #[test]
    fn errors_name_the_variable_or_option() {
        let cases: [(&[(&str, &str)], Option<u64>, &str); 6] = [
            (&[], None, "JOB_COMPLETION_INDEX"),
            (
                &[("SLURM_ARRAY_TASK_ID", "x")],
                None,
                "SLURM_ARRAY_TASK_ID=\"x\"",
            ),
            (
                &[("SLURM_ARRAY_TASK_ID", "1")],
                None,
                "SLURM_ARRAY_TASK_MIN",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "9"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_MAX", "4"),
                ],
                None,
                "SLURM_ARRAY_TASK_ID=9",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_MAX", "4"),
                ],
                Some(3),
                "--shards 3",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_MIN", "1"),
                    ("SLURM_ARRAY_TASK_MAX", "8"),
                    ("SLURM_ARRAY_TASK_COUNT", "3"),
                ],
                None,
                "SLURM_ARRAY_TASK_COUNT=3",
            ),
        ];
        for (vars, n, needle) in cases {
            let e = resolve_shard(Some("auto"), n, &env(vars))
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{vars:?}: {e}");
        }
        assert_eq!(resolve_shard(None, None, &env(&[])).unwrap(), None);
        assert!(resolve_shard(None, Some(2), &env(&[])).is_err());
        assert!(resolve_shard(Some("2/3"), Some(4), &env(&[])).is_err());
        assert_eq!(
            resolve_shard(Some("2/3"), Some(3), &env(&[])).unwrap(),
            shard(2, 3)
        );
    }
}
