"""Browser tests: the real app served by `streamlit run`, driven by Playwright in Debian's Chromium.

Locally the tests skip (with the reason) when no Chromium is found; under CI=true that is a failure.
Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.shared import ScriptRuns, wait_for_app

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def is_base_path_probe(url: str) -> bool:
    """Streamlit's frontend, opened at /<page>, first asks /<page>/_stcore/... to find its base path; the 404s
    it gets there are part of how it works, not errors of the app."""
    path = urllib.parse.urlparse(url).path
    return path.endswith(("/_stcore/health", "/_stcore/host-config")) and not path.startswith("/_stcore/")


def find_chromium() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"streamlit did not become healthy within {timeout} s")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no Chromium found: install Debian's chromium package")
        pytest.skip("no Chromium found (install Debian's chromium package to run the browser tests)")
    return path


def stop_app(process: subprocess.Popen) -> None:
    """Terminate a server started by `start_app`, killing it if it does not stop within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def start_app(script: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(script),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.fixture(scope="session")
def app_url(chromium_path, browser) -> str:
    port = free_port()
    process = start_app(ROOT / "app.py", port)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
        warm_up(browser, url)
        yield url
    finally:
        stop_app(process)


def warm_up(browser, url: str) -> None:
    """Load the app once before the tests: a fresh server's very first session can drop an early click."""
    context = browser.new_context()
    page = context.new_page()
    page.script_runs = ScriptRuns(page)
    page.goto(url)
    wait_for_app(page)
    context.close()


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (a new Streamlit session) that records console errors and dialogs."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.script_runs = ScriptRuns(page)
    page.console_errors = []
    page.dialogs = []

    def on_console(msg) -> None:
        if msg.type == "error" and not is_base_path_probe(msg.location.get("url", "")):
            page.console_errors.append(f"{msg.text} ({msg.location.get('url', '')})")

    def on_response(response) -> None:
        if response.status >= 400 and not is_base_path_probe(response.url):
            page.console_errors.append(f"HTTP {response.status} {response.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("response", on_response)
    page.on("requestfailed", lambda request: page.console_errors.append(f"request failed: {request.url}"))

    def on_dialog(dialog):
        page.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    yield page
    context.close()
