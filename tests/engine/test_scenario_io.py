"""Scenarios survive JSON and link round trips exactly; malformed, truncated or hostile data is refused."""

import base64
import json
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineInputError, lesson_scenario, random_scenario
from engine.limits import MAX_LINK_CHARS
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
