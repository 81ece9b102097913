"""Editor changes reach the scenario cell by cell; bad cells are refused with a reason, good ones kept.

The data editors' callbacks are called directly here: AppTest can seed a keyed data editor's edit state, but it
does not run the editor's `on_change` callback, and the app applies edits only there (checked: a seeded edit
leaves the scenario as it was). tests/e2e/test_hostile_input_in_browser.py types into the real editors.
"""

import math

import numpy as np
import pytest

from engine import lesson_scenario
from tests.app.helpers import by_label, open_page
from ui import editors, state
from ui.editing import apply_list_edits, apply_matrix_edits, apply_token_edits
from ui.i18n import LANGUAGES

TOKENS = ("el", "perro", "come")
X = lesson_scenario().x


def codes(errors):
    return [code for code, _ in errors]


def test_a_good_cell_edit_is_applied_and_nothing_else_changes():
    w = np.zeros((2, 2))
    out, errors = apply_matrix_edits(w, {"edited_rows": {1: {"0": 0.75}}}, "W_Q")
    assert errors == []
    assert out.tolist() == [[0.0, 0.0], [0.75, 0.0]]
    assert w.tolist() == [[0.0, 0.0], [0.0, 0.0]], "the input matrix must not be mutated"


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("abc", "not_a_number"),
        (None, "empty_or_nan"),
        (math.nan, "empty_or_nan"),
        (math.inf, "infinite"),
        (-math.inf, "infinite"),
        (1e308, "too_large"),
        ("1e308", "too_large"),
        (True, "not_a_number"),
    ],
)
def test_a_bad_cell_is_refused_and_the_other_edits_are_kept(value, code):
    w = np.ones((2, 2))
    out, errors = apply_matrix_edits(w, {"edited_rows": {0: {"0": value, "1": 2.5}}}, "W_K")
    assert codes(errors) == [code]
    assert errors[0][1]["where"] == "W_K[0][0]"
    assert out.tolist() == [[1.0, 2.5], [1.0, 1.0]]


def test_a_comma_decimal_is_read_as_a_number():
    out, errors = apply_matrix_edits(np.zeros((1, 1)), {"edited_rows": {0: {"0": "0,5"}}}, "W_V")
    assert errors == [] and out[0, 0] == 0.5


def test_renaming_adding_and_deleting_tokens():
    changes = {"edited_rows": {0: {"token": "la"}}, "added_rows": [{"token": "gata", "1": 0.5}], "deleted_rows": [2]}
    tokens, x, errors = apply_token_edits(TOKENS, X, changes)
    assert errors == []
    assert tokens == ("la", "perro", "gata")
    assert x.shape == (3, 4)
    assert x[2].tolist() == [0.0, 0.5, 0.0, 0.0]
    assert x[1].tolist() == X[1].tolist()


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "empty_token"), ("  ", "empty_token"), ("perro", "duplicate_token"), ("x" * 33, "token_too_long")],
)
def test_a_bad_token_name_is_refused_and_the_old_name_kept(name, code):
    tokens, x, errors = apply_token_edits(TOKENS, X, {"edited_rows": {0: {"token": name, "0": 9.0}}})
    assert codes(errors) == [code]
    assert tokens == TOKENS
    assert x[0, 0] == 9.0, "the number edited in the same row is still applied"


def test_html_and_emoji_token_names_are_kept_as_plain_text():
    tokens, _, errors = apply_token_edits(
        TOKENS, X, {"edited_rows": {0: {"token": "<img src=x onerror=alert(1)>"}, 1: {"token": "🐶"}}}
    )
    assert errors == []
    assert tokens[:2] == ("<img src=x onerror=alert(1)>", "🐶")


def test_an_added_row_without_a_name_gets_a_fresh_one():
    tokens, x, errors = apply_token_edits(TOKENS, X, {"added_rows": [{}]})
    assert errors == [] and tokens == (*TOKENS, "token4") and x[3].tolist() == [0.0] * 4


def test_deleting_every_token_is_refused():
    tokens, x, errors = apply_token_edits(TOKENS, X, {"deleted_rows": [0, 1, 2]})
    assert codes(errors) == ["no_tokens"] and tokens == TOKENS and x.shape == (3, 4)


def test_more_than_sixteen_tokens_are_refused():
    tokens, _, errors = apply_token_edits(TOKENS, X, {"added_rows": [{}] * 20})
    assert len(tokens) == 16 and codes(errors) == ["too_many_tokens"]


def test_score_list_edits_add_delete_and_refuse_emptying():
    values, errors = apply_list_edits(
        np.array([2.0, 5.0, 1.0]),
        {"edited_rows": {0: {"0": -1}}, "added_rows": [{"0": 7}], "deleted_rows": [1]},
        "#",
        12,
    )
    assert errors == [] and values.tolist() == [-1.0, 1.0, 7.0]
    values, errors = apply_list_edits(np.array([2.0]), {"deleted_rows": [0]}, "#", 12)
    assert codes(errors) == ["no_scores"] and values.tolist() == [2.0]


def test_the_w_q_editor_callback_updates_the_shared_scenario_and_rebuilds_the_editors(session):
    # AppTest cannot type into a data editor's cells: its callback is driven with what Streamlit records
    rev = state.scenario_rev()
    session["editor_w_q"] = {"edited_rows": {0: {"0": 1.3}}, "added_rows": [], "deleted_rows": []}
    editors._on_matrix_edit("editor_w_q", "w_q", "W_Q", state.scenario_rev())
    scenario = state.get_scenario()
    assert scenario.w_q[0, 0] == 1.3
    assert state.scenario_rev() == rev + 1
    # Q_perro[0] = 0.5·1.3 + 1.15·0.1 + 0.78·(−0.2) + 0.88·0.4 = 0.961
    assert round(scenario.run().q[1, 0], 3) == 0.961


def test_the_x_editor_callback_reports_refused_cells_in_the_users_terms(session):
    # AppTest cannot type into a data editor's cells: its callback is driven with what Streamlit records
    session["editor_x"] = {"edited_rows": {1: {"token": "", "2": "hola"}}, "added_rows": [], "deleted_rows": []}
    editors._on_x_edit("editor_x", state.scenario_rev())
    assert state.get_scenario().tokens == TOKENS
    assert [code for code, _ in state.pop_errors()] == ["empty_token", "not_a_number"]


def test_reset_restores_the_lessons_example(session):
    state.randomize_scenario(7)
    assert not np.array_equal(state.get_scenario().w_q, lesson_scenario().w_q)
    state.reset_scenario()
    assert np.array_equal(state.get_scenario().w_q, lesson_scenario().w_q)


def editor_keys(at) -> list[str]:
    return [editor.key for editor in at.data_editor]


def test_an_option_change_does_not_rebuild_the_editors_and_a_resize_does():
    at = open_page("pages/builder.py", "en")
    strings = LANGUAGES["en"]
    before = editor_keys(at)
    assert before == ["editor_x_0", "editor_w_q_0", "editor_w_k_0", "editor_w_v_0"]
    by_label(at.select_slider, strings["scenario.temperature"]).set_value(2.0).run()
    by_label(at.toggle, strings["scenario.causal"]).set_value(True).run()
    assert editor_keys(at) == before  # the same editors: an option step does not rebuild them
    assert by_label(at.select_slider, strings["scenario.temperature"]).key == "opt_temperature_0"
    by_label(at.number_input, strings["editor.d_k"]).set_value(3).run()
    assert editor_keys(at) == ["editor_x_1", "editor_w_q_1", "editor_w_k_1", "editor_w_v_1"]
    # the options survive the rebuild: their widgets are drawn from the scenario
    assert by_label(at.select_slider, strings["scenario.temperature"]).value == 2.0
    assert by_label(at.toggle, strings["scenario.causal"]).value is True


# The row and the column one past the end (issue 26, item 9): the hostile list had −1, "abc", 10²³ and 999, so a bound
# slipping from < to <= went unseen and would raise IndexError here. Both as the browser sends them (text) and as ints.
@pytest.mark.parametrize("as_text", [True, False], ids=["text", "int"])
def test_the_row_and_the_column_one_past_the_end_are_unreadable_not_an_error(as_text):
    key = str if as_text else int
    w = np.ones((3, 2))
    for changes in (
        {"edited_rows": {key(3): {"0": 5.0}}},  # row n
        {"edited_rows": {key(0): {key(2): 5.0}}},  # column d
    ):
        out, errors = apply_matrix_edits(w, changes, "W_Q")
        assert codes(errors) == ["unreadable_edit"] and out.tolist() == w.tolist(), changes
    for changes in (
        {"edited_rows": {key(3): {"token": "gato"}}},  # row n of the x editor
        {"edited_rows": {key(0): {key(4): 5.0}}},  # column d_model
        {"deleted_rows": [key(3)]},
    ):
        tokens, x, errors = apply_token_edits(TOKENS, X, changes)
        assert codes(errors) == ["unreadable_edit"] and tokens == TOKENS and np.array_equal(x, X), changes
    values, errors = apply_list_edits(np.array([2.0, 5.0]), {"edited_rows": {key(2): {"0": 1.0}}}, "#", 12)
    assert codes(errors) == ["unreadable_edit"] and values.tolist() == [2.0, 5.0]
    # and the last row and column are still edited
    out, errors = apply_matrix_edits(w, {"edited_rows": {key(2): {key(1): 5.0}}}, "W_Q")
    assert errors == [] and out[2, 1] == 5.0
