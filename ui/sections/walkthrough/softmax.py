"""The walkthrough's part 4: softmax of each row, the query's row derived, with and without the divisor."""

from __future__ import annotations

import streamlit as st

from engine import AttentionResult, Scale, Scenario, derivation, lesson_scenario, same_numbers
from ui import charts, numbers, state
from ui.derivation import Row, show, softmax_rows
from ui.i18n import t, tm
from ui.sections.walkthrough.common import derivation_columns, in_order, main_block, query_ui, share_columns
from ui.view_models import walkthrough as model


def looked_at(scenario: Scenario, result: AttentionResult, token: str) -> list[str]:
    """The tokens the query's row may look at (all of them, unless the mask hides some)."""
    allowed = result.allowed[scenario.tokens.index(token)]
    return [name for name, ok in zip(scenario.tokens, allowed, strict=True) if ok]


def softmax_derivation_rows(scenario: Scenario, result: AttentionResult, token: str) -> list[Row | None]:
    """Softmax of the query's row, step by step (its masked positions left out)."""
    i = scenario.tokens.index(token)
    allowed = result.allowed[i]
    written = derivation.softmax_row(
        result.scaled_scores[i][allowed], scenario.temperature, exact=result.weights[i][allowed]
    )
    return softmax_rows(written, looked_at(scenario, result, token))


def softmax_derivation_ui(scenario: Scenario, result: AttentionResult, token: str, columns: int | None = None) -> None:
    """The query's softmax, under its heading (and which tokens the mask leaves it)."""
    labels = looked_at(scenario, result, token)
    if len(labels) < len(scenario.tokens):
        st.caption(tm("walk.4.masked", token=token, allowed=quoted_list(labels)))
    st.markdown(tm("walk.4.row", token=token))
    show(softmax_derivation_rows(scenario, result, token), columns)


def softmax_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Part 4: softmax of each row, the query's row derived, with and without the divisor."""
    figure = charts.attention_specs(scenario.tokens, result, panels=("weights",))[0]

    def explanation() -> None:
        st.markdown(t("walk.4.body"))
        if scenario.temperature == 1:
            st.latex(r"\alpha_{ij} = \frac{e^{\,\mathrm{score}'_{ij}}}{\sum_{m} e^{\,\mathrm{score}'_{im}}}")
        else:
            st.latex(r"\alpha_{ij} = \frac{e^{\,\mathrm{score}'_{ij} / T}}{\sum_{m} e^{\,\mathrm{score}'_{im} / T}}")
            st.markdown(t("walk.4.temperature", t=numbers.short(scenario.temperature, 2)))

    def main() -> None:
        if state.presentation_mode():
            figure_slot, side = main_block()
            with figure_slot:
                charts.show_heatmap(figure, key="walk_w4")
            with side:
                softmax_derivation_ui(scenario, result, query_ui(), derivation_columns(figure))
            return
        figure_col, derivation_col = st.columns([2, 3])
        with figure_col:
            charts.show_heatmap(figure, key="walk_w4")
        with derivation_col:
            softmax_derivation_ui(scenario, result, state.focus("query", "perro"), share_columns(3 / 5))

    if not state.presentation_mode():
        query_ui()
    in_order(main, explanation)
    token = state.focus("query", "perro")
    i = scenario.tokens.index(token)
    row = model.softmax_reading(result, i, divided=scenario.scale != Scale.NONE)
    allowed = row.allowed
    shares = [
        tm("walk.share", token=name, share=numbers.percent(w) if ok else t("walk.masked_share"))
        for name, w, ok in zip(scenario.tokens, result.weights[i], allowed, strict=True)
    ]
    reading = tm("walk.4.reading", token=token) + " " + ", ".join(shares) + "."
    if row.peaked is not None and row.top is not None:
        reading += " " + tm(
            f"walk.4.reading.{row.peaked.verdict}",
            top=scenario.tokens[row.top],
            max_weight=numbers.fixed(row.peaked.max_weight),
            effective=numbers.fixed(row.peaked.effective, 2),
            n=numbers.count(round(row.peaked.tokens)),
        )
    st.info(reading)
    if row.unscaled is not None:
        with_col, without_col = st.columns(2)
        with_col.metric(
            t("walk.4.with", divisor=numbers.short(result.divisor)),
            numbers.vector(result.weights[i], sign=False, masked=~allowed),
        )
        without_col.metric(t("walk.4.without"), numbers.vector(row.unscaled, sign=False, masked=~allowed))
        st.markdown(t("walk.4.compare_small" if row.small_gap else "walk.4.compare_large"))
    if same_numbers(scenario, lesson_scenario()):
        errata_ui()


def errata_ui() -> None:
    """The lesson's one wrong row, and the differences that are only rounding, said where it matters."""
    with st.container(border=True):
        st.markdown(t("walk.errata.title"))
        st.markdown(t("walk.errata.body"))


def quoted_list(names) -> str:
    """Names quoted and joined: «el», «perro»."""
    return ", ".join(t("walk.quoted", token=name) for name in names)
