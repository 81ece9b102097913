"""Data editors bound to the shared scenario: edits go into the scenario through `on_change`.

The editor is built from the scenario and keyed by the scenario's revision, so after every applied
change it is rebuilt from the canonical arrays (never from its own output).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from engine.scenario import D_K_RANGE, D_MODEL_RANGE
from ui import state
from ui.editing import TOKEN_COLUMN, apply_list_edits, apply_matrix_edits, apply_token_edits, column_name
from ui.i18n import t, tm

NUMBER_FORMAT = "%.3f"


def _number_columns(count: int, prefix: str) -> dict:
    return {
        column_name(j): st.column_config.NumberColumn(f"{prefix}{j}", format=NUMBER_FORMAT, step=0.01)
        for j in range(count)
    }


def _on_x_edit(editor_key: str) -> None:
    scenario = state.get_scenario()
    tokens, x, errors = apply_token_edits(scenario.tokens, scenario.x, st.session_state.get(editor_key, {}))
    state.set_scenario(replace(scenario, tokens=tokens, x=x))
    state.report_errors(errors)


def _on_matrix_edit(editor_key: str, name: str, label: str) -> None:
    scenario = state.get_scenario()
    matrix, errors = apply_matrix_edits(scenario.matrix(name), st.session_state.get(editor_key, {}), label)
    state.set_scenario(scenario.with_matrix(name, matrix))
    state.report_errors(errors)


def x_editor_ui() -> None:
    """x: one row per token (name and d_model numbers); rows can be added, removed and renamed."""
    scenario = state.get_scenario()
    frame = pd.DataFrame(scenario.x, columns=[column_name(j) for j in range(scenario.d_model)])
    frame.insert(0, TOKEN_COLUMN, list(scenario.tokens))
    key = f"editor_x_{state.scenario_rev()}"
    st.data_editor(
        frame,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        column_config={
            TOKEN_COLUMN: st.column_config.TextColumn(t("editor.token")),
            **_number_columns(scenario.d_model, "x"),
        },
        on_change=_on_x_edit,
        args=(key,),
        width="stretch",
    )


def matrix_editor_ui(name: str, label: str) -> None:
    """A fixed-size weight matrix (d_model rows, d_k columns)."""
    matrix = state.get_scenario().matrix(name)
    frame = pd.DataFrame(matrix, columns=[column_name(j) for j in range(matrix.shape[1])])
    frame.index = [f"x{i}" for i in range(matrix.shape[0])]
    key = f"editor_{name}_{state.scenario_rev()}"
    st.caption(label)
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config=_number_columns(matrix.shape[1], "d"),
        on_change=_on_matrix_edit,
        args=(key, name, label),
        width="stretch",
    )


def errors_ui() -> None:
    """Say, once and in the user's language, which of the last edits were refused and why."""
    for code, params in state.pop_errors():
        st.warning(tm(f"error.{code}", **params), icon=":material/warning:")


def _on_dims(key: str, dim: str) -> None:
    value = int(st.session_state[key])
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
            args=(key, dim),
        )


def _on_list_edit(editor_key: str, state_key: str, max_len: int) -> None:
    values, errors = apply_list_edits(st.session_state[state_key], st.session_state.get(editor_key, {}), "#", max_len)
    state.set_list(state_key, values)
    state.report_errors(errors)


def number_list_editor_ui(state_key: str, default, column_label: str, max_len: int = 12) -> np.ndarray:
    """An editable column of numbers kept under `state_key`; returns the current values."""
    values = state.get_list(state_key, default)
    key = f"editor_{state_key}_{state.list_rev(state_key)}"
    st.data_editor(
        pd.DataFrame({column_name(0): values}),
        key=key,
        num_rows="dynamic",
        hide_index=True,
        column_config={column_name(0): st.column_config.NumberColumn(column_label, format="%.3f", step=0.1)},
        on_change=_on_list_edit,
        args=(key, state_key, max_len),
        width="stretch",
    )
    return values
