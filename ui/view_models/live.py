"""The live class's view-model: who this session is in a class, what a follower must change to show the lecturer's
view, what an answer is sent as, and the class's distribution of answers to a question, round by round.

Pure: no Streamlit, no session state, no strings. ui/live/ reads the session and the store (classroom/api.py),
calls these, and says the result in the reader's language.

    seat = StudentSeat(code, student_id)                  a student in class `code`, following by default
    plan = follow_plan(view, page, step, scenario_code)   what to change to show the lecturer's `view`
    text = sent_answer(question, response, lang)          an answer as the store keeps it (index, or the number)
    shares = distribution(question, round)                each option's (or value's) count and share, as
                                                          classroom.tally counts them
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple
from urllib.parse import urlencode, urlsplit, urlunsplit

from classroom import codes, tally
from classroom.api import Asking, ClassError, ClassState, QuestionRef, Round, View
from classroom.tally import GroupKind, received_response
from engine import EngineInputError
from engine import questions as engine_questions
from engine.questions import Kind, Question
from engine.questions.serial import question_from_json
from ui.question_book import typed_number

CODE_PARAM = "class"  # ?class=CODE: the class a student follows (ui.url keeps it)
STUDENT_PARAM = "me"  # ?me=ID: the student's anonymous id, so that a reload keeps their answers
LECTURER_PARAM = "teach"  # ?teach=TOKEN: the private lecturer link; read once, then removed from the address bar


# --- who this session is: read by classroom/codes.py's one rule for codes, ids and tokens ---


def normalised_code(text: object) -> str | None:
    """A room code as typed or linked ("abc 23x", "ABC–23X") in its canonical form, or None when it is none
    (classroom.codes.normal_code: case, spaces and dashes aside, CODE_LENGTH characters of CODE_ALPHABET)."""
    try:
        return codes.normal_code(text)
    except ClassError:
        return None


def valid_student_id(text: object) -> str | None:
    """A student id from the URL, or None when it is not one this app makes (classroom.codes.is_student_id)."""
    return text if isinstance(text, str) and codes.is_student_id(text) else None


def valid_token(text: object) -> str | None:
    """A lecturer token from the URL as far as its form goes (the store decides whether it is this class's)."""
    return text if isinstance(text, str) and codes.is_token(text) else None


def new_student_id() -> str:
    """A fresh anonymous student id (no name asked, nothing about the student in it)."""
    return codes.new_student_id()


@dataclass(frozen=True)
class StudentSeat:
    """A student in a class: the code, their anonymous id, whether they follow the lecturer, the class as last
    read (and its version), and their own answers: (question, round number) -> the response as they gave it, and
    the class's version they had read when they sent it (`sent_at`)."""

    code: str
    student_id: str
    following: bool = True
    seen_version: int = -1
    state: ClassState | None = None
    applied: View | None = None  # the lecturer's view as this follower last showed it
    responses: Mapping[tuple[QuestionRef, int], str] = field(default_factory=dict)
    sent_at: Mapping[tuple[QuestionRef, int], int] = field(default_factory=dict)


@dataclass(frozen=True)
class LecturerSeat:
    """The lecturer of a class: the code, the token (only here and in the private link), and the view last
    published. The questions asked and their answers are the class's, read from the store (`ClassStore.history`)."""

    code: str
    token: str
    published: View | None = None


def class_tallies(history: Sequence[Asking]) -> list[tally.QuestionTally]:
    """The class's tally: each asking that had a round, in the order asked, counted by classroom.tally on the
    question as the lecturer's page drew it (its `detail`); an asking whose detail this release cannot read (kept by
    another one) is left out."""
    tallies = []
    for asking in history:
        try:
            question = question_from_json(asking.detail)
        except ValueError:
            continue
        if asking.rounds:
            tallies.append(tally.question_tally(asking.question, question, asking.rounds, asking.joined))
    return tallies


def tally_csv(history: Sequence[Asking], header: Sequence[str], yes_no: tuple[str, str]) -> str:
    """The class's tally as CSV, its header and yes/no as given (in the reader's language): built at click time."""
    return tally.tally_csv(class_tallies(history), header, yes_no)


def tally_json(history: Sequence[Asking]) -> str:
    """The class's tally as JSON: built at click time."""
    return tally.tally_json(class_tallies(history))


def app_base(page_url: str | None, page_path: str) -> str:
    """The app's address from the current page's (st.context.url): "http://host:8501/walkthrough?x" on the page
    "walkthrough" gives "http://host:8501"; a server under a path keeps it ("https://h/app/walkthrough": "https://h/app")."""
    parts = urlsplit(page_url or "")
    path = parts.path.rstrip("/")
    if page_path and path.endswith("/" + page_path):
        path = path[: -len(page_path) - 1]
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def join_link(base: str, code: str) -> str:
    """The link students open (or scan): the app's home page in class `code`."""
    return f"{base}/?{urlencode({CODE_PARAM: code})}"


def lecturer_link(base: str, code: str, token: str) -> str:
    """The private link that gives the lecturer control again (after a reload, on another device)."""
    return f"{base}/?{urlencode({CODE_PARAM: code, LECTURER_PARAM: token})}"


# --- following ---


class FollowPlan(NamedTuple):
    """What a follower changes to show the lecturer's view: the scenario's code, the part, the page (None: keep)."""

    scenario: str | None
    step: int | None
    page: str | None

    @property
    def changes(self) -> bool:
        """Whether anything changes."""
        return any(value is not None for value in self)


def follow_plan(view: View, page: str, step: int | None, scenario_code: str) -> FollowPlan:
    """What to change, on the page `page` at part `step` showing the scenario `scenario_code`, to show `view`."""
    return FollowPlan(
        view.scenario if view.scenario is not None and view.scenario != scenario_code else None,
        view.step if view.step is not None and view.step != step else None,
        view.page if view.page != page else None,
    )


DIGEST_CHARS = 16  # hex digits of SHA-256 kept: 64 bits, two questions of one gate never share one


def question_digest(question: Question) -> str:
    """A question as drawn, in a few characters: its wording's params, options or answer and mistakes (repr of
    plain numbers, text and tuples: the same on every replica). Another scenario's draw has another digest."""
    return hashlib.sha256(repr(question).encode()).hexdigest()[:DIGEST_CHARS]


def follower_redraws(before: ClassState, current: ClassState) -> bool:
    """Whether a follower's page draws anything else of the class read now (`current`) than of the one read
    `before`: the view, the question's asking (asked again, it reads the same but starts afresh), the current
    round's number and reveal, the end. Another student's join or answer changes none of it."""
    return _drawn(before) != _drawn(current)


def _drawn(current: ClassState) -> tuple:
    rnd = current.current_round
    return (current.view, current.asked_at, rnd.number if rnd else 0, rnd.revealed if rnd else False, current.ended)


def follows_in_part(plan: FollowPlan, page: str, part_page: str | None, ended: bool) -> bool:
    """Whether a follower on `page` shows the lecturer's new view by rerunning only the fragment that draws the
    walkthrough's part (and its question): the page drew that fragment (`part_page` is the page whose last run drew
    it), the class goes on, and neither the page nor the scenario changes (the page's top shows the scenario)."""
    return not ended and part_page == page and plan.page is None and plan.scenario is None


def question_ref(gate: str, question: Question) -> QuestionRef:
    """What the lecturer publishes of the question a gate asks: the follower generates the same one from it."""
    return QuestionRef(gate, question.template_id, question.seed, question_digest(question))


def same_question(ref: QuestionRef, context: object) -> Question | None:
    """The lecturer's question generated on this session's context (the lecturer's scenario, when following), or
    None when it cannot be asked about it (an unknown template, a forged seed, another kind of context) or it is
    not the question the lecturer asks (another scenario: the follower's has not caught up, or the lecturer's
    changed and the class is asked the new one)."""
    try:
        question = engine_questions.generate(ref.template_id, context, ref.seed)
    except EngineInputError:
        return None
    return question if question_digest(question) == ref.digest else None


def sent_answer(question: Question, response: int | str, lang: str) -> str:
    """An answer as the class store keeps it: the option's index, or the typed number read in the student's `lang`
    and written as Python writes floats (so the projector reads it in any language). EngineInputError when the
    typed text is no number."""
    if question.kind == Kind.CHOICE:
        index = int(response)
        if not 0 <= index < len(question.options):
            raise EngineInputError("bad_response", f"option {index} does not exist", value=index)
        return str(index)
    value = typed_number(str(response), lang)
    if not math.isfinite(value):
        raise EngineInputError("infinite", "a numeric answer must be finite", value=str(response))
    return repr(float(value))


def own_answer(seat: StudentSeat, ref: QuestionRef, number: int, question: Question, decimal: str) -> str | None:
    """The student's answer in round `number`, as they typed it (an option's index for a choice): from this
    session, or, after a reload, from the class (the store keeps it under their id), written back with the
    reader's `decimal` separator so that it reads as the number it was. A session's answer the class no longer
    holds, the question asked anew since it was sent (its round 1 starts afresh), is no answer."""
    rounds = seat.state.rounds if seat.state is not None and seat.state.view.question == ref else ()
    kept = next((r.answers.get(seat.student_id) for r in rounds if r.number == number), None)
    if (ref, number) in seat.responses:
        current = seat.state
        dropped = (
            current is not None
            and current.view.question == ref
            and kept is None
            and current.asked_at > seat.sent_at.get((ref, number), current.asked_at)
        )
        return None if dropped else seat.responses[(ref, number)]
    if kept is None or received_response(question, kept) is None:
        return None
    return kept if question.kind == Kind.CHOICE else kept.replace(".", decimal)


# --- the class's answers ---


@dataclass(frozen=True)
class Group:
    """Answers the projector shows as one bar: one option (its index), or numbers within the tolerance of one value
    (the right answer or a misconception's), or everything else (`other`: numbers no named mistake gives, and
    answers that are no option's index or no number)."""

    option: int | None = None
    value: float | None = None
    right: bool = False
    misconception: str | None = None

    @property
    def other(self) -> bool:
        """Answers that match no option or value the question knows."""
        return self.option is None and self.value is None


OTHER = Group()


def shown_group(question: Question, counted: tally.Group) -> Group:
    """One of the class tally's groups (classroom/tally.py) as the projector shows it."""
    if counted.kind == GroupKind.OPTION:
        return Group(option=counted.option, right=counted.right, misconception=counted.misconception)
    if counted.kind == GroupKind.RIGHT:
        return Group(value=question.answer, right=True)
    if counted.kind == GroupKind.MISCONCEPTION:
        return Group(
            value=dict(question.misconceptions)[str(counted.misconception)], misconception=counted.misconception
        )
    return OTHER


def groups(question: Question) -> tuple[Group, ...]:
    """The groups a question's answers fall into, in the order the projector shows them: the options A, B, C...;
    for a number, the right value and each misconception's, smallest first (so the order says nothing about which
    is right); then the other answers."""
    found = [shown_group(question, counted) for counted in tally.counted_groups(question, ())]
    known = [group for group in found if not group.other]
    if question.kind != Kind.CHOICE:
        known.sort(key=lambda group: group.value or 0.0)
    return (*known, OTHER)


def group_of(question: Question, text: str) -> Group:
    """The group an answer falls into, graded by the engine as the student's own feedback is."""
    (counted,) = (group for group in tally.counted_groups(question, (text,)) if group.count)
    return shown_group(question, counted)


@dataclass(frozen=True)
class Distribution:
    """One round's answers: how many, and how many in each group (in `groups(question)`'s order)."""

    number: int
    answered: int
    counts: tuple[tuple[Group, int], ...]
    revealed: bool

    def share(self, count: int) -> float:
        """A count as a share of the answers (0 when nobody answered)."""
        return count / self.answered if self.answered else 0.0


def distribution(question: Question, round_: Round) -> Distribution:
    """The round's answers as the class tally counts them (classroom.tally), in the projector's groups and order."""
    counted = dict.fromkeys(groups(question), 0)
    for group in tally.counted_groups(question, list(round_.answers.values())):
        counted[shown_group(question, group)] += group.count
    return Distribution(round_.number, len(round_.answers), tuple(counted.items()), round_.revealed)


MAX_VALUES_SHOWN = 12  # bars of values before the reveal; the values fewest gave beyond these are drawn as `other`


def given_value(question: Question, text: str) -> float | None:
    """A numeric answer as the projector draws it before the reveal: the number given, at the question's shown
    digits (None: no number)."""
    response = received_response(question, text)
    return None if response is None else round(float(response), question.decimals)


def projector_rounds(question: Question, rounds: Sequence[Round], marked: bool) -> list[Distribution]:
    """Each round's answers as the projector draws them. A choice, or a number after the reveal: the tally's groups
    (`distribution`). A number before the reveal: only the values the class gave, smallest first, the same bars
    for every round; no bar for the right value or a mistake nobody made, and no value moved to the right one's
    digits (the bins of the tally would give the answer away); at most MAX_VALUES_SHOWN, the rest `other`."""
    if marked or question.kind == Kind.CHOICE:
        return [distribution(question, round_) for round_ in rounds]
    given = [[given_value(question, text) for text in round_.answers.values()] for round_ in rounds]
    popular = Counter(value for values in given for value in values if value is not None).most_common()
    bars = [Group(value=value) for value in sorted(value for value, _ in popular[:MAX_VALUES_SHOWN])]
    shown = {group.value for group in bars}
    out = []
    for round_, values in zip(rounds, given, strict=True):
        counted = dict.fromkeys([*bars, OTHER], 0)
        for value in values:
            counted[Group(value=value) if value in shown else OTHER] += 1
        out.append(Distribution(round_.number, len(round_.answers), tuple(counted.items()), round_.revealed))
    return out


def shown_groups(distributions: Sequence[Distribution]) -> list[Group]:
    """The groups the projector draws: all but `other`, which shows only when some round has such answers."""
    if not distributions:
        return []
    every = [group for group, _ in distributions[0].counts]
    other_count = sum(count for d in distributions for group, count in d.counts if group.other)
    return [group for group in every if not group.other or other_count]


def answer_shown(rounds: Sequence[Round]) -> bool:
    """Whether the projector marks the right answer: the current round is revealed. Round 2 opened after round 1's
    reveal is a vote like the first, so nothing is marked until its own reveal (as the lecturer's gate hides it)."""
    return bool(rounds) and rounds[-1].revealed
