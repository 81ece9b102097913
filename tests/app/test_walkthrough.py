"""The walkthrough: five steps, the lesson's figures, the URL, and the shared scenario."""

from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest
from ui.format import signed

from tests.app.helpers import APP, button, derivation_lines, no_exception, open_page, page_text
from ui.i18n import LANGUAGES

# Verified by hand and with an independent numpy computation from the lesson's x, W_Q, W_K, W_V.
Q_PERRO_0 = "= +0.461"  # the last line of Q_perro[0]'s derivation
Q_PERRO = "[+0.461, +0.779, +0.526, +0.807]"
SCORE_PERRO_COME = "= +0.954"
WEIGHTS_PERRO = "[0.289, 0.380, 0.332]"  # the lesson prints 0.379 for the middle one: 0.37951 rounds to 0.380
OUTPUT_PERRO = "[+0.743, +0.013, +0.772, +0.714]"  # the lesson prints +0.773 for dimension 2: 0.77245


def walk_to(at, step: int):
    for _ in range(step - 1):
        button(at, "Siguiente", "Next").click().run()
    return at


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_stepping_through_all_five_steps_shows_each_steps_figures(lang):
    at = open_page("pages/walkthrough.py", lang)
    strings = LANGUAGES[lang]
    expected = {  # in the page's text / as a whole line of a derivation
        1: ([Q_PERRO], [Q_PERRO_0, "Q_perro    = " + Q_PERRO]),
        2: (["(+0.461)(+1.391)"], [SCORE_PERRO_COME]),
        3: ([], ["score'(perro → perro) = +1.223 ÷ 2.000 = +0.612", "score'(perro → el)    = +0.677 ÷ 2.000 = +0.339"]),
        4: ([WEIGHTS_PERRO, "[0.247, 0.427, 0.326]"], ["e^(+0.339)    ≈ 1.403  ← el"]),
        5: ([OUTPUT_PERRO, "[+0.500, +1.150, +0.780, +0.880]"], ["= +0.743"]),
    }
    for step in range(1, 6):
        assert no_exception(at), step
        assert at.query_params.get("step", "1") == str(step)
        text = page_text(at)
        assert strings[f"walk.name.{step}"] in text
        in_text, lines = expected[step]
        for figure in in_text:
            assert figure in text, (step, figure)
        for line in lines:
            assert line in derivation_lines(at), (step, line)
        if step < 5:
            button(at, strings["walk.next"]).click().run()
    assert next(b for b in at.button if b.label == strings["walk.next"]).disabled
    button(at, strings["walk.prev"]).click().run()
    assert at.query_params["step"] == "4"


def test_a_link_to_step_3_opens_step_3():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["step"] = "3"
    at.switch_page("pages/walkthrough.py").run()
    assert no_exception(at)
    assert at.progress[0].proto.text.startswith("Paso 3 de 5")


def test_an_edit_to_w_q_changes_the_derivation():
    at = open_page("pages/walkthrough.py")
    scenario = at.session_state["scenario"]
    w_q = scenario.w_q.copy()
    w_q[0, 0] = 1.3  # was 0.3: Q_perro[0] grows by x_perro[0] · 1.0 = 0.5, to 0.961
    at.session_state["scenario"] = replace(scenario, w_q=w_q)
    at.run()
    text = page_text(at)
    assert "(+0.5)(+1.3)" in text and "= +0.961" in derivation_lines(at)
    assert Q_PERRO_0 not in derivation_lines(at)
    assert LANGUAGES["es"]["scenario.edited"] in text


def test_the_scenario_and_chosen_token_survive_page_and_language_switches():
    at = open_page("pages/walkthrough.py")
    scenario = at.session_state["scenario"]
    at.session_state["scenario"] = replace(scenario, temperature=2.0)
    at.selectbox[0].set_value("come").run()
    at.switch_page("pages/qkv_builder.py").run()
    at.session_state["lang"] = "en"
    at.run()
    at.switch_page("pages/walkthrough.py").run()
    assert no_exception(at)
    assert at.session_state["scenario"].temperature == 2.0
    assert at.selectbox[0].value == "come"
    assert LANGUAGES["en"]["walk.title"] in page_text(at)


def test_with_the_causal_mask_the_first_token_attends_only_to_itself():
    at = open_page("pages/walkthrough.py", "en")
    at.session_state["scenario"] = replace(at.session_state["scenario"], causal=True)
    at.selectbox[0].set_value("el").run()
    walk_to(at, 4)
    assert no_exception(at)
    assert "[1.000]" in page_text(at)


def test_the_scalar_mixing_example_is_computed():
    at = walk_to(open_page("pages/walkthrough.py", "en"), 5)
    # 0.3·10 + 0.4·20 + 0.3·30 = 3 + 8 + 9 = 20
    assert "values 10, 20, 30 with weights 0.3, 0.4, 0.3 give 20." in page_text(at)


def test_step_1_derives_the_projection_chosen():
    at = open_page("pages/walkthrough.py", "en")
    result = at.session_state["scenario"].run()
    at.segmented_control(key="walk_role").set_value("K").run()
    assert no_exception(at)
    text = page_text(at)
    # K_perro, from the engine; the Q derivation is no longer typeset
    assert "[" + ", ".join(signed(v) for v in result.k[1]) + "]" in text
    assert Q_PERRO not in text
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/walkthrough.py").run()
    assert at.segmented_control(key="walk_role").value == "K"  # the choice is kept
