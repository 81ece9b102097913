"""A tiny in-memory ClassStore (classroom/api.py) for the live class's UI tests, until classroom.store() lands.

Plain dicts behind one lock: every method is one atomic step. It keeps the protocol's rules that the UI relies
on (codes from CODE_ALPHABET, a 192-bit token, idempotent joins, an answer replaced until the reveal, round 2
after round 1, every bound and fault as a ClassError) and nothing more (no expiry clock, no Redis).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass, field, replace

from classroom.api import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_ANSWER_CHARS,
    MAX_CLASSES,
    MAX_STUDENTS,
    MAX_VIEW_CHARS,
    ROUNDS,
    TOKEN_BYTES,
    ClassError,
    ClassState,
    QuestionRef,
    Round,
    View,
)


@dataclass
class _Class:
    token: str
    view: View
    version: int = 1
    students: set[str] = field(default_factory=set)
    rounds: list[Round] = field(default_factory=list)
    ended: bool = False


def _check_size(view: View) -> None:
    if len(repr(view)) > MAX_VIEW_CHARS:
        raise ClassError("view_too_large", limit=MAX_VIEW_CHARS)


class FakeStore:
    """The in-process ClassStore of the tests (and of the app until classroom.store exists)."""

    embedded = True

    def __init__(self, max_classes: int = MAX_CLASSES, max_students: int = MAX_STUDENTS) -> None:
        self._classes: dict[str, _Class] = {}
        self._lock = threading.Lock()
        self.max_classes = max_classes
        self.max_students = max_students

    def _open(self, code: str) -> _Class:
        found = self._classes.get(code)
        if found is None:
            raise ClassError("class_unknown")
        if found.ended:
            raise ClassError("class_ended")
        return found

    def _lecturer(self, code: str, token: str) -> _Class:
        found = self._open(code)
        if not hmac.compare_digest(found.token.encode(), str(token).encode()):
            raise ClassError("not_lecturer")
        return found

    def _state(self, code: str, found: _Class) -> ClassState:
        return ClassState(code, found.version, found.view, len(found.students), tuple(found.rounds), found.ended)

    def open_class(self, view: View) -> tuple[str, str]:
        _check_size(view)
        with self._lock:
            if sum(not c.ended for c in self._classes.values()) >= self.max_classes:
                raise ClassError("server_full", limit=self.max_classes)
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            while code in self._classes:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self._classes[code] = _Class(token, view, rounds=[Round(1)] if view.question else [])
            return code, token

    def is_lecturer(self, code: str, token: str) -> bool:
        with self._lock:
            try:
                self._lecturer(code, token)
            except ClassError:
                return False
            return True

    def join(self, code: str, student_id: str) -> ClassState:
        with self._lock:
            found = self._open(code)
            if student_id not in found.students:
                if len(found.students) >= self.max_students:
                    raise ClassError("class_full", limit=self.max_students)
                found.students.add(student_id)
                found.version += 1
            return self._state(code, found)

    def state(self, code: str) -> ClassState:
        with self._lock:
            return self._state(code, self._open(code))

    def version(self, code: str) -> int:
        with self._lock:
            return self._open(code).version

    def publish(self, code: str, token: str, view: View) -> ClassState:
        _check_size(view)
        with self._lock:
            found = self._lecturer(code, token)
            if view.question != found.view.question:
                found.rounds = [Round(1)] if view.question else []
            found.view = view
            found.version += 1
            return self._state(code, found)

    def answer(self, code: str, student_id: str, question: QuestionRef, round_number: int, answer: str) -> None:
        with self._lock:
            found = self._open(code)
            if student_id not in found.students:
                raise ClassError("not_joined")
            if found.view.question is None or question != found.view.question or not found.rounds:
                raise ClassError("no_question")
            current = found.rounds[-1]
            if round_number != current.number or current.revealed:
                raise ClassError("round_closed")
            if len(str(answer)) > MAX_ANSWER_CHARS:
                raise ClassError("answer_too_long", limit=MAX_ANSWER_CHARS)
            if current.answers.get(student_id) != answer:
                found.rounds[-1] = replace(current, answers={**current.answers, student_id: str(answer)})
                found.version += 1

    def reveal(self, code: str, token: str) -> ClassState:
        with self._lock:
            found = self._lecturer(code, token)
            if not found.rounds:
                raise ClassError("no_question")
            if not found.rounds[-1].revealed:
                found.rounds[-1] = replace(found.rounds[-1], revealed=True)
                found.version += 1
            return self._state(code, found)

    def vote_again(self, code: str, token: str) -> ClassState:
        with self._lock:
            found = self._lecturer(code, token)
            if not found.rounds:
                raise ClassError("no_question")
            if len(found.rounds) >= ROUNDS:
                raise ClassError("round_closed")
            found.rounds.append(Round(len(found.rounds) + 1))
            found.version += 1
            return self._state(code, found)

    def end(self, code: str, token: str) -> None:
        with self._lock:
            found = self._lecturer(code, token)
            found.ended = True
            found.version += 1
