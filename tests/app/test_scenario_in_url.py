"""The address bar keeps an edited scenario (ui.url's setting "s", ui.share's code), so that a reload, or the new
session a restarted server gives a reconnecting browser, finds the edits; too long a code is not kept and the page
says so; a code the engine refuses is said and gives the lesson's example."""

from __future__ import annotations

import random

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine import Scale, Scenario, lesson_scenario, same_numbers
from engine.limits import MAX_KEPT_CODE_CHARS, MAX_LINK_CHARS
from engine.scenario_io import decode_scenario, encode_scenario
from tests.app.helpers import APP, button, by_label, chart, no_exception, open_page, page_text
from ui.i18n import LANGUAGES

BUILDER, WALKTHROUGH = "pages/builder.py", "pages/walkthrough.py"
LANGS = ("es", "en")


def reopen(at: AppTest, page: str) -> AppTest:
    """What a reload does, or a browser reconnecting to a restarted server: a new session at the same address."""
    fresh = AppTest.from_file(APP, default_timeout=60)
    for key, value in at.query_params.items():
        fresh.query_params[key] = value
    if page != "app.py":
        fresh.switch_page(page)
    return fresh.run()


def same(a: Scenario, b: Scenario) -> bool:
    return encode_scenario(a) == encode_scenario(b)


def largest_scenario(seed: int = 1) -> Scenario:
    """16 names of 32 rare ideographs and 320 numbers of full precision: a code longer than an address keeps."""
    rng, pick = np.random.default_rng(seed), random.Random(seed)
    names = tuple("".join(chr(pick.randint(0x20000, 0x2A6DF)) for _ in range(32)) for _ in range(16))
    x, w_q, w_k, w_v = (rng.uniform(-1, 1, shape) * 10.0 ** rng.integers(-300, 6, shape) for shape in [(16, 8)] * 4)
    return Scenario(names, x, w_q[:8], w_k[:8], w_v[:8], scale=Scale.SQRT, causal=True, temperature=0.3)


@pytest.mark.parametrize("lang", LANGS)
def test_an_edit_is_kept_in_the_url_and_a_new_session_there_finds_it(lang):
    at = open_page(BUILDER, lang)
    assert "s" not in at.query_params, "the lesson's example keeps the address short"
    by_label(at.number_input, LANGUAGES[lang]["editor.d_model"]).set_value(6).run()
    by_label(at.select_slider, LANGUAGES[lang]["scenario.temperature"]).set_value(2.0).run()  # in a fragment
    edited = at.session_state["scenario"]
    assert edited.d_model == 6 and edited.temperature == 2.0
    assert same(decode_scenario(at.query_params["s"]), edited)
    again = reopen(at, BUILDER)
    assert no_exception(again)
    assert same(again.session_state["scenario"], edited)
    assert again.query_params["lang"] == lang
    assert np.array(chart(again, "b_q").trace["z"]).shape == (3, 4)
    assert LANGUAGES[lang]["scenario.edited"] in page_text(again)
    assert again.error == [], "no message: the edits are simply there"


def test_the_walkthrough_finds_the_edits_with_its_part_after_a_reload():
    at = open_page(BUILDER, "en")
    button(at, LANGUAGES["en"]["scenario.random"]).click().run()
    edited = at.session_state["scenario"]
    at.switch_page(WALKTHROUGH).run()
    assert same(decode_scenario(at.query_params["s"]), edited), "every page keeps it"
    again = reopen(at, WALKTHROUGH)
    assert same(again.session_state["scenario"], edited)
    assert again.query_params["step"] == at.query_params["step"]


def test_back_to_the_lessons_example_leaves_the_url():
    at = open_page(BUILDER, "en")
    button(at, LANGUAGES["en"]["scenario.random"]).click().run()
    assert "s" in at.query_params
    button(at, LANGUAGES["en"]["scenario.reset"]).click().run()
    assert "s" not in at.query_params
    assert same(reopen(at, BUILDER).session_state["scenario"], lesson_scenario())


def test_the_code_follows_every_change_not_only_the_first():
    at = open_page(BUILDER, "en")
    slider = lambda: by_label(at.select_slider, LANGUAGES["en"]["scenario.temperature"])  # noqa: E731
    for temperature in (2.0, 0.5, 3.0):
        slider().set_value(temperature).run()
        assert decode_scenario(at.query_params["s"]).temperature == temperature
    assert reopen(at, BUILDER).session_state["scenario"].temperature == 3.0


@pytest.mark.parametrize("lang", LANGS)
def test_a_scenario_too_long_for_an_address_is_shown_not_kept_and_the_page_says_so(lang):
    scenario = largest_scenario()
    code = encode_scenario(scenario)
    assert MAX_KEPT_CODE_CHARS < len(code) <= MAX_LINK_CHARS  # a share link still carries it
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.query_params["s"] = code
    at.switch_page(BUILDER).run()
    assert no_exception(at)
    assert same(at.session_state["scenario"], scenario)
    assert "s" not in at.query_params
    warnings = [w.value for w in at.warning if w.value.startswith(LANGUAGES[lang]["scenario.not_kept"][:30])]
    assert len(warnings) == 1
    chars = str(len(code)) if lang == "es" else f"{len(code):,}"  # Spanish writes four digits without a point
    assert chars in warnings[0] and ("7000" if lang == "es" else "7,000") in warnings[0]


@pytest.mark.parametrize("lang", LANGS)
def test_an_edited_scenario_that_fits_says_nothing_of_the_kind(lang):
    at = open_page(BUILDER, lang)
    button(at, LANGUAGES[lang]["scenario.random"]).click().run()
    assert not any(w.value.startswith(LANGUAGES[lang]["scenario.not_kept"][:30]) for w in at.warning)


@pytest.mark.parametrize("lang", LANGS)
def test_a_damaged_code_in_the_address_says_so_once_and_shows_the_lesson(lang):
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.query_params["s"] = encode_scenario(lesson_scenario())[:-12]
    at.switch_page(BUILDER).run()
    assert no_exception(at)
    (error,) = [e.value for e in at.error]
    assert error.startswith(LANGUAGES[lang]["share.bad_link"].split("{")[0])
    assert same_numbers(at.session_state["scenario"], lesson_scenario())
    assert "s" not in at.query_params, "the damaged code is not read again at the next reload"
    at.run()
    assert at.error == []
