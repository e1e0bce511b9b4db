"""Tests of the dpclaims package: the accountant calls, the boundary to Rust (errors, panics, the
GIL, Ctrl-C), the in-process conformance suite on toy accountants, its pytest integration, and
the `dpclaims` command of the wheel. No accountant library is needed."""
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import dpclaims
from dpclaims import conformance
from dpclaims.adapters import _protocol

HERE = os.path.dirname(os.path.abspath(__file__))


def gaussian(s=1.0):
    return {"type": "Gaussian", "noise_multiplier": s}


def dp_sgd(q=0.01, sigma=1.0, steps=1000):
    return {"type": "SelfComposed", "count": steps,
            "event": {"type": "PoissonSampled", "sampling_probability": q, "event": gaussian(sigma)}}


def cli():
    """The wheel's `dpclaims` command (beside this interpreter), not some other one on PATH."""
    path = os.path.join(os.path.dirname(sys.executable), "dpclaims")
    assert os.path.exists(path), f"the wheel's console script is missing: {path}"
    return path


# --- epsilon and delta --------------------------------------------------------------------

def test_a_bracket_is_a_certified_interval_and_its_float_is_the_pessimistic_end():
    b = dpclaims.epsilon(dp_sgd(), 1e-5)
    assert b.query == "epsilon" and b.at == 1e-5 and b.neighbouring == "add-remove"
    assert 0 < b.optimistic <= b.pessimistic < b.optimistic * 1.001
    assert float(b) == b.pessimistic
    assert tuple(b) == (b.optimistic, b.pessimistic)
    assert "epsilon in [" in repr(b)
    d = dpclaims.delta(dp_sgd(), float(b))
    assert d.query == "delta" and d.optimistic <= 1e-5 * 1.01 and d.pessimistic >= 1e-5 * 0.99


@pytest.mark.parametrize("query,flag,value", [("epsilon", "--delta", 1e-5), ("delta", "--epsilon", 1.5)])
def test_python_and_the_cli_agree_to_the_bit(tmp_path, query, flag, value):
    event = {"type": "Composed", "events": [dp_sgd(0.02, 1.1, 300), gaussian(20.0)]}
    doc = dpclaims.document(event, "replace-one")
    path = tmp_path / "event.json"
    path.write_text(json.dumps(doc))
    out = subprocess.run([cli(), query, "--event", str(path), flag, repr(value), "--json"],
                         capture_output=True, text=True, check=True).stdout
    from_cli = json.loads(out)
    b = getattr(dpclaims, query)(doc, value)
    assert from_cli[query] == float(b)  # the same double, not a rounding of it
    assert from_cli["bracket"] == [b.optimistic, b.pessimistic]
    assert from_cli["interval"] == b.interval
    mine = json.loads(b.to_json())
    del mine["seconds"], from_cli["seconds"]
    assert mine == from_cli


class GaussianDpEvent:  # named as dp_accounting's: converted by its class name and fields
    def __init__(self, noise_multiplier):
        self.noise_multiplier = noise_multiplier


def test_an_event_as_a_dict_a_document_json_text_or_a_dp_event_gives_the_same_answer():
    bare = gaussian(2.0)
    doc = {"version": 1, "neighbouring": "replace-one", "event": bare}
    answers = {
        float(dpclaims.epsilon(bare, 1e-6, neighbouring="replace-one")),
        float(dpclaims.epsilon(doc, 1e-6)),
        float(dpclaims.epsilon(json.dumps(doc), 1e-6)),
        float(dpclaims.epsilon(GaussianDpEvent(2.0), 1e-6, neighbouring="replace-one")),
    }
    assert len(answers) == 1
    # replace-one doubles the sensitivity: a larger epsilon than add-remove.
    assert answers.pop() > float(dpclaims.epsilon(bare, 1e-6))


@pytest.mark.parametrize("event,path", [
    ({"type": "Gaussian", "sigma": 1.0}, "event.sigma"),
    ({"type": "Gaussian", "noise_multiplier": float("nan")}, "event.noise_multiplier"),
    ({"type": "Composed", "events": [gaussian(), {"type": "Gaussian", "noise_multiplier": -1}]},
     "event.events[1].noise_multiplier"),
    ({"type": "SelfComposed", "count": 1.5, "event": gaussian()}, "event.count"),
])
def test_a_bad_event_is_a_value_error_naming_the_field(event, path):
    with pytest.raises(dpclaims.EventFormatError) as e:
        dpclaims.epsilon(event, 1e-5)
    assert isinstance(e.value, ValueError)
    assert e.value.path == path and path in str(e.value)


class Index:  # an integer of another library (numpy's int64): read through __index__
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


class Real:  # a float of another library (numpy's float32): read through __float__
    def __init__(self, x):
        self.x = x

    def __float__(self):
        return self.x


def test_numbers_of_other_types_are_read_and_bools_are_not_numbers():
    plain = dp_sgd(0.01, 1.0, 1000)
    other = {"type": "SelfComposed", "count": Index(1000),
             "event": {"type": "PoissonSampled", "sampling_probability": Real(0.01),
                       "event": {"type": "Gaussian", "noise_multiplier": Real(1.0)}}}
    assert float(dpclaims.epsilon(other, 1e-5)) == float(dpclaims.epsilon(plain, 1e-5))
    with pytest.raises(dpclaims.EventFormatError) as e:
        dpclaims.epsilon({"type": "Gaussian", "noise_multiplier": True}, 1e-5)
    assert e.value.path == "event.noise_multiplier"
    with pytest.raises(dpclaims.EventFormatError, match="64 bits"):
        dpclaims.epsilon({"type": "SelfComposed", "count": 2**70, "event": gaussian()}, 1e-5)


def test_a_cycle_or_a_deep_nesting_is_an_error_not_a_crash():
    d = gaussian()
    d["x"] = d
    with pytest.raises(dpclaims.EventFormatError, match="nested"):
        dpclaims.epsilon(d, 1e-5)
    deep = gaussian()
    for _ in range(100_000):
        deep = {"type": "SelfComposed", "count": 1, "event": deep}
    with pytest.raises(dpclaims.EventFormatError, match="nested"):
        dpclaims.epsilon(deep, 1e-5)
    row = dict(ROW, epsilon=1.0)
    row["self"] = row
    with pytest.raises(ValueError, match="nested"):
        dpclaims.audit([row])


def test_a_count_near_two_to_the_64_is_answered_or_refused_not_a_panic():
    # Unsampled Gaussian runs compose exactly (one run with sigma / sqrt(T)): a certified
    # bracket, however weak; a count past u64 is a format error; a sampled one, too many
    # compositions for the grid, a parameter error.
    b = dpclaims.epsilon({"type": "SelfComposed", "count": 2**64 - 2, "event": gaussian()}, 1e-5)
    assert 0 < b.optimistic <= b.pessimistic
    with pytest.raises(dpclaims.EventFormatError):
        dpclaims.epsilon({"type": "SelfComposed", "count": 2**64, "event": gaussian()}, 1e-5)
    sampled = {"type": "PoissonSampled", "sampling_probability": 0.5, "event": gaussian()}
    with pytest.raises((dpclaims.ParameterError, dpclaims.EventFormatError)):
        dpclaims.epsilon({"type": "SelfComposed", "count": 2**64 - 1, "event": sampled}, 1e-5)


class NonPrivateDpEvent:  # dp_accounting's name: refused, with the reason
    pass


class FancyDpEvent:  # a DpEvent class dpclaims does not convert: not supported
    pass


class ZCDpEvent:  # converted (dp-accounting 0.6.0's type), but without its fields
    pass


def test_dp_events_that_cannot_be_converted_raise_dpclaims_errors():
    with pytest.raises(dpclaims.UnsupportedEventError) as e:
        dpclaims.epsilon(FancyDpEvent(), 1e-5)
    assert e.value.path == "event" and isinstance(e.value, NotImplementedError)
    with pytest.raises(dpclaims.EventFormatError) as e:
        dpclaims.epsilon(ZCDpEvent(), 1e-5)
    assert e.value.path == "event.rho"
    with pytest.raises(dpclaims.UnsupportedEventError) as e:
        dpclaims.epsilon(FancyDpEvent(), 1e-5)
    assert e.value.path == "event" and isinstance(e.value, NotImplementedError)
    with pytest.raises(dpclaims.UnsupportedEventError):
        dpclaims.epsilon(NonPrivateDpEvent(), 1e-5)
    with pytest.raises(dpclaims.EventFormatError) as e:
        dpclaims.epsilon(GaussianDpEvent("one"), 1e-5)
    assert e.value.path == "event.noise_multiplier"


def test_a_document_gets_its_relation_from_the_keyword_when_it_has_none():
    doc = {"version": 1, "event": gaussian()}
    assert dpclaims.document(doc, "replace-one")["neighbouring"] == "replace-one"
    with pytest.raises(dpclaims.EventFormatError):  # no relation at all: the format's error
        dpclaims.epsilon(doc, 1e-5)


def test_errors_cross_the_boundary_as_python_exceptions():
    with pytest.raises(dpclaims.EventFormatError, match="not valid JSON") as e:
        dpclaims.epsilon("{nope", 1e-5)
    assert e.value.path == ""
    with pytest.raises(TypeError):
        dpclaims.epsilon([1, 2], 1e-5)
    with pytest.raises(ValueError, match="contradicts"):
        dpclaims.epsilon({"version": 1, "neighbouring": "add-remove", "event": gaussian()}, 1e-5,
                         neighbouring="replace-one")
    with pytest.raises(dpclaims.ParameterError) as e:
        dpclaims.epsilon(gaussian(), 2.0)
    assert e.value.name == "delta" and isinstance(e.value, ValueError)
    with pytest.raises(dpclaims.ParameterError, match="interval"):
        dpclaims.epsilon(gaussian(), 1e-5, interval=-1.0)
    # Not covered by dpclaims' PLD: a NotImplementedError (a skip for the conformance suite).
    rr = {"type": "PoissonSampled", "sampling_probability": 0.1,
          "event": {"type": "RandomizedResponse", "noise_parameter": 0.1, "num_buckets": 2}}
    with pytest.raises(dpclaims.UnsupportedEventError) as e:
        dpclaims.epsilon(rr, 1e-5)
    assert isinstance(e.value, NotImplementedError) and e.value.path == "event"


def test_a_rust_panic_is_an_exception_and_the_interpreter_goes_on():
    for in_worker in (False, True):
        with pytest.raises(dpclaims.InternalError, match="a test panic"):
            dpclaims._dpclaims._panic(in_worker)
    assert float(dpclaims.epsilon(gaussian(), 1e-5)) > 0


def test_long_computations_release_the_gil():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=count)
    t.start()
    dpclaims._dpclaims._sleep(0.5)
    stop.set()
    t.join()
    assert len(ticks) >= 10, len(ticks)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("call", [
    "dpclaims._dpclaims._sleep(60)",
    # A real computation: a billion-point grid's worth of composition, stopped long before.
    "dpclaims.epsilon({'type': 'SelfComposed', 'count': 100000, 'event': {'type': "
    "'PoissonSampled', 'sampling_probability': 0.5, 'event': {'type': 'Gaussian', "
    "'noise_multiplier': 0.3}}}, 1e-12, interval=1e-7)",
])
def test_ctrl_c_interrupts_a_long_computation(call):
    """Ctrl-C raises KeyboardInterrupt at once, the computation stops (the process uses no CPU
    a second later), and the next call works."""
    code = textwrap.dedent(f"""
        import dpclaims, sys, time
        print('ready', flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            time.sleep(0.5)
            t0 = time.process_time()
            time.sleep(1.0)
            print('cpu', time.process_time() - t0, flush=True)
            print('next', float(dpclaims.epsilon({{'type': 'Gaussian', 'noise_multiplier': 1.0}}, 1e-5)), flush=True)
            raise
    """)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    start = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert time.time() - start < 10
    assert "KeyboardInterrupt" in err, err
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    assert float(lines["cpu"]) < 0.2, out  # cancelled, not running in the background
    assert float(lines["next"]) > 0, out


# --- audit --------------------------------------------------------------------------------

ROW = {"name": "claimed", "sampling": "poisson", "q": 0.01, "sigma": 1.0, "steps": 1000,
       "delta": 1e-5}


def test_audit_judges_rows_as_the_cli_does(tmp_path):
    rows = [dict(ROW, epsilon=1.0), dict(ROW, epsilon=1.9)]
    got = dpclaims.audit(rows, max_steps=100_000)
    assert [a["verdict"] for a in got] == ["unsound", "sound-tight"]
    assert got[0]["lower_reference"] > 1.0 and got[0]["reasons"]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = subprocess.run([cli(), "audit", str(path), "--json", "--max-steps", "100000", "--quiet"],
                         capture_output=True, text=True)
    assert out.returncode == 1  # an unsound row
    from_cli = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(from_cli) == len(got) == 2
    for mine, theirs in zip(got, from_cli):
        for key in ("verdict", "upper_reference", "lower_reference", "monte_carlo"):
            assert mine[key] == theirs[key], key


def test_audit_refuses_a_bad_row_or_option_before_running():
    with pytest.raises(ValueError, match=r"rows\[1\].*sigma"):
        dpclaims.audit([dict(ROW, epsilon=1.0), dict(ROW, epsilon=1.0, sigma="x")])
    with pytest.raises(dpclaims.ParameterError, match="max_steps") as e:
        dpclaims.audit([dict(ROW, epsilon=1.0)], max_steps=5)
    assert e.value.name == "max_steps"
    with pytest.raises(dpclaims.ParameterError) as e:
        dpclaims.audit([dict(ROW, epsilon=1.0)], max_points=-1)
    assert e.value.name == "max_points"
    with pytest.raises(TypeError, match="list of row dicts"):
        dpclaims.audit(dict(ROW, epsilon=1.0))


# --- the conformance suite, in-process ----------------------------------------------------

class Correct:
    """A correct accountant: dpclaims' own certified answer."""

    def epsilon(self, event, delta):
        return float(dpclaims.epsilon(event, delta, interval=1e-3))

    def delta(self, event, epsilon):
        return float(dpclaims.delta(event, epsilon, interval=1e-3))


def _drop_count(event):
    """The event with every SelfComposed count read as 1 (the bug of an accountant that ignores
    it)."""
    if not isinstance(event, dict):
        return event
    out = {k: _drop_count(v) for k, v in event.items()}
    if isinstance(event.get("events"), list):
        out["events"] = [_drop_count(e) for e in event["events"]]
    if event.get("type") == "SelfComposed":
        out["count"] = 1
    return out


class IgnoresCount(Correct):
    def epsilon(self, event, delta):
        return super().epsilon(_drop_count(event), delta)

    def delta(self, event, epsilon):
        return super().delta(_drop_count(event), epsilon)


class Negative(Correct):
    def epsilon(self, event, delta):
        return -abs(super().epsilon(event, delta)) - 0.01


class Raises(Correct):
    def epsilon(self, event, delta):
        raise ZeroDivisionError("the accountant's own bug")


class MinusInfinity(Correct):
    def epsilon(self, event, delta):
        return -math.inf


class AnswersBool(Correct):
    def epsilon(self, event, delta):
        return True


class AnswersHuge(Correct):
    def epsilon(self, event, delta):
        return 10**400


class SupportsNothing:
    def epsilon(self, event, delta):
        raise NotImplementedError("not my kind of event")


ALL_BUT_LAPLACE = {
    "events": ["Composed", "EpsilonDelta", "Gaussian", "NoOp", "PoissonSampled",
               "RandomizedResponse", "SampledWithoutReplacement", "SelfComposed"],
    "relations": ["add-remove", "replace-one"], "queries": ["epsilon", "delta"]}


class DeclaresButRefuses(Correct):
    """Declares every event type but Laplace, then refuses Gaussians under replace-one as a
    plain NotImplementedError (an error within its declaration) and a Gaussian composed with
    a noisier one as a combination (a skip)."""

    supports = ALL_BUT_LAPLACE

    def epsilon(self, event, delta):
        from dpclaims.adapters._protocol import UnsupportedCombination
        text = json.dumps(event)
        if "Laplace" in text:
            raise NotImplementedError("no Laplace")
        if event["event"]["type"] == "Composed" and len({
                json.dumps(e) for e in event["event"]["events"]}) > 1 and "NoOp" not in text:
            raise UnsupportedCombination("Composed of unlike events")
        if event["neighbouring"] == "replace-one" and "Gaussian" in text:
            raise NotImplementedError("replace-one Gaussians")
        return super().epsilon(event, delta)


class Configurable(Correct):
    """Declares a setting (`grid`) and records each draw it is configured with."""

    supports = dict(ALL_BUT_LAPLACE, events=ALL_BUT_LAPLACE["events"] + ["Laplace"],
                    settings={"grid": {"choices": [1e-3, 3e-4]}})
    seen = []

    def __init__(self, grid=None):
        self.grid = grid

    def configured(self, settings):
        Configurable.seen.append(dict(settings))
        return Configurable(settings["grid"])


# The grid of the toy accountants and of the references in these tests (coarser than the
# default 1e-4: every answer of a suite is judged against a reference).
TOY_INTERVAL = 1e-3
SMALL = dict(seed=3, events=3, interval=TOY_INTERVAL)


@pytest.fixture(scope="module")
def correct_run():
    return conformance.run(Correct(), **SMALL)


def test_a_correct_accountant_passes(correct_run):
    c = correct_run.counts()
    assert not correct_run.failed and c.get("finding", 0) == 0 and c.get("broken", 0) == 0
    assert c["pass"] >= 20, c
    assert "property" in correct_run.text and str(correct_run) == correct_run.text


def test_an_accountant_that_ignores_the_count_is_found():
    s = conformance.run(IgnoresCount(), **SMALL)
    assert s.failed
    found = {o.property for o in s.findings()}
    assert found & {"reference", "monotone-count", "self-composition"}, found
    o = s.findings()[0]
    text = o.explain("IgnoresCount()")
    assert "reproduce: IgnoresCount()." in text and str(o.answers[0])[:6] in text


class Calibrates(Correct):
    """Correct, and a calibrator: the least sigma (to 0.1 %, by bisection) whose dpclaims
    epsilon meets the target. `scale` makes it wrong: 0.8 returns a sigma 20 % too small."""

    supports = {"events": ["Composed", "Gaussian", "NoOp", "PoissonSampled", "SelfComposed",
                           "SampledWithoutReplacement"],
                "relations": ["add-remove", "replace-one"],
                "queries": ["epsilon", "delta", "noise_multiplier"]}
    scale = 1.0

    def noise_multiplier(self, event, epsilon, delta):
        relation, e = _protocol.document(event)

        def meets(sigma):
            d = {"version": 1, "neighbouring": relation,
                 "event": _protocol.with_noise_multiplier(e, sigma)}
            return self.epsilon(d, delta) <= epsilon

        lo, hi = 1e-3, 1e3
        while hi / lo > 1.001:
            mid = (lo * hi) ** 0.5
            lo, hi = (lo, mid) if meets(mid) else (mid, hi)
        return self.scale * hi


class UnderCalibrates(Calibrates):
    scale = 0.8


def test_a_calibration_is_asked_and_one_that_under_protects_is_found():
    good = conformance.run(Calibrates(), **SMALL)
    calibrations = [o for o in good.outcomes if o.property == "calibration"]
    assert calibrations and all(o.verdict == "pass" for o in calibrations), calibrations
    bad = conformance.run(UnderCalibrates(), **SMALL)
    found = [o for o in bad.findings() if o.property == "calibration"]
    assert len(found) == len(calibrations), bad.text
    text = found[0].explain("UnderCalibrates()")
    assert "under-protects" in text and "reproduce: UnderCalibrates().noise_multiplier(" in text


def test_a_negative_epsilon_is_found():
    s = conformance.run(Negative(), **SMALL)
    assert any(o.property == "valid" and o.verdict == "finding" for o in s.outcomes)


def test_an_exception_is_an_error_with_its_traceback_and_not_implemented_is_a_skip():
    s = conformance.run(Raises(), **SMALL)
    errors = [o for o in s.outcomes if o.verdict == "error"]
    assert errors and all("ZeroDivisionError" in o.detail for o in errors)
    assert "Traceback" in errors[0].detail
    assert s.failed and all(o.failed for o in errors)
    # Shown in the text and Markdown outputs with the message, and counted in its column.
    assert "errors" in s.text and "ZeroDivisionError: the accountant's own bug" in s.text
    assert "| errors |" in s.markdown and "ZeroDivisionError" in s.markdown
    s = conformance.run(SupportsNothing(), **SMALL)
    assert not s.failed and set(s.counts()) == {"skipped"}
    # A skip is never silent: no declaration, and the skips by reason.
    assert "no declaration (the accountant has no `supports`)" in s.text
    assert "× unsupported: not my kind of event" in s.text


def test_a_refusal_within_the_declaration_is_an_error_and_a_combination_a_skip():
    s = conformance.run(DeclaresButRefuses(), **SMALL)
    by = {}
    for o in s.outcomes:
        for q in o.queries:
            by.setdefault(o.verdict, []).append(q)
    errors = [o for o in s.outcomes if o.verdict == "error"]
    assert errors and all(
        "declared supported, answered unsupported: unsupported: replace-one Gaussians"
        in o.detail for o in errors)
    skipped = {o.detail.splitlines()[0] for o in s.outcomes if o.verdict == "skipped"}
    assert "unsupported: no Laplace" in skipped, skipped
    assert "unsupported: combination: Composed of unlike events" in skipped, skipped
    assert "declared supported: events Composed, EpsilonDelta" in s.text
    with pytest.raises(ValueError, match="supports"):
        class BadDeclaration(Correct):
            supports = {"events": "Gaussian"}
        conformance.run(BadDeclaration(), **SMALL)


def test_minus_infinity_is_invalid_but_not_a_monotonicity_finding():
    s = conformance.run(MinusInfinity(), **SMALL)
    found = {o.property for o in s.findings()}
    assert "valid" in found
    assert not any(p.startswith("monotone") for p in found), found


@pytest.mark.parametrize("toy", [AnswersBool(), AnswersHuge()])
def test_an_answer_that_is_not_a_float_is_broken_and_the_run_goes_on(toy):
    s = conformance.run(toy, **SMALL)
    broken = [o for o in s.outcomes if o.verdict == "broken"]
    assert broken and all("not a" in o.detail for o in broken)
    # Every ε answer is broken; the δ answers (Correct's) pass.
    assert not any(o.verdict == "pass" and o.property == "valid" and '"delta":' in o.queries[0]
                   for o in s.outcomes)


def test_keyboard_interrupt_in_the_accountant_stops_the_run_at_once():
    calls = []

    class Interrupted(Correct):
        def epsilon(self, event, delta):
            calls.append(1)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        conformance.run(Interrupted(), **SMALL)
    assert len(calls) == 1


def test_an_exception_out_of_the_asking_function_stops_the_run_at_once():
    calls = []

    def ask(document, query, value):
        calls.append(1)
        raise ZeroDivisionError("a defect of the wrapper")

    with pytest.raises(ZeroDivisionError):
        dpclaims._dpclaims.conformance_run(ask, 3, 3)
    assert len(calls) == 1


def test_the_options_reach_the_suite():
    base = conformance.run(Negative(), **SMALL)
    coarse = conformance.run(Negative(), **dict(SMALL, interval=1e-2))
    ref = [(a.bracket, b.bracket) for a, b in zip(base.outcomes, coarse.outcomes)
           if a.property == "reference" and a.bracket is not None]
    # Another grid, other brackets (but for values a grid does not touch: 0, exact atoms).
    assert ref and sum(a != b for a, b in ref) > len(ref) / 2
    full = conformance.run(SupportsNothing(), seed=3, events=2, full=True)
    assert len(full.outcomes) == len(conformance.checks(seed=3, events=2, full=True))
    assert {o.regime for o in full.outcomes} != {o.regime for o in base.outcomes} or \
        len(full.outcomes) != len(conformance.checks(seed=3, events=2))


def test_declared_settings_are_drawn_and_reach_the_accountant():
    Configurable.seen.clear()
    run = conformance.run(Configurable(), **SMALL)
    assert not run.failed, run.text
    assert "settings" in {o.regime for o in run.outcomes}
    assert Configurable.seen and all(x == {"grid": 1e-3} or x == {"grid": 3e-4}
                                     for x in Configurable.seen)
    settings = [o for o in run.outcomes if o.regime == "settings"]
    assert all('"settings":{"grid":' in q for o in settings for q in o.queries)
    none = conformance.run(Configurable(), settings_samples=0, **SMALL)
    assert "settings" not in {o.regime for o in none.outcomes}
    assert len(run.outcomes) == 2 * len(none.outcomes)
    # The checks pytest collects are the run's, copies under settings included.
    listed = conformance.checks(seed=3, events=3, supports=Configurable.supports)
    assert [c["regime"] for c in listed] == [o.regime for o in run.outcomes]


@pytest.mark.parametrize("toy,code", [("Correct", 0), ("Raises", 1), ("Negative", 1),
                                      ("DeclaresButRefuses", 1), ("Configurable", 0)])
def test_in_process_and_line_protocol_judge_alike(tmp_path, toy, code):
    """The same accountant through `dpclaims conformance --command` (the wheel's CLI and
    `serve`) gets the same verdict on every check: a correct one, one that raises (an error
    both ways, not skipped on the line protocol), one with findings, one whose declaration
    (`--supports` on the line protocol) makes some refusals errors."""
    script = tmp_path / "toy.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {HERE!r})
        from dpclaims.adapters._protocol import serve
        from test_package import {toy}

        serve({toy}())
    """))
    out = subprocess.run([cli(), "conformance", "--seed", "3", "--events", "3", "--json",
                          "--interval", str(TOY_INTERVAL),
                          "--command", f"{sys.executable} {script}"],
                         capture_output=True, text=True)
    assert out.returncode == code, out.stdout + out.stderr
    theirs = [json.loads(line) for line in out.stdout.splitlines()]
    mine = [o.verdict for o in conformance.run(globals()[toy](), **SMALL).outcomes]
    assert [o["verdict"] for o in theirs] == mine and len(mine) > 20
    if toy == "Raises":
        # serve writes the traceback to stderr; dpclaims keeps it with the error.
        detail = next(o["detail"] for o in theirs if o["verdict"] == "error")
        assert "ZeroDivisionError: the accountant's own bug" in detail
        assert "--- the accountant's stderr ---\nTraceback (most recent call last):" in detail


def test_the_pytest_integration_gives_one_test_per_check(tmp_path):
    (tmp_path / "test_mine.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {HERE!r})
        from dpclaims.testing import conformance_tests
        from test_package import IgnoresCount

        test_conformance = conformance_tests(IgnoresCount(), seed=3, events=3, interval=1e-3)
    """))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider",
                          str(tmp_path / "test_mine.py")], capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 1, out.stdout
    # The tests that fail are the checks a direct run finds, by their ids.
    from dpclaims.testing import check_ids
    ids = check_ids(conformance.checks(seed=3, events=3))
    failed = {line.split("::test_conformance[")[1].split("]")[0]
              for line in out.stdout.splitlines() if line.startswith("FAILED ")}
    direct = conformance.run(IgnoresCount(), **SMALL)
    assert failed == {ids[o.index] for o in direct.outcomes if o.failed} and failed
    assert len(set(ids)) == len(ids)
    # ids name the property, the regime and the event; a failure prints the numbers and the call.
    assert "test_conformance[reference-ordinary-" in out.stdout
    assert "reproduce: IgnoresCount().epsilon({" in out.stdout
    assert "answers: [" in out.stdout


# --- the dpclaims command of the wheel ----------------------------------------------------

def test_the_wheel_has_the_dpclaims_command():
    out = subprocess.run([cli(), "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "conformance" in out.stdout and "audit" in out.stdout
    out = subprocess.run([cli(), "epsilon", "--q", "0.01", "--sigma", "1", "--steps", "1000",
                          "--delta", "1e-5", "--accountant", "pld"], capture_output=True, text=True)
    assert out.returncode == 0 and "epsilon = 1.8282" in out.stdout, out.stdout + out.stderr
    out = subprocess.run([cli(), "epsilon", "--q", "2", "--sigma", "1", "--steps", "10",
                          "--delta", "1e-5"], capture_output=True, text=True)
    assert out.returncode == 2 and "error:" in out.stderr
    out = subprocess.run([sys.executable, "-m", "dpclaims", "--version"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and dpclaims.__version__ in out.stdout
