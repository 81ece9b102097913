"""The load test works against today's app: Locust's students join, interact, and no run fails (an exception on
the page, a lost connection or a page that does not answer within the load test's timeout is a failure).

The recorded messages (loadtest/recorded/) name the builder's and walkthrough's widgets by their ids, which follow
the widgets' parameters: after a change to those widgets, `python loadtest/record.py` records anew (a state for a
widget that no longer exists is ignored by Streamlit, so this test cannot see that drift).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from harness.server import ROOT, served

pytestmark = pytest.mark.slow
STUDENTS = 4
SECONDS = 12


@pytest.mark.parametrize("scenario", ["ClassStudent", "JoiningStudent"])
def test_locust_students_join_and_interact_without_failures(scenario, tmp_path):
    results = tmp_path / "results.json"
    with served(ROOT / "app.py") as server:
        command = [sys.executable, "-m", "locust", "-f", str(ROOT / "loadtest" / "locustfile.py"), scenario]
        command += ["--headless", "--only-summary", "--host", server.url, "--users", str(STUDENTS)]
        command += ["--spawn-rate", str(STUDENTS), "--run-time", f"{SECONDS}s", "--stop-timeout", "10"]
        command += ["--results", str(results), "--loglevel", "ERROR"]
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=SECONDS + 120)
    timings = json.loads(results.read_text())
    assert timings["failures"] == [], run.stderr[-3000:]
    assert len(timings["first page"]) == STUDENTS
    if scenario == "ClassStudent":
        assert len(timings["interaction"]) >= STUDENTS  # each changed something at least once in 12 s
