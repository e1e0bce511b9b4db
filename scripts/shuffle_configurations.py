#!/usr/bin/env python3
"""Shuffled batches, smallest case: does the random-allocation pair dominate shuffling? (#30 item 4)

One epoch of DP-SGD with shuffled batches, k = 2 batches of b = 1 record: the differing record
(z in D, z' in D') and one other record x, the same in both datasets. A uniform permutation puts
z in batch J and x in the other batch, so the other record's place is *determined* by the
record's: this is the correlation that random allocation (balls-in-bins) does not have. Batch j
releases y_j = (its record's clipped gradient) + N(0, sigma^2 I), gradients in units of C, so
||z||, ||z'||, ||x|| <= 1. Replace-one; z = e1, z' = -e1 (sensitivity 2 in the record's batch);
the adversary chooses x. Configurations (x = -(cos t) e1 - (sin t) e2, t = theta):

  (a) homogeneous, theta = 0, x = -e1: after shifting by e1 the pair is
      1/2 N((2,0)) + 1/2 N((0,2)) against N(0) (sigma^2 I) -- the random-allocation / balls-in-bins
      pair of k = 2 steps at sensitivity 2, and the audit's worst configuration of #32;
  (b) orthogonal, theta = pi/2, x = -e2: every batch output lives in span(e1, e2), and the e2
      coordinates show (noisily) where x is, hence where z is;
  (c) position revealed: N(0) against N(2), the Gaussian mechanism with mu = 2/sigma -- the audit's
      certified upper end (revealing the permutation is a post-processing that can only help).

Reduction (exact). With s = (y_1 + y_2)/sqrt2 and t = (y_1 - y_2)/sqrt2 (independent, sigma^2 I):
  s ~ N((z + x)/sqrt2) under D, N((z' + x)/sqrt2) under D': a Gaussian shift of norm
      |z - z'|/sqrt2 = sqrt2, i.e. mu_s = sqrt2/sigma;
  t ~ 1/2 N(a) + 1/2 N(-a) under D, 1/2 N(c) + 1/2 N(-c) under D', a = (z - x)/sqrt2,
      c = (z' - x)/sqrt2, vectors of span(e1, e2): the loss of t is
      L_t = ln cosh(<t,a>/s2) - ln cosh(<t,c>/s2) - (|a|^2 - |c|^2)/(2 s2),  s2 = sigma^2.
The privacy loss is L_s + L_t with L_s Gaussian (N(mu_s^2/2, mu_s^2) under D), so
  delta_{D||D'}(eps) = E_{t ~ N(a)} [ dG(eps - L_t(t); mu_s) ]   (the mixture's +-a are symmetric),
  delta_{D'||D}(eps) = E_{t ~ N(c)} [ dG(eps + L_t(t); mu_s) ],
  dG(e; mu) = Phi(mu/2 - e/mu) - e^e Phi(-mu/2 - e/mu)   (exact for every real e),
a two-dimensional integral against a Gaussian, done with a tensor trapezoid rule on
[-W, W]^2 in standard units (spectrally accurate for this analytic integrand) and checked with
tensor Gauss-Hermite. Check against an exact formula: with L_t replaced by the loss of the
Gaussian pair N(a) vs N(c) (configuration (a) with the position revealed) the same code must give
the Gaussian mechanism with mu = 2/sigma, i.e. (c). Independent cross-checks (--check):
(i) plain Monte Carlo in the original 4 coordinates (y_1, y_2 in R^2; the likelihood ratio of the
two-component mixtures written out, no reduction) at delta = 1e-2 with a 99.9% CI; (ii) mpmath
quadrature (its own tanh-sinh rule) of one reduced integral.

Then (--scan) the worst theta in [0, pi] per (sigma, delta), and (--mc-b2) a Monte Carlo look at
b >= 2: k = 2 batches of b = 2 (n = 4: z and x_1..x_3), the other records homogeneous (all -e1)
against orthogonal (x_i = -e_{i+1}), exact likelihood ratio summed over the 6 placements, and
k = 3, b = 1 likewise.

    python3 -m venv /work/venvs/sh && /work/venvs/sh/bin/pip install numpy scipy mpmath
    /work/venvs/sh/bin/python scripts/shuffle_configurations.py            # the table
    /work/venvs/sh/bin/python scripts/shuffle_configurations.py --check    # + the cross-checks
    /work/venvs/sh/bin/python scripts/shuffle_configurations.py --scan     # + theta scan
    /work/venvs/sh/bin/python scripts/shuffle_configurations.py --mc-b2    # + b = 2, k = 3 MC

Light: each epsilon is a root-find over a 2-D quadrature of ~ 10^6 points; the table takes about
1.5 min on one core, --check 6 min (mpmath most of it), --scan 3 min, --mc-b2 1 min.
"""
import argparse
import math
import sys

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr

SQ2 = math.sqrt(2.0)


def log_cosh(x):
    ax = np.abs(x)
    return ax + np.log1p(np.exp(-2.0 * ax)) - math.log(2.0)


def dG(e, mu):
    """delta of the Gaussian mechanism mu at 'epsilon' e (any real e), vectorised, stable."""
    e = np.asarray(e, dtype=float)
    la = log_ndtr(mu / 2 - e / mu)
    lb = log_ndtr(-mu / 2 - e / mu) + e
    # la >= lb always (the hockey-stick is >= 0); exp(la) * (1 - exp(lb - la))
    return np.exp(la) * (-np.expm1(np.minimum(lb - la, 0.0)))


def eps_gauss(delta, mu):
    return brentq(lambda e: float(dG(e, mu)) - delta, -50, 500, xtol=1e-12)


class Config:
    """The reduced pair for x = -r (cos th e1 + sin th e2), z = e1, z' = -e1."""

    def __init__(self, theta, sigma, r=1.0, revealed=False):
        x = -r * np.array([math.cos(theta), math.sin(theta)])
        z, zp = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
        self.a = (z - x) / SQ2
        self.c = (zp - x) / SQ2
        self.sigma = sigma
        self.mu_s = np.linalg.norm(z - zp) / SQ2 / sigma
        self.revealed = revealed  # t-part a Gaussian pair N(a) vs N(c) (J revealed)

    def L_t(self, t1, t2):
        s2 = self.sigma ** 2
        ta = (t1 * self.a[0] + t2 * self.a[1]) / s2
        tc = (t1 * self.c[0] + t2 * self.c[1]) / s2
        if self.revealed:
            return ta - tc - (self.a @ self.a - self.c @ self.c) / (2 * s2)
        return log_cosh(ta) - log_cosh(tc) - (self.a @ self.a - self.c @ self.c) / (2 * s2)


def grid(rule, n, W):
    if rule == "trap":
        w = np.linspace(-W, W, n)
        wt = np.exp(-0.5 * w * w) / math.sqrt(2 * math.pi) * (w[1] - w[0])
    else:  # Gauss-Hermite (probabilists')
        w, wt = np.polynomial.hermite_e.hermegauss(n)
        wt = wt / math.sqrt(2 * math.pi)
    return w, wt


class Quad:
    """delta(eps) of one configuration and one direction by a 2-D tensor rule."""

    def __init__(self, cfg, direction, rule="trap", n=1201, W=11.0):
        w, wt = grid(rule, n, W)
        W1, W2 = np.meshgrid(w, w, indexing="ij")
        self.weight = np.outer(wt, wt).ravel()
        centre = cfg.a if direction == "fwd" else cfg.c
        t1 = centre[0] + cfg.sigma * W1.ravel()
        t2 = centre[1] + cfg.sigma * W2.ravel()
        lt = cfg.L_t(t1, t2)
        # fwd: E_{N(a)} dG(eps - L_t); rev: E_{N(c)} dG(eps + L_t)
        self.shift = -lt if direction == "fwd" else lt
        self.mu = cfg.mu_s

    def delta(self, eps):
        return float(np.sum(self.weight * dG(eps + self.shift, self.mu)))

    def eps(self, delta):
        if self.delta(0.0) <= delta:
            return 0.0
        return brentq(lambda e: self.delta(e) - delta, 0.0, 200.0, xtol=1e-10)


def eps_config(theta, sigma, delta, direction, r=1.0, revealed=False, **kw):
    return Quad(Config(theta, sigma, r, revealed), direction, **kw).eps(delta)


SIGMAS = (0.5, 1.0, 2.0)
DELTAS = (1e-5, 1e-2)


def table():
    print("k = 2, b = 1, one epoch, replace-one (z = +C e1 vs -C e1). epsilon(delta):")
    print(f"{'sigma':>5} {'delta':>6} | {'(a) fwd':>10} {'(a) rev':>10} | {'(b) both':>10} "
          f"{'(b) rev':>10} | {'(c) exact':>10} {'(c) quad':>10} | {'(b)-(a)':>8}")
    rows = []
    for sigma in SIGMAS:
        for delta in DELTAS:
            a_f = eps_config(0.0, sigma, delta, "fwd")
            a_r = eps_config(0.0, sigma, delta, "rev")
            b_f = eps_config(math.pi / 2, sigma, delta, "fwd")
            b_r = eps_config(math.pi / 2, sigma, delta, "rev")
            c_x = eps_gauss(delta, 2.0 / sigma)
            c_q = eps_config(0.0, sigma, delta, "fwd", revealed=True)
            rows.append((sigma, delta, a_f, a_r, b_f, b_r, c_x, c_q))
            print(f"{sigma:5.2f} {delta:6.0e} | {a_f:10.6f} {a_r:10.6f} | {b_f:10.6f} {b_r:10.6f} |"
                  f" {c_x:10.6f} {c_q:10.6f} | {b_f - max(a_f, a_r):+8.4f}")
    return rows


def check_rules():
    print("\nQuadrature rule check (trapezoid n=1201, W=11 vs n=801, W=9 vs Gauss-Hermite n=200):")
    for sigma in SIGMAS:
        for delta in DELTAS:
            vals = [eps_config(math.pi / 2, sigma, delta, "fwd", rule=rule, n=n, W=W)
                    for rule, n, W in (("trap", 1201, 11.0), ("trap", 801, 9.0), ("gh", 200, 0))]
            print(f"  (b) sigma={sigma} delta={delta:.0e}: " + "  ".join(f"{v:.9f}" for v in vals))


def mc_original(theta, sigma, eps, n=4_000_000, seed=1, direction="fwd"):
    """delta(eps) by plain Monte Carlo in the unreduced coordinates (y_1, y_2 in R^2)."""
    rng = np.random.default_rng(seed)
    x = -np.array([math.cos(theta), math.sin(theta)])
    z, zp = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    means_P = [np.concatenate([z, x]), np.concatenate([x, z])]
    means_Q = [np.concatenate([zp, x]), np.concatenate([x, zp])]
    src = means_P if direction == "fwd" else means_Q
    J = rng.integers(0, 2, n)
    Y = np.where(J[:, None] == 0, src[0], src[1]) + sigma * rng.standard_normal((n, 4))
    s2 = sigma ** 2

    def logmix(means):
        ls = np.stack([(Y @ m - 0.5 * m @ m) / s2 for m in means])
        mx = ls.max(0)
        return mx + np.log(np.exp(ls - mx).sum(0)) - math.log(len(means))

    L = logmix(means_P) - logmix(means_Q)
    if direction == "rev":
        L = -L
    v = np.maximum(0.0, 1.0 - np.exp(np.minimum(eps - L, 50.0)))
    m, se = v.mean(), v.std(ddof=1) / math.sqrt(n)
    return m, se


def check_independent():
    print("\nIndependent checks:")
    # (i) unreduced Monte Carlo at delta = 1e-2: delta at the quadrature's eps should be 1e-2.
    for sigma in SIGMAS:
        for theta, name in ((0.0, "(a)"), (math.pi / 2, "(b)")):
            e = eps_config(theta, sigma, 1e-2, "fwd")
            m, se = mc_original(theta, sigma, e, seed=int(sigma * 100 + theta * 10))
            print(f"  MC 4-D {name} sigma={sigma}: at eps={e:.5f} delta_MC = {m:.6f} "
                  f"+- {3.29 * se:.6f} (99.9% CI; quadrature: 0.010000)")
    # (ii) mpmath, one reduced integral: (b) at sigma = 1, delta(eps) at the quadrature's eps(1e-5)
    import mpmath as mp
    mp.mp.dps = 20
    sigma = 1.0
    cfg = Config(math.pi / 2, sigma)
    e = Quad(cfg, "fwd").eps(1e-5)
    mu = mp.mpf(cfg.mu_s)
    a1, a2 = (mp.mpf(v) for v in cfg.a)
    c1, c2 = (mp.mpf(v) for v in cfg.c)
    const = (cfg.a @ cfg.a - cfg.c @ cfg.c) / (2 * sigma ** 2)

    def f(w1, w2):
        t1, t2 = a1 + sigma * w1, a2 + sigma * w2
        lt = mp.log(mp.cosh(t1 * a1 + t2 * a2)) - mp.log(mp.cosh(t1 * c1 + t2 * c2)) - const
        ee = mp.mpf(e) - lt
        d = mp.ncdf(mu / 2 - ee / mu) - mp.exp(ee) * mp.ncdf(-mu / 2 - ee / mu)
        return d * mp.npdf(w1) * mp.npdf(w2)

    val = mp.quad(f, [-mp.inf, 0, mp.inf], [-mp.inf, 0, mp.inf])
    print(f"  mpmath (b) sigma=1: delta({e:.9f}) = {mp.nstr(val, 12)} (quadrature: 1e-05)")


def scan():
    print("\nWorst other record x = -r(cos th e1 + sin th e2) over th in [0, pi] (step pi/12),"
          " r in {0.5, 1}, both directions (trapezoid n=401, W=9):")
    ths = np.linspace(0, math.pi, 13)
    for sigma in SIGMAS:
        for delta in DELTAS:
            best = (-1.0, None, None, None)
            for r in (0.5, 1.0):
                for th in ths:
                    for d in ("fwd", "rev"):
                        e = eps_config(th, sigma, delta, d, r=r, n=401, W=9.0)
                        if e > best[0]:
                            best = (e, th, r, d)
            e, th, r, d = best
            print(f"  sigma={sigma} delta={delta:.0e}: max eps {e:.6f} at th = {th / math.pi:.4f} pi,"
                  f" r = {r}, {d}  (position revealed {eps_gauss(delta, 2 / sigma):.6f})")


class GeneralConfig(Config):
    """Any z, z', x in the unit ball (vectors of R^3): the t-part in an orthonormal basis of
    span(a, c)."""

    def __init__(self, z, zp, x, sigma):
        a3, c3 = (z - x) / SQ2, (zp - x) / SQ2
        q, _ = np.linalg.qr(np.stack([a3, c3], 1))
        self.a, self.c = q.T @ a3, q.T @ c3
        self.sigma = sigma
        self.mu_s = np.linalg.norm(z - zp) / SQ2 / sigma
        self.revealed = False


def random_search(trials=60, sigma=1.0, delta=1e-5, seed=3):
    print(f"\nRandom search over z, z', x in the unit ball of R^3 (sigma={sigma}, delta={delta:.0e},"
          f" {trials} draws, half of them on the sphere, both directions):")
    rng = np.random.default_rng(seed)

    def draw(on_sphere):
        v = rng.standard_normal(3)
        v /= np.linalg.norm(v)
        return v if on_sphere else v * rng.uniform() ** (1 / 3)

    best = (-1.0, None)
    for i in range(trials):
        z, zp, x = (draw(i % 2 == 0) for _ in range(3))
        for d in ("fwd", "rev"):
            e = Quad(GeneralConfig(z, zp, x, sigma), d, n=401, W=9.0).eps(delta)
            if e > best[0]:
                best = (e, (z, zp, x, d))
    e, (z, zp, x, d) = best
    print(f"  max eps {e:.5f} ({d}) at |z-z'| = {np.linalg.norm(z - zp):.3f}, z.x = {z @ x:.3f},"
          f" z'.x = {zp @ x:.3f};  (a) = {eps_config(0.0, sigma, delta, 'fwd'):.5f}")


def mc_general(k, b, others, sigma, eps_list, n=400_000, seed=7, direction="fwd"):
    """k batches of b, records z (differing) and n-1 others (rows of `others`, vectors in R^d).
    Exact likelihood ratio over all placements (record's batch J, its b-1 batch-mates), MC over
    the outputs. Returns {eps: (delta, se)}."""
    import itertools
    rng = np.random.default_rng(seed)
    N = k * b
    d = others.shape[1]
    z = np.zeros(d); z[0] = 1.0
    zp = -z
    idx = list(range(N - 1))
    # placements: an ordered partition of the others into k batches with J's batch short by one;
    # enumerate all permutations of the N records up to order within batches.
    placements = set()
    for perm in itertools.permutations(range(N)):  # record N-1 is z
        batches = tuple(frozenset(perm[j * b:(j + 1) * b]) for j in range(k))
        placements.add(batches)
    placements = list(placements)

    def means(rec):
        out = []
        for bt in placements:
            m = np.zeros(k * d)
            for j, B in enumerate(bt):
                for i in B:
                    m[j * d:(j + 1) * d] += rec if i == N - 1 else others[i]
            out.append(m)
        return np.array(out)

    MP, MQ = means(z), means(zp)
    src = MP if direction == "fwd" else MQ
    pick = rng.integers(0, len(placements), n)
    Y = src[pick] + sigma * rng.standard_normal((n, k * d))
    s2 = sigma ** 2

    def logmix(M):
        ls = (Y @ M.T - 0.5 * np.sum(M * M, 1)) / s2
        mx = ls.max(1, keepdims=True)
        return (mx[:, 0] + np.log(np.exp(ls - mx).sum(1))) - math.log(len(M))

    L = logmix(MP) - logmix(MQ)
    if direction == "rev":
        L = -L
    res = {}
    for e in eps_list:
        v = np.maximum(0.0, 1.0 - np.exp(np.minimum(e - L, 50.0)))
        res[e] = (v.mean(), v.std(ddof=1) / math.sqrt(n))
    return res


def mc_b2(n=400_000):
    print("\nb >= 2 and k = 3 (Monte Carlo over the outputs, exact likelihood ratio summed over the"
          " placements; delta at two fixed eps, +- the 99.9% CI half-width):")
    print("  homog: every other record at -e1; orth: other record i at -e_{i+1} (distinct directions);"
          " same: every other record at -e2")
    for (k, b) in ((2, 2), (3, 1)):
        N = k * b
        hom = np.zeros((N - 1, N)); hom[:, 0] = -1.0
        orth = np.zeros((N - 1, N))
        for i in range(N - 1):
            orth[i, i + 1] = -1.0
        same = np.zeros((N - 1, N)); same[:, 1] = -1.0
        confs = (("homog", hom), ("orth", orth)) + ((("same", same),) if k >= 3 else ())
        for sigma in (0.5, 1.0, 2.0):
            mu = 2 / sigma
            eps_list = [round(eps_gauss(1e-1, mu), 3), round(eps_gauss(1e-2, mu) * 0.6, 3)]
            out = {}
            for ci, (name, oth) in enumerate(confs):
                for di, d in enumerate(("fwd", "rev")):
                    out[(name, d)] = mc_general(k, b, oth, sigma, eps_list, n=n, direction=d,
                                                seed=1000 * k + 100 * b + 10 * ci + di + int(10 * sigma))
            for e in eps_list:
                parts = "  ".join(f"{nm} {d} {out[(nm, d)][e][0]:.4f}+-{3.29 * out[(nm, d)][e][1]:.4f}"
                                  for nm, _ in confs for d in ("fwd", "rev"))
                print(f"  k={k} b={b} sigma={sigma} eps={e}: {parts} | revealed {float(dG(e, mu)):.4f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    p.add_argument("--scan", action="store_true")
    p.add_argument("--mc-b2", action="store_true")
    args = p.parse_args()
    table()
    if args.check:
        check_rules()
        check_independent()
    if args.scan:
        scan()
        random_search()
    if args.mc_b2:
        mc_b2()


if __name__ == "__main__":
    sys.exit(main())
