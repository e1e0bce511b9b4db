"""Opacus' accountants (RDP, PRV, GDP) as dpclaims accountants, without torch.

    from dpclaims.adapters.opacus import RdpAccountant, PrvAccountant, GdpAccountant

    python -m dpclaims.adapters.opacus rdp|prv|gdp [--supports]

opacus/accountants/{rdp,prv,gdp}.py import opacus.optimizers, hence torch: they cannot be
loaded without it. Their computations live in opacus/accountants/analysis/ (numpy and scipy
only), loaded here by file path (importlib.util.spec_from_file_location) under a private
package name; the one torch-bound name they import (RDPAccountant, used by the PRV domain
size) is replaced by `_RdpStub`, the same sum of `analysis.rdp.compute_rdp` over the default
orders. The adapter keeps Opacus' history, a list of (noise multiplier, sample rate, steps)
merged as `step()` merges consecutive equal steps, and answers as the accountants'
get_epsilon(delta) would (PRV: eps_error 0.01, delta_error delta/1000, the upper bound).
Opacus accounts DP-SGD only: PoissonSampled(Gaussian) and Gaussian (q = 1) under add-remove,
composed or self-composed (PoissonSampled with q = 1 is the identity); GDP only a constant
(sigma, q); epsilon only (the classes have no `delta`: Opacus has no get_delta).
"""
import importlib.util
import os
import sys
import types

from . import _protocol

Unsupported = _protocol.Unsupported

_opacus = importlib.util.find_spec("opacus")
if _opacus is None or not _opacus.submodule_search_locations:
    raise ImportError(
        "dpclaims.adapters.opacus needs the opacus library (its wheel alone is enough, "
        "no torch): pip install --no-deps opacus (or pip install opacus)")


def _load(name, path, package_dir=None):
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[package_dir] if package_dir else None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ACCOUNTANTS = os.path.join(_opacus.submodule_search_locations[0], "accountants")
ANALYSIS = os.path.join(ACCOUNTANTS, "analysis")
PKG = "_dpclaims_opacus_accountants_by_path"
for _name, _path in ((PKG, ACCOUNTANTS), (PKG + ".analysis", ANALYSIS)):
    sys.modules[_name] = types.ModuleType(_name)
    sys.modules[_name].__path__ = [_path]
rdp = _load(PKG + ".analysis.rdp", os.path.join(ANALYSIS, "rdp.py"))
gdp = _load(PKG + ".analysis.gdp", os.path.join(ANALYSIS, "gdp.py"))

# Opacus' RDPAccountant.DEFAULT_ALPHAS: orders 1.1, 1.2, ..., 10.9 and 12, ..., 63.
ALPHAS = [1 + k / 10.0 for k in range(1, 100)] + list(range(12, 64))


class _RdpStub:
    """What analysis/prv/domain.py uses of RDPAccountant: `history` and get_epsilon(delta)."""

    def __init__(self):
        self.history = []

    def get_epsilon(self, delta):
        total = sum(rdp.compute_rdp(q=q, noise_multiplier=s, steps=n, orders=ALPHAS)
                    for s, q, n in self.history)
        return rdp.get_privacy_spent(orders=ALPHAS, rdp=total, delta=delta)[0]


sys.modules[PKG + ".rdp"] = types.ModuleType(PKG + ".rdp")
sys.modules[PKG + ".rdp"].RDPAccountant = _RdpStub
prv = _load(PKG + ".analysis.prv", os.path.join(ANALYSIS, "prv", "__init__.py"),
            os.path.join(ANALYSIS, "prv"))


class _CalibrationAccountant:
    """What `get_noise_multiplier` (opacus/accountants/utils.py) uses of the accountant that
    `create_accountant(mechanism)` returns: `history` and get_epsilon(delta, **kwargs),
    computed as the adapter computes them."""

    def __init__(self, mechanism):
        self.mechanism = mechanism
        self.history = []

    def get_epsilon(self, delta, **kwargs):
        if self.mechanism == "rdp":
            return rdp_epsilon(self.history, delta, kwargs.get("alphas"))
        if self.mechanism == "prv":
            return prv_epsilon(self.history, delta, kwargs.get("eps_error", 0.01))
        return gdp_epsilon(self.history, delta)


def _load_calibration():
    """Opacus' `get_noise_multiplier`, loaded by path: utils.py's one import, `from
    opacus.accountants import create_accountant`, is answered from a stand-in module (the
    real one imports torch) put in sys.modules while the file runs, then taken out again."""
    names = ("opacus", "opacus.accountants")
    saved = {n: sys.modules.get(n) for n in names}
    stand_in = types.ModuleType("opacus.accountants")
    stand_in.create_accountant = _CalibrationAccountant
    sys.modules["opacus"] = types.ModuleType("opacus")
    sys.modules["opacus.accountants"] = stand_in
    try:
        return _load(PKG + ".utils", os.path.join(ACCOUNTANTS, "utils.py"))
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m


utils = _load_calibration()


def history(e, relation, count=1, out=None):
    """Opacus' history of a validated bare event: [(noise_multiplier, sample_rate, steps)]."""
    out = [] if out is None else out
    kind = e["type"]
    if relation != "add-remove":
        raise Unsupported("Opacus accounts add-remove only")
    if kind == "SelfComposed":
        if e["count"]:
            history(e["event"], relation, count * e["count"], out)
    elif kind == "Composed":
        for x in e["events"]:
            history(x, relation, count, out)
    elif kind == "PoissonSampled" and e["sampling_probability"] == 1.0:
        history(e["event"], relation, count, out)  # q = 1: no sampling
    elif kind in ("Gaussian", "PoissonSampled"):
        q, g = (1.0, e) if kind == "Gaussian" else (e["sampling_probability"], e["event"])
        if g["type"] != "Gaussian":
            # PoissonSampled of another declared event (SelfComposed, Composed) at q < 1.
            raise _protocol.UnsupportedCombination(f"PoissonSampled({g['type']})")
        if out and out[-1][:2] == (g["noise_multiplier"], q):
            out[-1] = (out[-1][0], q, out[-1][2] + count)
        else:
            out.append((g["noise_multiplier"], q, count))
    elif kind != "NoOp":
        raise Unsupported(kind)
    return out


def rdp_epsilon(steps, delta, alphas=None):
    if alphas is None:
        acc = _RdpStub()
        acc.history = steps
        return acc.get_epsilon(delta)
    # What RDPAccountant.get_epsilon(delta, alphas=...) computes: the same sum at the orders.
    total = sum(rdp.compute_rdp(q=q, noise_multiplier=s, steps=n, orders=alphas)
                for s, q, n in steps)
    return rdp.get_privacy_spent(orders=alphas, rdp=total, delta=delta)[0]


def prv_epsilon(steps, delta, eps_error=0.01):
    delta_error = delta / 1000
    prvs = [prv.PoissonSubsampledGaussianPRV(q, s) for s, q, _ in steps]
    counts = [n for _, _, n in steps]
    size = prv.compute_safe_domain_size(prvs, counts, eps_error=eps_error, delta_error=delta_error)
    mesh = eps_error / (sum(counts) * rdp.np.log(12 / delta_error) / 2) ** 0.5
    domain = prv.Domain.create_aligned(-size, size, mesh)
    dprvs = [prv.discretize(prv.TruncatedPrivacyRandomVariable(p, domain.t_min, domain.t_max),
                            domain) for p in prvs]
    composed = prv.compose_heterogeneous(dprvs=dprvs, num_self_compositions=counts)
    return composed.compute_epsilon(delta, delta_error, eps_error)[2]


def gdp_epsilon(steps, delta):
    if len(steps) != 1:
        raise _protocol.UnsupportedCombination(
            "Opacus' GDP accountant needs one constant (sigma, q)")
    (s, q, n), = steps
    return gdp.compute_eps_poisson(steps=n, noise_multiplier=s, sample_rate=q, delta=delta)


class _OpacusAccountant:
    """epsilon(document, delta) from Opacus' history of the event; no delta queries;
    noise_multiplier(document, epsilon, delta) by Opacus' `get_noise_multiplier` for one
    constant (sigma, q) over T steps."""

    mechanism = ""
    supports = {"events": ["Composed", "Gaussian", "NoOp", "PoissonSampled", "SelfComposed"],
                "relations": ["add-remove"], "queries": ["epsilon", _protocol.CALIBRATE]}

    def __init__(self, **settings):
        unknown = set(settings) - set(self.supports.get("settings", {}))
        if unknown:
            raise ValueError(f"unknown setting(s) {sorted(unknown)}")
        self.settings = settings

    def configured(self, settings):
        """A copy under `settings` (among `supports["settings"]`)."""
        return type(self)(**settings)

    def _epsilon(self, steps, delta):
        raise NotImplementedError

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        relation, event = _protocol.document(event)
        steps = history(event, relation)
        return float(self._epsilon(steps, delta)) if steps else 0.0

    def noise_multiplier(self, event, epsilon, delta):
        """`get_noise_multiplier(target_epsilon, target_delta, sample_rate, steps,
        accountant=mechanism)` as Opacus' make_private_with_epsilon calls it (its default
        epsilon_tolerance 0.01), the accountant's settings passed on as get_epsilon's."""
        epsilon = _protocol.value(epsilon, "epsilon")
        delta = _protocol.value(delta, "delta")
        relation, event = _protocol.document(event)
        steps = history(event, relation)
        if len(steps) != 1:
            raise _protocol.UnsupportedCombination(
                "get_noise_multiplier calibrates one constant (sigma, q) over T steps")
        (_, q, n), = steps
        return float(utils.get_noise_multiplier(
            target_epsilon=epsilon, target_delta=delta, sample_rate=q, steps=n,
            accountant=self.mechanism, **self.settings))

    def __repr__(self):
        return f"{type(self).__name__}()"


class RdpAccountant(_OpacusAccountant):
    """Opacus' `RDPAccountant.get_epsilon(delta)`: its default orders, or the setting
    `alphas` (`get_epsilon(delta, alphas=...)`; fractional orders as users pass them)."""

    mechanism = "rdp"
    supports = dict(_OpacusAccountant.supports, settings={"alphas": {"choices": [
        [1.25, 1.5, 1.75, 2.25, 2.5, 3.5, 4.5, 6.5, 8.5, 12.5, 16.5, 24.5, 32.5, 48.5, 64.5],
        [2, 4, 8, 16, 32, 64, 128, 256],
        [1.01, 1.05, 1.1, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0]]}})

    def _epsilon(self, steps, delta):
        return rdp_epsilon(steps, delta, self.settings.get("alphas"))


class PrvAccountant(_OpacusAccountant):
    """Opacus' `PRVAccountant.get_epsilon(delta)` (eps_error 0.01, or the setting
    `eps_error`; delta_error delta/1000)."""

    mechanism = "prv"
    supports = dict(_OpacusAccountant.supports,
                    settings={"eps_error": {"choices": [0.005]}},
                    tolerance={"epsilon": 0.02})

    def _epsilon(self, steps, delta):
        return prv_epsilon(steps, delta, self.settings.get("eps_error", 0.01))


class GdpAccountant(_OpacusAccountant):
    """Opacus' `GaussianAccountant.get_epsilon(delta)`: one constant (sigma, q) only."""

    mechanism = "gdp"

    def _epsilon(self, steps, delta):
        return gdp_epsilon(steps, delta)


MODES = {"rdp": RdpAccountant, "prv": PrvAccountant, "gdp": GdpAccountant}
USAGE = "usage: python -m dpclaims.adapters.opacus rdp|prv|gdp [--supports]"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in MODES:
        sys.exit(USAGE)
    _protocol.serve(MODES[argv[0]](), argv)


if __name__ == "__main__":
    main()
