"""The walkthrough's five parts, each drawn from the shared scenario: what the page `pages/walkthrough.py` calls.

Every heading and sentence says what is actually computed with the scenario's options (divisor, temperature,
causal mask); every number is the engine's, every derivation the engine's written arithmetic.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine import AttentionResult, Scale, Scenario, derivation, lesson_scenario, same_numbers, softmax
from engine.similarity import COLLAPSE_COSINE, lowest_pairwise_cosine
from ui import charts, numbers, state
from ui.derivation import BLANK, Row, division_row, dot_rows, show, softmax_rows, sub, token_text, vector_row
from ui.figures import Heatmap
from ui.i18n import plural, t, tm

PARTS = 5
ROLES = ("Q", "K", "V")
SCALAR_VALUES = (10.0, 20.0, 30.0)  # the lesson's one-number-per-token example: V_el, V_perro, V_come
SCALAR_WEIGHTS = (0.3, 0.4, 0.3)  # and the attention "perro" gives them
VECTOR_EXAMPLE = ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0), (7.0, 8.0, 9.0))  # the lesson's three vectors
VECTOR_WEIGHTS = (0.5, 0.3, 0.2)
SMALL_SCORE_GAP = 2.0  # a row whose scores differ by less than this: dividing changes its weights only a little


def part_name(part: int, scenario: Scenario) -> str:
    """The part's name, saying what this scenario computes (part 3 with its actual divisor)."""
    if part == 3:
        return t(f"walk.name.3.{scenario.scale}")
    return t(f"walk.name.{part}")


def _move(delta: int) -> None:
    current = state.widget_value(state.STEP, 1) or 1
    state.put(state.STEP, min(PARTS, max(1, int(current) + delta)))


def controls_ui(scenario: Scenario) -> int:
    """Previous / next buttons, the part picker bound to the URL (?step=3), and the progress bar."""
    prev_col, picker_col, next_col = st.columns([1, 4, 1], vertical_alignment="bottom")
    part = picker_col.segmented_control(
        t("walk.part"),
        options=list(range(1, PARTS + 1)),
        default=1,
        required=True,
        key=state.STEP,
        bind="query-params",
        width="stretch",
    )
    prev_col.button(t("walk.prev"), on_click=_move, args=(-1,), disabled=part <= 1, shortcut="Left", width="stretch")
    next_col.button(
        t("walk.next"),
        on_click=_move,
        args=(1,),
        disabled=part >= PARTS,
        shortcut="Right",
        width="stretch",
        type="primary",
    )
    st.progress(part / PARTS, text=t("walk.progress", part=part, total=PARTS, name=part_name(part, scenario)))
    return part


def edited_notice_ui() -> None:
    if not same_numbers(state.get_scenario(), lesson_scenario()):
        st.info(t("scenario.edited"))


def inputs_ui(scenario: Scenario) -> None:
    """The input vectors x, folded: drawn only when opened."""
    inputs = st.expander(t("walk.inputs"), key="walk_inputs_open", on_change="rerun")
    if inputs.open:
        with inputs:
            charts.show_heatmap(
                Heatmap(
                    scenario.x,
                    scenario.tokens,
                    charts.dims(scenario.d_model),
                    t("matrix.x"),
                    row_title=t("matrix.rows_token"),
                )
            )


def code_ui(part: int) -> None:
    """The few numpy lines the engine runs for this part, folded."""
    with st.expander(t("walk.code")):
        st.code(t(f"walk.code.{part}"), language="python")


def shape(rows: int, cols: int) -> str:
    return f"({rows}×{cols})"


# --- part 1: Q, K, V ---


def projections_ui(scenario: Scenario, result: AttentionResult, token: str) -> None:
    n, d_model, d_k, d_v = len(scenario.tokens), scenario.d_model, scenario.d_k, scenario.d_v
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
    role = st.segmented_control(
        t("walk.1.role"), ROLES, default=ROLES[0], required=True, key="walk_role", persist_state="session"
    )
    w, values = {"Q": (scenario.w_q, result.q), "K": (scenario.w_k, result.k), "V": (scenario.w_v, result.v)}[role]
    w_col, derivation_col = st.columns([1, 2])
    with w_col:
        charts.show_heatmap(
            Heatmap(
                w,
                [f"x{i}" for i in range(d_model)],
                charts.dims(w.shape[1]),
                f"W_{role} {shape(*w.shape)}",
                row_title=t("matrix.rows_x"),
                col_title=t("matrix.cols_out"),
            ),
            key="walk_w",
        )
    with derivation_col:
        i = scenario.tokens.index(token)
        st.markdown(tm("walk.1.derivation", role=role, token=token))
        rows: list[Row | None] = [vector_row(sub("x", token), scenario.x[i]), BLANK]
        for j, terms in enumerate(derivation.projection(scenario.x[i], w)):
            rows.append(Row("", "", t("walk.1.column", j=j, role=role, column=numbers.vector(w[:, j]))))
            rows += [*dot_rows(f"{sub(role, token)}[{j}]", terms), BLANK]
        rows.append(vector_row(sub(role, token), values[i]))
        show(rows)
    st.caption(t("walk.1.repeat", count=numbers.count(3 * n)))


# --- part 2: scores ---


def scores_ui(scenario: Scenario, result: AttentionResult, token: str, other: str) -> None:
    n, d_k = len(scenario.tokens), scenario.d_k
    st.markdown(plural("walk.2.body", n, n2=numbers.count(n * n)))
    st.latex(r"S = Q \cdot K^{\top}, \qquad S_{ij} = Q_i \cdot K_j")
    st.caption(t("walk.2.shapes", q=shape(n, d_k), kt=shape(d_k, n), s=shape(n, n)))
    figure_col, derivation_col = st.columns([2, 3])
    with figure_col:
        charts.show_heatmap(charts.attention_specs(scenario.tokens, result, panels=("scores",))[0], key="walk_s")
    with derivation_col:
        i, j = scenario.tokens.index(token), scenario.tokens.index(other)
        st.markdown(tm("walk.2.pair", q=token, k=other))
        rows = [vector_row(sub("Q", token), result.q[i]), vector_row(sub("K", other), result.k[j]), BLANK]
        lhs = f"score({token_text(token)} → {token_text(other)})"
        show(rows + dot_rows(lhs, derivation.dot(result.q[i], result.k[j], exact=result.scores[i, j])))
    row = result.scores[i]
    st.info(
        tm(
            "walk.2.reading",
            token=token,
            best=scenario.tokens[int(row.argmax())],
            best_score=numbers.signed(row.max()),
            worst=scenario.tokens[int(row.argmin())],
            worst_score=numbers.signed(row.min()),
        )
    )
    if i != j:
        st.markdown(
            tm(
                "walk.2.asymmetry",
                q=token,
                k=other,
                forward=numbers.signed(result.scores[i, j]),
                backward=numbers.signed(result.scores[j, i]),
            )
        )


# --- part 3: dividing ---


def scaling_ui(scenario: Scenario, result: AttentionResult, token: str) -> None:
    divisor = numbers.short(result.divisor)
    st.markdown(t(f"walk.3.body.{scenario.scale}", dk=numbers.count(scenario.d_k), divisor=divisor))
    st.latex(t(f"walk.3.formula.{scenario.scale}"))
    if scenario.scale != Scale.NONE:
        st.markdown(t("walk.3.why"))
        st.markdown(t("walk.3.temperature", divisor=divisor))
    st.page_link("pages/scaling.py", label=t("walk.3.link"), icon=":material/show_chart:")
    i = scenario.tokens.index(token)
    st.markdown(tm("walk.3.row", token=token))
    rows: list[Row | None] = []
    for j, other in enumerate(scenario.tokens):
        lhs = f"score'({token_text(token)} → {token_text(other)})"
        if not result.allowed[i, j]:
            rows.append(Row(lhs, "", t("walk.masked_cell")))
        elif scenario.scale == Scale.NONE:
            rows.append(Row(lhs, "=", numbers.signed(result.scores[i, j])))
        else:
            rows += division_row(lhs, derivation.division(result.scores[i, j], result.divisor))
    show(rows)
    charts.show_row(
        charts.attention_specs(scenario.tokens, result, panels=("scores", "scaled")), keys=["walk_s3", "walk_s3b"]
    )


# --- part 4: softmax ---


def softmax_ui(scenario: Scenario, result: AttentionResult, token: str) -> None:
    st.markdown(t("walk.4.body"))
    if scenario.temperature == 1:
        st.latex(r"\alpha_{ij} = \frac{e^{\,\mathrm{score}'_{ij}}}{\sum_{m} e^{\,\mathrm{score}'_{im}}}")
    else:
        st.latex(r"\alpha_{ij} = \frac{e^{\,\mathrm{score}'_{ij} / T}}{\sum_{m} e^{\,\mathrm{score}'_{im} / T}}")
        st.markdown(t("walk.4.temperature", t=numbers.short(scenario.temperature, 2)))
    i = scenario.tokens.index(token)
    allowed = result.allowed[i]
    labels = [name for name, ok in zip(scenario.tokens, allowed, strict=True) if ok]
    figure_col, derivation_col = st.columns([2, 3])
    with figure_col:
        charts.show_heatmap(charts.attention_specs(scenario.tokens, result, panels=("weights",))[0], key="walk_w4")
    with derivation_col:
        if not allowed.all():
            st.caption(tm("walk.4.masked", token=token, allowed=quoted_list(labels)))
        st.markdown(tm("walk.4.row", token=token))
        written = derivation.softmax_row(
            result.scaled_scores[i][allowed], scenario.temperature, exact=result.weights[i][allowed]
        )
        show(softmax_rows(written, labels))
    shares = [
        tm("walk.share", token=name, share=numbers.percent(w) if ok else t("walk.masked_share"))
        for name, w, ok in zip(scenario.tokens, result.weights[i], allowed, strict=True)
    ]
    st.info(tm("walk.4.reading", token=token) + " " + ", ".join(shares) + ".")
    if scenario.scale != Scale.NONE:
        unscaled = softmax(np.where(allowed, result.scores[i], -np.inf), temperature=scenario.temperature)
        with_col, without_col = st.columns(2)
        with_col.metric(
            t("walk.4.with", divisor=numbers.short(result.divisor)), numbers.vector(result.weights[i], sign=False)
        )
        without_col.metric(t("walk.4.without"), numbers.vector(unscaled, sign=False))
        gap = float(np.ptp(result.scores[i][allowed])) if allowed.any() else 0.0
        st.markdown(t("walk.4.compare_small" if gap < SMALL_SCORE_GAP else "walk.4.compare_large"))
    if same_numbers(scenario, lesson_scenario()):
        errata_ui()


def errata_ui() -> None:
    """The lesson's one wrong row, and the differences that are only rounding, said where it matters."""
    with st.container(border=True):
        st.markdown(t("walk.errata.title"))
        st.markdown(t("walk.errata.body"))


def quoted_list(names) -> str:
    return ", ".join(t("walk.quoted", token=name) for name in names)


# --- part 5: the weighted sum ---


def scalar_example_ui() -> None:
    """The lesson's one-number example, with the weight of the last value movable: the blend follows the weights."""
    come = st.slider(t("walk.5.scalar_slider"), 0.0, 1.0, SCALAR_WEIGHTS[2], step=0.05, key="walk_scalar_come")
    rest = 1.0 - come
    weights = (rest * 3 / 7, rest * 4 / 7, come)  # "el" and "perro" keep the lesson's 3 : 4
    written = derivation.dot(weights, SCALAR_VALUES)
    rows = dot_rows(t("walk.5.scalar_lhs"), written)
    show(rows)
    st.markdown(t("walk.5.scalar", result=numbers.short(written.result)))


def vector_example_ui() -> None:
    """The lesson's [1,2,3], [4,5,6], [7,8,9] with 0.5 / 0.3 / 0.2 → [3.1, 4.1, 5.1]."""
    vectors = np.array(VECTOR_EXAMPLE)
    rows: list[Row | None] = [
        Row(name, "=", numbers.short_vector(v)) for name, v in zip(("A", "B", "C"), vectors, strict=True)
    ]
    rows.append(BLANK)
    scaled = [w * v for w, v in zip(VECTOR_WEIGHTS, vectors, strict=True)]
    rows.append(
        Row(
            t("walk.5.vector_lhs"),
            "=",
            " + ".join(
                f"{numbers.short(w)} × {numbers.short_vector(v)}" for w, v in zip(VECTOR_WEIGHTS, vectors, strict=True)
            ),
        )
    )
    rows.append(Row("", "=", " + ".join(numbers.short_vector(s) for s in scaled)))
    rows.append(Row("", "=", numbers.short_vector(np.sum(scaled, axis=0))))
    show(rows)


def weighted_sum_ui(scenario: Scenario, result: AttentionResult, token: str) -> None:
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
    scalar_col, vector_col = st.columns(2)
    with scalar_col:
        scalar_example_ui()
    with vector_col:
        st.markdown(t("walk.5.vector"))
        vector_example_ui()
    i = scenario.tokens.index(token)
    st.markdown(tm("walk.5.derivation", token=token))
    rows: list[Row | None] = [Row(sub("α", token), "=", numbers.vector(result.weights[i], sign=False)), BLANK]
    for d, terms in enumerate(derivation.weighted_sum(result.weights[i], result.v)):
        rows += [*dot_rows(f"{sub('output', token)}[{d}]", terms), BLANK]
    rows.append(vector_row(sub("output", token), result.output[i]))
    show(rows)
    charts.show_row(charts.vectors_specs(scenario.tokens, scenario.x, result.output), keys=["walk_x5", "walk_o5"])
    collapse_ui(scenario, result)


def collapse_ui(scenario: Scenario, result: AttentionResult) -> None:
    """Say what the outputs show: with near-uniform weights they are nearly the same vector."""
    lowest = lowest_pairwise_cosine(result.output)
    if lowest is None:
        return
    if lowest >= COLLAPSE_COSINE:
        st.warning(t("walk.5.collapse", cosine=numbers.fixed(lowest, 3)))
    else:
        st.success(t("walk.5.distinct", cosine=numbers.fixed(lowest, 3)))
    st.markdown(t("walk.5.next"))
    st.page_link("pages/multihead.py", label=t("mh.from_walk"), icon=":material/view_column:")
