"""Several matrices of one shape in one figure on one colour scale (`grid_figure`), and every head of a model at
once (`small_multiples_figure`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui import numbers
from ui.figure_specs.common import (
    MAX_WRITTEN_COLUMNS,
    SIGNED_SCALE,
    WEIGHTS_SCALE,
    Style,
    column_labels_height,
    label_room,
    plain_text,
    short_label,
    text_width,
    upright_columns,
)
from ui.figure_specs.heatmaps import Heatmap, cell_text, grid_axis, grid_layout, masked_layer, signed_range, value_layer


def grid_columns(count: int, most: int) -> int:
    """Panels per row: at most `most`, spread evenly over the rows (6 panels at most 4 a row: 3 and 3)."""
    rows = -(-count // max(most, 1))
    return -(-count // max(rows, 1))


def grid_figure(panels: Sequence[Heatmap], style: Style, lang: str, *, per_row: int) -> go.Figure:
    """Heatmaps of one shape side by side (`per_row` a row), each with its title, sharing one colour axis.

    Small multiples: the panels' row names are written once per row of panels, their column names on every
    panel, one colour bar under them all; the first panel's `kind`, `zrange` and `row_title`/`col_title` apply to
    all (weights: 0 to 1; signed: one range symmetric about 0 that holds every panel's values).
    """
    first = panels[0]
    r, c = np.asarray(first.values).shape
    columns = max(1, min(per_row, len(panels)))
    grid_rows = -(-len(panels) // columns)
    gap = int(style.font * 1.2)  # between panels, down (and across, unless a title needs more room)
    widest = max((len(short_label(name)) for name in first.rows), default=1)
    left = label_room(widest, style.font) + (int(style.font * 1.7) if first.row_title else 0)
    title_width = int(max(len(str(panel.title)) for panel in panels) * style.font * 0.5)

    def cell_for(across: int) -> int:
        return max(12, min(style.cell, (style.max_width - left - 8 - across * (columns - 1)) // max(columns * c, 1)))

    gap_across = gap
    cell = cell_for(gap_across)
    for _ in range(2):  # panels narrower than their titles sit further apart, so that every title shows whole
        gap_across = max(gap, title_width - cell * c + gap // 2)
        cell = cell_for(gap_across)
    longest_col = max((len(short_label(name)) for name in first.cols), default=1)
    upright = upright_columns(longest_col, cell, style.font)
    labels_height = column_labels_height(longest_col, cell, style.font)
    title_height = int(style.font * 1.8)
    panel_width, panel_height = cell * c, title_height + labels_height + cell * r
    margin = {"l": left, "r": max(8, title_width - panel_width), "t": 4, "b": int(style.font * 3.2)}
    plot_width = columns * panel_width + (columns - 1) * gap_across
    plot_height = grid_rows * panel_height + (grid_rows - 1) * gap
    widest_value = first.decimals + (3 if first.kind == "signed" else 2)  # "+1,234" / "0,25": characters a cell holds
    write_values = c <= MAX_WRITTEN_COLUMNS and cell >= text_width(widest_value, style.cell_font)
    if first.kind == "weights":
        zrange = first.zrange or (0.0, 1.0)
    else:
        zrange = first.zrange or signed_range(*(np.asarray(p.values, dtype=np.float64) for p in panels))
    row_names = [plain_text(name) for name in first.rows]
    col_names = [plain_text(name) for name in first.cols]
    axis = grid_axis(style, fixed=True)  # on every panel's axes
    data, annotations = [], []
    layout: dict = {
        "width": margin["l"] + margin["r"] + plot_width,
        "height": margin["t"] + margin["b"] + plot_height,
        "autosize": False,
        "margin": margin,
        "font": {"size": style.font},
        "separators": numbers.plotly_separators(lang),
        "dragmode": False,
        "uirevision": "fixed",
        "hoverlabel": {"font": {"size": style.font}},
        "coloraxis": {
            "cmin": zrange[0],
            "cmax": zrange[1],
            "colorscale": WEIGHTS_SCALE if first.kind == "weights" else SIGNED_SCALE,
            "colorbar": {
                "orientation": "h",
                "thickness": 10,
                "lenmode": "pixels",
                "len": min(plot_width, 360),
                "x": 0,
                "xanchor": "left",
                "y": -8 / plot_height,
                "yanchor": "top",
                "ypad": 0,
                "outlinewidth": 0,
                "tickfont": {"size": style.font},
                "tickformat": ".1f" if first.kind == "weights" else ".2~f",
            },
        },
    }
    for k, panel in enumerate(panels):
        values = np.asarray(panel.values, dtype=np.float64)
        masked = np.zeros(values.shape, dtype=bool) if panel.masked is None else np.asarray(panel.masked, dtype=bool)
        masked = masked | ~np.isfinite(values)
        title = plain_text(panel.title)
        room = max(
            4, int((panel_width + gap_across - gap // 2) / (style.font * 0.5))
        )  # the title's characters that fit
        hover = [
            [
                f"{title} · {row_names[i]} → {col_names[j]}: "
                + cell_text(values[i, j], panel.kind, panel.decimals + 1, lang)
                + (f"<br>{plain_text(panel.hover[i][j])}" if panel.hover is not None and panel.hover[i][j] else "")
                for j in range(c)
            ]
            for i in range(r)
        ]
        across, down = k % columns, k // columns
        x0 = across * (panel_width + gap_across) / plot_width
        cells_top = down * (panel_height + gap) + title_height + labels_height  # pixels below the plot's top
        suffix = "" if k == 0 else str(k + 1)
        trace = {
            "type": "heatmap",
            "z": np.where(masked, np.nan, values).tolist(),
            "x": list(range(c)),
            "y": list(range(r)),
            "coloraxis": "coloraxis",
            "xgap": 1,
            "ygap": 1,
            "customdata": hover,
            "hovertemplate": "%{customdata}<extra></extra>",
            "xaxis": f"x{suffix}",
            "yaxis": f"y{suffix}",
        }
        data.append(trace)
        axes = {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
        if masked.any():
            data.append(masked_layer(masked, range(c), range(r), hover, axes))
        if write_values:
            data.append(
                value_layer(
                    values,
                    masked,
                    panel.kind,
                    panel.decimals,
                    zrange,
                    range(c),
                    range(r),
                    style,
                    lang,
                    axes=axes,
                )
            )
        layout[f"xaxis{suffix}"] = {
            **axis,
            "domain": [x0, x0 + panel_width / plot_width],
            "anchor": f"y{suffix}",
            "range": [-0.5, c - 0.5],
            "tickmode": "array",
            "tickvals": list(range(c)),
            "ticktext": [short_label(name) for name in first.cols],
            "side": "top",
            "tickangle": 0 if upright else -90,
        }
        layout[f"yaxis{suffix}"] = {
            **axis,
            "domain": [1 - (cells_top + cell * r) / plot_height, 1 - cells_top / plot_height],
            "anchor": f"x{suffix}",
            "range": [r - 0.5, -0.5],
            "tickmode": "array",
            "tickvals": list(range(r)),
            "ticktext": [short_label(name) for name in first.rows] if across == 0 else [""] * r,
        }
        if across == 0 and first.row_title and down == 0:
            layout[f"yaxis{suffix}"]["title"] = {
                "text": plain_text(first.row_title),
                "standoff": 4,
                "font": {"size": style.font},
            }
        annotations.append(
            {
                "text": short_label(panel.title, room),
                "xref": "paper",
                "yref": "paper",
                "x": x0,
                "y": 1 - down * (panel_height + gap) / plot_height,
                "xanchor": "left",
                "yanchor": "top",
                "showarrow": False,
                "font": {"size": style.font},
            }
        )
    layout["annotations"] = annotations
    return go.Figure({"data": data, "layout": layout}, skip_invalid=False, _validate=False)


SELECTED_FRAME = "#ff7f0e"  # orange: stands out against the blues of the weights in both themes


def mosaic(attentions: np.ndarray, gap: int) -> np.ndarray:
    """The (layers, heads, n, n) weights laid out as one matrix: layer l, head h in the panel at row l, column h,
    panels `gap` blank (NaN) cells apart."""
    layers, heads, n, _ = attentions.shape
    step = n + gap
    padded = np.full((layers, heads, step, step), np.nan)  # (L, H, n + gap, n + gap)
    padded[:, :, :n, :n] = attentions
    tiled = padded.transpose(0, 2, 1, 3).reshape(layers * step, heads * step)  # (L·step, H·step)
    return tiled[: layers * step - gap, : heads * step - gap]


def small_multiples_figure(
    attentions: np.ndarray,
    style: Style,
    lang: str,
    *,
    title: str = "",
    row_title: str = "",
    col_title: str = "",
    selected: tuple[int, int] | None = None,
) -> go.Figure:
    """Every head's weights (layers, heads, n, n) as tiny heatmaps on one 0–1 scale: layers down, heads across,
    numbered from 1, a frame around the `selected` (layer, head).

    One heatmap trace with blank gaps rather than layers × heads subplots: 144 subplots cost plotly 144 pairs of
    axes to lay out, one mosaic costs one; hover gives the weight only (a head is picked with widgets)."""
    weights = np.asarray(attentions, dtype=np.float64)
    layers, heads, n, _ = weights.shape
    gap = max(1, round(n / 5))
    step = n + gap
    tiled = mosaic(weights, gap)  # (rows, cols)
    rows, cols = tiled.shape
    margin = {
        "l": int(style.font * 2.2) + (int(style.font * 1.6) if row_title else 0),
        "r": 8,
        "t": int(style.title * 2.3) + int(style.font * 1.5) + (int(style.font * 1.5) if col_title else 0),
        "b": int(style.font * 3.2),
    }
    panel = min(style.cell * 1.6, (style.max_width - margin["l"] - margin["r"]) / (heads + (heads - 1) * gap / n))
    cell = panel / n
    width = margin["l"] + margin["r"] + round(cell * (cols + 2))
    height = margin["t"] + margin["b"] + round(cell * (rows + 2))
    centres = [k * step + (n - 1) / 2 for k in range(max(layers, heads))]
    trace = {
        "type": "heatmap",
        "z": tiled.astype(np.float32),  # an array: plotly sends it as binary, 4 bytes a cell (NaN: a gap)
        "zmin": 0.0,
        "zmax": 1.0,
        "colorscale": WEIGHTS_SCALE,
        "hoverongaps": False,
        "hovertemplate": "%{z:.3f}<extra></extra>",
        "colorbar": {
            "orientation": "h",
            "thickness": 10,
            "len": 1.0,
            "x": 0.5,
            "xanchor": "center",
            "y": -0.02,
            "yanchor": "top",
            "ypad": 0,
            "outlinewidth": 0,
            "tickfont": {"size": style.font},
            "tickformat": ".1f",
        },
    }
    axis = grid_axis(style, fixed=True)
    layout = {
        **grid_layout(style, lang, title, width, height, margin),
        "xaxis": {
            **axis,
            "range": [-1.5, cols + 0.5],  # a cell more on each side: room for the frame around an edge panel
            "tickmode": "array",
            "tickvals": centres[:heads],
            "ticktext": [numbers.count(h + 1, lang=lang) for h in range(heads)],
            "side": "top",
            "title": {"text": plain_text(col_title), "standoff": 4, "font": {"size": style.font}},
        },
        "yaxis": {
            **axis,
            "range": [rows + 0.5, -1.5],
            "tickmode": "array",
            "tickvals": centres[:layers],
            "ticktext": [numbers.count(layer + 1, lang=lang) for layer in range(layers)],
            "title": {"text": plain_text(row_title), "standoff": 4, "font": {"size": style.font}},
        },
        "dragmode": False,
        "uirevision": "fixed",
        "hoverlabel": {"font": {"size": style.font}},
    }
    if selected is not None:
        layer, head = selected
        pad = min(gap, 2) / 2
        layout["shapes"] = [
            {
                "type": "rect",
                "xref": "x",
                "yref": "y",
                "x0": head * step - 0.5 - pad,
                "x1": head * step + n - 0.5 + pad,
                "y0": layer * step - 0.5 - pad,
                "y1": layer * step + n - 0.5 + pad,
                "line": {"color": SELECTED_FRAME, "width": 3},
                "fillcolor": "rgba(0,0,0,0)",
            }
        ]
    return go.Figure({"data": [trace], "layout": layout}, skip_invalid=False, _validate=False)
