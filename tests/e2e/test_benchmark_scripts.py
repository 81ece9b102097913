"""The benchmark scripts that drive Chromium run once at their smallest setting and print their figures (the
scripts that need neither are in tests/test_benchmark_smoke.py). Without Chromium, or haproxy where a script's
topology needs it, they skip with the reason; under CI=true that is a failure. Each starts its own servers."""

from __future__ import annotations

import re

import pytest

from deploy.topology import program
from harness.browser import find_chromium
from harness.server import ROOT
from harness.tiny_model import TINY_XLMR_VOCAB_CONFIG, write_model
from tests.benchmark_runs import require as require_programs
from tests.benchmark_runs import run_benchmark

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
NUMBER = r"\d+(?:\.\d+)?"


def require(*programs: str) -> None:
    """Chromium, and the Debian `programs` (haproxy) the benchmark's topology starts."""
    missing = [] if find_chromium() else ["chromium"]
    require_programs(missing + [name for name in programs if program(name) is None], "this benchmark")


def lines_matching(pattern: str, text: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


def test_bench_cold_start_prints_the_server_start_and_the_first_page():
    require()
    out = run_benchmark("bench_cold_start.py", "--rounds", "1", timeout=300)
    assert lines_matching(rf"^round 1: server start {NUMBER} s  first page {NUMBER} s  whole {NUMBER} s", out), out
    assert lines_matching(rf"^median: +server start {NUMBER} s", out), out
    assert lines_matching(rf"^imports in a fresh process: streamlit {NUMBER} s; app.py's modules add {NUMBER} s", out)


def test_bench_latency_prints_a_pages_interaction_beside_the_floors():
    require()
    out = run_benchmark("bench_latency.py", "--repeats", "1", "--pages", "softmax", timeout=600)
    assert lines_matching(r"^bench_latency: app at ", out), out
    assert lines_matching(r"^Interaction latency \(press -> last DOM mutation", out), out
    assert lines_matching(r"^  softmax +\d+ +\d+ +\d+/\d+ +\d+/\d+ ", out), out  # its median, p95, the floors'
    assert lines_matching(rf"^load average at the end: {NUMBER}", out), out


def test_bench_versions_prints_two_checkouts_page_by_page():
    require()
    out = run_benchmark(
        "bench_versions.py", "--repo", str(ROOT), "--pages", "softmax", "--repeats", "2", timeout=600
    )  # this checkout against itself: the script's run, not a difference, is what is checked
    (line,) = lines_matching(r"^softmax ", out)
    assert re.search(rf"this ÷ other: median {NUMBER}, p95 {NUMBER}, CPU (?:{NUMBER}|n/a)$", line), out
    assert len(re.findall(rf"CPU +{NUMBER} ms", line)) == 2, line
    assert lines_matching(rf"^load average at the end: {NUMBER}", out), out


def test_bench_page_open_prints_each_browsers_cpu_per_open():
    require()
    out = run_benchmark("bench_page_open.py", "--rounds", "1", "--pages", "softmax", timeout=300)
    assert lines_matching(rf"^round 1 .+ 1 opens: wall {NUMBER} s, machine CPU {NUMBER} s \(server {NUMBER} s\)", out)
    assert lines_matching(rf"^  .+ wall {NUMBER} s, machine CPU {NUMBER} s, per open {NUMBER} s", out), out
    assert lines_matching(rf"^load average at the end: {NUMBER}", out), out


def test_load_sessions_prints_latency_memory_and_isolation():
    require()
    out = run_benchmark("load_sessions.py", "--sessions", "1", "--stagger", "0", timeout=300)
    assert lines_matching(r"^sessions at once: 1; interactions: [1-9]\d*; wall time", out), out
    assert lines_matching(rf"^interaction latency: median {NUMBER} ms, p95 {NUMBER} ms", out), out
    assert lines_matching(rf"^server RSS: {NUMBER} MB before, {NUMBER} MB after", out), out
    assert "isolation: every session saw only its own values" in out


def test_bench_join_prints_the_cpu_of_a_join_direct_and_through_the_balancer():
    require("haproxy")
    out = run_benchmark(
        "bench_join.py", "--rounds", "1", "--browsers", "1", "--together", "1", "--warm-pause", "0", timeout=600
    )
    for variant in ("direct", "balancer"):
        assert lines_matching(rf"^  {variant} +{NUMBER} \[{NUMBER}–{NUMBER}\]; {NUMBER}$", out), out
    assert lines_matching(rf"^  balancer / direct: {NUMBER}$", out), out


def test_bench_drag_prints_the_component_against_st_plotly_chart():
    require()
    out = run_benchmark("bench_drag.py", "--repeats", "1", "--drag-ms", "400", "--steps", "5", timeout=600)
    assert lines_matching(rf"^component ÷ st.plotly_chart: follow median {NUMBER}, p95 {NUMBER}; ", out), out


def test_bench_model_server_prints_memory_and_the_first_open(tmp_path, xlmr_tokenizer):
    require()
    # the tiny model with the 12 layers the script picks and the real XLM-R pieces its sentences are made of
    model = write_model(
        tmp_path / "model", config={**TINY_XLMR_VOCAB_CONFIG, "num_hidden_layers": 12}, tokenizer=xlmr_tokenizer
    )
    out = run_benchmark("bench_model_server.py", "--model-dir", str(model), "--rounds", "1", timeout=600)
    for figure in ("idle_mb", "first_open_s", "three_sessions_open_mb", "end_mb", "peak_mb"):
        assert lines_matching(rf"^  {figure} +{NUMBER}$", out), out
