"""Opake (opake-accounting, PLD): its DpProcess algebra as a dpclaims accountant.

    from dpclaims.adapters.opake import PldAccountant

    python -m dpclaims.adapters.opake [--supports]

Needs Python >= 3.11 (opake 0.16.1: 3.11 to 3.13), `pip install opake-accounting` and
`pip install --no-deps opake-dpsgd` (the DP-SGD factories `gaussian` and `poisson` live in
opake-dpsgd, whose `opake.dpsgd` package imports torch; their implementation package
`opake.api.accounting.dpsgd` does not, and is what this adapter imports).

The event becomes an Opake process through the whitelist `LEAF` and Opake's own operators:
`a | b` for Composed, `a * k` for SelfComposed (k >= 1; Opake refuses k = 0, which is
`identity()` here, as is NoOp and an empty Composed), `poisson(gaussian(s), q)` for
PoissonSampled, `k_out_of_t(gaussian(s), k=k, t=t, allocation="total")` for
RandomAllocation(Gaussian(s), k, t) (one epoch, each record in a uniform k-subset of the t steps;
Opake bounds it by its blocks, an upper bound). The answer is the process' `epsilon_at(delta)` / `delta_at(epsilon)` at
Opake's default discretization (interval 1e-4; its PLDs are the pessimistic ones over both
add and remove directions).

Specific to Opake: its processes are add/remove ones. Under replace-one a Gaussian maps to
`gaussian(s / 2)` (sensitivity 2C) and an (epsilon, delta) event as it is; `poisson` of a
replace-one pair does not exist in Opake, and `poisson` accepts only a Gaussian inner
mechanism (PoissonSampled of anything else, or under replace-one, is a combination refusal).
`k_out_of_t` likewise takes a Gaussian under add/remove only. Opake has no Laplace, randomized
response or sampling-without-replacement process.
"""
import sys

from . import _protocol

try:
    import opake.accounting as acc
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "opake", "opake-accounting")
try:
    from opake.api.accounting import dpsgd as dpsgd_acc
except ModuleNotFoundError as e:
    if (e.name or "").startswith("opake"):
        raise ImportError("this adapter needs Opake's DP-SGD factories: "
                          "pip install --no-deps opake-dpsgd") from e
    raise

Unsupported = _protocol.Unsupported
Combination = _protocol.UnsupportedCombination

# (type, relation) -> Opake process of one application.
LEAF = {
    ("Gaussian", "add-remove"): lambda e: dpsgd_acc.gaussian(e["noise_multiplier"]),
    ("Gaussian", "replace-one"): lambda e: dpsgd_acc.gaussian(e["noise_multiplier"] / 2.0),
    ("EpsilonDelta", "add-remove"): lambda e: acc.eps_delta(e["epsilon"], e["delta"]),
    ("EpsilonDelta", "replace-one"): lambda e: acc.eps_delta(e["epsilon"], e["delta"]),
}


def build(e, relation):
    """The Opake process of a validated bare event."""
    kind = e["type"]
    if kind == "NoOp":
        return acc.identity()
    if kind == "SelfComposed":
        inner = build(e["event"], relation)
        return inner * e["count"] if e["count"] else acc.identity()
    if kind == "Composed":
        out = acc.identity()
        for x in e["events"]:
            out = out | build(x, relation)
        return out
    if kind == "PoissonSampled":
        inner = e["event"]
        if relation != "add-remove" or inner["type"] != "Gaussian":
            raise Combination(f"PoissonSampled({inner['type']}) under {relation} (Opake's "
                              "poisson: a Gaussian, add/remove)")
        return dpsgd_acc.poisson(build(inner, relation), e["sampling_probability"])
    if kind == "RandomAllocation":
        inner = e["event"]
        if relation != "add-remove" or inner["type"] != "Gaussian":
            raise Combination(f"RandomAllocation({inner['type']}) under {relation} (Opake's "
                              "k_out_of_t: a Gaussian, add/remove)")
        return dpsgd_acc.k_out_of_t(build(inner, relation), k=e["num_selected"],
                                    t=e["num_steps"], allocation="total")
    if (kind, relation) in LEAF:
        return LEAF[(kind, relation)](e)
    raise Unsupported(f"{kind} (no Opake process)")


class PldAccountant:
    """Opake's process of the event, asked `epsilon_at` / `delta_at`."""

    supports = {"events": ["Composed", "EpsilonDelta", "Gaussian", "NoOp", "PoissonSampled",
                           "RandomAllocation", "SelfComposed"],
                "relations": list(_protocol.RELATIONS),
                "queries": list(_protocol.QUERIES)}

    def _process(self, doc):
        relation, event = _protocol.document(doc)
        return build(event, relation)

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        return float(self._process(event).epsilon_at(delta))

    def delta(self, event, epsilon):
        epsilon = _protocol.value(epsilon, "epsilon")
        return float(self._process(event).delta_at(epsilon))

    def __repr__(self):
        return "PldAccountant()"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _protocol.serve(PldAccountant(), argv)


if __name__ == "__main__":
    main()
