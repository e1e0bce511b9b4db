"""autodp (Yu-Xiang Wang et al.): its RDP-based mechanism algebra as a dpclaims accountant.

    from dpclaims.adapters.autodp import RdpAccountant

    python -m dpclaims.adapters.autodp [--supports]

The event becomes an autodp `Mechanism` through the whitelist `LEAF` and autodp's own
transformers: `AmplificationBySampling(PoissonSampling=True)` for PoissonSampled (add-remove),
`AmplificationBySampling(PoissonSampling=False)` for SampledWithoutReplacement (replace-one,
the inner mechanism marked `neighboring = "replace_one"` as autodp asks), and
`Composition()(mechanisms, counts)` for SelfComposed and Composed (autodp composes RDP only).
The sampling transformers get `improved_bound_flag=True` for a Gaussian inner mechanism (the
tight subsampled-Gaussian bounds, as autodp's own `NoisySGD_Mechanism` does), the general
bound otherwise. The answer is `get_approxDP(delta)` (RDP to (eps, delta) by the conversion of
Balle et al. 2020, Thm 21, minimised over a continuous order by scipy's Brent search; a bare
Gaussian, Laplace or randomized response also takes the minimum with its direct formula) or
`get_approx_delta(epsilon)`.

Specific to autodp: its `RandresponseMechanism(p)` is the binary one with p the probability of
telling the truth, so only `num_buckets` = 2 maps (p = 1 - noise_parameter / 2); it has no
mechanism for an (epsilon, delta > 0) event that composes (RDP of an approximate-DP mechanism
is infinite), so `EpsilonDelta` maps only with delta = 0 (`PureDP_Mechanism`). NoOp, an empty
Composed and count 0 are no mechanism at all (autodp's Composition refuses an empty list): the
adapter's algebra.
"""
import sys

from . import _protocol

try:
    from autodp import mechanism_zoo, transformer_zoo
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "autodp", "autodp")

Unsupported = _protocol.Unsupported
Combination = _protocol.UnsupportedCombination


def _scale(relation):
    # replace-one moves a sum of clipped values by 2C: the noise relative to the sensitivity
    # halves (the guide's table, docs/conformance.md, "Adapters").
    return 2.0 if relation == "replace-one" else 1.0


def _rr(e, relation):
    if e["num_buckets"] != 2:
        raise Combination(f"RandomizedResponse with {e['num_buckets']} buckets (autodp's "
                          "randomized response is binary)")
    if relation != "replace-one":
        raise Combination("RandomizedResponse under add-remove (a replace-one mechanism)")
    return mechanism_zoo.RandresponseMechanism(p=1.0 - e["noise_parameter"] / 2.0)


def _pure(e, relation):
    if e["delta"] != 0:
        raise Combination("EpsilonDelta with delta > 0 (autodp composes RDP, and an "
                          "(epsilon, delta)-DP mechanism has none)")
    return mechanism_zoo.PureDP_Mechanism(eps=e["epsilon"])


# type -> (validated bare event, relation) -> autodp Mechanism of one application.
LEAF = {
    "Gaussian": lambda e, r: mechanism_zoo.GaussianMechanism(
        sigma=e["noise_multiplier"] / _scale(r)),
    "Laplace": lambda e, r: mechanism_zoo.LaplaceMechanism(b=e["noise_multiplier"] / _scale(r)),
    "RandomizedResponse": _rr,
    "EpsilonDelta": _pure,
}


def _compose(mechanisms, counts):
    pairs = [(m, c) for m, c in zip(mechanisms, counts) if m is not None and c > 0]
    if not pairs:
        return None
    return transformer_zoo.Composition()([m for m, _ in pairs], [c for _, c in pairs])


def build(e, relation):
    """The autodp Mechanism of a validated bare event, or None for no privacy cost."""
    kind = e["type"]
    if kind in LEAF:
        m = LEAF[kind](e, relation)
    elif kind == "NoOp":
        return None
    elif kind == "SelfComposed":
        m = _compose([build(e["event"], relation)], [e["count"]])
    elif kind == "Composed":
        m = _compose([build(x, relation) for x in e["events"]], [1] * len(e["events"]))
    elif kind in ("PoissonSampled", "SampledWithoutReplacement"):
        poisson = kind == "PoissonSampled"
        if (relation == "add-remove") != poisson:
            raise Combination(f"{kind} under {relation} (autodp: Poisson sampling under "
                              "add-remove, sampling without replacement under replace-one)")
        if poisson:
            prob = e["sampling_probability"]
        else:
            prob = e["sample_size"] / e["source_dataset_size"]
        inner = build(e["event"], relation)
        if inner is None or prob == 0:
            return None
        improved = e["event"]["type"] == "Gaussian"
        m = transformer_zoo.AmplificationBySampling(PoissonSampling=poisson)(
            inner, prob, improved_bound_flag=improved)
    else:
        raise Unsupported(f"{kind} (no autodp mechanism)")
    if m is not None and relation == "replace-one":
        m.neighboring = "replace_one"
    return m


class RdpAccountant:
    """autodp's mechanism of the event, asked `get_approxDP` / `get_approx_delta`; a new one
    per query."""

    supports = {"events": ["Composed", "EpsilonDelta", "Gaussian", "Laplace", "NoOp",
                           "PoissonSampled", "RandomizedResponse", "SampledWithoutReplacement",
                           "SelfComposed"],
                "relations": list(_protocol.RELATIONS),
                "queries": list(_protocol.QUERIES)}

    def _mechanism(self, doc):
        relation, event = _protocol.document(doc)
        return build(event, relation)

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        m = self._mechanism(event)
        return 0.0 if m is None else float(m.get_approxDP(delta))

    def delta(self, event, epsilon):
        epsilon = _protocol.value(epsilon, "epsilon")
        m = self._mechanism(event)
        return 0.0 if m is None else float(m.get_approx_delta(epsilon))

    def __repr__(self):
        return "RdpAccountant()"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _protocol.serve(RdpAccountant(), argv)


if __name__ == "__main__":
    main()
