"""Properties of softmax, attention and the naive normalisation, checked with hypothesis."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import reference
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine import EngineInputError, attention, naive_normalize, softmax, softmax_steps

FAST = settings(max_examples=60, deadline=None, database=None)
THOROUGH = settings(max_examples=150, deadline=None, database=None)


def floats(lo: float, hi: float):
    return st.floats(min_value=lo, max_value=hi, allow_nan=False, allow_infinity=False)


def rows(lo: float, hi: float, min_size: int = 1, max_size: int = 8):
    return st.lists(floats(lo, hi), min_size=min_size, max_size=max_size)


def matrix(n: int, d: int, bound: float = 1.0):
    return hnp.arrays(np.float64, (n, d), elements=floats(-bound, bound))


temperatures = floats(0.01, 100.0)


# --- softmax ----------------------------------------------------------------------------------------


@THOROUGH
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=8), elements=floats(-1e6, 1e6)))
def test_softmax_rows_sum_to_one(x):
    w = softmax(x, axis=-1)
    assert w.shape == x.shape
    assert np.all((w >= 0) & (w <= 1))
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0, rtol=0, atol=1e-12)


@FAST
@given(rows(-100, 100), floats(-100, 100), temperatures)
def test_softmax_is_shift_invariant(x, c, t):
    shifted = [v + c for v in x]
    np.testing.assert_allclose(softmax(shifted, temperature=t), softmax(x, temperature=t), rtol=0, atol=1e-11)


@THOROUGH
@given(rows(-1e3, 1e3, min_size=2), temperatures)
def test_softmax_preserves_order(x, t):
    w = softmax(x, temperature=t)
    for i in range(len(x)):
        for j in range(len(x)):
            if x[i] < x[j]:
                assert w[i] <= w[j]
            if x[i] == x[j]:
                assert w[i] == w[j]


@st.composite
def rows_with_unique_max(draw):
    others = draw(rows(-50, 50, min_size=1, max_size=7))
    margin = draw(floats(0.1, 10))
    at = draw(st.integers(0, len(others)))
    x = list(others)
    x.insert(at, max(others) + margin)
    return x, at


@FAST
@given(rows_with_unique_max())
def test_softmax_approaches_one_hot_argmax_as_temperature_goes_to_zero(case):
    x, at = case
    peaks = [softmax(x, temperature=t)[at] for t in (10.0, 1.0, 0.1, 0.01, 0.001)]
    assert all(a <= b + 1e-15 for a, b in itertools.pairwise(peaks))
    cold = softmax(x, temperature=1e-3)
    one_hot = np.zeros(len(x))
    one_hot[at] = 1.0
    np.testing.assert_allclose(cold, one_hot, rtol=0, atol=1e-12)


@FAST
@given(rows(-100, 100))
def test_softmax_approaches_uniform_as_temperature_grows(x):
    hot = softmax(x, temperature=1e6)
    np.testing.assert_allclose(hot, 1.0 / len(x), rtol=0, atol=1e-3)
    hotter = softmax(x, temperature=1e9)
    np.testing.assert_allclose(hotter, 1.0 / len(x), rtol=0, atol=1e-6)


@FAST
@given(st.integers(1, 8), rows(-10, 10, min_size=1, max_size=8))
def test_softmax_of_fully_masked_row_is_zeros(n, other):
    np.testing.assert_array_equal(softmax([-np.inf] * n), np.zeros(n))
    m = len(other)
    x = np.array([other, [-np.inf] * m])  # one live row, one fully masked row
    w = softmax(x, axis=-1)
    np.testing.assert_array_equal(w[1], np.zeros(m))
    assert w[0].sum() == pytest.approx(1.0, abs=1e-12)


def test_softmax_gives_positive_infinities_equal_share_and_never_nan():
    w = softmax([np.inf, 1.0, np.inf, -np.inf])
    np.testing.assert_array_equal(w, [0.5, 0.0, 0.5, 0.0])


@FAST
@given(rows(-10, 10, max_size=6), st.integers(0, 5))
def test_softmax_of_nan_input_raises_value_error(x, at):
    x = list(x)
    x.insert(min(at, len(x)), math.nan)
    for fn in (softmax, softmax_steps, naive_normalize):
        with pytest.raises(ValueError) as info:
            fn(x)
        assert isinstance(info.value, EngineInputError)
        assert info.value.code == "nan_input"


@FAST
@given(st.one_of(floats(-1e6, 0.0), st.just(-math.inf), st.just(math.inf), st.just(math.nan)))
def test_softmax_with_temperature_not_positive_finite_raises_value_error(t):
    for fn in (softmax, softmax_steps):
        with pytest.raises(ValueError) as info:
            fn([1.0, 2.0], temperature=t)
        assert info.value.code == "bad_temperature"


@THOROUGH
@given(rows(-1e300, 1e300), temperatures)
@example([1e300, -1e300, 0.0], 1.0)
@example([1e300, 1e300], 0.01)
def test_softmax_of_huge_finite_inputs_is_finite_and_sums_to_one(x, t):
    w = softmax(x, temperature=t)
    assert np.all(np.isfinite(w))
    assert np.all((w >= 0) & (w <= 1))
    assert w.sum() == pytest.approx(1.0, abs=1e-12)

    steps = softmax_steps(x, temperature=t)
    assert np.all(np.isfinite(steps.weights))
    assert steps.weights.sum() == pytest.approx(1.0, abs=1e-12)
    assert steps.weights_sum == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(steps.weights, w, rtol=1e-12, atol=1e-15)
    assert np.all(steps.shifted <= 0)
    assert np.all((steps.shifted_exps >= 0) & (steps.shifted_exps <= 1))
    assert steps.shifted_total >= 1.0
    # The overflow flag says whether the unshifted e^(x/T) blows up, computed here with math.exp.
    try:
        naive_total = sum(math.exp(v / t) for v in x)
    except OverflowError:
        naive_total = math.inf
    assert steps.overflow == (not math.isfinite(naive_total))


@FAST
@given(rows(-30, 30), temperatures)
def test_softmax_matches_reference(x, t):
    np.testing.assert_allclose(softmax(x, temperature=t), reference.softmax([v / t for v in x]), rtol=1e-10, atol=1e-15)


# --- attention --------------------------------------------------------------------------------------


@st.composite
def attention_case(draw, max_n: int = 6, max_d: int = 6, bound: float = 1.0):
    n = draw(st.integers(1, max_n))
    d_model = draw(st.integers(1, max_d))
    d_k = draw(st.integers(1, max_d))
    d_v = draw(st.integers(1, max_d))
    x = draw(matrix(n, d_model, bound))
    wq = draw(matrix(d_model, d_k, bound))
    wk = draw(matrix(d_model, d_k, bound))
    wv = draw(matrix(d_model, d_v, bound))
    return x, wq, wk, wv


def _divisor(mode: str, d_k: int) -> float:
    return {"none": 1.0, "sqrt": math.sqrt(d_k), "dk": float(d_k)}[mode]


@THOROUGH
@given(attention_case(), st.sampled_from(["none", "sqrt", "dk"]), st.booleans())
def test_attention_matches_loop_reference(case, mode, causal):
    x, wq, wk, wv = case
    got = attention(x, wq, wk, wv, scale=mode, mask="causal" if causal else None)
    ref = reference.attention(x.tolist(), wq.tolist(), wk.tolist(), wv.tolist(), _divisor(mode, wq.shape[1]), causal)
    assert got.divisor == _divisor(mode, wq.shape[1])
    for name, ref_name in (
        ("q", "q"),
        ("k", "k"),
        ("v", "v"),
        ("scores", "scores"),
        ("scaled_scores", "scaled"),
        ("weights", "weights"),
        ("output", "output"),
    ):
        np.testing.assert_allclose(getattr(got, name), ref[ref_name], rtol=1e-12, atol=1e-12, err_msg=name)


@THOROUGH
@given(attention_case(bound=3.0), st.sampled_from(["none", "sqrt", "dk"]))
def test_causal_attention_weights_are_exactly_zero_above_diagonal(case, mode):
    x, wq, wk, wv = case
    n = x.shape[0]
    got = attention(x, wq, wk, wv, scale=mode, mask="causal")
    above = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert np.all(got.weights[above] == 0.0)
    assert np.all(np.isneginf(got.scaled_scores[above]))
    np.testing.assert_array_equal(got.allowed, ~above)
    np.testing.assert_allclose(got.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert got.weights[0, 0] == 1.0  # the first token can only look at itself
    np.testing.assert_allclose(got.output[0], got.v[0], rtol=0, atol=1e-12)


@THOROUGH
@given(st.data(), attention_case(), st.sampled_from(["none", "sqrt", "dk"]))
def test_attention_is_permutation_equivariant_without_positional_encoding(data, case, mode):
    x, wq, wk, wv = case
    perm = np.array(data.draw(st.permutations(range(x.shape[0]))), dtype=int)
    base = attention(x, wq, wk, wv, scale=mode)
    moved = attention(x[perm], wq, wk, wv, scale=mode)
    np.testing.assert_allclose(moved.weights, base.weights[perm][:, perm], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(moved.output, base.output[perm], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(moved.scores, base.scores[perm][:, perm], rtol=1e-12, atol=1e-12)


# --- the naive "divide by the sum" ------------------------------------------------------------------


@THOROUGH
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=6))
@example([0, 0])
@example([-1, 1])
@example([3, -5])
@example([2, -1])
@example([2, 5, 1])
def test_naive_normalize_flags_sum_zero_sum_negative_negative_entries(values):
    naive = naive_normalize([float(v) for v in values])
    total = sum(values)  # exact: integers
    expected = []
    if any(v < 0 for v in values):
        expected.append("negative_entries")
    if total == 0:
        expected.append("sum_zero")
    elif total < 0:
        expected.append("sum_negative")
    assert set(naive.problems) == set(expected)
    assert naive.valid == (not expected)
    assert naive.total == float(total)
    if total == 0:
        assert naive.shares is None
    else:
        np.testing.assert_allclose(naive.shares, [v / total for v in values], rtol=1e-15, atol=0)
    if naive.valid:
        assert np.all((naive.shares >= 0) & (naive.shares <= 1))
        assert naive.shares.sum() == pytest.approx(1.0, abs=1e-12)


def test_naive_normalize_refuses_infinite_scores():
    with pytest.raises(ValueError) as info:
        naive_normalize([1.0, math.inf])
    assert info.value.code == "not_finite"


# --- shape errors -----------------------------------------------------------------------------------


@FAST
@given(st.data(), st.sampled_from(["W_Q", "W_K", "W_V"]))
def test_attention_shape_mismatch_names_matrix_and_shapes(data, which):
    n = data.draw(st.integers(1, 4))
    d_model = data.draw(st.integers(1, 5))
    d_k = data.draw(st.integers(1, 5))
    wrong_rows = data.draw(st.integers(1, 6).filter(lambda r: r != d_model))
    x = np.ones((n, d_model))
    weights = {"W_Q": np.ones((d_model, d_k)), "W_K": np.ones((d_model, d_k)), "W_V": np.ones((d_model, d_k))}
    weights[which] = np.ones((wrong_rows, d_k))
    with pytest.raises(ValueError) as info:
        attention(x, weights["W_Q"], weights["W_K"], weights["W_V"])
    message = str(info.value)
    assert info.value.code == "shape_mismatch"
    assert which in message
    assert str((wrong_rows, d_k)) in message  # the offending matrix's shape
    assert str((n, d_model)) in message  # and x's shape, which sets the rows it needs
    assert info.value.params["got"] == (wrong_rows, d_k)
    assert info.value.params["expected_rows"] == d_model


@FAST
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5))
def test_attention_query_key_width_mismatch_names_both_matrices_and_shapes(d_model, d_q, d_k):
    if d_q == d_k:
        d_k += 1
    wq, wk = np.ones((d_model, d_q)), np.ones((d_model, d_k))
    with pytest.raises(ValueError) as info:
        attention(np.ones((2, d_model)), wq, wk, np.ones((d_model, 2)))
    message = str(info.value)
    assert info.value.code == "shape_mismatch"
    assert "W_Q" in message and "W_K" in message
    assert str(wq.shape) in message and str(wk.shape) in message


def test_attention_refuses_non_matrix_and_non_finite_inputs():
    with pytest.raises(ValueError) as not_matrix:
        attention(np.ones(4), np.eye(4), np.eye(4), np.eye(4))
    assert not_matrix.value.code == "not_matrix" and "x" in str(not_matrix.value)
    bad = np.eye(2)
    bad[0, 1] = np.nan
    with pytest.raises(ValueError) as not_finite:
        attention(np.ones((2, 2)), np.eye(2), bad, np.eye(2))
    assert not_finite.value.code == "not_finite" and "W_K" in str(not_finite.value)


def test_softmax_steps_with_a_tiny_temperature_and_huge_scores_stays_finite():
    # scores / T overflows here; the steps shift by the maximum before dividing, as softmax does
    steps = softmax_steps([1e300, 0.0], temperature=1e-10)
    assert steps.overflow
    assert steps.weights.tolist() == [1.0, 0.0]
