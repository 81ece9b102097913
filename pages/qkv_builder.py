"""Q/K/V builder: edit tokens, x and the weights; every matrix of attention follows at once."""

import streamlit as st

from engine import dot_terms
from ui import charts, state
from ui.charts import Panel
from ui.derivation import dot_rows, show, token_text
from ui.editors import dims_ui, errors_ui, matrix_editor_ui, x_editor_ui
from ui.format import general, percent, plain, signed
from ui.i18n import t, tm
from ui.layout import editing_container, page_header
from ui.scenario_controls import options_ui, presets_ui, token_select_ui
from ui.share import share_ui


def editors_ui() -> None:
    """Presets, sizes, x with its tokens, and the three weight matrices."""
    presets_ui()
    errors_ui()
    dims_ui()
    st.markdown(f"**{t('builder.x')}**")
    x_editor_ui()
    st.markdown(f"**{t('builder.weights')}**")
    for column, (name, label) in zip(st.columns(3), (("w_q", "W_Q"), ("w_k", "W_K"), ("w_v", "W_V")), strict=True):
        with column:
            matrix_editor_ui(name, label)


def matrices_ui(scenario, result) -> None:
    """Q, K, V; then scores, scaled scores and weights; then the output, as heatmaps."""
    tokens = scenario.tokens
    dims_k = [t("matrix.dim", j=j) for j in range(scenario.d_k)]
    dims_v = [t("matrix.dim", j=j) for j in range(scenario.d_v)]
    projections = charts.heatmaps(
        [
            Panel(result.q, tokens, dims_k, title=t("matrix.q")),
            Panel(result.k, tokens, dims_k, title=t("matrix.k")),
            Panel(result.v, tokens, dims_v, title=t("matrix.v")),
        ]
    )
    attention = charts.heatmaps(
        [
            Panel(result.scores, tokens, tokens, title=t("matrix.scores")),
            Panel(result.scaled_scores, tokens, tokens, title=t("matrix.scaled", divisor=general(result.divisor))),
            Panel(result.weights, tokens, tokens, kind="weights", title=t("matrix.weights")),
        ],
        row_title=t("matrix.rows_query"),
    )
    output = charts.heatmap(result.output, tokens, dims_v, title=t("matrix.output"))
    captions = [t("builder.projections"), t("builder.attention"), t("builder.output")]
    charts.show([projections, attention, output], caption=captions)


def cell_ui(scenario, result) -> None:
    """The whole derivation of one cell: its dot product, its scaling and its weight."""
    st.subheader(t("builder.cell"))
    q_col, k_col = st.columns(2)
    with q_col:
        query = token_select_ui(state.FOCUS_QUERY, "perro", t("scenario.query_token"))
    with k_col:
        key = token_select_ui(state.FOCUS_KEY, "come", t("scenario.key_token"))
    i, j = scenario.tokens.index(query), scenario.tokens.index(key)
    st.markdown(t("builder.cell.score"))
    show(dot_rows(f"score({token_text(query)} → {token_text(key)})", dot_terms(result.q[i], result.k[j])))
    if not result.allowed[i, j]:
        st.warning(tm("builder.cell.masked", q=query, k=key))
        return
    st.markdown(
        t(
            "builder.cell.scaled",
            score=signed(result.scores[i, j]),
            divisor=general(result.divisor),
            scaled=signed(result.scaled_scores[i, j]),
        )
    )
    weight = result.weights[i, j]
    st.success(tm("builder.cell.weight", q=query, k=key, weight=plain(weight), percent=percent(weight)))


@st.fragment
def results_ui() -> None:
    """The options and everything they change. A fragment: a slider step reruns and redraws only this part,
    not the editors above (their matrices do not depend on the options)."""
    st.markdown(f"**{t('builder.options')}**")
    options_ui()
    scenario = state.get_scenario()
    result = scenario.run()
    matrices_ui(scenario, result)
    cell_ui(scenario, result)


page_header("builder.title", "builder.lead")
share_ui()
editing = editing_container("builder.edit")
if editing is not None:
    with editing:
        editors_ui()
results_ui()
with st.expander(t("builder.learned.title"), expanded=True):
    st.markdown(t("builder.learned.body"))
