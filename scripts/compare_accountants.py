#!/usr/bin/env python3
"""dpclaims' accountants against dp_accounting (RDP, PLD) and prv_accountant (PRV).

200 seeded parameter sets: q log-uniform in [1e-3, 1e-1], sigma uniform in [0.6, 4],
T log-uniform in [100, 20000], delta = 1e-5, Poisson sampling, add/remove.
- RDP: both on dp_accounting's default order grid, improved conversion; epsilon must agree
  to 1e-6 relative where dp_accounting's optimum is an integer order (at fractional orders it
  sums the series in absolute value, so dpclaims may be lower, never higher).
- PLD: both at value discretisation 1e-4; pessimistic epsilon within 1e-3.
- PRV: prv_accountant's upper estimate (eps_error 0.01) as a third reference.
dpclaims' time is its own in-process timing (the `seconds` field), not process start-up.
"""
import argparse
import json
import math
import subprocess
import time

import numpy as np
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant
from prv_accountant import Accountant as PrvAccountant

DELTA = 1e-5
ORDERS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))


def dpclaims(binary, accountant, q, sigma, steps, extra=()):
    out = subprocess.run(
        [binary, "epsilon", "--accountant", accountant, "--q", repr(q), "--sigma", repr(sigma),
         "--steps", str(steps), "--delta", repr(DELTA), "--json", *extra],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[0])


def timed(f):
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--skip-pld", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    sets = [(float(10 ** rng.uniform(-3, -1)), float(rng.uniform(0.6, 4.0)),
             int(10 ** rng.uniform(2, math.log10(20000)))) for _ in range(args.n)]

    rdp_rows, pld_rows = [], []
    for i, (q, sigma, steps) in enumerate(sets):
        event = dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))

        def ref_rdp():
            acc = rdp_privacy_accountant.RdpAccountant(ORDERS)
            acc.compose(event, steps)
            return acc.get_epsilon_and_optimal_order(DELTA)

        (ref_eps, ref_order), ref_t = timed(ref_rdp)
        ours = dpclaims(args.bin, "rdp", q, sigma, steps, ["--orders", ",".join(map(repr, ORDERS))])
        # At dp_accounting's optimal order, when it is an integer (exact sums on both sides).
        at_opt = (dpclaims(args.bin, "rdp", q, sigma, steps, ["--orders", repr(float(ref_order))])["epsilon"]
                  if float(ref_order).is_integer() else None)
        rdp_rows.append((q, sigma, steps, ref_eps, ref_order, ref_t, ours["epsilon"], ours["alpha"], ours["seconds"], at_opt))

        if not args.skip_pld:
            def ref_pld():
                acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
                acc.compose(event, steps)
                return acc.get_epsilon(DELTA)

            ref_eps_pld, ref_t_pld = timed(ref_pld)
            prv = PrvAccountant(noise_multiplier=sigma, sampling_probability=q, delta=DELTA,
                                eps_error=0.01, max_compositions=steps)
            _, _, prv_up = prv.compute_epsilon(num_compositions=steps)
            ours = dpclaims(args.bin, "pld", q, sigma, steps)
            pld_rows.append((q, sigma, steps, ref_eps_pld, ref_t_pld, ours["epsilon"], ours["bracket"][0], ours["seconds"], prv_up))
        print(f"\r{i + 1}/{len(sets)}", end="", flush=True)
    print()

    integer = [r for r in rdp_rows if r[9] is not None]
    rel = [abs(r[9] - r[3]) / r[3] for r in integer]
    higher = [r for r in rdp_rows if r[6] > r[3] * (1 + 1e-6)]
    t_ref, t_ours = sum(r[5] for r in rdp_rows), sum(r[8] for r in rdp_rows)
    print(f"RDP ({len(rdp_rows)} runs, dp_accounting grid, improved conversion)")
    print(f"  integer optimum: {len(integer)} runs, max relative |d eps| at that order = {max(rel, default=0):.3e}")
    print(f"  dpclaims above dp_accounting by > 1e-6 relative: {len(higher)} runs")
    print(f"  max |d eps| over all runs = {max(abs(r[6] - r[3]) for r in rdp_rows):.3e}")
    print(f"  time: dp_accounting {t_ref:.3f} s, dpclaims {t_ours:.4f} s, ratio {t_ref / t_ours:.0f}x")
    if pld_rows:
        d = [abs(r[5] - r[3]) for r in pld_rows]
        dprv = [r[5] - r[8] for r in pld_rows]
        t_ref, t_ours = sum(r[4] for r in pld_rows), sum(r[7] for r in pld_rows)
        print(f"PLD ({len(pld_rows)} runs, interval 1e-4)")
        print(f"  max |eps_dpclaims - eps_dp_accounting| = {max(d):.3e} (median {np.median(d):.1e})")
        print(f"  dpclaims pessimistic - PRV upper: max {max(dprv):+.3e}, min {min(dprv):+.3e}")
        print(f"  time: dp_accounting {t_ref:.2f} s, dpclaims {t_ours:.2f} s, ratio {t_ref / t_ours:.1f}x")


if __name__ == "__main__":
    main()
