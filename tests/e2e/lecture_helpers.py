"""Helpers for the lecture tests (tests/e2e/test_lecture.py): views, measurements read from the browser, fresh
servers, whole-page screenshots and the contrast of text against the pixels behind it.

Every measurement is what the browser computed (font sizes from computed styles, boxes from layout) or drew
(the screenshot's pixels), never what the app meant to draw.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from harness.browser import ScriptRuns, is_base_path_probe, wait_for_app
from harness.server import ROOT, free_port, start_app, stop_app, wait_healthy
from tests.e2e.shared import ARTIFACTS, CHART, FIGURES_SHOWN, TWO_FRAMES

MIN_PRESENTATION_PX = 20  # every number a student must read, in presentation mode
MIN_PHONE_FIGURE_PX = 12  # a figure on a phone keeps its text at least this big (it stacks or scrolls instead)
MIN_CONTRAST = 4.5  # WCAG AA for text
HEADER_PX = 60  # Streamlit's header bar, over the top of the page


@dataclass(frozen=True)
class View:
    """A way of looking at the app: a screen, a colour scheme, presentation mode, the sidebar."""

    name: str
    width: int
    height: int
    scheme: str = "light"
    presentation: bool = False
    sidebar_closed: bool = False


VIEWS = (
    View("present-sidebar", 1280, 720, presentation=True),
    View("present-nosidebar", 1280, 720, presentation=True, sidebar_closed=True),
    View("phone", 390, 844),
    View("light", 1400, 900),
    View("dark", 1400, 900, scheme="dark"),
)


def new_page(browser: Browser, view: View, **context_options) -> Page:
    """A fresh browser context (a new Streamlit session) for `view`, recording console errors and dialogs."""
    context = browser.new_context(
        viewport={"width": view.width, "height": view.height}, color_scheme=view.scheme, **context_options
    )
    page = context.new_page()
    page.script_runs = ScriptRuns(page)
    page.console_errors = []
    page.dialogs = []

    def on_console(message) -> None:
        if message.type == "error" and not is_base_path_probe(message.location.get("url", "")):
            page.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    return page


def query(view: View, lang: str = "es", **params: object) -> str:
    items = {"lang": lang, **({"present": "true"} if view.presentation else {}), **params}
    return "?" + "&".join(f"{key}={value}" for key, value in items.items())


# Every figure drawn, its latest at its width, nothing stale or loading, no run in progress.
SETTLED = f"""() => document.querySelector('[data-testid=stApp][data-test-script-state=notRunning]') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0
  && [...document.querySelectorAll('{CHART}')].every(e => e.querySelector('.main-svg'))
  && ({FIGURES_SHOWN})()"""


def settle(page: Page, timeout: float = 60_000) -> None:
    page.evaluate(TWO_FRAMES)  # a resize or a rerun just made has reached the charts
    page.wait_for_function(SETTLED, timeout=timeout)


def open_view(page: Page, url: str, view: View) -> None:
    """Load `url`, wait for its first run and figures, and close the sidebar if the view asks for it."""
    page.goto(url)
    wait_for_app(page, timeout=90_000)
    settle(page)
    if view.sidebar_closed:
        close_sidebar(page)


def close_sidebar(page: Page) -> None:
    sidebar = page.locator("[data-testid=stSidebar]")
    sidebar.hover()
    page.locator("[data-testid=stSidebarCollapseButton] button").click()
    expect(page.locator("[data-testid=stExpandSidebarButton]")).to_be_visible()
    page.wait_for_function("() => document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().right <= 1")


def sidebar_open(page: Page) -> bool:
    return page.evaluate("() => document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().right > 1")


# --- what the browser computed ---

# Text nodes with a digit in the main area, shown, and their computed font size (SVG text of the figures too).
NUMBER_SIZES = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('[data-testid=stMain]'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const element = walker.currentNode.parentElement;
    if (!/\d/.test(text) || !element) continue;
    if (element.closest('.modebar, .hoverlayer, [data-testid=stTooltipContent]')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    out.push({text: text.slice(0, 40), size: parseFloat(getComputedStyle(element).fontSize)});
  }
  return out;
}"""

# The values widgets show: text inputs, number inputs, selects, slider values, the part picker and buttons.
WIDGET_VALUE_SIZES = r"""() => {
  const selectors = ['input:not([type=checkbox]):not([type=radio])', 'textarea', '[data-baseweb=select] [value]',
    '[data-baseweb=select] div[class]:not(:has(*))', '[data-testid=stSliderThumbValue] p',
    '[data-testid=stSliderTickBar] p', '[data-testid=stButtonGroup] button p'];
  const out = [];
  for (const element of document.querySelectorAll(selectors.map(s => '[data-testid=stMain] ' + s).join(','))) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || element.closest('[data-testid=stDataFrame]')) continue;
    const text = (element.value !== undefined ? element.value : element.textContent) || '';
    out.push({text: String(text).slice(0, 30), size: parseFloat(getComputedStyle(element).fontSize)});
  }
  return out;
}"""

# Boxes that scroll sideways because their content is wider (derivations, formulas, tables), and elements that
# reach past the page's right edge.
SIDEWAYS = r"""() => {
  const out = [];
  for (const element of document.querySelectorAll('[data-testid=stMain] *')) {
    const style = getComputedStyle(element);
    const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
    if (scrolls && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0
        && !element.closest('[data-testid=stDataFrame], .js-plotly-plot'))
      out.push({what: element.tagName + '.' + (element.dataset.testid || ''), text: element.textContent.slice(0, 50),
                scroll: element.scrollWidth, client: element.clientWidth});
  }
  const main = document.querySelector('[data-testid=stMain]');
  if (main.scrollWidth > main.clientWidth + 1)
    out.push({what: 'page', scroll: main.scrollWidth, client: main.clientWidth});
  return out;
}"""

# The walkthrough's part on screen: its top (the controls and the title), the title, the main figure and the
# start of the derivation beside it, as [top, bottom] in the viewport.
PART_BOXES = r"""() => {
  const box = selector => { const e = document.querySelector(selector); if (!e) return null;
    const b = e.getBoundingClientRect(); return [b.top, b.bottom]; };
  return {top: box('.st-key-walk_part'), title: box('.st-key-walk_part h2'),
          figure: box('.st-key-walk_main CHART'),
          derivation: box('.st-key-walk_main [data-testid=stCode] pre'),
          titleText: (document.querySelector('.st-key-walk_part h2') || {}).textContent};
}""".replace("CHART", CHART)

# Figures on a phone: the size of the text they draw, and whether they fit the screen or sit in a box that scrolls.
PHONE_FIGURES = r"""() => [...document.querySelectorAll('CHART')].map(chart => {
  const sizes = [...chart.querySelectorAll('.main-svg text')].filter(t => t.getBoundingClientRect().width > 0)
    .map(t => t.getBoundingClientRect().height > 0 ? parseFloat(getComputedStyle(t).fontSize) : 99);
  const svg = chart.querySelector('.main-svg').getBoundingClientRect();
  const drawn = svg.width / (parseFloat(chart.querySelector('.main-svg').getAttribute('width')) || svg.width);
  let scroller = chart.parentElement, scrolls = false;
  while (scroller && scroller !== document.body) {
    const style = getComputedStyle(scroller);
    const scrollable = style.overflowX === 'auto' || style.overflowX === 'scroll';
    if (scrollable && scroller.scrollWidth > scroller.clientWidth) scrolls = true;
    scroller = scroller.parentElement;
  }
  return {smallest: Math.min(...sizes, 99), scale: drawn, right: svg.right, scrolls};
})""".replace("CHART", CHART)

# Text whose contrast the tests check, with its colour: figure texts (tick labels, cell values, titles), table
# cells, derivations. Boxes in page pixels: the viewport holds the whole page when this runs.
TEXT_BOXES = r"""() => {
  const out = [];
  const add = (element, color, where) => {
    const box = element.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) return;
    out.push({where, text: element.textContent.trim().slice(0, 30), color,
              x: box.left + window.scrollX, y: box.top + window.scrollY, w: box.width, h: box.height});
  };
  for (const text of document.querySelectorAll('[data-testid=stMain] .main-svg text')) {
    if (!text.textContent.trim() || text.closest('.hoverlayer, .modebar')) continue;
    const style = getComputedStyle(text);
    add(text, [style.fill, style.fillOpacity, style.opacity], 'figure');
  }
  const cells = ['td', 'th'].map(c => `[data-testid=stMain] [data-testid=stMarkdownContainer] table ${c}`).join(', ');
  for (const cell of document.querySelectorAll(cells)) {
    if (!cell.textContent.trim()) continue;
    add(cell, [getComputedStyle(cell).color, '1', '1'], 'table');
  }
  for (const line of document.querySelectorAll('[data-testid=stMain] [data-testid=stCode] pre code')) {
    add(line, [getComputedStyle(line).color, '1', '1'], 'derivation');
  }
  return out;
}"""


def rgba(css: str) -> tuple[float, float, float, float]:
    numbers = [float(n) for n in re.findall(r"[\d.]+", css)]
    return (numbers[0], numbers[1], numbers[2], numbers[3] if len(numbers) > 3 else 1.0)


def luminance(rgb) -> float:
    """WCAG's relative luminance of a colour given as 0–255 red, green, blue."""
    linear = [(c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def whole_page(page: Page) -> tuple[int, int]:
    """Make the viewport as tall as the page's own scroll container, so the whole page is on screen at once;
    returns the viewport it had."""
    before = page.viewport_size
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], [data-testid=stMainBlockContainer]')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": before["width"], "height": min(int(height) + 40, 16_000)})
    settle(page)  # a resize relays out the figures: each says when it is drawn anew
    return before["width"], before["height"]


def low_contrast_texts(page: Page) -> tuple[int, list[tuple[float, str, str]]]:
    """How many texts were checked, and every one whose colour has less than MIN_CONTRAST against the colour
    that fills most of its box in a screenshot (the background it is drawn on), as (ratio, where, text). The
    viewport must hold the whole page."""
    from PIL import Image

    boxes = page.evaluate(TEXT_BOXES)
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    low = []
    for box in boxes:
        left, top = max(0, int(box["x"])), max(0, int(box["y"]))
        right, bottom = min(image.width, int(box["x"] + box["w"])), min(image.height, int(box["y"] + box["h"]))
        if right - left < 2 or bottom - top < 2:
            continue
        background = Counter(image.crop((left, top, right, bottom)).get_flattened_data()).most_common(1)[0][0]
        fill, fill_opacity, opacity = box["color"]
        red, green, blue, alpha = rgba(fill)
        alpha *= float(fill_opacity or 1) * float(opacity or 1)
        text = [alpha * c + (1 - alpha) * b for c, b in zip((red, green, blue), background, strict=True)]
        ratio = contrast(text, background)
        if ratio < MIN_CONTRAST:
            low.append((round(ratio, 2), box["where"], box["text"]))
    return len(boxes), low


def screenshot(page: Page, name: str) -> Path:
    """What the viewport shows (the whole page after `whole_page`), to artifacts/screenshots/<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@contextmanager
def fresh_server() -> Iterator[str]:
    """A server of its own, just started and never visited: the first visitor after a restart."""
    port = free_port()
    process = start_app(ROOT / "app.py", port)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, timeout=120)
        yield url
    finally:
        stop_app(process)
