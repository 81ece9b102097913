"""The questions' view-model without Streamlit (ui/question_book.py): one draw for everyone who shares a seed, answers
graded right / a named mistake / wrong from what a student typed or picked, frozen records and books, a tally of any
list of records, and a gate whose reveal something else may decide. The view-model and the wording draw nothing."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import EngineInputError, lesson_scenario
from engine.questions import Kind, Outcome, generate
from ui import question_book
from ui.question_book import Book, Record, gate_view, graded, pick_question, tally

ROOT = Path(__file__).resolve().parents[2]


def a_question(template_id: str, seed: int = 3):
    return generate(template_id, lesson_scenario(), seed)


def test_everyone_who_shares_a_seed_gets_the_same_question_and_another_seed_may_not():
    scenario = lesson_scenario()
    lecturer = pick_question("walk.4", scenario, seed=2024, gate="walk.4", draw=1)
    students = [pick_question("walk.4", lesson_scenario(), seed=2024, gate="walk.4", draw=1) for _ in range(3)]
    assert lecturer is not None and all(student == lecturer for student in students)
    others = {pick_question("walk.4", scenario, seed=seed, gate="walk.4", draw=1) for seed in range(20)}
    assert len(others) > 1


@pytest.mark.parametrize(("lang", "comma"), [("es", True), ("en", False)])
def test_a_typed_number_is_graded_right_as_a_named_mistake_or_wrong(lang, comma):
    question = a_question("walk.2.score")
    key, mistaken = question.misconceptions[0]

    def typed(value: float) -> str:
        text = f"{value:.3f}"
        return text.replace(".", ",") if comma else text

    right = graded(question, typed(question.answer), lang)
    assert right.grade.outcome == Outcome.RIGHT and right.typed == typed(question.answer)
    named = graded(question, typed(mistaken), lang)
    assert (named.grade.outcome, named.grade.misconception) == (Outcome.MISCONCEPTION, key)
    far = max(abs(question.answer), *(abs(v) for _, v in question.misconceptions)) + 7
    assert graded(question, typed(far), lang).grade.outcome == Outcome.WRONG
    with pytest.raises(EngineInputError) as error:
        graded(question, "siete", lang)
    assert error.value.code == "not_a_number"


def test_a_picked_option_is_graded_by_its_index():
    question = a_question("walk.1.q_shape")
    assert question.kind == Kind.CHOICE
    assert graded(question, question.correct_option, "es").grade.right
    wrong = next(i for i, key in enumerate(question.option_misconceptions) if key is not None)
    attempt = graded(question, wrong, "en")
    assert attempt.typed == str(wrong)
    assert (attempt.grade.outcome, attempt.grade.misconception) == (
        Outcome.MISCONCEPTION,
        question.option_misconceptions[wrong],
    )


def test_a_book_changes_only_by_returning_a_new_one():
    question = a_question("walk.2.score")
    book = Book(seed=1)
    asked = book.asking("walk.2", question)
    answered = asked.answered("walk.2", "walkthrough", question, graded(question, "0", "en"))
    again = answered.drawn_again("walk.2")
    assert book.current == {} and book.records == {} and book.draws == {}
    assert asked.current == {"walk.2": question} and asked.records == {}
    assert len(answered.records) == 1 and answered.draw("walk.2") == 0
    assert again.draw("walk.2") == 1 and again.records == answered.records
    assert asked.asking("walk.2", question) is asked  # asking the same again copies nothing
    with pytest.raises(dataclasses.FrozenInstanceError):
        book.seed = 2  # type: ignore[misc]


def test_an_unreadable_answer_is_kept_until_an_answer_is_graded():
    question = a_question("walk.2.score")
    refused = Book(seed=1).refused("walk.2", question, "not_a_number", {"value": "x"})
    assert gate_view(refused, "walk.2", "walkthrough", question).error == ("not_a_number", {"value": "x"})
    answered = refused.answered("walk.2", "walkthrough", question, graded(question, "0", "en"))
    assert gate_view(answered, "walk.2", "walkthrough", question).error is None


def test_a_record_says_what_happened_to_its_question():
    question = a_question("walk.2.score")
    wrong, right = graded(question, "1000", "en"), graded(question, f"{question.answer:.3f}", "en")
    record = Record(question, "walk.2", "walkthrough")
    assert (record.revealed, record.settled, record.outcome) == (False, False, "shown")
    tried = record.with_attempt(wrong)
    assert (tried.revealed, tried.settled, tried.outcome, tried.first_try_right) == (True, False, "wrong", False)
    done = tried.with_attempt(right)
    assert (done.settled, done.outcome, done.first_try_right, len(done.attempts)) == (True, "right", False, 2)
    assert record.with_shown().settled and record.with_shown().outcome == "shown"
    assert record.attempts == ()  # unchanged by what was built from it


def test_the_tally_counts_any_list_of_records():
    """Three students' records of one question: right at once, right at the second try, only shown."""
    question = a_question("walk.2.score")
    wrong, right = graded(question, "1000", "en"), graded(question, f"{question.answer:.3f}", "en")
    blank = Record(question, "walk.2", "walkthrough")
    records = [blank.with_attempt(right), blank.with_attempt(wrong).with_attempt(right), blank.with_shown()]
    assert tally(records) == (2, 2, 1)
    assert tally(records).first_try_right == 1
    assert tally([]) == (0, 0, 0)


def test_a_gate_is_revealed_by_its_own_answer_or_by_what_decides_for_it():
    question = a_question("walk.2.score")
    book = Book(seed=1).asking("walk.2", question)
    answered = book.answered("walk.2", "walkthrough", question, graded(question, "1000", "en"))
    assert not gate_view(book, "walk.2", "walkthrough", question).revealed
    assert gate_view(answered, "walk.2", "walkthrough", question).revealed
    # a lecturer's reveal: shown to a student who has not answered, held back from one who has
    assert gate_view(book, "walk.2", "walkthrough", question, revealed=True).revealed
    held = gate_view(answered, "walk.2", "walkthrough", question, revealed=False)
    assert not held.revealed and held.record is not None and held.record.answered
    assert held.ident == question_book.identity("walk.2", question)


def test_the_view_model_loads_nothing_that_draws_or_reads_the_session_or_strings():
    code = "import json, sys; import ui.question_book; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=True).stdout)
    forbidden = ("streamlit", "plotly", "pandas", "ui.state", "ui.i18n", "ui.question_wording")
    assert [m for m in loaded if any(m == f or m.startswith(f + ".") for f in forbidden)] == []


def test_the_wording_draws_nothing():
    tree = ast.parse((ROOT / "ui" / "question_wording.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    attributes = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    assert not {m for m in imported if m.split(".")[0] == "streamlit"} and "st" not in attributes
