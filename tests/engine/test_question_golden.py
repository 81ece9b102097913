"""Golden draws: every template's question (params, options, right answer, named mistakes, tolerance) for three
seeds on a few inputs of its page, against tests/engine/questions_golden.json.

The file was written from the templates before they became data (issue 33), so a change to how a template is
written that changes what it asks fails here. A deliberate change to a question (a new mistake, a new option's
feedback) rewrites the file, and its diff shows exactly which draws changed:

    python -m tests.engine.test_question_golden
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from engine import EngineInputError, Scale, attend, lesson_scenario
from engine import questions as q
from engine.pipeline import PipelineResult, SentenceVectors, sentence_vectors
from engine.questions import LearningView, MultiHeadView, RealModelView, ScalingSetup, SoftmaxRow, WordPairView
from engine.scenario import Scenario
from tests.engine.question_contexts import (
    learning_view,
    lesson_learning_view,
    lesson_multihead_view,
    lesson_real_model_view,
    multihead_view,
    random_walk_scenario,
    real_model_view,
)

GOLDEN = Path(__file__).with_name("questions_golden.json")
SEEDS = (0, 1, 2)
SIGNIFICANT = 12  # digits kept of every float: the draws are compared to 1e-9, BLAS may differ in the last bits


def contexts() -> dict[type, list[tuple[str, object]]]:
    """A few inputs of each page: its fresh start and two a student can set."""
    lesson = lesson_scenario()
    return {
        Scenario: [
            ("lesson", lesson),
            ("causal_dk", random_walk_scenario(5, 4, 3, 2, "dk", True, 0.5)),
            ("none_t2", dataclasses.replace(random_walk_scenario(8, 3, 4, 3, "none", False, 2.5), scale=Scale.NONE)),
        ],
        SoftmaxRow: [
            ("page", SoftmaxRow((2.0, 5.0, 1.0))),
            ("signs", SoftmaxRow((-1.0, 2.0, 3.5), 0.3)),
            ("flat", SoftmaxRow((0.0, 0.0), 4.0)),
        ],
        ScalingSetup: [
            ("page", ScalingSetup(1024, 200)),
            ("small", ScalingSetup(16, 10)),
            ("one", ScalingSetup(1, 1)),
        ],
        SentenceVectors: [
            ("lesson", sentence_vectors("el perro come")),
            ("two", sentence_vectors("El perro come. ¿Y el gato?")),
        ],
        PipelineResult: [
            ("lesson", attend(sentence_vectors("el perro come"))),
            ("repeated", attend(sentence_vectors("el perro ve el perro."))),
        ],
        MultiHeadView: [
            ("lesson", lesson_multihead_view()),
            ("random", multihead_view(random_walk_scenario(3, 4, 4, 2, "sqrt", True, 1.0), 4, "random", 3, "random")),
            ("scenario", multihead_view(lesson, 2, "scenario", 1, "identity", layer_norm=False)),
        ],
        LearningView: [
            ("lesson", lesson_learning_view()),
            ("random", learning_view(random_walk_scenario(2, 3, 4, 2, "sqrt", True, 1.0), "identity", "random", 2)),
        ],
        WordPairView: [
            ("apart", WordPairView("banco", True, 0.772)),  # the English bank pair's last-layer cosine, rounded
            ("same", WordPairView("banco", True, 1.0)),  # two identical sentences: not asked (no option says why)
            ("unseen", WordPairView("banco", False, 0.9998)),  # a change the three decimals cannot show: not asked
        ],
        RealModelView: [
            ("lesson", lesson_real_model_view()),
            ("cell", real_model_view(layer=1, head=1, cell=(2, 1))),
        ],
    }


def plain(value):
    """A value as JSON: floats to SIGNIFICANT digits, tuples as lists, enums as their values."""
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT}g}") if math.isfinite(value) else repr(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return getattr(value, "value", value)


def described(question: q.Question) -> dict:
    return {
        "params": {name: plain(value) for name, value in question.params.items()},
        "decimals": question.decimals,
        "options": plain(question.options),
        "correct": question.correct_option,
        "option_misconceptions": list(question.option_misconceptions),
        "answer": plain(question.answer),
        "tolerance": plain(question.tolerance),
        "misconceptions": plain(question.misconceptions),
    }


def draws() -> dict[str, dict]:
    """Every template's draws: "<context>#<seed>" -> the question, or the reason none is asked."""
    inputs = contexts()
    out: dict[str, dict] = {}
    for template in q.TEMPLATES.values():
        drawn: dict = {"section": template.section, "kind": template.kind.value, "params": list(template.params)}
        drawn["misconceptions"] = sorted(template.misconception_keys)
        drawn["option_keys"] = list(template.option_keys)
        for name, context in inputs[template.context]:
            for seed in SEEDS:
                try:
                    drawn[f"{name}#{seed}"] = described(template.generate(context, seed))
                except EngineInputError as error:
                    drawn[f"{name}#{seed}"] = error.code
        out[template.id] = drawn
    return out


def assert_same(got, expected, where: str) -> None:
    if isinstance(expected, float) and isinstance(got, float):
        assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12), (where, got, expected)
    elif isinstance(expected, dict) and isinstance(got, dict):
        assert got.keys() == expected.keys(), (where, sorted(got.keys() ^ expected.keys()))
        for key in expected:
            assert_same(got[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(got, list):
        assert len(got) == len(expected), (where, got, expected)
        for i, (a, b) in enumerate(zip(got, expected, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    else:
        assert got == expected, (where, got, expected)


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def drawn() -> dict:
    return json.loads(json.dumps(draws()))  # through JSON, as the file was written


def test_the_golden_file_has_every_template_and_a_few_hundred_questions(golden):
    assert set(golden) == set(q.TEMPLATES)
    asked = [v for drawn in golden.values() for v in drawn.values() if isinstance(v, dict) and "params" in v]
    assert len(asked) >= 300


@pytest.mark.parametrize("template_id", list(q.TEMPLATES))
def test_every_template_asks_what_the_golden_file_says(template_id, golden, drawn):
    assert_same(drawn[template_id], golden[template_id], template_id)


def written(drawn: dict[str, dict]) -> str:
    """The draws as JSON with one draw a line, so that a diff names the draws that changed."""
    compact = {"ensure_ascii": False, "sort_keys": True, "separators": (",", ":")}
    templates = []
    for template_id in sorted(drawn):
        lines = [
            f"  {json.dumps(key)}: {json.dumps(value, **compact)}" for key, value in sorted(drawn[template_id].items())
        ]
        templates.append(f" {json.dumps(template_id)}: {{\n" + ",\n".join(lines) + "\n }")
    return "{\n" + ",\n".join(templates) + "\n}\n"


if __name__ == "__main__":
    GOLDEN.write_text(written(draws()), encoding="utf-8")
    print(f"wrote {GOLDEN}")


def test_every_wrong_option_of_every_template_says_why_it_is_wrong():
    """Issue 30, item 9: a wrong option with no named mistake got only "not that, and no typical mistake" (the
    walkthrough's best match and dominant value, the softmax's naive-division options, ...). Over every page's
    inputs and a dozen seeds, every wrong option now names the mistake its feedback explains."""
    inputs = contexts()
    silent = set()
    asked = 0
    for template in q.TEMPLATES.values():
        if template.kind != q.Kind.CHOICE:
            continue
        for name, context in inputs[template.context]:
            for seed in range(12):
                try:
                    question = template.generate(context, seed)
                except EngineInputError:
                    continue
                asked += 1
                for index, key in enumerate(question.option_misconceptions):
                    if index != question.correct_option and key is None:
                        silent.add((template.id, name))
    assert asked > 300
    assert silent == set()
