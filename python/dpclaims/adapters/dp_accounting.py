"""dp_accounting (Google) behind the `dpclaims conformance` protocol.

    python3 adapters/dp_accounting.py rdp|pld [--compose-count] [--supports]

With --compose-count a top-level `SelfComposed(e, k)` is accounted as `compose(e, count=k)`
(the accountant's own count argument) instead of as a `SelfComposedDpEvent`, so that the
suite's `self-composition` property checks that path too.

Events map to dp_accounting's own dp_event classes through the whitelist `BUILD` (type name ->
constructor); the neighbouring relation maps to its NeighboringRelation. The accountant decides
what it covers: an event it refuses (`supports` is false) is answered "unsupported".
"""
import importlib.util
import os
import sys

# This file's name is the library's: take its directory off the path, and load the protocol
# helper by its file path.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
_spec = importlib.util.spec_from_file_location("dpclaims_protocol", os.path.join(HERE, "protocol.py"))
protocol = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(protocol)
Unsupported, serve = protocol.Unsupported, protocol.serve

from dp_accounting import dp_event as ev  # noqa: E402
from dp_accounting import privacy_accountant  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant  # noqa: E402

BUILD = {
    "NoOp": lambda e: ev.NoOpDpEvent(),
    "Gaussian": lambda e: ev.GaussianDpEvent(e["noise_multiplier"]),
    "Laplace": lambda e: ev.LaplaceDpEvent(e["noise_multiplier"]),
    "RandomizedResponse": lambda e: ev.RandomizedResponseDpEvent(
        e["noise_parameter"], e["num_buckets"]),
    "PoissonSampled": lambda e: ev.PoissonSampledDpEvent(
        e["sampling_probability"], build(e["event"])),
    "SampledWithoutReplacement": lambda e: ev.SampledWithoutReplacementDpEvent(
        e["source_dataset_size"], e["sample_size"], build(e["event"])),
    "SelfComposed": lambda e: ev.SelfComposedDpEvent(build(e["event"]), e["count"]),
    "Composed": lambda e: ev.ComposedDpEvent([build(x) for x in e["events"]]),
    # dp_accounting 0.6.0 has no (epsilon, delta) event class: EpsilonDelta is unsupported.
}
RELATION = {
    "add-remove": privacy_accountant.NeighboringRelation.ADD_OR_REMOVE_ONE,
    "replace-one": privacy_accountant.NeighboringRelation.REPLACE_ONE,
}
ACCOUNTANT = {
    "rdp": lambda rel: rdp_privacy_accountant.RdpAccountant(neighboring_relation=rel),
    "pld": lambda rel: pld_privacy_accountant.PLDAccountant(neighboring_relation=rel),
}


def build(e):
    if e["type"] not in BUILD:
        raise Unsupported(f"{e['type']} (no dp_accounting event class)")
    return BUILD[e["type"]](e)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ACCOUNTANT:
        sys.exit("usage: dp_accounting.py rdp|pld [--compose-count] [--supports]")
    compose_count = "--compose-count" in sys.argv[2:]

    def answer(relation, event, query, value):
        accountant = ACCOUNTANT[mode](RELATION[relation])
        count = 1
        if compose_count and event["type"] == "SelfComposed":
            event, count = event["event"], event["count"]
        dp = build(event)
        if not accountant.supports(dp):
            raise Unsupported(f"dp_accounting's {mode} accountant refuses it under {relation}")
        accountant.compose(dp, count)
        if query == "epsilon":
            return accountant.get_epsilon(value)
        return accountant.get_delta(value)

    serve(answer, sorted(BUILD))


if __name__ == "__main__":
    main()
