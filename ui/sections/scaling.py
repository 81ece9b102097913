"""The √d_k page's sections: why a dot product grows like √d_k, random walks, the measured spread, one row of
softmax with three divisors, and the summary. One section at a time, as tabs that run only while open."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine import (
    RandomWalks,
    Scale,
    ScalingExperiment,
    SoftmaxThreeWays,
    attention,
    divisor_for,
    lesson_scenario,
    peakedness_verdict,
    random_walks,
    scaling_experiment,
    softmax_three_ways,
)
from engine.peakedness import FLAT_EFFECTIVE_SHARE, SATURATED_MAX_WEIGHT, effective_tokens
from ui import charts, numbers, questions, state
from ui.derivation import BLANK, Row, show
from ui.i18n import plural, t
from ui.sliders import number_slider, seed_input
from ui.tables import table_ui
from ui.tabs import open_tab_ui

DK_OPTIONS = (4, 16, 64, 256, 512, 1024, 4096)  # 512: the lesson's "vectores grandes (d=512)"
DEFAULT_DKS = [4, 16, 64, 256, 1024]  # the rows of the lesson's measured table
ROW_DK_DEFAULT = 512  # the lesson's "vectores grandes (d=512)"
WALK_STEPS_DEFAULT = 200
SAMPLE_OPTIONS = (1000, 5000, 20000)
WALK_SEED = 0
SHOWN_WALKS = 30  # paths drawn; the spread is measured over all of them
TYPICAL_SAMPLES, TYPICAL_SEED = 5000, 0  # the "typical" verdict beside one row: the experiment's default average
LESSON_QUERY = "perro"  # the lesson compares this row with and without dividing
LESSON_PRINTED_UNSCALED = (0.222, 0.382, 0.396)  # what the lesson prints for it (wrong: see the walkthrough's errata)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_walks(walks: int, steps: int, seed: int) -> RandomWalks:
    """The random walks, computed once per (walks, steps, seed)."""
    return random_walks(walks, steps, seed)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_experiment(dks: tuple[int, ...], samples: int, seed: int, row_length: int = 8) -> ScalingExperiment:
    """The spread experiment, computed once per choice of d_k values, samples, seed and row length."""
    return scaling_experiment(dks, samples, seed, row_length)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_three_ways(d_k: int, row_length: int, seed: int) -> SoftmaxThreeWays:
    """One random row at d_k with the three divisors, computed once per choice."""
    return softmax_three_ways(d_k, row_length, seed)


def divisor_name(mode: Scale, d_k: int) -> str:
    """A divisor with its value at this d_k: sin dividir, ÷ √d_k = 8, ÷ d_k = 64."""
    divisor = divisor_for(mode, d_k)
    relation = "=" if float(divisor).is_integer() else "≈"  # √512 ≈ 22,627
    return t(f"scaling.divisor.{mode}", value=numbers.short(divisor), relation=relation)


def idea_ui() -> None:
    """Why the size of q·k grows with d_k: it is a sum of d_k products; and the assumption behind √d_k."""
    st.header(t("scaling.why.title"))
    st.markdown(t("scaling.why.body"))
    st.latex(r"q \cdot k = q_1 k_1 + q_2 k_2 + \dots + q_{d_k} k_{d_k}")
    st.markdown(t("scaling.why.cancel"))
    st.info(t("scaling.why.assumption"))


@st.fragment
def random_walk_ui() -> None:
    """Many ±1 walks: after n steps they are typically √n from the start, not n."""
    walks_col, steps_col = st.columns(2)
    walks = number_slider(
        t("scaling.walk.walks"),
        100,
        5000,
        100,
        1000,
        decimals=0,
        where=walks_col,
        key="scaling_walks",
        persist_state="session",
    )
    steps = number_slider(
        t("scaling.walk.steps"),
        10,
        1000,
        10,
        WALK_STEPS_DEFAULT,
        decimals=0,
        where=steps_col,
        key="scaling_steps",
        persist_state="session",
    )
    result = cached_walks(walks, steps, WALK_SEED)
    step_axis = list(range(steps + 1))
    sqrt_name = t("scaling.walk.sqrt_n")
    paths_col, spread_col = st.columns(2)
    with paths_col:
        charts.show_lines(
            step_axis,
            {},
            faint=result.positions[:SHOWN_WALKS],
            band=(-result.sqrt_steps, result.sqrt_steps, t("scaling.walk.band")),
            title=t("scaling.walk.paths_title", shown=numbers.count(min(SHOWN_WALKS, walks))),
            x_title=t("scaling.walk.step_axis"),
            y_title=t("scaling.walk.position_axis"),
            narrow=True,
            alt=t("scaling.walk.paths_alt"),
            key="scaling_paths",
        )
    with spread_col:
        charts.show_lines(
            step_axis,
            {plural("scaling.walk.measured", walks): result.spread, sqrt_name: result.sqrt_steps},
            dashed=(sqrt_name,),
            title=t("scaling.walk.spread_title"),
            x_title=t("scaling.walk.step_axis"),
            y_title=t("scaling.walk.spread_axis"),
            narrow=True,
            alt=t("scaling.walk.spread_alt"),
            key="scaling_spread",
        )
    st.caption(t("scaling.walk.band_caption"))
    reading = plural(
        "scaling.walk.reading",
        steps,
        spread=numbers.fixed(result.spread[-1], 2),
        sqrt=numbers.fixed(result.sqrt_steps[-1], 2),
    )
    st.markdown(reading + "\n\n" + t("scaling.walk.bridge"))


def walk_ui() -> None:
    """The random walk: its heading, the story, and the live walks."""
    st.header(t("scaling.walk.title"))
    st.markdown(t("scaling.walk.body"))
    random_walk_ui()


def spread_frame(result: ScalingExperiment) -> pd.DataFrame:
    """The lesson's measured table: d_k, the spread of q·k, √d_k, and the spread after dividing."""
    return pd.DataFrame(
        {
            t("scaling.col.dk"): result.dks,
            t("scaling.col.spread"): result.spread,
            t("scaling.col.sqrt_dk"): result.sqrt_dk,
            t("scaling.col.scaled"): result.scaled_spread,
        }
    )


def average_frame(result: ScalingExperiment) -> pd.DataFrame:
    """Per d_k and divisor: the average largest weight, the effective tokens, and the verdict."""
    verdicts = peakedness_verdict(result.max_weight, result.entropy, result.uniform_entropy)  # (m, 3)
    effective = effective_tokens(result.entropy)  # (m, 3)
    rows = [
        {
            t("scaling.col.dk"): int(d_k),
            t("scaling.col.divisor"): divisor_name(mode, int(d_k)),
            t("scaling.col.max_weight"): result.max_weight[i, j],
            t("scaling.col.effective", n=numbers.count(result.row_length)): effective[i, j],
            t("scaling.col.verdict"): t(f"scaling.verdict.{verdicts[i, j]}"),
        }
        for i, d_k in enumerate(result.dks)
        for j, mode in enumerate(Scale)
    ]
    return pd.DataFrame(rows)


def rule_ui() -> None:
    """The verdict's rule, the same words under every table that shows a verdict."""
    st.caption(
        t(
            "scaling.rule",
            sat=numbers.short(SATURATED_MAX_WEIGHT),
            flat=numbers.percent(FLAT_EFFECTIVE_SHARE, 0),
        )
    )


@st.fragment
def experiment_ui() -> None:
    """Random q and k of growing size: their dot product spreads like √d_k, and ÷√d_k brings it back to 1."""
    st.header(t("scaling.experiment.title"))
    st.markdown(t("scaling.experiment.body"))
    dk_col, samples_col, seed_col = st.columns([3, 1, 1])
    dks = dk_col.multiselect(
        t("scaling.experiment.dks"),
        DK_OPTIONS,
        default=DEFAULT_DKS,
        format_func=lambda n: numbers.count(n),
        key="scaling_dks",
        persist_state="session",
    )
    samples = samples_col.selectbox(
        t("scaling.experiment.samples"),
        SAMPLE_OPTIONS,
        format_func=lambda n: numbers.count(n),
        help=t("scaling.experiment.samples_help"),
        index=SAMPLE_OPTIONS.index(5000),
        key="scaling_samples",
        persist_state="session",
    )
    seed = seed_input(seed_col, t("scaling.seed"), "scaling_seed")
    if not dks:
        st.info(t("scaling.experiment.pick_one"))
        return
    with st.spinner(t("scaling.experiment.running")):
        result = cached_experiment(tuple(sorted(dks)), samples, seed)
    table_col, plot_col = st.columns([2, 3])
    with table_col:
        table_ui(spread_frame(result), 2)
        st.caption(plural("scaling.experiment.caption", result.samples))
    with plot_col:
        measured, sqrt_name = t("scaling.experiment.measured"), t("scaling.experiment.sqrt_dk")
        charts.show_lines(
            result.dks.tolist(),
            {measured: result.spread, sqrt_name: result.sqrt_dk},
            dashed=(sqrt_name,),
            log_axes=True,
            markers=True,
            title=t("scaling.experiment.plot_title"),
            x_title=t("scaling.col.dk"),
            y_title=t("scaling.experiment.spread_axis"),
            alt=t("scaling.experiment.plot_alt"),
            key="scaling_experiment_plot",
        )
    st.markdown(t("scaling.experiment.reading"))
    st.subheader(t("scaling.average.title"))
    st.markdown(
        plural(
            "scaling.average.body",
            result.row_length,
            rows=plural("scaling.rows", result.samples // result.row_length),
        )
    )
    table_ui(average_frame(result), 2)
    rule_ui()
    st.markdown(t("scaling.average.reading"))


def row_frame(row: SoftmaxThreeWays, typical: ScalingExperiment) -> pd.DataFrame:
    """This row's measures and verdict per divisor, beside the verdict of the average row at the same d_k and n."""
    verdicts = peakedness_verdict(row.max_weight, row.entropy, row.uniform_entropy)  # (3,)
    typical_verdicts = peakedness_verdict(typical.max_weight[0], typical.entropy[0], typical.uniform_entropy)  # (3,)
    n = row.scores.size
    return pd.DataFrame(
        {
            t("scaling.col.divisor"): [divisor_name(mode, row.d_k) for mode in Scale],
            t("scaling.col.max_weight"): row.max_weight,
            t("scaling.col.effective", n=numbers.count(n)): effective_tokens(row.entropy),
            t("scaling.col.verdict"): [t(f"scaling.verdict.{verdict}") for verdict in verdicts],
            t("scaling.col.typical"): [t(f"scaling.verdict.{verdict}") for verdict in typical_verdicts],
        }
    )


def lesson_row_ui() -> None:
    """The lesson's own comparison: the row of "perro" with and without ÷√d_k (d_k = 4), and its reading."""
    scenario = lesson_scenario()
    i = scenario.tokens.index(LESSON_QUERY)
    st.subheader(t("scaling.lesson.title"))
    rows: list[Row | None] = []
    weights = {}
    for mode in (Scale.NONE, Scale.SQRT):
        if rows:
            rows.append(BLANK)
        result = attention(scenario.x, scenario.w_q, scenario.w_k, scenario.w_v, scale=mode)
        weights[mode] = result.weights[i]
        rows.append(Row(t(f"scaling.lesson.{mode}"), "", ""))
        softmax_of = f"softmax({numbers.vector(result.scaled_scores[i])})"
        rows.append(Row(softmax_of, "≈", numbers.vector(result.weights[i], sign=False)))
    show(rows)
    st.markdown(
        t(
            "scaling.lesson.reading",
            unscaled=numbers.percent(weights[Scale.NONE][i]),
            scaled=numbers.percent(weights[Scale.SQRT][i]),
        )
    )
    st.caption(t("scaling.lesson.errata", printed=numbers.vector(LESSON_PRINTED_UNSCALED, sign=False)))


@st.fragment
def three_ways_ui() -> None:
    """One concrete row of scores at the chosen d_k, turned into weights with each of the three divisors."""
    st.header(t("scaling.row.title"))
    lesson_row_ui()
    st.subheader(t("scaling.row.random_title"))
    st.markdown(t("scaling.row.body"))
    dk_col, length_col, seed_col = st.columns(3)
    d_k = dk_col.selectbox(
        t("scaling.row.dk"),
        DK_OPTIONS,
        index=DK_OPTIONS.index(ROW_DK_DEFAULT),
        key="scaling_row_dk",
        persist_state="session",
        format_func=lambda n: numbers.count(n),
    )
    row_length = length_col.slider(
        t("scaling.row.length"), 4, 16, value=8, key="scaling_row_length", persist_state="session"
    )
    seed = seed_input(seed_col, t("scaling.row.seed"), "scaling_row_seed")
    row = cached_three_ways(d_k, row_length, seed)
    st.markdown(t("scaling.row.scores"))
    st.code(numbers.vector(row.scores, 2), language=None)
    groups = {divisor_name(mode, d_k): weights for mode, weights in zip(Scale, row.weights, strict=True)}
    charts.show_bars(
        groups,
        [f"#{j + 1}" for j in range(row_length)],
        title=t("scaling.row.chart_title", d_k=numbers.count(d_k)),
        y_title=t("scaling.row.weight_axis"),
        y_range=(0, 1.15),
        decimals=2,
        alt=t("scaling.row.chart_alt", d_k=numbers.count(d_k)),
        key="scaling_row_chart",
    )
    with st.spinner(t("scaling.experiment.running")):
        typical = cached_experiment((d_k,), TYPICAL_SAMPLES, TYPICAL_SEED, row_length)
    table_ui(row_frame(row, typical), 2)
    rule_ui()
    st.caption(t("scaling.row.typical", rows=plural("scaling.rows", typical.samples // typical.row_length)))
    st.markdown(t("scaling.row.reading"))


def summary_ui() -> None:
    """The page in five lines."""
    st.header(t("scaling.summary.title"))
    st.markdown(t("scaling.summary.body"))


SECTIONS = {"idea": idea_ui, "walk": walk_ui, "experiment": experiment_ui, "row": three_ways_ui, "summary": summary_ui}
SECTION: state.Slot[str] = state.Slot("scaling_section", lambda: "idea")  # the open section (see ui/state.py)


def scaling_setup(section: str) -> questions.ScalingSetup:
    """What a section of this page shows, for its questions: the walk's length, the largest d_k measured, the
    row's d_k (the widgets' values, or their defaults before they are first drawn)."""
    steps = int(state.widget_value("scaling_steps", WALK_STEPS_DEFAULT) or WALK_STEPS_DEFAULT)
    if section == "experiment":
        return questions.ScalingSetup(d_k=int(max(state.widget_value("scaling_dks") or DEFAULT_DKS)), walk_steps=steps)
    if section == "row":
        return questions.ScalingSetup(d_k=int(state.widget_value("scaling_row_dk") or ROW_DK_DEFAULT), walk_steps=steps)
    return questions.ScalingSetup(walk_steps=steps)


def sections_ui() -> None:
    """One section at a time, as tabs that run only when open: a slider step redraws one section, not the whole
    page (Streamlit redraws every element of a page on each run), and a lecturer shows one idea at a time."""
    name, tab = open_tab_ui(list(SECTIONS), "scaling.tab", SECTION, "scaling_tabs")
    with tab:
        if questions.scaling_gate_ui(name, scaling_setup(name)):
            SECTIONS[name]()
