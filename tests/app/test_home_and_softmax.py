"""The home page and the softmax playground, in both languages."""

import math

import pytest

from tests.app.helpers import (
    HOME,
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
from tests.app.lesson import number, vector, written
from ui.i18n import LANGUAGES
from ui.pages import PAGES

LANGS = sorted(LANGUAGES)
SOFTMAX = "pages/softmax.py"


def softmax(scores, temperature=1.0) -> list[float]:
    exps = [math.exp(s / temperature) for s in scores]
    return [e / sum(exps) for e in exps]


@pytest.mark.parametrize("lang", LANGS)
def test_home_opens_with_the_ambiguous_sentence_and_a_link_to_every_page(lang):
    at = open_page(HOME, lang)
    assert no_exception(at)
    text = page_text(at)
    assert "el perro come carne porque tiene hambre" in text
    assert LANGUAGES[lang]["home.search.title"] in text
    links = at.main.get("page_link")
    assert [link.proto.page for link in links] == [spec.url_path for spec in PAGES[1:]]
    assert [link.proto.label for link in links] == [LANGUAGES[lang][f"home.map.{spec.key}"] for spec in PAGES[1:]]


@pytest.mark.parametrize("lang", LANGS)
def test_softmax_of_the_lesson_scores_shows_the_lessons_figures(lang):
    at = open_page(SOFTMAX, lang)
    assert no_exception(at)
    strings = LANGUAGES[lang]
    # softmax([2, 5, 1]) = [0.0466, 0.9362, 0.0171] (math.exp); the naive division 2/8, 5/8, 1/8
    weights = softmax([2, 5, 1])
    assert vector(weights, sign=False) == "[0.047, 0.936, 0.017]"
    text = page_text(at)
    assert written("[0.047, 0.936, 0.017]", lang) in text
    # the naive shares 2/8, 5/8, 1/8 are shares, written without plus signs like the softmax weights
    assert written("[0.250, 0.625, 0.125]", lang) in text
    # the check states the sum as the exact number it is: 1, without trailing zeros
    assert strings["softmax.check"].format(total="1") in text
    # the written arithmetic: e^2 = 7.38906, e^5 = 148.41316, e^1 = 2.71828, to four decimals, and their sum
    lines = derivation_lines(at)
    for line in (
        "e^(+2) ≈ 7.3891 ← #1",
        "e^(+5) ≈ 148.4132 ← #2",
        "e^(+1) ≈ 2.7183 ← #3",
        "Σ = 7.3891 + 148.4132 + 2.7183 = 158.5206",
        "148.4132 / 158.5206 ≈ 0.936 ← #2",  # 0.93624
        "Σ = 0.047 + 0.936 + 0.017 = 1.000",
    ):
        assert written(line, lang) in lines, line
    # the naive shares keep the 5 : 1 ratio of the scores; softmax makes it e^(5−1) = 54.598, a ratio written to
    # one decimal (54.6 times), in words true for these scores: softmax widens the gap
    assert round(math.exp(4), 1) == 54.6
    times = strings["softmax.times.ratio"]
    assert (
        strings["softmax.naive.ok_wider"].format(
            naive=times.format(n="5"), soft=times.format(n=written("54.6", lang)), gap="4", power="4"
        )
        in text
    )
    bars = chart(at, "softmax_chart").spec["data"]
    assert [bar["text"] for bar in bars] == [
        [number(w, lang=lang) for w in weights],
        [written(v, lang) for v in ("0.250", "0.625", "0.125")],
    ]


def test_huge_scores_are_worked_out_with_the_shift_and_do_not_overflow():
    at = open_page(SOFTMAX)
    # the button names its scores, one thousand and one thousand and one as Spanish writes them
    by_label(at.button, LANGUAGES["es"]["softmax.preset.huge"].format(scores="[1000; 1001]")).click().run()
    assert no_exception(at)
    assert "Puntajes: [1000; 1001]" in page_text(at)  # one thousand, four digits without a point (RAE)
    assert any("se desborda" in shown(w.value) for w in at.warning)
    # softmax([1000, 1001]) = [1/(1+e), e/(1+e)] = [0.269, 0.731]
    assert vector(softmax([-1, 0]), sign=False) == "[0.269, 0.731]"
    assert "[0,269; 0,731]" in [code.value for code in at.code]
    assert "e^(−1) ≈ 0,3679 ← #1" in derivation_lines(at)


def test_negative_scores_break_the_naive_division_and_say_why():
    at = open_page(SOFTMAX, "en")
    by_label(at.button, LANGUAGES["en"]["softmax.preset.negative"].format(scores="[2, −1, −3]")).click().run()
    assert no_exception(at)
    # [2, −1, −3]: negative entries, and a negative sum (−2)
    errors = {e.value for e in at.error}
    assert errors == {LANGUAGES["en"][f"softmax.naive.problem.{p}"] for p in ("sum_negative", "negative_entries")}


def test_the_temperature_slider_changes_the_weights():
    at = open_page(SOFTMAX, "en")
    assert "[0.047, 0.936, 0.017]" in page_text(at)
    at.select_slider(key="softmax_temperature").set_value(5.0).run()
    assert no_exception(at)
    after = page_text(at)
    # softmax([2, 5, 1] / 5) = softmax([0.4, 1.0, 0.2]) = [0.2747, 0.5005, 0.2249]
    assert vector(softmax([2, 5, 1], 5.0), sign=False) == "[0.275, 0.500, 0.225]"
    assert "[0.047, 0.936, 0.017]" not in after
    assert "[0.275, 0.500, 0.225]" in after
    assert chart(at, "softmax_chart").spec["data"][0]["text"] == ["0.275", "0.500", "0.225"]


def test_the_temperature_survives_a_trip_to_another_page():
    at = open_page(SOFTMAX)
    at.select_slider(key="softmax_temperature").set_value(2.5).run()
    at.switch_page(HOME).run()
    at.switch_page(SOFTMAX).run()
    assert at.select_slider(key="softmax_temperature").value == 2.5
    assert vector(softmax([2, 5, 1], 2.5), sign=False, lang="es") in page_text(at)


def test_an_old_score_editors_edits_sent_again_change_nothing():
    """The scores' editor is keyed by the list's revision: after a preset, the old editor's edits (a row added and
    a cell changed), sent again by a browser that still holds them, are the old table's and change nothing.
    AppTest sends only the widgets on screen, so that browser's message is built here (helpers.send_states)."""
    at = open_page(SOFTMAX, "en")
    edit = editor_edits(at.data_editor(key="editor_softmax_scores_0"), {"0": {"0": 4}}, ({"0": 7},))
    send_states(at, edit)
    assert no_exception(at), [e.value for e in at.exception]
    assert "Scores: [4, 5, 1, 7]" in page_text(at)
    by_label(at.button, LANGUAGES["en"]["softmax.preset.negative"].format(scores="[2, −1, −3]")).click().run()
    assert "Scores: [2, −1, −3]" in page_text(at)
    send_states(at, edit)  # the first editor's edits, as that browser still holds them
    assert no_exception(at), [e.value for e in at.exception]
    assert "Scores: [2, −1, −3]" in page_text(at)
    assert len(at.data_editor) == 1
