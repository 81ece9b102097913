"""The capacity and soak benchmarks run once at their smallest setting (two Locust students for a few seconds
against one server) and print their tables (benchmarks/README.md). They start their servers pinned with taskset,
as they always do; without taskset they skip with the reason, under CI=true that is a failure."""

from __future__ import annotations

import re
import shutil

import pytest

from benchmarks.bench_soak import windows
from tests.benchmark_runs import require, run_benchmark

pytestmark = pytest.mark.slow
NUMBER = r"\d+(?:\.\d+)?"


def test_bench_capacity_prints_a_row_for_one_server():
    require([] if shutil.which("taskset") else ["util-linux"], "bench_capacity.py (taskset)")
    args = ["--sessions", "2", "--replicas", "1", "--no-storm", "--steady", "2", "--warm-pause", "0"]
    out = run_benchmark("bench_capacity.py", *args, timeout=300)
    # | servers | students | first page p50 / p95 | ... | server RSS | failures | load generator CPU |
    row = rf"^\| 1 × class \| 2 \| [\d,]+ / [\d,]+ \| .* \| {NUMBER} \| \d+ \| \d+% \|$"
    assert len([line for line in out.splitlines() if re.search(row, line)]) == 1, out


def test_bench_soak_prints_a_row_per_window_and_the_memory_verdict():
    require([] if shutil.which("taskset") else ["util-linux"], "bench_soak.py (taskset)")
    out = run_benchmark(
        "bench_soak.py", "--sessions", "2", "--minutes", "0.25", "--window", "4", "--warm-pause", "0", timeout=300
    )
    # | window (min) | server RSS min / median / max (MB) | interactions | p50 / p95 | CPU per interaction |
    rows = [line for line in out.splitlines() if re.search(rf"^\| {NUMBER}–{NUMBER} \| \d+ / \d+ / \d+ \|", line)]
    assert len(rows) >= 3, out  # 15 s of class after the join (and Locust's stop), in windows of 4 s
    assert re.search(r"RSS median, first window after everyone joined → last: \d+ → \d+ MB .* failures 0;", out), out


def test_bench_step_bytes_prints_each_step_by_what_its_messages_carry():
    out = run_benchmark("bench_step_bytes.py", timeout=300)
    steps = re.findall(
        r"^(opening the builder|a new temperature \(1,1\)|back to the first \(1,0\)): [\d,]+ B", out, re.M
    )
    assert steps == ["opening the builder", "a new temperature (1,1)", "back to the first (1,0)"], out
    assert re.search(r"^ +[\d,]+ B +\d+x component attention_figure$", out, re.M), out
    assert re.search(r"^ +[\d,]+ B +\d+x ref_hash$", out, re.M), out


def test_bench_soak_cuts_the_run_into_windows_and_keeps_a_short_tail_with_the_last():
    assert windows(0, 10, 5) == [(0, 5), (5, 10)]
    assert windows(0, 11, 5) == [(0, 5), (5, 11)]  # a 1-s tail joins the last window
    assert windows(0, 13, 5) == [(0, 5), (5, 10), (10, 13)]
    assert windows(0, 3, 5) == [(0, 3)]
