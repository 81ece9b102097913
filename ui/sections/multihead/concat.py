"""The multi-head page's concatenation part: Concat(head_1, …, head_h), W_O (a preset, edited cell by cell) and
their product, shapes written on each."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import MultiHeadResult
from ui import charts, editors, numbers, state
from ui.charts import shape
from ui.editing import apply_matrix_edits, column_name
from ui.editors import EDIT_DECIMALS, errors_ui
from ui.figure_specs import Heatmap
from ui.i18n import t
from ui.layout import grids_wait
from ui.sections.multihead.common import labelled, labels
from ui.sliders import seed_input
from ui.view_models import multihead as model
from ui.view_models.multihead import Source, WOutSettings

# The page's W_O, documented in ui/state.py.
W_O_STATE: state.Slot[WOutSettings] = state.Slot("mh_w_o", model.default_w_o)


def _put_w_o(settings: WOutSettings) -> None:
    W_O_STATE.set({**settings, "rev": settings["rev"] + 1})


def current_w_o(rows: int, d_model: int) -> np.ndarray:
    """The W_O in use: the edited one while its shape still fits, else its preset's.  (rows, d_model)"""
    return model.w_o_of(W_O_STATE.get(), rows, d_model)


def _echoed(key: str, value: object, rev: int, drawn_with: object) -> bool:
    """Whether `value` of the W_O control `key`, drawn for W_O's revision `rev` with `drawn_with`, is an old
    control's echo (state.echoed)."""
    return state.echoed(key, value, rev == W_O_STATE.get()["rev"], drawn_with)


def _on_w_o_kind(key: str, rev: int, drawn_with: str) -> None:
    kind = state.widget_value(key)
    # the kind in use chosen again (an old control's echo, of this language's or another's) keeps an edited W_O
    if kind in model.W_O_KINDS and kind != W_O_STATE.get()["kind"] and not _echoed(key, kind, rev, drawn_with):
        _put_w_o({**W_O_STATE.get(), "kind": kind, "matrix": None})


def _on_w_o_seed(key: str, rev: int, drawn_with: int) -> None:
    seed = int(state.widget_value(key, 0) or 0)
    if not _echoed(key, seed, rev, drawn_with):
        _put_w_o({**W_O_STATE.get(), "seed": seed, "matrix": None})


def _on_w_o_edit(key: str, rows: int, d_model: int, rev: int) -> None:
    if rev != W_O_STATE.get()["rev"]:  # an old editor's edits (ui.editors._on_x_edit)
        return
    matrix, errors = apply_matrix_edits(current_w_o(rows, d_model), state.widget_value(key, {}), "W_O")
    _put_w_o({**W_O_STATE.get(), "matrix": matrix})
    state.report_errors(errors)


def w_o_controls_ui(row_names: list[str], d_model: int) -> None:
    """The W_O preset (and its seed), and W_O itself in a small editor of text cells ("1.5" and "1,5" both read)."""
    rows = len(row_names)
    settings = W_O_STATE.get()
    rev = settings["rev"]
    kinds = model.W_O_KINDS
    kind_col, seed_col = st.columns(2, vertical_alignment="bottom")
    kind_key = f"mh_w_o_kind_{rev}_{state.current_language()}"
    kind_col.selectbox(
        t("mh.w_o.kind"),
        kinds,
        index=kinds.index(settings["kind"]),
        format_func=labelled(labels("mh.w_o.kind", kinds)),
        key=kind_key,
        on_change=_on_w_o_kind,
        args=(kind_key, rev, settings["kind"]),
    )
    if settings["kind"] == "random":
        seed_key = f"mh_w_o_seed_{rev}"
        seed_input(
            seed_col,
            t("mh.seed"),
            seed_key,
            value=int(settings["seed"]),
            on_change=_on_w_o_seed,
            args=(seed_key, rev, int(settings["seed"])),
            persist_state=None,
        )
    errors_ui()
    editor = editors.editor_fold(t("mh.w_o.edit", shape=shape(rows, d_model)), "mh_w_o_open")
    if editor is not None:
        with editor:
            w_o_editor_ui(row_names, d_model, rev)


def w_o_editor_ui(row_names: list[str], d_model: int, rev: int) -> None:
    """W_O as text cells, one row per dimension of the concatenation (W_O's revision `rev` keys the editor)."""
    if grids_wait():
        return
    rows = len(row_names)
    matrix = current_w_o(rows, d_model)
    frame = pd.DataFrame(
        [[numbers.short(v, EDIT_DECIMALS) for v in row] for row in matrix],
        columns=[column_name(j) for j in range(d_model)],
        index=row_names,
    )
    key = f"mh_w_o_editor_{rev}"
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config={column_name(j): editors.number_column(f"d{j}") for j in range(d_model)},
        on_change=_on_w_o_edit,
        args=(key, rows, d_model, rev),
        width="stretch",
    )


def head_columns(result: MultiHeadResult) -> list[str]:
    """The concatenation's columns: head and dimension, "c1·d0"."""
    return [t("mh.col", k=k + 1, j=j) for k, head in enumerate(result.heads) for j in range(head.output.shape[1])]


def concat_ui(source: Source, result: MultiHeadResult) -> None:
    """Concat(head_1, …, head_h), W_O and their product, shapes written on each; W_O's preset and editor."""
    n, d_model = source.n, source.d_model
    width = result.concat.shape[1]
    st.markdown(t("mh.concat.body"))
    st.latex(r"\mathrm{MultiHead}(x) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\cdot W_O")
    st.caption(t("mh.concat.shapes", concat=shape(n, width), w_o=shape(width, d_model), out=shape(n, d_model)))
    columns = head_columns(result)
    tokens = list(source.tokens)
    charts.show_heatmap(
        charts.token_map(result.concat, tokens, t("mh.concat.figure", shape=shape(n, width)), cols=columns),
        key="mh_concat",
    )
    st.markdown(t("mh.w_o.body"))
    w_o_controls_ui(columns, d_model)
    charts.show_heatmap(
        Heatmap(result.w_o, columns, charts.dims(d_model), charts.shaped("W_O", result.w_o)), key="mh_w_o"
    )
    charts.show_heatmap(
        charts.token_map(result.output, tokens, t("mh.output.figure", shape=shape(n, d_model))), key="mh_output"
    )
    if model.identity_w_o(result):
        st.caption(t("mh.w_o.identity_reading"))
