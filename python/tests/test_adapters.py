"""Tests of dpclaims.adapters and dpclaims.events.

Everything except the tests marked by `pytest.importorskip` runs without any accountant library
installed: the protocol's validation, `serve` on a toy accountant (in process and through a
subprocess), the ImportError of an adapter whose library is missing, and `from_dp_event` on
look-alike classes named as dp_accounting's.
"""
import importlib
import importlib.util
import io
import json
import math
import os
import subprocess
import sys
import textwrap

import pytest

import dpclaims
from dpclaims import events
from dpclaims.adapters import _protocol

# The directory holding the `dpclaims` package, for the subprocesses.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(dpclaims.__file__)))


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, e.get("PYTHONPATH")) if p)
    return e


def doc(event, neighbouring="add-remove"):
    return {"version": 1, "neighbouring": neighbouring, "event": event}


def gaussian(s=1.0):
    return {"type": "Gaussian", "noise_multiplier": s}


# --- _protocol: validation ----------------------------------------------------------------


def test_document_returns_relation_and_validated_event():
    e = {"type": "SelfComposed", "count": 3,
         "event": {"type": "PoissonSampled", "sampling_probability": 0.1, "event": gaussian()}}
    relation, event = _protocol.document(doc(e, "replace-one"))
    assert relation == "replace-one"
    assert event == e


def test_laplace_parameter_is_a_synonym():
    _, event = _protocol.document(doc({"type": "Laplace", "parameter": 2}))
    assert event == {"type": "Laplace", "noise_multiplier": 2}


@pytest.mark.parametrize("event, path", [
    ({"type": "Gaussian", "noise_multiplier": "1"}, "event.noise_multiplier"),
    ({"type": "Gaussian", "noise_multiplier": True}, "event.noise_multiplier"),
    ({"type": "Gaussian", "noise_multiplier": math.nan}, "event.noise_multiplier"),
    ({"type": "Gaussian"}, "event.noise_multiplier: missing"),
    ({"type": "Gaussian", "noise_multiplier": 1, "sensitivity": 2}, "event: unknown field"),
    ({"type": "SelfComposed", "event": gaussian(), "count": -1}, "event.count"),
    ({"type": "SelfComposed", "event": gaussian(), "count": 2.0}, "event.count"),
    ({"type": "Composed", "events": gaussian()}, "event.events: expected a list"),
    ({"type": "Composed", "events": [gaussian(), {"type": "PoissonSampled",
                                                  "sampling_probability": "x",
                                                  "event": gaussian()}]},
     "event.events[1].sampling_probability"),
    ({"type": "Composed", "events": [{"type": "SelfComposed", "count": 1,
                                      "event": {"noise_multiplier": 1}}]},
     "event.events[0].event: expected an object with a string `type`"),
    ("Gaussian", "event: expected an object"),
])
def test_bad_field_is_a_value_error_naming_the_path(event, path):
    with pytest.raises(ValueError) as err:
        _protocol.document(doc(event))
    assert path in str(err.value)


def test_nesting_is_bounded():
    e = gaussian()
    for _ in range(_protocol.MAX_DEPTH + 1):
        e = {"type": "SelfComposed", "event": e, "count": 1}
    with pytest.raises(ValueError, match="nested more than"):
        _protocol.document(doc(e))


def test_unknown_type_is_not_implemented_with_its_path():
    e = {"type": "Composed", "events": [gaussian(), {"type": "BallsInBins"}]}
    with pytest.raises(NotImplementedError,
                       match=r"event\.events\[1\]: unknown event type 'BallsInBins'"):
        _protocol.document(doc(e))


def test_random_allocation_is_validated_as_dpclaims_does():
    # dp_accounting PR #414's fields (not in its 0.6.0 release); k >= 1 and t >= k, as the
    # Rust event format.
    ra = {"type": "RandomAllocation", "event": gaussian(), "num_selected": 2, "num_steps": 10}
    assert _protocol.document(doc(ra))[1] == ra
    for bad, message in [(dict(ra, num_selected=0), r"event\.num_selected: expected an integer >= 1"),
                         (dict(ra, num_steps=1), r"event\.num_steps: expected an integer >= num_selected"),
                         (dict(ra, num_steps=2.5), r"event\.num_steps: expected an integer")]:
        with pytest.raises(ValueError, match=message):
            _protocol.document(doc(bad))
        with pytest.raises(ValueError):
            dpclaims.epsilon(doc(bad), delta=1e-5)


def test_dp_accounting_060_types_with_their_defaults():
    tree = {"type": "SingleEpochTreeAggregation", "noise_multiplier": 2.0, "step_counts": 8}
    ras = {"type": "RepeatAndSelect", "event": gaussian(), "mean": 4, "shape": "inf"}
    e = {"type": "Composed", "events": [{"type": "ZCDp", "rho": 0.5}, tree, ras]}
    _, got = _protocol.document(doc(e))
    assert got["events"][0] == {"type": "ZCDp", "rho": 0.5, "xi": 0.0}
    assert got["events"][1]["step_counts"] == [8]
    assert got["events"][2]["shape"] == "inf"


@pytest.mark.parametrize("bad, message", [
    ({"type": "ZCDp", "rho": "1"}, r"event\.rho: expected a finite number"),
    ({"type": "DiscreteLaplace", "noise_parameter": 1.0, "sensitivity": 1.5},
     r"event\.sensitivity: expected an integer"),
    ({"type": "MixtureOfGaussians", "standard_deviation": 1.0, "sensitivities": [0, "1"],
      "sampling_probs": [0.5, 0.5]}, r"event\.sensitivities\[1\]: expected a finite number"),
    ({"type": "MixtureOfGaussians", "standard_deviation": 1.0, "sensitivities": [],
      "sampling_probs": []}, r"event\.sensitivities: expected a non-empty list"),
    ({"type": "SingleEpochTreeAggregation", "noise_multiplier": 1.0, "step_counts": [3, -1]},
     r"event\.step_counts\[1\]: expected an integer"),
    ({"type": "RepeatAndSelect", "event": gaussian(), "mean": 2, "shape": "Infinity"},
     r"event\.shape: expected a finite number or \"inf\""),
    ({"type": "SampledWithReplacement", "source_dataset_size": 10, "sample_size": 2},
     r"event\.event: missing"),
    ({"type": "TruncatedSubsampledGaussian", "dataset_size": 10, "sampling_probability": 0.1,
      "truncated_batch_size": 2, "noise_multiplier": 1.0, "sensitivity": 1},
     r"event: unknown field"),
])
def test_dp_accounting_060_types_bad_fields(bad, message):
    with pytest.raises(ValueError, match=message):
        _protocol.document(doc(bad))


@pytest.mark.parametrize("bad, message", [
    ({"version": 2, "neighbouring": "add-remove", "event": gaussian()}, "`version` must be 1"),
    ({"version": 1, "neighbouring": "add/remove", "event": gaussian()}, "`neighbouring`"),
    ({"version": 1, "neighbouring": "add-remove", "event": gaussian(), "delta": 1e-5},
     "unknown field"),
    ({"version": 1, "neighbouring": "add-remove", "event": gaussian(), "id": 3}, "unknown field"),
    ([], "JSON object"),
])
def test_bad_document(bad, message):
    with pytest.raises(ValueError, match=message):
        _protocol.document(bad)


def test_parse_strips_id_and_reads_the_query():
    line = json.dumps(dict(doc(gaussian()), id=7, delta=1e-5))
    assert _protocol.parse(line) == (doc(gaussian()), "epsilon", 1e-5)
    line = json.dumps(dict(doc(gaussian()), id=7, epsilon=2))
    assert _protocol.parse(line) == (doc(gaussian()), "delta", 2.0)
    with pytest.raises(ValueError, match="exactly one"):
        _protocol.parse(json.dumps(dict(doc(gaussian()), delta=1e-5, epsilon=1)))
    with pytest.raises(ValueError, match="must be a number"):
        _protocol.parse(json.dumps(dict(doc(gaussian()), delta="1e-5")))
    # A calibration: both epsilon (the target) and delta, answered as (epsilon, delta).
    line = json.dumps(dict(doc(gaussian()), id=7, calibrate="noise_multiplier", epsilon=1.5,
                           delta=1e-5))
    assert _protocol.parse(line) == (doc(gaussian()), "noise_multiplier", (1.5, 1e-5))
    with pytest.raises(ValueError, match="needs `epsilon` and `delta`"):
        _protocol.parse(json.dumps(dict(doc(gaussian()), calibrate="noise_multiplier",
                                        epsilon=1.5)))
    with pytest.raises(ValueError, match="`calibrate` must be"):
        _protocol.parse(json.dumps(dict(doc(gaussian()), calibrate="sigma", epsilon=1.5,
                                        delta=1e-5)))


def test_with_noise_multiplier_sets_every_gaussian_and_keeps_the_rest():
    e = {"type": "Composed", "events": [
        {"type": "SelfComposed", "count": 3, "event": {
            "type": "PoissonSampled", "sampling_probability": 0.1, "event": gaussian(1.0)}},
        {"type": "Laplace", "noise_multiplier": 2.0}, gaussian(5.0)]}
    got = _protocol.with_noise_multiplier(e, 0.7)
    assert got["events"][0]["event"]["event"] == gaussian(0.7)
    assert got["events"][1] == {"type": "Laplace", "noise_multiplier": 2.0}
    assert got["events"][2] == gaussian(0.7)
    assert e["events"][2] == gaussian(5.0)  # the input is not changed


# --- _protocol.serve on a toy accountant ---------------------------------------------------

TOY = '''
from dpclaims.adapters._protocol import UnsupportedCombination, document, serve


class Toy:
    """epsilon = sigma + delta for Gaussian; no delta queries."""

    supports = {"events": ["Gaussian", "NoOp"], "relations": ["add-remove"],
                "queries": ["epsilon"]}

    def epsilon(self, event, delta):
        relation, e = document(event)
        if relation != "add-remove":
            raise NotImplementedError("add-remove only")
        if e["type"] == "NoOp":
            return float("inf")
        if e["type"] == "Composed":
            raise RuntimeError("boom")
        if e["type"] != "Gaussian":
            raise NotImplementedError(e["type"])
        if delta > 0.9:
            raise UnsupportedCombination("Gaussian at a large delta")
        return e["noise_multiplier"] + delta

    def noise_multiplier(self, event, epsilon, delta):
        return epsilon - delta


if __name__ == "__main__":
    serve(Toy())
'''

# (query line, expected answer)
TOY_LINES = [
    (dict(doc(gaussian(1.0)), id=0, delta=0.5), {"epsilon": 1.5}),
    (dict(doc({"type": "NoOp"}), id=1, delta=0.5), {"epsilon": None}),
    (dict(doc(gaussian(1.0), "replace-one"), id=2, delta=0.5),
     {"error": "unsupported: add-remove only"}),
    (dict(doc({"type": "Laplace", "noise_multiplier": 1}), id=3, delta=0.5),
     {"error": "unsupported: Laplace"}),
    (dict(doc({"type": "Composed", "events": []}), id=4, delta=0.5),
     {"error": "RuntimeError: boom"}),
    (dict(doc(gaussian(1.0)), id=5, epsilon=1.0),
     {"error": "unsupported: Toy does not answer delta queries"}),
    (dict(doc({"type": "Gaussian", "noise_multiplier": "1"}), id=6, delta=0.5),
     {"error": "ValueError: event.noise_multiplier: expected a finite number"}),
    (dict(doc({"type": "Mystery"}), id=7, delta=0.5),
     {"error": "unsupported: event: unknown event type 'Mystery'"}),
    ("{not json", None),
    (dict(doc(gaussian(2.0)), id=9, delta=0.25), {"epsilon": 2.25}),
    (dict(doc(gaussian(2.0)), id=10, delta=0.95),
     {"error": "unsupported: combination: Gaussian at a large delta"}),
    (dict(doc(gaussian(2.0)), delta=0.25), {"epsilon": 2.25}),  # no id: none in the answer
    (dict(doc(gaussian(2.0)), id=12, calibrate="noise_multiplier", epsilon=2.5, delta=0.25),
     {"noise_multiplier": 2.25}),
]


def toy_input():
    lines = [q if isinstance(q, str) else json.dumps(q) for q, _ in TOY_LINES]
    return "\n".join(lines[:5] + [""] + lines[5:]) + "\n"  # a blank line is skipped


def check_toy_answers(out, err):
    """Each answer carries its query's id; the RuntimeError's traceback is on stderr."""
    answers = [json.loads(x) for x in out.splitlines()]
    assert len(answers) == len(TOY_LINES)
    for (query, want), got in zip(TOY_LINES, answers):
        if want is None:
            assert got["error"].startswith("JSONDecodeError: ") and "id" not in got
        else:
            want = dict(want, id=query["id"]) if "id" in query else want
            assert got == want, query
    assert "Traceback (most recent call last):" in err and "RuntimeError: boom" in err


@pytest.fixture
def toy(tmp_path):
    path = tmp_path / "toy_accountant.py"
    path.write_text(TOY)
    return path


def test_serve_toy_through_a_subprocess(toy):
    run = subprocess.run([sys.executable, str(toy)], input=toy_input(), capture_output=True,
                         text=True, env=env(), timeout=60)
    assert run.returncode == 0, run.stderr
    check_toy_answers(run.stdout, run.stderr)


def test_serve_supports_through_a_subprocess(toy):
    run = subprocess.run([sys.executable, str(toy), "--supports"], input="", capture_output=True,
                         text=True, env=env(), timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"events": ["Gaussian", "NoOp"],
                                      "relations": ["add-remove"], "queries": ["epsilon"]}


def test_serve_in_process(toy):
    namespace = {"__name__": "toy_accountant"}
    exec(compile(TOY, str(toy), "exec"), namespace)  # the toy module, not as __main__
    out, err = io.StringIO(), io.StringIO()
    _protocol.serve(namespace["Toy"](), argv=[], stdin=io.StringIO(toy_input()), stdout=out,
                    stderr=err)
    check_toy_answers(out.getvalue(), err.getvalue())


def test_query_id_and_refusal():
    assert _protocol.query_id('{"id": 3, "delta": NaN}') == 3
    for line in ("{not json", "[1]", '{"id": "3"}', '{"id": -1}', '{"id": true}', "{}"):
        assert _protocol.query_id(line) is None, line
    assert _protocol.refusal(NotImplementedError("x")) == "unsupported: x"
    assert _protocol.refusal(_protocol.Unsupported("x")) == "unsupported: x"
    assert (_protocol.refusal(_protocol.UnsupportedCombination("x"))
            == "unsupported: combination: x")


# --- ImportError when the library is missing -----------------------------------------------

ADAPTERS = [  # (module, the library's import name, the pip command in the message)
    ("dp_accounting", "dp_accounting", "pip install dp-accounting"),
    ("opacus", "opacus", "pip install --no-deps opacus"),
    ("prv_accountant", "prv_accountant", "pip install prv-accountant"),
    ("autodp", "autodp", "pip install autodp"),
    ("jax_privacy", "jax_privacy", "pip install jax-privacy"),
    ("opake", "opake", "pip install opake-accounting"),
    ("pld_accounting", "PLD_accounting", "pip install PLD_accounting"),
]


@pytest.mark.parametrize("module, library, pip", ADAPTERS)
def test_import_error_names_the_package_when_blocked(monkeypatch, module, library, pip):
    monkeypatch.setitem(sys.modules, library, None)  # as if not installed
    monkeypatch.delitem(sys.modules, f"dpclaims.adapters.{module}", raising=False)
    with pytest.raises(ImportError, match=pip):
        importlib.import_module(f"dpclaims.adapters.{module}")


@pytest.mark.parametrize("module, library, pip", ADAPTERS)
def test_import_error_names_the_package_when_missing(module, library, pip):
    if importlib.util.find_spec(library) is not None:
        pytest.skip(f"{library} is installed")
    run = subprocess.run([sys.executable, "-c", f"import dpclaims.adapters.{module}"],
                         capture_output=True, text=True, env=env(), timeout=60)
    assert run.returncode != 0
    assert "ImportError" in run.stderr and pip in run.stderr


def test_the_package_imports_nothing_heavy():
    code = ("import sys, dpclaims.adapters, dpclaims.events; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dp_accounting', 'opacus', 'prv_accountant', 'autodp', 'jax', "
            "'jax_privacy', 'opake', 'numpy', 'scipy')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env(), timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


# --- events.from_dp_event on look-alike classes ---------------------------------------------


class DpEvent:
    pass


class NoOpDpEvent(DpEvent):
    pass


class NonPrivateDpEvent(DpEvent):
    pass


class UnsupportedDpEvent(DpEvent):
    pass


class GaussianDpEvent(DpEvent):
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


class LaplaceDpEvent(DpEvent):
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


class RandomizedResponseDpEvent(DpEvent):
    def __init__(self, noise_parameter, num_buckets):
        self.noise_parameter, self.num_buckets = noise_parameter, num_buckets


class PoissonSampledDpEvent(DpEvent):
    def __init__(self, sampling_probability, event):
        self.sampling_probability, self.event = sampling_probability, event


class SampledWithoutReplacementDpEvent(DpEvent):
    def __init__(self, source_dataset_size, sample_size, event):
        self.source_dataset_size, self.sample_size, self.event = (
            source_dataset_size, sample_size, event)


class SelfComposedDpEvent(DpEvent):
    def __init__(self, event, count):
        self.event, self.count = event, count


class ComposedDpEvent(DpEvent):
    def __init__(self, events):
        self.events = events


class ZCDpEvent(DpEvent):
    def __init__(self, rho, xi=0.0):
        self.rho, self.xi = rho, xi


class DiscreteLaplaceDpEvent(DpEvent):
    def __init__(self, noise_parameter, sensitivity):
        self.noise_parameter, self.sensitivity = noise_parameter, sensitivity


class MixtureOfGaussiansDpEvent(DpEvent):
    def __init__(self, standard_deviation, sensitivities, sampling_probs):
        self.standard_deviation, self.sensitivities, self.sampling_probs = (
            standard_deviation, sensitivities, sampling_probs)


class TruncatedSubsampledGaussianDpEvent(DpEvent):
    def __init__(self, dataset_size, sampling_probability, truncated_batch_size,
                 noise_multiplier):
        self.dataset_size, self.sampling_probability = dataset_size, sampling_probability
        self.truncated_batch_size, self.noise_multiplier = truncated_batch_size, noise_multiplier


class SampledWithReplacementDpEvent(DpEvent):
    def __init__(self, source_dataset_size, sample_size, event):
        self.source_dataset_size, self.sample_size, self.event = (
            source_dataset_size, sample_size, event)


class SingleEpochTreeAggregationDpEvent(DpEvent):
    def __init__(self, noise_multiplier, step_counts):
        self.noise_multiplier, self.step_counts = noise_multiplier, step_counts


class RepeatAndSelectDpEvent(DpEvent):
    def __init__(self, event, mean, shape):
        self.event, self.mean, self.shape = event, mean, shape


class RandomAllocationDpEvent(DpEvent):
    def __init__(self, event, num_selected, num_steps):
        self.event, self.num_selected, self.num_steps = event, num_selected, num_steps


def test_from_dp_event_converts_every_class():
    obj = ComposedDpEvent([
        SelfComposedDpEvent(PoissonSampledDpEvent(0.01, GaussianDpEvent(1.1)), 1000),
        NoOpDpEvent(),
        LaplaceDpEvent(2),
        RandomizedResponseDpEvent(0.25, 4),
        SampledWithoutReplacementDpEvent(100, 10, GaussianDpEvent(3.0)),
    ])
    want = {"type": "Composed", "events": [
        {"type": "SelfComposed", "count": 1000,
         "event": {"type": "PoissonSampled", "sampling_probability": 0.01,
                   "event": {"type": "Gaussian", "noise_multiplier": 1.1}}},
        {"type": "NoOp"},
        {"type": "Laplace", "noise_multiplier": 2.0},
        {"type": "RandomizedResponse", "noise_parameter": 0.25, "num_buckets": 4},
        {"type": "SampledWithoutReplacement", "source_dataset_size": 100, "sample_size": 10,
         "event": {"type": "Gaussian", "noise_multiplier": 3.0}},
    ]}
    got = events.from_dp_event(obj)
    assert got == want
    assert _protocol.check_event(got) == want  # a valid event of the format
    assert json.loads(json.dumps(got)) == want


def test_from_dp_event_converts_dp_accounting_060_classes():
    g = GaussianDpEvent(1.0)
    obj = ComposedDpEvent([
        ZCDpEvent(0.5), ZCDpEvent(0.25, 0.1),
        DiscreteLaplaceDpEvent(0.7, 3),
        MixtureOfGaussiansDpEvent(2.0, (0.0, 1.0), [0.9, 0.1]),
        TruncatedSubsampledGaussianDpEvent(60000, 0.01, 700, 1.1),
        SampledWithReplacementDpEvent(1000, 10, g),
        SingleEpochTreeAggregationDpEvent(4.0, 100),
        SingleEpochTreeAggregationDpEvent(4.0, [100, 37]),
        RepeatAndSelectDpEvent(g, 10, math.inf),
        RepeatAndSelectDpEvent(g, 3.0, 1),
    ])
    gd = {"type": "Gaussian", "noise_multiplier": 1.0}
    want = {"type": "Composed", "events": [
        {"type": "ZCDp", "rho": 0.5, "xi": 0.0}, {"type": "ZCDp", "rho": 0.25, "xi": 0.1},
        {"type": "DiscreteLaplace", "noise_parameter": 0.7, "sensitivity": 3},
        {"type": "MixtureOfGaussians", "standard_deviation": 2.0, "sensitivities": [0.0, 1.0],
         "sampling_probs": [0.9, 0.1]},
        {"type": "TruncatedSubsampledGaussian", "dataset_size": 60000,
         "sampling_probability": 0.01, "truncated_batch_size": 700, "noise_multiplier": 1.1},
        {"type": "SampledWithReplacement", "source_dataset_size": 1000, "sample_size": 10,
         "event": gd},
        {"type": "SingleEpochTreeAggregation", "noise_multiplier": 4.0, "step_counts": [100]},
        {"type": "SingleEpochTreeAggregation", "noise_multiplier": 4.0,
         "step_counts": [100, 37]},
        {"type": "RepeatAndSelect", "event": gd, "mean": 10.0, "shape": "inf"},
        {"type": "RepeatAndSelect", "event": gd, "mean": 3.0, "shape": 1.0},
    ]}
    got = events.from_dp_event(obj)
    assert got == want
    assert _protocol.check_event(got) == want
    assert json.loads(json.dumps(got)) == want  # "inf" keeps the document JSON


@pytest.mark.parametrize("obj, path", [
    (MixtureOfGaussiansDpEvent(1.0, [0.0, "1"], [0.5, 0.5]),
     r"event\.sensitivities\[1\]: expected a finite number"),
    (MixtureOfGaussiansDpEvent(1.0, "01", [0.5, 0.5]), r"event\.sensitivities: expected a non-empty"),
    (SingleEpochTreeAggregationDpEvent(1.0, [4, 2.5]), r"event\.step_counts\[1\]: expected an integer"),
    (SingleEpochTreeAggregationDpEvent(1.0, []), r"event\.step_counts: expected a non-empty"),
    (RepeatAndSelectDpEvent(NoOpDpEvent(), 2.0, -math.inf), r"event\.shape: expected a finite"),
    (DiscreteLaplaceDpEvent(1.0, True), r"event\.sensitivity: expected an integer"),
])
def test_from_dp_event_060_bad_fields(obj, path):
    with pytest.raises(ValueError, match=f"^{path}"):
        events.from_dp_event(obj)


def test_from_dp_event_unknown_class_names_path_and_class():
    obj = ComposedDpEvent([NoOpDpEvent(), GaussianDpEvent(1.0),
                           RandomAllocationDpEvent(GaussianDpEvent(1.0), 1, 10)])
    with pytest.raises(ValueError, match=r"^event\.events\[2\]: RandomAllocationDpEvent "):
        events.from_dp_event(obj)


def test_from_dp_event_nested_path():
    obj = SelfComposedDpEvent(ComposedDpEvent([NoOpDpEvent(), PoissonSampledDpEvent(
        0.1, "Gaussian")]), 3)
    with pytest.raises(ValueError, match=r"^event\.event\.events\[1\]\.event: str "):
        events.from_dp_event(obj)


@pytest.mark.parametrize("cls, why", [(NonPrivateDpEvent, "non-private"),
                                       (UnsupportedDpEvent, "without a DP description")])
def test_from_dp_event_refuses_non_private_and_unsupported(cls, why):
    with pytest.raises(ValueError, match=f"^event.events\\[0\\]: {cls.__name__} .*{why}"):
        events.from_dp_event(ComposedDpEvent([cls()]))


@pytest.mark.parametrize("obj, path", [
    (GaussianDpEvent("1.0"), "event.noise_multiplier: expected a finite number"),
    (GaussianDpEvent(True), "event.noise_multiplier: expected a finite number"),
    (GaussianDpEvent(math.inf), "event.noise_multiplier: expected a finite number"),
    (SelfComposedDpEvent(NoOpDpEvent(), 2.5), "event.count: expected an integer"),
    (SelfComposedDpEvent(NoOpDpEvent(), -1), "event.count: expected an integer"),
    (ComposedDpEvent("abc"), "event.events: expected a list"),
    (ComposedDpEvent(NoOpDpEvent()), "event.events: expected a list"),
])
def test_from_dp_event_bad_fields(obj, path):
    with pytest.raises(ValueError, match=f"^{path}"):
        events.from_dp_event(obj)


def test_from_dp_event_missing_attribute():
    obj = GaussianDpEvent(1.0)
    del obj.noise_multiplier
    with pytest.raises(ValueError, match="event.noise_multiplier: GaussianDpEvent has no attribute"):
        events.from_dp_event(obj)


def test_from_dp_event_is_bounded_in_depth():
    obj = NoOpDpEvent()
    for _ in range(_protocol.MAX_DEPTH + 1):
        obj = SelfComposedDpEvent(obj, 1)
    with pytest.raises(ValueError, match="nested more than"):
        events.from_dp_event(obj)


def test_is_dp_event():
    assert events.is_dp_event(GaussianDpEvent(1.0))
    assert events.is_dp_event(ZCDpEvent(1.0))  # derives from a class named DpEvent
    assert events.is_dp_event(NonPrivateDpEvent())
    assert not events.is_dp_event({"type": "Gaussian", "noise_multiplier": 1.0})
    assert not events.is_dp_event(1.0)


# --- the real libraries (skipped when not installed) ----------------------------------------

EPS_DOC = doc(gaussian(1.0))
REPLACE_DOC = doc(gaussian(1.0), "replace-one")


def test_dp_accounting_accountants():
    pytest.importorskip("dp_accounting")
    from dpclaims.adapters import dp_accounting as adapter

    rdp, pld = adapter.RdpAccountant(), adapter.PldAccountant()
    assert rdp.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.7285, abs=1e-4)
    # Its RDP accountant takes the replace-one sensitivity as C, its PLD accountant as 2C.
    assert rdp.epsilon(REPLACE_DOC, 1e-5) == pytest.approx(4.7285, abs=1e-4)
    assert pld.epsilon(REPLACE_DOC, 1e-5) == pytest.approx(9.9973, abs=1e-4)
    d = pld.delta(EPS_DOC, 4.0)
    assert 0 < d < 1e-3
    with pytest.raises(NotImplementedError):
        pld.epsilon(doc({"type": "EpsilonDelta", "epsilon": 1, "delta": 0}), 1e-5)
    with pytest.raises(NotImplementedError, match="refuses"):  # randomized response: replace-one
        pld.epsilon(doc({"type": "RandomizedResponse", "noise_parameter": 0.5,
                         "num_buckets": 2}), 1e-5)
    with pytest.raises(ValueError, match="event.noise_multiplier"):
        rdp.epsilon(doc({"type": "Gaussian", "noise_multiplier": "x"}), 1e-5)
    sc = doc({"type": "SelfComposed", "event": gaussian(2.0), "count": 10})
    assert adapter.PldAccountant(compose_count=True).epsilon(sc, 1e-5) == pytest.approx(
        pld.epsilon(sc, 1e-5), rel=1e-6)
    # Its own calibration (calibrate_dp_mechanism) inverts its epsilon: back to sigma = 2.
    target = rdp.epsilon(sc, 1e-5)
    assert rdp.noise_multiplier(sc, target, 1e-5) == pytest.approx(2.0, rel=1e-5)


def test_from_dp_event_on_dp_accounting_objects():
    pytest.importorskip("dp_accounting")
    from dp_accounting import dp_event as e

    from dpclaims.adapters.dp_accounting import build

    obj = e.ComposedDpEvent([
        e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(1.1)), 1000),
        e.NoOpDpEvent(), e.LaplaceDpEvent(2.0), e.RandomizedResponseDpEvent(0.25, 4),
        e.SampledWithoutReplacementDpEvent(100, 10, e.GaussianDpEvent(3.0))])
    assert events.is_dp_event(obj)
    assert build(events.from_dp_event(obj)) == obj  # round trip through the adapter's BUILD
    g = e.GaussianDpEvent(1.0)
    newer = e.ComposedDpEvent([
        e.ZCDpEvent(0.5), e.ZCDpEvent(0.25, 0.1), e.DiscreteLaplaceDpEvent(0.7, 3),
        e.MixtureOfGaussiansDpEvent(2.0, [0.0, 1.0], [0.9, 0.1]),
        e.TruncatedSubsampledGaussianDpEvent(60000, 0.01, 700, 1.1),
        e.SampledWithReplacementDpEvent(1000, 10, g),
        e.SingleEpochTreeAggregationDpEvent(4.0, [100, 37]),
        e.RepeatAndSelectDpEvent(g, 10.0, math.inf), e.RepeatAndSelectDpEvent(g, 3.0, 1.0)])
    assert build(events.from_dp_event(newer)) == newer
    with pytest.raises(ValueError, match=r"^event\.events\[1\]: NonPrivateDpEvent"):
        events.from_dp_event(e.ComposedDpEvent([e.NoOpDpEvent(), e.NonPrivateDpEvent()]))


def test_prv_accountant_accountant():
    pytest.importorskip("prv_accountant")
    from dpclaims.adapters.prv_accountant import PrvAccountant

    acc = PrvAccountant()
    assert acc.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.387, abs=0.02)
    assert acc.epsilon(doc({"type": "NoOp"}), 1e-5) == 0.0
    assert 0 < acc.delta(EPS_DOC, 4.0) < 1e-3
    # Every part declared, the combination not covered: a skip, not an error.
    with pytest.raises(_protocol.UnsupportedCombination, match="under replace-one"):
        acc.epsilon(doc({"type": "PoissonSampled", "sampling_probability": 0.1,
                         "event": gaussian()}, "replace-one"), 1e-5)


def test_opacus_accountants():
    pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    if importlib.util.find_spec("opacus") is None:
        pytest.skip("opacus is not installed")
    from dpclaims.adapters import opacus as adapter

    for cls in (adapter.RdpAccountant, adapter.PrvAccountant, adapter.GdpAccountant):
        acc = cls()
        assert not hasattr(acc, "delta")
        assert acc.supports["queries"] == ["epsilon", "noise_multiplier"]
        with pytest.raises(NotImplementedError, match="add-remove only"):
            acc.epsilon(REPLACE_DOC, 1e-5)
        assert acc.epsilon(doc({"type": "NoOp"}), 1e-5) == 0.0
    dp_sgd = doc({"type": "SelfComposed", "count": 100, "event": {
        "type": "PoissonSampled", "sampling_probability": 0.01, "event": gaussian(1.0)}})
    rdp = adapter.RdpAccountant().epsilon(dp_sgd, 1e-5)
    prv = adapter.PrvAccountant().epsilon(dp_sgd, 1e-5)
    assert 0 < prv < rdp
    # Opacus' get_noise_multiplier (by path, no torch) inverts each accountant's epsilon to
    # within its epsilon_tolerance 0.01: back to about sigma = 1, never below.
    for cls, eps in ((adapter.RdpAccountant, rdp), (adapter.PrvAccountant, prv)):
        sigma = cls().noise_multiplier(dp_sgd, eps, 1e-5)
        assert 1.0 <= sigma < 1.05, (cls, sigma)
    assert "opacus" not in sys.modules or hasattr(sys.modules["opacus"], "__file__")
    with pytest.raises(_protocol.UnsupportedCombination, match="one constant"):
        adapter.GdpAccountant().epsilon(doc({"type": "Composed", "events": [
            gaussian(1.0), gaussian(2.0)]}), 1e-5)


def test_python_m_dp_accounting():
    pytest.importorskip("dp_accounting")
    lines = [dict(EPS_DOC, id=0, delta=1e-5),
             dict(doc({"type": "EpsilonDelta", "epsilon": 1, "delta": 0}), id=1, delta=1e-5),
             dict(EPS_DOC, id=2, epsilon=4.0)]
    run = subprocess.run([sys.executable, "-m", "dpclaims.adapters.dp_accounting", "rdp"],
                         input="".join(json.dumps(x) + "\n" for x in lines),
                         capture_output=True, text=True, env=env(), timeout=120)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(x) for x in run.stdout.splitlines()]
    assert answers[0]["epsilon"] == pytest.approx(4.7285, abs=1e-4)
    assert answers[1]["error"].startswith("unsupported: EpsilonDelta")
    assert 0 < answers[2]["delta"] < 1e-3
    usage = subprocess.run([sys.executable, "-m", "dpclaims.adapters.dp_accounting"],
                           input="", capture_output=True, text=True, env=env(), timeout=60)
    assert usage.returncode == 1 and "usage:" in usage.stderr


DP_SGD = doc({"type": "SelfComposed", "count": 1000, "event": {
    "type": "PoissonSampled", "sampling_probability": 0.01, "event": gaussian(1.0)}})
RR2 = doc({"type": "RandomizedResponse", "noise_parameter": 0.2, "num_buckets": 2},
          "replace-one")


def test_autodp_accountant():
    pytest.importorskip("autodp")
    from dpclaims.adapters.autodp import RdpAccountant

    acc = RdpAccountant()
    # A bare Gaussian: autodp's analytic Gaussian (Balle & Wang 2018), the exact 4.3772.
    assert acc.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.377178, abs=1e-5)
    # Replace-one: sensitivity 2C, the noise multiplier halved.
    assert acc.epsilon(doc(gaussian(2.0), "replace-one"), 1e-5) == pytest.approx(
        acc.epsilon(EPS_DOC, 1e-5), rel=1e-9)
    # Binary randomized response telling the truth with probability 1 - 0.2 / 2 = 0.9: ln 9.
    assert acc.epsilon(RR2, 1e-5) == pytest.approx(math.log(9), abs=1e-3)
    assert acc.epsilon(DP_SGD, 1e-5) == pytest.approx(2.1078, abs=1e-3)
    assert 0 < acc.delta(DP_SGD, 2.0) < 1e-3
    assert acc.epsilon(doc({"type": "Composed", "events": [{"type": "NoOp"}]}), 1e-5) == 0.0
    with pytest.raises(_protocol.UnsupportedCombination, match="buckets"):
        acc.epsilon(doc({"type": "RandomizedResponse", "noise_parameter": 0.2,
                         "num_buckets": 3}, "replace-one"), 1e-5)
    with pytest.raises(_protocol.UnsupportedCombination, match="under replace-one"):
        acc.epsilon(doc({"type": "PoissonSampled", "sampling_probability": 0.1,
                         "event": gaussian()}, "replace-one"), 1e-5)
    with pytest.raises(_protocol.UnsupportedCombination, match="delta > 0"):
        acc.epsilon(doc({"type": "EpsilonDelta", "epsilon": 1, "delta": 1e-6}), 1e-5)


def test_opake_accountant():
    pytest.importorskip("opake.accounting")
    from dpclaims.adapters.opake import PldAccountant

    acc = PldAccountant()
    assert acc.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.377178, abs=1e-4)
    assert acc.epsilon(doc(gaussian(2.0), "replace-one"), 1e-5) == pytest.approx(
        acc.epsilon(EPS_DOC, 1e-5), rel=1e-9)
    assert acc.epsilon(DP_SGD, 1e-5) == pytest.approx(1.8283, abs=1e-3)
    assert 0 < acc.delta(DP_SGD, 1.8) < 1e-4
    assert acc.epsilon(doc({"type": "SelfComposed", "count": 0, "event": gaussian()}),
                       1e-5) == 0.0
    with pytest.raises(_protocol.UnsupportedCombination, match="under replace-one"):
        acc.epsilon(doc({"type": "PoissonSampled", "sampling_probability": 0.1,
                         "event": gaussian()}, "replace-one"), 1e-5)
    with pytest.raises(NotImplementedError, match="RandomizedResponse"):
        acc.epsilon(RR2, 1e-5)
    # Random allocation: Opake's blocks bound (k = 1: exact up to its grid) is at least
    # dpclaims' certified lower end and close to its upper end (measured 1.660642 against
    # dpclaims' [1.656993, 1.657989] at interval 1e-4).
    allocation = {"type": "RandomAllocation", "num_selected": 1, "num_steps": 10,
                  "event": gaussian(1.5)}
    epochs = doc({"type": "SelfComposed", "count": 3, "event": allocation})
    bracket = dpclaims.epsilon(epochs, delta=1e-5)
    assert bracket.optimistic <= acc.epsilon(epochs, 1e-5) <= 1.01 * bracket.pessimistic
    with pytest.raises(_protocol.UnsupportedCombination, match="k_out_of_t"):
        acc.epsilon(doc(allocation, "replace-one"), 1e-5)


def test_pld_accounting_accountant():
    pytest.importorskip("PLD_accounting")
    from dpclaims.adapters.pld_accounting import AllocationAccountant

    acc = AllocationAccountant()
    allocation = {"type": "RandomAllocation", "num_selected": 1, "num_steps": 4,
                  "event": gaussian(1.5)}
    epochs = doc({"type": "SelfComposed", "count": 2, "event": allocation})
    # Its upper bound is at least dpclaims' certified lower end, and near its upper end.
    bracket = dpclaims.epsilon(epochs, delta=1e-5)
    eps = acc.epsilon(epochs, 1e-5)
    assert bracket.optimistic <= eps <= 1.05 * bracket.pessimistic
    assert acc.delta(epochs, eps) == pytest.approx(1e-5, rel=0.05)
    assert acc.epsilon(doc({"type": "Composed", "events": []}), 1e-5) == 0.0
    with pytest.raises(NotImplementedError, match="add-remove only"):
        acc.epsilon(doc(allocation, "replace-one"), 1e-5)
    with pytest.raises(NotImplementedError, match="Gaussian"):
        acc.epsilon(doc({"type": "PoissonSampled", "sampling_probability": 0.1,
                         "event": gaussian()}), 1e-5)


def test_jax_privacy_accountants():
    pytest.importorskip("jax_privacy")
    from dpclaims.adapters import jax_privacy as adapter

    rdp, pld = adapter.RdpAccountant(), adapter.PldAccountant()
    for acc in (rdp, pld):
        assert not hasattr(acc, "delta")
        assert acc.supports["queries"] == ["epsilon"]
    assert pld.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.3772, abs=1e-3)
    assert rdp.epsilon(EPS_DOC, 1e-5) == pytest.approx(4.7284, abs=1e-3)
    assert pld.epsilon(DP_SGD, 1e-5) == pytest.approx(1.8282, abs=1e-3)
    # The rate goes through jax_privacy's batch_size / num_samples bit for bit.
    q = 0.006495199360975142
    assert adapter.stages({"type": "PoissonSampled", "sampling_probability": q,
                           "event": gaussian()}, "add-remove")[0][2] / float(
        adapter.stages({"type": "PoissonSampled", "sampling_probability": q,
                        "event": gaussian()}, "add-remove")[0][1]) == q
    # FIXED_BATCH_SIZE (replace-one, m of n) is Poisson at m / n with the noise halved.
    swor = doc({"type": "SampledWithoutReplacement", "source_dataset_size": 1000,
                "sample_size": 10, "event": gaussian(2.0)}, "replace-one")
    poisson = doc({"type": "PoissonSampled", "sampling_probability": 0.01,
                   "event": gaussian(1.0)})
    assert pld.epsilon(swor, 1e-5) == pytest.approx(pld.epsilon(poisson, 1e-5), rel=1e-9)
    schedule = doc({"type": "Composed", "events": [
        {"type": "SelfComposed", "count": 10, "event": dict(poisson["event"])},
        {"type": "SelfComposed", "count": 5, "event": {
            "type": "PoissonSampled", "sampling_probability": 0.01, "event": gaussian(2.0)}}]})
    assert 0 < pld.epsilon(schedule, 1e-5) < pld.epsilon(
        doc({"type": "SelfComposed", "count": 15, "event": dict(poisson["event"])}), 1e-5)
    with pytest.raises(_protocol.UnsupportedCombination, match="rates"):
        pld.epsilon(doc({"type": "Composed", "events": [poisson["event"], gaussian()]}), 1e-5)
    with pytest.raises(NotImplementedError, match="Laplace"):
        pld.epsilon(doc({"type": "Laplace", "noise_multiplier": 1.0}), 1e-5)
