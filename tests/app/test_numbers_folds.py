"""Where the heatmaps' "See the numbers" folds sit (ui.charts.numbers_after): a fold of a figure that shares its row
with other figures or with a derivation comes under the row at the page's full width, never inside the figure's
narrow column, where its table would scroll sideways (W_Q at presentation size needs 450 px in a 338 px column).
The browser tests measure the widths (tests/e2e/test_lecture.py); this checks the layout the page asks for."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.app import lesson
from tests.app.helpers import by_label, go_to_part, open_page
from ui import charts, matrix_text
from ui.figure_specs import Heatmap
from ui.i18n import LANGUAGES


def fold_prefix(lang: str) -> str:
    return LANGUAGES[lang]["matrix.numbers"].split("{")[0]  # "Ver los números: "


def folds(block, lang: str = "es") -> list[str]:
    return [e.label for e in block.expander if e.label.startswith(fold_prefix(lang))]


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


# What a fold holds is drawn only while it is open (ui.charts.numbers_ui): its table (st.html) and its copy buttons.
MATRIX_TABLE = f'class="{matrix_text.TABLE_CLASS}"'
COPY_BUTTON = "attention_copy_button"


def tables_drawn(at) -> list[str]:
    return [element.proto.body for element in at.get("html") if MATRIX_TABLE in element.proto.body]


def copy_buttons_drawn(at) -> list:
    return [e for e in at.get("bidi_component") if e.proto.component_name.endswith(COPY_BUTTON)]


def weights_row(body: str) -> str:
    """The cells of the table's first row, as written (the weights of the first token's row)."""
    return body.split("<tbody><tr>", 1)[1].split("</tr>", 1)[0]


def written_row(token: str, weights: np.ndarray) -> str:
    return f'<th scope="row">{token}</th>' + "".join(f"<td>{lesson.number(w)}</td>" for w in weights)


def test_a_closed_fold_draws_nothing_and_an_open_one_its_table_and_copy_buttons():
    at = open_page("pages/builder.py", "en")
    assert not at.exception
    assert len(folds(at, "en")) == 8  # Q, K, V, the scores, the scaled scores, the weights, x, the output
    assert tables_drawn(at) == [] and copy_buttons_drawn(at) == []
    at.session_state["numbers_b_weights"] = True  # the reader opens the weights' fold: its run draws what it holds
    at.run()
    assert not at.exception
    (table,) = tables_drawn(at)
    assert "<caption>Weights (softmax)" in table
    assert weights_row(table) == written_row("el", lesson.attention()["weights"][0])
    (buttons,) = copy_buttons_drawn(at)
    assert buttons.proto.ByteSize() < 1_500  # its texts and a loader, not its code (ui/static/copy.js, served once)


def test_an_open_fold_stays_open_while_its_values_change():
    """Its key is the figure's, not its values: a new temperature redraws the open table, it does not close it (its
    title stays; a fold whose title changes comes back closed, see ui.charts.numbers_ui)."""
    at = open_page("pages/builder.py", "en")
    at.session_state["numbers_b_weights"] = True
    at.run()
    by_label(at.select_slider, LANGUAGES["en"]["scenario.temperature"]).set_value(2.0).run()
    assert not at.exception
    (table,) = tables_drawn(at)
    hot = lesson.attention(temperature=2.0)["weights"][0]
    assert weights_row(table) == written_row("el", hot) != written_row("el", lesson.attention()["weights"][0])


def test_a_fold_without_a_figure_key_is_keyed_by_its_matrices_not_their_values():
    x = Heatmap(values=np.array([[1.0, 2.0]]), rows=["el"], cols=["d0", "d1"], title="x", decimals=1, kind="signed")
    moved = replace(x, values=np.array([[3.0, 4.0]]))
    assert charts._fold_key([x], None) == charts._fold_key([moved], None)
    assert charts._fold_key([x], None) != charts._fold_key([replace(x, title="y")], None)
    assert charts._fold_key([x], "b_x") == "numbers_b_x"
