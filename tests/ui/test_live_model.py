"""The live class's view-model (ui/view_models/live.py): codes and ids from links, what a follower changes, what an
answer is sent as, and the class's distribution of answers, with expected counts built by hand."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest

from classroom.api import CODE_ALPHABET, CODE_LENGTH, QuestionRef, Round, View
from classroom.tally import GroupKind, received_response
from engine import EngineInputError, lesson_scenario
from engine.questions import Kind, generate
from ui.view_models.live import (
    MAX_VALUES_SHOWN,
    OTHER,
    answer_shown,
    app_base,
    distribution,
    follow_plan,
    follows_in_part,
    group_of,
    groups,
    join_link,
    lecturer_link,
    new_student_id,
    normalised_code,
    projector_rounds,
    question_ref,
    same_question,
    sent_answer,
    shown_groups,
    valid_student_id,
    valid_token,
)

SCENARIO = lesson_scenario()
SCORE = generate("walk.2.score", SCENARIO, 7)  # numeric: 1.282238 ± 0.00641119, three named mistakes
CHOICE = generate("walk.1.which_column", SCENARIO, 7)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("ABC234", "ABC234"), ("abc234", "ABC234"), (" abc-234 ", "ABC234"), ("ab c2 34", "ABC234")],
)
def test_a_typed_or_linked_code_is_read_case_and_spaces_aside(typed, code):
    assert normalised_code(typed) == code


@pytest.mark.parametrize("typed", ["O0O0O0", "ABC23", "ABC2345", "ABC23I", "ÄBC234", "A" * 5000, "", None, 123456])
def test_look_alikes_wrong_lengths_and_other_text_are_no_code(typed):
    assert normalised_code(typed) is None


@pytest.mark.parametrize(
    "typed", ["abc234", "abc–234", "ABC−234", "ßc234", "ab\tc234", "ABC234" + " " * 30, "ａｂｃ２３４", "a-b-c-2-3-4"]
)
def test_a_code_is_read_by_the_classrooms_one_rule(typed):
    from classroom.api import ClassError
    from classroom.codes import normal_code

    try:
        expected: str | None = normal_code(typed)
    except ClassError:
        expected = None
    assert normalised_code(typed) == expected


def test_the_ids_and_tokens_the_ui_reads_are_the_classrooms():
    from classroom import codes

    for ident in (codes.new_student_id(), new_student_id()):
        assert valid_student_id(ident) == ident and codes.is_student_id(ident)
    token = codes.new_token()
    assert valid_token(token) == token


def test_the_alphabet_has_no_look_alikes():
    assert not set("0O1IL") & set(CODE_ALPHABET) and CODE_LENGTH == 6


def test_a_students_id_is_anonymous_random_and_url_safe():
    ids = {new_student_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(valid_student_id(ident) == ident for ident in ids)
    for forged in ("short", "x" * 65, "<script>alert(1)", "a b" * 6, None):
        assert valid_student_id(forged) is None


def test_a_lecturer_token_is_checked_for_its_form_only():
    assert valid_token("A" * 32) == "A" * 32
    assert valid_token("A" * 15) is None and valid_token("A" * 65) is None and valid_token("<b>" * 8) is None


@pytest.mark.parametrize(
    ("page_url", "page", "base"),
    [
        ("http://localhost:8501", "", "http://localhost:8501"),
        ("http://localhost:8501/", "", "http://localhost:8501"),
        ("http://10.0.0.5:8501/walkthrough", "walkthrough", "http://10.0.0.5:8501"),
        ("https://host.example/app/walkthrough", "walkthrough", "https://host.example/app"),
        (None, "walkthrough", ""),
    ],
)
def test_the_apps_address_from_the_pages(page_url, page, base):
    assert app_base(page_url, page) == base


def test_the_join_and_lecturer_links_carry_the_code_and_the_token():
    join = urlsplit(join_link("https://h.example/app", "ABC234"))
    assert (join.netloc, join.path, parse_qs(join.query)) == ("h.example", "/app/", {"class": ["ABC234"]})
    private = parse_qs(urlsplit(lecturer_link("https://h.example", "ABC234", "T" * 32)).query)
    assert private == {"class": ["ABC234"], "teach": ["T" * 32]}


def test_a_follower_changes_only_what_differs():
    view = View("walkthrough", 3, "code-1")
    assert not follow_plan(view, "walkthrough", 3, "code-1").changes
    assert follow_plan(view, "home", None, "code-0") == ("code-1", 3, "walkthrough")
    assert follow_plan(View("softmax"), "walkthrough", 3, "code-1") == (None, None, "softmax")


def test_a_followers_step_reruns_only_the_part_when_nothing_else_on_the_page_changes():
    step = follow_plan(View("walkthrough", 4, "code-1"), "walkthrough", 3, "code-1")
    assert follows_in_part(step, "walkthrough", "walkthrough", ended=False)
    assert follows_in_part(
        follow_plan(View("walkthrough", 3, "code-1"), "walkthrough", 3, "code-1"),
        "walkthrough",
        "walkthrough",
        ended=False,
    ), "a new question or round at the same part: the part's gate"
    assert not follows_in_part(step, "walkthrough", None, ended=False), "the page drew no part fragment"
    assert not follows_in_part(step, "walkthrough", "walkthrough", ended=True), "the class ended: the sidebar says so"
    scenario = follow_plan(View("walkthrough", 4, "code-2"), "walkthrough", 3, "code-1")
    assert not follows_in_part(scenario, "walkthrough", "walkthrough", ended=False), "the page's title follows it"
    page = follow_plan(View("softmax"), "walkthrough", 3, "code-1")
    assert not follows_in_part(page, "walkthrough", "walkthrough", ended=False)
    assert not follows_in_part(step, "softmax", "walkthrough", ended=False), "drawn by another page's run"


def test_the_lecturers_question_is_the_same_draw_for_the_class():
    ref = question_ref("walk.2", SCORE)
    assert (ref.gate, ref.template_id, ref.seed) == ("walk.2", "walk.2.score", 7) and len(ref.digest) == 16
    assert same_question(ref, SCENARIO) == SCORE
    assert same_question(QuestionRef("walk.2", "no.such.template", 7), SCENARIO) is None
    assert same_question(QuestionRef("walk.2", "walk.2.score", -5), SCENARIO) is None


def test_an_answer_is_sent_as_the_index_or_the_number_any_language_reads():
    assert sent_answer(CHOICE, 1, "es") == "1"
    assert sent_answer(SCORE, "1,282", "es") == "1.282"
    assert sent_answer(SCORE, "1.282", "en") == "1.282"
    assert sent_answer(SCORE, "\u22121,5", "es") == "-1.5"
    with pytest.raises(EngineInputError):
        sent_answer(SCORE, "mucho", "es")
    with pytest.raises(EngineInputError):
        sent_answer(CHOICE, len(CHOICE.options), "es")


@pytest.mark.parametrize("text", ["", "abc", "١", "nan", "inf", "1e999", "-1", "99"])
def test_a_forged_answer_is_no_response_to_a_choice(text):
    assert received_response(CHOICE, text) is None


def test_a_numeric_questions_groups_are_the_right_value_and_each_mistake_smallest_first():
    found = groups(SCORE)
    values = [group.value for group in found[:-1]]
    assert values == sorted([1.282238, 2.978294, 5.9857, 0.641119])
    assert [group.misconception for group in found[:-1]] == ["scaled_too_early", None, "q_dot_q", "x_dot_x"]
    assert [group.right for group in found[:-1]] == [False, True, False, False]
    assert found[-1] is OTHER or found[-1] == OTHER


def test_numeric_answers_are_grouped_within_the_tolerance():
    tolerance = SCORE.tolerance
    answers = {
        "a": "1.282238",
        "b": repr(1.282238 + 0.9 * tolerance),  # right, within the tolerance
        "c": repr(1.282238 + 1.1 * tolerance),  # no longer right, and near no mistake: other
        "d": "2.978",  # q · q
        "e": "abc",  # forged: other
    }
    counted = distribution(SCORE, Round(1, answers))
    by_group = {(group.value, group.right): count for group, count in counted.counts}
    assert counted.answered == 5
    assert by_group[(1.282238, True)] == 2
    assert by_group[(2.978294, False)] == 1
    assert by_group[(None, False)] == 2
    assert counted.share(2) == pytest.approx(0.4)


def test_choice_answers_are_counted_per_option():
    answers = {"a": "0", "b": "0", "c": "1", "d": "x"}
    counted = distribution(CHOICE, Round(1, answers, revealed=True))
    counts = [count for group, count in counted.counts]
    assert counts[:2] == [2, 1] and sum(counts[2:-1]) == 0 and counts[-1] == 1
    assert counted.revealed and counted.answered == 4
    assert [group.option for group, _ in counted.counts[:-1]] == list(range(len(CHOICE.options)))
    assert group_of(CHOICE, str(CHOICE.correct_option)).right


def test_other_answers_show_only_when_some_round_has_them():
    clean = distribution(CHOICE, Round(1, {"a": "0"}))
    forged = distribution(CHOICE, Round(2, {"a": "zzz"}))
    assert OTHER not in shown_groups([clean])
    assert OTHER in shown_groups([clean, forged])
    assert shown_groups([]) == []


def test_nobody_answered_is_a_share_of_zero():
    assert distribution(SCORE, Round(1)).share(0) == 0.0
    assert CHOICE.kind == Kind.CHOICE and SCORE.kind == Kind.NUMERIC


def test_a_students_own_answer_comes_back_from_the_class_after_a_reload():
    from classroom.api import ClassState

    ref = question_ref("walk.2", SCORE)
    kept = ClassState("ABC234", 5, View("walkthrough", 2, "c", ref), 1, (Round(1, {"me" * 8: "1.282"}),))
    from ui.view_models.live import StudentSeat, own_answer

    fresh = StudentSeat("ABC234", "me" * 8, state=kept)
    assert own_answer(fresh, ref, 1, SCORE, ",") == "1,282"
    assert own_answer(fresh, ref, 1, SCORE, ".") == "1.282"
    assert own_answer(fresh, ref, 2, SCORE, ",") is None
    typed = StudentSeat("ABC234", "me" * 8, state=kept, responses={(ref, 1): "1,2820"})
    assert own_answer(typed, ref, 1, SCORE, ",") == "1,2820"  # as this session typed it
    other = QuestionRef("walk.2", "walk.2.score", 8)
    assert own_answer(fresh, other, 1, SCORE, ",") is None  # another question's round says nothing


def test_the_projector_marks_the_answer_only_while_the_current_round_is_revealed():
    assert not answer_shown(())
    assert not answer_shown((Round(1),))
    assert answer_shown((Round(1, revealed=True),))
    assert not answer_shown((Round(1, revealed=True), Round(2))), "round 2 is a vote like the first"
    assert answer_shown((Round(1), Round(2, revealed=True)))


def test_before_the_reveal_a_numeric_chart_shows_only_the_values_the_class_gave():
    near_right = 1.282238 + 0.9 * SCORE.tolerance  # right, within the tolerance, but not the right value's digits
    answers = {"a": "2.978", "b": "2.9781", "c": repr(near_right), "d": "abc", "e": "2.978"}
    (before,) = projector_rounds(SCORE, [Round(1, answers)], marked=False)
    shown = {group.value: count for group, count in before.counts if not group.other}
    assert shown == {round(near_right, SCORE.decimals): 1, 2.978: 3}, "each value as given, at the shown digits"
    assert list(shown) == sorted(shown)
    assert not any(group.right or group.misconception for group, _ in before.counts), "nothing says which is right"
    for hidden in (1.282238, 5.9857, 0.641119):  # the right value and the mistakes nobody made: no bar
        assert hidden not in shown
    assert dict(before.counts)[OTHER] == 1 and before.answered == 5
    after = projector_rounds(SCORE, [Round(1, answers, revealed=True)], marked=True)
    assert after == [distribution(SCORE, Round(1, answers, revealed=True))], "the reveal shows the bins"


def test_before_the_reveal_the_values_of_both_rounds_share_the_bars_and_few_bars_are_drawn():
    first, second = Round(1, {"a": "1", "b": "2"}), Round(2, {"a": "2", "b": "3"})
    one, two = projector_rounds(SCORE, [first, second], marked=False)
    assert [g.value for g, _ in one.counts] == [g.value for g, _ in two.counts] == [1.0, 2.0, 3.0, None]
    many = Round(1, {f"s{k}": str(k) for k in range(MAX_VALUES_SHOWN + 5)})
    (counted,) = projector_rounds(SCORE, [many], marked=False)
    assert len(counted.counts) == MAX_VALUES_SHOWN + 1 and dict(counted.counts)[OTHER] == 5
    assert CHOICE.kind == Kind.CHOICE
    choice = Round(1, {"a": "0"})
    assert projector_rounds(CHOICE, [choice], marked=False) == [distribution(CHOICE, choice)]


def test_the_tally_counts_each_asking_of_the_class_history_on_the_question_as_drawn():
    from classroom.api import Asking
    from engine.questions.serial import question_json
    from ui.view_models.live import class_tallies

    ref = question_ref("walk.2", SCORE)
    history = (
        Asking(3, ref, question_json(SCORE), (Round(1, {"a": "1.282", "b": "0"}),), 2),
        Asking(5, ref, "{not the question}", (Round(1, {"a": "1.282"}),), 2),  # kept by another release: left out
        Asking(9, ref, question_json(SCORE), (Round(1, {"a": "2.978"}),), 3),  # asked again, afresh
        Asking(11, ref, question_json(SCORE), (), 3),  # no round: nothing to count
    )
    first, again = class_tallies(history)
    assert (first.rounds[0].answered, again.rounds[0].answered) == (2, 1)
    assert (first.rounds[0].joined, again.rounds[0].joined) == (2, 3)
    assert first.rounds[0].group(GroupKind.RIGHT).count == 1  # 1.282 is the answer, counted on the question drawn


def test_a_follower_sees_the_same_question_asked_anew_though_the_view_reads_the_same():
    """The lecturer goes on and comes back within one poll (A, B, A): the view and the round read as before, but the
    class asks the question anew (its round 1 afresh), so the follower's page must run again (its "answer received"
    is no longer true)."""
    from classroom.api import ClassState
    from ui.view_models.live import follower_redraws

    ref = question_ref("walk.2", SCORE)
    view = View("walkthrough", 2, "c", ref)
    before = ClassState("ABC234", 5, view, 2, (Round(1, {"me" * 8: "1.282"}),), asked_at=4)
    assert not follower_redraws(before, replace(before, version=6, students=3)), "another student joined"
    assert not follower_redraws(before, replace(before, version=6, rounds=(Round(1, {"x": "0"}),)))
    assert follower_redraws(before, replace(before, version=9, rounds=(Round(1),), asked_at=8))
    assert follower_redraws(before, replace(before, version=6, rounds=(Round(1, {}, True),)))  # the reveal
    assert follower_redraws(before, replace(before, version=6, view=replace(view, step=3)))


def test_a_question_is_tied_to_its_scenario_by_its_digest():
    from dataclasses import replace

    from engine import random_scenario
    from ui.view_models.live import question_digest

    ref = question_ref("walk.2", SCORE)
    edited = random_scenario(7, ("a", "b", "c", "d", "e"), d_model=6, d_k=3)
    other = generate("walk.2.score", edited, 7)
    assert question_digest(other) != ref.digest and question_digest(SCORE) == ref.digest
    assert same_question(ref, SCENARIO) == SCORE
    assert same_question(ref, edited) is None, "the lecturer's question is not asked about another scenario"
    assert same_question(replace(ref, digest=""), SCENARIO) is None, "a reference without its digest asks nothing"


def test_an_answer_the_class_no_longer_holds_is_not_said_received():
    """The lecturer asks a question, goes on, then asks it again: the store starts its round 1 afresh (the answers
    gone), so the student's answer from the first asking is no answer to this one ("answer received" would be
    false, and the tally would miss it)."""
    from classroom.api import ClassState
    from ui.view_models.live import StudentSeat, own_answer

    ref = question_ref("walk.2", SCORE)
    view = View("walkthrough", 2, "c", ref)
    me = "me" * 8
    sent = ClassState("ABC234", 5, view, 1, (Round(1),), asked_at=4)  # the class as read when the answer was sent
    seat = StudentSeat("ABC234", me, seen_version=5, state=sent, responses={(ref, 1): "1,2820"}, sent_at={(ref, 1): 5})
    kept = replace(seat, seen_version=6, state=replace(sent, version=6, rounds=(Round(1, {me: "1.282"}),)))
    assert own_answer(kept, ref, 1, SCORE, ",") == "1,2820"  # counted: as this session typed it
    asked_again = replace(seat, seen_version=9, state=replace(sent, version=9, rounds=(Round(1),), asked_at=8))
    assert own_answer(asked_again, ref, 1, SCORE, ",") is None  # the store's round 1 holds no answer of theirs
    assert own_answer(seat, ref, 1, SCORE, ",") == "1,2820"  # not read since it was sent: as sent
