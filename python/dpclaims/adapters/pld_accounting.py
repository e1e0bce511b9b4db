"""PLD_accounting (Feldman & Shenfeld's random-allocation accountant): its Gaussian allocation
PLD as a dpclaims accountant.

    from dpclaims.adapters.pld_accounting import AllocationAccountant

    python -m dpclaims.adapters.pld_accounting [--supports]

Needs `pip install PLD_accounting` (2.0: Python >= 3.10, with dp-accounting, numpy and scipy).

PLD_accounting accounts random allocation of the Gaussian mechanism only (each record in k of
the t steps of an epoch, E epochs: `gaussian_allocation_pld`, arXiv 2602.17284), so the adapter
covers documents made of such epochs and nothing else: `RandomAllocation(Gaussian(s), k, t)`
is one epoch, `SelfComposed` of it E epochs (`num_epochs`), `Composed` the product of the
parts' PLDs (dp_accounting's `compose`, which needs the parts on one loss grid; the library
chooses each part's grid from its parameters, so parts whose grids differ are a combination
refusal; the library's default `AllocationSchemeConfig`), `NoOp` and an empty `Composed` the identity. Add/remove only (the
library's pair is the add/remove one). The answer is the upper bound (`BoundType.DOMINATES`,
what an accountant reports) read from the composed PLD: `get_epsilon_for_delta` /
`get_delta_for_epsilon`.
"""
import sys

from . import _protocol

try:
    import PLD_accounting as pa
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "PLD_accounting", "PLD_accounting")

Unsupported = _protocol.Unsupported
Combination = _protocol.UnsupportedCombination


def parts(e, count=1):
    """The (allocation event, epochs) pairs of a validated bare event, or Unsupported."""
    kind = e["type"]
    if kind == "NoOp" or count == 0:
        return []
    if kind == "SelfComposed":
        return parts(e["event"], count * e["count"])
    if kind == "Composed":
        return [p for x in e["events"] for p in parts(x, count)]
    if kind == "RandomAllocation":
        if e["event"]["type"] != "Gaussian":
            raise Combination(f"RandomAllocation({e['event']['type']}) (PLD_accounting: "
                              "random allocation of a Gaussian)")
        return [(e, count)]
    raise Unsupported(f"{kind} (PLD_accounting accounts random allocation of a Gaussian)")


def pld(doc):
    """The composed upper-bound PLD of an event document (None: no privacy cost)."""
    relation, event = _protocol.document(doc)
    if relation != "add-remove":
        raise Unsupported("PLD_accounting accounts add-remove only")
    out = None
    for e, epochs in parts(event):
        params = pa.PrivacyParams(sigma=e["event"]["noise_multiplier"],
                                  num_steps=e["num_steps"], num_selected=e["num_selected"],
                                  num_epochs=epochs)
        p = pa.gaussian_allocation_pld(params=params, config=pa.AllocationSchemeConfig(),
                                       bound_type=pa.BoundType.DOMINATES)
        if out is None:
            out = p
            continue
        try:
            out = out.compose(p)
        except ValueError as e:   # each part's PLD is on a loss grid of its own
            raise Combination(f"parts on different loss grids ({e})") from e
    return out


class AllocationAccountant:
    """PLD_accounting's upper-bound PLD of the event, asked `get_epsilon_for_delta` /
    `get_delta_for_epsilon`."""

    supports = {"events": ["Composed", "Gaussian", "NoOp", "RandomAllocation", "SelfComposed"],
                "relations": ["add-remove"],
                "queries": list(_protocol.QUERIES)}

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        p = pld(event)
        return 0.0 if p is None else float(p.get_epsilon_for_delta(delta))

    def delta(self, event, epsilon):
        epsilon = _protocol.value(epsilon, "epsilon")
        p = pld(event)
        return 0.0 if p is None else float(p.get_delta_for_epsilon(epsilon))

    def __repr__(self):
        return "AllocationAccountant()"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _protocol.serve(AllocationAccountant(), argv)


if __name__ == "__main__":
    main()
