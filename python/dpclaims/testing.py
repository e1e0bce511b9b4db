"""The conformance suite as pytest tests: one test per check, in a maintainer's own test suite.

    # tests/test_dpclaims_conformance.py
    from dpclaims.testing import conformance_tests
    from mylib import MyAccountant

    test_conformance = conformance_tests(MyAccountant(), seed=1, events=30)

pytest then collects one test per check, with ids naming the check's property, regime and
event (`reference-ordinary-poisson-gaussian-x1000-add-remove-17`). The suite is run once, at
the first test, and each test reports its check: a finding, an error or a broken answer fails with the
numbers and a reproducer (the accountant call to make again), a refused query is a skip with
its reason, `pass` and `loose` (above dpclaims' certified upper value: sound but not tight)
pass. `run_options` are those of `dpclaims.conformance.run`.
"""
import json

from . import conformance as _conformance


def _label(event):
    """A short, readable name of a bare event for a test id."""
    kind = event.get("type", "?")
    if kind == "Gaussian":
        return "gaussian"
    if kind == "Laplace":
        return "laplace"
    if kind == "RandomizedResponse":
        return f"rr{event.get('num_buckets')}"
    if kind == "EpsilonDelta":
        return "eps-delta"
    if kind == "NoOp":
        return "noop"
    if kind == "PoissonSampled":
        return "poisson-" + _label(event.get("event", {}))
    if kind == "SampledWithoutReplacement":
        return "wor-" + _label(event.get("event", {}))
    if kind == "SelfComposed":
        return f"{_label(event.get('event', {}))}-x{event.get('count')}"
    if kind == "Composed":
        parts = [_label(e) for e in event.get("events", [])]
        return "+".join(parts[:3]) + ("+..." if len(parts) > 3 else "")
    return kind.lower()


def check_ids(checks):
    """pytest ids of the checks: property, regime, the first query's event and relation, and
    the index (which makes each unique)."""
    ids = []
    for i, c in enumerate(checks):
        doc = json.loads(c["queries"][0])
        ids.append(f"{c['property']}-{c['regime']}-{_label(doc.get('event', {}))}"
                   f"-{doc.get('neighbouring')}-{i}")
    return ids


def conformance_tests(accountant, *, name=None, **run_options):
    """A pytest test function parametrised over the suite's checks (module documentation).
    Assign it to a module-level name starting with `test_`."""
    import pytest

    checks = _conformance.checks(
        **{k: run_options[k] for k in ("seed", "events", "full", "settings_samples")
           if k in run_options},
        supports=getattr(accountant, "supports", None))
    cache = {}
    label = name or f"{type(accountant).__name__}()"

    def scorecard():
        # Run once: a run that raised is not run again by the next check (it fails the same).
        if "run" not in cache:
            try:
                cache["run"] = _conformance.run(accountant, name=label, **run_options)
            except Exception as e:
                cache["error"] = e
                cache["run"] = None
        if cache["run"] is None:
            pytest.fail(f"the conformance run stopped: {type(cache['error']).__name__}: "
                        f"{cache['error']}", pytrace=False)
        return cache["run"]

    @pytest.mark.parametrize("check", range(len(checks)), ids=check_ids(checks))
    def test_conformance(check):
        outcome = scorecard().outcomes[check]
        if outcome.verdict == "skipped":
            pytest.skip(outcome.detail)
        if outcome.failed:
            pytest.fail(outcome.explain(label), pytrace=False)

    test_conformance.scorecard = scorecard
    return test_conformance
