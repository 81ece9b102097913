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

This module only draws. What is asked, graded and counted is ui/question_book.py (pure, frozen data); how it is
worded is ui/question_wording.py. State: "answers" (see ui/state.py) holds the session's `Book`. Nothing leaves
the session except through the student's own download of the tally (`tally_ui`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from engine import AttentionResult, EngineInputError, Scenario
from engine.questions import Kind, Question, ScalingSetup, SoftmaxRow
from ui import numbers, state, url
from ui.answer_inputs import answer_inputs_ui
from ui.derivation import token_text
from ui.i18n import t
from ui.live import follow, rounds
from ui.question_book import Book, GateView, Record, gate_view, graded, page_of, pick_question
from ui.question_wording import (
    answer_text,
    export_csv,
    export_json,
    feedback_text,
    lettered_option,
    mistaken_values,
    question_text,
    tolerance_text,
)
from ui.share import tally_downloads_ui
from ui.shared import SharedCache, freeze
from ui.tables import markdown_table
from ui.text import md_literal

if TYPE_CHECKING:
    import pandas as pd

REVEAL_SHORTCUT = "S"  # not R or C (Streamlit's), Esc, the arrows, Page or Space (stepping)
PIPELINE_TEMPLATES = ("pipeline.most_attended",)  # before "what attention did": read the weights above
# before the tokens: how many there will be, a positional encoding, an entry of x (each question gives its operands)
PIPELINE_VECTOR_TEMPLATES = ("pipeline.token_count", "pipeline.pe_value", "pipeline.x_entry")

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
# Those tables' markdown by (matrix, scenario, language), shared by every session: a live class's followers all show
# the same ones at the same moment (making each took a DataFrame and an attention run per follower: 10 % of the
# server's CPU over a 100-student lecture, py-spy).
GIVEN_TABLES: SharedCache[str] = SharedCache(256)

# Presentation mode: the question and its options larger than the page's text, to be read from the back row.
_LECTURE_CSS = """
<style>
[class*="st-key-quiz_lecture_"] p, [class*="st-key-quiz_lecture_"] li { font-size: 28px; line-height: 1.45; }
[class*="st-key-quiz_lecture_"] h3 { font-size: 34px; }
[class*="st-key-quiz_lecture_"] button p { font-size: 22px; }
</style>
"""

ANSWERS: state.Slot[Book | None] = state.Slot("answers", lambda: None)  # the session's Book (see ui/state.py)


def book() -> Book:
    """The session's Book, started with a fresh random seed on first use."""
    current = ANSWERS.get()
    if not isinstance(current, Book):
        current = Book(seed=secrets.randbits(32))
        ANSWERS.set(current)
    return current


def walkthrough_questions(scenario: Scenario) -> dict[int, Question | None]:
    """The question each walkthrough part asks this reader about `scenario` now: the same draw as its gate."""
    current = book()
    return {
        part: pick_question(
            f"walk.{part}", scenario, seed=current.seed, gate=f"walk.{part}", draw=current.draw(f"walk.{part}")
        )
        for part in range(1, state.PARTS + 1)
    }


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
    gate = key or section
    followed = rounds.class_question(gate, follow.current_page(), context)
    if followed is not None:  # a student following a live class: the lecturer's question, answered per round
        return rounds.student_gate_ui(gate, *followed, context, given_ui=_given_ui)
    if not state.questions_on():
        return True
    current = book()
    question = pick_question(
        section, context, seed=current.seed, gate=gate, draw=current.draw(gate), templates=templates
    )
    asks_class = rounds.asked(gate, question)
    if question is None:
        return True
    current = current.asking(gate, question)
    ANSWERS.set(current)
    if asks_class:  # the lecturer of a live class: the class's reveal decides, the projector shows the answers
        view = gate_view(current, gate, page or page_of(section), question, revealed=rounds.round_revealed())
        _lecture_ui(view, context)
        rounds.projector_ui(gate, question)
        return view.revealed
    view = gate_view(current, gate, page or page_of(section), question)
    if state.presentation_mode():
        _lecture_ui(view, context)
    else:
        _student_ui(view, context)
    return view.revealed


def widget_key(gate: str, ident: str, name: str) -> str:
    """The key of one of a question's widgets: new for every question, so a fresh question starts empty."""
    return f"quiz_{gate.replace('.', '_')}_{ident}_{name}"


def _full_rerun() -> None:
    """After an answer the sidebar's tally changes: rerun the whole page, also from inside a fragment."""
    st.rerun()


def _on_check(gate: str, page: str, question: Question, ident: str) -> None:
    current = book()
    if question.kind == Kind.CHOICE:
        response = state.widget_value(widget_key(gate, ident, "choice"))
        if response is None:
            ANSWERS.set(current.refused(gate, question, "pick_one", {}))
            return
    else:
        response = str(state.widget_value(widget_key(gate, ident, "number"), "") or "")
    try:
        attempt = graded(question, response, state.current_language())
    except EngineInputError as error:
        ANSWERS.set(current.refused(gate, question, error.code, {"value": str(response)[:40]}))
        return
    ANSWERS.set(current.answered(gate, page, question, attempt))
    _full_rerun()


def _on_show(gate: str, page: str, question: Question) -> None:
    ANSWERS.set(book().shown(gate, page, question))
    if rounds.lecturing():
        rounds.reveal()  # the class's round too: it takes no more answers
    _full_rerun()


def _on_another(gate: str) -> None:
    ANSWERS.set(book().drawn_again(gate))


def _given_ui(question: Question, context: object) -> None:
    """The numbers a question is worked out from, when the hidden step is where they would be read."""
    names = GIVEN_MATRICES.get(question.template_id)
    if not names or not isinstance(context, Scenario):
        return
    lang = state.current_language()
    scenario_key = freeze(context)
    st.caption(t("quiz.given.title"))
    columns = st.columns(len(names))
    for column, name in zip(columns, names, strict=True):
        with column:
            st.markdown(t(f"quiz.given.{name}"))
            table = GIVEN_TABLES.get((name, scenario_key, lang), partial(_given_table, name, context))
            if table:
                st.markdown(table)


def _given_table(name: str, scenario: Scenario) -> str:
    """One of the numbers a question is worked out from, as the markdown table the question shows."""
    return markdown_table(_given_frame(name, scenario, scenario.run()), 3)


def _given_frame(name: str, scenario: Scenario, result: AttentionResult) -> pd.DataFrame:
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


def _student_ui(view: GateView, context: object) -> None:
    question, record, gate, ident = view.question, view.record, view.gate, view.ident
    with st.container(border=True, key=f"quiz_box_{gate.replace('.', '_')}"):
        st.markdown(f"**{t('quiz.title')}**")
        st.markdown(question_text(question))
        _given_ui(question, context)
        if not view.settled:
            with st.form(widget_key(gate, ident, "form"), border=False):
                answer_inputs_ui(question, widget_key(gate, ident, "choice"), widget_key(gate, ident, "number"))
                st.form_submit_button(
                    t("quiz.check"), type="primary", on_click=_on_check, args=(gate, view.page, question, ident)
                )
        if view.error is not None:
            code, params = view.error
            st.warning(t(f"quiz.error.{code}", value=md_literal(params.get("value", ""))))
        if record is not None and record.attempts:
            _attempt_feedback_ui(question, record)
        if record is not None and record.shown and not record.right:
            st.info(t("quiz.shown", answer=answer_text(question)))
        if view.settled:
            _others_ui(question)
        with st.container(horizontal=True):
            st.button(
                t("quiz.another"),
                key=widget_key(gate, ident, "another"),
                on_click=_on_another,
                args=(gate,),
                icon=":material/refresh:",
            )
            if not view.settled:
                st.button(
                    t("quiz.show_me"),
                    key=widget_key(gate, ident, "show"),
                    on_click=_on_show,
                    args=(gate, view.page, question),
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


def _lecture_ui(view: GateView, context: object) -> None:
    """The question large, its options listed, no input: the lecturer reveals it with a key."""
    question, gate, ident = view.question, view.gate, view.ident
    st.html(_LECTURE_CSS)
    with st.container(border=True, key=f"quiz_lecture_{gate.replace('.', '_')}"):
        st.subheader(question_text(question), anchor=False)
        _given_ui(question, context)
        if question.kind == Kind.CHOICE:
            lines = []
            for index in range(len(question.options)):
                line = lettered_option(question, index)
                lines.append(f"**{line}** ✔" if view.revealed and index == question.correct_option else line)
            st.markdown("  \n".join(lines))
        else:
            st.markdown(t("quiz.lecture.numeric", tolerance=tolerance_text(question)))
        if view.revealed:
            answer = answer_text(question)
            if question.correct_option is not None:  # a choice: with the letter the class calls out
                answer = lettered_option(question, question.correct_option)
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
                args=(gate, view.page, question),
                shortcut=REVEAL_SHORTCUT,
                type="primary",
            )
            another_col.button(
                t("quiz.another"), key=widget_key(gate, ident, "another"), on_click=_on_another, args=(gate,)
            )
            st.caption(t("quiz.lecture.keys", shortcut=REVEAL_SHORTCUT))


# --- what the pages ask about, read from their own controls ---


def softmax_row(scores: Iterable[float]) -> SoftmaxRow | None:
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
    url.toggle_ui(t("quiz.sidebar.toggle"), state.QUESTIONS_ON, help=t("quiz.sidebar.toggle_help"))
    tally_ui()


def tally_ui() -> None:
    """Answered, right, first-try right, and the answers as CSV and JSON for a student to hand in."""
    current = ANSWERS.get()
    if not isinstance(current, Book) or not current.records:
        return
    records = list(current.records.values())
    answered, right, first = current.tally()
    st.caption(
        t("quiz.tally", answered=numbers.count(answered), right=numbers.count(right), first=numbers.count(first))
    )
    tally_downloads_ui(
        export_csv(records),
        export_json(records),
        file_name=t("quiz.export.file"),
        key="quiz_download",
        help=t("quiz.export.help"),
    )
