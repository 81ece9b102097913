"""The Q/K/V builder: default figures, options that change the matrices at once, presets."""

from dataclasses import replace

import numpy as np
import pytest
from ui.format import plain

from engine import lesson_scenario
from tests.app.helpers import button, derivation_lines, figures, no_exception, open_page, page_text
from ui.i18n import LANGUAGES


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_builder_shows_the_lessons_cell_perro_to_come(lang):
    at = open_page("pages/qkv_builder.py", lang)
    assert no_exception(at)
    text = page_text(at)
    # score(perro → come) = +0.954; ÷ 2 = +0.477; weight 0.332 (independent check in tests/engine)
    assert "= +0.954" in derivation_lines(at) and "+0.477" in text and "0.332" in text
    assert len(at.data_editor) == 4  # x and the three weight matrices
    assert at.data_editor[0].value["token"].tolist() == ["el", "perro", "come"]


def test_choosing_a_cell_shows_its_derivation():
    at = open_page("pages/qkv_builder.py", "en")
    at.selectbox[0].set_value("el").run()
    at.selectbox[1].set_value("perro").run()
    # score(el → perro) = Q_el · K_perro = 0.889 (3x3 scores computed independently)
    assert "= +0.889" in derivation_lines(at)


def test_the_scale_option_changes_the_divisor_everywhere():
    at = open_page("pages/qkv_builder.py", "en")
    at.segmented_control[0].set_value("dk").run()
    assert no_exception(at)
    assert at.session_state["scenario"].scale == "dk"
    assert "+0.954 ÷ 4.000 = +0.238" in page_text(at)


def test_the_causal_mask_explains_a_masked_cell():
    at = open_page("pages/qkv_builder.py", "en")
    at.toggle(key="opt_causal").set_value(True).run()
    assert at.session_state["scenario"].causal
    assert any("causal mask" in w.value for w in at.warning)


def test_random_then_reset_restores_the_lessons_example():
    at = open_page("pages/qkv_builder.py", "en")
    button(at, LANGUAGES["en"]["scenario.random"]).click().run()
    assert not np.array_equal(at.session_state["scenario"].w_q, lesson_scenario().w_q)
    assert no_exception(at)
    button(at, LANGUAGES["en"]["scenario.reset"]).click().run()
    assert np.array_equal(at.session_state["scenario"].w_q, lesson_scenario().w_q)


def test_reset_also_resets_the_option_widgets():
    at = open_page("pages/qkv_builder.py", "en")
    at.slider(key="opt_temperature").set_value(3.0).run()
    assert at.session_state["scenario"].temperature == 3.0
    button(at, LANGUAGES["en"]["scenario.reset"]).click().run()
    assert at.slider(key="opt_temperature").value == 1.0
    assert at.session_state["scenario"].temperature == 1.0


def test_a_scenario_with_awkward_token_names_renders():
    at = open_page("pages/qkv_builder.py", "en")
    names = ("<img src=x onerror=alert(1)>", "$\\frac{a}{b}$", "🐶")
    at.session_state["scenario"] = replace(lesson_scenario(), tokens=names)
    at.run()
    assert no_exception(at)
    assert at.data_editor[0].value["token"].tolist() == list(names)


def test_growing_d_model_and_d_k_pads_with_zeros():
    at = open_page("pages/qkv_builder.py", "en")
    at.number_input[1].set_value(6).run()
    at.number_input[2].set_value(8).run()
    scenario = at.session_state["scenario"]
    assert no_exception(at)
    assert scenario.x.shape == (3, 6) and scenario.w_q.shape == (6, 8) and scenario.w_v.shape == (6, 8)


def test_the_heatmaps_follow_the_temperature_slider():
    at = open_page("pages/qkv_builder.py", "en")
    at.slider(key="opt_temperature").set_value(2.0).run()
    assert no_exception(at)
    scenario = lesson_scenario()
    hot = replace(scenario, temperature=2.0).run()
    written = "\n".join(figures(at))
    # the weights at T = 2 (computed by the engine), not those at T = 1, are written in the attention heatmap
    for weight in hot.weights.reshape(-1):
        assert f">{plain(weight)}<" in written
    assert f">{plain(scenario.run().weights[1, 1])}<" not in written  # perro → perro at T = 1: 0.380
    assert f">{plain(hot.weights[1, 1])}<" in written
