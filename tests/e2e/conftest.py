"""Browser tests: the real app served by `streamlit run`, driven by Playwright in Debian's Chromium.

Server, browser and waits come from the shared harness (harness/), which the benchmarks use too.
Locally the tests skip (with the reason) when no Chromium is found; under CI=true that is a failure.
Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from harness.browser import find_chromium, launch, open_app, watch_runs
from harness.server import ROOT, served
from tests.e2e.shared import EXPECT_TIMEOUT_MS, watched_page

VIEWPORT = {"width": 1400, "height": 1000}
expect.set_options(timeout=EXPECT_TIMEOUT_MS)
PROJECTOR = {"width": 1280, "height": 720}  # a lecture room's projector


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium(headless_shell=True)  # the headless shell where installed (or ATTENTION_CHROMIUM's)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no Chromium found: install Debian's chromium package")
        pytest.skip("no Chromium found (install Debian's chromium package to run the browser tests)")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright, chromium_path)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def app_url(browser) -> str:
    with served(ROOT / "app.py") as server:
        warm_up(browser, server.url)
        yield server.url


def warm_up(browser, url: str) -> None:
    """Load the app once before the tests: a fresh server's very first session can drop an early click."""
    context = browser.new_context()
    try:
        open_app(watch_runs(context.new_page()), url)
    finally:
        context.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (a new Streamlit session) in the light theme."""
    context = browser.new_context(viewport=VIEWPORT, color_scheme="light")
    yield watched_page(context)
    context.close()


@pytest.fixture
def dark_page(browser):
    """A fresh browser context whose system preference is the dark theme (Streamlit follows it)."""
    context = browser.new_context(viewport=VIEWPORT, color_scheme="dark")
    yield watched_page(context)
    context.close()


@pytest.fixture
def projector(browser):
    """A fresh browser context the size of a 1280×720 projector."""
    context = browser.new_context(viewport=PROJECTOR, color_scheme="light")
    yield watched_page(context)
    context.close()
