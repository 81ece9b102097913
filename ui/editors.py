"""Data editors bound to the shared scenario: edits go into the scenario through `on_change`.

An editor is built from the scenario and keyed by the scenario's revision, so after every applied change it is
rebuilt from the canonical arrays (never from its own output).

Number cells are text cells that the engine parses (`engine.number_grammar.parse_number`): a browser's number cell
reads "1,5" as 15 in an English browser and "1.5" as 15 in a Spanish one, silently. Here both "1.5" and "1,5"
mean one and a half in any browser; a separator before exactly three digits is read as the reader's decimal
separator when it is one ("1,250" is 1.25 for a Spanish reader) and refused as ambiguous when it is the
reader's thousands separator ("1.250"); anything else is refused with a message. The cells show the numbers
in the reader's language, and every number cell's help (`number_column`) says this.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.elements.lib.column_types import ColumnConfig

from engine.limits import D_K_RANGE, D_MODEL_RANGE, MAX_ABS_VALUE, MAX_NUMBER_CHARS, MAX_TOKEN_CHARS
from ui import state
from ui.editing import (
    TOKEN_COLUMN,
    apply_list_edits,
    apply_matrix_edits,
    apply_token_edits,
    column_name,
    refusal_text,
)
from ui.i18n import t
from ui.layout import grids_wait
from ui.numbers import count, short
from ui.tables import table_ui

EDIT_DECIMALS = 6  # a cell shows its number to this many decimals at most (trailing zeros dropped)


def editor_fold(label: str, key: str, *, expanded: bool = False, icon: str | None = None) -> DeltaGenerator | None:
    """An expander for data editors, whose content is built only while it is open (a folded editor costs a run
    nothing): the expander when open, else None. Its key carries presentation mode, so switching the mode folds it.
    That matters: Streamlit sizes a data editor's cells from the root font size when it first draws the editor,
    so an editor must be drawn anew, in a later run, once presentation mode's larger root size is in place."""
    fold = st.expander(label, expanded=expanded, key=f"{key}_{state.presentation_mode()}", on_change="rerun", icon=icon)
    return fold if fold.open else None


@contextmanager
def presented(frame: pd.DataFrame, labels: dict[str, str], key: str) -> Iterator[bool]:
    """Yields whether to draw the editor inside this block (never in a run that `grids_wait`s). Out of presentation
    mode, always; in it, `frame` is first shown as a static table at the room's type size, and the editor, folded
    under it (`editor_fold`), is drawn only once opened. `labels`: the editor's column labels; `key`: the fold's.
    (The builder folds all its editors in presentation mode: its figures show the same numbers large.)"""
    if not state.presentation_mode():
        yield not grids_wait()
        return
    table_ui(frame.rename(columns=labels), 0, right_aligned=True)
    fold = editor_fold(t("editor.edit_folded"), key, icon=":material/edit:")
    if fold is None:
        yield False
        return
    with fold:
        yield not grids_wait()


def _cells(matrix: np.ndarray) -> pd.DataFrame:
    """The matrix as text cells written in the reader's language, one column per dimension."""
    return pd.DataFrame(
        [[short(v, EDIT_DECIMALS) for v in row] for row in np.asarray(matrix)],
        columns=[column_name(j) for j in range(np.asarray(matrix).shape[1])],
    )


def number_column(label: str) -> ColumnConfig:
    """A text cell for one number: the help states what the engine reads; the browser stops at its length limit
    (the engine refuses longer text anyway)."""
    return st.column_config.TextColumn(
        label,
        help=t("editor.number_help", chars=count(MAX_NUMBER_CHARS), limit=count(int(MAX_ABS_VALUE))),
        max_chars=MAX_NUMBER_CHARS,
    )


def _number_columns(columns: int, prefix: str) -> dict:
    return {column_name(j): number_column(f"{prefix}{j}") for j in range(columns)}


def _on_x_edit(editor_key: str, rev: int) -> None:
    # An editor's value is all its edits since it was drawn, by row positions of its table: an old editor's (the
    # scenario changed since; a browser can send it again, state.echoed says how) would undo a reset or an upload,
    # or add and delete rows of another table. It is dropped.
    if not state.drawn_for_this_scenario(rev):
        return
    scenario = state.get_scenario()
    tokens, x, errors = apply_token_edits(scenario.tokens, scenario.x, state.widget_value(editor_key, {}))
    state.set_scenario(replace(scenario, tokens=tokens, x=x))
    state.report_errors(errors)


def _on_matrix_edit(editor_key: str, name: str, label: str, rev: int) -> None:
    if not state.drawn_for_this_scenario(rev):  # an old editor's edits (_on_x_edit)
        return
    scenario = state.get_scenario()
    matrix, errors = apply_matrix_edits(scenario.matrix(name), state.widget_value(editor_key, {}), label)
    state.set_scenario(scenario.with_matrix(name, matrix))
    state.report_errors(errors)


def x_editor_ui() -> None:
    """x: one row per token (name and d_model numbers); rows can be added, removed and renamed."""
    if grids_wait():
        return
    scenario = state.get_scenario()
    frame = _cells(scenario.x)
    frame.insert(0, TOKEN_COLUMN, list(scenario.tokens))
    rev = state.scenario_rev()
    key = f"editor_x_{rev}"
    st.data_editor(
        frame,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        column_config={
            TOKEN_COLUMN: st.column_config.TextColumn(
                t("editor.token"), help=t("editor.token_help", limit=count(MAX_TOKEN_CHARS)), max_chars=MAX_TOKEN_CHARS
            ),
            **_number_columns(scenario.d_model, "x"),
        },
        on_change=_on_x_edit,
        args=(key, rev),
        width="stretch",
    )


def matrix_editor_ui(name: str, label: str) -> None:
    """A fixed-size weight matrix (d_model rows, d_k columns)."""
    if grids_wait():
        return
    matrix = state.get_scenario().matrix(name)
    frame = _cells(matrix)
    frame.index = [f"x{i}" for i in range(matrix.shape[0])]
    rev = state.scenario_rev()
    key = f"editor_{name}_{rev}"
    st.caption(label)
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config=_number_columns(matrix.shape[1], "d"),
        on_change=_on_matrix_edit,
        args=(key, name, label, rev),
        width="stretch",
    )


def errors_ui() -> None:
    """Say, once and in the reader's language, which of the last edits were refused and why."""
    for code, params in state.pop_errors():
        st.warning(refusal_text(code, params), icon=":material/warning:")


def _on_dims(key: str, dim: str, rev: int, drawn_with: int) -> None:
    value = int(state.widget_value(key))
    if state.echoed(key, value, state.drawn_for_this_scenario(rev), drawn_with):
        return
    scenario = state.get_scenario()
    state.set_scenario(scenario.with_d_model(value) if dim == "d_model" else scenario.with_d_k(value))


def dims_ui() -> None:
    """d_model and d_k inputs that resize the scenario's matrices (new entries start at 0)."""
    scenario = state.get_scenario()
    rev = state.scenario_rev()
    for column, dim, (low, high) in zip(st.columns(2), ("d_model", "d_k"), (D_MODEL_RANGE, D_K_RANGE), strict=True):
        key = f"dims_{dim}_{rev}"
        column.number_input(
            t(f"editor.{dim}"),
            min_value=low,
            max_value=high,
            value=getattr(scenario, dim),
            step=1,
            key=key,
            on_change=_on_dims,
            args=(key, dim, rev, getattr(scenario, dim)),
        )


def _on_list_edit(editor_key: str, name: str, max_len: int, rev: int) -> None:
    if rev != state.list_rev(name):  # an old editor's edits (_on_x_edit)
        return
    values, errors = apply_list_edits(state.get_list(name, []), state.widget_value(editor_key, {}), "#", max_len)
    state.set_list(name, values)
    state.report_errors(errors)


def number_list_editor_ui(name: str, default: npt.ArrayLike, column_label: str, max_len: int = 12) -> np.ndarray:
    """An editable column of numbers kept under `name`; returns the current values."""
    values = state.get_list(name, default)
    rev = state.list_rev(name)
    key = f"editor_{name}_{rev}"
    frame = _cells(np.asarray(values).reshape(-1, 1))
    with presented(frame, {column_name(0): column_label}, f"editor_{name}_fold") as shown:
        if shown:
            st.data_editor(
                frame,
                key=key,
                num_rows="dynamic",
                hide_index=True,
                column_config={column_name(0): number_column(column_label)},
                on_change=_on_list_edit,
                args=(key, name, max_len, rev),
                width="stretch",
            )
    return values
