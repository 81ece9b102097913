"""One matrix as a heatmap at a fixed size, with its values written on the cells (in black or white, whichever
reads best), masked cells in a grey of their own, and the layers and layout the small multiples share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from ui import numbers
from ui.figure_specs.common import (
    MASKED,
    MASKED_FILL,
    MASKED_RGB,
    MAX_LABELLED,
    MAX_WRITTEN_COLUMNS,
    MIN_CELL,
    SIGNED_SCALE,
    WEIGHTS_SCALE,
    Style,
    column_labels_height,
    label_room,
    plain_text,
    scale_colors,
    short_label,
    text_color,
    title_layout,
    upright_columns,
)


@dataclass(frozen=True)
class Heatmap:
    """One matrix to draw. `rows`/`cols` name its rows and columns; `hover` has one line per cell (optional)."""

    values: np.ndarray  # (r, c)
    rows: Sequence[str]
    cols: Sequence[str]
    title: str = ""
    kind: str = "signed"  # "signed" (diverging about 0) or "weights" (0 to 1)
    row_title: str = ""
    col_title: str = ""
    zrange: tuple[float, float] | None = None  # shared with the panels it is compared with
    masked: np.ndarray | None = None  # (r, c) bool, True where a cell is masked out
    hover: Sequence[Sequence[str]] | None = None  # (r, c) extra hover line per cell
    decimals: int = 3
    show_scale: bool = True
    extra: dict = field(default_factory=dict)


def signed_range(*matrices: np.ndarray) -> tuple[float, float]:
    """One range, symmetric about 0, that holds every finite value of the matrices: panels compared share it."""
    largest = max((float(np.max(np.abs(m[np.isfinite(m)]))) for m in matrices if np.isfinite(m).any()), default=0)
    largest = largest or 1.0
    return (-largest, largest)


def cell_text(value: float, kind: str, decimals: int, lang: str) -> str:
    """A value as the figure writes it on its cell: `decimals` decimals, signed on a signed scale, ✕ where missing."""
    if not np.isfinite(value):
        return MASKED
    return numbers.fixed(value, decimals, sign=kind == "signed", lang=lang)


def _positions(names: Sequence[str], count: int) -> list:
    """Where the cells of an axis sit: 0, 1, 2, ... while every name is written; beyond MAX_LABELLED, the
    (shortened) names themselves, as categories plotly thins out to what fits and writes in full on zoom (a
    repeated name gets invisible zero-width spaces, so that two tokens "el" stay two rows)."""
    if count <= MAX_LABELLED:
        return list(range(count))
    seen: dict[str, int] = {}
    positions = []
    for name in names:
        label = short_label(name)
        positions.append(label + "\u200b" * seen.get(label, 0))
        seen[label] = seen.get(label, 0) + 1
    return positions


def _labels(names: Sequence[str], count: int, cell: int, style: Style) -> dict:
    """An axis's tick labels: every name while they fit, else as many as fit at the figure's font size."""
    if count <= MAX_LABELLED:
        return {"tickmode": "array", "tickvals": list(range(count)), "ticktext": [short_label(n) for n in names]}
    return {"type": "category", "tickmode": "auto", "nticks": max(2, int(count * cell / (style.font * 1.5)))}


def heatmap_figure(spec: Heatmap, style: Style, lang: str, *, alt_name: str = "") -> go.Figure:
    """A heatmap at a fixed size: values in the cells where they fit, full labels and the value on hover."""
    values = np.asarray(spec.values, dtype=np.float64)
    r, c = values.shape
    masked = np.zeros(values.shape, dtype=bool) if spec.masked is None else np.asarray(spec.masked, dtype=bool)
    masked = masked | ~np.isfinite(values)
    cell = max(MIN_CELL, min(style.cell, (style.max_width - 120) // max(c, 1)))
    write_values = c <= MAX_WRITTEN_COLUMNS and cell >= style.cell_font * 2.6
    zrange = spec.zrange or ((0.0, 1.0) if spec.kind == "weights" else signed_range(values))
    widest_row_label = max((len(short_label(name)) for name in spec.rows), default=1)
    widest_col_label = max((len(short_label(name)) for name in spec.cols), default=1)
    upright = upright_columns(widest_col_label, cell, style.font)
    margin = {
        "l": label_room(widest_row_label, style.font) + (int(style.font * 1.7) if spec.row_title else 0),
        "r": 8,
        "t": int(style.title * 2.3)
        + column_labels_height(widest_col_label, cell, style.font)
        + (int(style.font * 1.5) if spec.col_title else 0),
        "b": int(style.font * 3.2),  # the colour bar, under the cells (reserved even when not drawn: rows align)
    }
    width = margin["l"] + margin["r"] + cell * c
    height = margin["t"] + margin["b"] + cell * r
    z = np.where(masked, np.nan, values)
    x_positions = _positions(spec.cols, c)
    y_positions = _positions(spec.rows, r)
    row_names = [plain_text(name) for name in spec.rows]
    col_names = [plain_text(name) for name in spec.cols]
    hover = []
    for i in range(r):
        line = []
        for j in range(c):
            value = cell_text(values[i, j], spec.kind, spec.decimals + 1, lang)
            extra = spec.hover[i][j] if spec.hover is not None else ""
            line.append(f"{row_names[i]} → {col_names[j]}: {value}" + (f"<br>{plain_text(extra)}" if extra else ""))
        hover.append(line)
    trace = {
        "type": "heatmap",
        "z": z.tolist(),
        "x": x_positions,
        "y": y_positions,
        "zmin": zrange[0],
        "zmax": zrange[1],
        "colorscale": WEIGHTS_SCALE if spec.kind == "weights" else SIGNED_SCALE,
        "showscale": spec.show_scale,
        "xgap": 1,
        "ygap": 1,
        "customdata": hover,
        "hovertemplate": "%{customdata}<extra></extra>",
        "colorbar": {
            "orientation": "h",
            "thickness": 10,
            "len": 1.0,
            "x": 0.5,
            "xanchor": "center",
            "y": -0.04,
            "yanchor": "top",
            "ypad": 0,
            "outlinewidth": 0,
            "tickfont": {"size": style.font},
            "tickformat": ".1f" if spec.kind == "weights" else ".2~f",
        },
    }
    data = [trace]
    if masked.any():
        data.append(masked_layer(masked, x_positions, y_positions, hover))
    if write_values:
        layer = value_layer(values, masked, spec.kind, spec.decimals, zrange, x_positions, y_positions, style, lang)
        data.append(layer)
    axis = grid_axis(style, fixed=max(r, c) <= MAX_LABELLED)  # a large map zooms
    layout = {
        **grid_layout(style, lang, spec.title, width, height, margin),
        "xaxis": {
            **axis,
            **_labels(spec.cols, c, cell, style),
            "range": [-0.5, c - 0.5],
            "side": "top",
            "title": {"text": plain_text(spec.col_title), "standoff": 4, "font": {"size": style.font}},
            "tickangle": 0 if upright else -90,
        },
        "yaxis": {
            **axis,
            **_labels(spec.rows, r, cell, style),
            "range": [r - 0.5, -0.5],
            "title": {"text": plain_text(spec.row_title), "standoff": 4, "font": {"size": style.font}},
        },
        "dragmode": "zoom" if max(r, c) > MAX_LABELLED else False,
        "uirevision": "fixed",
        "hoverlabel": {"font": {"size": style.font}},
    }
    return go.Figure({"data": data, "layout": layout}, skip_invalid=False, _validate=False)


def masked_layer(
    masked: np.ndarray,
    x_positions: Sequence[float],
    y_positions: Sequence[float],
    hover: Sequence[Sequence[str]] | None,
    axes: dict[str, str] | None = None,
) -> dict[str, object]:
    """Masked cells drawn in a grey of their own, so that their ✕ reads the same on a light or a dark page."""
    return {
        "type": "heatmap",
        "z": np.where(masked, 0.0, np.nan).tolist(),
        "x": list(x_positions),
        "y": list(y_positions),
        "zmin": 0,
        "zmax": 1,
        "colorscale": [[0, MASKED_FILL], [1, MASKED_FILL]],
        "showscale": False,
        "xgap": 1,
        "ygap": 1,
        "customdata": hover,
        "hovertemplate": "%{customdata}<extra></extra>",
        **(axes or {}),
    }


def value_layer(
    values: np.ndarray,
    masked: np.ndarray,
    kind: str,
    decimals: int,
    zrange: tuple[float, float],
    x_positions: Sequence,
    y_positions: Sequence,
    style: Style,
    lang: str,
    axes: dict | None = None,
) -> dict:
    """The values written on a heatmap's cells, as a text layer: each in black or white, whichever reads best on
    its cell (plotly's own choice, dark grey or white, falls to 2.9 : 1 on the scales' middle blues)."""
    span = (zrange[1] - zrange[0]) or 1.0
    fills = scale_colors("weights" if kind == "weights" else "signed", (values - zrange[0]) / span)  # (r, c, 3)
    xs, ys, texts, colors = [], [], [], []
    for i, y in enumerate(y_positions):
        for j, x in enumerate(x_positions):
            xs.append(x)
            ys.append(y)
            texts.append(cell_text(values[i, j], kind, decimals, lang))
            colors.append(text_color(MASKED_RGB if masked[i, j] else fills[i, j]))
    return {
        "type": "scatter",
        "mode": "text",
        "x": xs,
        "y": ys,
        "text": texts,
        "textfont": {"size": style.cell_font, "color": colors},
        "hoverinfo": "skip",
        "showlegend": False,
        "cliponaxis": False,
        **(axes or {}),
    }


def grid_axis(style: Style, *, fixed: bool) -> dict:
    """What a heatmap's axes share: no grid or ticks, the labels at the figure's size (set here: Streamlit's
    theme would write them smaller), zoom only where `fixed` is False."""
    return {
        "showgrid": False,
        "zeroline": False,
        "automargin": False,
        "ticks": "",
        "fixedrange": fixed,
        "tickfont": {"size": style.font},
    }


def grid_layout(style: Style, lang: str, title: str, width: int, height: int, margin: dict) -> dict:
    """What a heatmap's layout shares: its exact size, numbers in the reader's language, the title top left."""
    return {
        "width": width,
        "height": height,
        "autosize": False,
        "margin": margin,
        "font": {"size": style.font},
        "separators": numbers.plotly_separators(lang),
        "title": title_layout(plain_text(title), style),
    }
