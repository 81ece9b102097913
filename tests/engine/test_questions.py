"""Questions asked before a reveal: every template is fair (one right option, its answer grades right, every
named mistake grades as that mistake and is told apart from the answer), and key answers match a computation
done here from first principles (tests/engine/reference.py loops, math.sin, plain arithmetic)."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineInputError, Scale, attend, lesson_scenario, random_scenario, random_walks, scaling_experiment
from engine import questions as q
from engine.limits import MAX_OPTIONS
from engine.pipeline import sentence_vectors
from engine.presets import LESSON_TOKENS
from engine.questions import (
    Kind,
    LearningView,
    MultiHeadView,
    OptionKind,
    Outcome,
    RealModelView,
    ScalingSetup,
    SoftmaxRow,
    WordPairView,
    generate,
    grade,
)
from engine.scenario import Scenario
from engine.similarity import row_cosines
from tests.engine.question_contexts import lesson_learning_view, lesson_multihead_view, lesson_real_model_view

FAST = settings(max_examples=25, deadline=None, database=None)
SEEDS = range(6)
EL, PERRO, COME = 0, 1, 2
SECTIONS = (
    "softmax",
    "walk.1",
    "walk.2",
    "walk.3",
    "walk.4",
    "walk.5",
    "scaling",
    "pipeline",
    "multihead.sizes",
    "multihead.heads",
    "multihead.concat",
    "multihead.residual",
    "learning.train",
    "real_model.head",
    "real_model.cell",
)
SENTENCES = ("el perro come", "El perro come. ¿Y el gato?", "a", "uno dos, tres; cuatro!", "x " * 70)


def lesson_context(template: q.Template):
    """What the page shows on a fresh start: the lesson's scenario, scores [2, 5, 1], d_k = 1024, its sentence."""
    if template.context is Scenario:
        return lesson_scenario()
    if template.context is SoftmaxRow:
        return SoftmaxRow((2.0, 5.0, 1.0))
    if template.context is ScalingSetup:
        return ScalingSetup(d_k=1024, walk_steps=200)
    if template.context is MultiHeadView:
        return lesson_multihead_view()
    if template.context is LearningView:
        return lesson_learning_view()
    if template.context is RealModelView:
        return lesson_real_model_view()
    if template.context is WordPairView:
        return lesson_word_pair_view()
    return attend(sentence_vectors("el perro come"))


def lesson_word_pair_view() -> WordPairView:
    """The pipeline page's «banco» in its two Spanish sentences, at the page's default weights: the same x in, the
    outputs' cosine out (as ui/sections/pipeline_context.py computes them)."""
    first, second = (attend(sentence_vectors(s)) for s in ("el banco de la plaza", "el banco me dio un préstamo"))
    i, j = first.tokens.index("banco"), second.tokens.index("banco")
    same_x = bool(np.allclose(first.x[i], second.x[j], rtol=0, atol=0))
    out = [first.attention.output[i], second.attention.output[j]]
    return WordPairView("banco", same_x, float(row_cosines(out[0][None], out[1][None])[0]))


def walk_scenario(seed: int, n: int, d_model: int, d_k: int, scale: str, causal: bool, temperature: float):
    tokens = tuple(f"t{i}" for i in range(n))
    base = random_scenario(seed, tokens, d_model=d_model, d_k=d_k)
    return dataclasses.replace(base, scale=Scale(scale), causal=causal, temperature=temperature)


def templates_taking(*contexts: type) -> list[q.Template]:
    return [t for t in q.TEMPLATES.values() if t.context in contexts]


def is_plain(value) -> bool:
    if isinstance(value, tuple):
        return all(is_plain(v) for v in value)
    return type(value) in (str, int, float)


def shown(value, decimals: int):
    """An option or number as the page prints it."""
    if isinstance(value, float):
        return round(value, decimals)
    if isinstance(value, tuple):
        return tuple(shown(v, decimals) for v in value)
    return value


def assert_fair(question: q.Question) -> None:
    """The laws every question obeys, whatever its template and input."""
    template = q.TEMPLATES[question.template_id]
    assert question.text_key == f"q.{template.id}" and question.section == template.section
    assert set(question.params) == set(template.params)
    assert all(is_plain(v) for v in question.params.values()), question.params
    hash(question)  # plain, frozen values all the way down
    with pytest.raises(dataclasses.FrozenInstanceError):
        question.answer = 0.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        question.params["token"] = "x"  # type: ignore[index]
    if question.kind == Kind.NUMERIC:
        assert_fair_numeric(question, template)
    else:
        assert_fair_choice(question, template)


def assert_fair_numeric(question: q.Question, template: q.Template) -> None:
    answer, tol, decimals = question.answer, question.tolerance, question.decimals
    assert math.isfinite(answer) and tol >= 0
    assert question.options == () and question.correct_option is None
    assert question.misconceptions, "a numeric question names at least one mistake"
    keys = [key for key, _ in question.misconceptions]
    assert len(set(keys)) == len(keys) and set(keys) <= set(template.misconception_keys)
    for typed in (answer, shown(answer, decimals)):
        assert grade(question, typed).outcome == Outcome.RIGHT, (question, typed)
    for key, mistaken in question.misconceptions:
        assert shown(mistaken, decimals) != shown(answer, decimals), (question.template_id, key)
        for typed in (mistaken, shown(mistaken, decimals)):
            result = grade(question, typed)
            assert (result.outcome, result.misconception) == (Outcome.MISCONCEPTION, key), (question, key, typed)
    far = max(abs(answer), *(abs(m) for _, m in question.misconceptions)) * 3 + 10 * (tol + 1)
    assert grade(question, far) == q.Grade(Outcome.WRONG, None, far)


def assert_fair_choice(question: q.Question, template: q.Template) -> None:
    options, correct = question.options, question.correct_option
    assert question.answer is None and question.misconceptions == ()
    assert question.option_kind == template.option_kind
    assert 2 <= len(options) <= MAX_OPTIONS
    assert len(question.option_misconceptions) == len(options)
    assert 0 <= correct < len(options) and question.option_misconceptions[correct] is None
    printed = [shown(option, question.decimals) for option in options]
    assert len(set(printed)) == len(printed), f"options not distinct as printed: {printed}"
    for index in range(len(options)):
        result = grade(question, index)
        key = question.option_misconceptions[index]
        if index == correct:
            assert result.right and result.misconception is None
        else:
            assert not result.right and result.misconception == key
            assert result.outcome == (Outcome.WRONG if key is None else Outcome.MISCONCEPTION)
    assert set(question.misconception_keys) <= set(template.misconception_keys)
    if question.option_kind == OptionKind.KEY:
        assert set(options) <= set(template.option_keys)
    if question.option_kind == OptionKind.TOKEN:
        assert all(0 <= option < len(question.params["tokens"]) for option in options)
    if question.option_kind == OptionKind.MATRIX_LINE:
        assert all(line in q.LINE_KEYS for _, line, _ in options)


def asked(template: q.Template, context, seed: int) -> q.Question | None:
    """The question, or None when the template cannot ask about this input (it must say so with that code)."""
    try:
        return template.generate(context, seed)
    except EngineInputError as error:
        assert error.code == "question_not_applicable"
        return None


# --- the registry -----------------------------------------------------------------------------------


def test_registry_holds_at_least_24_templates_across_every_section_each_with_its_keys():
    assert len(q.TEMPLATES) >= 30  # the coverage: at least 30 templates across the pages
    assert set(SECTIONS) <= set(q.sections())
    for section in SECTIONS:
        assert q.templates_for(section), section
    text_keys = [t.text_key for t in q.TEMPLATES.values()]
    assert len(set(text_keys)) == len(text_keys)
    for t in q.TEMPLATES.values():
        assert t.text_key == f"q.{t.id}" and re.fullmatch(r"[a-z0-9_.]+", t.id)
        assert all(re.fullmatch(r"[a-z0-9_]+", key) for key in (*t.misconception_keys, *t.option_keys, *t.params))
        if t.kind == Kind.NUMERIC:
            assert t.misconception_keys and t.option_kind is None
        else:
            assert t.option_kind is not None
            assert bool(t.option_keys) == (t.option_kind == OptionKind.KEY)


def test_a_later_page_registers_its_templates_through_the_same_decorator():
    @q.template(
        "later.one_plus_one", section="later", kind=Kind.NUMERIC, context=int, params=("n",), misconceptions=("x",)
    )
    def build(n, rng):
        yield q.core.NumericDraft(dict(n=n), 2.0, (("x", 11.0),))

    try:
        assert q.templates_for("later") == (q.TEMPLATES["later.one_plus_one"],)
        question = generate("later.one_plus_one", 1, seed=0)
        assert (question.answer, question.misconceptions, question.text_key) == (
            2.0,
            (("x", 11.0),),
            "q.later.one_plus_one",
        )
        with pytest.raises(LookupError):
            q.template(
                "later.one_plus_one", section="later", kind=Kind.NUMERIC, context=int, params=(), misconceptions=()
            )(build)
    finally:
        q.TEMPLATES.pop("later.one_plus_one")


def test_a_builder_that_names_an_undeclared_mistake_is_caught():
    @q.template("later.bad", section="later", kind=Kind.NUMERIC, context=int, params=(), misconceptions=("x",))
    def build(n, rng):
        yield q.core.NumericDraft({}, 2.0, (("undeclared", 11.0),))

    try:
        with pytest.raises(LookupError):
            generate("later.bad", 1, seed=0)
    finally:
        q.TEMPLATES.pop("later.bad")


def test_a_keyed_template_takes_its_options_and_their_mistakes_from_one_table():
    """The picks table is the options, the mistake each wrong one names and so its feedback; a key unavailable
    for this input is left out, and the section is the id's prefix."""
    picks = {"up": None, "down": "sign_flipped", "same": "shift_sharpens", "both": None}

    @q.Templates(int).keyed("later.keyed.which", params=("n",), picks=picks)
    def build(n, rng):
        yield q.core.KeyDraft(dict(n=n), "up", frozenset({"both"}))

    try:
        template = q.TEMPLATES["later.keyed.which"]
        assert (template.section, template.kind, template.option_kind) == ("later.keyed", Kind.CHOICE, OptionKind.KEY)
        assert template.option_keys == ("up", "down", "same", "both")
        assert template.misconception_keys == ("sign_flipped", "shift_sharpens")
        question = generate("later.keyed.which", 3, seed=0)
        assert sorted(question.options) == ["down", "same", "up"]
        assert question.options[question.correct_option] == "up"
        named = dict(zip(question.options, question.option_misconceptions, strict=True))
        assert named == {"up": None, "down": "sign_flipped", "same": "shift_sharpens"}
    finally:
        q.TEMPLATES.pop("later.keyed.which")


# --- every template, fair on the lesson and on random inputs ----------------------------------------


@pytest.mark.parametrize("template_id", list(q.TEMPLATES))
def test_every_template_asks_a_fair_question_about_the_lesson(template_id):
    template = q.TEMPLATES[template_id]
    for seed in SEEDS:
        question = template.generate(lesson_context(template), seed)
        assert_fair(question)
        assert question.seed == seed


@pytest.mark.parametrize("template_id", list(q.TEMPLATES))
def test_generation_is_deterministic_for_a_seed(template_id):
    template = q.TEMPLATES[template_id]
    first = template.generate(lesson_context(template), 12345)
    again = template.generate(lesson_context(template), 12345)
    assert first == again and hash(first) == hash(again)


def test_seeds_vary_the_questions():
    for template_id in ("walk.2.score", "walk.4.weight", "walk.5.output_entry", "softmax.exp_step"):
        template = q.TEMPLATES[template_id]
        assert len({template.generate(lesson_context(template), seed).params for seed in range(12)}) > 1


@FAST
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 6),
    d_model=st.integers(2, 8),
    d_k=st.integers(1, 8),
    scale=st.sampled_from(["none", "sqrt", "dk"]),
    causal=st.booleans(),
    temperature=st.sampled_from([0.3, 1.0, 2.5]),
    question_seed=st.integers(0, 2**32 - 1),
)
def test_walkthrough_templates_are_fair_on_random_scenarios(
    seed, n, d_model, d_k, scale, causal, temperature, question_seed
):
    scenario = walk_scenario(seed, n, d_model, d_k, scale, causal, temperature)
    for template in templates_taking(Scenario):
        question = asked(template, scenario, question_seed)
        if question is not None:
            assert_fair(question)


def test_walkthrough_templates_almost_always_apply_to_scenarios_of_three_or_more_tokens():
    misses = {t.id: 0 for t in templates_taking(Scenario)}
    configs = [(seed, 3 + seed % 4, 2 + seed % 7, 2 + seed % 7, ["none", "sqrt", "dk"][seed % 3]) for seed in range(24)]
    for seed, n, d_model, d_k, scale in configs:
        scenario = walk_scenario(seed, n, d_model, d_k, scale, seed % 2 == 0, [0.5, 1.0, 2.0][seed % 3])
        for template in templates_taking(Scenario):
            misses[template.id] += asked(template, scenario, seed) is None
    # symmetric: only a scenario with score(a → b) = score(b → a) to the third decimal is skipped; the rest always ask
    assert max(misses.values()) <= 2, misses


scores_lists = st.lists(st.floats(-12, 12, allow_nan=False).map(lambda v: round(v, 2)), min_size=1, max_size=6)


@FAST
@given(scores=scores_lists, temperature=st.sampled_from([0.1, 0.5, 1.0, 1.7, 5.0]), seed=st.integers(0, 10**6))
def test_softmax_templates_are_fair_on_any_scores(scores, temperature, seed):
    row = SoftmaxRow(tuple(scores), temperature)
    for template in templates_taking(SoftmaxRow):
        question = asked(template, row, seed)
        if question is not None:
            assert_fair(question)


@pytest.mark.parametrize(
    "scores", [(2.0, 5.0, 1.0), (2.0, -1.0, -3.0), (1000.0, 1001.0), (0.0, 0.0), (-1.0, 1.0), (3.0,)]
)
@pytest.mark.parametrize("temperature", [0.1, 1.0, 2.5])
def test_softmax_templates_are_fair_on_the_page_presets_and_edge_rows(scores, temperature):
    row = SoftmaxRow(scores, temperature)
    asked_ids = set()
    for template in templates_taking(SoftmaxRow):
        for seed in SEEDS:
            question = asked(template, row, seed)
            if question is not None:
                assert_fair(question)
                asked_ids.add(template.id)
    readable = [s / temperature < 14 for s in scores]  # e^14 ≈ 1.2e6: larger is no number to work out by hand
    assert "softmax.shift" in asked_ids and ("softmax.largest_weight" in asked_ids or len(scores) == 1)
    assert ("softmax.exp_step" in asked_ids) == any(readable)
    assert ("softmax.exp_total" in asked_ids) == all(readable)
    assert ("softmax.naive_problem" in asked_ids) == any(scores)  # all zeros: no sign to flip, nothing to ask


@pytest.mark.parametrize("d_k", [1, 2, 4, 16, 64, 1024, 4096])
@pytest.mark.parametrize("steps", [1, 10, 200, 5000])
def test_scaling_templates_are_fair_for_every_d_k(d_k, steps):
    for template in templates_taking(ScalingSetup):
        question = asked(template, ScalingSetup(d_k, steps), seed=d_k + steps)
        if question is not None:
            assert_fair(question)
        elif template.id != "scaling.walk_distance":
            assert d_k == 1  # √1 = 1 = d_k: the mistakes would give the answer; nothing to ask
        else:
            pytest.fail("the walk question applies to any number of steps")


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("d_model", [2, 4, 7])
@pytest.mark.parametrize("causal", [False, True])
def test_pipeline_templates_are_fair_for_any_sentence(sentence, d_model, causal):
    result = attend(sentence_vectors(sentence, d_model), weights="random", seed=d_model, causal=causal)
    for template in templates_taking(*{t.context for t in q.templates_for("pipeline")}):
        for seed in range(3):
            question = asked(template, result, seed)
            if question is not None:
                assert_fair(question)


# --- answers against a computation done here --------------------------------------------------------


def reference_run(scenario: Scenario) -> dict:
    """The loop-based attention; the temperature divides the scaled scores, so it joins the divisor."""
    divisor = {"none": 1.0, "sqrt": math.sqrt(scenario.d_k), "dk": float(scenario.d_k)}[scenario.scale.value]
    lists = [m.tolist() for m in (scenario.x, scenario.w_q, scenario.w_k, scenario.w_v)]
    plain = reference.attention(*lists, divisor=divisor, causal=scenario.causal)
    tempered = reference.attention(*lists, divisor=divisor * scenario.temperature, causal=scenario.causal)
    return {**plain, "divisor": divisor, "weights": tempered["weights"], "output": tempered["output"]}


def scenarios():
    yield lesson_scenario()
    for seed, (n, d_model, d_k, scale, causal, t) in enumerate(
        [
            (3, 4, 4, "sqrt", False, 1.0),
            (5, 2, 7, "dk", True, 0.5),
            (4, 8, 3, "none", False, 2.0),
            (2, 3, 1, "sqrt", True, 1.3),
        ]
    ):
        yield walk_scenario(seed, n, d_model, d_k, scale, causal, t)


@pytest.mark.parametrize("scenario", list(scenarios()), ids=lambda s: f"n{len(s.tokens)}-dk{s.d_k}-{s.scale}")
def test_numeric_answers_match_a_loop_based_computation(scenario):
    ref = reference_run(scenario)
    index = {name: i for i, name in enumerate(scenario.tokens)}
    for seed in SEEDS:
        question = asked(q.TEMPLATES["walk.1.q_entry"], scenario, seed)
        p = question.params
        x_row, column = scenario.x[p["token_index"]], scenario.w_q[:, p["dim"]]
        assert question.answer == pytest.approx(reference.dot(x_row.tolist(), column.tolist()), abs=1e-12)

        question = asked(q.TEMPLATES["walk.2.score"], scenario, seed)
        i, j = question.params["token_index"], question.params["other_index"]
        assert question.answer == pytest.approx(ref["scores"][i][j], abs=1e-12)
        named = {
            "transposed": ref["scores"][j][i],
            "q_dot_q": reference.dot(ref["q"][i], ref["q"][j]),
            "x_dot_x": reference.dot(scenario.x[i].tolist(), scenario.x[j].tolist()),
            "scaled_too_early": ref["scores"][i][j] / ref["divisor"],
        }
        for key, value in question.misconceptions:
            assert value == pytest.approx(named[key], abs=1e-12), key

        question = asked(q.TEMPLATES["walk.3.scaled_score"], scenario, seed)
        i, j = index[question.params["token"]], index[question.params["other"]]
        assert question.answer == pytest.approx(ref["scores"][i][j] / ref["divisor"], abs=1e-12)
        assert question.params["divisor"] == pytest.approx(ref["divisor"], abs=1e-15)
        if "divided_by_dk" in dict(question.misconceptions):
            assert dict(question.misconceptions)["divided_by_dk"] == pytest.approx(ref["scores"][i][j] / scenario.d_k)

        question = asked(q.TEMPLATES["walk.4.weight"], scenario, seed)
        if question is not None:
            i, j = index[question.params["token"]], index[question.params["other"]]
            assert question.answer == pytest.approx(ref["weights"][i][j], abs=1e-12)

        question = asked(q.TEMPLATES["walk.5.output_entry"], scenario, seed)
        i, d = index[question.params["token"]], question.params["dim"]
        assert question.answer == pytest.approx(ref["output"][i][d], abs=1e-12)


def test_the_lesson_questions_give_the_lesson_figures():
    scenario = lesson_scenario()
    by_pair = {}
    for seed in range(200):
        question = generate("walk.2.score", scenario, seed)
        by_pair.setdefault((question.params["token"], question.params["other"]), question)
    score = by_pair[("perro", "come")]
    assert round(score.answer, 3) == 0.954  # the lesson's score(perro → come)
    assert round(dict(score.misconceptions)["scaled_too_early"], 3) == 0.477  # its scaled score, a step too early
    assert grade(score, 0.954).right and grade(score, 0.95).right
    assert grade(score, 0.477).misconception == "scaled_too_early"
    assert grade(score, 1.357).misconception == "transposed"  # score(come → perro), the cell across the diagonal
    assert grade(score, 0.9).outcome == Outcome.WRONG

    weights = {}
    for seed in range(200):
        question = generate("walk.4.weight", scenario, seed)
        weights.setdefault((question.params["token"], question.params["other"]), question)
    perro_come = weights[("perro", "come")]
    assert round(perro_come.answer, 3) == 0.332  # the lesson's α(perro → come)
    # Unscaled, perro → come would be 0.326: too close to 0.332 to be told apart, so that mistake is not named...
    assert "unscaled_softmax" not in dict(perro_come.misconceptions)
    assert grade(perro_come, 0.326).outcome == Outcome.WRONG
    # ...while perro → el unscaled is 0.247 against 0.289 (the lesson's printed 0.222 is itself wrong).
    assert grade(weights[("perro", "el")], 0.247).misconception == "unscaled_softmax"
    # The lesson's own 0.379 for perro → perro (rounded from a rounded score; exactly 0.3795) is still right.
    assert grade(weights[("perro", "perro")], 0.379).right


def test_the_scalar_mix_is_the_weighted_sum_of_10_20_30():
    for seed in range(30):
        question = generate("walk.5.scalar_mix", lesson_scenario(), seed)
        weights = question.params["weights"]
        assert question.params["values"] == (10.0, 20.0, 30.0) and question.params["tokens"] == LESSON_TOKENS
        assert math.isclose(sum(weights), 1.0) and min(weights) >= 0.1
        assert question.answer == pytest.approx(10 * weights[0] + 20 * weights[1] + 30 * weights[2], abs=1e-12)
        assert question.answer != pytest.approx(20.0)  # the weights are moved off the symmetric 0.3 / 0.4 / 0.3


@pytest.mark.parametrize("scores,temperature", [((2.0, 5.0, 1.0), 1.0), ((2.0, -1.0, -3.0), 0.5), ((0.3, 0.2), 2.0)])
def test_softmax_answers_match_math_exp(scores, temperature):
    row = SoftmaxRow(scores, temperature)
    expected = reference.softmax([s / temperature for s in scores])
    assert generate("softmax.largest_weight", row, 0).answer == pytest.approx(max(expected), abs=1e-12)
    assert generate("softmax.exp_total", row, 0).answer == pytest.approx(
        sum(math.exp(s / temperature) for s in scores), rel=1e-12
    )
    question = generate("softmax.exp_step", row, 3)
    assert question.answer == pytest.approx(math.exp(scores[question.params["index"]] / temperature), rel=1e-12)
    question = generate("softmax.of_scores", row, 0)
    np.testing.assert_allclose(question.options[question.correct_option], expected, rtol=0, atol=1e-12)


def test_softmax_lesson_exp_step_and_largest_weight_are_the_lesson_figures():
    row = SoftmaxRow((2.0, 5.0, 1.0))
    exps = {
        generate("softmax.exp_step", row, s).params["index"]: generate("softmax.exp_step", row, s) for s in range(20)
    }
    assert [round(exps[i].answer, 2) for i in range(3)] == [7.39, 148.41, 2.72]  # "e^2.0 ≈ 7.39 e^5.0 ≈ 148.41 ..."
    largest = generate("softmax.largest_weight", row, 0)
    assert round(largest.answer, 3) == 0.936
    assert grade(largest, 0.625).misconception == "naive_division"  # the lesson's 5/8


@pytest.mark.parametrize("scores", [(2.0, 5.0, 1.0), (2.0, -1.0, -3.0), (0.5, 0.5, 0.5), (1000.0, 1001.0), (-1.0, 1.0)])
def test_exactly_one_row_can_be_a_softmax(scores):
    for seed in SEEDS:
        question = generate("softmax.can_be_softmax", SoftmaxRow(scores), seed)
        valid = [all(w > 0 for w in row) and abs(sum(row) - 1) < 1e-9 for row in question.options]
        assert valid.count(True) == 1 and valid[question.correct_option]


@pytest.mark.parametrize(
    "scores,verdict",
    [
        ((-1.0, -2.0, -3.0), "order_reversed"),  # shares 1/6, 2/6, 3/6: the largest score gets the least
        ((2.0, -1.0, -3.0), "negative_share"),  # sum -2: 2 / -2 = -1
        ((1.0, -1.0), "division_by_zero"),
        ((2.0, 5.0, -1.0), "negative_share"),
        ((-2.0, -2.0), "valid"),  # equal scores: equal shares, a distribution after all
    ],
)
def test_naive_division_verdicts(scores, verdict):
    question = generate("softmax.naive_problem", SoftmaxRow(scores), 0)
    assert question.params["scores"] == scores  # a row with a negative score is asked about as it is
    assert question.options[question.correct_option] == verdict
    if verdict != "valid":
        assert question.option_misconceptions[question.options.index("valid")] == "naive_division"


def test_naive_division_question_flips_a_sign_when_no_score_is_negative():
    question = generate("softmax.naive_problem", SoftmaxRow((2.0, 5.0, 1.0)), 0)
    assert sorted(abs(s) for s in question.params["scores"]) == [1.0, 2.0, 5.0]
    assert sum(s < 0 for s in question.params["scores"]) == 1


@pytest.mark.parametrize("scenario", list(scenarios()), ids=lambda s: f"n{len(s.tokens)}-dk{s.d_k}-{s.scale}")
def test_which_token_answers_are_the_largest_of_their_row(scenario):
    ref = reference_run(scenario)
    index = {name: i for i, name in enumerate(scenario.tokens)}
    n = len(scenario.tokens)
    for seed in SEEDS:
        question = asked(q.TEMPLATES["walk.2.best_match"], scenario, seed)
        if question is not None:
            row = ref["scores"][index[question.params["token"]]]
            assert all(
                row[question.options[question.correct_option]] > row[j]
                for j in range(n)
                if j != question.options[question.correct_option]
            )
        question = asked(q.TEMPLATES["walk.4.most_weight"], scenario, seed)
        if question is not None:
            row = ref["weights"][index[question.params["token"]]]
            best = question.options[question.correct_option]
            assert all(row[best] > row[j] for j in range(n) if j != best)
        question = asked(q.TEMPLATES["walk.5.dominant_value"], scenario, seed)
        if question is not None:
            row = ref["weights"][index[question.params["token"]]]
            term = [row[j] * math.sqrt(reference.dot(ref["v"][j], ref["v"][j])) for j in range(n)]
            best = question.options[question.correct_option]
            assert all(term[best] > term[j] for j in range(n) if j != best)
        question = asked(q.TEMPLATES["walk.4.without_scaling"], scenario, seed)
        if question is not None:
            i = index[question.params["token"]]
            allowed = [j for j in range(n) if not (scenario.causal and j > i)]
            expected = reference.softmax([ref["scores"][i][j] / scenario.temperature for j in allowed])
            assert question.params["labels"] == tuple(scenario.tokens[j] for j in allowed)
            np.testing.assert_allclose(question.options[question.correct_option], expected, rtol=0, atol=1e-12)


def test_shapes_and_counts_are_read_off_the_scenario():
    scenario = walk_scenario(3, n=5, d_model=3, d_k=2, scale="sqrt", causal=False, temperature=1.0)
    shape = generate("walk.1.q_shape", scenario, 0)
    assert shape.options[shape.correct_option] == (5, 2)
    output = generate("walk.5.output_shape", scenario, 0)
    assert output.options[output.correct_option] == (5, 2)  # d_v = d_k here
    count = generate("walk.2.score_count", scenario, 0)
    assert count.answer == 25 and dict(count.misconceptions) == {
        "one_per_token": 5,
        "self_excluded": 20,
        "pairs_once": 15,
    }
    column = generate("walk.1.which_column", scenario, 0)
    assert column.options[column.correct_option] == ("W_Q", "column", column.params["dim"])


@pytest.mark.parametrize("sentence,count", [("el perro come", 3), ("El perro come. ¿Y el gato?", 9), ("hola", 1)])
def test_token_count_is_words_and_punctuation(sentence, count):
    question = generate("pipeline.token_count", sentence_vectors(sentence), 0)
    assert question.answer == count and question.tolerance == 0 and question.decimals == 0
    if sentence.startswith("El"):
        assert dict(question.misconceptions)["words_only"] == 6  # "come." and "¿Y" stay glued
        assert "punctuation_skipped" not in dict(question.misconceptions)  # 6 \w+ runs too: one name per value


def test_positional_encoding_answer_is_sin_or_cos_of_the_angle():
    vectors = sentence_vectors("uno dos tres cuatro cinco seis", d_model=6)
    for seed in range(20):
        question = generate("pipeline.pe_value", vectors, seed)
        pos, dim, d = question.params["position"], question.params["dimension"], question.params["d_model"]
        angle = pos / 10000 ** ((dim - dim % 2) / d)
        assert question.answer == pytest.approx(math.sin(angle) if dim % 2 == 0 else math.cos(angle), abs=1e-12)


def test_x_entry_is_embedding_plus_positional():
    vectors = sentence_vectors("el perro come", d_model=4)
    for seed in range(10):
        question = generate("pipeline.x_entry", vectors, seed)
        p = question.params
        assert question.answer == pytest.approx(p["embedding"] + p["positional"], abs=1e-12)
        assert question.params["positional"] == pytest.approx(vectors.positional[p["position"], p["dimension"]])


@pytest.mark.parametrize("d_k", [16, 1024])
def test_the_spread_answer_is_what_the_experiment_measures(d_k):
    question = generate("scaling.spread", ScalingSetup(d_k=d_k), 0)
    measured = scaling_experiment([d_k], samples=5_000, seed=3).spread[0]
    assert question.answer == pytest.approx(math.sqrt(d_k), abs=1e-12)
    assert grade(question, float(measured)).right  # the page's measured figure counts as right
    assert grade(question, float(d_k)).misconception == "linear_growth"


def test_the_walk_answer_is_what_the_walks_measure():
    question = generate("scaling.walk_distance", ScalingSetup(walk_steps=400), 0)
    assert question.answer == 20.0
    assert grade(question, float(random_walks(5000, 400, seed=1).spread[-1])).right
    assert grade(question, 400.0).misconception == "straight_line"


def test_without_dividing_attention_concentrates_and_dividing_by_dk_spreads_it():
    for d_k in (4, 64, 1024):
        for seed in SEEDS:
            question = generate("scaling.no_divisor", ScalingSetup(d_k=d_k), seed)
            assert question.options[question.correct_option] == "concentrates"
            question = generate("scaling.dk_divisor", ScalingSetup(d_k=d_k), seed)
            assert question.options[question.correct_option] == "spreads"


def test_temperature_and_shift_answers():
    question = generate("softmax.temperature_up", SoftmaxRow((2.0, 5.0, 1.0), 0.5), 0)
    assert question.options[question.correct_option] == "spreads" and question.params["new_temperature"] == 1.0
    same = generate("softmax.temperature_up", SoftmaxRow((1.0, 1.0)), 0)
    assert same.options[same.correct_option] == "unchanged"
    shifted = generate("softmax.shift", SoftmaxRow((2.0, 5.0, 1.0)), 0)
    assert shifted.options[shifted.correct_option] == "unchanged"


def test_symmetric_scores_when_queries_and_keys_share_their_weights():
    scenario = lesson_scenario()
    question = generate("walk.2.symmetric", scenario, 0)
    assert question.options[question.correct_option] == "not_symmetric"
    same = dataclasses.replace(scenario, w_k=scenario.w_q.copy())
    question = generate("walk.2.symmetric", same, 0)
    assert question.options[question.correct_option] == "symmetric"


# --- grading and refusals ---------------------------------------------------------------------------


def test_grading_a_choice_names_the_mistake_a_distractor_encodes():
    question = generate("softmax.of_scores", SoftmaxRow((2.0, 5.0, 1.0)), 0)
    naive = question.options.index((0.25, 0.625, 0.125))
    assert grade(question, naive) == q.Grade(Outcome.MISCONCEPTION, "naive_division", naive)
    assert grade(question, np.int64(question.correct_option)).right


@pytest.mark.parametrize("response", [True, float("nan"), float("inf"), "0.5", None])
def test_a_numeric_question_refuses_what_is_not_a_finite_number(response):
    question = generate("walk.2.score", lesson_scenario(), 0)
    with pytest.raises(EngineInputError) as error:
        grade(question, response)
    assert error.value.code == "bad_response"


@pytest.mark.parametrize("response", [-1, 4, 1.0, True, "0"])
def test_a_choice_question_refuses_what_is_not_one_of_its_options(response):
    question = generate("walk.1.q_shape", lesson_scenario(), 0)
    assert len(question.options) == 4
    with pytest.raises(EngineInputError) as error:
        grade(question, response)
    assert error.value.code == "bad_response"


def test_generation_refuses_unknown_ids_wrong_inputs_and_bad_seeds():
    cases = [
        (lambda: generate("walk.9.nothing", lesson_scenario(), 0), "unknown_question"),
        (lambda: generate("walk.2.score", SoftmaxRow((1.0,)), 0), "question_context"),
        (lambda: generate("walk.2.score", lesson_scenario(), -1), "bad_seed"),
        (lambda: generate("walk.2.score", lesson_scenario(), 2**32), "bad_seed"),
        (lambda: generate("walk.2.score", lesson_scenario(), 1.5), "bad_seed"),
        (lambda: generate("walk.2.score", lesson_scenario(), True), "bad_seed"),
        (
            lambda: generate("walk.2.best_match", walk_scenario(0, 1, 2, 2, "sqrt", False, 1.0), 0),
            "question_not_applicable",
        ),
        (lambda: SoftmaxRow((), 1.0), "bad_question_input"),
        (lambda: SoftmaxRow((1.0, float("nan"))), "bad_question_input"),
        (lambda: SoftmaxRow((1.0,), 0.0), "bad_question_input"),
        (lambda: SoftmaxRow(("a",)), "bad_question_input"),
        (lambda: ScalingSetup(d_k=0), "bad_question_input"),
        (lambda: ScalingSetup(d_k=5000), "bad_question_input"),
        (lambda: ScalingSetup(walk_steps=2.5), "bad_question_input"),
    ]
    for make, code in cases:
        with pytest.raises(EngineInputError) as error:
            make()
        assert error.value.code == code


def test_questions_for_a_section_skip_the_templates_that_cannot_ask():
    one_token = walk_scenario(0, 1, 2, 2, "sqrt", False, 1.0)
    asked_ids = {question.template_id for question in q.questions_for("walk.2", one_token, 0)}
    assert "walk.2.best_match" not in asked_ids and "walk.2.score" in asked_ids
    assert [question.template_id for question in q.questions_for("walk.3", lesson_scenario(), 0)] == [
        t.id for t in q.templates_for("walk.3")
    ]


@pytest.mark.parametrize("template_id", ["pipeline.same_word", "real_model.same_word"])
def test_the_same_word_question_is_not_asked_where_its_only_yes_gives_a_wrong_reason(template_id):
    """Issue 30: with the pipeline's causal mask on, «banco» at position 1 sees only «el banco» in both default
    sentences: the same output. The question then took "yes: it is the same word, so it has one vector" as right
    (the misconception its own feedback corrects) and told "no: attention mixes in the other words" that both
    sentences give it the same neighbours in the same order, which they do not. With no option that says why the
    two are the same, the question is not asked; where they differ it still is."""
    first, second = (
        attend(sentence_vectors(s), causal=True) for s in ("el banco de la plaza", "el banco me dio un préstamo")
    )
    i = first.tokens.index("banco")
    out = [first.attention.output[i], second.attention.output[second.tokens.index("banco")]]
    np.testing.assert_array_equal(out[0], out[1])  # the mask hides what differs: the same output
    same = WordPairView("banco", True, float(row_cosines(out[0][None], out[1][None])[0]))
    for seed in range(6):
        with pytest.raises(EngineInputError) as refused:
            generate(template_id, same, seed)
        assert refused.value.code == "question_not_applicable"
        asked = generate(template_id, lesson_word_pair_view(), seed)  # without the mask: different, asked
        assert asked.options[asked.correct_option] == "word_mixes_context"
