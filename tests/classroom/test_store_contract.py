"""The class store's contract (classroom/api.py), the same tests on both backends: in-process and Redis."""

from __future__ import annotations

import contextlib
import queue
import threading
import time

import pytest

from classroom.api import MAX_STUDENTS, Asking, Bounds, ClassError, QuestionRef, Round, View
from classroom.codes import is_code, new_code, new_student_id, new_token

Q1 = QuestionRef("walk.2", "walk.2.score", 17)
Q2 = QuestionRef("walk.3", "walk.3.weight", 4)
LESSON = View("walkthrough", step=1)
ASKING = View("walkthrough", step=2, scenario="s1.abc", question=Q1)


def refused(code: str, call, *args):
    with pytest.raises(ClassError) as error:
        call(*args)
    assert error.value.code == code, error.value.code
    return error.value


def opened(backend, view=LESSON, **bounds):
    store = backend.make(Bounds(**bounds))
    code, token = store.open_class(view)
    return store, code, token


def joined(store, code, n):
    students = [new_student_id() for _ in range(n)]
    for student in students:
        store.join(code, student)
    return students


# --- opening, joining, reading ---


def test_a_new_class_shows_the_lecturers_view_to_nobody_yet(backend):
    store, code, token = opened(backend)
    assert is_code(code) and len(token) >= 22  # ≥ 128 bits in base64
    state = store.state(code)
    assert (state.code, state.view, state.students, state.rounds, state.ended) == (code, LESSON, 0, (), False)
    assert store.version(code) == state.version
    assert store.is_lecturer(code, token)


def test_opening_on_a_question_starts_round_1(backend):
    store, code, _ = opened(backend, ASKING)
    state = store.state(code)
    assert state.view == ASKING
    assert [(r.number, r.answers, r.revealed) for r in state.rounds] == [(1, {}, False)]


def test_two_classes_get_different_codes_and_tokens(backend):
    store = backend.make(Bounds())
    (a, ta), (b, tb) = store.open_class(LESSON), store.open_class(LESSON)
    assert a != b and ta != tb
    assert not store.is_lecturer(a, tb) and not store.is_lecturer(b, ta)


def test_joining_again_is_idempotent_and_counts_once(backend):
    store, code, _ = opened(backend)
    student = new_student_id()
    first = store.join(code, student)
    again = store.join(code, student)
    assert first.students == again.students == 1
    assert again.version == first.version  # nothing changed
    store.join(code, new_student_id())
    assert store.state(code).students == 2
    assert store.version(code) > first.version


def test_a_guessed_or_malformed_code_is_no_class(backend):
    store, code, token = opened(backend)
    guesses = {new_code() for _ in range(50)} - {code}
    for guess in [*guesses, "", "abc", "<b>X</b>", code.lower(), "O" * 6, "x" * 10_000]:
        refused("class_unknown", store.join, guess, new_student_id())
        refused("class_unknown", store.state, guess)
        refused("class_unknown", store.version, guess)
        refused("class_unknown", store.publish, guess, token, LESSON)
        assert not store.is_lecturer(guess, token)
    assert store.state(code).students == 0


def test_a_malformed_student_id_cannot_join(backend):
    store, code, _ = opened(backend)
    for bad in ["", "a b", "x" * 1000, "<script>", None]:
        refused("not_joined", store.join, code, bad)
    assert store.state(code).students == 0


# --- the lecturer's view ---


def test_publishing_a_new_view_grows_the_version_and_the_same_view_does_not(backend):
    store, code, token = opened(backend)
    v0 = store.version(code)
    state = store.publish(code, token, View("softmax"))
    assert state.view == View("softmax") and state.version > v0
    assert store.publish(code, token, View("softmax")).version == state.version
    assert store.state(code).view == View("softmax")


def test_a_view_round_trips_exactly(backend):
    store, code, token = opened(backend)
    view = View("walkthrough", step=0, scenario="¿qué? «perro» " + "x" * 100, question=QuestionRef("g", "t", 0))
    store.publish(code, token, view)
    assert store.state(code).view == view


def test_a_new_question_starts_round_1_afresh_and_the_same_question_keeps_its_answers(backend):
    store, code, token = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    store.answer(code, student, Q1, 1, "2")
    store.publish(code, token, View("walkthrough", step=2, scenario="s1.abc", question=Q1))  # same question
    assert store.state(code).rounds[0].answers == {student: "2"}
    store.publish(code, token, View("walkthrough", step=3, question=Q2))
    assert [(r.number, r.answers) for r in store.state(code).rounds] == [(1, {})]
    store.publish(code, token, View("walkthrough", step=4))  # no question
    assert store.state(code).rounds == ()
    refused("no_question", store.answer, code, student, Q2, 1, "1")


# --- answers, rounds, the reveal ---


def test_an_answer_resent_counts_once_and_changes_nothing(backend):
    store, code, _ = opened(backend, ASKING)
    students = joined(store, code, 3)
    store.answer(code, students[0], Q1, 1, "0.5")
    version = store.version(code)
    store.answer(code, students[0], Q1, 1, "0.5")  # a reconnect sends it again
    assert store.version(code) == version
    store.answer(code, students[1], Q1, 1, "0.25")
    assert store.state(code).rounds[0].answers == {students[0]: "0.5", students[1]: "0.25"}


def test_an_answer_can_be_changed_until_the_reveal_and_counts_once(backend):
    store, code, token = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    store.answer(code, student, Q1, 1, "1")
    store.answer(code, student, Q1, 1, "3")
    assert store.state(code).rounds[0].answers == {student: "3"}
    state = store.reveal(code, token)
    assert state.current_round is not None and state.current_round.revealed
    refused("round_closed", store.answer, code, student, Q1, 1, "2")
    assert store.state(code).rounds[0].answers == {student: "3"}


def test_answers_that_are_no_answer_to_the_current_round_are_refused(backend):
    store, code, token = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    refused("not_joined", store.answer, code, new_student_id(), Q1, 1, "1")
    for forged in [None, ["a"], {"a": 1}, "", "x" * 10_000]:  # what no session sends
        refused("not_joined", store.answer, code, forged, Q1, 1, "1")
    refused("no_question", store.answer, code, student, Q2, 1, "1")
    refused("round_closed", store.answer, code, student, Q1, 2, "1")
    refused("round_closed", store.answer, code, student, Q1, 0, "1")
    store.publish(code, token, LESSON)
    refused("no_question", store.answer, code, student, Q1, 1, "1")
    assert store.state(code).rounds == ()


def test_the_reveal_needs_a_question_and_a_second_reveal_changes_nothing(backend):
    store, code, token = opened(backend)
    refused("no_question", store.reveal, code, token)
    refused("no_question", store.vote_again, code, token)
    store.publish(code, token, ASKING)
    once = store.reveal(code, token)
    assert store.reveal(code, token).version == once.version


def test_vote_again_opens_round_2_apart_from_round_1(backend):
    store, code, token = opened(backend, ASKING)
    a, b = joined(store, code, 2)
    store.answer(code, a, Q1, 1, "0")
    store.answer(code, b, Q1, 1, "1")
    store.reveal(code, token)
    state = store.vote_again(code, token)
    assert [(r.number, r.revealed) for r in state.rounds] == [(1, True), (2, False)]
    store.answer(code, a, Q1, 2, "1")
    refused("round_closed", store.answer, code, b, Q1, 1, "0")  # round 1 is over
    rounds = store.state(code).rounds
    assert rounds[0].answers == {a: "0", b: "1"} and rounds[1].answers == {a: "1"}
    assert store.vote_again(code, token).version == store.version(code)  # at ROUNDS: a second click does nothing
    assert len(store.state(code).rounds) == 2
    store.reveal(code, token)
    refused("round_closed", store.answer, code, b, Q1, 2, "1")
    assert store.state(code).rounds[1].revealed


def test_vote_again_before_the_reveal_closes_round_1(backend):
    store, code, token = opened(backend, ASKING)
    (a,) = joined(store, code, 1)
    store.answer(code, a, Q1, 1, "0")
    store.vote_again(code, token)
    refused("round_closed", store.answer, code, a, Q1, 1, "2")
    assert [(r.number, r.answers, r.revealed) for r in store.state(code).rounds] == [
        (1, {a: "0"}, False),
        (2, {}, False),
    ]


# --- the history: every question asked, for the tally ---

DETAIL_1 = '{"question": "one", "text": "¿qué? «perro»"}'  # what the lecturer's page wrote; the store keeps it as is
DETAIL_2 = '{"question": "two"}'


def test_the_history_keeps_each_question_asked_with_its_rounds_in_order(backend):
    store, code, token = opened(backend)
    a, b = joined(store, code, 2)
    first = store.publish(code, token, ASKING, DETAIL_1)
    assert first.asked_at == first.version
    store.answer(code, a, Q1, 1, "0")
    store.answer(code, b, Q1, 1, "1")
    store.reveal(code, token)
    store.vote_again(code, token)
    store.answer(code, a, Q1, 2, "1")
    second = store.publish(code, token, View("walkthrough", step=3, question=Q2), DETAIL_2)
    assert second.asked_at == second.version > first.asked_at
    store.answer(code, b, Q2, 1, "7.5")
    assert store.history(code, token) == (
        Asking(first.asked_at, Q1, DETAIL_1, (Round(1, {a: "0", b: "1"}, True), Round(2, {a: "1"}, False)), 2),
        Asking(second.asked_at, Q2, DETAIL_2, (Round(1, {b: "7.5"}, False),), 2),
    )
    store.publish(code, token, LESSON)  # no question: the last one is archived, none is current
    assert store.state(code).asked_at == 0
    assert [asking.question for asking in store.history(code, token)] == [Q1, Q2]


def test_a_class_opened_on_a_question_has_it_in_its_history(backend):
    store = backend.make(Bounds())
    code, token = store.open_class(ASKING, DETAIL_1)
    assert store.state(code).asked_at == store.version(code)
    assert store.history(code, token) == (Asking(store.version(code), Q1, DETAIL_1, (Round(1),), 0),)


def test_the_same_question_asked_again_is_another_asking_whose_round_1_starts_afresh(backend):
    """The lecturer goes on and comes back within a poll: the view reads as it was, the asking is new (asked_at),
    so a follower sees that its answer no longer counts."""
    store, code, token = opened(backend)
    (student,) = joined(store, code, 1)
    first = store.publish(code, token, ASKING, DETAIL_1)
    store.answer(code, student, Q1, 1, "2")
    store.publish(code, token, View("walkthrough", step=3, question=Q2), DETAIL_2)
    again = store.publish(code, token, ASKING, DETAIL_1)
    assert again.view == first.view and again.asked_at > first.asked_at
    assert again.rounds == (Round(1),)
    history = store.history(code, token)
    assert [(h.question, h.asked_at) for h in history] == [
        (Q1, first.asked_at),
        (Q2, history[1].asked_at),
        (Q1, again.asked_at),
    ]
    assert history[0].rounds == (Round(1, {student: "2"}),)


def test_the_history_is_the_lecturers_only_and_outlives_the_end(backend):
    store, code, token = opened(backend)
    (student,) = joined(store, code, 1)
    store.publish(code, token, ASKING, DETAIL_1)
    store.answer(code, student, Q1, 1, "3")
    for forged in ["", new_token(), token[:-1], student]:
        refused("not_lecturer", store.history, code, forged)
    refused("class_unknown", store.history, new_code(), token)
    ended = store.end(code, token)
    assert [(h.question, h.rounds, h.joined) for h in ended] == [(Q1, (Round(1, {student: "3"}),), 1)]
    assert store.history(code, token) == ended == store.end(code, token)  # read again; a second end changes nothing
    refused("class_ended", store.state, code)
    refused("not_lecturer", store.history, code, new_token())


def test_the_history_keeps_the_latest_askings_only(backend):
    store, code, token = opened(backend, askings=3)
    refs = [QuestionRef(f"walk.{n}", "walk.2.score", n) for n in range(5)]
    for n, ref in enumerate(refs):
        store.publish(code, token, View("walkthrough", step=n, question=ref), f'"{n}"')
    assert [(h.question, h.detail) for h in store.history(code, token)] == [(r, f'"{n}"') for n, r in enumerate(refs)][
        2:
    ]


def test_a_question_detail_too_large_or_no_text_is_refused_and_nothing_changes(backend):
    store, code, token = opened(backend, view_chars=200)
    before = store.state(code)
    for detail in ["x" * 201, "\ud800", None, 12]:
        refused("view_too_large", store.publish, code, token, ASKING, detail)
        refused("view_too_large", store.open_class, ASKING, detail)
    assert store.state(code) == before and store.history(code, token) == ()


def test_every_answer_taken_while_the_lecturer_moves_between_questions_is_in_the_history(backend):
    """The lecturer moves on while the class answers: an answer the store took (no refusal) is counted in exactly
    one asking, none lost between the last read of a question and the next question (the archive is the same
    atomic write as the move)."""
    moves = 300
    store, code, token = opened(backend, ASKING, askings=moves + 1)  # every asking kept
    students = joined(store, code, 90)
    taken: list[str] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def move() -> None:
        views = [View("walkthrough", step=3, question=Q2), ASKING]
        n = 0
        while not done.is_set() and n < moves:  # bounded: stops by itself
            store.publish(code, token, views[n % 2], DETAIL_1)
            n += 1

    def answer(chunk: list[str]) -> None:
        try:
            for k, student in enumerate(chunk):
                try:
                    store.answer(code, student, (Q1, Q2)[k % 2], 1, str(k))
                    taken.append(student)
                except ClassError as refusal:
                    assert refusal.code == "no_question", refusal.code  # the lecturer had moved: not taken
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    mover = threading.Thread(target=move)
    threads = [threading.Thread(target=answer, args=(students[k::3],)) for k in range(3)]
    mover.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    done.set()
    mover.join(timeout=60)
    assert not errors
    counted = [s for asking in store.history(code, token) for r in asking.rounds for s in r.answers]
    assert taken and sorted(counted) == sorted(taken)


# --- the lecturer's token ---


def test_a_forged_token_changes_nothing(backend):
    store, code, token = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    before = store.state(code)
    for forged in ["", new_token(), token[:-1], token[:-1] + ("A" if token[-1] != "A" else "B"), "ñ" * 32, student]:
        assert not store.is_lecturer(code, forged)
        refused("not_lecturer", store.publish, code, forged, LESSON)
        refused("not_lecturer", store.reveal, code, forged)
        refused("not_lecturer", store.vote_again, code, forged)
        refused("not_lecturer", store.end, code, forged)
        refused("not_lecturer", store.history, code, forged)
    assert store.state(code) == before


def test_the_token_of_another_class_is_not_this_ones(backend):
    store, code, _ = opened(backend)
    _, other_token = store.open_class(LESSON)
    refused("not_lecturer", store.reveal, code, other_token)


# --- the end, and expiry ---


def test_an_ended_class_says_so_to_everyone(backend):
    store, code, token = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    store.end(code, token)
    refused("class_ended", store.state, code)
    refused("class_ended", store.version, code)
    refused("class_ended", store.join, code, student)
    refused("class_ended", store.join, code, new_student_id())
    refused("class_ended", store.answer, code, student, Q1, 1, "1")
    refused("class_ended", store.publish, code, token, LESSON)
    refused("class_ended", store.reveal, code, token)
    assert not store.is_lecturer(code, token)
    store.end(code, token)  # a second click: nothing to do
    refused("not_lecturer", store.end, code, new_token())


def test_an_ended_class_frees_its_place_on_the_server(backend):
    store, code, token = opened(backend, classes=1)
    refused("server_full", store.open_class, LESSON)
    store.end(code, token)
    store.open_class(LESSON)


def test_an_idle_class_expires_and_a_write_keeps_it_alive(backend):
    idle = 3600.0  # an hour passes without waiting for it (conftest's pass_time)
    store, code, token = opened(backend, idle_seconds=idle, classes=2)
    kept, _ = store.open_class(LESSON)
    refused("server_full", store.open_class, LESSON)
    for _ in range(3):
        backend.pass_time(idle * 0.6)
        store.join(kept, new_student_id())  # a write: its idle clock starts again
    refused("class_unknown", store.state, code)
    refused("class_unknown", store.publish, code, token, LESSON)
    assert not store.is_lecturer(code, token)
    assert store.state(kept).students == 3
    store.open_class(LESSON)  # the expired class's place is free


def test_reads_do_not_keep_a_class_alive(backend):
    idle = 3600.0  # an hour passes without waiting for it (conftest's pass_time)
    store, code, _ = opened(backend, idle_seconds=idle)
    for _ in range(2):
        backend.pass_time(idle * 0.45)
        store.version(code)
        store.state(code)
    backend.pass_time(idle * 0.3)  # 1.2 idle limits since the last write
    refused("class_unknown", store.version, code)


# --- bounds ---


def test_a_full_class_refuses_a_new_student_but_takes_back_one_who_joined(backend):
    store, code, _ = opened(backend, students=3)
    students = joined(store, code, 3)
    error = refused("class_full", store.join, code, new_student_id())
    assert error.params["limit"] == 3
    assert store.join(code, students[0]).students == 3


def test_a_thousand_joins_fill_the_class_at_its_bound_and_no_further(backend):
    store, code, _ = opened(backend)
    refusals = 0
    for _ in range(1000):
        try:
            store.join(code, new_student_id())
        except ClassError as error:
            assert error.code == "class_full"
            refusals += 1
    assert store.state(code).students == MAX_STUDENTS == 500
    assert refusals == 500


def test_a_full_server_refuses_a_new_class(backend):
    store = backend.make(Bounds(classes=3))
    for _ in range(3):
        store.open_class(LESSON)
    assert refused("server_full", store.open_class, LESSON).params["limit"] == 3


def test_a_huge_answer_is_refused_and_nothing_is_kept(backend):
    store, code, _ = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    for huge in ["9" * 65, "1" * 1_000_000, 12]:
        refused("answer_too_long", store.answer, code, student, Q1, 1, huge)
    store.answer(code, student, Q1, 1, "9" * 64)  # at the bound: taken
    assert store.state(code).rounds[0].answers == {student: "9" * 64}


def test_an_answer_that_is_no_unicode_text_is_refused_alike_on_both_backends(backend):
    """A lone surrogate (a forged message, not anything a widget sends) cannot be written as UTF-8: the in-process
    store kept it and Redis's client raised UnicodeEncodeError, no ClassError, out of the page."""
    store, code, _ = opened(backend, ASKING)
    (student,) = joined(store, code, 1)
    for forged in ["\ud800", "1.5\udfff"]:
        refused("answer_too_long", store.answer, code, student, Q1, 1, forged)
    assert store.state(code).rounds[0].answers == {}


def test_a_view_too_large_is_refused_and_the_class_keeps_its_view(backend):
    store, code, token = opened(backend, view_chars=200)
    big = View("walkthrough", scenario="x" * 300)
    assert refused("view_too_large", store.publish, code, token, big).params["limit"] == 200
    refused("view_too_large", store.open_class, big)
    assert store.state(code).view == LESSON


# --- concurrency ---


def test_answers_from_many_threads_are_counted_exactly(backend):
    store, code, _ = opened(backend, ASKING)
    students = joined(store, code, 120)
    errors: list[BaseException] = []

    def answer_all(chunk: list[str], value: str) -> None:
        try:
            for student in chunk:
                store.answer(code, student, Q1, 1, value)
                store.answer(code, student, Q1, 1, value)  # resent: still once
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=answer_all, args=(students[k::6], str(k % 3))) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    answers = store.state(code).rounds[0].answers
    assert len(answers) == 120
    assert sorted(answers.values()).count("0") == 40  # threads 0 and 3, 20 students each


# --- the bell: followers hear the lecturer's changes at once ---


def heard_rings(store, code: str, act, expected: int) -> list[str]:
    """The codes the store's bell rang while `act()` ran: waits for `expected` rings of `code` (at most 10 s, the
    Redis bell rings from its own thread), then half a second more for any ring that should not come."""
    rings: queue.Queue[str] = queue.Queue()
    store.listen(rings.put)
    listening = getattr(store.bell, "listening", None)  # the Redis bell's subscription (in-process: at once)
    assert listening is None or listening.wait(10), "the Redis bell never subscribed"
    act()
    got: list[str] = []
    deadline = time.monotonic() + 10
    while len(got) < expected and time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            ring = rings.get(timeout=0.1)
            if ring == code:
                got.append(ring)
    time.sleep(0.5)
    while not rings.empty():
        ring = rings.get()
        if ring == code:
            got.append(ring)
    return got


def test_the_bell_rings_for_each_change_followers_see_and_for_nothing_else(backend):
    store, code, token = opened(backend)

    def lecture() -> None:
        (student,) = joined(store, code, 1)  # a join: no ring
        store.publish(code, token, ASKING)  # ring 1: another view
        store.publish(code, token, ASKING)  # the same view: nothing changed
        store.answer(code, student, Q1, 1, "0")  # an answer: no ring
        store.reveal(code, token)  # ring 2
        store.reveal(code, token)  # revealed already
        store.vote_again(code, token)  # ring 3: round 2
        store.vote_again(code, token)  # at ROUNDS: nothing changed
        store.end(code, token)  # ring 4
        store.end(code, token)  # ended already

    assert heard_rings(store, code, lecture, 4) == [code] * 4


def test_a_refused_write_and_a_listener_that_fails_do_not_ring_or_break_the_write(backend):
    store, code, token = opened(backend)

    def broken(_code: str) -> None:
        raise RuntimeError("a listener's own fault")

    store.listen(broken)

    def lecture() -> None:
        refused("not_lecturer", store.publish, code, new_token(), View("softmax"))  # refused: no ring
        assert store.publish(code, token, View("softmax")).view == View("softmax")  # rings; `broken` fails

    assert heard_rings(store, code, lecture, 1) == [code]
