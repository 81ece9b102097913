"""The softmax page's sections: scores in, the naive division beside softmax, the arithmetic, odd inputs."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from engine import Scale, attention, derivation, lesson_scenario, naive_normalize, softmax_steps
from engine.limits import TEMPERATURE_RANGE, TEMPERATURE_STEP
from engine.peakedness import row_reading
from ui import charts, numbers, state
from ui.derivation import show, softmax_rows
from ui.editors import errors_ui, number_list_editor_ui
from ui.i18n import t
from ui.sliders import number_slider

SCORES = "softmax_scores"
LESSON_QUERY = "perro"  # the lesson's worked row: its scores, before ÷√d_k


def lesson_row_scores() -> list[float]:
    """The scores of the lesson's row of "perro", not divided: with T = √d_k = 2 they give part 4's weights."""
    scenario = lesson_scenario()
    result = attention(scenario.x, scenario.w_q, scenario.w_k, scenario.w_v, scale=Scale.NONE)
    return [float(v) for v in result.scores[scenario.tokens.index(LESSON_QUERY)]]


PRESETS = {
    "lesson": [2.0, 5.0, 1.0],
    "negative": [2.0, -1.0, -3.0],
    "huge": [1000.0, 1001.0],
    "perro": lesson_row_scores(),
}


def scores_ui() -> np.ndarray:
    """Presets and the editable scores; returns the current scores."""
    st.subheader(t("softmax.scores"))
    for name, values in PRESETS.items():
        st.button(
            t(f"softmax.preset.{name}", scores=numbers.short_vector(values)),
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
    """What softmax does, in words and as the formula."""
    st.subheader(t("softmax.formula.title"))
    st.markdown(t("softmax.formula.body"))
    st.latex(r"\mathrm{softmax}(x_i) = \frac{e^{x_i / T}}{\sum_j e^{x_j / T}}")


def times(written: str) -> str:
    """How many times one weight is another: 54,6 veces / 54.6 times; "lo mismo que" when that writes as 1."""
    return t("softmax.times.same") if written == numbers.short(1) else t("softmax.times.ratio", n=written)


def ratio_text(ratio: float) -> str:
    """A ratio of weights: one decimal from 10 on, two below, a × 10ⁿ from a million on."""
    return numbers.general(ratio) if ratio >= 1e6 else numbers.short(ratio, 1 if ratio >= 10 else 2)


def exp_text(gap: float) -> str:
    """e^gap written as a ratio, also where it no longer fits in a float64 (e^1000 ≈ 1,97 × 10⁴³⁴)."""
    if gap < 700:
        return ratio_text(math.exp(gap))
    exponent = math.floor(gap / math.log(10))
    mantissa = 10 ** (gap / math.log(10) - exponent)
    return f"{numbers.short(mantissa, 2)} × 10{numbers.superscript(exponent)}"


def naive_ui(scores: np.ndarray) -> None:
    """Dividing by the sum: what it gives for these scores, and where it breaks. It does not depend on T."""
    naive = naive_normalize(scores)
    st.markdown(f"**{t('softmax.naive.title')}**  \n" + t("softmax.total", total=numbers.general(naive.total)))
    if naive.shares is not None:
        st.code(numbers.vector(naive.shares, sign=False), language=None)
    for problem in naive.problems:
        st.error(t(f"softmax.naive.problem.{problem}"))
    if naive.valid:
        assert naive.shares is not None  # a sum of 0 is a problem, so valid shares exist
        st.info(comparison_text(scores, naive.shares))


def comparison_text(scores: np.ndarray, shares: np.ndarray) -> str:
    """How many times the top score weighs the lowest: with the division (their ratio) and with softmax at T = 1
    (e to their difference), in words that are true for these scores."""
    gap = float(scores.max() - scores.min())
    if gap == 0:
        return t("softmax.naive.ok_equal")
    soft_words = times(exp_text(gap))
    gap_text = numbers.general(gap)
    power = f"({gap_text})" if " " in gap_text else gap_text  # e^(1 × 10⁻⁴), not e^1 × 10⁻⁴
    params = {"gap": gap_text, "power": power, "soft": soft_words}
    if shares.min() == 0:
        return t("softmax.naive.ok_zero", **params)
    ratio = float(shares.max() / shares.min())
    naive_words = times(ratio_text(ratio))
    if naive_words == soft_words:
        key = "softmax.naive.ok_same"
    else:
        key = "softmax.naive.ok_wider" if gap > math.log(ratio) else "softmax.naive.ok_narrower"
    return t(key, naive=naive_words, **params)


def reading(weights: np.ndarray, scores: np.ndarray, labels: list[str]) -> str:
    """The lesson's kind of reading after a softmax row: who takes how much, and what kind of split it is."""
    if weights.size == 1:
        return t("softmax.reading.single")
    if scores.max() == scores.min():
        return t("softmax.reading.equal", share=numbers.percent(weights[0]))
    top, low = int(weights.argmax()), int(weights.argmin())
    text = t(
        "softmax.reading",
        top=labels[top],
        top_score=numbers.short(scores[top]),
        top_share=numbers.percent(weights[top]),
        low=labels[low],
        low_score=numbers.short(scores[low]),
        low_share=numbers.percent(weights[low]),
    )
    return f"{text} {t(f'softmax.reading.{row_reading(weights)}')}"


@st.fragment
def results_ui(scores: np.ndarray) -> None:
    """Temperature, the chart, the weights and the arithmetic: a temperature step reruns only this fragment."""
    naive = naive_normalize(scores)
    slider_col, chart_col = st.columns([1, 2])
    with slider_col:
        temperature = number_slider(
            t("softmax.temperature"),
            *TEMPERATURE_RANGE,
            TEMPERATURE_STEP,
            1.0,
            decimals=1,
            help=t("scenario.temperature_help"),
            key="softmax_temperature",
            persist_state="session",
        )
        st.caption(t("softmax.temperature_note"))
        steps = softmax_steps(scores, temperature)
        st.markdown(
            f"**{t('softmax.softmax.title')}**  \n" + t("softmax.check", total=numbers.short(steps.weights_sum))
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
    st.info(reading(steps.weights, scores, labels))
    st.caption(t("softmax.attention_link"))


def code_ui() -> None:
    """The few numpy lines the engine runs for one row, folded."""
    with st.expander(t("softmax.code")):
        st.code(t("softmax.code.body"), language="python", wrap_lines=True)


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
