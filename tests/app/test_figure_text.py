"""What every kind of heatmap writes: values readable on their cells in either theme, and numbers (axes and
colour bars) at the presentation size. Built from `ui.figure_specs` directly: the pages' own figures are checked in
test_figures.py and in the browser."""

import numpy as np
import pytest

from ui import figure_specs
from ui.figure_specs import Heatmap, Style

PRESENTATION = Style.for_mode(True)
MIN_CONTRAST = 4.5


def contrast(text: str, rgb: tuple[float, float, float]) -> float:
    """WCAG contrast of black or white text (as the figures write it) on a cell of colour `rgb`."""
    text_lum = 0.0 if text == "#000000" else 1.0
    cell_lum = figure_specs.luminance(rgb)
    high, low = max(text_lum, cell_lum), min(text_lum, cell_lum)
    return (high + 0.05) / (low + 0.05)


def cell_colour(kind: str, value: float, zrange: tuple[float, float]) -> tuple[float, float, float]:
    """The colour plotly paints a cell: the colour scale at the value's place in the range, read off the
    scale's own stops (linear between them), independently of the figures' helper."""
    scale = figure_specs.WEIGHTS_SCALE if kind == "weights" else figure_specs.SIGNED_SCALE
    at = (value - zrange[0]) / (zrange[1] - zrange[0])
    stops = [stop for stop, _ in scale]
    rgbs = np.array([[float(c) for c in colour[4:-1].split(",")] for _, colour in scale])
    return tuple(float(np.interp(at, stops, rgbs[:, channel])) for channel in range(3))


def text_layers(figure) -> list:
    return [trace for trace in figure.data if trace.type == "scatter" and trace.mode == "text"]


GRID_VALUES = [np.linspace(0, 1, 9).reshape(3, 3), np.linspace(1, 0, 9).reshape(3, 3)]


def test_the_multi_head_grid_writes_each_panels_values_in_black_or_white_whichever_reads_on_its_cell():
    panels = [Heatmap(v, ["a", "b", "c"], ["a", "b", "c"], f"h{k}", kind="weights") for k, v in enumerate(GRID_VALUES)]
    figure = figure_specs.grid_figure(panels, Style(), "en", per_row=2)
    layers = text_layers(figure)
    assert [(layer.xaxis, layer.yaxis) for layer in layers] == [("x", "y"), ("x2", "y2")]  # one per panel
    for layer, values in zip(layers, GRID_VALUES, strict=True):
        assert list(layer.text) == [f"{v:.3f}" for v in values.ravel()]
        for value, colour in zip(values.ravel(), layer.textfont.color, strict=True):
            assert contrast(colour, cell_colour("weights", value, (0.0, 1.0))) >= MIN_CONTRAST, (value, colour)


def test_a_masked_cell_of_the_grid_is_drawn_grey_on_both_themes():
    masked = np.eye(3, dtype=bool)
    panels = [Heatmap(GRID_VALUES[0], ["a", "b", "c"], ["a", "b", "c"], "h", kind="weights", masked=masked)]
    figure = figure_specs.grid_figure(panels, Style(), "en", per_row=1)
    grey = [
        t for t in figure.data if t.type == "heatmap" and (t.colorscale or [[0, ""]])[0][1] == figure_specs.MASKED_FILL
    ]
    assert len(grey) == 1
    assert np.array_equal(~np.isnan(np.array(grey[0].z, dtype=float)), masked)


def tick_sizes(figure) -> list[float]:
    """Every number or name size a figure sets: its axes' ticks and its colour bars' ticks."""
    layout = figure.to_plotly_json()["layout"]
    sizes = [axis["tickfont"]["size"] for name, axis in layout.items() if name.startswith(("xaxis", "yaxis"))]
    bars = [layout.get("coloraxis", {}).get("colorbar")] + [trace.get("colorbar") for trace in figure.to_dict()["data"]]
    sizes += [bar["tickfont"]["size"] for bar in bars if bar and "tickfont" in bar]
    return sizes


@pytest.mark.parametrize("kind", ["heatmap", "grid", "small multiples"])
def test_in_presentation_mode_every_axis_and_colour_bar_number_is_at_least_20_px(kind):
    values = np.full((3, 3), 1 / 3)
    spec = Heatmap(values, ["a", "b", "c"], ["a", "b", "c"], "t", kind="weights")
    figure = {
        "heatmap": lambda: figure_specs.heatmap_figure(spec, PRESENTATION, "en"),
        "grid": lambda: figure_specs.grid_figure([spec, spec], PRESENTATION, "en", per_row=2),
        "small multiples": lambda: figure_specs.small_multiples_figure(
            np.full((2, 2, 3, 3), 1 / 3), PRESENTATION, "en"
        ),
    }[kind]()
    sizes = tick_sizes(figure)
    assert len(sizes) >= 3  # two axes and a colour bar at least
    assert min(sizes) >= 20, sizes
