"""dpclaims: certified privacy accounting for DP-SGD, and the tools that check other accountants.

    >>> import dpclaims
    >>> run = {"type": "SelfComposed", "count": 1000, "event": {"type": "PoissonSampled",
    ...        "sampling_probability": 0.01, "event": {"type": "Gaussian", "noise_multiplier": 1.0}}}
    >>> b = dpclaims.epsilon(run, delta=1e-5)
    >>> b.optimistic <= float(b) == b.pessimistic
    True

- `epsilon(event, delta)` / `delta(event, epsilon)`: dpclaims' PLD accountant. The answer is a
  `Bracket`: the true value lies in [optimistic, pessimistic], `float()` of it is the certified
  (pessimistic) value.
- `audit(rows)`: reported (ε, δ) of DP-SGD runs judged unsound, sound-tight or sound-loose.
- `conformance.run(accountant)`: the conformance suite, in-process, against any object with
  `epsilon(event_document, delta)` and/or `delta(event_document, epsilon)`; `testing` turns it
  into one pytest test per check.
- `adapters`: dp_accounting, Opacus and prv_accountant as such accountants.

An event is a dict in dpclaims' event format (docs/accounting.md, "Events"): a bare event
(`{"type": "Gaussian", "noise_multiplier": 1.0}`, with `neighbouring=` giving the relation) or a
whole document (`{"version": 1, "neighbouring": "add-remove", "event": {...}}`); its JSON text;
or a dp_accounting `DpEvent`, converted from its fields by class name (`events.from_dp_event`).

Errors are exceptions naming what is wrong: `EventFormatError` (a ValueError, `.path` the JSON
path of the bad field), `UnsupportedEventError` (a NotImplementedError: dpclaims has no PLD for
it), `ParameterError` (a ValueError, `.name` the parameter), `InternalError` (a RuntimeError: a
bug of dpclaims, caught; the interpreter goes on). Long computations release the GIL, and
Ctrl-C interrupts them.
"""
import json as _json

from . import _dpclaims
from ._dpclaims import (
    Bracket,
    EventFormatError,
    InternalError,
    ParameterError,
    UnsupportedEventError,
    __version__,
)
from . import events as _events

__all__ = [
    "Bracket",
    "EventFormatError",
    "InternalError",
    "ParameterError",
    "UnsupportedEventError",
    "audit",
    "delta",
    "document",
    "epsilon",
]

from .adapters._protocol import RELATIONS  # noqa: E402
#: The PLD grid spacing of the privacy loss (the CLI's default).
DEFAULT_INTERVAL = 1e-4


def _with_path(error, path):
    error.path = path
    return error


def document(event, neighbouring=None):
    """The event document (a dict) of `event`: a bare event dict (it has `type`), a whole
    document (no `type`; `version`, `neighbouring` and `event`), its JSON text (str or bytes),
    or a dp_accounting DpEvent. `neighbouring` ("add-remove", the default, or "replace-one")
    wraps a bare event, and fills in a document that has none; for a document that has one it
    must agree."""
    if neighbouring is not None and neighbouring not in RELATIONS:
        raise ValueError(f"neighbouring={neighbouring!r}: expected one of {RELATIONS}")
    if isinstance(event, (str, bytes)):
        try:
            event = _json.loads(event)
        except ValueError as e:
            raise _with_path(EventFormatError(f"not valid JSON: {e}"), "") from None
    elif _events.is_dp_event(event):
        try:
            event = _events.from_dp_event(event)
        except _events.DpEventError as e:
            kind = UnsupportedEventError if e.unsupported else EventFormatError
            raise _with_path(kind(str(e)), e.path) from None
    if not isinstance(event, dict):
        raise TypeError(
            f"an event is a dict, its JSON text or a dp_accounting DpEvent, not a {type(event).__name__}")
    if "type" in event:
        return {"version": 1, "neighbouring": neighbouring or "add-remove", "event": event}
    given = event.get("neighbouring")
    if neighbouring is not None and given is not None and given != neighbouring:
        raise ValueError(f"neighbouring={neighbouring!r} contradicts the document's {given!r}")
    if given is None and neighbouring is not None:
        event = dict(event, neighbouring=neighbouring)
    return event


def epsilon(event, delta, *, neighbouring=None, interval=DEFAULT_INTERVAL, max_points=None):
    """ε at `delta` of `event` (see `document`), by dpclaims' PLD accountant: a `Bracket`.

    `interval` is the grid spacing of the privacy loss; past `max_points` grid points (default
    2^25, the CLI's) the grid is coarsened 4x at a time and the bracket's `note` says so. The
    same numbers, to the bit, as `dpclaims epsilon --event FILE --delta DELTA`."""
    doc = document(event, neighbouring)
    if max_points is None:
        return _dpclaims.epsilon(doc, delta, interval)
    return _dpclaims.epsilon(doc, delta, interval, max_points)


def delta(event, epsilon, *, neighbouring=None, interval=DEFAULT_INTERVAL, max_points=None):
    """δ at `epsilon` of `event` (see `document`), by dpclaims' PLD accountant: a `Bracket`
    (as `epsilon`, and `dpclaims delta --event FILE --epsilon EPSILON`)."""
    doc = document(event, neighbouring)
    if max_points is None:
        return _dpclaims.delta(doc, epsilon, interval)
    return _dpclaims.delta(doc, epsilon, interval, max_points)


def audit(rows, **options):
    """Audits reported (ε, δ) of DP-SGD runs, as `dpclaims audit --json` does: one dict per
    row with `verdict` (unsound, sound-tight, sound-loose, inconclusive), the certified
    `upper_reference` and `lower_reference`, the Monte Carlo limit and the reasons; a row whose
    references or Monte Carlo cannot be computed comes back as {"line": i, "error": why}.
    `line` is the row's position counted from 1, as the CLI numbers the lines of a file: the
    same rows give the same numbers here and in `dpclaims audit --json`.

    `rows` are dicts with the fields of the CLI's rows (name, sampling, q or batch and n,
    sigma, steps or epochs, delta, epsilon, relation); a row that does not validate raises
    ValueError naming it (0-based) and the field, before anything runs. Options (keywords):
    tolerance (0.05), max_steps (2e8), trials, budget_seconds, importance (True),
    no_reference (False), seed (1), confidence (0.999), max_points."""
    if isinstance(rows, (dict, str, bytes)):
        raise TypeError("rows: expected a list of row dicts")
    return _dpclaims.audit_rows(list(rows), **options)


from . import conformance  # noqa: E402  (uses the names above)
