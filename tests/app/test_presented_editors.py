"""In presentation mode the softmax page's scores are shown as a table at the room's type size (a data editor draws
its cells on a canvas, a little smaller than the page's text) and the editor is folded under it, drawn once opened;
out of it, the editor alone. (The builder folds all its editors in presentation mode: its figures show the numbers
large.)"""

import pytest

from tests.app.helpers import by_label, open_page, tables
from ui.i18n import LANGUAGES


def test_out_of_presentation_mode_the_editor_stands_alone():
    at = open_page("pages/softmax.py", "es")
    assert not [e for e in at.expander if e.label == LANGUAGES["es"]["editor.edit_folded"]]
    assert len(at.dataframe) == 1
    assert not [t for t in tables(at) if len(t.columns) == 1 and t.iloc[:, 0].tolist() == ["2", "5", "1"]]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_softmax_pages_scores_are_a_table_in_presentation_mode(lang):
    at = open_page("pages/softmax.py", lang, present=True)
    assert not at.exception
    folded = [e for e in at.expander if e.label == LANGUAGES[lang]["editor.edit_folded"]]
    assert len(folded) == 1
    assert len(folded[0].dataframe) == 0  # the editor, folded under the table, is drawn only once opened
    at.session_state[folded[0].key] = True  # AppTest has no click for an expander: its state, by key
    at.run()
    opened = [e for e in at.expander if e.label == LANGUAGES[lang]["editor.edit_folded"]]
    assert len(opened[0].dataframe) == 1
    scores = next(t for t in tables(at) if len(t.columns) == 1)
    assert scores.iloc[:, 0].tolist() == ["2", "5", "1"]  # the page's example scores


def test_the_run_that_switches_presentation_mode_leaves_the_editors_out_and_the_next_draws_them():
    """Streamlit sizes an editor's cells from the root font size when it first draws the editor: the run that
    switches the mode (and the root size) draws none, so that the next draws them anew (ui.layout.grids_wait)."""
    at = open_page("pages/builder.py", "es", present=True)
    assert len(at.data_editor) == 0  # folded in presentation mode
    by_label(at.toggle, LANGUAGES["es"]["sidebar.presentation"]).set_value(False).run()
    assert not at.exception
    assert len(at.data_editor) == 0  # the switch's run
    at.run()  # in the browser, a timer starts this run a moment later
    assert len(at.data_editor) == 4  # x, W_Q, W_K, W_V
    at.run()
    assert len(at.data_editor) == 4
