"""Token names that look alike, draw nothing or hide characters are refused (issue 26, item 11).

Before: «perro» and «perro» with a zero-width space, or Cyrillic «реrrо», gave two rows that both read "perro"; a
name of only U+2800 (braille blank) drew an empty label; tag characters travelled hidden in links and CSV.
"""

from __future__ import annotations

import json

import pytest

from engine import EngineInputError, check_token_name, lesson_scenario
from engine.scenario_io import decode_scenario, encode_scenario, scenario_from_json, scenario_to_dict

CYRILLIC_PERRO = "\u0440\u0435rr\u043e"  # р, е, r, r, о: Cyrillic er, ie and o among Latin r's
GREEK_PERRO = "\u03c1errο"  # Greek rho and omicron


def refused(name: str, others: list[str] | tuple[str, ...] = ()) -> EngineInputError:
    with pytest.raises(EngineInputError) as info:
        check_token_name(name, list(others))
    return info.value


@pytest.mark.parametrize(
    "twin",
    [
        CYRILLIC_PERRO,
        GREEK_PERRO,
        "p\u0435rro",  # one Cyrillic е
        "perr\u03bf",  # one Greek omicron
        "perr\u043e",  # one Cyrillic о
        "\u0440erro",  # one Cyrillic р
    ],
    ids=["cyrillic", "greek", "one-cyrillic-e", "one-greek-o", "one-cyrillic-o", "one-cyrillic-p"],
)
def test_a_name_that_looks_like_another_is_refused_naming_it(twin):
    error = refused(twin, ["el", "perro"])
    assert error.code == "token_lookalike"
    assert error.params == {"name": "perro"}
    assert check_token_name(twin, ["el"]) == twin  # alone it is a name like any other


@pytest.mark.parametrize(
    ("a", "b"), [("x", "\u0445"), ("come", "\u0441\u043em\u0435"), ("a", "\u0430"), ("B", "\u0392")]
)
def test_latin_cyrillic_and_greek_look_alikes_are_one_name_both_ways(a, b):
    assert refused(b, [a]).code == "token_lookalike"
    assert refused(a, [b]).code == "token_lookalike"


@pytest.mark.parametrize(("a", "b"), [("perro", "Perro"), ("nandu", "ñandú"), ("e", "é"), ("el", "él"), ("o", "O")])
def test_names_that_a_reader_tells_apart_are_both_kept(a, b):
    assert check_token_name(b, [a]) == b
    assert check_token_name(a, [b]) == a


def test_compatibility_forms_are_written_as_their_plain_letters_nfkc():
    assert check_token_name("ｐｅｒｒｏ", []) == "perro"  # full-width
    assert check_token_name("\ufb01n", []) == "fin"  # the ligature ﬁ
    assert refused("ｐｅｒｒｏ", ["perro"]).code == "duplicate_token"


# Characters that are there without being seen (format characters, Cf; selectors; blank letters), inside "perro".
HIDDEN = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner, between Latin letters
    "\u200d",  # zero-width joiner, between Latin letters
    "\u2060",  # word joiner
    "\ufeff",  # byte-order mark
    "\u00ad",  # soft hyphen
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\u180e",  # Mongolian vowel separator
    "\u2061",  # function application (invisible)
    "\u2064",  # invisible plus
    "\ufff9",  # interlinear annotation anchor
    "\U000e0001",  # language tag
    "\U000e0041",  # tag latin capital A
    "\U0001d173",  # musical symbol begin beam
    "\ufe0f",  # emoji variation selector after a letter: selects nothing
    "\ufe00",  # variation selector 1
    "\U000e0100",  # variation selector 17 after a Latin letter
    "\u2800",  # braille blank
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\uffa0",  # half-width Hangul filler
    "\U0001d159",  # musical symbol null notehead
    "\u034f",  # combining grapheme joiner
    "\u17b4",  # Khmer vowel inherent aq
]


@pytest.mark.parametrize("char", HIDDEN, ids=lambda c: f"U+{ord(c):04X}")
def test_a_hidden_character_inside_a_name_is_refused_naming_it(char):
    error = refused(f"per{char}ro")
    assert error.code == "token_hidden_character"
    assert error.params == {"char": f"U+{ord(char):04X}"}


@pytest.mark.parametrize("char", ["\u2800", "\u3164", "\u115f", "\u1160", "\uffa0", "\U0001d159", "\u17b4"])
def test_a_name_of_only_blank_drawn_characters_is_refused_as_invisible(char):
    assert refused(char).code == "token_invisible"
    assert refused(char * 3).code == "token_invisible"


@pytest.mark.parametrize(
    "name",
    [
        "👩\u200d💻",  # an emoji zero-width-joiner sequence
        "🏳\ufe0f\u200d🌈",  # with a variation selector inside
        "👨🏽\u200d🦰",  # with a skin tone
        "❤\ufe0f",  # emoji presentation
        "1\ufe0f\u20e3",  # a keycap
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # the flag of England: tag characters
        "क\u094d\u200dष",  # Devanagari: a joiner after a virama shapes the conjunct
        "می\u200cخواهم",  # Persian: a non-joiner between Arabic letters
        "葛\U000e0100",  # an ideographic variation sequence (Japanese names)
        "ñandú",
        "שלום",
    ],
)
def test_format_characters_doing_visible_work_are_kept(name):
    assert check_token_name(name, []) == name


def test_links_and_files_go_through_the_same_rule():
    data = scenario_to_dict(lesson_scenario())
    for tokens in (["el", "perro", CYRILLIC_PERRO], ["el", "\u2800", "come"], ["el", "perro\U000e0068\U000e0069", "x"]):
        text = json.dumps({**data, "tokens": tokens}, ensure_ascii=False)
        with pytest.raises(EngineInputError) as info:
            scenario_from_json(text)
        assert info.value.params == {"field": "tokens"}, tokens
    # a link made by a build that still took such names is refused the same way
    code = encode_scenario(lesson_scenario())
    assert decode_scenario(code).tokens == ("el", "perro", "come")
