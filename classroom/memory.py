"""The in-process class store: the default, for one server (Streamlit Community Cloud, `streamlit run app.py`).

Every class lives in this process's memory, behind one lock: each method reads or changes it whole, so every write
is atomic. A server restart ends every class (`embedded` is True, and the UI tells the lecturer so). Classes idle
for bounds.idle_seconds are removed on the next write; an ended class is remembered for bounds.ended_seconds (its
students read class_ended, not class_unknown), at most bounds.classes of them, the oldest forgotten first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from classroom.api import ROUNDS, Bounds, ClassError, ClassState, QuestionRef, Round, View
from classroom.codes import is_code, new_code, new_token, same_token
from classroom.serial import check_answer, check_round, check_student, question_json, view_json

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

    def state(self) -> ClassState:
        rounds = tuple(Round(r.number, dict(r.answers), r.revealed) for r in self.rounds)
        return ClassState(self.code, self.version, self.view, len(self.students), rounds, self.ended)


class MemoryStore:
    """The in-process ClassStore (thread-safe). `clock` gives seconds (time.monotonic; a test passes a fake one)."""

    embedded = True

    def __init__(self, bounds: Bounds | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.bounds = bounds or Bounds()
        self._clock = clock
        self._lock = threading.Lock()
        self._classes: dict[str, _Class] = {}

    # --- the lecturer ---

    def open_class(self, view: View) -> tuple[str, str]:
        """A new class showing `view`: (code, token); server_full at bounds.classes open classes."""
        text = view_json(view, self.bounds)
        with self._lock:
            now = self._sweep()
            if sum(not c.ended for c in self._classes.values()) >= self.bounds.classes:
                raise ClassError("server_full", limit=self.bounds.classes)
            code = next((c for c in (new_code() for _ in range(CODE_TRIES)) if c not in self._classes), None)
            if code is None:
                raise ClassError("server_full", limit=self.bounds.classes)
            token = new_token()
            self._classes[code] = _Class(code, token, view, text, now, rounds=_rounds_for(view.question))
            return code, token

    def is_lecturer(self, code: str, token: str) -> bool:
        """True when `token` is the open class's lecturer token (False for an unknown or ended class)."""
        with self._lock:
            try:
                return same_token(token, self._class(code, self._clock()).token)
            except ClassError:
                return False

    def publish(self, code: str, token: str, view: View) -> ClassState:
        """The lecturer shows `view`; the same view again changes nothing (the version stays)."""
        text = view_json(view, self.bounds)
        with self._lock:
            room = self._lecturers(code, token)
            if text != room.view_text:
                if question_json(view.question) != question_json(room.view.question):
                    room.rounds = _rounds_for(view.question)
                room.view, room.view_text = view, text
                room.version += 1
            return room.state()

    def reveal(self, code: str, token: str) -> ClassState:
        """The current round takes no more answers; a second reveal changes nothing."""
        with self._lock:
            room = self._lecturers(code, token)
            if not room.rounds:
                raise ClassError("no_question")
            if not room.rounds[-1].revealed:
                room.rounds[-1].revealed = True
                room.version += 1
            return room.state()

    def vote_again(self, code: str, token: str) -> ClassState:
        """Round 2 of the current question (round 1 takes no more answers); at ROUNDS, nothing changes."""
        with self._lock:
            room = self._lecturers(code, token)
            if not room.rounds:
                raise ClassError("no_question")
            if len(room.rounds) < ROUNDS:  # at ROUNDS already: a second click changes nothing
                room.rounds.append(_Round(len(room.rounds) + 1))
                room.version += 1
            return room.state()

    def end(self, code: str, token: str) -> None:
        """The class ends: its students and answers are forgotten; ending it again changes nothing."""
        with self._lock:
            room = self._class(code, self._sweep(), ended_too=True)
            if not same_token(token, room.token):
                raise ClassError("not_lecturer")
            if not room.ended:
                room.ended, room.touched = True, self._clock()
                room.students, room.rounds = set(), []  # nothing of the class is kept but that it ended
                room.version += 1
                self._forget_oldest_ended()

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
