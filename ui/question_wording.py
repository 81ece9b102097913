"""A question in the reader's language: its text, its options, its answer, the feedback that names a mistake, and
the tally's export. No Streamlit: strings built from the engine's frozen `Question` (its keys and plain params) and
the records of ui/question_book.py, in the reader's language (`ui.i18n.t`, `ui.numbers`).

`markdown=True` (the default) gives text for markdown, user text (token names, a sentence) shown literally;
`markdown=False` gives plain text, for a widget's label or a download.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal
from typing import Any, cast

from engine import Scale, divisor_for
from engine.questions import Kind, OptionKind, Outcome, Question
from engine.spreadsheet import csv_text
from ui import i18n, numbers, state
from ui.derivation import token_text
from ui.i18n import t
from ui.pages import PAGE_BY_KEY
from ui.question_book import Attempt, Record, tally
from ui.text import md_literal

OPTION_LETTERS = "ABCDEFGH"


def _text(value: object, markdown: bool) -> str:
    """User text (a token name, a sentence) as it may be shown: literally inside markdown."""
    text = token_text(value)
    return md_literal(text) if markdown else text


def quoted(token: object, markdown: bool = True) -> str:
    """A token name in the language's quotes: «perro» / “perro”."""
    return t("quiz.quoted", token=_text(token, markdown))


def _tokens(tokens: Sequence[str], markdown: bool) -> str:
    return ", ".join(quoted(token, markdown) for token in tokens)


def number_text(value: float, decimals: int) -> str:
    """A number as an answer is written: to the question's decimals, a whole number without them (3, not 3,000)."""
    if float(value).is_integer():
        return numbers.count(int(value))
    return numbers.fixed(value, decimals, sign=value < 0)


# How each param is written in the question's text; a param not listed is written by its type.
_PARAM_FORMATS = {
    "score": lambda v, q: numbers.short(v) if q.section == "softmax" else numbers.signed(v),  # typed vs computed
    "embedding": lambda v, q: numbers.signed(v),
    "positional": lambda v, q: numbers.signed(v),
    "divisor": lambda v, q: numbers.short(v),
    "temperature": lambda v, q: numbers.short(v, 2),
    "new_temperature": lambda v, q: numbers.short(v, 2),
    "shift": lambda v, q: numbers.short(v),
    "index": lambda v, q: f"#{v + 1}",  # the softmax page labels its scores #1, #2, ...
    "scores": lambda v, q: numbers.short_vector(v),
    "values": lambda v, q: numbers.short_vector(v),
    "weights": lambda v, q: numbers.short_vector(v, 1),
    "scale": lambda v, q: t(f"quiz.scale.{v}"),
}


def _param(name: str, value: object, question: Question, markdown: bool) -> str:
    if name in _PARAM_FORMATS:
        text = _PARAM_FORMATS[name](value, question)
        return md_literal(text) if markdown else text
    if isinstance(value, str):
        return _text(value, markdown)
    if isinstance(value, int):
        return numbers.count(value)
    if isinstance(value, float):
        return numbers.short(value, question.decimals)
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return _tokens(value, markdown)
    if not isinstance(value, Iterable):
        raise TypeError(f"the parameter {name} is no number, text or vector: {value!r}")
    text = numbers.short_vector(value, question.decimals)
    return md_literal(text) if markdown else text


def _rule(question: Question) -> str:
    """What should be done to the scores in this question: the scenario's scale, or ÷ √d_k."""
    params: Mapping[str, Any] = question.params  # each template's params have their own types
    if question.template_id == "walk.4.without_scaling":
        return t("quiz.rule.none")  # the question's premise: no division at all
    mode = Scale(params.get("scale", Scale.SQRT))
    return t(f"quiz.rule.{mode}", divisor=numbers.short(divisor_for(mode, params["d_k"])))


def placeholders(question: Question, markdown: bool = True) -> dict[str, str]:
    """Every placeholder a question's strings may use: its params, written for the reader, and a few derived
    from them (√d_k, the rule for dividing the scores, the scalar mix, the answer)."""
    params: Mapping[str, Any] = question.params  # each template's params have their own types
    filled = {name: _param(name, value, question, markdown) for name, value in params.items()}
    if "d_k" in params:
        filled["sqrt_d_k"] = numbers.short(math.sqrt(params["d_k"]))
    if "scores" in params:  # what dividing by the sum divides by
        filled["scores_total"] = numbers.short(math.fsum(params["scores"]), question.decimals)
    if "d_k" in params or "scale" in params:
        filled["rule"] = _rule(question)
    if {"tokens", "values", "weights"} <= set(params):
        filled["mix"] = "; ".join(
            t("quiz.mix_item", token=quoted(token, markdown), value=numbers.short(value), weight=numbers.short(weight))
            for token, value, weight in zip(params["tokens"], params["values"], params["weights"], strict=False)
        )
    filled["answer"] = answer_text(question, markdown)
    return filled


def question_text(question: Question, markdown: bool = True) -> str:
    """The question in the reader's language, its params written as the pages write them."""
    return t(question.text_key, **placeholders(question, markdown))


def option_text(question: Question, index: int, markdown: bool = True) -> str:
    """One option of a choice question, as the reader sees it."""
    option = question.options[index]
    kind = question.option_kind
    if kind == OptionKind.TOKEN:
        tokens = cast(tuple[str, ...], question.params["tokens"])  # a token question carries its sentence
        if list(tokens).count(tokens[option]) > 1:  # a sentence may repeat a word: say which one
            return t("quiz.token_at", token=quoted(tokens[option], markdown), position=numbers.count(option))
        return quoted(tokens[option], markdown)
    if kind == OptionKind.KEY:
        return t(f"quiz.option.{option}")
    if kind == OptionKind.ROW:
        text = numbers.vector(option, question.decimals, sign=any(v < 0 for v in option))
        return md_literal(text) if markdown else text
    if kind == OptionKind.SHAPE:
        return t("quiz.shape", rows=numbers.count(option[0]), cols=numbers.count(option[1]))
    matrix, line, position = option  # OptionKind.MATRIX_LINE
    return t(f"quiz.line.{line}", matrix=matrix, index=numbers.count(position))


def option_letter(index: int) -> str:
    """The letter the class calls an option by: "B" for the second."""
    return OPTION_LETTERS[index]


def lettered_option(question: Question, index: int, markdown: bool = True) -> str:
    """An option with the letter the class calls out: "B. «perro»"."""
    return f"{option_letter(index)}. {option_text(question, index, markdown)}"


def answer_text(question: Question, markdown: bool = True) -> str:
    """The right answer as shown: the number to the question's decimals, or the right option."""
    if question.kind == Kind.NUMERIC:
        assert question.answer is not None  # a numeric question has an answer
        return number_text(question.answer, question.decimals)
    assert question.correct_option is not None  # a choice question has a right option
    return option_text(question, question.correct_option, markdown)


def tolerance_text(question: Question) -> str:
    """What is accepted as right, in words: exact, or ± the tolerance."""
    if question.tolerance == 0:
        return t("quiz.tolerance.exact")
    assert question.tolerance is not None  # asked of numeric questions only, which have one
    return t("quiz.tolerance.within", tolerance=stated_tolerance(question.tolerance))


def stated_tolerance(tolerance: float) -> str:
    """A tolerance to two significant digits, rounded down: what it says is never more than what is accepted."""
    decimals = 1 - math.floor(math.log10(tolerance))
    shown = Decimal(repr(float(tolerance))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_FLOOR)
    return numbers.short(shown, max(decimals, 0))


def mistake_key(template_id: str, key: str) -> str:
    """The string that names a mistake: one per misconception key, or a wording for one template when the
    shared one cannot say it as precisely (the tokens of a transposed score)."""
    specific = f"quiz.mistake.{key}.{template_id}"
    return specific if i18n.has(specific) else f"quiz.mistake.{key}"


def mistake_text(question: Question, key: str, value: str, markdown: bool = True) -> str:
    """The feedback that names mistake `key`, with the value it gives (a number, or the option picked)."""
    return t(mistake_key(question.template_id, key), value=value, **placeholders(question, markdown))


def mistaken_values(question: Question, markdown: bool = True) -> list[tuple[str, str]]:
    """Each wrong answer the question knows, as shown, with the feedback for it (its mistake, if named)."""
    if question.kind == Kind.NUMERIC:
        return [
            (shown, mistake_text(question, key, shown, markdown))
            for key, value in question.misconceptions
            for shown in [number_text(value, question.decimals)]
        ]
    out = []
    for index, key in enumerate(question.option_misconceptions):
        if index == question.correct_option:
            continue
        shown = option_text(question, index, markdown)
        out.append(
            (lettered_option(question, index, markdown), mistake_text(question, key, shown, markdown) if key else "")
        )
    return out


def feedback_text(question: Question, attempt: Attempt, markdown: bool = True) -> str:
    """What the student reads after one answer: right, the mistake it matches, or just wrong."""
    grade = attempt.grade
    if question.kind == Kind.CHOICE:
        shown = option_text(question, int(grade.response), markdown)
    else:
        shown = md_literal(attempt.typed) if markdown else attempt.typed
    if grade.right:
        return t("quiz.feedback.right", answer=answer_text(question, markdown))
    if grade.outcome == Outcome.MISCONCEPTION:
        assert grade.misconception is not None  # the outcome names it
        named = dict(question.misconceptions).get(grade.misconception)
        value = number_text(named, question.decimals) if named is not None else shown
        return t("quiz.feedback.mistake", given=shown, mistake=mistake_text(question, grade.misconception, value))
    return t("quiz.feedback.wrong", given=shown)


# --- the tally's export ---


def page_title(page: str) -> str:
    """A page's title in the reader's language (its key when it is not a registered page)."""
    return t(f"page.{page}") if page in PAGE_BY_KEY else page


def answer_as_typed(question: Question, attempt: Attempt) -> str:
    """An answer as the student gave it: the text typed, or the option picked."""
    if question.kind == Kind.CHOICE:
        return lettered_option(question, int(attempt.grade.response), markdown=False)
    return attempt.typed


def export_rows(records: Iterable[Record]) -> list[dict]:
    """One row per question answered or shown, in the reader's language, plain text."""
    rows = []
    for record in records:
        question = record.question
        rows.append(
            {
                "page": page_title(record.page),
                "template": question.template_id,
                "question": question_text(question, markdown=False),
                "answers": [answer_as_typed(question, attempt) for attempt in record.attempts],
                "outcomes": [attempt.grade.outcome.value for attempt in record.attempts],
                "mistakes": [attempt.grade.misconception or "" for attempt in record.attempts],
                "right_answer": answer_text(question, markdown=False),
                "outcome": record.outcome,
                "first_try_right": record.first_try_right,
            }
        )
    return rows


def export_json(records: Iterable[Record]) -> str:
    """The tally and every question, for a student to hand in."""
    records = list(records)
    answered, right, first = tally(records)
    document = {
        "language": state.current_language(),
        "answered": answered,
        "right": right,
        "first_try_right": first,
        "questions": export_rows(records),
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def export_csv(records: Iterable[Record]) -> str:
    """The same as a spreadsheet: headers and outcomes in the reader's language, answers joined by " | ", no cell a
    spreadsheet could take for a formula (`engine.spreadsheet`)."""
    columns = ("page", "template", "question", "answers", "right_answer", "outcome", "first_try_right")
    rows = [[t(f"quiz.export.col.{name}") for name in columns]]
    for row in export_rows(records):
        outcome = row["outcome"]
        rows.append(
            [
                row["page"],
                row["template"],
                row["question"],
                " | ".join(row["answers"]),
                row["right_answer"],
                t(f"quiz.outcome.{outcome}"),
                t("quiz.export.yes") if row["first_try_right"] else t("quiz.export.no"),
            ]
        )
    return csv_text(rows)
