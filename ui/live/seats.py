"""Who this session is in the live class (issue 28): the lecturer's seat or a student's, the refusals said once, and
leaving. The shared layer of ui/live/: follow, panels and rounds import it, it imports none of them.

The seats, the page and the gates of this run are session state (`state.Slot`s, documented in ui/state.py); the
class's shared state is behind `ui.live_store.store()` (classroom/api.py).
"""

from __future__ import annotations

import streamlit as st

from classroom.api import ERROR_CODES, ClassError, QuestionRef
from engine.questions import Question
from ui import numbers, state, url
from ui.i18n import t
from ui.live import wake
from ui.text import md_literal
from ui.view_models.live import LecturerSeat, StudentSeat

PROJECTOR_EVERY = 1.5  # seconds between the projector's reads of the answers and the count of students
GONE = ("class_unknown", "class_ended", "class_full")  # refusals that mean this session is in the class no more
# said as live.error.<code> too, beside classroom's ERROR_CODES (store_bad_url: store_unavailable for a wrong REDIS_URL)
UI_ERRORS = ("bad_code", "pick_one", "unreadable", "store_bad_url")

LECTURER: state.Slot[LecturerSeat | None] = state.Slot("live_lecturer", lambda: None)
STUDENT: state.Slot[StudentSeat | None] = state.Slot("live_student", lambda: None)
ASKED: state.Slot[tuple[str, int | None, QuestionRef, Question] | None] = state.Slot("live_asked", lambda: None)
GATES: state.Slot[list[str]] = state.Slot("live_gates", list)
PAGE: state.Slot[str] = state.Slot("live_page", lambda: "home")
ERROR: state.Slot[tuple[str, dict] | None] = state.Slot("live_error", lambda: None)


# --- who this session is ---


def lecturer() -> LecturerSeat | None:
    """The class this session teaches, if any."""
    return LECTURER.get()


def student() -> StudentSeat | None:
    """The class this session follows as a student, if any."""
    seat = STUDENT.get()
    return seat if lecturer() is None else None


def said(error: ClassError) -> tuple[str, dict]:
    """What a refused class operation says: its live.error.<code> and the params its message takes (a code the app
    does not know is a store that did not answer; a wrong REDIS_URL is a setting to mend, not a Redis that is
    down: trying again does not help)."""
    code = error.code if error.code in ERROR_CODES else "store_unavailable"
    if code == "store_unavailable" and error.params.get("reason") == "bad_url":
        code = "store_bad_url"
    return code, dict(error.params)


def refused(error: ClassError) -> None:
    """Keep a refused operation's message to say once; a class that is gone is left."""
    ERROR.set(said(error))
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


def errors_ui(slot: state.Slot[tuple[str, dict] | None] = ERROR) -> None:
    """Say once why a class operation was refused (an answer's refusal: by the question,
    `ui.live.rounds._ANSWER_ERROR`)."""
    error = slot.get()
    if error is not None:
        slot.set(None)
        st.warning(error_text(*error), icon=":material/groups:")


def leave() -> None:
    """Leave the class (as a student: the id goes too; as the lecturer: the class stays open until it ends)."""
    STUDENT.set(None)
    LECTURER.set(None)
    ASKED.set(None)
    wake.unfollow()
    not_in_the_address_bar()


def not_in_the_address_bar() -> None:
    """No class in the address bar (?class=, ?me=): after leaving, and for the lecturer, whose session keeps its
    class in its seat (a reload of the lecturer's page would otherwise join their own class as a student; the
    private link gives control back)."""
    state.set_class_code(None)
    state.set_student_id(None)
    url.keep_in_url(state.CLASS, state.ME)
