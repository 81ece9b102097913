"""engine.peakedness: the lesson's three-divisor verdicts, read off the numbers."""

from __future__ import annotations

import math

import numpy as np

from engine import Scale, peakedness_verdict, scaling_experiment, softmax, softmax_three_ways

# no divisor saturates, ÷√d_k keeps a preference, ÷d_k flattens everything
LESSON_TABLE = {"none": "saturated", "sqrt": "balanced", "dk": "flat"}


def test_one_dominant_token_is_saturated():
    weights = softmax(np.array([10.0, 0.0, 0.0, 0.0]))
    entropy = float(-(weights * np.log(weights)).sum())
    assert peakedness_verdict(weights.max(), entropy, math.log(4)) == "saturated"


def test_equal_weights_are_flat():
    assert peakedness_verdict(0.25, math.log(4), math.log(4)) == "flat"


def test_a_clear_but_shared_preference_is_balanced():
    weights = np.array([0.5, 0.3, 0.1, 0.1])
    entropy = float(-(weights * np.log(weights)).sum())
    assert peakedness_verdict(weights.max(), entropy, math.log(4)) == "balanced"


def test_verdicts_work_on_whole_tables():
    verdicts = peakedness_verdict([[0.95, 0.5, 0.2]], [[0.2, 1.5, 2.05]], math.log(8))
    assert verdicts.tolist() == [["saturated", "balanced", "flat"]]


def test_at_large_d_k_the_lesson_table_comes_out_of_the_experiment():
    result = scaling_experiment([1024], samples=2000, seed=0)
    verdicts = peakedness_verdict(result.max_weight[0], result.entropy[0], result.uniform_entropy)
    assert dict(zip(Scale, verdicts.tolist(), strict=True)) == LESSON_TABLE


def test_one_row_at_large_d_k_reads_the_same_way():
    row = softmax_three_ways(4096, 8, seed=0)
    verdicts = peakedness_verdict(row.max_weight, row.entropy, row.uniform_entropy)
    assert dict(zip(Scale, verdicts.tolist(), strict=True)) == LESSON_TABLE
