"""Sliders write their numbers in the reader's language ("1,0" and "5000" in Spanish), and a value off their grid
that came with a link is offered as it is, not rounded to the nearest step."""

from dataclasses import replace

import pytest

from engine import lesson_scenario
from engine.scenario_io import encode_scenario
from tests.app.helpers import by_label
from tests.app.test_scaling_page import open_scaling
from tests.app.test_share import open_link
from ui.i18n import LANGUAGES

# (page, the slider's label key, options as written in Spanish and in English: first, one in the middle, last)
SLIDERS = (
    ("pages/softmax.py", "softmax.temperature", ("0,1", "1,0", "5,0"), ("0.1", "1.0", "5.0")),
    ("pages/builder.py", "scenario.temperature", ("0,1", "2,5", "5,0"), ("0.1", "2.5", "5.0")),
    ("pages/walkthrough.py", "walk.5.scalar_slider", ("0,00", "0,35", "1,00"), ("0.00", "0.35", "1.00")),
)


@pytest.mark.parametrize(("page", "label", "spanish", "english"), SLIDERS)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_slider_writes_its_numbers_in_the_readers_language(page, label, spanish, english, lang):
    at = open_link({"lang": lang, "step": "5", "questions_on": "false"}, page)  # step: the walkthrough's part 5
    assert not at.exception
    slider = by_label(at.select_slider, LANGUAGES[lang][label])
    expected = spanish if lang == "es" else english
    assert slider.options[0] == expected[0]
    assert expected[1] in slider.options
    assert slider.options[-1] == expected[2]


@pytest.mark.parametrize(("lang", "most", "default"), [("es", "5000", "1000"), ("en", "5,000", "1,000")])
def test_thousands_on_a_slider_are_grouped_as_the_reader_groups_them(lang, most, default):
    at = open_scaling(lang, "walk")
    walks = at.select_slider(key="scaling_walks")
    assert walks.options[-1] == most
    assert default in walks.options


def test_a_temperature_off_the_sliders_grid_from_a_link_is_kept_and_written_whole():
    code = encode_scenario(replace(lesson_scenario(), temperature=0.37))
    at = open_link({"s": code, "lang": "es"}, "pages/builder.py")
    assert not at.exception
    slider = by_label(at.select_slider, LANGUAGES["es"]["scenario.temperature"])
    assert slider.value == 0.37
    assert "0,37" in slider.options
    assert slider.options.index("0,37") == slider.options.index("0,3") + 1  # in its place between 0,3 and 0,4
