"""Questions before each step, in the app: asked on every page in both languages, graded with the mistake named,
the step revealed after an answer or "show me"; shown large in presentation mode with a key to reveal; off from the
sidebar for the session; a tally with CSV and JSON downloads. Every string the engine's templates declare exists in
both languages and fills with the placeholders its questions carry."""

from __future__ import annotations

import csv
import io
import json
import string
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.testing.v1 import AppTest

from engine import EngineInputError, Scale, attend, lesson_scenario, model_files, random_scenario, sentence_vectors
from engine import questions as engine_questions
from engine.questions import (
    Kind,
    LearningView,
    MultiHeadView,
    Outcome,
    RealModelView,
    ScalingSetup,
    SoftmaxRow,
    WordPairView,
    grade,
)
from harness.tiny_model import TINY_CONFIG, random_bert_tensors, write_model
from tests.app.helpers import APP, button, derivation_lines, downloaded, no_exception, page_text
from tests.engine.question_contexts import (
    learning_view,
    lesson_learning_view,
    lesson_multihead_view,
    lesson_real_model_view,
    multihead_view,
    real_model_view,
)
from ui import numbers, question_book, question_wording, questions, state
from ui.i18n import LANGUAGES, translate
from ui.sections import real_model_context

LANGS = sorted(LANGUAGES)
WALK_GATES = [(f"walk.{part}", "pages/walkthrough.py") for part in range(1, 6)]
SCALING_GATES = [(f"scaling.{name}", "pages/scaling.py") for name in questions.SCALING_GATES]
MULTIHEAD_GATES = [(f"multihead.{part}", "pages/multihead.py") for part in ("sizes", "heads", "concat", "residual")]
REAL_MODEL_GATES = [(f"real_model.{part}", "pages/real_model.py") for part in ("head", "cell", "context")]
GATES = [
    *WALK_GATES,
    ("softmax", "pages/softmax.py"),
    *SCALING_GATES,
    ("pipeline.vectors", "pages/pipeline.py"),
    ("pipeline", "pages/pipeline.py"),
    ("pipeline.context", "pages/pipeline.py"),
    *MULTIHEAD_GATES,
    ("learning.train", "pages/learning.py"),
    *REAL_MODEL_GATES,
]


# --- reading what the page shows, in a language ---


OUTSIDE_A_RUN = {"lang": "es"}  # the language of UI code called outside the app's runs (see the fixture below)


@pytest.fixture(autouse=True)
def language_outside_runs(monkeypatch):
    """Inside a run the app reads its language from the session; outside, no session says it. AppTest formats a
    selectbox's options outside the run when it collects widget values (so an English page's "5,000" would be
    looked up as "5.000"), and these tests build the strings they expect outside runs: both use the test's."""
    inside = state.current_language

    def current_language() -> str:
        return inside() if get_script_run_ctx(suppress_warning=True) else OUTSIDE_A_RUN["lang"]

    monkeypatch.setattr(state, "current_language", current_language)


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    """The tiny BERT the real-model page tests use (tests/app/test_real_model_page.py), written once here."""
    return write_model(tmp_path_factory.mktemp("tiny"), tensors=random_bert_tensors(TINY_CONFIG, seed=5))


@pytest.fixture(autouse=True)
def real_model_from_a_folder(monkeypatch, tiny_model_dir):
    """The real-model page reads the tiny model from its folder (the hub is never reached; other pages ignore it)."""
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(tiny_model_dir))


@contextmanager
def reading(lang: str):
    """Build the UI's strings outside a run, as the page builds them in `lang`."""
    saved = OUTSIDE_A_RUN["lang"]
    OUTSIDE_A_RUN["lang"] = lang
    try:
        yield
    finally:
        OUTSIDE_A_RUN["lang"] = saved


def written(lang: str, function, *args, **kwargs) -> str:
    with reading(lang):
        return function(*args, **kwargs)


FOLDED = {"real_model.context": real_model_context.FOLD_KEY}  # a gate inside a fold: the fold opened first
ABOVE = {  # a gate below two others: both shown first, in page order
    "pipeline.context": ["pipeline.vectors", "pipeline"],
    "real_model.context": ["real_model.head", "real_model.cell"],  # below both, outside the head's gate
}


def open_gate(gate: str, page: str, lang: str, *, questions_on: bool = True, seed: int = 2024, **state) -> AppTest:
    """The app on the page and step of `gate` (its √d_k section open), in `lang`, questions on, the session's
    question seed fixed (a real session draws its own)."""
    OUTSIDE_A_RUN["lang"] = lang
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[questions.ANSWERS.key] = question_book.Book(seed=seed)
    at.session_state["lang"] = lang
    at.session_state["questions_on"] = questions_on
    if gate.startswith("scaling."):
        at.session_state["scaling_section"] = gate.split(".")[1]
    if gate.startswith("multihead.") and gate != "multihead.sizes":
        at.session_state["mh_part"] = gate.split(".")[1]
    if gate.startswith("learning."):
        at.session_state["learn_section"] = "train"
    if gate in FOLDED:
        at.session_state[FOLDED[gate]] = True
    for key, value in state.items():
        at.session_state[key] = value
    if gate.startswith("walk."):
        at.query_params["step"] = gate.split(".")[1]
    at.run()
    at.switch_page(page).run()
    assert no_exception(at), [e.value for e in at.exception]
    first = {"multihead": "multihead.sizes", "real_model": "real_model.head", "pipeline": "pipeline.vectors"}
    above = ABOVE.get(gate, [first[gate.split(".")[0]]] if gate.split(".")[0] in first else [])
    for shown in [name for name in above if name != gate]:
        # the gates asked first, above this one on its page: shown, so this gate's own question is the one left
        button(at, translate(lang, "quiz.show_me")).click().run()
        assert no_exception(at), [e.value for e in at.exception]
        assert revealed(at, shown, lang)
    return at


def book(at: AppTest) -> question_book.Book:
    return at.session_state[questions.ANSWERS.key]


def asked(at: AppTest, gate: str):
    return book(at).current[gate]


def lesson_numbers() -> dict[str, np.ndarray]:
    """The lesson's attention by hand with numpy (not the engine): the numbers each walkthrough step reveals."""
    s = lesson_scenario()
    q, k, v = s.x @ s.w_q, s.x @ s.w_k, s.x @ s.w_v
    scores = q @ k.T
    scaled = scores / np.sqrt(q.shape[1])
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return {"q": q, "scores": scores, "scaled": scaled, "weights": weights, "output": weights @ v}


def revealed(at: AppTest, gate: str, lang: str) -> bool:
    """Whether the gated step's own content is on the page: a number of its derivation (the walkthrough, for the
    query «perro» and key «come» the page picks by default), or its heading."""
    if gate.startswith("walk."):
        n = lesson_numbers()
        marker = {
            "walk.1": numbers.vector(n["q"][1], lang=lang),  # Q_perro    = [+0.461, ...]
            "walk.2": numbers.signed(n["scores"][1, 2], lang=lang),  # score perro → come
            "walk.3": numbers.signed(n["scaled"][1, 1], lang=lang),  # score'(perro → perro)
            "walk.4": numbers.fixed(n["weights"][1, 0], lang=lang),  # weight perro → el
            "walk.5": numbers.signed(n["output"][1, 0], lang=lang),  # output_perro[0]
        }[gate]
        return any(marker in line for line in derivation_lines(at))
    if gate == "learning.train":  # the prediction comes before the Train button
        return any(b.label == translate(lang, "learn.train") for b in at.button)
    title = {
        "multihead.sizes": "mh.cost.body",
        "multihead.heads": "mh.heads.body",
        "multihead.concat": "mh.concat.body",
        "multihead.residual": "mh.residual.body",
        "softmax": "softmax.steps.title",
        "scaling.walk": "scaling.walk.title",
        "scaling.experiment": "scaling.experiment.title",
        "scaling.row": "scaling.row.title",
        "pipeline.vectors": "pipeline.tokens.title",
        "pipeline": "pipeline.effect.title",
        "real_model.head": "real.head.hover",  # the caption under the picked head's large figure
        "real_model.cell": "real.cell.divide",  # the line before the picked cell's division
        "real_model.context": "ctx.heads.caption",  # the caption under the word's cosines
        "pipeline.context": "pctx.honest",  # what the outputs of the same word say: mixing, not meaning
    }[gate]
    return translate(lang, title) in page_text(at)


def shown_in(lang: str, value: float, decimals: int) -> str:
    """A number as a student copies it from the page: the page's own writing of it, in the page's language."""
    return numbers.fixed(value, decimals, lang=lang)


def answer(at: AppTest, gate: str, lang: str, response) -> AppTest:
    """Type a number (written in `lang`) or pick an option index, then press the check button."""
    question = asked(at, gate)
    ident = question_book.identity(gate, question)
    if question.kind == Kind.NUMERIC:
        at.text_input(key=questions.widget_key(gate, ident, "number")).input(response)
    else:
        at.radio(key=questions.widget_key(gate, ident, "choice")).set_value(response)
    button(at, translate(lang, "quiz.check")).click().run()
    assert no_exception(at), [e.value for e in at.exception]
    return at


def a_named_mistake(question, lang: str):
    """A wrong response, as typed or picked, with the mistake the question names for it: a numeric question names
    at least one; a choice question may have only unnamed distractors (then the key is None)."""
    if question.kind == Kind.NUMERIC:
        key, value = question.misconceptions[0]
        return shown_in(lang, value, question.decimals), key
    wrong = [i for i in range(len(question.options)) if i != question.correct_option]
    index = next((i for i in wrong if question.option_misconceptions[i] is not None), wrong[0])
    return index, question.option_misconceptions[index]


def the_answer(question, lang: str):
    if question.kind == Kind.NUMERIC:
        return shown_in(lang, question.answer, question.decimals)
    return question.correct_option


def error_texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def success_texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.success)


def check_wrong_then_right(at: AppTest, gate: str, lang: str) -> None:
    """The question is on the page and the step hidden; a named mistake is named and the step appears; the
    engine's own answer is then graded right."""
    question = asked(at, gate)
    assert written(lang, question_wording.question_text, question) in [m.value for m in at.markdown]
    assert not revealed(at, gate, lang), gate
    response, key = a_named_mistake(question, lang)
    answer(at, gate, lang, response)
    typed = response if question.kind == Kind.NUMERIC else str(response)
    grade_now = grade(question, question_book.typed_number(typed, lang) if question.kind == Kind.NUMERIC else response)
    outcome = Outcome.WRONG if key is None else Outcome.MISCONCEPTION
    assert (grade_now.outcome, grade_now.misconception) == (outcome, key)
    mistake = written(lang, question_wording.feedback_text, question, question_book.Attempt(typed, grade_now))
    assert mistake in error_texts(at), (gate, mistake, error_texts(at))
    if key is not None:  # the mistake, in words, with the value it gives
        if question.kind == Kind.NUMERIC:
            value = question_wording.number_text(dict(question.misconceptions)[key], question.decimals)
        else:
            value = written(lang, question_wording.option_text, question, response)
        named = written(lang, question_wording.mistake_text, question, key, value)
        assert named.strip() and named in error_texts(at)
    assert revealed(at, gate, lang), gate  # after a try, the step shows
    answer(at, gate, lang, the_answer(question, lang))
    right = translate(lang, "quiz.feedback.right", answer=written(lang, question_wording.answer_text, question))
    assert right in success_texts(at), (gate, right, success_texts(at))
    record = book(at).records[question_book.identity(gate, question)]
    assert [a.grade.outcome for a in record.attempts] == [outcome, Outcome.RIGHT]
    assert revealed(at, gate, lang)


# --- every page, both languages: a named mistake, then the right answer ---


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("gate", "page"), GATES, ids=[gate for gate, _ in GATES])
def test_a_question_on_every_page_names_a_mistake_then_grades_the_answer_right(gate, page, lang):
    at = open_gate(gate, page, lang)
    check_wrong_then_right(at, gate, lang)
    assert book(at).tally() == (1, 1, 0)
    tally = translate(lang, "quiz.tally", answered="1", right="1", first="0")
    assert tally in page_text(at)


def test_every_template_of_every_gate_is_asked_and_graded_on_its_page():
    """Another question moves to the next template: every template of each gate gets asked, its named mistake
    named in the page's feedback, its own answer graded right."""
    seen: set[str] = set()
    for gate, page in GATES:
        at = open_gate(gate, page, "es")
        section = asked(at, gate).section
        templates = questions.SCALING_GATES.get(gate.removeprefix("scaling."))
        if gate == "pipeline":
            templates = questions.PIPELINE_TEMPLATES
        if gate == "pipeline.vectors":
            templates = questions.PIPELINE_VECTOR_TEMPLATES
        expected = {t.id for t in engine_questions.templates_for(section) if templates is None or t.id in templates}
        for draw in range(len(expected)):
            if draw:
                button(at, translate("es", "quiz.another")).click().run()
            assert book(at).draws.get(gate, 0) == draw
            seen.add(asked(at, gate).template_id)
            check_wrong_then_right(at, gate, "es")
        assert expected <= seen, (gate, expected - seen)
    assert seen == set(engine_questions.TEMPLATES)


# --- show me, presentation mode, the switch, a changed scenario ---


@pytest.mark.parametrize("lang", LANGS)
def test_show_me_reveals_the_answer_and_the_step_without_counting_an_answer(lang):
    at = open_gate("walk.2", "pages/walkthrough.py", lang)
    question = asked(at, "walk.2")
    button(at, translate(lang, "quiz.show_me")).click().run()
    assert revealed(at, "walk.2", lang)
    assert translate(lang, "quiz.shown", answer=written(lang, question_wording.answer_text, question)) in page_text(at)
    assert book(at).tally() == (0, 0, 0)
    assert [r.outcome for r in book(at).records.values()] == ["shown"]


@pytest.mark.parametrize("template", ["walk.4.most_weight", "walk.4.weight"])  # options, or a number
@pytest.mark.parametrize("lang", LANGS)
def test_presentation_mode_shows_the_question_large_and_reveals_it_with_a_key(lang, template):
    at = open_gate("walk.4", "pages/walkthrough.py", lang, present=True)
    while asked(at, "walk.4").template_id != template:
        button(at, translate(lang, "quiz.another")).click().run()
    question = asked(at, "walk.4")
    assert written(lang, question_wording.question_text, question) in [h.value for h in at.subheader]
    assert len(at.main.text_input) == 0 and len(at.main.radio) == 0  # the class answers aloud or on paper
    reveal = button(at, translate(lang, "quiz.lecture.reveal", shortcut=questions.REVEAL_SHORTCUT))
    assert reveal.proto.shortcut.upper() == questions.REVEAL_SHORTCUT
    assert questions.REVEAL_SHORTCUT not in ("R", "C", "Esc", "Left", "Right", "PageUp", "PageDown", "Space")
    assert translate(lang, "quiz.lecture.keys", shortcut=questions.REVEAL_SHORTCUT) in page_text(at)
    assert not revealed(at, "walk.4", lang)
    reveal.click().run()
    assert no_exception(at)
    answer_text = written(lang, question_wording.answer_text, question)
    if question.kind == Kind.CHOICE:  # with the letter the class calls out
        answer_text = f"{question_wording.OPTION_LETTERS[question.correct_option]}. {answer_text}"
    assert translate(lang, "quiz.lecture.answer", answer=answer_text) in success_texts(at)
    explained = page_text(at)
    for shown, feedback in written(lang, question_wording.mistaken_values, question):
        if feedback:
            assert f"**{shown}**: {feedback}" in explained
    assert revealed(at, "walk.4", lang)
    assert book(at).tally() == (0, 0, 0)


def test_the_sidebar_switch_turns_questions_off_on_every_page_for_the_session():
    at = open_gate("walk.1", "pages/walkthrough.py", "es")
    assert not revealed(at, "walk.1", "es")
    at.toggle(key="questions_on_toggle").set_value(False).run()
    assert revealed(at, "walk.1", "es")
    assert translate("es", "quiz.title") not in page_text(at)
    for gate, page in [("softmax", "pages/softmax.py"), ("pipeline", "pages/pipeline.py"), ("walk.3", None)]:
        # AppTest runs a page it switches to once with its widgets' values from before the last change; the
        # browser test checks a real page switch (the value travels in the URL, ?questions_on=false).
        at.switch_page(page or "pages/walkthrough.py").run()
        at.run()
        if page is None:
            button(at, translate("es", "walk.next")).click().run()
            button(at, translate("es", "walk.next")).click().run()
        assert no_exception(at)
        assert at.toggle(key="questions_on_toggle").value is False
        assert translate("es", "quiz.title") not in page_text(at)
        assert revealed(at, gate, "es"), gate


def test_questions_are_on_by_default():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/softmax.py").run()
    assert at.toggle(key="questions_on_toggle").value is True
    assert translate("es", "quiz.title") in page_text(at)
    assert not revealed(at, "softmax", "es")


def test_an_edited_scenario_asks_a_fresh_question_and_the_old_answer_comes_back_with_it():
    at = open_gate("walk.2", "pages/walkthrough.py", "es")
    while asked(at, "walk.2").template_id != "walk.2.score":  # a question whose answer depends on W_K
        button(at, translate("es", "quiz.another")).click().run()
    before = asked(at, "walk.2")
    button(at, translate("es", "quiz.show_me")).click().run()
    assert revealed(at, "walk.2", "es")
    lesson = at.session_state["scenario"]
    edited = replace(lesson, w_k=lesson.w_k * 2)  # every score doubles: the same question has another answer
    at.session_state["scenario"] = edited
    at.run()
    after = asked(at, "walk.2")
    assert question_book.identity("walk.2", after) != question_book.identity("walk.2", before)
    assert translate("es", "quiz.title") in page_text(at)
    assert not any("= " in line and "Q_perro" in line for line in derivation_lines(at))
    at.session_state["scenario"] = lesson
    at.run()
    assert question_book.identity("walk.2", asked(at, "walk.2")) == question_book.identity("walk.2", before)
    assert revealed(at, "walk.2", "es")


def test_odd_inputs_never_break_a_gate():
    """One score, a causal mask at another temperature, a larger random scenario with other scales, a sentence
    that repeats a word: the gates ask what they can, or let the page show."""
    at = open_gate("softmax", "pages/softmax.py", "es", lists={"softmax_scores": np.array([3.0])})
    assert no_exception(at)
    base = random_scenario(11, ("a", "b", "c", "d", "e"), d_model=3, d_k=2)
    for scenario in (
        replace(lesson_scenario(), causal=True, temperature=2.5),
        replace(base, scale=Scale.DK),
        replace(base, scale=Scale.NONE, causal=True),
    ):
        at = open_gate("walk.1", "pages/walkthrough.py", "en", scenario=scenario, scenario_rev=0)
        for part in range(1, 6):
            if part > 1:
                button(at, translate("en", "walk.next")).click().run()
            assert no_exception(at), part
            assert asked(at, f"walk.{part}").section == f"walk.{part}"
    at = open_gate("pipeline", "pages/pipeline.py", "es", pipeline_sentence="el perro ve el perro.")
    question = asked(at, "pipeline")
    labels = [written("es", question_wording.option_text, question, i) for i in range(len(question.options))]
    assert len(set(labels)) == len(labels)  # a repeated word is told apart by its position


# --- the tally and its downloads ---


@pytest.mark.parametrize("lang", LANGS)
def test_the_tally_counts_and_the_downloads_list_every_question(lang, downloads):
    at = open_gate("walk.1", "pages/walkthrough.py", lang)
    assert at.get("download_button") == []  # nothing to hand in yet
    first = asked(at, "walk.1")
    answer(at, "walk.1", lang, the_answer(first, lang))  # right at once
    button(at, translate(lang, "walk.next")).click().run()
    second = asked(at, "walk.2")
    mistaken, _ = a_named_mistake(second, lang)
    answer(at, "walk.2", lang, mistaken)
    answer(at, "walk.2", lang, the_answer(second, lang))  # right at the second try
    button(at, translate(lang, "walk.next")).click().run()
    third = asked(at, "walk.3")
    button(at, translate(lang, "quiz.show_me")).click().run()  # shown, never answered
    assert book(at).tally() == (2, 2, 1)
    assert translate(lang, "quiz.tally", answered="2", right="2", first="1") in page_text(at)

    text, name = downloaded(at, downloads, "JSON")
    assert name == translate(lang, "quiz.export.file") + ".json"
    document = json.loads(text)
    assert (document["language"], document["answered"], document["right"], document["first_try_right"]) == (
        lang,
        2,
        2,
        1,
    )
    rows = document["questions"]
    assert [row["template"] for row in rows] == [first.template_id, second.template_id, third.template_id]
    assert [row["question"] for row in rows] == [
        written(lang, question_wording.question_text, q, markdown=False) for q in (first, second, third)
    ]
    assert [row["outcome"] for row in rows] == ["right", "right", "shown"]
    assert [row["first_try_right"] for row in rows] == [True, False, False]
    assert [row["outcomes"] for row in rows] == [["right"], ["misconception", "right"], []]
    if second.kind == Kind.NUMERIC:
        assert rows[1]["answers"][0] == mistaken  # as typed
    else:
        label = written(lang, question_wording.option_text, second, mistaken, markdown=False)
        assert rows[1]["answers"][0] == f"{question_wording.OPTION_LETTERS[mistaken]}. {label}"
    assert len(rows[1]["answers"]) == 2 and rows[2]["answers"] == []
    assert {row["page"] for row in rows} == {translate(lang, "page.walkthrough")}

    text, name = downloaded(at, downloads, "CSV")
    assert name == translate(lang, "quiz.export.file") + ".csv"
    table = list(csv.reader(io.StringIO(text)))
    columns = ("page", "template", "question", "answers", "right_answer", "outcome", "first_try_right")
    assert table[0] == [translate(lang, f"quiz.export.col.{c}") for c in columns]
    assert [row[1] for row in table[1:]] == [first.template_id, second.template_id, third.template_id]
    assert [row[5] for row in table[1:]] == [
        translate(lang, "quiz.outcome.right"),
        translate(lang, "quiz.outcome.right"),
        translate(lang, "quiz.outcome.shown"),
    ]
    yes, no = translate(lang, "quiz.export.yes"), translate(lang, "quiz.export.no")
    assert [row[6] for row in table[1:]] == [yes, no, no]
    assert table[2][3].count(" | ") == 1  # two answers, in order


@pytest.mark.parametrize("lang", LANGS)
def test_the_tally_csv_holds_no_formula_and_reads_back_exactly(lang, monkeypatch):
    # every cell of a row passes through the same rule, whatever put text there (a token name in a question, an
    # option or the right answer, an answer as typed); the rows are forged here, the writing is the app's
    hostile = ['=HYPERLINK("//e.vil","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|'/C calc'!A0", "\t=1", "-0.5"]
    row = {
        "page": hostile[0],
        "template": hostile[1],
        "question": hostile[2],
        "answers": [hostile[3], "2"],
        "right_answer": hostile[4],
        "outcome": "right",
        "first_try_right": True,
    }
    monkeypatch.setattr(question_wording, "export_rows", lambda records: [row])
    header, cells = csv.reader(io.StringIO(written(lang, question_wording.export_csv, [])))
    assert header[0] == translate(lang, "quiz.export.col.page")
    assert cells[:4] == ["'" + text for text in hostile[:3]] + ["'\t=1 | 2"]
    assert cells[4] == "-0.5"  # a number, read by a spreadsheet as a number
    assert cells[5:] == [translate(lang, "quiz.outcome.right"), translate(lang, "quiz.export.yes")]


# --- strings: every key the engine declares, both languages, its placeholders filled ---


def contexts_for(template) -> list:
    """Inputs each page can hand its gates, varied so every param takes its forms (scales, masks, temperatures)."""
    if template.context is SoftmaxRow:
        return [
            SoftmaxRow(s, t)
            for s in ((2.0, 5.0, 1.0), (2.0, -1.0, -3.0), (1000.0, 1001.0), (-1.0, -2.0))
            for t in (1.0, 0.5)
        ]
    if template.context is ScalingSetup:
        return [ScalingSetup(d_k=d, walk_steps=w) for d, w in ((1024, 200), (4, 1000), (64, 10))]
    if template.context is MultiHeadView:
        sentence = sentence_vectors("el perro come carne porque tiene hambre", 8)
        scenario = replace(random_scenario(5, sentence.tokens, d_model=8, d_k=2), x=sentence.x)
        return [
            lesson_multihead_view(),
            multihead_view(lesson_scenario(), 1, "scenario", 0, "random"),
            multihead_view(scenario, 4),
            multihead_view(replace(scenario, causal=True), 2, "random", 3, "random"),
        ]
    if template.context is LearningView:
        base = random_scenario(3, ("a", "b", "c", "d"), d_model=4, d_k=2)
        return [
            lesson_learning_view(),
            learning_view(lesson_scenario(), "subject", scale="none"),
            learning_view(replace(base, causal=True), "identity", "random", 2, "dk"),
        ]
    if template.context is WordPairView:
        return [WordPairView("banco", True, 0.772), WordPairView("banco", True, 1.0), WordPairView("bank", False, 0.5)]
    if template.context is RealModelView:
        return [
            lesson_real_model_view(),
            real_model_view("el perro come, el perro tiene hambre", 1, 1, (4, 0)),  # repeated pieces, a picked cell
            real_model_view("el perro come, tiene hambre", 0, 1, tensor_seed=2, sentencepiece=True),  # <s> … </s>
        ]
    if template.id.startswith("walk."):
        base = random_scenario(3, ("a", "b", "c", "d"), d_model=4, d_k=2)
        return [
            lesson_scenario(),
            replace(lesson_scenario(), scale=Scale.DK, temperature=2.0),
            replace(lesson_scenario(), scale=Scale.NONE, causal=True),
            base,
            replace(base, causal=True, scale=Scale.DK),
        ]
    return [attend(sentence_vectors(s)) for s in ("el perro come", "El perro come. ¿Y el gato?", "uno dos, tres")]


def questions_of(template) -> list:
    out = []
    for context in contexts_for(template):
        for seed in range(4):
            try:
                out.append(template.generate(context, seed))
            except EngineInputError as error:
                assert error.code == "question_not_applicable"
    return out


def used(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("template", list(engine_questions.TEMPLATES.values()), ids=lambda t: t.id)
def test_every_string_a_template_declares_exists_and_fills(template, lang):
    strings = LANGUAGES[lang]
    found = questions_of(template)
    assert found, f"{template.id}: no question could be made to check its strings"
    assert template.text_key in strings
    for key in template.option_keys:
        assert f"quiz.option.{key}" in strings
    for question in found:
        with reading(lang):
            available = question_wording.placeholders(question) | {"value": ""}
            text = question_wording.question_text(question)
            for key in template.misconception_keys:
                resolved = question_wording.mistake_key(template.id, key)
                assert resolved in strings, (template.id, key)
                assert used(strings[resolved]) <= set(available), (template.id, key, used(strings[resolved]))
                assert "{" not in question_wording.mistake_text(question, key, "1")
            labels = [question_wording.option_text(question, i) for i in range(len(question.options))]
            for index, key in enumerate(question.option_misconceptions):
                if key is not None:
                    assert question_wording.mistake_text(question, key, labels[index])
        assert used(strings[template.text_key]) <= set(available)
        assert "{" not in text and text.strip()
        assert all(label.strip() for label in labels)


def test_every_misconception_and_option_key_has_a_string():
    """The engine's keys, all of them: the shared mistake strings (one per key) and the option words."""
    mistakes = {key for t in engine_questions.TEMPLATES.values() for key in t.misconception_keys}
    options = {key for t in engine_questions.TEMPLATES.values() for key in t.option_keys}
    assert len(mistakes) >= 70 and len(options) >= 9
    for lang in LANGS:
        assert sorted(f"quiz.mistake.{key}" for key in mistakes if f"quiz.mistake.{key}" not in LANGUAGES[lang]) == []
        assert sorted(f"quiz.option.{key}" for key in options if f"quiz.option.{key}" not in LANGUAGES[lang]) == []
        assert all(f"quiz.line.{line}" in LANGUAGES[lang] for line in engine_questions.LINE_KEYS)
        assert all(f"quiz.scale.{mode}" in LANGUAGES[lang] and f"quiz.rule.{mode}" in LANGUAGES[lang] for mode in Scale)
        specific = [k for k in LANGUAGES[lang] if k.startswith("quiz.mistake.") and k.count(".") > 2]
        for key in specific:  # a wording for one template names a key and a template that exist
            _, _, mistake, template = key.split(".", 3)
            assert (
                template in engine_questions.TEMPLATES
                and mistake in engine_questions.TEMPLATES[template].misconception_keys
            )


# --- the pure parts ---


@pytest.mark.parametrize(
    ("typed", "value"),
    [("0,954", 0.954), ("0.954", 0.954), (" −0,15 ", -0.15), ("-3", -3.0), ("1.234,5", 1234.5), ("1,234.5", 1234.5)],
)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_typed_answer_is_read_in_either_writing(typed, value, lang):
    assert question_book.typed_number(typed, lang) == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(
    ("typed", "lang", "value"), [("4,000", "es", 4.0), ("1,223", "es", 1.223), ("1.223", "en", 1.223)]
)
def test_a_number_written_as_the_app_writes_it_is_read_in_the_readers_language(typed, lang, value):
    assert question_book.typed_number(typed, lang) == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(("typed", "lang"), [("1.223", "es"), ("4,000", "en")])
def test_a_thousands_looking_number_in_the_readers_language_is_refused_not_guessed(typed, lang):
    with pytest.raises(EngineInputError) as error:
        question_book.typed_number(typed, lang)
    assert error.value.code == "ambiguous_number"


@pytest.mark.parametrize(("typed", "code"), [("abc", "not_a_number"), ("", "empty_or_nan"), ("1e400", "too_large")])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_unreadable_answer_says_why(typed, code, lang):
    with pytest.raises(EngineInputError) as error:
        question_book.typed_number(typed, lang)
    assert error.value.code == code


def test_an_unreadable_answer_is_not_graded_and_the_page_says_why():
    at = open_gate("scaling.experiment", "pages/scaling.py", "es")
    answer(at, "scaling.experiment", "es", "treinta y dos")
    assert translate("es", "quiz.error.not_a_number", value="treinta y dos") in [w.value for w in at.warning]
    assert book(at).records == {}
    assert not revealed(at, "scaling.experiment", "es")


def test_the_question_is_stable_per_session_and_gate_and_moves_on_per_draw():
    scenario = lesson_scenario()
    first = question_book.pick_question("walk.2", scenario, seed=7, gate="walk.2")
    assert question_book.pick_question("walk.2", scenario, seed=7, gate="walk.2") == first
    templates = [
        question_book.pick_question("walk.2", scenario, seed=7, gate="walk.2", draw=d).template_id for d in range(4)
    ]
    assert sorted(templates) == sorted(t.id for t in engine_questions.templates_for("walk.2"))
    firsts = {question_book.pick_question("walk.2", scenario, seed=s, gate="walk.2").template_id for s in range(40)}
    assert len(firsts) > 1  # different students start on different questions
    assert question_book.pick_question("walk.2", SoftmaxRow((1.0,)), seed=7, gate="x") is None  # not its input
    assert question_book.pick_question("softmax", SoftmaxRow((1.0, 2.0)), seed=1, gate="s", templates=()) is None


def first_question(template_id: str, context, **params):
    """The first seed's question of a template whose params include `params`."""
    for seed in range(200):
        question = engine_questions.generate(template_id, context, seed)
        if all(question.params[name] == value for name, value in params.items()):
            return question
    raise AssertionError(f"no seed gives {template_id} with {params}")


def test_the_feedback_names_the_mistake_with_this_scenarios_numbers():
    """Worked by hand: the lesson has d_k = 4 (√d_k = 2); the √d_k page's d_k = 1024 has √d_k = 32."""
    lesson = lesson_scenario()
    scaled = first_question("walk.3.scaled_score", lesson)
    assert written("es", question_wording.mistake_text, scaled, "divided_by_dk", "") == (
        "Eso da dividir por d_k = 4; acá corresponde dividir por √d_k = 2."
    )
    assert written("en", question_wording.mistake_text, scaled, "divided_by_dk", "") == (
        "That is what dividing by d_k = 4 gives; here you should divide by √d_k = 2."
    )
    divisor = first_question("walk.3.divisor", replace(lesson, scale=Scale.DK))
    assert written("es", question_wording.mistake_text, divisor, "divided_by_sqrt_dk", "") == (
        "Eso da dividir por √d_k = 2, la escala de siempre; pero en este escenario corresponde dividir por d_k = 4."
    )
    unscaled = first_question("walk.4.without_scaling", lesson)
    assert written("es", question_wording.mistake_text, unscaled, "divided_by_dk", "").endswith(
        "acá corresponde no dividir."
    )
    score = first_question("walk.2.score", lesson, token="perro", other="come")
    assert written("es", question_wording.mistake_text, score, "transposed", "").startswith(
        "Ese es el score «come» → «perro» = Q_come · K_perro. El orden importa"
    )
    assert written("en", question_wording.mistake_text, score, "transposed", "").startswith(
        "That is the score “come” → “perro” = Q_come · K_perro. Order matters"
    )
    unit = first_question("scaling.unit_divisor", ScalingSetup(d_k=1024))
    assert written("es", question_wording.mistake_text, unit, "no_divisor", "") == (
        "Dividir por 1 es dejar los scores como están; acá corresponde dividir por √d_k = 32."
    )
    row = first_question("walk.4.row_sum", lesson, token="perro")
    assert "«perro»" in written("es", question_wording.mistake_text, row, "sum_of_scores", "")


@settings(max_examples=60, deadline=None, database=None)
@given(st.floats(min_value=1e-4, max_value=1e4, allow_nan=False, allow_infinity=False))
def test_the_stated_tolerance_never_exceeds_the_accepted_one(tolerance):
    """Two significant digits, rounded down: a student who stays within what is written is graded right."""
    with reading("en"):
        stated = float(question_wording.stated_tolerance(tolerance).replace(",", ""))
    assert 0.89 * tolerance <= stated <= tolerance


def test_a_numeric_answer_box_takes_no_more_characters_than_a_number_may_have():
    from engine.limits import MAX_NUMBER_CHARS

    at = open_gate("multihead.sizes", "pages/multihead.py", "en")  # its one template asks a number
    assert asked(at, "multihead.sizes").kind == Kind.NUMERIC
    boxes = [box for box in at.text_input if (box.key or "").startswith("quiz_")]
    assert len(boxes) == 1 and boxes[0].proto.max_chars == MAX_NUMBER_CHARS


@pytest.mark.parametrize("lang", LANGS)
def test_the_answer_box_suggests_a_number_of_the_kind_asked(lang):
    """A count is answered with a whole number, a weight with decimals: the box's example is of that kind."""
    examples = {"es": ("por ejemplo 5", "por ejemplo 0,954"), "en": ("for example 5", "for example 0.954")}
    for gate, page, whole in (
        ("pipeline.vectors", "pages/pipeline.py", True),
        ("walk.2", "pages/walkthrough.py", False),
    ):
        at = open_gate(gate, page, lang)
        question = asked(at, gate)
        for _ in range(3):  # the gate's questions in turn: find one of the kind wanted
            if (question.decimals == 0) == whole and question.kind == Kind.NUMERIC:
                break
            button(at, translate(lang, "quiz.another")).click().run()
            question = asked(at, gate)
        assert question.kind == Kind.NUMERIC and (question.decimals == 0) == whole, gate
        box = at.text_input(key=questions.widget_key(gate, question_book.identity(gate, question), "number"))
        assert box.placeholder == examples[lang][0 if whole else 1], gate
