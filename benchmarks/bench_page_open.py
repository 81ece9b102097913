"""What one page open costs each Chromium the browser tests can use: Debian's full browser and its old headless shell.

usage: python benchmarks/bench_page_open.py [--rounds 4] [--pages walkthrough softmax ...]

One app server; per round, each installed browser in turn (alternated, so both see the same machine): it is
launched with the flags the browser tests use, one warm-up open, then each page in a fresh context (as a test opens
it) until its run has finished, every element is on screen and every figure is drawn. It prints, per round and
browser, the wall time of those opens and the CPU the whole machine spent meanwhile (the server's included, printed
apart: Chromium's renderers live and die with their contexts, so the machine's counters are what sees all of it),
then the medians and each browser's CPU per open. Run it on an otherwise quiet machine; the load average is printed.

The browser tests use the headless shell where it is installed (harness.browser.find_chromium): this script is
the measurement behind that choice.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from playwright.sync_api import Browser, ViewportSize, sync_playwright  # noqa: E402

from harness.browser import CHART, TIMEOUT_MS, UNTHROTTLED_FLAGS, launch, wait_for_app, watch_runs  # noqa: E402
from harness.server import served  # noqa: E402

BROWSERS = {"full browser": "/usr/bin/chromium", "headless shell": "/usr/bin/chromium-headless-shell"}
PAGES = ["walkthrough", "softmax", "builder", "multihead", "scaling", "pipeline"]
VIEWPORT: ViewportSize = {"width": 1400, "height": 1000}  # the browser tests' own
FIGURE = f"[data-testid=stMain] {CHART}"
FIGURES_DRAWN = f"""() => [...document.querySelectorAll('{FIGURE}')]
  .every(chart => chart.querySelector('.js-plotly-plot .main-svg'))"""


def machine_cpu() -> float:
    """Seconds of CPU the whole machine has spent (every core, user and system)."""
    times = psutil.cpu_times()
    return times.user + times.nice + times.system


def open_pages(browser: Browser, url: str, pages: list[str]) -> None:
    for key in pages:
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = watch_runs(context.new_page())
            page.goto(f"{url}/{key}")
            wait_for_app(page)
            page.wait_for_function(FIGURES_DRAWN, timeout=TIMEOUT_MS)
        finally:
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pages", nargs="+", default=PAGES)
    args = parser.parse_args()
    browsers = {name: path for name, path in BROWSERS.items() if Path(path).exists()}
    if not browsers:
        sys.exit("no Chromium: apt-get install chromium chromium-headless-shell")
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in browsers}
    with served(ROOT / "app.py") as server, sync_playwright() as playwright:
        app = psutil.Process(server.pid)
        for round_ in range(1, args.rounds + 1):
            for name, path in browsers.items():
                browser = launch(playwright, path, UNTHROTTLED_FLAGS)
                try:
                    open_pages(browser, server.url, args.pages[:1])  # warm-up: the server's caches, the browser's start
                    cpu, app_cpu, began = machine_cpu(), sum(app.cpu_times()[:2]), time.monotonic()
                    open_pages(browser, server.url, args.pages)
                    wall = time.monotonic() - began
                    spent, app_spent = machine_cpu() - cpu, sum(app.cpu_times()[:2]) - app_cpu
                finally:
                    browser.close()
                figures[name].append((wall, spent, app_spent))
                print(
                    f"round {round_} {name:15} {len(args.pages)} opens: wall {wall:.2f} s, machine CPU {spent:.2f} s "
                    f"(server {app_spent:.2f} s); load {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
    print("medians:")
    for name, rows in figures.items():
        wall, spent, app_spent = (statistics.median(row[k] for row in rows) for k in range(3))
        print(
            f"  {name:15} wall {wall:.2f} s, machine CPU {spent:.2f} s, "
            f"per open {spent / len(args.pages):.2f} s (server {app_spent / len(args.pages):.2f} s)"
        )
    print("load average at the end: {:.2f} / {:.2f} / {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
