"""A question's answer field, the same wherever a student answers: the options as a radio (each with its letter),
or a number typed in the reader's convention with what is accepted as right said below it. Drawn inside the
caller's form (ui.questions for a student alone, ui.live.rounds for a class's round)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from engine.limits import MAX_NUMBER_CHARS
from engine.questions import Kind, Question
from ui.i18n import t
from ui.question_wording import lettered_option, tolerance_text


def choice_label(question: Question) -> Callable[[int], str]:
    """The options' labels, written once in the reader's language (a format function may run outside the page)."""
    labels = [lettered_option(question, index) for index in range(len(question.options))]
    return labels.__getitem__


def answer_inputs_ui(question: Question, choice_key: str, number_key: str) -> None:
    """The radio of a choice question (keyed `choice_key`), or the number field of a numeric one (`number_key`)."""
    if question.kind == Kind.CHOICE:
        st.radio(
            t("quiz.your_choice"),
            options=list(range(len(question.options))),
            format_func=choice_label(question),
            index=None,
            key=choice_key,
        )
        return
    st.text_input(
        t("quiz.your_answer"),
        key=number_key,
        max_chars=MAX_NUMBER_CHARS,  # a longer number is refused anyway: the box says so first
        placeholder=t("quiz.placeholder" if question.decimals else "quiz.placeholder_whole"),
        help=t("quiz.number_help"),
    )
    st.caption(tolerance_text(question))
