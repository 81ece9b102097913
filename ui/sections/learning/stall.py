"""The learning page's stall tab: the lesson's claim that training stalls without dividing, measured two ways
(it holds with the loss at the output, not with the loss on the weights)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from engine import StallExperiment, TrainingRun
from engine.peakedness import SATURATED_MAX_WEIGHT
from ui import charts, numbers
from ui.i18n import plural, t
from ui.sections.learning.common import written
from ui.sliders import seed_input
from ui.tables import table_ui
from ui.view_models import learning as model
from ui.view_models.learning import Stall, padded


@st.cache_data(show_spinner=False, max_entries=16)
def cached_stall(d_k: int, seed: int) -> Stall:
    """The experiment at d_k with this seed, measured once per server (it trains four runs)."""
    return model.stall(d_k, seed)


def run_fate(run: TrainingRun) -> str:
    """How a run of the experiment ended, in words: converged at a step, diverged, or stuck."""
    fate = model.run_fate(run)
    if fate == "diverged":
        return t("learn.stall.fate.diverged", step=numbers.count(run.steps))
    if fate == "converged":
        assert run.converged_at is not None
        return t("learn.stall.fate.converged", step=numbers.count(run.converged_at), tol=numbers.short(run.tolerance))
    return t(
        "learn.stall.fate.stuck",
        start=numbers.fixed(run.losses[0], 3),
        end=numbers.fixed(run.losses[-1], 3),
        tol=numbers.short(run.tolerance),
    )


def start_text(experiment: StallExperiment) -> str:
    """How peaked the rows start, each with its verdict by the √d_k page's rule."""
    start = model.stall_start(experiment)
    return t(
        "learn.stall.output.start",
        none_start=t(f"peak.rows.{start.none_start.verdict}"),
        peak_none=numbers.fixed(start.none_start.max_weight),
        effective_none=numbers.fixed(start.none_start.effective, 2),
        n=numbers.count(experiment.n),
        none_next=t(f"peak.rows.{start.none_next.verdict}"),
        peak_next=numbers.fixed(start.none_next.max_weight),
        sqrt_start=t(f"peak.rows.{start.sqrt_start.verdict}"),
        peak_sqrt=numbers.fixed(start.sqrt_start.max_weight),
        effective_sqrt=numbers.fixed(start.sqrt_start.effective, 2),
        sat=numbers.short(SATURATED_MAX_WEIGHT),
    )


def stall_frame(stall: Stall) -> pd.DataFrame:
    """The experiment's key numbers side by side: saturation, gradient, loss and convergence."""
    experiment: StallExperiment = stall.experiment
    runs = (experiment.unscaled, experiment.scaled)
    step = stall.gradient_step
    return pd.DataFrame(
        {
            t("learn.stall.col.divisor"): [t("learn.series.none"), t("learn.series.sqrt")],
            t("learn.stall.col.peak", step=numbers.count(0)): experiment.peak_weight[:, 0],
            t("learn.stall.col.peak", step=numbers.count(1)): experiment.peak_weight[:, 1],
            t("learn.stall.col.gradient", step=numbers.count(step)): [
                numbers.general(run.gradient_norms[min(step, run.steps), 0]) for run in runs
            ],
            t("learn.stall.col.loss_end", step=numbers.count(experiment.unscaled.steps)): [
                run.losses[-1] for run in runs
            ],
            t("learn.stall.col.converged", tol=numbers.short(experiment.unscaled.tolerance)): [
                numbers.count(run.converged_at) if run.converged_at is not None else "—" for run in runs
            ],
        }
    )


def pair_chart(names: tuple[str, str], histories: tuple[np.ndarray, np.ndarray], length: int, **options: Any) -> None:
    """Two runs' histories over `length` steps, without dividing and with ÷√d_k (a run cut short ends in gaps)."""
    series = {name: padded(history, length) for name, history in zip(names, histories, strict=True)}
    charts.show_lines(list(range(length)), series, x_title=t("learn.chart.step"), narrow=True, **options)


@st.fragment(key="learn_stall")
def stall_ui() -> None:
    """The lesson's claim, measured: it holds with the loss at the output, not with the loss on the weights."""
    st.header(t("learn.stall.header"))
    st.markdown(t("learn.stall.body"))
    dk_col, seed_col = st.columns(2)
    d_k = dk_col.selectbox(
        t("learn.stall.d_k"),
        model.STALL_D_KS,
        index=model.STALL_D_KS.index(model.STALL_DEFAULT_D_K),
        format_func=written(numbers.count),
        key="learn_stall_dk",
        persist_state="session",
    )
    seed = seed_input(seed_col, t("learn.seed"), "learn_stall_seed")
    with st.spinner(t("learn.stall.running")):
        stall = cached_stall(int(d_k), int(seed))
    experiment = stall.experiment
    unscaled, scaled = experiment.unscaled, experiment.scaled
    length, count = stall.length, numbers.count(d_k)
    names = (t("learn.series.none"), t("learn.series.sqrt_value", value=numbers.short(math.sqrt(d_k), 2)))

    verdict = model.stall_verdict(unscaled, scaled)
    st.subheader(t(f"learn.stall.output.header.{verdict}"))
    st.markdown(
        plural(
            "learn.stall.output.body",
            experiment.n,
            d_k=count,
            rate=numbers.short(unscaled.learning_rate),
            steps=numbers.count(unscaled.steps),
        )
    )
    loss_col, gradient_col = st.columns(2)
    with loss_col:
        pair_chart(
            names,
            (unscaled.losses, scaled.losses),
            length,
            title=t("learn.stall.output.loss_title"),
            y_title=t("learn.stall.output.loss_axis"),
            alt=t("learn.stall.output.loss_alt", d_k=count),
            key="learn_stall_loss",
        )
    with gradient_col:
        pair_chart(
            names,
            (unscaled.gradient_norms[:, 0], scaled.gradient_norms[:, 0]),
            length,
            title=t("learn.stall.output.gradient_title"),
            y_title=t("learn.stall.output.gradient_axis"),
            alt=t("learn.stall.output.gradient_alt", d_k=count),
            key="learn_stall_gradient",
        )
    table_ui(stall_frame(stall), 3)
    st.markdown(
        t("learn.stall.output.reading", none=run_fate(unscaled), sqrt=run_fate(scaled))
        + " "
        + start_text(experiment)
        + " "
        + t(f"learn.stall.output.{verdict}", d_k=count, steps=numbers.count(unscaled.steps))
    )

    st.subheader(t(f"learn.stall.weights.header.{model.run_fate(stall.on_weights_unscaled)}"))
    st.markdown(t("learn.stall.weights.body"))
    st.latex(r"\frac{\partial L}{\partial z_{ij}} = \frac{A_{ij} - T_{ij}}{n}")
    on_weights = (stall.on_weights_unscaled, stall.on_weights_scaled)
    pair_chart(
        names,
        (on_weights[0].losses, on_weights[1].losses),
        length,
        title=t("learn.stall.weights.loss_title"),
        y_title=t("learn.chart.loss_axis"),
        alt=t("learn.stall.weights.loss_alt", d_k=count),
        key="learn_stall_ce",
    )
    st.markdown(t("learn.stall.weights.reading", none=run_fate(on_weights[0]), sqrt=run_fate(on_weights[1])))
    st.markdown(t("learn.stall.conclusion"))
