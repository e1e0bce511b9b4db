#!/usr/bin/env python3
"""The `stability_trial` workload in NumPy, for a side-by-side speed ratio with the Rust bench.

Same workload as benches/stability_trial.rs: P-pool logistic regression (K = 1024, d = 10,
||x|| <= 1), n = 100, neighbour differing in the last point, Algorithm 1 with |M| = 1,
T = 400 iterates, eta = 0.1, c = 0.99, beta0 = 0.125, two chains under the synchronous
coupling. NumPy is given its best case: B trials advance together, vectorised over trials.

Usage: python3 stability_trial_numpy.py [B]   (needs numpy; not part of the test suite)
"""
import sys
import time

import numpy as np


def pool(rng, k=1024, d=10):
    y = np.where(rng.random(k) < 0.5, 1.0, -1.0)
    x = 0.5 / np.sqrt(np.arange(1, d + 1)) * rng.standard_normal((k, d))
    x[:, 0] += 0.6 * y
    x /= np.maximum(1.0, np.linalg.norm(x, axis=1))[:, None]
    return x, y


def trials(x, y, b, rng, n=100, horizon=400, eta=0.1, c=0.99, beta0=0.125):
    k, d = x.shape
    sigma = np.sqrt((1 - c * c) * beta0)
    data = rng.integers(0, k, (b, n))
    prime = data.copy()
    prime[:, -1] = rng.integers(0, k, b)
    w = np.sqrt(beta0) * rng.standard_normal((b, d))
    w2 = w.copy()
    rows = np.arange(b)
    for _ in range(horizon - 1):
        i = rng.integers(0, n, b)
        for ww, ds in ((w, data), (w2, prime)):
            z = ds[rows, i]
            xs, ys = x[z], y[z]
            m = ys * np.einsum("ij,ij->i", ww, xs)
            ww += (eta * ys / (1.0 + np.exp(m)))[:, None] * xs
        noise = rng.standard_normal((b, d))
        w *= c
        w += sigma * noise
        w2 *= c
        w2 += sigma * noise
    return ((w - w2) ** 2).sum(axis=1)


def main():
    b = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = np.random.default_rng(1)
    x, y = pool(rng)
    trials(x, y, 10, rng)  # warm-up
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        trials(x, y, b, rng)
        best = min(best, (time.perf_counter() - start) / b)
    print(f"numpy, {b} trials vectorised: {best * 1e6:.1f} us per trial (best of 5)")


if __name__ == "__main__":
    main()
