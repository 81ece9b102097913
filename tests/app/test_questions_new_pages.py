"""The multi-head, learning and real-model pages' questions in the app, beyond what tests/app/test_questions_ui.py
checks on every gate: with questions off the pages show everything at once, a changed h (a picked head, a picked
cell) asks a fresh question, and on the real-model page what the reveal shows is the question's answer."""

from __future__ import annotations

import numpy as np
import pytest

from engine.questions import Outcome
from tests.app.helpers import button, derivation_lines, figure_elements, no_exception, open_page, page_text
from tests.app.test_questions_ui import (
    a_named_mistake,
    answer,
    asked,
    book,
    error_texts,
    open_gate,
    revealed,
    success_texts,
    the_answer,
    written,
)
from tests.app.test_real_model_page import computed, local_model, picked_head, tiny_dir  # noqa: F401 (fixtures)
from ui import numbers, question_book, question_wording
from ui.i18n import translate

REAL = "pages/real_model.py"
LANGS = ("es", "en")


def test_with_questions_off_the_new_pages_show_everything_and_ask_nothing():
    at = open_page("pages/multihead.py", "es", mh_part="heads")
    assert no_exception(at)
    text = page_text(at)
    assert translate("es", "quiz.title") not in text
    assert translate("es", "mh.cost.body") in text and translate("es", "mh.heads.body") in text
    at = open_page("pages/learning.py", "en", learn_section="train")
    assert no_exception(at)
    assert translate("en", "quiz.title") not in page_text(at)
    assert [b.label for b in at.button if b.label == translate("en", "learn.train")]


def test_another_h_asks_a_fresh_width_question_and_the_old_answer_comes_back_with_it():
    at = open_gate("multihead.sizes", "pages/multihead.py", "en")
    before = asked(at, "multihead.sizes")
    assert (before.template_id, before.params["h"], before.answer) == ("multihead.head_width", 2, 2)
    button(at, translate("en", "quiz.show_me")).click().run()
    assert translate("en", "mh.cost.body") in page_text(at)
    at.selectbox(key="mh_h_4").set_value(4).run()
    assert no_exception(at)
    after = asked(at, "multihead.sizes")
    assert (after.params["h"], after.answer) == (4, 1)  # d_model = 4 over 4 heads
    assert translate("en", "mh.cost.body") not in page_text(at)  # hidden again until this one is predicted
    at.selectbox(key="mh_h_4").set_value(2).run()
    assert question_book.identity("multihead.sizes", asked(at, "multihead.sizes")) == question_book.identity(
        "multihead.sizes", before
    )
    assert translate("en", "mh.cost.body") in page_text(at)
    assert book(at).tally() == (0, 0, 0)  # shown, never answered


# --- the real-model page, on the tiny model of tests/app/test_real_model_page.py ---


def test_with_questions_off_the_real_model_page_shows_every_head_and_cell_at_once(local_model):  # noqa: F811
    at = open_page(REAL, "es")
    assert no_exception(at)
    text = page_text(at)
    assert translate("es", "quiz.title") not in text
    assert translate("es", "real.head.hover") in text and translate("es", "real.cell.divide") in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_head_question_is_about_the_picked_head_and_its_figure_shows_the_answer(local_model, lang):  # noqa: F811
    at = open_gate("real_model.head", REAL, lang)
    _, tokens, result = computed(local_model)
    question = asked(at, "real_model.head")
    layer, head = at.selectbox(key="real_layer").value, at.selectbox(key="real_head").value
    assert (question.params["layer"], question.params["head"]) == (layer + 1, head + 1)
    assert question.params["tokens"] == tokens.pieces
    assert not revealed(at, "real_model.head", lang)
    assert not [c for c in figure_elements(at) if "customdata" in c.proto.spec]  # the large figure waits
    assert translate(lang, "real.cell.title") not in page_text(at)  # and so does everything that reads its rows

    response, key = a_named_mistake(question, lang)  # a wrong piece: its mistake named, then the figure shows
    answer(at, "real_model.head", lang, response)
    picked = written(lang, question_wording.option_text, question, response)
    assert picked in error_texts(at)
    assert key is not None  # a named slip is among the options (the transposed row, the piece itself, …)
    assert written(lang, question_wording.mistake_text, question, key, picked) in error_texts(at)
    assert revealed(at, "real_model.head", lang)
    i = question.params["position"]
    row = np.array(picked_head(at)["data"][0]["z"])[i]  # the row the reveal shows
    np.testing.assert_array_equal(row, result.attentions[layer, head, i])
    assert question.options[question.correct_option] == int(np.argmax(row))

    answer(at, "real_model.head", lang, the_answer(question, lang))
    right = translate(lang, "quiz.feedback.right", answer=written(lang, question_wording.answer_text, question))
    assert right in success_texts(at)
    outcomes = [a.grade.outcome for a in book(at).records[question_book.identity("real_model.head", question)].attempts]
    assert outcomes == [Outcome.MISCONCEPTION, Outcome.RIGHT]


def test_another_head_asks_a_fresh_question_and_the_answered_one_comes_back(local_model):  # noqa: F811
    at = open_gate("real_model.head", REAL, "en")
    before = asked(at, "real_model.head")
    answer(at, "real_model.head", "en", the_answer(before, "en"))
    assert revealed(at, "real_model.head", "en")
    layer, head = at.selectbox(key="real_layer").value, at.selectbox(key="real_head").value
    at.selectbox(key="real_head").set_value(1 - head).run()
    assert no_exception(at)
    after = asked(at, "real_model.head")
    assert (after.params["layer"], after.params["head"]) == (layer + 1, 2 - head)
    assert not revealed(at, "real_model.head", "en")  # the other head waits for its own prediction
    at.selectbox(key="real_head").set_value(head).run()
    assert question_book.identity("real_model.head", asked(at, "real_model.head")) == question_book.identity(
        "real_model.head", before
    )
    assert revealed(at, "real_model.head", "en")
    assert book(at).tally() == (1, 1, 1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_cell_question_is_about_the_picked_cell_and_the_derivation_shows_its_answer(local_model, lang):  # noqa: F811
    at = open_gate("real_model.cell", REAL, lang)  # the head's question shown first, by open_gate
    _, tokens, result = computed(local_model)
    question = asked(at, "real_model.cell")
    n = len(tokens.pieces)
    i, j = at.selectbox(key=f"real_query_{n}").value, at.selectbox(key=f"real_key_{n}").value
    assert (question.params["position"], question.params["other_position"]) == (i, j)
    layer, head = question.params["layer"] - 1, question.params["head"] - 1
    attended = result.head(layer, head)
    score = float(sum(a * b for a, b in zip(attended.q[i], attended.k[j], strict=True)))  # q·k by a loop
    assert question.params["score"] == pytest.approx(score, abs=1e-12)
    scaled = numbers.signed(question.answer, lang=lang)
    assert not revealed(at, "real_model.cell", lang)
    assert not any(scaled in line for line in derivation_lines(at))

    mistaken = numbers.fixed(dict(question.misconceptions)["not_scaled"], 3, lang=lang)  # forgot to divide
    answer(at, "real_model.cell", lang, mistaken)
    named = written(lang, question_wording.mistake_text, question, "not_scaled", question_wording.number_text(score, 3))
    assert named in error_texts(at)
    assert revealed(at, "real_model.cell", lang)
    assert any(scaled in line for line in derivation_lines(at))  # the division row: q·k / √d_k = the answer
    assert question.answer == pytest.approx(score / np.sqrt(attended.q.shape[1]), abs=1e-12)

    answer(at, "real_model.cell", lang, the_answer(question, lang))
    assert translate(lang, "quiz.feedback.right", answer=written(lang, question_wording.answer_text, question)) in (
        success_texts(at)
    )
    # another query piece: a fresh question about that cell, the derivation hidden until it is predicted
    at.selectbox(key=f"real_query_{n}").set_value(0).run()
    fresh = asked(at, "real_model.cell")
    assert (fresh.params["position"], fresh.params["other_position"]) == (0, j)
    assert not revealed(at, "real_model.cell", lang)
