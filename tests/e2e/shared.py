"""Helpers for the browser tests only: language, health checks, figures, screenshots.

Server start, Chromium and the waits on Streamlit's readiness live in the shared harness (harness/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, expect

from harness import browser
from harness.browser import TIMEOUT_MS, act, is_base_path_probe, runs, wait_for_app, watch_runs
from harness.server import ROOT
from ui.figure_component import KEY_PREFIX
from ui.i18n import LANGUAGE_NAMES, LANGUAGES

__all__ = ["act", "open_app", "runs", "wait_for_app"]

ARTIFACTS = ROOT / "artifacts" / "screenshots"
# A figure's node, whichever draws it: the app's figure component (ui/figure_component.py) or st.plotly_chart
# (ATTENTION_CHARTS=plotly_chart). Every browser test finds figures with this, `keyed` and `charts`.
CHART = ":is([data-testid=attentionFigure], [data-testid=stPlotlyChart])"
FIGURE = f"[data-testid=stMain] {CHART}"

# Every text node plotly drew in the page's figures (axis labels, titles, cell values), as the browser shows it.
FIGURE_TEXTS = f"""() => [...document.querySelectorAll('{FIGURE} svg text')].map(t => t.textContent)"""
# Every figure on the page has been drawn by plotly: its SVG is there, with the plot inside.
FIGURES_DRAWN = f"""() => [...document.querySelectorAll('{FIGURE}')]
  .every(chart => chart.querySelector('.js-plotly-plot .main-svg .cartesianlayer, .js-plotly-plot .main-svg .plot'))"""
# A chart's node shows its latest figure at its place's width: the component's says so itself (data-drawn, set
# once Plotly.react has resolved: ui/static/figure.js), st.plotly_chart's once its SVG is there.
SHOWS_ITS_FIGURE = """(chart => chart.matches('[data-testid=attentionFigure]') ? chart.dataset.drawn === 'true'
  : chart.querySelector('.main-svg') !== null)"""
# Every chart on the page that can be seen shows its latest figure (one whose place has no width, in a tab not
# open or a folded expander, is drawn when it gets one, and not waited for).
FIGURES_SHOWN = f"""() => [...document.querySelectorAll('{CHART}')]
  .every(chart => chart.clientWidth === 0 || {SHOWS_ITS_FIGURE}(chart))"""
# Two animation frames: a resize or a new element just made has reached the charts (their ResizeObserver, the
# component's call) before their flags are read.
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def watched_page(context) -> Page:
    """A page in `context` that counts script runs and records console errors, failed requests and dialogs."""
    page = watch_runs(context.new_page())
    page.console_errors = []
    page.dialogs = []

    def on_console(msg) -> None:
        if msg.type == "error" and not is_base_path_probe(msg.location.get("url", "")):
            page.console_errors.append(f"{msg.text} ({msg.location.get('url', '')})")

    def on_response(response) -> None:
        if response.status >= 400 and not is_base_path_probe(response.url):
            page.console_errors.append(f"HTTP {response.status} {response.url}")

    def on_dialog(dialog) -> None:
        page.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("console", on_console)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("response", on_response)
    page.on("requestfailed", lambda request: page.console_errors.append(f"request failed: {request.url}"))
    page.on("dialog", on_dialog)
    return page


@contextmanager
def routed_page(browser_, origin: str, serve: Callable) -> Iterator[Page]:
    """A watched page in a context of its own whose requests to `origin` are answered by `serve(route)` (a script
    tested on its own, without Streamlit), opened at `origin`; closed afterwards."""
    context = browser_.new_context()
    try:
        context.route(f"{origin}/**", serve)
        page = watched_page(context)
        page.goto(f"{origin}/")
        yield page
    finally:
        context.close()


def open_app(page: Page, url: str, questions: bool = False) -> None:
    """Load a page and wait for its first run to finish. The questions asked before each step are off (through
    the URL, as the sidebar's switch turns them off) unless `questions`: these tests look at the pages' content."""
    if not questions:
        url += ("&" if "?" in url else "?") + "questions_on=false"
    browser.open_app(page, url)


def choose_language(page: Page, lang: str) -> None:
    """Switch the sidebar's language radio to `lang` ("es" or "en") and wait for the page to redraw in it."""
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_text(LANGUAGE_NAMES[lang], exact=True).filter(visible=True).first.click())
    expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])


def figure_texts(page: Page) -> list[str]:
    return page.evaluate(FIGURE_TEXTS)


def keyed(key: str) -> str:
    """A selector of the element of the figure drawn with the key `key`: Streamlit marks its container
    st-key-<key> for st.plotly_chart, st-key-figure_<key> for the component's chart (its key is a widget's)."""
    return f":is(.st-key-{key}, .st-key-{KEY_PREFIX}{key})"


def charts(page: Page):
    """Every figure's node on the page, in page order."""
    return page.locator(CHART)


def wait_for_figures(page: Page, timeout: float = TIMEOUT_MS) -> None:
    """Wait until every chart that can be seen shows its latest figure at its width (FIGURES_SHOWN)."""
    page.evaluate(TWO_FRAMES)
    page.wait_for_function(FIGURES_SHOWN, timeout=timeout)


def wait_for_figure(page: Page, key: str, timeout: float = TIMEOUT_MS) -> None:
    """Wait until the figure drawn with the key `key` is on the page and shows its latest figure."""
    page.evaluate(TWO_FRAMES)
    page.wait_for_function(
        f"""() => [...document.querySelectorAll('{keyed(key)} {CHART}')].some({SHOWS_ITS_FIGURE})""", timeout=timeout
    )


def figure(page: Page, key: str):
    """The plotly figure (plotly's graph div) drawn with the key `key`."""
    return page.locator(f"{keyed(key)} .js-plotly-plot").first


def assert_healthy(page: Page) -> None:
    """No Streamlit exception box, no console error, no dialog, every figure drawn."""
    expect(page.locator("[data-testid=stException]")).to_have_count(0)
    assert page.console_errors == [], page.console_errors
    assert page.dialogs == [], page.dialogs
    page.wait_for_function(FIGURES_DRAWN, timeout=TIMEOUT_MS)


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
