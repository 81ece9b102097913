"""Bars, lines and arrows: titles on as many lines as the narrowest column needs, legends under them, values over
the bars that fit or one panel per group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ui import numbers
from ui.figure_specs.common import GLYPH_WIDTH, SERIES_COLORS, Style, Values, plain_text, short_label, title_layout

BAR_GAP = 0.2  # plotly's gap between groups of bars, as a share of a group's slot
PANEL_BAR_GAP = 0.1  # between bars when each group has a panel of its own
BAR_TEXT_PAD = 6  # px: a value over a bar keeps this much room to the next one
DIGIT_WIDTH, POINT_WIDTH = 0.55, 0.3  # a digit's and a decimal separator's width, as a share of the font size


def number_width(text: str, font: float) -> float:
    """Pixels a number written as `text` takes at `font` px (digits and separators are narrower than letters:
    the app's font draws «0,00» at 20 px 35 px wide; this says 39)."""
    return font * sum(DIGIT_WIDTH if c.isdigit() else POINT_WIDTH if c in ".," else GLYPH_WIDTH for c in text)


def bar_values_fit(texts: Sequence[str], bar: float, font: float) -> bool:
    """Whether values written upright at `font` px fit over bars `bar` px wide. plotly shrinks a value that does
    not fit its bar (to 15 px of presentation mode's 20), so a figure whose values do not fit is drawn another way
    (`bars_figure`: one panel per group)."""
    return max((number_width(text, font) for text in texts), default=0.0) + BAR_TEXT_PAD <= bar


NARROWEST = 340  # px: the narrowest a figure can be drawn (a phone's column); titles and legends are laid out for it


def _title_lines(title: str, style: Style) -> list[str]:
    """The title cut at its spaces into lines that fit NARROWEST px at the title's size (plotly does not wrap)."""
    room = max(12, int(NARROWEST // (0.55 * style.title)))
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def base_layout(
    style: Style, lang: str, title: str, width: int, plot_height: int, legend: Sequence[str] = ()
) -> tuple[dict[str, Any], int]:
    """What bars, lines and arrows share: the title (on as many lines as it needs), the legend's entries under it
    (in one row if they fit the narrowest figure, else one per line) and a top margin that holds both, so that
    neither overlaps the other nor the plot however narrow the column. Returns the layout and its top margin."""
    lines = _title_lines(title, style)
    one_row = sum(len(name) * 0.55 * style.font + 44 for name in legend) <= NARROWEST
    legend_rows = 0 if not legend else 1 if one_row else len(legend)
    top = int(
        len(lines) * style.title * 1.35 + legend_rows * style.font * 1.6 + 14 + (style.title if len(lines) > 1 else 0)
    )
    layout = {
        "width": width,
        "height": plot_height + top,
        "autosize": False,
        "font": {"size": style.font},
        "separators": numbers.plotly_separators(lang),
        "title": title_layout(
            "<br>".join(plain_text(line) for line in lines),  # the breaks are ours; the text is escaped
            style,
            # plotly puts a title of several lines with its first baseline at the top: one line lower, it shows
            4 + (int(style.title * 0.9) if len(lines) > 1 else 0),
        ),
        "legend": {
            "orientation": "h" if one_row else "v",
            "x": 0,
            "xanchor": "left",
            "y": 1.0,
            "yanchor": "bottom",
            "font": {"size": style.font},
        },
        "uirevision": "fixed",
        "hoverlabel": {"font": {"size": style.font}},
        "dragmode": False,
    }
    return layout, top


def _axis(title: str, style: Style, **extra: object) -> dict[str, object]:
    font = {"size": style.font}
    return {
        "title": {"text": plain_text(title), "font": font},
        "tickfont": font,
        "automargin": False,
        "zeroline": False,
        **extra,
    }


def _log_ticks(values: Sequence[float]) -> list[float]:
    """1, 2 and 5 times the powers of ten that lie within the positive finite values' span."""
    positive = [v for v in values if np.isfinite(v) and v > 0]
    if not positive:
        return []
    low, high = min(positive), max(positive)
    ticks = []
    for power in range(int(np.floor(np.log10(low))), int(np.ceil(np.log10(high))) + 1):
        ticks += [m * 10.0**power for m in (1, 2, 5) if low / 1.05 <= m * 10.0**power <= high * 1.05]
    return ticks


def bars_figure(
    groups: Mapping[str, Values],
    labels: Sequence[str],
    style: Style,
    lang: str,
    *,
    title: str = "",
    y_title: str = "",
    y_range: tuple[float, float] | None = None,
    decimals: int = 3,
    width: int = 720,
    texts: dict[str, Sequence[str]] | None = None,
) -> go.Figure:
    """Grouped bars: one colour per entry of `groups`, one group per label, each value written above its bar (as
    `texts` writes it, when given: a share as a percentage) at the figure's font size. When the values do not fit
    over bars side by side (24 bars of the √d_k page's row in presentation mode), each group gets a panel of its
    own, one above the other, its bars as wide as a whole group's, its name over it, the labels under the last."""
    scale = 1.3 if style.font > 14 else 1.0
    figure_width = min(int(width * scale), style.max_width)
    left, right = int(style.font * 4.5), 10
    slot = (figure_width - left - right) / max(1, len(labels)) * (1 - BAR_GAP)  # one group's bars, side by side
    written = {
        name: list(texts[name]) if texts else [numbers.fixed(float(v), decimals, lang=lang) for v in values]
        for name, values in groups.items()
    }
    every_text = [text for column in written.values() for text in column]
    panels = len(groups) > 1 and not bar_values_fit(every_text, slot / len(groups), style.cell_font)
    top = max((max(float(v) for v in values) for values in groups.values() if len(values)), default=1.0)
    low = min((min(float(v) for v in values) for values in groups.values() if len(values)), default=0.0)
    span = y_range or (min(0.0, low * 1.25), max(top * 1.25, 0.1))
    rows = len(groups) if panels else 1
    row_height = int((100 if panels else 280) * scale)
    row_gap = int(style.font * 2) if panels else 0  # room for the next panel's name
    if panels:  # room over the tallest bar for its value, a line at the values' size
        room = style.cell_font * 1.5 / row_height
        span = (span[0], max(span[1], (top - room * span[0]) / (1 - room)))
    data = []
    for k, (name, values) in enumerate(groups.items()):
        data.append(
            {
                "type": "bar",
                "name": plain_text(name),
                "x": [plain_text(label) for label in labels],
                "y": [float(v) for v in values],
                "yaxis": f"y{k + 1}" if panels and k else "y",
                "marker": {"color": SERIES_COLORS[k % len(SERIES_COLORS)]},
                "text": written[name],
                "textposition": "outside",
                "cliponaxis": False,
                "textfont": {"size": style.cell_font},
                "hovertemplate": "%{x}: %{text}<extra>" + plain_text(name) + "</extra>",
            }
        )
    plot_height = rows * row_height + (rows - 1) * row_gap
    bottom = int(style.font * 2.6)
    names = list(groups) if len(groups) > 1 and not panels else []
    layout, top_margin = base_layout(style, lang, title, figure_width, plot_height, names)
    top_margin += row_gap if panels else 0  # the first panel's name
    layout["height"] += bottom + (row_gap if panels else 0)
    layout.update(
        {
            "margin": {"l": left, "r": right, "t": top_margin, "b": bottom},
            "barmode": "group",
            "bargap": PANEL_BAR_GAP if panels else BAR_GAP,
            "showlegend": len(groups) > 1 and not panels,
            "xaxis": _axis("", style, fixedrange=True, type="category", anchor=f"y{rows}" if rows > 1 else "y"),
        }
    )
    for k in range(rows):
        row_top = 1 - k * (row_height + row_gap) / plot_height
        domain = [max(0.0, row_top - row_height / plot_height), row_top]
        axis = _axis(y_title if k == rows // 2 else "", style, range=list(span), fixedrange=True, domain=domain)
        layout["yaxis" if k == 0 else f"yaxis{k + 1}"] = {**axis, "anchor": "x"}
        if panels:
            layout.setdefault("annotations", []).append(
                {
                    "text": plain_text(list(groups)[k]),
                    "xref": "paper",
                    "yref": "paper",
                    "x": 0,
                    "y": row_top,
                    "xanchor": "left",
                    "yanchor": "bottom",
                    "showarrow": False,
                    "font": {"size": style.font, "color": SERIES_COLORS[k % len(SERIES_COLORS)]},
                }
            )
    return go.Figure({"data": data, "layout": layout}, skip_invalid=False, _validate=False)


def lines_figure(
    x: Sequence[float],
    series: Mapping[str, Values],
    style: Style,
    lang: str,
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    dashed: Sequence[str] = (),
    faint: np.ndarray | None = None,
    log_axes: bool = False,
    markers: bool = False,
    highlight: tuple[float, float] | None = None,
    band: tuple[Sequence[float], Sequence[float], str] | None = None,
    narrow: bool = False,
    x_labels: Sequence[str] | None = None,
) -> go.Figure:
    """Named series over x; `dashed` names reference lines; `faint` (m, len(x)) adds thin grey paths without a
    legend (random walks); `band` (low, high, name) shades a band between two curves; `log_axes` makes both
    axes logarithmic; `highlight` (x0, x1) shades a stretch of x; `x_labels` names each x (stages, say)."""
    scale = 1.3 if style.font > 14 else 1.0
    width = int(500 * scale) if narrow else min(int(760 * scale), style.max_width)
    plot_height = int((260 if narrow else 280) * scale)
    xs = [float(v) for v in x]
    data: list[dict] = []
    if band is not None:
        # the band's edges drawn like a reference line (the second series colour, dashed), so that √n reads the
        # same in every figure: here as the edges of ±√n, beside it as the dashed √n curve
        low, high, name = band
        edge = {"width": 2, "color": SERIES_COLORS[1], "dash": "dash"}
        data.append(
            {
                "type": "scatter",
                "x": xs,
                "y": [float(v) for v in high],
                "mode": "lines",
                "line": edge,
                "hoverinfo": "skip",
                "showlegend": False,
            }
        )
        data.append(
            {
                "type": "scatter",
                "x": xs,
                "y": [float(v) for v in low],
                "mode": "lines",
                "line": edge,
                "fill": "tonexty",
                "fillcolor": "rgba(214,39,40,0.10)",
                "name": plain_text(name),
                "hoverinfo": "skip",
            }
        )
    if faint is not None:
        paths = np.asarray(faint, dtype=np.float64)
        # all faint paths as one trace, separated by gaps: one SVG path instead of one per walk
        joined_x: np.ndarray | list[float] = (
            np.concatenate([np.append(xs, np.nan) for _ in range(len(paths))]) if len(paths) else []
        )
        joined_y: np.ndarray | list[float] = np.concatenate([np.append(p, np.nan) for p in paths]) if len(paths) else []
        data.append(
            {
                "type": "scatter",
                "x": list(map(float, joined_x)),
                "y": list(map(float, joined_y)),
                "mode": "lines",
                "line": {"width": 1, "color": "rgba(120,120,120,0.35)"},
                "hoverinfo": "skip",
                "showlegend": False,
                "connectgaps": False,
            }
        )
    for k, (name, values) in enumerate(series.items()):
        color = SERIES_COLORS[k % len(SERIES_COLORS)]
        data.append(
            {
                "type": "scatter",
                "x": xs,
                "y": [float(v) for v in values],
                "name": plain_text(name),
                "mode": "lines+markers" if markers else "lines",
                "line": {"width": 3, "color": color, "dash": "dash" if name in dashed else "solid"},
                "marker": {"size": 8},
                "hovertemplate": "%{x}: %{y:.3f}<extra>" + plain_text(name) + "</extra>",
            }
        )
    named = [name for name in series] + ([band[2]] if band is not None else [])
    bottom = int(style.font * 3.6)
    layout, top = base_layout(style, lang, title, width, plot_height, named)
    layout["height"] += bottom
    axis_type = "log" if log_axes else "linear"
    layout.update(
        {
            "margin": {"l": int(style.font * 5), "r": 12, "t": top, "b": bottom},
            "xaxis": _axis(x_title, style, type=axis_type, fixedrange=True),
            "yaxis": _axis(y_title, style, type=axis_type, fixedrange=True),
            "showlegend": True,
        }
    )
    if x_labels is not None:
        layout["xaxis"].update({"tickmode": "array", "tickvals": xs, "ticktext": [plain_text(v) for v in x_labels]})
    if log_axes:
        layout["xaxis"].update(
            {"tickmode": "array", "tickvals": xs, "ticktext": [numbers.count(int(v), lang=lang) for v in xs]}
        )
        # 1, 2, 5, 10, 20, 50, ... at the axis's full size (plotly's own writes the digits between powers of ten
        # at 3/4 of it)
        ticks = _log_ticks([float(v) for values in series.values() for v in values])
        layout["yaxis"].update(
            {"tickmode": "array", "tickvals": ticks, "ticktext": [numbers.short(v, lang=lang) for v in ticks]}
        )

    if highlight is not None:
        layout["shapes"] = [
            {
                "type": "rect",
                "xref": "x",
                "yref": "paper",
                "x0": highlight[0],
                "x1": highlight[1],
                "y0": 0,
                "y1": 1,
                "fillcolor": "rgba(255,193,7,0.2)",
                "line": {"width": 0},
                "layer": "below",
            }
        ]
    return go.Figure({"data": data, "layout": layout}, skip_invalid=False, _validate=False)


def arrows_figure(
    start: np.ndarray,
    end: np.ndarray,
    labels: Sequence[str],
    style: Style,
    lang: str,
    *,
    start_name: str,
    end_name: str,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
) -> go.Figure:
    """Points `start` (n, 2) labelled with `labels`, points `end` (n, 2), an arrow from each start to its end, on
    equal axes so that lengths and angles read true."""
    start, end = np.asarray(start, dtype=np.float64), np.asarray(end, dtype=np.float64)
    points = np.concatenate([start, end])
    points = points[np.isfinite(points).all(axis=1)]
    centre = (points.min(axis=0) + points.max(axis=0)) / 2 if points.size else np.zeros(2)
    half = (float(np.max(points.max(axis=0) - points.min(axis=0))) / 2 * 1.2 if points.size else 1.0) or 1.0
    side = 620 if style.font > 14 else 500
    names = [plain_text(label) for label in labels]
    data = [
        {
            "type": "scatter",
            "x": start[:, 0].tolist(),
            "y": start[:, 1].tolist(),
            "mode": "markers+text",
            "name": plain_text(start_name),
            "text": [short_label(label) for label in labels],
            "textposition": "top center",
            "customdata": names,
            "hovertemplate": "%{customdata}<extra>" + plain_text(start_name) + "</extra>",
            "marker": {"size": 11, "color": SERIES_COLORS[0]},
            "textfont": {"size": style.font},
        },
        {
            "type": "scatter",
            "x": end[:, 0].tolist(),
            "y": end[:, 1].tolist(),
            "mode": "markers",
            "name": plain_text(end_name),
            "customdata": names,
            "hovertemplate": "%{customdata}<extra>" + plain_text(end_name) + "</extra>",
            "marker": {"size": 11, "symbol": "diamond", "color": SERIES_COLORS[1]},
        },
    ]
    arrows = [
        {
            "x": float(x1),
            "y": float(y1),
            "ax": float(x0),
            "ay": float(y0),
            "xref": "x",
            "yref": "y",
            "axref": "x",
            "ayref": "y",
            "showarrow": True,
            "arrowhead": 3,
            "arrowsize": 1.2,
            "arrowwidth": 1.5,
            "arrowcolor": "rgba(120,120,120,0.9)",
            "text": "",
        }
        for (x0, y0), (x1, y1) in zip(start, end, strict=True)
        if np.isfinite([x0, y0, x1, y1]).all()
    ]
    bottom = int(style.font * 3.6)
    layout, top = base_layout(style, lang, title, side + int(style.font * 5), side - bottom, [start_name, end_name])
    layout["height"] += bottom
    layout.update(
        {
            "margin": {"l": int(style.font * 5), "r": 10, "t": top, "b": bottom},
            "xaxis": _axis(x_title, style, range=[centre[0] - half, centre[0] + half], fixedrange=True),
            "yaxis": _axis(
                y_title, style, range=[centre[1] - half, centre[1] + half], fixedrange=True, scaleanchor="x"
            ),
            "annotations": arrows,
        }
    )
    return go.Figure({"data": data, "layout": layout}, skip_invalid=False, _validate=False)
