"""The SVG figures: well-formed with any label, the right colours and numbers, honest axes."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from plotly.colors import sample_colorscale

from engine import attention, lesson_scenario
from ui import svg
from ui.format import plain, signed

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = ["<img src=x onerror=alert(1)>", 'a"b', "x & y", "🐶🏽", "tab\there", "nul\x00bell\x07", "]]>", "é"]


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{NS}svg"
    return root


def texts(document: str) -> list[str]:
    return [element.text or "" for element in parse(document).iter(f"{NS}text")]


def fills(document: str) -> list[str]:
    return [element.get("fill") for element in parse(document).iter(f"{NS}rect")][1:]  # [0] is the background


def _plotly_rgb(color: str) -> tuple[int, ...]:
    return tuple(round(float(c)) for c in re.findall(r"[\d.]+", color)[:3])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-50, 50, allow_nan=False), min_size=1, max_size=12))
def test_signed_colours_are_plotlys_rdbu_centred_on_zero(values):
    z = np.array([values])
    bound = float(np.max(np.abs(z))) or 1.0
    expected = sample_colorscale("RdBu", [(v / bound + 1) / 2 for v in values])
    got = svg.cell_colors(z, "signed")[0]
    for mine, reference in zip(got, expected, strict=True):
        assert all(abs(a - b) <= 1 for a, b in zip(_plotly_rgb(mine), _plotly_rgb(reference), strict=True))


def test_weight_colours_are_plotlys_blues_from_0_to_1_and_masked_cells_have_none():
    z = np.array([[0.0, 0.25, 0.5, 1.0, -np.inf, np.nan]])
    got = svg.cell_colors(z, "weights")[0]
    expected = sample_colorscale("Blues", [0.0, 0.25, 0.5, 1.0])
    assert [_plotly_rgb(c) for c in got[:4]] == [_plotly_rgb(c) for c in expected]
    assert got[4:] == [None, None]


def test_a_heatmap_writes_every_value_in_its_cell_with_the_lessons_format():
    scenario = lesson_scenario()
    result = attention(scenario.x, scenario.w_q, scenario.w_k, scenario.w_v)
    tokens = list(scenario.tokens)
    figure = svg.heatmaps(
        [svg.Panel(result.scores, tokens, tokens, title="S"), svg.Panel(result.weights, tokens, tokens, "weights")]
    )
    written = texts(figure)
    for value in result.scores.reshape(-1):
        assert signed(value) in written
    for value in result.weights.reshape(-1):
        assert plain(value) in written
    assert len(fills(figure)) == 2 * len(tokens) ** 2


def test_masked_cells_are_grey_and_say_so():
    z = np.array([[0.5, -np.inf], [0.2, 0.8]])
    figure = svg.heatmaps([svg.Panel(z, ["a", "b"], ["a", "b"], "weights")], masked_text="masked")
    assert texts(figure).count("masked") == 1
    assert fills(figure).count(svg.MASKED) == 1


@pytest.mark.parametrize("label", HOSTILE)
def test_any_label_gives_well_formed_svg_showing_it_as_text(label):
    values = np.array([[1.0, -1.0], [0.5, 0.0]])
    figures = [
        svg.heatmaps([svg.Panel(values, [label, "b"], [label, "d"], title=label)], row_title=label),
        svg.bars({label: [0.2, 0.8]}, [label, "b"], title=label, y_title=label),
        svg.lines([1, 2, 3], {label: [1.0, 2.0, 3.0]}, title=label, x_title=label, y_title=label),
        svg.arrows(values, values + 1, [label, "b"], start_name=label, end_name=label, title=label),
    ]
    shown = svg._NOT_XML.sub("", label)
    for figure in figures:
        assert shown in texts(figure)
        assert "<img" not in figure


def test_wider_matrices_get_two_decimals_then_colour_only():
    for n, pattern in ((svg.MAX_CELL_TEXT + 1, r"[+-]\d\.\d{2}"), (svg.MAX_SMALL_TEXT + 1, None)):
        values = np.linspace(-1, 1, n * n).reshape(n, n)
        labels = [f"t{i}" for i in range(n)]
        figure = svg.heatmaps([svg.Panel(values, labels, labels)])
        written = [text for text in texts(figure) if re.fullmatch(r"[+-]\d\.\d+", text)]
        assert len(fills(figure)) == n * n
        if pattern is None:
            assert written == []
        else:
            assert len(written) == n * n and all(re.fullmatch(pattern, text) for text in written)


def _width(figure: str) -> float:
    return float(parse(figure).get("width"))


def test_titles_and_legends_stay_inside_the_figure():
    one = np.array([[0.5]])
    titles = ["Scores Q · Kᵀ", "Scores ÷ 1.414", "Pesos (softmax)"]
    figure = svg.heatmaps([svg.Panel(one, ["el"], ["el"], title=title) for title in titles], row_title="quién pregunta")
    centres = [float(e.get("x")) for e in parse(figure).iter(f"{NS}text") if e.text in titles]
    half_widths = [svg.text_width(title, 16) / 2 for title in titles]
    assert len(centres) == len(titles)
    for k in range(len(titles) - 1):
        assert centres[k] + half_widths[k] <= centres[k + 1] - half_widths[k + 1]  # neighbours do not overlap
    assert centres[-1] + half_widths[-1] <= _width(figure)
    names = {f"columna {j} (sin)": [0.0, 1.0] for j in range(4)}
    chart = svg.lines([0, 1], names, title="Las ondas de PE (columnas 0, 1 y las últimas dos)", narrow=True)
    for element in parse(chart).iter(f"{NS}text"):
        if element.text in names:  # each legend entry starts and ends inside the figure
            assert float(element.get("x")) + svg.text_width(element.text, 14) <= _width(chart)


def test_lone_surrogates_are_dropped_so_the_figure_can_be_encoded():
    figure = svg.heatmaps([svg.Panel(np.ones((1, 1)), ["a\ud800b"], ["c"])])
    figure.encode("utf-8")
    assert "ab" in texts(figure)


def test_long_series_are_drawn_through_at_most_max_points():
    x = np.arange(5000)
    figure = svg.lines(x, {"walk": np.sin(x / 100)})
    path = next(p for p in parse(figure).iter(f"{NS}path") if p.get("stroke-width") == "3")
    numbers = re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))
    assert len(numbers) == 2 * svg.MAX_POINTS  # an x and a y per point


def test_a_line_breaks_where_a_value_cannot_be_drawn():
    figure = svg.lines([1, 2, 3, 4, 5], {"s": [1.0, 2.0, np.nan, -1.0, 5.0]}, log_axes=True)
    path = next(p for p in parse(figure).iter(f"{NS}path") if p.get("stroke-width") == "3")
    assert re.findall(r"[ML]", path.get("d")) == ["M", "L", "M"]  # NaN and a negative on a log axis: skipped


def test_bars_are_as_tall_as_their_values():
    figure = svg.bars({"w": [0.25, 0.5, 1.0]}, ["a", "b", "c"])
    heights = [float(r.get("height")) for r in parse(figure).iter(f"{NS}rect")][1:]
    assert heights[1] == pytest.approx(2 * heights[0], abs=0.2)
    assert heights[2] == pytest.approx(4 * heights[0], abs=0.2)
    assert {"0.250", "0.500", "1.000"} <= set(texts(figure))


def test_arrows_use_equal_axes():
    start = np.array([[0.0, 0.0], [10.0, 1.0]])
    figure = svg.arrows(start, start + [[3.0, 4.0], [0.0, 0.0]], ["a", "b"], start_name="x", end_name="y")
    line = parse(figure).findall(f".//{NS}line[@marker-end]")[0]
    dx = float(line.get("x2")) - float(line.get("x1"))
    dy = float(line.get("y1")) - float(line.get("y2"))
    assert dy / dx == pytest.approx(4 / 3, rel=0.02)  # a (3, 4) arrow keeps its angle


@settings(max_examples=200, deadline=None)
@given(st.floats(-1e6, 1e6), st.floats(1e-6, 1e6))
def test_nice_ticks_are_round_even_and_inside_the_range(low, span):
    span = max(span, 1e-4 * abs(low))  # a span far below the float spacing of its values has no round ticks
    high = low + span
    ticks = svg.nice_ticks(low, high)
    assert 1 <= len(ticks) <= 11
    slack = 1e-6 * span  # a tick may sit a rounding error outside
    assert all(low - slack <= tick <= high + slack for tick in ticks)
    gaps = np.diff(ticks)
    if gaps.size:
        step = gaps[0]
        assert np.allclose(gaps, step, rtol=1e-6)
        mantissa = step / 10 ** math.floor(math.log10(step))
        assert any(math.isclose(mantissa, m, rel_tol=1e-6) for m in (1, 2, 5, 10))
