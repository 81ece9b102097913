"""benchmarks/bench_live.py: its arithmetic on hand-made timings, and the script run once at a tiny class (it
prints figures; nothing here times anything)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchmarks.bench_live import follow_latencies, step_latencies, step_text, tally_latencies
from harness.server import ROOT

STUDENTS = 3
PARTS = 5  # the walkthrough's parts: each asks the class a question, which each student answers once
# Seconds between the lecturer's steps: longer than a student's way to the projector (the next poll within 1 s, 1 to
# 3 s of thought, the projector's next read within 1.5 s), so every answer is shown before the next part hides it.
EVERY_S = 8


def test_a_step_counts_from_its_send_to_each_students_first_sighting_after_it():
    steps = [(10.0, 2), (20.0, 3)]
    seen = [[9.0, 2, 0], [10.5, 2, 0], [11.0, 2, 0], [12.0, 2, 1], [20.25, 3, 0]]  # 9.0: before the step
    latencies, missed = follow_latencies(steps, seen, students=2)
    assert sorted(latencies) == [0.25, 0.5, 2.0]
    assert missed == 1  # student 1 never showed part 3


def test_each_step_has_its_own_latencies_and_misses():
    steps = [(10.0, 2), (20.0, 3)]
    seen = [[9.0, 2, 0], [10.5, 2, 0], [11.0, 2, 0], [12.0, 2, 1], [20.25, 3, 0]]
    per_step = step_latencies(steps, seen, students=2)
    assert [(part, sorted(latencies), missed) for part, latencies, missed in per_step] == [
        (2, [0.5, 2.0], 0),
        (3, [0.25], 1),
    ]
    # of 0.5 and 2.0 s: the median is the element at round(0.5 × 1) = 0, the p95 at round(0.95 × 1) = 1
    assert step_text(*per_step[0]) == "part 2: 500 / 2000 / 2000, 0 missed"
    assert step_text(3, [], 2) == "part 3: nan / nan / nan, 2 missed"


def test_an_answer_counts_until_the_projector_first_shows_a_count_that_includes_it():
    answered = [[1.0, 1.5, 2, 0], [2.0, 2.5, 2, 1], [3.0, 3.5, 2, 2]]  # sent, stored, part, student
    counts = [(1.2, 2, 0), (2.0, 2, 1), (4.0, 2, 2), (5.0, 3, 3)]  # a count of another part does not count
    latencies, uncounted = tally_latencies(answered, counts)
    assert latencies == [1.0, 2.0]
    assert uncounted == 1


@pytest.mark.slow
def test_the_benchmark_runs_a_tiny_class_through_every_part_without_errors():
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_live.py"), "--setup", "single"]
    command += ["--sessions", str(STUDENTS), "--every", str(EVERY_S)]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    row = next(line for line in run.stdout.splitlines() if line.startswith("| single |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1] == str(STUDENTS)
    assert cells[3] == "0", row  # every student showed every step
    assert (cells[5], cells[6], cells[7]) == (str(STUDENTS * PARTS), "0", "0"), row  # answers, uncounted, errors
    assert "load avg" in run.stdout and "→" in cells[-1]
    per_step = next(line for line in run.stdout.splitlines() if line.startswith(f"- single, {STUDENTS}: "))
    assert [f"part {part}:" in per_step for part in range(2, PARTS + 1)] == [True] * (PARTS - 1), per_step
    assert per_step.count(", 0 missed") == PARTS - 1, per_step
