"""prv_accountant (Microsoft, Gopi et al. 2021) behind the `dpclaims conformance` protocol.

    python3 adapters/prv_accountant.py [--supports]

prv_accountant has no event algebra: the adapter flattens the event into a list of (privacy
random variable, count) pairs for PRVAccountant (heterogeneous composition), building each
variable through the whitelist `LEAF`. Composed concatenates, SelfComposed multiplies counts,
NoOp and PoissonSampled with q = 1 are the identity. The answer is PRVAccountant's upper bound
(eps_error 0.01, delta_error delta/1000 as in its `Accountant`).
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

from prv_accountant import PRVAccountant  # noqa: E402
from prv_accountant import privacy_random_variables as rv  # noqa: E402

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
    """[(prv, count)] of the event."""
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
        raise Unsupported(f"{e['type']} (of {e.get('event', {}).get('type', '-')}) under {relation}")
    return [(LEAF[(kind, relation)](e), count)]


def answer(relation, event, query, value):
    pairs = flatten(event, relation)
    if not pairs:
        return 0.0
    prvs, counts = [p for p, _ in pairs], [c for _, c in pairs]
    delta_error = value / 1000 if query == "epsilon" else 1e-12
    acc = PRVAccountant(prvs=prvs, max_self_compositions=counts,
                        eps_error=EPS_ERROR, delta_error=delta_error)
    if query == "epsilon":
        return acc.compute_epsilon(delta=value, num_self_compositions=counts)[2]
    return acc.compute_delta(epsilon=value, num_self_compositions=counts)[2]


if __name__ == "__main__":
    serve(answer, ["Composed", "EpsilonDelta", "Gaussian", "Laplace", "NoOp",
                   "PoissonSampled", "SelfComposed"])
