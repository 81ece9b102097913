"""Nothing a visitor links, uploads, types or forges breaks a page or the session (issue 19, UI side).

Every crafted link and file of tests/fixtures/hostile/ is opened as a link and uploaded as a file, in both
languages; poisoned token names, hostile numbers and garbage are sent to the data editors as the browser's
own message would carry them (a WidgetState whose string_value is the editor's JSON): AppTest cannot type
into a data editor, so `forge` sends that message, and Streamlit reads it and calls the editor's on_change
exactly as it does for a browser's.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import numpy as np
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

from engine import errors as engine_errors
from engine import lesson_scenario, parse_number, random_scenario
from engine.errors import EngineInputError
from engine.limits import (
    MAX_SCENARIO_TOKENS,
    MAX_SENTENCE_CHARS,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
)
from engine.scenario_io import encode_scenario, scenario_to_json
from tests.app.helpers import APP, page_text, send_states, tables
from ui import editing
from ui.editing import apply_list_edits, apply_matrix_edits, apply_token_edits
from ui.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "hostile"
LANGS = ("es", "en")

# The part of the scenario each fixture breaks, read off tests/fixtures/hostile/README.md: the nesting depth is
# counted before any field is read, so nested text is refused as the whole link ("link") or file ("file").
BROKEN_PART = {
    "bidi_isolate_name_link.txt": "tokens",
    "bidi_name.json": "tokens",
    "binary_upload.bin": "file",
    "decompression_bomb_link.txt": "link",
    "deep_nesting_link.txt": "link",
    "deep_nesting_upload.json": "file",
    "deep_object_upload.json": "file",
    "huge_exponent_link.txt": "w_k",
    "huge_integer_link.txt": "x",
    "huge_integer_temperature_upload.json": "temperature",
    "huge_integer_upload.json": "w_q",
    "infinity_temperature_link.txt": "temperature",
    "integer_of_5000_digits_upload.json": "w_v",
    "invisible_name.json": "tokens",
    "long_decimal_upload.json": "x",
    "long_name_link.txt": "tokens",
    "lookalike_name_link.txt": "tokens",
    "fullwidth_duplicate_upload.json": "tokens",
    "braille_blank_name.json": "tokens",
    "tag_characters_name_link.txt": "tokens",
    "nan_upload.json": "x",
    "nesting_in_a_matrix_link.txt": "link",
    "newline_name.json": "tokens",
    "not_utf8_upload.bin": "file",
    "nul_name_link.txt": "tokens",
    "string_numbers_upload.json": "w_k",
    "surrogate_name_link.txt": "tokens",
    "surrogate_name_upload.json": "tokens",
    "wrong_types_upload.json": "tokens",
}
# How each language names those parts (written here by hand, not read from the app's strings).
PART_NAMES = {
    "es": {
        "tokens": "los nombres de los tokens",
        "x": "la matriz x",
        "w_q": "la matriz W_Q",
        "w_k": "la matriz W_K",
        "w_v": "la matriz W_V",
        "temperature": "la temperatura",
        "link": "el código del enlace",
        "file": "el archivo",
    },
    "en": {
        "tokens": "the token names",
        "x": "the matrix x",
        "w_q": "the matrix W_Q",
        "w_k": "the matrix W_K",
        "w_v": "the matrix W_V",
        "temperature": "the temperature",
        "link": "the link's code",
        "file": "the file",
    },
}
UNCHANGED = {"es": "El escenario no cambió.", "en": "The scenario did not change."}
CANNOT_READ = {
    "es": {"link": "Este enlace no se puede leer:", "file": "Este archivo no se puede leer:"},
    "en": {"link": "This link cannot be read:", "file": "This file cannot be read:"},
}


def fixture_names() -> list[str]:
    return sorted(path.name for path in FIXTURES.iterdir() if path.name != "README.md")


def as_link(name: str) -> str:
    """The fixture as a link's `s=` code: a link fixture as it is, a file deflated and base64url-coded as the app
    codes its own links."""
    data = (FIXTURES / name).read_bytes()
    if name.endswith("_link.txt"):
        return data.decode("ascii").strip()
    return base64.urlsafe_b64encode(zlib.compress(data, 9)).decode("ascii").rstrip("=")


def as_upload(name: str) -> bytes:
    """The fixture as an uploaded file: a file as it is, a link's code decoded to the JSON it carries."""
    data = (FIXTURES / name).read_bytes()
    if not name.endswith("_link.txt"):
        return data
    code = data.decode("ascii").strip()
    return zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))


def expected_part(name: str, way: str) -> str:
    """The broken part a fixture names when sent as `way` ("link" or "file"): the whole is named after how it came."""
    part = BROKEN_PART[name]
    return way if part in ("link", "file") else part


def open_app(lang: str, page: str = "pages/builder.py") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.session_state["questions_on"] = False  # the page's content at once, not a prediction first
    at.switch_page(page)
    return at.run()


def widget_id(at: AppTest, key_prefix: str) -> str:
    """The element id of the widget whose key starts with `key_prefix` (editors are keyed by a revision)."""
    for node in at._tree:
        node_id = getattr(getattr(node, "proto", None), "id", "") or ""
        key = node_id.rsplit("-", 1)[-1] if node_id.startswith("$$ID-") else ""
        if key.startswith(key_prefix):
            return node_id
    raise KeyError(key_prefix)


def send(at: AppTest, forged: WidgetState) -> AppTest:
    """Rerun with the page's widget states plus `forged`, as one message from the browser would carry them."""
    return send_states(at, forged)


class Raw(str):
    """Text sent as the editor's value as it is, not as JSON of a Python value (invalid or very deep JSON)."""


def forge(at: AppTest, editor: str, changes: object) -> AppTest:
    """Send a data editor's changes as the browser does: its JSON in the widget's string_value. Streamlit reads it
    (DataEditorSerde) and calls the editor's on_change, as for a real edit."""
    text = changes if isinstance(changes, Raw) else json.dumps(changes)
    return send(at, WidgetState(id=widget_id(at, f"editor_{editor}_"), string_value=text))


def open_share_box(at: AppTest) -> AppTest:
    """Open the share popover, as a click on it does (the popover's state is a widget value)."""
    return send(at, WidgetState(id=widget_id(at, "share_open"), bool_value=True))


def uploader(at: AppTest):
    """The share box's file uploader, by its key: upload_<scenario revision>, so a new scenario rebuilds it empty."""
    return at.file_uploader(key=f"upload_{at.session_state['scenario_rev']}")


def unescaped(markdown: str) -> str:
    """Markdown source as the reader sees it: backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", markdown)


def warnings(at: AppTest) -> list[str]:
    return [unescaped(str(w.value)) for w in at.warning]


def errors(at: AppTest) -> list[str]:
    return [unescaped(str(e.value)) for e in at.error]


def assert_no_exception(at: AppTest, context: str = "") -> None:
    assert len(at.exception) == 0, f"{context}: {[e.value for e in at.exception]}"


def same_scenario(a, b) -> bool:
    return a.tokens == b.tokens and all(np.array_equal(a.matrix(m), b.matrix(m)) for m in ("x", "w_q", "w_k", "w_v"))


# --- 2. links and uploads ---


@pytest.mark.parametrize("lang", LANGS)
def test_every_hostile_fixture_as_a_link_names_the_broken_part_and_shows_the_lesson(lang):
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    at.switch_page("pages/walkthrough.py")  # the link opens /walkthrough?s=<code>
    good = random_scenario(3)
    for name in fixture_names():
        at.session_state["scenario"] = good  # a working scenario first: a bad link must replace it
        at.query_params["s"] = as_link(name)
        at.run()
        assert_no_exception(at, name)
        shown = errors(at)
        assert len(shown) == 1, (name, shown)
        assert shown[0].startswith(CANNOT_READ[lang]["link"]), (name, shown)
        assert PART_NAMES[lang][expected_part(name, "link")] in shown[0], (name, shown)
        assert same_scenario(at.session_state["scenario"], lesson_scenario()), name
        assert "s" not in at.query_params
    at.run()
    assert errors(at) == [], "the message is shown once"
    assert_no_exception(at)


@pytest.mark.parametrize("lang", LANGS)
def test_every_hostile_fixture_as_an_upload_names_the_broken_part_and_keeps_the_scenario(lang):
    at = open_share_box(open_app(lang))
    good = random_scenario(4)
    uploader(at).set_value(("good.json", scenario_to_json(good).encode(), "application/json"))
    at.run()
    assert same_scenario(at.session_state["scenario"], good)
    at = open_share_box(at)  # a new scenario rebuilds the uploader; the box stays open
    for name in fixture_names():
        # named .json as the browser's file picker asks; the content is the fixture's
        uploader(at).set_value((f"{name}.json", as_upload(name), "application/json"))
        at.run()
        assert_no_exception(at, name)
        shown = errors(at)
        assert len(shown) == 1, (name, shown)
        assert shown[0].startswith(CANNOT_READ[lang]["file"]), (name, shown)
        assert PART_NAMES[lang][expected_part(name, "file")] in shown[0], (name, shown)
        assert same_scenario(at.session_state["scenario"], good), name
    at.run()
    assert errors(at) == [], "the message is shown once"


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_not_named_json_is_refused_by_name_and_the_scenario_kept(lang):
    """The file picker offers .json files only; a forged upload under another name (a good scenario inside) gets
    the app's own message, not Streamlit's exception."""
    at = open_share_box(open_app(lang))
    good = random_scenario(4)
    uploader(at).set_value(("good.json", scenario_to_json(good).encode(), "application/json"))
    at.run()
    at = open_share_box(at)
    for name in ("evil.txt", "evil.json.exe", "json", "evil"):
        uploader(at).set_value((name, scenario_to_json(random_scenario(3)).encode(), "application/json"))
        at.run()
        assert_no_exception(at, name)
        expected = {"es": "el nombre del archivo no termina en .json.", "en": "the file's name does not end in .json."}
        assert errors(at) == [f"{CANNOT_READ[lang]['file']} {expected[lang]} {UNCHANGED[lang]}"], name
        assert same_scenario(at.session_state["scenario"], good), name
    # a NUL byte: no file system allows one in a name (Streamlit, given types, would raise before the page's script)
    uploader(at).set_value(("evil\x00.json", scenario_to_json(random_scenario(3)).encode(), "application/json"))
    at.run()
    assert_no_exception(at, "nul")
    nul = {"es": "el nombre del archivo tiene un byte nulo", "en": "the file's name holds a NUL byte"}
    assert len(errors(at)) == 1 and nul[lang] in errors(at)[0]
    assert same_scenario(at.session_state["scenario"], good)
    uploader(at).set_value(("GOOD.JSON", scenario_to_json(good).encode(), "application/json"))
    at.run()
    assert errors(at) == []  # the extension in capitals is still .json


def engine_fields() -> set[str]:
    """Every `field` scenario_io can name in a bad_scenario error, read from its source."""
    source = (ROOT / "engine" / "scenario_io.py").read_text(encoding="utf-8")
    fields = set(re.findall(r'_bad\(\s*"(\w+)"', source))  # _bad("tokens", ...)
    fields |= set(re.findall(r'_matrix\(data, "(\w+)"', source))  # x, w_q, w_k, w_v
    fields |= set(re.findall(r'_parse\(\w+, "(\w+)"\)', source))  # "file", "link"
    return fields


@pytest.mark.parametrize("lang", LANGS)
def test_every_part_a_link_or_file_can_break_has_a_name_in_each_language(lang):
    fields = engine_fields()
    assert {"tokens", "x", "w_q", "w_k", "w_v", "temperature", "link", "file", "version", "scale"} <= fields
    assert sorted(field for field in fields if f"share.field.{field}" not in LANGUAGES[lang]) == []


# --- 3. names that poisoned the session ---

POISONED_NAMES = {
    "\ud800": "U+D800",  # a lone surrogate: every later run failed with UnicodeEncodeError
    "- perro\n- gato": "U+000A",  # a newline: markdown list items
    "\u202eperro": "U+202E",  # a right-to-left override: shown reversed
    "a\x00b": "U+0000",
    "\u200b\u200d\u2060": None,  # nothing visible
    # issue 26, item 11: names that read the same as another, hide a character, or draw nothing
    "\u0440\u0435rr\u043e": {"es": "Se ve igual que «perro»", "en": "It looks the same as “perro”"},  # Cyrillic
    "perro\u200b": {"es": "está pero no se ve (U+200B)", "en": "there but cannot be seen (U+200B)"},  # zero-width
    "\u2800": None,  # the braille blank: an empty label
}
KEEPS_NAME = {"es": "Se mantiene «el»", "en": "It stays “el”"}
NO_VISIBLE = {"es": "ningún carácter visible", "en": "no visible character"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "name",
    list(POISONED_NAMES),
    ids=["surrogate", "newline", "bidi", "nul", "invisible", "lookalike", "zero-width", "braille-blank"],
)
def test_a_poisoned_name_is_refused_with_a_message_and_the_session_keeps_working(name, lang):
    at = open_app(lang)
    forge(at, "x", {"edited_rows": {"0": {"token": name}}, "added_rows": [], "deleted_rows": []})
    assert_no_exception(at)
    assert at.session_state["scenario"].tokens == lesson_scenario().tokens
    shown = warnings(at)
    assert len(shown) == 1, shown
    assert KEEPS_NAME[lang] in shown[0]
    says = POISONED_NAMES[name]
    assert (says[lang] if isinstance(says, dict) else says or NO_VISIBLE[lang]) in shown[0], shown[0]
    for page in ("pages/walkthrough.py", "pages/builder.py"):
        at.switch_page(page).run()
        assert_no_exception(at, page)
    forge(at, "x", {"edited_rows": {"0": {"token": "gato"}}, "added_rows": [], "deleted_rows": []})
    assert at.session_state["scenario"].tokens == ("gato", "perro", "come")
    assert warnings(at) == []


# --- 4. limits on what a user can type ---


def test_the_sentence_box_takes_at_most_the_engines_limit():
    at = open_app("es", "pages/pipeline.py")
    assert at.text_input(key="pipeline_sentence").proto.max_chars == MAX_SENTENCE_CHARS


@pytest.mark.parametrize(("lang", "limit"), [("es", "2000"), ("en", "2,000")])
def test_a_forged_900_kb_sentence_is_cut_to_the_limit_with_a_message(lang, limit):
    at = open_app(lang, "pages/pipeline.py")
    # The browser stops typing at max_chars (and so does AppTest's input()); a forged message carries it all, up to
    # the 1 MB a message may have (server.maxWidgetStateSize; tests/e2e/test_hostile_in_browser.py sends 21 MB).
    send(at, WidgetState(id=widget_id(at, "pipeline_sentence"), string_value="perro " * 150_000))
    assert_no_exception(at)
    assert len(at.session_state["pipeline_sentence"]) <= MAX_SENTENCE_CHARS
    notices = [str(i.value) for i in at.info]
    assert any(limit in notice for notice in notices), notices
    # the tokens' table, the page's first: a table has no key or label to find it by
    assert len(tables(at)[0].columns) == MAX_TOKENS


@pytest.mark.parametrize(("lang", "words"), [("es", "Un token"), ("en", "One token")])
def test_a_long_word_is_shortened_with_a_message(lang, words):
    at = open_app(lang, "pages/pipeline.py")
    at.text_input(key="pipeline_sentence").input("el " + "a" * 1500 + " come").run()
    assert_no_exception(at)
    notices = " ".join(str(i.value) for i in at.info)
    assert words in notices and str(MAX_TOKEN_CHARS) in notices
    # the tokens' table, the page's first: a table has no key or label to find it by
    assert "a" * MAX_TOKEN_CHARS in tables(at)[0].to_string()
    assert "a" * (MAX_TOKEN_CHARS + 1) not in page_text(at)


@pytest.mark.parametrize(("lang", "limit", "length"), [("es", "2000", "20.000.000"), ("en", "2,000", "20,000,000")])
def test_a_sentence_over_the_limit_is_refused_in_the_readers_numbers(session, lang, limit, length):
    session["lang"] = lang
    text = editing.refusal_text("sentence_too_long", {"limit": MAX_SENTENCE_CHARS, "length": 20_000_000})
    assert limit in text and length in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_score_list_stops_at_its_stated_length(lang):
    at = open_app(lang, "pages/softmax.py")
    forge(at, "softmax_scores", {"edited_rows": {}, "added_rows": [{"0": "1"}] * 10_000, "deleted_rows": []})
    assert_no_exception(at)
    assert len(at.session_state["lists"]["softmax_scores"]) == 12
    assert any("12" in w for w in warnings(at))


# --- 6. names shown literally ---

MARKDOWN_NAMES = ("www.evil.com", "__x__", "<b>b</b>", "$x$", ":material/home:", "[a](http://x)")


def test_names_are_escaped_in_every_markdown_text_of_the_walkthrough():
    scenario = random_scenario(1, MARKDOWN_NAMES)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = "en"
    at.switch_page("pages/walkthrough.py")
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    for step in range(1, 6):
        at.session_state["step"] = step
        at.run()
        assert_no_exception(at, f"step {step}")
        markdown = [
            str(element.value)
            for group in (at.markdown, at.caption, at.info, at.warning, at.success, at.error)
            for element in group
        ]
        for name in MARKDOWN_NAMES:
            raw = [text for text in markdown if name in text]
            assert raw == [], f"step {step}: {name!r} unescaped in {raw}"


# --- 7. numbers typed in either locale ---

# The editors read numbers in the reader's convention (ui.editors: parse_number with the reader's decimal
# separator). A number with one separator that is not followed by exactly three digits reads the same in either
# language; with three digits after it, the reader's decimal separator is decimal ("1,250" is one and a quarter for
# a Spanish reader, as the app writes it) and the reader's thousands separator is refused as ambiguous ("1.250"
# could be twelve hundred and fifty for that reader): nothing is ever read as a thousands group.
NUMBERS = {"1.5": 1.5, "1,5": 1.5, "1e-3": 0.001, "-2,5E4": -25000.0, "−0.25": -0.25}
AMBIGUOUS = {"es": "es ambiguo", "en": "is ambiguous"}
DECIMAL = {"es": ",", "en": "."}
THOUSANDS = {"es": ".", "en": ","}


def edit_x(at: AppTest, typed: str) -> AppTest:
    """Type `typed` into the x editor's cell (row 1, column 0), as the browser sends it."""
    return forge(at, "x", {"edited_rows": {"1": {"0": typed}}, "added_rows": [], "deleted_rows": []})


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_typed_in_either_locale_are_read_the_same(lang):
    at = open_app(lang)
    for typed, value in NUMBERS.items():
        edit_x(at, typed)
        assert at.session_state["scenario"].x[1, 0] == value, typed
        assert warnings(at) == []
    # three digits after the reader's decimal separator: a decimal, as the app itself writes numbers
    decimal = f"1{DECIMAL[lang]}250"
    edit_x(at, decimal)
    assert at.session_state["scenario"].x[1, 0] == 1.25, decimal
    assert warnings(at) == []
    # three digits after the reader's thousands separator: refused as ambiguous, the value kept, the text named
    grouped = f"1{THOUSANDS[lang]}250"
    edit_x(at, grouped)
    assert at.session_state["scenario"].x[1, 0] == 1.25, grouped
    shown = warnings(at)
    assert len(shown) == 1 and AMBIGUOUS[lang] in shown[0] and grouped in shown[0], shown


HELP_ACCEPTS = {
    "es": {"1.5": 1.5, "1,5": 1.5, "−2": -2.0, "1e-3": 0.001, "2,5E4": 25000.0, "1250": 1250.0, "1,250": 1.25},
    "en": {"1.5": 1.5, "1,5": 1.5, "−2": -2.0, "1e-3": 0.001, "2.5E4": 25000.0, "1250": 1250.0, "1.250": 1.25},
}
HELP_REFUSES = {
    "es": {"1.000,5": "ambiguous_number", "1,2,3": "ambiguous_number", "1.250": "ambiguous_number"},
    "en": {"1.000,5": "ambiguous_number", "1,2,3": "ambiguous_number", "1,250": "ambiguous_number"},
}
# the limits as the help writes them, in the reader's numbers (MAX_NUMBER_CHARS = 40, MAX_ABS_VALUE = 10**6)
HELP_LIMITS = {"es": ("40", "−1.000.000", "1.000.000"), "en": ("40", "−1,000,000", "1,000,000")}


def number_helps(at: AppTest, editor: str) -> list[str]:
    """The help of every number column of an editor (its text columns but the token names; the row index is no
    column of values), as the page sends it to the browser: hovering a column's header shows it."""
    editor_id = widget_id(at, f"editor_{editor}_")
    proto = next(node.proto for node in at._tree if getattr(getattr(node, "proto", None), "id", "") == editor_id)
    columns = json.loads(proto.columns)
    texts = {name: column for name, column in columns.items() if column.get("type_config", {}).get("type") == "text"}
    return [column.get("help", "") for name, column in texts.items() if name != editing.TOKEN_COLUMN]


@pytest.mark.parametrize("lang", LANGS)
def test_the_number_help_states_the_engines_grammar(lang):
    builder = open_app(lang)
    helps = number_helps(builder, "x") + number_helps(builder, "w_q")
    helps += number_helps(open_app(lang, "pages/softmax.py"), "softmax_scores")
    assert len(helps) == 4 + 4 + 1 and len(set(helps)) == 1, helps  # x and W_Q: 4 columns each; the scores: 1
    text = helps[0]
    # every example the help gives is read, or refused, as it says, by the reader's convention
    for example, value in HELP_ACCEPTS[lang].items():
        assert example in text, example
        assert parse_number(example, decimal=DECIMAL[lang]) == value, example
    for example, code in HELP_REFUSES[lang].items():
        assert example in text, example
        with pytest.raises(EngineInputError) as refused:
            parse_number(example, decimal=DECIMAL[lang])
        assert refused.value.code == code
    chars, low, high = HELP_LIMITS[lang]
    assert re.search(rf"\b{chars}\b", text) and low in text and high in text, text
    # and the limits it states are the ones the engine keeps: 40 characters and ±1,000,000 are read, one more refused
    assert parse_number("0" * 39 + "1", decimal=DECIMAL[lang]) == 1.0
    assert parse_number("1000000", decimal=DECIMAL[lang]) == 10**6
    assert parse_number("-1000000", decimal=DECIMAL[lang]) == -(10**6)
    for beyond, code in (("0" * 40 + "1", "number_too_long"), ("1000001", "too_large"), ("-1000001", "too_large")):
        with pytest.raises(EngineInputError) as refused:
            parse_number(beyond, decimal=DECIMAL[lang])
        assert refused.value.code == code, beyond


# --- 8. forged editor messages ---

GARBAGE = {
    "row not a number": {"edited_rows": {"abc": {"0": "1"}}},  # Streamlit's own reader raised, on every later run
    "row negative": {"edited_rows": {"-1": {"0": "1"}}},
    "row huge": {"edited_rows": {"99999999999999999999999": {"0": "1"}}},
    "column 999": {"edited_rows": {"0": {"999": "1"}}},
    "cells not a dict": {"edited_rows": {"0": ["a", "b"]}},
    "rows not a dict": {"edited_rows": ["a"]},
    "value a dict": {"edited_rows": {"0": {"0": {"a": 1}}}},
    "value a list": {"edited_rows": {"0": {"0": [1, 2]}}},
    "value huge int": {"edited_rows": {"0": {"0": 10**400}}},
    "value NaN text": {"edited_rows": {"0": {"0": "NaN"}}},
    "name a dict": {"edited_rows": {"0": {"token": {"a": 1}}}},
    "added not a list": {"added_rows": "garbage"},
    "added not rows": {"added_rows": [1, "x", None, [1, 2]]},
    "deleted negative": {"deleted_rows": [-1]},
    "deleted huge": {"deleted_rows": [10**30]},
    "deleted text": {"deleted_rows": ["abc"]},
    "deleted fraction": {"deleted_rows": [0.5]},
    "deleted not a list": {"deleted_rows": "0"},
    "a list": [1, 2],
    "text": "just text",
    "a number": 5,
    "not JSON": Raw("{edited_rows: nope"),
    "nested 100,000 deep": Raw("[" * 100_000 + "]" * 100_000),
}


@pytest.mark.parametrize("editor", ["x", "w_q", "softmax_scores"])
def test_forged_editor_messages_never_raise_and_the_session_keeps_working(editor):
    page = "pages/softmax.py" if editor == "softmax_scores" else "pages/builder.py"
    at = open_app("en", page)
    scores = at.session_state["lists"]["softmax_scores"].copy() if editor == "softmax_scores" else None
    for name, garbage in GARBAGE.items():
        forge(at, editor, garbage)
        assert_no_exception(at, name)
        assert len(warnings(at)) >= 1, f"{name}: the refusal is said"
        if scores is None:
            assert same_scenario(at.session_state["scenario"], lesson_scenario()), name
        else:
            assert np.array_equal(at.session_state["lists"]["softmax_scores"], scores), name
        at.run()
        assert_no_exception(at, f"{name}, on the next run")
    forge(at, editor, {"edited_rows": {"0": {"0": "0,5"}}, "added_rows": [], "deleted_rows": []})
    assert_no_exception(at, "a good edit after the garbage")
    if editor == "softmax_scores":
        assert at.session_state["lists"]["softmax_scores"][0] == 0.5
    else:
        assert at.session_state["scenario"].matrix(editor)[0, 0] == 0.5


def test_a_thousand_refused_cells_give_a_few_messages():
    changes = {"edited_rows": {i: {"0": "abc", "1": "abc"} for i in range(3)}}
    _, errors = apply_matrix_edits(np.zeros((3, 2)), changes, "W_Q")
    assert [code for code, _ in errors] == ["not_a_number"] * 4 + ["more_refused"]
    assert errors[-1][1]["count"] == 2
    changes = {"edited_rows": {0: {str(j): "abc" for j in range(1000)}}}
    _, errors = apply_matrix_edits(np.zeros((1, 1000)), changes, "W_Q")
    assert len(errors) == 5 and errors[-1] == ("more_refused", {"count": 996})


GARBAGE_VALUES = [None, "", "abc", 1, -1, 10**30, 0.5, True, [], {}, [1], {"0": 1}, "0", "-1", "١"]


@pytest.mark.parametrize("value", GARBAGE_VALUES, ids=repr)
def test_the_edit_appliers_never_raise_on_any_part_of_a_message(value):
    tokens, x = lesson_scenario().tokens, lesson_scenario().x
    shapes = [
        {"edited_rows": value},
        {"edited_rows": {value if isinstance(value, int | str) else "0": value}},
        {"edited_rows": {0: {"0": value, "token": value}}},
        {"added_rows": value},
        {"added_rows": [value]},
        {"deleted_rows": value},
        {"deleted_rows": [value]},
        value,
    ]
    for changes in shapes:
        names, new_x, _ = apply_token_edits(tokens, x, changes)
        assert len(names) == new_x.shape[0] >= 1 and new_x.shape[1] == x.shape[1]
        matrix, _ = apply_matrix_edits(x, changes, "x")
        assert matrix.shape == x.shape and np.isfinite(matrix).all()
        scores, _ = apply_list_edits(np.array([2.0, 5.0, 1.0]), changes, "#", 12)
        assert 1 <= scores.size <= 12 and np.isfinite(scores).all()


def test_an_added_row_over_the_limit_is_refused_and_the_rest_kept():
    added = {"added_rows": [{"token": f"t{i}"} for i in range(40)]}
    tokens, x, errors = apply_token_edits(("a",), np.zeros((1, 2)), added)
    assert len(tokens) == MAX_SCENARIO_TOKENS and x.shape == (MAX_SCENARIO_TOKENS, 2)
    assert [code for code, _ in errors] == ["too_many_tokens"]


# --- 10. every refusal has a message in both languages ---


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", template))


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_error_code_has_a_message_using_only_its_parameters(lang):
    strings = LANGUAGES[lang]
    missing = sorted(code for code in engine_errors.CODES if f"error.{code}" not in strings)
    assert missing == []
    extra = {
        code: placeholders(strings[f"error.{code}"]) - set(params) for code, (params, _) in engine_errors.CODES.items()
    }
    assert {code: names for code, names in extra.items() if names} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_ui_refusal_has_a_message_using_only_its_parameters(lang):
    strings = LANGUAGES[lang]
    for code, (params, _) in editing.UI_CODES.items():
        assert f"error.{code}" in strings, code
        assert placeholders(strings[f"error.{code}"]) <= set(params), code


def test_ui_codes_and_engine_codes_do_not_collide_and_leave_where_and_part_free():
    assert set(editing.UI_CODES).isdisjoint(engine_errors.CODES)
    declared = {name for params, _ in [*engine_errors.CODES.values(), *editing.UI_CODES.values()] for name in params}
    assert {"where", "part"}.isdisjoint(declared)
