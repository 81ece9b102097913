"""The app's figure component: each plotly chart is mounted once per slot and every new figure is applied to it
with `Plotly.react` (issue 29).

`st.plotly_chart` hashes the whole figure into its element id, also when a key is given, so a change of data
throws the chart away and plotly.js draws a new one from nothing, and a student's zoom is lost. This
`st.components.v2` component keeps one plotly.js chart per key (its id is the key's alone): a new figure is
applied in place, `uirevision` keeps the zoom and pan, and an unchanged figure is not drawn again (the browser
gets the same data). What st.plotly_chart gave the app is kept, in `ui/static/figure.js`: the app's light and
dark theme from the component's theme variables, the figure's width up to its column's, hover, the mode bar with
PNG and SVG downloads, fullscreen, the text description for screen readers (`aria-label`).

plotly.js is plotly's own cartesian bundle, of the version the installed `plotly` package ships (`ui/plotly_js/`),
and the component's code is `ui/static/figure.js`: both are served by Streamlit's component file route
(`ui/served.py`), so no CDN is asked, it works offline. Only a small loader goes in each element (Streamlit sends a
component's code with every element of every run).

One switch, `CHARTS` (the environment variable ATTENTION_CHARTS), returns every figure to `st.plotly_chart`:
ATTENTION_CHARTS=plotly_chart.
"""

from __future__ import annotations

import json
import os
from typing import Any

import plotly
import plotly.io
import streamlit as st
from plotly.graph_objects import Figure

from ui import served

CHARTS = os.environ.get("ATTENTION_CHARTS", "component")  # "plotly_chart": every figure drawn by st.plotly_chart
COMPONENT_NAME = "attention_figure"
KEY_PREFIX = "figure_"  # a chart's key is a widget's: "figure_<the figure's key>", apart from the app's own state

# plotly.js's plain file, and its packed one once the server has it (the element's data says so: `packed`)
_PLOTLY_SOURCES = (
    f'served("{served.PLOTLY_JS}"), (component.data || {{}}).packed ? served("{served.PLOTLY_JS_PACKED}") : null'
)
_LOADER = served.loader("figure.js", f"module.draw(component, {_PLOTLY_SOURCES})")
_PRELOADER = served.loader("figure.js", f"module.preload({_PLOTLY_SOURCES})")

# A figure's place, marked as one from the moment Streamlit mounts the element, as st.plotly_chart's node is: the
# chart's code arrives later (the loader, figure.js and plotly.js are fetched and run in the browser), and a page
# whose figures had no node until then would look finished, every figure drawn, while none was. figure.js takes
# the mark away when it takes the place over (and draws nothing where the place has no width).
PLACE_HTML = '<div data-testid="attentionFigure" data-attention-place></div>'

_figure = st.components.v2.component(COMPONENT_NAME, html=PLACE_HTML, js=_LOADER, isolate_styles=False)
_preload = st.components.v2.component(f"{COMPONENT_NAME}_preload", js=_PRELOADER, isolate_styles=False)


def component_on() -> bool:
    """Whether figures are drawn by this component (else by st.plotly_chart)."""
    return CHARTS != "plotly_chart"


def figure_spec(figure: Figure) -> dict:
    """The figure as plotly.js takes it, without plotly's template (the component applies the app's theme in the
    browser, as st.plotly_chart's frontend does): about half of a small figure's bytes."""
    spec = json.loads(plotly.io.to_json(figure, validate=False))
    spec.get("layout", {}).pop("template", None)
    return spec


def preload_ui() -> None:
    """Have the browser fetch and run plotly.js now, before any figure of this run is drawn (an element that
    draws nothing): on a page whose first figure waits for the server, e.g. for a model to load, the browser's
    share of that figure is done meanwhile. Nothing when figures are drawn by st.plotly_chart."""
    if not component_on():
        return
    served.serve_files()
    _preload(key=KEY_PREFIX + "plotly_preload", data={"packed": served.packed_ready()})


def figure_ui(spec: dict, *, config: dict, alt: str, labels: dict[str, str], key: str | None) -> None:
    """Draw the figure `spec` (see `figure_spec`) in the chart kept under `key` (without a key, a changed figure
    is a new chart, as with st.plotly_chart): as wide as the figure, narrower
    when its column is; `config` is plotly's (the mode bar), `alt` the text for screen readers, `labels` the mode
    bar's own buttons in the reader's language."""
    served.serve_files()
    width = spec.get("layout", {}).get("width")
    data: dict[str, Any] = {"figure": spec, "config": config, "alt": alt, "theme": "streamlit", "labels": labels}
    data["packed"] = served.packed_ready()
    fixed = isinstance(width, int | float) and width > 0  # as st.plotly_chart's width="content"
    _figure(data=data, key=None if key is None else KEY_PREFIX + key, width=int(width) if fixed else "stretch")
