"""The plotly figures as the browser receives them (each st.plotly_chart's JSON): the lesson's values in the
cells, one colour range per comparison, axis titles, hover text and a text description for screen readers.

Expected numbers come from tests/app/lesson.py (numpy from the lesson's inputs) and are written by this test's
own formatter, never copied from the app.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import plotly.colors
import pytest
from streamlit.runtime.state.common import user_key_from_element_id
from streamlit.testing.v1 import AppTest

from engine import Scale, lesson_scenario
from engine.scenario_io import encode_scenario
from tests.app import lesson
from tests.app.helpers import Chart, by_label, chart, charts, figure_elements, go_to_part, no_exception, open_page
from tests.app.lesson import TOKENS, number, vector
from tests.app.test_share import open_link
from ui.i18n import LANGUAGES

REF = lesson.attention()
EN = LANGUAGES["en"]
DIMS = [f"d{j}" for j in range(4)]
# The walkthrough's figures, part by part, and the builder's: key → the reference matrix it shows.
WALKTHROUGH = {
    1: {"walk_q": "q", "walk_k": "k", "walk_v": "v"},
    2: {"walk_s": "scores"},
    3: {"walk_s3": "scores", "walk_s3b": "scaled"},
    4: {"walk_w4": "weights"},
    5: {"walk_x5": "x", "walk_o5": "output"},
}
BUILDER = {
    "b_q": "q",
    "b_k": "k",
    "b_v": "v",
    "b_scores": "scores",
    "b_scaled": "scaled",
    "b_weights": "weights",
    "b_x": "x",
    "b_out": "output",
}
SIGNED = {"q", "k", "v", "scores", "scaled", "x", "output"}
ATTENTION = {"scores", "scaled", "weights"}  # rows: the token that asks; columns: the token looked at


def reference(name: str) -> np.ndarray:
    return lesson.X if name == "x" else REF[name]


def cell_texts(matrix: np.ndarray, signed: bool, decimals: int = 3) -> list[list[str]]:
    return [[number(v, decimals, sign=signed) for v in row] for row in matrix]


@pytest.fixture(scope="module")
def walkthrough_charts() -> dict[str, Chart]:
    at = open_page("pages/walkthrough.py", "en")
    found = {}
    for part in range(1, 6):
        go_to_part(at, part)
        found |= {key: chart(at, key) for key in WALKTHROUGH[part]}
    return found


@pytest.fixture(scope="module")
def builder_charts() -> dict[str, Chart]:
    return {c.key: c for c in charts(open_page("pages/builder.py", "en"))}


def shown_figures(walkthrough_charts, builder_charts):
    names = {key: name for part in WALKTHROUGH.values() for key, name in part.items()} | BUILDER
    return [(key, names[key], figure) for key, figure in (walkthrough_charts | builder_charts).items()]


def test_every_figure_of_the_two_pages_is_here(walkthrough_charts, builder_charts):
    assert set(walkthrough_charts) == {key for part in WALKTHROUGH.values() for key in part}
    assert set(builder_charts) == set(BUILDER)


def test_the_cells_hold_the_lessons_values(walkthrough_charts, builder_charts):
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        assert figure.trace["type"] == "heatmap"
        assert figure.cell_texts == cell_texts(reference(name), name in SIGNED), key
        assert np.allclose(figure.trace["z"], reference(name), rtol=0, atol=1e-9), key
        assert figure.theme == "streamlit"  # the app's light or dark theme


def test_the_weights_cell_perro_to_come_is_the_lessons_0_332(builder_charts):
    assert builder_charts["b_weights"].cell_texts[1][2] == "0.332"


def test_scores_and_scaled_scores_share_one_range_symmetric_about_zero(walkthrough_charts, builder_charts):
    largest = float(np.max(np.abs(REF["scores"])))  # 1.357: come → perro
    for scores, scaled in (("walk_s3", "walk_s3b"), ("b_scores", "b_scaled")):
        figures = (walkthrough_charts | builder_charts)[scores], (walkthrough_charts | builder_charts)[scaled]
        for figure in figures:
            assert (figure.trace["zmin"], figure.trace["zmax"]) == pytest.approx((-largest, largest), abs=1e-9)
        # on that one range, dividing pales the colours: the scaled cells reach half as far
        assert np.max(np.abs(figures[1].trace["z"])) == pytest.approx(largest / 2, abs=1e-9)
        assert [f.trace["showscale"] for f in figures] == [False, True]  # one colour bar for the pair


def test_q_k_v_share_one_range_and_x_and_output_another(walkthrough_charts, builder_charts):
    groups = {
        ("walk_q", "walk_k", "walk_v"): max(np.max(np.abs(REF[m])) for m in ("q", "k", "v")),  # 1.391: K_come[0]
        ("b_q", "b_k", "b_v"): max(np.max(np.abs(REF[m])) for m in ("q", "k", "v")),
        ("walk_x5", "walk_o5"): max(np.max(np.abs(lesson.X)), np.max(np.abs(REF["output"]))),  # 1.91: x_come[3]
        ("b_x", "b_out"): max(np.max(np.abs(lesson.X)), np.max(np.abs(REF["output"]))),
    }
    figures = walkthrough_charts | builder_charts
    for keys, largest in groups.items():
        ranges = {(figures[key].trace["zmin"], figures[key].trace["zmax"]) for key in keys}
        assert ranges == {(-largest, largest)}, keys
        assert [figures[key].trace["showscale"] for key in keys] == [False] * (len(keys) - 1) + [True]


def test_weights_are_always_drawn_from_0_to_1(walkthrough_charts, builder_charts):
    for key in ("walk_w4", "b_weights"):
        figure = (walkthrough_charts | builder_charts)[key]
        assert (figure.trace["zmin"], figure.trace["zmax"]) == (0.0, 1.0)


def test_the_colour_scales_are_colour_blind_safe(walkthrough_charts, builder_charts):
    # ColorBrewer's RdBu (diverging about 0) for signed values and Blues for weights, as plotly ships them
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        expected = plotly.colors.sequential.Blues if name == "weights" else plotly.colors.diverging.RdBu
        assert [color for _, color in figure.trace["colorscale"]] == expected, key


def test_attention_figures_say_which_axis_asks_and_which_is_looked_at(walkthrough_charts, builder_charts):
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        axes = figure.layout["xaxis"], figure.layout["yaxis"]
        assert [axis["ticktext"] for axis in axes][1] == list(TOKENS), key  # rows: the tokens
        if name in ATTENTION:
            assert [axis["title"]["text"] for axis in axes] == [EN["matrix.cols_key"], EN["matrix.rows_query"]], key
            assert axes[0]["ticktext"] == list(TOKENS)
        else:
            assert axes[1]["title"]["text"] == EN["matrix.rows_token"], key
            assert axes[0]["ticktext"] == DIMS


def test_every_heatmap_names_both_of_its_axes(walkthrough_charts, builder_charts):
    for key, _, figure in shown_figures(walkthrough_charts, builder_charts):
        assert figure.layout["xaxis"]["title"]["text"], key
        assert figure.layout["yaxis"]["title"]["text"], key


def test_hover_names_the_cell_and_gives_its_value(walkthrough_charts, builder_charts):
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        columns = TOKENS if name in ATTENTION else DIMS
        matrix = reference(name)
        for i, row in enumerate(figure.trace["customdata"]):
            for j, hover in enumerate(row):
                first = hover.split("<br>")[0]
                assert first == f"{TOKENS[i]} → {columns[j]}: {number(matrix[i, j], 4, sign=name in SIGNED)}", key
        assert figure.trace["hovertemplate"] == "%{customdata}<extra></extra>"


def test_hover_on_a_score_or_weight_cell_gives_the_arithmetic_of_its_own_value(walkthrough_charts, builder_charts):
    """A score says Q·K; a scaled score adds its division; a weight adds the softmax's result (with T when it is
    not 1). No more: a temperature step then leaves the scores' figures as they were (not drawn again)."""
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        if name not in ATTENTION:
            continue
        for i in range(3):
            for j in range(3):
                # the division as the derivations write it: the score as shown, ÷ 2, rounded half up, "≈" if it
                # rounds (1.223 / 2 = 0.6115 ≈ 0.612; 0.954 / 2 = 0.477)
                shown = Decimal(number(REF["scores"][i, j]))
                half = (shown / 2).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
                op = "=" if half == shown / 2 else "≈"
                arithmetic = {
                    "scores": f"Q·K = {number(REF['scores'][i, j], sign=True)}",
                    "scaled": f"Q·K = {number(REF['scores'][i, j], sign=True)} · ÷ 2 {op} +{half}",
                    "weights": (
                        f"Q·K = {number(REF['scores'][i, j], sign=True)} · ÷ 2 {op} +{half}"
                        f" · weight {number(REF['weights'][i, j])}"
                    ),
                }[name]
                assert figure.trace["customdata"][i][j].split("<br>")[1] == arithmetic, key
    # the example: perro → come
    assert builder_charts["b_weights"].trace["customdata"][1][2] == (
        "perro → come: 0.3316<br>Q·K = +0.954 · ÷ 2 = +0.477 · weight 0.332"
    )


def test_a_temperature_step_leaves_the_scores_figures_as_they_were():
    """The browser draws a figure again only when its element id changes (Streamlit puts a hash of the figure in
    it): after a temperature step only the weights and the output have new ids."""

    def ids(at: AppTest) -> dict[str, str]:
        return {user_key_from_element_id(e.proto.id): e.proto.id for e in figure_elements(at)}

    at = open_page("pages/builder.py", "en")
    before = ids(at)
    by_label(at.select_slider, EN["scenario.temperature"]).set_value(2.0).run()
    after = ids(at)
    assert set(after) == set(before)
    assert {key for key in before if before[key] != after[key]} == {"b_weights", "b_out"}


def test_each_figure_has_a_text_description_with_its_values(walkthrough_charts, builder_charts):
    for key, name, figure in shown_figures(walkthrough_charts, builder_charts):
        rows = "; ".join(
            f"{token}: {vector(row, sign=name in SIGNED)}" for token, row in zip(TOKENS, reference(name), strict=True)
        )
        size = f"{len(TOKENS)} × {reference(name).shape[1]}"
        assert figure.alt == f"{figure.title}: heatmap of {size}. Rows: {rows}.", key


def test_a_large_matrix_is_described_by_its_range_and_read_on_hover():
    sentence = " ".join(f"w{i}" for i in range(20))
    at = open_page("pages/pipeline.py", "en", pipeline_sentence=sentence)
    weights = chart(at, "pipe_weights")
    z = np.array(weights.trace["z"], dtype=float)
    assert z.shape == (20, 20)
    assert "text" not in weights.trace  # 20 columns: too narrow for numbers in the cells
    assert weights.trace["customdata"][0][0].startswith("w0 → w0: ")
    low, high = number(np.nanmin(z)), number(np.nanmax(z))
    assert weights.alt == f"Weights (softmax): heatmap of 20 × 20, values from {low} to {high}."
    assert weights.layout["dragmode"] == "zoom"  # large matrices can be zoomed


def test_the_figures_follow_the_options():
    at = open_page("pages/builder.py", "en")
    by_label(at.segmented_control, EN["scenario.scale"]).set_value("none").run()
    assert "b_scaled" not in {c.key for c in charts(at)}
    scores = chart(at, "b_scores")
    assert scores.trace["showscale"] is True  # alone, the scores panel carries the colour bar
    score = lesson.attention(divisor=1.0)["scores"][1, 2]  # perro → come: 0.9536, shown 0.954
    assert scores.trace["customdata"][1][2] == f"perro → come: {number(score, 4, sign=True)}<br>Q·K = +0.954"
    weights = chart(at, "b_weights")
    weight = lesson.attention(divisor=1.0)["weights"][1, 2]
    assert weights.trace["customdata"][1][2].endswith("weight " + number(weight))


def test_every_pipeline_heatmap_names_both_axes_and_the_positional_encoding_rows_are_positions():
    at = open_page("pages/pipeline.py", "en")
    assert no_exception(at)
    figures_by_key = {c.key: c for c in charts(at) if c.trace.get("type") == "heatmap"}
    assert {"pipe_embed", "pipe_pe", "pipe_x", "pipe_weights", "pipe_output"} <= set(figures_by_key)
    for key, figure in figures_by_key.items():
        assert figure.layout["xaxis"]["title"]["text"], key
        assert figure.layout["yaxis"]["title"]["text"], key
    pe = figures_by_key["pipe_pe"]
    rows = len(pe.trace["z"])
    assert pe.layout["yaxis"]["ticktext"] == [str(position) for position in range(rows)]


@pytest.mark.parametrize(("lang", "name"), [("es", "pesos-softmax"), ("en", "weights-softmax")])
def test_the_png_button_saves_a_slide_sharp_picture_named_after_the_figure_in_the_readers_language(lang, name):
    at = go_to_part(open_page("pages/walkthrough.py", lang), 4)
    options = chart(at, "walk_w4").config["toImageButtonOptions"]
    assert options == {"format": "png", "filename": name, "scale": 3}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_undivided_scores_hover_without_a_division_and_a_temperature_is_named(lang):
    """Scale "none" divides by nothing: no "÷ 1" in the hover; a temperature other than 1 is said there."""
    scenario = replace(lesson_scenario(), scale=Scale.NONE, temperature=2.0)
    at = open_link({"s": encode_scenario(scenario), "lang": lang}, "pages/builder.py")
    weights = next(c for c in charts(at) if c.key == "b_weights")
    hover = weights.trace["customdata"][1][2].split("<br>")[1]  # perro → come
    weight = lesson.softmax_rows(lesson.attention(divisor=1.0)["scores"], temperature=2.0)[1, 2]
    expected = {
        "es": f"Q·K = +0,954 · T = 2 · peso {number(weight, lang='es')}",
        "en": f"Q·K = +0.954 · T = 2 · weight {number(weight)}",
    }
    assert hover == expected[lang]


def weight_trio(found: list[Chart]) -> dict[str, Chart]:
    return {figure.title.split()[0]: figure for figure in found if figure.title.split()[0] in ("W_Q", "W_K", "W_V")}


def assert_drawn_as_a_weight_matrix(figure: Chart, d_model: int, d_out: int, name: str) -> None:
    """Rows x0, x1, … (the dimensions of x), columns d0, d1, … (of the projection), both axes named, shape in the
    title."""
    assert figure.title == f"{name} ({d_model}×{d_out})"
    assert figure.layout["yaxis"]["ticktext"] == [f"x{i}" for i in range(d_model)], name
    assert figure.layout["xaxis"]["ticktext"] == [f"d{j}" for j in range(d_out)], name
    assert figure.layout["yaxis"]["title"]["text"] == EN["matrix.rows_x"], name
    assert figure.layout["xaxis"]["title"]["text"] == EN["matrix.cols_out"], name


def assert_one_scale_for_the_trio(trio: dict[str, Chart]) -> None:
    """One range symmetric about 0 holding the three matrices' values, its colour bar on W_V's panel only."""
    largest = max(float(np.max(np.abs(np.array(figure.trace["z"], dtype=float)))) for figure in trio.values())
    for name, figure in trio.items():
        assert (figure.trace["zmin"], figure.trace["zmax"]) == pytest.approx((-largest, largest)), name
        assert figure.trace["showscale"] is (name == "W_V"), name


def test_the_weight_matrices_are_drawn_alike_on_every_page():
    """W_Q, W_K, W_V on the pipeline page (the lesson's), one head's on the multi-head page, and the
    walkthrough's part 1 W: the same rows, columns, axis titles and titles; a trio shares one colour range."""
    pipeline = weight_trio(charts(open_page("pages/pipeline.py", "en", pipeline_matrices_open=True)))
    assert list(pipeline) == ["W_Q", "W_K", "W_V"]
    for name, matrix in (("W_Q", lesson.W_Q), ("W_K", lesson.W_K), ("W_V", lesson.W_V)):
        assert_drawn_as_a_weight_matrix(pipeline[name], 4, 4, name)
        assert np.allclose(pipeline[name].trace["z"], matrix, rtol=0, atol=1e-12), name
    assert_one_scale_for_the_trio(pipeline)
    assert pipeline["W_Q"].trace["zmax"] == pytest.approx(0.6)  # the largest |w| of the lesson's three matrices

    at = open_page("pages/multihead.py", "en", mh_qkv_open=True)
    head = {name: chart(at, key) for name, key in (("W_Q", "mh_wq"), ("W_K", "mh_wk"), ("W_V", "mh_wv"))}
    for name, figure in head.items():
        assert_drawn_as_a_weight_matrix(figure, 4, 2, name)  # two designed heads: d_k = 4 / 2
    assert_one_scale_for_the_trio(head)

    walk = chart(go_to_part(open_page("pages/walkthrough.py", "en"), 1), "walk_w")
    assert_drawn_as_a_weight_matrix(walk, 4, 4, "W_Q")
    assert np.allclose(walk.trace["z"], lesson.W_Q, rtol=0, atol=1e-12)
