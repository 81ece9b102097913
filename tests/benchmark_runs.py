"""Running a benchmark script once, as its user would, for the smoke tests (tests/test_benchmark_smoke.py and
its browser and serving siblings): each script runs at its smallest setting and must print its figures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.browser import find_chromium

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"


def run_benchmark(script: str, *args: str, timeout: float = 120) -> str:
    """`python benchmarks/<script> <args>` from the repository's root; its standard output, once it exited 0."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        # Chromium's headless shell where installed: a smoke run checks that the script runs and prints, and the shell
        # opens a page for a third less CPU (harness.browser.find_chromium)
        env={**os.environ, "PYTHONWARNINGS": "ignore", "ATTENTION_CHROMIUM": find_chromium(headless_shell=True) or ""},
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


def require(missing: list[str], what: str) -> None:
    """Skip, with the reason, when a program the benchmark needs is missing; under CI=true that is a failure."""
    if missing:
        reason = f"{what} needs {', '.join(missing)} (apt-get install {' '.join(missing)})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
