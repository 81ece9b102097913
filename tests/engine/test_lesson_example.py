"""The lesson's worked example ("el perro come", d_model = d_k = 4), figure by figure.

Expected values come from the lesson's text and from tests/engine/reference.py (loops and math.exp),
never from the engine's own output. Figures are checked "to 3 decimals": the true value must round to
the printed one (|true - printed| <= 0.0005).

Where the lesson prints a wrong figure, the test pins the correct value and says which figure is wrong.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
import reference

from engine import attention, lesson_scenario, naive_normalize, presets, softmax, softmax_steps
from engine.derivation import dot, projection, weighted_sum
from engine.pipeline import pipeline

# Transcribed from the lesson's text (step 3 inputs and the three made-up weight matrices).
X = [
    [0.21, 0.45, 0.08, 1.43],  # el
    [0.50, 1.15, 0.78, 0.88],  # perro
    [1.36, -0.64, -0.28, 1.91],  # come
]
W_Q = [[0.3, -0.1, 0.4, 0.2], [0.1, 0.5, -0.2, 0.3], [-0.2, 0.1, 0.6, -0.1], [0.4, 0.2, 0.1, 0.5]]
W_K = [[0.2, 0.4, -0.1, 0.3], [-0.3, 0.2, 0.5, 0.1], [0.1, -0.2, 0.3, 0.4], [0.5, 0.1, 0.2, -0.2]]
W_V = [[0.4, 0.1, 0.3, -0.2], [0.2, 0.3, -0.1, 0.4], [-0.1, 0.5, 0.2, 0.1], [0.3, -0.2, 0.4, 0.5]]
EL, PERRO, COME = 0, 1, 2
HALF_THOUSANDTH = 0.0005 + 1e-12


def assert_3dp(actual, printed) -> None:
    """Every entry of `actual` rounds to the corresponding printed 3-decimal figure."""
    actual = np.asarray(actual, dtype=np.float64)
    printed = np.asarray(printed, dtype=np.float64)
    assert actual.shape == printed.shape
    worst = float(np.max(np.abs(actual - printed)))
    assert worst <= HALF_THOUSANDTH, f"{actual.tolist()} does not round to {printed.tolist()} (off by {worst})"


@pytest.fixture(scope="module")
def ref():
    """The worked example computed independently, by loops, with divisor √4 = 2."""
    return reference.attention(X, W_Q, W_K, W_V, divisor=2.0, causal=False)


@pytest.fixture(scope="module")
def result():
    return attention(np.array(X), np.array(W_Q), np.array(W_K), np.array(W_V), scale="sqrt")


# --- the inputs -------------------------------------------------------------------------------------


def test_presets_hold_the_lesson_inputs_and_weights():
    assert presets.LESSON_TOKENS == ("el", "perro", "come")
    assert presets.LESSON_SENTENCE == "el perro come"
    assert presets.LESSON_D_MODEL == 4
    np.testing.assert_array_equal(presets.LESSON_X, X)
    np.testing.assert_array_equal(presets.LESSON_W_Q, W_Q)
    np.testing.assert_array_equal(presets.LESSON_W_K, W_K)
    np.testing.assert_array_equal(presets.LESSON_W_V, W_V)


def test_engine_matches_reference_on_every_intermediate_of_the_lesson(result, ref):
    for name, ref_name in (
        ("q", "q"),
        ("k", "k"),
        ("v", "v"),
        ("scores", "scores"),
        ("scaled_scores", "scaled"),
        ("weights", "weights"),
        ("output", "output"),
    ):
        np.testing.assert_allclose(getattr(result, name), ref[ref_name], rtol=1e-12, atol=1e-12, err_msg=name)
    assert result.divisor == 2.0
    assert result.d_k == 4


# --- sub-step 1: Q, K, V ----------------------------------------------------------------------------


def test_q_perro_is_lesson_figure(result, ref):
    assert_3dp(ref["q"][PERRO], [0.461, 0.779, 0.526, 0.807])
    assert_3dp(result.q[PERRO], [0.461, 0.779, 0.526, 0.807])


def test_all_queries_and_keys_to_3_decimals(result):
    assert_3dp(result.q, [[0.664, 0.498, 0.185, 0.884], [0.461, 0.779, 0.526, 0.807], [1.164, -0.102, 0.695, 1.063]])
    assert_3dp(result.k, [[0.630, 0.301, 0.514, -0.146], [0.273, 0.362, 0.935, 0.401], [1.391, 0.663, -0.158, -0.150]])


def test_k_come_is_lesson_figure(result, ref):
    assert_3dp(ref["k"][COME], [1.391, 0.663, -0.158, -0.150])
    assert_3dp(result.k[COME], [1.391, 0.663, -0.158, -0.150])


def test_value_rows_are_lesson_figures(result, ref):
    printed = [
        [0.595, -0.090, 0.606, 0.861],  # V_el
        [0.616, 0.609, 0.543, 0.878],  # V_perro
        [1.017, -0.578, 1.180, 0.399],  # V_come
    ]
    assert_3dp(ref["v"], printed)
    assert_3dp(result.v, printed)


def d(*values: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def test_the_written_products_of_q_perro_first_dimension_are_the_lessons():
    terms = dot(X[PERRO], [row[0] for row in W_Q])  # x_perro · column 0 of W_Q
    assert terms.a == d("0.5", "1.15", "0.78", "0.88")  # written as the lesson writes them
    assert terms.products == d("0.15", "0.115", "-0.156", "0.352") and terms.products_exact
    assert terms.result == Decimal("0.461") and terms.agrees


def test_projection_gives_q_perro_one_column_at_a_time(ref):
    terms = projection(X[PERRO], W_Q)
    assert len(terms) == 4
    np.testing.assert_allclose([t.exact for t in terms], ref["q"][PERRO], rtol=0, atol=1e-12)
    assert [t.result for t in terms] == list(d("0.461", "0.779", "0.526", "0.807"))
    assert terms[1].products == d("-0.05", "0.575", "0.078", "0.176")  # the lesson's Q_perro[1] line
    assert terms[3].products == d("0.1", "0.345", "-0.078", "0.44")  # the lesson's Q_perro[3] line


# --- sub-step 2: scores -----------------------------------------------------------------------------


def test_the_written_score_perro_to_come():
    # The lesson prints the products as +0.641, +0.517, -0.083, -0.121 and the total +0.954: those products add
    # up to 0.954 only because the second is WRONG in the lesson: 0.779 × 0.663 = 0.516477, which is +0.516.
    # Written with four decimals, the products add up to a total that rounds to the exact score's +0.954.
    terms = dot([0.461, 0.779, 0.526, 0.807], [1.391, 0.663, -0.158, -0.150])
    assert abs(0.779 * 0.663 - 0.517) > HALF_THOUSANDTH  # the lesson's +0.517 does not hold
    assert terms.products == d("0.6413", "0.5165", "-0.0831", "-0.1211") and not terms.products_exact
    assert terms.total == Decimal("0.9536") and terms.result == Decimal("0.954")


def test_the_written_score_perro_to_come_from_engine_vectors(result):
    terms = dot(result.q[PERRO], result.k[COME], exact=result.scores[PERRO, COME])
    assert terms.exact == pytest.approx(result.scores[PERRO, COME], abs=1e-14)
    assert terms.result == Decimal("0.954") and terms.agrees


def test_perro_row_of_scores_is_lesson_figure(result, ref):
    assert_3dp(ref["scores"][PERRO], [0.677, 1.223, 0.954])
    assert_3dp(result.scores[PERRO], [0.677, 1.223, 0.954])
    # "su mejor match es consigo mismo, después con come, y por último con el"
    assert list(np.argsort(-result.scores[PERRO])) == [PERRO, COME, EL]


def test_full_score_matrix_to_3_decimals(result, ref):
    expected = [[0.534, 0.889, 1.092], [0.677, 1.223, 0.954], [0.905, 1.357, 1.282]]
    assert_3dp(ref["scores"], expected)
    assert_3dp(result.scores, expected)


# --- sub-step 3: scaling by √d_k = 2 ----------------------------------------------------------------


def test_scaled_perro_row_uses_sqrt_4_and_perro_to_perro_is_0_612_not_lesson_0_611(result, ref):
    # The lesson prints score_escalado(perro → perro) = 1.223 / 2 = +0.611. That figure is WRONG:
    # the unrounded score is 1.223268 and 1.223268 / 2 = 0.611634, which rounds to +0.612.
    assert ref["scaled"][PERRO][PERRO] == pytest.approx(0.611634, abs=1e-9)
    assert_3dp(result.scaled_scores[PERRO], [0.339, 0.612, 0.477])
    assert abs(result.scaled_scores[PERRO, PERRO] - 0.611) > HALF_THOUSANDTH  # the lesson's +0.611 does not hold
    np.testing.assert_allclose(result.scaled_scores, result.scores / 2.0, rtol=0, atol=0)


def test_full_scaled_score_matrix_to_3_decimals(result, ref):
    expected = [[0.267, 0.445, 0.546], [0.339, 0.612, 0.477], [0.452, 0.678, 0.641]]
    assert_3dp(ref["scaled"], expected)
    assert_3dp(result.scaled_scores, expected)


# --- sub-step 4: softmax ----------------------------------------------------------------------------


def test_perro_attention_weights_are_0_289_0_380_0_332(result, ref):
    # The lesson prints 0.289, 0.379, 0.332. Its 0.379 is the softmax of its own rounded (and wrong)
    # scaled score +0.611: the exact weight is 0.379505..., which rounds to 0.380. 0.289 and 0.332 hold.
    assert_3dp(ref["weights"][PERRO], [0.289, 0.380, 0.332])
    assert_3dp(result.weights[PERRO], [0.289, 0.380, 0.332])
    assert_3dp(result.weights[PERRO, [EL, COME]], [0.289, 0.332])  # the lesson's figures that do hold
    assert abs(result.weights[PERRO, PERRO] - 0.379) > HALF_THOUSANDTH
    # Where the lesson's 0.379 comes from: softmax of the rounded scores it printed.
    assert_3dp(reference.softmax([0.339, 0.611, 0.477]), [0.289, 0.379, 0.332])


def test_lesson_exponentials_of_rounded_scaled_scores():
    # The lesson's "Paso 1/2": e^0.339 ≈ 1.404, e^0.611 ≈ 1.842, e^0.477 ≈ 1.611, total 4.857.
    steps = softmax_steps([0.339, 0.611, 0.477])
    assert_3dp(steps.naive_exps, [1.404, 1.842, 1.611])
    assert_3dp(steps.naive_total, 4.857)


def test_exponentials_of_exact_scaled_perro_row_are_1_403_1_843_1_611(result):
    # The lesson prints e^x ≈ 1.404, 1.842, 1.611 for the perro row. The first two are WRONG for the
    # exact scaled scores (0.338726, 0.611634, 0.476785): they are the exponentials of the rounded
    # scores 0.339 and 0.611. Exactly: 1.403, 1.843, 1.611, total 4.857 (that total does hold).
    steps = softmax_steps(result.scaled_scores[PERRO])
    assert_3dp(steps.naive_exps, [1.403, 1.843, 1.611])
    assert_3dp([math.exp(v) for v in (0.6774510 / 2, 1.223268 / 2, 0.95357 / 2)], [1.403, 1.843, 1.611])
    assert abs(steps.naive_exps[0] - 1.404) > HALF_THOUSANDTH
    assert abs(steps.naive_exps[1] - 1.842) > HALF_THOUSANDTH
    assert_3dp(steps.naive_total, 4.857)
    np.testing.assert_allclose(steps.weights, result.weights[PERRO], rtol=1e-14, atol=0)


def test_full_weight_matrix_to_3_decimals_and_rows_sum_to_one(result, ref):
    expected = [[0.284, 0.340, 0.376], [0.289, 0.380, 0.332], [0.289, 0.362, 0.349]]
    assert_3dp(ref["weights"], expected)
    assert_3dp(result.weights, expected)
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_unscaled_softmax_of_perro_row_is_0_247_0_427_0_326_not_lesson_figure(result):
    # The lesson's "SIN escalar" line prints softmax([+0.677, +1.223, +0.954]) → [0.222, 0.382, 0.396].
    # Those figures are WRONG (they do not even keep "perro" as the largest weight):
    # softmax([0.677451, 1.223268, 0.95357]) = [0.247, 0.427, 0.326].
    unscaled = softmax(result.scores[PERRO])
    assert_3dp(reference.softmax([0.677451, 1.223268, 0.95357]), [0.247, 0.427, 0.326])
    assert_3dp(unscaled, [0.247, 0.427, 0.326])
    assert np.max(np.abs(unscaled - [0.222, 0.382, 0.396])) > 0.02
    # What the lesson says qualitatively does hold: without scaling the weights are more concentrated.
    assert unscaled.max() > result.weights[PERRO].max()
    assert np.argmax(unscaled) == PERRO


def test_unscaled_attention_weights_equal_softmax_of_raw_scores(result):
    plain = attention(np.array(X), np.array(W_Q), np.array(W_K), np.array(W_V), scale="none")
    assert plain.divisor == 1.0
    assert_3dp(plain.weights[PERRO], [0.247, 0.427, 0.326])


# --- sub-step 5: weighted sum of values -------------------------------------------------------------


def test_output_perro_is_0_743_0_013_0_772_0_714(result, ref):
    # The lesson prints output_perro = [+0.743, +0.013, +0.773, +0.714]. Its third figure is WRONG: it
    # multiplies the rounded weights 0.289/0.379/0.332. With the exact weights, output_perro[2] =
    # 0.772447..., i.e. +0.772. The other three figures hold.
    assert_3dp(ref["output"][PERRO], [0.743, 0.013, 0.772, 0.714])
    assert_3dp(result.output[PERRO], [0.743, 0.013, 0.772, 0.714])
    assert abs(result.output[PERRO, 2] - 0.773) > HALF_THOUSANDTH
    # Where the lesson's +0.773 comes from: the rounded weights.
    rounded = [0.289, 0.379, 0.332]
    assert_3dp(sum(w * v[2] for w, v in zip(rounded, ref["v"], strict=True)), 0.773)


def test_the_written_weighted_sum_of_output_perro(result):
    terms = weighted_sum(result.weights[PERRO], result.v)
    assert len(terms) == 4
    assert terms[0].a == d("0.289", "0.38", "0.332")  # the weights as written
    assert terms[0].products == d("0.172", "0.2341", "0.3376")  # 0.289·0.595, 0.380·0.616, 0.332·1.017
    # output_perro[2] from the written weights: 0.289·0.606 + 0.380·0.543 + 0.332·1.180 = 0.7731 → 0.773,
    # while the exact value is 0.77245 → 0.772: the derivation says so (agrees is False, exact kept)
    assert terms[2].result == Decimal("0.773") and not terms[2].agrees
    assert terms[2].exact == pytest.approx(result.output[PERRO, 2], abs=1e-14)


def test_full_output_matrix_to_3_decimals(result, ref):
    expected = [[0.761, -0.036, 0.800, 0.693], [0.743, 0.013, 0.772, 0.714], [0.750, -0.007, 0.783, 0.706]]
    assert_3dp(ref["output"], expected)
    assert_3dp(result.output, expected)


# --- the softmax warm-up: [2, 5, 1] -----------------------------------------------------------------


def test_softmax_steps_of_2_5_1_are_lesson_figures():
    steps = softmax_steps([2.0, 5.0, 1.0])
    assert_3dp(steps.naive_exps, [7.389, 148.413, 2.718])
    assert_3dp(steps.naive_total, 158.520)
    assert_3dp(steps.weights, [0.047, 0.936, 0.017])
    assert steps.weights_sum == pytest.approx(1.0, abs=1e-15)
    assert steps.overflow is False
    assert steps.shift == 5.0
    np.testing.assert_allclose(steps.shifted, [-3.0, 0.0, -4.0], rtol=0, atol=0)
    np.testing.assert_allclose(steps.weights, reference.softmax([2.0, 5.0, 1.0]), rtol=1e-14, atol=0)
    expected_exps = [math.exp(2.0), math.exp(5.0), math.exp(1.0)]
    np.testing.assert_allclose(steps.naive_exps, expected_exps, rtol=1e-14, atol=0)


def test_naive_normalize_of_2_5_1_is_quarter_five_eighths_eighth():
    naive = naive_normalize([2.0, 5.0, 1.0])
    assert naive.total == 8.0
    np.testing.assert_array_equal(naive.shares, [0.25, 0.625, 0.125])
    assert naive.problems == ()
    assert naive.valid


# --- the same story on the pipeline and scenario pages ----------------------------------------------


def test_pipeline_of_lesson_sentence_gives_lesson_x():
    run = pipeline("el perro come", d_model=4)
    assert run.tokens == ("el", "perro", "come")
    assert run.dropped == 0
    assert np.allclose(run.x, presets.LESSON_X, rtol=0, atol=1e-12)
    np.testing.assert_allclose(run.embeddings + run.positional, run.x, rtol=0, atol=0)


def test_pipeline_attention_equals_lesson_scenario_attention():
    run = pipeline("el perro come", d_model=4).attention
    scenario = lesson_scenario().run()
    for name in ("q", "k", "v", "scores", "scaled_scores", "weights", "output"):
        np.testing.assert_allclose(getattr(run, name), getattr(scenario, name), rtol=0, atol=1e-12, err_msg=name)
    assert_3dp(run.weights[PERRO], [0.289, 0.380, 0.332])
