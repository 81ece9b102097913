"""The printable handout in Chromium (issue 32): downloaded from the share box, it opens, holds the scenario's
numbers, and prints on A4 and on Letter with every figure and table whole, inside the page's printable width and
shorter than a page (so that `break-inside: avoid` can keep it on one page); Chromium's print to PDF gives one page
for the inputs, one per part and one for the answers, at least."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest
import streamlit as st
from playwright.sync_api import expect

from engine import lesson_scenario, random_scenario
from tests.e2e.shared import act, watched_page
from ui import handout, state
from ui.i18n import LANGUAGES

pytestmark = pytest.mark.e2e
MM = 96 / 25.4  # CSS px per millimetre
MARGIN_MM = 15  # ui.handout's @page margin
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}  # mm

# Every block that must print whole: its box against the printable width, and its height.
BLOCKS = """() => [...document.querySelectorAll('figure, table, pre, .question, h1, h2, p')].map((node) => {
  const box = node.getBoundingClientRect();
  return {tag: node.tagName, left: box.left, right: box.right, height: box.height,
          overflow: node.scrollWidth - node.clientWidth};
})"""


def printable(paper: str) -> tuple[int, int]:
    width, height = PAPERS[paper]
    return int((width - 2 * MARGIN_MM) * MM), int((height - 2 * MARGIN_MM) * MM)


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def check_prints(browser, document: str, paper: str, *, pages_at_least: int) -> None:
    width, height = printable(paper)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = watched_page(context)
        page.set_content(document)
        page.emulate_media(media="print")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for block in page.evaluate(BLOCKS):
            assert block["left"] >= 0 and block["right"] <= width + 0.5, (paper, block)
            assert block["overflow"] <= 0, (paper, block)
            if block["tag"] in ("FIGURE", "TABLE"):
                assert block["height"] <= height, (paper, block)
        pdf = page.pdf(format=paper, prefer_css_page_size=True)
        assert pdf.startswith(b"%PDF")
        assert pdf_pages(pdf) >= pages_at_least, (paper, pdf_pages(pdf))
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()


def test_the_handout_downloads_from_the_share_box_and_prints_whole(browser, app_url, tmp_path):
    strings = LANGUAGES["en"]
    context = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    try:
        page = watched_page(context)
        page.goto(f"{app_url}/walkthrough?lang=en")
        act(page, lambda: page.get_by_text(strings["share.title"]).click())
        button = page.get_by_role("button", name=strings["handout.download"])
        expect(button).to_be_visible()
        with page.expect_download() as download:
            button.click()
        assert download.value.suggested_filename == strings["handout.file"]
        saved = tmp_path / "handout.html"
        download.value.save_as(saved)
        document = saved.read_text(encoding="utf-8")
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()
    assert strings["handout.title"].format(sentence="el perro come") in document
    result = lesson_scenario().run()
    assert "+0.461" in document and f"{result.q[1, 0]:+.3f}" == "+0.461"  # Q of perro, dimension 0
    for paper in PAPERS:
        check_prints(browser, document, paper, pages_at_least=7)  # inputs, five parts, the answers


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_largest_scenario_prints_within_the_page(browser, paper):
    """16 tokens, 16 dimensions, 32-character names: the widest matrices and derivations a scenario can have."""
    names = tuple(f"{i:02d}" + "w" * 30 for i in range(16))
    scenario = random_scenario(16, names, d_model=16, d_k=16)
    scenario = replace(scenario, x=np.round(scenario.x * 900, 3))  # numbers with many digits
    st.session_state[state.LANG] = "es"
    try:
        asked = {part: None for part in range(1, 6)}
        document = handout.handout_html(scenario, "es", query=names[3], key=names[9], asked=asked)
    finally:
        st.session_state.clear()
    check_prints(browser, document, paper, pages_at_least=6)
