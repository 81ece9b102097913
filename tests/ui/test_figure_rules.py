"""The figures' layout rules, one each: column labels upright or turned, and the colour scales plotly ships.

The expected values are worked out here from the rule's own words (a label's width is 0.62 × its font per
character; upright while the widest fits its cell with 4 px to spare), not read from the module's helpers.
"""

import numpy as np
import plotly.colors
import pytest

from ui import figure_specs
from ui.figure_specs import Heatmap, Style

STYLES = {"normal": Style(), "presentation": Style.for_mode(True)}


def fits_upright(widest: int, cell: float, font: int) -> bool:
    return widest * font * 0.62 <= cell - 4


def labels(count: int, length: int) -> list[str]:
    return [f"{k}".rjust(length, "w")[:length] for k in range(count)]


def heatmap_cell(figure, columns: int) -> float:
    margin = figure.layout.margin
    return (figure.layout.width - margin.l - margin.r) / columns


CASES = [(columns, length) for columns in (2, 3, 4, 6, 8, 9, 10, 12, 16) for length in (1, 2, 3, 4, 5, 6, 8, 10)]


@pytest.mark.parametrize("style_name", STYLES)
def test_a_heatmaps_column_labels_are_upright_exactly_while_the_widest_fits_its_cell(style_name):
    style = STYLES[style_name]
    seen = set()
    for columns, length in CASES:
        spec = Heatmap(np.zeros((2, columns)), ["a", "b"], labels(columns, length))
        figure = figure_specs.heatmap_figure(spec, style, "en")
        upright = fits_upright(length, heatmap_cell(figure, columns), style.font)
        assert (figure.layout.xaxis.tickangle == 0) == upright, (columns, length)
        seen.add(upright)
    assert seen == {True, False}  # the cases reach both sides of the rule


@pytest.mark.parametrize("style_name", STYLES)
def test_a_grids_column_labels_follow_the_same_rule_as_a_heatmaps(style_name):
    style = STYLES[style_name]
    seen = set()
    for columns, length in CASES:
        panel = Heatmap(np.zeros((2, columns)), ["a", "b"], labels(columns, length), "p", kind="weights")
        figure = figure_specs.grid_figure([panel], style, "en", per_row=1)
        upright = fits_upright(length, heatmap_cell(figure, columns), style.font)
        assert (figure.layout.xaxis.tickangle == 0) == upright, (columns, length)
        seen.add(upright)
    assert seen == {True, False}


def test_a_label_just_wider_than_its_cell_less_the_gap_is_turned_on_a_grid_too():
    style = Style()
    # one 10-character column in a grid of one panel gets the largest cell, 56 px; 6 characters take 52.08 px
    panel = Heatmap(np.zeros((1, 1)), ["a"], ["wwwwww"], "p", kind="weights")
    figure = figure_specs.grid_figure([panel], style, "en", per_row=1)
    assert heatmap_cell(figure, 1) == style.cell
    assert figure.layout.xaxis.tickangle == -90


@pytest.mark.parametrize(
    ("kind", "colors"), [("signed", plotly.colors.diverging.RdBu), ("weights", plotly.colors.sequential.Blues)]
)
def test_the_colour_scales_are_plotlys_own(kind, colors):
    scale = figure_specs.SIGNED_SCALE if kind == "signed" else figure_specs.WEIGHTS_SCALE
    assert [color for _, color in scale] == list(colors)
    assert [stop for stop, _ in scale] == pytest.approx(np.linspace(0, 1, len(colors)))


@pytest.mark.parametrize("kind", ["signed", "weights"])
def test_a_cells_colour_is_the_one_plotly_samples_from_the_scale(kind):
    scale = figure_specs.SIGNED_SCALE if kind == "signed" else figure_specs.WEIGHTS_SCALE
    fractions = np.linspace(0, 1, 41)
    ours = figure_specs.scale_colors(kind, fractions)
    theirs = np.array([plotly.colors.unlabel_rgb(c) for c in plotly.colors.sample_colorscale(scale, list(fractions))])
    assert np.abs(ours - theirs).max() <= 0.5 + 1e-9  # plotly rounds each channel to a whole number


def test_a_fraction_outside_zero_to_one_takes_the_scales_end():
    ends = figure_specs.scale_colors("signed", np.array([-0.5, 1.5]))
    assert ends.tolist() == [
        list(plotly.colors.unlabel_rgb(c)) for c in (plotly.colors.diverging.RdBu[0], plotly.colors.diverging.RdBu[-1])
    ]
