"""A server restart loses no edit: the student edits a token's vector, the server is killed and started again on
the same port, the browser reconnects to a new session, and the page shows the edited numbers at once (no click
needed), as does a reload; in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from harness.browser import runs, wait_for_app
from harness.server import ROOT, free_port, start_app, stop_app, wait_healthy
from tests.e2e.shared import act, open_app, screenshot, type_into_x_cell, watched_page
from ui.i18n import LANGUAGES

pytestmark = pytest.mark.e2e
RECONNECT_MS = 60_000  # the browser retries on its own schedule (about a second apart); then one run
STATE = "() => document.querySelector('[data-testid=stApp]').getAttribute('data-test-connection-state')"
# perro's x becomes [1.5, 1.15, 0.78, 0.88]: Q_perro[0] = 1.5·0.3 + 1.15·0.1 + 0.78·(−0.2) + 0.88·0.4 = 0.761
# (the lesson's x_perro[0] = 0.5 gives 0.461)
EDITED = {"es": ("1,5", "= +0,761"), "en": ("1.5", "= +0.761")}
LESSON = {"es": "= +0,461", "en": "= +0.461"}


def edit_perro_x0(page: Page, text: str) -> None:
    """In the builder's x editor, perro's first number (row 1, column 2: after the row numbers and the names),
    checked to be the lesson's before it is typed over and committed."""
    type_into_x_cell(page, 1, 2, text, was="0,5" if text == "1,5" else "0.5")


def shows_part_1_with(page: Page, derivation: str) -> None:
    main = page.locator("[data-testid=stMain]")
    expect(main.locator("[data-testid=stCode]").filter(has_text=derivation).first).to_be_visible()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_server_restart_keeps_the_edits_and_the_page_shows_them_at_once(browser, lang):
    typed, derivation = EDITED[lang]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_app(ROOT / "app.py", port)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        wait_healthy(url, server, timeout=120)
        page = watched_page(context)
        open_app(page, f"{url}/builder?lang={lang}")
        edit_perro_x0(page, typed)
        act(page, lambda: page.get_by_role("link", name=LANGUAGES[lang]["page.walkthrough"]).click())
        shows_part_1_with(page, derivation)
        assert "s=" in page.url
        edited_url = page.url

        stop_app(server)
        page.wait_for_function(f"({STATE})() !== 'CONNECTED'", timeout=RECONNECT_MS)
        before = runs(page)
        server = start_app(ROOT / "app.py", port)
        wait_healthy(url, server, timeout=120)
        page.wait_for_function(f"({STATE})() === 'CONNECTED'", timeout=RECONNECT_MS)  # a new websocket, watched
        # the page runs in the new session by itself (ui.reconnect), before any click
        wait_for_app(page, before, timeout=RECONNECT_MS)
        page.console_errors.clear()  # the lost connection's failed requests, while the server was down
        shows_part_1_with(page, derivation)
        expect(page.locator("[data-testid=stMain]")).to_contain_text(LANGUAGES[lang]["scenario.edited"])
        expect(page.locator("[data-testid=stException]")).to_have_count(0)
        expect(page.locator("[data-testid=stMain] [data-testid=stCode]").filter(has_text=LESSON[lang])).to_have_count(0)
        assert page.url == edited_url
        screenshot(page, f"restart-reconnected-{lang}")

        # a click in the new session keeps them (the first click once showed the lesson's example)
        act(page, lambda: page.get_by_role("button", name=LANGUAGES[lang]["walk.next"]).click())
        act(page, lambda: page.get_by_role("button", name=LANGUAGES[lang]["walk.prev"]).click())
        shows_part_1_with(page, derivation)
        # and a reload (a new session again)
        before = runs(page)
        with page.expect_websocket():  # the runs are counted on the new page's socket from here on
            page.reload()
        wait_for_app(page, before)
        shows_part_1_with(page, derivation)
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()
        stop_app(server)
