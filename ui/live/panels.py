"""The live class's panels (issue 28): the sidebar's (the switch that opens a class, the lecturer's panel with the
room code, the join link, its QR code, the students joined, the tally's downloads and the end of the class; the
student's, following or not) and the home page's form to type a room code. The lecturer's sidebar counts the
students every 1.5 s (`students_ui`); the student's polls the class (`ui.live.follow.follow_poll_ui`).
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import partial

import streamlit as st

from classroom import tally
from classroom.api import Asking, ClassError, View
from engine.scenario_io import encode_scenario
from ui import live_store, numbers, share, state
from ui.i18n import t
from ui.live.follow import follow_poll_ui
from ui.live.seats import (
    ERROR,
    GONE,
    LECTURER,
    PAGE,
    PROJECTOR_EVERY,
    STUDENT,
    error_text,
    leave,
    lecturer,
    not_in_the_address_bar,
    refused,
    said,
    student,
)
from ui.pages import PAGE_BY_KEY
from ui.view_models.live import LecturerSeat, app_base, join_link, lecturer_link, normalised_code, tally_csv, tally_json

TOGGLE = "live_toggle"  # the sidebar switch that opens a class
QR_DIALOG_WIDTH = 440  # px: fits the dialog on a 1280×720 projector with its title
QR_SCALE = 10  # pixels per QR module: a 33-module code is 410 px wide, scannable from the back of a room

_CONFIRM_END: state.Slot[bool] = state.Slot("live_confirm_end", lambda: False)
_ENDED_LOG: state.Slot[tuple[Asking, ...]] = state.Slot("live_ended_log", tuple)  # the ended class's, still offered


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
    later is no second try); turned off, nothing happens. A session that teaches a class already opens no other: the
    switch is gone from its sidebar, but a browser can still send the switch's old value with a later click (CI saw
    it once: the join link on the projector changed under the class that had scanned it)."""
    if not state.widget_value(TOGGLE, False) or lecturer() is not None:
        return
    view = View(PAGE.get(), state.step(), encode_scenario(state.get_scenario()))
    try:
        code, token = live_store.store().open_class(view)
    except ClassError as error:
        state.set_widget(TOGGLE, False)
        refused(error)
        return
    STUDENT.set(None)
    LECTURER.set(LecturerSeat(code, token, published=view))
    _ENDED_LOG.set(())
    not_in_the_address_bar()


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
        refused(error)
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
    page = PAGE_BY_KEY.get(PAGE.get())
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
        STUDENT.set(replace(seat, following=False))


def _back_to_class() -> None:
    seat = student()
    if seat is not None:
        STUDENT.set(replace(seat, following=True, applied=None))  # the next run shows the lecturer's view


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


# --- the home page: typing the code ---


def _join_typed() -> None:
    code = normalised_code(state.widget_value("live_join_code", ""))
    if code is None:
        ERROR.set(("bad_code", {}))
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
