//! `dpclaims._dpclaims`: the Python extension over [`dpclaims_accounting`]. The Python package
//! (`python/dpclaims/`) is the public face; this module is what it calls.
//!
//! Three rules hold for every function here:
//! - **No panic crosses into Python.** Work runs under `catch_unwind` (in a worker thread for
//!   the long ones); a panic becomes `dpclaims.InternalError`, a `RuntimeError`, with its
//!   message: the interpreter goes on.
//! - **Long computations release the GIL and can be interrupted.** They run in a worker thread
//!   while the calling thread waits without the GIL and checks for signals every 50 ms: Ctrl-C
//!   raises `KeyboardInterrupt` at once, and cancels the computation ([`cancel`]): it stops
//!   at its next check (each PLD composition, each Monte Carlo trial) and its result is
//!   dropped.
//! - **Errors name what is wrong**: a bad event document raises `EventFormatError` (a
//!   `ValueError`) with `.path`, the JSON path of the bad field; an event dpclaims cannot account
//!   for raises `UnsupportedEventError` (a `NotImplementedError`, which the conformance suite
//!   counts as a skip) with `.path`; a parameter out of range raises `ParameterError` (a
//!   `ValueError`) with `.path` and `.name`.

use dpclaims_accounting::ParamError;
use dpclaims_accounting::audit::{self, AuditOptions};
use dpclaims_accounting::cancel;
use dpclaims_accounting::conformance::{self, Reply, Request};
use dpclaims_accounting::privacy::Neighbouring;
use dpclaims_accounting::privacy::event::{EventDoc, EventError};
use dpclaims_accounting::privacy::event_pld::EventPldError;
use dpclaims_accounting::privacy::pld::PldOptions;
use dpclaims_accounting::query::{self, EventAnswer, Query};
use pyo3::create_exception;
use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

create_exception!(
    _dpclaims,
    EventFormatError,
    PyValueError,
    "An event document that cannot be read: `.path` is the JSON path of the bad field."
);
create_exception!(
    _dpclaims,
    UnsupportedEventError,
    PyNotImplementedError,
    "An event dpclaims' PLD accountant does not cover: `.path` is its JSON path."
);
create_exception!(
    _dpclaims,
    ParameterError,
    PyValueError,
    "A parameter out of range: `.name` names it, `.path` is the JSON path of the event it belongs to (\"\" for the query)."
);
create_exception!(
    _dpclaims,
    InternalError,
    PyRuntimeError,
    "A defect of dpclaims (a Rust panic, caught): please report it with the call that raised it."
);

/// A Python exception of type `T` with the message and attributes.
fn error_with<T: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    attrs: &[(&str, &str)],
) -> PyErr {
    let err = PyErr::new::<T, _>(message);
    for (key, value) in attrs {
        let _ = err.value(py).setattr(*key, *value);
    }
    err
}

fn event_error(py: Python<'_>, e: &EventError) -> PyErr {
    error_with::<EventFormatError>(py, e.to_string(), &[("path", &e.path)])
}

fn param_error(py: Python<'_>, path: &str, e: &ParamError) -> PyErr {
    error_with::<ParameterError>(py, e.to_string(), &[("path", path), ("name", &e.name)])
}

fn event_pld_error(py: Python<'_>, e: &EventPldError) -> PyErr {
    match e {
        EventPldError::Unsupported { path, .. } => {
            error_with::<UnsupportedEventError>(py, e.to_string(), &[("path", path)])
        }
        EventPldError::Param { path, source } => error_with::<ParameterError>(
            py,
            e.to_string(),
            &[("path", path), ("name", &source.name)],
        ),
    }
}

/// The message of a caught panic.
fn panic_error(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    InternalError::new_err(format!(
        "internal error in dpclaims (a bug: please report the call that raised it): {what}"
    ))
}

/// Computations running in worker threads ([`interruptible`]).
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Runs `work` in a worker thread while this thread waits without the GIL, checking for
/// signals every 50 ms (module documentation). A panic of `work` is an `InternalError`.
///
/// On a signal's exception (Ctrl-C) it requests a cancellation ([`cancel::request`]): the
/// PLD compositions and the Monte Carlo stop at their next check, and the last worker to end
/// clears the request. A new call waits for that first, so that it is not cancelled by an
/// interrupt that came before it.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    while cancel::requested() {
        py.check_signals()?;
        py.detach(|| std::thread::sleep(Duration::from_millis(5)));
    }
    let (tx, rx) = mpsc::channel();
    RUNNING.fetch_add(1, Ordering::SeqCst);
    let spawned = std::thread::Builder::new()
        .name("dpclaims".into())
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            if RUNNING.fetch_sub(1, Ordering::SeqCst) == 1 {
                cancel::clear();
            }
            let _ = tx.send(result);
        });
    if let Err(e) = spawned {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        return Err(InternalError::new_err(format!(
            "cannot start a worker thread: {e}"
        )));
    }
    let rx = std::sync::Mutex::new(rx);
    loop {
        let waited = py.detach(|| {
            rx.lock()
                .expect("only this thread locks it")
                .recv_timeout(Duration::from_millis(50))
        });
        match waited {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(payload)) => return Err(panic_error(payload)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel::request();
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(InternalError::new_err(
                    "the worker thread ended without a result",
                ));
            }
        }
    }
}

/// Runs a short `work` under `catch_unwind`, holding the GIL.
fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .unwrap_or_else(|p| Err(panic_error(p)))
}

/// How deep `to_json` follows nested dicts and lists: the event format allows 32 levels of
/// events (each two JSON levels at most), and a cyclic object must end in an error, not in a
/// stack overflow of the interpreter.
const MAX_JSON_DEPTH: usize = 100;

/// A Python object (dict, list, str, number, bool, None) as JSON; a non-finite float, an
/// object JSON cannot hold, or nesting deeper than [`MAX_JSON_DEPTH`] (a cycle) is an
/// `EventFormatError` naming its path. Numbers of other types (numpy's) are read through
/// `__index__` (integers) or `__float__`; a bool is a bool, never a number.
fn to_json(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<Value> {
    to_json_at(obj, path, 0)
}

fn to_json_at(obj: &Bound<'_, PyAny>, path: &str, depth: usize) -> PyResult<Value> {
    let py = obj.py();
    let bad = |why: String| {
        error_with::<EventFormatError>(py, format!("`{path}`: {why}"), &[("path", path)])
    };
    if depth > MAX_JSON_DEPTH {
        return Err(bad(format!(
            "nested more than {MAX_JSON_DEPTH} deep (a cycle?)"
        )));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    let kind = obj.get_type().name()?.to_string();
    if kind == "bool_" {
        // numpy's bool has `__index__` on some versions: it is a bool, not an integer.
        return Ok(Value::Bool(obj.is_truthy()?));
    }
    let integer = obj.cast::<PyInt>().is_ok()
        || (obj.hasattr("__index__")? && obj.cast::<PyString>().is_err());
    if integer {
        let index = obj.call_method0("__index__")?;
        if let Ok(i) = index.extract::<i64>() {
            return Ok(i.into());
        }
        if let Ok(u) = index.extract::<u64>() {
            return Ok(u.into());
        }
        return Err(bad(format!("the integer {obj} does not fit in 64 bits")));
    }
    if obj.cast::<PyFloat>().is_ok() || obj.hasattr("__float__")? {
        let x: f64 = obj.call_method0("__float__")?.extract()?;
        return serde_json::Number::from_f64(x)
            .map(Value::Number)
            .ok_or_else(|| bad(format!("{x} is not a finite number")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.extract::<String>()?));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (k, v) in d.iter() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(bad(format!("a key {k} that is not a string")));
            };
            let key: String = key.extract()?;
            let child = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            map.insert(key, to_json_at(&v, &child, depth + 1)?);
        }
        return Ok(Value::Object(map));
    }
    if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        return items
            .iter()
            .enumerate()
            .map(|(i, v)| to_json_at(v, &format!("{path}[{i}]"), depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    Err(bad(format!(
        "a {kind} is not JSON (expected a dict, list, str, number, bool or None)"
    )))
}

/// JSON as a Python object (numbers stay exact: integers as int, others as float).
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let dict = PyDict::new(py);
            for (k, x) in m {
                dict.set_item(k, to_py(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

/// An event document from a Python dict in the event JSON format.
fn document(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<EventDoc> {
    let value = to_json(obj, "")?;
    EventDoc::from_value(&value).map_err(|e| event_error(py, &e))
}

/// dpclaims' certified answer to one query: the true value lies in
/// `[optimistic, pessimistic]`; `float()` of it is the pessimistic end (an upper bound).
#[pyclass(frozen, module = "dpclaims")]
pub struct Bracket {
    /// `"epsilon"` (ε at a δ) or `"delta"` (δ at an ε).
    #[pyo3(get)]
    query: &'static str,
    /// The δ (for an ε query) or ε (for a δ query) asked at.
    #[pyo3(get)]
    at: f64,
    /// The lower end: no accountant can soundly report less.
    #[pyo3(get)]
    optimistic: f64,
    /// The upper end: the certified value.
    #[pyo3(get)]
    pessimistic: f64,
    /// The PLD grid spacing of the privacy loss actually used.
    #[pyo3(get)]
    interval: f64,
    /// A coarser grid than asked for, or a bracket too wide to say much, in words.
    #[pyo3(get)]
    note: Option<String>,
    /// `"add-remove"` or `"replace-one"`.
    #[pyo3(get)]
    neighbouring: &'static str,
    /// Wall time of the computation.
    #[pyo3(get)]
    seconds: f64,
    /// The answer as `dpclaims epsilon --event FILE --json` prints it.
    json: String,
}

#[pymethods]
impl Bracket {
    fn __float__(&self) -> f64 {
        self.pessimistic
    }

    /// `(optimistic, pessimistic)`.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyTuple::new(py, [self.optimistic, self.pessimistic])?
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __repr__(&self) -> String {
        let (given, asked) = match self.query {
            "epsilon" => ("delta", "epsilon"),
            _ => ("epsilon", "delta"),
        };
        format!(
            "Bracket({asked} in [{}, {}] at {given}={}, {}, interval={})",
            self.optimistic, self.pessimistic, self.at, self.neighbouring, self.interval
        )
    }

    /// The answer as the CLI's `--json` prints it (same numbers, same fields).
    fn to_json(&self) -> String {
        self.json.clone()
    }
}

fn bracket(a: &EventAnswer, query: Query) -> Bracket {
    let (name, at) = query.parts();
    Bracket {
        query: name,
        at,
        optimistic: a.bracket[0],
        pessimistic: a.bracket[1],
        interval: a.interval,
        note: a.note.clone(),
        neighbouring: match a.relation {
            Neighbouring::AddRemove => "add-remove",
            Neighbouring::ReplaceOne => "replace-one",
        },
        seconds: a.seconds,
        json: serde_json::to_string(a).expect("answers serialize"),
    }
}

/// The PLD settings, checked ([`PldOptions::check`]); `max_points` is taken signed so that a
/// negative one is a `ParameterError`, not an `OverflowError`.
fn pld_options(py: Python<'_>, interval: f64, max_points: i64) -> PyResult<PldOptions> {
    let opts = PldOptions {
        interval,
        max_points: usize::try_from(max_points).unwrap_or(0),
        ..PldOptions::default()
    };
    opts.check().map_err(|e| {
        let e = match e.name.as_str() {
            "max_points" => ParamError {
                value: max_points.to_string(),
                ..e
            },
            _ => e,
        };
        param_error(py, "", &e)
    })?;
    Ok(opts)
}

fn answer(
    py: Python<'_>,
    document_obj: &Bound<'_, PyAny>,
    query: Query,
    interval: f64,
    max_points: i64,
) -> PyResult<Bracket> {
    let doc = guarded(|| document(py, document_obj))?;
    let opts = pld_options(py, interval, max_points)?;
    let result = interruptible(py, move || query::run_event(&doc, query, &opts))?;
    result
        .map(|a| bracket(&a, query))
        .map_err(|e| event_pld_error(py, &e))
}

/// ε at `delta` for an event document (a dict in the event JSON format).
#[pyfunction]
#[pyo3(signature = (document, delta, interval = 1e-4, max_points = query::ANSWER_MAX_POINTS as i64))]
fn epsilon(
    py: Python<'_>,
    document: &Bound<'_, PyAny>,
    delta: f64,
    interval: f64,
    max_points: i64,
) -> PyResult<Bracket> {
    answer(py, document, Query::Epsilon { delta }, interval, max_points)
}

/// δ at `epsilon` for an event document (a dict in the event JSON format).
#[pyfunction]
#[pyo3(signature = (document, epsilon, interval = 1e-4, max_points = query::ANSWER_MAX_POINTS as i64))]
fn delta(
    py: Python<'_>,
    document: &Bound<'_, PyAny>,
    epsilon: f64,
    interval: f64,
    max_points: i64,
) -> PyResult<Bracket> {
    answer(py, document, Query::Delta { epsilon }, interval, max_points)
}

/// Audits rows (dicts with the fields of `dpclaims audit`'s rows): one dict per row, as
/// `dpclaims audit --json` prints it (`line` is the row's position from 1, the line of a file
/// holding the rows), or `{"line": i, "error": why}` for a row whose
/// references or Monte Carlo could not be computed. A row that does not validate raises
/// `ValueError` naming the row (0-based) and the field, before anything is computed.
#[pyfunction]
#[pyo3(signature = (rows, *, tolerance = 0.05, max_steps = 200_000_000, trials = None, budget_seconds = None, importance = true, no_reference = false, seed = 1, confidence = 0.999, max_points = query::ANSWER_MAX_POINTS as i64))]
#[allow(clippy::too_many_arguments)]
fn audit_rows<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    tolerance: f64,
    max_steps: u64,
    trials: Option<u64>,
    budget_seconds: Option<f64>,
    importance: bool,
    no_reference: bool,
    seed: u64,
    confidence: f64,
    max_points: i64,
) -> PyResult<Bound<'py, PyList>> {
    let pld = pld_options(py, PldOptions::default().interval, max_points)?;
    let opts = AuditOptions {
        tolerance,
        max_steps,
        budget_seconds,
        trials,
        importance,
        no_reference,
        plot: false,
        seed,
        confidence,
        pld,
    };
    opts.check().map_err(|e| param_error(py, "", &e))?;
    let mut valid = Vec::new();
    for (i, row) in rows.try_iter()?.enumerate() {
        let row = row?;
        let Value::Object(obj) = to_json(&row, &format!("rows[{i}]"))? else {
            return Err(PyTypeError::new_err(format!("rows[{i}]: expected a dict")));
        };
        // Line i + 1, as the CLI numbers the rows of a file: the Monte Carlo streams are keyed
        // by it, so the same rows give the same numbers in Python and in `dpclaims audit`.
        let row = audit::validate(i + 1, obj, true)
            .map_err(|e| PyValueError::new_err(format!("rows[{i}]: {}", e.reason)))?;
        valid.push(row);
    }
    let results = interruptible(py, move || audit::audit(&valid, &opts, false))?;
    let out = PyList::empty(py);
    for r in results {
        let v = match r {
            Ok(a) => serde_json::to_value(&a).expect("audits serialize"),
            Err(e) => serde_json::json!({"line": e.line, "error": e.reason}),
        };
        out.append(to_py(py, &v)?)?;
    }
    Ok(out)
}

/// The checks of a conformance suite, without asking anything: `[{"property", "regime",
/// "queries": [protocol line, ...]}]` in the order `conformance_run` judges them.
#[pyfunction]
#[pyo3(signature = (seed = 1, events = 30, full = false, supports = None, settings_samples = 1))]
fn conformance_checks<'py>(
    py: Python<'py>,
    seed: u64,
    events: usize,
    full: bool,
    supports: Option<&Bound<'py, PyAny>>,
    settings_samples: usize,
) -> PyResult<Bound<'py, PyList>> {
    let mut suite = guarded(|| Ok(conformance::generate(seed, events, full)))?;
    if let Some(d) = declaration_of(supports)? {
        suite = conformance::with_settings(&suite, &d.settings, seed, settings_samples);
    }
    let out = PyList::empty(py);
    for c in &suite.checks {
        let d = PyDict::new(py);
        d.set_item("property", c.property)?;
        d.set_item("regime", c.regime)?;
        d.set_item("family", c.family)?;
        d.set_item("scenario", c.scenario)?;
        let lines: Vec<String> = c
            .queries
            .iter()
            .map(|&i| suite.requests[i].line(i))
            .collect();
        d.set_item("queries", lines)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The declaration of an accountant's `supports` (None for none).
fn declaration_of(
    supports: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<conformance::Declaration>> {
    match supports.filter(|s| !s.is_none()) {
        None => Ok(None),
        Some(s) => conformance::Declaration::from_value(&to_json(s, "supports")?)
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("supports: {e}"))),
    }
}

/// One request asked of the Python accountant through `ask(document, query, value)` (a
/// calibration: query `noise_multiplier`, value `(epsilon, delta)`), which
/// returns `("value", x)`, `("refused", why)` (NotImplementedError: a skip, or an `error` if
/// the accountant's declaration covers the query), `("error", why)` (an exception: a finding)
/// or `("broken", why)` (an answer that is not a number); an exception out of `ask`
/// (KeyboardInterrupt, SystemExit, a defect of the wrapper) stops the run.
fn ask_python(
    py: Python<'_>,
    ask: &Bound<'_, PyAny>,
    r: &Request,
    declaration: Option<&conformance::Declaration>,
) -> PyResult<Reply> {
    let doc = serde_json::to_value(&r.doc).expect("events serialize");
    let (query, at) = r.query.parts();
    // A calibration is asked with (target ε, δ).
    let value = match r.calibrate {
        Some(target) => (target, at).into_pyobject(py)?.into_any(),
        None => at.into_pyobject(py)?.into_any(),
    };
    let query = r.key();
    let settings = serde_json::Value::Object(r.settings.clone());
    let got = if r.settings.is_empty() {
        ask.call1((to_py(py, &doc)?, query, value))?
    } else {
        ask.call1((to_py(py, &doc)?, query, value, to_py(py, &settings)?))?
    };
    let (kind, payload): (String, Bound<'_, PyAny>) = got.extract()?;
    let reply = match kind.as_str() {
        "value" => Reply::Value(payload.extract()?),
        "refused" => Reply::Refused(payload.extract()?),
        "error" => Reply::Error(payload.extract()?),
        _ => Reply::Broken(payload.extract()?),
    };
    Ok(conformance::apply_declaration(declaration, r, reply))
}

/// Runs a conformance suite through `ask` (see `ask_python`) and judges it: `{"outcomes":
/// [...], "scorecard": text table, "scorecard_markdown": Markdown table, "failed": bool}` (the
/// findings with their reproducers are written in Python, where the reproducer is a call).
/// The tables are followed by the declaration (`supports`: the accountant's `supports` dict,
/// or None for none) and the skipped checks by reason.
#[pyfunction]
#[pyo3(signature = (ask, seed = 1, events = 30, full = false, tolerance = 1e-3, interval = 1e-4, supports = None, settings_samples = 1))]
#[allow(clippy::too_many_arguments)]
fn conformance_run<'py>(
    py: Python<'py>,
    ask: &Bound<'py, PyAny>,
    seed: u64,
    events: usize,
    full: bool,
    tolerance: f64,
    interval: f64,
    supports: Option<&Bound<'py, PyAny>>,
    settings_samples: usize,
) -> PyResult<Bound<'py, PyDict>> {
    dpclaims_accounting::error::non_negative("tolerance", tolerance)
        .map_err(|e| param_error(py, "", &e))?;
    let declaration = declaration_of(supports)?;
    let opts = pld_options(py, interval, query::ANSWER_MAX_POINTS as i64)?;
    let mut suite = guarded(|| Ok(conformance::generate(seed, events, full)))?;
    if let Some(d) = &declaration {
        suite = conformance::with_settings(&suite, &d.settings, seed, settings_samples);
        suite.epsilon_tolerance = d.epsilon_tolerance;
    }
    let mut stop: Option<PyErr> = None;
    let replies = guarded(|| {
        Ok(conformance::ask_in_rounds(&mut suite, |batch| {
            batch
                .iter()
                .map(|r| {
                    if stop.is_some() {
                        return Reply::Broken("not asked: the run was stopped".into());
                    }
                    match py
                        .check_signals()
                        .and_then(|()| ask_python(py, ask, r, declaration.as_ref()))
                    {
                        Ok(reply) => reply,
                        Err(e) => {
                            stop = Some(e);
                            Reply::Broken("not asked: the run was stopped".into())
                        }
                    }
                })
                .collect()
        }))
    })?;
    if let Some(e) = stop {
        return Err(e);
    }
    let judged = interruptible(py, move || {
        conformance::judge(&suite, &replies, tolerance, &opts)
    })?;
    let out = PyDict::new(py);
    let list = PyList::empty(py);
    for o in &judged {
        let d = PyDict::new(py);
        d.set_item("property", o.property)?;
        d.set_item("regime", o.regime)?;
        d.set_item("family", o.family)?;
        d.set_item("scenario", o.scenario)?;
        // The verdict's name as the CLI's JSON spells it (its serde name).
        d.set_item(
            "verdict",
            to_py(
                py,
                &serde_json::to_value(&o.verdict).expect("verdicts serialize"),
            )?,
        )?;
        d.set_item("answers", o.answers.clone())?;
        d.set_item("bracket", o.bracket.map(|b| (b[0], b[1])))?;
        d.set_item("detail", &o.detail)?;
        d.set_item("queries", o.queries.clone())?;
        list.append(d)?;
    }
    out.set_item("outcomes", list)?;
    let report = conformance::Report {
        interval,
        undeclared: declaration
            .is_none()
            .then(|| "the accountant has no `supports`".to_string()),
        declaration,
        ..conformance::Report::new("")
    };
    for markdown in [false, true] {
        let text = conformance::render_scorecard(&judged, markdown)
            + &conformance::render_coverage(&judged, markdown)
            + &conformance::render_notes(&judged, &report, markdown);
        out.set_item(
            if markdown {
                "scorecard_markdown"
            } else {
                "scorecard"
            },
            text,
        )?;
    }
    out.set_item("failed", conformance::failed(&judged))?;
    Ok(out)
}

/// The `dpclaims` command of the wheel: the accountant commands, with `argv` as `sys.argv`.
/// Runs without the GIL; returns the exit code.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> PyResult<u8> {
    py.detach(|| std::panic::catch_unwind(|| dpclaims_accounting::cli::main_from(argv)))
        .map_err(panic_error)
}

/// Panics inside Rust, for the tests of the panic boundary (`in_worker`: in the worker thread of
/// a long computation).
#[pyfunction]
#[pyo3(signature = (in_worker = false))]
fn _panic(py: Python<'_>, in_worker: bool) -> PyResult<()> {
    if in_worker {
        interruptible(py, || panic!("a test panic in the worker"))
    } else {
        guarded(|| panic!("a test panic"))
    }
}

/// Sleeps `seconds` in a worker thread (the tests of Ctrl-C and of the GIL's release).
#[pyfunction]
fn _sleep(py: Python<'_>, seconds: f64) -> PyResult<()> {
    interruptible(py, move || {
        // In 10 ms steps, stopping at a cancellation as the computations do.
        let end = std::time::Instant::now() + Duration::from_secs_f64(seconds);
        while std::time::Instant::now() < end && !cancel::requested() {
            std::thread::sleep(Duration::from_millis(10));
        }
    })
}

#[pymodule]
fn _dpclaims(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Bracket>()?;
    m.add_function(wrap_pyfunction!(epsilon, m)?)?;
    m.add_function(wrap_pyfunction!(delta, m)?)?;
    m.add_function(wrap_pyfunction!(audit_rows, m)?)?;
    m.add_function(wrap_pyfunction!(conformance_checks, m)?)?;
    m.add_function(wrap_pyfunction!(conformance_run, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add_function(wrap_pyfunction!(_sleep, m)?)?;
    m.add("EventFormatError", py.get_type::<EventFormatError>())?;
    m.add(
        "UnsupportedEventError",
        py.get_type::<UnsupportedEventError>(),
    )?;
    m.add("ParameterError", py.get_type::<ParameterError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
