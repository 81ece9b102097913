"""The live class's question rounds (issue 28): the lecturer's gate asks the class, the projector shows the answers,
a following student answers and reads their feedback.

Questions: the lecturer's gate publishes its QuestionRef; a following student at that gate gets the same question
(`ui.questions.gate_ui` calls `student_gate_ui`), answers once per round, and after the reveal reads their own
feedback. The projector shows answered-of-joined and the distribution, the right answer only after the reveal, every
1.5 s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from classroom.api import MAX_ANSWER_CHARS, ClassError, ClassState, ClassStore, QuestionRef
from engine import EngineInputError
from engine.questions import Kind, Question
from ui import charts, live_store, numbers, state
from ui.answer_inputs import answer_inputs_ui
from ui.i18n import t
from ui.live.follow import publish
from ui.live.seats import ASKED, ERROR, GATES, PAGE, PROJECTOR_EVERY, STUDENT, errors_ui, lecturer, refused, student
from ui.question_book import graded
from ui.question_wording import (
    answer_text,
    feedback_text,
    lettered_option,
    mistake_text,
    number_text,
    option_letter,
    question_text,
)
from ui.text import md_literal
from ui.view_models.live import (
    Distribution,
    Group,
    StudentSeat,
    answer_shown,
    own_answer,
    projector_rounds,
    question_ref,
    same_question,
    sent_answer,
    shown_groups,
)

_ANSWER_ERROR: state.Slot[tuple[str, dict] | None] = state.Slot("live_answer_error", lambda: None)


# --- questions: the lecturer's gate ---


def lecturing() -> bool:
    """Whether this session teaches a class (its gates ask the class)."""
    return lecturer() is not None


def asked(gate: str, question: Question | None) -> bool:
    """The lecturer's gate `gate` shows `question`: the first gate drawn in a run asks the class (publishing the
    view with it). True when this gate asks the class."""
    drawn = GATES.get()
    first = not drawn or drawn[0] == gate
    GATES.set([*drawn, gate])
    if not first or lecturer() is None:
        return False
    ASKED.set(None if question is None else (PAGE.get(), state.step(), question_ref(gate, question), question))
    publish()
    return question is not None


def class_rounds() -> ClassState | None:
    """The lecturer's class as it is now (None when it is gone: said once)."""
    seat = lecturer()
    if seat is None:
        return None
    try:
        return live_store.store().state(seat.code)
    except ClassError as error:
        refused(error)
        return None


def round_revealed() -> bool:
    """Whether the lecturer revealed the current round of the class's question (the step shows its answer)."""
    current = class_rounds()
    rnd = current.current_round if current else None
    return bool(rnd and rnd.revealed)


def _as_lecturer(action: Callable[[ClassStore, str, str], object]) -> None:
    """A lecturer's write to the class (reveal, vote again); refused when this session teaches none."""
    seat = lecturer()
    if seat is None:
        ERROR.set(("not_lecturer", {}))
        return
    try:
        action(live_store.store(), seat.code, seat.token)
    except ClassError as error:
        refused(error)


def reveal() -> None:
    """The lecturer's reveal (the button and the S key): the current round takes no more answers."""
    _as_lecturer(lambda store, code, token: store.reveal(code, token))


def _vote_again() -> None:
    _as_lecturer(lambda store, code, token: store.vote_again(code, token))
    st.rerun()


def group_label(question: Question, group: Group, marked: bool) -> str:
    """A group as the projector labels it: the option's letter or the value; ✔ on the right one after the reveal."""
    if group.option is not None:
        label = option_letter(group.option)
    elif group.value is not None:
        label = number_text(group.value, question.decimals)
    else:
        label = t("live.other")
    return f"{label} ✔" if marked and group.right else label


def projector_ui(gate: str, question: Question) -> None:
    """Under the lecturer's question: the class's answers arriving (answered of joined, the distribution per
    round), the right answer and each misconception's share after the reveal, and "vote again"."""
    seat = lecturer()
    if seat is None:
        return
    _projector_fragment_ui(gate, question)


@st.fragment(run_every=PROJECTOR_EVERY)
def _projector_fragment_ui(gate: str, question: Question) -> None:
    current = class_rounds()
    if current is None or current.view.question is None:
        return
    ref = current.view.question
    if ref != question_ref(gate, question):
        return
    marked = answer_shown(current.rounds)
    rounds = projector_rounds(question, current.rounds, marked)
    if not rounds:
        return
    now = rounds[-1]
    st.markdown(
        t(
            "live.answered",
            round=numbers.count(now.number),
            answered=numbers.count(now.answered),
            joined=numbers.count(current.students),
        )
    )
    groups = shown_groups(rounds)
    labels = [group_label(question, group, marked) for group in groups]
    bars = {
        t("live.round", n=numbers.count(d.number)): [100 * d.share(c) for g, c in d.counts if g in groups]
        for d in rounds
    }
    texts = {
        t("live.round", n=numbers.count(d.number)): [numbers.percent(d.share(c), 0) for g, c in d.counts if g in groups]
        for d in rounds
    }
    charts.show_bars(
        bars,
        labels,
        title=t("live.chart_title"),
        alt=distribution_text(question, rounds, groups, marked),
        key=f"live_bars_{gate.replace('.', '_')}",
        y_title=t("live.chart_axis"),
        y_range=(0.0, 115.0),
        texts=texts,
    )
    if marked:
        _misconceptions_ui(question, rounds)
    if len(current.rounds) == 1:
        st.button(
            t("live.vote_again"),
            icon=":material/how_to_vote:",
            key=f"live_vote_again_{gate.replace('.', '_')}",
            on_click=_vote_again,
        )


def distribution_text(question: Question, rounds: list[Distribution], groups: list[Group], marked: bool) -> str:
    """The chart in words (its alternative text): each round's answers and each group's share."""
    lines = []
    for d in rounds:
        shares = "; ".join(
            f"{group_label(question, g, marked)}: {numbers.percent(d.share(c), 0)}" for g, c in d.counts if g in groups
        )
        lines.append(
            t("live.chart_alt", round=numbers.count(d.number), answered=numbers.count(d.answered), shares=shares)
        )
    return " ".join(lines)


def _misconceptions_ui(question: Question, rounds: list[Distribution]) -> None:
    """After the reveal: the right answer, and each named misconception with its share in each round."""
    st.success(t("live.right", answer=answer_text(question)))
    lines = []
    for group, _ in rounds[0].counts:
        if group.right or group.misconception is None:
            continue
        shares = ", ".join(numbers.percent(d.share(dict(d.counts)[group]), 0) for d in rounds)
        shown = group_label(question, group, False)
        value = number_text(group.value, question.decimals) if group.value is not None else shown
        lines.append(f"- **{md_literal(shown)}** ({shares}): {mistake_text(question, group.misconception, value)}")
    if lines:
        st.markdown("\n".join(lines))


# --- questions: a following student's gate ---


def class_question(gate: str, page: str, context: object) -> tuple[QuestionRef, Question] | None:
    """The lecturer's question, when this session follows the class and this gate is the one it asks at."""
    seat = student()
    if seat is None or not seat.following or seat.state is None:
        return None
    view = seat.state.view
    if view.question is None or view.question.gate != gate or view.page != page:
        return None
    question = same_question(view.question, context)
    return None if question is None else (view.question, question)


def _answer_key(gate: str, number: int, name: str) -> str:
    return f"live_answer_{gate.replace('.', '_')}_{number}_{name}"


def _send_answer(gate: str, ref: QuestionRef, question: Question, number: int) -> None:
    seat = student()
    if seat is None:
        return
    if question.kind == Kind.CHOICE:
        response = state.widget_value(_answer_key(gate, number, "choice"))
        if response is None:
            _ANSWER_ERROR.set(("pick_one", {}))
            return
    else:
        response = str(state.widget_value(_answer_key(gate, number, "number"), "") or "")
    try:
        text = sent_answer(question, response, state.current_language())
        live_store.store().answer(seat.code, seat.student_id, ref, number, text[:MAX_ANSWER_CHARS])
    except EngineInputError as error:
        _ANSWER_ERROR.set(("unreadable", {"value": str(response)[:40], "engine": error.code}))
        return
    except ClassError as error:
        if error.code in ("class_unknown", "class_ended"):
            refused(error)
        else:  # an answer after the reveal, to another question, too long: said by the question, nothing counted
            _ANSWER_ERROR.set((error.code, dict(error.params)))
        return
    sent = {**seat.sent_at, (ref, number): seat.seen_version}  # a later read without it: the answers started afresh
    STUDENT.set(replace(seat, responses={**seat.responses, (ref, number): str(response)}, sent_at=sent))


def student_gate_ui(
    gate: str, ref: QuestionRef, question: Question, context: object, given_ui: Callable[[Question, object], None]
) -> bool:
    """The class's question at a following student's gate: answer once per round ("answer received", changeable
    until the reveal), then their own feedback. True once the lecturer revealed the round."""
    seat = student()
    assert seat is not None and seat.state is not None
    rnd = seat.state.current_round
    number = rnd.number if rnd else 1
    shown = bool(rnd and rnd.revealed)
    with st.container(border=True, key=f"live_quiz_{gate.replace('.', '_')}"):
        st.markdown(f"**{t('live.quiz.title', round=numbers.count(number))}**")
        st.markdown(question_text(question))
        given_ui(question, context)
        given = own_answer(seat, ref, number, question, numbers.decimal_separator())
        # Three slots drawn in every run, before and after the reveal alike: the form, a refusal, the status (answer
        # received, then the feedback). With the form gone after the reveal the box had one element fewer, and the
        # last one before it ("answer received", changeable) could stay on a phone beside the feedback: a part run
        # left it stale (CI, and 2 of 5 runs here under load).
        form_slot, error_slot, status_slot = st.empty(), st.empty(), st.empty()
        if not shown:
            with form_slot.container(), st.form(_answer_key(gate, number, "form"), border=False):
                answer_inputs_ui(question, _answer_key(gate, number, "choice"), _answer_key(gate, number, "number"))
                st.form_submit_button(
                    t("live.quiz.send"),
                    type="primary",
                    on_click=_send_answer,
                    args=(gate, ref, question, number),
                    width="stretch",
                )
        with error_slot.container():
            errors_ui(_ANSWER_ERROR)
        with status_slot.container():
            if shown:
                _student_feedback_ui(question, given, ref, number, seat)
            elif given is not None:
                st.success(t("live.quiz.received", answer=_given_text(question, given)))
            else:
                st.caption(t("live.quiz.waiting"))
    return shown


def _given_text(question: Question, given: str) -> str:
    if question.kind == Kind.CHOICE:
        return lettered_option(question, int(given))
    return md_literal(given)


def _student_feedback_ui(
    question: Question, given: str | None, ref: QuestionRef, number: int, seat: StudentSeat
) -> None:
    """After the reveal: the student's own answer graded, naming their mistake (their round-1 answer if they sent
    none in this round)."""
    if given is None and number > 1:
        given = own_answer(seat, ref, number - 1, question, numbers.decimal_separator())
    if given is None:
        st.info(t("live.quiz.no_answer", answer=answer_text(question)))
        return
    response: int | str = int(given) if question.kind == Kind.CHOICE else given
    try:
        attempt = graded(question, response, state.current_language())
    except EngineInputError:
        st.info(t("quiz.shown", answer=answer_text(question)))
        return
    text = feedback_text(question, attempt)
    (st.success if attempt.grade.right else st.error)(text)
