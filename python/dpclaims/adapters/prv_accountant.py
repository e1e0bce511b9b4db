"""prv_accountant (Microsoft, Gopi et al. 2021): its PRVAccountant as a dpclaims accountant.

    from dpclaims.adapters.prv_accountant import PrvAccountant

    python -m dpclaims.adapters.prv_accountant [--supports]

prv_accountant has no event algebra: the adapter flattens the event into a list of (privacy
random variable, count) pairs for PRVAccountant (heterogeneous composition, copies of an event
not merged), building each variable through the whitelist `LEAF`. Composed concatenates,
SelfComposed multiplies counts, NoOp and PoissonSampled with q = 1 are the identity (the
adapter's algebra, not the library's). The answer is PRVAccountant's upper bound (eps_error
0.01, delta_error delta/1000 as in its `Accountant`; 1e-12 for a delta query).
"""
import sys

from . import _protocol

try:
    from prv_accountant import PRVAccountant
    from prv_accountant import privacy_random_variables as rv
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "prv_accountant", "prv-accountant")

Unsupported = _protocol.Unsupported
EPS_ERROR = 0.01

# (type, relation) -> the privacy random variable of one application; replace-one moves a sum of
# clipped values by 2C.
LEAF = {
    ("Gaussian", "add-remove"): lambda e: rv.GaussianMechanism(e["noise_multiplier"], 1.0),
    ("Gaussian", "replace-one"): lambda e: rv.GaussianMechanism(e["noise_multiplier"], 2.0),
    ("Laplace", "add-remove"): lambda e: rv.LaplaceMechanism(1.0 / e["noise_multiplier"]),
    ("Laplace", "replace-one"): lambda e: rv.LaplaceMechanism(2.0 / e["noise_multiplier"]),
    ("EpsilonDelta", "add-remove"): lambda e: rv.ApproximateDPMechanism(e["epsilon"], e["delta"]),
    ("EpsilonDelta", "replace-one"): lambda e: rv.ApproximateDPMechanism(e["epsilon"], e["delta"]),
    ("PoissonGaussian", "add-remove"): lambda e: rv.PoissonSubsampledGaussianMechanism(
        e["sampling_probability"], e["event"]["noise_multiplier"]),
}


def flatten(e, relation, count=1):
    """[(prv, count)] of a validated bare event."""
    kind = e["type"]
    if kind == "NoOp":
        return []
    if kind == "SelfComposed":
        return flatten(e["event"], relation, count * e["count"]) if e["count"] else []
    if kind == "Composed":
        return [p for x in e["events"] for p in flatten(x, relation, count)]
    if kind == "PoissonSampled" and e["sampling_probability"] == 1.0:
        return flatten(e["event"], relation, count)
    if kind == "PoissonSampled" and e["event"]["type"] == "Gaussian":
        kind = "PoissonGaussian"
    if (kind, relation) not in LEAF:
        # PoissonSampled is declared, and so is its inner event if it is a Gaussian or a
        # Laplace: only some of these combinations have a privacy random variable.
        refused = (_protocol.UnsupportedCombination if e["type"] == "PoissonSampled"
                   else Unsupported)
        raise refused(f"{e['type']} (of {e.get('event', {}).get('type', '-')}) under {relation}")
    return [(LEAF[(kind, relation)](e), count)]


class PrvAccountant:
    """prv_accountant's `PRVAccountant` on the flattened event; a new one per query."""

    supports = {"events": ["Composed", "EpsilonDelta", "Gaussian", "Laplace", "NoOp",
                           "PoissonSampled", "SelfComposed"],
                "relations": list(_protocol.RELATIONS),
                "queries": list(_protocol.QUERIES),
                # Its error budget: at most the default, so the declared tolerance holds.
                "settings": {"eps_error": {"choices": [EPS_ERROR / 2]}},
                # Two answers, each within eps_error above its estimate, may differ by twice it.
                "tolerance": {"epsilon": 2 * EPS_ERROR}}

    def __init__(self, eps_error=EPS_ERROR):
        self.eps_error = eps_error

    def configured(self, settings):
        """A copy under `settings` (`eps_error`)."""
        unknown = set(settings) - {"eps_error"}
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}")
        return PrvAccountant(settings.get("eps_error", self.eps_error))

    def _library_accountant(self, doc, delta_error):
        relation, event = _protocol.document(doc)
        pairs = flatten(event, relation)
        if not pairs:
            return None, []
        prvs, counts = [p for p, _ in pairs], [c for _, c in pairs]
        acc = PRVAccountant(prvs=prvs, max_self_compositions=counts,
                            eps_error=self.eps_error, delta_error=delta_error)
        return acc, counts

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        acc, counts = self._library_accountant(event, delta / 1000)
        if acc is None:
            return 0.0
        return float(acc.compute_epsilon(delta=delta, num_self_compositions=counts)[2])

    def delta(self, event, epsilon):
        epsilon = _protocol.value(epsilon, "epsilon")
        acc, counts = self._library_accountant(event, 1e-12)
        if acc is None:
            return 0.0
        return float(acc.compute_delta(epsilon=epsilon, num_self_compositions=counts)[2])

    def __repr__(self):
        return f"PrvAccountant(eps_error={self.eps_error})"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _protocol.serve(PrvAccountant(), argv)


if __name__ == "__main__":
    main()
