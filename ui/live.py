"""The live class: the lecturer drives, the class follows and votes (issue 28). The thin `*_ui` half; the logic is in
ui/view_models/live.py and the class's shared state behind `ui.live_store.store()` (classroom/api.py).

Every page run starts with `start_ui` (ui.shell): the private lecturer link's token is taken (and removed from the
address bar), a student joins the class the URL names (?class=CODE&me=ID, kept by ui.url), and a follower is moved
to the lecturer's page, part and scenario when the lecturer's view changed. The lecturer's view is published at the
end of the shell (`publish`), by the walkthrough's fragment after a change of part, and by a question's gate
(`asked`), each time only when it changed. A follower's sidebar polls the class's version every second
(`follow_poll_ui`); the lecturer's sidebar counts the students, and the projector the answers, every 1.5 s.

Questions: the lecturer's gate publishes its QuestionRef; a following student at that gate gets the same question
(`ui.questions.gate_ui` calls `student_gate_ui`), answers once per round, and after the reveal reads their own
feedback. The projector shows answered-of-joined and the distribution, the right answer only after the reveal.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from classroom import tally
from classroom.api import ERROR_CODES, MAX_ANSWER_CHARS, Asking, ClassError, ClassState, ClassStore, QuestionRef, View
from engine import EngineInputError
from engine.questions import Kind, Question
from engine.questions.serial import question_json
from engine.scenario_io import decode_scenario, encode_scenario
from ui import charts, live_store, numbers, share, state, url
from ui.answer_inputs import answer_inputs_ui
from ui.i18n import t
from ui.pages import PAGE_BY_KEY
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
    LECTURER_PARAM,
    Distribution,
    FollowPlan,
    Group,
    LecturerSeat,
    StudentSeat,
    answer_shown,
    app_base,
    follow_plan,
    follower_redraws,
    follows_in_part,
    join_link,
    lecturer_link,
    new_student_id,
    normalised_code,
    own_answer,
    projector_rounds,
    question_ref,
    same_question,
    sent_answer,
    shown_groups,
    tally_csv,
    tally_json,
    valid_token,
)

# seconds between a follower's polls of the class's version. Measured (3 followers in Chromium, 30 steps, 2 busy
# cores, load 4-6): the follower shows the lecturer's step after a median 1.04 s, p95 1.22 s at 1 s; 0.93 s and
# 1.20 s at 0.5 s: the page's rerun, not the poll, is most of it, so the poll stays at half the CPU.
FOLLOW_EVERY = 1.0
PROJECTOR_EVERY = 1.5  # seconds between the projector's reads of the answers and the count of students
GONE = ("class_unknown", "class_ended", "class_full")  # refusals that mean this session is in the class no more
TOGGLE = "live_toggle"  # the sidebar switch that opens a class
# said as live.error.<code> too, beside classroom's ERROR_CODES (store_bad_url: store_unavailable for a wrong REDIS_URL)
UI_ERRORS = ("bad_code", "pick_one", "unreadable", "store_bad_url")
QR_DIALOG_WIDTH = 440  # px: fits the dialog on a 1280×720 projector with its title
QR_SCALE = 10  # pixels per QR module: a 33-module code is 410 px wide, scannable from the back of a room
# The key of the fragment that draws the walkthrough's part and its question: a follower's step reruns only it
# (`follow_poll_ui`), not the whole page (sidebar, page top), which the step does not change.
PART_FRAGMENT = "walk_part_fragment"

_LECTURER: state.Slot[LecturerSeat | None] = state.Slot("live_lecturer", lambda: None)
_STUDENT: state.Slot[StudentSeat | None] = state.Slot("live_student", lambda: None)
_ASKED: state.Slot[tuple[str, int | None, QuestionRef, Question] | None] = state.Slot("live_asked", lambda: None)
_CONFIRM_END: state.Slot[bool] = state.Slot("live_confirm_end", lambda: False)
_ENDED_LOG: state.Slot[tuple[Asking, ...]] = state.Slot("live_ended_log", tuple)  # the ended class's, still offered
_GATES: state.Slot[list[str]] = state.Slot("live_gates", list)
_PAGE: state.Slot[str] = state.Slot("live_page", lambda: "home")
_PART_PAGE: state.Slot[str | None] = state.Slot("live_part_page", lambda: None)  # the page whose run drew PART_FRAGMENT
_ERROR: state.Slot[tuple[str, dict] | None] = state.Slot("live_error", lambda: None)
_ANSWER_ERROR: state.Slot[tuple[str, dict] | None] = state.Slot("live_answer_error", lambda: None)


# --- who this session is ---


def lecturer() -> LecturerSeat | None:
    """The class this session teaches, if any."""
    return _LECTURER.get()


def student() -> StudentSeat | None:
    """The class this session follows as a student, if any."""
    seat = _STUDENT.get()
    return seat if lecturer() is None else None


def said(error: ClassError) -> tuple[str, dict]:
    """What a refused class operation says: its live.error.<code> and the params its message takes (a code the app
    does not know is a store that did not answer; a wrong REDIS_URL is a setting to mend, not a Redis that is
    down: trying again does not help)."""
    code = error.code if error.code in ERROR_CODES else "store_unavailable"
    if code == "store_unavailable" and error.params.get("reason") == "bad_url":
        code = "store_bad_url"
    return code, dict(error.params)


def _refused(error: ClassError) -> None:
    """Keep a refused operation's message to say once; a class that is gone is left."""
    _ERROR.set(said(error))
    if error.code in GONE:
        leave()


def error_text(code: str, params: dict | None = None) -> str:
    """A refused class operation in the reader's language (`said` gives its code and params)."""
    params = params or {}
    limit = params.get("limit", 0)
    return t(
        f"live.error.{code}",
        limit=numbers.count(limit if isinstance(limit, int) else 0),
        value=md_literal(params.get("value", "")),
    )


def errors_ui(slot: state.Slot[tuple[str, dict] | None] = _ERROR) -> None:
    """Say once why a class operation was refused (an answer's refusal: by the question, `_ANSWER_ERROR`)."""
    error = slot.get()
    if error is not None:
        slot.set(None)
        st.warning(error_text(*error), icon=":material/groups:")


def leave() -> None:
    """Leave the class (as a student: the id goes too; as the lecturer: the class stays open until it ends)."""
    _STUDENT.set(None)
    _LECTURER.set(None)
    _ASKED.set(None)
    _not_in_the_address_bar()


# --- every page run ---


def start_ui(page: str) -> None:
    """At the start of a page run: the lecturer link's token, a student's join, a follower's move."""
    _PAGE.set(page)
    _PART_PAGE.set(None)
    _GATES.set([])
    _take_lecturer_link()
    code = state.class_code()
    if code is None or lecturer() is not None:
        return
    seat = _STUDENT.get()
    try:
        if seat is None or seat.code != code:
            ident = state.student_id() or new_student_id()
            joined = live_store.store().join(code, ident)
            seat = StudentSeat(code, ident)
            state.set_student_id(ident)
            url.keep_in_url(state.ME)
            seat = replace(seat, seen_version=joined.version, state=joined)
        elif live_store.store().version(code) != seat.seen_version:
            current = live_store.store().state(code)
            seat = replace(seat, seen_version=current.version, state=current)
    except ClassError as error:
        _refused(error)
        return
    _STUDENT.set(seat)
    if seat.following and seat.state is not None and seat.state.view != seat.applied:
        _follow(seat.state.view)


def _take_lecturer_link() -> None:
    """The private link's ?teach=: checked against the class, then removed from the address bar (a projector
    shows the address bar)."""
    token = st.query_params.get(LECTURER_PARAM)
    if token is None:
        return
    del st.query_params[LECTURER_PARAM]
    code = state.class_code()
    try:
        teaches = code is not None and valid_token(token) is not None and live_store.store().is_lecturer(code, token)
    except ClassError as error:
        _refused(error)
        return
    if code is None or not teaches:
        _ERROR.set(("not_lecturer", {}))
        return
    _STUDENT.set(None)
    _LECTURER.set(LecturerSeat(code, token))
    _not_in_the_address_bar()


def _not_in_the_address_bar() -> None:
    """No class in the address bar (?class=, ?me=): after leaving, and for the lecturer, whose session keeps its
    class in its seat (a reload of the lecturer's page would otherwise join their own class as a student; the
    private link gives control back)."""
    state.set_class_code(None)
    state.set_student_id(None)
    url.keep_in_url(state.CLASS, state.ME)


def _follow(view: View, plan: FollowPlan | None = None) -> None:
    """Show the lecturer's `view`: the scenario, the part, then the page (switching reruns the new page); `plan`,
    the follow plan of `view` when the caller has it already (encoding the scenario is the plan's cost)."""
    seat = _STUDENT.get()
    assert seat is not None
    _STUDENT.set(replace(seat, applied=view))
    plan = plan or follow_plan(view, _PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    if plan.scenario is not None:
        try:
            state.set_scenario(decode_scenario(plan.scenario))
        except EngineInputError:
            state.report_link_error("share.bad_link", "link")
    if plan.step is not None and 1 <= plan.step <= state.PARTS:
        state.set_step(plan.step)
        url.keep_in_url(state.STEP)
    if plan.page is not None and plan.page in PAGE_BY_KEY:
        st.switch_page(PAGE_BY_KEY[plan.page].path)


def publish(page: str | None = None) -> None:
    """The lecturer's view, published when it changed since the last time: the page, the part, the scenario, and
    the question its gate asks now."""
    seat = lecturer()
    if seat is None:
        return
    page = page or _PAGE.get()
    asked = _ASKED.get()
    question, ref = None, None
    if asked is not None and state.questions_on() and asked[:2] == (page, state.step()):
        ref, question = asked[2], asked[3]
    view = View(page, state.step(), encode_scenario(state.get_scenario()), ref)
    if view == seat.published:
        return
    try:  # another question: the store archives this one with its answers, in the same write, for the tally
        live_store.store().publish(seat.code, seat.token, view, "" if question is None else question_json(question))
    except ClassError as error:
        _refused(error)
        errors_ui()  # said where the change was made (a fragment's run draws no page top)
        return
    _LECTURER.set(replace(seat, published=view))


# --- the sidebar ---


def sidebar_ui() -> None:
    """The live class's part of the sidebar: the switch that opens a class, the lecturer's panel or the
    student's."""
    seat = lecturer()
    if seat is not None:
        lecturer_sidebar_ui(seat)
    elif student() is not None:
        student_sidebar_ui()
    else:
        st.toggle(t("live.toggle"), value=False, key=TOGGLE, help=t("live.toggle_help"), on_change=_open_class)
        if _ENDED_LOG.get():
            st.caption(t("live.export.after_end"))
            class_tally_ui(_ENDED_LOG.get())


def _open_class() -> None:
    """The switch's callback: turned on, a class opens; refused, the switch goes back off (so that turning it "off"
    later is no second try); turned off, nothing happens."""
    if not state.widget_value(TOGGLE, False):
        return
    view = View(_PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    try:
        code, token = live_store.store().open_class(view)
    except ClassError as error:
        state.set_widget(TOGGLE, False)
        _refused(error)
        return
    _STUDENT.set(None)
    _LECTURER.set(LecturerSeat(code, token, published=view))
    _ENDED_LOG.set(())
    _not_in_the_address_bar()


def _ask_to_end(asking: bool) -> None:
    _CONFIRM_END.set(asking)


def _end_class() -> None:
    """The confirmed end: the class ended, its history as it ended (every answer sent up to the end) kept in this
    session for the tally's download."""
    seat = lecturer()
    _CONFIRM_END.set(False)
    if seat is None:
        return
    history: tuple[Asking, ...] = ()
    try:
        history = live_store.store().end(seat.code, seat.token)
    except ClassError as error:
        _refused(error)
        if error.code not in GONE and error.code != "not_lecturer":  # still open: the lecturer keeps control
            return
    _ENDED_LOG.set(history)
    leave()


def end_ui() -> None:
    """End the class, after a second click that says what ending does (a stray click ends nothing)."""
    if not _CONFIRM_END.get():
        st.button(
            t("live.end"),
            icon=":material/stop_circle:",
            key="live_end",
            on_click=_ask_to_end,
            args=(True,),
            width="stretch",
        )
        return
    st.warning(t("live.end_confirm"))
    yes_col, no_col = st.columns(2)
    yes_col.button(t("live.end_yes"), key="live_end_yes", on_click=_end_class, type="primary", width="stretch")
    no_col.button(t("live.end_cancel"), key="live_end_cancel", on_click=_ask_to_end, args=(False,), width="stretch")


def base_url() -> str:
    """The app's address as the browser reached it (the join link and the QR code carry it)."""
    page = PAGE_BY_KEY.get(_PAGE.get())
    base = app_base(st.context.url, page.url_path if page else "")
    if not base:
        host = st.context.headers.get("Host") if st.context.headers else None
        base = f"http://{host}" if host else ""
    return base


def qr_png(link: str) -> bytes:
    """The QR code of `link`, as a PNG with a quiet zone (segno)."""
    import segno

    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=QR_SCALE, border=4)
    return out.getvalue()


def lecturer_sidebar_ui(seat: LecturerSeat) -> None:
    """The room code large, the join link and its QR code, the students joined, the tally, the private link, and
    the end of the class."""
    link = join_link(base_url(), seat.code)
    st.subheader(t("live.title"), anchor=False)
    st.markdown(t("live.code_label"))
    st.header(seat.code, anchor=False)
    students_ui(seat.code)
    st.image(qr_png(link), caption=t("live.qr_caption"), width="stretch")
    st.code(link, language=None, wrap_lines=True)
    if st.button(t("live.show_qr"), icon=":material/qr_code_2:", key="live_show_qr", width="stretch"):
        _qr_dialog_ui(seat.code, link)
    if live_store.store().embedded:
        st.caption(t("live.embedded"))
    with st.expander(t("live.private.title"), icon=":material/key:"):
        st.warning(t("live.private.warning"))
        st.code(lecturer_link(base_url(), seat.code, seat.token), language=None, wrap_lines=True)
    class_tally_ui(seat)
    end_ui()


def _qr_dialog_ui(code: str, link: str) -> None:
    """The QR code and the room code as large as a 1280×720 projector allows, to be read from the back row."""

    def body() -> None:
        qr_col, code_col = st.columns([1, 1], vertical_alignment="center")
        qr_col.image(qr_png(link), width=QR_DIALOG_WIDTH)
        with code_col:
            st.markdown(t("live.code_label"))
            st.title(code, anchor=False)
            st.markdown(t("live.join_how"))
            st.code(link, language=None, wrap_lines=True)

    st.dialog(t("live.join_title"), width="large")(body)()


@st.fragment(run_every=PROJECTOR_EVERY)
def students_ui(code: str) -> None:
    """How many students joined, read again every 1.5 s."""
    try:
        joined = live_store.store().state(code).students
    except ClassError as error:
        st.warning(error_text(*said(error)))
        return
    st.metric(t("live.joined"), numbers.count(joined))


def _stop_following() -> None:
    seat = student()
    if seat is not None:
        _STUDENT.set(replace(seat, following=False))


def _back_to_class() -> None:
    seat = student()
    if seat is not None:
        _STUDENT.set(replace(seat, following=True, applied=None))  # the next run shows the lecturer's view


def student_sidebar_ui() -> None:
    """The class followed, whether following, and the buttons that stop and resume it (nothing that changes the
    class)."""
    seat = student()
    assert seat is not None
    st.subheader(t("live.title"), anchor=False)
    st.markdown(t("live.student.in_class", code=seat.code))
    if seat.following:
        st.caption(t("live.student.following"))
        st.button(t("live.stop"), icon=":material/pause:", key="live_stop", on_click=_stop_following)
    else:
        st.caption(t("live.student.exploring"))
        st.button(t("live.back"), icon=":material/group:", key="live_back", on_click=_back_to_class, type="primary")
    st.button(t("live.leave"), icon=":material/logout:", key="live_leave", on_click=leave, type="tertiary")
    st.caption(t("live.student.lecturer_hint"))
    follow_poll_ui()


@st.fragment(run_every=FOLLOW_EVERY)
def follow_poll_ui() -> None:
    """A follower's poll: the class's version every second; the whole page reruns only when what it shows changed
    (the view, the round, the reveal), not for every answer another student sends."""
    seat = student()
    if seat is None or not seat.following:
        return
    try:
        if live_store.store().version(seat.code) == seat.seen_version:
            return
        current = live_store.store().state(seat.code)
    except ClassError as error:
        if error.code in GONE:
            _refused(error)  # the class is gone: the page, rerun, says so and is the student's own again
            st.rerun()
        # a store that does not answer: said here, and the next poll tries again (a rerun would poll at once, again)
        st.warning(error_text(*said(error)), icon=":material/groups:")
        return
    before = seat.state
    _STUDENT.set(replace(seat, seen_version=current.version, state=current))
    if before is not None and not follower_redraws(before, current):
        return
    plan = follow_plan(current.view, _PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    if before is not None and follows_in_part(plan, _PAGE.get(), _PART_PAGE.get(), current.ended):
        _rerun_part()
    st.rerun()


def _rerun_part() -> None:
    """Rerun only PART_FRAGMENT, which applies the new part (`start_fragment`): about half the CPU of the page's
    run (README, "The live class under load"). Streamlit's st.rerun(key) asks for the same run, but
    only from a widget's callback, and a poll has none; so this asks Streamlit's script runner as st.rerun does
    (its RerunData; Streamlit is pinned in constraints.txt, tests/serving/test_follow_step.py checks it). The poll's
    own run, which draws nothing, ends here. Without the fragment (never drawn here) the caller reruns the page."""
    ctx = get_script_run_ctx()
    if ctx is None or ctx.script_requests is None:
        return
    try:
        fragments = ctx.fragment_storage.resolve_target(PART_FRAGMENT)
    except StreamlitAPIException:
        return
    ctx.script_requests.request_rerun(
        RerunData(
            query_string=ctx.query_string,
            page_script_hash=ctx.page_script_hash,
            fragment_id_queue=fragments,
            is_fragment_scoped_rerun=True,
            cached_message_hashes=ctx.cached_message_hashes,
            context_info=ctx.context_info,
        )
    )
    st.empty()  # a point where the runner takes the request and ends this run, as st.rerun's own


# --- the home page: typing the code ---


def _join_typed() -> None:
    code = normalised_code(state.widget_value("live_join_code", ""))
    if code is None:
        _ERROR.set(("bad_code", {}))
        return
    state.set_class_code(code)
    state.set_student_id(None)


def join_form_ui() -> None:
    """A small form on the home page: type the room code the lecturer shows to join the class."""
    if lecturer() is not None or student() is not None:
        return
    with st.form("live_join", border=True, enter_to_submit=True):
        st.markdown(t("live.join.title"))
        st.text_input(t("live.join.code"), key="live_join_code", max_chars=24, placeholder=t("live.join.placeholder"))
        st.form_submit_button(t("live.join.button"), on_click=_join_typed, icon=":material/login:")


# --- questions: the lecturer's gate ---


def lecturing() -> bool:
    """Whether this session teaches a class (its gates ask the class)."""
    return lecturer() is not None


def asked(gate: str, question: Question | None) -> bool:
    """The lecturer's gate `gate` shows `question`: the first gate drawn in a run asks the class (publishing the
    view with it). True when this gate asks the class."""
    drawn = _GATES.get()
    first = not drawn or drawn[0] == gate
    _GATES.set([*drawn, gate])
    if not first or lecturer() is None:
        return False
    _ASKED.set(None if question is None else (_PAGE.get(), state.step(), question_ref(gate, question), question))
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
        _refused(error)
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
        _ERROR.set(("not_lecturer", {}))
        return
    try:
        action(live_store.store(), seat.code, seat.token)
    except ClassError as error:
        _refused(error)


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
            _refused(error)
        else:  # an answer after the reveal, to another question, too long: said by the question, nothing counted
            _ANSWER_ERROR.set((error.code, dict(error.params)))
        return
    sent = {**seat.sent_at, (ref, number): seat.seen_version}  # a later read without it: the answers started afresh
    _STUDENT.set(replace(seat, responses={**seat.responses, (ref, number): str(response)}, sent_at=sent))


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


# --- the tally's downloads ---


def class_tally_ui(seat: LecturerSeat | tuple[Asking, ...]) -> None:
    """The class's tally as CSV and JSON (counts and shares only, classroom.tally's), each built when clicked from
    the class's history as the store has it then (every answer sent up to the click), or, for a class this session
    ended, from its history as it ended; the reader's words are taken now."""
    if isinstance(seat, LecturerSeat):
        store, code, token = live_store.store(), seat.code, seat.token

        def history() -> tuple[Asking, ...]:
            try:
                return store.history(code, token)
            except ClassError:
                return ()

    elif seat:
        history = partial(tuple, seat)
    else:
        return
    header = tuple(t(f"live.export.col.{column}") for column in tally.CSV_HEADER)
    yes_no = (t("quiz.export.yes"), t("quiz.export.no"))
    st.caption(t("live.export.title"))
    share.tally_downloads_ui(
        lambda: tally_csv(history(), header, yes_no),
        lambda: tally_json(history()),
        file_name=t("live.export.file"),
        key="live_download",
        help=t("live.export.help"),
        label=t("live.export.button", kind="{kind}"),
    )


def start_fragment() -> None:
    """At the start of PART_FRAGMENT's run (the walkthrough's part and its gates): no gate drawn yet, the page
    draws the fragment, and a follower shows the lecturer's new part here when only the part changed (the poll
    reran only this fragment: `follow_poll_ui`)."""
    _GATES.set([])
    _PART_PAGE.set(_PAGE.get())
    seat = student()
    if seat is None or not seat.following or seat.state is None or seat.state.view == seat.applied:
        return
    plan = follow_plan(seat.state.view, _PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    if follows_in_part(plan, _PAGE.get(), _PAGE.get(), seat.state.ended):
        _follow(seat.state.view, plan)


def current_page() -> str:
    """The page key of this run (ui.shell.page set it)."""
    return _PAGE.get()
