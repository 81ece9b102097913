"""The in-process class store: the default, for one server (Streamlit Community Cloud, `streamlit run app.py`).

Every class lives in this process's memory, behind one lock: each method reads or changes it whole, so every write
is atomic. A server restart ends every class (`embedded` is True, and the UI tells the lecturer so). Classes idle
for bounds.idle_seconds are removed on the next write; an ended class is remembered for bounds.ended_seconds (its
students read class_ended, not class_unknown; its lecturer can still read its history), at most bounds.classes of
them, the oldest forgotten first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from classroom.api import ROUNDS, Asking, Bounds, ClassError, ClassState, QuestionRef, Round, View
from classroom.bell import Bell, Listener
from classroom.codes import is_code, new_code, new_token, same_token
from classroom.serial import check_answer, check_detail, check_round, check_student, question_json, view_json

CODE_TRIES = 20  # fresh codes drawn before giving up (with 200 classes among 8.9e8 codes, one draw is enough)


@dataclass
class _Round:
    number: int
    answers: dict[str, str] = field(default_factory=dict)
    revealed: bool = False


@dataclass
class _Class:
    code: str
    token: str
    view: View
    view_text: str  # serial.view_json(view): compared to tell a changed view
    touched: float  # the clock at the last write
    version: int = 1
    students: set[str] = field(default_factory=set)
    rounds: list[_Round] = field(default_factory=list)
    ended: bool = False
    asked_at: int = 0  # the version the current question was asked at (0: none)
    detail: str = ""  # the current question as drawn (the lecturer's text)
    archived: list[Asking] = field(default_factory=list)  # the questions asked before, oldest first

    def state(self) -> ClassState:
        return ClassState(
            self.code, self.version, self.view, len(self.students), self._rounds(), self.ended, self.asked_at
        )

    def asking(self) -> Asking | None:
        """The current question as the tally counts it (None: no question)."""
        question = self.view.question
        if question is None or not self.rounds:
            return None
        return Asking(self.asked_at, question, self.detail, self._rounds(), len(self.students))

    def ask(self, question: QuestionRef | None, detail: str, askings: int) -> None:
        """Ask `question` (None: none) from this version on: the current one archived, its round 1 afresh."""
        current = self.asking()
        if current is not None:
            self.archived = [*self.archived, current][-askings:]
        self.rounds = _rounds_for(question)
        self.asked_at, self.detail = (0, "") if question is None else (self.version, detail)

    def _rounds(self) -> tuple[Round, ...]:
        return tuple(Round(r.number, dict(r.answers), r.revealed) for r in self.rounds)


class MemoryStore:
    """The in-process ClassStore (thread-safe). `clock` gives seconds (time.monotonic; a test passes a fake one)."""

    embedded = True

    def __init__(self, bounds: Bounds | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.bounds = bounds or Bounds()
        self._clock = clock
        self._lock = threading.Lock()
        self._classes: dict[str, _Class] = {}
        self.bell = Bell()  # rung after a lecturer's write that followers must see, outside the lock

    def listen(self, listener: Listener) -> None:
        """Call `listener(code)` after every lecturer write that changed what a follower shows (classroom/bell.py)."""
        self.bell.listen(listener)

    # --- the lecturer ---

    def open_class(self, view: View, detail: str = "") -> tuple[str, str]:
        """A new class showing `view`: (code, token); server_full at bounds.classes open classes."""
        text = view_json(view, self.bounds)
        detail = check_detail(detail, self.bounds)
        with self._lock:
            now = self._sweep()
            if sum(not c.ended for c in self._classes.values()) >= self.bounds.classes:
                raise ClassError("server_full", limit=self.bounds.classes)
            code = next((c for c in (new_code() for _ in range(CODE_TRIES)) if c not in self._classes), None)
            if code is None:
                raise ClassError("server_full", limit=self.bounds.classes)
            token = new_token()
            room = _Class(code, token, view, text, now)
            room.ask(view.question, detail, self.bounds.askings)
            self._classes[code] = room
            return code, token

    def is_lecturer(self, code: str, token: str) -> bool:
        """True when `token` is the open class's lecturer token (False for an unknown or ended class)."""
        with self._lock:
            try:
                return same_token(token, self._class(code, self._clock()).token)
            except ClassError:
                return False

    def publish(self, code: str, token: str, view: View, detail: str = "") -> ClassState:
        """The lecturer shows `view`; the same view again changes nothing (the version stays). Another question:
        the one before archived, this one's round 1 afresh, kept with `detail`."""
        text = view_json(view, self.bounds)
        detail = check_detail(detail, self.bounds)
        with self._lock:
            room = self._lecturers(code, token)
            changed = text != room.view_text
            if changed:
                room.version += 1
                if question_json(view.question) != question_json(room.view.question):
                    room.ask(view.question, detail, self.bounds.askings)
                room.view, room.view_text = view, text
            state = room.state()
        if changed:
            self.bell.ring(code)
        return state

    def history(self, code: str, token: str) -> tuple[Asking, ...]:
        """The questions asked, oldest first, the current one as it is now; an ended class's too."""
        with self._lock:
            room = self._class(code, self._clock(), ended_too=True)
            if not same_token(token, room.token):
                raise ClassError("not_lecturer")
            current = room.asking()
            return tuple(room.archived if current is None else [*room.archived, current][-self.bounds.askings :])

    def reveal(self, code: str, token: str) -> ClassState:
        """The current round takes no more answers; a second reveal changes nothing."""
        with self._lock:
            room = self._lecturers(code, token)
            if not room.rounds:
                raise ClassError("no_question")
            changed = not room.rounds[-1].revealed
            if changed:
                room.rounds[-1].revealed = True
                room.version += 1
            state = room.state()
        if changed:
            self.bell.ring(code)
        return state

    def vote_again(self, code: str, token: str) -> ClassState:
        """Round 2 of the current question (round 1 takes no more answers); at ROUNDS, nothing changes."""
        with self._lock:
            room = self._lecturers(code, token)
            if not room.rounds:
                raise ClassError("no_question")
            changed = len(room.rounds) < ROUNDS  # at ROUNDS already: a second click changes nothing
            if changed:
                room.rounds.append(_Round(len(room.rounds) + 1))
                room.version += 1
            state = room.state()
        if changed:
            self.bell.ring(code)
        return state

    def end(self, code: str, token: str) -> tuple[Asking, ...]:
        """The class ends: its students and current answers are forgotten, the current question archived (the
        history stays the lecturer's to read); ending it again changes nothing."""
        with self._lock:
            room = self._class(code, self._sweep(), ended_too=True)
            if not same_token(token, room.token):
                raise ClassError("not_lecturer")
            changed = not room.ended
            if changed:
                room.ask(None, "", self.bounds.askings)
                room.ended, room.touched = True, self._clock()
                room.students = set()  # nothing of the class is kept but that it ended, and its tally
                room.version += 1
                self._forget_oldest_ended()
            archived = tuple(room.archived)
        if changed:
            self.bell.ring(code)
        return archived

    # --- the students ---

    def join(self, code: str, student_id: str) -> ClassState:
        """`student_id` joins (again: nothing changes); class_full at bounds.students."""
        student_id = check_student(student_id)
        with self._lock:
            room = self._class(code, self._sweep())
            if student_id not in room.students:
                if len(room.students) >= self.bounds.students:
                    raise ClassError("class_full", limit=self.bounds.students)
                room.students.add(student_id)
                room.version += 1
            room.touched = self._clock()
            return room.state()

    def answer(self, code: str, student_id: str, question: QuestionRef, round_number: int, answer: str) -> None:
        """The student's answer to the current round; the same answer again changes nothing (the version stays)."""
        answer = check_answer(answer, self.bounds)
        round_number = check_round(round_number)
        student_id = check_student(student_id)
        with self._lock:
            room = self._class(code, self._sweep())
            if student_id not in room.students:
                raise ClassError("not_joined")
            if not room.rounds or question_json(question) != question_json(room.view.question):
                raise ClassError("no_question")
            current = room.rounds[-1]
            if round_number != current.number or current.revealed:
                raise ClassError("round_closed")
            if current.answers.get(student_id) != answer:
                current.answers[student_id] = answer
                room.version += 1
            room.touched = self._clock()

    # --- reads ---

    def state(self, code: str) -> ClassState:
        """The class as it is now (a read: the idle clock goes on)."""
        with self._lock:
            return self._class(code, self._clock()).state()

    def version(self, code: str) -> int:
        """The class's version alone."""
        with self._lock:
            return self._class(code, self._clock()).version

    # --- inside the lock ---

    def _class(self, code: str, now: float, *, ended_too: bool = False) -> _Class:
        """The class `code`: class_unknown when there is none (or it expired), class_ended when it ended."""
        room = self._classes.get(code) if is_code(code) else None
        if room is None or self._expired(room, now):
            raise ClassError("class_unknown")
        if room.ended and not ended_too:
            raise ClassError("class_ended")
        return room

    def _lecturers(self, code: str, token: str) -> _Class:
        """The open class `code` when `token` is its lecturer's (not_lecturer otherwise); its idle clock restarts."""
        room = self._class(code, self._sweep())
        if not same_token(token, room.token):
            raise ClassError("not_lecturer")
        room.touched = self._clock()
        return room

    def _expired(self, room: _Class, now: float) -> bool:
        limit = self.bounds.ended_seconds if room.ended else self.bounds.idle_seconds
        return now - room.touched > limit

    def _sweep(self) -> float:
        """Remove the expired classes (on every write: at most a few hundred to look at); the clock now."""
        now = self._clock()
        for code in [code for code, room in self._classes.items() if self._expired(room, now)]:
            del self._classes[code]
        return now

    def _forget_oldest_ended(self) -> None:
        ended = sorted((room.touched, code) for code, room in self._classes.items() if room.ended)
        for _, code in ended[: max(0, len(ended) - self.bounds.classes)]:
            del self._classes[code]


def _rounds_for(question: QuestionRef | None) -> list[_Round]:
    """A question's rounds when it is first asked: round 1, empty; none without a question."""
    return [] if question is None else [_Round(1)]
