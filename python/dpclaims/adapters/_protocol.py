"""The line protocol of `dpclaims conformance`, shared by the adapters (stdlib only).

Each stdin line is an event document (docs/accounting.md, "Events") with an `id` and `delta`
(asking for epsilon) or `epsilon` (asking for delta). The answer is one line: {"epsilon": x} /
{"delta": x} (null for +infinity) or {"error": "..."}. The event is checked against the
format's whitelist of types and fields here; no name from the input is ever imported.
"""
import json
import math
import sys

# type -> {field: kind}; kinds: "num" (a number), "int" (an integer), "event", "events".
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
}
RELATIONS = ("add-remove", "replace-one")
MAX_DEPTH = 32


class Unsupported(Exception):
    """An event (or query) the accountant does not cover: answered {"error": "unsupported: ..."}."""


def check_event(e, path="event", depth=0):
    """Validates one event (a dict) in place; returns it with `parameter` read as
    `noise_multiplier` for Laplace. Raises ValueError naming the JSON path."""
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
        if name not in e:
            raise ValueError(f"{path}.{name}: missing")
        v = e[name]
        if want == "num" and not (isinstance(v, (int, float)) and not isinstance(v, bool)
                                  and math.isfinite(v)):
            raise ValueError(f"{path}.{name}: expected a finite number")
        if want == "int" and not (isinstance(v, int) and not isinstance(v, bool) and v >= 0):
            raise ValueError(f"{path}.{name}: expected an integer >= 0")
        if want == "event":
            v = check_event(v, f"{path}.{name}", depth + 1)
        if want == "events":
            if not isinstance(v, list):
                raise ValueError(f"{path}.{name}: expected a list")
            v = [check_event(x, f"{path}.{name}[{i}]", depth + 1) for i, x in enumerate(v)]
        out[name] = v
    return out


def parse(line):
    """(relation, event, query, value): query is "epsilon" (asked at delta = value) or "delta"."""
    doc = json.loads(line)
    if not isinstance(doc, dict):
        raise ValueError("a JSON object per line")
    if doc.get("version") != 1:
        raise ValueError("`version` must be 1")
    if doc.get("neighbouring") not in RELATIONS:
        raise ValueError(f"`neighbouring` must be one of {RELATIONS}")
    asks = [k for k in ("delta", "epsilon") if k in doc]
    if len(asks) != 1:
        raise ValueError("exactly one of `delta` and `epsilon`")
    value = doc[asks[0]]
    if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value):
        raise ValueError(f"`{asks[0]}` must be a number")
    extra = set(doc) - {"version", "neighbouring", "event", "id", "delta", "epsilon"}
    if extra:
        raise ValueError(f"unknown field(s) {sorted(extra)}")
    query = "epsilon" if asks[0] == "delta" else "delta"
    return doc["neighbouring"], check_event(doc.get("event")), query, float(value)


def number(x):
    """The JSON of an answer: +inf as null; NaN is passed on as it is (the caller sees it)."""
    x = float(x)
    return None if x == math.inf else x


def serve(answer, supported):
    """Runs the protocol on stdin/stdout. `answer(relation, event, query, value)` returns a
    float or raises; `supported` is the list printed for `--supports`."""
    if "--supports" in sys.argv[1:]:
        print(json.dumps(supported))
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        key = "epsilon"
        try:
            relation, event, key, value = parse(line)
            reply = {key: number(answer(relation, event, key, value))}
        except Unsupported as e:
            reply = {"error": f"unsupported: {e}"}
        except Exception as e:  # any failure of one query is that query's error, never a crash
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
