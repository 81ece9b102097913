"""Engine timings: prints medians (not a test; these machines are noisy, so nothing here asserts a time).

Run: python benchmarks/bench_engine.py
"""

from __future__ import annotations

import os

# One BLAS thread: on a 2-core machine shared with other work, threaded BLAS makes the medians swing 5x
# from run to run; the app's matrices are tiny, where threads do not help anyway.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

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
    rng = np.random.default_rng(0)
    n, d = 512, 64
    x = rng.standard_normal((n, d))
    w_q, w_k, w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))

    # the bare formula in numpy, no intermediates kept, no checks: the floor for `attention`
    def baseline() -> np.ndarray:
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        s = q @ k.T / np.sqrt(d)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)) @ v

    base_med, _ = median_seconds(baseline, 50)
    att_med, att_min = median_seconds(lambda: attention(x, w_q, w_k, w_v), 50)
    causal_med, _ = median_seconds(lambda: attention(x, w_q, w_k, w_v, mask="causal"), 50)
    print(f"BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}")
    print(
        f"attention n={n} d={d}: median {att_med * 1e3:.2f} ms (min {att_min * 1e3:.2f} ms); "
        f"bare numpy formula {base_med * 1e3:.2f} ms; ratio {att_med / base_med:.2f}x"
    )
    print(f"attention n={n} d={d}, causal mask: median {causal_med * 1e3:.2f} ms")

    dks = [4, 16, 64, 256, 1024, 4096]
    for samples in (5_000, 20_000):
        med, mn = median_seconds(partial(scaling_experiment, dks, samples, seed=0), 3)
        print(
            f"scaling_experiment d_k up to 4096 ({len(dks)} values), {samples} samples: "
            f"median {med:.2f} s (min {mn:.2f} s)"
        )
    draws = 2 * 20_000 * sum(dks)
    gen_med, _ = median_seconds(lambda: np.random.default_rng(0).standard_normal(draws // 10), 3)
    print(f"  floor: drawing its {draws / 1e6:.0f} M normal numbers takes about {gen_med * 10:.2f} s on this machine")


if __name__ == "__main__":
    main()
