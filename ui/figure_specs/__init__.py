"""The pages' figures as plotly specs: heatmaps of matrices, bars, lines and arrows.

Pure functions from numbers and labels to a `go.Figure`; no Streamlit here (`ui.charts` shows them). One module per
kind of figure: `heatmaps`, `plots` (bars, lines, arrows), `grids` (small multiples, every head of a model), `blocks`
(the encoder block); `common` holds what they share. The names the app uses are imported here.

Why the figures are built the way they are (measured, README › Speed): most of what a small plotly figure
costs in the browser is layout work plotly redoes on every update (automatic margins and sizes, range
computation) and, on the server, validation. So every figure here has a fixed size in pixels that depends on
its matrix (not on its longest label), fixed axis ranges, fixed margins, and is built from plain dicts
without validation. Long labels are shortened on the axes and given in full in the hover text.

Labels are user text: plotly reads a few HTML tags in text (<b>, <a href>, <br>, ...), so every label goes
through `plain_text`, which escapes them, and the text is shown literally.
"""

from __future__ import annotations

from ui.figure_specs.blocks import (
    BLOCK_FILL,
    BLOCK_LINE,
    BLOCK_TEXT,
    BlockLabels,
    block_figure,
)
from ui.figure_specs.common import (
    BLACK_TEXT_ABOVE,
    GLYPH_WIDTH,
    LABEL_GAP,
    MASKED,
    MASKED_FILL,
    MASKED_RGB,
    MAX_LABEL_CHARS,
    MAX_LABELLED,
    MAX_WRITTEN_COLUMNS,
    MIN_CELL,
    SCALE_RGB,
    SERIES_COLORS,
    SIGNED_COLORS,
    SIGNED_SCALE,
    WEIGHTS_COLORS,
    WEIGHTS_SCALE,
    Style,
    Values,
    column_labels_height,
    label_room,
    luminance,
    plain_text,
    scale_colors,
    short_label,
    text_color,
    text_width,
    upright_columns,
)
from ui.figure_specs.grids import (
    SELECTED_FRAME,
    grid_columns,
    grid_figure,
    mosaic,
    small_multiples_figure,
)
from ui.figure_specs.heatmaps import (
    Heatmap,
    cell_text,
    heatmap_figure,
    signed_range,
)
from ui.figure_specs.plots import (
    BAR_GAP,
    BAR_TEXT_PAD,
    DIGIT_WIDTH,
    NARROWEST,
    PANEL_BAR_GAP,
    POINT_WIDTH,
    arrows_figure,
    bar_values_fit,
    bars_figure,
    lines_figure,
    number_width,
)

__all__ = [
    "BAR_GAP",
    "BAR_TEXT_PAD",
    "BLACK_TEXT_ABOVE",
    "BLOCK_FILL",
    "BLOCK_LINE",
    "BLOCK_TEXT",
    "DIGIT_WIDTH",
    "GLYPH_WIDTH",
    "LABEL_GAP",
    "MASKED",
    "MASKED_FILL",
    "MASKED_RGB",
    "MAX_LABELLED",
    "MAX_LABEL_CHARS",
    "MAX_WRITTEN_COLUMNS",
    "MIN_CELL",
    "NARROWEST",
    "PANEL_BAR_GAP",
    "POINT_WIDTH",
    "SCALE_RGB",
    "SELECTED_FRAME",
    "SERIES_COLORS",
    "SIGNED_COLORS",
    "SIGNED_SCALE",
    "WEIGHTS_COLORS",
    "WEIGHTS_SCALE",
    "BlockLabels",
    "Heatmap",
    "Style",
    "Values",
    "arrows_figure",
    "bar_values_fit",
    "bars_figure",
    "block_figure",
    "cell_text",
    "column_labels_height",
    "grid_columns",
    "grid_figure",
    "heatmap_figure",
    "label_room",
    "lines_figure",
    "luminance",
    "mosaic",
    "number_width",
    "plain_text",
    "scale_colors",
    "short_label",
    "signed_range",
    "small_multiples_figure",
    "text_color",
    "text_width",
    "upright_columns",
]
