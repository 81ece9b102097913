"""engine.projection: the top attended tokens per row, and the shared 2-D picture of x → output."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import EngineInputError, movement, softmax, top_attended
from engine.attention import allowed_positions
from engine.pipeline import pipeline

finite = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


def weight_rows(n: int) -> st.SearchStrategy[np.ndarray]:
    return arrays(np.float64, (n, n), elements=finite).map(lambda s: softmax(s, axis=-1))


@given(st.integers(1, 8).flatmap(weight_rows))
@settings(max_examples=60, deadline=None)
def test_top_attended_lists_each_rows_heaviest_tokens_in_decreasing_order(weights):
    top = top_attended(weights, k=2)
    n = weights.shape[0]
    assert top.indices.shape == (n, min(2, n))
    assert np.array_equal(top.weights[:, 0], weights.max(axis=1))
    assert np.all(np.diff(top.weights, axis=1) <= 0)
    assert np.array_equal(top.weights, np.take_along_axis(weights, top.indices, axis=1))


def test_top_attended_breaks_ties_toward_the_earlier_token():
    top = top_attended(np.array([[0.25, 0.25, 0.25, 0.25]]), k=2)
    assert top.indices.tolist() == [[0, 1]]


def test_top_attended_never_names_a_masked_token():
    weights = softmax(np.where(allowed_positions(3, "causal"), 0.0, -np.inf), axis=-1)
    top = top_attended(weights, k=2, allowed=allowed_positions(3, "causal"))
    assert top.indices.tolist() == [[0, -1], [0, 1], [0, 1]]
    assert np.isnan(top.weights[0, 1])
    assert top.weights[0, 0] == 1.0


def test_top_attended_asks_for_no_more_tokens_than_exist():
    top = top_attended(np.array([[1.0]]), k=2)
    assert top.indices.tolist() == [[0]]


def test_movement_of_the_lesson_perro_is_the_distance_from_x_to_its_output():
    result = pipeline("el perro come")
    moved = movement(result.x, result.attention.output)
    # the lesson's x_perro and output_perro (3 decimals), so the distance is known to about 0.002
    expected = np.linalg.norm(np.array([0.743, 0.013, 0.773, 0.714]) - np.array([0.50, 1.15, 0.78, 0.88]))
    assert moved.distance[1] == pytest.approx(expected, abs=2e-3)


@given(st.integers(1, 6).flatmap(lambda n: arrays(np.float64, (2, n, 2), elements=finite)))
@settings(max_examples=60, deadline=None)
def test_in_two_dimensions_the_picture_keeps_every_distance(pair):
    x, output = pair
    moved = movement(x, output)
    shown = np.linalg.norm(moved.output_2d - moved.x_2d, axis=1)
    assert np.allclose(shown, moved.distance, atol=1e-9)


@given(st.integers(1, 6).flatmap(lambda n: arrays(np.float64, (2, n, 5), elements=finite)))
@settings(max_examples=60, deadline=None)
def test_the_picture_never_shows_more_than_all_the_variance(pair):
    x, output = pair
    moved = movement(x, output)
    assert np.all(moved.explained >= 0)
    assert moved.explained.sum() <= 1 + 1e-9
    assert np.all(np.linalg.norm(moved.output_2d - moved.x_2d, axis=1) <= moved.distance + 1e-9)


def test_the_picture_is_the_same_on_every_call():
    result = pipeline("el perro come carne porque tiene hambre", 6, weights="random", seed=3)
    first = movement(result.x, result.attention.output)
    second = movement(result.x.copy(), result.attention.output.copy())
    assert np.array_equal(first.x_2d, second.x_2d)
    assert np.array_equal(first.output_2d, second.output_2d)


def test_a_token_attention_did_not_move_has_no_arrow():
    x = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 2.0]])
    moved = movement(x, x)
    assert np.allclose(moved.distance, 0)
    assert np.allclose(moved.x_2d, moved.output_2d)


def test_movement_refuses_mismatched_shapes_with_its_code():
    with pytest.raises(EngineInputError) as refused:
        movement(np.zeros((3, 4)), np.zeros((3, 5)))
    assert refused.value.code == "movement_shapes"
    assert refused.value.params == {"x_shape": (3, 4), "output_shape": (3, 5)}


@pytest.mark.parametrize(
    ("x", "output", "code", "name"),
    [
        (np.zeros(4), np.zeros(4), "not_matrix", "x"),
        (np.zeros((2, 2)), [["a", "b"], ["c", "d"]], "not_a_number", "output"),
        (np.zeros((2, 2)), [[1.0, np.nan], [0.0, 0.0]], "not_finite", "output"),
        (np.array([[1e308, 0.0]]), np.array([[-1e308, 0.0]]), "overflow", "output"),
    ],
)
def test_movement_refuses_what_is_not_two_finite_matrices_with_a_code(x, output, code, name):
    with pytest.raises(EngineInputError) as refused:
        movement(x, output)
    assert refused.value.code == code
    assert refused.value.params["name"] == name


@pytest.mark.parametrize("size", [1.0, 1e160, 1e300])
def test_movement_of_huge_vectors_is_the_small_picture_scaled(size):
    # x = ±size on the axes, output = −x: each token travels 2·size, and the two axes share the variance.
    x = np.array([[size, 0.0], [0.0, -size]])
    moved = movement(x, -x)
    np.testing.assert_allclose(moved.distance, [2 * size, 2 * size], rtol=1e-12)
    np.testing.assert_allclose(moved.explained, [0.5, 0.5], rtol=1e-12)
    small = movement(x / size, -x / size)
    np.testing.assert_allclose(moved.x_2d, small.x_2d * size, rtol=1e-12)
