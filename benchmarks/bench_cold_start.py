"""The first visitor after a cold start: from `streamlit run app.py` to the home page completely drawn.

usage: python benchmarks/bench_cold_start.py [--rounds 5] [--root PATH] [--page PATH]

Each round starts a fresh server (a new process: nothing imported, nothing cached), waits for its health check
to answer, then opens the page in a fresh browser context (Chromium is started once, before the rounds) and
waits until the script run has finished and every element and figure is on screen. It prints, per round and as
medians: the server's start (process start to a healthy server), the first page (health to complete render),
the whole (process start to complete render), and the first run on the server (the session's first message
to the run's end, read from the websocket). Then where a fresh process's import time goes: Streamlit alone,
and what the page's modules add, with the largest of them.

`--root` measures another checkout of the app (e.g. an older commit unpacked with `git archive`), so that two
versions can be compared on the same machine in the same minutes.

The server is started and Chromium launched by the harness the browser tests use too (harness/).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from harness.browser import CHART, find_chromium, launch  # noqa: E402
from harness.server import free_port, start_app, stop_app, wait_healthy  # noqa: E402

DONE = {ForwardMsg.FINISHED_SUCCESSFULLY}
# a figure: the app's figure component or st.plotly_chart
FIGURE = CHART
SHOWN = """() => document.querySelector('[data-testid=stApp][data-test-script-state=notRunning]') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0
  && document.querySelectorAll('[data-testid=stMain] h1').length > 0
  && [...document.querySelectorAll(FIGURES)].every(e => e.querySelector(".main-svg"))""".replace(
    "FIGURES", repr(FIGURE)
)
HEALTH_TIMEOUT_S = 120  # a cold start on a busy 2-core machine
HEALTH_POLL_S = 0.05  # the server's start is timed to when its health check answers: ask often


def one_round(browser: Browser, root: Path, page_path: str) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    began = time.monotonic()
    process = start_app(root / "app.py", port, cwd=root)
    try:
        wait_healthy(url, process, HEALTH_TIMEOUT_S, interval=HEALTH_POLL_S)
        healthy = time.monotonic()
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        marks: dict[str, float] = {}

        def on_frame(payload: str | bytes) -> None:
            message = ForwardMsg.FromString(payload if isinstance(payload, bytes) else payload.encode())
            kind = message.WhichOneof("type")
            if kind == "new_session":
                marks.setdefault("session", time.monotonic())
            elif kind == "script_finished" and message.script_finished in DONE:
                marks.setdefault("finished", time.monotonic())

        page.on("websocket", lambda socket: socket.on("framereceived", on_frame))
        page.goto(f"{url}/{page_path}")
        page.wait_for_function(SHOWN, timeout=120_000, polling=50)
        while "finished" not in marks:
            page.wait_for_timeout(20)
        page.wait_for_function(SHOWN, timeout=120_000, polling=50)
        drawn = time.monotonic()
        context.close()
    finally:
        stop_app(process)
    return {
        "server start": healthy - began,
        "first page": drawn - healthy,
        "whole": drawn - began,
        "first run": marks["finished"] - marks["session"],
    }


def import_times(root: Path) -> tuple[float, float, list[tuple[float, str]]]:
    """Seconds to import Streamlit in a fresh process, what app.py's own imports add, and the largest of those."""

    def measure(code: str) -> dict[str, tuple[int, int]]:
        """{module: (its cumulative import time in µs, its depth in the import tree)}."""
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code], cwd=root, capture_output=True, text=True, check=True
        )
        cumulative: dict[str, tuple[int, int]] = {}
        for line in result.stderr.splitlines():
            match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)", line)
            if match:
                cumulative[match.group(3)] = (int(match.group(1)), len(match.group(2)))
        return cumulative

    alone = measure("import streamlit")
    modules = "; ".join(
        f"import {line.split()[1]}" for line in (root / "app.py").read_text().splitlines() if line.startswith("from ")
    )
    page = measure(f"import streamlit; {modules}")
    # the largest packages the page's modules pull in (top-level names: pandas, numpy, engine, ...) and its own
    added = {name: us for name, (us, depth) in page.items() if name not in alone and "." not in name}
    top = sorted(((us / 1e6, name) for name, us in added.items()), reverse=True)[:6]
    total_added = sum(us for name, (us, depth) in page.items() if name not in alone and depth == 0) / 1e6
    return alone["streamlit"][0] / 1e6, total_added, top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--page", default="", help="the page's path, e.g. walkthrough (default: home)")
    args = parser.parse_args()
    root = args.root.resolve()
    load = os.getloadavg()
    print(f"root {root}  page /{args.page}  cpus {os.cpu_count()}  load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    rounds = []
    with sync_playwright() as playwright:
        chromium = find_chromium()
        if chromium is None:
            sys.exit("Chromium is not installed (apt-get install chromium)")
        browser = launch(playwright, chromium)
        for i in range(args.rounds):
            figures = one_round(browser, root, args.page)
            rounds.append(figures)
            print(f"round {i + 1}: " + "  ".join(f"{name} {value:.2f} s" for name, value in figures.items()))
        browser.close()
    print("median:  " + "  ".join(f"{name} {statistics.median(r[name] for r in rounds):.2f} s" for name in rounds[0]))
    alone, added, top = import_times(root)
    print(f"imports in a fresh process: streamlit {alone:.2f} s; app.py's modules add {added:.2f} s, of which:")
    for seconds, name in top:
        print(f"  {seconds:.2f} s  {name}")


if __name__ == "__main__":
    main()
