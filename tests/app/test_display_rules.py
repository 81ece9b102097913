"""How numbers are displayed (issue 30, item 10), checked on what the pages write."""

from __future__ import annotations

import re

import pytest

from tests.app.helpers import figure_elements, go_to_part, open_page

LANGS = ("es", "en")
FACTOR = re.compile(r"\(([+−]?\d[\d.,]*)\)")  # a parenthesised number: (+0,807), (−0.150), (+10)


def decimals(number: str, lang: str) -> int:
    """Decimals of a written number; 0 for a whole one (whose thousands separator is no decimal sign)."""
    mark = "," if lang == "es" else "."
    return len(number.split(mark)[1]) if mark in number else 0


def derivation_blocks(lang: str) -> list[str]:
    at = open_page("pages/walkthrough.py", lang)
    blocks = []
    for part in range(1, 6):
        if part > 1:
            go_to_part(at, part)
        blocks += [str(code.value) for code in at.code if "np." not in str(code.value)]
    return blocks


@pytest.mark.parametrize("lang", LANGS)
def test_every_derivation_line_writes_its_factors_with_one_precision(lang):
    """(+0,807)(−0,15) beside −0,150, (+0,38) beside 0,380: the numbers of one line share one precision (a whole
    number, such as (+10), has none to share)."""
    checked = 0
    for block in derivation_blocks(lang):
        for line in block.splitlines():
            places = {decimals(n, lang) for n in FACTOR.findall(line)} - {0}
            assert len(places) <= 1, line
            checked += bool(places)
    assert checked >= 20


def test_a_product_that_rounds_to_zero_keeps_its_sign_and_the_lines_precision():
    """(−0,001)(+0,040) = −0,00004: written (−0,0000), never (+0), and its line all at four decimals."""
    from engine.derivation import dot
    from ui.derivation import block, dot_rows

    text = block(dot_rows("s", dot([0.5, -0.001], [0.3, 0.04])))
    products = text.splitlines()[1]
    assert "(−0,0000)" in products and "(+0,1500)" in products and "(+0)" not in text


def test_an_input_too_small_for_the_digits_shown_is_said_so():
    """0,0003 is written 0,000 and the arithmetic of what is written loses it: the derivation says so and gives the
    value with all its digits (0,0006 + 0,15 = 0,1506)."""
    from engine.derivation import dot
    from ui.derivation import block, dot_rows
    from ui.i18n import translate

    text = block(dot_rows("s", dot([0.0003, 0.5], [2.0, 0.3])))
    assert "(0)(+2)" in text
    assert translate("es", "derivation.hidden", value="+0,150600") in text
    note = translate("es", "derivation.hidden", value="")[:30]
    assert note in text and note not in block(dot_rows("s", dot([0.5], [0.3])))  # no note where nothing is lost


@pytest.mark.parametrize("lang", LANGS)
def test_spanish_writes_four_digit_numbers_without_a_point_and_five_with_one(lang):
    from ui.numbers import count, fixed

    four, five = {"es": ("1024", "20.000"), "en": ("1,024", "20,000")}[lang]
    assert count(1024, lang=lang) == four and count(20000, lang=lang) == five
    assert fixed(1234.5, 1, lang=lang) == {"es": "1234,5", "en": "1,234.5"}[lang]


def test_english_strings_use_english_quotes():
    from ui.i18n import LANGUAGES

    assert [key for key, text in LANGUAGES["en"].items() if "«" in text or "»" in text] == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_q_k_v_hover_gives_each_cells_dot_product_as_the_scores_hover_does(lang):
    import json

    at = open_page("pages/walkthrough.py", lang)
    (q,) = [json.loads(c.proto.spec) for c in figure_elements(at) if c.proto.id.endswith("-walk_q")]
    hover = q["data"][0]["customdata"]
    value = "+0,461" if lang == "es" else "+0.461"  # Q_perro[0], the lesson's
    word = "columna" if lang == "es" else "column"
    assert f"x_perro · {word} 0 {'de' if lang == 'es' else 'of'} W_Q = {value}" in hover[1][0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_walkthroughs_title_follows_the_scenarios_tokens(lang):
    from dataclasses import replace

    from engine import lesson_scenario
    from engine.scenario_io import encode_scenario
    from tests.app.test_share import open_link
    from ui.i18n import translate

    scenario = replace(lesson_scenario(), tokens=("la", "gata", "duerme"))
    at = open_link({"s": encode_scenario(scenario), "lang": lang, "questions_on": "false"}, "pages/walkthrough.py")
    assert [h.value for h in at.title] == [translate(lang, "walk.title", sentence="la gata duerme")]
    assert "perro" not in at.title[0].value and "dog" not in " ".join(m.value for m in at.markdown[:2])


@pytest.mark.parametrize("lang", LANGS)
def test_the_residual_reading_never_puts_two_parentheses_back_to_back(lang):
    """The reading once said "...than with one head (the step-by-step's) (mean cosine 0.887 against 0.999)": a name
    that ends in a parenthesis is followed by its numbers after a colon, not by a second parenthesis."""
    from tests.app.test_multihead_page import open_with

    readings = [str(box.value) for box in open_with(lang, part="residual").info]
    assert readings and not [text for text in readings if ") (" in text], readings
