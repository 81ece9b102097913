"""The class's answers counted (classroom/tally.py); every expected value counted by hand in the comments."""

from __future__ import annotations

import csv
import io
import json

import pytest

from classroom.api import QuestionRef, Round
from classroom.codes import new_student_id
from classroom.tally import GroupKind, question_tally, round_tally, tally_csv, tally_json
from engine.number_grammar import typed_number
from engine.questions import Kind, OptionKind, Params, Question
from ui.question_book import typed_number as ui_typed_number

CHOICE = Question(
    template_id="t.choice",
    section="t",
    kind=Kind.CHOICE,
    text_key="q.t.choice",
    params=Params({}),
    seed=1,
    decimals=3,
    option_kind=OptionKind.KEY,
    options=("a", "b", "c"),
    correct_option=1,
    option_misconceptions=("transposed", None, None),
)
NUMERIC = Question(
    template_id="t.number",
    section="t",
    kind=Kind.NUMERIC,
    text_key="q.t.number",
    params=Params({}),
    seed=2,
    decimals=3,
    answer=0.5,
    tolerance=0.005,
    misconceptions=(("transposed", 0.8), ("unscaled", 1.25)),
)


def answers(*texts: str) -> dict[str, str]:
    return {new_student_id(): text for text in texts}


def test_a_choice_round_counts_each_option_and_the_unreadable():
    tally = round_tally(CHOICE, Round(1, answers("1", "1", "0", "2", "x")), joined=8)
    # option 0: one, option 1 (right): two, option 2: one, "x": unreadable; 5 answers of 8 joined
    assert [(g.kind, g.option, g.count) for g in tally.groups] == [
        (GroupKind.OPTION, 0, 1),
        (GroupKind.OPTION, 1, 2),
        (GroupKind.OPTION, 2, 1),
        (GroupKind.UNREADABLE, None, 1),
    ]
    assert [g.share for g in tally.groups] == [0.2, 0.4, 0.2, 0.2]
    assert (tally.answered, tally.joined, tally.answered_share) == (5, 8, 0.625)
    assert [g.right for g in tally.groups] == [False, True, False, False]
    assert tally.group(GroupKind.OPTION, 0).misconception == "transposed"


@pytest.mark.parametrize("text", ["3", "-1", "01x", "", "1.0", "٣", "9" * 64])
def test_a_choice_answer_that_is_no_options_index_is_unreadable(text):
    tally = round_tally(CHOICE, Round(1, answers(text)), joined=1)
    assert tally.group(GroupKind.UNREADABLE).count == 1


def test_a_numeric_round_groups_right_each_mistake_other_and_unreadable():
    texts = ["0.5", "0.503", "0,5", "0.8", "0.7999", "1.25", "2", "0.506", "abc", "1,000", "inf"]
    tally = round_tally(NUMERIC, Round(2, answers(*texts), revealed=True), joined=11)
    # right: 0.5, 0.503 (|0.003| ≤ 0.005), "0,5" (a comma read as decimal) = 3
    # transposed (0.8): 0.8, 0.7999 = 2; unscaled (1.25): 1.25 = 1; other: 2 and 0.506 (|0.006| > 0.005) = 2
    # unreadable: "abc", "1,000" (a thousands group or a decimal: ambiguous), "inf" = 3; 11 in all
    assert [(g.kind, g.misconception, g.count) for g in tally.groups] == [
        (GroupKind.RIGHT, None, 3),
        (GroupKind.MISCONCEPTION, "transposed", 2),
        (GroupKind.MISCONCEPTION, "unscaled", 1),
        (GroupKind.OTHER, None, 2),
        (GroupKind.UNREADABLE, None, 3),
    ]
    assert [round(g.share, 4) for g in tally.groups] == [0.2727, 0.1818, 0.0909, 0.1818, 0.2727]  # n/11
    assert (tally.number, tally.revealed, tally.answered_share) == (2, True, 1.0)


def test_nobody_answered_gives_zero_shares_not_an_error():
    tally = round_tally(NUMERIC, Round(1), joined=0)
    assert tally.answered == 0 and tally.answered_share == 0.0
    assert all(g.count == 0 and g.share == 0.0 for g in tally.groups)


def test_two_rounds_are_counted_apart():
    ref = QuestionRef("walk.2", "t.choice", 1)
    tally = question_tally(ref, CHOICE, [Round(1, answers("0", "0", "1"), True), Round(2, answers("1", "1", "1"))], 3)
    first, second = tally.rounds
    assert first.group(GroupKind.OPTION, 0).count == 2 and second.group(GroupKind.OPTION, 1).count == 3
    assert (first.revealed, second.revealed) == (True, False)


def test_the_exports_hold_counts_and_no_student_id_and_no_formula():
    students = answers("0.5", "0.8", "=1+1")
    ref = QuestionRef('=HYPERLINK("//e.vil")', "t.number", 2)
    tallies = [question_tally(ref, NUMERIC, [Round(1, students)], joined=4)]
    text = tally_csv(tallies)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["gate", "template", "seed"]
    assert len(rows) == 1 + 5  # the header, then right, transposed, unscaled, other, unreadable
    assert {row[0] for row in rows[1:]} == {'\'=HYPERLINK("//e.vil")'}  # written as text, not a formula
    by_group = {(row[7], row[9]): (row[11], row[12]) for row in rows[1:]}
    assert by_group[("right", "")] == ("1", "0.3333")  # 1 of 3
    assert by_group[("misconception", "transposed")] == ("1", "0.3333")
    assert by_group[("unreadable", "")] == ("1", "0.3333")  # "=1+1": no number
    data = json.loads(tally_json(tallies))
    (question,) = data["questions"]
    assert question["kind"] == "numeric" and question["rounds"][0]["answered"] == 3
    assert question["rounds"][0]["joined"] == 4
    for student in students:
        assert student not in text and student not in tally_json(tallies)
    assert "=1+1" not in text  # the answers' text is not exported, only counted


@pytest.mark.parametrize(
    "typed", ["0,954", "0.954", "−0,5", "1 234,5", "1.234,5", "1,234.5", "1,000", "1.000", "abc", "1e-3", " 2 "]
)
@pytest.mark.parametrize(("lang", "decimal"), [("es", ","), ("en", ".")])
def test_the_engines_typed_number_is_the_question_books(typed, lang, decimal):
    def read(parse, *args):
        try:
            return parse(typed, *args)
        except Exception as error:
            return type(error).__name__, getattr(error, "code", None)

    assert read(typed_number, decimal) == read(ui_typed_number, lang)
