"""Helpers for the browser tests only: language, health checks, figures, screenshots.

Server start, Chromium and the waits on Streamlit's readiness live in the shared harness (harness/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from harness import browser
from harness.browser import CHART, TIMEOUT_MS, act, is_base_path_probe, runs, wait_for_app, watch_runs
from harness.server import ROOT
from ui.figure_component import KEY_PREFIX
from ui.i18n import LANGUAGE_NAMES, LANGUAGES

__all__ = ["act", "open_app", "runs", "wait_for_app"]

ARTIFACTS = ROOT / "artifacts" / "screenshots"
# ms: how long Playwright's assertions retry in every browser test (set in conftest.py). They follow waits for the
# app to be idle, so they pass at once on a quiet machine; Playwright's own 5 s is too short for a busy one. A module
# that needs longer sets its own and gives this one back (Playwright's options are global to the worker).
EXPECT_TIMEOUT_MS = 20_000
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
    """A page in `context` that counts script runs and records console errors, failed requests, dialogs and the
    addresses it had (`urls`)."""
    page = watch_runs(context.new_page())
    page.console_errors = []
    page.dialogs = []
    page.urls = []  # every address the page had, in order (a failure says how it got where it is)

    def on_navigated(frame) -> None:
        if frame == page.main_frame:
            page.urls.append(frame.url)

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
    page.on("framenavigated", on_navigated)
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


# --- the x editor (glide-data-grid draws its cells on a canvas) ---


def x_cell(page: Page, row: int, column: int) -> str:
    """The text of a cell of the x editor (glide-data-grid keeps an accessible copy of each cell in the DOM)."""
    return page.locator("[data-testid=stDataFrame]").first.locator(f"#glide-cell-{column}-{row}").inner_text()


# the cell the grid has selected, as "column-row" (glide-data-grid focuses its accessible copy, #glide-cell-<c>-<r>)
SELECTED_CELL = """() => { const cell = document.activeElement;
  if (cell?.getAttribute('aria-selected') !== 'true') return null;
  return (cell.id.match(/^glide-cell-(\\d+-\\d+)$/) || [])[1] || null; }"""


def selected_cell(page: Page, timeout: float) -> tuple[int, int] | None:
    """(row, column) of the cell the grid selects within `timeout` ms, once it no longer changes; None if none."""
    try:
        page.wait_for_function(SELECTED_CELL, timeout=timeout)
    except PlaywrightTimeoutError:
        return None
    cell = page.evaluate(SELECTED_CELL)
    for _ in range(20):  # a slow click's selection may land after a later click's: wait until it stays
        page.wait_for_timeout(300)
        again = page.evaluate(SELECTED_CELL)
        if again == cell and cell is not None:
            column, row = map(int, cell.split("-"))
            return row, column
        cell = again
    return None


def type_into_x_cell(page: Page, row: int, column: int, text: str, *, commit: bool = True, was: str = "") -> None:
    """Select a cell of the x editor's token column with a click, walk from the cell selected to (row, column) with
    the arrow keys and type `text` into its editor (checked first to hold `was`, if given); Enter commits it (the
    grid is a canvas: the keyboard is the reliable way in)."""
    grid = page.locator("[data-testid=stDataFrame]").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    # right after the share box closes, the grid takes the first click as focus only: a click that selected no cell
    # within a second or two is followed by another (a first wait of 10 s cost 10 s in most runs of this test). Each
    # click goes to another row than the one before: a second click on a cell that a slow first click did select
    # would open its editor (glide-data-grid's "second-click" activation).
    selected = None
    for attempt, timeout in enumerate((1_500, 3_000, 10_000)):
        page.mouse.click(box["x"] + 60, box["y"] + 35 + 17 + 35 * (attempt % 2))  # row 0, then 1, then 0
        selected = selected_cell(page, timeout)
        if selected is not None:
            break
    assert selected is not None, "three clicks on the x editor selected no cell"
    at_row, at_column = selected
    for _ in range(abs(row - at_row)):
        page.keyboard.press("ArrowDown" if row > at_row else "ArrowUp")
    for _ in range(abs(column - at_column)):
        page.keyboard.press("ArrowRight" if column > at_column else "ArrowLeft")
    page.keyboard.press("Enter")
    editor = page.locator("textarea.gdg-input, input.gdg-input").first
    expect(editor).to_be_visible()
    if was:  # the cell's number before it is typed over (the right cell reached)
        expect(editor).to_have_value(was)
    editor.fill(text)
    if commit:
        act(page, lambda: page.keyboard.press("Enter"))
