"""Scenarios survive JSON and link round trips exactly; malformed, truncated or hostile data is refused."""

import base64
import json
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineInputError, lesson_scenario, random_scenario
from engine.limits import MAX_JSON_DEPTH, MAX_LINK_CHARS
from engine.scenario import Scenario
from engine.scenario_io import (
    decode_scenario,
    encode_scenario,
    scenario_from_dict,
    scenario_from_json,
    scenario_to_dict,
    scenario_to_json,
)


def same(a: Scenario, b: Scenario) -> bool:
    return (
        a.tokens == b.tokens
        and (a.scale, a.causal, a.temperature) == (b.scale, b.causal, b.temperature)
        and all(np.array_equal(a.matrix(n), b.matrix(n)) for n in ("x", "w_q", "w_k", "w_v"))
    )


def field_of(exc_info) -> str:
    assert exc_info.value.code == "bad_scenario"
    return exc_info.value.params["field"]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(1, 16),
    d_model=st.integers(2, 8),
    d_k=st.integers(1, 8),
    scale=st.sampled_from(["none", "sqrt", "dk"]),
    causal=st.booleans(),
    temperature=st.floats(0.1, 5.0),
)
def test_a_link_reproduces_the_scenario_exactly(seed, n, d_model, d_k, scale, causal, temperature):
    tokens = tuple(f"t{i}·ñ🐶" for i in range(n))
    base = random_scenario(seed, tokens, d_model, d_k)
    scenario = Scenario(base.tokens, base.x, base.w_q, base.w_k, base.w_v, scale, causal, temperature)
    assert same(decode_scenario(encode_scenario(scenario)), scenario)
    assert same(scenario_from_json(scenario_to_json(scenario)), scenario)


def test_the_lessons_link_is_short_enough_to_paste():
    assert len(encode_scenario(lesson_scenario())) < 400


@pytest.mark.parametrize(
    "code",
    ["", "a", "!!!!", "eNo", "x" * (MAX_LINK_CHARS + 1), "<script>alert(1)</script>", "../../etc/passwd"],
)
def test_malformed_links_are_refused(code):
    with pytest.raises(EngineInputError) as info:
        decode_scenario(code)
    assert field_of(info) == "link"


def test_a_truncated_link_is_refused():
    code = encode_scenario(lesson_scenario())
    for cut in (1, 5, len(code) // 2):
        with pytest.raises(EngineInputError):
            decode_scenario(code[:-cut])


def test_a_decompression_bomb_is_refused_without_inflating_it():
    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" + b"0," * 2_000_000 + b"0]", 9)).decode().rstrip("=")
    assert len(bomb) < MAX_LINK_CHARS
    with pytest.raises(EngineInputError):
        decode_scenario(bomb)


def code_for(data) -> str:
    raw = json.dumps(data).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


def lesson_dict() -> dict:
    return scenario_to_dict(lesson_scenario())


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"version": 99}, "version"),
        ({"tokens": []}, "tokens"),
        ({"tokens": ["a"] * 17}, "tokens"),
        ({"tokens": ["el", "el", "come"]}, "tokens"),
        ({"tokens": ["el", "", "come"]}, "tokens"),
        ({"tokens": ["el", 3, "come"]}, "tokens"),
        ({"x": [[1, 2, 3, 4]]}, "x"),
        ({"x": "[[1]]"}, "x"),
        ({"w_q": [[1e308] * 4] * 4}, "w_q"),
        ({"w_k": [["0.1"] * 4] * 4}, "w_k"),
        ({"w_v": [[None] * 4] * 4}, "w_v"),
        ({"w_v": [[True] * 4] * 4}, "w_v"),
        ({"w_k": [[0.1] * 3] * 4}, "w_k"),
        ({"scale": "__import__('os')"}, "scale"),
        ({"causal": "yes"}, "causal"),
        ({"temperature": 0}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
    ],
)
def test_each_wrong_field_is_named(change, field):
    data = {**lesson_dict(), **change}
    with pytest.raises(EngineInputError) as info:
        scenario_from_dict(data)
    assert field_of(info) == field
    with pytest.raises(EngineInputError):
        decode_scenario(code_for(data))


def test_nan_and_infinity_in_uploaded_json_are_refused():
    text = scenario_to_json(lesson_scenario()).replace("0.21", "NaN", 1)
    with pytest.raises(EngineInputError) as info:
        scenario_from_json(text)
    assert field_of(info) == "x"
    text = scenario_to_json(lesson_scenario()).replace("0.21", "1e999", 1)
    with pytest.raises(EngineInputError):
        scenario_from_json(text)


def test_non_json_and_oversized_files_are_refused():
    for text in (b"\x89PNG\r\n", "not json", "[]", "null", "{" * 10, " " * 200_001):
        with pytest.raises(EngineInputError):
            scenario_from_json(text)


def test_html_in_token_names_travels_as_plain_text():
    names = ("<img src=x onerror=alert(1)>", "**negrita**", "$\\frac{a}{b}$")
    base = lesson_scenario()
    scenario = Scenario(names, base.x, base.w_q, base.w_k, base.w_v)
    assert decode_scenario(encode_scenario(scenario)).tokens == names


# --- nesting, numbers and names that used to crash a run or poison a session --------------------------


def test_a_link_of_brackets_nested_99999_deep_is_refused_before_json_recurses():
    code = base64.urlsafe_b64encode(zlib.compress(b"[" * 99_999, 9)).decode().rstrip("=")
    assert len(code) == 162  # the link of the issue
    with pytest.raises(EngineInputError) as info:  # was RecursionError
        decode_scenario(code)
    assert field_of(info) == "link"
    with pytest.raises(EngineInputError) as upload:
        scenario_from_json('{"x":' * 16_000)
    assert field_of(upload) == "file"


def nesting(value: object) -> int:
    """How many objects and lists deep `value` goes (a number or a string: 0)."""
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


def test_nesting_is_counted_outside_strings_only():
    # MAX_JSON_DEPTH levels are read; one more is refused before any field is looked at
    extra: object = 0
    for _ in range(MAX_JSON_DEPTH - 1):
        extra = [extra]
    data = {**lesson_dict(), "extra": extra}  # the object and MAX_JSON_DEPTH − 1 lists: depth MAX_JSON_DEPTH
    assert nesting(data) == MAX_JSON_DEPTH  # the nesting built is the one meant
    scenario_from_json(json.dumps(data))
    data["extra"] = [data["extra"]]
    with pytest.raises(EngineInputError) as info:
        scenario_from_json(json.dumps(data))
    assert field_of(info) == "file"
    # brackets, quotes and backslashes inside names are text, not nesting
    names = ['a\\"' + "[" * 20, "a\\", "{" * 20 + "\\"]
    scenario = Scenario(
        tuple(names), lesson_scenario().x, *(lesson_scenario().matrix(m) for m in ("w_q", "w_k", "w_v"))
    )
    assert decode_scenario(encode_scenario(scenario)).tokens == tuple(names)
    assert scenario_from_json(scenario_to_json(scenario)).tokens == tuple(names)


@pytest.mark.parametrize(
    ("literal", "field"),
    [
        ("1" * 400, "x"),  # was OverflowError
        ("-" + "9" * 400, "x"),
        ("7" * 5000, "x"),  # beyond Python's 4300-digit int conversion limit
        ("1e999", "x"),
        ("0." + "3" * 300, "x"),
        ("NaN", "x"),
        ("-Infinity", "x"),
    ],
    ids=["400-digits", "minus-400-digits", "5000-digits", "1e999", "300-decimals", "NaN", "-Infinity"],
)
def test_numbers_json_can_spell_but_a_scenario_cannot_hold_name_their_field(literal, field):
    text = json.dumps(lesson_dict()).replace("0.21", literal, 1)
    for read in (scenario_from_json, lambda t: decode_scenario(code_for_text(t))):
        with pytest.raises(EngineInputError) as info:
            read(text)
        assert field_of(info) == field


@pytest.mark.parametrize("literal", ["1" * 400, "Infinity", "NaN", "1e999"])
def test_a_temperature_json_cannot_hold_is_refused_by_name(literal):
    text = json.dumps(lesson_dict()).replace('"temperature": 1.0', f'"temperature": {literal}')
    assert literal in text
    with pytest.raises(EngineInputError) as info:  # a 400-digit one was OverflowError
        scenario_from_json(text)
    assert field_of(info) == "temperature"


@pytest.mark.parametrize(
    "name", ["\ud800", "perro\udfff", "\u202eorrep", "a\u2066b", "- perro\n- gato", "per\x00ro", "\u200b\u200d"]
)
def test_names_that_would_poison_the_session_are_refused_in_links_and_files(name):
    data = {**lesson_dict(), "tokens": ["el", name, "come"]}
    text = json.dumps(data)  # ASCII: "\ud800" travels as an escape, exactly as a crafted link carries it
    assert "\\u" in text or "\\n" in text
    with pytest.raises(EngineInputError) as upload:
        scenario_from_json(text)
    assert field_of(upload) == "tokens"
    with pytest.raises(EngineInputError) as link:
        decode_scenario(code_for_text(text))
    assert field_of(link) == "tokens"


def test_a_decomposed_name_arrives_composed():
    data = {**lesson_dict(), "tokens": ["el", "n\u0303and\u00fa", "come"]}
    assert scenario_from_json(json.dumps(data)).tokens == ("el", "\u00f1and\u00fa", "come")


@pytest.mark.parametrize("text", [None, 3, ["{}"], b"\xff\xfe{}", bytearray(b"\x89PNG")])
def test_an_upload_that_is_not_utf8_text_is_refused(text):
    with pytest.raises(EngineInputError) as info:
        scenario_from_json(text)
    assert field_of(info) == "file"


def test_an_upload_with_a_byte_order_mark_is_read():
    text = "\ufeff" + scenario_to_json(lesson_scenario())
    assert same(scenario_from_json(text.encode("utf-8")), lesson_scenario())


def code_for_text(text: str) -> str:
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"))).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    ['"' * 99_999, '"' + '\\"' * 49_990, '"\\"' * 33_000 + "\\", "\\" * 99_999, "[]" * 49_999],
    ids=["quotes", "escaped-quotes-never-closed", "ending-in-a-backslash", "backslashes", "flat-brackets"],
)
def test_quotes_and_backslashes_that_would_make_the_depth_scan_quadratic_are_refused(text):
    # every quote opens a string that the scan crosses once; a quadratic scan would take minutes here
    with pytest.raises(EngineInputError) as info:
        scenario_from_json(text)
    assert field_of(info) == "file"
