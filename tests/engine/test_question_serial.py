"""engine/questions/serial.py: every question any template draws comes back from its JSON equal to itself (the live
class's tally counts the question the lecturer's page drew, read back from the class store)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import EngineInputError
from engine import questions as q
from engine.questions.serial import question_from_json, question_json
from tests.engine.test_question_golden import SEEDS, contexts


def every_question() -> list[q.Question]:
    inputs = contexts()
    drawn = []
    for template in q.TEMPLATES.values():
        for _, context in inputs[template.context]:
            for seed in SEEDS:
                try:
                    drawn.append(template.generate(context, seed))
                except EngineInputError:
                    continue
    return drawn


def test_every_drawn_question_comes_back_equal_with_its_types():
    questions = every_question()
    assert len(questions) >= 300 and {question.kind for question in questions} == set(q.Kind)
    assert {question.option_kind for question in questions} >= set(q.OptionKind)
    for question in questions:
        back = question_from_json(question_json(question))
        assert back == question, question.template_id
        assert repr(back) == repr(question), question.template_id  # tuples as tuples, ints as ints, enums as enums
        for name, value in question.params.items():
            assert type(back.params[name]) is type(value), (question.template_id, name)


def test_a_question_graded_after_the_round_trip_grades_alike():
    for question in every_question():
        back = question_from_json(question_json(question))
        responses = range(len(question.options)) if question.kind == q.Kind.CHOICE else [question.answer, 0.0]
        for response in responses:
            assert q.grade(back, response) == q.grade(question, response), question.template_id


def test_non_finite_numbers_and_text_survive():
    question = every_question()[0]
    odd = dataclasses.replace(question, params=q.Params({"x": float("-inf"), "name": "«perro» ☃", "t": (1, (2.5,))}))
    assert question_from_json(question_json(odd)) == odd


@pytest.mark.parametrize("text", ["", "[]", "{}", '{"kind": "choice"}', "not json", '{"params": 1}', "null"], ids=repr)
def test_what_is_no_question_is_a_value_error(text):
    with pytest.raises(ValueError):
        question_from_json(text)


def test_a_question_with_a_field_missing_or_an_unknown_kind_is_a_value_error():
    import json

    fields = json.loads(question_json(every_question()[0]))
    for broken in ({k: v for k, v in fields.items() if k != "seed"}, {**fields, "kind": "essay"}, {**fields, "x": 1}):
        with pytest.raises(ValueError):
            question_from_json(json.dumps(broken))
