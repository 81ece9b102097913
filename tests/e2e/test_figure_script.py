"""ui/static/figure.js on its own in Chromium, without Streamlit.

- A chart taken away while plotly.js is still drawing it leaves no error behind. CI's learning page (a fragment
  redrawing its figures several times a second) logged "e.emit is not a function": the cleanup purged the graph
  while Plotly.react was between its steps, and plotly's next step called the purged graph's event emitter.
- As st.plotly_chart, nothing is drawn where it cannot be seen (a place of no width: a tab not open, a folded
  expander), and the chart is drawn, once, with its latest figure when its place gets a width."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page

from tests.e2e.lecture_helpers import MIN_CONTRAST, contrast, rgba
from tests.e2e.shared import routed_page
from ui import figure_component, figure_specs, served
from ui.figure_specs import BlockLabels

pytestmark = pytest.mark.e2e
ORIGIN = "http://figure.test"
STATIC = served.STATIC
FILES = {
    "/figure.js": (STATIC / "figure.js", "text/javascript"),
    "/plotly.min.js": (served.PLOTLY_FILE, "text/javascript"),
    "/": (None, "text/html"),
}
PAGE = "<!doctype html><html><body><div id=slot style='width:600px'></div></body></html>"

# Mount a heatmap, then take it away after `ticks` turns of the event loop's microtasks and timers, as Streamlit
# does when a fragment's rerun drops a chart; then wait for whatever plotly.js had still to do.
DRAW_AND_DROP = """async (ticks) => {
  const { draw } = await import('/figure.js');
  const figure = { data: [{ type: 'heatmap', z: [[1, 2], [3, 4]], x: ['a', 'b'], y: ['c', 'd'] }],
                   layout: { height: 260, title: 'W' } };
  const slot = document.createElement('div');
  document.getElementById('slot').appendChild(slot);
  const component = { data: { figure, alt: 'W', config: {}, labels: {} }, parentElement: slot };
  let cleanup = draw(component, '/plotly.min.js');
  for (let i = 0; i < ticks; i++) {
    if (i % 2) await new Promise((done) => setTimeout(done, 0)); else await Promise.resolve();
  }
  cleanup();
  await new Promise((done) => setTimeout(done, 300));
  return slot.querySelector('[data-testid=attentionFigure]') === null;
}"""


# figure.js imported and plotly.js loaded by a script tag of the page's own, before any chart is drawn
LOAD_PLOTLY = """async () => { await import('/figure.js');
  const script = document.createElement('script');
  script.src = '/plotly.min.js';
  document.head.appendChild(script);
  while (!(window.Plotly && window.Plotly.react)) await new Promise((done) => setTimeout(done, 20)); }"""


@contextmanager
def script_page(browser) -> Iterator[Page]:
    """A page of its own that serves figure.js and plotly.js, with plotly.js loaded; closed afterwards."""
    with routed_page(browser, ORIGIN, serve) as page:
        page.evaluate(LOAD_PLOTLY)
        yield page


def serve(route) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path not in FILES:
        route.fulfill(status=404, body="")
        return
    file, kind = FILES[path]
    route.fulfill(status=200, content_type=kind, body=file.read_bytes() if file else PAGE)


def test_a_chart_taken_away_while_it_is_drawn_leaves_no_error(browser):
    with routed_page(browser, ORIGIN, serve) as page:
        # plotly.js loaded once, so that each drop below lands inside Plotly.react and not in the script's loading
        page.evaluate("""async () => { const { draw } = await import('/figure.js');
          const slot = document.createElement('div'); document.body.appendChild(slot);
          draw({ data: { figure: { data: [], layout: {} } }, parentElement: slot }, '/plotly.min.js');
          while (!(window.Plotly && window.Plotly.react)) await new Promise((done) => setTimeout(done, 20)); }""")
        removed = [page.evaluate(DRAW_AND_DROP, ticks) for ticks in range(0, 40)]
        assert all(removed), removed
        assert page.console_errors == [], page.console_errors


# A chart whose place has no width (a tab not open, a folded expander: a `display: none` box around it) gets two
# figures, A then B; later its place is shown. Every Plotly.react is counted, with the title it drew; the chart's
# node and plotly's svg are looked for before and after. Then, drawn and shown, it is hidden again, gets C, and is
# shown: C is drawn.
HIDDEN_THEN_SHOWN = """async () => {
  const { draw } = await import('/figure.js');
  const drawn = [];
  const react = window.Plotly.react;
  window.Plotly.react = function (graph, data, layout) {
    drawn.push(layout.title.text);
    return react.apply(this, arguments);
  };
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  const bars = [{ type: 'bar', x: ['a', 'b'], y: [1, 2] }];
  const figure = (title) => ({ data: { figure: { data: bars, layout: { height: 240, title } }, alt: title } });
  const fold = document.createElement('div');
  fold.style.display = 'none';
  const slot = document.createElement('div');
  fold.appendChild(slot);
  document.getElementById('slot').appendChild(fold);
  const svg = () => slot.querySelector('[data-testid=attentionFigure] .main-svg');
  const title = () => (slot.querySelector('.gtitle') || {}).textContent;
  draw({ ...figure('A'), parentElement: slot }, '/plotly.min.js');
  await pause(50);
  draw({ ...figure('B'), parentElement: slot }, '/plotly.min.js');
  await pause(400);
  const hidden = { node: slot.querySelector('[data-testid=attentionFigure]') !== null, draws: drawn.length };
  fold.style.display = 'block';
  for (let i = 0; i < 200 && !svg(); i++) await pause(25);
  await pause(400);
  const shown = { draws: [...drawn], title: title() };
  fold.style.display = 'none';
  await pause(50);
  draw({ ...figure('C'), parentElement: slot }, '/plotly.min.js');
  await pause(400);
  const hiddenAgain = { draws: drawn.length, title: title() };
  fold.style.display = 'block';
  for (let i = 0; i < 200 && title() !== 'C'; i++) await pause(25);
  await pause(400);
  window.Plotly.react = react;
  return { hidden, shown, hiddenAgain, last: { draws: [...drawn], title: title() } };
}"""


def test_a_chart_with_no_width_is_drawn_when_its_place_gets_one_with_the_latest_figure(browser):
    with script_page(browser) as page:
        seen = page.evaluate(HIDDEN_THEN_SHOWN)
        assert seen["hidden"] == {"node": False, "draws": 0}, "nothing drawn, no node, where there is no width"
        assert seen["shown"] == {"draws": ["<b>B</b>"], "title": "B"}, "drawn once when shown, with the latest figure"
        assert seen["hiddenAgain"] == {"draws": 1, "title": "B"}, "a figure that comes while hidden waits"
        assert seen["last"] == {"draws": ["<b>B</b>", "<b>C</b>"], "title": "C"}, "and is drawn when shown again"
        assert page.console_errors == [], page.console_errors


# Streamlit's own light and dark theme, as the component's theme variables give them to figure.js.
THEMES = {
    "light": {"--st-background-color": "#ffffff", "--st-text-color": "#31333f"},
    "dark": {"--st-background-color": "#0e1117", "--st-text-color": "#fafafa"},
}
# Draw `figure` in a slot with the theme's variables; once plotly has written its annotations, every text drawn on
# the figure's background (annotations) and on boxes of their own (a text trace's points), with its colour.
THEMED_TEXTS = """async ({ figure, theme }) => {
  const { draw } = await import('/figure.js');
  const slot = document.createElement('div');
  for (const [name, value] of Object.entries(theme)) slot.style.setProperty(name, value);
  document.getElementById('slot').appendChild(slot);
  draw({ data: { figure, alt: 'figure', config: {}, labels: {} }, parentElement: slot }, '/plotly.min.js');
  const texts = (selector) => [...slot.querySelectorAll(selector)]
    .filter((t) => t.textContent.trim()).map((t) => [t.textContent, getComputedStyle(t).fill]);
  for (let i = 0; i < 400 && !texts('.annotation-text').length; i++) await new Promise((done) => setTimeout(done, 25));
  return { annotations: texts('.annotation-text'), points: texts('.textpoint text') };
}"""


def series_marks() -> dict:
    """A figure whose annotations carry each series colour, as the bar panels' names do, one on a light box."""
    notes = [
        {
            "text": f"s{k}",
            "x": 0.1,
            "y": k / 6,
            "xref": "paper",
            "yref": "paper",
            "showarrow": False,
            "font": {"color": colour},
        }
        for k, colour in enumerate(figure_specs.SERIES_COLORS)
    ]
    notes.append({**notes[0], "text": "boxed", "bgcolor": "#ffffff", "font": {"color": "#08519c"}})
    return {"data": [], "layout": {"height": 300, "annotations": notes}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_annotation_a_figure_colours_itself_reads_in_the_light_and_the_dark_theme(browser, scheme):
    """The dark multi-head page showed the block figure's "este paso →" mark in its own dark blue on the dark page
    (2.36 : 1): a colour a figure gives an annotation is kept where it reads and otherwise moved toward the
    theme's text colour; the words in the block's boxes (a text trace, on light fills in both themes) keep theirs."""
    labels = BlockLabels(*(name for name in BlockLabels.__dataclass_fields__))
    block = figure_component.figure_spec(figure_specs.block_figure(labels, figure_specs.Style(), "en"))
    background = tuple(int(THEMES[scheme]["--st-background-color"][i : i + 2], 16) for i in (1, 3, 5))
    with script_page(browser) as page:
        seen = page.evaluate(THEMED_TEXTS, {"figure": block, "theme": THEMES[scheme]})
        marks = page.evaluate(THEMED_TEXTS, {"figure": series_marks(), "theme": THEMES[scheme]})
        assert page.console_errors == [], page.console_errors
    texts = dict(seen["annotations"])
    assert "here" in texts and "output" in texts, texts
    for text, fill in seen["annotations"] + marks["annotations"]:
        behind = (255, 255, 255) if text == "boxed" else background
        assert contrast(rgba(fill), behind) >= MIN_CONTRAST, (scheme, text, fill)
    if scheme == "light":  # a colour that reads is the figure's own
        assert rgba(texts["here"])[:3] == (8, 81, 156)
    words = dict(seen["points"])
    assert words and {rgba(fill)[:3] for fill in words.values()} == {(17, 17, 17)}, words  # BLOCK_TEXT, as set


# A chart gets figure A, then B while A is still being drawn; its node's data-drawn is read as each Plotly.react
# starts and when the last has resolved (with the title plotly wrote); then its place gets narrower.
DRAWN_FLAG = """async () => {
  const { draw } = await import('/figure.js');
  const seen = [];
  const react = window.Plotly.react;
  const box = () => slot.querySelector('[data-testid=attentionFigure]');
  window.Plotly.react = async function (graph, data, layout) {
    seen.push([layout.title.text, box().dataset.drawn]);
    const done = await react.apply(this, arguments);
    seen.push([layout.title.text, box().dataset.drawn]);
    return done;
  };
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  const bars = [{ type: 'bar', x: ['a', 'b'], y: [1, 2] }];
  const figure = (title) => ({ data: { figure: { data: bars, layout: { height: 240, title } }, alt: title } });
  const slot = document.createElement('div');
  document.getElementById('slot').appendChild(slot);
  draw({ ...figure('A'), parentElement: slot }, '/plotly.min.js');
  const first = box().dataset.drawn;
  draw({ ...figure('B'), parentElement: slot }, '/plotly.min.js');
  for (let i = 0; i < 400 && box().dataset.drawn !== 'true'; i++) await pause(10);
  const drawn = { flag: box().dataset.drawn, title: slot.querySelector('.gtitle').textContent };
  const before = seen.length;
  slot.style.width = '300px';
  for (let i = 0; i < 400 && (seen.length < before + 2 || box().dataset.drawn !== 'true'); i++) await pause(10);
  window.Plotly.react = react;
  const width = slot.querySelector('.main-svg').getAttribute('width');
  return { first, seen: seen.slice(0, before), drawn, resized: seen.slice(before), width };
}"""


def test_a_charts_node_says_when_its_latest_figure_is_drawn(browser):
    """The browser tests waited a guessed 300 ms after a resize, and read a figure's labels before plotly had
    written them (the hostile-names test found none): the chart's node now says data-drawn="true" once its latest
    figure is drawn at its place's width, "false" from a new figure or a new width until then."""
    with script_page(browser) as page:
        seen = page.evaluate(DRAWN_FLAG)
        assert page.console_errors == [], page.console_errors
    assert seen["first"] == "false", "not drawn yet"
    draws = seen["seen"]
    assert all(flag == "false" for _, flag in draws[:-1]), draws  # while a draw is under way
    assert draws[-2][0] == "<b>B</b>", draws  # the last one drawn is the latest figure
    assert seen["drawn"] == {"flag": "true", "title": "B"}, seen
    assert seen["resized"] == [["<b>B</b>", "false"], ["<b>B</b>", "false"]], "a new width: drawn anew, flagged"
    assert seen["width"] == "300", seen


# figure.js loads plotly.js for a first chart, given the plain and the packed file's URLs; which files the page asked
# for, and whether plotly.js runs
LOAD_FROM = """async ([plain, packed]) => {
  const { draw } = await import('/figure.js');
  const slot = document.createElement('div');
  document.getElementById('slot').appendChild(slot);
  const data = { figure: { data: [], layout: {} }, alt: '', config: {}, labels: {} };
  draw({ data, parentElement: slot }, plain, packed);
  for (let i = 0; i < 500 && !(window.Plotly && window.Plotly.react); i++) await new Promise((d) => setTimeout(d, 20));
  return Boolean(window.Plotly && window.Plotly.react);
}"""


@pytest.mark.parametrize("packed", ["/plotly.min.js.gz", "/missing.js.gz"], ids=["packed", "packed-missing"])
def test_plotly_js_comes_from_its_packed_file_and_from_the_plain_one_when_that_is_missing(browser, tmp_path, packed):
    """The server sends plotly.min.js.gz as it is, where compressing plotly.min.js again for each browser cost it
    about 180 ms of CPU (ui/served.py): figure.js unpacks it; without it, it takes the plain file."""
    gz = served.pack(served.PLOTLY_FILE, tmp_path)
    files = {**FILES, "/plotly.min.js.gz": (gz, "application/gzip")}
    asked: list[str] = []

    def serve_counted(route) -> None:
        path = route.request.url.removeprefix(ORIGIN)
        asked.append(path)
        file, kind = files.get(path, (None, ""))
        if path not in files:
            route.fulfill(status=404, body="")
        else:
            route.fulfill(status=200, content_type=kind, body=file.read_bytes() if file else PAGE)

    with routed_page(browser, ORIGIN, serve_counted) as page:
        assert page.evaluate(LOAD_FROM, ["/plotly.min.js", packed])
        errors = [e for e in page.console_errors if "missing.js.gz" not in e]  # the missing file's failure is expected
        assert errors == [], errors
    plotly_files = [path for path in asked if "plotly" in path or path.endswith(".gz")]
    assert plotly_files == ([packed] if packed == "/plotly.min.js.gz" else [packed, "/plotly.min.js"]), asked


def test_the_served_bundle_registers_the_trace_types_the_app_counts_on(browser):
    """ui/served.BUNDLE_TRACES (against which tests/ui/test_served.py checks every figure's trace types) is what
    the cartesian bundle itself registers."""
    with script_page(browser) as page:
        registered = page.evaluate("() => Object.keys(window.Plotly.PlotSchema.get().traces)")
        assert page.console_errors == []
    assert set(registered) == served.BUNDLE_TRACES
