"""The home page and the softmax playground, in both languages."""

import numpy as np
import pytest

from tests.app.helpers import button, no_exception, open_page, page_text
from ui.i18n import LANGUAGES

LANGS = sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGS)
def test_home_opens_with_the_ambiguous_sentence_and_a_link_to_every_page(lang):
    at = open_page("pages/home.py", lang)
    assert no_exception(at)
    text = page_text(at)
    assert "el perro come carne porque tiene hambre" in text
    assert LANGUAGES[lang]["home.search.title"] in text
    assert len(at.get("page_link")) == 5


@pytest.mark.parametrize("lang", LANGS)
def test_softmax_of_the_lesson_scores_shows_the_lesson_figures(lang):
    at = open_page("pages/softmax_playground.py", lang)
    assert no_exception(at)
    text = page_text(at)
    # softmax([2, 5, 1]) = [0.0466, 0.9362, 0.0171]; naive 2/8, 5/8, 1/8
    for figure in ("0.047", "0.936", "0.017", "7.389", "148.413", "2.718", "158.520"):
        assert figure in text, figure
    for figure in ("0.250", "0.625", "0.125"):
        assert figure in text, figure
    assert LANGUAGES[lang]["softmax.check"].format(total="1.000") in text
    # the naive shares keep the 5 : 1 ratio of the scores; softmax makes it e^(5-1) = 54.598
    assert LANGUAGES[lang]["softmax.naive.ok"].format(naive="5.000", soft="54.598") in text


def test_huge_scores_are_worked_out_with_the_shift_and_do_not_overflow():
    at = open_page("pages/softmax_playground.py")
    button(at, "Enormes: 1000, 1001").click().run()
    assert no_exception(at)
    assert np.array_equal(at.session_state["softmax_scores"], [1000.0, 1001.0])
    assert any("se desborda" in w.value for w in at.warning)
    # softmax([1000, 1001]) = [1/(1+e), e/(1+e)] = [0.269, 0.731]
    assert "[0.269, 0.731]" in page_text(at)


def test_negative_scores_break_the_naive_division_and_say_why():
    at = open_page("pages/softmax_playground.py", "en")
    button(at, "With negatives").click().run()
    assert no_exception(at)
    errors = " ".join(e.value for e in at.error)
    assert "negative" in errors and "sum is negative" in errors


def test_the_temperature_slider_changes_the_weights():
    at = open_page("pages/softmax_playground.py")
    before = page_text(at)
    at.slider[0].set_value(5.0).run()
    assert no_exception(at)
    after = page_text(at)
    # softmax([2, 5, 1] / 5) = softmax([0.4, 1.0, 0.2]) = [0.2747, 0.5005, 0.2249]
    assert "0.936" in before and "0.936" not in after
    assert "[0.275, 0.500, 0.225]" in after


def test_the_temperature_survives_a_trip_to_another_page():
    at = open_page("pages/softmax_playground.py")
    at.slider[0].set_value(2.5).run()
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/softmax_playground.py").run()
    assert at.slider[0].value == 2.5
