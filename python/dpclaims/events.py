"""dp_accounting's `DpEvent` objects as dpclaims events (docs/accounting.md, "Events").

    from dp_accounting import dp_event as e
    from dpclaims.events import from_dp_event
    from_dp_event(e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(1.1)), 1000))
    # {"type": "SelfComposed", "event": {"type": "PoissonSampled", ...}, "count": 1000}

This module does not import dp_accounting. An object is recognised by the NAME of its class
(`type(obj).__name__`) in the whitelist `CLASSES`, and its fields are read as attributes, the
names and kinds of the fields coming from the event format's own whitelist
(`dpclaims.adapters._protocol.FIELDS`); inner events are converted the same way. Nothing named
in the input is imported or called, so a pickled, proxied or look-alike object yields data and
nothing else.
"""
import collections.abc
import math
import numbers

from .adapters._protocol import FIELDS, MAX_DEPTH

# dp_accounting's class name -> the event type of dpclaims' format with the same fields.
CLASSES = {
    "NoOpDpEvent": "NoOp",
    "GaussianDpEvent": "Gaussian",
    "LaplaceDpEvent": "Laplace",
    "RandomizedResponseDpEvent": "RandomizedResponse",
    "PoissonSampledDpEvent": "PoissonSampled",
    "SampledWithoutReplacementDpEvent": "SampledWithoutReplacement",
    "SelfComposedDpEvent": "SelfComposed",
    "ComposedDpEvent": "Composed",
    "ZCDpEvent": "ZCDp",
    "DiscreteLaplaceDpEvent": "DiscreteLaplace",
    "MixtureOfGaussiansDpEvent": "MixtureOfGaussians",
    "TruncatedSubsampledGaussianDpEvent": "TruncatedSubsampledGaussian",
    "SampledWithReplacementDpEvent": "SampledWithReplacement",
    "SingleEpochTreeAggregationDpEvent": "SingleEpochTreeAggregation",
    "RepeatAndSelectDpEvent": "RepeatAndSelect",
}
# dp_accounting's classes that have no counterpart on purpose -> why.
REFUSED = {
    "NonPrivateDpEvent": "a non-private operation: no finite (epsilon, delta) exists, and the "
                         "event format has no type for it",
    "UnsupportedDpEvent": "an operation without a DP description (dp_accounting's own "
                          "accountants refuse it)",
}


class DpEventError(ValueError):
    """A DpEvent that cannot be converted: `path` is where (`event.events[2].count`);
    `unsupported` is true for a class with no counterpart in the event format (rather than a
    field of the wrong kind)."""

    def __init__(self, path, message, unsupported=False):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.unsupported = unsupported


def is_dp_event(obj):
    """Whether `obj` looks like a dp_accounting DpEvent: its class, or one of the classes it
    derives from, is named `DpEvent`, or its class name ends in `DpEvent` (dp_accounting's
    naming: `from_dp_event` then converts it or says it cannot). By name: dp_accounting is not
    imported."""
    cls = type(obj)
    return cls.__name__.endswith("DpEvent") or any(c.__name__ == "DpEvent" for c in cls.__mro__)


def _number(v, path):
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        x = float(v)
        if math.isfinite(x):
            return x
    raise DpEventError(path, f"expected a finite number, got {v!r}")


def _integer(v, path):
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and int(v) >= 0:
        return int(v)
    raise DpEventError(path, f"expected an integer >= 0, got {v!r}")


def _sequence(v, path, what):
    if isinstance(v, (str, bytes)) or not isinstance(v, collections.abc.Sequence) or not v:
        raise DpEventError(path, f"expected a non-empty list of {what}, got {v!r}")
    return list(v)


def _shape(v, path):
    """RepeatAndSelect's shape: a finite number, or "inf" for dp_accounting's `numpy.inf`
    (the Poisson law), which JSON cannot write."""
    if isinstance(v, numbers.Real) and not isinstance(v, bool) and float(v) == math.inf:
        return "inf"
    return _number(v, path)


def _convert(obj, path, depth):
    if depth > MAX_DEPTH:
        raise DpEventError(path, f"nested more than {MAX_DEPTH} deep")
    name = type(obj).__name__
    if name in REFUSED:
        raise DpEventError(path, f"{name} is {REFUSED[name]}", unsupported=True)
    if name not in CLASSES:
        raise DpEventError(
            path, f"{name} is not a DpEvent class dpclaims converts "
            f"(one of {', '.join(sorted(CLASSES))})", unsupported=True)
    kind = CLASSES[name]
    out = {"type": kind}
    for field, want in FIELDS[kind].items():
        where = f"{path}.{field}"
        try:
            v = getattr(obj, field)
        except AttributeError:
            raise DpEventError(where, f"{name} has no attribute {field!r}") from None
        if want in ("num", "num=0"):
            v = _number(v, where)
        elif want == "int":
            v = _integer(v, where)
        elif want == "nums":
            v = [_number(x, f"{where}[{i}]")
                 for i, x in enumerate(_sequence(v, where, "numbers"))]
        elif want == "counts":
            # dp_accounting takes one integer or a list (SingleEpochTreeAggregation's
            # step_counts); the format writes a list.
            if isinstance(v, numbers.Integral) and not isinstance(v, bool):
                v = [v]
            v = [_integer(x, f"{where}[{i}]")
                 for i, x in enumerate(_sequence(v, where, "integers"))]
        elif want == "shape":
            v = _shape(v, where)
        elif want == "event":
            v = _convert(v, where, depth + 1)
        elif want == "events":
            if isinstance(v, (str, bytes)) or not isinstance(v, collections.abc.Sequence):
                raise DpEventError(where, f"expected a list of events, got {type(v).__name__}")
            v = [_convert(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v)]
        out[field] = v
    return out


def from_dp_event(obj):
    """The bare event dict (`{"type": "Gaussian", "noise_multiplier": 1.1}`, ...) of a
    dp_accounting DpEvent, recursing into inner events. Raises DpEventError (a ValueError)
    naming the path of the problem (`event.events[2]: ...`) for a class with no counterpart
    (NonPrivateDpEvent, UnsupportedDpEvent, or any class not in `CLASSES`: `unsupported`) or a
    field of the wrong kind."""
    return _convert(obj, "event", 0)
