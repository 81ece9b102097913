"""The builder's sections: the scenario's editors, its options, every matrix of attention, one cell end to end."""

from __future__ import annotations

import streamlit as st

from engine import AttentionResult, Scale, Scenario, derivation
from ui import charts, numbers, state
from ui.derivation import CellTexts, cell_derivation_ui
from ui.editors import dims_ui, editor_fold, errors_ui, matrix_editor_ui, x_editor_ui
from ui.i18n import t, tm
from ui.scenario_controls import options_ui, presets_ui, token_select_ui

WEIGHTS = (("w_q", "W_Q"), ("w_k", "W_K"), ("w_v", "W_V"))


def editors_ui() -> None:
    """Presets, sizes, x with its tokens, and the three weight matrices. Folded in presentation mode
    (`editors.editor_fold`): folded, they are not built at all, so they cost a slider step nothing."""
    container = editor_fold(t("builder.edit"), "builder_edit_open") if state.presentation_mode() else st.container()
    if container is None:
        return
    with container:
        presets_ui()
        errors_ui()
        dims_ui()
        st.markdown(f"**{t('builder.x')}**")
        x_editor_ui()
        st.markdown(f"**{t('builder.weights')}**")
        # one under the other in presentation mode: at its 20 px cells, three side by side would hide their last columns
        places = [st.container() for _ in WEIGHTS] if state.presentation_mode() else st.columns(3)
        for place, (name, label) in zip(places, WEIGHTS, strict=True):
            with place:
                matrix_editor_ui(name, label)


def matrices_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Q, K, V; scores, scaled scores and weights; x and the output: each group on one colour scale."""
    st.subheader(t("builder.projections"))
    charts.show_row(charts.projection_specs(scenario.tokens, result), keys=["b_q", "b_k", "b_v"])
    st.subheader(t("builder.attention"))
    panels = ("scores", "weights") if scenario.scale == Scale.NONE else ("scores", "scaled", "weights")
    charts.show_row(charts.attention_specs(scenario.tokens, result, panels), keys=[f"b_{p}" for p in panels])
    st.subheader(t("builder.output"))
    charts.show_row(charts.vectors_specs(scenario.tokens, scenario.x, result.output), keys=["b_x", "b_out"])


def cell_ui(scenario: Scenario, result: AttentionResult) -> None:
    """The whole derivation of one cell: its dot product, its scaling, its row's softmax and its weight."""
    st.subheader(t("builder.cell"))
    q_col, k_col = st.columns(2)
    with q_col:
        query = token_select_ui("query", "perro", t("scenario.query_token"), page="builder")
    with k_col:
        key = token_select_ui("key", "come", t("scenario.key_token"), page="builder")
    i, j = scenario.tokens.index(query), scenario.tokens.index(key)
    cell = derivation.cell(result, i, j, divided=scenario.scale != Scale.NONE)
    weight = numbers.fixed(cell.weight)
    texts = CellTexts(
        masked=tm("builder.cell.masked", q=query, k=key),
        row=tm("builder.cell.row", q=query),
        weight=tm("builder.cell.weight", q=query, k=key, weight=weight, percent=numbers.percent(cell.weight)),
    )
    cell_derivation_ui(cell, scenario.tokens, texts)


@st.fragment
def results_ui() -> None:
    """The options and everything they change: a slider step reruns only this fragment, not the editors."""
    st.markdown(f"**{t('builder.options')}**")
    options_ui()
    scenario = state.get_scenario()
    result = scenario.run()
    matrices_ui(scenario, result)
    cell_ui(scenario, result)


def learned_ui() -> None:
    """The expander that says which of the numbers a Transformer learns."""
    with st.expander(t("builder.learned.title"), expanded=not state.presentation_mode()):
        st.markdown(t("builder.learned.body"))
