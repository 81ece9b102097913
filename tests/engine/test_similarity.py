"""engine.similarity: the lowest cosine between the rows of a matrix."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import Scale, attention, lesson_scenario
from engine.similarity import COLLAPSE_COSINE, lowest_pairwise_cosine, residual_rows


def loop_lowest_cosine(rows) -> float:
    """Reference: every pair, one at a time, with math only."""
    lowest = math.inf
    for i, a in enumerate(rows):
        for j, b in enumerate(rows):
            if i != j:
                dot = sum(x * y for x, y in zip(a, b, strict=True))
                norm_a = math.sqrt(sum(x * x for x in a))
                norm_b = math.sqrt(sum(y * y for y in b))
                lowest = min(lowest, dot / (norm_a * norm_b))
    return lowest


def test_orthogonal_and_opposite_rows():
    assert lowest_pairwise_cosine(np.array([[1.0, 0.0], [0.0, 2.0]])) == pytest.approx(0.0)
    assert lowest_pairwise_cosine(np.array([[1.0, 1.0], [3.0, 3.0], [-1.0, -1.0]])) == pytest.approx(-1.0)


def test_fewer_than_two_rows_or_a_zero_row_has_no_answer():
    assert lowest_pairwise_cosine(np.array([[1.0, 2.0]])) is None
    assert lowest_pairwise_cosine(np.array([[1.0, 2.0], [0.0, 0.0]])) is None


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(2, 5), st.integers(1, 4)), elements=st.floats(0.1, 10)))
def test_matches_a_loop_over_every_pair(rows):
    assert lowest_pairwise_cosine(rows) == pytest.approx(loop_lowest_cosine(rows.tolist()), abs=1e-12)


def test_the_lessons_outputs_collapse():
    """With the lesson's weights the three outputs are nearly one vector: every pair's cosine is 0.999 to 3 decimals."""
    s = lesson_scenario()
    output = attention(s.x, s.w_q, s.w_k, s.w_v, scale=Scale.SQRT).output
    lowest = lowest_pairwise_cosine(output)
    assert lowest == pytest.approx(loop_lowest_cosine(output.tolist()), abs=1e-12)
    assert round(lowest, 3) == 0.999
    assert lowest > COLLAPSE_COSINE


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.float64, (4, 3), elements=st.floats(-10, 10)),
    arrays(np.float64, (4, 3), elements=st.floats(-10, 10)),
)
def test_the_sum_resembles_the_longer_of_its_two_parts(x, out):
    """cos(x + o, x) − cos(x + o, o) = (‖x‖ − ‖o‖)(1 − cos(x, o)) / ‖x + o‖: the page's "why" sentence."""
    rows = residual_rows(x, out)
    for i in range(4):
        xn, on, r = np.linalg.norm(x[i]), np.linalg.norm(out[i]), np.linalg.norm(x[i] + out[i])
        if min(xn, on, r) < 1e-3:
            continue
        cos_xo = float(x[i] @ out[i]) / (xn * on)
        expected = (xn - on) * (1 - cos_xo) / r
        assert rows.to_x[i] - rows.to_output[i] == pytest.approx(expected, abs=1e-9)
        if abs(expected) > 1e-9:
            assert bool(rows.closer_to_x[i]) == (xn > on)
