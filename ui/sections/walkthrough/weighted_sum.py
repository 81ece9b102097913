"""The walkthrough's part 5: the weighted sum of the values, the lesson's small examples, the query's output
derived, and whether the outputs collapsed into one vector."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from engine import AttentionResult, Scenario, derivation
from ui import charts, numbers, state
from ui.charts import shape
from ui.collapse import collapse_why
from ui.derivation import BLANK, Row, dot_rows, show, sub, vector_row
from ui.i18n import t, tm
from ui.sections.walkthrough.common import derivation_columns, in_order, main_block, query_ui, share_columns
from ui.sliders import number_slider
from ui.view_models import walkthrough as model


def scalar_example_ui(columns: int | None = None) -> None:
    """The lesson's one-number example, with the weight of the last value movable: the blend follows the weights."""
    label = t("walk.5.scalar_slider")
    come = number_slider(label, 0.0, 1.0, 0.05, model.SCALAR_WEIGHTS[2], decimals=2, key="walk_scalar_come")
    written = derivation.dot(model.scalar_weights(come), model.SCALAR_VALUES)
    show(dot_rows(t("walk.5.scalar_lhs"), written), columns)
    st.markdown(t("walk.5.scalar", result=numbers.short(written.result)))


def vector_example_ui(columns: int | None = None) -> None:
    """The lesson's [1,2,3], [4,5,6], [7,8,9] with 0.5 / 0.3 / 0.2 → [3.1, 4.1, 5.1]."""
    vectors, weights = np.array(model.VECTOR_EXAMPLE), model.VECTOR_WEIGHTS
    rows: list[Row | None] = [
        Row(name, "=", numbers.short_vector(v)) for name, v in zip(("A", "B", "C"), vectors, strict=True)
    ]
    rows.append(BLANK)
    scaled = [w * v for w, v in zip(weights, vectors, strict=True)]
    rows.append(
        Row(
            t("walk.5.vector_lhs"),
            "=",
            " + ".join(
                f"{numbers.short(w)} × {numbers.short_vector(v)}" for w, v in zip(weights, vectors, strict=True)
            ),
        )
    )
    rows.append(Row("", "=", " + ".join(numbers.short_vector(s) for s in scaled)))
    rows.append(Row("", "=", numbers.short_vector(np.sum(scaled, axis=0))))
    show(rows, columns)


def weighted_sum_rows(result: AttentionResult, tokens: Sequence[str], token: str) -> list[Row | None]:
    """The query's weights, then each dimension of its output as the weighted sum of the values."""
    i = tokens.index(token)
    allowed = result.allowed[i]
    alpha = numbers.vector(result.weights[i], sign=False, masked=~allowed)
    rows: list[Row | None] = [Row(sub("α", token), "=", alpha), BLANK]
    # the masked tokens' weights are exactly 0: their terms are left out of the sums, as the ✕ in α says
    for d, terms in enumerate(derivation.weighted_sum(result.weights[i][allowed], result.v[allowed])):
        rows += [*dot_rows(f"{sub('output', token)}[{d}]", terms), BLANK]
    rows.append(vector_row(sub("output", token), result.output[i]))
    return rows


def weighted_sum_derivation_ui(result: AttentionResult, tokens, token: str, columns: int | None = None) -> None:
    """The query's output derived, under its heading."""
    st.markdown(tm("walk.5.derivation", token=token))
    show(weighted_sum_rows(result, tokens, token), columns)


def weighted_sum_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Part 5: the weighted sum of the values, the lesson's small examples, the query's output derived."""

    def explanation() -> None:
        st.markdown(t("walk.5.body"))
        st.latex(r"\mathrm{output}_i = \sum_j \alpha_{ij}\, V_j")
        st.caption(
            t(
                "walk.5.shapes",
                a=shape(len(scenario.tokens), len(scenario.tokens)),
                v=shape(len(scenario.tokens), scenario.d_v),
                out=shape(len(scenario.tokens), scenario.d_v),
            )
        )
        st.markdown(t("walk.5.mix"))
        # side by side, or one under the other in presentation mode, where the scalar example's line is long
        if state.presentation_mode():
            scalar_col, vector_col, columns = st.container(), st.container(), share_columns(1, columns=1)
        else:
            (scalar_col, vector_col), columns = st.columns(2), share_columns(1 / 2)
        with scalar_col:
            scalar_example_ui(columns)
        with vector_col:
            st.markdown(t("walk.5.vector"))
            vector_example_ui(columns)

    def main() -> None:
        if state.presentation_mode():
            values = charts.projection_specs(scenario.tokens, result)[2]  # V: what the weights mix
            figure_slot, side = main_block()
            with figure_slot:
                charts.show_heatmap(values, key="walk_v5")
            with side:
                weighted_sum_derivation_ui(result, scenario.tokens, query_ui(), derivation_columns(values))
            return
        weighted_sum_derivation_ui(result, scenario.tokens, state.focus("query", "perro"))

    if not state.presentation_mode():
        query_ui()
    in_order(main, explanation)
    charts.show_row(charts.vectors_specs(scenario.tokens, scenario.x, result.output), keys=["walk_x5", "walk_o5"])
    collapse_ui(scenario, result)


def collapse_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Say what the outputs show: with near-uniform weights they are nearly the same vector."""
    reading = model.collapse_reading(result)
    if reading is None:
        return
    if reading.collapsed:
        st.warning(
            t("walk.5.collapse", cosine=numbers.bound(reading.lowest, 3, below=True)) + " " + collapse_why(reading)
        )
    else:
        st.success(t("walk.5.distinct", cosine=numbers.fixed(reading.lowest, 3)))
    st.markdown(t("walk.5.next"))
    st.page_link("pages/multihead.py", label=t("mh.from_walk"), icon=":material/view_column:")
