"""ui/static/figure.js on its own in Chromium, without Streamlit.

- A chart taken away while plotly.js is still drawing it leaves no error behind. CI's learning page (a fragment
  redrawing its figures several times a second) logged "e.emit is not a function": the cleanup purged the graph
  while Plotly.react was between its steps, and plotly's next step called the purged graph's event emitter.
- As st.plotly_chart, nothing is drawn where it cannot be seen (a place of no width: a tab not open, a folded
  expander), and the chart is drawn, once, with its latest figure when its place gets a width."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.shared import watched_page
from ui import figure_component

pytestmark = pytest.mark.e2e
ORIGIN = "http://figure.test"
STATIC = Path(figure_component.__file__).resolve().parent / "static"
FILES = {
    "/figure.js": (STATIC / "figure.js", "text/javascript"),
    "/plotly.min.js": (figure_component.PLOTLY_DIR / "plotly.min.js", "text/javascript"),
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


def serve(route) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path not in FILES:
        route.fulfill(status=404, body="")
        return
    file, kind = FILES[path]
    route.fulfill(status=200, content_type=kind, body=file.read_bytes() if file else PAGE)


def test_a_chart_taken_away_while_it_is_drawn_leaves_no_error(browser):
    context = browser.new_context()
    try:
        context.route(f"{ORIGIN}/**", serve)
        page = watched_page(context)
        page.goto(f"{ORIGIN}/")
        # plotly.js loaded once, so that each drop below lands inside Plotly.react and not in the script's loading
        page.evaluate("""async () => { const { draw } = await import('/figure.js');
          const slot = document.createElement('div'); document.body.appendChild(slot);
          draw({ data: { figure: { data: [], layout: {} } }, parentElement: slot }, '/plotly.min.js');
          while (!(window.Plotly && window.Plotly.react)) await new Promise((done) => setTimeout(done, 20)); }""")
        removed = [page.evaluate(DRAW_AND_DROP, ticks) for ticks in range(0, 40)]
        assert all(removed), removed
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()


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
    context = browser.new_context()
    try:
        context.route(f"{ORIGIN}/**", serve)
        page = watched_page(context)
        page.goto(f"{ORIGIN}/")
        page.evaluate("""async () => { await import('/figure.js');
          const script = document.createElement('script');
          script.src = '/plotly.min.js';
          document.head.appendChild(script);
          while (!(window.Plotly && window.Plotly.react)) await new Promise((done) => setTimeout(done, 20)); }""")
        seen = page.evaluate(HIDDEN_THEN_SHOWN)
        assert seen["hidden"] == {"node": False, "draws": 0}, "nothing drawn, no node, where there is no width"
        assert seen["shown"] == {"draws": ["<b>B</b>"], "title": "B"}, "drawn once when shown, with the latest figure"
        assert seen["hiddenAgain"] == {"draws": 1, "title": "B"}, "a figure that comes while hidden waits"
        assert seen["last"] == {"draws": ["<b>B</b>", "<b>C</b>"], "title": "C"}, "and is drawn when shown again"
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()
