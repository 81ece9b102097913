"""Questions asked before a step shows its numbers: the template registry, the frozen Question, and grading.

A template turns what a page is showing (a scenario, a row of scores, a d_k, a sentence) and a seed into one
`Question`. Its answer comes from the engine's own computation; its misconceptions are the values a student
gets with one named mistake, kept only when they cannot be mistaken for the answer. The UI owns every word:
the engine gives stable keys (`text_key`, option keys, misconception keys) and plain-valued params. A
misconception key names the same mistake in every template that uses it ("transposed": rows and columns
swapped), so one feedback string per key, filled with the question's params, serves them all.

A page declares its templates through `Templates(context)`: `.number` (a value to predict and the values named
mistakes give), `.choice` (a token, a row, a shape or a matrix line to pick), `.keyed` (options named by keys,
declared with the mistake each wrong pick reveals as one `picks` table, so that giving a wrong option its
feedback is one entry there). Builders yield drafts; `Template.generate` turns the first fair one into a Question.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from engine.errors import EngineInputError
from engine.limits import (
    MAX_OPTIONS,
    QUESTION_DECIMALS,
    QUESTION_TOLERANCE,
    SEED_RANGE,
)
from engine.questions.picking import SHOWN_GAP
from engine.scaling import row_entropy


class Kind(StrEnum):
    """Pick one option, or type a number."""

    CHOICE = "choice"
    NUMERIC = "numeric"


class OptionKind(StrEnum):
    """What a choice question's options hold, so the UI knows how to show them."""

    TOKEN = "token"  # int: an index into params["tokens"] (names may repeat in a sentence)
    KEY = "key"  # str: an option key the UI translates
    ROW = "row"  # tuple[float, ...]: a row of weights, shown with the question's decimals
    SHAPE = "shape"  # tuple[int, int]: a matrix shape (rows, columns)
    MATRIX_LINE = "matrix_line"  # tuple[str, str, int]: (matrix symbol, a LINE_KEYS key, index)


LINE_KEYS = ("row", "column")  # the keys a MATRIX_LINE option names its line with


class Outcome(StrEnum):
    """How a response is graded: right, a named mistake, or wrong."""

    RIGHT = "right"
    MISCONCEPTION = "misconception"  # wrong, and the response is what a named mistake gives
    WRONG = "wrong"


ParamValue = str | int | float | tuple


class Params(Mapping[str, ParamValue]):
    """A read-only, hashable mapping of plain values: `t(question.text_key, **question.params)` works as is."""

    __slots__ = ("_items", "_lookup")
    _items: tuple[tuple[str, ParamValue], ...]
    _lookup: dict[str, ParamValue]

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> None:
        pairs = tuple((str(name), plain(value)) for name, value in dict(items).items())
        object.__setattr__(self, "_items", pairs)
        object.__setattr__(self, "_lookup", dict(pairs))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Params are read-only")

    def __getitem__(self, name: str) -> ParamValue:
        return self._lookup[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lookup)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"Params({self._lookup!r})"


def plain(value: Any) -> ParamValue:
    """A value as plain Python (str, int, float, or nested tuples of them): numpy leaves nothing behind."""
    if isinstance(value, str | bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, np.ndarray | list | tuple):
        return tuple(plain(v) for v in value)
    raise TypeError(f"question params must be plain numbers, strings or tuples, got {type(value).__name__}")


@dataclass(frozen=True)
class Question:
    """One question, ready to ask: its wording key and params, its options or answer, and how it is graded."""

    template_id: str  # stable id, e.g. "walk.2.score"
    section: str  # the page or step it belongs to, e.g. "walk.2"
    kind: Kind
    text_key: str  # the string the UI shows, filled with params: "q." + template_id
    params: Params  # plain values the wording (and the feedback) needs: token names, indices, d_k, ...
    seed: int  # the seed it was generated from: the same seed and input give the same question
    decimals: int  # how the answer, number params and row options are displayed
    # choice questions
    option_kind: OptionKind | None = None
    options: tuple = ()  # what each option shows, see OptionKind
    correct_option: int | None = None  # index into options
    option_misconceptions: tuple[str | None, ...] = ()  # per option: the mistake picking it reveals, or None
    # numeric questions
    answer: float | None = None
    tolerance: float | None = None  # absolute: |response - answer| <= tolerance is right
    misconceptions: tuple[tuple[str, float], ...] = ()  # (key, the value a student gives with that mistake)

    @property
    def misconception_keys(self) -> tuple[str, ...]:
        """Every mistake this question can name, numeric or choice."""
        if self.kind == Kind.NUMERIC:
            return tuple(key for key, _ in self.misconceptions)
        return tuple(key for key in self.option_misconceptions if key is not None)


@dataclass(frozen=True)
class Grade:
    """How a response fares: right, a named mistake, or wrong."""

    outcome: Outcome
    misconception: str | None  # the named mistake when outcome is MISCONCEPTION (or a wrong option's mistake)
    response: float | int  # the number typed, or the option index picked

    @property
    def right(self) -> bool:
        """True when the response is the answer."""
        return self.outcome == Outcome.RIGHT


# --- what a template's builder yields: a candidate question, before the checks that may reject it ---


@dataclass(frozen=True)
class NumericDraft:
    """A candidate number question: its params, its answer and the numbers named mistakes give."""

    params: dict[str, Any]
    answer: float
    misconceptions: tuple[tuple[str, float], ...]  # candidates; those too close to the answer are dropped
    decimals: int = QUESTION_DECIMALS
    tolerance: float | None = None  # None: the default rule, `default_tolerance(answer)`


@dataclass(frozen=True)
class ChoiceDraft:
    """A candidate choice question: its params, the right option and the wrong ones with their mistakes."""

    params: dict[str, Any]
    correct: Any
    distractors: tuple[tuple[Any, str | None], ...]  # (option, its mistake or None), most telling first
    decimals: int = QUESTION_DECIMALS


@dataclass(frozen=True)
class KeyDraft:
    """A candidate choice among a template's keyed options: its params and the right key. The wrong options are
    the template's other keys (those `unavailable` here left out), each with the mistake its `picks` names."""

    params: dict[str, Any]
    correct: str
    unavailable: frozenset[str] = frozenset()  # keys that would give the same numbers here, or none at all


Draft = NumericDraft | ChoiceDraft | KeyDraft
Builder = Callable[[Any, np.random.Generator], Iterable[Draft]]


def default_tolerance(answer: float) -> float:
    """0.005 (right to two decimals) for answers up to 1 in size, 0.5% of the answer beyond.

    The pages print intermediates to 3 decimals; working from those by hand stays well inside it."""
    return QUESTION_TOLERANCE * max(1.0, abs(answer))


def apart(a: float, b: float, tolerance: float) -> bool:
    """True when b, typed to the displayed precision, cannot be graded as a (nor a as b)."""
    return abs(a - b) > 2 * tolerance


def distinct_options(a: Any, b: Any, decimals: int) -> bool:
    """Two options a student can tell apart: rows and numbers differ by more than one displayed unit."""
    if isinstance(a, tuple) and a and isinstance(a[0], float):
        if len(a) != len(b):
            return True
        return max(abs(x - y) for x, y in zip(a, b, strict=True)) > 10.0**-decimals
    if isinstance(a, float):
        return abs(a - b) > 10.0**-decimals
    return a != b


CHANGE_KEYS = ("spreads", "concentrates", "unchanged")  # what can happen to a row of weights


def change_of(before: np.ndarray, after: np.ndarray) -> str:
    """What happened to a row of weights: "unchanged" (to 1e-9), else "spreads" or "concentrates" by entropy."""
    if np.allclose(after, before, rtol=0, atol=1e-9):
        return "unchanged"
    return "spreads" if row_entropy(after) > row_entropy(before) else "concentrates"


def shown_change(before: np.ndarray, after: np.ndarray, *, same: bool) -> str | None:
    """What happened to a row of weights, as a reader of three decimals sees it: "unchanged" when `same` says it
    cannot change, else "spreads" or "concentrates" when some weight moves by more than one displayed unit, else
    None (a change too small to show: the reveal would contradict the answer)."""
    if same:
        return "unchanged"
    if np.max(np.abs(after - before)) > SHOWN_GAP:
        return change_of(before, after)
    return None


def exp_or_inf(x: Any) -> Any:
    """e^x, inf where it overflows: a misconception that overflows is dropped, not capped to a wrong value."""
    with np.errstate(over="ignore"):
        return np.exp(x)


def finite(option: Any) -> bool:
    """True unless the option holds a NaN or an infinity (a number, or a tuple of them)."""
    if isinstance(option, float):
        return math.isfinite(option)
    if isinstance(option, tuple):
        return all(finite(v) for v in option)
    return True


# --- templates and the registry ---


@dataclass(frozen=True)
class Template:
    """A kind of question a page asks, and the function that builds one from that page's input."""

    id: str
    section: str
    kind: Kind
    context: type | tuple[type, ...]  # what generate() takes: Scenario, SoftmaxRow, ScalingSetup, SentenceVectors, ...
    params: tuple[str, ...]  # the names of the params every question of this template carries
    misconception_keys: tuple[str, ...]  # every mistake its questions may name
    build: Builder = field(repr=False, compare=False)  # yields candidate drafts, most wanted first
    option_kind: OptionKind | None = None
    option_keys: tuple[str, ...] = ()  # for OptionKind.KEY: every key an option may show
    picks: tuple[tuple[str, str | None], ...] = ()  # for a KeyDraft: each option key and the mistake picking it names

    @property
    def text_key(self) -> str:
        """The strings key of the question's text: "q.<template id>"."""
        return f"q.{self.id}"

    def generate(self, context: Any, seed: int) -> Question:
        """A question about `context`, reproducible from `seed`; EngineInputError when none can be made."""
        if not isinstance(context, self.context):
            raise EngineInputError(
                "question_context",
                f"question {self.id!r} is about a {_type_names(self.context)}, got {type(context).__name__}",
                template=self.id,
            )
        seed = checked_seed(seed)
        rng = np.random.default_rng(seed)
        for draft in self.build(context, rng):
            question = self._finish(draft, seed, rng)
            if question is not None:
                return question
        raise EngineInputError(
            "question_not_applicable", f"question {self.id!r} cannot be asked about this input", template=self.id
        )

    def _finish(self, draft: Draft, seed: int, rng: np.random.Generator) -> Question | None:
        """The draft as a Question, or None when it would not be a fair question (see the module docstring)."""
        if isinstance(draft, KeyDraft):
            draft = self._keyed(draft)
        params = Params(draft.params)
        if set(params) != set(self.params):
            raise LookupError(f"{self.id}: params {sorted(params)} differ from the declared {sorted(self.params)}")
        common = dict(
            template_id=self.id,
            section=self.section,
            kind=self.kind,
            text_key=self.text_key,
            params=params,
            seed=seed,
            decimals=draft.decimals,
        )
        if isinstance(draft, NumericDraft):
            return self._finish_numeric(draft, common)
        return self._finish_choice(draft, common, rng)

    def _keyed(self, draft: KeyDraft) -> ChoiceDraft:
        """A keyed draft as a choice: the template's other keys, in its order, each with the mistake it names."""
        if not self.picks:
            raise LookupError(f"{self.id}: a keyed draft needs the template's picks")
        distractors = tuple(
            (key, mistake) for key, mistake in self.picks if key != draft.correct and key not in draft.unavailable
        )
        return ChoiceDraft(draft.params, draft.correct, distractors)

    def _finish_numeric(self, draft: NumericDraft, common: dict) -> Question | None:
        answer = float(draft.answer)
        if not math.isfinite(answer):
            return None
        tolerance = default_tolerance(answer) if draft.tolerance is None else float(draft.tolerance)
        kept: list[tuple[str, float]] = []
        for key, value in draft.misconceptions:
            self._check_key(key)
            value = float(value)
            if math.isfinite(value) and all(apart(value, other, tolerance) for other in (answer, *dict(kept).values())):
                kept.append((key, value))
        if not kept:
            return None
        return Question(**common, answer=answer, tolerance=tolerance, misconceptions=tuple(kept))

    def _finish_choice(self, draft: ChoiceDraft, common: dict, rng: np.random.Generator) -> Question | None:
        correct = plain(draft.correct)
        options: list[tuple[Any, str | None]] = [(correct, None)]
        for option, key in draft.distractors:
            if key is not None:
                self._check_key(key)
            option = plain(option)
            fits = len(options) < MAX_OPTIONS and finite(option)
            if fits and all(distinct_options(option, shown, draft.decimals) for shown, _ in options):
                options.append((option, key))
        if len(options) < 2 or not finite(correct):
            return None
        if self.option_kind == OptionKind.KEY:
            unknown = {option for option, _ in options} - set(self.option_keys)
            if unknown:
                raise LookupError(f"{self.id}: option keys {sorted(unknown)} are not declared")
        order = rng.permutation(len(options))
        shuffled = [options[i] for i in order]
        return Question(
            **common,
            option_kind=self.option_kind,
            options=tuple(option for option, _ in shuffled),
            correct_option=int(np.flatnonzero(order == 0)[0]),
            option_misconceptions=tuple(key for _, key in shuffled),
        )

    def _check_key(self, key: str) -> None:
        if key not in self.misconception_keys:
            raise LookupError(f"{self.id}: misconception {key!r} is not declared")


def _type_names(types: type | tuple[type, ...]) -> str:
    return " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))


TEMPLATES: dict[str, Template] = {}  # every template, by id, in the order they were registered


def template(
    id: str,
    *,
    section: str,
    kind: Kind,
    context: type | tuple[type, ...],
    params: tuple[str, ...],
    misconceptions: tuple[str, ...],
    option_kind: OptionKind | None = None,
    option_keys: tuple[str, ...] = (),
    picks: tuple[tuple[str, str | None], ...] = (),
) -> Callable[[Builder], Builder]:
    """Register the decorated builder as a question template; later pages add theirs the same way."""

    def register(build: Builder) -> Builder:
        if id in TEMPLATES:
            raise LookupError(f"question template {id!r} is registered twice")
        if (kind == Kind.CHOICE) != (option_kind is not None):
            raise LookupError(f"{id}: choice templates (and only they) need an option kind")
        TEMPLATES[id] = Template(
            id, section, kind, context, params, misconceptions, build, option_kind, option_keys, picks
        )
        return build

    return register


@dataclass(frozen=True)
class Templates:
    """The templates of one page, all about one kind of input (`context`). A template's section is the part of its
    id before the last dot ("walk.2.score" is asked at "walk.2") unless it names one."""

    context: type | tuple[type, ...]

    def number(
        self, id: str, *, params: tuple[str, ...], misconceptions: tuple[str, ...], section: str | None = None
    ) -> Callable[[Builder], Builder]:
        """Register a number to predict: its builder yields NumericDrafts naming these mistakes."""
        return self._template(id, section, Kind.NUMERIC, params, misconceptions)

    def choice(
        self,
        id: str,
        *,
        options: OptionKind,
        params: tuple[str, ...],
        misconceptions: tuple[str, ...],
        section: str | None = None,
    ) -> Callable[[Builder], Builder]:
        """Register a choice among tokens, rows, shapes or matrix lines: its builder yields ChoiceDrafts."""
        return self._template(id, section, Kind.CHOICE, params, misconceptions, option_kind=options)

    def keyed(
        self, id: str, *, params: tuple[str, ...], picks: Mapping[str, str | None], section: str | None = None
    ) -> Callable[[Builder], Builder]:
        """Register a choice among keyed options: `picks` lists every option key with the mistake picking it names
        (None: wrong, with no named mistake), and the builder yields KeyDrafts with the right key. The options,
        their mistakes and so their feedback are this one table."""
        mistakes = tuple(dict.fromkeys(mistake for mistake in picks.values() if mistake is not None))
        options = dict(option_kind=OptionKind.KEY, option_keys=tuple(picks), picks=tuple(picks.items()))
        return self._template(id, section, Kind.CHOICE, params, mistakes, **options)

    def _template(
        self,
        id: str,
        section: str | None,
        kind: Kind,
        params: tuple[str, ...],
        misconceptions: tuple[str, ...],
        **options: Any,
    ) -> Callable[[Builder], Builder]:
        section = section or id.rsplit(".", 1)[0]
        return template(
            id,
            section=section,
            kind=kind,
            context=self.context,
            params=params,
            misconceptions=misconceptions,
            **options,
        )


def templates_for(section: str) -> tuple[Template, ...]:
    """The templates of one page or step, in registration order."""
    return tuple(t for t in TEMPLATES.values() if t.section == section)


def sections() -> tuple[str, ...]:
    """Every section that has questions, in the order its first template was registered."""
    return tuple(dict.fromkeys(t.section for t in TEMPLATES.values()))


def generate(template_id: str, context: Any, seed: int) -> Question:
    """The question template `template_id` asks about `context`, reproducible from `seed`."""
    if template_id not in TEMPLATES:
        raise EngineInputError("unknown_question", f"no question template {template_id!r}", template=template_id)
    return TEMPLATES[template_id].generate(context, seed)


def questions_for(section: str, context: Any, seed: int) -> tuple[Question, ...]:
    """One question per template of `section` that can be asked about `context` (the others are skipped)."""
    questions = []
    for t in templates_for(section):
        try:
            questions.append(t.generate(context, seed))
        except EngineInputError as error:
            if error.code != "question_not_applicable":
                raise
    return tuple(questions)


def checked_seed(seed: object) -> int:
    """`seed` as an int, or EngineInputError unless it is an integer within SEED_RANGE."""
    low, high = SEED_RANGE
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not low <= int(seed) <= high:
        raise EngineInputError("bad_seed", f"a seed is an integer in [{low}, {high}], got {seed!r}", low=low, high=high)
    return int(seed)


# --- grading ---


def grade(question: Question, response: float | int) -> Grade:
    """Right, the named mistake the response matches (within the question's tolerance), or wrong."""
    if question.kind == Kind.CHOICE:
        return _grade_choice(question, response)
    assert question.answer is not None and question.tolerance is not None  # a numeric question has both
    value = _checked_number(response)
    slack = 1e-9 * max(1.0, abs(question.answer))  # a typed "0.1" is not exactly 0.1 in binary
    if abs(value - question.answer) <= question.tolerance + slack:
        return Grade(Outcome.RIGHT, None, value)
    for key, mistaken in question.misconceptions:
        if abs(value - mistaken) <= question.tolerance + slack:
            return Grade(Outcome.MISCONCEPTION, key, value)
    return Grade(Outcome.WRONG, None, value)


def _grade_choice(question: Question, response: object) -> Grade:
    if isinstance(response, bool) or not isinstance(response, numbers.Integral):
        raise EngineInputError("bad_response", f"a choice is answered with an option index, got {response!r}")
    index = int(response)
    if not 0 <= index < len(question.options):
        raise EngineInputError(
            "bad_response", f"option {index} does not exist (0 to {len(question.options) - 1})", value=index
        )
    if index == question.correct_option:
        return Grade(Outcome.RIGHT, None, index)
    key = question.option_misconceptions[index]
    return Grade(Outcome.WRONG if key is None else Outcome.MISCONCEPTION, key, index)


def _checked_number(response: object) -> float:
    if isinstance(response, bool) or not isinstance(response, numbers.Real):
        raise EngineInputError("bad_response", f"a numeric question is answered with a number, got {response!r}")
    value = float(response)
    if not math.isfinite(value):
        raise EngineInputError("bad_response", f"a numeric answer must be finite, got {value!r}")
    return value
