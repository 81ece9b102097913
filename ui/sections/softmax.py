"""The softmax page's sections: scores in, the naive division beside softmax, the arithmetic, odd inputs."""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine import derivation, largest_to_smallest, naive_normalize, softmax_steps
from engine.limits import TEMPERATURE_RANGE, TEMPERATURE_STEP
from ui import charts, numbers, state
from ui.derivation import show, softmax_rows
from ui.editors import errors_ui, number_list_editor_ui
from ui.i18n import t

SCORES = "softmax_scores"
PRESETS = {"lesson": [2.0, 5.0, 1.0], "negative": [2.0, -1.0, -3.0], "huge": [1000.0, 1001.0]}


def scores_ui() -> np.ndarray:
    """Presets and the editable scores; returns the current scores."""
    st.subheader(t("softmax.scores"))
    for name, values in PRESETS.items():
        st.button(
            t(f"softmax.preset.{name}"),
            on_click=state.set_list,
            args=(SCORES, values),
            key=f"preset_{name}",
            width="stretch",
        )
    scores = number_list_editor_ui(SCORES, PRESETS["lesson"], t("softmax.score_column"))
    errors_ui()
    st.caption(t("softmax.scores_now", scores=numbers.short_vector(scores)))
    return scores


def recipe_ui() -> None:
    st.subheader(t("softmax.formula.title"))
    st.markdown(t("softmax.formula.body"))
    st.latex(r"\mathrm{softmax}(x_i) = \frac{e^{x_i / T}}{\sum_j e^{x_j / T}}")


def naive_ui(scores: np.ndarray) -> None:
    """Dividing by the sum: what it gives for these scores, and where it breaks. It does not depend on T."""
    naive = naive_normalize(scores)
    st.markdown(f"**{t('softmax.naive.title')}**  \n" + t("softmax.total", total=numbers.general(naive.total)))
    if naive.shares is not None:
        st.code(numbers.vector(naive.shares), language=None)
    for problem in naive.problems:
        st.error(t(f"softmax.naive.problem.{problem}"))
    if naive.valid:
        ratio_naive = largest_to_smallest(naive.shares)
        ratio_soft = largest_to_smallest(softmax_steps(scores).weights)
        key = "softmax.naive.ok_wider" if ratio_soft > ratio_naive else "softmax.naive.ok_narrower"
        st.info(t(key, naive=numbers.general(ratio_naive), soft=numbers.general(ratio_soft)))


@st.fragment
def results_ui(scores: np.ndarray) -> None:
    """Temperature, the chart, the weights and the arithmetic: a temperature step reruns only this fragment."""
    naive = naive_normalize(scores)
    slider_col, chart_col = st.columns([1, 2])
    with slider_col:
        temperature = st.slider(
            t("softmax.temperature"),
            min_value=TEMPERATURE_RANGE[0],
            max_value=TEMPERATURE_RANGE[1],
            step=TEMPERATURE_STEP,
            help=t("scenario.temperature_help"),
            value=1.0,
            key="softmax_temperature",
            persist_state="session",
        )
        steps = softmax_steps(scores, temperature)
        st.markdown(
            f"**{t('softmax.softmax.title')}**  \n" + t("softmax.check", total=numbers.fixed(steps.weights_sum))
        )
        st.code(numbers.vector(steps.weights, sign=False), language=None)
    labels = [f"#{i + 1}" for i in range(scores.size)]
    with chart_col:
        groups = {t("softmax.chart.softmax"): steps.weights}
        if naive.shares is not None:
            groups[t("softmax.chart.naive")] = naive.shares
        charts.show_bars(
            groups,
            labels,
            title=t("softmax.chart.title"),
            y_title=t("softmax.chart.y"),
            alt=t("softmax.chart.alt", weights=numbers.vector(steps.weights, sign=False)),
            key="softmax_chart",
        )
    st.markdown(f"### {t('softmax.steps.title')}\n\n{t('softmax.steps.body')}")
    if temperature != 1.0:
        st.markdown(t("softmax.steps.tempered", t=numbers.short(temperature, 2)))
    written = derivation.softmax_row(scores, temperature, exact=steps.weights)
    if written.shift is not None:
        st.warning(t("softmax.steps.shifted", shift=numbers.short(written.shift, 3, sign=True)))
    show(softmax_rows(written, labels))
    st.caption(t("softmax.attention_link"))


def odd_inputs_ui() -> None:
    """Negative scores and huge ones: where dividing by the sum fails and softmax does not."""
    negative = PRESETS["negative"]
    with st.container(border=True):
        st.subheader(t("softmax.negative.title"))
        st.markdown(
            t(
                "softmax.negative.body",
                scores=numbers.short_vector(negative),
                total=numbers.short(naive_normalize(negative).total),
                weights=numbers.vector(softmax_steps(negative).weights, sign=False),
            )
        )
    huge = PRESETS["huge"]
    with st.container(border=True):
        st.subheader(t("softmax.huge.title"))
        st.markdown(
            t(
                "softmax.huge.body",
                scores=numbers.short_vector(huge),
                naive=numbers.general(softmax_steps(huge).naive_exps[0]),
                weights=numbers.vector(softmax_steps(huge).weights, sign=False),
            )
        )
