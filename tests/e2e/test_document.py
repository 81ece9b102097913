"""The document's language, `<html lang>`, is the reader's on every page: on arrival, after a language switch and
after a page switch (Streamlit serves lang="en"; ui.document sets it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.shared import act, choose_language, open_app, watched_page
from ui.i18n import LANGUAGES
from ui.pages import PAGE_BY_KEY, PAGES, page_url

pytestmark = pytest.mark.e2e

HTML = "html"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_page_opens_in_the_readers_language(page, app_url, lang):
    for spec in PAGES:
        open_app(page, f"{page_url(app_url, spec)}?lang={lang}")
        expect(page.locator(HTML)).to_have_attribute("lang", lang)


def test_a_language_switch_and_a_page_switch_keep_the_document_language(page, app_url):
    open_app(page, f"{app_url}/walkthrough")
    expect(page.locator(HTML)).to_have_attribute("lang", "es")
    choose_language(page, "en")
    expect(page.locator(HTML)).to_have_attribute("lang", "en")
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_role("link", name=LANGUAGES["en"]["page.builder"]).click())
    expect(page.locator("h1").first).to_have_text(LANGUAGES["en"]["builder.title"])
    expect(page.locator(HTML)).to_have_attribute("lang", "en")
    choose_language(page, "es")
    expect(page.locator(HTML)).to_have_attribute("lang", "es")
    act(page, lambda: sidebar.get_by_role("link", name=LANGUAGES["es"]["page.softmax"]).click())
    expect(page.locator("h1").first).to_have_text(LANGUAGES["es"]["softmax.title"])
    expect(page.locator(HTML)).to_have_attribute("lang", "es")
    page.reload()
    expect(page.locator(HTML)).to_have_attribute("lang", "es")


def test_a_phone_with_its_sidebar_closed_gets_the_language_too(browser, app_url):
    """On a 390 px screen the sidebar starts closed; the component in it still sets the language."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = watched_page(context)
        open_app(page, f"{page_url(app_url, PAGE_BY_KEY['builder'])}?lang=en")
        expect(page.locator("[data-testid=stSidebar]")).not_to_be_in_viewport()
        expect(page.locator(HTML)).to_have_attribute("lang", "en")
    finally:
        context.close()


def test_a_derivation_wider_than_a_phone_is_reached_and_scrolled_by_keyboard(browser, app_url):
    """On a 390 px screen part 2's derivation scrolls sideways: Tab reaches it, → scrolls it (and does not step
    the walkthrough's part, as it does from anywhere else)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = watched_page(context)
        open_app(page, f"{page_url(app_url, PAGE_BY_KEY['walkthrough'])}?step=2")
        box = page.locator("[data-testid=stMain] [data-testid=stCode] pre[data-scroll-focus]").first
        expect(box).to_have_attribute("tabindex", "0")
        assert box.evaluate("e => e.scrollWidth > e.clientWidth")
        fitting = page.locator("[data-testid=stMain] [data-testid=stCode] pre:not([data-scroll-focus])")
        assert all(b.evaluate("e => e.scrollWidth <= e.clientWidth + 1") for b in fitting.all())
        for _ in range(200):  # Tab through the page until the box has the focus
            page.keyboard.press("Tab")
            if box.evaluate("e => e === document.activeElement"):
                break
        assert box.evaluate("e => e === document.activeElement && e.matches(':focus-visible')")
        runs_before = page.script_runs.finished
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(box).not_to_have_js_property("scrollLeft", 0)
        assert page.script_runs.finished == runs_before  # no part stepped
        assert "step=2" in page.url
    finally:
        context.close()
