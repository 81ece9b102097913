"""The questions' view-model: which question a gate asks, how an answer is graded, what has been answered, and the
tally. Pure: it draws nothing and reads no session state and no strings (a language, where one is needed, is
passed in); frozen data and plain functions over it.

ui/questions.py draws a gate from these, and anything else that asks the same questions (a live class: one draw for
a whole room, answers gathered from many sessions, the lecturer's reveal) calls them the same way:

    question = pick_question("walk.2", scenario, seed=seed, gate="walk.2", draw=0)
        The question a gate asks. The same section, context, seed, gate and draw give the same question in any
        session on any server: a student alone draws with the session's own seed, a class with the seed its
        lecturer shares. None when no template of the section can be asked about this context.
    attempt = graded(question, response, lang)
        A response graded: an option's index, or a number as typed (read in `lang`, "es" or "en"). Its
        `attempt.grade.outcome` is right, misconception (`attempt.grade.misconception` names it) or wrong; an
        EngineInputError's code says why a typed number cannot be graded ("not_a_number", "ambiguous_number"...).
    record = Record(question, gate, page).with_attempt(attempt)     (or .with_shown(): "show me", a reveal)
        One question's answers in order: `answered`, `right`, `first_try_right`, `revealed`, `settled`, `outcome`.
    tally(records) -> Tally(answered, right, first_try_right)
        Counted from any list of records: a session's, or every student's record of one question.
    view = gate_view(book, gate, page, question, revealed=None)
        A gate as it stands: its record and unreadable answer, and whether the step it guards may show, after
        the student's own answer or "show me" (revealed=None) or as something else decides (the lecturer's reveal).

`Book` is one session's questions: its seed, each gate's draw, the question each gate shows now, one `Record` per
question answered or shown (keyed by `identity`, so an edited scenario asks a fresh question and the old answer comes
back with the old scenario), and each question's unreadable answer. Every change returns a new Book.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from engine import EngineInputError
from engine import questions as engine_questions
from engine.number_grammar import typed_number as engine_typed_number
from engine.questions import Grade, Kind, Outcome, Question
from ui.languages import DEFAULT_LANGUAGE, NUMBER_SEPARATORS

SECTION_PAGES = {"walk": "walkthrough"}  # an engine section's prefix -> its page key, where they differ


# --- which question a gate asks ---


def derived_seed(*parts: object) -> int:
    """A seed in the engine's range from the session seed, the gate and the draw: stable, and spread out."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big")


def pick_question(
    section: str,
    context: object,
    *,
    seed: int,
    gate: str,
    draw: int = 0,
    templates: Sequence[str] | None = None,
) -> Question | None:
    """The question a gate asks: templates of `section` that take this context (those in `templates` only, when
    given), starting at one chosen by the session seed and moving one template on per draw; a template that
    cannot be asked about this input is skipped. None when no template can be asked."""
    candidates = [
        template
        for template in engine_questions.templates_for(section)
        if isinstance(context, template.context) and (templates is None or template.id in templates)
    ]
    if not candidates:
        return None
    start = derived_seed(seed, gate, "start") % len(candidates)
    question_seed = derived_seed(seed, gate, draw)
    for step in range(len(candidates)):
        template = candidates[(start + draw + step) % len(candidates)]
        try:
            return template.generate(context, question_seed)
        except EngineInputError as error:
            if error.code != "question_not_applicable":
                raise
    return None


def identity(gate: str, question: Question) -> str:
    """What makes two questions the same one: a changed scenario changes the answer, so the identity."""
    described = repr(
        (
            gate,
            question.template_id,
            question.seed,
            tuple(question.params.items()),
            question.options,
            question.correct_option,
            question.answer,
        )
    )
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def page_of(section: str) -> str:
    """The page key an engine section belongs to: "walk.2" -> "walkthrough", "softmax" -> "softmax"."""
    prefix = section.split(".")[0]
    return SECTION_PAGES.get(prefix, prefix)


# --- grading a response ---


def typed_number(text: str, lang: str) -> float:
    """A typed answer as a number, read with `lang`'s decimal separator: "0,954" and "0.954", a true minus sign,
    thousands written either way (engine.number_grammar.typed_number, the rule the live class's tally shares)."""
    decimal_separator, _ = NUMBER_SEPARATORS.get(lang, NUMBER_SEPARATORS[DEFAULT_LANGUAGE])
    return engine_typed_number(text, decimal_separator)


@dataclass(frozen=True)
class Attempt:
    """One answer: what the student typed or picked, and how the engine graded it."""

    typed: str  # the text typed, or the picked option's index as text
    grade: Grade


def graded(question: Question, response: int | str, lang: str) -> Attempt:
    """A response graded: the option index picked, or the number as typed (read in `lang`); EngineInputError
    when a typed number cannot be read."""
    if question.kind == Kind.CHOICE:
        return Attempt(str(response), engine_questions.grade(question, int(response)))
    typed = str(response)
    return Attempt(typed, engine_questions.grade(question, typed_number(typed, lang)))


# --- what has been answered ---


@dataclass(frozen=True)
class Record:
    """One question answered or asked to see, with every answer in order."""

    question: Question
    gate: str
    page: str
    attempts: tuple[Attempt, ...] = ()
    shown: bool = False  # "show me", or the lecturer's reveal

    def with_attempt(self, attempt: Attempt) -> Record:
        """This record with one more answer."""
        return replace(self, attempts=(*self.attempts, attempt))

    def with_shown(self) -> Record:
        """This record with its answer shown."""
        return replace(self, shown=True)

    @property
    def answered(self) -> bool:
        """At least one answer was given."""
        return bool(self.attempts)

    @property
    def right(self) -> bool:
        """One of the answers was right."""
        return any(attempt.grade.right for attempt in self.attempts)

    @property
    def first_try_right(self) -> bool:
        """The first answer was right."""
        return self.answered and self.attempts[0].grade.right

    @property
    def revealed(self) -> bool:
        """The step may show its answer: answered (right or not) or shown."""
        return self.answered or self.shown

    @property
    def settled(self) -> bool:
        """Nothing left to try: answered right, or the answer was shown."""
        return self.right or self.shown

    @property
    def outcome(self) -> str:
        """right, misconception or wrong (the last answer), or shown when never answered."""
        if self.right:
            return Outcome.RIGHT.value
        if self.attempts:
            return self.attempts[-1].grade.outcome.value
        return "shown"


class Tally(NamedTuple):
    """How many questions were answered, answered right, and right at the first try."""

    answered: int
    right: int
    first_try_right: int


def tally(records: Iterable[Record]) -> Tally:
    """The tally of any list of records: a session's, or every student's record of one question."""
    records = list(records)
    return Tally(
        sum(r.answered for r in records),
        sum(r.right for r in records),
        sum(r.first_try_right for r in records),
    )


@dataclass(frozen=True)
class Book:
    """One session's questions: its seed, each gate's draw and current question, the records, the unreadable answers.

    Every change returns a new Book; the mappings are never changed in place."""

    seed: int
    draws: Mapping[str, int] = field(default_factory=dict)  # gate -> how many times "another question" was asked
    current: Mapping[str, Question] = field(default_factory=dict)  # gate -> the question it shows now
    records: Mapping[str, Record] = field(default_factory=dict)  # question identity -> record, in answer order
    errors: Mapping[str, tuple[str, dict]] = field(default_factory=dict)  # identity -> an unreadable answer's error

    def draw(self, gate: str) -> int:
        """The gate's draw: 0, and one more for every "another question"."""
        return self.draws.get(gate, 0)

    def drawn_again(self, gate: str) -> Book:
        """The gate moves on to its next question."""
        return replace(self, draws={**self.draws, gate: self.draw(gate) + 1})

    def asking(self, gate: str, question: Question) -> Book:
        """The gate shows `question` now."""
        if self.current.get(gate) == question:
            return self
        return replace(self, current={**self.current, gate: question})

    def record(self, gate: str, question: Question) -> Record | None:
        """The record of the gate's question, None before it is answered or shown."""
        return self.records.get(identity(gate, question))

    def answered(self, gate: str, page: str, question: Question, attempt: Attempt) -> Book:
        """The question answered once more (its unreadable answer, if any, forgotten)."""
        ident = identity(gate, question)
        record = self.records.get(ident, Record(question, gate, page)).with_attempt(attempt)
        errors = {key: error for key, error in self.errors.items() if key != ident}
        return replace(self, records={**self.records, ident: record}, errors=errors)

    def shown(self, gate: str, page: str, question: Question) -> Book:
        """The question's answer shown: "show me", or the lecturer's reveal."""
        ident = identity(gate, question)
        record = self.records.get(ident, Record(question, gate, page)).with_shown()
        return replace(self, records={**self.records, ident: record})

    def refused(self, gate: str, question: Question, code: str, params: dict) -> Book:
        """An answer that could not be graded, kept to say why (the strings key quiz.error.<code>)."""
        return replace(self, errors={**self.errors, identity(gate, question): (code, params)})

    def tally(self) -> Tally:
        """The session's tally."""
        return tally(self.records.values())


@dataclass(frozen=True)
class GateView:
    """A gate as it stands: the question it asks, its record (None before any answer), the answer it could not read
    (a strings code and its params), and whether the step it guards may show."""

    gate: str
    page: str
    question: Question
    record: Record | None
    error: tuple[str, dict] | None
    revealed: bool

    @property
    def ident(self) -> str:
        """The question's identity (ui.questions keys its widgets by it)."""
        return identity(self.gate, self.question)

    @property
    def settled(self) -> bool:
        """Nothing left to try: answered right, or shown."""
        return self.record is not None and self.record.settled


def gate_view(book: Book, gate: str, page: str, question: Question, revealed: bool | None = None) -> GateView:
    """The gate of `question` in `book`: revealed once answered or shown (revealed=None), or as `revealed` says."""
    record = book.record(gate, question)
    if revealed is None:
        revealed = record is not None and record.revealed
    return GateView(gate, page, question, record, book.errors.get(identity(gate, question)), revealed)
