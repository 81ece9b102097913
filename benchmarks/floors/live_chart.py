"""Measurement only, not used by the app: a Streamlit component that keeps one plotly.js chart mounted and
updates it in place (`Plotly.react`), where `st.plotly_chart` draws a changed figure from nothing.

plotly.js is the plotly package's own file, served by Streamlit's static file serving: the floor apps that use
this copy it to `benchmarks/floors/static/` (git-ignored) and need `STREAMLIT_SERVER_ENABLE_STATIC_SERVING=true` (see
benchmarks/README.md)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import plotly
import plotly.graph_objects as go
import streamlit as st

STATIC = Path(__file__).resolve().parent / "static"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

_JS = """
export default function (component) {
  const { data, parentElement } = component;
  let div = parentElement.querySelector('.live-chart');
  if (!div) { div = document.createElement('div'); div.className = 'live-chart'; parentElement.appendChild(div); }
  const draw = () => window.Plotly.react(div, data.figure.data, data.figure.layout, {displaylogo: false});
  if (window.Plotly) { draw(); return; }
  if (!window.__plotlyLoading) {
    window.__plotlyLoading = new Promise(resolve => {
      const script = document.createElement('script');
      script.src = './app/static/plotly.min.js';
      script.onload = resolve;
      document.head.appendChild(script);
    });
  }
  window.__plotlyLoading.then(draw);
}
"""


@st.cache_resource
def _component() -> Callable[..., object]:
    STATIC.mkdir(exist_ok=True)
    if not (STATIC / PLOTLY_JS.name).exists():
        shutil.copyfile(PLOTLY_JS, STATIC / PLOTLY_JS.name)
    return st.components.v2.component("live_chart", js=_JS, isolate_styles=False)


def live_chart(figure: go.Figure, key: str) -> None:
    """`figure` (a plotly Figure) in a chart that stays mounted across reruns (its `key` keeps it)."""
    _component()(data={"figure": json.loads(figure.to_json())}, key=key)
