"""The walkthrough's part 1: Q, K and V from x and the weights, one projection derived dimension by dimension."""

from __future__ import annotations

from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import AttentionResult, Scenario, derivation
from ui import charts, numbers, state
from ui.charts import shape
from ui.derivation import BLANK, Row, dot_rows, show, sub, vector_row, vector_text
from ui.figure_specs import Heatmap
from ui.i18n import t, tm
from ui.sections.walkthrough.common import derivation_columns, in_order, main_block, query_ui, share_columns

ROLES = ("Q", "K", "V")


def w_heatmap(scenario: Scenario, role: str) -> Heatmap:
    """The weight matrix of `role` ("Q", "K" or "V"): rows are dimensions of x, columns of the output."""
    w = {"Q": scenario.w_q, "K": scenario.w_k, "V": scenario.w_v}[role]
    return charts.weight_map(w, f"W_{role}")


def projection_rows(scenario: Scenario, result: AttentionResult, role: str, token: str) -> list[Row | None]:
    """The token's x, then each dimension of its projection as the dot product with a column of W."""
    w, values = {"Q": (scenario.w_q, result.q), "K": (scenario.w_k, result.k), "V": (scenario.w_v, result.v)}[role]
    i = scenario.tokens.index(token)
    rows: list[Row | None] = [vector_row(sub("x", token), scenario.x[i]), BLANK]
    for j, terms in enumerate(derivation.projection(scenario.x[i], w)):
        rows.append(Row("", "", t("walk.1.column", j=j, role=role, column=vector_text(w[:, j]))))
        rows += [*dot_rows(f"{sub(role, token)}[{j}]", terms), BLANK]
    rows.append(vector_row(sub(role, token), values[i]))
    return rows


def projection_derivation_ui(
    scenario: Scenario, result: AttentionResult, role: str, token: str, columns: int | None = None
) -> None:
    """The derivation of the token's projection `role`, under its heading."""
    st.markdown(tm("walk.1.derivation", role=role, token=token))
    show(projection_rows(scenario, result, role, token), columns)


def role_ui(container: DeltaGenerator | ModuleType = st) -> str:
    """Which projection part 1 derives: Q, K or V (kept for the session)."""
    return container.segmented_control(
        t("walk.1.role"), ROLES, default=ROLES[0], required=True, key="walk_role", persist_state="session"
    )


def projections_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Part 1: Q, K and V from x and the weights; one projection derived dimension by dimension."""
    n, d_model, d_k, d_v = len(scenario.tokens), scenario.d_model, scenario.d_k, scenario.d_v

    def explanation() -> None:
        st.markdown(t("walk.1.body"))
        st.latex(r"Q = x \cdot W_Q \qquad K = x \cdot W_K \qquad V = x \cdot W_V")
        st.caption(
            t(
                "walk.1.shapes",
                x=shape(n, d_model),
                w=shape(d_model, d_k),
                q=shape(n, d_k),
                wv=shape(d_model, d_v),
                v=shape(n, d_v),
            )
        )
        charts.show_row(charts.projection_specs(scenario.tokens, result), keys=["walk_q", "walk_k", "walk_v"])

    def main() -> None:
        if state.presentation_mode():
            figure_slot, side = main_block()
            with side:
                role_col, token_col = st.columns(2)
                role = role_ui(role_col)
                token = query_ui(token_col)
                figure = w_heatmap(scenario, role)
                projection_derivation_ui(scenario, result, role, token, derivation_columns(figure))
            with figure_slot:
                charts.show_heatmap(figure, key="walk_w")
            return
        role = role_ui()
        w_col, derivation_col = st.columns([1, 2])
        with w_col:
            charts.show_heatmap(w_heatmap(scenario, role), key="walk_w")
        with derivation_col:
            projection_derivation_ui(scenario, result, role, state.focus("query", "perro"), share_columns(2 / 3))

    if not state.presentation_mode():
        query_ui()
    in_order(main, explanation)
    st.caption(t("walk.1.repeat", count=numbers.count(3 * n)))
