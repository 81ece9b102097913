"""Predict, then reveal: one question before a step shows its answer, graded, with feedback that names the mistake.

A page calls the gate before it draws a step's numbers, with the engine section (`engine.questions.sections()`)
and what that section is about (the scenario, a row of scores, a d_k, a sentence's pipeline):

    if questions.gate_ui("walk.2", scenario):
        walk.scores_ui(...)

The gate shows one question for that section, seeded per session and per gate (stable across reruns, different
for another student; "another question" draws the next seed and the next template), grades the answer with the
engine, and names the mistake. It returns True once the step may show its answer: after an answer (right, or
after a try), after "show me", when questions are off, or when no template of the section can be asked about this
input. The question is regenerated from the context on every run, and its answers are kept by the question's
identity, so an edited scenario asks a fresh question.

In presentation mode the question is shown large with its options and no input: the class answers aloud or on
paper, and the lecturer reveals the answer with a key (REVEAL_SHORTCUT).

State: "answers" (see ui/state.py) holds the session's `Book`: its seed, each gate's draw, the question each gate
shows and one `Record` per question answered or shown. Nothing leaves the session except through the student's
own download of the tally (`tally_ui`).
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import streamlit as st

from engine import EngineInputError, Scale, Scenario, divisor_for
from engine import questions as engine_questions
from engine.limits import MAX_NUMBER_CHARS
from engine.questions import Grade, Kind, OptionKind, Outcome, Question, ScalingSetup, SoftmaxRow
from engine.scenario import parse_number
from engine.spreadsheet import csv_text
from ui import numbers, state
from ui.derivation import token_text
from ui.i18n import t
from ui.pages import PAGE_BY_KEY
from ui.tables import table_ui
from ui.text import md_literal

if TYPE_CHECKING:
    import pandas as pd

REVEAL_SHORTCUT = "S"  # not R or C (Streamlit's), Esc, the arrows, Page or Space (stepping)
OPTION_LETTERS = "ABCDEFGH"
PIPELINE_TEMPLATES = ("pipeline.most_attended",)  # before "what attention did": read the weights above
# before the tokens: how many there will be, a positional encoding, an entry of x (each question gives its operands)
PIPELINE_VECTOR_TEMPLATES = ("pipeline.token_count", "pipeline.pe_value", "pipeline.x_entry")
SECTION_PAGES = {"walk": "walkthrough"}  # an engine section's prefix -> its page key, where they differ

# What a student needs on screen to work a numeric or choice question out while the step is hidden: the step's
# inputs, as the previous step showed them (matrices of the shared scenario and of its attention result).
GIVEN_MATRICES: dict[str, tuple[str, ...]] = {
    "walk.1.q_entry": ("x", "w_q"),
    "walk.1.k_entry": ("x", "w_k"),
    "walk.1.v_entry": ("x", "w_v"),
    "walk.2.score": ("q", "k"),
    "walk.2.best_match": ("q", "k"),
    "walk.4.weight": ("scaled_scores",),
    "walk.4.most_weight": ("scaled_scores",),
    "walk.4.without_scaling": ("scores",),
    "walk.5.output_entry": ("weights", "v"),
    "walk.5.dominant_value": ("weights", "v"),
}

# Presentation mode: the question and its options larger than the page's text, to be read from the back row.
_LECTURE_CSS = """
<style>
[class*="st-key-quiz_lecture_"] p, [class*="st-key-quiz_lecture_"] li { font-size: 28px; line-height: 1.45; }
[class*="st-key-quiz_lecture_"] h3 { font-size: 34px; }
[class*="st-key-quiz_lecture_"] button p { font-size: 22px; }
</style>
"""


# --- what the session keeps ---


@dataclass
class Attempt:
    """One answer: what the student typed or picked, and how the engine graded it."""

    typed: str  # the text typed, or the picked option's index as text
    grade: Grade


@dataclass
class Record:
    """One question the student answered or asked to see, with every answer in order."""

    question: Question
    gate: str
    page: str
    attempts: list[Attempt] = field(default_factory=list)
    shown: bool = False  # "show me", or the lecturer's reveal

    @property
    def answered(self) -> bool:
        """At least one answer was given."""
        return bool(self.attempts)

    @property
    def right(self) -> bool:
        """One of the answers was right."""
        return any(attempt.grade.right for attempt in self.attempts)

    @property
    def first_try_right(self) -> bool:
        """The first answer was right."""
        return self.answered and self.attempts[0].grade.right

    @property
    def revealed(self) -> bool:
        """The step may show its answer: answered (right or not) or shown."""
        return self.answered or self.shown

    @property
    def settled(self) -> bool:
        """Nothing left to try: answered right, or the answer was shown."""
        return self.right or self.shown

    @property
    def outcome(self) -> str:
        """right, misconception or wrong (the last answer), or shown when never answered."""
        if self.right:
            return Outcome.RIGHT.value
        if self.attempts:
            return self.attempts[-1].grade.outcome.value
        return "shown"


@dataclass
class Book:
    """The session's questions: its seed, each gate's draw and current question, and the records."""

    seed: int
    draws: dict[str, int] = field(default_factory=dict)
    current: dict[str, Question] = field(default_factory=dict)  # gate -> the question it shows now
    records: dict[str, Record] = field(default_factory=dict)  # question identity -> record, in answer order
    errors: dict[str, tuple[str, dict]] = field(default_factory=dict)  # identity -> an unreadable answer

    def tally(self) -> tuple[int, int, int]:
        """(answered, right, first-try right)."""
        records = list(self.records.values())
        return (
            sum(r.answered for r in records),
            sum(r.right for r in records),
            sum(r.first_try_right for r in records),
        )


ANSWERS: state.Slot[Book | None] = state.Slot("answers", lambda: None)  # the session's Book (see ui/state.py)


def book() -> Book:
    """The session's Book, started with a fresh random seed on first use."""
    current = ANSWERS.get()
    if not isinstance(current, Book):
        current = Book(seed=secrets.randbits(32))
        ANSWERS.set(current)
    return current


# --- choosing the question (pure: no Streamlit) ---


def derived_seed(*parts: object) -> int:
    """A seed in the engine's range from the session seed, the gate and the draw: stable, and spread out."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big")


def pick_question(
    section: str,
    context: object,
    *,
    seed: int,
    gate: str,
    draw: int = 0,
    templates: Sequence[str] | None = None,
) -> Question | None:
    """The question a gate asks: templates of `section` that take this context (those in `templates` only, when
    given), starting at one chosen by the session seed and moving one template on per draw; a template that
    cannot be asked about this input is skipped. None when no template can be asked."""
    candidates = [
        template
        for template in engine_questions.templates_for(section)
        if isinstance(context, template.context) and (templates is None or template.id in templates)
    ]
    if not candidates:
        return None
    start = derived_seed(seed, gate, "start") % len(candidates)
    question_seed = derived_seed(seed, gate, draw)
    for step in range(len(candidates)):
        template = candidates[(start + draw + step) % len(candidates)]
        try:
            return template.generate(context, question_seed)
        except EngineInputError as error:
            if error.code != "question_not_applicable":
                raise
    return None


def identity(gate: str, question: Question) -> str:
    """What makes two questions the same one: a changed scenario changes the answer, so the identity."""
    described = repr(
        (
            gate,
            question.template_id,
            question.seed,
            tuple(question.params.items()),
            question.options,
            question.correct_option,
            question.answer,
        )
    )
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def page_of(section: str) -> str:
    """The page key an engine section belongs to: "walk.2" -> "walkthrough", "softmax" -> "softmax"."""
    prefix = section.split(".")[0]
    return SECTION_PAGES.get(prefix, prefix)


# --- wording: the question, its options, the feedback, all filled with formatted params ---


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
    from ui.i18n import LANGUAGES

    specific = f"quiz.mistake.{key}.{template_id}"
    return specific if specific in LANGUAGES[state.current_language()] else f"quiz.mistake.{key}"


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
        out.append((f"{OPTION_LETTERS[index]}. {shown}", mistake_text(question, key, shown, markdown) if key else ""))
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


def typed_number(text: str, lang: str | None = None) -> float:
    """A typed answer as a number: "0,954" and "0.954", a true minus sign, thousands written either way; a
    separator before three digits is read as decimal when it is the reader's decimal separator (as the app
    writes numbers), and refused as ambiguous otherwise (engine.scenario.parse_number)."""
    cleaned = str(text).strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "")
    if "," in cleaned and "." in cleaned:  # 1.234,5 or 1,234.5: the last mark is the decimal one
        decimal = "," if cleaned.rfind(",") > cleaned.rfind(".") else "."
        cleaned = cleaned.replace("." if decimal == "," else ",", "").replace(decimal, ".")
    reader = lang if lang is not None else state.current_language()
    return parse_number(cleaned, decimal=numbers.decimal_separator(reader))


# --- the gate ---


def gate_ui(
    section: str,
    context: object,
    *,
    key: str | None = None,
    templates: Sequence[str] | None = None,
    page: str | None = None,
) -> bool:
    """Ask one question about `context` before the step `section` shows; True once the step may show.

    `key` names this gate (default: the section; two gates on one section need two keys), `templates` limits
    the templates asked, `page` is the page key the export names (default: from the section)."""
    if not state.questions_on():
        return True
    gate = key or section
    current = book()
    question = pick_question(
        section, context, seed=current.seed, gate=gate, draw=current.draws.get(gate, 0), templates=templates
    )
    if question is None:
        return True
    current.current[gate] = question
    ident = identity(gate, question)
    where = page or page_of(section)
    if state.presentation_mode():
        _lecture_ui(question, gate, ident, where, context)
    else:
        _student_ui(question, gate, ident, where, context)
    record = current.records.get(ident)
    return record is not None and record.revealed


def widget_key(gate: str, ident: str, name: str) -> str:
    """The key of one of a question's widgets: new for every question, so a fresh question starts empty."""
    return f"quiz_{gate.replace('.', '_')}_{ident}_{name}"


def _record(question: Question, gate: str, ident: str, page: str) -> Record:
    records = book().records
    if ident not in records:
        records[ident] = Record(question, gate, page)
    return records[ident]


def _full_rerun() -> None:
    """After an answer the sidebar's tally changes: rerun the whole page, also from inside a fragment."""
    st.rerun()


def _on_check(question: Question, gate: str, ident: str, page: str) -> None:
    current = book()
    current.errors.pop(ident, None)
    response: float | int  # the option index picked, or the number typed
    if question.kind == Kind.CHOICE:
        picked = state.widget_value(widget_key(gate, ident, "choice"))
        if picked is None:
            current.errors[ident] = ("pick_one", {})
            return
        typed, response = str(picked), int(picked)
    else:
        typed = str(state.widget_value(widget_key(gate, ident, "number"), "") or "")
        try:
            response = typed_number(typed, state.current_language())
        except EngineInputError as error:
            current.errors[ident] = (error.code, {"value": typed[:40]})
            return
    record = _record(question, gate, ident, page)
    record.attempts.append(Attempt(typed, engine_questions.grade(question, response)))
    _full_rerun()


def _on_show(question: Question, gate: str, ident: str, page: str) -> None:
    _record(question, gate, ident, page).shown = True
    _full_rerun()


def _on_another(gate: str) -> None:
    draws = book().draws
    draws[gate] = draws.get(gate, 0) + 1


def _given_ui(question: Question, context: object) -> None:
    """The numbers a question is worked out from, when the hidden step is where they would be read."""
    names = GIVEN_MATRICES.get(question.template_id)
    if not names or not isinstance(context, Scenario):
        return
    result = context.run()
    st.caption(t("quiz.given.title"))
    columns = st.columns(len(names))
    for column, name in zip(columns, names, strict=True):
        with column:
            st.markdown(t(f"quiz.given.{name}"))
            table_ui(_given_frame(name, context, result), 3)


def _given_frame(name: str, scenario: Scenario, result) -> pd.DataFrame:
    import pandas as pd  # here, as in ui.tables: the home page imports this module and draws no table

    if name.startswith("w_"):
        matrix = scenario.matrix(name)  # (d_model, d_out)
        frame = pd.DataFrame(matrix, columns=[f"d{j}" for j in range(matrix.shape[1])])
        frame.insert(0, "", [f"x{i}" for i in range(matrix.shape[0])])
        return frame
    matrix = scenario.x if name == "x" else getattr(result, name)  # (n, ·)
    matrix = np.where(np.isfinite(matrix), matrix, np.nan)  # a masked score is shown as "—"
    if name in ("scores", "scaled_scores", "weights"):
        columns = [token_text(token) for token in scenario.tokens]
    else:
        columns = [f"d{j}" for j in range(matrix.shape[1])]
    frame = pd.DataFrame(matrix, columns=columns)
    # allow_duplicates: a token may be named like the first column's header ("token")
    frame.insert(0, t("quiz.given.token"), [token_text(token) for token in scenario.tokens], allow_duplicates=True)
    return frame


def _choice_label(question: Question):
    """The options' labels, written once in the reader's language (a format function may run outside the page)."""
    labels = [f"{OPTION_LETTERS[index]}. {option_text(question, index)}" for index in range(len(question.options))]
    return labels.__getitem__


def _student_ui(question: Question, gate: str, ident: str, page: str, context: object) -> None:
    current = book()
    record = current.records.get(ident)
    args = (question, gate, ident, page)
    with st.container(border=True, key=f"quiz_box_{gate.replace('.', '_')}"):
        st.markdown(f"**{t('quiz.title')}**")
        st.markdown(question_text(question))
        _given_ui(question, context)
        if record is None or not record.settled:
            with st.form(widget_key(gate, ident, "form"), border=False):
                if question.kind == Kind.CHOICE:
                    st.radio(
                        t("quiz.your_choice"),
                        options=list(range(len(question.options))),
                        format_func=_choice_label(question),
                        index=None,
                        key=widget_key(gate, ident, "choice"),
                    )
                else:
                    st.text_input(
                        t("quiz.your_answer"),
                        key=widget_key(gate, ident, "number"),
                        max_chars=MAX_NUMBER_CHARS,  # a longer number is refused anyway: the box says so first
                        placeholder=t("quiz.placeholder" if question.decimals else "quiz.placeholder_whole"),
                        help=t("quiz.number_help"),
                    )
                    st.caption(tolerance_text(question))
                st.form_submit_button(t("quiz.check"), type="primary", on_click=_on_check, args=args)
        error = current.errors.get(ident)
        if error is not None:
            code, params = error
            st.warning(t(f"quiz.error.{code}", value=md_literal(params.get("value", ""))))
        if record is not None and record.attempts:
            _attempt_feedback_ui(question, record)
        if record is not None and record.shown and not record.right:
            st.info(t("quiz.shown", answer=answer_text(question)))
        if record is not None and record.settled:
            _others_ui(question)
        with st.container(horizontal=True):
            st.button(
                t("quiz.another"),
                key=widget_key(gate, ident, "another"),
                on_click=_on_another,
                args=(gate,),
                icon=":material/refresh:",
            )
            if record is None or not record.settled:
                st.button(
                    t("quiz.show_me"),
                    key=widget_key(gate, ident, "show"),
                    on_click=_on_show,
                    args=args,
                    icon=":material/visibility:",
                )


def _attempt_feedback_ui(question: Question, record: Record) -> None:
    last = record.attempts[-1]
    text = feedback_text(question, last)
    if last.grade.right:
        tries = len(record.attempts)
        st.success(text if tries == 1 else f"{text} {t('quiz.feedback.after_tries', n=numbers.count(tries))}")
    else:
        st.error(f"{text} {t('quiz.feedback.try_again')}")


def _others_ui(question: Question) -> None:
    """Once settled: every other answer the question knows and what it would have meant."""
    explained = [(shown, text) for shown, text in mistaken_values(question) if text]
    if not explained:
        return
    with st.expander(t("quiz.others")):
        st.markdown("\n".join(f"- **{shown}**: {text}" for shown, text in explained))


def _lecture_ui(question: Question, gate: str, ident: str, page: str, context: object) -> None:
    """The question large, its options listed, no input: the lecturer reveals it with a key."""
    record = book().records.get(ident)
    revealed = record is not None and record.revealed
    st.html(_LECTURE_CSS)
    with st.container(border=True, key=f"quiz_lecture_{gate.replace('.', '_')}"):
        st.subheader(question_text(question), anchor=False)
        _given_ui(question, context)
        if question.kind == Kind.CHOICE:
            lines = []
            for index in range(len(question.options)):
                line = f"{OPTION_LETTERS[index]}. {option_text(question, index)}"
                lines.append(f"**{line}** ✔" if revealed and index == question.correct_option else line)
            st.markdown("  \n".join(lines))
        else:
            st.markdown(t("quiz.lecture.numeric", tolerance=tolerance_text(question)))
        if revealed:
            answer = answer_text(question)
            if question.kind == Kind.CHOICE:  # the letter the class calls out
                assert question.correct_option is not None
                answer = f"{OPTION_LETTERS[question.correct_option]}. {answer}"
            st.success(t("quiz.lecture.answer", answer=answer))
            explained = [(shown, text) for shown, text in mistaken_values(question) if text]
            if explained:
                st.markdown("\n".join(f"- **{shown}**: {text}" for shown, text in explained))
            st.button(t("quiz.another"), key=widget_key(gate, ident, "another"), on_click=_on_another, args=(gate,))
        else:
            reveal_col, another_col = st.columns([2, 1])
            reveal_col.button(
                t("quiz.lecture.reveal", shortcut=REVEAL_SHORTCUT),
                key=widget_key(gate, ident, "reveal"),
                on_click=_on_show,
                args=(question, gate, ident, page),
                shortcut=REVEAL_SHORTCUT,
                type="primary",
            )
            another_col.button(
                t("quiz.another"), key=widget_key(gate, ident, "another"), on_click=_on_another, args=(gate,)
            )
            st.caption(t("quiz.lecture.keys", shortcut=REVEAL_SHORTCUT))


# --- what the pages ask about, read from their own controls ---


def softmax_row(scores) -> SoftmaxRow | None:
    """The softmax page's scores at its temperature slider's value (1 until the slider has been shown)."""
    try:
        return SoftmaxRow(tuple(scores), float(state.widget_value("softmax_temperature", 1.0) or 1.0))
    except EngineInputError:
        return None  # scores no question can be about: the gate lets the page show


# The √d_k page's gated sections: the templates each asks, and what it is about, from the section's own
# controls (their defaults as the page sets them: 200 steps, the measured table up to d_k = 1024, a row at 256).
SCALING_GATES: dict[str, tuple[str, ...]] = {
    "walk": ("scaling.walk_distance",),
    "experiment": ("scaling.spread", "scaling.unit_divisor", "scaling.scaled_spread"),
    "row": ("scaling.no_divisor", "scaling.dk_divisor"),
}


def scaling_gate_ui(section: str, setup: ScalingSetup) -> bool:
    """The gate of one section of the √d_k page (True at once for the sections that ask nothing)."""
    if section not in SCALING_GATES:
        return True
    return gate_ui("scaling", setup, key=f"scaling.{section}", templates=SCALING_GATES[section])


# --- the sidebar: on/off, the tally, the export ---


def sidebar_ui() -> None:
    """The questions switch and, when there is one, the tally with its downloads: call inside the sidebar."""
    st.toggle(
        t("quiz.sidebar.toggle"),
        value=True,
        key=state.QUESTIONS_ON,
        help=t("quiz.sidebar.toggle_help"),
        bind="query-params",
    )
    tally_ui()


def tally_ui() -> None:
    """Answered, right, first-try right, and the answers as CSV and JSON for a student to hand in."""
    current = ANSWERS.get()
    if not isinstance(current, Book) or not current.records:
        return
    answered, right, first = current.tally()
    st.caption(
        t("quiz.tally", answered=numbers.count(answered), right=numbers.count(right), first=numbers.count(first))
    )
    columns = st.columns(2)
    for column, (kind, data, mime) in zip(
        columns,
        (("csv", export_csv(current), "text/csv"), ("json", export_json(current), "application/json")),
        strict=True,
    ):
        column.download_button(
            kind.upper(),
            data=data,
            file_name=f"{t('quiz.export.file')}.{kind}",
            mime=mime,
            on_click="ignore",
            icon=":material/download:",
            key=f"quiz_download_{kind}",
            help=t("quiz.export.help"),
        )


def page_title(page: str) -> str:
    """A page's title in the reader's language (its key when it is not a registered page)."""
    return t(f"page.{page}") if page in PAGE_BY_KEY else page


def answer_as_typed(question: Question, attempt: Attempt) -> str:
    """An answer as the student gave it: the text typed, or the option picked."""
    if question.kind == Kind.CHOICE:
        index = int(attempt.grade.response)
        return f"{OPTION_LETTERS[index]}. {option_text(question, index, markdown=False)}"
    return attempt.typed


def export_rows(current: Book) -> list[dict]:
    """One row per question answered or shown, in the reader's language, plain text."""
    rows = []
    for record in current.records.values():
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


def export_json(current: Book) -> str:
    """The tally and every question, for a student to hand in."""
    answered, right, first = current.tally()
    document = {
        "language": state.current_language(),
        "answered": answered,
        "right": right,
        "first_try_right": first,
        "questions": export_rows(current),
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def export_csv(current: Book) -> str:
    """The same as a spreadsheet: headers and outcomes in the reader's language, answers joined by " | ", no cell a
    spreadsheet could take for a formula (`engine.spreadsheet`)."""
    columns = ("page", "template", "question", "answers", "right_answer", "outcome", "first_try_right")
    rows = [[t(f"quiz.export.col.{name}") for name in columns]]
    for row in export_rows(current):
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
