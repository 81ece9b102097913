"""The live class on every page run (issue 28): joining, following the lecturer, publishing the lecturer's view.

Every page run starts with `start_ui` (ui.shell): the private lecturer link's token is taken (and removed from the
address bar), a student joins the class the URL names (?class=CODE&me=ID, kept by ui.url), and a follower is moved
to the lecturer's page, part and scenario when the lecturer's view changed. The lecturer's view is published at the
end of the shell (`publish`), by the walkthrough's fragment after a change of part, and by a question's gate
(`ui.live.rounds.asked`), each time only when it changed. A follower's sidebar has a poll fragment (`follow_poll_ui`)
that reads the class; the store's bell wakes it at once when the lecturer changes what the class sees
(ui/live/wake.py), and the browser's timer reruns it every FOLLOW_EVERY seconds as the fallback. When only the part
changed, the poll reruns only the walkthrough's part fragment (`PART_FRAGMENT`, `start_fragment`): in the wake-up's
own run, which queues the part's fragment after the poll, else by asking for its run.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from classroom.api import ClassError, View
from engine import EngineInputError
from engine.questions.serial import question_json
from engine.scenario_io import decode_scenario, encode_scenario
from ui import live_store, state, url
from ui.live import wake
from ui.live.seats import (
    ASKED,
    ERROR,
    GATES,
    GONE,
    LECTURER,
    PAGE,
    STUDENT,
    error_text,
    errors_ui,
    lecturer,
    not_in_the_address_bar,
    refused,
    said,
    student,
)
from ui.pages import PAGE_BY_KEY
from ui.view_models.live import (
    LECTURER_PARAM,
    FollowPlan,
    LecturerSeat,
    StudentSeat,
    follow_plan,
    follower_redraws,
    follows_in_part,
    new_student_id,
    valid_token,
)

# Seconds between a follower's own polls of the class: the fallback for a wake-up that did not come (the store's bell
# moves followers at once: ui/live/wake.py). A poll that finds nothing new still costs the server a run (5-6 ms):
# at 1 s, 200 followers' polls alone took most of a core (README, "The live class under load").
FOLLOW_EVERY = 5.0
# The key of the fragment that draws the walkthrough's part and its question: a follower's step reruns only it
# (`follow_poll_ui`), not the whole page (sidebar, page top), which the step does not change.
PART_FRAGMENT = "walk_part_fragment"
POLL_FRAGMENT = "live_follow_poll"  # the follower's poll fragment, which the lecturer's change wakes (ui/live/wake.py)

_PART_PAGE: state.Slot[str | None] = state.Slot("live_part_page", lambda: None)  # the page whose run drew PART_FRAGMENT


# --- every page run ---


def start_ui(page: str) -> None:
    """At the start of a page run: the lecturer link's token, a student's join, a follower's move."""
    PAGE.set(page)
    _PART_PAGE.set(None)
    GATES.set([])
    _take_lecturer_link()
    code = state.class_code()
    if code is None or lecturer() is not None:
        return
    seat = STUDENT.get()
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
        refused(error)
        return
    STUDENT.set(seat)
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
        refused(error)
        return
    if code is None or not teaches:
        ERROR.set(("not_lecturer", {}))
        return
    STUDENT.set(None)
    LECTURER.set(LecturerSeat(code, token))
    not_in_the_address_bar()


def _follow(view: View, plan: FollowPlan | None = None) -> None:
    """Show the lecturer's `view`: the scenario, the part, then the page (switching reruns the new page); `plan`,
    the follow plan of `view` when the caller has it already (encoding the scenario is the plan's cost)."""
    seat = STUDENT.get()
    assert seat is not None
    STUDENT.set(replace(seat, applied=view))
    plan = plan or follow_plan(view, PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
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
    page = page or PAGE.get()
    asked = ASKED.get()
    question, ref = None, None
    if asked is not None and state.questions_on() and asked[:2] == (page, state.step()):
        ref, question = asked[2], asked[3]
    view = View(page, state.step(), encode_scenario(state.get_scenario()), ref)
    if view == seat.published:
        return
    try:  # another question: the store archives this one with its answers, in the same write, for the tally
        live_store.store().publish(seat.code, seat.token, view, "" if question is None else question_json(question))
    except ClassError as error:
        refused(error)
        errors_ui()  # said where the change was made (a fragment's run draws no page top)
        return
    LECTURER.set(replace(seat, published=view))


@st.fragment(run_every=FOLLOW_EVERY, key=POLL_FRAGMENT)
def follow_poll_ui() -> None:
    """A follower's poll, woken by the lecturer's change (`wake`) or every FOLLOW_EVERY seconds: the class's version;
    the whole page reruns only when what it shows changed (the view, the round, the reveal), not for every answer
    another student sends."""
    seat = student()
    if seat is None or not seat.following:
        wake.unfollow()
        return
    wake.follow(seat.code, live_store.store(), POLL_FRAGMENT, then=PART_FRAGMENT)
    try:
        if live_store.store().version(seat.code) == seat.seen_version:
            return
        current = live_store.store().state(seat.code)
    except ClassError as error:
        if error.code in GONE:
            refused(error)  # the class is gone: the page, rerun, says so and is the student's own again
            st.rerun()
        # a store that does not answer: said here, and the next poll tries again (a rerun would poll at once, again)
        st.warning(error_text(*said(error)), icon=":material/groups:")
        return
    before = seat.state
    STUDENT.set(replace(seat, seen_version=current.version, state=current))
    if before is not None and not follower_redraws(before, current):
        return
    plan = follow_plan(current.view, PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    if before is not None and follows_in_part(plan, PAGE.get(), _PART_PAGE.get(), current.ended):
        if wake.queued_after(POLL_FRAGMENT, PART_FRAGMENT):
            return  # a wake-up's run: the part's fragment runs next in it and shows the new part
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
    fragments = wake.drawn_ids(ctx.fragment_storage, PART_FRAGMENT)
    if not fragments:
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


def start_fragment() -> None:
    """At the start of PART_FRAGMENT's run (the walkthrough's part and its gates): no gate drawn yet, the page
    draws the fragment, and a follower shows the lecturer's new part here when only the part changed (the poll
    reran only this fragment: `follow_poll_ui`)."""
    GATES.set([])
    _PART_PAGE.set(PAGE.get())
    seat = student()
    if seat is None or not seat.following or seat.state is None or seat.state.view == seat.applied:
        return
    plan = follow_plan(seat.state.view, PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    if follows_in_part(plan, PAGE.get(), PAGE.get(), seat.state.ended):
        _follow(seat.state.view, plan)


def current_page() -> str:
    """The page key of this run (ui.shell.page set it)."""
    return PAGE.get()
