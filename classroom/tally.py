"""A class's answers counted: each round's distribution over a question's groups, and the class's tally exported.

Pure (engine only). A round's answers are text as the store keeps it: an option's index for a choice, a number for
a numeric question (the UI sends it as Python writes floats; engine.number_grammar.typed_number reads it, so a
number typed as "0,5" also counts). The groups:

    choice    each option, in the question's order (its index, whether it is right, the mistake picking it names),
              then "unreadable" (no option's index)
    numeric   "right" (within the question's tolerance), each named misconception in the question's order
              (engine.questions.grade decides), "other" (a number no named mistake gives), "unreadable" (no number)

A group's share is its count over the round's answers (0 when nobody answered); `answered` of `joined` is how many
of the class answered. Exports (CSV through engine.spreadsheet.csv_text, and JSON) hold counts only: no student id,
no answer's text.

This is the one count of a class's answers, and these are the one export: the projector's distribution
(ui/view_models/live.py) orders and labels these groups, and the lecturer's downloads are tally_csv (its header in the
reader's language) and tally_json, built when the lecturer clicks them.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from classroom.api import QuestionRef, Round
from engine import EngineInputError
from engine import questions as engine_questions
from engine.number_grammar import typed_number
from engine.questions import Kind, Outcome, Question
from engine.spreadsheet import csv_text

STORED_DECIMAL = "."  # the separator of the numbers the UI sends (repr of a float)
SHARE_DECIMALS = 4  # shares in the exports: 0.3333


class GroupKind(StrEnum):
    """What a group of answers is."""

    OPTION = "option"  # a choice question's option
    RIGHT = "right"  # a numeric question's answer, within its tolerance
    MISCONCEPTION = "misconception"  # the number a named mistake gives
    OTHER = "other"  # a number, neither right nor a named mistake
    UNREADABLE = "unreadable"  # no option's index, or no number


@dataclass(frozen=True)
class Group:
    """One group of a round's answers and its count."""

    kind: GroupKind
    count: int
    share: float  # count / the round's answers; 0 when nobody answered
    option: int | None = None  # OPTION: the option's index
    misconception: str | None = None  # MISCONCEPTION, or an OPTION whose pick names a mistake: the mistake's key
    right: bool = False  # the right option, or the RIGHT group


@dataclass(frozen=True)
class RoundTally:
    """One round's distribution."""

    number: int
    revealed: bool
    answered: int  # answers in the round (the unreadable ones included)
    joined: int  # students in the class
    groups: tuple[Group, ...]

    @property
    def answered_share(self) -> float:
        """How many of the class answered (0 with nobody joined)."""
        return self.answered / self.joined if self.joined else 0.0

    def group(self, kind: GroupKind, key: int | str | None = None) -> Group:
        """The group of `kind` (an option by its index, a misconception by its key)."""
        for group in self.groups:
            if group.kind == kind and key in (None, group.option, group.misconception):
                return group
        raise KeyError((kind, key))


@dataclass(frozen=True)
class QuestionTally:
    """A question the lecturer asked and its rounds' distributions."""

    question: QuestionRef
    kind: Kind
    rounds: tuple[RoundTally, ...]


def received_response(question: Question, text: str) -> int | float | None:
    """An answer as the store keeps it, read as the engine grades it: an option's index, or a finite number; None
    when it is no answer to this question (no option's index, no number)."""
    if question.kind == Kind.CHOICE:
        index = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else -1
        return index if 0 <= index < len(question.options) else None
    try:
        return typed_number(text, STORED_DECIMAL)
    except EngineInputError:
        return None


def group_of(question: Question, text: str) -> tuple[GroupKind, int | str | None]:
    """The group an answer's text counts in: (kind, the option's index or the misconception's key or None)."""
    response = received_response(question, text)
    if response is None:
        return GroupKind.UNREADABLE, None
    if question.kind == Kind.CHOICE:
        return GroupKind.OPTION, int(response)
    grade = engine_questions.grade(question, response)
    if grade.outcome == Outcome.RIGHT:
        return GroupKind.RIGHT, None
    if grade.outcome == Outcome.MISCONCEPTION:
        return GroupKind.MISCONCEPTION, grade.misconception
    return GroupKind.OTHER, None


def _empty_groups(question: Question) -> list[tuple[GroupKind, int | str | None]]:
    if question.kind == Kind.CHOICE:
        options = [(GroupKind.OPTION, index) for index in range(len(question.options))]
        return [*options, (GroupKind.UNREADABLE, None)]
    mistakes = [(GroupKind.MISCONCEPTION, key) for key, _ in question.misconceptions]
    return [(GroupKind.RIGHT, None), *mistakes, (GroupKind.OTHER, None), (GroupKind.UNREADABLE, None)]


def counted_groups(question: Question, texts: Collection[str]) -> tuple[Group, ...]:
    """Answers' texts counted in the question's groups (every group listed, those nobody chose with 0)."""
    counts: dict[tuple[GroupKind, int | str | None], int] = dict.fromkeys(_empty_groups(question), 0)
    for text in texts:
        counts[group_of(question, text)] += 1
    return tuple(_group(question, kind, key, count, len(texts)) for (kind, key), count in counts.items())


def round_tally(question: Question, round_: Round, joined: int) -> RoundTally:
    """A round's answers counted in the question's groups (every group listed, those nobody chose with 0)."""
    groups = counted_groups(question, list(round_.answers.values()))
    return RoundTally(round_.number, round_.revealed, len(round_.answers), joined, groups)


def _group(question: Question, kind: GroupKind, key: int | str | None, count: int, answered: int) -> Group:
    share = count / answered if answered else 0.0
    if kind == GroupKind.OPTION:
        assert isinstance(key, int)
        mistake = question.option_misconceptions[key] if key < len(question.option_misconceptions) else None
        return Group(kind, count, share, option=key, misconception=mistake, right=key == question.correct_option)
    if kind == GroupKind.MISCONCEPTION:
        return Group(kind, count, share, misconception=str(key))
    return Group(kind, count, share, right=kind == GroupKind.RIGHT)


def question_tally(ref: QuestionRef, question: Question, rounds: Sequence[Round], joined: int) -> QuestionTally:
    """Every round of one question counted."""
    return QuestionTally(ref, question.kind, tuple(round_tally(question, r, joined) for r in rounds))


# --- exports: counts only ---

CSV_HEADER = (
    "gate",
    "template",
    "seed",
    "round",
    "revealed",
    "joined",
    "answered",
    "group",
    "option",
    "misconception",
    "right",
    "count",
    "share",
)


YES_NO = ("yes", "no")  # a flag's cell (revealed, right)


def tally_rows(
    tallies: Iterable[QuestionTally], header: Sequence[str] = CSV_HEADER, yes_no: tuple[str, str] = YES_NO
) -> list[tuple[object, ...]]:
    """One row per group of each round of each question, after the header (CSV_HEADER's columns, named as the
    reader reads them: the UI passes them in the reader's language, with its words for yes and no)."""
    rows: list[tuple[object, ...]] = [tuple(header)]
    for tally in tallies:
        ref = tally.question
        for round_ in tally.rounds:
            for group in round_.groups:
                rows.append(
                    (
                        ref.gate,
                        ref.template_id,
                        ref.seed,
                        round_.number,
                        yes_no[0] if round_.revealed else yes_no[1],
                        round_.joined,
                        round_.answered,
                        group.kind.value,
                        "" if group.option is None else group.option,
                        group.misconception or "",
                        yes_no[0] if group.right else yes_no[1],
                        group.count,
                        round(group.share, SHARE_DECIMALS),
                    )
                )
    return rows


def tally_csv(
    tallies: Iterable[QuestionTally], header: Sequence[str] = CSV_HEADER, yes_no: tuple[str, str] = YES_NO
) -> str:
    """The class's tally as CSV: no cell can become a formula (engine.spreadsheet)."""
    return csv_text(tally_rows(tallies, header, yes_no))


def tally_dict(tallies: Iterable[QuestionTally]) -> dict[str, object]:
    """The class's tally as plain JSON values."""
    return {
        "questions": [
            {
                "gate": t.question.gate,
                "template": t.question.template_id,
                "seed": t.question.seed,
                "kind": t.kind.value,
                "rounds": [_round_dict(r) for r in t.rounds],
            }
            for t in tallies
        ]
    }


def tally_json(tallies: Iterable[QuestionTally]) -> str:
    """The class's tally as JSON text."""
    return json.dumps(tally_dict(tallies), ensure_ascii=False, indent=2)


def _round_dict(round_: RoundTally) -> Mapping[str, object]:
    return {
        "round": round_.number,
        "revealed": round_.revealed,
        "joined": round_.joined,
        "answered": round_.answered,
        "groups": [
            {
                "group": g.kind.value,
                "option": g.option,
                "misconception": g.misconception,
                "right": g.right,
                "count": g.count,
                "share": round(g.share, SHARE_DECIMALS),
            }
            for g in round_.groups
        ],
    }
