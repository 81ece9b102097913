"""Typed helpers for the browser tests: wait on Streamlit's own readiness attributes, never on sleeps.

A wait asks the server's websocket messages for a script run finished after the action began, then the page's
own attributes for the result being on screen: data-test-script-state=notRunning, no [data-stale=true], no
skeleton.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, WebSocket, expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from ui.i18n import LANGUAGE_NAMES, LANGUAGES

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

RUN_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
IDLE_APP = "[data-testid=stApp][data-test-connection-state=CONNECTED][data-test-script-state=notRunning]"
SHOWS_LATEST = f"""() => document.querySelector('{IDLE_APP}') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0"""
TIMEOUT_MS = 30_000


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


def runs(page: Page) -> int:
    """How many script runs the server has reported finished to this page."""
    return page.script_runs.finished


def wait_for_app(page: Page, after: int = 0, timeout: float = TIMEOUT_MS) -> None:
    """Wait until a run newer than `after` has finished and the page shows it (idle, nothing stale)."""
    page.script_runs.wait_for_run(after, timeout)
    page.wait_for_function(SHOWS_LATEST, timeout=timeout)


def act(page: Page, action: Callable[[], object]) -> None:
    """Do something that reruns the script, then wait for that rerun to finish."""
    before = runs(page)
    action()
    wait_for_app(page, before)


def open_app(page: Page, url: str, questions: bool = False) -> None:
    """Load a page and wait for its first run to finish. The questions asked before each step are off (through
    the URL, as the sidebar's switch turns them off) unless `questions`: these tests look at the pages' content."""
    if not questions:
        url += ("&" if "?" in url else "?") + "questions_on=false"
    page.goto(url)
    wait_for_app(page)


def choose_language(page: Page, lang: str) -> None:
    """Switch the sidebar's language radio to `lang` ("es" or "en") and wait for the page to redraw in it."""
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_text(LANGUAGE_NAMES[lang], exact=True).filter(visible=True).first.click())
    expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])


# The figures are SVG images with data URLs: their text, read back the way the browser parses it.
FIGURE_TEXTS = """() => [...document.querySelectorAll('[data-testid=stMain] img')]
  .filter(img => img.src.startsWith('data:image/svg+xml;base64,'))
  .flatMap(img => {
    const bytes = Uint8Array.from(atob(img.src.split(',')[1]), c => c.charCodeAt(0));
    const doc = new DOMParser().parseFromString(new TextDecoder().decode(bytes), 'image/svg+xml');
    return [...doc.querySelectorAll('text')].map(t => t.textContent);
  })"""
# Every figure on the page has loaded and been decoded: a malformed SVG would show as a broken image.
FIGURES_DRAWN = """() => [...document.querySelectorAll('[data-testid=stMain] img')]
  .every(img => img.complete && img.naturalWidth > 0)"""


def figure_texts(page: Page) -> list[str]:
    return page.evaluate(FIGURE_TEXTS)


def assert_healthy(page: Page) -> None:
    """No Streamlit exception box, no console error, no dialog, no broken figure."""
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
    assert page.console_errors == [], page.console_errors
    assert page.dialogs == [], page.dialogs
    page.wait_for_function(FIGURES_DRAWN, timeout=10_000)


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
