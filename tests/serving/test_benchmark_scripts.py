"""The capacity benchmark runs once at its smallest setting (two Locust students for a few seconds against one
server) and prints its table (benchmarks/README.md). It starts its servers pinned with taskset, as it always
does; without taskset it skips with the reason, under CI=true that is a failure."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.benchmark_runs import require, run_benchmark

pytestmark = pytest.mark.slow
NUMBER = r"\d+(?:\.\d+)?"


def test_bench_capacity_prints_a_row_for_one_server():
    require([] if shutil.which("taskset") else ["util-linux"], "bench_capacity.py (taskset)")
    args = ["--sessions", "2", "--replicas", "1", "--no-storm", "--steady", "2"]
    out = run_benchmark("bench_capacity.py", *args, timeout=300)
    # | servers | students | first page p50 / p95 | ... | server RSS | failures | load generator CPU |
    row = rf"^\| 1 × class \| 2 \| [\d,]+ / [\d,]+ \| .* \| {NUMBER} \| \d+ \| \d+% \|$"
    assert len([line for line in out.splitlines() if re.search(row, line)]) == 1, out
