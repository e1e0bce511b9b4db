"""The event format's whitelist and the line protocol of `dpclaims conformance` (stdlib only).

An accountant, for the in-process conformance suite and for `serve`, is any object with

    supports: dict   # {"events": [types], "relations": [relations], "queries": ["epsilon", ...]}
    def epsilon(self, event: dict, delta: float) -> float
    def delta(self, event: dict, epsilon: float) -> float     # only if it answers delta
    def noise_multiplier(self, event: dict, epsilon: float, delta: float) -> float
        # only if it calibrates: a sigma such that the event, with sigma as the noise
        # multiplier of every Gaussian in it, has at most epsilon at delta (the sigma in
        # `event` is a placeholder); declared as the query kind "noise_multiplier"

and, if it takes settings (RDP orders, an error budget, a grid), `supports["settings"]`
(name -> `{"choices": [values]}` or `{"min": a, "max": b, "log": bool, "integer": bool}`)
and `configured(settings: dict) -> accountant`; the suite asks it again under seeded draws of
them. `event` is an event document `{"version": 1, "neighbouring": ..., "event": {...}}`
(docs/accounting.md, "Events"; no `id`, `delta` or `epsilon` key). An event, relation or query
it does not cover raises NotImplementedError (`Unsupported` is one); any other exception is a
failure of the accountant. `supports` is a declaration: `dpclaims conformance` counts a
NotImplementedError on a query whose event types, relation and query kind are all declared as
an error, except `UnsupportedCombination` (a combination of declared parts the library does not
cover, e.g. a relation for one mechanism). `document` validates a document against the
format's whitelist of types and fields (ValueError naming the JSON path of the problem); no
name from the input is ever imported or called.

`serve(accountant)` runs the line protocol on stdin/stdout: each line is an event document with
an `id`, `delta` (asking for epsilon) or `epsilon` (asking for delta), and optionally
`settings` (the query is asked of `accountant.configured(settings)`); a calibration line has
`"calibrate": "noise_multiplier"` with both `epsilon` (the target) and `delta`. The answer is
one line with the query's `id`: {"id": 7, "epsilon": x} / {"id": 7, "delta": x} (null for
+infinity) / {"id": 7, "noise_multiplier": sigma}, {"id": 7, "error": "unsupported: ..."} for a NotImplementedError
("unsupported: combination: ..." for an UnsupportedCombination), or
{"id": 7, "error": "<Exception>: ..."} for any other failure of that line, whose traceback
goes to stderr (dpclaims shows it with the error).
"""
import json
import math
import sys
import traceback

# type -> {field: kind}; kinds: "num" (a number), "int" (an integer), "event", "events",
# "num=0" (a number, 0.0 when left out), "nums" (a non-empty list of numbers), "counts" (an
# integer or a non-empty list of them, read as a list), "shape" (a number or the string "inf").
# The types after "Composed" are dp_accounting 0.6.0's further DpEvent classes, same fields.
FIELDS = {
    "NoOp": {},
    "Gaussian": {"noise_multiplier": "num"},
    "Laplace": {"noise_multiplier": "num"},
    "RandomizedResponse": {"noise_parameter": "num", "num_buckets": "int"},
    "EpsilonDelta": {"epsilon": "num", "delta": "num"},
    "PoissonSampled": {"sampling_probability": "num", "event": "event"},
    "SampledWithoutReplacement": {
        "source_dataset_size": "int", "sample_size": "int", "event": "event"},
    "SelfComposed": {"event": "event", "count": "int"},
    "Composed": {"events": "events"},
    "ZCDp": {"rho": "num", "xi": "num=0"},
    "DiscreteLaplace": {"noise_parameter": "num", "sensitivity": "int"},
    "MixtureOfGaussians": {
        "standard_deviation": "num", "sensitivities": "nums", "sampling_probs": "nums"},
    "TruncatedSubsampledGaussian": {
        "dataset_size": "int", "sampling_probability": "num", "truncated_batch_size": "int",
        "noise_multiplier": "num"},
    "SampledWithReplacement": {
        "source_dataset_size": "int", "sample_size": "int", "event": "event"},
    "SingleEpochTreeAggregation": {"noise_multiplier": "num", "step_counts": "counts"},
    "RepeatAndSelect": {"event": "event", "mean": "num", "shape": "shape"},
    # dp_accounting PR #414's: each record in num_selected of the num_steps steps (an epoch).
    "RandomAllocation": {"event": "event", "num_selected": "int", "num_steps": "int"},
}
RELATIONS = ("add-remove", "replace-one")
QUERIES = ("epsilon", "delta")
CALIBRATE = "noise_multiplier"   # the query kind of a calibration, and its answer's key
MAX_DEPTH = 32


def missing_library(error, module, package):
    """Re-raises the ModuleNotFoundError of an adapter's import as an ImportError that says how
    to install the library (`pip install <package>`), when the missing module is the library's;
    any other missing module is re-raised as it is."""
    if (error.name or "").split(".")[0] != module:
        raise error
    raise ImportError(
        f"this adapter needs the {module} library: pip install {package}") from error


class Unsupported(NotImplementedError):
    """An event, relation or query the accountant does not cover: a skip, not a failure."""


class UnsupportedCombination(Unsupported):
    """A combination of event types, relation and query that are each declared in `supports`
    but that the library does not cover together (a relation for one mechanism, a sampled
    inner event): a skip even though every part is declared."""


COMBINATION = "combination: "


def refusal(e):
    """The protocol's text for a NotImplementedError: "unsupported: ...", or
    "unsupported: combination: ..." for an UnsupportedCombination."""
    kind = COMBINATION if isinstance(e, UnsupportedCombination) else ""
    return f"unsupported: {kind}{e}"


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_finite(v):
    return is_number(v) and math.isfinite(v)


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def check_event(e, path="event", depth=0):
    """Validates one bare event (a dict); returns a copy with `parameter` read as
    `noise_multiplier` for Laplace. Raises ValueError naming the JSON path, Unsupported
    (a NotImplementedError) for a type the format does not have."""
    if depth > MAX_DEPTH:
        raise ValueError(f"{path}: nested more than {MAX_DEPTH} deep")
    if not isinstance(e, dict) or not isinstance(e.get("type"), str):
        raise ValueError(f"{path}: expected an object with a string `type`")
    kind = e["type"]
    if kind not in FIELDS:
        raise Unsupported(f"{path}: unknown event type {kind!r}")
    if kind == "Laplace" and "parameter" in e and "noise_multiplier" not in e:
        e = dict(e, noise_multiplier=e["parameter"])
        del e["parameter"]
    fields = FIELDS[kind]
    extra = set(e) - set(fields) - {"type"}
    if extra:
        raise ValueError(f"{path}: unknown field(s) {sorted(extra)}")
    out = {"type": kind}
    for name, want in fields.items():
        if name not in e and want == "num=0":
            e = dict(e, **{name: 0.0})
        if name not in e:
            raise ValueError(f"{path}.{name}: missing")
        v = e[name]
        if want in ("num", "num=0") and not is_finite(v):
            raise ValueError(f"{path}.{name}: expected a finite number")
        if want == "int" and not is_count(v):
            raise ValueError(f"{path}.{name}: expected an integer >= 0")
        if want == "nums":
            if not isinstance(v, list) or not v:
                raise ValueError(f"{path}.{name}: expected a non-empty list of numbers")
            for i, x in enumerate(v):
                if not is_finite(x):
                    raise ValueError(f"{path}.{name}[{i}]: expected a finite number")
        if want == "counts":
            if not isinstance(v, list):
                if not is_count(v):
                    raise ValueError(
                        f"{path}.{name}: expected an integer >= 0 or a non-empty list of them")
                v = [v]
            if not v:
                raise ValueError(f"{path}.{name}: expected a non-empty list of integers")
            for i, x in enumerate(v):
                if not is_count(x):
                    raise ValueError(f"{path}.{name}[{i}]: expected an integer >= 0")
        if want == "shape" and v != "inf" and not is_finite(v):
            raise ValueError(f"{path}.{name}: expected a finite number or \"inf\"")
        if want == "event":
            v = check_event(v, f"{path}.{name}", depth + 1)
        if want == "events":
            if not isinstance(v, list):
                raise ValueError(f"{path}.{name}: expected a list")
            v = [check_event(x, f"{path}.{name}[{i}]", depth + 1) for i, x in enumerate(v)]
        out[name] = v
    if kind == "RandomAllocation":
        if out["num_selected"] < 1:
            raise ValueError(f"{path}.num_selected: expected an integer >= 1")
        if out["num_steps"] < out["num_selected"]:
            raise ValueError(f"{path}.num_steps: expected an integer >= num_selected")
    return out


def document(doc):
    """(relation, event) of an event document, validated (the event as `check_event` returns
    it). Keys other than `version`, `neighbouring` and `event` are refused."""
    if not isinstance(doc, dict):
        raise ValueError("an event document is a JSON object")
    if doc.get("version") != 1:
        raise ValueError("`version` must be 1")
    if doc.get("neighbouring") not in RELATIONS:
        raise ValueError(f"`neighbouring` must be one of {RELATIONS}")
    extra = set(doc) - {"version", "neighbouring", "event"}
    if extra:
        raise ValueError(f"unknown field(s) {sorted(extra)}")
    return doc["neighbouring"], check_event(doc.get("event"))


def with_noise_multiplier(event, sigma):
    """A copy of a validated bare event with `sigma` as the noise multiplier of every Gaussian
    in it (what a calibration's answer is put into; other mechanisms are kept)."""
    if event["type"] == "Gaussian":
        return dict(event, noise_multiplier=sigma)
    out = dict(event)
    if "event" in out:
        out["event"] = with_noise_multiplier(out["event"], sigma)
    if "events" in out:
        out["events"] = [with_noise_multiplier(e, sigma) for e in out["events"]]
    return out


def value(v, name):
    """The delta or epsilon a query is asked at, as a float (not NaN; +inf allowed)."""
    if not is_number(v) or math.isnan(v):
        raise ValueError(f"`{name}` must be a number")
    return float(v)


def parse(line):
    """(document, query, value) of one protocol line: the document without `id`, `delta`,
    `epsilon`, `calibrate` and `settings` (validated), the query "epsilon" (asked at delta =
    value), "delta", or "noise_multiplier" (a calibration: value is (epsilon, delta)).
    `settings(line)` reads the settings."""
    doc = json.loads(line)
    if not isinstance(doc, dict):
        raise ValueError("a JSON object per line")
    if doc.get("version") != 1:
        raise ValueError("`version` must be 1")
    if doc.get("neighbouring") not in RELATIONS:
        raise ValueError(f"`neighbouring` must be one of {RELATIONS}")
    extra = set(doc) - {"version", "neighbouring", "event", "id", "delta", "epsilon", "settings",
                        "calibrate"}
    if extra:
        raise ValueError(f"unknown field(s) {sorted(extra)}")
    asks = [k for k in ("delta", "epsilon") if k in doc]
    if "calibrate" in doc:
        if doc["calibrate"] != CALIBRATE:
            raise ValueError(f"`calibrate` must be {CALIBRATE!r}")
        if len(asks) != 2:
            raise ValueError("a calibration needs `epsilon` and `delta`")
        query, at = CALIBRATE, (value(doc["epsilon"], "epsilon"), value(doc["delta"], "delta"))
    else:
        if len(asks) != 1:
            raise ValueError("exactly one of `delta` and `epsilon`")
        at = value(doc[asks[0]], asks[0])
        query = "epsilon" if asks[0] == "delta" else "delta"
    relation, event = document({k: doc.get(k) for k in ("version", "neighbouring", "event")})
    return {"version": 1, "neighbouring": relation, "event": event}, query, at


def settings(line):
    """The `settings` of a protocol line (a dict, {} when it has none): the accountant's
    settings for that query, among those its `supports["settings"]` declares."""
    doc = json.loads(line)
    s = doc.get("settings", {}) if isinstance(doc, dict) else {}
    if not isinstance(s, dict):
        raise ValueError("`settings` must be a JSON object")
    return s


def number(x):
    """The JSON of an answer: +inf as null; NaN is passed on as it is (the caller sees it)."""
    x = float(x)
    return None if x == math.inf else x


def configured(accountant, settings):
    """The accountant under `settings` (a dict): `accountant.configured(settings)`, or the
    accountant itself for no settings; Unsupported when it has no `configured`."""
    if not settings:
        return accountant
    method = getattr(accountant, "configured", None)
    if not callable(method):
        raise Unsupported(f"{type(accountant).__name__} takes no settings")
    return method(dict(settings))


def answer(accountant, doc, query, at, settings=None):
    """The accountant's answer to one query: `accountant.epsilon(doc, at)`,
    `accountant.delta(doc, at)` or, for a calibration, `accountant.noise_multiplier(doc,
    epsilon, delta)` with `at` = (epsilon, delta) (of `configured(accountant, settings)`);
    Unsupported when it has no method for the query."""
    accountant = configured(accountant, settings)
    known = query in QUERIES or query == CALIBRATE
    method = getattr(accountant, query, None) if known else None
    if not callable(method):
        raise Unsupported(f"{type(accountant).__name__} does not answer {query} queries")
    if query == CALIBRATE:
        return method(doc, *at)
    return method(doc, at)


def query_id(line):
    """The `id` of a protocol line (a non-negative integer), or None when it has none or the
    line is not a JSON object: an answer carries its query's id, even the error answer to a
    line that does not parse."""
    try:
        v = json.loads(line)
    except ValueError:
        return None
    i = v.get("id") if isinstance(v, dict) else None
    return i if isinstance(i, int) and not isinstance(i, bool) and i >= 0 else None


def serve(accountant, argv=None, stdin=None, stdout=None, stderr=None):
    """Runs the line protocol for `accountant` (an object with the interface above) on
    stdin/stdout until end of input: one answer line per query, carrying its `id`; the
    traceback of an exception goes to stderr before the error answer. With `--supports` in
    argv (default sys.argv[1:]) prints the JSON of `accountant.supports` instead."""
    argv = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if "--supports" in argv:
        stdout.write(json.dumps(getattr(accountant, "supports", None)) + "\n")
        stdout.flush()
        return
    for line in stdin:
        if not line.strip():
            continue
        key = "epsilon"
        try:
            doc, key, at = parse(line)
            reply = {key: number(answer(accountant, doc, key, at, settings(line)))}
        except NotImplementedError as e:
            reply = {"error": refusal(e)}
        except Exception as e:  # any failure of one query is that query's error, never a crash
            traceback.print_exc(file=stderr)
            stderr.flush()
            reply = {"error": f"{type(e).__name__}: {e}"}
        i = query_id(line)
        if i is not None:
            reply = {"id": i, **reply}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
