"""The learning page's first tab: the tokens, a preset or a hand-edited target pattern, and the target's heatmap."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd
import streamlit as st

from engine.targets import subject_index
from ui import charts, editors, numbers, state
from ui.editing import apply_matrix_edits, column_name
from ui.editors import errors_ui
from ui.i18n import plural, t
from ui.layout import grids_wait
from ui.sections.learning.common import (
    SOURCE_KEY,
    current_case,
    current_target,
    labels,
    quoted,
    store_target,
    target_spec,
)
from ui.text import md_literal
from ui.view_models import learning as model
from ui.view_models.learning import Case, Target


def _drawn_now(source: str, rev: int) -> tuple[Case, Target, bool]:
    """The case and target shown now, and whether a control drawn for `source`'s target at revision `rev` is the one
    on the page (each source counts its own revisions: an old control of the other source can have the same)."""
    case = current_case()
    current = current_target(case)
    return case, current, case.source == source and current.rev == rev


def _on_preset(widget_key: str, source: str, rev: int, drawn_with: str | None) -> None:
    case, current, drawn_now = _drawn_now(source, rev)
    value = state.widget_value(widget_key)
    if value is None or state.echoed(widget_key, value, drawn_now, drawn_with):  # none picked; an old control's echo
        return
    target = model.preset_target(case, current, value)
    if target is not None:
        store_target(case.source, target)


def _on_target_edit(editor_key: str, source: str, rev: int) -> None:
    case, old, drawn_now = _drawn_now(source, rev)
    if not drawn_now:  # an old editor's edits, sent again after the target changed (ui.editors._on_x_edit)
        return
    matrix, errors = apply_matrix_edits(old.matrix, state.widget_value(editor_key) or {}, "T")
    target, refused = model.edited_target(case, old, matrix)
    store_target(case.source, target)
    state.report_errors(errors + refused)


def tokens_line(tokens: Iterable[str]) -> str:
    """The tokens for markdown, shown as typed: el · perro · come."""
    return " · ".join(md_literal(token) for token in tokens)


def target_editor_ui(case: Case, target: Target) -> None:
    """The target as text cells (rows: the token that looks; columns: the token looked at)."""
    if grids_wait():
        return
    frame = pd.DataFrame(
        [[numbers.short(v, 6) for v in row] for row in target.matrix],
        columns=[column_name(j) for j in range(case.n)],
        index=list(case.tokens),
    )
    key = f"learn_target_editor_{case.source}_{target.rev}"
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config={column_name(j): editors.number_column(token) for j, token in enumerate(case.tokens)},
        on_change=_on_target_edit,
        args=(key, case.source, target.rev),
        width="stretch",
    )


def renormalised_ui(case: Case, target: Target) -> None:
    """Which rows of an edited target were divided by their sum, and what they added up to."""
    if not target.renormalised:
        return
    rows = quoted(case.tokens[i] for i, _ in target.renormalised)
    sums = ", ".join(numbers.short(total, 3) for _, total in target.renormalised)
    st.info(plural("learn.target.renormalised", len(target.renormalised), rows=rows, sums=sums))


@st.fragment(key="learn_target")
def target_ui() -> None:
    """Tokens, a preset or a hand-edited target, and the target as a heatmap."""
    st.header(t("learn.target.header"))
    st.markdown(t("learn.target.body"))
    st.segmented_control(
        t("learn.source"),
        model.SOURCES,
        format_func=labels("learn.source"),
        default=model.SOURCES[0],
        required=True,
        key=SOURCE_KEY,
        persist_state="session",
    )
    case = current_case()
    target = current_target(case)
    st.caption(plural("learn.tokens", case.n, tokens=tokens_line(case.tokens)))
    if case.causal:
        st.caption(t("learn.causal_note"))
    presets = model.presets(case)
    widget_key = f"learn_preset_{case.source}_{target.rev}"
    st.segmented_control(
        t("learn.preset"),
        presets,
        format_func=labels("learn.preset"),
        default=target.preset,
        key=widget_key,
        on_change=_on_preset,
        args=(widget_key, case.source, target.rev, target.preset),
    )
    notes = [t("learn.subject_note", token=md_literal(case.tokens[subject_index(case.tokens)]))]
    if "tiene_perro" not in presets:
        notes.append(t("learn.tiene_perro_missing"))
    st.caption(" ".join(notes))
    figure_col, edit_col = st.columns([1, 1])
    with figure_col:
        charts.show_heatmap(target_spec(target, case), key="learn_target_figure")
    with edit_col:
        st.markdown(t("learn.target.edited") if target.preset is None else t(f"learn.target.is.{target.preset}"))
        errors_ui()
        renormalised_ui(case, target)
        editor = editors.editor_fold(
            t("learn.target.edit"), "learn_target_edit_open", expanded=not state.presentation_mode()
        )
        if editor is not None:  # a folded editor is not built at all
            with editor:
                st.caption(t("learn.target.edit_help"))
                target_editor_ui(case, target)
