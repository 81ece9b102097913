"""One attention weight end to end (`derivation.cell`): the score, its division, the row's softmax, the weight.

Every expected value is read off the AttentionResult itself or recomputed with numpy here."""

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Scale, attention, derivation, lesson_scenario

PERRO, COME = 1, 2


def random_attention(seed: int, n: int, scale: Scale, causal: bool, temperature: float):
    rng = np.random.default_rng(seed)
    x, w_q, w_k, w_v = (rng.normal(size=shape) for shape in ((n, 4), (4, 3), (4, 3), (4, 2)))
    return attention(x, w_q, w_k, w_v, scale=scale, mask="causal" if causal else None, temperature=temperature)


def test_the_lessons_cell_perro_to_come_reads_like_the_walkthrough():
    result = lesson_scenario().run()
    cell = derivation.cell(result, PERRO, COME)
    assert cell.dot.result == Decimal("0.954")  # the lesson's score, written to three decimals
    assert (
        cell.division is not None and cell.division.divisor == Decimal(2) and cell.division.result == Decimal("0.477")
    )
    assert cell.columns == (0, 1, 2)
    assert cell.softmax is not None and cell.written_weight == Decimal("0.332")
    assert cell.weight == result.weights[PERRO, COME]
    assert not cell.masked


def test_undivided_scores_have_no_division_to_write():
    cell = derivation.cell(lesson_scenario().run(), PERRO, COME, divided=False)
    assert cell.division is None and cell.softmax is not None


def test_a_masked_cell_has_its_score_but_no_division_and_no_softmax():
    result = random_attention(0, 4, Scale.SQRT, causal=True, temperature=1.0)
    cell = derivation.cell(result, 1, 3)
    assert cell.masked and cell.division is None and cell.softmax is None
    assert cell.dot.exact == result.scores[1, 3]  # the score is still computed: the mask hides it afterwards
    assert cell.weight == 0.0 and cell.written_weight == 0
    assert cell.columns == (0, 1)


@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 6),
    scale=st.sampled_from(list(Scale)),
    causal=st.booleans(),
    temperature=st.sampled_from([0.5, 1.0, 2.0]),
    data=st.data(),
)
def test_every_cell_is_the_results_own_numbers_step_by_step(seed, n, scale, causal, temperature, data):
    result = random_attention(seed, n, scale, causal, temperature)
    i, j = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    cell = derivation.cell(result, i, j)
    allowed = np.flatnonzero(result.allowed[i])
    assert cell.columns == tuple(allowed)
    assert cell.dot.exact == pytest.approx(float(result.q[i] @ result.k[j]), abs=1e-12)
    assert cell.divisor == result.divisor and cell.weight == result.weights[i, j]
    assert cell.masked == (j not in allowed)
    if cell.masked:
        assert cell.division is None and cell.softmax is None and cell.weight == 0
        return
    assert cell.division is not None and cell.division.exact == pytest.approx(result.scores[i, j] / result.divisor)
    assert cell.scaled_score == result.scaled_scores[i, j]
    assert cell.softmax is not None
    np.testing.assert_array_equal(cell.softmax.exact, result.weights[i][allowed])
    assert cell.softmax.temperature == Decimal(str(temperature))
    assert cell.written_weight == cell.softmax.weights[list(allowed).index(j)]
