"""Questions before a step, in a real browser: an answer reveals the step, the lecturer's key reveals it in
presentation mode, and the sidebar's switch keeps questions off across a page switch.

Self-contained on purpose: only the `page` and `app_url` fixtures of tests/e2e/conftest.py (the page records its
console errors and counts the script runs the server finishes)."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from engine import lesson_scenario
from ui import numbers
from ui.i18n import translate
from ui.questions import REVEAL_SHORTCUT

pytestmark = pytest.mark.e2e

SETTLED = """() => document.querySelector('[data-testid=stApp][data-test-script-state=notRunning]') !== null
  && document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton]').length === 0"""
QUESTION_BOX = "[class*='st-key-quiz_box_']"
LECTURE_BOX = "[class*='st-key-quiz_lecture_']"


def settle(page: Page, runs_before: int) -> None:
    """Until the server has finished a run begun after `runs_before` runs, and the page shows it."""
    page.script_runs.wait_for_run(runs_before)
    page.wait_for_function(SETTLED, timeout=30_000)


def do(page: Page, action) -> None:
    before = page.script_runs.finished
    action()
    settle(page, before)


def score_perro_come() -> str:
    """The score «perro» → «come» of the lesson, by hand with numpy, as part 2's derivation writes it in Spanish."""
    s = lesson_scenario()
    q, k = s.x @ s.w_q, s.x @ s.w_k
    return numbers.signed(float(np.dot(q[1], k[2])), lang="es")


def derivation(page: Page):
    return page.locator("[data-testid=stMain] [data-testid=stCode]").filter(has_text=score_perro_come())


def test_an_answer_reveals_the_step_and_counts_in_the_tally(page, app_url):
    do(page, lambda: page.goto(f"{app_url}/walkthrough?step=2"))
    box = page.locator(QUESTION_BOX)
    expect(box).to_contain_text(translate("es", "quiz.title"))
    expect(derivation(page)).to_have_count(0)  # hidden until the student predicts
    options = box.locator("[role=radiogroup] label")
    if options.count():
        options.first.click()
    else:
        box.get_by_role("textbox").fill("0,5")
    do(page, lambda: box.get_by_role("button", name=translate("es", "quiz.check")).click())
    expect(box.locator("[data-testid=stAlert]")).to_have_count(1)  # right, or the mistake named
    expect(derivation(page).first).to_be_visible()
    answered = translate("es", "quiz.tally", answered="1", right="", first="").split("·")[0].strip()
    expect(page.locator("[data-testid=stSidebar]")).to_contain_text(answered)  # "Respondidas: 1"
    assert page.console_errors == [], page.console_errors


def test_a_lecturer_reveals_the_answer_with_a_key(page, app_url):
    do(page, lambda: page.goto(f"{app_url}/walkthrough?step=2&present=true"))
    box = page.locator(LECTURE_BOX)
    expect(box).to_contain_text(translate("es", "quiz.lecture.keys", shortcut=REVEAL_SHORTCUT))
    expect(box.locator("input")).to_have_count(0)  # no answer field: the class answers aloud
    expect(derivation(page)).to_have_count(0)
    page.locator("h1").first.click()  # the page has the focus, as after the lecturer's last click
    do(page, lambda: page.keyboard.press(REVEAL_SHORTCUT.lower()))
    expect(box).to_contain_text(translate("es", "quiz.lecture.answer", answer=""))
    expect(derivation(page).first).to_be_visible()
    assert page.console_errors == [], page.console_errors


def test_the_switch_turns_questions_off_across_a_page_switch(page, app_url):
    do(page, lambda: page.goto(f"{app_url}/walkthrough?step=2"))
    sidebar = page.locator("[data-testid=stSidebar]")
    expect(page.locator(QUESTION_BOX)).to_have_count(1)
    do(page, lambda: sidebar.get_by_text(translate("es", "quiz.sidebar.toggle"), exact=True).click())
    expect(page.locator(QUESTION_BOX)).to_have_count(0)
    expect(derivation(page).first).to_be_visible()
    do(page, lambda: sidebar.get_by_role("link", name=translate("es", "page.softmax")).click())
    expect(page.locator("[data-testid=stMain]")).to_contain_text(translate("es", "softmax.steps.title"))
    expect(page.locator(QUESTION_BOX)).to_have_count(0)
    assert "questions_on=false" in page.url  # and so a reload keeps it
    assert page.console_errors == [], page.console_errors
