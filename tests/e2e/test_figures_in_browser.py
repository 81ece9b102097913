"""The plotly figures in a real browser: the tooltip of a weight cell, the dark theme, presentation sizes.

Expected numbers are computed here from the lesson's inputs (tests/app/lesson.py: numpy), not read from the app.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from harness.browser import TIMEOUT_MS
from tests.app import lesson
from tests.app.lesson import COME, PERRO, number
from tests.e2e.shared import FIGURE, FIGURES_DRAWN, assert_healthy, figure, open_app, screenshot

pytestmark = pytest.mark.e2e
WEIGHTS = "walk_w4"  # the walkthrough's part 4 heatmap
MIN_READABLE_PX = 20  # every number a room must read, in presentation mode
MIN_CONTRAST = 4.5  # WCAG AA for normal text


def hover_cell(page: Page, key: str, row: int, col: int, rows: int, cols: int) -> list[str]:
    """Point at a cell of the heatmap `key` and return the tooltip's lines as plotly shows them."""
    plot = figure(page, key)
    plot.scroll_into_view_if_needed()
    area = plot.locator(".nsewdrag").first.bounding_box()  # the plot area, where plotly listens for the mouse
    assert area is not None
    page.mouse.move(area["x"] + area["width"] * (col + 0.5) / cols, area["y"] + area["height"] * (row + 0.5) / rows)
    tooltip = plot.locator(".hoverlayer .hovertext")
    expect(tooltip).to_have_count(1)
    return tooltip.locator("text tspan.line").all_text_contents() or [tooltip.locator("text").first.text_content()]


def test_hovering_a_weight_cell_shows_its_tokens_value_and_arithmetic(page, app_url):
    open_app(page, f"{app_url}/walkthrough?step=4")
    ref = lesson.attention()
    lines = hover_cell(page, WEIGHTS, row=PERRO, col=COME, rows=3, cols=3)
    # perro → come: the weight 0.33163, its score 0.95357, divided by √4 = 2: 0.47679 (Spanish: decimal comma)
    weight, score, scaled = (ref[name][PERRO, COME] for name in ("weights", "scores", "scaled"))
    assert lines == [
        f"perro → come: {number(weight, 4, lang='es')}",
        f"Q·K = {number(score, sign=True, lang='es')} · ÷ 2 = {number(scaled, sign=True, lang='es')} · "
        f"peso {number(weight, lang='es')}",
    ]
    assert lines == ["perro → come: 0,3316", "Q·K = +0,954 · ÷ 2 = +0,477 · peso 0,332"]
    assert_healthy(page)


def rgb(color: str) -> tuple[float, float, float, float]:
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 0.5)' as (r, g, b, alpha)."""
    parts = [float(v) for v in re.findall(r"[\d.]+", color)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def luminance(color: str) -> float:
    """WCAG 2 relative luminance of an opaque colour."""
    channels = [c / 255 for c in rgb(color)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


FIGURE_COLOURS = """plot => {
  const svg = plot.querySelector('.main-svg');
  const fill = selector => [...plot.querySelectorAll(selector)].map(t => getComputedStyle(t).fill);
  return {
    paper: getComputedStyle(svg).backgroundColor,
    page: getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor,
    ticks: fill('.xtick text, .ytick text'),
    titles: fill('.gtitle, .xtitle, .ytitle'),
  };
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_a_figure_is_readable_in_the_theme_the_system_prefers(app_url, scheme, request):
    page = request.getfixturevalue("dark_page" if scheme == "dark" else "page")
    open_app(page, f"{app_url}/walkthrough?step=4")
    figure(page, WEIGHTS).locator(".main-svg").first.wait_for(timeout=90_000)  # drawn (slow on a loaded machine)
    screenshot(page, f"walkthrough-part4-{scheme}")
    colours = figure(page, WEIGHTS).evaluate(FIGURE_COLOURS)
    page_lum = luminance(colours["page"])
    assert (page_lum < 0.05) if scheme == "dark" else (page_lum > 0.9), colours["page"]  # the theme applied
    # the figure's own background, or the page's where the figure is transparent
    background = colours["paper"] if rgb(colours["paper"])[3] == 1 else colours["page"]
    assert colours["ticks"] and colours["titles"]
    for text in colours["ticks"] + colours["titles"]:
        assert contrast(text, background) >= MIN_CONTRAST, (scheme, text, background)
    assert_healthy(page)


# the values written on the cells are a text layer over the heatmap (ui.figure_specs): plotly's .textpoint texts
CELLS = ".textpoint text"
FONT_SIZES = """plot => Object.fromEntries(['.textpoint text', '.xtick text', '.ytick text'].map(
  selector => [selector, [...plot.querySelectorAll(selector)].map(t => parseFloat(getComputedStyle(t).fontSize))]))"""


def cell_font_sizes(page: Page, url: str) -> dict[str, list[float]]:
    open_app(page, url)
    plot = figure(page, WEIGHTS)
    plot.scroll_into_view_if_needed()
    return plot.evaluate(FONT_SIZES)


def test_presentation_mode_writes_the_cells_large_enough_for_a_room(projector, app_url):
    sizes = cell_font_sizes(projector, f"{app_url}/walkthrough?step=4&present=true")
    assert len(sizes[CELLS]) == 9  # the 3 × 3 weights, written in their cells
    assert min(sizes[CELLS]) >= MIN_READABLE_PX, sizes
    assert_healthy(projector)


def test_outside_presentation_mode_the_cells_are_smaller(page, app_url):
    # the presentation check above can fail: the same cells are below 20 px on a desk
    sizes = cell_font_sizes(page, f"{app_url}/walkthrough?step=4")
    assert len(sizes[CELLS]) == 9 and max(sizes[CELLS]) < MIN_READABLE_PX


def test_presentation_mode_writes_the_token_names_on_the_axes_large_enough(projector, app_url):
    sizes = cell_font_sizes(projector, f"{app_url}/walkthrough?step=4&present=true")
    assert min(sizes[".xtick text"] + sizes[".ytick text"]) >= MIN_READABLE_PX, sizes


BUILDER_FIGURES = 8  # Q, K, V; scores, scaled, weights; x, output


def test_a_figure_is_in_the_page_before_its_script_has_arrived(page, app_url):
    """A page waited on for "every figure drawn" must not look finished while its figures' code is still on its
    way (a busy server, a slow network): the component's figure.js is held back here, and each figure's place is
    already there, undrawn; once the script arrives every one is drawn. (Before the place was marked, the page had
    no figure node at all until figure.js ran: "every figure drawn" held of none, and the lecture tests measured 0
    figures of 8.)"""
    held = []

    def hold(route) -> None:
        held.append(route)

    script = re.compile(r"/figure\.js(\?|$)")  # with its version (?v=, ui/served.py) or without
    page.route(script, hold)
    open_app(page, f"{app_url}/builder")
    assert page.locator(FIGURE).count() == BUILDER_FIGURES
    assert page.evaluate(FIGURES_DRAWN) is False
    for route in held:
        route.continue_()
    assert held, "figure.js was never asked for, so never held"
    page.unroute(script)
    page.wait_for_function(FIGURES_DRAWN, timeout=TIMEOUT_MS)
    assert page.locator(FIGURE).count() == BUILDER_FIGURES
    assert_healthy(page)
