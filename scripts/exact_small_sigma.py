#!/usr/bin/env python3
"""50-digit mpmath reference for accounting/tests/small_sigma.rs (a cross-check, not a test).

The Rust test file carries its own exact calculator (log-space adaptive Gauss-Legendre
quadrature of p(x)(1 - e^{eps - L(x)})_+, nested for two steps). This script computes the same
quantities a different way, at 50 significant digits, so that nothing can under- or overflow:

* one step: the privacy profile in closed form from the loss threshold x*,
  delta(eps) = P(X > x*) - e^eps Q(X > x*) (increasing loss; the add pair mirrored), every
  Gaussian tail by mpmath's erfc at 50 digits, x* in closed form (add/remove: a logarithm;
  replace-one: the positive root of a quadratic in e^{x/s^2}); and also mpmath.quad of the
  integrand itself, which must agree;
* two steps: delta_2(eps) = int p(x) delta_1(eps - L(x)) dx by mpmath.quad (tanh-sinh) on a
  partition (steps s/2) of [m - 60 s, m + 60 s] around each mixture mean (the rest of the line holds
  mass below 1e-780);
* the symmetrised fixed-size-batch pair (profile max(delta_R, delta_A)): its loss law is the
  remove pair's on losses > 0, the add pair's on losses < 0 and an atom at 0 (see the Rust
  file's module doc), composed the same way;
* no sampling: the Gaussian closed form Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu);
* epsilon(delta) by bisection on log delta (70 halvings after a bracket).

Run (in any venv with mpmath):  python scripts/exact_small_sigma.py
It prints one line per value; small_sigma.rs's `calculator_matches_mpmath` holds the same
values (copied from this output) and checks its own calculator against them.
"""
import sys

import mpmath as mp

mp.mp.dps = 50


def phi_bar(z):
    return mp.erfc(z / mp.sqrt(2)) / 2


def phi(z):
    return mp.erfc(-z / mp.sqrt(2)) / 2


class Pair:
    """P, Q: lists of (weight, mean), common std s; `inc`: the loss increases with x."""

    def __init__(self, kind, q, s):
        q, s = mp.mpf(q), mp.mpf(s)
        self.kind, self.q, self.s = kind, q, s
        if kind == "remove":
            self.P, self.Q, self.inc = [(1 - q, 0), (q, 1)], [(mp.mpf(1), 0)], True
        elif kind == "add":
            self.P, self.Q, self.inc = [(mp.mpf(1), 0)], [(1 - q, 0), (q, 1)], False
        elif kind == "replace":
            self.P, self.Q, self.inc = [(1 - q, 0), (q, 1)], [(1 - q, 0), (q, -1)], True
        else:
            raise ValueError(kind)
        self.P = [(w, m) for w, m in self.P if w > 0]
        self.Q = [(w, m) for w, m in self.Q if w > 0]

    def pdf(self, comps, x):
        s = self.s
        return mp.fsum(w * mp.exp(-((x - m) ** 2) / (2 * s * s)) for w, m in comps) / (
            s * mp.sqrt(2 * mp.pi)
        )

    def loss(self, x):
        # ln p - ln q with the common e^{-x^2/2s^2} cancelled analytically.
        s2 = self.s**2
        a = mp.fsum(w * mp.exp((2 * m * x - m * m) / (2 * s2)) for w, m in self.P)
        b = mp.fsum(w * mp.exp((2 * m * x - m * m) / (2 * s2)) for w, m in self.Q)
        return mp.log(a) - mp.log(b)

    def tail(self, comps, x, above):
        s = self.s
        if above:
            return mp.fsum(w * phi_bar((x - m) / s) for w, m in comps)
        return mp.fsum(w * phi((x - m) / s) for w, m in comps)

    def threshold(self, eps):
        """x with L(x) = eps; None when L > eps everywhere (remove) / nowhere (add)."""
        q, s2, e = self.q, self.s**2, mp.exp(eps)
        if self.kind == "remove":
            if q == 1:
                return s2 * eps + mp.mpf(1) / 2
            if e <= 1 - q:
                return None
            return s2 * mp.log((e - (1 - q)) / q) + mp.mpf(1) / 2
        if self.kind == "add":
            # L_A(x) = -L_R(x): L_A > eps iff L_R < -eps iff x < x_R(-eps).
            ei = mp.exp(-eps)
            if q == 1:
                return -s2 * eps + mp.mpf(1) / 2
            if ei <= 1 - q:
                return None
            return s2 * mp.log((ei - (1 - q)) / q) + mp.mpf(1) / 2
        # replace-one: u = e^{x/s^2}, c = q e^{-1/(2 s^2)}: c u^2 + (1-q)(1-e^eps) u - c e^eps = 0.
        c = q * mp.exp(-1 / (2 * s2))
        b = (1 - q) * (1 - e)
        root = mp.sqrt(b * b + 4 * c * c * e)
        # Either form of the positive root, whichever has no cancellation (at eps < 0, b > 0
        # and 4c^2e ~ e^{-1/s^2}: -b + root is 0 even at 50 digits).
        u = (-b + root) / (2 * c) if b <= 0 else 2 * c * e / (b + root)
        return s2 * mp.log(u)

    def profile(self, eps):
        """delta(eps) of one step, closed form."""
        x = self.threshold(eps)
        e = mp.exp(eps)
        if x is None:
            return (1 - e) if self.inc else mp.mpf(0)
        if self.inc:
            return self.tail(self.P, x, True) - e * self.tail(self.Q, x, True)
        return self.tail(self.P, x, False) - e * self.tail(self.Q, x, False)

    def profile_quad(self, eps):
        """delta(eps) of one step by quadrature of p (1 - e^{eps - L})_+."""
        x = self.threshold(eps)
        if x is None:
            return (1 - mp.exp(eps)) if self.inc else mp.mpf(0)
        s = self.s
        f = lambda t: self.pdf(self.P, t) * (1 - mp.exp(eps - self.loss(t)))
        means = [m for _, m in self.P]
        if self.inc:
            end = max(x, max(means)) + 60 * s
            pts = [x + k * (end - x) / 400 for k in range(401)]
        else:
            end = min(x, min(means)) - 60 * s
            pts = [end + k * (x - end) / 400 for k in range(401)]
        return mp.quad(f, pts)

    def nodes(self):
        s = self.s
        pts = set()
        for _, m in self.P:
            for k in range(-120, 121):
                pts.add(m + k * s / 2)
        return sorted(pts)

    def loss_range(self):
        """The finite ends of the loss range (where the profile turns into 1 - e^u or 0)."""
        if self.q == 1 or self.kind == "replace":
            return []
        return [mp.log(1 - self.q)] if self.kind == "remove" else [-mp.log(1 - self.q)]

    def kink_points(self, eps, kinks, sign=1):
        """The x where eps - sign L(x) reaches a kink u of the inner profile."""
        out = []
        for u in kinks:
            x = self.threshold(sign * (eps - u))
            if x is not None and mp.isfinite(x):
                out.append(x)
        return out

    def delta2(self, eps):
        """delta of two steps: int p(x) delta_1(eps - L(x)) dx, broken where the argument
        reaches the ends of the loss range (without them tanh-sinh was off by 2.4e-8 at
        remove q 0.01, s 0.3, eps 2)."""
        f = lambda x: self.pdf(self.P, x) * self.profile(eps - self.loss(x))
        pts = sorted(set(self.nodes() + self.kink_points(eps, self.loss_range())))
        return mp.quad(f, pts)


class Symmetrised:
    """The fixed-size-batch step bound: profile max(delta_R, delta_A) of remove(q, s)."""

    def __init__(self, q, s):
        self.R, self.A = Pair("remove", q, s), Pair("add", q, s)
        self.q, self.s = mp.mpf(q), mp.mpf(s)
        R = self.R
        half = mp.mpf(1) / 2  # L_R(x) > 0 iff x > 1/2
        self.atom = 1 - R.tail(R.P, half, True) - R.tail(R.Q, half, True)

    def profile(self, eps):
        return max(self.R.profile(eps), self.A.profile(eps))

    def delta2(self, eps):
        R, s = self.R, self.s
        half = mp.mpf(1) / 2
        f = lambda x: (
            R.pdf(R.P, x) * self.profile(eps - R.loss(x))
            + R.pdf(R.Q, x) * self.profile(eps + R.loss(x))
        )
        kinks = R.kink_points(eps, [mp.mpf(0)]) + R.kink_points(eps, [mp.mpf(0)], -1)
        pts = sorted(set([half] + [p for p in R.nodes() + kinks if p > half]))
        return mp.quad(f, pts) + self.atom * self.profile(eps)


def gaussian_delta(mu, eps):
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return phi(mu / 2 - eps / mu) - mp.exp(eps) * phi(-mu / 2 - eps / mu)


def epsilon_of(delta_fn, delta, halvings=70):
    """Bisection on log delta for delta(eps) = delta (delta_fn decreasing)."""
    lo, hi = mp.mpf(0), mp.mpf(1)
    if delta_fn(lo) <= delta:
        return lo
    while delta_fn(hi) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(halvings):
        mid = (lo + hi) / 2
        if delta_fn(mid) > delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def show(name, v):
    print(f"{name:58s} {mp.nstr(v, 20)}")
    sys.stdout.flush()


def main():
    # The reference values.
    ro = Pair("replace", 0.5, 0.02)
    show("replace q0.5 s0.02 T1 eps(1e-5)", epsilon_of(ro.profile, mp.mpf("1e-5")))
    ar_r, ar_a = Pair("remove", 0.1, 0.025), Pair("add", 0.1, 0.025)
    show("remove q0.1 s0.025 T1 eps(1e-5)", epsilon_of(ar_r.profile, mp.mpf("1e-5")))
    show("add q0.1 s0.025 T1 eps(1e-5)", epsilon_of(ar_a.profile, mp.mpf("1e-5")))
    show("remove q0.5 s0.02 T1 delta(1500)", Pair("remove", 0.5, 0.02).profile(1500))
    show("add q0.5 s0.02 T1 delta(1500)", Pair("add", 0.5, 0.02).profile(1500))
    show("none replace s0.02 T1 eps(1e-5)",
         epsilon_of(lambda e: gaussian_delta(2 / mp.mpf("0.02"), e), mp.mpf("1e-5")))
    show("none replace s0.03 T10 eps(1e-5)",
         epsilon_of(lambda e: gaussian_delta(2 * mp.sqrt(10) / mp.mpf("0.03"), e), mp.mpf("1e-5")))
    ro2 = Pair("replace", 0.3, 0.035)
    show("replace q0.3 s0.035 T2 delta(710.5)", ro2.delta2(mp.mpf("710.5")))
    # eps(1e-5) of two steps is checked the cheap way: delta_2 at the Rust calculator's eps.
    for e in RUST_EPS2:
        show(f"replace q0.3 s0.035 T2 delta({e})", ro2.delta2(mp.mpf(e)))

    # Spot values the Rust calculator is checked against (calculator_matches_mpmath).
    for kind, q, s, eps in ONE_STEP:
        p = Pair(kind, q, s)
        show(f"{kind} q{q} s{s} T1 delta({eps})", p.profile(mp.mpf(eps)))
        show(f"{kind} q{q} s{s} T1 delta_quad({eps})", p.profile_quad(mp.mpf(eps)))
    for kind, q, s, eps in TWO_STEPS:
        show(f"{kind} q{q} s{s} T2 delta({eps})", Pair(kind, q, s).delta2(mp.mpf(eps)))
    show("gaussian mu 2*sqrt2/0.1 delta(300)", gaussian_delta(2 * mp.sqrt(2) / mp.mpf("0.1"), 300))
    for q, s, eps in SYMMETRISED:
        sym = Symmetrised(q, s)
        show(f"sym q{q} s{s} T2 delta({eps})", sym.delta2(mp.mpf(eps)))
        # The premise of the symmetrised law: delta_R >= delta_A for eps >= 0.
        worst = min(sym.R.profile(e) - sym.A.profile(e)
                    for e in [mp.mpf(k) / 64 * -mp.log(1 - sym.q) for k in range(1, 65)])
        show(f"sym q{q} s{s} min(delta_R - delta_A) on (0, -ln(1-q)]", worst)


# eps(1e-5) of replace q0.3 s0.035 T2 as the Rust calculator brackets it (both ends).
RUST_EPS2 = ["9.62867225759830035e2", "9.62867225851152625e2"]
ONE_STEP = [
    ("remove", 0.1, 0.025, "945.5"), ("add", 0.1, 0.025, "0.05"),
    ("replace", 0.5, 0.02, "1454.4"), ("remove", 0.001, 0.3, "1"),
    ("add", 0.01, 0.05, "0.005"), ("replace", 0.2, 0.1, "40"),
    ("remove", 0.5, 0.02, "1500"), ("replace", 0.2, 0.01, "-3"),
    ("remove", 0.3, 0.05, "-0.2"),
]
TWO_STEPS = [
    ("remove", 0.1, 0.05, "400"), ("add", 0.1, 0.05, "0.1"),
    ("remove", 0.01, 0.3, "2"), ("replace", 1.0, 0.1, "300"),
    ("replace", 0.2, 0.01, "10488.49"),
]
SYMMETRISED = [(0.1, 0.025, "1900"), (0.5, 0.15, "60")]


if __name__ == "__main__":
    main()
