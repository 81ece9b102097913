"""The learning page's inside tab: W_Q and W_K before and after, the gradient of one weight, the two roles."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import TrainingRun, role_asymmetry, weight_gradient
from ui import charts, figure_specs, numbers
from ui.figure_specs import Heatmap
from ui.i18n import t, tm
from ui.sections.learning.common import labels, no_run_ui
from ui.tables import table_ui
from ui.view_models import learning as model
from ui.view_models.learning import Training


def matrix_spec(
    w: np.ndarray, title: str, zrange: tuple[float, float] | None, show_scale: bool, decimals: int = 2
) -> Heatmap:
    """A weight matrix (or its gradient) as a heatmap: rows the dimensions of x, columns those of the output."""
    return Heatmap(
        w,
        [f"x{i}" for i in range(w.shape[0])],
        charts.dims(w.shape[1]),
        title,
        row_title=t("matrix.rows_x"),
        col_title=t("matrix.cols_out"),
        zrange=zrange,
        show_scale=show_scale,
        decimals=decimals,
    )


def before_after_ui(run: TrainingRun) -> None:
    """Each W before and after, the two on one colour scale."""
    pairs = [("W_Q", run.w_q_start, run.w_q), ("W_K", run.w_k_start, run.w_k)]
    if run.learns_w_v:
        pairs.append(("W_V", run.w_v_start, run.w_v))
    for name, before, after in pairs:
        shared = figure_specs.signed_range(before, after)
        charts.show_row(
            [
                matrix_spec(before, t("learn.inside.before", w=name), shared, False),
                matrix_spec(after, t("learn.inside.after", w=name), shared, True),
            ],
            keys=[f"learn_{name}_before", f"learn_{name}_after"],
        )


@st.fragment(key="learn_gradient")
def gradient_ui(training: Training) -> None:
    """∂A_ij/∂W_Q and ∂A_ij/∂W_K for a chosen cell, at the weights the run reached (or those it started from)."""
    case, run = training.case, training.run
    st.subheader(t("learn.gradient.header"))
    st.markdown(t("learn.gradient.body"))
    tokens = list(case.tokens)
    row_col, col_col, when_col = st.columns(3)
    asker = row_col.selectbox(
        t("learn.gradient.row"),
        tokens,
        index=model.gradient_row(tokens),
        key=f"learn_grad_row_{case.source}_{len(tokens)}",
    )
    looked = col_col.selectbox(
        t("learn.gradient.col"),
        tokens,
        index=model.gradient_col(run, tokens.index(asker)),
        key=f"learn_grad_col_{case.source}_{len(tokens)}_{asker}",
    )
    when = when_col.segmented_control(
        t("learn.gradient.when"),
        ("start", "end"),
        format_func=labels("learn.gradient.when"),
        default="end",
        required=True,
        key="learn_grad_when",
    )
    w_q, w_k = (run.w_q_start, run.w_k_start) if when == "start" else (run.w_q, run.w_k)
    i, j = tokens.index(asker), tokens.index(looked)
    if case.causal and j > i:
        st.warning(tm("learn.gradient.masked", i=asker, j=looked))
        return
    gradient = weight_gradient(
        case.x, w_q, w_k, i, j, scale=run.objective.scale, mask=case.mask, temperature=case.temperature
    )
    shared = figure_specs.signed_range(gradient.grad_w_q, gradient.grad_w_k)
    cell = t("learn.gradient.cell", i=asker, j=looked)
    charts.show_row(
        [
            matrix_spec(gradient.grad_w_q, t("learn.gradient.title", w="W_Q", cell=cell), shared, False, 3),
            matrix_spec(gradient.grad_w_k, t("learn.gradient.title", w="W_K", cell=cell), shared, True, 3),
        ],
        keys=["learn_grad_q", "learn_grad_k"],
    )
    reading = tm(
        "learn.gradient.reading",
        i=asker,
        j=looked,
        weight=numbers.fixed(gradient.weight, 3),
        when=t(f"learn.gradient.when_text.{when}"),
        size=numbers.general(model.gradient_size(gradient.grad_w_q, gradient.grad_w_k)),
    )
    if model.saturated(gradient.weight):
        reading += " " + t("learn.gradient.saturated")
    st.markdown(reading)


def roles_ui(training: Training) -> None:
    """Whether the scores became one-way where the target is: S − Sᵀ against T − Tᵀ."""
    st.subheader(t("learn.roles.header"))
    st.markdown(t("learn.roles.body"))
    roles = role_asymmetry(training.run)
    if roles.alignment_start is None or roles.alignment_end is None:
        st.info(t("learn.roles.symmetric"))
        return
    tokens = training.case.tokens
    i, j = roles.pair
    a, b = tokens[i], tokens[j]
    target = training.run.objective.target
    st.markdown(
        tm(
            "learn.roles.pair",
            a=a,
            b=b,
            t_ab=numbers.fixed(target[i, j], 2),
            t_ba=numbers.fixed(target[j, i], 2),
        )
    )
    before, after = t("learn.roles.before"), t("learn.roles.after")
    frame = pd.DataFrame(
        {
            "": [
                t("learn.roles.score", a=a, b=b),
                t("learn.roles.score", a=b, b=a),
                t("learn.roles.weight", a=a, b=b),
                t("learn.roles.weight", a=b, b=a),
            ],
            before: [*roles.scores_pair_start, *roles.weights_pair_start],
            after: [*roles.scores_pair_end, *roles.weights_pair_end],
        }
    )
    table_col, metric_col = st.columns([3, 2])
    with table_col:
        table_ui(frame, 3)
    start, end = roles.alignment_start, roles.alignment_end
    metric_col.metric(
        t("learn.roles.alignment"),
        numbers.fixed(end, 2),
        delta=numbers.fixed(end - start, 2, sign=True),
        help=t("learn.roles.alignment_help"),
    )
    metric_col.caption(t("learn.roles.alignment_start", value=numbers.fixed(start, 2)))
    reading = t(
        "learn.roles.used" if model.roles_used(start, end) else "learn.roles.not_used",
        start=numbers.fixed(start, 2),
        end=numbers.fixed(end, 2),
    )
    st.markdown(reading + " " + t("learn.roles.caveat"))


@st.fragment(key="learn_inside")
def inside_ui() -> None:
    """W_Q and W_K before and after, the gradient of one weight, and the roles of the two matrices."""
    st.header(t("learn.inside.header"))
    training = no_run_ui()
    if training is None:
        return
    st.markdown(t("learn.inside.body"))
    before_after_ui(training.run)
    gradient_ui(training)
    roles_ui(training)
