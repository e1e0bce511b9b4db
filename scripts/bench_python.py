#!/usr/bin/env python3
"""What a call of `dpclaims.epsilon` from Python costs, against the CLI, opake-accounting and
dp_accounting, on five DP-SGD runs. A script, not a test (issue #28).

    python3.13 -m venv v && v/bin/pip install . opake-accounting==0.16.1 dp-accounting==0.6.0
    cargo build --release
    v/bin/python scripts/bench_python.py [--reps 7] [--fine] [--bin target/release/dpclaims]

The runs: Poisson-subsampled Gaussian (DP-SGD), add/remove, delta = 1e-5, from typical to hard
(RUNS below). For each run, interleaved over `--reps` repetitions (the order of the methods
rotates from one repetition and run to the next), one call each of:

  python   dpclaims.epsilon(event, 1e-5) in this process, wall time around the call;
  rust     the Bracket's `seconds`: the same call's computation, timed inside Rust, so
           python - rust is what the Python layer adds (dict to document, worker thread,
           GIL release, the Bracket), in microseconds;
  cli      `dpclaims epsilon --event FILE --delta 1e-5 --json` as a subprocess (wall time,
           process start included);
  opake    opake-accounting's PLD at its default discretisation (grid 1e-4, log tail mass
           bound -50, tail mass truncation 1e-15, at most 1e7 grid bins): Poisson-amplified
           Gaussian PLD, self-composed T times, epsilon_at(delta);
  pld      dp_accounting's PLDAccountant at its defaults (value discretisation 1e-4,
           add/remove, pessimistic connect-the-dots estimate);
  rdp      dp_accounting's RdpAccountant at its defaults (its order grid, 1.1 to 1024).

Everything but the CLI runs in this one process. Reported: the medians, and the median over
repetitions of each repetition's ratio (the two calls of a ratio are adjacent in time, so a
load that comes and goes, e.g. a build on the other core, cancels out best). A ratio above 1
means dpclaims is faster. Each library's epsilon is placed against dpclaims' certified
bracket [optimistic, pessimistic]: inside, above (sound, looser) or below the optimistic end
(UNSOUND: no sound accountant can report less). Anything below is checked again against a
bracket on a 10x finer grid (interval 1e-5); `--fine` computes that bracket for every run.

A library that is not installed (or does not import) is named and skipped. The table goes to
stdout and to target/bench_python.md (`--out`).
"""
import argparse
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DELTA = 1e-5

# (q, sigma, T), typical to hard: T q^2 / sigma^2 and the small sigma drive the cost.
RUNS = [
    (0.01, 1.0, 1000),      # typical: 10 epochs at q = 1%
    (0.02, 1.2, 3000),      # 60 epochs
    (0.1, 2.0, 500),        # large batches (q = 10%), 50 epochs
    (0.004, 0.8, 10000),    # long run at small noise, 40 epochs
    (0.001, 0.6, 100000),   # hard: 10^5 steps at sigma 0.6 (wide loss range, many points)
]

METHODS = ["python", "cli", "opake", "pld", "rdp"]
LABEL = {
    "python": "dpclaims (Python)",
    "cli": "dpclaims CLI",
    "opake": "opake-accounting PLD",
    "pld": "dp_accounting PLD",
    "rdp": "dp_accounting RDP",
}


def event_of(q, sigma, steps):
    return {"type": "SelfComposed", "count": steps,
            "event": {"type": "PoissonSampled", "sampling_probability": q,
                      "event": {"type": "Gaussian", "noise_multiplier": sigma}}}


def version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def load_libraries(missing):
    """The callables (q, sigma, T) -> epsilon of the libraries that import; `missing` gets a
    line for each one that does not."""
    libs = {}
    try:
        import dpclaims
        libs["dpclaims"] = dpclaims
    except Exception as e:  # noqa: BLE001 (any import failure is reported and skipped)
        missing.append(f"dpclaims: {type(e).__name__}: {e} (`pip install .` from the checkout)")
    try:
        from opake.accounting import get_discretization
        from opake.api.accounting.core import _native

        config = get_discretization()  # the library's defaults (none set here)
        libs["opake_config"] = config

        def opake(q, sigma, steps):
            # What opake-dpsgd's `(poisson(gaussian(sigma), q) * steps).epsilon_at(delta)`
            # calls, without its Python-side PLD cache (opake-dpsgd needs torch).
            native = config.to_native()
            step = _native.poisson_pld(_native.gaussian_pld(sigma, native), q)
            return step.self_compose(steps).epsilon_at(DELTA)

        libs["opake"] = opake
    except Exception as e:  # noqa: BLE001
        hint = "pip install opake-accounting==0.16.1"
        if isinstance(e, TypeError):  # dataclass(weakref_slot=True) on a CPython without the fix
            hint = "it imports on Python 3.13 (not on 3.11.7 or 3.12.1 here)"
        missing.append(f"opake-accounting: {type(e).__name__}: {e} ({hint})")
    try:
        import dp_accounting
        from dp_accounting.pld import pld_privacy_accountant
        from dp_accounting.rdp import rdp_privacy_accountant

        def dp_event(q, sigma):
            return dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))

        def pld(q, sigma, steps):
            acc = pld_privacy_accountant.PLDAccountant()
            acc.compose(dp_event(q, sigma), steps)
            return acc.get_epsilon(DELTA)

        def rdp(q, sigma, steps):
            acc = rdp_privacy_accountant.RdpAccountant()
            acc.compose(dp_event(q, sigma), steps)
            return acc.get_epsilon(DELTA)

        libs["pld"], libs["rdp"] = pld, rdp
    except Exception as e:  # noqa: BLE001
        missing.append(f"dp-accounting: {type(e).__name__}: {e} (pip install dp-accounting==0.6.0)")
    return libs


class Run:
    def __init__(self, q, sigma, steps, tmp):
        self.q, self.sigma, self.steps = q, sigma, steps
        self.event = event_of(q, sigma, steps)
        self.doc = {"version": 1, "neighbouring": "add-remove", "event": self.event}
        self.path = Path(tmp) / f"run_{q}_{sigma}_{steps}.json"
        self.path.write_text(json.dumps(self.doc))
        self.wall = {m: [] for m in METHODS}   # seconds, one per repetition
        self.cpu = {m: [] for m in METHODS}    # process (or child) CPU seconds
        self.rust = []                          # the Bracket's own `seconds`
        self.cli_rust = []                      # the CLI answer's own `seconds`
        self.eps = {}                           # method -> epsilon (the last answer)
        self.bracket = None
        self.cli_bracket = None
        self.fine = None

    @property
    def name(self):
        return f"q={self.q:g}, σ={self.sigma:g}, T={self.steps}"


def call(run, method, libs, binary):
    """One timed call; records wall and CPU time and the answer."""
    gc.collect()
    if method == "cli":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run([str(binary), "epsilon", "--event", str(run.path), "--delta",
                              repr(DELTA), "--json"], check=True, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        answer = json.loads(out.stdout.splitlines()[0])
        run.cli_bracket = tuple(answer["bracket"])
        run.cli_rust.append(answer["seconds"])
        run.eps["cli"] = answer["bracket"][1]
    else:
        cpu0, start = time.process_time(), time.perf_counter()
        if method == "python":
            b = libs["dpclaims"].epsilon(run.event, DELTA)
        else:
            value = libs[method](run.q, run.sigma, run.steps)
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu0
        if method == "python":
            run.rust.append(b.seconds)
            run.bracket = (b.optimistic, b.pessimistic)
            run.eps["python"] = b.pessimistic
            if b.note:
                print(f"  note ({run.name}): {b.note}", file=sys.stderr)
        else:
            run.eps[method] = float(value)
    return wall, cpu


def place(eps, bracket):
    """Where `eps` lies against dpclaims' bracket, and its distance relative to the nearer end."""
    lo, hi = bracket
    if eps < lo:
        return "below", (eps - lo) / lo
    if eps > hi:
        return "above", (eps - hi) / hi
    return "inside", 0.0


def fixed_overhead(dpclaims, n=1000):
    """python - rust over `n` calls on a NoOp event (no computation): the fixed part of the
    Python layer's cost. Its median and 90th percentile, and the median Rust time."""
    event = {"type": "NoOp"}
    dpclaims.epsilon(event, DELTA)
    over, rust = [], []
    for _ in range(n):
        start = time.perf_counter()
        b = dpclaims.epsilon(event, DELTA)
        over.append(time.perf_counter() - start - b.seconds)
        rust.append(b.seconds)
    over.sort()
    return statistics.median(over), over[int(0.9 * n)], statistics.median(rust)


def ms(x):
    return f"{1e3 * x:.1f}"


def ratio(a, b):
    return f"{statistics.median(x / y for x, y in zip(a, b)):.2f}×"


def eps_cell(run, method):
    if method not in run.eps:
        return "—"
    where, rel = place(run.eps[method], run.bracket)
    if where == "inside":
        return f"{run.eps[method]:.6f} (inside)"
    flag = "**BELOW: UNSOUND**" if where == "below" else "above"
    return f"{run.eps[method]:.6f} ({flag} {rel:+.1e})"


def report(runs, libs, args, missing, overhead):
    have = [m for m in METHODS if (m == "python") or (m == "cli" and args.bin_ok)
            or (m in libs)]
    lines = []
    w = lines.append
    w("## Speed from Python: dpclaims against the CLI, opake-accounting and dp_accounting")
    w("")
    w(f"DP-SGD (Poisson-subsampled Gaussian), add/remove, δ = {DELTA:g}; median of "
      f"{args.reps} interleaved repetitions; ratio = the other's time / `dpclaims.epsilon`'s "
      "(above 1: dpclaims is faster), the median of per-repetition ratios. Overhead = wall "
      "time of the Python call minus the computation timed inside Rust.")
    w("")
    head = ["run (q, σ, T)", "dpclaims ε bracket", "Python overhead (µs)"]
    if "cli" in have:
        head.append("CLI / Python")
    for m, h in (("opake", "opake / dpclaims"), ("pld", "dp_acc PLD / dpclaims"),
                 ("rdp", "dp_acc RDP / dpclaims")):
        if m in have:
            head.append(h)
    for m, h in (("opake", "opake ε"), ("pld", "dp_acc PLD ε"), ("rdp", "dp_acc RDP ε")):
        if m in have:
            head.append(h)
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    for r in runs:
        over = statistics.median(a - b for a, b in zip(r.wall["python"], r.rust))
        row = [r.name, f"[{r.bracket[0]:.6f}, {r.bracket[1]:.6f}]", f"{1e6 * over:.0f}"]
        if "cli" in have:
            row.append(ratio(r.wall["cli"], r.wall["python"]))
        for m in ("opake", "pld", "rdp"):
            if m in have:
                row.append(ratio(r.wall[m], r.wall["python"]))
        for m in ("opake", "pld", "rdp"):
            if m in have:
                row.append(eps_cell(r, m))
        w("| " + " | ".join(row) + " |")
    w("")
    w("Raw medians (ms; CPU/wall in parentheses: above 1, more than one core busy):")
    w("")
    cols = ["rust"] + have
    w("| run | " + " | ".join("dpclaims (Rust `seconds`)" if c == "rust" else LABEL[c]
                             for c in cols)
      + " | Python overhead, min–max (µs) |"
      + (" CLI's own `seconds` | CLI start-up (wall − own) |" if "cli" in have else ""))
    w("|" + "---|" * (len(cols) + 2 + 2 * ("cli" in have)))
    for r in runs:
        cells = [ms(statistics.median(r.rust))]
        for m in have:
            cpu = statistics.median(c / x for c, x in zip(r.cpu[m], r.wall[m]))
            cells.append(f"{ms(statistics.median(r.wall[m]))} ({cpu:.2f})")
        over = [1e6 * (a - b) for a, b in zip(r.wall["python"], r.rust)]
        cells.append(f"{min(over):.0f}–{max(over):.0f}")
        if "cli" in have:
            cells.append(ms(statistics.median(r.cli_rust)))
            cells.append(ms(statistics.median(a - b for a, b in zip(r.wall["cli"], r.cli_rust))))
        w(f"| {r.name} | " + " | ".join(cells) + " |")
    w("")
    w(f"Fixed overhead of `dpclaims.epsilon` (a NoOp event, Rust {1e6 * overhead[2]:.0f} µs): "
      f"median {1e6 * overhead[0]:.0f} µs, 90th percentile {1e6 * overhead[1]:.0f} µs, "
      "of 1000 calls.")
    if "cli" in have:
        same = all(r.cli_bracket == r.bracket for r in runs)
        w(f"CLI and Python brackets identical to the bit on every run: {'yes' if same else 'NO'}.")
    fine = [r for r in runs if r.fine]
    if fine:
        w("")
        w("dpclaims on a 10× finer grid (interval 1e-5), the true ε lies in:")
        w("")
        for r in fine:
            places = ", ".join(f"{LABEL[m]} {place(r.eps[m], r.fine)[0]}"
                               for m in ("opake", "pld", "rdp") if m in r.eps)
            w(f"- {r.name}: [{r.fine[0]:.6f}, {r.fine[1]:.6f}] ({r.fine_seconds:.1f} s); {places}")
    w("")
    versions = [f"dpclaims {version('dpclaims')}"]
    for m, d in (("opake", "opake-accounting"), ("pld", "dp-accounting")):
        if m in libs:
            versions.append(f"{d} {version(d)}")
    w(f"Versions: {', '.join(versions)}; Python {platform.python_version()}; "
      f"{os.cpu_count()} cores ({platform.machine()}, {platform.system()}); "
      f"CLI {args.bin if 'cli' in have else 'not run'}.")
    if "opake" in libs:
        c = libs["opake_config"]
        w(f"Accuracy settings: dpclaims interval 1e-4 (both ends; the CLI's default); "
          f"opake discretization {c.discretization:g}, log x-mass truncation "
          f"{c.log_x_mass_truncation_bound:g}, tail mass truncation {c.tail_mass_truncation:g}, "
          f"max grid {c.max_grid_size:.0e}; dp_accounting PLD value discretisation 1e-4, log mass "
          "truncation -50; RDP on dp_accounting's default orders.")
    for m in missing:
        w(f"Skipped: {m}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "dpclaims")
    ap.add_argument("--out", type=Path, default=ROOT / "target" / "bench_python.md")
    ap.add_argument("--fine", action="store_true",
                    help="also compute dpclaims' bracket at interval 1e-5 for every run (slow)")
    args = ap.parse_args()

    missing = []
    libs = load_libraries(missing)
    for m in missing:
        print(f"missing, skipped: {m}", file=sys.stderr)
    if "dpclaims" not in libs:
        print("dpclaims is what is measured: nothing to do without it", file=sys.stderr)
        return 1
    args.bin_ok = args.bin.is_file() and os.access(args.bin, os.X_OK)
    if not args.bin_ok:
        missing.append(f"the CLI: no executable {args.bin} (cargo build --release)")
        print(f"missing, skipped: {missing[-1]}", file=sys.stderr)
    methods = [m for m in METHODS
               if m == "python" or (m == "cli" and args.bin_ok) or m in libs]

    with tempfile.TemporaryDirectory() as tmp:
        runs = [Run(q, s, t, tmp) for q, s, t in RUNS]
        print("warm-up (one call of each, not counted)", file=sys.stderr)
        for r in runs:
            for m in methods:
                call(r, m, libs, args.bin)
            for v in (r.wall, r.cpu):
                for m in methods:
                    v[m].clear()
            r.rust.clear()
            r.cli_rust.clear()
        for rep in range(args.reps):
            for i, r in enumerate(runs):
                k = (rep + i) % len(methods)
                for m in methods[k:] + methods[:k]:
                    wall, cpu = call(r, m, libs, args.bin)
                    r.wall[m].append(wall)
                    r.cpu[m].append(cpu)
            print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)

    dpclaims = libs["dpclaims"]
    for r in runs:
        below = [m for m in r.eps if m != "cli" and place(r.eps[m], r.bracket)[0] == "below"]
        if below or args.fine:
            start = time.perf_counter()
            b = dpclaims.epsilon(r.event, DELTA, interval=1e-5)
            r.fine, r.fine_seconds = (b.optimistic, b.pessimistic), time.perf_counter() - start
        for m in below:
            still = r.eps[m] < r.fine[0]
            print(f"!!! {LABEL[m]} reports ε = {r.eps[m]!r} at {r.name}, below dpclaims' "
                  f"certified lower end {r.bracket[0]!r}; at interval 1e-5 the bracket is "
                  f"{list(r.fine)}: {'UNSOUND, confirmed' if still else 'not confirmed'}",
                  file=sys.stderr)
    text = report(runs, libs, args, missing, fixed_overhead(dpclaims))
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
