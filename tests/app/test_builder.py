"""The Q/K/V builder: default figures, options that change the matrices at once, presets, sizes."""

from dataclasses import replace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine import lesson_scenario
from engine.scenario_io import encode_scenario
from tests.app import lesson
from tests.app.helpers import (
    APP,
    button,
    by_label,
    chart,
    derivation_lines,
    editor_edits,
    no_exception,
    open_page,
    page_text,
    send_states,
    shown,
)
from tests.app.lesson import COME, PERRO, number, written
from ui.i18n import LANGUAGES

PAGE = "pages/builder.py"
EN = LANGUAGES["en"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_builder_shows_the_lessons_cell_perro_to_come(lang):
    at = open_page(PAGE, lang)
    assert no_exception(at)
    lines = derivation_lines(at)
    # score(perro → come): 0.6413 + 0.5165 − 0.0831 − 0.1211 = 0.9536 ≈ 0.954 (products of the written
    # operands, by hand: tests/app/test_walkthrough.py); ÷ 2 = 0.477 exactly; its weight 0.33160 ≈ 0.332
    assert written("≈ +0.954", lang) in lines
    assert written("score'(perro → come) = +0.954 ÷ 2 = +0.477", lang) in lines
    assert written("1.6112 / 4.8588 ≈ 0.332 ← come", lang) in lines
    assert written(": 0.332 (33.2", lang) in page_text(at)  # the weight, said in a sentence
    assert round(lesson.attention()["weights"][PERRO, COME], 3) == 0.332
    assert len(at.data_editor) == 4  # x and the three weight matrices
    assert at.data_editor(key="editor_x_0").value["token"].tolist() == ["el", "perro", "come"]


def test_choosing_a_cell_shows_its_derivation():
    at = open_page(PAGE, "en")
    by_label(at.selectbox, EN["scenario.query_token"]).set_value("el").run()
    by_label(at.selectbox, EN["scenario.key_token"]).set_value("perro").run()
    # Q_el · K_perro, written: 0.664·0.273 = 0.181272, 0.498·0.362 = 0.180276, 0.185·0.935 = 0.172975,
    # 0.884·0.401 = 0.354484 → 0.1813 + 0.1803 + 0.173 + 0.3545 = 0.8891 ≈ 0.889
    lines = derivation_lines(at)
    assert "score(el → perro) = (+0.664)(+0.273) + (+0.498)(+0.362) + (+0.185)(+0.935) + (+0.884)(+0.401)" in lines
    assert "= +0.8891" in lines and "≈ +0.889" in lines
    assert round(lesson.attention()["scores"][0, PERRO], 3) == 0.889


def test_the_scale_option_changes_the_divisor_everywhere():
    at = open_page(PAGE, "en")
    by_label(at.segmented_control, EN["scenario.scale"]).set_value("dk").run()
    assert no_exception(at)
    lines = derivation_lines(at)
    # 0.954 / 4 = 0.2385, which rounds up to 0.239, while the full-precision 0.95357 / 4 = 0.23839 is 0.238
    assert "score'(perro → come) = +0.954 ÷ 4 ≈ +0.239" in lines
    assert "(without rounding on the way: +0.238)" in lines
    assert round(lesson.attention(divisor=4.0)["scaled"][PERRO, COME], 3) == 0.238
    scaled = chart(at, "b_scaled")
    assert scaled.title == "Scores ÷ 4"
    assert scaled.cell_texts[PERRO][COME] == "+0.238"


def test_the_causal_mask_explains_a_masked_cell():
    at = open_page(PAGE, "en")
    by_label(at.toggle, EN["scenario.causal"]).set_value(True).run()
    # perro (position 1) may not look at come (position 2)
    assert [shown(w.value) for w in at.warning] == [
        "The causal mask stops “perro” from looking at “come”, which comes later: its weight is 0."
    ]
    weights = chart(at, "b_weights")
    assert weights.cell_texts[PERRO][COME] == "0.000"
    weights = weights.trace
    assert weights["z"][PERRO][COME] is None  # no colour: the cell is masked, not a weight that happens to be 0
    assert weights["customdata"][PERRO][COME] == "perro → come: 0.0000<br>masked: weight 0"
    assert chart(at, "b_scaled").cell_texts[PERRO][COME] == "✕"


def test_random_then_reset_restores_the_lessons_example():
    at = open_page(PAGE, "en")
    lesson_q = chart(at, "b_q").cell_texts
    button(at, EN["scenario.random"]).click().run()
    assert no_exception(at)
    assert chart(at, "b_q").cell_texts != lesson_q
    assert LANGUAGES["en"]["scenario.edited"] in page_text(at)
    button(at, EN["scenario.reset"]).click().run()
    assert chart(at, "b_q").cell_texts == lesson_q
    assert LANGUAGES["en"]["scenario.edited"] not in page_text(at)


def test_reset_also_resets_the_option_widgets():
    at = open_page(PAGE, "en")
    by_label(at.select_slider, EN["scenario.temperature"]).set_value(3.0).run()
    assert chart(at, "b_weights").cell_texts[PERRO][PERRO] != "0.380"
    button(at, EN["scenario.reset"]).click().run()
    assert by_label(at.select_slider, EN["scenario.temperature"]).value == 1.0
    # and the weights are the lesson's at T = 1 again: perro → perro 0.37954
    assert chart(at, "b_weights").cell_texts[PERRO][PERRO] == "0.380"


def test_a_scenario_with_awkward_token_names_renders():
    # the names arrive through a shared link (AppTest cannot type into a data editor: see test_editing.py)
    names = ("<img src=x onerror=alert(1)>", "$\\frac{a}{b}$", "🐶")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["s"] = encode_scenario(replace(lesson_scenario(), tokens=names))
    at.switch_page(PAGE).run()
    assert no_exception(at)
    assert at.data_editor(key="editor_x_1").value["token"].tolist() == list(names)
    # on the figures' axes, HTML-escaped (plotly reads tags in text) and shortened past 10 characters
    assert chart(at, "b_q").layout["yaxis"]["ticktext"] == ["&lt;img src=…", "$\\frac{a}…", "🐶"]


def test_growing_d_model_and_d_k_pads_with_zeros():
    at = open_page(PAGE, "en")
    by_label(at.number_input, EN["editor.d_model"]).set_value(6).run()
    by_label(at.number_input, EN["editor.d_k"]).set_value(8).run()
    assert no_exception(at)
    x = at.data_editor(key="editor_x_2").value
    assert x.shape == (3, 7)  # the token column and 6 numbers
    assert x.iloc[:, 5:].map(str).to_numpy().tolist() == [["0", "0"]] * 3
    w_q = at.data_editor(key="editor_w_q_2").value
    assert w_q.shape == (6, 8)
    q = chart(at, "b_q")
    assert np.array(q.trace["z"]).shape == (3, 8)
    # the new dimensions of x and W are 0, so Q keeps the lesson's values and gains zero columns
    assert q.cell_texts[PERRO] == ["+0.461", "+0.779", "+0.526", "+0.807"] + ["+0.000"] * 4


def test_the_heatmaps_follow_the_temperature_slider():
    at = open_page(PAGE, "en")
    by_label(at.select_slider, EN["scenario.temperature"]).set_value(2.0).run()
    assert no_exception(at)
    cold, hot = lesson.attention()["weights"], lesson.attention(temperature=2.0)["weights"]
    cells = chart(at, "b_weights").cell_texts
    assert cells == [[number(w) for w in row] for row in hot]
    assert number(cold[PERRO, PERRO]) == "0.380" and cells[PERRO][PERRO] != "0.380"


def test_old_option_and_size_values_sent_again_after_a_reset_undo_nothing():
    """A browser can send the values of controls drawn for an earlier scenario again after the scenario changed
    (they are keyed by the scenario's revision; ui.scenario_controls says how): Streamlit sees a change of each old
    control and calls its callback. The reader's reset must stand: no mask, and the lesson's sizes and numbers.
    AppTest sends only the widgets on screen, so that browser's message is built here: the page's widgets and the
    old controls' values."""
    at = open_page(PAGE, "en")
    by_label(at.toggle, EN["scenario.causal"]).set_value(True).run()
    by_label(at.number_input, EN["editor.d_k"]).set_value(3).run()
    old = [w for w in (*at.toggle, *at.number_input) if (w.key or "").startswith(("opt_", "dims_"))]
    assert sorted((w.key.rsplit("_", 1)[0], w.value) for w in old) == [
        ("dims_d_k", 3),
        ("dims_d_model", 4),
        ("opt_causal", True),
    ]
    stale = [w._widget_state for w in old]
    button(at, EN["scenario.reset"]).click().run()
    lesson_code = encode_scenario(lesson_scenario())
    assert encode_scenario(at.session_state["scenario"]) == lesson_code
    send_states(at, *stale)
    assert no_exception(at), [e.value for e in at.exception]
    assert encode_scenario(at.session_state["scenario"]) == lesson_code, "no mask; the lesson's sizes and numbers"
    assert by_label(at.toggle, EN["scenario.causal"]).value is False


def test_an_old_editors_edits_sent_again_after_a_reset_undo_nothing():
    """The same echo for a matrix editor (keyed by the scenario's revision): its edits, re-sent after a reset, are
    not applied again onto the lesson's numbers."""
    at = open_page(PAGE, "en")
    editor = next(w for w in at.data_editor if w.key.startswith("editor_w_q_"))
    edit = editor_edits(editor, {"0": {"0": 9}})
    send_states(at, edit)
    assert at.session_state["scenario"].w_q[0, 0] == 9
    button(at, EN["scenario.reset"]).click().run()
    assert encode_scenario(at.session_state["scenario"]) == encode_scenario(lesson_scenario())
    send_states(at, edit)  # the old editor's edits, as that browser still holds them
    assert no_exception(at), [e.value for e in at.exception]
    assert encode_scenario(at.session_state["scenario"]) == encode_scenario(lesson_scenario()), "W_Q[0, 0] as before"
