//! `dpclaims audit`: is a reported ε for a DP-SGD run right?
//!
//! Each row states a run (sampling scheme, rate or batch/dataset size, σ, steps or epochs or a
//! schedule of phases, neighbouring relation) and a claimed (ε, δ). dpclaims computes
//! - an **upper reference**: an ε certified to be at least the true one (the PLD pessimistic
//!   composition of the [`Dominating`] pairs; for shuffled batches, the Gaussian mechanism with
//!   sensitivity 2C once per started epoch, which reveals the hidden batch position);
//! - a **lower reference**: an ε certified to be at most the true one (the PLD optimistic
//!   composition of the pairs that datasets realise; for shuffled batches, of the largest batch
//!   output of each full epoch, [`shuffle`]);
//! - a **Monte Carlo lower confidence limit** on δ(claimed ε) from simulated privacy losses of
//!   the realised pairs (importance sampling with a defensive mixture chosen by a pilot run,
//!   values truncated at a pilot-chosen cap, KL-Chernoff and empirical-Bernstein limits; the
//!   level split over rows and over the simulated pairs).
//!
//! Verdict: **unsound** if the claimed ε is below the lower reference or the Monte Carlo limit
//! on δ(claimed ε) exceeds the claimed δ; otherwise **sound-tight** if the claimed ε is at or
//! above the upper reference by at most the tolerance, **sound-loose** above that (with the
//! ratio), and **unverified** below the upper reference (nothing certifies it, nothing refutes it).

use crate::error::ParamError;
use crate::query::coarsening;
use dpclaims_empirical::privacy_loss::{LossPair, Phase, Tilt, shuffled_weighted_loss};
use dpclaims_empirical::rng::StreamKey;
use dpclaims_empirical::runner::run_trials;
use dpclaims_empirical::stats::{MeanAcc, kl_bernstein};
use crate::privacy::dominating::Dominating;
use crate::privacy::pld::{self, Pair, PldOptions};
use crate::privacy::{DpSgd, Neighbouring, Sampling, gaussian, shuffle};
use serde::Serialize;
use serde_json::Value;

/// A sampling scheme serialised by its row name ([`Sampling::name`]: `wor`, as rows spell it).
fn row_name<S: serde::Serializer>(sampling: &Sampling, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(sampling.name())
}

/// One validated input row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// 1-based line number in the input.
    pub line: usize,
    /// The row's `name` (default `line N`).
    pub name: String,
    /// How the run draws its batches.
    #[serde(serialize_with = "row_name")]
    pub sampling: Sampling,
    /// Sampling rate $q\in(0,1]$: `q`, or `batch`/`n` (1 without sampling).
    pub q: f64,
    /// Batches per epoch (shuffle only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batches_per_epoch: Option<u64>,
    /// Noise multiplier $\sigma>0$ (noise std / clipping norm).
    pub sigma: f64,
    /// Number of steps $T\ge1$: `steps`, or `epochs`$/q$ rounded up.
    pub steps: u64,
    /// The claimed $\delta\in(0,1)$.
    pub delta: f64,
    /// The claimed $\epsilon\ge0$ (`None` until an accountant run by `--command` supplies it).
    pub epsilon: Option<f64>,
    /// The neighbouring relation (replace-one for fixed-size batches).
    pub relation: Neighbouring,
    /// A schedule (Poisson or no sampling): phases of (q, sigma, steps) run in turn; `q`,
    /// `sigma` and `steps` above then summarise it (largest q, smallest sigma, total steps).
    #[serde(skip)]
    pub phases: Option<Vec<Phase>>,
    /// The row as given (sent to `--command` without `epsilon`).
    #[serde(skip)]
    pub raw: serde_json::Map<String, Value>,
}

/// A row that could not be audited.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RowError {
    /// 1-based line number in the input.
    pub line: usize,
    /// What is wrong with the row, naming the field.
    pub reason: String,
}

fn number(obj: &serde_json::Map<String, Value>, key: &str) -> Result<Option<f64>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| format!("`{key}` is not a finite number")),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(Some)
            .ok_or_else(|| format!("`{key}` = {s:?} is not a number")),
        Some(other) => Err(format!("`{key}` = {other} is not a number")),
    }
}

fn integer(obj: &serde_json::Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    match number(obj, key)? {
        None => Ok(None),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 1e15 => Ok(Some(x as u64)),
        Some(x) => Err(format!("`{key}` = {x} is not a non-negative integer")),
    }
}

/// Validates one row object; `need_epsilon` is false when an external command supplies it.
pub fn validate(
    line: usize,
    obj: serde_json::Map<String, Value>,
    need_epsilon: bool,
) -> Result<Row, RowError> {
    let err = |reason: String| RowError { line, reason };
    let text = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .map(|s| s.trim().to_lowercase())
    };
    let name = text("name").unwrap_or_else(|| format!("line {line}"));
    let sampling = match text("sampling") {
        Some(name) => name.parse::<Sampling>().map_err(|_| {
            err(format!(
                "`sampling` = {name:?}: expected poisson, shuffle, wor or none"
            ))
        })?,
        None => return Err(err("missing `sampling`".into())),
    };
    let relation = match text("relation").as_deref() {
        Some("add-remove") | None if !matches!(sampling, Sampling::Shuffle | Sampling::WithoutReplacement) => Neighbouring::AddRemove,
        Some("add-remove") => return Err(err("fixed-size batches (shuffle, wor) are analysed under replace-one; `relation` = add-remove is not defined for them".into())),
        Some("replace-one") | None => Neighbouring::ReplaceOne,
        Some(other) => return Err(err(format!("`relation` = {other:?}: expected add-remove or replace-one"))),
    };
    let get_num = |k: &str| number(&obj, k).map_err(err);
    let get_int = |k: &str| integer(&obj, k).map_err(err);
    if let Some(value) = obj.get("phases") {
        let phases = parse_phases(value).map_err(err)?;
        if sampling == Sampling::None {
            if let Some((i, p)) = phases.iter().enumerate().find(|(_, p)| p.q != 1.0) {
                return Err(err(format!(
                    "`phases[{i}].q` = {}: sampling none means q = 1",
                    p.q
                )));
            }
        }
        if !matches!(sampling, Sampling::Poisson | Sampling::None) {
            return Err(err(
                "`phases` (a schedule) is supported for poisson and none sampling".into(),
            ));
        }
        for key in ["q", "batch", "n", "sigma", "steps", "epochs"] {
            if obj.contains_key(key) {
                return Err(err(format!(
                    "`{key}` and `phases` both given: a schedule states q, sigma and steps per phase"
                )));
            }
        }
        let (delta, epsilon) = claim_of(&obj, need_epsilon).map_err(err)?;
        let q = if sampling == Sampling::None {
            1.0
        } else {
            phases.iter().map(|p| p.q).fold(0.0, f64::max)
        };
        return Ok(Row {
            line,
            name,
            sampling,
            q,
            batches_per_epoch: None,
            sigma: phases.iter().map(|p| p.sigma).fold(f64::INFINITY, f64::min),
            steps: phases.iter().map(|p| p.steps).sum(),
            delta,
            epsilon,
            relation,
            phases: Some(phases),
            raw: obj,
        });
    }
    let (n, batch) = (get_int("n")?, get_int("batch")?);
    let q = match (get_num("q")?, batch, n) {
        (Some(q), _, _) => q,
        (None, Some(b), Some(n)) if n > 0 => b as f64 / n as f64,
        (None, Some(_), Some(_)) => return Err(err("`n` must be > 0".into())),
        _ if sampling == Sampling::None => 1.0,
        _ => return Err(err("missing `q` (or `batch` and `n`)".into())),
    };
    if !(q > 0.0 && q <= 1.0) {
        return Err(err(format!(
            "`q` = {q} is out of range: expected a sampling rate in (0, 1]"
        )));
    }
    let sigma = get_num("sigma")?.ok_or_else(|| err("missing `sigma`".into()))?;
    if sigma <= 0.0 {
        return Err(err(format!(
            "`sigma` = {sigma} is out of range: expected a noise multiplier > 0"
        )));
    }
    let steps = match (get_int("steps")?, get_num("epochs")?) {
        (Some(t), _) => t,
        // T = ceil(epochs * n / b) with q = b/n exactly; tolerance against float rates (ACCOUNTING trap 7).
        (None, Some(e)) if e > 0.0 => {
            let exact = match (batch, n) {
                (Some(b), Some(n)) if b > 0 => e * n as f64 / b as f64,
                _ => e / q,
            };
            (exact - 1e-9 * exact.max(1.0)).ceil() as u64
        }
        (None, Some(e)) => {
            return Err(err(format!("`epochs` = {e} is out of range: expected > 0")));
        }
        (None, None) => return Err(err("missing `steps` (or `epochs`)".into())),
    };
    if steps == 0 {
        return Err(err("`steps` = 0: expected at least one step".into()));
    }
    let (delta, epsilon) = claim_of(&obj, need_epsilon).map_err(err)?;
    let batches_per_epoch = (sampling == Sampling::Shuffle).then(|| match (batch, n) {
        (Some(b), Some(n)) if b > 0 => n.div_ceil(b),
        _ => (1.0 / q).round().max(1.0) as u64,
    });
    Ok(Row {
        line,
        name,
        sampling,
        q,
        batches_per_epoch,
        sigma,
        steps,
        delta,
        epsilon,
        relation,
        phases: None,
        raw: obj,
    })
}

/// The claimed (δ, ε) of a row: δ in (0, 1), ε ≥ 0 (required unless an accountant supplies it).
fn claim_of(
    obj: &serde_json::Map<String, Value>,
    need_epsilon: bool,
) -> Result<(f64, Option<f64>), String> {
    let delta = number(obj, "delta")?.ok_or("missing `delta`")?;
    if !(delta > 0.0 && delta < 1.0) {
        return Err(format!(
            "`delta` = {delta} is out of range: expected a number in (0, 1)"
        ));
    }
    let epsilon = number(obj, "epsilon")?;
    if need_epsilon && epsilon.is_none() {
        return Err("missing `epsilon` (or audit an accountant with --command)".into());
    }
    if let Some(e) = epsilon.filter(|e| *e < 0.0) {
        return Err(format!("`epsilon` = {e} is out of range: expected >= 0"));
    }
    Ok((delta, epsilon))
}

/// Parses a schedule: a non-empty JSON array of `{"q": .., "sigma": .., "steps": ..}` (q in
/// (0, 1], sigma > 0, steps >= 1), errors naming the phase and the field.
pub fn parse_phases(value: &Value) -> Result<Vec<Phase>, String> {
    let Value::Array(items) = value else {
        return Err(
            "`phases` must be a JSON array of {\"q\", \"sigma\", \"steps\"} objects".into(),
        );
    };
    if items.is_empty() {
        return Err("`phases` is empty".into());
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let Value::Object(o) = item else {
                return Err(format!("`phases[{i}]` is not an object"));
            };
            if let Some(k) = o
                .keys()
                .find(|k| !matches!(k.as_str(), "q" | "sigma" | "steps"))
            {
                return Err(format!(
                    "`phases[{i}].{k}`: unknown field (expected q, sigma, steps)"
                ));
            }
            let at = |e: String| format!("`phases[{i}]`: {e}");
            let q = number(o, "q")
                .map_err(at)?
                .ok_or_else(|| format!("`phases[{i}].q` is missing"))?;
            let sigma = number(o, "sigma")
                .map_err(at)?
                .ok_or_else(|| format!("`phases[{i}].sigma` is missing"))?;
            let steps = integer(o, "steps")
                .map_err(at)?
                .ok_or_else(|| format!("`phases[{i}].steps` is missing"))?;
            if !(q > 0.0 && q <= 1.0) {
                return Err(format!(
                    "`phases[{i}].q` = {q} is out of range: expected a sampling rate in (0, 1]"
                ));
            }
            if !(sigma > 0.0) {
                return Err(format!(
                    "`phases[{i}].sigma` = {sigma} is out of range: expected > 0"
                ));
            }
            if steps == 0 {
                return Err(format!(
                    "`phases[{i}].steps` = 0: expected at least one step"
                ));
            }
            Ok(Phase { q, sigma, steps })
        })
        .collect()
}

/// Input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line.
    JsonLines,
    /// A header line of field names, then one row per line (no quoting).
    Csv,
}

/// One input row with its line number.
pub type NumberedRow = (usize, serde_json::Map<String, Value>);

/// Parses the input into row objects with their line numbers (blank lines and `#` comments skipped).
pub fn parse(text: &str, format: Format) -> Vec<Result<NumberedRow, RowError>> {
    let mut out = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    match format {
        Format::JsonLines => {
            for (line, l) in lines {
                out.push(match serde_json::from_str::<Value>(l) {
                    Ok(Value::Object(obj)) => Ok((line, obj)),
                    Ok(_) => Err(RowError {
                        line,
                        reason: "not a JSON object".into(),
                    }),
                    Err(e) => Err(RowError {
                        line,
                        reason: format!("not valid JSON: {e}"),
                    }),
                });
            }
        }
        Format::Csv => {
            let Some((_, header)) = lines.next() else {
                return out;
            };
            let keys: Vec<String> = header.split(',').map(|k| k.trim().to_string()).collect();
            for (line, l) in lines {
                let cells: Vec<&str> = l.split(',').map(str::trim).collect();
                if cells.len() != keys.len() {
                    out.push(Err(RowError {
                        line,
                        reason: format!("{} fields, the header has {}", cells.len(), keys.len()),
                    }));
                    continue;
                }
                let obj = keys
                    .iter()
                    .zip(cells)
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| (k.clone(), Value::String(v.to_string())))
                    .collect();
                out.push(Ok((line, obj)));
            }
        }
    }
    out
}

/// Audit settings.
#[derive(Debug, Clone, Copy)]
pub struct AuditOptions {
    /// Relative tolerance for `sound-tight`.
    pub tolerance: f64,
    /// Simulated steps (trials × steps per trial) of a row's main Monte Carlo run when it is
    /// the witness that can decide the row; a tenth of it when the references decide alone.
    pub max_steps: u64,
    /// If set, the main run's trials come from this many seconds at the throughput measured
    /// in the pilot (machine-dependent; the JSON reports the trials, and `trials` with the same
    /// `max_steps`, which sizes the pilot, reproduces the run).
    pub budget_seconds: Option<f64>,
    /// If set, the main run's trials per simulated pair (overrides both budgets).
    pub trials: Option<u64>,
    /// Importance sampling (a pilot run chooses the proposal); `false`: plain Monte Carlo.
    pub importance: bool,
    /// Audit by Monte Carlo alone (no PLD references).
    pub no_reference: bool,
    /// Keep the data of a δ(ε) plot per row ([`Audit::curves`]; the Monte Carlo is then also
    /// evaluated on nine more ε from the same paths).
    pub plot: bool,
    /// Seed of the Monte Carlo streams.
    pub seed: u64,
    /// Family-wise confidence of the Monte Carlo bounds over all rows.
    pub confidence: f64,
    /// Discretisation of the PLD references (focused on each row's $\delta$).
    pub pld: PldOptions,
}

impl Default for AuditOptions {
    fn default() -> Self {
        Self {
            tolerance: 0.05,
            max_steps: 200_000_000,
            budget_seconds: None,
            trials: None,
            importance: true,
            no_reference: false,
            plot: false,
            seed: 1,
            confidence: 0.999,
            pld: PldOptions::default(),
        }
    }
}

/// The verdict on a row's claimed $(\epsilon,\delta)$ (module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuditVerdict {
    /// Refuted: below the lower reference, or the Monte Carlo limit on $\delta$ exceeds the claim.
    Unsound,
    /// At or above the upper reference, by at most the tolerance.
    SoundTight,
    /// Above the upper reference by more than the tolerance.
    SoundLoose,
    /// Not refuted, and not certified: below the upper reference, or no reference computed.
    Unverified,
}

impl AuditVerdict {
    /// The kebab-case name (as in the JSON output).
    pub fn as_str(&self) -> &'static str {
        match self {
            AuditVerdict::Unsound => "unsound",
            AuditVerdict::SoundTight => "sound-tight",
            AuditVerdict::SoundLoose => "sound-loose",
            AuditVerdict::Unverified => "unverified",
        }
    }
}

/// The Monte Carlo lower confidence bound on δ(claimed ε).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MonteCarlo {
    /// The (untruncated, importance-weighted) mean estimate of δ(claimed ε).
    pub delta_mean: f64,
    /// The one-sided lower confidence limit on δ(claimed ε).
    pub delta_lower: f64,
    /// Trials of the main run (the pilot's are not used in the estimate).
    pub trials: u64,
    /// One-sided level of this pair's limit (the row's level split over its pairs).
    pub confidence: f64,
    /// Seed of the run ([`AuditOptions::seed`]).
    pub seed: u64,
    /// The simulated pair.
    pub pair: String,
    /// The importance-sampling proposal: `plain`, or the tilted rate, shift and mixture weight.
    pub proposal: String,
    /// The interval: KL-Chernoff and empirical Bernstein for values in [0, bound].
    pub method: &'static str,
    /// The values are truncated at this level for the interval (twice the largest pilot value,
    /// at most the largest weighted value 1 / (1 - mixture weight)); `delta_mean` is untruncated.
    pub bound: f64,
}

/// The audit of one row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Audit {
    /// The row's line number ([`Row::line`]).
    pub line: usize,
    /// The row's name ([`Row::name`]).
    pub name: String,
    /// The row's batch sampling.
    #[serde(serialize_with = "row_name")]
    pub sampling: Sampling,
    /// The row's neighbouring relation.
    pub relation: Neighbouring,
    /// The row's sampling rate ([`Row::q`]).
    pub q: f64,
    /// The row's noise multiplier ([`Row::sigma`]).
    pub sigma: f64,
    /// The row's number of steps.
    pub steps: u64,
    /// The claimed $\delta$.
    pub delta: f64,
    /// The claimed $\epsilon$ (from the row or the `--command` accountant).
    pub claimed_epsilon: f64,
    /// Certified upper reference ε (`None` with `--no-reference`).
    pub upper_reference: Option<f64>,
    /// How the upper reference was computed.
    pub upper_method: Option<&'static str>,
    /// Certified lower reference ε (`None` with `--no-reference`).
    pub lower_reference: Option<f64>,
    /// How the lower reference was computed.
    pub lower_method: Option<&'static str>,
    /// The plot's data (`--plot`).
    #[serde(skip)]
    pub curves: Option<Curves>,
    /// The Monte Carlo limit of the simulated pair with the largest lower limit.
    pub monte_carlo: MonteCarlo,
    /// The verdict.
    pub verdict: AuditVerdict,
    /// claimed ε / upper reference.
    pub ratio: Option<f64>,
    /// Why the verdict is what it is, in words (empty for `sound-tight`).
    pub reasons: Vec<String>,
    /// What the references changed or cannot say: a grid coarser than asked for (the point
    /// budget), a lower reference of 0 that carries no information, an infinite upper one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The accountant's view of a row that is not shuffled: groups of steps of the subsampled
/// Gaussian with their dominating pairs (one group, or one per phase of a schedule).
fn groups(row: &Row) -> Result<Vec<(Dominating, u64)>, ParamError> {
    let sampling = row.sampling;
    let q_of = |q: f64| if sampling == Sampling::None { 1.0 } else { q };
    let phases = match &row.phases {
        Some(p) => p.clone(),
        None => vec![Phase {
            q: row.q,
            sigma: row.sigma,
            steps: row.steps,
        }],
    };
    phases
        .iter()
        .map(|p| {
            let mech = DpSgd::new(q_of(p.q), p.sigma, p.steps, sampling, row.relation)?;
            Ok((Dominating::of(&mech)?, p.steps))
        })
        .collect()
}

/// The simulated mechanism of one pair: plain numbers for `empirical`.
#[derive(Debug, Clone)]
enum Simulated {
    Steps {
        loss: LossPair,
        phases: Vec<Phase>,
    },
    Shuffled {
        batches: u64,
        sigma: f64,
        epochs: u64,
    },
}

impl Simulated {
    fn steps_per_trial(&self) -> u64 {
        match self {
            Simulated::Steps { phases, .. } => phases.iter().map(|p| p.steps).sum(),
            Simulated::Shuffled {
                batches, epochs, ..
            } => batches * epochs,
        }
    }

    /// One weighted path: (weight, privacy loss).
    fn path(&self, tilt: &Tilt, rng: &mut dpclaims_empirical::rng::TrialRng) -> (f64, f64) {
        match self {
            Simulated::Steps { loss, phases } => loss.weighted_loss_phases(phases, tilt, rng),
            Simulated::Shuffled {
                batches,
                sigma,
                epochs,
            } => shuffled_weighted_loss(*batches as usize, *sigma, *epochs, tilt, rng),
        }
    }

    /// The proposals the pilot tries: plain Monte Carlo, and defensive mixtures (weight 1/2)
    /// whose tilted law sits at a relative entropy $k$ from the true one, for $k\in\{2,6,18\}$
    /// (a tail of probability $p$ is reached by a tilt at $k\approx\ln(1/p)$), spent on the
    /// inclusion rate ($\sum_iT_iq_i\,(c\ln c-c+1)=k$ for the rates $cq_i$), on the shift $m$ of
    /// the record's contribution ($\sum_iT_iq_i\,m^2/(2\sigma_i^2)=k$), on a drift of every output
    /// by $d\sigma_i$ ($Td^2/2=k$; for the add pair the only tilt; for shuffled epochs the
    /// record's batch is shifted, $E\,m^2/(2\sigma^2)=k$), or on rate and drift half each.
    fn proposals(&self) -> Vec<Tilt> {
        let mut out = vec![Tilt::NONE];
        let mut push = |t: Tilt| {
            if t.shift.is_finite() && t.drift.is_finite() && !out.contains(&t) {
                out.push(t);
            }
        };
        let tilt = |rate_factor: f64, shift: f64, drift: f64| Tilt {
            rate_factor,
            shift,
            drift,
            mix: 0.5,
        };
        match self {
            Simulated::Steps { loss, phases } => {
                let t: f64 = phases.iter().map(|p| p.steps as f64).sum();
                let tq: f64 = phases.iter().map(|p| p.steps as f64 * p.q).sum();
                let tq_s2: f64 = phases
                    .iter()
                    .map(|p| p.steps as f64 * p.q / (p.sigma * p.sigma))
                    .sum();
                let q_max = phases.iter().map(|p| p.q).fold(0.0, f64::max);
                // Solve tq (c ln c - c + 1) = k for c in (1, 1/q_max] (increasing; bisection).
                let rate = |k: f64| {
                    let f = |c: f64| tq * (c * c.ln() - c + 1.0);
                    let (mut lo, mut hi) = (1.0, 1.0 / q_max);
                    if f(hi) <= k {
                        return hi;
                    }
                    for _ in 0..100 {
                        let mid = 0.5 * (lo + hi);
                        if f(mid) < k { lo = mid } else { hi = mid }
                    }
                    lo
                };
                let drift = |k: f64| (2.0 * k / t).sqrt();
                for k in [2.0, 6.0, 18.0] {
                    if *loss == LossPair::Add {
                        push(tilt(1.0, 0.0, drift(k)));
                        continue;
                    }
                    push(tilt(rate(k), 0.0, 0.0));
                    push(tilt(1.0, (2.0 * k / tq_s2).sqrt(), 0.0));
                    push(tilt(1.0, 0.0, drift(k)));
                    push(tilt(rate(k / 2.0), 0.0, drift(k / 2.0)));
                }
            }
            Simulated::Shuffled { sigma, epochs, .. } => {
                for k in [2.0, 6.0, 18.0] {
                    push(tilt(1.0, sigma * (2.0 * k / *epochs as f64).sqrt(), 0.0));
                }
            }
        }
        out
    }
}

fn describe(t: &Tilt) -> String {
    if t.mix == 0.0 {
        "plain".into()
    } else {
        format!(
            "defensive mixture {}: rate x{:.4}, shift {:.4}, drift {:.4} sigma",
            t.mix, t.rate_factor, t.shift, t.drift
        )
    }
}

/// The simulated pairs of a row: the realised pairs of its [`Dominating`] pairs (neighbouring
/// datasets with adversarial other records), as plain numbers for the Monte Carlo.
fn simulated_pairs(row: &Row) -> Result<Vec<(Simulated, String)>, ParamError> {
    if let (Sampling::Shuffle, Some(k)) = (row.sampling, row.batches_per_epoch) {
        return Ok(vec![(
            Simulated::Shuffled {
                batches: k,
                sigma: row.sigma,
                // Full epochs only: dropping the outputs of a last partial epoch is a
                // post-processing, so this stays a lower bound.
                epochs: row.steps / k,
            },
            "shuffled epochs, record +C/-C in one batch at a random position".into(),
        )]);
    }
    let groups = groups(row)?;
    let kinds = groups.first().map_or(0, |(d, _)| d.lower.len());
    Ok((0..kinds)
        .map(|i| {
            let mut loss = LossPair::Remove;
            let mut name = String::new();
            let phases = groups
                .iter()
                .map(|(d, steps)| {
                    let (l, q, sigma, n) = match d.lower[i] {
                        Pair::Remove { q, sigma } => {
                            (LossPair::Remove, q, sigma, "remove (1-q)N(0)+qN(1) vs N(0)")
                        }
                        Pair::Add { q, sigma } => {
                            (LossPair::Add, q, sigma, "add N(0) vs (1-q)N(0)+qN(1)")
                        }
                        Pair::ReplaceOne { q, sigma } => (
                            LossPair::ReplaceOne,
                            q,
                            sigma,
                            "replace-one (1-q)N(0)+qN(1) vs (1-q)N(0)+qN(-1)",
                        ),
                    };
                    (loss, name) = (
                        l,
                        format!("{n}, noise multiplier {sigma} in units of the mean shift"),
                    );
                    Phase {
                        q,
                        sigma,
                        steps: *steps,
                    }
                })
                .collect::<Vec<_>>();
            if phases.len() > 1 {
                name = format!(
                    "{}, {} phases",
                    name.split(',').next().unwrap_or(""),
                    phases.len()
                );
            }
            (Simulated::Steps { loss, phases }, name)
        })
        .collect())
}

/// The Monte Carlo lower limit on δ(claimed ε): for each simulated pair, a pilot run (its own
/// streams, discarded) picks the proposal with the smallest relative variance, then a main run of
/// a fixed number of trials gives the KL-Chernoff / empirical-Bernstein lower limit. The largest
/// limit over the pairs is reported, the row's level split over the pairs.
fn monte_carlo(
    row: &Row,
    epsilons: &[f64],
    opts: &AuditOptions,
    confidence: f64,
    max_steps: u64,
) -> Result<(MonteCarlo, Vec<McPoint>), String> {
    let candidates = simulated_pairs(row).map_err(|e| e.to_string())?;
    if candidates.is_empty() {
        return Err("no simulated pair".into());
    }
    let per_pair = 1.0 - (1.0 - confidence) / candidates.len() as f64;
    let per_pair_steps = max_steps / candidates.len() as u64;
    let mut best: Option<MonteCarlo> = None;
    let mut points: Vec<McPoint> = Vec::new();
    for (index, (sim, name)) in candidates.into_iter().enumerate() {
        let per_trial = sim.steps_per_trial().max(1);
        // For each epsilon, the mean of the weighted values and of min(value, cap): the
        // truncated values have a smaller mean, so a lower limit for it is one for delta, and
        // their range is [0, cap] instead of [0, bound]. One path serves every epsilon.
        let run = |key: &StreamKey, trials: u64, tilt: &Tilt, eps: &[f64], cap: f64| {
            run_trials(
                trials,
                || ((), vec![(MeanAcc::new(), MeanAcc::new()); eps.len()]),
                |_, accs: &mut Vec<(MeanAcc, MeanAcc)>, i| {
                    let (w, loss) = sim.path(tilt, &mut key.trial(i));
                    // A non-finite path (none is known) counts as 0: the conservative side.
                    let (w, loss) = if w.is_finite() && !loss.is_nan() {
                        (w, loss)
                    } else {
                        (0.0, 0.0)
                    };
                    for ((raw, cut), e) in accs.iter_mut().zip(eps) {
                        let v = w * (-(e - loss).exp_m1()).max(0.0);
                        raw.push(v);
                        cut.push(v.min(cap));
                    }
                },
            )
        };
        let proposals = if opts.importance {
            sim.proposals()
        } else {
            vec![Tilt::NONE]
        };
        // Pilot (its own streams, discarded): a tenth of the budget over the proposals; it picks
        // the proposal with the smallest relative variance at the claimed epsilon and the cap
        // (twice that proposal's largest pilot value).
        let pilot_trials = (per_pair_steps / 10 / per_trial / proposals.len() as u64).max(200);
        let started = std::time::Instant::now();
        let (mut chosen, mut cap, mut score) = (proposals[0], proposals[0].bound(), f64::INFINITY);
        for (j, tilt) in proposals.iter().enumerate() {
            let key = StreamKey::new(
                opts.seed,
                &[
                    "audit-pilot",
                    &row.name,
                    &row.line.to_string(),
                    &index.to_string(),
                    &j.to_string(),
                ],
            );
            let acc = run(&key, pilot_trials, tilt, &epsilons[..1], f64::INFINITY)
                .remove(0)
                .0;
            let s = if acc.mean > 0.0 {
                acc.variance() / (acc.mean * acc.mean)
            } else {
                f64::INFINITY
            };
            if s < score {
                (score, chosen, cap) = (s, *tilt, (2.0 * acc.max).min(tilt.bound()));
            }
        }
        let pilot_seconds = started.elapsed().as_secs_f64();
        // The main run's size is fixed before it starts (from the budget, or from the pilot's
        // throughput), so no stopping rule touches the interval.
        let trials = match (opts.trials, opts.budget_seconds) {
            (Some(n), _) => n,
            (None, Some(b)) => (b * (pilot_trials * proposals.len() as u64) as f64
                / pilot_seconds.max(1e-9))
            .min(1e12) as u64,
            (None, None) => per_pair_steps / per_trial,
        }
        .max(200);
        let key = StreamKey::new(
            opts.seed,
            &[
                "audit",
                &row.name,
                &row.line.to_string(),
                &index.to_string(),
            ],
        );
        let cap = if cap > 0.0 { cap } else { chosen.bound() };
        let accs = run(&key, trials, &chosen, epsilons, cap);
        for (j, ((raw, cut), e)) in accs.iter().zip(epsilons).enumerate() {
            let est = kl_bernstein(cut, cap, per_pair, opts.seed).map_err(|e| e.to_string())?;
            if j == 0 {
                let mc = MonteCarlo {
                    delta_mean: raw.mean,
                    delta_lower: est.lower,
                    trials,
                    confidence: per_pair,
                    seed: opts.seed,
                    pair: name.clone(),
                    proposal: describe(&chosen),
                    method: "kl-chernoff and empirical bernstein (level split)",
                    bound: cap,
                };
                if best.as_ref().is_none_or(|b| mc.delta_lower > b.delta_lower) {
                    best = Some(mc);
                }
            }
            let point = McPoint {
                epsilon: *e,
                mean: raw.mean,
                lower: est.lower,
            };
            match points.get_mut(j) {
                Some(p) if p.lower >= point.lower => {}
                Some(p) => *p = point,
                None => points.push(point),
            }
        }
    }
    best.map(|b| (b, points))
        .ok_or_else(|| "no simulated pair".into())
}

/// A Monte Carlo estimate of δ(ε) at one ε (the largest lower limit over the simulated pairs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McPoint {
    /// The $\epsilon$ at which $\delta(\epsilon)$ is estimated.
    pub epsilon: f64,
    /// The mean estimate of $\delta(\epsilon)$ (of the pair with the largest lower limit).
    pub mean: f64,
    /// The lower confidence limit on $\delta(\epsilon)$.
    pub lower: f64,
}

/// What `audit --plot` draws for a row: δ(ε) of the references and Monte Carlo lower limits.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Curves {
    /// (ε, δ) of the upper reference.
    pub upper: Vec<(f64, f64)>,
    /// (ε, δ) of the lower reference.
    pub lower: Vec<(f64, f64)>,
    /// Monte Carlo lower limits (each at the row's per-pair level), the claimed ε first.
    pub monte_carlo: Vec<McPoint>,
}

/// Audits validated rows whose `epsilon` is set, one result per row in order: a row whose
/// references or Monte Carlo cannot be computed (say, no PLD grid up to spacing 1 fits
/// `opts.pld.max_points`) is that row's error, and the other rows are still audited.
pub fn audit(rows: &[Row], opts: &AuditOptions, progress: bool) -> Vec<Result<Audit, RowError>> {
    let confidence = 1.0 - (1.0 - opts.confidence) / rows.len().max(1) as f64;
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            if progress {
                eprintln!("[{}/{}] {}", i + 1, rows.len(), row.name);
            }
            audit_row(row, opts, confidence).map_err(|reason| RowError {
                line: row.line,
                reason,
            })
        })
        .collect()
}

/// Why a reference could not be computed: past the point budget at every grid, or the error.
fn reference_error(what: &str, e: &ParamError, opts: &PldOptions) -> String {
    if e.is_too_fine() {
        format!(
            "{what}: no PLD grid up to interval 1 fits the point budget ({} points; --max-points): {e}",
            opts.max_points
        )
    } else {
        format!("{what}: {e}")
    }
}

/// The note on a lower reference of 0 below a positive upper one: it says nothing, and the
/// optimistic grid may be why (each of the `composed` losses is rounded down by up to
/// `interval`).
fn zero_lower_note(composed: u64, interval: f64) -> String {
    if composed == 0 {
        "the lower reference 0 is uninformative: the run has no full epoch (it counts full epochs only)".into()
    } else {
        format!(
            "the lower reference 0 is uninformative: at interval {interval} each of its {composed} composed losses is rounded down by up to {interval} ({:.4e} in all)",
            composed as f64 * interval
        )
    }
}

/// A row's certified references (all `None` with `--no-reference`).
pub struct References {
    /// Upper reference ε (at least the true one).
    pub upper: Option<f64>,
    /// Lower reference ε (at most the true one).
    pub lower: Option<f64>,
    /// How the upper reference was computed.
    pub upper_method: Option<&'static str>,
    /// How the lower reference was computed.
    pub lower_method: Option<&'static str>,
    /// What the references changed or cannot say ([`Audit::notes`]).
    pub notes: Vec<String>,
    /// δ(ε) of the upper reference (for the plot).
    pub upper_delta: Option<Box<dyn Fn(f64) -> f64>>,
    /// δ(ε) of the lower reference (for the plot).
    pub lower_delta: Option<Box<dyn Fn(f64) -> f64>>,
}

/// The references of a row at its δ: PLD compositions on `opts.pld`'s grid, coarsened 4x at a
/// time while a composition needs more than `opts.pld.max_points` points
/// ([`coarsening`], as `dpclaims epsilon`); an error names the reference no grid up to spacing
/// 1 fits, or the parameter it cannot take.
pub fn references(row: &Row, opts: &AuditOptions) -> Result<References, String> {
    let mut notes = Vec::new();
    let mut upper_delta: Option<Box<dyn Fn(f64) -> f64>> = None;
    let mut lower_delta: Option<Box<dyn Fn(f64) -> f64>> = None;
    let focused = opts.pld.focused(pld::Focus::Delta(row.delta));
    // The lower reference's composed steps and grid spacing (for the note on a 0).
    let mut lower_grid = (0u64, focused.interval);
    let (upper, lower, upper_method, lower_method) = match row.sampling {
        _ if opts.no_reference => (None, None, None, None),
        Sampling::Shuffle => {
            let k = row.batches_per_epoch.unwrap_or(1);
            // Upper: every started epoch counts in full; lower: full epochs only (dropping
            // the outputs of a partial epoch is a post-processing).
            let (started, full) = (row.steps.div_ceil(k), row.steps / k);
            let mu = 2.0 * (started as f64).sqrt() / row.sigma;
            let upper = gaussian::epsilon(mu, row.delta)
                .map_err(|e| format!("upper reference (gaussian mechanism): {e}"))?;
            let plds = if full > 0 {
                let (plds, interval, note) = coarsening(&focused, ParamError::is_too_fine, |o| {
                    shuffle::lower_plds(k, row.sigma, full, o)
                })
                .map_err(|e| reference_error("lower reference", &e, &focused))?;
                notes.extend(note.map(|n| format!("lower reference {n}")));
                lower_grid = (full, interval);
                plds
            } else {
                Vec::new()
            };
            let lower = plds
                .iter()
                .map(|p| p.epsilon(row.delta))
                .fold(0.0, f64::max);
            upper_delta = Some(Box::new(move |e| {
                gaussian::delta(mu, e).unwrap_or(f64::NAN)
            }));
            lower_delta = Some(Box::new(move |e| {
                plds.iter().map(|p| p.delta(e)).fold(0.0, f64::max)
            }));
            (
                Some(upper),
                Some(lower),
                Some("gaussian mechanism, sensitivity 2C once per epoch"),
                Some("pld optimistic of the largest batch output per epoch (post-processing)"),
            )
        }
        _ => {
            let groups = groups(row).map_err(|e| e.to_string())?;
            let (composed, interval, note) = coarsening(&focused, ParamError::is_too_fine, |o| {
                pld::compose_groups(&groups, o)
            })
            .map_err(|e| reference_error("references", &e, &focused))?;
            notes.extend(note.map(|n| format!("references {n}")));
            lower_grid = (row.steps, interval);
            let composed = std::rc::Rc::new(composed);
            let b = composed.epsilon(row.delta).map_err(|e| e.to_string())?;
            let (c1, c2) = (composed.clone(), composed);
            // An inverted bracket is no reference: no upper (NaN, as the Gaussian's error)
            // and the trivial lower 0.
            upper_delta = Some(Box::new(move |e| {
                c1.delta(e).map_or(f64::NAN, |b| b.pessimistic)
            }));
            lower_delta = Some(Box::new(move |e| c2.delta(e).map_or(0.0, |b| b.optimistic)));
            (
                Some(b.pessimistic),
                Some(b.optimistic),
                Some("pld pessimistic (connect the dots)"),
                Some("pld optimistic of the realised pairs"),
            )
        }
    };
    if let (Some(lo), Some(up)) = (lower, upper) {
        if lo == 0.0 && up > 0.0 {
            notes.push(zero_lower_note(lower_grid.0, lower_grid.1));
        }
        if up == f64::INFINITY {
            notes.push(format!(
                "the upper reference is infinite: no epsilon is certified at delta {:e} (below what the accountant resolves)",
                row.delta
            ));
        }
    }
    Ok(References {
        upper,
        lower,
        upper_method,
        lower_method,
        notes,
        upper_delta,
        lower_delta,
    })
}

/// Audits one row (the level of its Monte Carlo limits: `confidence`); an error names what
/// could not be computed.
fn audit_row(row: &Row, opts: &AuditOptions, confidence: f64) -> Result<Audit, String> {
    let claimed = row
        .epsilon
        .ok_or("missing `epsilon` (no accountant answered for it)")?;
    let mut reasons = Vec::new();
    let refs = references(row, opts)?;
    let (upper, lower) = (refs.upper, refs.lower);
    // The Monte Carlo can decide the row only when the references leave it open (no lower
    // reference, or the claim between the references); otherwise it runs at a tenth of the
    // budget as a consistency check. Decided before it runs: no stopping rule involved.
    let decided = match (lower, upper) {
        (Some(lo), Some(up)) => claimed < lo || claimed >= up,
        _ => false,
    };
    let max_steps = if decided {
        opts.max_steps / 10
    } else {
        opts.max_steps
    };
    // The plot's eps range: around the claim and the references.
    let plot_eps: Vec<f64> = if opts.plot {
        let lo = (0.5 * claimed)
            .min(lower.unwrap_or(claimed) * 0.9)
            .max(1e-3);
        let hi = (1.5 * claimed)
            .max(upper.unwrap_or(claimed) * 1.1)
            .min(4.0 * claimed.max(0.25));
        (0..=8).map(|i| lo + (hi - lo) * i as f64 / 8.0).collect()
    } else {
        Vec::new()
    };
    let epsilons: Vec<f64> = std::iter::once(claimed)
        .chain(plot_eps.iter().copied())
        .collect();
    let (mc, points) = monte_carlo(row, &epsilons, opts, confidence, max_steps)
        .map_err(|e| format!("monte carlo: {e}"))?;
    let curves = opts.plot.then(|| {
        let grid: Vec<f64> = (0..=120)
            .map(|i| plot_eps[0] + (plot_eps[8] - plot_eps[0]) * i as f64 / 120.0)
            .collect();
        let curve = |f: &Option<Box<dyn Fn(f64) -> f64>>| {
            f.as_ref()
                .map_or(Vec::new(), |f| grid.iter().map(|e| (*e, f(*e))).collect())
        };
        Curves {
            upper: curve(&refs.upper_delta),
            lower: curve(&refs.lower_delta),
            monte_carlo: points,
        }
    });
    let mut unsound = false;
    if let Some(lo) = lower {
        if claimed < lo {
            unsound = true;
            reasons.push(format!(
                "claimed epsilon {claimed} is below the certified lower reference {lo:.6}"
            ));
        }
    }
    if mc.delta_lower > row.delta {
        unsound = true;
        reasons.push(format!(
            "at the claimed epsilon, delta is at least {:.3e} (Monte Carlo, {} trials, {}, one-sided {:.6}), above the claimed {:e}",
            mc.delta_lower, mc.trials, mc.proposal, mc.confidence, row.delta
        ));
    }
    // (Undefined against an upper reference of 0.)
    let ratio = upper.filter(|u| *u > 0.0).map(|u| claimed / u);
    let verdict = match upper {
        _ if unsound => AuditVerdict::Unsound,
        // Certified sound: at or above the upper reference.
        Some(up) if claimed >= up && claimed <= up * (1.0 + opts.tolerance) => {
            AuditVerdict::SoundTight
        }
        Some(up) if claimed > up => {
            reasons.push(if up > 0.0 {
                format!(
                    "{:.1}% above the upper reference",
                    100.0 * (claimed / up - 1.0)
                )
            } else {
                "above the upper reference 0".into()
            });
            AuditVerdict::SoundLoose
        }
        Some(up) => {
            reasons.push(format!(
                "below the upper reference {up:.4}{}, and no lower bound contradicts it",
                lower.map_or(String::new(), |lo| format!(
                    ", above the lower reference {lo:.4}"
                ))
            ));
            AuditVerdict::Unverified
        }
        None => {
            reasons.push(
                "no reference (--no-reference), and the Monte Carlo does not contradict it".into(),
            );
            AuditVerdict::Unverified
        }
    };
    Ok(Audit {
        line: row.line,
        name: row.name.clone(),
        sampling: row.sampling,
        relation: row.relation,
        q: row.q,
        sigma: row.sigma,
        steps: row.steps,
        delta: row.delta,
        claimed_epsilon: claimed,
        upper_reference: upper,
        upper_method: refs.upper_method,
        lower_reference: lower,
        lower_method: refs.lower_method,
        monte_carlo: mc,
        curves,
        verdict,
        ratio,
        reasons,
        notes: refs.notes,
    })
}

/// Runs an external accountant: rows (without `epsilon`) as JSON lines on its stdin, one
/// `{"epsilon": ...}` per line on its stdout, through [`crate::line_protocol`] (a hang past
/// `timeout` or a crash on a row is that row's error; the command is started again on the rows
/// after it). Rows answered are filled in; the others come back as errors.
pub fn ask_command(
    command: &str,
    rows: &mut Vec<Row>,
    timeout: std::time::Duration,
) -> Vec<RowError> {
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut obj = r.raw.clone();
            obj.remove("epsilon");
            serde_json::to_string(&Value::Object(obj)).expect("rows serialize")
        })
        .collect();
    let answers = crate::line_protocol::ask_lines(command, &lines, timeout, true);
    let mut errors = Vec::new();
    let mut kept = Vec::with_capacity(rows.len());
    for (mut row, answer) in rows.drain(..).zip(answers) {
        let eps = answer.and_then(|line| {
            let v: Value = serde_json::from_str(&line)
                .map_err(|e| format!("`{command}` answered {line:?}: {e}"))?;
            v.get("epsilon")
                .and_then(Value::as_f64)
                .filter(|e| e.is_finite() && *e >= 0.0)
                .ok_or_else(|| {
                    format!(
                        "`{command}` answered {line:?}: expected {{\"epsilon\": <number >= 0>}}"
                    )
                })
        });
        match eps {
            Ok(e) => {
                row.epsilon = Some(e);
                kept.push(row);
            }
            Err(reason) => errors.push(RowError {
                line: row.line,
                reason,
            }),
        }
    }
    *rows = kept;
    errors
}

/// A table of audits.
pub fn table(audits: &[Audit], errors: &[RowError], markdown: bool) -> String {
    let mut out = String::new();
    let header = [
        "line",
        "name",
        "verdict",
        "claimed eps",
        "lower ref",
        "upper ref",
        "ratio",
        "MC delta lower",
        "delta",
        "sampling",
        "relation",
    ];
    let rows: Vec<Vec<String>> = audits
        .iter()
        .map(|a| {
            vec![
                a.line.to_string(),
                a.name.clone(),
                a.verdict.as_str().to_string(),
                format!("{:.4}", a.claimed_epsilon),
                a.lower_reference.map_or("-".into(), |l| format!("{l:.4}")),
                a.upper_reference.map_or("-".into(), |u| format!("{u:.4}")),
                a.ratio.map_or("-".into(), |r| format!("{r:.3}")),
                format!("{:.2e}", a.monte_carlo.delta_lower),
                format!("{:e}", a.delta),
                serde_json::to_value(a.sampling)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                serde_json::to_value(a.relation)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    if markdown {
        out.push_str(&format!(
            "| {} |\n|{}\n",
            header.join(" | "),
            "---|".repeat(header.len())
        ));
        for r in &rows {
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
    } else {
        let widths: Vec<usize> = (0..header.len())
            .map(|j| {
                rows.iter()
                    .map(|r| r[j].len())
                    .chain([header[j].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let fmt = |cells: Vec<String>| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
                + "\n"
        };
        out.push_str(&fmt(header.iter().map(|s| s.to_string()).collect()));
        for r in rows {
            out.push_str(&fmt(r));
        }
    }
    let bullet = if markdown { "- " } else { "" };
    for a in audits {
        if !a.reasons.is_empty() {
            let reasons = a.reasons.join("; ");
            out.push_str(&format!(
                "{bullet}line {} ({}): {reasons}\n",
                a.line, a.name
            ));
        }
        if !a.notes.is_empty() {
            let notes = a.notes.join("; ");
            out.push_str(&format!(
                "{bullet}line {} ({}): note: {notes}\n",
                a.line, a.name
            ));
        }
    }
    for e in errors {
        out.push_str(&format!("{bullet}line {}: skipped: {}\n", e.line, e.reason));
    }
    out
}

/// One row's picture (`audit --plot`): δ(ε) of the upper and lower references over a range of ε
/// around the claim, the Monte Carlo lower limits (one-sided, each at the row's per-pair level)
/// as bars from the limit up to the estimate, and the claimed (ε, δ) as a cross; log δ axis.
pub fn svg(a: &Audit) -> Result<String, String> {
    use plotters::prelude::*;
    let curves = a.curves.as_ref().ok_or("no plot data (run with --plot)")?;
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let values = curves
        .upper
        .iter()
        .chain(&curves.lower)
        .map(|p| p.1)
        .chain(curves.monte_carlo.iter().flat_map(|p| [p.mean, p.lower]))
        .chain([a.delta])
        .filter(|v| positive(*v));
    let (mut y_lo, mut y_hi) = (a.delta, a.delta);
    for v in values {
        (y_lo, y_hi) = (y_lo.min(v), y_hi.max(v));
    }
    // Six decades below the claimed delta at most: a value below the window sits on its floor.
    let (y_lo, y_hi) = ((y_lo / 3.0).max(a.delta * 1e-6), (y_hi * 3.0).min(1.0));
    let floor = |v: f64| if positive(v) { v.max(y_lo) } else { y_lo };
    let eps: Vec<f64> = curves
        .upper
        .iter()
        .chain(&curves.lower)
        .map(|p| p.0)
        .collect();
    let (x_lo, x_hi) = eps
        .iter()
        .fold((a.claimed_epsilon, a.claimed_epsilon), |(l, h), e| {
            (l.min(*e), h.max(*e))
        });
    let (x_lo, x_hi) = curves.monte_carlo.iter().fold((x_lo, x_hi), |(l, h), p| {
        (l.min(p.epsilon), h.max(p.epsilon))
    });
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{}: δ(ε), {} sampling, {}",
                    a.name,
                    serde_json::to_value(a.sampling)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                    a.verdict.as_str()
                ),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(x_lo * 0.98..x_hi * 1.02, (y_lo..y_hi).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("ε")
            .y_desc("δ(ε)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for (data, color, label) in [
            (&curves.upper, RED, "upper reference"),
            (&curves.lower, BLUE, "lower reference (certified)"),
        ] {
            if data.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(
                    data.iter().map(|(e, d)| (*e, floor(*d))),
                    color.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        let green = RGBColor(0, 140, 60);
        chart
            .draw_series(curves.monte_carlo.iter().map(|p| {
                ErrorBar::new_vertical(
                    p.epsilon,
                    floor(p.lower),
                    floor(p.mean),
                    floor(p.mean),
                    green.filled(),
                    8,
                )
            }))
            .map_err(|e| e.to_string())?
            .label(format!(
                "Monte Carlo estimate and lower limit ({} trials)",
                a.monte_carlo.trials
            ))
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, green.filled()));
        chart
            .draw_series(
                curves
                    .monte_carlo
                    .iter()
                    .map(|p| TriangleMarker::new((p.epsilon, floor(p.lower)), 5, green.filled())),
            )
            .map_err(|e| e.to_string())?;
        chart
            .draw_series([Cross::new(
                (a.claimed_epsilon, a.delta),
                9,
                BLACK.stroke_width(3),
            )])
            .map_err(|e| e.to_string())?
            .label(format!(
                "claimed (ε = {}, δ = {:e})",
                a.claimed_epsilon, a.delta
            ))
            .legend(|(x, y)| Cross::new((x + 10, y), 6, BLACK.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
