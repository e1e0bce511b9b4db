//! `dpclaims conformance`: a seeded suite of event queries sent to any accountant, judged by
//! metamorphic properties (no reference needed) and against dpclaims' certified PLD bracket.
//!
//! **Protocol** (one line each way per query; docs/conformance.md, "The protocol"): the
//! accountant reads an event document ([`EventDoc`], README "Events") with one more field,
//! `"delta"` (asking for ε) or `"epsilon"` (asking for δ), and an `"id"`; it answers with the
//! same `id`: `{"id": 7, "epsilon": x}` / `{"id": 7, "delta": x}` (`null` for $+\infty$),
//! `{"id": 7, "error": "unsupported: ..."}` for an event or query it does not support (skipped,
//! not failed), or `{"id": 7, "error": "..."}` (any other text) for a failure on a query it
//! supports: a finding (`error`). A crash, a hang past the per-query timeout or an unreadable
//! answer is `broken` (a finding too), not a failure of dpclaims. A line that is not an answer
//! (a warning printed to stdout) or an answer with an id not awaited is skipped and noted,
//! never taken for the next answer ([`answer_tag`]); answers without an id are taken in order
//! while no answer has had one (older adapters).
//!
//! **Declarations**: `CMD --supports` prints what the accountant supports,
//! `{"events": [...], "relations": [...], "queries": [...]}` ([`Declaration`]); with one, an
//! `unsupported` answer to a query whose event types, relation and query kind are all declared
//! is an `error` ("declared supported, answered unsupported") unless it says
//! `"unsupported: combination: ..."` (a combination of declared parts the library does not
//! cover: a skip). Without one, every refusal is a skip, counted; the text and Markdown
//! outputs list the skips by reason either way.
//!
//! **Properties**, each over the answers to a few queries:
//! - `self-composition`: $\epsilon(\mathrm{SelfComposed}(e,k))=\epsilon(\mathrm{Composed}(e,\dots,e))$;
//! - `composition-order`: $\epsilon(\mathrm{Composed}(a,b))=\epsilon(\mathrm{Composed}(b,a))$;
//! - `no-op`: $\epsilon(\mathrm{Composed}(e,\mathrm{NoOp}))=\epsilon(e)$;
//! - `poisson-q1`: $\epsilon(\mathrm{PoissonSampled}(e,1))=\epsilon(e)$;
//! - `monotone-count`: $\epsilon$ non-decreasing in the count; `monotone-sigma`: non-increasing in
//!   $\sigma$; `monotone-delta`: non-increasing in $\delta$;
//! - `valid`, on **every** answer (base queries, follow-ups, variants): $\epsilon\ge0$ and not
//!   NaN, finite where dpclaims' pessimistic value is; $0\le\delta\le1$;
//! - `epsilon-delta-round-trip`: $\epsilon(\delta(\epsilon_0))=\epsilon_0$ for the accountant's own
//!   $\epsilon_0=\epsilon(\delta)$ (asked in rounds: [`ask_in_rounds`]);
//! - `reference`, on **every** answer: at or above dpclaims' optimistic (lower) PLD value —
//!   below it, by any amount, the accountant is unsound (a finding); above the pessimistic
//!   value by more than `tolerance` it is `loose` (the ratio reported, not a finding); inside a
//!   bracket too wide to judge it ([`too_wide`]) the reference is computed again on finer grids
//!   ([`REFINEMENTS`]) and, if still too wide, the check is `imprecise` (never a pass).
//!
//! The base events cycle through [`FAMILIES`] (every mechanism under each relation dpclaims
//! certifies) and [`SCENARIOS`] (small σ with small q, large σ with large q, δ up to 0.99, one
//! to three steps, δ asked at ε up to 200); the outputs show which families, relations and
//! query kinds a run covered ([`render_coverage`]).
//!
//! Equalities hold to a relative `tolerance` (default $10^{-3}$, plus $10^{-9}$ absolute);
//! monotonicity to $10^{-6}$ relative.

use crate::line_protocol::{self, Notes, Tag};
use crate::privacy::Neighbouring;
use crate::privacy::event::{Event, EventDoc, FORMAT_VERSION};
use crate::privacy::event_pld::{self, EventPldError};
use crate::privacy::pld::{PldBracket, PldOptions};
use crate::query::Query;
use dpclaims_empirical::rng::{StreamKey, TrialRng};
use rand::RngExt;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// An accountant's settings for one query (`"settings"` on the protocol line): name → value,
/// among those it declares ([`Declaration::settings`]). Empty: its defaults.
pub type Settings = serde_json::Map<String, Value>;

/// One query of the suite.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The event document asked about.
    pub doc: EventDoc,
    /// ε at a δ, or δ at an ε.
    pub query: Query,
    /// The accountant's settings for this query (empty: its defaults). dpclaims' reference
    /// does not depend on them: the truth is the truth whatever the accountant's orders or
    /// grid.
    pub settings: Settings,
    /// `Some(ε)`: a calibration query (`"calibrate": "noise_multiplier"` on the line): the
    /// answer is a noise multiplier σ such that the event, with σ as the noise multiplier of
    /// every Gaussian in it ([`with_noise_multiplier`]), has at most this ε at the δ of
    /// `query` (an [`Query::Epsilon`]). The σ in the document is a placeholder.
    pub calibrate: Option<f64>,
}

/// The query kind, and the answer's key, of a calibration query ([`Request::calibrate`]).
pub const CALIBRATE: &str = "noise_multiplier";

/// The event with `sigma` as the noise multiplier of every Gaussian in it (what a calibration
/// query's answer is put into); other mechanisms are kept.
pub fn with_noise_multiplier(event: &Event, sigma: f64) -> Event {
    let inner = |e: &Event| Box::new(with_noise_multiplier(e, sigma));
    match event {
        Event::Gaussian { .. } => Event::Gaussian {
            noise_multiplier: sigma,
        },
        Event::PoissonSampled {
            sampling_probability,
            event,
        } => Event::PoissonSampled {
            sampling_probability: *sampling_probability,
            event: inner(event),
        },
        Event::SampledWithoutReplacement {
            source_dataset_size,
            sample_size,
            event,
        } => Event::SampledWithoutReplacement {
            source_dataset_size: *source_dataset_size,
            sample_size: *sample_size,
            event: inner(event),
        },
        Event::SelfComposed { event, count } => Event::SelfComposed {
            event: inner(event),
            count: *count,
        },
        Event::Composed { events } => Event::Composed {
            events: events
                .iter()
                .map(|e| with_noise_multiplier(e, sigma))
                .collect(),
        },
        other => other.clone(),
    }
}

impl Request {
    /// The protocol line: the event document with `id` and `delta` or `epsilon`.
    pub fn line(&self, id: usize) -> String {
        let mut v = serde_json::to_value(&self.doc).expect("events serialize");
        let obj = v.as_object_mut().expect("a document is an object");
        obj.insert("id".into(), id.into());
        match self.query {
            Query::Epsilon { delta } => obj.insert("delta".into(), delta.into()),
            Query::Delta { epsilon } => obj.insert("epsilon".into(), epsilon.into()),
        };
        if let Some(epsilon) = self.calibrate {
            obj.insert("calibrate".into(), CALIBRATE.into());
            obj.insert("epsilon".into(), epsilon.into());
        }
        if !self.settings.is_empty() {
            obj.insert("settings".into(), Value::Object(self.settings.clone()));
        }
        v.to_string()
    }

    /// Parses a protocol line back (what an accountant written in Rust reads): its `id` (if
    /// any) and the request.
    pub fn parse_line(line: &str) -> Result<(Option<usize>, Request), String> {
        let mut v: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let obj = v.as_object_mut().ok_or("a JSON object per line")?;
        let id = match obj.remove("id") {
            None => None,
            Some(x) => Some(x.as_u64().ok_or("`id` must be a non-negative integer")? as usize),
        };
        let calibrate = match obj.remove("calibrate") {
            None => false,
            Some(Value::String(k)) if k == CALIBRATE => true,
            Some(x) => return Err(format!("`calibrate` is {x}, not \"{CALIBRATE}\"")),
        };
        let number = |x: Value, name: &str| {
            x.as_f64()
                .ok_or_else(|| format!("`{name}` must be a number"))
        };
        let (query, calibrate) = match (obj.remove("delta"), obj.remove("epsilon"), calibrate) {
            (Some(d), Some(e), true) => (
                Query::Epsilon {
                    delta: number(d, "delta")?,
                },
                Some(number(e, "epsilon")?),
            ),
            (_, _, true) => return Err("a calibration needs `epsilon` and `delta`".into()),
            (Some(d), None, false) => (
                Query::Epsilon {
                    delta: number(d, "delta")?,
                },
                None,
            ),
            (None, Some(e), false) => (
                Query::Delta {
                    epsilon: number(e, "epsilon")?,
                },
                None,
            ),
            _ => return Err("exactly one of `delta` and `epsilon`".into()),
        };
        let settings = match obj.remove("settings") {
            None => Settings::new(),
            Some(Value::Object(m)) => m,
            Some(x) => return Err(format!("`settings` is {x}, not an object")),
        };
        let doc = EventDoc::from_value(&v).map_err(|e| e.to_string())?;
        Ok((
            id,
            Request {
                doc,
                query,
                settings,
                calibrate,
            },
        ))
    }

    /// The query kind, which is also the answer's key: `epsilon`, `delta` or
    /// [`CALIBRATE`].
    pub fn key(&self) -> &'static str {
        match (self.calibrate, self.query) {
            (Some(_), _) => CALIBRATE,
            (None, Query::Epsilon { .. }) => "epsilon",
            (None, Query::Delta { .. }) => "delta",
        }
    }
}

/// The `id` of a protocol line, if it has a readable one (to answer a line that does not parse
/// with its id).
pub fn line_id(line: &str) -> Option<usize> {
    let v: Value = serde_json::from_str(line).ok()?;
    v.get("id")?.as_u64().map(|x| x as usize)
}

/// An accountant's reply to one query.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Reply {
    /// The answer ($+\infty$ for `null`).
    Value(f64),
    /// A certified [optimistic, pessimistic] bracket (dpclaims' own accountant, `--self`): its
    /// answer is the pessimistic end, and an equality or inequality between two brackets holds
    /// when the brackets allow it (both contain the true values, which are what the property
    /// speaks of; how far apart two pessimistic ends are is a matter of precision).
    Bracket([f64; 2]),
    /// `{"error": "unsupported: ..."}`: the accountant does not support the event or the query
    /// (skipped).
    Refused(String),
    /// `{"error": "..."}` with any other text (an exception), or `unsupported` for a query it
    /// declared supported: a failure on a query it supports (a finding). The message, and the
    /// accountant's stderr while it answered.
    Error(String),
    /// A crash, hang or unreadable answer.
    Broken(String),
}

/// The reply encoded on the protocol's answer line, carrying the query's `id` (none for a
/// query that had none).
/// `key` is the query kind ([`Request::key`]).
pub fn reply_line(id: Option<usize>, key: &str, reply: &Reply) -> String {
    let mut v = match reply.value() {
        Some(x) if x.is_finite() => serde_json::json!({ key: x }),
        Some(_) => serde_json::json!({ key: null }),
        None => match reply {
            Reply::Value(_) | Reply::Bracket(_) => unreachable!("answered above"),
            Reply::Refused(e) if !e.starts_with(UNSUPPORTED) => {
                serde_json::json!({ "error": format!("{UNSUPPORTED}{e}") })
            }
            Reply::Refused(e) | Reply::Error(e) | Reply::Broken(e) => {
                serde_json::json!({ "error": e })
            }
        },
    };
    if let Some(id) = id {
        v["id"] = id.into();
    }
    v.to_string()
}

/// The prefix of an `{"error": ...}` answer that means "not supported" (a skip); any other
/// error text is a failure of the accountant on a query it supports.
pub const UNSUPPORTED: &str = "unsupported: ";

/// The prefix of an `unsupported` answer for a combination of declared parts that the
/// accountant does not cover (a relation for one mechanism, a sampled inner event): a skip even
/// when every part is declared ([`Declaration`]).
pub const UNSUPPORTED_COMBINATION: &str = "unsupported: combination: ";

fn parse_reply(line: &str, key: &str) -> Reply {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return Reply::Broken(format!("unreadable answer {line:?}"));
    };
    if let Some(e) = v.get("error") {
        let text = e
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| e.to_string());
        return if text.starts_with(UNSUPPORTED) {
            Reply::Refused(text)
        } else {
            Reply::Error(format!("the accountant answered an error: {text}"))
        };
    }
    match v.get(key) {
        Some(Value::Null) => Reply::Value(f64::INFINITY),
        Some(x) => x
            .as_f64()
            .map(Reply::Value)
            .unwrap_or_else(|| Reply::Broken(format!("`{key}` is not a number in {line:?}"))),
        None => Reply::Broken(format!("no `{key}` in {line:?}")),
    }
}

impl Reply {
    /// The answer: the value, or a bracket's pessimistic end.
    pub fn value(&self) -> Option<f64> {
        match self {
            Reply::Value(x) => Some(*x),
            Reply::Bracket([_, hi]) => Some(*hi),
            _ => None,
        }
    }

    /// The interval the true answer lies in: a bracket, or a value as a point.
    fn interval(&self) -> Option<[f64; 2]> {
        match self {
            Reply::Value(x) => Some([*x, *x]),
            Reply::Bracket(b) => Some(*b),
            _ => None,
        }
    }
}

/// dpclaims' own PLD accountant, in process: its certified bracket.
/// A calibration query ([`Request::calibrate`]) is answered with [`calibrated_sigma`].
pub fn self_reply(req: &Request, opts: &PldOptions) -> Reply {
    if let Some(target) = req.calibrate {
        return match calibrated_sigma(req, target, opts) {
            Ok(Some(sigma)) => Reply::Value(sigma),
            Ok(None) => Reply::Error(format!(
                "no noise multiplier up to {MAX_SIGMA:e} brings ε at δ = {} to {target}",
                req.query.parts().1
            )),
            Err(e) => Reply::Refused(e.to_string()),
        };
    }
    match bracket(req, opts) {
        Ok(b) => Reply::Bracket([b.optimistic, b.pessimistic]),
        Err(e) => Reply::Refused(e.to_string()),
    }
}

/// The largest noise multiplier [`calibrated_sigma`] tries.
pub const MAX_SIGMA: f64 = 1e6;

/// The noise multiplier of the first Gaussian in the event, if any.
fn first_sigma(event: &Event) -> Option<f64> {
    match event {
        Event::Gaussian { noise_multiplier } => Some(*noise_multiplier),
        Event::PoissonSampled { event, .. }
        | Event::SampledWithoutReplacement { event, .. }
        | Event::SelfComposed { event, .. } => first_sigma(event),
        Event::Composed { events } => events.iter().find_map(first_sigma),
        _ => None,
    }
}

/// The request with `sigma` as every Gaussian's noise multiplier, as a plain ε query.
fn at_sigma(req: &Request, sigma: f64) -> Request {
    Request {
        doc: EventDoc {
            event: with_noise_multiplier(&req.doc.event, sigma),
            ..req.doc.clone()
        },
        calibrate: None,
        ..req.clone()
    }
}

/// dpclaims' own calibration: a σ whose *pessimistic* ε at the request's δ (on the grid of
/// `opts`) is at most `target`, within a factor 1.001 of the least such σ on that grid: from
/// the placeholder σ (or 1) it doubles σ until the target is met, divides it (by 2, then by
/// growing factors far under the start) until it is not, then bisects in $\ln\sigma$. The
/// pessimistic ε only grows as σ falls, so what it returns meets the target by dpclaims' upper
/// end — the `calibration` check of `--self` holds by construction. `None`: not even [`MAX_SIGMA`] meets it. Each trial σ is bracketed within
/// [`REFINED_MAX_POINTS`], on a coarser grid where it needs more.
pub fn calibrated_sigma(
    req: &Request,
    target: f64,
    opts: &PldOptions,
) -> Result<Option<f64>, EventPldError> {
    // Within the refined references' point budget, coarsening the grid where a σ below the
    // start needs more: a coarser pessimistic end is still an upper bound, so "meets" stays
    // sound, and the search never holds the gigabyte buffers of a full-budget grid (measured:
    // 8.8 GB peak in `--self --full` at the σ a fixed-size run of 630 steps was bisected to).
    let capped = PldOptions {
        max_points: opts.max_points.min(REFINED_MAX_POINTS),
        ..*opts
    };
    let meets = |sigma: f64| -> Result<bool, EventPldError> {
        let at = at_sigma(req, sigma);
        let (b, _, _) =
            crate::query::coarsening(&capped, EventPldError::is_too_fine, |o| bracket(&at, o))?;
        Ok(b.pessimistic <= target)
    };
    let start = first_sigma(&req.doc.event)
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(1.0);
    least_meeting(start, meets)
}

/// The search of [`calibrated_sigma`] for a `meets` that holds from some σ on (a monotone
/// predicate), from `start`: `None` past [`MAX_SIGMA`]; when the least such σ is under
/// 2·10⁻⁶, a σ that meets under 2·10⁻⁶ (10⁻⁶ is the floor of the search); otherwise a σ that
/// meets, within a factor 1.001 of the least one.
fn least_meeting<E>(
    start: f64,
    mut meets: impl FnMut(f64) -> Result<bool, E>,
) -> Result<Option<f64>, E> {
    let mut hi = start;
    while !meets(hi)? {
        hi *= 2.0;
        if hi > MAX_SIGMA {
            return Ok(None);
        }
    }
    let mut lo = hi / 1.01;
    let mut factor = 2.0;
    while meets(lo)? {
        hi = lo;
        // Never past the floor in one step: the early return below skips the bisection.
        while factor > 2.0 && lo / factor < 1e-6 {
            factor = factor.sqrt();
        }
        lo /= factor;
        // Far under the start (a target every small σ meets, such as ε = 0 at a δ above all
        // the event can spend) the steps grow, ÷2, ÷2, ÷4, ÷16, ÷256: the floor is reached in
        // a few brackets (each costly at a tiny σ) instead of twenty. The bisection below
        // takes the wider last step back to within the factor 1.001.
        if hi < start / 2.0 {
            factor *= factor;
        }
        if lo < 1e-6 {
            return Ok(Some(hi));
        }
    }
    while hi / lo > 1.001 {
        let mid = (lo * hi).sqrt();
        if meets(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// dpclaims' bracket for a request (its settings play no part), remembered for the process:
/// a suite asked again under settings, or run again (pytest runs several suites of one seed),
/// asks the same references. A deterministic function of the document, the query and the
/// options, so the memo changes no number; errors (a cancelled run among them) are not kept.
fn bracket(req: &Request, opts: &PldOptions) -> Result<PldBracket, EventPldError> {
    use std::sync::{Mutex, OnceLock};
    static MEMO: OnceLock<Mutex<std::collections::HashMap<String, PldBracket>>> = OnceLock::new();
    const MEMO_MAX: usize = 100_000;
    let key = format!(
        "{}|{:?}|{:?}",
        serde_json::to_string(&req.doc).expect("events serialize"),
        req.query,
        opts
    );
    let memo = MEMO.get_or_init(Default::default);
    if let Some(b) = memo.lock().ok().and_then(|m| m.get(&key).copied()) {
        return Ok(b);
    }
    let b = match req.query {
        Query::Epsilon { delta } => event_pld::epsilon(&req.doc, delta, opts),
        Query::Delta { epsilon } => event_pld::delta(&req.doc, epsilon, opts),
    }?;
    if let Ok(mut m) = memo.lock() {
        if m.len() >= MEMO_MAX {
            m.clear();
        }
        m.insert(key, b);
    }
    Ok(b)
}

/// What an accountant declares it supports: event types, relations and query kinds
/// (`CMD --supports`, or a Python accountant's `supports`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Declaration {
    /// Event types (`"Gaussian"`, `"PoissonSampled"`, ...).
    pub events: BTreeSet<String>,
    /// Neighbouring relations (`"add-remove"`, `"replace-one"`).
    pub relations: BTreeSet<String>,
    /// What it answers: `"epsilon"` (ε at a δ), `"delta"` (δ at an ε), `"noise_multiplier"`
    /// (σ for an ε at a δ: [`Request::calibrate`]).
    pub queries: BTreeSet<String>,
    /// The settings it takes per query, and the values the suite may draw for each.
    pub settings: BTreeMap<String, SettingSpace>,
    /// `"tolerance": {"epsilon": x}`: how far apart two of its ε answers may be from its
    /// approximation alone (an error budget: prv_accountant's answers are each within
    /// `eps_error` of its estimate, so two may differ by twice it). The equalities and
    /// inequalities between ε answers allow it; `reference` does not (below the truth is
    /// unsound whatever the budget).
    pub epsilon_tolerance: f64,
}

/// The values of one declared setting: `{"choices": [v, ...]}` (any JSON values: an RDP
/// order list, a grid spacing), or `{"min": a, "max": b}` with `"log": true` (log-uniform)
/// and `"integer": true` (rounded) as options.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SettingSpace {
    /// One of these values.
    Choices {
        /// The values.
        choices: Vec<Value>,
    },
    /// A number in `[min, max]`.
    Range {
        /// Least value.
        min: f64,
        /// Greatest value.
        max: f64,
        /// Drawn log-uniformly (`min > 0`).
        log: bool,
        /// Rounded to an integer.
        integer: bool,
    },
}

impl SettingSpace {
    fn parse(name: &str, v: &Value) -> Result<SettingSpace, String> {
        let bad = |why: &str| format!("`settings.{name}`: {why}");
        let obj = v.as_object().ok_or_else(|| bad("not an object"))?;
        if let Some(c) = obj.get("choices") {
            let choices = c
                .as_array()
                .filter(|c| !c.is_empty())
                .ok_or_else(|| bad("`choices` must be a non-empty list"))?;
            return Ok(SettingSpace::Choices {
                choices: choices.clone(),
            });
        }
        let num = |k: &str| {
            obj.get(k)
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    bad(&format!(
                        "`{k}` must be a finite number (or give `choices`)"
                    ))
                })
        };
        let flag = |k: &str| obj.get(k).and_then(Value::as_bool).unwrap_or(false);
        let (min, max, log) = (num("min")?, num("max")?, flag("log"));
        if min > max || (log && min <= 0.0) {
            return Err(bad("needs min <= max (and min > 0 with `log`)"));
        }
        Ok(SettingSpace::Range {
            min,
            max,
            log,
            integer: flag("integer"),
        })
    }

    /// One value, drawn from `rng`.
    fn draw(&self, rng: &mut TrialRng) -> Value {
        match self {
            SettingSpace::Choices { choices } => {
                choices[rng.random_range(0..choices.len())].clone()
            }
            SettingSpace::Range {
                min,
                max,
                log,
                integer,
            } => {
                let x = if *log {
                    log_uniform(rng, *min, *max)
                } else {
                    min + rng.random::<f64>() * (max - min)
                };
                if *integer {
                    Value::from(x.round() as i64)
                } else {
                    Value::from(x)
                }
            }
        }
    }
}

impl Declaration {
    /// Reads `{"events": [...], "relations": [...], "queries": [...]}` (a missing list declares
    /// nothing of its kind; other keys are ignored).
    pub fn parse(text: &str) -> Result<Declaration, String> {
        let v: Value = serde_json::from_str(text.trim()).map_err(|e| {
            let text = text.trim();
            let cut: String = text.chars().take(80).collect();
            format!("not a JSON declaration ({e}): {cut:?}")
        })?;
        Declaration::from_value(&v)
    }

    /// [`Declaration::parse`] of an already parsed value.
    pub fn from_value(v: &Value) -> Result<Declaration, String> {
        let obj = v
            .as_object()
            .ok_or_else(|| format!("the declaration is {v}, not an object"))?;
        let list = |key: &str| -> Result<BTreeSet<String>, String> {
            match obj.get(key) {
                None => Ok(BTreeSet::new()),
                Some(Value::Array(xs)) => xs
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| format!("`{key}`: {x} is not a string"))
                    })
                    .collect(),
                Some(x) => Err(format!("`{key}` is {x}, not a list")),
            }
        };
        let settings = match obj.get("settings") {
            None | Some(Value::Null) => BTreeMap::new(),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| Ok((k.clone(), SettingSpace::parse(k, v)?)))
                .collect::<Result<_, String>>()?,
            Some(x) => return Err(format!("`settings` is {x}, not an object")),
        };
        let epsilon_tolerance = match obj.get("tolerance") {
            None | Some(Value::Null) => 0.0,
            Some(t) => t
                .get("epsilon")
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("`tolerance` is {t}, not {{\"epsilon\": a number >= 0}}"))?,
        };
        Ok(Declaration {
            events: list("events")?,
            relations: list("relations")?,
            queries: list("queries")?,
            settings,
            epsilon_tolerance,
        })
    }

    /// Whether the request's event types (every type in its tree), relation and query kind
    /// are all declared.
    pub fn covers(&self, req: &Request) -> bool {
        let relation = serde_json::to_value(req.doc.neighbouring).expect("relations serialize");
        let query = req.key();
        let mut types = BTreeSet::new();
        event_types(
            &serde_json::to_value(&req.doc.event).expect("events serialize"),
            &mut types,
        );
        relation
            .as_str()
            .is_some_and(|r| self.relations.contains(r))
            && self.queries.contains(query)
            && types.iter().all(|t| self.events.contains(t))
    }

    /// In words, for the outputs.
    pub fn describe(&self) -> String {
        let join = |s: &BTreeSet<String>| {
            if s.is_empty() {
                "none".to_string()
            } else {
                s.iter().cloned().collect::<Vec<_>>().join(", ")
            }
        };
        let settings: BTreeSet<String> = self.settings.keys().cloned().collect();
        format!(
            "events {}; relations {}; queries {}; settings {}",
            join(&self.events),
            join(&self.relations),
            join(&self.queries),
            join(&settings)
        )
    }
}

/// Every `type` in a serialized event tree.
fn event_types(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(t)) = m.get("type") {
                out.insert(t.clone());
            }
            m.values().for_each(|x| event_types(x, out));
        }
        Value::Array(xs) => xs.iter().for_each(|x| event_types(x, out)),
        _ => {}
    }
}

/// The reply judged against a declaration: `unsupported` for a query the accountant declared
/// it supports (all its parts) is an [`Reply::Error`], unless it is
/// [`UNSUPPORTED_COMBINATION`]. Other replies, and every reply without a declaration, are
/// kept.
pub fn apply_declaration(declaration: Option<&Declaration>, req: &Request, reply: Reply) -> Reply {
    match (declaration, reply) {
        (Some(d), Reply::Refused(why))
            if !why.starts_with(UNSUPPORTED_COMBINATION) && d.covers(req) =>
        {
            Reply::Error(format!("declared supported, answered unsupported: {why}"))
        }
        (_, reply) => reply,
    }
}

/// What a line of the accountant's stdout is: an answer to the query with its `id`, an answer
/// without an id (an object with `epsilon`, `delta` or `error`), or not an answer (not JSON,
/// not an object, an object with none of these keys, an `id` that is not a non-negative
/// integer). A line with the tokens NaN or Infinity is still an answer to its id (read as
/// `broken` then).
pub fn answer_tag(line: &str) -> Tag {
    let parsed = serde_json::from_str::<Value>(line).or_else(|e| {
        // Python's json writes NaN and Infinity: find the id all the same.
        let lenient = line
            .replace("-Infinity", "0")
            .replace("Infinity", "0")
            .replace("NaN", "0");
        serde_json::from_str::<Value>(&lenient).map_err(|_| e)
    });
    let v = match parsed {
        Ok(v) => v,
        Err(_) => return Tag::Stray("not JSON".into()),
    };
    let Some(obj) = v.as_object() else {
        return Tag::Stray("not a JSON object".into());
    };
    match obj.get("id") {
        Some(id) => match id.as_u64() {
            Some(k) => Tag::Answer(Some(k)),
            None => Tag::Stray(format!("its id {id} is not a non-negative integer")),
        },
        None if ["epsilon", "delta", CALIBRATE, "error"]
            .iter()
            .any(|k| obj.contains_key(*k)) =>
        {
            Tag::Answer(None)
        }
        None => Tag::Stray(format!(
            "an object without `id`, `epsilon`, `delta`, `{CALIBRATE}` or `error`"
        )),
    }
}

/// The reply with the accountant's stderr while it answered, for a failure (an error or a
/// broken answer): the traceback goes with the finding.
fn with_stderr(reply: Reply, stderr: &str) -> Reply {
    let stderr = stderr.trim_end();
    if stderr.trim().is_empty() {
        return reply;
    }
    let add = |m: String| format!("{m}\n--- the accountant's stderr ---\n{stderr}");
    match reply {
        Reply::Error(m) => Reply::Error(add(m)),
        Reply::Broken(m) => Reply::Broken(add(m)),
        other => other,
    }
}

/// How long `CMD --supports` may take (at most the per-query timeout).
pub const SUPPORTS_TIMEOUT: Duration = Duration::from_secs(30);

/// An accountant run as `sh -c CMD` (`conformance --command`): its declaration, asked once,
/// and the protocol notes of every round asked so far.
#[derive(Debug, Clone)]
pub struct CommandAccountant {
    /// The command.
    pub command: String,
    /// Seconds allowed per query.
    pub timeout: Duration,
    /// What `CMD --supports` declared, if it answered one.
    pub declaration: Option<Declaration>,
    /// Why there is no declaration (when `declaration` is `None`).
    pub undeclared: Option<String>,
    /// Lines skipped, answers without ids.
    pub notes: Notes,
}

impl CommandAccountant {
    /// The accountant `sh -c command`, its declaration asked with `sh -c "command --supports"`
    /// (nothing on stdin; at most [`SUPPORTS_TIMEOUT`] or `timeout`). A command that does not
    /// answer it with a JSON object declares nothing.
    pub fn new(command: &str, timeout: Duration) -> CommandAccountant {
        let probe = format!("{command} --supports");
        let declared = line_protocol::run_once(&probe, timeout.min(SUPPORTS_TIMEOUT))
            .and_then(|out| Declaration::parse(&out));
        let (declaration, undeclared) = match declared {
            Ok(d) => (Some(d), None),
            Err(why) => (None, Some(format!("`{probe}`: {why}"))),
        };
        CommandAccountant {
            command: command.into(),
            timeout,
            declaration,
            undeclared,
            notes: Notes::default(),
        }
    }

    /// The accountant `sh -c command` without asking it for a declaration.
    pub fn undeclared(command: &str, timeout: Duration) -> CommandAccountant {
        CommandAccountant {
            command: command.into(),
            timeout,
            declaration: None,
            undeclared: None,
            notes: Notes::default(),
        }
    }

    /// Asks one batch (`ids[i]`: the id of `requests[i]`) through [`crate::line_protocol`]: a
    /// hang past the timeout or a crash is a `Broken` reply to that request, and the command
    /// is started again on the ones left; answers go to queries by id ([`answer_tag`]).
    pub fn ask(&mut self, ids: &[usize], requests: &[Request]) -> Vec<Reply> {
        let lines: Vec<String> = requests.iter().zip(ids).map(|(r, &i)| r.line(i)).collect();
        let ids: Vec<u64> = ids.iter().map(|&i| i as u64).collect();
        let x =
            line_protocol::exchange(&self.command, &ids, &lines, self.timeout, false, answer_tag);
        self.notes.extend(x.notes);
        x.answers
            .into_iter()
            .zip(requests)
            .map(|(answer, r)| {
                let reply = match answer.line {
                    Ok(line) => parse_reply(&line, r.key()),
                    Err(why) => Reply::Broken(why),
                };
                let reply = apply_declaration(self.declaration.as_ref(), r, reply);
                with_stderr(reply, &answer.stderr)
            })
            .collect()
    }
}

/// Sends every request to `sh -c command` and collects one reply per request (ids: their
/// positions; no declaration asked): [`CommandAccountant::ask`].
pub fn ask_command(command: &str, requests: &[Request], timeout: Duration) -> Vec<Reply> {
    let ids: Vec<usize> = (0..requests.len()).collect();
    CommandAccountant::undeclared(command, timeout).ask(&ids, requests)
}

/// Asks every request of the suite through `ask` (a batch of requests in, one reply each out),
/// in rounds: first those that depend on nothing, then each follow-up once the answer it
/// depends on is known, with that answer as its parameter (written into `suite.requests`, so
/// the reproducers show it). A follow-up of a refused, broken or unusable answer (not finite,
/// or a δ outside (0, 1)) is not asked: it is refused, and its check skipped.
pub fn ask_in_rounds(
    suite: &mut Suite,
    mut ask: impl FnMut(&[Request]) -> Vec<Reply>,
) -> Vec<Reply> {
    ask_in_rounds_with_ids(suite, |_, batch| ask(batch))
}

/// [`ask_in_rounds`], with the requests' indices in the suite (their protocol ids, as in the
/// reproducers) given to `ask` beside the batch.
pub fn ask_in_rounds_with_ids(
    suite: &mut Suite,
    mut ask: impl FnMut(&[usize], &[Request]) -> Vec<Reply>,
) -> Vec<Reply> {
    let n = suite.requests.len();
    let source = |i: usize| {
        suite
            .follow_ups
            .iter()
            .find(|f| f.request == i)
            .map(|f| f.from)
    };
    let sources: Vec<Option<usize>> = (0..n).map(source).collect();
    let mut replies: Vec<Option<Reply>> = vec![None; n];
    loop {
        let ready: Vec<usize> = (0..n)
            .filter(|&i| replies[i].is_none() && sources[i].is_none_or(|j| replies[j].is_some()))
            .collect();
        if ready.is_empty() {
            break;
        }
        let mut asked = Vec::new();
        for i in ready {
            let Some(j) = sources[i] else {
                asked.push(i);
                continue;
            };
            let r = &mut suite.requests[i];
            let answer = replies[j].as_ref().and_then(Reply::value);
            if let Some(target) = &mut r.calibrate {
                // A calibration for the answered ε.
                match answer {
                    Some(x) if x.is_finite() && x >= 0.0 => {
                        *target = x;
                        asked.push(i);
                    }
                    _ => {
                        let why = match answer {
                            Some(x) => format!("it calibrates for the answer {x}"),
                            _ => "the query it follows up on has no answer".into(),
                        };
                        replies[i] = Some(Reply::Refused(format!("not asked: {why}")));
                    }
                }
                continue;
            }
            match (answer, &mut r.query) {
                (Some(x), Query::Delta { epsilon }) if x.is_finite() && x >= 0.0 => {
                    *epsilon = x;
                    asked.push(i);
                }
                (Some(x), Query::Epsilon { delta }) if x > 0.0 && x < 1.0 => {
                    *delta = x;
                    asked.push(i);
                }
                (answer, _) => {
                    let why = match answer {
                        Some(x) => format!("it follows up on the answer {x}"),
                        _ => "the query it follows up on has no answer".into(),
                    };
                    replies[i] = Some(Reply::Refused(format!("not asked: {why}")));
                }
            }
        }
        let batch: Vec<Request> = asked.iter().map(|&i| suite.requests[i].clone()).collect();
        let got = if batch.is_empty() {
            Vec::new()
        } else {
            ask(&asked, &batch)
        };
        for (i, r) in asked.into_iter().zip(got) {
            replies[i] = Some(r);
        }
    }
    replies
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Reply::Broken("no reply".into())))
        .collect()
}

/// How the answers of a check's queries must relate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// The two answers agree (to the tolerance).
    Equal,
    /// The first is at most the second.
    AtMost,
    /// One answer, valid: ε ≥ 0 (finite where dpclaims' pessimistic value is), δ in [0, 1];
    /// not NaN.
    Valid,
    /// One answer, compared with dpclaims' bracket: below its optimistic end is unsound.
    Reference,
    /// One calibration answer σ ([`Request::calibrate`]): the event at σ must have at most the
    /// target ε by dpclaims' bracket (its optimistic end above the target is a finding).
    Calibrated,
}

/// One property instance: queries (indices into the suite's requests) and their relation.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The property's name, e.g. `self-composition` (module documentation).
    pub property: &'static str,
    /// `ordinary` or `extreme` (a scenario other than `ordinary`, or small σ, q or δ, or
    /// many steps).
    pub regime: &'static str,
    /// The base event's family ([`FAMILIES`]).
    pub family: &'static str,
    /// The base event's scenario ([`SCENARIOS`]).
    pub scenario: &'static str,
    /// Indices into [`Suite::requests`], in the order the relation reads them.
    pub queries: Vec<usize>,
    /// How their answers must relate.
    pub relation: Relation,
}

/// A request whose parameter (`epsilon` of a δ query, `delta` of an ε query) is the answer to
/// an earlier one, `from`: it is asked in a later round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowUp {
    /// The later request (index into [`Suite::requests`]).
    pub request: usize,
    /// The request whose answer becomes its parameter.
    pub from: usize,
}

/// The requests and checks of a suite.
#[derive(Debug, Clone, Default)]
pub struct Suite {
    /// The queries, each sent once (protocol `id` = index).
    pub requests: Vec<Request>,
    /// The property instances over them.
    pub checks: Vec<Check>,
    /// Requests asked after the answers they depend on.
    pub follow_ups: Vec<FollowUp>,
    /// Absolute slack of the equalities and inequalities between ε answers: the
    /// accountant's declared tolerance ([`Declaration::epsilon_tolerance`]).
    pub epsilon_tolerance: f64,
    /// The replies are dpclaims' own brackets ([`self_reply`] at the options `judge` is given:
    /// `--self`): each is its own reference, judged for its width only. Otherwise a bracket
    /// reply (a Rust accountant's) is judged by its upper end against a reference computed
    /// here, like any answer.
    pub own_brackets: bool,
}

impl Suite {
    fn push(&mut self, doc: EventDoc, query: Query) -> usize {
        self.requests.push(Request {
            doc,
            query,
            settings: Settings::new(),
            calibrate: None,
        });
        self.requests.len() - 1
    }
}

fn doc(neighbouring: Neighbouring, event: Event) -> EventDoc {
    EventDoc {
        version: FORMAT_VERSION,
        neighbouring,
        event,
    }
}

fn self_composed(event: Event, count: u64) -> Event {
    Event::SelfComposed {
        event: Box::new(event),
        count,
    }
}

fn log_uniform(rng: &mut TrialRng, lo: f64, hi: f64) -> f64 {
    (lo.ln() + rng.random::<f64>() * (hi.ln() - lo.ln())).exp()
}

/// The base event families of the suite, each under a relation: a run of at least
/// `FAMILIES.len()` base events covers every one (and each asks ε and δ of it), so every
/// mechanism is asked under replace-one as well as add/remove where dpclaims has a reference
/// for it (randomized response and fixed-size batches are replace-one mechanisms; a
/// Poisson-sampled Laplace is certified under add/remove only; random allocation is asked under
/// add/remove only, its replace-one bracket being too wide to judge an answer by).
/// `random-allocation` came last (2026-12-06): suites of at most 14 base events are those
/// before it.
pub const FAMILIES: [(&str, Neighbouring); 15] = [
    ("poisson-gaussian", Neighbouring::AddRemove),
    ("poisson-gaussian", Neighbouring::ReplaceOne),
    ("gaussian", Neighbouring::AddRemove),
    ("gaussian", Neighbouring::ReplaceOne),
    ("poisson-laplace", Neighbouring::AddRemove),
    ("laplace", Neighbouring::AddRemove),
    ("laplace", Neighbouring::ReplaceOne),
    ("randomized-response-2", Neighbouring::ReplaceOne),
    ("randomized-response", Neighbouring::ReplaceOne),
    ("epsilon-delta", Neighbouring::AddRemove),
    ("epsilon-delta", Neighbouring::ReplaceOne),
    ("pure-epsilon", Neighbouring::AddRemove),
    ("pure-epsilon", Neighbouring::ReplaceOne),
    ("fixed-size-gaussian", Neighbouring::ReplaceOne),
    ("random-allocation", Neighbouring::AddRemove),
];

/// The most steps per epoch of the `random-allocation` family ($t=k/q$ rounded, at most this):
/// an epoch's PLD costs about $t$ terms, and its bracket stays narrow.
pub const MAX_ALLOCATION_STEPS: u64 = 100;

/// The most epochs of a `random-allocation` base event (its `T`).
pub const MAX_ALLOCATION_EPOCHS: u64 = 20;

/// The k (steps per epoch that hold a record) of a `random-allocation` base event, from the
/// draw `buckets` in 3..=7: 1 (balls-in-bins) when it is odd, `buckets / 2` (2 or 3) when it is
/// even.
pub fn allocation_selected(buckets: u64) -> u64 {
    if buckets % 2 == 1 { 1 } else { buckets / 2 }
}

/// The least σ of a `random-allocation` base event: below it dpclaims' reference costs seconds
/// a query (3 s at σ = 0.9, 30–50 s at σ = 0.5, against 0.3 s at 1.5: the large term's uniform
/// coarse lattice runs to its heavy tail), and a base event asks about thirty.
pub const MIN_ALLOCATION_SIGMA: f64 = 1.5;

/// The parameter regimes the base events cycle through ([`scenario_of`]), each aimed at a kind of
/// wrong answer released accountants have:
/// - `ordinary`: σ in [0.7, 10], q in [1e-3, 0.5], T up to 300, δ in [1e-8, 1e-3];
/// - `small-sigma`: σ in [0.4, 0.8], q in [1e-4, 1e-2], T up to 100 (central-limit accountants
///   under-report here);
/// - `large-sigma`: σ in [10, 100], q in [0.2, 0.9];
/// - `large-delta`: δ in [0.5, 0.99] (a negative ε, or an exception);
/// - `few-steps`: T in {1, 2, 3};
/// - `large-epsilon`: σ in [0.5, 1], q in [0.1, 0.5], and δ asked at ε in [20, 200].
///
/// `full` widens `ordinary` to σ from 0.3, q from 1e-6, T up to 10^5, δ from 1e-12, and
/// `small-sigma` to σ from 0.25 and q from 1e-6.
pub const SCENARIOS: [&str; 6] = [
    "ordinary",
    "small-sigma",
    "large-sigma",
    "large-delta",
    "few-steps",
    "large-epsilon",
];

/// The unit event of a family (its mechanism, sampled or not) at the drawn parameters, and a
/// noisier one (σ, b or the response noise raised, ε halved): the partner of
/// `composition-order` and the variant of `monotone-sigma`.
fn family_units(family: &str, sigma: f64, q: f64, rng: &mut TrialRng) -> (Event, Event) {
    let gaussian = |s: f64| Event::Gaussian {
        noise_multiplier: s,
    };
    let laplace = |b: f64| Event::Laplace {
        noise_multiplier: b,
    };
    let poisson = |e: Event| Event::PoissonSampled {
        sampling_probability: q,
        event: Box::new(e),
    };
    // Draws happen whatever the family, in the same order: a family's parameters do not
    // depend on which family came before.
    let p = rng.random::<f64>().max(0.05);
    let buckets = rng.random_range(3..8);
    let eps = log_uniform(rng, 1e-3, 1.0);
    let delta = log_uniform(rng, 1e-12, 1e-6);
    match family {
        "poisson-gaussian" => (poisson(gaussian(sigma)), poisson(gaussian(2.0 * sigma))),
        "gaussian" => (gaussian(sigma), gaussian(2.0 * sigma)),
        "poisson-laplace" => (poisson(laplace(sigma)), poisson(laplace(2.0 * sigma))),
        "laplace" => (laplace(sigma), laplace(2.0 * sigma)),
        "randomized-response-2" | "randomized-response" => {
            let k = if family == "randomized-response-2" {
                2
            } else {
                buckets
            };
            let rr = |p: f64| Event::RandomizedResponse {
                noise_parameter: p,
                num_buckets: k,
            };
            (rr(p), rr((1.0 + p) / 2.0))
        }
        "epsilon-delta" | "pure-epsilon" => {
            let d = if family == "pure-epsilon" { 0.0 } else { delta };
            let ed = |e: f64| Event::EpsilonDelta {
                epsilon: e,
                delta: d,
            };
            (ed(eps), ed(eps / 2.0))
        }
        "random-allocation" => {
            // Each record in k of t = k/q steps per epoch; the unit is an epoch. k is read
            // from the draw `buckets` (3 to 7): 1 (balls-in-bins) when it is odd, half of it
            // (2 or 3) when it is even, so k = 1 for three draws in five.
            // (t at least k + 1: k of k steps is the Gaussian family again.)
            let k = allocation_selected(buckets);
            let t = ((k as f64 / q).round() as u64).clamp(k + 1, MAX_ALLOCATION_STEPS);
            let allocation = |s: f64| Event::RandomAllocation {
                event: Box::new(gaussian(s)),
                num_selected: k,
                num_steps: t,
            };
            let sigma = sigma.max(MIN_ALLOCATION_SIGMA);
            (allocation(sigma), allocation(2.0 * sigma))
        }
        _ => {
            // Fixed-size batches: m of n without replacement, q = m / n.
            let n = 10_000;
            let m = ((q * n as f64).round() as u64).clamp(1, n - 1);
            let swor = |s: f64| Event::SampledWithoutReplacement {
                source_dataset_size: n,
                sample_size: m,
                event: Box::new(gaussian(s)),
            };
            (swor(sigma), swor(2.0 * sigma))
        }
    }
}

/// The largest central-limit μ of a base event's Gaussian family over its T steps
/// (`step_mu` times $\sqrt T$): $\epsilon \approx \mu^2/2 + \mu\sqrt{2\ln(1/\delta)}$, about
/// 100 at δ = 1e-5.
pub const MAX_MU: f64 = 10.0;

/// The μ of one step of a Gaussian family in the central-limit (GDP) sense: $\Delta/\sigma$
/// unsampled, $q\sqrt{e^{(\Delta/\sigma)^2}-1}$ sampled (Poisson or fixed size), with
/// $\Delta$ = 1 (add/remove) or 2 (replace-one); for an epoch of random allocation ($k$ of $t$
/// steps) that of $t$ steps sampled at $q=k/t$, $\sqrt t$ times the sampled step's; `None` for
/// other families.
fn step_mu(unit: &Event, relation: Neighbouring) -> Option<f64> {
    let sensitivity = match relation {
        Neighbouring::AddRemove => 1.0,
        Neighbouring::ReplaceOne => 2.0,
    };
    let sampled = |q: f64, inner: &Event| match inner {
        Event::Gaussian { noise_multiplier } => {
            Some(q * ((sensitivity / noise_multiplier).powi(2).exp() - 1.0).sqrt())
        }
        _ => None,
    };
    match unit {
        Event::Gaussian { noise_multiplier } => Some(sensitivity / noise_multiplier),
        Event::PoissonSampled {
            sampling_probability,
            event,
        } => sampled(*sampling_probability, event),
        Event::SampledWithoutReplacement {
            source_dataset_size,
            sample_size,
            event,
        } => sampled(*sample_size as f64 / *source_dataset_size as f64, event),
        Event::RandomAllocation {
            event,
            num_selected,
            num_steps,
        } => sampled(*num_selected as f64 / *num_steps as f64, event)
            .map(|mu| mu * (*num_steps as f64).sqrt()),
        _ => None,
    }
}

/// The scenario of base event $i$: $(i\bmod F+\lfloor i/F\rfloor)\bmod 6$ with $F=15$ families.
/// Plain $i\bmod6$ would pair family $f$ only with the scenarios $\equiv f\pmod 3$ (15 and 6
/// share the factor 3); the shift by the round $\lfloor i/F\rfloor$ gives every family every
/// scenario within 90 base events, and is $i\bmod6$ for $i<15$.
pub fn scenario_of(i: usize) -> usize {
    (i % FAMILIES.len() + i / FAMILIES.len()) % SCENARIOS.len()
}

/// A seeded suite of `n` base events, cycling through [`FAMILIES`] (`i mod 15`) and
/// [`SCENARIOS`] ([`scenario_of`]). Each base event gives about fifteen queries: the properties
/// over them (module documentation), and `valid` and `reference` on every one of them (the
/// follow-ups and variants too, not only the base query).
pub fn generate(seed: u64, n: usize, full: bool) -> Suite {
    let key = StreamKey::new(seed, &["conformance"]);
    let mut s = Suite::default();
    for i in 0..n {
        let mut rng = key.trial(i as u64);
        let (family, relation) = FAMILIES[i % FAMILIES.len()];
        let scenario = SCENARIOS[scenario_of(i)];
        let (sigma_lo, q_lo, t_hi, delta_lo) = if full {
            (0.3, 1e-6, 1e5, 1e-12)
        } else {
            (0.7, 1e-3, 300.0, 1e-8)
        };
        let mut sigma = log_uniform(&mut rng, sigma_lo, 10.0);
        let mut q = log_uniform(&mut rng, q_lo, 0.5);
        let mut steps = log_uniform(&mut rng, 1.0, t_hi).round().max(1.0) as u64;
        let mut delta = log_uniform(&mut rng, delta_lo, 1e-3);
        // The scenario's own draws, made for every scenario (the same stream positions).
        let small_sigma = log_uniform(&mut rng, if full { 0.25 } else { 0.4 }, 0.8);
        let small_q = log_uniform(&mut rng, if full { 1e-6 } else { 1e-4 }, 1e-2);
        let short = log_uniform(&mut rng, 1.0, 100.0).round().max(1.0) as u64;
        let large_sigma = log_uniform(&mut rng, 10.0, 100.0);
        let large_q = log_uniform(&mut rng, 0.2, 0.9);
        let large_delta = 0.5 + 0.49 * rng.random::<f64>();
        let few = rng.random_range(1..=3u64);
        let large_eps = log_uniform(&mut rng, 20.0, 200.0);
        let mid_eps = log_uniform(&mut rng, 0.1, 10.0);
        let mid_sigma = log_uniform(&mut rng, 0.5, 1.0);
        let mid_q = log_uniform(&mut rng, 0.1, 0.5);
        let mut delta_at = mid_eps;
        match scenario {
            "small-sigma" => (sigma, q, steps) = (small_sigma, small_q, short),
            "large-sigma" => (sigma, q) = (large_sigma, large_q),
            "large-delta" => delta = large_delta,
            "few-steps" => steps = few,
            "large-epsilon" => (sigma, q, delta_at) = (mid_sigma, mid_q, large_eps),
            _ => {}
        }
        let extreme =
            scenario != "ordinary" || sigma < 0.7 || q < 1e-4 || steps > 10_000 || delta < 1e-9;
        let regime = if extreme { "extreme" } else { "ordinary" };
        // Unsampled mechanisms have no amplification: ten times the noise, or (aimed at a
        // small σ or a large ε) the drawn σ, or twice it, over at most 3 or 10 steps; their ε
        // otherwise runs to hundreds, and the cost of a PLD with it.
        let unsampled = matches!(family, "gaussian" | "laplace");
        let (scale, steps) = match scenario {
            "small-sigma" if unsampled => (1.0, steps.min(3)),
            "large-epsilon" if unsampled => (2.0, steps.min(10)),
            _ if unsampled => (10.0, steps),
            _ => (1.0, steps),
        };
        let (unit, noisier) = family_units(family, sigma * scale, q, &mut rng);
        // Randomized response and (ε, δ) compose linearly: keep their counts small. A
        // Gaussian family's count is capped where its central-limit μ reaches
        // [`MAX_MU`] (ε about 100 at δ = 1e-5): past it the PLD spans thousands in ε, costs
        // minutes, and says nothing the runs below it do not.
        let steps = match &unit {
            Event::RandomizedResponse { .. } | Event::EpsilonDelta { .. } => steps.min(20),
            // (At σ ≥ MIN_ALLOCATION_SIGMA and t ≥ 2k, i.e. q ≤ 0.5 (the large-σ scenario's
            // larger q comes with σ ≥ 10), an epoch's μ, k/√t·√(e^{1/σ²}−1), is at
            // most 0.92 (k = 3), so the μ cap, about 119 epochs, does not bind below
            // MAX_ALLOCATION_EPOCHS: a guard.)
            Event::RandomAllocation { .. } => match step_mu(&unit, relation) {
                Some(mu) if mu > 0.0 => steps
                    .min(MAX_ALLOCATION_EPOCHS)
                    .min(((MAX_MU / mu).powi(2).floor() as u64).max(1)),
                _ => steps.min(MAX_ALLOCATION_EPOCHS),
            },
            _ => match step_mu(&unit, relation) {
                Some(mu) if mu > 0.0 => steps.min(((MAX_MU / mu).powi(2).floor() as u64).max(1)),
                _ => steps,
            },
        };
        let first = s.requests.len();
        let check =
            |s: &mut Suite, property: &'static str, queries: Vec<usize>, relation: Relation| {
                s.checks.push(Check {
                    property,
                    regime,
                    family,
                    scenario,
                    queries,
                    relation,
                })
            };
        let base = self_composed(unit.clone(), steps);
        let eps_q = Query::Epsilon { delta };
        let b = s.push(doc(relation, base.clone()), eps_q);
        // δ at a drawn ε (in [20, 200] for `large-epsilon`): every family is asked δ too.
        s.push(
            doc(relation, base.clone()),
            Query::Delta { epsilon: delta_at },
        );
        // delta at the answered epsilon, then epsilon at that delta (parameters set in rounds).
        let d_at = s.push(
            doc(relation, base.clone()),
            Query::Delta { epsilon: f64::NAN },
        );
        let e_at = s.push(
            doc(relation, base.clone()),
            Query::Epsilon { delta: f64::NAN },
        );
        s.follow_ups.push(FollowUp {
            request: d_at,
            from: b,
        });
        s.follow_ups.push(FollowUp {
            request: e_at,
            from: d_at,
        });
        check(
            &mut s,
            "epsilon-delta-round-trip",
            vec![e_at, b, d_at],
            Relation::Equal,
        );
        // SelfComposed(unit, k) against k copies one by one.
        let k = 2 + (i as u64 % 4);
        let sc = s.push(doc(relation, self_composed(unit.clone(), k)), eps_q);
        let copies = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![unit.clone(); k as usize],
                },
            ),
            eps_q,
        );
        check(
            &mut s,
            "self-composition",
            vec![sc, copies],
            Relation::Equal,
        );
        let doubled = s.push(doc(relation, self_composed(unit.clone(), 2 * steps)), eps_q);
        check(&mut s, "monotone-count", vec![b, doubled], Relation::AtMost);
        let noop = s.push(
            doc(
                relation,
                Event::Composed {
                    events: vec![base.clone(), Event::NoOp],
                },
            ),
            eps_q,
        );
        check(&mut s, "no-op", vec![noop, b], Relation::Equal);
        let q1 = s.push(
            doc(
                relation,
                Event::PoissonSampled {
                    sampling_probability: 1.0,
                    event: Box::new(base.clone()),
                },
            ),
            eps_q,
        );
        check(&mut s, "poisson-q1", vec![q1, b], Relation::Equal);
        // A larger δ: ten times (up to 0.5), or half way to 1 for a δ already large.
        let larger = if delta < 0.05 {
            (10.0 * delta).min(0.5)
        } else {
            (1.0 + delta) / 2.0
        };
        let looser = s.push(
            doc(relation, base.clone()),
            Query::Epsilon { delta: larger },
        );
        check(&mut s, "monotone-delta", vec![looser, b], Relation::AtMost);
        // Composition in either order, with a partner of the same family (which an accountant
        // supporting the base event supports too) and with a pure ε-DP Laplace partner (which
        // RDP accountants support, where they have no (ε, δ) event).
        for other in [
            noisier.clone(),
            Event::Laplace {
                noise_multiplier: 20.0,
            },
        ] {
            let ab = s.push(
                doc(
                    relation,
                    Event::Composed {
                        events: vec![base.clone(), other.clone()],
                    },
                ),
                eps_q,
            );
            let ba = s.push(
                doc(
                    relation,
                    Event::Composed {
                        events: vec![other, base.clone()],
                    },
                ),
                eps_q,
            );
            check(&mut s, "composition-order", vec![ab, ba], Relation::Equal);
        }
        let quieter = s.push(doc(relation, self_composed(noisier, steps)), eps_q);
        check(&mut s, "monotone-sigma", vec![quieter, b], Relation::AtMost);
        // The σ the accountant calibrates for its own ε of the base event (a follow-up: the
        // target is its answer), which the truth at that σ must not exceed.
        if matches!(
            family,
            "poisson-gaussian" | "gaussian" | "fixed-size-gaussian"
        ) {
            let cal = s.push(doc(relation, base.clone()), eps_q);
            s.requests[cal].calibrate = Some(f64::NAN);
            s.follow_ups.push(FollowUp {
                request: cal,
                from: b,
            });
            check(&mut s, "calibration", vec![cal], Relation::Calibrated);
        }
        // Every answer judged: valid, and against the certified bracket (a calibration by
        // `calibration`).
        for r in first..s.requests.len() {
            check(&mut s, "valid", vec![r], Relation::Valid);
            if s.requests[r].calibrate.is_none() {
                check(&mut s, "reference", vec![r], Relation::Reference);
            }
        }
    }
    s
}

/// The suite asked again under drawn settings: `samples` copies of every request and check
/// (regime `settings`), each group of queries that a check or a follow-up ties together
/// (a base event's properties, its round trip) under one draw from the declared spaces,
/// seeded by `seed` (stream `conformance/settings`). Empty without declared settings.
pub fn with_settings(
    suite: &Suite,
    declared: &BTreeMap<String, SettingSpace>,
    seed: u64,
    samples: usize,
) -> Suite {
    let mut out = suite.clone();
    if declared.is_empty() || samples == 0 {
        return out;
    }
    let n = suite.requests.len();
    // Groups: union-find over the queries each check reads and each follow-up's pair.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let join = |a: usize, b: usize, parent: &mut Vec<usize>| {
        let (ra, rb) = (root(parent, a), root(parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    };
    for c in &suite.checks {
        for w in c.queries.windows(2) {
            join(w[0], w[1], &mut parent);
        }
    }
    for f in &suite.follow_ups {
        join(f.request, f.from, &mut parent);
    }
    let key = StreamKey::new(seed, &["conformance", "settings"]);
    for k in 0..samples {
        let offset = out.requests.len();
        let mut drawn: BTreeMap<usize, Settings> = BTreeMap::new();
        for i in 0..n {
            let group = root(&mut parent, i);
            let settings = drawn
                .entry(group)
                .or_insert_with(|| {
                    let mut rng = key.trial((k * n + group) as u64);
                    declared
                        .iter()
                        .map(|(name, space)| (name.clone(), space.draw(&mut rng)))
                        .collect()
                })
                .clone();
            out.requests.push(Request {
                settings,
                ..suite.requests[i].clone()
            });
        }
        for c in &suite.checks {
            out.checks.push(Check {
                regime: "settings",
                queries: c.queries.iter().map(|&i| i + offset).collect(),
                ..c.clone()
            });
        }
        for f in &suite.follow_ups {
            out.follow_ups.push(FollowUp {
                request: f.request + offset,
                from: f.from + offset,
            });
        }
    }
    out
}

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The property holds (for `reference`: within a bracket narrow enough to judge, or above
    /// it by at most the tolerance).
    Pass,
    /// Some query was refused by the accountant (or dpclaims has no reference for it).
    Skipped,
    /// `reference` only: above the certified upper value by more than the tolerance.
    Loose,
    /// `reference` only: the answer lies inside dpclaims' bracket, which is too wide to judge
    /// it ([`too_wide`]) even on grids refined [`REFINEMENTS`] times; for
    /// `--self`, dpclaims' own bracket is that wide. A limit of dpclaims' precision, shown,
    /// never folded into a pass.
    Imprecise,
    /// The property does not hold (for `reference`: below the certified lower value).
    Finding,
    /// The accountant answered an error on a query it supports (an exception; `unsupported`
    /// for a query it declared supported).
    Error,
    /// The accountant crashed, hung or answered garbage.
    Broken,
}

/// A check's result: verdict, the numbers, and what to run to see it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The check's property ([`Check::property`]).
    pub property: &'static str,
    /// The check's regime ([`Check::regime`]).
    pub regime: &'static str,
    /// The base event's family ([`Check::family`]).
    pub family: &'static str,
    /// The base event's scenario ([`Check::scenario`]).
    pub scenario: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// The accountant's answers, one per query (`None`: refused or broken).
    pub answers: Vec<Option<f64>>,
    /// `reference`: dpclaims' [optimistic, pessimistic] (the narrowest one computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracket: Option<[f64; 2]>,
    /// The comparison made, or why the check was skipped or broken, in words.
    pub detail: String,
    /// The protocol lines of the check's queries.
    pub queries: Vec<String>,
}

/// Relative width $(\text{hi}-\text{lo})/\text{hi}$ of an ε bracket above which it cannot
/// judge an answer that lies inside it ([`too_wide`]): a bracket of [0, 4.34] passes any
/// answer in it.
pub const WIDE: f64 = 0.01;

/// [`WIDE`] for a δ bracket: δ moves by a factor $e^{c\thinspace\Delta\epsilon}$ over a grid step
/// $\Delta\epsilon$ ($c$ the slope of $\ln\delta(\epsilon)$, tens at a small δ), so its
/// brackets are relatively wider than ε's.
pub const WIDE_DELTA: f64 = 0.05;

/// How many times a reference too wide to judge is computed again, each time on a grid 4
/// times finer, before the check is `imprecise`.
pub const REFINEMENTS: u32 = 3;

/// The point budget of one FFT of a refined reference (its memory: a few buffers of this
/// many complex numbers per composition running).
pub const REFINED_MAX_POINTS: usize = 1 << 22;

/// Whether the bracket is too wide to judge an answer inside it: wider than [`WIDE`] (ε) or
/// [`WIDE_DELTA`] (δ) times its upper end plus a floor, twice the grid spacing `interval` for ε (a PLD bracket is
/// about one grid step wide whatever ε) and $10^{-13}$ for δ (about the tail mass a PLD
/// carries as $+\infty$).
pub fn too_wide(bracket: [f64; 2], query: Query, interval: f64) -> bool {
    let [lo, hi] = bracket;
    if lo == hi {
        return false; // exact (an infinite value included)
    }
    if !hi.is_finite() {
        return true; // a finite lower end, or NaN
    }
    let (wide, floor) = match query {
        Query::Epsilon { .. } => (WIDE, 2.0 * interval),
        Query::Delta { .. } => (WIDE_DELTA, 1e-13),
    };
    !(hi - lo <= wide * hi.abs() + floor)
}

/// dpclaims' reference for one query.
#[derive(Debug, Clone, PartialEq)]
enum Reference {
    /// The certified bracket (the intersection of those computed: each contains the truth),
    /// and the grid spacing of the last one.
    Certified([f64; 2], f64),
    /// The reply is dpclaims' own bracket (`--self`): it is its own reference.
    Own([f64; 2]),
    /// No reference: why.
    None(String),
}

/// Whether `x` lies where a bracket cannot tell under- from over-reporting: at or above the
/// optimistic end, at most the pessimistic end widened by the tolerance.
fn inside(x: f64, [lo, hi]: [f64; 2], tolerance: f64, query: Query) -> bool {
    !below(x, lo) && !above(x, hi, tolerance, query)
}

fn below(x: f64, lo: f64) -> bool {
    x < lo * (1.0 - 1e-9) || x.is_nan()
}

fn above(x: f64, hi: f64, tolerance: f64, query: Query) -> bool {
    let floor = match query {
        Query::Epsilon { .. } => 1e-9,
        Query::Delta { .. } => 0.0,
    };
    x > hi * (1.0 + tolerance) + floor
}

/// dpclaims' bracket for `req`, refined ([`REFINEMENTS`] times, grids 4 times finer each)
/// while `answer` lies inside it and it is [`too_wide`]; a grid the point budget refuses ends
/// the refinement with the bracket so far.
fn certified(req: &Request, answer: f64, tolerance: f64, opts: &PldOptions) -> Reference {
    let mut b = match bracket(req, opts) {
        Ok(b) => [b.optimistic, b.pessimistic],
        Err(e) => return Reference::None(format!("no reference: {e}")),
    };
    let mut interval = opts.interval;
    for _ in 0..REFINEMENTS {
        if !(too_wide(b, req.query, interval) && inside(answer, b, tolerance, req.query)) {
            break;
        }
        let finer = PldOptions {
            interval: interval / 4.0,
            max_points: opts.max_points.min(REFINED_MAX_POINTS),
            ..*opts
        };
        match bracket(req, &finer) {
            Ok(r) => {
                b = [b[0].max(r.optimistic), b[1].min(r.pessimistic)];
                interval = finer.interval;
            }
            Err(_) => break,
        }
    }
    Reference::Certified(b, interval)
}

/// The references of every query a `valid` or `reference` check reads (in parallel): the
/// certified bracket for a value answer, the reply itself for a bracket.
fn references(
    suite: &Suite,
    replies: &[Reply],
    tolerance: f64,
    opts: &PldOptions,
) -> Vec<Option<Reference>> {
    use rayon::prelude::*;
    let mut wanted = vec![false; suite.requests.len()];
    for c in &suite.checks {
        if matches!(
            c.relation,
            Relation::Valid | Relation::Reference | Relation::Calibrated
        ) {
            wanted[c.queries[0]] = true;
        }
    }
    (0..suite.requests.len())
        .into_par_iter()
        .map(|i| {
            if !wanted[i] {
                return None;
            }
            let req = &suite.requests[i];
            match (&replies[i], req.calibrate) {
                // A calibration: the bracket of ε at the answered σ, refined while the target
                // lies in it.
                (Reply::Value(sigma), Some(target)) => Some(if sigma.is_finite() && *sigma > 0.0 {
                    certified(&at_sigma(req, *sigma), target, 0.0, opts)
                } else {
                    Reference::None(format!("no noise multiplier to judge: {sigma}"))
                }),
                (_, Some(_)) => None,
                (Reply::Value(x), None) => Some(certified(req, *x, tolerance, opts)),
                // dpclaims' own bracket is its own reference: judged for its width (too wide
                // is `imprecise`, at the grid it was asked at: not refined, so that a
                // precision regression shows).
                (Reply::Bracket(b), None) if suite.own_brackets => Some(Reference::Own(*b)),
                (Reply::Bracket([_, hi]), None) => Some(certified(req, *hi, tolerance, opts)),
                _ => None,
            }
        })
        .collect()
}

/// Judges the replies (one per request) against every check.
pub fn judge(suite: &Suite, replies: &[Reply], tolerance: f64, opts: &PldOptions) -> Vec<Outcome> {
    let refs = references(suite, replies, tolerance, opts);
    suite
        .checks
        .iter()
        .map(|c| {
            let rs: Vec<&Reply> = c.queries.iter().map(|&i| &replies[i]).collect();
            let answers: Vec<Option<f64>> = rs.iter().map(|r| r.value()).collect();
            let intervals: Vec<[f64; 2]> = rs
                .iter()
                .map(|r| r.interval().unwrap_or([f64::NAN; 2]))
                .collect();
            let queries = c
                .queries
                .iter()
                .map(|&i| suite.requests[i].line(i))
                .collect();
            let mut out = Outcome {
                property: c.property,
                regime: c.regime,
                family: c.family,
                scenario: c.scenario,
                verdict: Verdict::Pass,
                answers: answers.clone(),
                bracket: None,
                detail: String::new(),
                queries,
            };
            if let Some((verdict, why)) = unanswered(&rs) {
                out.verdict = verdict;
                out.detail = why;
                return out;
            }
            let v: Vec<f64> = answers.iter().map(|a| a.unwrap_or(f64::NAN)).collect();
            // The accountant's declared slack, between ε answers.
            let declared = match suite.requests[c.queries[0]].query {
                Query::Epsilon { .. } => suite.epsilon_tolerance,
                Query::Delta { .. } => 0.0,
            };
            let (verdict, detail) = match c.relation {
                Relation::Equal => {
                    // Two points agree to the tolerance; brackets (or a bracket and a point)
                    // agree when they meet once each is widened by it.
                    let [a, b] = [intervals[0], intervals[1]];
                    let slack = tolerance * v[0].abs().max(v[1].abs()) + 1e-9 + declared;
                    // An infinite answer (or bracket end) meets only an equal one: the slack
                    // would otherwise be infinite and the check could not fail.
                    let finite = a.iter().chain(&b).all(|x| x.is_finite());
                    let ok =
                        v[0] == v[1] || (finite && a[0] <= b[1] + slack && b[0] <= a[1] + slack);
                    let show = |i: usize| match rs[i] {
                        Reply::Bracket([lo, hi]) => format!("{hi} (bracket [{lo}, {hi}])"),
                        _ => v[i].to_string(),
                    };
                    (
                        ok,
                        format!(
                            "{} vs {} (relative tolerance {tolerance})",
                            show(0),
                            show(1)
                        ),
                    )
                }
                // The slack is relative to the size of the bound: `b * (1 + 1e-6)` would be
                // stricter than `b` for a negative answer (-1 <= -1 was a finding), and
                // `b + 1e-6 |b|` is NaN at b = -inf (hence the plain comparison first).
                Relation::AtMost => (
                    intervals[0][0] <= intervals[1][1]
                        || intervals[0][0]
                            <= intervals[1][1] + 1e-6 * intervals[1][1].abs() + 1e-12 + declared,
                    format!("{} should be at most {}", v[0], v[1]),
                ),
                Relation::Valid if suite.requests[c.queries[0]].calibrate.is_some() => (
                    v[0].is_finite() && v[0] > 0.0,
                    format!("σ = {} should be a finite number > 0", v[0]),
                ),
                Relation::Valid => {
                    let query = suite.requests[c.queries[0]].query;
                    let x = v[0];
                    match query {
                        Query::Epsilon { .. } => {
                            // Finite where the truth is: where dpclaims' pessimistic value is.
                            let finite = match &refs[c.queries[0]] {
                                Some(Reference::Certified([_, hi], _) | Reference::Own([_, hi])) => {
                                    hi.is_finite()
                                }
                                _ => false,
                            };
                            (
                                x >= 0.0 && (!finite || x.is_finite()),
                                format!(
                                    "ε = {x} should be >= 0{}",
                                    if finite {
                                        " and finite (dpclaims' upper value is)"
                                    } else {
                                        ""
                                    }
                                ),
                            )
                        }
                        Query::Delta { .. } => (
                            (0.0..=1.0).contains(&x),
                            format!("δ = {x} should be in [0, 1]"),
                        ),
                    }
                }
                Relation::Reference => {
                    let query = suite.requests[c.queries[0]].query;
                    let x = v[0];
                    match refs[c.queries[0]].clone() {
                        None | Some(Reference::None(_)) => {
                            out.verdict = Verdict::Skipped;
                            out.detail = match refs[c.queries[0]].clone() {
                                Some(Reference::None(why)) => why,
                                _ => "no reference".into(),
                            };
                            return out;
                        }
                        Some(Reference::Own(b)) => {
                            out.bracket = Some(b);
                            if too_wide(b, query, opts.interval) {
                                out.verdict = Verdict::Imprecise;
                                out.detail = format!(
                                    "dpclaims' own bracket [{}, {}] at interval {:e} is too wide (relative width {:.3e})",
                                    b[0],
                                    b[1],
                                    opts.interval,
                                    (b[1] - b[0]) / b[1].abs()
                                );
                                return out;
                            }
                            (
                                true,
                                format!(
                                    "dpclaims' own bracket [{}, {}]: its own reference (consistent by construction; judged for its width, {WIDE} relative for ε, {WIDE_DELTA} for δ)",
                                    b[0], b[1]
                                ),
                            )
                        }
                        Some(Reference::Certified(b, interval)) => {
                            out.bracket = Some(b);
                            if above(x, b[1], tolerance, query) {
                                out.verdict = Verdict::Loose;
                                out.detail = format!(
                                    "ratio {:.4} to the certified upper value {} (interval {interval:e})",
                                    x / b[1],
                                    b[1]
                                );
                                return out;
                            }
                            if !below(x, b[0]) && too_wide(b, query, interval) {
                                out.verdict = Verdict::Imprecise;
                                out.detail = format!(
                                    "{x} lies in [{}, {}], too wide to judge it (relative width {:.3e}) on grids down to interval {interval:e}",
                                    b[0],
                                    b[1],
                                    (b[1] - b[0]) / b[1].abs()
                                );
                                return out;
                            }
                            let side = if below(x, b[0]) {
                                "below the certified lower value: unsound"
                            } else {
                                "within"
                            };
                            (
                                !below(x, b[0]),
                                format!("{x} against [{}, {}] ({side})", b[0], b[1]),
                            )
                        }
                    }
                }
                Relation::Calibrated => {
                    let req = &suite.requests[c.queries[0]];
                    let target = req.calibrate.unwrap_or(f64::NAN);
                    let sigma = v[0];
                    if !(target.is_finite() && target >= 0.0) {
                        out.verdict = Verdict::Skipped;
                        out.detail = format!("not asked: its target ε is {target}");
                        return out;
                    }
                    let (b, interval) = match refs[c.queries[0]].clone() {
                        Some(Reference::Certified(b, interval)) => (b, interval),
                        other => {
                            out.verdict = Verdict::Skipped;
                            out.detail = match other {
                                Some(Reference::None(why)) => why,
                                _ => "no reference".into(),
                            };
                            return out;
                        }
                    };
                    out.bracket = Some(b);
                    let shown = format!("σ = {sigma} gives ε in [{}, {}]", b[0], b[1]);
                    if b[1] <= target {
                        (true, format!("{shown}, at most the target {target} (certified)"))
                    } else if b[0] > target * (1.0 + 1e-9) + 1e-9 + declared {
                        (
                            false,
                            format!(
                                "{shown}, above the target {target}: the calibration under-protects"
                            ),
                        )
                    } else if too_wide(b, req.query, interval) {
                        out.verdict = Verdict::Imprecise;
                        out.detail = format!(
                            "{shown}, which holds the target {target} and is too wide to judge it on grids down to interval {interval:e}"
                        );
                        return out;
                    } else {
                        (
                            true,
                            format!(
                                "{shown}, which holds the target {target}: calibrated to it within dpclaims' precision"
                            ),
                        )
                    }
                }
            };
            if !verdict {
                out.verdict = Verdict::Finding;
            }
            out.detail = detail;
            out
        })
        .collect()
}

/// The verdict of a check some of whose queries have no answer, and why: a broken answer
/// first, then an error, then a refusal (a skip).
fn unanswered(rs: &[&Reply]) -> Option<(Verdict, String)> {
    let find = |f: fn(&Reply) -> Option<&String>| rs.iter().find_map(|r| f(r)).cloned();
    if let Some(why) = find(|r| match r {
        Reply::Broken(w) => Some(w),
        _ => None,
    }) {
        return Some((Verdict::Broken, why));
    }
    if let Some(why) = find(|r| match r {
        Reply::Error(w) => Some(w),
        _ => None,
    }) {
        return Some((Verdict::Error, why));
    }
    find(|r| match r {
        Reply::Refused(w) => Some(w),
        _ => None,
    })
    .map(|why| (Verdict::Skipped, why))
}

/// A scorecard row: counts per property and regime.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Score {
    /// The property.
    pub property: String,
    /// The regime.
    pub regime: String,
    /// Checks that passed.
    pub pass: usize,
    /// Checks skipped (a query refused, or no reference).
    pub skipped: usize,
    /// `reference` checks above the certified upper value by more than the tolerance.
    pub loose: usize,
    /// `reference` checks whose bracket was too wide to judge the answer ([`Verdict::Imprecise`]).
    pub imprecise: usize,
    /// Checks whose property does not hold.
    pub findings: usize,
    /// Checks with an error answered on a supported query.
    pub errors: usize,
    /// Checks with a crashed, hung or unreadable answer.
    pub broken: usize,
}

/// Counts per (property, regime), in the order first seen.
pub fn scorecard(outcomes: &[Outcome]) -> Vec<Score> {
    let mut rows: Vec<Score> = Vec::new();
    for o in outcomes {
        let i = match rows
            .iter()
            .position(|r| r.property == o.property && r.regime == o.regime)
        {
            Some(i) => i,
            None => {
                rows.push(Score {
                    property: o.property.into(),
                    regime: o.regime.into(),
                    ..Score::default()
                });
                rows.len() - 1
            }
        };
        let r = &mut rows[i];
        match o.verdict {
            Verdict::Pass => r.pass += 1,
            Verdict::Skipped => r.skipped += 1,
            Verdict::Loose => r.loose += 1,
            Verdict::Imprecise => r.imprecise += 1,
            Verdict::Finding => r.findings += 1,
            Verdict::Error => r.errors += 1,
            Verdict::Broken => r.broken += 1,
        }
    }
    rows
}

/// What the outputs say besides the checks: how to ask the accountant again, what it
/// declared, and the protocol notes.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The accountant's command: its reproducer is `echo '<query>' | command`.
    pub command: String,
    /// PLD grid spacing of dpclaims' reference: dpclaims' own answer is
    /// `echo '<query>' | dpclaims epsilon --event - --interval <interval>`.
    pub interval: f64,
    /// The accountant's declaration, if any.
    pub declaration: Option<Declaration>,
    /// Why there is none, when one was asked for (`None`: not asked, nothing said).
    pub undeclared: Option<String>,
    /// Lines that were not answers, answers with ids not awaited, answers without ids.
    pub notes: Notes,
}

impl Report {
    /// A report for `command` with nothing declared nor noted.
    pub fn new(command: &str) -> Report {
        Report {
            command: command.into(),
            interval: PldOptions::default().interval,
            declaration: None,
            undeclared: None,
            notes: Notes::default(),
        }
    }
}

/// The scorecard and every finding as text (Markdown with `markdown`); `command` goes into the
/// reproducers.
pub fn render(outcomes: &[Outcome], command: &str, markdown: bool) -> String {
    render_report(outcomes, &Report::new(command), markdown)
}

/// The scorecard, the run's notes ([`render_notes`]), then every finding, error and broken
/// answer with its detail (the accountant's stderr for an error or a broken answer) and its
/// reproducers: the query to the accountant, and to dpclaims.
pub fn render_report(outcomes: &[Outcome], report: &Report, markdown: bool) -> String {
    let mut s = render_scorecard(outcomes, markdown);
    s += &render_coverage(outcomes, markdown);
    s += &render_notes(outcomes, report, markdown);
    for o in outcomes.iter().filter(|o| {
        matches!(
            o.verdict,
            Verdict::Finding | Verdict::Error | Verdict::Broken
        )
    }) {
        let mut lines = o.detail.lines();
        s += &format!(
            "\n{:?} {} ({}): {}\n",
            o.verdict,
            o.property,
            o.regime,
            lines.next().unwrap_or("")
        );
        for l in lines {
            s += &format!("    {l}\n");
        }
        for (k, q) in o.queries.iter().enumerate() {
            let parsed = Request::parse_line(q);
            // A calibration is seen again as the ε of the event at the answered σ.
            let seen = match (&parsed, o.answers.get(k).copied().flatten()) {
                (Ok((id, r)), Some(sigma)) if r.calibrate.is_some() => {
                    Some(at_sigma(r, sigma).line(id.unwrap_or(0)))
                }
                _ => None,
            };
            let command = match parsed.map(|(_, r)| r.query) {
                Ok(Query::Epsilon { .. }) => "epsilon",
                Ok(Query::Delta { .. }) => "delta",
                Err(_) => {
                    // A follow-up whose parameter never came (`null`).
                    s += &format!(
                        "  not asked (its parameter is an answer that did not come): {q}\n"
                    );
                    continue;
                }
            };
            s += &format!("  reproduce: echo '{q}' | {}\n", report.command);
            s += &format!(
                "  dpclaims:  echo '{}' | dpclaims {command} --event - --interval {}\n",
                seen.as_deref().unwrap_or(q),
                report.interval
            );
        }
    }
    s
}

/// Which base event families, relations and query kinds the run asked and had answered: the
/// `valid` checks (one per query), per [`FAMILIES`] entry, as `answered/asked` for ε and δ
/// queries. A family never asked shows `0/0`: a run too small to cover it.
pub fn render_coverage(outcomes: &[Outcome], markdown: bool) -> String {
    let mut counts = vec![[[0usize; 2]; 3]; FAMILIES.len()];
    for o in outcomes.iter().filter(|o| o.property == "valid") {
        let Some(v) = o
            .queries
            .first()
            .and_then(|q| serde_json::from_str::<Value>(q).ok())
        else {
            continue;
        };
        let relation = v["neighbouring"].as_str().unwrap_or("");
        let Some(f) = FAMILIES.iter().position(|(name, r)| {
            *name == o.family
                && serde_json::to_value(r)
                    .ok()
                    .as_ref()
                    .and_then(Value::as_str)
                    == Some(relation)
        }) else {
            continue;
        };
        let kind = if v.get("calibrate").is_some() {
            2
        } else {
            usize::from(v.get("epsilon").is_some())
        };
        counts[f][kind][1] += 1;
        if o.verdict != Verdict::Skipped {
            counts[f][kind][0] += 1;
        }
    }
    let mut s = String::from(
        "\ncoverage (answered / asked, one `valid` check per query, by base event family and relation):\n",
    );
    let cell = |c: [usize; 2]| format!("{}/{}", c[0], c[1]);
    if markdown {
        s += "\n| family | relation | ε queries | δ queries | σ calibrations |\n|---|---|---|---|---|\n";
    } else {
        s += &format!(
            "  {:<22} {:<12} {:>10} {:>10} {:>12}\n",
            "family", "relation", "epsilon", "delta", "calibration"
        );
    }
    for (f, (name, r)) in FAMILIES.iter().enumerate() {
        let relation = serde_json::to_value(r).expect("relations serialize");
        let relation = relation.as_str().unwrap_or("");
        let [e, d, c] = counts[f];
        // Only the Gaussian families are asked for a calibration.
        let c = if c[1] == 0 { "-".to_string() } else { cell(c) };
        if markdown {
            s += &format!(
                "| {name} | {relation} | {} | {} | {c} |\n",
                cell(e),
                cell(d)
            );
        } else {
            s += &format!(
                "  {name:<22} {relation:<12} {:>10} {:>10} {c:>12}\n",
                cell(e),
                cell(d)
            );
        }
    }
    let imprecise: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Imprecise)
        .collect();
    if !imprecise.is_empty() {
        let item = if markdown { "- " } else { "  " };
        s += &format!(
            "\nimprecise ({}): dpclaims' bracket too wide to judge the answer, neither passed nor a finding:\n",
            imprecise.len()
        );
        const SHOWN: usize = 10;
        for o in imprecise.iter().take(SHOWN) {
            s += &format!(
                "{item}{} ({}): {}\n{item}  {}\n",
                o.family,
                o.scenario,
                o.detail,
                o.queries.first().map(String::as_str).unwrap_or("")
            );
        }
        if imprecise.len() > SHOWN {
            s += &format!("{item}... ({} more)\n", imprecise.len() - SHOWN);
        }
    }
    s
}

/// What the accountant declared (or that it declared nothing), the protocol notes, and the
/// skipped checks by reason: a skip is never silent.
pub fn render_notes(outcomes: &[Outcome], report: &Report, markdown: bool) -> String {
    let mut s = String::new();
    let item = if markdown { "- " } else { "  " };
    let skips = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Skipped)
        .count();
    match (&report.declaration, &report.undeclared) {
        (Some(d), _) => {
            s += &format!(
                "\ndeclared supported: {} (an `unsupported` answer to a query within it is an error)\n",
                d.describe()
            )
        }
        (None, Some(why)) => {
            s += &format!(
                "\nno declaration ({why}): the {skips} skipped checks are counted, not checked against one\n"
            )
        }
        (None, None) => {}
    }
    let n = &report.notes;
    if !n.is_empty() {
        s += &format!(
            "\nprotocol: {} line(s) that are not answers skipped, {} answer(s) with an id not awaited skipped, {} answer(s) without an id taken in order{}{}\n",
            n.stray,
            n.misdirected,
            n.in_order,
            if n.in_order > 0 {
                " (an accountant of the old protocol: answers carry the query's id since 2026-12)"
            } else {
                ""
            },
            if n.at_once {
                "; questions sent all at once after a silence (the accountant reads ahead, buffers its stdout, or was slow)"
            } else {
                ""
            }
        );
        for l in &n.lines {
            s += &format!("{item}{l}\n");
        }
        let noted = n.stray + n.misdirected;
        if noted > n.lines.len() {
            s += &format!("{item}... ({} more)\n", noted - n.lines.len());
        }
    }
    if skips > 0 {
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for o in outcomes.iter().filter(|o| o.verdict == Verdict::Skipped) {
            let why = o.detail.lines().next().unwrap_or("").to_string();
            match reasons.iter_mut().find(|(r, _)| *r == why) {
                Some((_, k)) => *k += 1,
                None => reasons.push((why, 1)),
            }
        }
        reasons.sort_by(|a, b| b.1.cmp(&a.1));
        s += &format!("\nskipped checks by reason ({skips}):\n");
        const SHOWN: usize = 15;
        for (why, k) in reasons.iter().take(SHOWN) {
            s += &format!("{item}{k} × {why}\n");
        }
        if reasons.len() > SHOWN {
            let rest: usize = reasons[SHOWN..].iter().map(|(_, k)| k).sum();
            s += &format!(
                "{item}... {} more reasons ({rest} checks)\n",
                reasons.len() - SHOWN
            );
        }
    }
    s
}

/// The scorecard alone: counts per property and regime, as text (Markdown with `markdown`).
pub fn render_scorecard(outcomes: &[Outcome], markdown: bool) -> String {
    let rows = scorecard(outcomes);
    let mut s = String::new();
    let header = [
        "property",
        "regime",
        "pass",
        "skipped",
        "loose",
        "imprecise",
        "findings",
        "errors",
        "broken",
    ];
    let cells = |r: &Score| {
        vec![
            r.property.clone(),
            r.regime.clone(),
            r.pass.to_string(),
            r.skipped.to_string(),
            r.loose.to_string(),
            r.imprecise.to_string(),
            r.findings.to_string(),
            r.errors.to_string(),
            r.broken.to_string(),
        ]
    };
    if markdown {
        s += &format!(
            "| {} |\n|{}\n",
            header.join(" | "),
            "---|".repeat(header.len())
        );
        for r in &rows {
            s += &format!("| {} |\n", cells(r).join(" | "));
        }
    } else {
        let row = |c: &[String]| {
            format!(
                "{:<24} {:<9} {:>6} {:>8} {:>6} {:>9} {:>9} {:>7} {:>7}\n",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
            )
        };
        s += &row(&header.map(String::from));
        for r in &rows {
            s += &row(&cells(r));
        }
    }
    s
}

/// Whether the run found anything (exit code 1): a finding, an error or a broken answer.
pub fn failed(outcomes: &[Outcome]) -> bool {
    outcomes.iter().any(|o| {
        matches!(
            o.verdict,
            Verdict::Finding | Verdict::Error | Verdict::Broken
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calibration's search against a threshold σ*: within 1.001 of σ* (and meeting it)
    /// from any start, under 2e-6 when σ* is, never past MAX_SIGMA, and in a few trials
    /// when every σ meets (ε = 0 at a δ the event cannot spend; it took 20 before).
    #[test]
    fn the_calibration_search_finds_the_least_sigma_to_its_precision() {
        for start in [1e-3, 0.05, 0.62, 1.0, 5.0, 300.0] {
            for k in 0..400 {
                let least = 10f64.powf(-7.0 + 13.0 * k as f64 / 399.0);
                let mut trials = 0;
                let found = least_meeting::<()>(start, |s| {
                    trials += 1;
                    Ok(s >= least)
                })
                .unwrap();
                match found {
                    None => assert!(least > MAX_SIGMA / 2.0, "{start} {least}"),
                    Some(s) if least < 2e-6 => {
                        assert!(s >= least && s < 2e-6, "{start} {least}: {s}")
                    }
                    Some(s) => assert!(s >= least && s <= 1.001 * least, "{start} {least}: {s}"),
                }
                assert!(trials <= 60, "{start} {least}: {trials} trials");
            }
            let mut trials = 0;
            least_meeting::<()>(start, |_| {
                trials += 1;
                Ok(true)
            })
            .unwrap();
            assert!(
                trials <= 10,
                "{start}: {trials} trials when every sigma meets"
            );
        }
    }

    #[test]
    fn protocol_lines_round_trip() {
        let suite = generate(3, 6, false);
        for (i, r) in suite.requests.iter().enumerate() {
            if suite.follow_ups.iter().any(|f| f.request == i) {
                continue; // its parameter is set when it is asked
            }
            let (id, back) = Request::parse_line(&r.line(i)).unwrap();
            assert_eq!((id, &back), (Some(i), r));
        }
        let q = "epsilon";
        assert_eq!(
            parse_reply(&reply_line(Some(7), q, &Reply::Value(1.5)), q),
            Reply::Value(1.5)
        );
        assert_eq!(
            parse_reply(&reply_line(None, q, &Reply::Value(f64::INFINITY)), q),
            Reply::Value(f64::INFINITY)
        );
        assert!(matches!(parse_reply("{\"eps\": 1}", q), Reply::Broken(_)));
        assert!(matches!(
            parse_reply("{\"error\": \"unsupported: no\"}", q),
            Reply::Refused(_)
        ));
        // Any other error is a failure of the accountant on a query it supports.
        assert!(matches!(
            parse_reply("{\"error\": \"ZeroDivisionError: x\"}", q),
            Reply::Error(_)
        ));
        // dpclaims' own refusal goes out as "unsupported" and comes back a skip.
        let refused = Reply::Refused("`event`: not covered".into());
        assert!(matches!(
            parse_reply(&reply_line(None, q, &refused), q),
            Reply::Refused(_)
        ));
    }

    /// Every answer carries its query's id; a line that is not an answer is told apart.
    #[test]
    fn answers_carry_the_id() {
        let q = "delta";
        let line = reply_line(Some(7), q, &Reply::Value(0.25));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            (v["id"].as_u64(), v["delta"].as_f64()),
            (Some(7), Some(0.25))
        );
        assert_eq!(answer_tag(&line), Tag::Answer(Some(7)));
        let err = reply_line(Some(3), q, &Reply::Error("boom".into()));
        assert_eq!(answer_tag(&err), Tag::Answer(Some(3)));
        assert_eq!(answer_tag("{\"epsilon\": 1.0}"), Tag::Answer(None));
        // Python's NaN: still the answer to its id (broken when read).
        assert_eq!(
            answer_tag("{\"epsilon\": NaN, \"id\": 4}"),
            Tag::Answer(Some(4))
        );
        for stray in [
            "Warning: something",
            "[1, 2]",
            "{\"warning\": \"x\"}",
            "{\"id\": -1, \"epsilon\": 1}",
            "{\"id\": \"7\", \"epsilon\": 1}",
        ] {
            assert!(matches!(answer_tag(stray), Tag::Stray(_)), "{stray}");
        }
        assert_eq!(line_id("{\"id\": 9, \"x\": [}"), None);
        assert_eq!(line_id("{\"id\": 9, \"delta\": \"a\"}"), Some(9));
        assert!(Request::parse_line("{\"id\": 1.5, \"delta\": 0.1}").is_err());
    }

    /// A declaration covers a query when every event type in its tree, its relation and its
    /// query kind are declared; an `unsupported` answer within it is an error, except a
    /// declared combination refusal.
    #[test]
    fn declarations_turn_refusals_within_them_into_errors() {
        let d = Declaration::parse(
            r#"{"events": ["SelfComposed", "PoissonSampled", "Gaussian"],
                "relations": ["add-remove"], "queries": ["epsilon"], "settings": {}}"#,
        )
        .unwrap();
        let req = |event: Event, neighbouring, query| Request {
            doc: doc(neighbouring, event),
            query,
            settings: Settings::new(),
            calibrate: None,
        };
        let g = Event::PoissonSampled {
            sampling_probability: 0.1,
            event: Box::new(Event::Gaussian {
                noise_multiplier: 1.0,
            }),
        };
        let eps = Query::Epsilon { delta: 1e-5 };
        let inside = req(self_composed(g.clone(), 3), Neighbouring::AddRemove, eps);
        assert!(d.covers(&inside));
        assert!(!d.covers(&req(g.clone(), Neighbouring::ReplaceOne, eps)));
        assert!(!d.covers(&req(
            g.clone(),
            Neighbouring::AddRemove,
            Query::Delta { epsilon: 1.0 }
        )));
        let laplace = Event::Laplace {
            noise_multiplier: 1.0,
        };
        assert!(!d.covers(&req(
            Event::Composed {
                events: vec![g, laplace]
            },
            Neighbouring::AddRemove,
            eps
        )));
        let refused = Reply::Refused("unsupported: no".into());
        assert!(matches!(
            apply_declaration(Some(&d), &inside, refused.clone()),
            Reply::Error(e) if e.starts_with("declared supported, answered unsupported")
        ));
        assert_eq!(apply_declaration(None, &inside, refused.clone()), refused);
        let combination = Reply::Refused(format!("{UNSUPPORTED_COMBINATION}not this one"));
        assert_eq!(
            apply_declaration(Some(&d), &inside, combination.clone()),
            combination
        );
        for bad in [
            "null",
            "[]",
            "{\"events\": \"Gaussian\"}",
            "{\"events\": [1]}",
            "usage: x",
        ] {
            assert!(Declaration::parse(bad).is_err(), "{bad}");
        }
    }

    /// An error answer is its own verdict (a finding, counted in its column, shown with its
    /// message), a refusal a skip listed by reason.
    #[test]
    fn errors_are_findings_and_skips_are_listed() {
        let suite = generate(5, 2, false);
        let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
        let valid = suite
            .checks
            .iter()
            .position(|c| c.property == "valid")
            .unwrap();
        let q = suite.checks[valid].queries[0];
        replies[q] = Reply::Error("the accountant answered an error: ValueError: f(a)\n--- the accountant's stderr ---\nTraceback (most recent call last):".into());
        let sc = suite
            .checks
            .iter()
            .position(|c| c.property == "self-composition")
            .unwrap();
        replies[suite.checks[sc].queries[0]] = Reply::Refused("unsupported: NoOp".into());
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let outcomes = judge(&suite, &replies, 1e-3, &opts);
        assert_eq!(outcomes[valid].verdict, Verdict::Error);
        assert_eq!(outcomes[sc].verdict, Verdict::Skipped);
        assert!(failed(&outcomes));
        let row = scorecard(&outcomes)
            .into_iter()
            .find(|r| r.property == "valid")
            .unwrap();
        assert!(row.errors >= 1, "{row:?}");
        let mut report = Report::new("my-accountant");
        report.undeclared = Some("`my-accountant --supports`: it exited with 2".into());
        for markdown in [false, true] {
            let text = render_report(&outcomes, &report, markdown);
            assert!(text.contains("errors"), "{text}");
            assert!(text.contains("Error valid"), "{text}");
            assert!(text.contains("ValueError: f(a)"), "{text}");
            assert!(
                text.contains("    Traceback (most recent call last):"),
                "{text}"
            );
            assert!(
                text.contains("no declaration (`my-accountant --supports`"),
                "{text}"
            );
            assert!(text.contains("skipped checks by reason"), "{text}");
            assert!(text.contains("unsupported: NoOp"), "{text}");
            assert!(text.contains(" | my-accountant\n"), "{text}");
            assert!(
                text.contains(" | dpclaims epsilon --event - --interval 0.0001\n"),
                "{text}"
            );
        }
        let json = serde_json::to_value(&outcomes[valid]).unwrap();
        assert_eq!(json["verdict"], "error");
    }

    /// An inequality between two equal answers holds whatever their sign (the slack once made
    /// `-1 <= -1` a finding: a negative answer is `valid`'s finding, not every property's).
    #[test]
    fn equal_answers_satisfy_at_most_at_any_sign() {
        let suite = generate(5, 6, false);
        let c = suite
            .checks
            .iter()
            .find(|c| c.relation == Relation::AtMost)
            .unwrap()
            .clone();
        let one = Suite {
            requests: suite.requests.clone(),
            checks: vec![c.clone()],
            follow_ups: suite.follow_ups.clone(),
            ..Suite::default()
        };
        for x in [f64::NEG_INFINITY, -1.0, 0.0, 2.5, f64::INFINITY] {
            let replies = vec![Reply::Value(x); suite.requests.len()];
            let o = &judge(&one, &replies, 1e-3, &PldOptions::default())[0];
            assert_eq!(o.verdict, Verdict::Pass, "{x}: {o:?}");
        }
    }

    /// Each relation can fail: a reply set that breaks it is a finding.
    #[test]
    fn checks_can_fail() {
        let suite = generate(5, 6, false);
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        // Everything answers 1.0 except the first query of each check, which answers 2.0 (or -1
        // for validity and the reference: below any certified lower value).
        for c in &suite.checks {
            let follow_up = suite.follow_ups.iter().any(|f| f.request == c.queries[0]);
            if follow_up && matches!(c.relation, Relation::Reference | Relation::Calibrated) {
                // Its parameter is set when asked (judged in the round-trip and calibration
                // tests).
                continue;
            }
            let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
            replies[c.queries[0]] = Reply::Value(match c.relation {
                Relation::Valid | Relation::Reference => -1.0,
                _ => 2.0,
            });
            let one = Suite {
                requests: suite.requests.clone(),
                checks: vec![c.clone()],
                follow_ups: suite.follow_ups.clone(),
                ..Suite::default()
            };
            let o = &judge(&one, &replies, 1e-3, &opts)[0];
            assert_eq!(o.verdict, Verdict::Finding, "{} {:?}", c.property, o);
        }
    }

    /// Brackets (`--self`) agree when they meet: the measured case of `--self --full`, where
    /// SelfComposed(PoissonSampled(Gaussian), 4) and its four copies composed one by one give
    /// the pessimistic ends 0.104605 and 0.109464 (4.6 % apart) in the brackets
    /// [0.100574, 0.104605] and [0.095319, 0.109464]. Disjoint brackets are a finding, and
    /// so is an inequality whose brackets cannot hold it.
    #[test]
    fn brackets_agree_when_they_meet() {
        let suite = generate(5, 6, false);
        let opts = PldOptions::default();
        let pick = |rel: fn(&Relation) -> bool| {
            suite
                .checks
                .iter()
                .find(|c| rel(&c.relation))
                .unwrap()
                .clone()
        };
        for (c, meet, apart) in [
            (
                pick(|r| matches!(r, Relation::Equal)),
                [[0.100574, 0.104605], [0.095319, 0.109464]],
                [[0.100574, 0.104605], [0.106, 0.109464]],
            ),
            (
                pick(|r| matches!(r, Relation::AtMost)),
                [[0.2, 0.3], [0.1, 0.25]],
                [[0.2, 0.3], [0.1, 0.15]],
            ),
        ] {
            let one = Suite {
                requests: suite.requests.clone(),
                checks: vec![c.clone()],
                follow_ups: suite.follow_ups.clone(),
                ..Suite::default()
            };
            for (pair, want) in [(meet, Verdict::Pass), (apart, Verdict::Finding)] {
                let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
                replies[c.queries[0]] = Reply::Bracket(pair[0]);
                replies[c.queries[1]] = Reply::Bracket(pair[1]);
                let o = &judge(&one, &replies, 1e-3, &opts)[0];
                assert_eq!(o.verdict, want, "{:?} {pair:?}: {o:?}", c.relation);
            }
        }
        // An infinite answer meets only an infinite one (the slack would be infinite).
        let c = pick(|r| matches!(r, Relation::Equal));
        let one = Suite {
            requests: suite.requests.clone(),
            checks: vec![c.clone()],
            follow_ups: suite.follow_ups.clone(),
            ..Suite::default()
        };
        for (x, want) in [(f64::INFINITY, Verdict::Finding), (1.0, Verdict::Pass)] {
            let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
            replies[c.queries[0]] = Reply::Value(x);
            let o = &judge(&one, &replies, 1e-3, &opts)[0];
            assert_eq!(o.verdict, want, "{x}: {o:?}");
        }
    }

    /// Every answer is judged (`valid` and `reference` on every query, follow-ups and variants
    /// included), and a run of 15 base events covers every family × relation, both query
    /// kinds, and the regimes that reach released accountants' bugs.
    #[test]
    fn every_answer_is_judged_and_the_regimes_are_covered() {
        let suite = generate(1, FAMILIES.len(), false);
        for i in 0..suite.requests.len() {
            let judged_by = match suite.requests[i].calibrate {
                Some(_) => Relation::Calibrated,
                None => Relation::Reference,
            };
            for relation in [Relation::Valid, judged_by] {
                assert!(
                    suite
                        .checks
                        .iter()
                        .any(|c| c.queries == [i] && c.relation == relation),
                    "request {i} has no {relation:?} check"
                );
            }
        }
        for (family, relation) in FAMILIES {
            for delta_query in [false, true] {
                assert!(
                    suite.checks.iter().any(|c| {
                        let r = &suite.requests[c.queries[0]];
                        c.family == family
                            && r.doc.neighbouring == relation
                            && matches!(r.query, Query::Delta { .. }) == delta_query
                    }),
                    "{family} {relation:?} delta query {delta_query}"
                );
            }
        }
        let queries: Vec<Query> = suite.requests.iter().map(|r| r.query).collect();
        assert!(
            queries
                .iter()
                .any(|q| matches!(q, Query::Delta { epsilon } if *epsilon >= 20.0))
        );
        assert!(
            queries
                .iter()
                .any(|q| matches!(q, Query::Epsilon { delta } if *delta >= 0.5))
        );
        let lines: Vec<String> = suite.requests.iter().map(|r| r.line(0)).collect();
        assert!(lines.iter().any(|l| l.contains("\"num_buckets\":2")));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("\"delta\":0.0,\"epsilon\""))
        );
        assert!(lines.iter().any(|l| l.contains("\"count\":1,")));
        assert!(lines.iter().any(|l| l.contains("\"RandomAllocation\"")));
        // Every allocation at the σ floor or above, with at least two steps per epoch.
        let allocation = |e: &Event| match e {
            Event::RandomAllocation {
                event, num_steps, ..
            } => match **event {
                Event::Gaussian { noise_multiplier } => Some((noise_multiplier, *num_steps)),
                _ => None,
            },
            _ => None,
        };
        let mut found = 0;
        for r in &suite.requests {
            let mut stack = vec![&r.doc.event];
            while let Some(e) = stack.pop() {
                if let Some((sigma, t)) = allocation(e) {
                    assert!(sigma >= MIN_ALLOCATION_SIGMA && t >= 2, "{sigma} {t}");
                    found += 1;
                }
                match e {
                    Event::SelfComposed { event, .. } | Event::PoissonSampled { event, .. } => {
                        stack.push(event)
                    }
                    Event::Composed { events } => stack.extend(events.iter()),
                    _ => {}
                }
            }
        }
        assert!(found > 0);
        for scenario in SCENARIOS {
            assert!(suite.checks.iter().any(|c| c.scenario == scenario));
        }
        // composition-order has a same-family partner and a pure ε-DP (Laplace) one.
        let orders = suite
            .checks
            .iter()
            .filter(|c| c.property == "composition-order")
            .count();
        assert_eq!(orders, 2 * FAMILIES.len());
    }

    /// The bugs of the issue's kinds are caught on follow-ups too: a negative ε only at a δ
    /// above 0.1 (the 10δ query and the large-δ scenario), a δ above 1, an infinite ε where
    /// the truth is finite.
    /// The random-allocation family asks balls-in-bins (k = 1) and k > 1 (k of t steps per
    /// epoch): over ten of its base events both appear, every one with t ≥ k + 1 and σ at the
    /// floor or above; k follows the `buckets` rule.
    #[test]
    fn random_allocation_events_select_one_and_several_steps() {
        assert_eq!(
            (3..8).map(allocation_selected).collect::<Vec<_>>(),
            [1, 2, 1, 3, 1]
        );
        let n = 10 * FAMILIES.len();
        let suite = generate(1, n, false);
        let mut selected = Vec::new();
        for r in &suite.requests {
            let mut e = &r.doc.event;
            loop {
                match e {
                    Event::SelfComposed { event, .. } => e = event,
                    Event::RandomAllocation {
                        event,
                        num_selected,
                        num_steps,
                    } => {
                        let Event::Gaussian { noise_multiplier } = **event else {
                            panic!("{event:?}")
                        };
                        assert!(*num_steps > *num_selected, "{num_selected} of {num_steps}");
                        assert!(noise_multiplier >= MIN_ALLOCATION_SIGMA);
                        selected.push(*num_selected);
                        break;
                    }
                    _ => break,
                }
            }
        }
        assert!(selected.contains(&1), "{selected:?}");
        assert!(selected.iter().any(|&k| k > 1), "{selected:?}");
        assert!(
            selected.iter().all(|&k| (1..=3).contains(&k)),
            "{selected:?}"
        );
    }

    #[test]
    fn follow_ups_and_variants_are_judged() {
        let mut suite = generate(1, FAMILIES.len(), false);
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let caught = |suite: &mut Suite, f: &dyn Fn(&Request, Reply) -> Reply| {
            let replies = ask_in_rounds(suite, |batch| {
                batch.iter().map(|r| f(r, self_reply(r, &opts))).collect()
            });
            judge(suite, &replies, 1e-3, &opts)
                .into_iter()
                .filter(|o| o.verdict == Verdict::Finding && o.property == "valid")
                .count()
        };
        let value = |r: Reply| r.value().map(Reply::Value).unwrap_or(r);
        assert_eq!(caught(&mut suite, &|_, r| value(r)), 0);
        let negative = |r: &Request, reply: Reply| match r.query {
            Query::Epsilon { delta } if delta > 0.1 => Reply::Value(-0.5),
            _ => value(reply),
        };
        assert!(caught(&mut suite, &negative) > 0);
        let above_one = |r: &Request, reply: Reply| match r.query {
            Query::Delta { .. } => Reply::Value(1.5),
            _ => value(reply),
        };
        assert!(caught(&mut suite, &above_one) > 0);
        let infinite = |r: &Request, reply: Reply| match r.query {
            Query::Epsilon { .. } => Reply::Value(f64::INFINITY),
            _ => value(reply),
        };
        assert!(caught(&mut suite, &infinite) > 0);
    }

    /// A calibration (σ for the accountant's own ε of a Gaussian base event) is asked as a
    /// follow-up, round-trips through the protocol, and is judged: dpclaims' own calibration
    /// passes (by construction: its pessimistic end meets the target), a σ 20 % too small —
    /// the error of a calibration that inverts an accountant under-reporting ε — is a
    /// finding, a σ of 0 or NaN is not `valid`, a σ ten times larger passes.
    #[test]
    fn calibration_is_asked_judged_and_can_fail() {
        let mut suite = generate(2, FAMILIES.len(), false);
        let calibrations: Vec<usize> = (0..suite.requests.len())
            .filter(|&i| suite.requests[i].calibrate.is_some())
            .collect();
        // One per Gaussian family: Poisson and unsampled under both relations, fixed size.
        assert_eq!(calibrations.len(), 5);
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let verdicts = |suite: &mut Suite, f: &dyn Fn(&Request, Reply) -> Reply| {
            let replies = ask_in_rounds(suite, |batch| {
                batch.iter().map(|r| f(r, self_reply(r, &opts))).collect()
            });
            let mut out: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
            for o in judge(suite, &replies, 1e-3, &opts) {
                if o.property == "calibration"
                    || (o.property == "valid" && o.queries[0].contains("calibrate"))
                {
                    *out.entry((o.property, format!("{:?}", o.verdict)))
                        .or_default() += 1;
                }
            }
            out
        };
        let own = verdicts(&mut suite, &|_, r| r);
        assert_eq!(
            own.get(&("calibration", "Pass".into())),
            Some(&5),
            "{own:?}"
        );
        assert_eq!(own.get(&("valid", "Pass".into())), Some(&5), "{own:?}");
        // The asked line carries the target (the base answer) and reads back the same.
        for &i in &calibrations {
            let r = &suite.requests[i];
            assert!(r.calibrate.is_some_and(|t| t.is_finite() && t >= 0.0));
            let (id, back) = Request::parse_line(&r.line(i)).unwrap();
            assert_eq!((id, &back), (Some(i), r));
            assert_eq!(back.key(), CALIBRATE);
            let line = reply_line(Some(i), r.key(), &Reply::Value(1.25));
            assert_eq!(answer_tag(&line), Tag::Answer(Some(i as u64)));
            assert_eq!(parse_reply(&line, r.key()), Reply::Value(1.25));
        }
        let scaled = |k: f64| {
            move |r: &Request, reply: Reply| match (r.calibrate, reply) {
                (Some(_), Reply::Value(s)) => Reply::Value(k * s),
                (_, reply) => reply,
            }
        };
        let small = verdicts(&mut suite, &scaled(0.8));
        assert_eq!(
            small.get(&("calibration", "Finding".into())),
            Some(&5),
            "{small:?}"
        );
        let large = verdicts(&mut suite, &scaled(10.0));
        assert_eq!(
            large.get(&("calibration", "Pass".into())),
            Some(&5),
            "{large:?}"
        );
        for bad in [0.0, f64::NAN] {
            let got = verdicts(&mut suite, &|r: &Request, reply| {
                if r.calibrate.is_some() {
                    Reply::Value(bad)
                } else {
                    reply
                }
            });
            assert_eq!(got.get(&("valid", "Finding".into())), Some(&5), "{got:?}");
        }
        // A line asking a calibration without its δ is refused, not misread.
        assert!(Request::parse_line(
            r#"{"version":1,"neighbouring":"add-remove","event":{"type":"Gaussian","noise_multiplier":1},"calibrate":"noise_multiplier","epsilon":1}"#
        )
        .is_err());
    }

    /// A bracket too wide to judge an answer inside it is refined, and `imprecise` if it stays
    /// so: never a pass. dpclaims' own bracket widened (a precision regression) is
    /// `imprecise`; an answer below the refined bracket is a finding.
    #[test]
    fn a_reference_too_wide_is_refined_then_imprecise() {
        let eps = Query::Epsilon { delta: 1e-5 };
        assert!(too_wide([0.0, 4.34], eps, 1e-4));
        assert!(!too_wide([1.0, 1.005], eps, 1e-4));
        assert!(!too_wide([f64::INFINITY, f64::INFINITY], eps, 1e-4));
        assert!(too_wide([1.0, f64::INFINITY], eps, 1e-4));
        assert!(too_wide([f64::NAN, 1.0], eps, 1e-4));
        let dq = Query::Delta { epsilon: 1.0 };
        assert!(!too_wide([1e-6, 1.04e-6], dq, 1e-4));
        assert!(too_wide([1e-6, 1.2e-6], dq, 1e-4));
        let req = Request {
            doc: doc(
                Neighbouring::AddRemove,
                self_composed(
                    Event::PoissonSampled {
                        sampling_probability: 0.01,
                        event: Box::new(Event::Gaussian {
                            noise_multiplier: 1.0,
                        }),
                    },
                    100,
                ),
            ),
            query: eps,
            settings: Settings::new(),
            calibrate: None,
        };
        let fine = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        let b = bracket(&req, &fine).unwrap();
        let truth = 0.5 * (b.optimistic + b.pessimistic);
        let judge_as = |reply: Reply, opts: &PldOptions, own_brackets: bool| {
            let suite = Suite {
                requests: vec![req.clone()],
                checks: vec![Check {
                    property: "reference",
                    regime: "ordinary",
                    family: "poisson-gaussian",
                    scenario: "ordinary",
                    queries: vec![0],
                    relation: Relation::Reference,
                }],
                follow_ups: vec![],
                own_brackets,
                ..Suite::default()
            };
            judge(&suite, &[reply], 1e-3, opts).remove(0)
        };
        let judge_one = |reply: Reply, opts: &PldOptions| {
            let own = matches!(reply, Reply::Bracket(_));
            judge_as(reply, opts, own)
        };
        // A bracket that is not dpclaims' own (a Rust accountant's) is no reference of
        // itself: its upper end below the certified lower value is a finding.
        let low = [0.899 * b.optimistic, 0.9 * b.optimistic];
        assert_eq!(
            judge_as(Reply::Bracket(low), &fine, false).verdict,
            Verdict::Finding
        );
        assert_eq!(
            judge_as(Reply::Bracket(low), &fine, true).verdict,
            Verdict::Pass,
            "own brackets are their own reference (the flag is the caller's word)"
        );
        // A coarse grid (a bracket several times too wide) is refined to a narrow one.
        let coarse = PldOptions {
            interval: 0.05,
            ..PldOptions::default()
        };
        let o = judge_one(Reply::Value(truth), &coarse);
        assert_eq!(o.verdict, Verdict::Pass, "{o:?}");
        let [lo, hi] = o.bracket.unwrap();
        assert!(!too_wide([lo, hi], eps, 0.05 / 64.0), "{o:?}");
        let o = judge_one(Reply::Value(b.optimistic * 0.99), &coarse);
        assert_eq!(o.verdict, Verdict::Finding, "{o:?}");
        // Refinement refused by the point budget: the wide bracket is `imprecise`.
        let starved = PldOptions {
            interval: 0.05,
            max_points: 1 << 9,
            ..PldOptions::default()
        };
        if let Ok(c) = bracket(&req, &starved) {
            if too_wide([c.optimistic, c.pessimistic], eps, 0.05) {
                let o = judge_one(Reply::Value(truth), &starved);
                assert_eq!(o.verdict, Verdict::Imprecise, "{o:?}");
            }
        }
        // dpclaims' own bracket, widened: imprecise, not a pass.
        let own = judge_one(Reply::Bracket([b.optimistic, b.pessimistic]), &fine);
        assert_eq!(own.verdict, Verdict::Pass, "{own:?}");
        let widened = judge_one(Reply::Bracket([0.0, 2.0 * b.pessimistic]), &fine);
        assert_eq!(widened.verdict, Verdict::Imprecise, "{widened:?}");
        let row = &scorecard(&[widened.clone()])[0];
        assert_eq!(row.imprecise, 1);
        let text = render_report(&[widened], &Report::new("x"), false);
        assert!(text.contains("imprecise (1)"), "{text}");
    }

    /// Declared settings: parsed (choices, ranges; errors name the setting), drawn per group
    /// of tied queries, seeded, carried on the protocol line and read back.
    #[test]
    fn settings_are_declared_drawn_and_carried() {
        let d = Declaration::parse(
            r#"{"events": ["Gaussian"], "relations": ["add-remove"], "queries": ["epsilon"],
                "settings": {"orders": {"choices": [[2, 4], [1.5, 2.5]]},
                             "eps_error": {"min": 0.001, "max": 0.1, "log": true}},
                "tolerance": {"epsilon": 0.02}}"#,
        )
        .unwrap();
        assert_eq!(d.settings.len(), 2);
        assert_eq!(d.epsilon_tolerance, 0.02);
        assert!(d.describe().contains("settings eps_error, orders"));
        for bad in [
            r#"{"settings": {"x": {"choices": []}}}"#,
            r#"{"settings": {"x": {"min": 2, "max": 1}}}"#,
            r#"{"settings": {"x": {"min": 0, "max": 1, "log": true}}}"#,
            r#"{"settings": [1]}"#,
            r#"{"tolerance": {"epsilon": -1}}"#,
        ] {
            assert!(Declaration::parse(bad).is_err(), "{bad}");
        }
        let base = generate(4, 3, false);
        let suite = with_settings(&base, &d.settings, 4, 1);
        assert_eq!(suite.requests.len(), 2 * base.requests.len());
        assert_eq!(suite.checks.len(), 2 * base.checks.len());
        // (Compared as lines: an unasked follow-up's NaN parameter is not equal to itself.)
        let lines = |s: &Suite| -> Vec<String> {
            s.requests
                .iter()
                .enumerate()
                .map(|(i, r)| r.line(i))
                .collect()
        };
        assert_eq!(
            lines(&with_settings(&base, &d.settings, 4, 1)),
            lines(&suite)
        );
        assert_eq!(
            lines(&with_settings(&base, &BTreeMap::new(), 4, 3)),
            lines(&base)
        );
        let n = base.requests.len();
        for c in &suite.checks[base.checks.len()..] {
            assert_eq!(c.regime, "settings");
            let first = &suite.requests[c.queries[0]].settings;
            assert!(
                first["eps_error"]
                    .as_f64()
                    .is_some_and(|x| (0.001..=0.1).contains(&x))
            );
            for &q in &c.queries {
                assert!(q >= n);
                assert_eq!(&suite.requests[q].settings, first, "one draw per group");
            }
        }
        for f in &suite.follow_ups[base.follow_ups.len()..] {
            assert_eq!(
                suite.requests[f.request].settings,
                suite.requests[f.from].settings
            );
        }
        let r = &suite.requests[n];
        let line = r.line(n);
        assert!(line.contains("\"settings\":{"), "{line}");
        assert_eq!(Request::parse_line(&line).unwrap(), (Some(n), r.clone()));
        assert!(
            Request::parse_line(
                &line
                    .replace("\"settings\":{", "\"settings\":[{")
                    .replace("},\"version\"", "}],\"version\"")
            )
            .is_err()
        );
    }

    /// The accountant's declared ε tolerance is slack of the equalities between its answers,
    /// not of `reference`: a 0.005 disagreement is a finding without it, a pass with 0.01.
    #[test]
    fn the_declared_tolerance_is_slack_between_answers_only() {
        let suite = generate(5, 1, false);
        let c = suite
            .checks
            .iter()
            .find(|c| c.property == "self-composition")
            .unwrap()
            .clone();
        let mut replies = vec![Reply::Value(1.0); suite.requests.len()];
        replies[c.queries[0]] = Reply::Value(1.005);
        let opts = PldOptions {
            interval: 1e-3,
            ..PldOptions::default()
        };
        for (declared, want) in [(0.0, Verdict::Finding), (0.01, Verdict::Pass)] {
            let one = Suite {
                requests: suite.requests.clone(),
                checks: vec![c.clone()],
                follow_ups: suite.follow_ups.clone(),
                epsilon_tolerance: declared,
                ..Suite::default()
            };
            assert_eq!(judge(&one, &replies, 1e-3, &opts)[0].verdict, want);
        }
    }
}
