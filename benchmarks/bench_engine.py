"""Engine timings: prints medians (not a test; these machines are noisy, so nothing here asserts a time).

Run: python benchmarks/bench_engine.py (--smoke: once each at small sizes, to check that it runs; its figures mean
nothing)
"""

from __future__ import annotations

import os

# One BLAS thread: on a 2-core machine shared with other work, threaded BLAS makes the medians swing 5x
# from run to run; the app's matrices are tiny, where threads do not help anyway.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import attention, scaling_experiment


def median_seconds(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median and minimum wall time of `repeats` calls of fn()."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="once each at small sizes: does it run?")
    smoke = parser.parse_args().smoke
    repeats, few = (1, 1) if smoke else (50, 3)
    rng = np.random.default_rng(0)
    n, d = (16, 8) if smoke else (512, 64)
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))

    # the bare formula in numpy, no intermediates kept, no checks: the floor for `attention`
    def baseline() -> np.ndarray:
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        s = q @ k.T / np.sqrt(d)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)) @ v

    base_med, _ = median_seconds(baseline, repeats)
    att_med, att_min = median_seconds(lambda: attention(x, w_q, w_k, w_v), repeats)
    causal_med, _ = median_seconds(lambda: attention(x, w_q, w_k, w_v, mask="causal"), repeats)
    print(f"BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}")
    print(
        f"attention n={n} d={d}: median {att_med * 1e3:.2f} ms (min {att_min * 1e3:.2f} ms); "
        f"bare numpy formula {base_med * 1e3:.2f} ms; ratio {att_med / base_med:.2f}x"
    )
    print(f"attention n={n} d={d}, causal mask: median {causal_med * 1e3:.2f} ms")

    dks = [4, 16] if smoke else [4, 16, 64, 256, 1024, 4096]
    sample_counts = (500,) if smoke else (5_000, 20_000)
    for samples in sample_counts:
        med, mn = median_seconds(partial(scaling_experiment, dks, samples, seed=0), few)
        print(
            f"scaling_experiment d_k up to {dks[-1]} ({len(dks)} values), {samples} samples: "
            f"median {med:.2f} s (min {mn:.2f} s)"
        )
    draws = 2 * sample_counts[-1] * sum(dks)
    gen_med, _ = median_seconds(lambda: np.random.default_rng(0).standard_normal(draws // 10), few)
    print(f"  floor: drawing its {draws / 1e6:.3g} M normal numbers takes about {gen_med * 10:.2f} s on this machine")


if __name__ == "__main__":
    main()
