"""The load test works against today's app: Locust's students join, interact, and no run fails (an exception on
the page, a lost connection or a page that does not answer within the load test's timeout is a failure).

The recorded messages (loadtest/recorded/) name the builder's and walkthrough's widgets and fragments by their ids,
which follow the widgets' parameters and the page's layout; the client sends them in the live page's terms (a widget
by its key, a fragment by the widgets in it) and fails at once on a button or fragment it cannot find. A keyed
widget whose key changed is still ignored by Streamlit, unseen here: after a change to those pages' widgets,
`python loadtest/record.py` records anew.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

import pytest

from harness.server import ROOT, free_port, served, start_app, stop_app, wait_healthy
from loadtest.protocol import Connection, RunTimeoutError
from loadtest.recording import Recording, builder_step

pytestmark = pytest.mark.slow
STUDENTS = 4
SECONDS = 12
RUN_S = 5  # the connection's timeout in the test of a dropped run: the server pings every second


def warm_up(url: str) -> None:
    """Open each recorded page once, as a server in use has: the first run of a fresh server imports the pages'
    modules (seconds on a busy machine), which would eat into the students' 12 s."""
    for page in ("builder", "walkthrough"):
        connection = Connection(url)
        connection.run(Recording.load(page).opening())
        connection.close()


@pytest.mark.parametrize("scenario", ["ClassStudent", "JoiningStudent"])
def test_locust_students_join_and_interact_without_failures(scenario, tmp_path):
    results = tmp_path / "results.json"
    with served(ROOT / "app.py") as server:
        warm_up(server.url)
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


def test_a_run_the_server_drops_fails_after_the_connections_timeout_instead_of_waiting():
    """Streamlit answers nothing at all to a rerun of a fragment it does not have, and pings the socket (here every
    second), which restarts a socket's own timeout each time: only the connection's deadline ends the wait."""
    builder = Recording.load("builder")
    port = free_port()
    process = start_app(ROOT / "app.py", port, env={"STREAMLIT_SERVER_WEBSOCKET_PING_INTERVAL": "1"})
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process)
        connection = Connection(f"http://127.0.0.1:{port}", timeout=RUN_S)
        connection.run(builder.opening())
        dropped = builder_step(builder, random.Random(0))
        dropped.rerun_script.fragment_id = "0" * 32
        connection.page.fragments.add(dropped.rerun_script.fragment_id)  # as if the page had it: sent as it is
        outcome: list[BaseException | None] = []

        def wait() -> None:
            try:
                connection.run(dropped)
                outcome.append(None)
            except BaseException as exc:  # whatever ended the wait is what the test checks
                outcome.append(exc)

        waiting = threading.Thread(target=wait, daemon=True)
        waiting.start()
        waiting.join(RUN_S + 10)
        if waiting.is_alive():
            connection.close()  # lets the thread go
        assert outcome and isinstance(outcome[0], RunTimeoutError), outcome
        assert connection.run(builder_step(builder, random.Random(1))).frames > 0  # the session still answers
        connection.close()
    finally:
        stop_app(process)
