"""The walkthrough's five parts, each drawn from the shared scenario: what the page `pages/walkthrough.py` calls.

Every heading and sentence says what is actually computed with the scenario's options (divisor, temperature,
causal mask); every number is the engine's, every derivation the engine's written arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import AttentionResult, Scale, Scenario, derivation, lesson_scenario, same_numbers, softmax
from engine.peakedness import row_reading
from engine.similarity import COLLAPSE_COSINE, lowest_pairwise_cosine
from ui import charts, numbers, state, url
from ui.charts import shape
from ui.derivation import BLANK, Row, division_row, dot_rows, show, softmax_rows, sub, token_text, vector_row
from ui.figure_specs import Heatmap
from ui.i18n import plural, t, tm
from ui.keys import part_keys_ui
from ui.scenario_controls import token_select_ui
from ui.sliders import number_slider

PARTS = state.PARTS
ROLES = ("Q", "K", "V")
SCALAR_VALUES = (10.0, 20.0, 30.0)  # the lesson's one-number-per-token example: V_el, V_perro, V_come
SCALAR_WEIGHTS = (0.3, 0.4, 0.3)  # and the attention "perro" gives them
VECTOR_EXAMPLE = ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0), (7.0, 8.0, 9.0))  # the lesson's three vectors
VECTOR_WEIGHTS = (0.5, 0.3, 0.2)
SMALL_SCORE_GAP = 2.0  # a row whose scores differ by less than this: dividing changes its weights only a little
ANCHOR = "walk_part"  # the container (controls and title) a change of part brings into view
KEYS = "walk_keys"  # the presenter keys' component
# A derivation's lines are cut to fit its box on the narrowest page it must fit without scrolling sideways, with
# the sidebar open: 1280 px wide in presentation mode, 1400 px otherwise. Measured in Chromium: the page's main
# column is 930 / 940 px wide; monospace text is 12 px a character at 20 px (presentation), 8.4 px at 14 px;
# a text block has 16 px of padding; st.columns leave 16 px between columns, the main row (below) 32 px (in
# presentation mode too, whose larger root font size would widen them: ui.layout keeps them at these sizes).
MAIN_WIDTH = {True: 930, False: 940}
CODE_CHAR = {True: 12.0, False: 8.4}
CODE_PADDING = 40  # its 16 px padding, and room for arrows and signs drawn in a wider fallback font
COLUMN_GAP = 16
MAIN_ROW_GAP = 32
MIN_DERIVATION_COLUMNS = 30


def part_name(part: int, scenario: Scenario) -> str:
    """The part's name, saying what this scenario computes (part 3 with its actual divisor)."""
    if part == 3:
        return t(f"walk.name.3.{scenario.scale}")
    return t(f"walk.name.{part}")


def current_part() -> int:
    """The part shown: the session's (a link's ?step=3 sets it when the page opens: ui.url), 1 at first. The URL
    always says it, so that a reload, a bookmark or a copied address opens the same part."""
    if state.step() is None:
        show_part(1)
    return int(state.step() or 1)


def show_part(part: int) -> None:
    """Go to `part` (from a callback: a button, the picker, a presenter key; or in a fragment's run)."""
    state.set_step(min(PARTS, max(1, int(part))))
    url.keep_in_url(state.STEP)


def _picked(widget_key: str) -> None:
    value = state.widget_value(widget_key)
    if value is not None:
        show_part(value)


def part_top_ui(scenario: Scenario) -> int:
    """Previous / next buttons, the part picker, the progress bar and the part's title, in the container a change
    of part brings into view; the presenter's keys (ui.keys) step the parts.

    The part is the app's own value (not the picker's): the picker is rebuilt for each part, so it always shows
    the part on the page, however fast keys and clicks come. In presentation mode the row is compact (no label,
    no progress bar: the title says the part), so that the title, the main figure and the start of the
    derivation fit a 1280×720 screen."""
    presenting = state.presentation_mode()
    part = current_part()
    with st.container(key=ANCHOR):
        prev_col, picker_col, next_col = st.columns([1, 4, 1], vertical_alignment="bottom")
        picker = f"walk_picker_{part}"
        picker_col.segmented_control(
            t("walk.part"),
            options=list(range(1, PARTS + 1)),
            default=part,
            required=True,
            key=picker,
            on_change=_picked,
            args=(picker,),
            width="stretch",
            label_visibility="collapsed" if presenting else "visible",
        )
        prev_col.button(t("walk.prev"), on_click=show_part, args=(part - 1,), disabled=part <= 1, width="stretch")
        next_col.button(
            t("walk.next"),
            on_click=show_part,
            args=(part + 1,),
            disabled=part >= PARTS,
            width="stretch",
            type="primary",
        )
        if not presenting:
            st.progress(part / PARTS, text=t("walk.progress", part=part, total=PARTS, name=part_name(part, scenario)))
        st.header(f"{part}. {part_name(part, scenario)}")
    part_keys_ui(part, PARTS, key=KEYS, anchor=ANCHOR, scroll=presenting, on_part=show_part)
    return part


def text_columns(width: float) -> int:
    """Characters a derivation's line may take in a box `width` px wide, in the current mode."""
    presenting = state.presentation_mode()
    return max(MIN_DERIVATION_COLUMNS, int((width - CODE_PADDING) // CODE_CHAR[presenting]))


def share_columns(share: float, columns: int = 2) -> int:
    """Characters a derivation's line may take in a column holding `share` of a row of `columns` columns."""
    main = MAIN_WIDTH[state.presentation_mode()]
    return text_columns((main - COLUMN_GAP * (columns - 1)) * share)


def derivation_columns(figure: Heatmap) -> int:
    """Characters a derivation's line may take beside `figure` in presentation mode's main row."""
    width = charts.heatmap_figure(figure).layout.width or 0
    return text_columns(MAIN_WIDTH[True] - width - MAIN_ROW_GAP)


def main_block() -> tuple[DeltaGenerator, DeltaGenerator]:
    """Presentation mode: a row for the part's main figure (at its own width) and, beside it, its choices and
    derivation (taking the rest). The caller fills them in any order: the choices can decide the figure."""
    row = st.container(horizontal=True, gap="medium", key="walk_main")
    return row.container(width="content"), row.container()


def query_ui(container: DeltaGenerator | ModuleType = st) -> str:
    """The token whose derivation is shown (the query), the same on every page."""
    return token_select_ui("query", "perro", t("scenario.query_token"), page="walk", container=container)


def key_ui(container: DeltaGenerator | ModuleType = st) -> str:
    """The token the query looks at in part 2 (the key), the same on every page."""
    return token_select_ui("key", "come", t("scenario.key_token"), page="walk", container=container)


def in_order(main: Callable[[], None], explanation: Callable[[], None]) -> None:
    """The part's text first and then its figure and derivation; in presentation mode the other way round, so
    that the title, the main figure and the start of its derivation fit one projected screen."""
    first, second = (main, explanation) if state.presentation_mode() else (explanation, main)
    first()
    second()


def edited_notice_ui() -> None:
    """Say that the numbers are the reader's own scenario, not the lesson's."""
    if not same_numbers(state.get_scenario(), lesson_scenario()):
        st.info(t("scenario.edited"))


def inputs_ui(scenario: Scenario) -> None:
    """The input vectors x, folded: drawn only when opened."""
    inputs = st.expander(t("walk.inputs"), key="walk_inputs_open", on_change="rerun")
    if inputs.open:
        with inputs:
            charts.show_heatmap(charts.token_map(scenario.x, scenario.tokens, t("matrix.x")))


def code_ui(part: int, scenario: Scenario) -> None:
    """The few numpy lines the engine runs for this part, folded (part 3's as the scenario divides)."""
    with st.expander(t("walk.code")):
        key = f"walk.code.{part}.{scenario.scale}" if part == 3 else f"walk.code.{part}"
        st.code(t(key), language="python", wrap_lines=True)


# --- part 1: Q, K, V ---


def w_heatmap(scenario: Scenario, role: str) -> Heatmap:
    """The weight matrix of `role` ("Q", "K" or "V"): rows are dimensions of x, columns of the output."""
    w = {"Q": scenario.w_q, "K": scenario.w_k, "V": scenario.w_v}[role]
    return charts.weight_map(w, f"W_{role}")


def projection_derivation_ui(
    scenario: Scenario, result: AttentionResult, role: str, token: str, columns: int | None = None
) -> None:
    """The token's x, then each dimension of its projection as the dot product with a column of W."""
    w, values = {"Q": (scenario.w_q, result.q), "K": (scenario.w_k, result.k), "V": (scenario.w_v, result.v)}[role]
    i = scenario.tokens.index(token)
    st.markdown(tm("walk.1.derivation", role=role, token=token))
    rows: list[Row | None] = [vector_row(sub("x", token), scenario.x[i]), BLANK]
    for j, terms in enumerate(derivation.projection(scenario.x[i], w)):
        rows.append(Row("", "", t("walk.1.column", j=j, role=role, column=numbers.vector(w[:, j]))))
        rows += [*dot_rows(f"{sub(role, token)}[{j}]", terms), BLANK]
    rows.append(vector_row(sub(role, token), values[i]))
    show(rows, columns)


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


# --- part 2: scores ---


def score_derivation_ui(result: AttentionResult, tokens, token: str, other: str, columns: int | None = None) -> None:
    """Q of the query and K of the key, then their dot product term by term."""
    i, j = tokens.index(token), tokens.index(other)
    st.markdown(tm("walk.2.pair", q=token, k=other))
    rows = [vector_row(sub("Q", token), result.q[i]), vector_row(sub("K", other), result.k[j]), BLANK]
    lhs = f"score({token_text(token)} → {token_text(other)})"
    show([*rows, *dot_rows(lhs, derivation.dot(result.q[i], result.k[j], exact=result.scores[i, j]))], columns)


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


def division_derivation_ui(scenario: Scenario, result: AttentionResult, token: str, columns: int | None = None) -> None:
    """Each score of the query's row divided by the divisor (or as it is, or masked)."""
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
    show(rows, columns)


def _total_temperature(result: AttentionResult) -> dict[str, str]:
    """T and divisor × T, the product worked out from the two numbers as written (3 decimals each)."""
    divisor, temperature = numbers.round_half_up(result.divisor, 3), numbers.round_half_up(result.temperature, 3)
    return {"t": numbers.short(temperature), "total": numbers.short(divisor * temperature, 6)}


def scaling_ui(scenario: Scenario, result: AttentionResult) -> None:
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


# --- part 4: softmax ---


def softmax_derivation_ui(scenario: Scenario, result: AttentionResult, token: str, columns: int | None = None) -> None:
    """Softmax of the query's row, step by step (its masked positions left out)."""
    i = scenario.tokens.index(token)
    allowed = result.allowed[i]
    labels = [name for name, ok in zip(scenario.tokens, allowed, strict=True) if ok]
    if not allowed.all():
        st.caption(tm("walk.4.masked", token=token, allowed=quoted_list(labels)))
    st.markdown(tm("walk.4.row", token=token))
    written = derivation.softmax_row(
        result.scaled_scores[i][allowed], scenario.temperature, exact=result.weights[i][allowed]
    )
    show(softmax_rows(written, labels), columns)


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
    allowed = result.allowed[i]
    shares = [
        tm("walk.share", token=name, share=numbers.percent(w) if ok else t("walk.masked_share"))
        for name, w, ok in zip(scenario.tokens, result.weights[i], allowed, strict=True)
    ]
    reading = tm("walk.4.reading", token=token) + " " + ", ".join(shares) + "."
    if allowed.sum() > 1:  # one token left by the mask takes it all: nothing to read
        kept = np.flatnonzero(allowed)
        top = scenario.tokens[kept[int(result.weights[i][kept].argmax())]]
        reading += " " + tm(f"walk.4.reading.{row_reading(result.weights[i][kept])}", top=top)
    st.info(reading)
    if scenario.scale != Scale.NONE:
        unscaled = softmax(np.where(allowed, result.scores[i], -np.inf), temperature=scenario.temperature)
        with_col, without_col = st.columns(2)
        with_col.metric(
            t("walk.4.with", divisor=numbers.short(result.divisor)),
            numbers.vector(result.weights[i], sign=False, masked=~allowed),
        )
        without_col.metric(t("walk.4.without"), numbers.vector(unscaled, sign=False, masked=~allowed))
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
    """Names quoted and joined: «el», «perro»."""
    return ", ".join(t("walk.quoted", token=name) for name in names)


# --- part 5: the weighted sum ---


def scalar_example_ui(columns: int | None = None) -> None:
    """The lesson's one-number example, with the weight of the last value movable: the blend follows the weights."""
    label = t("walk.5.scalar_slider")
    come = number_slider(label, 0.0, 1.0, 0.05, SCALAR_WEIGHTS[2], decimals=2, key="walk_scalar_come")
    rest = 1.0 - come
    weights = (rest * 3 / 7, rest * 4 / 7, come)  # "el" and "perro" keep the lesson's 3 : 4
    written = derivation.dot(weights, SCALAR_VALUES)
    show(dot_rows(t("walk.5.scalar_lhs"), written), columns)
    st.markdown(t("walk.5.scalar", result=numbers.short(written.result)))


def vector_example_ui(columns: int | None = None) -> None:
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
    show(rows, columns)


def weighted_sum_derivation_ui(result: AttentionResult, tokens, token: str, columns: int | None = None) -> None:
    """The query's weights, then each dimension of its output as the weighted sum of the values."""
    i = tokens.index(token)
    st.markdown(tm("walk.5.derivation", token=token))
    allowed = result.allowed[i]
    alpha = numbers.vector(result.weights[i], sign=False, masked=~allowed)
    rows: list[Row | None] = [Row(sub("α", token), "=", alpha), BLANK]
    # the masked tokens' weights are exactly 0: their terms are left out of the sums, as the ✕ in α says
    for d, terms in enumerate(derivation.weighted_sum(result.weights[i][allowed], result.v[allowed])):
        rows += [*dot_rows(f"{sub('output', token)}[{d}]", terms), BLANK]
    rows.append(vector_row(sub("output", token), result.output[i]))
    show(rows, columns)


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
    lowest = lowest_pairwise_cosine(result.output)
    if lowest is None:
        return
    if lowest >= COLLAPSE_COSINE:
        st.warning(t("walk.5.collapse", cosine=numbers.fixed(lowest, 3)))
    else:
        st.success(t("walk.5.distinct", cosine=numbers.fixed(lowest, 3)))
    st.markdown(t("walk.5.next"))
    st.page_link("pages/multihead.py", label=t("mh.from_walk"), icon=":material/view_column:")
