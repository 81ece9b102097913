"""What a projector (1280×720, presentation mode) and a phone (390×844) show, measured in the browser: the √d_k
page's bar labels at the room's size, the tally's downloads uncut in the sidebar, and on a phone the button that
leaves presentation mode clear of the button that opens the sidebar; in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.lecture_helpers import MIN_PRESENTATION_PX, VIEWS, View, new_page, open_view, query, screenshot, settle
from tests.e2e.shared import act, keyed
from ui.i18n import LANGUAGES
from ui.pages import PAGE_BY_KEY, page_url
from ui.questions import REVEAL_SHORTCUT

pytestmark = pytest.mark.e2e
PROJECTOR = VIEWS[0]  # 1280 × 720, presentation, the sidebar open
PHONE = View("phone-present", 390, 844, presentation=True)
LANGS = ("es", "en")
ROW_CHART = keyed("scaling_row_chart")  # the "Three divisors" figure, whichever kind draws it

# Every text plotly drew in one figure (the svg plotly.js draws in the figure component's node, or in
# st.plotly_chart's): the size it is seen at and its box (bar labels are .bartext). plotly keeps a bar label's font
# size and shrinks one that does not fit its bar with an SVG transform (scale(0.77)), so the size seen is the
# computed font size times the scale of the text's transform to the screen.
FIGURE_TEXTS = """(figure) => [...document.querySelectorAll(`${figure} svg text`)]
  .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
  .map(t => { const b = t.getBoundingClientRect(), m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(m.a * m.a + m.b * m.b);
    return {text: t.textContent, bar: t.classList.contains('bartext'), size: Math.round(size * 10) / 10,
            box: [b.left, b.top, b.right, b.bottom]}; })"""
# Elements inside a button whose text is cut (an ellipsis): wider content than box.
CUT = """(selector) => [...document.querySelectorAll(selector + ' *')]
  .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 0.5)
  .map(e => `${e.tagName} ${e.textContent.trim()}: ${e.scrollWidth} > ${e.clientWidth}`)"""


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def open_three_divisors(page: Page, lang: str) -> None:
    tab = page.get_by_role("tab", name=LANGUAGES[lang]["scaling.tab.row"])
    act(page, tab.click)
    settle(page)
    expect(page.locator(f"{ROW_CHART} .bartext").first).to_be_visible()


def bar_labels(page: Page) -> list[dict]:
    return page.evaluate(FIGURE_TEXTS, ROW_CHART)


@pytest.mark.parametrize("lang", LANGS)
def test_the_three_divisors_bars_are_labelled_at_the_rooms_size(browser, app_url, lang):
    page = new_page(browser, PROJECTOR)
    open_view(page, page_url(app_url, PAGE_BY_KEY["scaling"]) + query(PROJECTOR, lang, questions_on="false"), PROJECTOR)
    open_three_divisors(page, lang)
    for row_length in (8, 16):  # the default row, then the longest the slider takes
        if row_length == 16:
            slider = page.locator(".st-key-scaling_row_length input[type=range]")
            slider.focus()
            act(page, lambda: page.keyboard.press("End"))
            settle(page)
        texts = bar_labels(page)
        bars = [t for t in texts if t["bar"]]
        small = [(t["text"], t["size"]) for t in texts if t["size"] < MIN_PRESENTATION_PX]
        assert small == [], f"{row_length} weights: texts under {MIN_PRESENTATION_PX} px: {small}"
        if row_length == 8:
            assert len(bars) == 24, "every weight of the three divisors written above its bar"
        overlapping = [
            (a["text"], b["text"]) for i, a in enumerate(bars) for b in bars[i + 1 :] if overlap(a["box"], b["box"])
        ]
        assert overlapping == [], f"{row_length} weights: labels over each other: {overlapping[:5]}"
        screenshot(page, f"present-three-divisors-{row_length}-{lang}")
    assert page.console_errors == [], page.console_errors
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_tallys_downloads_are_whole_in_the_presentation_sidebar(browser, app_url, lang):
    page = new_page(browser, PROJECTOR)
    open_view(page, page_url(app_url, PAGE_BY_KEY["walkthrough"]) + query(PROJECTOR, lang, step=1), PROJECTOR)
    expect(page.locator(".st-key-quiz_lecture_walk_1")).to_be_visible()
    page.locator("h1").first.click()  # the page has the focus, as after the lecturer's last click
    act(page, lambda: page.keyboard.press(REVEAL_SHORTCUT.lower()))  # the answer shown: one record in the tally
    sidebar = page.locator("[data-testid=stSidebar]")
    for kind in ("csv", "json"):
        button = sidebar.locator(f".st-key-quiz_download_{kind} button").first
        expect(button).to_be_visible()
        expect(button).to_contain_text(kind.upper())
        assert page.evaluate(CUT, f"[data-testid=stSidebar] .st-key-quiz_download_{kind} button") == []
    sidebar.locator(".st-key-quiz_download_json").scroll_into_view_if_needed()
    screenshot(page, f"present-sidebar-tally-{lang}")
    assert page.console_errors == [], page.console_errors
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_exit_button_leaves_the_sidebar_button_free(browser, app_url, lang):
    page = new_page(browser, PHONE)
    open_view(page, page_url(app_url, PAGE_BY_KEY["walkthrough"]) + query(PHONE, lang, questions_on="false"), PHONE)
    exit_button = page.locator(".st-key-exit_presentation button")
    opener = page.locator("[data-testid=stExpandSidebarButton]")
    expect(exit_button).to_be_visible()
    expect(exit_button).to_contain_text(LANGUAGES[lang]["sidebar.presentation_exit"])
    expect(opener).to_be_visible()
    a, b = exit_button.bounding_box(), opener.bounding_box()
    assert a is not None and b is not None
    boxes = [(box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]) for box in (a, b)]
    assert not overlap(*boxes), f"the exit button {boxes[0]} covers the sidebar's button {boxes[1]}"
    assert boxes[0][2] <= PHONE.width and boxes[0][0] >= 0, "the exit button is on the screen"
    assert page.evaluate(CUT, ".st-key-exit_presentation button") == [], "its label is whole"
    screenshot(page, f"present-phone-exit-{lang}")
    opener.click()  # and the sidebar does open
    expect(page.locator("[data-testid=stSidebar]")).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])
    assert page.console_errors == [], page.console_errors
    page.context.close()
