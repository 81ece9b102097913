"""The live class's store: one interface, two backends (in-process by default, Redis for replicas).

Pure Python: no streamlit, plotly or pandas. The UI (ui/live*.py) talks only to `ClassStore`; which backend serves
it is `classroom.store()` (REDIS_URL in the environment or in Streamlit's secrets picks Redis; else in-process).

A class is a room code (6 characters, no look-alikes), a lecturer token (≥ 128 bits, only in the lecturer's
session and private link), the view the lecturer shows (page, walkthrough part, scenario as a share code, and the
question asked, if any) with a version that grows on each change, the students joined (random anonymous ids), and
the current question's rounds of answers (round 1, then round 2 after "vote again"). Answers are text as the
student gave them (an option's index, or a typed number): what they mean is graded by the engine in the UI's pure
view-model, never here. Each question asked is kept for the lecturer's tally (`history`): when the lecturer moves
to another question, the one before is archived with its rounds in the same atomic write, so no answer sent before
that write is lost, and the tally is the store's, not a session's (a reload through the private link, another
replica, the end of the class: the lecturer gets it whole).

Every write is atomic; an answer re-sent counts once, and can be changed until the reveal. Bounds (students per
class, classes per server, answer length) and faults raise `ClassError` with a code the UI words in the reader's
language (strings `live.error.<code>`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
TOKEN_BYTES = 24  # 192 bits
MAX_STUDENTS = 500  # per class
MAX_CLASSES = 200  # per server (in-process) or per Redis
MAX_ANSWER_CHARS = 64
MAX_VIEW_CHARS = 20_000  # the view's scenario code and names, serialised; also a question's `detail`
MAX_ASKINGS = 60  # questions a class keeps for its tally, the oldest forgotten first
IDLE_SECONDS = 4 * 3600  # a class nobody touched for this long is removed
ROUNDS = 2

ERROR_CODES = (
    "class_unknown",  # no such code (or expired)
    "class_ended",  # the lecturer ended it
    "class_full",  # MAX_STUDENTS joined
    "server_full",  # MAX_CLASSES open
    "not_lecturer",  # the token is not this class's
    "not_joined",  # an answer from an id that never joined
    "no_question",  # an answer while no question is asked, or for another question
    "round_closed",  # an answer after the reveal, or to a round that is not the current one
    "answer_too_long",
    "view_too_large",  # the view, or the question's detail, beyond MAX_VIEW_CHARS
    "store_unavailable",  # Redis down
)


class ClassError(Exception):
    """A refused class operation: `code` is one of ERROR_CODES."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class QuestionRef:
    """The question the lecturer asks: the gate it stands at, its template and seed, and a digest of the question as
    drawn. Students following the lecturer have the same scenario, so engine.questions.generate(template_id,
    context, seed) gives them the same draw; the digest ties the question to that scenario: the same template and
    seed about an edited scenario is another question (another digest), so its answers start afresh."""

    gate: str
    template_id: str
    seed: int
    digest: str = ""  # ui.view_models.live.question_digest of the question asked ("": matches no question)


@dataclass(frozen=True)
class View:
    """What the lecturer shows: the page (ui.pages key), the walkthrough's part, the scenario's share code."""

    page: str
    step: int | None = None
    scenario: str | None = None  # engine.scenario_io.encode_scenario(...), None: the lesson's example
    question: QuestionRef | None = None


@dataclass(frozen=True)
class Round:
    """One round of answers to the current question: student id → the answer's text."""

    number: int  # 1 or 2
    answers: dict[str, str] = field(default_factory=dict)
    revealed: bool = False


@dataclass(frozen=True)
class ClassState:
    """A class as one read sees it."""

    code: str
    version: int  # grows with every change of the view, the rounds or the reveal
    view: View
    students: int
    rounds: tuple[Round, ...] = ()  # the current question's rounds, oldest first; () when no question
    ended: bool = False
    # the version at which the current question was asked (0: none): the same question asked again (the lecturer
    # went on and came back) is another asking, whose round 1 starts afresh, though the view reads the same
    asked_at: int = 0

    @property
    def current_round(self) -> Round | None:
        """The round being answered (or revealed), if a question is asked."""
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True)
class Asking:
    """One asking of a question, as the lecturer's tally counts it: the class's version when it was asked, the
    question's reference and `detail` (the question as drawn, text the lecturer's page wrote and reads back:
    engine.questions.serial), its rounds' answers, and how many students had joined when it was last read (for
    an archived asking: when the lecturer moved on)."""

    asked_at: int
    question: QuestionRef
    detail: str
    rounds: tuple[Round, ...]
    joined: int


class ClassStore(Protocol):
    """The live class's store. Every method may raise ClassError."""

    embedded: bool  # True for the in-process store: a server restart ends its classes (the UI says so)

    def open_class(self, view: View, detail: str = "") -> tuple[str, str]:
        """A new class showing `view` (`detail`: its question as drawn, if it asks one): (room code, lecturer
        token)."""
        ...

    def is_lecturer(self, code: str, token: str) -> bool:
        """True when `token` is the lecturer token of the open class `code` (constant-time comparison)."""
        ...

    def join(self, code: str, student_id: str) -> ClassState:
        """Join (again: idempotent) the class `code` as `student_id`."""
        ...

    def state(self, code: str) -> ClassState:
        """The class as it is now (refreshes its idle clock only for writes)."""
        ...

    def version(self, code: str) -> int:
        """The class's version alone: the cheap read a follower polls every second."""
        ...

    def publish(self, code: str, token: str, view: View, detail: str = "") -> ClassState:
        """The lecturer shows `view`. A question other than the current one starts its round 1 afresh (the one
        before archived for the tally, in the same write), kept with `detail`, the question as drawn."""
        ...

    def history(self, code: str, token: str) -> tuple[Asking, ...]:
        """Every question asked in the class, oldest first (at most MAX_ASKINGS), the current one with its rounds
        as they are now: the lecturer's only (not_lecturer otherwise), and still for a while after the end."""
        ...

    def answer(self, code: str, student_id: str, question: QuestionRef, round_number: int, answer: str) -> None:
        """A student's answer to the current round (replaces their earlier answer in it; counted once)."""
        ...

    def reveal(self, code: str, token: str) -> ClassState:
        """The lecturer reveals the current round's answer: the round takes no more answers."""
        ...

    def vote_again(self, code: str, token: str) -> ClassState:
        """The lecturer opens round 2 of the current question (after round 1; at most ROUNDS rounds)."""
        ...

    def end(self, code: str, token: str) -> tuple[Asking, ...]:
        """The lecturer ends the class: every later read says class_ended. Its history as it ended (the current
        question archived with the answers sent up to the end)."""
        ...

    def listen(self, listener: Callable[[str], None]) -> None:
        """Call `listener(code)` after every lecturer write that changed what class `code`'s followers show (a
        changed view, a new round, the reveal, the end; never a join or an answer), on this server or, for Redis,
        on any replica (classroom/bell.py): from the writer's thread (in-process) or the store's listening thread
        (Redis). The listener must be quick and not raise."""
        ...


ENDED_SECONDS = 3600  # an ended class still says class_ended (not class_unknown) to a student for this long


@dataclass(frozen=True)
class Bounds:
    """A store's limits; the defaults are the module's constants, tests lower them (a class of 5, a 1 s idle)."""

    students: int = MAX_STUDENTS
    classes: int = MAX_CLASSES  # open classes; as many ended ones are remembered, the oldest forgotten first
    answer_chars: int = MAX_ANSWER_CHARS
    view_chars: int = MAX_VIEW_CHARS
    askings: int = MAX_ASKINGS
    idle_seconds: float = IDLE_SECONDS
    ended_seconds: float = ENDED_SECONDS
