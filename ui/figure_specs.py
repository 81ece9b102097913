"""The pages' figures as plotly specs: heatmaps of matrices, bars, lines and arrows.

Pure functions from numbers and labels to a `go.Figure`; no Streamlit here (`ui.charts` shows them).

Why the figures are built the way they are (measured, README › Speed): most of what a small plotly figure
costs in the browser is layout work plotly redoes on every update (automatic margins and sizes, range
computation) and, on the server, validation. So every figure here has a fixed size in pixels that depends on
its matrix (not on its longest label), fixed axis ranges, fixed margins, and is built from plain dicts
without validation. Long labels are shortened on the axes and given in full in the hover text.

Labels are user text: plotly reads a few HTML tags in text (<b>, <a href>, <br>, ...), so every label goes
through `plain_text`, which escapes them, and the text is shown literally.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import plotly.colors
import plotly.graph_objects as go

from ui import numbers

# ColorBrewer's colour-blind-safe scales, as plotly ships them: red for negative, near-white at 0 (with a
# symmetric range), blue for positive; weights from white (0) to dark blue (1).
# one named line or group of bars: a list of numbers or a 1-d array
Values: TypeAlias = Sequence[float] | np.ndarray

SIGNED_COLORS = plotly.colors.diverging.RdBu
WEIGHTS_COLORS = plotly.colors.sequential.Blues
SIGNED_SCALE = plotly.colors.make_colorscale(SIGNED_COLORS)
WEIGHTS_SCALE = plotly.colors.make_colorscale(WEIGHTS_COLORS)
SERIES_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf")
MAX_LABEL_CHARS = 10  # longer labels are shortened on the axes, in full on hover
MAX_WRITTEN_COLUMNS = 12  # values written in the cells up to this many columns; beyond, hover and zoom
MAX_LABELLED = 16  # every row / column named on its axis up to this many; beyond, as many as fit (more on zoom)
MIN_CELL = 10  # px: a 64×64 map stays within the figure's width, inspected by hover and zoom
MASKED = "✕"


@dataclass(frozen=True)
class Style:
    """Sizes that presentation mode enlarges."""

    font: int = 14  # axis labels, legends
    cell_font: int = 14  # values written in the cells
    title: int = 16
    cell: int = 56  # side of a cell in pixels, at most (a signed three-decimal value fits)
    max_width: int = 760  # a figure never asks for more than this; larger matrices get smaller cells

    @staticmethod
    def for_mode(presentation: bool) -> Style:
        """Normal sizes, or presentation mode's: every number at 20 px or more, and a figure no wider than a
        1280 px projector's page with the sidebar open (930 px)."""
        return Style(font=20, cell_font=20, title=22, cell=76, max_width=900) if presentation else Style()


def plain_text(label: object) -> str:
    """A label shown literally by plotly: HTML escaped, control and bidi-control characters replaced."""
    text = "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in str(label))
    return html.escape(text, quote=False)


def short_label(label: object, limit: int = MAX_LABEL_CHARS) -> str:
    """A label cut to `limit` characters (with …) and made safe by plain_text."""
    text = str(label)
    return plain_text(text if len(text) <= limit else text[: limit - 1] + "…")


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


def _rgb_stops(colors: Sequence[str]) -> np.ndarray:
    """A scale's colours as 0–255 red, green, blue, one row per stop (the stops equally spaced, as plotly's)."""
    return np.array([plotly.colors.unlabel_rgb(color) for color in colors], dtype=np.float64)  # (stops, 3)


SCALE_RGB = {"signed": _rgb_stops(SIGNED_COLORS), "weights": _rgb_stops(WEIGHTS_COLORS)}


def scale_colors(kind: str, fractions: np.ndarray) -> np.ndarray:
    """The colours the scale of `kind` gives at `fractions` (0–1, clipped), interpolated as plotly does.  (k, 3)"""
    stops = SCALE_RGB[kind]
    at = np.clip(np.asarray(fractions, dtype=np.float64), 0.0, 1.0)
    positions = np.linspace(0.0, 1.0, len(stops))
    return np.stack([np.interp(at, positions, stops[:, channel]) for channel in range(3)], axis=-1)


def luminance(rgb: Sequence[float]) -> float:
    """WCAG's relative luminance of a colour given as 0–255 red, green, blue."""
    channels = [c / 255 for c in rgb]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


# Black or white text, whichever contrasts more with the cell: at least 4.58 : 1 on any colour (WCAG AA asks 4.5).
BLACK_TEXT_ABOVE = 0.179
MASKED_FILL = "rgb(217,217,217)"  # a masked cell: light grey in both themes, its ✕ in black (12.6 : 1)
MASKED_RGB = plotly.colors.unlabel_rgb(MASKED_FILL)


def text_color(rgb: Sequence[float]) -> str:
    """The colour of a value written on a cell of colour `rgb`."""
    return "#000000" if luminance(rgb) > BLACK_TEXT_ABOVE else "#ffffff"


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


GLYPH_WIDTH = 0.62  # a label character's width, as a share of its font size (a generous average: digits, letters)
LABEL_GAP = 4  # px: an upright column label keeps this much room between it and the next


def text_width(chars: int, font: float) -> float:
    """Pixels `chars` characters take at `font` px."""
    return chars * font * GLYPH_WIDTH


def label_room(chars: int, font: float) -> int:
    """Pixels a label of `chars` characters needs across its line: its width and a little air (row labels beside
    the cells; column labels above them once turned)."""
    return int(text_width(chars, font) + 0.8 * font)


def upright_columns(widest: int, cell: int, font: float) -> bool:
    """Whether column labels are written upright: while the widest (at most MAX_LABEL_CHARS long) fits its cell,
    else they are turned."""
    return text_width(widest, font) <= cell - LABEL_GAP


def column_labels_height(widest: int, cell: int, font: float) -> int:
    """Pixels above the cells for the column labels: one line upright, or the widest label's length turned."""
    return int(font * 1.5) if upright_columns(widest, cell, font) else label_room(widest, font)


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
        data.append(_masked_layer(masked, x_positions, y_positions, hover))
    if write_values:
        layer = _value_layer(values, masked, spec.kind, spec.decimals, zrange, x_positions, y_positions, style, lang)
        data.append(layer)
    axis = _grid_axis(style, fixed=max(r, c) <= MAX_LABELLED)  # a large map zooms
    layout = {
        **_grid_layout(style, lang, spec.title, width, height, margin),
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


def _masked_layer(
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


def _value_layer(
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


def _grid_axis(style: Style, *, fixed: bool) -> dict:
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


def _grid_layout(style: Style, lang: str, title: str, width: int, height: int, margin: dict) -> dict:
    """What a heatmap's layout shares: its exact size, numbers in the reader's language, the title top left."""
    return {
        "width": width,
        "height": height,
        "autosize": False,
        "margin": margin,
        "font": {"size": style.font},
        "separators": numbers.plotly_separators(lang),
        "title": _title(plain_text(title), style),
    }


def _title(text: str, style: Style, pad_top: int = 4) -> dict:
    """A figure's title, top left of the figure (not of the plot), at the title's size."""
    return {
        "text": text,
        "font": {"size": style.title},
        "x": 0,
        "xanchor": "left",
        "xref": "container",
        "y": 1,
        "yanchor": "top",
        "yref": "container",
        "pad": {"t": pad_top, "l": 4},
    }


# --- bars, lines and arrows ---


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


def _base_layout(
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
        "title": _title(
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
    layout, top_margin = _base_layout(style, lang, title, figure_width, plot_height, names)
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
    layout, top = _base_layout(style, lang, title, width, plot_height, named)
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
    layout, top = _base_layout(style, lang, title, side + int(style.font * 5), side - bottom, [start_name, end_name])
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


# --- small multiples: several matrices of one shape in one figure, on one colour scale ---


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
    axis = _grid_axis(style, fixed=True)  # on every panel's axes
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
            data.append(_masked_layer(masked, range(c), range(r), hover, axes))
        if write_values:
            data.append(
                _value_layer(
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


# --- every head of a model at once ---

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
    axis = _grid_axis(style, fixed=True)
    layout = {
        **_grid_layout(style, lang, title, width, height, margin),
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


@dataclass(frozen=True)
class BlockLabels:
    """The words of the Transformer block figure, in the reader's language."""

    encoder: str  # the column titles
    decoder: str
    inputs: str  # embeddings + positional encoding
    attention: str  # (multi-head) self-attention: this step
    masked_attention: str  # the decoder's self-attention with the causal mask
    cross_attention: str  # the decoder's attention over the encoder's output
    add_norm: str  # residual sum + layer norm
    feed_forward: str
    output: str
    repeat: str  # "× N layers"
    here: str  # the mark beside this step


BLOCK_FILL = {"attention": "#9ecae1", "add_norm": "#d9d9d9", "feed_forward": "#fdd0a2", "inputs": "#c7e9c0"}
BLOCK_TEXT = "#111111"  # dark on every fill: the fills are light in both themes
BLOCK_LINE = "#7f7f7f"


def block_figure(labels: BlockLabels, style: Style, lang: str) -> go.Figure:
    """The Transformer block around this step, encoder beside decoder, drawn bottom to top: inputs, (masked)
    self-attention, residual + layer norm, (cross-attention, residual + layer norm,) feed-forward, residual + layer
    norm; the residual paths beside each sublayer, this step outlined and marked."""
    box_w, box_h, step = 1.5, 0.62, 1.0
    encoder = ("inputs", "attention", "add_norm", "feed_forward", "add_norm")
    decoder = ("inputs", "masked_attention", "add_norm", "cross_attention", "add_norm", "feed_forward", "add_norm")
    columns = {0.0: encoder, 2.6: decoder}
    shapes: list[dict] = []
    notes: list[dict] = []
    residual_x: list[float | None] = []  # the residual paths, one trace with gaps between them
    residual_y: list[float | None] = []
    # the boxes' words: a text trace, not annotations, because Streamlit's theme recolours annotations' fonts (white
    # on the light fills in dark mode); a trace's textfont keeps its colour
    label_x: list[float] = []
    label_y: list[float] = []
    label_text: list[str] = []
    font = {"size": style.font}

    def arrow(x0: float, y0: float, x1: float, y1: float, dash: bool = False) -> None:
        notes.append(
            {
                "x": x1,
                "y": y1,
                "ax": x0,
                "ay": y0,
                "xref": "x",
                "yref": "y",
                "axref": "x",
                "ayref": "y",
                "showarrow": True,
                "arrowhead": 2,
                "arrowsize": 1.2,
                "arrowwidth": 1.6,
                "arrowcolor": BLOCK_LINE,
                "text": "",
                "standoff": 0,
                "startstandoff": 0,
            }
        )
        if dash:
            notes[-1]["arrowwidth"] = 1.2

    tops = {}
    for x, boxes in columns.items():
        for k, part in enumerate(boxes):
            y = k * step
            text = getattr(labels, part)
            kind = "attention" if part.endswith("attention") else part
            ours = k == 1  # the self-attention of each column: this step
            shapes.append(
                {
                    "type": "rect",
                    "x0": x - box_w / 2,
                    "x1": x + box_w / 2,
                    "y0": y - box_h / 2,
                    "y1": y + box_h / 2,
                    "fillcolor": BLOCK_FILL[kind],
                    "line": {"color": "#08519c" if ours else BLOCK_LINE, "width": 3 if ours else 1},
                    "layer": "below",
                }
            )
            label_x.append(x)
            label_y.append(y)
            label_text.append(plain_text(text))
            if k:
                arrow(x, y - step + box_h / 2, x, y - box_h / 2)
            if kind == "add_norm":  # the residual: from below the sublayer, around it, into the sum
                side = x + box_w / 2 + 0.18
                start, end = y - 2 * step + box_h / 2 + 0.1, y
                residual_x += [x + box_w / 2, side, side, x + box_w / 2, None]
                residual_y += [start, start, end, end, None]
        tops[x] = (len(boxes) - 1) * step
        notes.append({"x": x, "y": tops[x] + step, "text": plain_text(labels.output), "showarrow": False, "font": font})
        arrow(x, tops[x] + box_h / 2, x, tops[x] + step - 0.22)
    # the encoder's output feeds the decoder's cross-attention (its K and V)
    arrow(0.0 + box_w / 2 + 0.05, tops[0.0] + step, 2.6 - box_w / 2, 3 * step)
    # this step marked beside the encoder's self-attention, and the stack repeated
    notes.append(
        {
            "x": -box_w / 2 - 0.08,
            "y": step,
            "text": plain_text(labels.here),
            "showarrow": False,
            "xanchor": "right",
            "font": {"size": style.font, "color": "#08519c"},
        }
    )
    notes.append(
        {
            "x": -box_w / 2 - 0.08,
            "y": 3 * step,
            "text": plain_text(labels.repeat),
            "showarrow": False,
            "xanchor": "right",
            "font": {"size": style.font},
        }
    )
    width = min(int(760 * (1.3 if style.font > 14 else 1.0)), style.max_width)
    height = int(7 * step * (style.font * 4.2))
    layout, _ = _base_layout(style, lang, "", width, height)
    layout.update(
        {
            "shapes": shapes,
            "annotations": notes
            + [
                {
                    "x": x,
                    "y": -0.95,
                    "text": f"<b>{plain_text(name)}</b>",
                    "showarrow": False,
                    "font": {"size": style.title},
                }
                for x, name in ((0.0, labels.encoder), (2.6, labels.decoder))
            ],
            "xaxis": {"visible": False, "range": [-2.4, 3.75], "fixedrange": True},
            "yaxis": {"visible": False, "range": [-1.3, 7.4], "fixedrange": True},
            "margin": {"l": 4, "r": 4, "t": 8, "b": 4},
            "showlegend": False,
            "plot_bgcolor": "rgba(0,0,0,0)",
        }
    )
    residuals = {
        "type": "scatter",
        "x": residual_x,
        "y": residual_y,
        "mode": "lines",
        "line": {"color": BLOCK_LINE, "width": 1.4, "dash": "dot"},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    words = {
        "type": "scatter",
        "x": label_x,
        "y": label_y,
        "text": label_text,
        "mode": "text",
        "textfont": {"size": style.font, "color": BLOCK_TEXT},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    return go.Figure(data=[residuals, words], layout=layout)
