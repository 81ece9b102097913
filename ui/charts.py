"""Plotly figures the pages share: one heatmap helper for every matrix, bars, and chart display."""

from __future__ import annotations

import functools
import html
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from ui.format import plain, signed
from ui.state import presentation_mode

# ColorBrewer RdBu (diverging, colour-blind safe) centred on 0; Blues (sequential, colour-blind safe).
SIGNED_SCALE = "RdBu"
WEIGHT_SCALE = "Blues"
PLOT_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def safe_labels(labels: Sequence[str]) -> list[str]:
    """Labels plotly shows as plain text (it reads a few HTML tags), made unique: "el", "el·2"."""
    seen: Counter[str] = Counter()
    out = []
    for label in labels:
        seen[label] += 1
        text = label if seen[label] == 1 else f"{label}·{seen[label]}"
        out.append(html.escape(text, quote=False))
    return out


def font_size() -> int:
    return 20 if presentation_mode() else 14


class Panel(NamedTuple):
    """One matrix of a heatmap figure: values, row and column labels, colouring, title."""

    values: np.ndarray
    rows: Sequence[str]
    cols: Sequence[str]
    kind: str = "signed"  # "signed": diverging around 0; "weights": 0 to 1
    title: str = ""


def _color(values: np.ndarray, kind: str) -> dict:
    if kind == "weights":
        return {"colorscale": WEIGHT_SCALE, "zmin": 0.0, "zmax": 1.0}
    finite = values[np.isfinite(values)]
    bound = float(np.max(np.abs(finite))) if finite.size else 1.0
    bound = bound or 1.0
    return {"colorscale": SIGNED_SCALE, "zmid": 0.0, "zmin": -bound, "zmax": bound}


def _heatmap_trace(panel: Panel, decimals: int, masked_text: str, size: int) -> go.Heatmap:
    """One matrix as a heatmap trace, its values written in the cells."""
    z = np.asarray(panel.values, dtype=np.float64)
    fmt = signed if panel.kind == "signed" else plain
    text = [[fmt(v, decimals) if np.isfinite(v) else masked_text for v in row] for row in z]
    return go.Heatmap(
        z=np.where(np.isfinite(z), z, np.nan),
        x=safe_labels(panel.cols),
        y=safe_labels(panel.rows),
        text=text,
        texttemplate="%{text}",
        textfont={"size": size},
        hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
        showscale=False,
        xgap=2,
        ygap=2,
        **_color(z, panel.kind),
    )


def built_once(build):
    """Build each distinct figure once and share it: plotly validates every property, so building one costs
    tens of milliseconds, while the same inputs (and presentation mode) always give the same figure.
    The figure is shared by every session: callers must never modify it (pass what they need as arguments)."""

    @st.cache_resource(max_entries=512, show_spinner=False)
    def cached(name: str, large: bool, *args, **kwargs) -> go.Figure:
        return build(*args, **kwargs)

    @functools.wraps(build)
    def wrapper(*args, **kwargs) -> go.Figure:
        return cached(build.__name__, presentation_mode(), *args, **kwargs)

    return wrapper


@built_once
def heatmaps(panels: Sequence[Panel], *, row_title: str = "", decimals: int = 3, masked_text: str = "−∞") -> go.Figure:
    """Matrices side by side in one figure (one figure redraws faster than several), values in the cells.

    Rows are query tokens (top to bottom), columns key tokens or dimensions; masked cells stay blank.
    """
    size = font_size()
    large = presentation_mode()
    fig = make_subplots(
        rows=1,
        cols=len(panels),
        subplot_titles=[html.escape(p.title, quote=False) for p in panels],
        horizontal_spacing=0.06,
    )
    for i, panel in enumerate(panels, start=1):
        fig.add_trace(_heatmap_trace(panel, decimals, masked_text, size), row=1, col=i)
        fig.update_yaxes(autorange="reversed", type="category", tickfont_size=size, row=1, col=i)
        fig.update_xaxes(side="top", type="category", tickfont_size=size, row=1, col=i)
    fig.update_yaxes(title_text=html.escape(row_title, quote=False), row=1, col=1)
    n_rows = max(np.asarray(p.values).shape[0] for p in panels)
    cell = 56 if large else 40
    fig.update_layout(
        height=max(230, min(950, 140 + cell * n_rows)),
        margin={"l": 10, "r": 10, "t": 80, "b": 10},
        font={"size": size},
    )
    fig.update_annotations(font_size=size + 2, yshift=30)
    return fig


def heatmap(
    values: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    kind: str = "signed",
    title: str = "",
    row_title: str = "",
    decimals: int = 3,
    masked_text: str = "−∞",
) -> go.Figure:
    """A single labelled heatmap with its values written in the cells."""
    return heatmaps(
        [Panel(values, rows, cols, kind, title)], row_title=row_title, decimals=decimals, masked_text=masked_text
    )


@built_once
def bars(
    groups: dict[str, Sequence[float]], labels: Sequence[str], *, title: str = "", y_title: str = "", y_range=None
):
    """Grouped bars: one trace per entry of `groups`, one bar per label, values written above."""
    size = font_size()
    fig = go.Figure()
    for name, values in groups.items():
        values = np.asarray(values, dtype=np.float64)
        fig.add_bar(
            name=html.escape(name, quote=False),
            x=safe_labels(labels),
            y=values,
            text=[f"{v:.3f}" for v in values],
            textposition="outside",
            textfont={"size": size},
        )
    fig.update_layout(
        barmode="group",
        title={"text": html.escape(title, quote=False), "font": {"size": size + 2}},
        height=480 if presentation_mode() else 360,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        font={"size": size},
        legend={"orientation": "h", "y": -0.15},
        yaxis={"title": html.escape(y_title, quote=False), "range": y_range},
    )
    fig.update_xaxes(type="category")
    return fig


def show(fig: go.Figure, key: str) -> None:
    """Draw a figure full width with a PNG download button in its toolbar."""
    st.plotly_chart(fig, key=key, config=PLOT_CONFIG, width="stretch")


@built_once
def lines(
    x: Sequence[float],
    series: dict[str, Sequence[float]],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    dashed: Sequence[str] = (),
    faint: np.ndarray | None = None,
    log_axes: bool = False,
    markers: bool = False,
    highlight: tuple[float, float] | None = None,
) -> go.Figure:
    """Line plot of named series over x; `dashed` names the reference lines, `faint` (m, len(x)) adds thin grey
    background paths without a legend (e.g. individual random walks); `log_axes` makes both axes logarithmic;
    `highlight` (x0, x1) shades that stretch of x."""
    size = font_size()
    fig = go.Figure()
    for path in [] if faint is None else np.asarray(faint, dtype=np.float64):
        fig.add_scatter(
            x=x,
            y=path,
            mode="lines",
            line={"width": 1, "color": "rgba(100, 100, 100, 0.25)"},
            showlegend=False,
            hoverinfo="skip",
        )
    for name, values in series.items():
        fig.add_scatter(
            name=html.escape(name, quote=False),
            x=x,
            y=np.asarray(values, dtype=np.float64),
            mode="lines+markers" if markers else "lines",
            line={"width": 3, "dash": "dash" if name in dashed else "solid"},
        )
    fig.update_layout(
        title={"text": html.escape(title, quote=False), "font": {"size": size + 2}},
        height=480 if presentation_mode() else 380,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        font={"size": size},
        legend={"orientation": "h", "y": -0.2},
    )
    fig.update_xaxes(title_text=html.escape(x_title, quote=False), type="log" if log_axes else "linear")
    fig.update_yaxes(title_text=html.escape(y_title, quote=False), type="log" if log_axes else "linear")
    if log_axes:
        fig.update_xaxes(tickvals=list(x), ticktext=[f"{v:g}" for v in x])
        ticks = _log_ticks([np.asarray(values, dtype=np.float64) for values in series.values()])
        fig.update_yaxes(tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    if highlight is not None:
        fig.add_vrect(x0=highlight[0], x1=highlight[1], fillcolor="gold", opacity=0.15, line_width=0)
    return fig


def _log_ticks(series: Sequence[np.ndarray]) -> list[float]:
    """1, 2, 5, 10, 20, 50, ... within the range of the (positive) values: a few round labels on a log axis."""
    values = np.concatenate([v[np.isfinite(v) & (v > 0)] for v in series])
    if values.size == 0:
        return []
    low, high = int(np.floor(np.log10(values.min()))), int(np.ceil(np.log10(values.max())))
    candidates = [m * 10.0**e for e in range(low, high + 1) for m in (1, 2, 5)]
    return [c for c in candidates if values.min() / 1.5 <= c <= values.max() * 1.5]


@built_once
def arrows(
    start: np.ndarray,
    end: np.ndarray,
    labels: Sequence[str],
    *,
    start_name: str,
    end_name: str,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
) -> go.Figure:
    """Points `start` (n, 2) labelled with `labels`, points `end` (n, 2), and an arrow from each start to its end,
    on equal axes so lengths and angles read true."""
    start, end = np.asarray(start, dtype=np.float64), np.asarray(end, dtype=np.float64)
    names = safe_labels(labels)
    size = font_size()
    fig = go.Figure()
    fig.add_scatter(
        name=html.escape(start_name, quote=False),
        x=start[:, 0],
        y=start[:, 1],
        mode="markers+text",
        text=names,
        textposition="top center",
        marker={"size": 10, "symbol": "circle"},
        hovertemplate="%{text}<extra></extra>",
    )
    fig.add_scatter(
        name=html.escape(end_name, quote=False),
        x=end[:, 0],
        y=end[:, 1],
        mode="markers",
        text=names,
        marker={"size": 10, "symbol": "diamond"},
        hovertemplate="%{text}<extra></extra>",
    )
    for (x0, y0), (x1, y1) in zip(start, end, strict=True):
        fig.add_annotation(
            x=x1,
            y=y1,
            ax=x0,
            ay=y0,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            text="",
            showarrow=True,
            arrowhead=3,
            arrowsize=1.2,
            arrowwidth=1.5,
            arrowcolor="rgba(80, 80, 80, 0.8)",
        )
    fig.update_layout(
        title={"text": html.escape(title, quote=False), "font": {"size": size + 2}},
        height=620 if presentation_mode() else 480,
        margin={"l": 10, "r": 10, "t": 60, "b": 10},
        font={"size": size},
        legend={"orientation": "h", "y": -0.15},
    )
    fig.update_xaxes(title_text=html.escape(x_title, quote=False))
    fig.update_yaxes(title_text=html.escape(y_title, quote=False), scaleanchor="x", scaleratio=1)
    return fig
