"""The live class in one process: a lecturer and two students, each an AppTest session of the real app, sharing one
class store (issue 28): following, stopping and coming back, a question round tallied, the reveal, round 2, and what
a student cannot do."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from classroom.api import Bounds, ClassError
from classroom.memory import MemoryStore
from engine import lesson_scenario
from engine.questions import Kind
from tests.app.helpers import APP, charts, page_text, send_states
from ui import live_store
from ui.i18n import translate
from ui.question_wording import number_text
from ui.view_models.live import distribution, same_question

WALK = "pages/walkthrough.py"


@pytest.fixture
def store(monkeypatch) -> MemoryStore:
    """One class store for every session of the test, as one server has: classroom's in-process store, the app's
    default."""
    return serve(monkeypatch, MemoryStore())


def serve(monkeypatch, shared: MemoryStore) -> MemoryStore:
    """`shared` as the server's class store for the test."""
    monkeypatch.setattr(live_store, "store", lambda: shared)
    return shared


def session(lang: str = "es", **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def lecturer(lang: str = "es", questions: bool = True) -> tuple[AppTest, str]:
    """A lecturer who opened a class on the home page, then went to the walkthrough."""
    at = session(lang)
    at.session_state["questions_on"] = questions
    at.toggle(key="live_toggle").set_value(True).run()
    code = at.session_state["live_lecturer"].code
    at.switch_page(WALK).run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at, code


def click(at: AppTest, label: str) -> AppTest:
    """Click the button labelled `label` (in the main area or the sidebar) and run."""
    found = [b for b in at.button if b.label == label]
    assert found, (label, [b.label for b in at.button])
    found[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def titles(at: AppTest) -> list[str]:
    return [str(element.value) for element in at.title]


def test_a_student_follows_the_lecturer_stops_and_comes_back(store):
    lec, code = lecturer(questions=False)
    student = session(**{"class": code})
    assert student.session_state["step"] == 1  # moved from the home page to the walkthrough's part 1
    assert any("Paso a paso" in title for title in titles(student))
    click(lec, translate("es", "walk.next"))
    assert store.state(code).view.step == 2
    student.run()
    assert student.session_state["step"] == 2
    click(student, translate("es", "live.stop"))
    click(lec, translate("es", "walk.next"))
    student.run()
    assert student.session_state["step"] == 2, "a student who stopped following stays where they are"
    click(student, translate("es", "live.back"))
    assert student.session_state["step"] == 3
    lec.switch_page("pages/softmax.py").run()
    assert store.state(code).view.page == "softmax"
    student.run()
    assert any("softmax" in title.lower() for title in titles(student)), titles(student)


def test_the_students_count_and_a_reload_keeps_the_students_id(store):
    lec, code = lecturer(questions=False)
    first = session(**{"class": code})
    ident = first.session_state["me"]
    again = session(**{"class": code, "me": ident})  # a reload: a new session with the same URL
    assert again.session_state["me"] == ident
    session(**{"class": code})
    lec.run()
    joined = [m for m in lec.sidebar.get("metric") if m.label == translate("es", "live.joined")]
    assert joined and joined[0].value == "2"


def answer(student: AppTest, question, response, lang: str = "es") -> None:
    """A student's answer to the class's round: an option's index, or a number as typed."""
    number = student.session_state["live_student"].state.current_round.number
    prefix = f"live_answer_{question.section.replace('.', '_')}_{number}"
    if question.kind == Kind.CHOICE:
        student.radio(key=f"{prefix}_choice").set_value(response)
    else:
        student.text_input(key=f"{prefix}_number").set_value(response)
    click(student, translate(lang, "live.quiz.send"))


def asked_now(store, code: str):
    """The question the class `code` is asked now, drawn as the lesson's scenario draws it."""
    return same_question(store.state(code).view.question, lesson_scenario())


def right_and_wrong(question) -> tuple[object, object]:
    """A right answer and a named misconception's, as a student gives them."""
    if question.kind == Kind.CHOICE:
        wrong = next(i for i, key in enumerate(question.option_misconceptions) if key and i != question.correct_option)
        return question.correct_option, wrong
    return number_text(question.answer, question.decimals), number_text(
        question.misconceptions[0][1], question.decimals
    )


def test_a_question_round_tallied_revealed_and_voted_again(store):
    lec, code = lecturer()
    ref = store.state(code).view.question
    assert ref is not None and ref.gate == "walk.1"
    question = same_question(ref, lesson_scenario())
    alice, bob = session(**{"class": code}), session(**{"class": code})
    for student in (alice, bob):
        text = page_text(student)
        assert translate("es", "live.quiz.title", round="1").split(":")[0] in text
    right, wrong = right_and_wrong(question)
    answer(alice, question, right)
    answer(bob, question, wrong)
    assert translate("es", "live.quiz.received", answer="X").split(":")[0] in page_text(alice)
    answer(bob, question, wrong)  # sent again: counted once
    lec.run()
    assert translate("es", "live.answered", round="1", answered="2", joined="2") in page_text(lec)
    counted = distribution(question, store.state(code).current_round)
    assert counted.answered == 2
    assert sorted(count for _, count in counted.counts if count) == [1, 1]
    right_share = [c for g, c in counted.counts if g.right]
    assert right_share == [1]
    # before the reveal the projector marks no answer right, and nobody sees the right answer
    assert translate("es", "live.right", answer="").split(":")[0] not in page_text(lec)
    labels = projector_labels(lec)
    assert labels and not any("✔" in label for label in labels), labels
    click(lec, translate("es", "quiz.lecture.reveal", shortcut="S"))
    assert store.state(code).current_round.revealed
    assert translate("es", "live.right", answer="").split(":")[0] in page_text(lec)
    alice.run()
    bob.run()
    assert alice.success, "the right answer's own feedback"
    assert bob.error, "the wrong answer's own feedback, naming the mistake"
    with pytest.raises(ClassError) as refused:
        store.answer(code, alice.session_state["me"], ref, 1, "0")
    assert refused.value.code == "round_closed"
    click(lec, translate("es", "live.vote_again"))
    rounds = store.state(code).rounds
    assert [r.number for r in rounds] == [1, 2] and not rounds[-1].revealed
    alice.run()
    assert translate("es", "live.quiz.title", round="2").split(":")[0] in page_text(alice)
    answer(alice, question, right)
    lec.run()
    assert translate("es", "live.answered", round="2", answered="1", joined="2") in page_text(lec)
    (bars,) = [c for c in charts(lec) if (c.key or "").startswith("live_bars_")]
    assert [trace["name"] for trace in bars.spec["data"]] == [translate("es", "live.round", n=n) for n in "12"]
    first, second = (trace["y"] for trace in bars.spec["data"])
    assert sum(first) == pytest.approx(100) and sum(second) == pytest.approx(100), "each round's shares, side by side"


def projector_labels(at: AppTest) -> list[str]:
    """The projector's bar labels (the x axis of its chart of the class's answers)."""
    (bars,) = [c for c in charts(at) if (c.key or "").startswith("live_bars_")]
    return [str(label) for label in bars.trace["x"]]


def test_vote_again_after_the_reveal_opens_round_2_unrevealed_until_its_own_reveal(store):
    lec, code = lecturer()
    question = asked_now(store, code)
    alice = session(**{"class": code})
    right, wrong = right_and_wrong(question)
    answer(alice, question, wrong)
    reveal_label = translate("es", "quiz.lecture.reveal", shortcut="S")
    right_said = translate("es", "live.right", answer="").split(":")[0]
    click(lec, reveal_label)
    assert right_said in page_text(lec) and any("✔" in label for label in projector_labels(lec))
    click(lec, translate("es", "live.vote_again"))
    rounds = store.state(code).rounds
    assert [(r.number, r.revealed) for r in rounds] == [(1, True), (2, False)]
    # round 2 is open: the projector, like the lecturer's gate, shows no right answer until round 2's reveal
    assert reveal_label in [b.label for b in lec.button]
    assert right_said not in page_text(lec)
    assert not any("✔" in label for label in projector_labels(lec)), projector_labels(lec)
    alice.run()
    answer(alice, question, right)
    click(lec, reveal_label)
    rounds = store.state(code).rounds
    assert [(r.number, r.revealed) for r in rounds] == [(1, True), (2, True)]
    assert right_said in page_text(lec) and any("✔" in label for label in projector_labels(lec))
    assert store.state(code).view.question is not None, "the question stays asked after its second reveal"


def test_a_refused_open_class_turns_the_switch_off_and_turning_it_off_opens_no_class(store, monkeypatch):
    opens = store.open_class

    def down(view):
        raise ClassError("store_unavailable")

    at = session()
    monkeypatch.setattr(store, "open_class", down)
    at.toggle(key="live_toggle").set_value(True).run()
    assert translate("es", "live.error.store_unavailable") in page_text(at)
    assert at.toggle(key="live_toggle").value is False, "the switch says no class is open"
    monkeypatch.setattr(store, "open_class", opens)  # the store is back
    at.toggle(key="live_toggle").set_value(False).run()
    for key in ("live_lecturer", "class"):
        assert key not in at.session_state or at.session_state[key] is None, f"off opens nothing: {key}"
    assert translate("es", "live.title") not in page_text(at)


def test_the_switchs_old_value_sent_again_opens_no_second_class(store, monkeypatch):
    """A browser can send the live switch's old value (on) with a later click, after the switch left the sidebar
    (CI saw it: the projector's QR code then named another class than the one the room had scanned). AppTest sends
    only the widgets on screen, so the browser's message is built here: the switch's state beside the click's."""
    opened = []
    opens = store.open_class
    monkeypatch.setattr(store, "open_class", lambda view: opened.append(view) or opens(view))
    at = session()
    switch = at.toggle(key="live_toggle").set_value(True)
    stale = switch._widget_state  # the switch on, as that browser still holds it
    at.run()
    code = at.session_state["live_lecturer"].code
    assert not [w for w in at.toggle if w.key == "live_toggle"], "the switch has left the sidebar"
    send_states(at, stale)
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["live_lecturer"].code == code, "the class the room joined is still the one taught"
    assert [str(h.value) for h in at.header].count(code) == 1, "the sidebar shows that class's code"
    assert len(opened) == 1, "one class opened"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_bad_redis_url_is_said_in_the_readers_language_and_the_app_goes_on(monkeypatch, lang):
    monkeypatch.setenv("REDIS_URL", "http://cache:6379")  # no redis:// scheme: redis-py refuses it
    at = session(lang)
    at.toggle(key="live_toggle").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    assert translate(lang, "live.error.store_bad_url") in page_text(at)
    assert at.toggle(key="live_toggle").value is False
    student = session(lang, **{"class": "ABC234"})
    assert translate(lang, "live.error.store_bad_url") in page_text(student)
    assert student.title, "the page itself is drawn"


def test_a_new_scenario_asks_a_new_question_and_drops_the_old_ones_answers(store):
    from engine import random_scenario

    lec, code = lecturer()
    before = store.state(code).view.question
    old_question = same_question(before, lesson_scenario())
    alice = session(**{"class": code})
    _, wrong = right_and_wrong(old_question)
    answer(alice, old_question, wrong)
    assert len(store.state(code).rounds[0].answers) == 1
    edited = random_scenario(7, ("a", "b", "c", "d", "e"), d_model=6, d_k=3)  # other tokens, other matrices
    lec.session_state["scenario"] = edited
    lec.run()
    after = store.state(code)
    assert after.view.question is not None and (after.view.question.template_id, after.view.question.seed) == (
        before.template_id,
        before.seed,
    ), "the same template and draw"
    new_question = same_question(after.view.question, edited)
    assert new_question != old_question, "about the new scenario, the same draw is another question"
    assert after.view.question != before, "so the class is asked another question"
    assert [r.answers for r in after.rounds] == [{}], "the old scenario's answers are not graded against the new one"
    alice.run()
    assert translate("es", "live.quiz.received", answer="X").split(":")[0] not in page_text(alice)
    assert same_question(before, edited) is None, "the old reference asks nothing about the new scenario"


def test_a_students_forged_lecturer_link_changes_nothing(store):
    _, code = lecturer()
    before = store.state(code)
    forger = session(**{"class": code, "teach": "A" * 32})
    assert translate("es", "live.error.not_lecturer") in page_text(forger)
    assert "live_lecturer" not in forger.session_state or forger.session_state["live_lecturer"] is None
    reveal_label = translate("es", "quiz.lecture.reveal", shortcut="S")
    assert not [b for b in forger.button if b.label in (reveal_label, translate("es", "live.end"))]
    after = store.state(code)
    assert after.rounds == before.rounds and after.view == before.view and not after.ended


def test_a_bad_or_unknown_code_gives_a_message_and_the_normal_app(store):
    bad = session(**{"class": "O0O0O0"})  # look-alikes are no code
    assert translate("es", "url.bad.class") in page_text(bad)
    assert "class" not in bad.session_state or bad.session_state["class"] is None
    assert "class" not in bad.query_params
    unknown = session(**{"class": "ABC234"})
    assert translate("es", "live.error.class_unknown") in page_text(unknown)
    assert unknown.session_state["class"] is None
    assert "class" not in unknown.query_params


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_lecturers_panel_in_both_languages(store, lang):
    lec, code = lecturer(lang)
    text = page_text(lec)
    assert translate(lang, "live.embedded") in text
    assert code in [str(h.value) for h in lec.sidebar.header]
    assert [m.label for m in lec.sidebar.get("metric")] == [translate(lang, "live.joined")]
    student = session(lang, **{"class": code})
    assert translate(lang, "live.student.in_class", code=code) in page_text(student)


def test_the_private_link_gives_control_back_and_leaves_the_address_bar(store):
    lec, code = lecturer()
    token = lec.session_state["live_lecturer"].token
    again = session(**{"class": code, "teach": token})  # a reload, or another device
    assert again.session_state["live_lecturer"].code == code
    assert "teach" not in again.query_params, "the token is never left in the address bar a projector shows"
    assert "class" not in again.query_params, "nor the class: a reload would join it as a student"
    click(again, translate("es", "live.end"))
    click(again, translate("es", "live.end_yes"))
    with pytest.raises(ClassError) as ended:
        store.state(code)
    assert ended.value.code == "class_ended"
    lec.run()
    assert translate("es", "live.error.class_ended") in page_text(lec)


def test_the_lecturers_reload_does_not_join_the_class_as_a_student(store):
    lec, code = lecturer()
    address = {key: value[0] if isinstance(value, list) else value for key, value in lec.query_params.items()}
    assert "class" not in address and "teach" not in address, address
    reloaded = session(**address)  # a reload: a new session with the address bar's query
    assert "live_student" not in reloaded.session_state or reloaded.session_state["live_student"] is None
    assert store.state(code).students == 0, "the lecturer is not counted as a student of their own class"
    assert translate("es", "live.student.in_class", code=code) not in page_text(reloaded)
    token = lec.session_state["live_lecturer"].token
    again = session(**{**address, "class": code, "teach": token})  # the private link gives control back
    assert again.session_state["live_lecturer"].code == code
    assert store.state(code).students == 0


def test_a_student_with_questions_off_still_gets_the_class_question(store):
    _, code = lecturer()
    student = AppTest.from_file(APP, default_timeout=60)
    student.session_state["questions_on"] = False
    student.query_params["class"] = code
    student.run()
    assert translate("es", "live.quiz.send") in [b.label for b in student.button]


def test_an_answer_sent_after_the_reveal_is_refused_with_a_message(store):
    lec, code = lecturer()
    question = asked_now(store, code)
    student = session(**{"class": code})
    right, _ = right_and_wrong(question)
    prefix = f"live_answer_{question.section.replace('.', '_')}_1"
    if question.kind == Kind.CHOICE:  # the answer chosen while the form is still on the phone...
        student.radio(key=f"{prefix}_choice").set_value(right)
    else:
        student.text_input(key=f"{prefix}_number").set_value(right)
    click(lec, translate("es", "quiz.lecture.reveal", shortcut="S"))  # ...the lecturer reveals first
    click(student, translate("es", "live.quiz.send"))
    assert translate("es", "live.error.round_closed") in page_text(student)
    assert store.state(code).current_round.answers == {}


def test_a_full_class_says_so_and_the_app_goes_on(monkeypatch):
    small = serve(monkeypatch, MemoryStore(Bounds(students=1)))
    _, code = lecturer(questions=False)
    session(**{"class": code})
    late = session(**{"class": code})
    assert translate("es", "live.error.class_full", limit="1") in page_text(late)
    assert late.session_state["class"] is None and "class" not in late.query_params
    assert small.state(code).students == 1


def csv_rows(text: str) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))


def test_the_tally_downloads_hold_counts_and_no_student_ids(store, downloads):
    import json

    from classroom.tally import CSV_HEADER
    from tests.app.helpers import built_at_click, downloaded

    lec, code = lecturer()
    question = asked_now(store, code)
    alice, bob = session(**{"class": code}), session(**{"class": code})
    right, wrong = right_and_wrong(question)
    answer(alice, question, right)
    answer(bob, question, wrong)
    click(lec, translate("es", "quiz.lecture.reveal", shortcut="S"))
    lec.run()
    label = translate("es", "live.export.button", kind="CSV")
    assert built_at_click(lec, label), "the file is built when clicked, not on every run of the sidebar"
    text, name = downloaded(lec, downloads, label)
    assert name == f"{translate('es', 'live.export.file')}.csv"
    rows = csv_rows(text)
    assert rows[0] == [translate("es", f"live.export.col.{column}") for column in CSV_HEADER]
    count, right_column = CSV_HEADER.index("count"), CSV_HEADER.index("right")
    counted = [row for row in rows[1:] if row[count] == "1"]
    assert len(counted) == 2 and {row[right_column] for row in counted} == {"sí", "no"}
    assert {row[CSV_HEADER.index("template")] for row in rows[1:]} == {question.template_id}
    document, _ = downloaded(lec, downloads, translate("es", "live.export.button", kind="JSON"))
    for ident in (alice.session_state["me"], bob.session_state["me"]):
        assert ident not in text and ident not in document
    (asked,) = json.loads(document)["questions"]
    assert sum(group["count"] for group in asked["rounds"][0]["groups"]) == 2


def test_end_class_asks_first_and_the_last_tally_stays_downloadable(store, downloads):
    from classroom.tally import CSV_HEADER
    from tests.app.helpers import downloaded

    lec, code = lecturer()
    question = asked_now(store, code)
    alice = session(**{"class": code})
    _, wrong = right_and_wrong(question)
    answer(alice, question, wrong)
    click(lec, translate("es", "live.end"))
    assert store.state(code).students == 1, "one click does not end the class"
    assert translate("es", "live.end_confirm") in page_text(lec)
    click(lec, translate("es", "live.end_cancel"))
    assert translate("es", "live.end_confirm") not in page_text(lec) and store.state(code).students == 1
    click(lec, translate("es", "live.end"))
    click(lec, translate("es", "live.end_yes"))
    with pytest.raises(ClassError) as ended:
        store.state(code)
    assert ended.value.code == "class_ended"
    assert translate("es", "live.export.after_end") in page_text(lec)
    text, _ = downloaded(lec, downloads, translate("es", "live.export.button", kind="CSV"))
    count = CSV_HEADER.index("count")
    assert sum(int(row[count]) for row in csv_rows(text)[1:]) == 1, "the answer sent before the end is in it"
    lec.run()
    assert translate("es", "live.export.button", kind="CSV") in [b.label for b in lec.get("download_button")]


def test_a_question_asked_twice_is_two_entries_of_the_tally(store, downloads):
    from classroom.tally import CSV_HEADER
    from tests.app.helpers import downloaded

    lec, code = lecturer()
    first = store.state(code).view.question
    question = same_question(first, lesson_scenario())
    alice = session(**{"class": code})
    _, wrong = right_and_wrong(question)
    answer(alice, question, wrong)
    lec.run()
    click(lec, translate("es", "walk.next"))  # part 2 asks its own question...
    click(lec, translate("es", "walk.prev"))  # ...and back: part 1's question again, its round 1 afresh
    assert store.state(code).view.question == first and store.state(code).rounds[0].answers == {}
    alice.run()
    answer(alice, question, wrong)
    lec.run()
    text, _ = downloaded(lec, downloads, translate("es", "live.export.button", kind="CSV"))
    rows = csv_rows(text)[1:]
    template, count = CSV_HEADER.index("template"), CSV_HEADER.index("count")
    asked_first = [row for row in rows if row[template] == first.template_id]
    assert sum(int(row[count]) for row in asked_first) == 2, "both askings of part 1's question are kept"


@pytest.mark.parametrize(("lang", "shown"), [("es", "1000"), ("en", "1,000")])
def test_a_thousand_students_counted_in_the_readers_language(monkeypatch, lang, shown):
    store = serve(monkeypatch, MemoryStore(Bounds(students=1000)))
    lec, code = lecturer(lang, questions=False)
    for n in range(1000):
        store.join(code, f"student{n:011d}")
    store.join(code, "student00000000000")  # a join sent again counts once
    with pytest.raises(ClassError) as full:
        store.join(code, f"student{1000:011d}")  # a well-formed id, one student too many
    assert full.value.code == "class_full" and full.value.params == {"limit": 1000}
    assert store.state(code).students == 1000
    lec.run()
    joined = [m.value for m in lec.sidebar.get("metric") if m.label == translate(lang, "live.joined")]
    assert joined == [shown]


def test_a_view_too_large_for_the_class_is_said_and_the_class_keeps_the_last_one(store, monkeypatch):
    from classroom import api

    lec, code = lecturer(questions=False)
    before = store.state(code).view
    monkeypatch.setattr(store, "bounds", Bounds(view_chars=10))
    assert api.MAX_VIEW_CHARS > 10
    click(lec, translate("es", "walk.next"))
    assert translate("es", "live.error.view_too_large") in page_text(lec)
    assert store.state(code).view == before


def test_a_reload_keeps_the_students_answer_and_feedback(store):
    lec, code = lecturer()
    question = asked_now(store, code)
    student = session(**{"class": code})
    _, wrong = right_and_wrong(question)
    answer(student, question, wrong)
    reloaded = session(**{"class": code, "me": student.session_state["me"]})  # a new session, the same link
    assert translate("es", "live.quiz.received", answer="X").split(":")[0] in page_text(reloaded)
    click(lec, translate("es", "quiz.lecture.reveal", shortcut="S"))
    reloaded.run()
    assert reloaded.error, "their own feedback, naming the mistake, after the reload too"
    assert store.state(code).students == 1


def test_typing_the_code_on_the_home_page_joins_the_class(store):
    _, code = lecturer(questions=False)
    student = session()
    student.text_input(key="live_join_code").set_value("  " + code.lower()[:3] + "-" + code.lower()[3:])
    click(student, translate("es", "live.join.button"))
    assert student.session_state["class"] == code
    assert store.state(code).students == 1
    assert student.session_state["step"] == 1, "and follows the lecturer to the walkthrough"
    typo = session()
    typo.text_input(key="live_join_code").set_value("O0O0")
    click(typo, translate("es", "live.join.button"))
    assert translate("es", "live.error.bad_code") in page_text(typo)
    assert store.state(code).students == 1


def test_a_store_that_does_not_answer_is_said_and_the_page_still_draws(store, monkeypatch):
    _, code = lecturer(questions=False)

    def down(*args, **kwargs):
        raise ClassError("store_unavailable")

    for method in ("is_lecturer", "join", "state", "version"):
        monkeypatch.setattr(store, method, down)
    for query in ({"class": code}, {"class": code, "teach": "A" * 32}):
        student = session(**query)
        assert translate("es", "live.error.store_unavailable") in page_text(student)
        assert student.title, "the page itself is drawn"


def test_a_choice_bar_is_labelled_by_its_options_letter_and_marked_after_the_reveal():
    from engine.questions import generate
    from ui.live.rounds import group_label
    from ui.view_models.live import Group

    question = generate("walk.1.which_column", lesson_scenario(), 7)
    right = question.correct_option
    wrong = next(i for i in range(len(question.options)) if i != right)
    assert group_label(question, Group(option=wrong), marked=True) == "ABCDEFGH"[wrong]
    assert group_label(question, Group(option=right, right=True), marked=False) == "ABCDEFGH"[right]
    assert group_label(question, Group(option=right, right=True), marked=True) == f"{'ABCDEFGH'[right]} ✔"


def part_one_answered(store, students: int) -> tuple[AppTest, str, object, list[AppTest]]:
    """A lecturer on part 1 of the walkthrough and `students` who answered its question (right, wrong, right...),
    with no run of the lecturer's page since: (lecturer, code, the question's reference, the students)."""
    lec, code = lecturer()
    first = store.state(code).view.question
    question = same_question(first, lesson_scenario())
    them = [session(**{"class": code}) for _ in range(students)]
    for n, student in enumerate(them):
        answer(student, question, right_and_wrong(question)[n % 2])
    return lec, code, first, them


def counted(lec: AppTest, downloads, template_id: str) -> int:
    """The answers to template `template_id` in the lecturer's CSV download, as built when clicked."""
    from classroom.tally import CSV_HEADER
    from tests.app.helpers import downloaded

    text, _ = downloaded(lec, downloads, translate("es", "live.export.button", kind="CSV"))
    template, count = CSV_HEADER.index("template"), CSV_HEADER.index("count")
    return sum(int(row[count]) for row in csv_rows(text)[1:] if row[template] == template_id)


def test_answers_sent_just_before_the_lecturer_moves_on_are_in_the_tally(store, downloads):
    """The projector reads the answers every 1.5 s; the lecturer who steps on before its next read (the store then
    drops the question's answers) must not lose the answers sent since."""
    lec, code, first, _ = part_one_answered(store, 2)
    click(lec, translate("es", "walk.next"))  # part 2 asks its own question: the store drops part 1's answers
    assert store.state(code).view.question != first
    lec.run()
    assert counted(lec, downloads, first.template_id) == 2


def test_a_question_asked_again_asks_the_student_again(store):
    """Asked again, a question's round 1 starts afresh in the store: the student's phone must not still say their
    earlier answer was received (it is in no tally)."""
    lec, code, _, (alice,) = part_one_answered(store, 1)
    received = translate("es", "live.quiz.received", answer="").strip()[:12]
    assert received in page_text(alice)
    click(lec, translate("es", "walk.next"))
    click(lec, translate("es", "walk.prev"))
    assert store.state(code).rounds[0].answers == {}
    alice.run()
    alice.run()
    assert received not in page_text(alice)
    assert translate("es", "live.quiz.waiting") in page_text(alice)


def test_the_lecturers_reload_through_the_private_link_keeps_the_classs_tally(store, downloads):
    """The tally is the class's, not the lecturer's session's: a reload (or another device) through the private
    link downloads every question asked before it, with its answers."""
    lec, code, first, _ = part_one_answered(store, 2)
    click(lec, translate("es", "walk.next"))  # part 2 asks its own question: part 1's is archived by the store
    token = lec.session_state["live_lecturer"].token
    again = session(**{"class": code, "teach": token})
    assert counted(again, downloads, first.template_id) == 2


def test_the_tally_download_holds_what_the_run_after_the_sidebar_kept(store, downloads):
    """The sidebar draws the download first; the same run (and, in the browser, a walkthrough part's or the
    projector's fragment, which do not draw the sidebar again) then keeps more in the lecturer's log: the file,
    built at the click, holds it."""
    lec, _, first, _ = part_one_answered(store, 1)
    click(lec, translate("es", "walk.next"))  # this run's sidebar was drawn before part 1's answers were read
    assert counted(lec, downloads, first.template_id) == 1


def test_a_store_that_goes_down_under_a_following_student_is_said_without_rerunning_the_page(store, monkeypatch):
    """A student who joined; then the store stops answering. The follower's poll said it by st.rerun(), and the
    rerun's poll failed again: the page reran for as long as the store was down (here: until it answered again)."""
    _, code = lecturer(questions=False)
    student = session(**{"class": code})
    reads = []
    real_version = store.version

    def down(code):
        reads.append(code)
        if len(reads) > 20:  # so that a page that reruns without end stops after 20 reads
            return real_version(code)
        raise ClassError("store_unavailable")

    monkeypatch.setattr(store, "version", down)
    student.run()
    assert not student.exception
    assert len(reads) <= 2, f"{len(reads)} reads of the class in one page run"
    assert translate("es", "live.error.store_unavailable") in page_text(student)


def test_an_end_the_store_refused_leaves_the_lecturer_in_control(store, monkeypatch):
    """Ending the class while the store does not answer: the class is still open (its students still follow), so
    the lecturer keeps its panel and can end it again, instead of being shown the ended class's tally."""
    lec, code = lecturer(questions=False)

    def down(*args, **kwargs):
        raise ClassError("store_unavailable")

    monkeypatch.setattr(store, "end", down)
    click(lec, translate("es", "live.end"))
    click(lec, translate("es", "live.end_yes"))
    assert translate("es", "live.error.store_unavailable") in page_text(lec)
    assert store.state(code).ended is False
    assert lec.session_state["live_lecturer"] is not None and lec.session_state["live_lecturer"].code == code
    assert translate("es", "live.export.after_end") not in page_text(lec)
    monkeypatch.undo()
    serve(monkeypatch, store)
    click(lec, translate("es", "live.end"))
    click(lec, translate("es", "live.end_yes"))
    assert lec.session_state["live_lecturer"] is None
