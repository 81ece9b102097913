"""Server CPU of one interaction on the √d_k page (issue 26, item 12): prints medians, asserts nothing.

Each interaction is one run of the page in AppTest (the same script run a browser's click starts), timed with
the process's CPU clock, with values no earlier run asked for (a new seed, a new row length): what a student pays
who asks for something nobody asked for before. A run with nothing changed is timed too: the page's own
floor. The engine's experiment alone is timed as well.

Run: python benchmarks/bench_scaling_cpu.py [--repeats 5] [--repo DIR]
(`--repo`: another checkout of the app, e.g. the commit before, unpacked with `git archive`.)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as a server shared by sessions runs it: one BLAS thread
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

SEVEN = [4, 16, 64, 256, 512, 1024, 4096]


def cpu_seconds(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def set_seed(seed: int, at: AppTest) -> None:
    """The experiment's seed set, for the next run."""
    at.number_input(key="scaling_seed").set_value(seed)


def set_row_length(length: int, at: AppTest) -> None:
    """The row's length set, for the next run."""
    at.slider(key="scaling_row_length").set_value(length)


def set_walks(walks: int, steps: int, at: AppTest) -> None:
    """The random walks' two sliders set, for the next run."""
    at.select_slider(key="scaling_walks").set_value(walks)
    at.select_slider(key="scaling_steps").set_value(steps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    os.chdir(repo)

    import logging

    from streamlit.testing.v1 import AppTest

    logging.getLogger("streamlit").setLevel(logging.ERROR)  # AppTest's bare-mode warnings, once per widget

    from engine import scaling_experiment

    print(f"repo: {repo}; load average before: {os.getloadavg()}")
    engine = [cpu_seconds(partial(scaling_experiment, SEVEN, 20_000, seed=seed)) for seed in range(args.repeats)]
    print(
        "engine: scaling_experiment, all seven d_k, 20,000 samples, a new seed each: "
        f"median {statistics.median(engine):.3f} CPU-s (min {min(engine):.3f})"
    )

    def page(section: str, **widgets: object) -> AppTest:
        at = AppTest.from_file(str(repo / "app.py"), default_timeout=120)
        at.session_state["lang"] = "es"
        at.session_state["questions_on"] = False
        at.session_state["scaling_section"] = section
        for key, value in widgets.items():
            at.session_state[key] = value
        at.run()
        at.switch_page("pages/scaling.py").run()
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    results: dict[str, list[float]] = {}

    def timed(name: str, at: AppTest, change: Callable[[AppTest], object]) -> None:
        change(at)  # each repeat asks for values not asked for before: nothing cached helps
        results.setdefault(name, []).append(cpu_seconds(at.run))
        assert not at.exception, [e.value for e in at.exception]

    experiment = page("experiment", scaling_dks=SEVEN, scaling_samples=20_000)
    row = page("row", scaling_row_dk=4096)
    walk = page("walk")
    for i in range(args.repeats):
        timed("nothing changed (the page's floor)", experiment, lambda at: None)
        timed(
            "experiment: all seven d_k, 20,000 samples, a new seed",
            experiment,
            partial(set_seed, 100 + i),
        )
        timed(
            "one row at d_k = 4,096: a new row length (its typical row: 5,000 samples)",
            row,
            partial(set_row_length, [4, 5, 6, 7, 9, 10, 11, 12, 13][i % 9]),
        )
        timed(
            "random walks: 5,000 walks of 1,000 steps",
            walk,
            partial(set_walks, 5000 - 100 * i, 1000),
        )
    for name, seconds in results.items():
        spread = f"min {min(seconds):.3f}, max {max(seconds):.3f}, {len(seconds)} runs"
        print(f"{name}: median {statistics.median(seconds):.3f} CPU-s ({spread})")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
