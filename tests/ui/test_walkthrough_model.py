"""The walkthrough's view-model without a page: how wide a derivation may be, the lesson's small examples, and
what each part reads off the numbers. Expected values are worked out by hand or with numpy here."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import Scale, attention, lesson_scenario
from ui.view_models import walkthrough as model

PERRO = 1


def test_a_derivation_takes_the_characters_its_box_holds_and_never_fewer_than_thirty():
    # (940 − 16) / 2 = 462 px a column; minus 40 px of padding: 422 px of 8.4 px characters = 50
    assert model.share_columns(1 / 2, presenting=False) == 50
    # presentation: (930 − 16) · 3/5 = 548.4 px; 508.4 / 12 = 42
    assert model.share_columns(3 / 5, presenting=True) == 42
    assert model.share_columns(1, presenting=True, columns=1) == (930 - 40) // 12
    assert model.text_columns(100, presenting=True) == 30


def test_beside_a_figure_a_derivation_takes_what_is_left_of_the_projectors_row():
    # 930 − 400 − 32 = 498 px; minus 40: 458 / 12 = 38
    assert model.beside_columns(400) == 38
    assert model.beside_columns(900) == 30


def test_the_scalar_example_keeps_el_and_perro_at_three_to_four():
    weights = model.scalar_weights(0.3)
    assert weights == pytest.approx((0.3, 0.4, 0.3))  # the lesson's own weights
    low = model.scalar_weights(0.65)
    assert low[0] / low[1] == pytest.approx(3 / 4) and sum(low) == pytest.approx(1.0)


def test_the_scores_reading_names_the_rows_highest_and_lowest():
    result = lesson_scenario().run()
    reading = model.scores_reading(result, PERRO)
    row = result.scores[PERRO]
    assert row[reading.best] == row.max() and row[reading.worst] == row.min()


def test_the_softmax_reading_compares_the_row_with_its_undivided_softmax():
    result = lesson_scenario().run()
    reading = model.softmax_reading(result, PERRO, divided=True)
    scores = result.scores[PERRO]
    expected = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    np.testing.assert_allclose(reading.unscaled, expected, rtol=1e-12)
    assert reading.small_gap == (scores.max() - scores.min() < 2.0)
    assert reading.top == int(result.weights[PERRO].argmax()) and reading.peaked is not None
    assert model.softmax_reading(result, PERRO, divided=False).unscaled is None


def test_a_row_the_mask_leaves_one_token_has_no_verdict():
    s = lesson_scenario()
    result = attention(s.x, s.w_q, s.w_k, s.w_v, mask="causal")
    first = model.softmax_reading(result, 0, divided=True)
    assert first.peaked is None and first.top is None
    assert first.allowed.tolist() == [True, False, False]
    np.testing.assert_array_equal(first.unscaled, [1.0, 0.0, 0.0])


def test_outputs_that_are_nearly_one_vector_read_as_collapsed():
    s = lesson_scenario()
    spread = model.collapse_reading(s.run())
    assert spread is not None and spread.lowest == pytest.approx(
        min(
            float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
            for i, a in enumerate(s.run().output)
            for b in s.run().output[i + 1 :]
        )
    )
    same = replace(s, x=np.ones_like(s.x), scale=Scale.SQRT)  # every token the same vector: one output
    collapsed = model.collapse_reading(same.run())
    assert collapsed is not None and collapsed.collapsed
