"""The walkthrough's part 3: the scores divided by the scenario's divisor (or not), the query's row derived."""

from __future__ import annotations

import streamlit as st

from engine import AttentionResult, Scale, Scenario, derivation
from ui import charts, numbers, state
from ui.derivation import Row, division_row, show, token_text
from ui.i18n import t, tm
from ui.sections.walkthrough.common import derivation_columns, in_order, main_block, query_ui


def division_rows(scenario: Scenario, result: AttentionResult, token: str) -> list[Row | None]:
    """Each score of the query's row divided by the divisor (or as it is, or masked)."""
    i = scenario.tokens.index(token)
    rows: list[Row | None] = []
    for j, other in enumerate(scenario.tokens):
        lhs = f"score'({token_text(token)} → {token_text(other)})"
        if not result.allowed[i, j]:
            rows.append(Row(lhs, "", t("walk.masked_cell")))
        elif scenario.scale == Scale.NONE:
            rows.append(Row(lhs, "=", numbers.measured(result.scores[i, j])))
        else:
            rows += division_row(lhs, derivation.division(result.scores[i, j], result.divisor))
    return rows


def division_derivation_ui(scenario: Scenario, result: AttentionResult, token: str, columns: int | None = None) -> None:
    """The query's row divided, under its heading."""
    st.markdown(tm("walk.3.row", token=token))
    show(division_rows(scenario, result, token), columns)


def _total_temperature(result: AttentionResult) -> dict[str, str]:
    """T and divisor × T, the product worked out from the two numbers as written (3 decimals each)."""
    divisor, temperature = numbers.round_half_up(result.divisor, 3), numbers.round_half_up(result.temperature, 3)
    return {"t": numbers.short(temperature), "total": numbers.short(divisor * temperature, 6)}


def dividing_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Part 3: the scores divided by the scenario's divisor (or not), the query's row derived."""
    divisor = numbers.short(result.divisor)
    # undivided scores go into softmax as they are: one panel, not the same matrix again titled "÷ 1"
    kinds = ("scores",) if scenario.scale == Scale.NONE else ("scores", "scaled")
    panels = charts.attention_specs(scenario.tokens, result, panels=kinds)

    def explanation() -> None:
        st.markdown(t(f"walk.3.body.{scenario.scale}", dk=numbers.count(scenario.d_k), divisor=divisor))
        st.latex(t(f"walk.3.formula.{scenario.scale}"))
        if scenario.scale != Scale.NONE:
            st.markdown(t("walk.3.why"))
            st.markdown(t("walk.3.temperature", divisor=divisor))
            if result.temperature != 1:
                st.markdown(t("walk.3.temperature_user", divisor=divisor, **_total_temperature(result)))
        st.page_link("pages/scaling.py", label=t("walk.3.link"), icon=":material/show_chart:")

    def main() -> None:
        if state.presentation_mode():
            figure_slot, side = main_block()
            with figure_slot:
                charts.show_heatmap(panels[-1], key="walk_s3m")
            with side:
                division_derivation_ui(scenario, result, query_ui(), derivation_columns(panels[-1]))
            return
        division_derivation_ui(scenario, result, state.focus("query", "perro"))

    if not state.presentation_mode():
        query_ui()
    in_order(main, explanation)
    charts.show_row(panels, keys=["walk_s3", "walk_s3b"][: len(panels)])
