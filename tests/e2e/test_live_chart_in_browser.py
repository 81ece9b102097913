"""The figure component in a real browser (ui/figure_component.py, issue 29): a chart stays the same node through
an edit and keeps a student's zoom; it follows the light and the dark theme, also when the theme changes under it;
its mode bar saves a PNG and an SVG that are real files, and opens the figure full screen; no console error, and
no request leaves the server (plotly.js is the app's own copy of plotly's cartesian bundle, ui/plotly_js/,
through the server)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.shared import (
    CHART,
    act,
    assert_healthy,
    charts,
    figure,
    keyed,
    open_app,
    wait_for_app,
    watched_page,
)
from ui import figure_component, served, shell
from ui.i18n import LANGUAGES

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not figure_component.component_on(), reason="ATTENTION_CHARTS=plotly_chart: no component"),
]
EN = LANGUAGES["en"]
BUILDER_FIGURES = ("b_q", "b_k", "b_v", "b_scores", "b_scaled", "b_weights", "b_x", "b_out")
LIGHT = {"background": "#ffffff", "text": "#111827"}  # .streamlit/config.toml
DARK = {"background": "#0f131a", "text": "#f2f4f8"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# A CSS colour as the browser computes it ("rgb(15, 19, 26)"), to compare colours written in any form.
COMPUTED = """(color) => { const probe = document.createElement('div'); probe.style.color = color;
  document.body.appendChild(probe); const out = getComputedStyle(probe).color; probe.remove(); return out; }"""
# Whether the figure `selector` is drawn on the background `wanted` (a computed colour).
BACKGROUND_IS = f"""([selector, wanted]) => {{ const plot = document.querySelector(selector);
  return !!(plot && plot._fullLayout) && ({COMPUTED})(plot._fullLayout.paper_bgcolor) === wanted; }}"""
# What plotly drew a figure with: its background, and the colour of its tick labels as the browser paints them.
DRAWN_COLOURS = """(plot) => ({background: plot._fullLayout.paper_bgcolor,
  ticks: getComputedStyle(plot.querySelector('.xtick text, .ytick text')).fill})"""


def computed(page: Page, color: str) -> str:
    return page.evaluate(COMPUTED, color)


def graph_nodes(page: Page, keys) -> dict:
    """Each figure's plotly graph div, as a handle to that very node."""
    return {key: figure(page, key).element_handle() for key in keys}


def same_node(page: Page, key: str, handle) -> bool:
    return page.evaluate(
        "([node, selector]) => node.isConnected && node === document.querySelector(selector)",
        [handle, f"{keyed(key)} .js-plotly-plot"],
    )


def z_of(page: Page, key: str):
    return figure(page, key).evaluate("plot => plot.data[0].z")


def open_builder(page: Page, url: str) -> None:
    open_app(page, f"{url}/builder?lang=en")
    for key in BUILDER_FIGURES:
        figure(page, key).locator(".main-svg").first.wait_for()


def test_an_edit_updates_every_chart_in_place(page, app_url):
    open_builder(page, app_url)
    nodes = graph_nodes(page, BUILDER_FIGURES)
    before = {key: z_of(page, key) for key in BUILDER_FIGURES}
    act(page, lambda: page.get_by_role("button", name=EN["scenario.random"]).click())
    page.wait_for_function(
        f'(before) => JSON.stringify(document.querySelector("{keyed("b_weights")} .js-plotly-plot").data[0].z)'
        " !== before",
        arg=json.dumps(before["b_weights"]),
    )
    for key in BUILDER_FIGURES:
        assert z_of(page, key) != before[key], key  # every matrix has new numbers...
        assert same_node(page, key, nodes[key]), key  # ...drawn in the chart that was there
    assert charts(page).count() == len(BUILDER_FIGURES)
    assert_healthy(page)


def test_a_zoom_survives_an_edit(page, app_url):
    open_app(page, f"{app_url}/pipeline?lang=en")
    box = page.locator("[data-testid=stTextInput] input").first
    box.fill(" ".join(f"w{i}" for i in range(20)))  # 20 tokens: a map large enough to zoom
    act(page, lambda: box.press("Enter"))
    plot = figure(page, "pipe_weights")
    page.wait_for_function(
        f'() => {{ const p = document.querySelector("{keyed("pipe_weights")} .js-plotly-plot");'
        " return p && p.data && p.data[0].z.length === 20; }"
    )
    node = plot.element_handle()
    area = plot.locator(".nsewdrag").first
    area.scroll_into_view_if_needed()
    drag = area.bounding_box()
    page.mouse.move(drag["x"] + drag["width"] * 0.1, drag["y"] + drag["height"] * 0.1)
    page.mouse.down()
    page.mouse.move(drag["x"] + drag["width"] * 0.3, drag["y"] + drag["height"] * 0.35, steps=8)
    page.mouse.up()
    zoomed = plot.evaluate("p => [p._fullLayout.xaxis.range, p._fullLayout.yaxis.range]")
    assert zoomed[0] != [-0.5, 19.5], zoomed  # the drag zoomed in
    before = z_of(page, "pipe_weights")
    act(page, lambda: page.locator(".st-key-pipeline_causal label").first.click())  # the causal mask: new weights
    page.wait_for_function(
        f'(before) => JSON.stringify(document.querySelector("{keyed("pipe_weights")} .js-plotly-plot")'
        ".data[0].z) !== before",
        arg=json.dumps(before),
    )
    assert z_of(page, "pipe_weights")[0][1] is None  # w0 may not look at w1 now: masked
    assert same_node(page, "pipe_weights", node)
    assert plot.evaluate("p => [p._fullLayout.xaxis.range, p._fullLayout.yaxis.range]") == zoomed
    assert_healthy(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_charts_wear_the_apps_theme_and_follow_a_change_of_it(browser, app_url, scheme):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    try:
        page = watched_page(context)
        open_builder(page, app_url)
        first, other = (LIGHT, DARK) if scheme == "light" else (DARK, LIGHT)
        node = figure(page, "b_weights").element_handle()
        for expected in (first, other):
            if expected is other:  # the system's preference changes: Streamlit follows it, without a rerun
                page.emulate_media(color_scheme="dark" if scheme == "light" else "light")
            app_background = computed(page, expected["background"])
            page.wait_for_function(BACKGROUND_IS, arg=[f"{keyed('b_weights')} .js-plotly-plot", app_background])
            app = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor")
            assert app == app_background  # the app itself is in that theme
            for key in BUILDER_FIGURES:
                drawn = figure(page, key).evaluate(DRAWN_COLOURS)
                assert computed(page, drawn["background"]) == app_background, key
                assert drawn["ticks"] == computed(page, expected["text"]), key
        assert same_node(page, "b_weights", node)  # re-coloured in place
        assert_healthy(page)
    finally:
        context.close()


def hover_mode_bar(page: Page, key: str):
    plot = figure(page, key)
    plot.scroll_into_view_if_needed()
    plot.hover()
    return page.locator(f"{keyed(key)} .modebar")


def test_the_mode_bar_saves_a_png_and_an_svg(page, app_url):
    open_builder(page, app_url)
    bar = hover_mode_bar(page, "b_weights")
    with page.expect_download() as png:
        bar.locator("[data-title^='Download plot']").click()
    assert png.value.suggested_filename == "weights-softmax.png"
    assert Path(png.value.path()).read_bytes()[:8] == PNG_MAGIC
    bar = hover_mode_bar(page, "b_weights")
    with page.expect_download() as svg:
        bar.locator(f"[data-title='{EN['figure.download_svg']}']").click()
    assert svg.value.suggested_filename == "weights-softmax.svg"
    root = ET.parse(svg.value.path()).getroot()
    assert root.tag.rsplit("}", 1)[-1] == "svg"
    texts = "".join(root.itertext())
    assert "0.332" in texts  # the vector figure holds the cells' numbers as text (perro → come)
    assert_healthy(page)


def test_fullscreen_fills_the_window_and_escape_leaves_it(page, app_url):
    open_builder(page, app_url)
    bar = hover_mode_bar(page, "b_weights")
    bar.locator(f"[data-title='{EN['figure.fullscreen']}']").click()
    plot = figure(page, "b_weights")
    page.wait_for_function(
        f'() => document.querySelector("{keyed("b_weights")} .js-plotly-plot")._fullLayout.width > 1000'
    )
    box = page.locator(f"{keyed('b_weights')} [data-testid=attentionFigure]").bounding_box()
    assert (box["width"], box["height"]) == (1400, 1000)  # the window's size
    page.keyboard.press("Escape")
    page.wait_for_function(
        f'() => document.querySelector("{keyed("b_weights")} .js-plotly-plot")._fullLayout.width < 760'
    )
    assert plot.evaluate("p => p._fullLayout.width") == plot.evaluate("p => p.layout.width")
    assert_healthy(page)


def test_each_chart_is_a_figure_named_by_its_text_description(page, app_url):
    open_builder(page, app_url)
    nodes = page.locator(f"[data-testid=stMain] {CHART}")
    expect(nodes).to_have_count(len(BUILDER_FIGURES))
    weights = page.locator(f"{keyed('b_weights')} [role=figure]")
    assert weights.get_attribute("aria-label").startswith("Weights (softmax): heatmap of 3 × 3. Rows: el: [")
    assert_healthy(page)


def packed_plotly_served(browser, app_url: str) -> bool:
    """Whether the server sends plotly.min.js.gz, once a page drew a figure (it packs it once, in the background)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = watched_page(context)
        open_builder(page, app_url)
        for _ in range(100):  # at most 10 s
            if page.request.get(f"{app_url}/{served.PLOTLY_JS_PACKED}").ok:
                return True
            page.wait_for_timeout(100)
        return False
    finally:
        context.close()


def test_nothing_is_asked_of_any_other_host(browser, app_url):
    assert packed_plotly_served(browser, app_url)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = watched_page(context)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        open_builder(page, app_url)
        act(page, lambda: page.get_by_role("button", name=EN["scenario.random"]).click())
        wait_for_app(page)
        origin = urlsplit(app_url).netloc
        elsewhere = [
            u
            for u in requested
            if urlsplit(u).scheme in ("http", "https", "ws", "wss") and urlsplit(u).netloc != origin
        ]
        assert requested and not elsewhere, elsewhere
        # plotly.js from the server's packed file (sent as it is, unpacked by the browser), not the plain one
        assert [u for u in requested if "plotly" in u] == [f"{app_url}/{served.PLOTLY_JS_PACKED}"], requested
        # the tab's icon comes inside the page's settings (ui.shell.ICON), not fetched again after every run
        assert not [u for u in requested if urlsplit(u).path.startswith("/media/")], requested
        icon = page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map(link => link.href)")
        assert icon == [shell.ICON], icon
        assert_healthy(page)
    finally:
        context.close()
