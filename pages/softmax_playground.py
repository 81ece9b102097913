"""Softmax playground: edit scores and temperature; softmax beside the naive division, with the arithmetic."""

import streamlit as st

from engine import largest_to_smallest, naive_normalize, softmax_steps
from ui import charts, state
from ui.derivation import show, softmax_rows
from ui.editors import errors_ui, number_list_editor_ui
from ui.format import general, plain, vector
from ui.i18n import t
from ui.layout import page_header

SCORES_KEY = "softmax_scores"
PRESETS = {"lesson": [2.0, 5.0, 1.0], "negative": [2.0, -1.0, -3.0], "huge": [1000.0, 1001.0]}


@st.fragment
def results_ui(scores, naive) -> None:
    """Temperature, the chart, the weights and the arithmetic. A fragment: a temperature step reruns and redraws
    only this part, written as few elements as reads well; an edit of the scores reruns the page."""
    slider_col, chart_col = st.columns([1, 2])
    with slider_col:
        temperature = st.slider(
            t("softmax.temperature"),
            min_value=0.1,
            max_value=5.0,
            step=0.1,
            help=t("softmax.temperature_help"),
            value=1.0,
            key="softmax_temperature",
            persist_state="session",
        )
        steps = softmax_steps(scores, temperature)
        st.markdown(f"**{t('softmax.softmax.title')}**  \n" + t("softmax.check", total=plain(steps.weights_sum)))
        st.code(vector(steps.weights, sign=False), language=None)
    with chart_col:
        groups = {t("softmax.chart.softmax"): steps.weights}
        if naive.shares is not None:
            groups[t("softmax.chart.naive")] = naive.shares
        labels = [f"#{i + 1}" for i in range(scores.size)]
        charts.show(charts.bars(groups, labels, title=t("softmax.chart.title"), y_title=t("softmax.chart.y")))
    notes = [f"### {t('softmax.steps.title')}", t("softmax.steps.body")]
    if temperature != 1.0:
        notes.append(t("softmax.steps.tempered", t=f"{temperature:g}"))
    st.markdown("\n\n".join(notes))
    if steps.overflow:
        st.warning(t("softmax.steps.shifted", shift=general(steps.shift)))
    show(softmax_rows(steps, labels))


def naive_ui(scores, naive) -> None:
    """Dividing by the sum: what it gives for these scores, and where it breaks. It does not depend on T."""
    st.markdown(f"**{t('softmax.naive.title')}**  \n" + t("softmax.total", total=general(naive.total)))
    if naive.shares is not None:
        st.code(vector(naive.shares), language=None)
    for problem in naive.problems:
        st.error(t(f"softmax.naive.problem.{problem}"))
    if naive.valid:
        st.info(
            t(
                "softmax.naive.ok",
                naive=general(largest_to_smallest(naive.shares)),
                soft=general(largest_to_smallest(softmax_steps(scores).weights)),
            )
        )


page_header("softmax.title", "softmax.lead")
scores_col, formula_col = st.columns([1, 2])
with scores_col:
    st.subheader(t("softmax.scores"))
    for name, values in PRESETS.items():
        st.button(
            t(f"softmax.preset.{name}"),
            on_click=state.set_list,
            args=(SCORES_KEY, values),
            key=f"preset_{name}",
            width="stretch",
        )
    scores = number_list_editor_ui(SCORES_KEY, PRESETS["lesson"], t("softmax.score_column"))
    errors_ui()
naive = naive_normalize(scores)
with formula_col:
    st.subheader(t("softmax.formula.title"))
    st.markdown(t("softmax.formula.body"))
    st.latex(r"\mathrm{softmax}(x_i) = \frac{e^{x_i / T}}{\sum_j e^{x_j / T}}")
    naive_ui(scores, naive)
results_ui(scores, naive)

negative_example = PRESETS["negative"]
negative = naive_normalize(negative_example)
huge_example = PRESETS["huge"]
huge = softmax_steps(huge_example)
with st.container(border=True):
    st.subheader(t("softmax.negative.title"))
    st.markdown(
        t(
            "softmax.negative.body",
            scores=vector(negative_example, 1),
            total=general(negative.total),
            weights=vector(softmax_steps(negative_example).weights, sign=False),
        )
    )
with st.container(border=True):
    st.subheader(t("softmax.huge.title"))
    st.markdown(
        t(
            "softmax.huge.body",
            scores=vector(huge_example, 0),
            naive=general(huge.naive_exps[0]),
            weights=vector(huge.weights, sign=False),
        )
    )
