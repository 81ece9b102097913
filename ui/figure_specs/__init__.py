"""The pages' figures as plotly specs: heatmaps of matrices, bars, lines and arrows.

Pure functions from numbers and labels to a `go.Figure`; no Streamlit here (`ui.charts` shows them). One module per
kind of figure: `heatmaps`, `plots` (bars, lines, arrows), `grids` (small multiples, every head of a model), `blocks`
(the encoder block); `common` holds what they share. The names used outside the package are imported here
(the rest stays in its module).

Why the figures are built the way they are (measured, README › Speed): most of what a small plotly figure
costs in the browser is layout work plotly redoes on every update (automatic margins and sizes, range
computation) and, on the server, validation. So every figure here has a fixed size in pixels that depends on
its matrix (not on its longest label), fixed axis ranges, fixed margins, and is built from plain dicts
without validation. Long labels are shortened on the axes and given in full in the hover text.

Labels are user text: plotly reads a few HTML tags in text (<b>, <a href>, <br>, ...), so every label goes
through `plain_text`, which escapes them, and the text is shown literally.
"""

from __future__ import annotations

from ui.figure_specs.blocks import BlockLabels, block_figure
from ui.figure_specs.common import (
    MASKED,
    MASKED_FILL,
    MASKED_RGB,
    MAX_WRITTEN_COLUMNS,
    SERIES_COLORS,
    SIGNED_SCALE,
    WEIGHTS_SCALE,
    Style,
    Values,
    luminance,
    scale_colors,
    short_label,
    text_color,
)
from ui.figure_specs.grids import grid_columns, grid_figure, small_multiples_figure
from ui.figure_specs.heatmaps import Heatmap, cell_text, heatmap_figure, signed_range
from ui.figure_specs.plots import arrows_figure, bars_figure, lines_figure

__all__ = [
    "MASKED",
    "MASKED_FILL",
    "MASKED_RGB",
    "MAX_WRITTEN_COLUMNS",
    "SERIES_COLORS",
    "SIGNED_SCALE",
    "WEIGHTS_SCALE",
    "BlockLabels",
    "Heatmap",
    "Style",
    "Values",
    "arrows_figure",
    "bars_figure",
    "block_figure",
    "cell_text",
    "grid_columns",
    "grid_figure",
    "heatmap_figure",
    "lines_figure",
    "luminance",
    "scale_colors",
    "short_label",
    "signed_range",
    "small_multiples_figure",
    "text_color",
]
