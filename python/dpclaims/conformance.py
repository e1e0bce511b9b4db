"""The conformance suite, in-process: `run(accountant)` asks a Python accountant the suite's
queries and judges its answers, as `dpclaims conformance --command CMD` does over the line
protocol (docs/conformance.md: the properties, the verdicts, the regimes).

The accountant is any object with `epsilon(document, delta)` and/or `delta(document,
epsilon)`, where `document` is an event document dict (`{"version": 1, "neighbouring": ...,
"event": {...}}`), and optionally `supports`, its declaration (`{"events": [...],
"relations": [...], "queries": [...]}`). Per query:

- a number is its answer (`math.inf` for +∞; NaN, None or a non-number is `broken`);
- `NotImplementedError` (or a missing method) means "not supported": the check is skipped,
  and counted, unless `supports` declares every event type, the relation and the query kind
  of the query: then it is an `error` ("declared supported, answered unsupported"), except for
  `dpclaims.adapters._protocol.UnsupportedCombination` (a combination of declared parts the
  library does not cover: a skip);
- any other exception is a finding on that check (`error`, with the exception and its
  traceback in the detail): an accountant that raises on a run it claims to support is broken
  for that run;
- KeyboardInterrupt and SystemExit stop the run.
"""
import json
import math
import numbers
import traceback
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from . import _dpclaims
from .adapters._protocol import answer as _answer, refusal as _refusal


@dataclass(frozen=True)
class Outcome:
    """One check: its property, regime, verdict (pass, skipped, loose, imprecise, finding,
    error, broken; `imprecise`: dpclaims' bracket too wide to judge the answer, even refined),
    the accountant's answers (None where it refused or failed), dpclaims' bracket for `reference`,
    the comparison in words, and the queries (protocol lines, with `id` and `delta` or
    `epsilon`)."""

    index: int
    property: str
    regime: str
    verdict: str
    answers: List[Optional[float]]
    bracket: Optional[Tuple[float, float]]
    detail: str
    queries: List[str]
    family: str = ""
    scenario: str = ""

    @property
    def failed(self) -> bool:
        """A finding, an error or a broken answer."""
        return self.verdict in ("finding", "error", "broken")

    def reproducers(self, accountant_name="accountant") -> List[str]:
        """Python lines that ask the accountant the check's queries again (under the query's
        settings: `accountant.configured(settings)`)."""
        lines = []
        for q in self.queries:
            doc = json.loads(q)
            doc.pop("id", None)
            settings = doc.pop("settings", None)
            who = (f"{accountant_name}.configured({json.dumps(settings)})" if settings
                   else accountant_name)
            if doc.pop("calibrate", None):
                eps, delta = doc.pop("epsilon"), doc.pop("delta")
                lines.append(f"{who}.noise_multiplier({json.dumps(doc)}, {eps!r}, {delta!r})")
            elif "delta" in doc:
                at = doc.pop("delta")
                lines.append(f"{who}.epsilon({json.dumps(doc)}, {at!r})")
            else:
                at = doc.pop("epsilon")
                lines.append(f"{who}.delta({json.dumps(doc)}, {at!r})")
        return lines

    def explain(self, accountant_name="accountant") -> str:
        """The verdict, the numbers and the reproducers, in words."""
        s = (f"{self.verdict}: {self.property} ({self.regime}; {self.family}, {self.scenario}): "
             f"{self.detail}\n")
        s += f"  answers: {self.answers}\n"
        if self.bracket is not None:
            s += f"  dpclaims' certified bracket: [{self.bracket[0]}, {self.bracket[1]}]\n"
        for line in self.reproducers(accountant_name):
            s += f"  reproduce: {line}\n"
        return s


@dataclass(frozen=True)
class Scorecard:
    """The result of a run: every check's `Outcome`, the scorecard as text and Markdown (what
    the CLI prints), and whether anything was found."""

    outcomes: List[Outcome]
    text: str
    markdown: str
    failed: bool
    options: dict = field(default_factory=dict)

    def __str__(self):
        return self.text

    def counts(self) -> dict:
        """Checks per verdict."""
        out = {}
        for o in self.outcomes:
            out[o.verdict] = out.get(o.verdict, 0) + 1
        return out

    def findings(self) -> List[Outcome]:
        """The findings, errors and broken answers."""
        return [o for o in self.outcomes if o.failed]


def _number(x):
    """An answer as ("value", float), or ("broken", why) when it is not a number: a bool
    (numpy's too), a str or bytes, None, NaN, or a value a float cannot hold. numpy scalars,
    Decimal and Fraction are numbers."""
    if isinstance(x, (bool, str, bytes)) or x is None or type(x).__name__ == "bool_":
        return ("broken", f"answered {x!r}, not a number")
    if not isinstance(x, numbers.Real) and not hasattr(x, "__float__"):
        return ("broken", f"answered {x!r}, not a number")
    try:
        x = float(x)
    except (TypeError, ValueError, OverflowError) as e:
        return ("broken", f"answered {x!r}, not a float: {type(e).__name__}: {e}")
    if math.isnan(x):
        return ("broken", "answered NaN")
    return ("value", x)


def _asker(accountant):
    """`ask(document, query, value)` for the Rust suite: ("value", x), ("refused", why) for a
    NotImplementedError, ("error", why) for any other exception, ("broken", why) for an answer
    that is not a number."""

    def ask(doc, query, at, settings=None):
        try:
            x = _answer(accountant, doc, query, at, settings)
        except NotImplementedError as e:
            return ("refused", _refusal(e))
        except Exception as e:  # a failure of the accountant on this query: a finding
            tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
            return ("error", f"{type(e).__name__}: {e}\n{tb}")
        return _number(x)

    return ask


def checks(*, seed=1, events=30, full=False, supports=None, settings_samples=1):
    """The suite's checks without asking anything: dicts with `property`, `regime`, `family`,
    `scenario` and `queries` (protocol lines), in the order `run` reports them (with the
    copies under drawn settings when `supports` declares settings). Cheap: for test
    collection."""
    return _dpclaims.conformance_checks(seed, events, full, supports, settings_samples)


def run(accountant, *, seed=1, events=30, full=False, tolerance=1e-3, interval=1e-4,
        name=None, settings_samples=1) -> Scorecard:
    """Runs the suite against `accountant` in-process and judges it (module documentation).

    The options are the CLI's: `seed` (which events and parameters), `events` (base events,
    about forty checks each: every answer is judged by `valid` and `reference`), `full` (wider
    regimes: σ from 0.3, q from 1e-6, T up to 1e5, δ from 1e-12), `tolerance` (relative, of the equalities and of `tight`), `interval` (PLD grid
    spacing of dpclaims' reference), `settings_samples` (copies of the suite asked under
    settings drawn from `supports["settings"]`, beside the defaults; 0: the defaults only).
    `name` labels the accountant in the reproducers. The
    accountant's `supports` attribute, if any, is its declaration (module documentation); a
    `supports` that is not such a dict raises ValueError."""
    name = name or f"{type(accountant).__name__}()"
    out = _dpclaims.conformance_run(_asker(accountant), seed, events, full, tolerance, interval,
                                    getattr(accountant, "supports", None), settings_samples)
    outcomes = [
        Outcome(index=i, property=o["property"], regime=o["regime"], verdict=o["verdict"],
                answers=list(o["answers"]), bracket=o["bracket"], detail=o["detail"],
                queries=list(o["queries"]), family=o["family"], scenario=o["scenario"])
        for i, o in enumerate(out["outcomes"])
    ]
    options = dict(seed=seed, events=events, full=full, tolerance=tolerance, interval=interval,
                   settings_samples=settings_samples)
    findings = "".join("\n" + o.explain(name) for o in outcomes if o.failed)
    return Scorecard(outcomes=outcomes, text=out["scorecard"] + findings,
                     markdown=out["scorecard_markdown"] + findings, failed=out["failed"],
                     options=options)
