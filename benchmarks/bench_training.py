"""Training timings: steps per second of gradient descent and Adam at the page's sizes (prints medians, asserts none).

Run: python benchmarks/bench_training.py (--smoke: once each, a few steps, to check that it runs; its figures mean
nothing)
"""

from __future__ import annotations

import os

# One BLAS thread, as in bench_engine.py: on a 2-core machine shared with other work, threaded BLAS makes the
# medians swing from run to run, and at n ≤ 16, d ≤ 8 threads do not help anyway.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import lesson_scenario, sentence_vectors, stall_experiment, target_preset
from engine.presets import random_inputs
from engine.training import Optimiser, TrainingRun, start_training, train_steps

REPEATS = 7


def median_seconds(fn: Callable[[], object], repeats: int = REPEATS) -> tuple[float, float, float]:
    """Median and minimum wall time of `repeats` calls of fn(), and the median CPU time of this process.

    The CPU time is what the calls cost when the machine is shared: wall time also counts waiting for a core."""
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times), min(times), statistics.median(cpu)


def in_chunks(run: TrainingRun, chunks: int, size: int) -> TrainingRun:
    """What a page with a progress bar does: train `chunks` times `size` steps, continuing the run each time."""
    for _ in range(chunks):
        run = train_steps(run, size)
    return run


def cases() -> Iterator[tuple[str, np.ndarray, np.ndarray, int]]:
    """(label, x, target, d_k): the lesson (n=3, d=4), the 7-token sentence (d=8), and 8 random tokens (d=8)."""
    lesson = lesson_scenario()
    sentence = sentence_vectors("el perro come carne porque tiene hambre", 8)
    tokens8 = tuple(f"t{i}" for i in range(8))
    yield "lesson n=3 d=4", lesson.x, target_preset("previous", lesson.tokens), 4
    yield "sentence n=7 d=8", sentence.x, target_preset("tiene_perro", sentence.tokens), 8
    yield "random n=8 d=8", random_inputs(8, 8, 1), target_preset("previous", tokens8), 8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="once each, a few steps: does it run?")
    smoke = parser.parse_args().smoke
    repeats, steps, chunks_of = (1, 10, (2, 5)) if smoke else (REPEATS, 500, (20, 25))
    print(f"BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}; load average {os.getloadavg()[0]:.2f}")
    for label, x, target, d_k in cases():
        for optimiser, learning_rate in ((Optimiser.GD, 0.5), (Optimiser.ADAM, 0.05)):
            run = start_training(x, target, d_k=d_k, optimiser=optimiser, learning_rate=learning_rate)
            med, mn, cpu = median_seconds(partial(train_steps, run, steps), repeats)
            chunks, _, _ = median_seconds(partial(in_chunks, run, *chunks_of), repeats)
            print(
                f"{label:17s} {optimiser:4s}: {steps} steps median {med * 1e3:5.0f} ms (min {mn * 1e3:4.0f} ms, "
                f"CPU {cpu * 1e3:4.0f} ms), {steps / med:5.0f} steps/s; "
                f"in {chunks_of[0]} chunks of {chunks_of[1]}: {chunks * 1e3:4.0f} ms"
            )
    med, mn, cpu = median_seconds(lambda: stall_experiment(), 1 if smoke else 3)
    print(
        f"stall_experiment (d_k=64, n=8, 2 runs of 100 steps): median {med * 1e3:.0f} ms "
        f"(min {mn * 1e3:.0f} ms, CPU {cpu * 1e3:.0f} ms)"
    )


if __name__ == "__main__":
    main()
