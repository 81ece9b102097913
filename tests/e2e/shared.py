"""Typed helpers for the browser tests: wait on Streamlit's own readiness attributes, never on sleeps.

Before the first script run, the app already says data-test-script-state=notRunning, so "not running" alone
does not mean "finished". An init script counts the runs (transitions to "running"); a wait asks for a run
newer than the one seen before the action, then for notRunning with no stale element and no skeleton.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from ui.i18n import LANGUAGE_NAMES, LANGUAGES

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

RUN_COUNTER = """
window.__stRuns = 0;
new MutationObserver((mutations) => {
  for (const m of mutations) {
    const state = m.target.getAttribute('data-test-script-state');
    if (m.attributeName === 'data-test-script-state' && state === 'running') {
      window.__stRuns += 1;
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']});
"""

_IDLE_APP = "[data-testid=stApp][data-test-connection-state=CONNECTED][data-test-script-state=notRunning]"
_SETTLED = f"""(after) => window.__stRuns > after
  && document.querySelector('{_IDLE_APP}') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0"""


def runs(page: Page) -> int:
    """How many script runs this page has seen start."""
    return page.evaluate("window.__stRuns")


def wait_for_app(page: Page, after: int = 0, timeout: float = 30_000) -> None:
    """Wait until a run newer than `after` has finished and the page shows it (nothing stale)."""
    page.wait_for_function(_SETTLED, arg=after, timeout=timeout)


def act(page: Page, action: Callable[[], object]) -> None:
    """Do something that reruns the script, then wait for that rerun to finish."""
    before = runs(page)
    action()
    wait_for_app(page, before)


def open_app(page: Page, url: str) -> None:
    """Load a page and wait for its first run to finish."""
    page.goto(url)
    wait_for_app(page)


def choose_language(page: Page, lang: str) -> None:
    """Switch the sidebar's language radio to `lang` ("es" or "en") and wait for the page to redraw in it."""
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_text(LANGUAGE_NAMES[lang], exact=True).filter(visible=True).first.click())
    expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])


def assert_healthy(page: Page) -> None:
    """No Streamlit exception box, no console error, no dialog."""
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
    assert page.console_errors == [], page.console_errors
    assert page.dialogs == [], page.dialogs


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
