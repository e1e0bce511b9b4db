//! One event format for every accountant: the composable events of dp_accounting's
//! `dp_event` algebra, as versioned JSON data (never code: no module or class is named, nothing is
//! imported or executed), parsed into validated typed values.
//!
//! A document is
//! ```json
//! {"version": 1, "neighbouring": "add-remove",
//!  "event": {"type": "SelfComposed", "count": 1000,
//!            "event": {"type": "PoissonSampled", "sampling_probability": 0.01,
//!                      "event": {"type": "Gaussian", "noise_multiplier": 1.1}}}}
//! ```
//! with the event types (same names and fields as dp_accounting's `*DpEvent` classes):
//!
//! | type | fields | meaning |
//! |---|---|---|
//! | `NoOp` | — | an operation without privacy cost |
//! | `Gaussian` | `noise_multiplier` $>0$ | $\sum_iv_i+\mathcal N(0,\sigma^2I)$ with $\Vert v_i\Vert_2\le C$, $\sigma/C$ = noise_multiplier |
//! | `Laplace` | `noise_multiplier` $>0$ | $\sum_iv_i+\mathrm{Lap}(0,b)$ coordinate-wise with $\Vert v_i\Vert_1\le C$, $b/C$ = noise_multiplier |
//! | `RandomizedResponse` | `noise_parameter` $p\in\[0,1\]$, `num_buckets` $k\ge1$ | the input bucket with probability $1-p$, else a uniform bucket |
//! | `EpsilonDelta` | `epsilon` $\ge0$, `delta` $\in\[0,1\]$ | some $(\epsilon,\delta)$-DP mechanism |
//! | `PoissonSampled` | `sampling_probability` $q\in\[0,1\]$, `event` | each record kept with probability $q$, then `event` on the sample |
//! | `SampledWithoutReplacement` | `source_dataset_size` $n\ge1$, `sample_size` $0\le m\le n$, `event` | a uniform subset of $m$ of the $n$ records, then `event` |
//! | `SelfComposed` | `event`, `count` $\ge0$ | `count` adaptive repetitions of `event` |
//! | `Composed` | `events` (a list) | the events one after the other, adaptively |
//! | `ZCDp` | `rho` $\ge0$, `xi` $\ge0$ (default 0) | some mechanism with $(\alpha,\xi+\rho\alpha)$-RDP for all $\alpha>1$ |
//! | `DiscreteLaplace` | `noise_parameter` $a>0$, `sensitivity` $\Delta\ge0$ (an integer) | $\sum_iv_i+z$, $z$ coordinate-wise with mass $\propto e^{-a\vert z\vert}$ on $\mathbb Z$, integer $v_i$ with $\Vert v_i\Vert_1\le\Delta$ |
//! | `MixtureOfGaussians` | `standard_deviation` $\sigma>0$, `sensitivities` $c_i\ge0$, `sampling_probs` $p_i\in\[0,1\]$ (same length $\ge1$, $\sum_ip_i=1$) | $\mathcal N(0,\sigma^2)$ on one dataset, $\sum_ip_i\mathcal N(c_i,\sigma^2)$ on its neighbour |
//! | `TruncatedSubsampledGaussian` | `dataset_size` $n\ge0$, `sampling_probability` $q\in\[0,1\]$, `truncated_batch_size` $B\ge0$, `noise_multiplier` $>0$ | Poisson sample with rate $q$ of $n$ records, cut to a uniform subset of $B$ if larger, then `Gaussian` |
//! | `SampledWithReplacement` | `source_dataset_size` $n\ge1$, `sample_size` $m\ge0$, `event` | $m$ records drawn uniformly with replacement, then `event` |
//! | `SingleEpochTreeAggregation` | `noise_multiplier` $>0$, `step_counts` (an integer $\ge0$ or a non-empty list of them) | tree aggregation of one epoch over trees of the given numbers of steps, each record in at most one step of one tree, Gaussian noise on every node |
//! | `RepeatAndSelect` | `event`, `mean` $\ge1$, `shape` $\ge0$ or `"inf"` | `event` run a random number of times (truncated negative binomial of that mean and shape; `"inf"`: Poisson), the best run released |
//! | `RandomAllocation` | `event`, `num_selected` $k\ge1$, `num_steps` $t\ge k$ | one epoch of $t$ steps running `event`, each record in $k$ of them chosen uniformly (dp_accounting PR #414's `RandomAllocationDpEvent`; $k=1$: balls-in-bins) |
//!
//! The seven types after `Composed` are dp_accounting 0.6.0's `ZCDpEvent`,
//! `DiscreteLaplaceDpEvent`, `MixtureOfGaussiansDpEvent`, `TruncatedSubsampledGaussianDpEvent`,
//! `SampledWithReplacementDpEvent`, `SingleEpochTreeAggregationDpEvent` and
//! `RepeatAndSelectDpEvent`, with their field names. dp_accounting's defaults and alternatives
//! are read as it reads them: `xi` may be left out (0), `step_counts` may be one integer (a list
//! of one), and its Poisson shape `numpy.inf`, which JSON cannot write, is the string `"inf"`.
//! Which of them the PLD accountant certifies is in [`super::event_pld`].
//!
//! dp_accounting names the Laplace scale `noise_multiplier` (its `LaplaceDpEvent`); its PLD
//! constructor calls it `parameter`, and that name is accepted on input as a synonym.
//! `neighbouring` is `add-remove` or `replace-one` (the relation every `EpsilonDelta` event and
//! every answer refers to).
//!
//! Every error names the JSON path of the offending value, e.g.
//! `event.events[2].event.sampling_probability`: unknown fields, unknown types, missing fields,
//! values of the wrong JSON type, out-of-range values, and events nested deeper than
//! [`MAX_DEPTH`] levels. The document is parsed by `serde_json` (whose own recursion limit of
//! 128 levels bounds the stack) and then walked once.

use super::Neighbouring;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// The deepest nesting of events accepted (the top-level event is at depth 1).
pub const MAX_DEPTH: usize = 32;

/// A composable privacy event (dp_accounting's algebra; see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum Event {
    /// An operation without privacy cost.
    NoOp,
    /// The Gaussian mechanism $\sum_iv_i+\mathcal N(0,\sigma^2I)$ with $\Vert v_i\Vert_2\le C$.
    Gaussian {
        /// $\sigma/C>0$.
        noise_multiplier: f64,
    },
    /// The Laplace mechanism $\sum_iv_i+\mathrm{Lap}(0,b)$ (coordinate-wise) with $\Vert v_i\Vert_1\le C$.
    Laplace {
        /// $b/C>0$ (accepted on input as `parameter` too).
        noise_multiplier: f64,
    },
    /// $k$-ary randomized response: the input bucket with probability $1-p$, else a uniform one.
    RandomizedResponse {
        /// $p\in\[0,1\]$, the probability of answering a uniform bucket.
        noise_parameter: f64,
        /// The number of buckets $k\ge1$.
        num_buckets: u64,
    },
    /// Some $(\epsilon,\delta)$-DP mechanism (under the document's relation).
    EpsilonDelta {
        /// $\epsilon\ge0$.
        epsilon: f64,
        /// $\delta\in\[0,1\]$.
        delta: f64,
    },
    /// Each record kept independently with probability $q$, then `event` on the sample.
    PoissonSampled {
        /// $q\in\[0,1\]$.
        sampling_probability: f64,
        /// The event run on the sample.
        event: Box<Event>,
    },
    /// A uniform subset of $m$ of the $n$ records, then `event` on it.
    SampledWithoutReplacement {
        /// $n\ge1$.
        source_dataset_size: u64,
        /// $0\le m\le n$.
        sample_size: u64,
        /// The event run on the sample.
        event: Box<Event>,
    },
    /// `count` adaptive repetitions of `event`.
    SelfComposed {
        /// The repeated event.
        event: Box<Event>,
        /// The number of repetitions ($\ge0$).
        count: u64,
    },
    /// The events one after the other, adaptively.
    Composed {
        /// The events, in order.
        events: Vec<Event>,
    },
    /// Some mechanism satisfying $(\alpha,\xi+\rho\alpha)$-RDP for every $\alpha>1$
    /// ($(\xi,\rho)$-zCDP; Bun & Steinke 2016).
    ZCDp {
        /// $\rho\ge0$.
        rho: f64,
        /// $\xi\ge0$ (0 when left out).
        xi: f64,
    },
    /// The discrete Laplace mechanism $\sum_iv_i+z$ on integer values with
    /// $\Vert v_i\Vert_1\le\Delta$, $z$ coordinate-wise with mass $\tanh(a/2)\thinspace e^{-a|z|}$ at
    /// $z\in\mathbb Z$.
    DiscreteLaplace {
        /// $a>0$.
        noise_parameter: f64,
        /// $\Delta\ge0$.
        sensitivity: u64,
    },
    /// $\mathcal N(0,\sigma^2)$ on one dataset against $\sum_ip_i\mathcal N(c_i,\sigma^2)$ on its
    /// neighbour (Choquette-Choo, Ganesh, Steinke & Thakurta 2023).
    MixtureOfGaussians {
        /// $\sigma>0$, in the units of the sensitivities.
        standard_deviation: f64,
        /// $c_i\ge0$.
        sensitivities: Vec<f64>,
        /// $p_i\in\[0,1\]$, summing to 1, as many as the sensitivities.
        sampling_probs: Vec<f64>,
    },
    /// Poisson sampling with rate $q$ from $n$ records, the sample cut to a uniform subset of
    /// $B$ records when larger, then the Gaussian mechanism.
    TruncatedSubsampledGaussian {
        /// $n\ge0$.
        dataset_size: u64,
        /// $q\in\[0,1\]$.
        sampling_probability: f64,
        /// $B\ge0$.
        truncated_batch_size: u64,
        /// $\sigma/C>0$.
        noise_multiplier: f64,
    },
    /// $m$ records drawn uniformly with replacement from $n$, then `event` on the sample.
    SampledWithReplacement {
        /// $n\ge1$.
        source_dataset_size: u64,
        /// $m\ge0$.
        sample_size: u64,
        /// The event run on the sample.
        event: Box<Event>,
    },
    /// Tree aggregation over one epoch (Kairouz et al. 2021, appendix D): trees of the given
    /// numbers of steps, each record in at most one step of one tree, Gaussian noise of
    /// `noise_multiplier` times the clipping norm on every node.
    SingleEpochTreeAggregation {
        /// $\sigma/C>0$ per node.
        noise_multiplier: f64,
        /// The number of steps of each tree (one integer is read as a list of one).
        step_counts: Vec<u64>,
    },
    /// One epoch of $t$ steps each running `event`, every record in $k$ of them chosen uniformly
    /// (dp_accounting PR #414's `RandomAllocationDpEvent`; $k=1$ is balls-in-bins).
    RandomAllocation {
        /// The event of one step.
        event: Box<Event>,
        /// $k\ge1$, the steps each record is in.
        num_selected: u64,
        /// $t\ge k$, the steps of the epoch.
        num_steps: u64,
    },
    /// `event` run a random number of times, the best run released (Papernot & Steinke 2022).
    RepeatAndSelect {
        /// The repeated event.
        event: Box<Event>,
        /// The mean number of runs, $\ge1$.
        mean: f64,
        /// The shape of the number of runs' law: $\ge0$, $+\infty$ (`"inf"` in JSON) for Poisson.
        #[serde(serialize_with = "shape_json")]
        shape: f64,
    },
}

/// A `RepeatAndSelect` shape as JSON: the number, or `"inf"` for $+\infty$ (dp_accounting's
/// Poisson shape, which JSON cannot write as a number).
fn shape_json<S: serde::Serializer>(shape: &f64, s: S) -> Result<S::Ok, S::Error> {
    if *shape == f64::INFINITY {
        s.serialize_str("inf")
    } else {
        s.serialize_f64(*shape)
    }
}

/// A versioned event document: the relation and the event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventDoc {
    /// The format version ([`FORMAT_VERSION`]).
    pub version: u64,
    /// The neighbouring relation every `EpsilonDelta` event and every answer refers to.
    pub neighbouring: Neighbouring,
    /// The top-level event.
    pub event: Event,
}

/// What is wrong at a JSON path.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventErrorKind {
    /// The text is not JSON (`serde_json`'s message).
    #[error("not valid JSON: {0}")]
    Syntax(String),
    /// A value of the wrong JSON type.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What the format requires here.
        expected: &'static str,
        /// What the document has, e.g. `the string "1"`.
        found: String,
    },
    /// A required field is absent.
    #[error("missing field")]
    Missing,
    /// A field this object does not have.
    #[error("unknown field (allowed here: {allowed})")]
    UnknownField {
        /// The allowed field names, comma-separated.
        allowed: String,
    },
    /// A Laplace event gives both `noise_multiplier` and `parameter`.
    #[error("both `noise_multiplier` and its synonym `parameter` given")]
    Duplicate,
    /// A `type` that is not one of the event types.
    #[error("unknown event type `{found}` (known: {known})")]
    UnknownType {
        /// The type given.
        found: String,
        /// The known types, comma-separated.
        known: String,
    },
    /// A number outside its allowed range (including an unknown format version).
    #[error("{value} is out of range: expected {expected}")]
    OutOfRange {
        /// The value given, as written.
        value: String,
        /// The allowed range, in words.
        expected: &'static str,
    },
    /// Events nested deeper than [`MAX_DEPTH`].
    #[error("events nested deeper than {limit} levels")]
    TooDeep {
        /// The depth limit ([`MAX_DEPTH`]).
        limit: usize,
    },
}

/// A malformed event document: the JSON path of the problem and what it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct EventError {
    /// Dotted path with list indices, e.g. `event.events[2].event.sampling_probability`
    /// (empty for the document itself).
    pub path: String,
    /// What is wrong there.
    pub kind: EventErrorKind,
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "event document: {}", self.kind)
        } else {
            write!(f, "event document, `{}`: {}", self.path, self.kind)
        }
    }
}

fn err(path: &str, kind: EventErrorKind) -> EventError {
    EventError {
        path: path.to_string(),
        kind,
    }
}

fn child(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The fields of one JSON object, checked against the allowed names.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    path: &'a str,
}

/// `v` as a JSON object, or a wrong-type error at `path`.
fn object<'a>(
    v: &'a Value,
    path: &str,
    expected: &'static str,
) -> Result<&'a Map<String, Value>, EventError> {
    match v {
        Value::Object(map) => Ok(map),
        _ => Err(err(
            path,
            EventErrorKind::WrongType {
                expected,
                found: json_kind(v),
            },
        )),
    }
}

impl<'a> Fields<'a> {
    fn new(v: &'a Value, path: &'a str, allowed: &[&str]) -> Result<Self, EventError> {
        let map = object(v, path, "an object")?;
        if let Some(k) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(err(
                &child(path, k),
                EventErrorKind::UnknownField {
                    allowed: allowed.join(", "),
                },
            ));
        }
        Ok(Self { map, path })
    }

    fn path(&self, name: &str) -> String {
        child(self.path, name)
    }

    fn get(&self, name: &str) -> Result<&'a Value, EventError> {
        self.map
            .get(name)
            .ok_or_else(|| err(&self.path(name), EventErrorKind::Missing))
    }

    /// A number, checked by `ok` (whose words `expected` the error quotes).
    fn number(
        &self,
        name: &str,
        ok: impl Fn(f64) -> bool,
        expected: &'static str,
    ) -> Result<f64, EventError> {
        let v = self.get(name)?;
        let x = v.as_f64().ok_or_else(|| {
            err(
                &self.path(name),
                EventErrorKind::WrongType {
                    expected: "a number",
                    found: json_kind(v),
                },
            )
        })?;
        if x.is_finite() && ok(x) {
            Ok(x)
        } else {
            Err(err(
                &self.path(name),
                EventErrorKind::OutOfRange {
                    value: x.to_string(),
                    expected,
                },
            ))
        }
    }

    /// A non-negative integer at least `min`.
    fn integer(&self, name: &str, min: u64, expected: &'static str) -> Result<u64, EventError> {
        let v = self.get(name)?;
        let out_of_range = |value: String| {
            err(
                &self.path(name),
                EventErrorKind::OutOfRange { value, expected },
            )
        };
        match v {
            Value::Number(n) if n.as_u64().is_some() => {
                let k = n.as_u64().unwrap_or_default();
                if k >= min {
                    Ok(k)
                } else {
                    Err(out_of_range(k.to_string()))
                }
            }
            Value::Number(n) if n.as_i64().is_some() => Err(out_of_range(n.to_string())),
            _ => Err(err(
                &self.path(name),
                EventErrorKind::WrongType {
                    expected: "an integer",
                    found: json_kind(v),
                },
            )),
        }
    }

    /// An optional number: `default` when the field is absent, else as [`Fields::number`].
    fn number_or(
        &self,
        name: &str,
        default: f64,
        ok: impl Fn(f64) -> bool,
        expected: &'static str,
    ) -> Result<f64, EventError> {
        if self.map.contains_key(name) {
            self.number(name, ok, expected)
        } else {
            Ok(default)
        }
    }

    /// The items of a non-empty JSON list, each with its path (`name[i]`).
    fn list(
        &self,
        name: &str,
        expected: &'static str,
    ) -> Result<Vec<(&'a Value, String)>, EventError> {
        let v = self.get(name)?;
        let Value::Array(items) = v else {
            return Err(err(
                &self.path(name),
                EventErrorKind::WrongType {
                    expected,
                    found: json_kind(v),
                },
            ));
        };
        if items.is_empty() {
            return Err(err(
                &self.path(name),
                EventErrorKind::OutOfRange {
                    value: "[]".into(),
                    expected: "a non-empty list",
                },
            ));
        }
        Ok(items
            .iter()
            .enumerate()
            .map(|(i, x)| (x, format!("{}[{i}]", self.path(name))))
            .collect())
    }

    /// A non-empty list of numbers, each checked by `ok`.
    fn numbers(
        &self,
        name: &str,
        ok: impl Fn(f64) -> bool,
        expected: &'static str,
    ) -> Result<Vec<f64>, EventError> {
        self.list(name, "a list of numbers")?
            .into_iter()
            .map(|(v, path)| {
                let x = v.as_f64().ok_or_else(|| {
                    err(
                        &path,
                        EventErrorKind::WrongType {
                            expected: "a number",
                            found: json_kind(v),
                        },
                    )
                })?;
                if x.is_finite() && ok(x) {
                    Ok(x)
                } else {
                    Err(err(
                        &path,
                        EventErrorKind::OutOfRange {
                            value: x.to_string(),
                            expected,
                        },
                    ))
                }
            })
            .collect()
    }

    /// One non-negative integer (read as a list of one) or a non-empty list of them.
    fn counts(&self, name: &str) -> Result<Vec<u64>, EventError> {
        if !matches!(self.get(name)?, Value::Array(_)) {
            return Ok(vec![self.integer(name, 0, "an integer >= 0")?]);
        }
        self.list(name, "a list of integers")?
            .into_iter()
            .map(|(v, path)| match v {
                Value::Number(n) if n.as_u64().is_some() => Ok(n.as_u64().unwrap_or_default()),
                Value::Number(n) if n.as_i64().is_some() => Err(err(
                    &path,
                    EventErrorKind::OutOfRange {
                        value: n.to_string(),
                        expected: "an integer >= 0",
                    },
                )),
                _ => Err(err(
                    &path,
                    EventErrorKind::WrongType {
                        expected: "an integer",
                        found: json_kind(v),
                    },
                )),
            })
            .collect()
    }

    /// A number $\ge0$, or the string `"inf"` for $+\infty$.
    fn shape(&self, name: &str) -> Result<f64, EventError> {
        match self.get(name)? {
            Value::String(s) if s == "inf" => Ok(f64::INFINITY),
            Value::String(s) => Err(err(
                &self.path(name),
                EventErrorKind::OutOfRange {
                    value: format!("{s:?}"),
                    expected: "a number >= 0 or \"inf\"",
                },
            )),
            _ => self.number(name, |x| x >= 0.0, "a number >= 0 or \"inf\""),
        }
    }
}

/// The event types of the format.
pub const TYPES: [&str; 17] = [
    "NoOp",
    "Gaussian",
    "Laplace",
    "RandomizedResponse",
    "EpsilonDelta",
    "PoissonSampled",
    "SampledWithoutReplacement",
    "SelfComposed",
    "Composed",
    "ZCDp",
    "DiscreteLaplace",
    "MixtureOfGaussians",
    "TruncatedSubsampledGaussian",
    "SampledWithReplacement",
    "SingleEpochTreeAggregation",
    "RepeatAndSelect",
    "RandomAllocation",
];

impl Event {
    /// The event's type name as it appears in JSON.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::NoOp => "NoOp",
            Event::Gaussian { .. } => "Gaussian",
            Event::Laplace { .. } => "Laplace",
            Event::RandomizedResponse { .. } => "RandomizedResponse",
            Event::EpsilonDelta { .. } => "EpsilonDelta",
            Event::PoissonSampled { .. } => "PoissonSampled",
            Event::SampledWithoutReplacement { .. } => "SampledWithoutReplacement",
            Event::SelfComposed { .. } => "SelfComposed",
            Event::Composed { .. } => "Composed",
            Event::ZCDp { .. } => "ZCDp",
            Event::DiscreteLaplace { .. } => "DiscreteLaplace",
            Event::MixtureOfGaussians { .. } => "MixtureOfGaussians",
            Event::TruncatedSubsampledGaussian { .. } => "TruncatedSubsampledGaussian",
            Event::SampledWithReplacement { .. } => "SampledWithReplacement",
            Event::SingleEpochTreeAggregation { .. } => "SingleEpochTreeAggregation",
            Event::RepeatAndSelect { .. } => "RepeatAndSelect",
            Event::RandomAllocation { .. } => "RandomAllocation",
        }
    }

    /// Validates one event found at `path` (its errors name paths below it).
    pub fn from_value(v: &Value, path: &str) -> Result<Self, EventError> {
        Self::parse_at(v, path, 1)
    }

    fn parse_at(v: &Value, path: &str, depth: usize) -> Result<Self, EventError> {
        if depth > MAX_DEPTH {
            return Err(err(path, EventErrorKind::TooDeep { limit: MAX_DEPTH }));
        }
        let map = object(v, path, "an event object")?;
        let type_path = child(path, "type");
        let tv = map
            .get("type")
            .ok_or_else(|| err(&type_path, EventErrorKind::Missing))?;
        let Value::String(name) = tv else {
            return Err(err(
                &type_path,
                EventErrorKind::WrongType {
                    expected: "an event type name",
                    found: json_kind(tv),
                },
            ));
        };
        let nested = |f: &Fields, name: &str| -> Result<Box<Event>, EventError> {
            Ok(Box::new(Self::parse_at(
                f.get(name)?,
                &f.path(name),
                depth + 1,
            )?))
        };
        let positive = |x: f64| x > 0.0;
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        Ok(match name.as_str() {
            "NoOp" => {
                Fields::new(v, path, &["type"])?;
                Event::NoOp
            }
            "Gaussian" => {
                let f = Fields::new(v, path, &["type", "noise_multiplier"])?;
                Event::Gaussian {
                    noise_multiplier: f.number("noise_multiplier", positive, "a number > 0")?,
                }
            }
            "Laplace" => {
                let f = Fields::new(v, path, &["type", "noise_multiplier", "parameter"])?;
                let name = match (
                    map.contains_key("noise_multiplier"),
                    map.contains_key("parameter"),
                ) {
                    (true, true) => {
                        return Err(err(&f.path("parameter"), EventErrorKind::Duplicate));
                    }
                    (false, true) => "parameter",
                    _ => "noise_multiplier",
                };
                Event::Laplace {
                    noise_multiplier: f.number(name, positive, "a number > 0")?,
                }
            }
            "RandomizedResponse" => {
                let f = Fields::new(v, path, &["type", "noise_parameter", "num_buckets"])?;
                Event::RandomizedResponse {
                    noise_parameter: f.number("noise_parameter", unit, "a number in [0, 1]")?,
                    num_buckets: f.integer("num_buckets", 1, "an integer >= 1")?,
                }
            }
            "EpsilonDelta" => {
                let f = Fields::new(v, path, &["type", "epsilon", "delta"])?;
                Event::EpsilonDelta {
                    epsilon: f.number("epsilon", |x| x >= 0.0, "a number >= 0")?,
                    delta: f.number("delta", unit, "a number in [0, 1]")?,
                }
            }
            "PoissonSampled" => {
                let f = Fields::new(v, path, &["type", "sampling_probability", "event"])?;
                Event::PoissonSampled {
                    sampling_probability: f.number(
                        "sampling_probability",
                        unit,
                        "a probability in [0, 1]",
                    )?,
                    event: nested(&f, "event")?,
                }
            }
            "SampledWithoutReplacement" => {
                let f = Fields::new(
                    v,
                    path,
                    &["type", "source_dataset_size", "sample_size", "event"],
                )?;
                let n = f.integer("source_dataset_size", 1, "an integer >= 1")?;
                let m = f.integer("sample_size", 0, "an integer >= 0")?;
                if m > n {
                    return Err(err(
                        &f.path("sample_size"),
                        EventErrorKind::OutOfRange {
                            value: m.to_string(),
                            expected: "at most source_dataset_size",
                        },
                    ));
                }
                Event::SampledWithoutReplacement {
                    source_dataset_size: n,
                    sample_size: m,
                    event: nested(&f, "event")?,
                }
            }
            "SelfComposed" => {
                let f = Fields::new(v, path, &["type", "event", "count"])?;
                Event::SelfComposed {
                    count: f.integer("count", 0, "an integer >= 0")?,
                    event: nested(&f, "event")?,
                }
            }
            "Composed" => {
                let f = Fields::new(v, path, &["type", "events"])?;
                let list = f.get("events")?;
                let Value::Array(items) = list else {
                    return Err(err(
                        &f.path("events"),
                        EventErrorKind::WrongType {
                            expected: "a list of events",
                            found: json_kind(list),
                        },
                    ));
                };
                let events = items
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        Self::parse_at(e, &format!("{}[{i}]", f.path("events")), depth + 1)
                    })
                    .collect::<Result<_, _>>()?;
                Event::Composed { events }
            }
            "ZCDp" => {
                let f = Fields::new(v, path, &["type", "rho", "xi"])?;
                Event::ZCDp {
                    rho: f.number("rho", |x| x >= 0.0, "a number >= 0")?,
                    xi: f.number_or("xi", 0.0, |x| x >= 0.0, "a number >= 0")?,
                }
            }
            "DiscreteLaplace" => {
                let f = Fields::new(v, path, &["type", "noise_parameter", "sensitivity"])?;
                Event::DiscreteLaplace {
                    noise_parameter: f.number("noise_parameter", positive, "a number > 0")?,
                    sensitivity: f.integer("sensitivity", 0, "an integer >= 0")?,
                }
            }
            "MixtureOfGaussians" => {
                let f = Fields::new(
                    v,
                    path,
                    &[
                        "type",
                        "standard_deviation",
                        "sensitivities",
                        "sampling_probs",
                    ],
                )?;
                let standard_deviation =
                    f.number("standard_deviation", positive, "a number > 0")?;
                let sensitivities = f.numbers("sensitivities", |x| x >= 0.0, "a number >= 0")?;
                let sampling_probs =
                    f.numbers("sampling_probs", unit, "a probability in [0, 1]")?;
                if sampling_probs.len() != sensitivities.len() {
                    return Err(err(
                        &f.path("sampling_probs"),
                        EventErrorKind::OutOfRange {
                            value: format!("a list of {}", sampling_probs.len()),
                            expected: "as many probabilities as sensitivities",
                        },
                    ));
                }
                let total: f64 = sampling_probs.iter().sum();
                if (total - 1.0).abs() > 1e-9 {
                    return Err(err(
                        &f.path("sampling_probs"),
                        EventErrorKind::OutOfRange {
                            value: format!("a list summing to {total}"),
                            expected: "probabilities summing to 1 (within 1e-9)",
                        },
                    ));
                }
                Event::MixtureOfGaussians {
                    standard_deviation,
                    sensitivities,
                    sampling_probs,
                }
            }
            "TruncatedSubsampledGaussian" => {
                let f = Fields::new(
                    v,
                    path,
                    &[
                        "type",
                        "dataset_size",
                        "sampling_probability",
                        "truncated_batch_size",
                        "noise_multiplier",
                    ],
                )?;
                Event::TruncatedSubsampledGaussian {
                    dataset_size: f.integer("dataset_size", 0, "an integer >= 0")?,
                    sampling_probability: f.number(
                        "sampling_probability",
                        unit,
                        "a probability in [0, 1]",
                    )?,
                    truncated_batch_size: f.integer(
                        "truncated_batch_size",
                        0,
                        "an integer >= 0",
                    )?,
                    noise_multiplier: f.number("noise_multiplier", positive, "a number > 0")?,
                }
            }
            "SampledWithReplacement" => {
                let f = Fields::new(
                    v,
                    path,
                    &["type", "source_dataset_size", "sample_size", "event"],
                )?;
                Event::SampledWithReplacement {
                    source_dataset_size: f.integer("source_dataset_size", 1, "an integer >= 1")?,
                    sample_size: f.integer("sample_size", 0, "an integer >= 0")?,
                    event: nested(&f, "event")?,
                }
            }
            "SingleEpochTreeAggregation" => {
                let f = Fields::new(v, path, &["type", "noise_multiplier", "step_counts"])?;
                Event::SingleEpochTreeAggregation {
                    noise_multiplier: f.number("noise_multiplier", positive, "a number > 0")?,
                    step_counts: f.counts("step_counts")?,
                }
            }
            "RepeatAndSelect" => {
                let f = Fields::new(v, path, &["type", "event", "mean", "shape"])?;
                Event::RepeatAndSelect {
                    mean: f.number("mean", |x| x >= 1.0, "a number >= 1")?,
                    shape: f.shape("shape")?,
                    event: nested(&f, "event")?,
                }
            }
            "RandomAllocation" => {
                let f = Fields::new(v, path, &["type", "event", "num_selected", "num_steps"])?;
                let num_selected = f.integer("num_selected", 1, "an integer >= 1")?;
                let num_steps = f.integer("num_steps", 1, "an integer >= 1")?;
                if num_steps < num_selected {
                    return Err(err(
                        &f.path("num_steps"),
                        EventErrorKind::OutOfRange {
                            value: num_steps.to_string(),
                            expected: "an integer >= num_selected",
                        },
                    ));
                }
                Event::RandomAllocation {
                    event: nested(&f, "event")?,
                    num_selected,
                    num_steps,
                }
            }
            other => {
                return Err(err(
                    &type_path,
                    EventErrorKind::UnknownType {
                        found: other.to_string(),
                        known: TYPES.join(", "),
                    },
                ));
            }
        })
    }
}

impl EventDoc {
    /// Parses and validates a JSON document.
    pub fn parse(text: &str) -> Result<Self, EventError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| err("", EventErrorKind::Syntax(e.to_string())))?;
        Self::from_value(&v)
    }

    /// Validates an already parsed JSON document.
    pub fn from_value(v: &Value) -> Result<Self, EventError> {
        let f = Fields::new(v, "", &["version", "neighbouring", "event"])?;
        let version = f.integer("version", 0, "the format version 1")?;
        if version != FORMAT_VERSION {
            return Err(err(
                "version",
                EventErrorKind::OutOfRange {
                    value: version.to_string(),
                    expected: "the format version 1",
                },
            ));
        }
        let nv = f.get("neighbouring")?;
        let neighbouring = Neighbouring::deserialize(nv).map_err(|_| {
            err(
                "neighbouring",
                EventErrorKind::WrongType {
                    expected: "\"add-remove\" or \"replace-one\"",
                    found: json_kind(nv),
                },
            )
        })?;
        Ok(Self {
            version,
            neighbouring,
            event: Event::from_value(f.get("event")?, "event")?,
        })
    }

    /// The document as compact JSON (parses back to an equal value).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("events serialize")
    }
}

impl<'de> Deserialize<'de> for EventDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Self::from_value(&v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(event: &str) -> String {
        format!(r#"{{"version": 1, "neighbouring": "add-remove", "event": {event}}}"#)
    }

    fn error_of(text: &str) -> EventError {
        match EventDoc::parse(text) {
            Err(e) => e,
            Ok(d) => panic!("accepted {text}: {d:?}"),
        }
    }

    /// Each malformed case is rejected, and the error names the JSON path of the problem.
    #[test]
    fn malformed_events_name_their_path() {
        let gauss = r#"{"type": "Gaussian", "noise_multiplier": 1.0}"#;
        let cases: Vec<(String, &str, fn(&EventErrorKind) -> bool)> = vec![
            // unknown type, deep inside
            (
                doc(&format!(
                    r#"{{"type": "Composed", "events": [{gauss}, {gauss}, {{"type": "PoissonSampled", "sampling_probability": 0.1, "event": {{"type": "Gausian", "noise_multiplier": 1}}}}]}}"#
                )),
                "event.events[2].event.type",
                |k| matches!(k, EventErrorKind::UnknownType { found, .. } if found == "Gausian"),
            ),
            // q > 1 at the path of the issue's example
            (
                doc(&format!(
                    r#"{{"type": "Composed", "events": [{gauss}, {gauss}, {{"type": "SelfComposed", "count": 3, "event": {{"type": "PoissonSampled", "sampling_probability": 1.5, "event": {gauss}}}}}]}}"#
                )),
                "event.events[2].event.sampling_probability",
                |k| matches!(k, EventErrorKind::OutOfRange { value, .. } if value == "1.5"),
            ),
            (
                doc(r#"{"type": "PoissonSampled", "sampling_probability": -0.1, "event": {"type": "NoOp"}}"#),
                "event.sampling_probability",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            // negative count
            (
                doc(&format!(r#"{{"type": "SelfComposed", "count": -3, "event": {gauss}}}"#)),
                "event.count",
                |k| matches!(k, EventErrorKind::OutOfRange { value, .. } if value == "-3"),
            ),
            // fractional count
            (
                doc(&format!(r#"{{"type": "SelfComposed", "count": 2.5, "event": {gauss}}}"#)),
                "event.count",
                |k| matches!(k, EventErrorKind::WrongType { expected: "an integer", .. }),
            ),
            // missing field
            (
                doc(r#"{"type": "SelfComposed", "count": 3, "event": {"type": "Gaussian"}}"#),
                "event.event.noise_multiplier",
                |k| matches!(k, EventErrorKind::Missing),
            ),
            (
                doc(r#"{"type": "Composed"}"#),
                "event.events",
                |k| matches!(k, EventErrorKind::Missing),
            ),
            (
                doc(r#"{"noise_multiplier": 1}"#),
                "event.type",
                |k| matches!(k, EventErrorKind::Missing),
            ),
            // unknown field
            (
                doc(r#"{"type": "Gaussian", "noise_multiplier": 1, "sensitivity": 2}"#),
                "event.sensitivity",
                |k| matches!(k, EventErrorKind::UnknownField { .. }),
            ),
            (
                r#"{"version": 1, "neighbouring": "add-remove", "event": {"type": "NoOp"}, "delta": 1e-5}"#.into(),
                "delta",
                |k| matches!(k, EventErrorKind::UnknownField { .. }),
            ),
            // wrong JSON types and ranges
            (
                doc(r#"{"type": "Gaussian", "noise_multiplier": "1.0"}"#),
                "event.noise_multiplier",
                |k| matches!(k, EventErrorKind::WrongType { .. }),
            ),
            (
                doc(r#"{"type": "Gaussian", "noise_multiplier": 0}"#),
                "event.noise_multiplier",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "RandomizedResponse", "noise_parameter": 0.5, "num_buckets": 0}"#),
                "event.num_buckets",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "EpsilonDelta", "epsilon": 1, "delta": 2}"#),
                "event.delta",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "SampledWithoutReplacement", "source_dataset_size": 10, "sample_size": 11, "event": {"type": "NoOp"}}"#),
                "event.sample_size",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "Composed", "events": {"type": "NoOp"}}"#),
                "event.events",
                |k| matches!(k, EventErrorKind::WrongType { .. }),
            ),
            (
                doc(r#"{"type": "Laplace", "noise_multiplier": 1, "parameter": 1}"#),
                "event.parameter",
                |k| matches!(k, EventErrorKind::Duplicate),
            ),
            (
                r#"{"version": 2, "neighbouring": "add-remove", "event": {"type": "NoOp"}}"#.into(),
                "version",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                r#"{"version": 1, "neighbouring": "replace", "event": {"type": "NoOp"}}"#.into(),
                "neighbouring",
                |k| matches!(k, EventErrorKind::WrongType { .. }),
            ),
            (
                r#"{"version": 1, "event": {"type": "NoOp"}}"#.into(),
                "neighbouring",
                |k| matches!(k, EventErrorKind::Missing),
            ),
            (
                r#"{"version": 1, "neighbouring": "add-remove", "event": [1, 2"#.into(),
                "",
                |k| matches!(k, EventErrorKind::Syntax(_)),
            ),
            // dp_accounting 0.6.0's further types
            (
                doc(r#"{"type": "ZCDp", "rho": -0.5}"#),
                "event.rho",
                |k| matches!(k, EventErrorKind::OutOfRange { value, .. } if value == "-0.5"),
            ),
            (
                doc(r#"{"type": "ZCDp", "rho": 0.5, "xi": "0"}"#),
                "event.xi",
                |k| matches!(k, EventErrorKind::WrongType { .. }),
            ),
            (
                doc(r#"{"type": "DiscreteLaplace", "noise_parameter": 0, "sensitivity": 1}"#),
                "event.noise_parameter",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "DiscreteLaplace", "noise_parameter": 1, "sensitivity": 1.5}"#),
                "event.sensitivity",
                |k| matches!(k, EventErrorKind::WrongType { expected: "an integer", .. }),
            ),
            (
                doc(r#"{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": [0, 1], "sampling_probs": [0.5, 0.6]}"#),
                "event.sampling_probs",
                |k| matches!(k, EventErrorKind::OutOfRange { expected, .. } if expected.contains("summing to 1")),
            ),
            (
                doc(r#"{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": [0, 1], "sampling_probs": [1]}"#),
                "event.sampling_probs",
                |k| matches!(k, EventErrorKind::OutOfRange { expected, .. } if expected.contains("as many")),
            ),
            (
                doc(r#"{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": [0, -1], "sampling_probs": [0.5, 0.5]}"#),
                "event.sensitivities[1]",
                |k| matches!(k, EventErrorKind::OutOfRange { value, .. } if value == "-1"),
            ),
            (
                doc(r#"{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": [], "sampling_probs": []}"#),
                "event.sensitivities",
                |k| matches!(k, EventErrorKind::OutOfRange { expected: "a non-empty list", .. }),
            ),
            (
                doc(r#"{"type": "MixtureOfGaussians", "standard_deviation": 1, "sensitivities": 1, "sampling_probs": [1]}"#),
                "event.sensitivities",
                |k| matches!(k, EventErrorKind::WrongType { expected: "a list of numbers", .. }),
            ),
            (
                doc(r#"{"type": "TruncatedSubsampledGaussian", "dataset_size": 100, "sampling_probability": 1.5, "truncated_batch_size": 10, "noise_multiplier": 1}"#),
                "event.sampling_probability",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "TruncatedSubsampledGaussian", "dataset_size": 100, "sampling_probability": 0.1, "noise_multiplier": 1}"#),
                "event.truncated_batch_size",
                |k| matches!(k, EventErrorKind::Missing),
            ),
            (
                doc(&format!(r#"{{"type": "SampledWithReplacement", "source_dataset_size": 0, "sample_size": 3, "event": {gauss}}}"#)),
                "event.source_dataset_size",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "SingleEpochTreeAggregation", "noise_multiplier": 1, "step_counts": [4, -1]}"#),
                "event.step_counts[1]",
                |k| matches!(k, EventErrorKind::OutOfRange { value, .. } if value == "-1"),
            ),
            (
                doc(r#"{"type": "SingleEpochTreeAggregation", "noise_multiplier": 1, "step_counts": []}"#),
                "event.step_counts",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "SingleEpochTreeAggregation", "noise_multiplier": 1, "step_counts": "4"}"#),
                "event.step_counts",
                |k| matches!(k, EventErrorKind::WrongType { .. }),
            ),
            (
                doc(&format!(r#"{{"type": "RepeatAndSelect", "event": {gauss}, "mean": 0.5, "shape": 1}}"#)),
                "event.mean",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(&format!(r#"{{"type": "RepeatAndSelect", "event": {gauss}, "mean": 2, "shape": "Infinity"}}"#)),
                "event.shape",
                |k| matches!(k, EventErrorKind::OutOfRange { .. }),
            ),
            (
                doc(r#"{"type": "RepeatAndSelect", "event": {"type": "Gausian"}, "mean": 2, "shape": 0}"#),
                "event.event.type",
                |k| matches!(k, EventErrorKind::UnknownType { .. }),
            ),
        ];
        for (text, path, kind) in cases {
            let e = error_of(&text);
            assert_eq!(e.path, path, "{text}: {e}");
            assert!(kind(&e.kind), "{text}: {e}");
            assert!(e.to_string().contains(path), "{e}");
        }
    }

    /// Nesting one level beyond the limit is refused at the path where it happens; at the
    /// limit it is accepted.
    #[test]
    fn nesting_deeper_than_the_limit_is_refused() {
        let nest = |levels: usize| {
            let mut e = r#"{"type": "NoOp"}"#.to_string();
            for _ in 1..levels {
                e = format!(r#"{{"type": "SelfComposed", "count": 2, "event": {e}}}"#);
            }
            doc(&e)
        };
        assert!(EventDoc::parse(&nest(MAX_DEPTH)).is_ok());
        let e = error_of(&nest(MAX_DEPTH + 1));
        let want = format!("event{}", ".event".repeat(MAX_DEPTH));
        assert_eq!(e.path, want);
        assert_eq!(e.kind, EventErrorKind::TooDeep { limit: MAX_DEPTH });
        // Composed lists count as levels too.
        let mut e = r#"{"type": "NoOp"}"#.to_string();
        for _ in 0..MAX_DEPTH {
            e = format!(r#"{{"type": "Composed", "events": [{e}]}}"#);
        }
        let err = error_of(&doc(&e));
        assert_eq!(err.kind, EventErrorKind::TooDeep { limit: MAX_DEPTH });
        assert!(err.path.ends_with("events[0]"), "{}", err.path);
    }

    /// Every event type survives JSON and back; serde's `Deserialize` takes the same path.
    #[test]
    fn documents_round_trip() {
        let g = |s: f64| {
            Box::new(Event::Gaussian {
                noise_multiplier: s,
            })
        };
        let event = Event::Composed {
            events: vec![
                Event::NoOp,
                Event::SelfComposed {
                    count: 1000,
                    event: Box::new(Event::PoissonSampled {
                        sampling_probability: 0.004266,
                        event: g(1.1),
                    }),
                },
                Event::SampledWithoutReplacement {
                    source_dataset_size: 60000,
                    sample_size: 256,
                    event: g(0.3),
                },
                Event::Laplace {
                    noise_multiplier: 2.0,
                },
                Event::RandomizedResponse {
                    noise_parameter: 0.25,
                    num_buckets: 4,
                },
                Event::EpsilonDelta {
                    epsilon: 0.1,
                    delta: 1e-9,
                },
                Event::Composed { events: vec![] },
                Event::ZCDp { rho: 0.5, xi: 0.1 },
                Event::DiscreteLaplace {
                    noise_parameter: 0.7,
                    sensitivity: 3,
                },
                Event::MixtureOfGaussians {
                    standard_deviation: 2.0,
                    sensitivities: vec![0.0, 1.0, 2.0],
                    sampling_probs: vec![0.81, 0.18, 0.01],
                },
                Event::TruncatedSubsampledGaussian {
                    dataset_size: 60000,
                    sampling_probability: 0.01,
                    truncated_batch_size: 700,
                    noise_multiplier: 1.1,
                },
                Event::SampledWithReplacement {
                    source_dataset_size: 1000,
                    sample_size: 10,
                    event: g(1.0),
                },
                Event::SingleEpochTreeAggregation {
                    noise_multiplier: 4.0,
                    step_counts: vec![100, 37],
                },
                Event::RepeatAndSelect {
                    event: g(2.0),
                    mean: 10.0,
                    shape: f64::INFINITY,
                },
                Event::RepeatAndSelect {
                    event: g(2.0),
                    mean: 3.0,
                    shape: 0.5,
                },
            ],
        };
        for neighbouring in [Neighbouring::AddRemove, Neighbouring::ReplaceOne] {
            let d = EventDoc {
                version: FORMAT_VERSION,
                neighbouring,
                event: event.clone(),
            };
            let text = d.to_json();
            assert_eq!(EventDoc::parse(&text).unwrap(), d, "{text}");
            assert_eq!(serde_json::from_str::<EventDoc>(&text).unwrap(), d);
        }
        // dp_accounting's PLD-constructor name for the Laplace scale is read as a synonym.
        let d = EventDoc::parse(&doc(r#"{"type": "Laplace", "parameter": 0.5}"#)).unwrap();
        assert_eq!(
            d.event,
            Event::Laplace {
                noise_multiplier: 0.5
            }
        );
        assert!(d.to_json().contains("noise_multiplier"));
        // dp_accounting's defaults and alternatives: `xi` left out is 0, one step count is a
        // list of one, and the Poisson shape is the string "inf" (written back as such).
        let d = EventDoc::parse(&doc(r#"{"type": "ZCDp", "rho": 0.25}"#)).unwrap();
        assert_eq!(d.event, Event::ZCDp { rho: 0.25, xi: 0.0 });
        let d = EventDoc::parse(&doc(
            r#"{"type": "SingleEpochTreeAggregation", "noise_multiplier": 1.5, "step_counts": 8}"#,
        ))
        .unwrap();
        assert_eq!(
            d.event,
            Event::SingleEpochTreeAggregation {
                noise_multiplier: 1.5,
                step_counts: vec![8]
            }
        );
        let d = EventDoc::parse(&doc(
            r#"{"type": "RepeatAndSelect", "event": {"type": "NoOp"}, "mean": 4, "shape": "inf"}"#,
        ))
        .unwrap();
        assert!(d.to_json().contains(r#""shape":"inf""#), "{}", d.to_json());
        // serde's entry point reports the same path.
        let e = serde_json::from_str::<EventDoc>(&doc(r#"{"type": "Gaussian"}"#)).unwrap_err();
        assert!(e.to_string().contains("event.noise_multiplier"), "{e}");
    }
}
