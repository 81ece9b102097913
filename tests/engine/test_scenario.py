"""The editable scenario: parsing what a user types into cells and token names, resizing, running."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import (
    EngineInputError,
    Scenario,
    attention,
    check_token_name,
    lesson_scenario,
    parse_number,
    presets,
    random_scenario,
)
from engine.scenario import MAX_TOKEN_CHARS

# --- parse_number -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0,5", 0.5), (" 1.25 ", 1.25), (3, 3.0), ("-2,75", -2.75), ("1e3", 1000.0), (np.float64(0.25), 0.25)],
)
def test_parse_number_accepts_decimal_comma_spaces_and_numbers(typed, value):
    parsed = parse_number(typed)
    assert parsed == value
    assert isinstance(parsed, float)


def test_parse_number_accepts_subnormal_as_finite_float():
    parsed = parse_number(1e-320)
    assert parsed == 1e-320
    assert math.isfinite(parsed) and parsed > 0


def test_parse_number_accepts_the_limit_itself():
    assert parse_number(1e6) == 1e6
    assert parse_number("-1000000") == -1e6


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("abc", "not_a_number"),
        ("1,000.5", "not_a_number"),
        ("1,2,3", "not_a_number"),
        (True, "not_a_number"),
        (False, "not_a_number"),
        ([1.0], "not_a_number"),
        (math.nan, "empty_or_nan"),
        ("nan", "empty_or_nan"),
        (None, "empty_or_nan"),
        ("", "empty_or_nan"),
        ("   ", "empty_or_nan"),
        ("inf", "infinite"),
        ("-Infinity", "infinite"),
        (-math.inf, "infinite"),
        (1e308, "too_large"),
        ("-2e6", "too_large"),
        (1_000_001, "too_large"),
    ],
)
def test_parse_number_refuses_with_a_code(typed, code):
    with pytest.raises(EngineInputError) as info:
        parse_number(typed)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_parse_number_error_carries_the_typed_text_for_the_message():
    with pytest.raises(EngineInputError) as info:
        parse_number("abc")
    assert info.value.params == {"value": "abc"}
    with pytest.raises(EngineInputError) as too_large:
        parse_number(1e308)
    assert too_large.value.params["limit"] == "1e+06"


# --- check_token_name -------------------------------------------------------------------------------


def test_check_token_name_strips_spaces():
    assert check_token_name("  perro  ", ["el", "come"]) == "perro"
    assert check_token_name(7, []) == "7"


@pytest.mark.parametrize("name", ["", "   ", None, math.nan])
def test_check_token_name_refuses_empty(name):
    with pytest.raises(EngineInputError) as info:
        check_token_name(name, [])
    assert info.value.code == "empty_token"


def test_check_token_name_refuses_duplicate_after_stripping():
    with pytest.raises(EngineInputError) as info:
        check_token_name(" perro ", ["el", "perro"])
    assert info.value.code == "duplicate_token"
    assert info.value.params == {"name": "perro"}


def test_check_token_name_refuses_names_longer_than_the_limit():
    # The limit was 24 characters when this suite was written; commit 8ce71b8 raised it to 32.
    limit = MAX_TOKEN_CHARS
    assert limit >= 24
    assert check_token_name("a" * limit, []) == "a" * limit
    assert check_token_name("  " + "ñ" * limit + "  ", []) == "ñ" * limit  # spaces do not count
    with pytest.raises(EngineInputError) as info:
        check_token_name("a" * (limit + 1), [])
    assert info.value.code == "token_too_long"
    assert info.value.params == {"limit": limit}


# --- Scenario ---------------------------------------------------------------------------------------


def test_lesson_scenario_holds_the_presets_as_copies():
    s = lesson_scenario()
    assert s.tokens == presets.LESSON_TOKENS
    np.testing.assert_array_equal(s.x, presets.LESSON_X)
    assert s.x is not presets.LESSON_X
    assert (s.d_model, s.d_k, s.d_v) == (4, 4, 4)
    assert (s.scale, s.causal, s.temperature) == ("sqrt", False, 1.0)


def test_scenario_run_of_lesson_matches_attention_of_presets():
    got = lesson_scenario().run()
    want = attention(presets.LESSON_X, presets.LESSON_W_Q, presets.LESSON_W_K, presets.LESSON_W_V, scale="sqrt")
    for name in ("q", "k", "v", "scores", "scaled_scores", "weights", "output"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)
    assert got.divisor == 2.0


def test_scenario_run_uses_its_options():
    s = Scenario(**{**lesson_scenario().__dict__, "scale": "none", "causal": True, "temperature": 0.5})
    got = s.run()
    want = attention(
        presets.LESSON_X,
        presets.LESSON_W_Q,
        presets.LESSON_W_K,
        presets.LESSON_W_V,
        scale="none",
        mask="causal",
        temperature=0.5,
    )
    np.testing.assert_array_equal(got.weights, want.weights)
    assert got.weights[0, 1] == 0.0


def test_with_d_model_pads_with_zeros():
    s = lesson_scenario().with_d_model(6)
    assert s.x.shape == (3, 6) and s.w_q.shape == (6, 4) and s.w_k.shape == (6, 4) and s.w_v.shape == (6, 4)
    np.testing.assert_array_equal(s.x[:, :4], presets.LESSON_X)
    np.testing.assert_array_equal(s.x[:, 4:], 0.0)
    np.testing.assert_array_equal(s.w_q[:4], presets.LESSON_W_Q)
    np.testing.assert_array_equal(s.w_v[4:], 0.0)
    # Zero padding adds nothing to x · W, so attention is unchanged.
    np.testing.assert_allclose(s.run().output, lesson_scenario().run().output, rtol=0, atol=1e-15)


def test_with_d_model_truncates():
    s = lesson_scenario().with_d_model(2)
    assert s.x.shape == (3, 2) and s.w_k.shape == (2, 4)
    np.testing.assert_array_equal(s.x, presets.LESSON_X[:, :2])
    np.testing.assert_array_equal(s.w_k, presets.LESSON_W_K[:2])
    assert s.tokens == presets.LESSON_TOKENS


def test_with_d_k_pads_with_zeros_and_truncates():
    grown = lesson_scenario().with_d_k(6)
    assert grown.w_q.shape == grown.w_k.shape == grown.w_v.shape == (4, 6)
    np.testing.assert_array_equal(grown.w_q[:, :4], presets.LESSON_W_Q)
    np.testing.assert_array_equal(grown.w_k[:, 4:], 0.0)
    np.testing.assert_array_equal(grown.x, presets.LESSON_X)
    # Extra zero columns leave Q·Kᵀ unchanged (only the √d_k divisor moves).
    np.testing.assert_allclose(grown.run().scores, lesson_scenario().run().scores, rtol=0, atol=1e-15)

    cut = lesson_scenario().with_d_k(1)
    assert cut.w_q.shape == cut.w_k.shape == cut.w_v.shape == (4, 1)
    np.testing.assert_array_equal(cut.w_v, presets.LESSON_W_V[:, :1])


def test_resizing_does_not_mutate_the_original():
    s = lesson_scenario()
    s.with_d_model(6)
    s.with_d_k(2)
    assert s.x.shape == (3, 4) and s.w_q.shape == (4, 4)
    np.testing.assert_array_equal(s.w_q, presets.LESSON_W_Q)


def test_with_matrix_replaces_one_matrix_as_float():
    s = lesson_scenario().with_matrix("w_v", np.eye(4, dtype=int))
    assert s.w_v.dtype == np.float64
    np.testing.assert_array_equal(s.matrix("w_v"), np.eye(4))
    np.testing.assert_array_equal(s.matrix("w_q"), presets.LESSON_W_Q)


@pytest.mark.parametrize(
    "change",
    [
        {"tokens": ("a", "b")},
        {"w_q": np.ones((3, 4))},
        {"w_k": np.ones((4, 3))},
        {"scale": "cube"},
    ],
)
def test_scenario_refuses_inconsistent_shapes_and_options(change):
    fields = {**lesson_scenario().__dict__, **change}
    with pytest.raises(EngineInputError) as info:
        Scenario(**fields)
    assert info.value.code in {"shape_mismatch", "bad_scale"}


def test_random_scenario_is_reproducible_from_seed():
    a, b, c = random_scenario(9), random_scenario(9), random_scenario(10)
    for name in ("x", "w_q", "w_k", "w_v"):
        np.testing.assert_array_equal(a.matrix(name), b.matrix(name))
        assert not np.array_equal(a.matrix(name), c.matrix(name)), name
    np.testing.assert_array_equal(a.run().output, b.run().output)


def test_random_scenario_shapes_and_two_decimal_entries():
    s = random_scenario(3, tokens=("a", "b", "c", "d", "e"), d_model=6, d_k=2)
    assert s.tokens == ("a", "b", "c", "d", "e")
    assert s.x.shape == (5, 6) and s.w_q.shape == (6, 2) and s.w_v.shape == (6, 2)
    for name in ("x", "w_q", "w_k", "w_v"):
        m = s.matrix(name)
        np.testing.assert_allclose(m, np.round(m, 2), rtol=0, atol=0)


def test_largest_to_smallest_is_the_ratio_of_the_extreme_shares():
    from engine import largest_to_smallest

    assert largest_to_smallest([0.25, 0.625, 0.125]) == 5.0
    assert largest_to_smallest([0.5, 0.5, 0.0]) == float("inf")
