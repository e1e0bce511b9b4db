#!/usr/bin/env python3
"""Random allocation (k of t steps per epoch, Gaussian, add/remove): dpclaims' certified
epsilon bracket side by side with PLD_accounting 2.0 (`gaussian_allocation_epsilon_range`,
upper and lower) and opake-accounting 0.16.1 (`random_allocation_gaussian_pld`, upper only), with
wall-clock seconds. Not a test: a measurement (issue #30, item 2).

Measured (2 cores, 2026-12-03; the table in docs/accounting.md): t = 100, E = 10, sigma = 1.4262:
dpclaims [0.940412, 0.945080] in 0.5 s, PLD_accounting [0.922802, 0.964719] in 75-115 s,
opake 0.962511 in 22.9 s; t = 500, sigma = 0.8344: dpclaims [1.012807, 1.018336] in 5.1 s,
opake 1.057696 in 35.5 s, PLD_accounting not finished in 20 minutes. opake 0.16.1 imports on
Python 3.13 only (3.11.7 and 3.12.1: a dataclass `weakref_slot` TypeError; the script reports
that and goes on). Measured 2026-12-06 with opake on pyenv's 3.13.0 (k > 1 and small sigma;
the table in docs/accounting.md, "Limits"): t = 100, E = 10, sigma = 1.4262, k = 2: dpclaims
[2.018599, 2.028450] 0.9 s (lower end 1.917832 before the statistic S'), opake 2.058482 19.8 s;
k = 4: [4.387980, 4.431482] 1.5 s (3.976726 before), opake
4.479109 15.9 s; sigma = 0.5, t = 100, k = 1: [11.991914, 12.110372] 34.6 s, opake 12.086399
21.8 s (inside the bracket, and faster).

Usage (venvs of your own; measured with PLD_accounting on 3.11 and opake on 3.13, each run
with `--only` naming the libraries its venv has):
    python3.13 -m venv /work/venvs/ra13
    /work/venvs/ra13/bin/pip install opake-accounting==0.16.1 numpy scipy
    python3.11 -m venv /work/venvs/ra
    /work/venvs/ra/bin/pip install pld-accounting==2.0 numpy scipy
    cargo build --release --locked --bin dpclaims
    /work/venvs/ra12/bin/python scripts/random_allocation_compare.py [--timeout 1200] \
        [--only dpclaims,opake,pld] [--point 100,10,1.4262,1e-5 ...]

dpclaims is run as `dpclaims epsilon --sampling random-allocation --steps-per-epoch t --epochs E
--sigma s --delta d --accountant pld --json` (release build; its JSON answer's `bracket` is
[optimistic, pessimistic], the certified lower and upper ends), with the wall time of the
process; each Python accountant in its own process with a timeout, so a run that does not
finish is reported as such (its seconds: the call, the import excluded). Points (t steps per
epoch, E epochs, sigma, delta): `--point t,E,sigma,delta` (repeatable), by default the issue's
two; a fifth field is k (default 1).

`--mc-truth N` (small t only: the k-subsets are enumerated) adds, at each other accountant's
lower end, a Monte Carlo of N draws (numpy, seeded) of the realised pair's delta there, both
directions, with its standard error: a lower end is wrong if delta there is below the target by
many standard errors. Measured 2026-12-06 (k = 2, t = 3, sigma = 1, E = 1, delta = 1e-3):
PLD_accounting 2.0's lower end 4.24130, where N = 1e7 gives delta 5.611(49)e-4 (remove) and
3.407(37)e-4 (add), and dpclaims' direct integral 5.6048e-4 and 3.3970e-4 (true epsilon
4.01613): for k > 1 its lower end is the lower end of the block decomposition, not of k of t.
"""

import argparse
import json
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time

POINTS = [
    # (t, epochs, sigma, delta, k)
    (100, 10, 1.4262, 1e-5, 1),
    (500, 10, 0.8344, 1e-5, 1),
]


def run_pld_accounting(t, epochs, sigma, delta, k, out):
    from PLD_accounting import gaussian_allocation_epsilon_range

    t0 = time.time()
    upper, lower = gaussian_allocation_epsilon_range(
        delta=delta, sigma=sigma, num_steps=t, num_selected=k, num_epochs=epochs
    )
    out.put({"lower": float(lower), "upper": float(upper), "seconds": time.time() - t0})


def run_opake(t, epochs, sigma, delta, k, out):
    from opake.api.accounting.core import opake_accounting as oa

    t0 = time.time()
    pld = oa.random_allocation_gaussian_pld(sigma, t, k, oa.DiscretizationConfig())
    eps = pld.self_compose(epochs).epsilon_at(delta)
    out.put({"upper": float(eps), "seconds": time.time() - t0})


def in_process(fn, args, timeout):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=fn, args=(*args, q))
    t0 = time.time()
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.terminate()
        p.join()
        return {"error": f"did not finish in {timeout:.0f} s"}
    if q.empty():
        return {"error": f"exited with code {p.exitcode} after {time.time() - t0:.1f} s"}
    return q.get()


def mc_truth(t, k, sigma, epsilon, epochs, draws, seed=1):
    """delta(epsilon) of the realised pair P_k = mean over k-subsets A of N(1_A, sigma^2 I_t)
    against Q = N(0, sigma^2 I_t), E epochs, [remove, add], each (mean, standard error), by
    Monte Carlo of the privacy loss (y drawn from P_k for remove, from Q for add)."""
    import itertools

    import numpy as np

    rng = np.random.default_rng(seed)
    subsets = np.array(list(itertools.combinations(range(t), k)))
    if len(subsets) > 2000:
        raise ValueError(f"C({t},{k}) = {len(subsets)} subsets: too many to enumerate")
    out = []
    for remove in (True, False):
        total, total2, n, chunk = 0.0, 0.0, 0, 200_000
        while n < draws:
            loss = np.zeros(chunk)
            for _ in range(epochs):
                y = rng.standard_normal((chunk, t)) * sigma
                if remove:
                    pick = subsets[rng.integers(len(subsets), size=chunk)]
                    np.put_along_axis(y, pick, np.take_along_axis(y, pick, 1) + 1.0, 1)
                a = (y[:, subsets].sum(2) - k / 2) / sigma**2
                m = a.max(1)
                one = m + np.log(np.exp(a - m[:, None]).mean(1))
                loss += one if remove else -one
            v = np.maximum(0.0, -np.expm1(epsilon - loss))
            total, total2, n = total + v.sum(), total2 + (v * v).sum(), n + chunk
        mean = total / n
        out.append((mean, math.sqrt(max(total2 / n - mean * mean, 0.0) / n)))
    return out


def run_dpclaims(binary, t, epochs, sigma, delta, k, timeout):
    cmd = [
        binary, "epsilon", "--sampling", "random-allocation", "--selected", str(k),
        "--steps-per-epoch", str(t),
        "--epochs", str(epochs), "--sigma", str(sigma), "--delta", str(delta),
        "--accountant", "pld", "--json",
    ]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"did not finish in {timeout:.0f} s"}
    secs = time.time() - t0
    if r.returncode != 0:
        return {"error": r.stderr.strip()[-300:]}
    ans = json.loads(r.stdout)
    lower, upper = ans["bracket"]
    out = {"lower": lower, "upper": upper, "seconds": secs, "own_seconds": ans["seconds"],
           "interval": ans["interval"]}
    if ans.get("note"):
        out["note"] = ans["note"]
    return out


def point(text):
    t, epochs, sigma, delta, *k = text.split(",")
    return int(t), int(epochs), float(sigma), float(delta), int(k[0]) if k else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=1200.0)
    ap.add_argument("--only", default="dpclaims,opake,pld")
    ap.add_argument("--point", type=point, action="append",
                    help="t,E,sigma,delta[,k] (repeatable; default: the issue's two points)")
    ap.add_argument("--mc-truth", type=float, default=0,
                    help="draws of the realised pair's Monte Carlo at the others' lower ends")
    ap.add_argument(
        "--binary",
        default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "dpclaims"),
    )
    args = ap.parse_args()
    which = set(args.only.split(","))
    rows = []
    for t, epochs, sigma, delta, k in args.point or POINTS:
        row = {"t": t, "epochs": epochs, "sigma": sigma, "delta": delta, "k": k}
        if "dpclaims" in which:
            row["dpclaims"] = run_dpclaims(args.binary, t, epochs, sigma, delta, k, args.timeout)
        if "opake" in which:
            row["opake"] = in_process(run_opake, (t, epochs, sigma, delta, k), args.timeout)
        if "pld" in which:
            row["pld_accounting"] = in_process(
                run_pld_accounting, (t, epochs, sigma, delta, k), args.timeout
            )
        if args.mc_truth > 0:
            for name in ("pld_accounting",):
                lower = row.get(name, {}).get("lower")
                if lower is not None:
                    row[name]["mc_truth_at_lower"] = mc_truth(
                        t, k, sigma, lower, epochs, int(args.mc_truth)
                    )
        rows.append(row)
        print(json.dumps(row), flush=True)
    # Side by side, with ratios to dpclaims' ends and the sign checks of the issue.
    print()
    for row in rows:
        d = row.get("dpclaims", {})
        print(f"t={row['t']} k={row['k']} E={row['epochs']} sigma={row['sigma']} "
              f"delta={row['delta']}")
        for name in ("dpclaims", "pld_accounting", "opake"):
            r = row.get(name)
            if r is None:
                continue
            if "error" in r:
                print(f"  {name:15s} {r['error']}")
                continue
            lo, up = r.get("lower"), r.get("upper")
            lo_text = f"{lo:.6f}" if lo is not None else "-"
            text = f"  {name:15s} lower {lo_text:>10} upper {up:.6f}"
            text += f"  {r['seconds']:.2f} s"
            if name != "dpclaims" and "upper" in d:
                text += f"  upper/dpclaims-upper {up / d['upper']:.5f}"
                text += f"  time ratio {r['seconds'] / d['seconds']:.1f}x"
                if up < d["lower"]:
                    text += "  !! upper below dpclaims' certified lower end"
                if lo is not None and lo > d["upper"]:
                    text += "  !! lower above dpclaims' certified upper end"
            print(text)
            truth = r.get("mc_truth_at_lower")
            if truth:
                (rm, rs), (am, as_) = truth
                text = (f"    realised pair at its lower end: delta remove {rm:.4e} +- {rs:.1e},"
                        f" add {am:.4e} +- {as_:.1e}")
                if max(rm + 5 * rs, am + 5 * as_) < row["delta"]:
                    text += "  !! below the target: the true epsilon is below this lower end"
                print(text)


if __name__ == "__main__":
    sys.exit(main())
