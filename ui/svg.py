"""Figures as SVG text: heatmaps, bars, lines and arrows, drawn on the server and shown as images.

Why not plotly: a lecturer moves a slider and the heatmaps must follow at once. In headless Chromium a plotly
figure whose data changed costs 60 to 100 ms of redraw (measured: benchmarks/README.md), so a page with two of
them cannot stay within 2× of Streamlit's own floor; an SVG image costs a few milliseconds. Every figure here is
static: the numbers are written on it, and pages print the ones worth copying as text too.

Nothing here imports streamlit. User text (token names) goes through `text()`, which escapes it for XML; and
since the browser shows these figures as images, even a mistake there could not run a script.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple
from xml.sax.saxutils import escape

import numpy as np
from plotly.colors import diverging, qualitative, sequential

from ui.format import plain, signed

SIGNED_SCALE = diverging.RdBu  # ColorBrewer, colour-blind safe: red below 0, white at 0, blue above
WEIGHT_SCALE = sequential.Blues  # ColorBrewer, colour-blind safe: white at 0, dark blue at 1
SERIES_COLORS = qualitative.Plotly
INK, GRID, MASKED = "#111827", "#e5e7eb", "#f3f4f6"
FONT = "'Source Sans Pro', 'Source Sans 3', Helvetica, Arial, sans-serif"  # quoted: "Sans 3" is no CSS name
MAX_POINTS = 240  # points drawn per line at most: one every 3 px or so of a plot 720 px wide
MAX_CELL_TEXT = 12  # up to this many columns, values are written in full in the cells
MAX_SMALL_TEXT = 24  # up to this many, smaller and with at most 2 decimals; more, and the cells are colour only

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # and lone surrogates


def text(value: object) -> str:
    """Any text as XML character data or an attribute value: escaped, and without the characters XML forbids."""
    return escape(_NOT_XML.sub("", str(value)), {'"': "&quot;"})


def text_width(label: str, size: float) -> float:
    """A generous estimate of a label's width in pixels (no font metrics on the server)."""
    return 0.62 * size * len(str(label))


class Panel(NamedTuple):
    """One matrix of a heatmap figure: values, row and column labels, colouring, title."""

    values: np.ndarray
    rows: Sequence[str]
    cols: Sequence[str]
    kind: str = "signed"  # "signed": diverging around 0; "weights": 0 to 1
    title: str = ""


class Canvas:
    """SVG elements in order, and the document around them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def label(
        self,
        x: float,
        y: float,
        content: object,
        *,
        anchor: str = "middle",
        size: float | None = None,
        bold: bool = False,
        fill: str = INK,
        rotate: bool = False,
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" dominant-baseline="central" '
            f'font-size="{size or self.size:.1f}" fill="{fill}"{weight}{turn}>{text(content)}</text>'
        )

    def document(self, width: float, height: float) -> str:
        width, height = math.ceil(width), math.ceil(height)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>' + "".join(self.parts) + "</svg>"
        )


def _rgb(color: str) -> tuple[int, int, int]:
    r, g, b = (int(float(c)) for c in re.findall(r"[\d.]+", color)[:3])
    return r, g, b


_SIGNED_RGB = np.array([_rgb(color) for color in SIGNED_SCALE], dtype=np.float64)  # parsed once, at import
_WEIGHT_RGB = np.array([_rgb(color) for color in WEIGHT_SCALE], dtype=np.float64)


def _ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on `fill` (relative luminance)."""
    r, g, b = _rgb(fill)
    luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
    return INK if luminance > 0.5 else "#ffffff"


def cell_colors(values: np.ndarray, kind: str) -> list[list[str | None]]:
    """The fill of every cell: RdBu symmetric around 0 (to the largest |value|), or Blues from 0 to 1;
    None for a cell that is not a finite number (masked)."""
    z = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(z)
    if kind == "weights":
        position = np.clip(z, 0.0, 1.0)
        scale = _WEIGHT_RGB
    else:
        bound = float(np.max(np.abs(z[finite]))) if finite.any() else 1.0
        position = (np.clip(z, -bound, bound) / (bound or 1.0) + 1.0) / 2.0
        scale = _SIGNED_RGB
    rgb = _interpolate(scale, np.where(finite, position, 0.0))
    return [
        [f"rgb({r},{g},{b})" if ok else None for (r, g, b), ok in zip(row, row_ok, strict=True)]
        for row, row_ok in zip(rgb.tolist(), finite.tolist(), strict=True)
    ]


def _interpolate(anchors: np.ndarray, position: np.ndarray) -> np.ndarray:
    """Colours at `position` (0 to 1) along evenly spaced RGB `anchors` (k, 3), as integer RGB."""
    stops = np.linspace(0.0, 1.0, len(anchors))
    channels = [np.interp(position, stops, anchors[:, c]) for c in range(3)]
    return np.rint(np.stack(channels, axis=-1)).astype(int)


def heatmaps(
    panels: Sequence[Panel], *, row_title: str = "", decimals: int = 3, masked_text: str = "−∞", large: bool = False
) -> str:
    """Matrices side by side, each with its title, row labels (queries or tokens) and column labels on top,
    its values written in the cells (smaller, with fewer decimals, past MAX_CELL_TEXT columns; colour only past
    MAX_SMALL_TEXT) and masked cells left grey. Titles and labels are given the room they need."""
    size = 20 if large else 14
    canvas = Canvas(size)
    n_cols = max(np.asarray(p.values).shape[1] for p in panels)
    n_rows = max(np.asarray(p.values).shape[0] for p in panels)
    numbers = n_cols <= MAX_SMALL_TEXT
    number_size = size if n_cols <= MAX_CELL_TEXT else size * 0.72
    shown_decimals = decimals if n_cols <= MAX_CELL_TEXT else min(decimals, 2)
    if numbers:
        cell_w, cell_h = number_size * (shown_decimals + 3) * 0.62 + 10, number_size * 2.3
    else:
        cell_w = cell_h = max(9.0, min(size * 2.3, 640 / max(n_cols, n_rows)))
    label_size = min(float(size), max(8.0, cell_h * 0.8))
    widest_col = max(max(text_width(c, label_size) for c in p.cols) for p in panels)
    upright = widest_col <= cell_w - 4  # column labels written across when they fit, else turned upward
    if numbers and not upright and n_cols <= MAX_CELL_TEXT:
        cell_w, upright = widest_col + 8, True  # a few columns: widen them rather than turn the labels
    title_h = size * 2 if any(p.title for p in panels) else 0
    col_label_h = (label_size if upright else widest_col) + 10
    top = title_h + col_label_h
    row_title_w = size * 1.8 if row_title else 0
    x = row_title_w
    gap = size * 1.5
    for panel in panels:
        z = np.asarray(panel.values, dtype=np.float64)
        rows, cols = z.shape
        label_w = max(text_width(r, label_size) for r in panel.rows) + 10
        title_w = text_width(panel.title, size + 2) * 1.1 if panel.title else 0.0
        left = x + max(label_w, title_w / 2 - cols * cell_w / 2)  # room for the labels, and for the title
        centre = left + cols * cell_w / 2
        if panel.title:
            canvas.label(centre, size, panel.title, size=size + 2, bold=True)
        for j, name in enumerate(panel.cols):
            cx = left + (j + 0.5) * cell_w
            if upright:
                canvas.label(cx, top - label_size / 2 - 6, name, size=label_size)
            else:
                canvas.label(cx, top - 6, name, size=label_size, anchor="start", rotate=True)
        colors = cell_colors(z, panel.kind)
        fmt = signed if panel.kind == "signed" else plain
        for i, name in enumerate(panel.rows):
            cy = top + (i + 0.5) * cell_h
            canvas.label(left - 6, cy, name, anchor="end", size=label_size)
            for j in range(cols):
                fill = colors[i][j]
                canvas.add(
                    f'<rect x="{left + j * cell_w + 1:.1f}" y="{top + i * cell_h + 1:.1f}" '
                    f'width="{cell_w - 2:.1f}" height="{cell_h - 2:.1f}" fill="{fill or MASKED}"/>'
                )
                if numbers:
                    content = fmt(z[i, j], shown_decimals) if fill else masked_text
                    ink = _ink_on(fill) if fill else INK
                    canvas.label(left + (j + 0.5) * cell_w, cy, content, fill=ink, size=number_size)
        x = max(left + cols * cell_w, centre + title_w / 2) + gap
    grid_h = n_rows * cell_h
    height = top + max(grid_h, text_width(row_title, size) + 8 if row_title else 0) + 4
    if row_title:
        canvas.label(size * 0.8, top + max(grid_h, text_width(row_title, size) + 8) / 2, row_title, rotate=True)
    return canvas.document(x - gap + 4, height)


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round values (1, 2 or 5 × 10^k apart) covering [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else []
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + k * step, 12) for k in range(int((high - first) / step + 1e-9) + 1)]


def log_ticks(values: np.ndarray) -> list[float]:
    """1, 2, 5, 10, 20, 50, ... within the range of the (positive) values: a few round labels on a log axis."""
    values = np.asarray(values, dtype=np.float64)
    values = values[np.isfinite(values) & (values > 0)]
    if values.size == 0:
        return []
    low, high = int(np.floor(np.log10(values.min()))), int(np.ceil(np.log10(values.max())))
    candidates = [m * 10.0**e for e in range(low, high + 1) for m in (1, 2, 5)]
    return [c for c in candidates if values.min() / 1.5 <= c <= values.max() * 1.5]


def tick_label(value: float) -> str:
    return f"{value:g}".replace("-", "−")


class Axis(NamedTuple):
    low: float
    high: float
    log: bool
    ticks: list[float]

    def at(self, value, start: float, end: float):
        """Pixel position of `value` (a number or an array) between pixel `start` (at low) and `end` (at high)."""
        if self.log:
            with np.errstate(divide="ignore", invalid="ignore"):
                value = np.log10(value)
            low, high = math.log10(self.low), math.log10(self.high)
        else:
            low, high = self.low, self.high
        return start + (value - low) / ((high - low) or 1.0) * (end - start)


def axis(
    values: np.ndarray,
    *,
    log: bool = False,
    ticks: Sequence[float] | None = None,
    pad: float = 0.05,
    include_zero: bool = False,
    span: tuple[float, float] | None = None,
) -> Axis:
    """An axis covering the finite values (positive ones on a log axis), padded a little, with round ticks."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    v = v[np.isfinite(v) & (v > 0)] if log else v[np.isfinite(v)]
    if span is not None:
        low, high = span
    elif v.size == 0:
        low, high = (1.0, 10.0) if log else (0.0, 1.0)
    else:
        low, high = float(v.min()), float(v.max())
        if include_zero:
            low, high = min(low, 0.0), max(high, 0.0)
        if log:
            ratio = (high / low) ** pad if high > low else 2.0
            low, high = low / ratio, high * ratio
        else:
            extra = (high - low) * pad if high > low else max(abs(high), 1.0) * 0.5
            low, high = (low if include_zero and low == 0 else low - extra), high + extra
    if ticks is None:
        ticks = log_ticks(np.array([low, high])) if log else nice_ticks(low, high)
    ticks = [t for t in ticks if low <= t <= high]
    return Axis(low, high, log, list(ticks))


class Frame(NamedTuple):
    """A plot area in pixels with its two axes."""

    left: float
    top: float
    width: float
    height: float
    x: Axis
    y: Axis

    def px(self, value: float) -> float:
        return self.x.at(value, self.left, self.left + self.width)

    def py(self, value: float) -> float:
        return self.y.at(value, self.top + self.height, self.top)

    def inside(self, x, y):
        """Whether a point (or each of arrays of points) can be drawn: finite, and positive on a log axis."""
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        ok_x = np.isfinite(x) & ((x > 0) | (not self.x.log))
        ok_y = np.isfinite(y) & ((y > 0) | (not self.y.log))
        return ok_x & ok_y


def _frame_ui(canvas: Canvas, frame: Frame, x_title: str, y_title: str) -> None:
    """Grid lines, tick labels and axis titles."""
    size = canvas.size
    bottom = frame.top + frame.height
    for tick in frame.y.ticks:
        y = frame.py(tick)
        canvas.add(
            f'<line x1="{frame.left:.1f}" x2="{frame.left + frame.width:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{GRID}"/>'
        )
        canvas.label(frame.left - 6, y, tick_label(tick), anchor="end")
    for tick in frame.x.ticks:
        x = frame.px(tick)
        canvas.add(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.top:.1f}" y2="{bottom:.1f}" stroke="{GRID}"/>')
        canvas.label(x, bottom + size * 0.9, tick_label(tick))
    canvas.add(
        f'<line x1="{frame.left:.1f}" x2="{frame.left + frame.width:.1f}" y1="{bottom:.1f}" '
        f'y2="{bottom:.1f}" stroke="{INK}"/>'
    )
    canvas.add(
        f'<line x1="{frame.left:.1f}" x2="{frame.left:.1f}" y1="{frame.top:.1f}" y2="{bottom:.1f}" stroke="{INK}"/>'
    )
    if x_title:
        canvas.label(frame.left + frame.width / 2, bottom + size * 2.3, x_title)
    if y_title:
        canvas.label(size * 0.8, frame.top + frame.height / 2, y_title, rotate=True)


LEGEND_LINE = 1.6  # legend rows are this many font sizes apart


def _legend_places(names: Sequence[str], size: float, left: float, right: float) -> list[tuple[float, int]]:
    """Where each legend entry starts: (x, row), entries wrapped onto a new row at `right`."""
    places, x, row = [], left, 0
    for name in names:
        width = 34 + text_width(name, size) + size * 1.5
        if x > left and x + width > right:
            x, row = left, row + 1
        places.append((x, row))
        x += width
    return places


def _legend_rows(names: Sequence[str], size: float, left: float, right: float) -> int:
    """How many rows the legend entries take between `left` and `right`."""
    places = _legend_places(names, size, left, right)
    return places[-1][1] + 1 if places else 0


def _legend(canvas: Canvas, entries: Sequence[tuple[str, str, str]], left: float, y: float, right: float) -> None:
    """Legend entries (name, colour, "solid" / "dash" / "diamond" / "circle" / "square") from `left`, wrapped
    onto new rows at `right`; `y` is the middle of the first row."""
    size = canvas.size
    places = _legend_places([name for name, _, _ in entries], size, left, right)
    for (name, color, style), (x, row) in zip(entries, places, strict=True):
        y_row = y + row * size * LEGEND_LINE
        if style in ("solid", "dash"):
            dash = ' stroke-dasharray="8 5"' if style == "dash" else ""
            canvas.add(
                f'<line x1="{x:.1f}" x2="{x + 28:.1f}" y1="{y_row:.1f}" y2="{y_row:.1f}" stroke="{color}" '
                f'stroke-width="3"{dash}/>'
            )
        else:
            canvas.add(_marker(x + 14, y_row, color, style))
        canvas.label(x + 34, y_row, name, anchor="start")


def _marker(x: float, y: float, color: str, style: str, radius: float = 6) -> str:
    if style == "diamond":
        r = radius * 1.25
        return (
            f'<path d="M{x:.1f} {y - r:.1f}L{x + r:.1f} {y:.1f}L{x:.1f} {y + r:.1f}L{x - r:.1f} {y:.1f}Z" '
            f'fill="{color}"/>'
        )
    if style == "square":
        return (
            f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}" '
            f'height="{2 * radius:.1f}" fill="{color}"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{color}"/>'


class Layout(NamedTuple):
    canvas: Canvas
    left: float  # the plot area
    top: float
    width: float
    height: float
    legend_y: float  # the middle of the legend's first row


def _layout(
    large: bool,
    title: str,
    legend: Sequence[str],
    y_ticks: Sequence[float],
    y_title: str,
    x_title: str,
    width: float,
    height: float,
) -> Layout:
    """The canvas, and where the plot area goes once the title, the legend (wrapped onto as many rows as it
    needs) and the axes have room. A title too long for the width is drawn smaller."""
    canvas = Canvas(20 if large else 14)
    size = canvas.size
    widest_tick = max((text_width(tick_label(t), size) for t in y_ticks), default=size)
    left = (size * 2 if y_title else size * 0.5) + widest_tick + 10
    right = width - size
    title_h = size * 2.2 if title else size
    rows = _legend_rows(legend, size, left, right)
    top = title_h + rows * size * LEGEND_LINE
    bottom = size * (3.3 if x_title else 2)
    if title:
        title_size = min(size + 2.0, (width - 10) / max(0.62 * len(title), 1.0))
        canvas.label(width / 2, size * 1.1, title, size=title_size, bold=True)
    return Layout(canvas, left, top, right - left, height - top - bottom, title_h + size * 0.6)


def bars(
    groups: dict[str, Sequence[float]],
    labels: Sequence[str],
    *,
    title: str = "",
    y_title: str = "",
    y_range: tuple[float, float] | None = None,
    large: bool = False,
) -> str:
    """Grouped bars: one colour per entry of `groups`, one group per label, each value written above its bar."""
    values = [np.asarray(v, dtype=np.float64) for v in groups.values()]
    all_values = np.concatenate(values) if values else np.zeros(0)
    y = axis(all_values, include_zero=True, pad=0.15, span=y_range)
    width, height = (900, 480) if large else (720, 360)
    names = list(groups) if len(groups) > 1 else []
    canvas, left, top, plot_w, plot_h, legend_y = _layout(large, title, names, y.ticks, y_title, "", width, height)
    frame = Frame(left, top, plot_w, plot_h, Axis(0.0, 1.0, False, []), y)
    _frame_ui(canvas, frame, "", y_title)
    size = canvas.size
    slot = plot_w / max(len(labels), 1)
    bar_w = slot * 0.8 / max(len(values), 1)
    zero = frame.py(min(max(0.0, y.low), y.high))
    for g, series in enumerate(values):
        color = SERIES_COLORS[g % len(SERIES_COLORS)]
        for k, value in enumerate(series):
            x0 = left + k * slot + slot * 0.1 + g * bar_w
            if math.isfinite(value):
                top_y = frame.py(min(max(value, y.low), y.high))
                canvas.add(
                    f'<rect x="{x0:.1f}" y="{min(top_y, zero):.1f}" width="{bar_w - 2:.1f}" '
                    f'height="{abs(zero - top_y):.1f}" fill="{color}"/>'
                )
                above = min(top_y, zero) - size * 0.7
                canvas.label(x0 + (bar_w - 2) / 2, max(above, top - size * 0.2), f"{value:.3f}")
    for k, label in enumerate(labels):
        canvas.label(left + (k + 0.5) * slot, top + plot_h + size * 0.9, label)
    if len(groups) > 1:
        _legend(
            canvas,
            [(name, SERIES_COLORS[g % len(SERIES_COLORS)], "square") for g, name in enumerate(groups)],
            left,
            legend_y,
            left + plot_w,
        )
    return canvas.document(width, height)


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
    narrow: bool = False,
    large: bool = False,
) -> str:
    """Named series over x (`dashed` names the reference lines); `faint` (m, len(x)) adds thin grey paths
    without a legend (random walks, say); `log_axes` makes both axes logarithmic, ticked at the x values and at
    1-2-5 on y; `highlight` (x0, x1) shades that stretch of x; `narrow` draws it for half a page
    (smaller, so that its text is not shrunk further)."""
    xs = np.asarray(x, dtype=np.float64)
    ys = [np.asarray(v, dtype=np.float64) for v in series.values()]
    paths = np.zeros((0, xs.size)) if faint is None else np.asarray(faint, dtype=np.float64)
    every_y = np.concatenate([*ys, paths.reshape(-1)]) if ys or paths.size else np.zeros(0)
    x_axis = axis(xs, log=log_axes, ticks=list(xs) if log_axes else None, pad=0.02 if log_axes else 0.0)
    y_axis = axis(every_y, log=log_axes)
    width, height = ((600, 420) if large else (480, 340)) if narrow else ((900, 480) if large else (720, 380))
    canvas, left, top, plot_w, plot_h, legend_y = _layout(
        large, title, list(series), y_axis.ticks, y_title, x_title, width, height
    )
    frame = Frame(left, top, plot_w, plot_h, x_axis, y_axis)
    if highlight is not None:
        x0, x1 = (frame.px(min(max(v, x_axis.low), x_axis.high)) for v in highlight)
        canvas.add(
            f'<rect x="{x0:.1f}" y="{top:.1f}" width="{max(x1 - x0, 1):.1f}" height="{plot_h:.1f}" '
            'fill="gold" fill-opacity="0.2"/>'
        )
    _frame_ui(canvas, frame, x_title, y_title)
    for path in paths:
        canvas.add(_polyline(frame, xs, path, "rgba(100,100,100,0.3)", 1, False))
    entries = []
    for k, (name, values) in enumerate(zip(series, ys, strict=True)):
        color = SERIES_COLORS[k % len(SERIES_COLORS)]
        canvas.add(_polyline(frame, xs, values, color, 3, name in dashed))
        if markers:
            for a, b in zip(xs, values, strict=True):
                if frame.inside(a, b):
                    canvas.add(_marker(frame.px(a), frame.py(b), color, "circle", 4))
        entries.append((name, color, "dash" if name in dashed else "solid"))
    _legend(canvas, entries, left, legend_y, left + plot_w)
    return canvas.document(width, height)


def _polyline(frame: Frame, xs: np.ndarray, ys: np.ndarray, color: str, width: float, dashed: bool) -> str:
    """A path through the drawable points; it breaks where a value is missing (NaN, or ≤ 0 on a log axis).
    A long series is drawn through MAX_POINTS evenly spaced points of it (first and last included): more
    would not show on a plot this wide, and would only make the image heavier."""
    if xs.size > MAX_POINTS:
        keep = np.unique(np.linspace(0, xs.size - 1, MAX_POINTS).round().astype(int))
        xs, ys = xs[keep], ys[keep]
    ok = frame.inside(xs, ys)
    commands = []
    # each stretch of drawable points: "M x y L x y x y ...", in whole pixels (finer would not show)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(np.int8), [0]])))
    for first, stop in zip(edges[::2], edges[1::2], strict=True):
        points = np.rint(np.stack([frame.px(xs[first:stop]), frame.py(ys[first:stop])], axis=1)).astype(int)
        flat = points.ravel().tolist()
        commands.append(f"M{flat[0]} {flat[1]}" + ("L" + " ".join(map(str, flat[2:])) if len(flat) > 2 else ""))
    dash = ' stroke-dasharray="8 5"' if dashed else ""
    return (
        f'<path d="{"".join(commands)}" fill="none" stroke="{color}" stroke-width="{width}" '
        f'stroke-linejoin="round"{dash}/>'
    )


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
    large: bool = False,
) -> str:
    """Points `start` (n, 2) labelled with `labels`, points `end` (n, 2), an arrow from each start to its end,
    on equal axes so that lengths and angles read true."""
    start, end = np.asarray(start, dtype=np.float64), np.asarray(end, dtype=np.float64)
    points = np.concatenate([start, end])
    points = points[np.isfinite(points).all(axis=1)]
    centre = (points.min(axis=0) + points.max(axis=0)) / 2 if points.size else np.zeros(2)
    half = float(np.max(points.max(axis=0) - points.min(axis=0))) / 2 * 1.15 if points.size else 1.0
    half = half or 1.0
    width = height = 640 if large else 520
    spans = [(float(c - half), float(c + half)) for c in centre]
    x_axis, y_axis = (axis(np.array(s), span=s) for s in spans)
    canvas, left, top, plot_w, plot_h, legend_y = _layout(
        large, title, [start_name, end_name], y_axis.ticks, y_title, x_title, width, height
    )
    side = min(plot_w, plot_h)  # equal axes: one unit is as long across as up
    frame = Frame(left, top, side, side, x_axis, y_axis)
    _frame_ui(canvas, frame, x_title, y_title)
    start_color, end_color = SERIES_COLORS[0], SERIES_COLORS[1]
    canvas.add(
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="rgb(80,80,80)"/></marker></defs>'
    )
    for (x0, y0), (x1, y1), name in zip(start, end, labels, strict=True):
        if not (frame.inside(x0, y0) and frame.inside(x1, y1)):
            continue
        canvas.add(
            f'<line x1="{frame.px(x0):.1f}" y1="{frame.py(y0):.1f}" x2="{frame.px(x1):.1f}" '
            f'y2="{frame.py(y1):.1f}" stroke="rgb(80,80,80)" stroke-width="1.5" marker-end="url(#head)"/>'
        )
        canvas.add(_marker(frame.px(x0), frame.py(y0), start_color, "circle", 5))
        canvas.add(_marker(frame.px(x1), frame.py(y1), end_color, "diamond", 5))
        canvas.label(frame.px(x0), frame.py(y0) - canvas.size * 0.9, name)
    entries = [(start_name, start_color, "circle"), (end_name, end_color, "diamond")]
    _legend(canvas, entries, left, legend_y, left + plot_w)
    return canvas.document(left + side + canvas.size, top + side + canvas.size * 3.3)
