"""jax_privacy (Google DeepMind): its DP-SGD training accountant as a dpclaims accountant.

    from dpclaims.adapters.jax_privacy import RdpAccountant, PldAccountant

    python -m dpclaims.adapters.jax_privacy rdp|pld [--supports]

jax_privacy 2.0.0 (`pip install jax-privacy`, CPU jax is enough) accounts a training run, not
an event: `DpsgdTrainingAccountant(config).compute_epsilon(num_updates, DpParams(...))`, which
composes dp_accounting events itself (`PoissonSampledDpEvent(q, GaussianDpEvent(nm / m))`,
count = steps) under ADD_OR_REMOVE_ONE, with its RdpAccountantConfig (its own orders, 1.01 to
512) or PldAccountantConfig (interval 1e-4). The adapter flattens the event into such a run:
stages (sampling, num_samples, batch_size, noise multiplier, steps) in order, which must share
the sampling and the batch (a noise schedule `[(step, nm), ...]` is passed as jax_privacy's
`noise_multipliers` list; different rates in one run are a combination refusal).

Specific to jax_privacy:

- the rate is `batch_size / num_samples` (integers): a PoissonSampled rate q is passed as the
  exact ratio `q.as_integer_ratio()` (a power-of-two denominator), so that jax_privacy's
  `bs / float(num_samples)` is q bit for bit;
- `SamplingMethod.POISSON` is the add-remove analysis (PoissonSampled(Gaussian), and a bare
  Gaussian as q = 1); `SamplingMethod.FIXED_BATCH_SIZE` is jax_privacy's replace-one analysis of
  a fixed batch (SampledWithoutReplacement(n, m, Gaussian), and a bare Gaussian as m = n), which
  it reduces to Poisson sampling at q = m / n with the noise multiplier halved (sensitivity 2C):
  the event's noise multiplier is passed as it is, jax_privacy doubles the sensitivity itself;
- epsilon only (`compute_epsilon` at `DpParams.delta`; no delta queries).

SelfComposed multiplies steps, Composed concatenates stages, NoOp adds none (0 steps: epsilon
0, as jax_privacy answers for num_updates = 0).
"""
import sys

from . import _protocol

try:
    from jax_privacy import accounting as jpa
except ModuleNotFoundError as e:
    _protocol.missing_library(e, "jax_privacy", "jax-privacy")

Unsupported = _protocol.Unsupported
Combination = _protocol.UnsupportedCombination

POISSON, FIXED = "poisson", "fixed"
SAMPLING = {POISSON: jpa.SamplingMethod.POISSON, FIXED: jpa.SamplingMethod.FIXED_BATCH_SIZE}


def _gaussian(e, what):
    if e["type"] != "Gaussian":
        raise Combination(f"{what}({e['type']}) (jax_privacy accounts sampled Gaussians)")
    return e["noise_multiplier"]


def stages(e, relation, count=1, out=None):
    """[(sampling, num_samples, batch_size, noise_multiplier, steps)] of a validated event."""
    out = [] if out is None else out
    kind = e["type"]
    if kind == "NoOp" or count == 0:
        return out
    if kind == "SelfComposed":
        return stages(e["event"], relation, count * e["count"], out)
    if kind == "Composed":
        for x in e["events"]:
            stages(x, relation, count, out)
        return out
    if kind == "Gaussian":
        # q = 1 (add-remove) or m = n (replace-one): the whole dataset every step.
        stage = (POISSON if relation == "add-remove" else FIXED, 1, 1, e["noise_multiplier"])
    elif kind == "PoissonSampled":
        if relation != "add-remove":
            raise Combination("PoissonSampled under replace-one (jax_privacy's POISSON "
                              "analysis is add-or-remove)")
        batch, samples = float(e["sampling_probability"]).as_integer_ratio()
        stage = (POISSON, samples, batch, _gaussian(e["event"], kind))
    elif kind == "SampledWithoutReplacement":
        if relation != "replace-one":
            raise Combination("SampledWithoutReplacement under add-remove (jax_privacy's "
                              "FIXED_BATCH_SIZE analysis is replace-one)")
        stage = (FIXED, e["source_dataset_size"], e["sample_size"], _gaussian(e["event"], kind))
    else:
        raise Unsupported(f"{kind} (jax_privacy accounts DP-SGD)")
    if out and out[-1][:4] == stage:
        out[-1] = stage + (out[-1][4] + count,)
    else:
        out.append(stage + (count,))
    return out


class _JaxPrivacyAccountant:
    """`DpsgdTrainingAccountant(config).compute_epsilon` of the event's run; no delta queries."""

    supports = {"events": ["Composed", "Gaussian", "NoOp", "PoissonSampled",
                           "SampledWithoutReplacement", "SelfComposed"],
                "relations": list(_protocol.RELATIONS), "queries": ["epsilon"]}

    def _config(self):
        raise NotImplementedError

    def epsilon(self, event, delta):
        delta = _protocol.value(delta, "delta")
        relation, event = _protocol.document(event)
        run = stages(event, relation)
        if not run:
            return 0.0
        if len({s[:3] for s in run}) != 1:
            raise Combination("stages with different sampling or rates (one batch size and "
                              "dataset size per jax_privacy run)")
        sampling, samples, batch = run[0][:3]
        schedule, step = [], 0
        for s in run:
            schedule.append((step, s[3]))
            step += s[4]
        params = jpa.DpParams(
            noise_multipliers=schedule[0][1] if len(schedule) == 1 else schedule,
            num_samples=samples, delta=delta, batch_size=batch,
            sampling_method=SAMPLING[sampling])
        accountant = jpa.DpsgdTrainingAccountant(self._config())
        return float(accountant.compute_epsilon(step, params))

    def __repr__(self):
        return f"{type(self).__name__}()"


class RdpAccountant(_JaxPrivacyAccountant):
    """jax_privacy's `RdpAccountantConfig()` (its default orders)."""

    def _config(self):
        return jpa.RdpAccountantConfig()


class PldAccountant(_JaxPrivacyAccountant):
    """jax_privacy's `PldAccountantConfig()` (value_discretization_interval 1e-4)."""

    def _config(self):
        return jpa.PldAccountantConfig()


MODES = {"rdp": RdpAccountant, "pld": PldAccountant}
USAGE = "usage: python -m dpclaims.adapters.jax_privacy rdp|pld [--supports]"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in MODES:
        sys.exit(USAGE)
    _protocol.serve(MODES[argv[0]](), argv)


if __name__ == "__main__":
    main()
