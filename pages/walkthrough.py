"""Step by step: the five sub-steps of self-attention on the shared scenario, one at a time."""

import streamlit as st

from engine import (
    dot_terms,
    lesson_scenario,
    projection_terms,
    same_numbers,
    softmax,
    softmax_steps,
    weighted_sum_terms,
)
from ui import charts, state
from ui.charts import Panel
from ui.derivation import BLANK, Row, dot_rows, show, softmax_rows, sub, token_text, vector_row
from ui.format import general, percent, signed, vector
from ui.i18n import t, tm
from ui.layout import page_header
from ui.scenario_controls import token_select_ui
from ui.share import share_ui

STEPS = 5
STEP_KEY = "step"  # also the URL query parameter: ?step=3 opens step 3
SCALAR_VALUES = (10.0, 20.0, 30.0)  # the lesson's one-number-per-token example: V_el, V_perro, V_come
SCALAR_WEIGHTS = (0.3, 0.4, 0.3)  # and the attention "perro" gives them
ROLES = ("Q", "K", "V")
ROLE_KEY = "walk_role"  # which projection step 1 derives
INPUTS_KEY = "walk_inputs_open"  # whether the expander with the input vectors x is open


def _move(delta: int) -> None:
    st.session_state[STEP_KEY] = min(STEPS, max(1, st.session_state.get(STEP_KEY, 1) + delta))


def step_controls_ui() -> int:
    """Previous / next buttons (also ← / →), the step picker bound to the URL, and the progress bar."""
    prev_col, picker_col, next_col = st.columns([1, 4, 1], vertical_alignment="bottom")
    step = picker_col.segmented_control(
        t("walk.step"),
        options=list(range(1, STEPS + 1)),
        default=1,
        required=True,
        key=STEP_KEY,
        bind="query-params",
        width="stretch",
    )
    prev_col.button(t("walk.prev"), on_click=_move, args=(-1,), disabled=step <= 1, shortcut="Left", width="stretch")
    next_col.button(
        t("walk.next"),
        on_click=_move,
        args=(1,),
        disabled=step >= STEPS,
        shortcut="Right",
        width="stretch",
        type="primary",
    )
    st.progress(step / STEPS, text=t("walk.progress", step=step, total=STEPS, name=t(f"walk.name.{step}")))
    return step


def step_1_ui(scenario, result, token: str) -> None:
    st.markdown(t("walk.1.body"))
    st.latex(r"Q = x \cdot W_Q \qquad K = x \cdot W_K \qquad V = x \cdot W_V")
    dims = [t("matrix.dim", j=j) for j in range(scenario.d_k)]
    charts.show(
        charts.heatmaps(
            [
                Panel(result.q, scenario.tokens, dims, title=t("matrix.q")),
                Panel(result.k, scenario.tokens, dims, title=t("matrix.k")),
                Panel(
                    result.v, scenario.tokens, [t("matrix.dim", j=j) for j in range(scenario.d_v)], title=t("matrix.v")
                ),
            ]
        )
    )
    i = scenario.tokens.index(token)
    # one projection at a time (not three tabs, which would all be typeset on every step)
    role = st.segmented_control(
        t("walk.1.role"), ROLES, default=ROLES[0], required=True, key=ROLE_KEY, persist_state="session"
    )
    w, values = {"Q": (scenario.w_q, result.q), "K": (scenario.w_k, result.k), "V": (scenario.w_v, result.v)}[role]
    st.markdown(tm("walk.1.derivation", role=role, token=token))
    rows = [vector_row(sub("x", token), scenario.x[i]), BLANK]
    for j, terms in enumerate(projection_terms(scenario.x[i], w)):
        rows += [*dot_rows(f"{sub(role, token)}[{j}]", terms), BLANK]
    rows.append(vector_row(sub(role, token), values[i]))
    show(rows)
    st.caption(t("walk.1.repeat", count=3 * len(scenario.tokens)))


def step_2_ui(scenario, result, token: str, other: str) -> None:
    n = len(scenario.tokens)
    st.markdown(t("walk.2.body", n=n, n2=n * n))
    st.latex(r"S = Q \cdot K^{\top}, \qquad S_{ij} = Q_i \cdot K_j")
    charts.show(
        charts.heatmap(
            result.scores, scenario.tokens, scenario.tokens, title=t("matrix.scores"), row_title=t("matrix.rows_query")
        )
    )
    i, j = scenario.tokens.index(token), scenario.tokens.index(other)
    st.markdown(tm("walk.2.pair", q=token, k=other))
    rows = [vector_row(sub("Q", token), result.q[i]), vector_row(sub("K", other), result.k[j]), BLANK]
    show(rows + dot_rows(f"score({token_text(token)} → {token_text(other)})", dot_terms(result.q[i], result.k[j])))
    row = result.scores[i]
    st.info(
        tm(
            "walk.2.reading",
            token=token,
            best=scenario.tokens[row.argmax()],
            best_score=signed(row.max()),
            worst=scenario.tokens[row.argmin()],
            worst_score=signed(row.min()),
        )
    )


def step_3_ui(scenario, result, token: str) -> None:
    if scenario.scale == "sqrt":
        st.markdown(t("walk.3.body", dk=scenario.d_k, divisor=general(result.divisor)))
    else:
        st.markdown(t("walk.3.body_mode", divisor=general(result.divisor)))
    st.latex(r"\mathrm{score}'_{ij} = \frac{Q_i \cdot K_j}{\sqrt{d_k}}")
    st.markdown(t("walk.3.why"))
    i = scenario.tokens.index(token)
    st.markdown(tm("walk.3.row", token=token))
    divisor = general(result.divisor)
    show(
        [
            Row(f"score'({token_text(token)} → {token_text(other)})", "=", f"{signed(s)} ÷ {divisor} = {signed(s2)}")
            for other, s, s2 in zip(scenario.tokens, result.scores[i], result.scaled_scores[i], strict=True)
        ]
    )
    charts.show(
        charts.heatmaps(
            [
                Panel(result.scores, scenario.tokens, scenario.tokens, title=t("matrix.scores")),
                Panel(
                    result.scaled_scores,
                    scenario.tokens,
                    scenario.tokens,
                    title=t("matrix.scaled", divisor=general(result.divisor)),
                ),
            ],
            row_title=t("matrix.rows_query"),
        ),
    )


def step_4_ui(scenario, result, token: str) -> None:
    st.markdown(t("walk.4.body"))
    st.latex(r"\alpha_{ij} = \frac{e^{\,\mathrm{score}'_{ij}}}{\sum_{m} e^{\,\mathrm{score}'_{im}}}")
    charts.show(
        charts.heatmap(
            result.weights,
            scenario.tokens,
            scenario.tokens,
            kind="weights",
            title=t("matrix.weights"),
            row_title=t("matrix.rows_query"),
        )
    )
    i = scenario.tokens.index(token)
    allowed = result.allowed[i]
    labels = [name for name, ok in zip(scenario.tokens, allowed, strict=True) if ok]
    if not allowed.all():
        st.caption(tm("walk.4.masked", token=token, allowed=", ".join(labels)))
    st.markdown(tm("walk.4.row", token=token))
    show(softmax_rows(softmax_steps(result.scaled_scores[i][allowed], scenario.temperature), labels))
    st.markdown(t("walk.4.compare"))
    unscaled = softmax(result.scores[i][allowed], temperature=scenario.temperature)
    with_col, without_col = st.columns(2)
    with_col.metric(t("walk.4.with", divisor=general(result.divisor)), vector(result.weights[i][allowed], sign=False))
    without_col.metric(t("walk.4.without"), vector(unscaled, sign=False))
    shares = ", ".join(f"{name} {percent(w)}" for name, w in zip(labels, result.weights[i][allowed], strict=True))
    st.info(tm("walk.4.reading", token=token, shares=shares))


def step_5_ui(scenario, result, token: str) -> None:
    st.markdown(t("walk.5.body"))
    st.latex(r"\mathrm{output}_i = \sum_j \alpha_{ij}\, V_j")
    st.markdown(t("walk.5.mix"))
    scalar = dot_terms(SCALAR_WEIGHTS, SCALAR_VALUES)
    st.markdown(
        t(
            "walk.5.scalar",
            values=", ".join(f"{v:g}" for v in scalar.b),
            weights=", ".join(f"{w:g}" for w in scalar.a),
            result=f"{scalar.total:g}",
        )
    )
    i = scenario.tokens.index(token)
    st.markdown(tm("walk.5.derivation", token=token))
    rows = [Row(sub("α", token), "=", vector(result.weights[i], sign=False)), BLANK]
    for d, terms in enumerate(weighted_sum_terms(result.weights[i], result.v)):
        rows += [*dot_rows(f"{sub('output', token)}[{d}]", terms), BLANK]
    rows.append(vector_row(sub("output", token), result.output[i]))
    show(rows)
    before, after = st.columns(2)
    with before.container(border=True):
        st.markdown(tm("walk.5.before", token=token))
        st.code(vector(scenario.x[i]), language=None)
    with after.container(border=True):
        st.markdown(tm("walk.5.after", token=token))
        st.code(vector(result.output[i]), language=None)
    charts.show(
        charts.heatmaps(
            [
                Panel(
                    scenario.x,
                    scenario.tokens,
                    [t("matrix.dim", j=j) for j in range(scenario.d_model)],
                    title=t("matrix.x"),
                ),
                Panel(
                    result.output,
                    scenario.tokens,
                    [t("matrix.dim", j=j) for j in range(scenario.d_v)],
                    title=t("matrix.output"),
                ),
            ]
        )
    )
    st.success(tm("walk.5.closing", token=token))


@st.fragment
def walkthrough_ui() -> None:
    """The step controls and the step. A fragment: stepping reruns and redraws only this, not the sidebar."""
    scenario = state.get_scenario()
    result = scenario.run()
    step = step_controls_ui()
    st.caption(t("walk.keys_hint"))
    st.header(f"{step}. {t(f'walk.name.{step}')}")
    inputs = st.expander(t("walk.inputs"), key=INPUTS_KEY, on_change="rerun")
    if inputs.open:  # drawn only when opened: a closed expander costs a step change nothing
        with inputs:
            dims = [t("matrix.dim", j=j) for j in range(scenario.d_model)]
            charts.show(charts.heatmap(scenario.x, scenario.tokens, dims, title=t("matrix.x")))
    token = token_select_ui(state.FOCUS_QUERY, "perro", t("scenario.query_token"))
    if step == 1:
        step_1_ui(scenario, result, token)
    elif step == 2:
        step_2_ui(scenario, result, token, token_select_ui(state.FOCUS_KEY, "come", t("scenario.key_token")))
    elif step == 3:
        step_3_ui(scenario, result, token)
    elif step == 4:
        step_4_ui(scenario, result, token)
    else:
        step_5_ui(scenario, result, token)


page_header("walk.title", "walk.lead")
if not same_numbers(state.get_scenario(), lesson_scenario()):
    st.info(t("scenario.edited"))
share_ui(st.session_state.get(STEP_KEY))
walkthrough_ui()
