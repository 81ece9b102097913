"""What a hostile or clumsy visitor can send reaches the engine as data: every crafted link and file, any text
in any field, odd values in every numeric entry point. The engine answers with a valid result or an
EngineInputError whose code is documented in engine.errors.CODES, never another exception (issue 19)."""

from __future__ import annotations

import base64
import importlib
import json
import math
import re
import tracemalloc
import unicodedata
import zlib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import (
    EngineInputError,
    attention,
    check_token_name,
    naive_normalize,
    parse_number,
    sentence_vectors,
    softmax,
    softmax_steps,
)
from engine.errors import CODES
from engine.limits import MAX_ABS_VALUE, MAX_SENTENCE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS
from engine.pipeline import pipeline, tokenize
from engine.scenario import same_numbers
from engine.scenario_io import decode_scenario, scenario_from_dict, scenario_from_json, scenario_to_dict
from engine.text import hidden_character

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "hostile"
PIPELINE = importlib.import_module("engine.pipeline")  # `engine.pipeline` is the function the package exports
FUZZ = settings(max_examples=150, deadline=None, database=None)
FUZZ_SLOW = settings(max_examples=60, deadline=None, database=None)


def documented(error: EngineInputError) -> EngineInputError:
    """The error, after checking its code is listed in CODES and carries the parameters listed there."""
    assert error.code in CODES, error.code
    required, _ = CODES[error.code]
    assert set(required) <= set(error.params), (error.code, error.params)
    for value in error.params.values():
        str(value).encode("utf-8")  # every parameter can be shown and logged
    return error


def test_every_code_the_engine_raises_is_documented():
    raised = set()
    for path in (ROOT / "engine").rglob("*.py"):
        raised |= set(re.findall(r'EngineInputError\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(raised) > 30, "the scan found too few codes: the pattern is broken"
    assert sorted(raised - set(CODES)) == []


# --- the crafted links and files in tests/fixtures/hostile ------------------------------------------

# file -> the field the refusal must name (worked out from what each file holds; see the folder's README)
FIXTURE_FIELDS = {
    "deep_nesting_link.txt": "link",
    "deep_nesting_upload.json": "file",
    "deep_object_upload.json": "file",
    "nesting_in_a_matrix_link.txt": "link",
    "huge_integer_link.txt": "x",
    "huge_integer_upload.json": "w_q",
    "integer_of_5000_digits_upload.json": "w_v",
    "huge_exponent_link.txt": "w_k",
    "long_decimal_upload.json": "x",
    "nan_upload.json": "x",
    "infinity_temperature_link.txt": "temperature",
    "huge_integer_temperature_upload.json": "temperature",
    "surrogate_name_link.txt": "tokens",
    "surrogate_name_upload.json": "tokens",
    "bidi_name.json": "tokens",
    "bidi_isolate_name_link.txt": "tokens",
    "newline_name.json": "tokens",
    "nul_name_link.txt": "tokens",
    "invisible_name.json": "tokens",
    "long_name_link.txt": "tokens",
    "lookalike_name_link.txt": "tokens",
    "fullwidth_duplicate_upload.json": "tokens",
    "braille_blank_name.json": "tokens",
    "tag_characters_name_link.txt": "tokens",
    "decompression_bomb_link.txt": "link",
    "string_numbers_upload.json": "w_k",
    "wrong_types_upload.json": "tokens",
    "not_utf8_upload.bin": "file",
    "binary_upload.bin": "file",
}


def test_every_fixture_is_tested_and_described():
    stored = {path.name for path in FIXTURES.iterdir() if path.name != "README.md"}
    assert stored == set(FIXTURE_FIELDS)
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    assert [name for name in sorted(stored) if f"`{name}`" not in readme] == []


@pytest.mark.parametrize(("name", "field"), sorted(FIXTURE_FIELDS.items()))
def test_every_crafted_link_and_file_is_refused_with_the_field_it_gets_wrong(name, field):
    path = FIXTURES / name
    with pytest.raises(EngineInputError) as info:
        if name.endswith("_link.txt"):
            decode_scenario(path.read_text(encoding="ascii").strip())
        else:
            scenario_from_json(path.read_bytes())
    assert documented(info.value).code == "bad_scenario"
    assert info.value.params == {"field": field}


def test_the_deep_nesting_link_is_the_162_character_one_of_the_issue():
    code = (FIXTURES / "deep_nesting_link.txt").read_text(encoding="ascii").strip()
    assert len(code) == 162
    assert zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))) == b"[" * 99_999


# --- the sentence: every limit is checked before any work --------------------------------------------


def refuse_any_work(monkeypatch) -> None:
    """Make the character scan and the tokenizer fail the test if a refused sentence ever reaches them."""

    def no_work(*args, **kwargs):
        raise AssertionError("work was done on a sentence that should have been refused first")

    monkeypatch.setattr(PIPELINE, "forbidden_character", no_work)
    monkeypatch.setattr(PIPELINE, "_TOKEN_PATTERN", type("NoPattern", (), {"findall": no_work})())


@pytest.mark.parametrize("length", [MAX_SENTENCE_CHARS + 1, 2_000_000, 20_000_000])
def test_a_sentence_longer_than_the_limit_is_refused_before_any_work(monkeypatch, length):
    sentence = "perro " * (length // 6) + "p" * (length % 6)
    assert len(sentence) == length
    refuse_any_work(monkeypatch)
    with pytest.raises(EngineInputError) as info:
        sentence_vectors(sentence)
    assert documented(info.value).code == "sentence_too_long"
    assert info.value.params == {"limit": MAX_SENTENCE_CHARS, "length": length}


def test_refusing_a_20_mb_sentence_allocates_next_to_nothing():
    sentence = "perro " * 3_500_000  # 21 MB of text, allocated before measuring
    tracemalloc.start()
    try:
        with pytest.raises(EngineInputError):
            pipeline(sentence)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50_000  # bytes: the refusal, not a copy, a tokenization or 3.5 million tokens


def test_a_sentence_at_the_limit_is_read_and_a_word_of_it_cut_to_the_token_limit():
    at_limit = sentence_vectors("a" * MAX_SENTENCE_CHARS)  # one word of 2,000 letters
    assert at_limit.tokens == ("a" * MAX_TOKEN_CHARS,)
    assert at_limit.shortened == 1 and at_limit.dropped == 0
    mixed = sentence_vectors("el " + "b" * 40 + " perro " + "c" * MAX_TOKEN_CHARS)
    assert mixed.tokens == ("el", "b" * MAX_TOKEN_CHARS, "perro", "c" * MAX_TOKEN_CHARS)
    assert mixed.shortened == 1
    many = sentence_vectors("a " * (MAX_SENTENCE_CHARS // 2))  # 1,000 one-letter tokens
    assert len(many.tokens) == MAX_TOKENS and many.dropped == MAX_SENTENCE_CHARS // 2 - MAX_TOKENS


@pytest.mark.parametrize(
    ("sentence", "char"),
    [("el \ud800 perro", "U+D800"), ("el \u202eorrep", "U+202E"), ("el\x00perro", "U+0000"), ("a\u2067b", "U+2067")],
)
def test_a_sentence_with_an_unencodable_or_bidi_control_character_is_refused(sentence, char):
    with pytest.raises(EngineInputError) as info:  # the surrogate was a UnicodeEncodeError in embed()
        sentence_vectors(sentence)
    assert documented(info.value).code == "sentence_bad_characters"
    assert info.value.params == {"char": char}


def test_whitespace_controls_separate_words_and_invisible_tokens_are_left_out():
    assert tokenize("el\tperro\ncome\r\n") == ["el", "perro", "come"]
    assert tokenize("el \u200b perro\u2060 \u200d come \u3164") == ["el", "perro", "come"]
    assert tokenize("👩\u200d💻 \u2028 hola") == ["👩\u200d💻", "hola"]


@pytest.mark.parametrize(
    ("call", "code", "name"),
    [
        (lambda: sentence_vectors(None), "sentence_not_text", None),
        (lambda: sentence_vectors(b"el perro"), "sentence_not_text", None),
        (lambda: sentence_vectors("el perro", 10**9), "out_of_range", "d_model"),
        (lambda: sentence_vectors("el perro", 1), "out_of_range", "d_model"),
        (lambda: sentence_vectors("el perro", "4"), "out_of_range", "d_model"),
        (lambda: sentence_vectors("el perro", max_tokens=0), "out_of_range", "max_tokens"),
        (lambda: pipeline("el perro", 4, weights="random", seed=-1), "out_of_range", "seed"),
        (lambda: pipeline("el perro", 4, weights="random", seed=2**32), "out_of_range", "seed"),
        (lambda: pipeline("el perro", 4, weights="random", d_k=10**9), "out_of_range", "d_k"),
    ],
    ids=["None", "bytes", "d_model-huge", "d_model-1", "d_model-text", "max_tokens-0", "seed-neg", "seed-big", "d_k"],
)
def test_pipeline_options_outside_their_ranges_are_refused(call, code, name):
    with pytest.raises(EngineInputError) as info:
        call()
    assert documented(info.value).code == code
    if name is not None:
        assert info.value.params["name"] == name


# --- softmax, its steps and the naive division with odd inputs ---------------------------------------

ODD_SCORES = [
    ("abc", "scores_not_numbers"),
    (["1", "2"], "scores_not_numbers"),
    (None, "scores_not_numbers"),
    ([None, 1.0], "scores_not_numbers"),
    ([[1.0], [2.0, 3.0]], "scores_not_numbers"),
    (object(), "scores_not_numbers"),
    ({"a": 1.0}, "scores_not_numbers"),
    ([1j, 2.0], "scores_not_numbers"),
    (1j, "scores_not_numbers"),
    ([True, False], "scores_not_numbers"),
    pytest.param([10**400, 1], "overflow", id="10**400"),
    ([], "empty_scores"),
    (5.0, "scores_shape"),
    ([1.0, math.nan], "nan_input"),
]


@pytest.mark.parametrize(("scores", "code"), ODD_SCORES)
@pytest.mark.parametrize("fn", [softmax, softmax_steps, naive_normalize])
def test_odd_scores_raise_the_engines_own_error(fn, scores, code):
    with pytest.raises(EngineInputError) as info:  # was TypeError, ValueError or OverflowError
        fn(scores)
    assert documented(info.value).code == code


@pytest.mark.parametrize("fn", [softmax_steps, naive_normalize])
def test_the_one_row_functions_refuse_a_matrix(fn):
    with pytest.raises(EngineInputError) as info:
        fn([[1.0, 2.0], [3.0, 4.0]])
    assert documented(info.value).code == "scores_shape"


@pytest.mark.parametrize("axis", [2, -3, "0", 1.0, None])
def test_softmax_refuses_an_axis_the_scores_do_not_have(axis):
    with pytest.raises(EngineInputError) as info:
        softmax(np.zeros((2, 3)), axis=axis)
    assert documented(info.value).code == "scores_shape"


@pytest.mark.parametrize(
    "temperature", ["1", None, True, pytest.param(10**400, id="10**400"), 0, -1.0, math.inf, math.nan, [1.0]]
)
def test_a_temperature_that_is_not_a_positive_finite_number_is_refused(temperature):
    for fn in (softmax, softmax_steps):
        with pytest.raises(EngineInputError) as info:
            fn([1.0, 2.0], temperature=temperature)
        assert documented(info.value).code == "bad_temperature"


def test_naive_normalize_of_two_scores_near_the_float_limit_is_refused_not_called_valid():
    with pytest.raises(EngineInputError) as info:  # the sum overflowed, and shares [0, 0] were called valid
        naive_normalize([1e308, 1e308])
    assert documented(info.value).code == "overflow" and info.value.params == {"name": "sum"}
    with pytest.raises(EngineInputError) as shares:  # the exact sum is 1e-300: a share would be 1e600
        naive_normalize([1e300, -1e300, 1e-300])
    assert documented(shares.value).code == "overflow" and shares.value.params == {"name": "shares"}


def test_naive_normalize_sums_exactly_even_when_a_partial_sum_overflows():
    near_limit = naive_normalize([1e308, 1e308, -1e308])  # 1e308 exactly; np.sum said inf
    assert near_limit.total == 1e308
    np.testing.assert_array_equal(near_limit.shares, [1.0, 1.0, -1.0])
    assert near_limit.problems == ("negative_entries",)
    cancelling = naive_normalize([1e17, 1.0, -1e17])  # 1 exactly; in float64 order 1e17 + 1 - 1e17 is 0
    assert cancelling.total == 1.0
    assert "sum_zero" not in cancelling.problems


finite = st.floats(allow_nan=False, allow_infinity=False)
any_float = st.floats(allow_nan=False)  # ±inf included: softmax takes masked (-inf) and +inf scores
positive = st.floats(min_value=5e-324, allow_nan=False, allow_infinity=False)


@FUZZ
@given(st.lists(finite, min_size=1, max_size=8), positive)
@example([1e308, -1e308], 1e-300)
@example([5e-324, 0.0], 5e-324)
@example([1.7976931348623157e308] * 3, 1.7976931348623157e308)
def test_softmax_and_its_steps_never_give_nan_for_finite_scores_at_any_temperature(scores, temperature):
    weights = softmax(scores, temperature=temperature)
    assert np.isfinite(weights).all() and (weights >= 0).all()
    assert weights.sum() == pytest.approx(1.0, abs=1e-12)
    steps = softmax_steps(scores, temperature)
    for name in ("tempered", "naive_exps", "shifted", "shifted_exps", "weights"):
        assert not np.isnan(getattr(steps, name)).any(), name
    assert not math.isnan(steps.naive_total) and not math.isnan(steps.shift)
    assert np.isfinite(steps.weights).all() and steps.weights_sum == pytest.approx(1.0, abs=1e-12)


@FUZZ
@given(st.lists(any_float, min_size=1, max_size=8))
def test_softmax_of_finite_or_infinite_scores_is_never_nan(scores):
    weights = softmax(scores)
    assert not np.isnan(weights).any()
    assert weights.sum() == pytest.approx(1.0, abs=1e-12) or np.all(np.isneginf(scores))


@FUZZ
@given(st.lists(finite, min_size=1, max_size=8))
@example([1e308, 1e308])
@example([1e308, 1e308, -1e308])
@example([1e300, -1e300, 1e-300])
@example([1e308, 1e308, -1e308, -1e308, 5e-324])  # a partial sum overflows; the exact sum is the subnormal
def test_naive_normalize_is_exact_and_finite_or_refuses_with_overflow(scores):
    exact = sum((Fraction(v) for v in scores), Fraction(0))  # a reference with no rounding at all
    try:
        naive = naive_normalize(scores)
    except EngineInputError as error:
        assert documented(error).code == "overflow"
        assert abs(exact) > Fraction(1.7976931348623157e308) or any(
            abs(Fraction(v) / exact) > Fraction(1.7976931348623157e308) for v in scores if exact != 0
        )
        return
    assert naive.total == float(exact)
    assert ("sum_zero" in naive.problems) == (exact == 0)
    assert ("sum_negative" in naive.problems) == (exact < 0)
    if naive.shares is not None:
        assert np.isfinite(naive.shares).all()


# --- attention with inputs far outside the UI's limits ----------------------------------------------


@pytest.mark.parametrize("size", [1e200, -1e200, 1e155])
def test_attention_of_inputs_near_1e200_raises_overflow_not_nan(size):
    x = np.full((3, 4), size)  # (n, d_model)
    with pytest.raises(EngineInputError) as info:
        attention(x, np.eye(4), np.eye(4), np.eye(4))
    assert documented(info.value).code == "overflow"


def test_attention_where_q_overflows_next_to_zeros_names_q_not_a_nan_score():
    # Q's last row overflows to inf; 0 · inf made NaN scores, and the softmax refused them as "nan_input"
    x = np.array([[0.0, 0.0], [0.0, 0.0], [1.3407807929942597e154, 0.0]])  # (n, d_model)
    w = np.array([[0.0, 1.3407807929942597e154], [0.0, 0.0]])  # (d_model, d_k)
    with pytest.raises(EngineInputError) as info:
        attention(x, w, w, w)
    assert documented(info.value).code == "overflow" and info.value.params == {"name": "Q"}


@FUZZ_SLOW
@given(
    st.lists(st.floats(-1e200, 1e200), min_size=6, max_size=6),
    st.lists(st.floats(-1e200, 1e200), min_size=4, max_size=4),
    st.sampled_from([None, "causal"]),
)
@example([1e200, -1e200, 1e-200, 0.0, 1e100, -1e100], [1.0, 1.0, 1.0, 1.0], None)
def test_attention_of_huge_finite_inputs_is_finite_with_full_rows_or_overflow(x, w, mask):
    x = np.array(x).reshape(3, 2)  # (n, d_model)
    w = np.array(w).reshape(2, 2)  # (d_model, d_k)
    try:
        result = attention(x, w, w, w, mask=mask)
    except EngineInputError as error:
        assert documented(error).code == "overflow"
        return
    for name in ("q", "k", "v", "scores", "weights", "output"):
        assert np.isfinite(getattr(result, name)).all(), name
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)  # no all-zero row


# --- fuzz: any data into the functions that read what users send ------------------------------------

HOSTILE_CHARACTERS = [
    "\ud800", "\udfff", "\u202e", "\u2066", "\u200b", "\u200d", "\ufe0f", "\x00", "\n", "\t", "\x85", "\u2028",
    "[", "]", "{", "}", '"', "\\", ",", ".", "e", "E", "-", "+", "1", "0", "9", "∞", "\uff11", "\u0663", " ",
    "\u00a0", "n\u0303", "👍🏽", "ש", "ا",
]  # fmt: skip
pieces = st.one_of(
    st.characters(exclude_categories=[]), st.characters(categories=["Cs"]), st.sampled_from(HOSTILE_CHARACTERS)
)


def texts(max_size: int) -> st.SearchStrategy[str]:
    """Any text, lone surrogates included, with the characters that broke something before drawn often."""
    return st.lists(pieces, max_size=max_size).map("".join)


hostile_text = texts(60)
numbers = st.one_of(
    st.integers(),
    st.integers(min_value=10**300, max_value=10**4200),  # hypothesis prints examples: 4300 digits at most
    st.integers(max_value=-(10**300), min_value=-(10**4200)),
    st.floats(),
)
json_leaves = st.one_of(st.none(), st.booleans(), numbers, hostile_text)
json_like = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=20,
)
cells = st.one_of(st.floats(-2e6, 2e6), numbers, json_leaves)
matrices = st.one_of(st.lists(st.lists(cells, min_size=1, max_size=4), min_size=1, max_size=4), json_like)
scenario_like = st.fixed_dictionaries(
    {
        "version": st.one_of(st.just(1), json_leaves),
        "tokens": st.one_of(st.lists(hostile_text, min_size=1, max_size=4), json_like),
        "x": matrices,
        "w_q": matrices,
        "w_k": matrices,
        "w_v": matrices,
        "scale": st.one_of(st.sampled_from(["none", "sqrt", "dk"]), json_leaves),
        "causal": st.one_of(st.booleans(), json_leaves),
        "temperature": st.one_of(st.floats(0.0, 6.0), numbers, json_leaves),
    }
)


@st.composite
def well_shaped(draw) -> dict:
    """A scenario whose shapes fit, so the fuzzed names and numbers get past the shape checks to be read."""
    n, d = draw(st.integers(1, 3)), 2

    def matrix(rows: int) -> list:
        return draw(st.lists(st.lists(cells, min_size=d, max_size=d), min_size=rows, max_size=rows))

    return {
        "version": 1,
        "tokens": draw(st.lists(texts(6), min_size=n, max_size=n)),  # short: most pass the length check
        **{"x": matrix(n), "w_q": matrix(d), "w_k": matrix(d), "w_v": matrix(d)},
        "temperature": draw(st.one_of(st.floats(0.1, 5.0), numbers)),
    }


def assert_readable(scenario) -> None:
    """What a valid scenario must be: names that encode, show and compare; finite numbers in range."""
    for name in scenario.tokens:
        name.encode("utf-8")
        assert name == unicodedata.normalize("NFC", name) == name.strip() and 1 <= len(name) <= MAX_TOKEN_CHARS
    assert len(set(scenario.tokens)) == len(scenario.tokens)
    for m in ("x", "w_q", "w_k", "w_v"):
        values = scenario.matrix(m)
        assert values.dtype == np.float64 and np.isfinite(values).all() and np.abs(values).max() <= MAX_ABS_VALUE


@FUZZ_SLOW
@given(st.one_of(json_like, scenario_like))
def test_any_json_like_data_gives_a_scenario_or_bad_scenario(data):
    try:
        scenario = scenario_from_dict(data)
    except EngineInputError as error:
        assert documented(error).code == "bad_scenario"
        return
    assert_readable(scenario)


IDENTITY = [[1.0, 0.0], [0.0, 1.0]]


@FUZZ_SLOW
@given(well_shaped())
@example({"version": 1, "tokens": ["\ud800"], "x": [[1.0, 2.0]], "w_q": IDENTITY, "w_k": IDENTITY, "w_v": IDENTITY})
@example({"version": 1, "tokens": ["a"], "x": [[10**400, 2.0]], "w_q": IDENTITY, "w_k": IDENTITY, "w_v": IDENTITY})
def test_any_names_and_numbers_in_a_well_shaped_scenario_give_a_readable_one_or_bad_scenario(data):
    try:
        scenario = scenario_from_dict(data)
    except EngineInputError as error:
        assert documented(error).code == "bad_scenario"
        return
    assert_readable(scenario)
    assert same_numbers(scenario_from_dict(scenario_to_dict(scenario)), scenario)  # what is read can be shared


@FUZZ
@given(
    st.one_of(
        hostile_text, st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"))
    )
)
def test_any_text_as_a_link_gives_a_scenario_or_bad_scenario(code):
    try:
        scenario = decode_scenario(code)
    except EngineInputError as error:
        assert documented(error).code == "bad_scenario"
        return
    assert_readable(scenario)


@FUZZ
@given(st.one_of(hostile_text, json_like.map(lambda d: json.dumps(d, ensure_ascii=True))))
def test_any_text_inside_a_link_or_file_gives_a_scenario_or_bad_scenario(text):
    code = base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8", "surrogatepass"))).decode().rstrip("=")
    for read in (lambda: decode_scenario(code), lambda: scenario_from_json(text)):
        try:
            assert_readable(read())
        except EngineInputError as error:
            assert documented(error).code == "bad_scenario"


@FUZZ
@given(st.one_of(hostile_text, numbers, json_leaves))
def test_any_cell_gives_a_number_in_range_or_a_documented_refusal(value):
    try:
        number = parse_number(value)
    except EngineInputError as error:
        documented(error)
        return
    assert isinstance(number, float) and math.isfinite(number) and abs(number) <= MAX_ABS_VALUE


@FUZZ
@given(
    st.sampled_from(["", "+", "-", "\u2212"]),
    st.integers(0, 99_999),
    st.text("0123456789", min_size=1, max_size=6),
    st.sampled_from([".", ","]),
)
def test_either_separator_gives_the_same_number_unless_it_could_group_thousands(sign, whole, fraction, separator):
    typed = f"{sign}{whole}{separator}{fraction}"
    could_group = 1 <= whole <= 999 and len(fraction) == 3
    expected = float(f"{'-' if sign in ('-', chr(0x2212)) else ''}{whole}.{fraction}")  # Python's own reading
    try:
        number = parse_number(typed)
    except EngineInputError as error:
        assert error.code == ("ambiguous_number" if could_group else "too_large")
        assert could_group or abs(expected) > MAX_ABS_VALUE
        return
    assert not could_group and number == expected


def is_forbidden(char: str) -> bool:
    """The rule the names follow, restated independently of engine/text.py."""
    return (
        unicodedata.category(char) in ("Cs", "Cc", "Zl", "Zp")
        or 0x202A <= ord(char) <= 0x202E
        or (0x2066 <= ord(char) <= 0x2069)
    )


@FUZZ
@given(st.one_of(hostile_text, st.lists(st.sampled_from(HOSTILE_CHARACTERS), max_size=8).map("".join)))
@example("\ud800")
@example("\u200b")
def test_any_text_as_a_name_gives_a_displayable_name_or_a_documented_refusal(text):
    try:
        name = check_token_name(text, [])
    except EngineInputError as error:
        documented(error)
        stripped = text.strip()
        if error.code == "token_bad_characters":
            assert any(is_forbidden(c) for c in stripped)
        return
    name.encode("utf-8")
    assert name == unicodedata.normalize("NFKC", name) == name.strip() and 1 <= len(name) <= MAX_TOKEN_CHARS
    assert not any(is_forbidden(c) for c in name)
    assert hidden_character(name) is None  # nothing in a kept name is there unseen (issue 26, item 11)
    assert any(unicodedata.category(c) not in ("Zs", "Cf", "Mn", "Me") for c in name)


@FUZZ_SLOW
@given(texts(300), st.integers(2, 8))
def test_any_sentence_gives_bounded_vectors_or_a_documented_refusal(sentence, d_model):
    try:
        vectors = sentence_vectors(sentence, d_model)
    except EngineInputError as error:
        assert documented(error).code in ("sentence_bad_characters", "empty_sentence")
        return
    assert 1 <= len(vectors.tokens) <= MAX_TOKENS
    for token in vectors.tokens:
        token.encode("utf-8")
        assert 1 <= len(token) <= MAX_TOKEN_CHARS
    assert vectors.x.shape == (len(vectors.tokens), d_model) and np.isfinite(vectors.x).all()
