"""Every benchmark script that needs no browser and no server runs once at its smallest setting and prints its
figures (benchmarks/README.md says what they mean; nothing here asserts a time). The floor apps the browser
benchmarks serve (benchmarks/floors/) run once in AppTest. The scripts that drive Chromium or start servers are
smoke-run with the browser tests (tests/e2e/test_benchmark_scripts.py) and the serving tests
(tests/serving/test_benchmark_scripts.py)."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from harness.tiny_model import TINY_CONFIG, write_model
from tests.benchmark_runs import BENCHMARKS, ROOT, run_benchmark

NUMBER = r"\d+(?:\.\d+)?"
FLOORS = BENCHMARKS / "floors"
FLOOR_APPS = sorted(FLOORS.glob("floor_*.py"))
# Every script of benchmarks/ is smoke-run here, in tests/e2e or in tests/serving, or is a module the scripts import.
SMOKED_HERE = {"bench_engine.py", "bench_training.py", "bench_scaling_cpu.py", "bench_encoder.py", "bench_heap.py"}
SMOKED_WITH_BROWSER = {"bench_cold_start.py", "bench_latency.py", "bench_join.py", "bench_model_server.py"}
SMOKED_WITH_BROWSER |= {"load_sessions.py", "bench_drag.py", "bench_page_open.py", "bench_versions.py"}
SMOKED_WITH_SERVERS = {"bench_capacity.py", "bench_live.py", "bench_soak.py", "bench_step_bytes.py"}  # tests/serving
MODULES = {"pyspy.py"}  # imported by the scripts, run with them
FLOOR_MODULES = {"grid_sample.py", "live_chart.py"}  # imported by floor apps, run with them


def lines_matching(pattern: str, text: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


def test_every_script_in_benchmarks_is_smoke_run_or_imported_by_one():
    scripts = {path.name for path in BENCHMARKS.glob("*.py")}
    assert scripts == SMOKED_HERE | SMOKED_WITH_BROWSER | SMOKED_WITH_SERVERS | MODULES


def test_benchmarks_floors_holds_the_floor_apps_and_the_modules_they_import():
    floor_apps = {path.name for path in FLOOR_APPS}
    assert len(floor_apps) == 8
    assert {path.name for path in FLOORS.glob("*.py")} == floor_apps | FLOOR_MODULES


def test_bench_engine_prints_attention_and_the_scaling_experiment():
    out = run_benchmark("bench_engine.py", "--smoke")
    assert lines_matching(rf"^attention n=16 d=8: median {NUMBER} ms \(min {NUMBER} ms\); .* ratio {NUMBER}x$", out)
    assert lines_matching(rf"^attention n=16 d=8, causal mask: median {NUMBER} ms$", out)
    assert lines_matching(rf"^scaling_experiment d_k up to 16 \(2 values\), 500 samples: median {NUMBER} s", out)
    assert lines_matching(rf"floor: drawing its {NUMBER} M normal numbers takes about {NUMBER} s", out)


def test_bench_training_prints_each_case_and_optimiser_and_the_stall():
    out = run_benchmark("bench_training.py", "--smoke")
    rows = lines_matching(rf"^(lesson|sentence|random) .* (gd|adam)\s*: 10 steps median\s+{NUMBER} ms .* steps/s", out)
    assert len(rows) == 6, out  # three cases × two optimisers
    assert lines_matching(rf"^stall_experiment .*: median {NUMBER} ms", out)


def test_bench_scaling_cpu_prints_each_interactions_cpu_time():
    out = run_benchmark("bench_scaling_cpu.py", "--repeats", "1")
    rows = lines_matching(rf": median {NUMBER} CPU-s \(min {NUMBER}, max {NUMBER}, 1 runs\)$", out)
    assert len(rows) == 4, out  # the floor, the experiment, one row, the random walks
    assert lines_matching(rf"^engine: scaling_experiment.*median {NUMBER} CPU-s", out)


def test_bench_encoder_prints_load_memory_and_forward_figures_of_a_model(tmp_path):
    # the tiny model, with positions for the 64-token sentence the benchmark also encodes
    model = write_model(tmp_path / "model", config={**TINY_CONFIG, "max_position_embeddings": 80})
    out = run_benchmark("bench_encoder.py", str(model), "--repeats", "1")
    assert lines_matching(rf"^  load: {NUMBER} s \(weights {NUMBER} s, tokenizer {NUMBER} s\)", out)
    assert len(lines_matching(rf"^  RSS \w+ +{NUMBER} MB", out)) == 5, out
    assert lines_matching(rf"^  forward of 16 tokens: first {NUMBER} ms; warm median {NUMBER} ms", out)
    assert lines_matching(rf"{NUMBER} MB at 16 tokens, {NUMBER} MB at 64$", out)


@pytest.mark.slow
def test_bench_heap_prints_the_collection_with_and_without_the_freeze():
    out = run_benchmark("bench_heap.py", "--rounds", "1", "--delay", "0.1", timeout=300)
    checkout = re.escape(str(ROOT)[-40:])
    for mode in ("frozen", "none"):
        assert lines_matching(rf"{checkout}\s+{mode}\s+{NUMBER}\s+\d+\s+\d+\s+{NUMBER}\s+{NUMBER}$", out), out


@pytest.mark.parametrize("path", FLOOR_APPS, ids=lambda p: p.name)
def test_floor_app_runs_and_shows_its_slider(path):
    app = AppTest.from_file(str(path), default_timeout=60).run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.slider or app.select_slider, "a floor app is one slider and what follows it"
