"""HTML typed by a user is shown as text and never executed: no dialog opens, no element is injected."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from harness.browser import TIMEOUT_MS
from tests.e2e.shared import FIGURE_TEXTS, act, assert_healthy, figure_texts, open_app

pytestmark = pytest.mark.e2e
PAYLOAD = "<img src=x onerror=alert(1)>"
AXIS_LABEL = PAYLOAD[:9] + "…"  # long names are shortened on the axes (in full on hover)


def injected_images(page: Page) -> int:
    return page.locator("img[src='x']").count()


def edit_first_cell(page: Page, editor_index: int, column_offset: float, text: str) -> None:
    """Double-click a cell of a data editor's first row, type, and press Enter (the grid is a canvas)."""
    grid = page.locator("[data-testid=stDataFrame]").nth(editor_index)
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    page.mouse.dblclick(box["x"] + column_offset, box["y"] + 35 + 17)
    editor = page.locator("textarea.gdg-input, input.gdg-input").first
    expect(editor).to_be_visible()
    editor.fill(text)
    act(page, lambda: page.keyboard.press("Enter"))


def test_html_as_a_token_name_is_shown_as_text(page, app_url):
    open_app(page, f"{app_url}/builder")
    edit_first_cell(page, 0, 60, PAYLOAD)
    # the heatmaps label their rows with the new name, as literal text (plotly draws it as SVG text)
    page.wait_for_function(f"({FIGURE_TEXTS})().includes({json.dumps(AXIS_LABEL)})", timeout=TIMEOUT_MS)
    assert AXIS_LABEL in figure_texts(page)
    assert injected_images(page) == 0
    assert_healthy(page)


def test_html_as_a_sentence_is_shown_as_text(page, app_url):
    open_app(page, f"{app_url}/pipeline")
    box = page.get_by_role("textbox").first
    box.fill(PAYLOAD)
    act(page, lambda: box.press("Enter"))
    expect(page.locator("[data-testid=stMain]")).to_contain_text("onerror")
    # a token on the figures' axes; the charts redraw after the run's text is shown (ui/static/figure.js)
    page.wait_for_function(f"({FIGURE_TEXTS})().includes('onerror')", timeout=TIMEOUT_MS)
    assert "onerror" in figure_texts(page)
    assert injected_images(page) == 0
    assert_healthy(page)


def test_a_number_cell_edit_reaches_the_walkthrough(page, app_url):
    open_app(page, f"{app_url}/builder")
    # W_Q[0][0]: the second editor; its first column is the row label x0, then d0
    edit_first_cell(page, 1, 75, "1,3")  # a decimal comma, as a Spanish reader types it
    main = page.locator("[data-testid=stMain]")
    act(page, lambda: page.get_by_role("link", name="Paso a paso").click())
    expect(main).to_contain_text("Parte 1 de 5")
    # Q_perro[0] = 0.5·1.3 + 1.15·0.1 + 0.78·(−0.2) + 0.88·0.4 = 0.961
    expect(main.locator("[data-testid=stCode]").filter(has_text="= +0,961").first).to_be_visible()
    assert_healthy(page)
