//! The input of an audit: rows (JSON lines or CSV) validated into [`Row`]s, each error naming
//! its line and field, and the ε of an external accountant asked for them ([`ask_command`]).

use crate::privacy::{Neighbouring, Sampling};
use dpclaims_empirical::privacy_loss::Phase;
use serde::Serialize;
use serde_json::Value;

/// A sampling scheme serialised by its row name ([`Sampling::name`]: `wor`, as rows spell it).
pub(crate) fn row_name<S: serde::Serializer>(sampling: &Sampling, s: S) -> Result<S::Ok, S::Error> {
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
    /// Batches per epoch (shuffle) or steps per epoch $t$ (random allocation: each record in
    /// exactly [`selected`](Self::selected) of them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batches_per_epoch: Option<u64>,
    /// Random allocation: the steps $k$ of each epoch a record is in (`selected`, default 1;
    /// $q=k/t$). `None` for the other samplings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<u64>,
    /// Noise multiplier $\sigma>0$ (noise std / clipping norm).
    pub sigma: f64,
    /// Number of steps $T\ge1$: `steps`, or `epochs`$/q$ rounded up (random allocation:
    /// `epochs`$\cdot t$, an epoch being the $t$ steps over which each record is in $k$).
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
                "`sampling` = {name:?}: expected poisson, shuffle, wor, none or random-allocation (balls-in-bins)"
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
    let selected = match (sampling, get_int("selected")?) {
        (Sampling::RandomAllocation, None) => Some(1),
        (Sampling::RandomAllocation, Some(0)) => {
            return Err(err(
                "`selected` = 0 is out of range: each record is in at least one step of an epoch"
                    .into(),
            ));
        }
        (Sampling::RandomAllocation, Some(k)) => Some(k),
        (_, None) => None,
        (_, Some(_)) => {
            return Err(err(
                "`selected` (the steps of an epoch each record is in) is a field of random-allocation rows"
                    .into(),
            ));
        }
    };
    // How a message names k: by the field when the row gives it.
    let k_named = |k: u64| {
        if obj.contains_key("selected") {
            format!("`selected` = {k}")
        } else {
            format!("k = {k}")
        }
    };
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
            selected: None,
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
        _ if sampling == Sampling::RandomAllocation => match get_int("steps_per_epoch")? {
            Some(t) if t > 0 && selected.is_some_and(|k| k > t) => {
                return Err(err(format!(
                    "{} is more than the {t} steps of an epoch",
                    k_named(selected.unwrap_or(1))
                )));
            }
            Some(t) if t > 0 => selected.unwrap_or(1) as f64 / t as f64,
            _ => {
                return Err(err(
                    "missing `steps_per_epoch` (or `q`, or `batch` and `n`)".into(),
                ));
            }
        },
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
    // Random allocation: t steps per epoch, q = k/t (validated before `epochs` is read).
    let steps_per_allocation = match (sampling, selected) {
        (Sampling::RandomAllocation, Some(k)) => {
            let t = steps_per_epoch(&obj, q, k, batch, n).map_err(err)?;
            if (q * t as f64 - k as f64).abs() > 1e-9 * k as f64 {
                return Err(err(format!(
                    "`q` = {q} and {t} steps per epoch disagree: random allocation has q = k/t ({})",
                    k_named(k)
                )));
            }
            // (k <= t follows from q <= 1 and q = k/t; kept for `steps_per_epoch` given alone.)
            if k > t {
                return Err(err(format!(
                    "{} is more than the {t} steps of an epoch",
                    k_named(k)
                )));
            }
            Some(t)
        }
        _ => None,
    };
    let steps = match (get_int("steps")?, get_num("epochs")?) {
        (Some(t), _) => t,
        (None, Some(e)) if e > 0.0 && steps_per_allocation.is_some() => {
            let exact = e * steps_per_allocation.unwrap_or(1) as f64;
            (exact - 1e-9 * exact.max(1.0)).ceil() as u64
        }
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
    let batches_per_epoch = match sampling {
        Sampling::Shuffle => Some(match (batch, n) {
            (Some(b), Some(n)) if b > 0 => n.div_ceil(b),
            _ => (1.0 / q).round().max(1.0) as u64,
        }),
        Sampling::RandomAllocation => steps_per_allocation,
        _ => None,
    };
    Ok(Row {
        line,
        name,
        sampling,
        q,
        batches_per_epoch,
        selected,
        sigma,
        steps,
        delta,
        epsilon,
        relation,
        phases: None,
        raw: obj,
    })
}

/// The steps per epoch $t$ of a random-allocation row whose records are each in $k$ of them:
/// `steps_per_epoch`, or $kn/b$ (an exact division; $b$ is the mean batch), or $k/q$ (within
/// $10^{-9}$ of a whole number); at most $2^{24}$.
fn steps_per_epoch(
    obj: &serde_json::Map<String, Value>,
    q: f64,
    k: u64,
    batch: Option<u64>,
    n: Option<u64>,
) -> Result<u64, String> {
    let t = match (integer(obj, "steps_per_epoch")?, batch, n) {
        (Some(t), _, _) => t,
        (None, Some(b), Some(n)) if b > 0 && (k as u128 * n as u128) % b as u128 == 0 => {
            u64::try_from(k as u128 * n as u128 / b as u128).unwrap_or(u64::MAX)
        }
        (None, Some(b), Some(n)) => {
            let kn = if k == 1 {
                format!("`n` = {n}")
            } else {
                format!("`n` = {n} times `selected` = {k}")
            };
            return Err(format!(
                "random allocation needs a whole number of steps per epoch: {kn} is not a multiple of `batch` = {b} (give `steps_per_epoch`)"
            ));
        }
        _ => {
            let t = (k as f64 / q).round();
            if (k as f64 / q - t).abs() > 1e-9 * t {
                let ratio = if k == 1 { "1/`q`" } else { "`selected`/`q`" };
                return Err(format!(
                    "random allocation needs a whole number of steps per epoch: {ratio} = {} is not one (give `steps_per_epoch`)",
                    k as f64 / q
                ));
            }
            t as u64
        }
    };
    if t == 0 || t > 1 << 24 {
        return Err(format!(
            "`steps_per_epoch` = {t} is out of range: expected 1 to 2^24"
        ));
    }
    Ok(t)
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
