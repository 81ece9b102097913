"""The multi-head and learning pages' questions in the app, beyond what tests/app/test_questions_ui.py checks on every
gate: with questions off the pages show everything at once, and a changed h asks a fresh question."""

from __future__ import annotations

from tests.app.helpers import button, no_exception, open_page, page_text
from tests.app.test_questions_ui import asked, book, open_gate
from ui import questions
from ui.i18n import translate


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
    assert questions.identity("multihead.sizes", asked(at, "multihead.sizes")) == questions.identity(
        "multihead.sizes", before
    )
    assert translate("en", "mh.cost.body") in page_text(at)
    assert book(at).tally() == (0, 0, 0)  # shown, never answered
