"""What every figure shares: the sizes presentation mode enlarges (`Style`), labels made literal and short, the
colour scales and the text colour that reads on a cell, how wide text is, and a title's place."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import plotly.colors

# one named line or group of bars: a list of numbers or a 1-d array
Values: TypeAlias = Sequence[float] | np.ndarray

# ColorBrewer's colour-blind-safe scales, as plotly ships them: red for negative, near-white at 0 (with a
# symmetric range), blue for positive; weights from white (0) to dark blue (1).
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


def title_layout(text: str, style: Style, pad_top: int = 4) -> dict:
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
