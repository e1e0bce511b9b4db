"""dp_accounting (Google): its RDP and PLD accountants as dpclaims accountants.

    from dpclaims.adapters.dp_accounting import RdpAccountant, PldAccountant
    PldAccountant().epsilon({"version": 1, "neighbouring": "add-remove",
                             "event": {"type": "Gaussian", "noise_multiplier": 1.0}}, 1e-5)

    python -m dpclaims.adapters.dp_accounting rdp|pld [--compose-count] [--supports]

Events map to dp_accounting's own dp_event classes through the whitelist `BUILD` (type name ->
constructor); the neighbouring relation maps to its NeighboringRelation. The library decides
what it covers: an event its accountant refuses (`supports(event)` is false) raises
NotImplementedError, as does `EpsilonDelta` (dp_accounting has no (epsilon, delta) event class).

`noise_multiplier` (a calibration query) is dp_accounting's `calibrate_dp_mechanism` with the
accountant of the mode.

With compose_count=True (`--compose-count`) a top-level `SelfComposed(e, k)` is accounted as
`compose(e, count=k)` (the accountant's own count argument) instead of as a
`SelfComposedDpEvent`, so that the suite's `self-composition` property checks that path too.
"""
import math
import sys

from . import _protocol

try:
    from dp_accounting import dp_event as ev
    from dp_accounting import mechanism_calibration
    from dp_accounting import privacy_accountant
    from dp_accounting.pld import pld_privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "dp_accounting", "dp-accounting")

Unsupported = _protocol.Unsupported

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
    "ZCDp": lambda e: ev.ZCDpEvent(e["rho"], e.get("xi", 0.0)),
    "DiscreteLaplace": lambda e: ev.DiscreteLaplaceDpEvent(
        e["noise_parameter"], e["sensitivity"]),
    "MixtureOfGaussians": lambda e: ev.MixtureOfGaussiansDpEvent(
        e["standard_deviation"], list(e["sensitivities"]), list(e["sampling_probs"])),
    "TruncatedSubsampledGaussian": lambda e: ev.TruncatedSubsampledGaussianDpEvent(
        e["dataset_size"], e["sampling_probability"], e["truncated_batch_size"],
        e["noise_multiplier"]),
    "SampledWithReplacement": lambda e: ev.SampledWithReplacementDpEvent(
        e["source_dataset_size"], e["sample_size"], build(e["event"])),
    "SingleEpochTreeAggregation": lambda e: ev.SingleEpochTreeAggregationDpEvent(
        e["noise_multiplier"], list(e["step_counts"])),
    "RepeatAndSelect": lambda e: ev.RepeatAndSelectDpEvent(
        build(e["event"]), e["mean"], math.inf if e["shape"] == "inf" else e["shape"]),
    # dp_accounting 0.6.0 has no (epsilon, delta) event class: EpsilonDelta is unsupported.
}
RELATION = {
    "add-remove": privacy_accountant.NeighboringRelation.ADD_OR_REMOVE_ONE,
    "replace-one": privacy_accountant.NeighboringRelation.REPLACE_ONE,
}


def build(e):
    """The dp_accounting DpEvent of a validated bare event."""
    if e["type"] not in BUILD:
        raise Unsupported(f"{e['type']} (no dp_accounting event class)")
    return BUILD[e["type"]](e)


class _DpAccountingAccountant:
    """A fresh dp_accounting accountant per query, composed with the event once."""

    mode = ""
    supports = {"events": sorted(BUILD), "relations": list(_protocol.RELATIONS),
                "queries": list(_protocol.QUERIES) + [_protocol.CALIBRATE]}

    def __init__(self, compose_count=False, **settings):
        self.compose_count = bool(compose_count)
        unknown = set(settings) - set(self.supports.get("settings", {}))
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}")
        self.settings = settings

    def configured(self, settings):
        """A copy of this accountant under `settings` (among `supports["settings"]`)."""
        return type(self)(self.compose_count, **settings)

    def _library_accountant(self, relation):
        raise NotImplementedError

    def _composed(self, doc):
        relation, event = _protocol.document(doc)
        accountant = self._library_accountant(RELATION[relation])
        count = 1
        if self.compose_count and event["type"] == "SelfComposed":
            event, count = event["event"], event["count"]
        dp = build(event)
        if not accountant.supports(dp):
            # Every part is declared (BUILD): the library refuses the combination.
            raise _protocol.UnsupportedCombination(
                f"dp_accounting's {self.mode} accountant refuses it under {relation}")
        accountant.compose(dp, count)
        return accountant

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        return float(self._composed(event).get_epsilon(delta))

    def delta(self, event, epsilon):
        epsilon = _protocol.value(epsilon, "epsilon")
        return float(self._composed(event).get_delta(epsilon))

    def noise_multiplier(self, event, epsilon, delta):
        """dp_accounting's own calibration, `calibrate_dp_mechanism` (Brent's method on
        epsilon(sigma) - epsilon, default bracket search and tolerance 1e-6), with sigma as the
        noise multiplier of every Gaussian in the event."""
        epsilon = _protocol.value(epsilon, "epsilon")
        delta = _protocol.value(delta, "delta")
        relation, event = _protocol.document(event)
        relation = RELATION[relation]
        if not self._library_accountant(relation).supports(build(event)):
            raise _protocol.UnsupportedCombination(
                f"dp_accounting's {self.mode} accountant refuses it")
        return float(mechanism_calibration.calibrate_dp_mechanism(
            lambda: self._library_accountant(relation),
            lambda sigma: build(_protocol.with_noise_multiplier(event, sigma)),
            epsilon, delta))

    def __repr__(self):
        return f"{type(self).__name__}(compose_count={self.compose_count})"


# RDP order lists a user passes: fractional orders (Opacus' style), powers of two, a few small.
ORDER_CHOICES = [
    [1.25, 1.5, 1.75, 2.25, 2.5, 3.5, 4.5, 6.5, 8.5, 12.5, 16.5, 24.5, 32.5, 48.5, 64.5],
    [2, 4, 8, 16, 32, 64, 128, 256],
    [1.01, 1.05, 1.1, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0],
]


class RdpAccountant(_DpAccountingAccountant):
    """dp_accounting's `RdpAccountant`: its default orders, or the setting `orders`."""

    mode = "rdp"
    supports = dict(_DpAccountingAccountant.supports,
                    settings={"orders": {"choices": ORDER_CHOICES}})

    def _library_accountant(self, relation):
        if "orders" in self.settings:
            return rdp_privacy_accountant.RdpAccountant(
                orders=list(self.settings["orders"]), neighboring_relation=relation)
        return rdp_privacy_accountant.RdpAccountant(neighboring_relation=relation)


class PldAccountant(_DpAccountingAccountant):
    """dp_accounting's `PLDAccountant`: its default value_discretization_interval (1e-4), or
    the setting `value_discretization_interval`."""

    mode = "pld"
    supports = dict(_DpAccountingAccountant.supports,
                    settings={"value_discretization_interval": {"choices": [1e-3, 3e-5]}})

    def _library_accountant(self, relation):
        extra = {k: v for k, v in self.settings.items() if k == "value_discretization_interval"}
        return pld_privacy_accountant.PLDAccountant(neighboring_relation=relation, **extra)


ACCOUNTANTS = {"rdp": RdpAccountant, "pld": PldAccountant}
USAGE = "usage: python -m dpclaims.adapters.dp_accounting rdp|pld [--compose-count] [--supports]"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ACCOUNTANTS:
        sys.exit(USAGE)
    _protocol.serve(ACCOUNTANTS[argv[0]](compose_count="--compose-count" in argv[1:]), argv)


if __name__ == "__main__":
    main()
