"""The multi-head and learning pages' questions: fair on the pages' fresh start and on any inputs a student can set
(the laws of tests/engine/test_questions.py: one right option, the answer grades right, each named mistake grades as
itself, options distinct as printed), and their answers and mistakes match a computation done here with loops."""

from __future__ import annotations

import math

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from test_questions import asked, assert_fair

from engine import identity_like_w_o, lesson_scenario, multi_head_attention, random_heads, random_w_o
from engine import questions as q
from engine.questions import Kind, LearningView, MultiHeadView, Outcome, grade
from engine.targets import TARGET_PRESETS, preset_available
from tests.engine.question_contexts import (
    divisors,
    learning_view,
    lesson_learning_view,
    lesson_multihead_view,
    multihead_view,
    random_walk_scenario,
)

FAST = settings(max_examples=25, deadline=None, database=None)
MULTIHEAD = [t for t in q.TEMPLATES.values() if t.context is MultiHeadView]
LEARNING = [t for t in q.TEMPLATES.values() if t.context is LearningView]


def test_the_new_pages_register_their_templates_in_their_sections():
    assert {t.id for t in MULTIHEAD} == {
        "multihead.head_width",
        "multihead.most_attended",
        "multihead.concat_width",
        "multihead.residual",
    }
    assert {t.id for t in LEARNING} == {"learning.trained_top", "learning.start_loss"}
    assert {t.section for t in MULTIHEAD} == {
        "multihead.sizes",
        "multihead.heads",
        "multihead.concat",
        "multihead.residual",
    }
    assert {t.section for t in LEARNING} == {"learning.train"}
    kinds = {t.id: t.kind for t in (*MULTIHEAD, *LEARNING)}
    assert list(kinds.values()).count(Kind.NUMERIC) == 3 and list(kinds.values()).count(Kind.CHOICE) == 3


@pytest.mark.parametrize("template", [*MULTIHEAD, *LEARNING], ids=lambda t: t.id)
def test_every_new_template_asks_on_the_pages_fresh_start(template):
    context = lesson_multihead_view() if template.context is MultiHeadView else lesson_learning_view()
    for seed in range(8):
        assert_fair(template.generate(context, seed))


# --- any input a student can set -----------------------------------------------------------------------


@FAST
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 6),
    d_model=st.integers(2, 8),
    data=st.data(),
    preset=st.sampled_from(["designed", "random", "scenario"]),
    w_o=st.sampled_from(["identity", "random"]),
    scale=st.sampled_from(["none", "sqrt", "dk"]),
    causal=st.booleans(),
    temperature=st.sampled_from([0.3, 1.0, 2.5]),
    question_seed=st.integers(0, 2**32 - 1),
)
def test_multihead_templates_are_fair_on_any_heads(
    seed, n, d_model, data, preset, w_o, scale, causal, temperature, question_seed
):
    h = data.draw(st.sampled_from(divisors(d_model)))
    d_k = data.draw(st.integers(1, 8))
    scenario = random_walk_scenario(seed, n, d_model, d_k, scale, causal, temperature)
    view = multihead_view(scenario, h, preset, seed, w_o)
    for template in MULTIHEAD:
        question = asked(template, view, question_seed)
        if question is not None:
            assert_fair(question)


@FAST
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 6),
    d_model=st.integers(2, 8),
    d_k=st.integers(1, 8),
    preset=st.sampled_from(TARGET_PRESETS),
    start=st.sampled_from(["scenario", "random"]),
    scale=st.sampled_from(["none", "sqrt", "dk"]),
    causal=st.booleans(),
    temperature=st.sampled_from([0.3, 1.0, 2.5]),
    question_seed=st.integers(0, 2**32 - 1),
)
def test_learning_templates_are_fair_on_any_target_and_start(
    seed, n, d_model, d_k, preset, start, scale, causal, temperature, question_seed
):
    scenario = random_walk_scenario(seed, n, d_model, d_k, "sqrt", causal, temperature)
    if not preset_available(preset, scenario.tokens):
        preset = "previous"
    view = learning_view(scenario, preset, start, seed, scale)
    for template in LEARNING:
        question = asked(template, view, question_seed)
        if question is not None:
            assert_fair(question)


def test_the_new_templates_almost_always_apply_to_three_or_more_tokens():
    misses = {t.id: 0 for t in (*MULTIHEAD, *LEARNING)}
    for seed in range(12):
        d_model = (2, 4, 6, 8)[seed % 4]
        scenario = random_walk_scenario(seed, 3 + seed % 4, d_model, 2, "sqrt", seed % 3 == 0, 1.0)
        h = divisors(d_model)[1 + seed % (len(divisors(d_model)) - 1)]  # h ≥ 2: another head to tell apart
        view = multihead_view(scenario, h, "random", seed, ("identity", "random")[seed % 2])
        learning = learning_view(scenario, ("previous", "subject", "identity")[seed % 3], "random", seed)
        for template in MULTIHEAD:
            misses[template.id] += asked(template, view, seed) is None
        for template in LEARNING:
            misses[template.id] += asked(template, learning, seed) is None
    # which token wins in a row: skipped only when no row has a clear winner to the third decimal
    assert max(misses.values()) <= 2, misses


# --- answers and mistakes against loops ----------------------------------------------------------------


def loop_weights(x, w_q, w_k, divisor: float, causal: bool) -> np.ndarray:
    """The attention weights by tests/engine/reference.py's loops (V plays no part)."""
    zeros = [[0.0] for _ in range(len(w_q))]
    run = reference.attention(x.tolist(), w_q.tolist(), w_k.tolist(), zeros, divisor=divisor, causal=causal)
    return np.array(run["weights"])


@pytest.mark.parametrize(("d_model", "h"), [(4, 1), (4, 2), (4, 4), (6, 3), (8, 2), (8, 4), (8, 8)])
def test_head_width_is_d_model_over_h_and_names_the_product(d_model, h):
    scenario = random_walk_scenario(1, 3, d_model, 2, "sqrt", False, 1.0)
    question = generate_about("multihead.head_width", multihead_view(scenario, h, "random"))
    assert question.answer == d_model // h and question.tolerance == 0
    named = dict(question.misconceptions)
    if h > 1:
        assert named["heads_multiply"] == d_model * h and named["full_width_per_head"] == d_model
    assert grade(question, d_model * h).outcome == (Outcome.MISCONCEPTION if h > 1 else Outcome.RIGHT)


def generate_about(template_id: str, context, seed: int = 0):
    return q.generate(template_id, context, seed)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("causal", [False, True])
def test_most_attended_is_the_largest_weight_of_that_heads_row_by_loops(seed, causal):
    scenario = random_walk_scenario(seed, 5, 8, 2, "sqrt", causal, 1.0)
    heads = random_heads(8, 4, seed)
    result = multi_head_attention(scenario.x, heads, identity_like_w_o(8, 8), mask="causal" if causal else None)
    question = asked(q.TEMPLATES["multihead.most_attended"], MultiHeadView(scenario.tokens, result), seed)
    assert question is not None
    k, i = question.params["head"] - 1, question.params["position"]
    weights = loop_weights(scenario.x, heads[k][0], heads[k][1], math.sqrt(2), causal)
    assert question.options[question.correct_option] == int(np.argmax(weights[i]))
    for option, key in zip(question.options, question.option_misconceptions, strict=True):
        if key == "transposed":
            assert option == int(np.argmax(weights[:, i]))
        if key == "heads_alike":  # the token row i looks at most in some other head
            others = [
                int(np.argmax(loop_weights(scenario.x, w_q, w_k, math.sqrt(2), causal)[i]))
                for other, (w_q, w_k, _) in enumerate(heads)
                if other != k
            ]
            assert option in others


@pytest.mark.parametrize(("d_model", "h", "n"), [(4, 2, 3), (8, 4, 7), (6, 3, 2), (4, 1, 5)])
def test_concat_width_is_the_heads_widths_added(d_model, h, n):
    scenario = random_walk_scenario(2, n, d_model, 2, "sqrt", False, 1.0)
    question = generate_about("multihead.concat_width", multihead_view(scenario, h, "random"))
    assert question.answer == h * (d_model // h) == d_model
    named = dict(question.misconceptions)
    assert named["whole_matrix"] == n * d_model
    assert named.get("one_head_only", d_model // h) == d_model // h


@pytest.mark.parametrize("w_o", ["identity", "random"])
@pytest.mark.parametrize("h", [1, 2, 4])
def test_the_residual_answer_is_x_plus_concat_times_w_o_by_loops(w_o, h):
    scenario = lesson_scenario()
    heads = random_heads(4, h, 3)
    matrix = identity_like_w_o(4, 4) if w_o == "identity" else random_w_o(4, 4, 3)
    result = multi_head_attention(scenario.x, heads, matrix)
    by_hand = np.array(scenario.x.tolist()) + np.array(reference.matmul(result.concat.tolist(), matrix.tolist()))
    np.testing.assert_allclose(result.residual, by_hand, atol=1e-12)
    question = generate_about("multihead.residual", MultiHeadView(scenario.tokens, result), h)
    assert question.options[question.correct_option] == "x_plus_multihead"
    shown = set(question.options)
    # with W_O the identity, x + Concat is the same numbers: it cannot be offered as a mistake
    assert ("x_plus_concat" in shown) == (w_o == "random")
    assert ("x_plus_head" in shown) == (h == 1 and w_o == "random")  # one head is as wide as x only when h = 1


def test_trained_top_is_the_target_rows_token_for_each_preset():
    """Previous: token i − 1 (the first itself); subject: «perro» (the first non-article); identity: itself."""
    scenario = lesson_scenario()  # el perro come
    expected = {"previous": [0, 0, 1], "subject": [1, 1, 1], "identity": [0, 1, 2]}
    for preset, columns in expected.items():
        view = learning_view(scenario, preset)
        for seed in range(8):
            question = asked(q.TEMPLATES["learning.trained_top"], view, seed)
            if question is None:
                continue
            i = question.params["position"]
            assert question.options[question.correct_option] == columns[i], (preset, i)
            start_top = int(np.argmax(view.start_weights[i]))
            for option, key in zip(question.options, question.option_misconceptions, strict=True):
                assert key != "start_top" or option == start_top


def cross_entropy(t, a) -> float:
    """−(1/n) Σ_ij T_ij · ln A_ij by loops, every row live (no row fully masked: the diagonal is always allowed)."""
    n = len(t)
    total = 0.0
    for i in range(n):
        for j in range(n):
            if t[i][j] > 0:
                total -= t[i][j] * (math.log(a[i][j]) if a[i][j] > 0 else -math.inf)
    return total / n


@pytest.mark.parametrize("scale", ["sqrt", "none", "dk"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("preset", ["previous", "subject", "identity"])
def test_start_loss_and_its_mistakes_match_a_loop_based_cross_entropy(scale, causal, preset):
    scenario = random_walk_scenario(4, 4, 4, 3, "sqrt", causal, 1.0)
    view = learning_view(scenario, preset, "scenario", scale=scale)
    target = view.run.objective.target
    divisor = {"none": 1.0, "sqrt": math.sqrt(3), "dk": 3.0}[scale]
    weights = loop_weights(scenario.x, scenario.w_q, scenario.w_k, divisor, causal)
    unscaled = loop_weights(scenario.x, scenario.w_q, scenario.w_k, 1.0, causal)

    loss = cross_entropy(target, weights)
    question = generate_about("learning.start_loss", view)
    assert question.answer == pytest.approx(loss, rel=1e-9)
    assert question.params["rows"] == 4 and question.params["divisor"] == pytest.approx(divisor)
    named = dict(question.misconceptions)
    expected = {
        "unscaled_softmax": cross_entropy(target, unscaled),
        "transposed": cross_entropy(target.T, weights),
        "sum_not_mean": 4 * loss,
        "log10": loss / math.log(10),
    }
    for key, value in named.items():
        assert value == pytest.approx(expected[key], rel=1e-9), key
    assert "sum_not_mean" in named and "log10" in named
    told_apart = abs(expected["unscaled_softmax"] - loss) > 2 * 0.005 * max(1.0, loss)
    assert ("unscaled_softmax" in named) == (scale != "none" and told_apart)


def test_the_lesson_start_loss_names_the_mean_forgotten_and_the_wrong_log():
    s = lesson_scenario()
    weights = loop_weights(s.x, s.w_q, s.w_k, math.sqrt(s.d_k), False)
    # each token looks at the previous one, «el» at itself: −(ln A_el,el + ln A_perro,el + ln A_come,perro) / 3
    loss = -(math.log(weights[0][0]) + math.log(weights[1][0]) + math.log(weights[2][1])) / 3
    question = generate_about("learning.start_loss", lesson_learning_view())
    typed = round(loss, 3)  # as a student copies it
    assert grade(question, typed).right
    assert grade(question, round(3 * loss, 3)) == q.Grade(Outcome.MISCONCEPTION, "sum_not_mean", round(3 * loss, 3))
    assert grade(question, round(loss / math.log(10), 3)).misconception == "log10"


def test_the_learning_questions_are_not_asked_with_the_output_term_on():
    scenario = lesson_scenario()
    view = learning_view(scenario)
    run = view.run
    from engine import start_training

    with_output = start_training(
        scenario.x,
        run.objective.target,
        start=(scenario.w_q, scenario.w_k, scenario.w_v),
        target_output=run.objective.target @ scenario.x,
        output_weight=1.0,
    )
    assert asked(q.TEMPLATES["learning.start_loss"], LearningView(scenario.tokens, with_output), 0) is None
    assert asked(q.TEMPLATES["learning.trained_top"], LearningView(scenario.tokens, with_output), 0) is not None


def test_a_view_refuses_tokens_that_do_not_fit_x():
    from engine import EngineInputError

    view = lesson_multihead_view()
    with pytest.raises(EngineInputError):
        MultiHeadView(("a", "b"), view.result)
    with pytest.raises(EngineInputError):
        LearningView(("a",), lesson_learning_view().run)
