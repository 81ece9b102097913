"""The walkthrough's part 2: the scores Q · Kᵀ, one of them derived term by term, and what the query's row says."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from engine import AttentionResult, Scenario, derivation
from ui import charts, numbers, state
from ui.charts import shape
from ui.derivation import BLANK, Row, dot_rows, show, sub, token_text, vector_row
from ui.i18n import plural, t, tm
from ui.sections.walkthrough.common import derivation_columns, in_order, key_ui, main_block, query_ui, share_columns
from ui.view_models import walkthrough as model


def score_rows(result: AttentionResult, tokens: Sequence[str], token: str, other: str) -> list[Row | None]:
    """Q of the query and K of the key, then their dot product term by term."""
    i, j = tokens.index(token), tokens.index(other)
    rows = [vector_row(sub("Q", token), result.q[i]), vector_row(sub("K", other), result.k[j]), BLANK]
    lhs = f"score({token_text(token)} → {token_text(other)})"
    return [*rows, *dot_rows(lhs, derivation.dot(result.q[i], result.k[j], exact=result.scores[i, j]))]


def score_derivation_ui(result: AttentionResult, tokens, token: str, other: str, columns: int | None = None) -> None:
    """The score of the query and the key, derived under its heading."""
    st.markdown(tm("walk.2.pair", q=token, k=other))
    show(score_rows(result, tokens, token, other), columns)


def scores_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Part 2: the scores Q · Kᵀ, one of them derived term by term, and what the query's row says."""
    n, d_k = len(scenario.tokens), scenario.d_k
    figure = charts.attention_specs(scenario.tokens, result, panels=("scores",))[0]

    def explanation() -> None:
        st.markdown(plural("walk.2.body", n, n2=numbers.count(n * n)))
        st.latex(r"S = Q \cdot K^{\top}, \qquad S_{ij} = Q_i \cdot K_j")
        st.caption(t("walk.2.shapes", q=shape(n, d_k), kt=shape(d_k, n), s=shape(n, n)))

    def main() -> None:
        if state.presentation_mode():
            figure_slot, side = main_block()
            with figure_slot:
                charts.show_heatmap(figure, key="walk_s")
            with side:
                query_col, key_col = st.columns(2)
                token, other = query_ui(query_col), key_ui(key_col)
                score_derivation_ui(result, scenario.tokens, token, other, derivation_columns(figure))
            return
        key_ui()
        figure_col, derivation_col = st.columns([2, 3])
        with figure_col:
            charts.show_heatmap(figure, key="walk_s")
        with derivation_col:
            token, other = state.focus("query", "perro"), state.focus("key", "come")
            score_derivation_ui(result, scenario.tokens, token, other, share_columns(3 / 5))

    if not state.presentation_mode():
        query_ui()
    in_order(main, explanation)
    token, other = state.focus("query", "perro"), state.focus("key", "come")
    i, j = scenario.tokens.index(token), scenario.tokens.index(other)
    row, reading = result.scores[i], model.scores_reading(result, i)
    st.info(
        tm(
            "walk.2.reading",
            token=token,
            best=scenario.tokens[reading.best],
            best_score=numbers.measured(row[reading.best]),
            worst=scenario.tokens[reading.worst],
            worst_score=numbers.measured(row[reading.worst]),
        )
    )
    if i != j:
        st.markdown(
            tm(
                "walk.2.asymmetry",
                q=token,
                k=other,
                forward=numbers.measured(result.scores[i, j]),
                backward=numbers.measured(result.scores[j, i]),
            )
        )
