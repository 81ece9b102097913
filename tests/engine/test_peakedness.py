"""engine.peakedness: the lesson's three-divisor verdicts, read off the numbers by one rule."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Scale, peakedness_verdict, scaling_experiment, softmax, softmax_three_ways
from engine.peakedness import effective_tokens, peakedness, row_reading

# no divisor saturates, ÷√d_k keeps a preference, ÷d_k flattens everything
LESSON_TABLE = {"none": "saturated", "sqrt": "balanced", "dk": "flat"}


def entropy_of(weights) -> float:
    weights = np.asarray(weights, dtype=np.float64)
    weights = weights[weights > 0]
    return float(-(weights * np.log(weights)).sum())


def test_one_dominant_token_is_saturated():
    weights = softmax(np.array([10.0, 0.0, 0.0, 0.0]))
    assert peakedness_verdict(weights.max(), entropy_of(weights), math.log(4)) == "saturated"


def test_equal_weights_are_flat():
    assert peakedness_verdict(0.25, math.log(4), math.log(4)) == "flat"


def test_a_clear_but_shared_preference_is_balanced():
    weights = np.array([0.5, 0.3, 0.1, 0.1])
    assert peakedness_verdict(weights.max(), entropy_of(weights), math.log(4)) == "balanced"


def test_the_thresholds_are_strict_and_sit_where_the_rule_says():
    # a largest weight of exactly 0.8 is not yet saturated; just above it is
    low = [0.8, 0.2 / 3, 0.2 / 3, 0.2 / 3]
    high = [0.8001, 0.1999 / 3, 0.1999 / 3, 0.1999 / 3]
    assert peakedness_verdict(0.8, entropy_of(low), math.log(4)) != "saturated"
    assert peakedness_verdict(0.8001, entropy_of(high), math.log(4)) == "saturated"
    # flat: more than 0.85 · n effective tokens; n = 4 → the border is 3.4 tokens
    assert peakedness_verdict(0.3, math.log(3.41), math.log(4)) == "flat"
    assert peakedness_verdict(0.3, math.log(3.39), math.log(4)) == "balanced"


@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_effective_tokens_of_an_even_split_over_m_tokens_is_m(m):
    weights = [1 / m] * m + [0.0] * 3
    assert effective_tokens(entropy_of(weights)) == pytest.approx(m)


def test_verdicts_work_on_whole_tables():
    # 0.95 > 0.8; e^1.5 = 4.48 ≤ 6.8 = 0.85 · 8; e^2.05 = 7.77 > 6.8
    verdicts = peakedness_verdict([[0.95, 0.5, 0.2]], [[0.2, 1.5, 2.05]], math.log(8))
    assert verdicts.tolist() == [["saturated", "balanced", "flat"]]


@pytest.mark.parametrize("seed", [0, 1])
def test_scores_of_8_saturate_as_the_lesson_says_and_4_do_not(seed):
    """q·k at d_k = 64 spreads ±8 (the lesson's "Quedan enormes (±8, ±20...) → se satura"); at d_k = 16, ±4."""
    result = scaling_experiment([16, 64], samples=2000, seed=seed)
    verdicts = peakedness_verdict(result.max_weight, result.entropy, result.uniform_entropy)
    none = list(Scale).index(Scale.NONE)
    assert verdicts[1, none] == "saturated"
    assert verdicts[0, none] == "balanced"


@pytest.mark.parametrize("d_k", [4, 16, 64, 256, 1024])
def test_dividing_by_sqrt_dk_stays_balanced_at_every_dk(d_k):
    result = scaling_experiment([d_k], samples=2000, seed=3)
    verdicts = peakedness_verdict(result.max_weight[0], result.entropy[0], result.uniform_entropy)
    assert verdicts[list(Scale).index(Scale.SQRT)] == "balanced"


def test_at_large_d_k_the_lesson_table_comes_out_of_the_experiment():
    result = scaling_experiment([1024], samples=2000, seed=0)
    verdicts = peakedness_verdict(result.max_weight[0], result.entropy[0], result.uniform_entropy)
    assert dict(zip(Scale, verdicts.tolist(), strict=True)) == LESSON_TABLE


def test_one_row_at_large_d_k_reads_the_same_way():
    row = softmax_three_ways(4096, 8, seed=0)
    verdicts = peakedness_verdict(row.max_weight, row.entropy, row.uniform_entropy)
    assert dict(zip(Scale, verdicts.tolist(), strict=True)) == LESSON_TABLE


@pytest.mark.parametrize(
    ("weights", "reading"),
    [
        ([0.9, 0.05, 0.05], "saturated"),  # one share above 0.8
        ([0.289, 0.380, 0.332], "flat"),  # the lesson's perro row: e^H = 2.98 effective tokens > 0.85 × 3 = 2.55
        ([0.5, 0.3, 0.2], "flat"),  # e^H = 2.80 > 2.55: at n = 3 the rule calls this spread flat
        ([0.6, 0.3, 0.1], "balanced"),  # e^H = 2.45 ≤ 2.55
        ([0.8, 0.2], "balanced"),  # 0.8 is not above 0.8; e^H = 1.65 ≤ 1.7
        ([0.25, 0.25, 0.25, 0.25], "flat"),
        ([1.0], "saturated"),  # one token takes everything
    ],
)
def test_a_row_reads_as_saturated_balanced_or_flat_by_the_one_rule(weights, reading):
    w = np.asarray(weights)
    flat = math.exp(entropy_of(w)) > 0.85 * w.size
    expected = "saturated" if w.max() > 0.8 or w.size == 1 else ("flat" if flat else "balanced")
    assert row_reading(weights) == reading == expected


def test_a_set_of_rows_is_read_from_its_mean_largest_weight_and_mean_entropy():
    rows = np.array([[0.9, 0.05, 0.05], [1 / 3, 1 / 3, 1 / 3], [0.05, 0.9, 0.05]])
    read = peakedness(rows)
    assert read is not None
    assert read.max_weight == pytest.approx((0.9 + 1 / 3 + 0.9) / 3)
    entropies = [entropy_of(r) for r in rows]
    assert read.effective == pytest.approx(math.exp(sum(entropies) / 3))
    assert read.tokens == pytest.approx(3) and read.rows == 3
    # the same averages give the same word as the √d_k page's rule
    assert read.verdict == peakedness_verdict(read.max_weight, sum(entropies) / 3, math.log(3))


def test_rows_the_mask_leaves_one_token_are_no_choice_and_are_not_counted():
    causal = np.tril(np.ones((3, 3), dtype=bool))
    weights = np.array([[1.0, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]])
    read = peakedness(weights, causal)
    assert read is not None and read.rows == 2
    assert read.max_weight == pytest.approx((0.5 + 0.5) / 2)
    assert read.tokens == pytest.approx(math.exp((math.log(2) + math.log(3)) / 2))
    assert peakedness(weights[:1], causal[:1]) is None
