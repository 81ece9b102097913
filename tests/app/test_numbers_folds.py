"""Where the heatmaps' "See the numbers" folds sit (ui.charts.numbers_after): a fold of a figure that shares its row
with other figures or with a derivation comes under the row at the page's full width, never inside the figure's
narrow column, where its table would scroll sideways (W_Q at presentation size needs 450 px in a 338 px column).
The browser tests measure the widths (tests/e2e/test_lecture.py); this checks the layout the page asks for."""

from __future__ import annotations

import pytest

from tests.app.helpers import go_to_part, open_page
from ui.i18n import LANGUAGES

FOLD = LANGUAGES["es"]["matrix.numbers"].split("{")[0]  # "Ver los números: "


def folds(block) -> list[str]:
    return [e.label for e in block.expander if e.label.startswith(FOLD)]


def folds_in_columns(at) -> list[str]:
    return [label for column in at.columns for label in folds(column)]


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("part", [1, 2, 3, 4, 5])
def test_no_walkthrough_part_puts_a_numbers_fold_in_a_column(part, present):
    at = go_to_part(open_page("pages/walkthrough.py", "es", present=present), part)
    assert not at.exception
    assert folds(at.main), "the part's figures have their numbers' folds"
    assert folds_in_columns(at) == []


@pytest.mark.parametrize(
    "page", ["pages/builder.py", "pages/pipeline.py", "pages/multihead.py"], ids=lambda p: p.split("/")[1][:-3]
)
def test_figures_side_by_side_have_their_numbers_under_the_row(page):
    at = open_page(page, "es")
    assert not at.exception
    assert folds(at.main)
    assert folds_in_columns(at) == []
