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


@pytest.mark.parametrize("style_name", STYLES)
@pytest.mark.parametrize("bars", [3, 4, 8, 12, 16])
def test_values_over_bars_fit_their_bars_at_the_figures_size_grouped_or_one_panel_per_group(style_name, bars):
    """plotly shrinks a value wider than its bar (the √d_k page's 24 values to 15 px in presentation mode): the
    values are written at the figure's size over bars they fit, three groups side by side while they do, else one
    panel per group, one above the other."""
    style = STYLES[style_name]
    groups = {name: np.linspace(0.05, 1.0, bars) for name in ("sin dividir", "÷ √d_k = 8", "÷ d_k = 64")}
    figure = figure_specs.bars_figure(groups, [f"#{j + 1}" for j in range(bars)], style, "es", decimals=2)
    panels = len([key for key in figure.layout.to_plotly_json() if key.startswith("yaxis")])
    assert panels in (1, 3)
    margin = figure.layout.margin
    # bars fill 80% of a group's slot side by side, 90% in panels; «0,05»: three digits of 0.55 × the font, a comma
    # of 0.3
    plot = figure.layout.width - margin.l - margin.r
    needed = style.cell_font * (3 * 0.55 + 0.3) + 6
    assert needed <= plot / bars * (0.8 / 3 if panels == 1 else 0.9), "each value fits its bar with 6 px to spare"
    assert (panels == 3) == (needed > plot / bars * 0.8 / 3), "side by side while they fit"
    assert all(trace.textfont.size == style.cell_font for trace in figure.data)
    if panels == 3:  # each panel names its group, over it, and the values of the tallest bar fit under the next
        assert [a.text for a in figure.layout.annotations] == list(groups)
        assert not figure.layout.showlegend
    else:
        assert figure.layout.showlegend


@pytest.mark.parametrize("style_name", STYLES)
@pytest.mark.parametrize("bars", [2, 4, 5, 8])
def test_values_given_as_texts_are_written_and_measured_as_given(style_name, bars):
    """The live class's bars give their values as percentages («100 %»): those are written over the bars, and it is
    their width that decides side by side or one panel per round."""
    style = STYLES[style_name]
    rounds = {"Ronda 1": np.linspace(0.0, 100.0, bars), "Ronda 2": np.linspace(100.0, 0.0, bars)}
    texts = {name: [f"{round(v)}\u00a0%" for v in values] for name, values in rounds.items()}
    figure = figure_specs.bars_figure(
        rounds, [f"g{j}" for j in range(bars)], style, "es", y_range=(0.0, 115.0), texts=texts
    )
    assert [list(trace.text) for trace in figure.data] == list(texts.values())
    panels = len([key for key in figure.layout.to_plotly_json() if key.startswith("yaxis")])
    margin = figure.layout.margin
    plot = figure.layout.width - margin.l - margin.r
    needed = style.cell_font * (3 * 0.55 + 2 * 0.62) + 6  # «100 %»: three digits, a space and a sign of 0.62
    assert (panels == 2) == (needed > plot / bars * 0.8 / 2), "side by side while the widest given text fits"
    assert needed <= plot / bars * (0.8 / 2 if panels == 1 else 0.9)
