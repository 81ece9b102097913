"""The multi-head page's view-model without a page: the input, the heads of each preset, W_O from its settings,
the single head compared with, and the verdicts. Expected values come from the engine or numpy run here."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from engine import DESIGNED_SENTENCE, attention, identity_like_w_o, lesson_scenario, random_w_o
from ui.view_models import multihead as model

SCENARIO = lesson_scenario()  # 3 tokens, d_model = 4


def sentence_source() -> model.Source:
    return model.source_of(SCENARIO, "sentence")


def test_the_input_is_the_scenarios_or_the_sentences_with_the_scenarios_options():
    own = model.source_of(SCENARIO, "scenario")
    assert own.tokens == SCENARIO.tokens and np.array_equal(own.x, SCENARIO.x)
    sentence = model.source_of(replace(SCENARIO, causal=True, temperature=2.0), "sentence")
    assert sentence.tokens == tuple(DESIGNED_SENTENCE.split()) and sentence.d_model == 8
    assert sentence.options() == {"scale": SCENARIO.scale, "mask": "causal", "temperature": 2.0}


@pytest.mark.parametrize(("d_model", "h"), [(8, 4), (4, 2), (6, 2), (3, 1), (2, 1)])
def test_the_default_h_is_the_most_designed_heads_of_two_columns_or_more(d_model, h):
    assert model.default_heads(d_model) == h


def test_the_scenarios_own_heads_are_offered_only_when_they_read_xs_width():
    assert model.presets_for(model.source_of(SCENARIO, "scenario"), SCENARIO) == model.PRESETS
    assert model.presets_for(sentence_source(), SCENARIO) == ("designed", "random")


def test_the_scenario_preset_puts_the_scenarios_w_in_head_one():
    source = model.source_of(SCENARIO, "scenario")
    heads = model.build_heads(source, 2, "scenario", 5, SCENARIO)
    assert all(w is s for w, s in zip(heads.weights[0], (SCENARIO.w_q, SCENARIO.w_k, SCENARIO.w_v), strict=True))
    assert heads.refused is None and heads.jobs is None
    assert heads.concat_width == SCENARIO.w_v.shape[1] + heads.weights[1][2].shape[1]


def test_designed_heads_that_cannot_be_built_fall_back_to_random_ones_and_say_why():
    heads = model.build_heads(sentence_source(), 8, "designed", 0, SCENARIO)  # 8 heads: not a designed count
    assert heads.refused is not None and heads.refused[0] == "designed_heads_count"
    assert len(heads.weights) == 8 and heads.jobs is None
    built = model.build_heads(sentence_source(), 4, "designed", 0, SCENARIO)
    assert built.refused is None and built.jobs is not None and len(built.jobs) == 4


def test_an_edited_w_o_is_used_while_its_shape_fits_else_its_presets():
    edited = np.full((6, 4), 0.5)
    settings = {"kind": "random", "seed": 9, "matrix": edited, "rev": 3}
    assert model.w_o_of(settings, 6, 4) is edited
    np.testing.assert_array_equal(model.w_o_of(settings, 4, 4), random_w_o(4, 4, 9))
    np.testing.assert_array_equal(model.w_o_of(model.default_w_o(), 4, 4), identity_like_w_o(4, 4))


def test_the_identity_w_o_is_recognised_only_when_square():
    source = model.source_of(SCENARIO, "scenario")
    heads = model.build_heads(source, 2, "random", 0, SCENARIO)
    square = model.run(source, heads, identity_like_w_o(heads.concat_width, 4))
    assert model.identity_w_o(square) == (heads.concat_width == 4)
    assert not model.identity_w_o(model.run(source, heads, random_w_o(heads.concat_width, 4, 1)))


def test_rows_as_intended_count_focused_hits_and_spread_rows_built_to_spread():
    b = SimpleNamespace(focused=np.array([True, True, False, False]), top=np.array([1, 2, 0, 3]))
    assert model.as_intended(b, np.array([1, 0, -1, 3])) == 2  # row 0 hits; row 1 misses; row 2 spreads as built


def test_the_single_head_is_the_walkthroughs_or_the_heads_merged():
    source = model.source_of(SCENARIO, "scenario")
    kind, head = model.single_head(source, model.build_heads(source, 2, "random", 0, SCENARIO), SCENARIO)
    assert kind == "walk"
    np.testing.assert_array_equal(head.weights, SCENARIO.run().weights)
    sentence = sentence_source()
    heads = model.build_heads(sentence, 2, "random", 0, SCENARIO)
    kind, head = model.single_head(sentence, heads, SCENARIO)
    merged = [np.hstack([w[role] for w in heads.weights]) for role in range(3)]
    assert kind == "merged"
    np.testing.assert_allclose(head.output, attention(sentence.x, *merged, **sentence.options()).output)


def test_the_lowest_cosine_is_nan_without_two_rows_to_compare():
    assert model.lowest_cosine(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])) == pytest.approx(0.0)
    assert np.isnan(model.lowest_cosine(np.array([[1.0, 0.0]])))
    assert np.isnan(model.lowest_cosine(np.array([[1.0, 0.0], [0.0, 0.0]])))


def test_the_cosines_read_as_heads_that_differ_and_a_residual_that_keeps_x():
    reading = model.cosine_reading(x=0.2, single=0.9, multi=0.5, residual=0.3)
    assert reading.multi_differs and reading.residual_keeps
    reading = model.cosine_reading(x=0.2, single=0.4, multi=0.8, residual=0.7)
    assert not reading.multi_differs and not reading.residual_keeps


def test_one_big_head_holds_the_small_heads_side_by_side_when_they_fit():
    source = sentence_source()
    heads = model.build_heads(source, 2, "random", 0, SCENARIO)
    result = model.run(source, heads, identity_like_w_o(heads.concat_width, 8))
    comparison = model.compare(source, heads, result, 0)
    assert comparison.merged and len(comparison.many) == 2
    # QKᵀ of the merged head is the sum of the heads' QᵢKᵢᵀ: the same scores, split in two
    many_scores = sum(head.scores for head in comparison.compared.many.heads)
    np.testing.assert_allclose(comparison.compared.one.heads[0].scores, many_scores, atol=1e-12)
    assert comparison.spreads == (comparison.one.mean_entropy > comparison.many_entropy)


def test_heads_of_another_width_are_compared_with_random_matrices():
    source = model.source_of(SCENARIO, "scenario")
    heads = model.build_heads(source, 2, "scenario", 0, SCENARIO)  # head 1 is 4 wide: not d_model / h
    result = model.run(source, heads, random_w_o(heads.concat_width, 4, 0))
    assert not model.compare(source, heads, result, 0).merged


def test_a_default_token_falls_back_within_range():
    assert model.default_token(["el", "perro", "come"], "come", 0) == 2
    assert model.default_token(["a", "b"], "come", 2) == 1
