"""Chromium and Streamlit's readiness signals: what a browser test or a benchmark waits on, never a sleep.

A wait asks the server's websocket messages for a script run finished after the action began, then the page's
own attributes for the result being on screen: data-test-script-state=notRunning, no [data-stale=true], no
skeleton.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, Playwright, WebSocket
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Many pages in one browser: without these Chromium throttles the ones it deems hidden, and their figures would
# wait for animation frames that never come.
UNTHROTTLED_FLAGS = [
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]

# A figure's node, whichever draws it: the app's figure component (ui/figure_component.py) or st.plotly_chart
# (ATTENTION_CHARTS=plotly_chart). The browser tests and the benchmarks find figures with this.
CHART = ":is([data-testid=attentionFigure], [data-testid=stPlotlyChart])"

RUN_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
CONNECTED_APP = "[data-testid=stApp][data-test-connection-state=CONNECTED]"
IDLE_APP = f"{CONNECTED_APP}[data-test-script-state=notRunning]"
SHOWS_LATEST = f"""() => document.querySelector('{IDLE_APP}') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0"""
# Every wait is event-driven, so a long cap costs a passing run nothing; it only bounds a failing one. On a
# machine shared with other work, a fresh page's first draw (plotly's script parsed, every figure laid out) has
# been seen to take over a minute.
TIMEOUT_MS = 120_000


def find_chromium(*, headless_shell: bool = False) -> str | None:
    """Debian's Chromium, where it is installed (Playwright's own browser download is not used).

    With `headless_shell`, its old headless shell first (Debian's chromium-headless-shell, what Playwright's own
    headless runs use: the same Blink and V8 without the full browser's compositing), the browser tests' choice: a
    page opened and drawn cost the machine 2.4 s of CPU against 3.6 s in the full browser
    (benchmarks/bench_page_open.py: six pages, four rounds alternated). The benchmarks keep the full browser, the
    one a reader has.

    ATTENTION_CHROMIUM, when set, names the browser outright: the benchmarks' smoke runs are given the shell (they
    check that a script runs and prints, not its figures), and `ATTENTION_CHROMIUM=/usr/bin/chromium python -m
    pytest` runs the browser tests in the full browser."""
    if chosen := os.environ.get("ATTENTION_CHROMIUM"):
        return chosen
    shells = ("/usr/bin/chromium-headless-shell", shutil.which("chromium-headless-shell")) if headless_shell else ()
    for candidate in (*shells, "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def chromium_or_exit() -> str:
    """The benchmarks' browser (`find_chromium`'s full browser), or the script ends saying what to install."""
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium found: install Debian's chromium package")
    return chromium


def launch(playwright: Playwright, executable: str, extra_flags: list[str] | None = None) -> Browser:
    """Headless Chromium at `executable` with the flags every run uses (plus `extra_flags`)."""
    return playwright.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_FLAGS + list(extra_flags or [])
    )


def is_base_path_probe(url: str) -> bool:
    """Streamlit's frontend, opened at /<page>, first asks /<page>/_stcore/... to find its base path; the 404s
    it gets there are part of how it works, not errors of the app."""
    path = urllib.parse.urlparse(url).path
    return path.endswith(("/_stcore/health", "/_stcore/host-config")) and not path.startswith("/_stcore/")


def finishes_a_run(payload: str | bytes) -> bool:
    """Whether a websocket frame from the server is the message that ends a script run."""
    message = ForwardMsg.FromString(payload.encode() if isinstance(payload, str) else payload)
    return message.WhichOneof("type") == "script_finished" and message.script_finished in RUN_DONE


class ScriptRuns:
    """Counts the script runs the server reports finished to one page.

    The page's own attribute alone cannot say a run happened: the app says notRunning before its first run,
    and a quick run can start and end within one render, so the attribute never shows "running".
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.socket: WebSocket | None = None
        self.finished = 0
        page.on("websocket", self._attach)

    def _attach(self, socket: WebSocket) -> None:
        self.socket = socket
        socket.on("framereceived", self._on_frame)

    def _on_frame(self, payload: str | bytes) -> None:
        if finishes_a_run(payload):
            self.finished += 1

    def wait_for_run(self, after: int, timeout: float = TIMEOUT_MS) -> None:
        """Until more than `after` runs have finished, waiting event by event up to `timeout` ms in all."""
        deadline = time.monotonic() + timeout / 1000
        while self.finished <= after:
            remaining = (deadline - time.monotonic()) * 1000
            if remaining <= 0:
                raise TimeoutError(f"no script run finished within {timeout} ms")
            source = self.page if self.socket is None else self.socket
            source.wait_for_event("websocket" if self.socket is None else "framereceived", timeout=remaining)


def watch_runs(page: Page) -> Page:
    """Start counting the page's script runs (before its first navigation); returns the page."""
    page.script_runs = ScriptRuns(page)  # type: ignore[attr-defined]
    return page


def runs(page: Page) -> int:
    """How many script runs the server has reported finished to this page (see `watch_runs`)."""
    return page.script_runs.finished  # type: ignore[attr-defined]


def wait_for_app(page: Page, after: int = 0, timeout: float = TIMEOUT_MS) -> None:
    """Wait until a run newer than `after` has finished and the page shows it (idle, nothing stale)."""
    page.script_runs.wait_for_run(after, timeout)  # type: ignore[attr-defined]
    page.wait_for_function(SHOWS_LATEST, timeout=timeout)


def act(page: Page, action: Callable[[], object]) -> None:
    """Do something that reruns the script, then wait for that rerun to finish."""
    before = runs(page)
    action()
    wait_for_app(page, before)


def open_app(page: Page, url: str) -> None:
    """Load a page and wait for its first run to finish."""
    page.goto(url)
    wait_for_app(page)


# Streamlit's own way to another page of the app without loading the document again: the address changed, then the
# browser's "back" event, which its frontend answers by running the page the address names, with its query.
IN_APP = (
    """url => { history.pushState({}, '', url); window.dispatchEvent(new PopStateEvent('popstate', {state: {}})); }"""
)


def connected(page: Page) -> bool:
    """Whether the page's Streamlit frontend is connected to its server now."""
    return bool(page.evaluate(f"() => document.querySelector('{CONNECTED_APP}') !== null"))


def visit(page: Page, url: str) -> None:
    """Show the app's page at `url` in `page` and wait for its run: in the same session, without loading the
    document again (Streamlit's frontend, plotly.js and the session stay), when the page already shows the app at
    that origin, connected; else loaded as `open_app` does. For pages that keep their language and mode: under
    load, such a visit right after a switch of presentation mode (whose second run a timer starts) has been seen
    to leave the frontend disconnected for good (tests/e2e/test_pages_in_browser.py loads its pages again)."""
    here, there = urllib.parse.urlsplit(page.url), urllib.parse.urlsplit(url)
    loaded = page.script_runs.finished > 0  # type: ignore[attr-defined]
    if (here.scheme, here.netloc) != (there.scheme, there.netloc) or not loaded or not connected(page):
        open_app(page, url)
        return
    before = runs(page)
    page.evaluate(IN_APP, url)
    wait_for_app(page, before)
