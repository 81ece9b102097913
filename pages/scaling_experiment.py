"""Why divide by √d_k: random walks, the measured spread of q·k, and what each divisor does to softmax."""

import pandas as pd
import streamlit as st

from engine import (
    RandomWalks,
    Scale,
    ScalingExperiment,
    SoftmaxThreeWays,
    divisor_for,
    peakedness_verdict,
    random_walks,
    scaling_experiment,
    softmax_three_ways,
)
from ui import charts, state
from ui.format import plain, vector, written
from ui.i18n import t
from ui.layout import page_header

DK_OPTIONS = (4, 16, 64, 256, 1024, 4096)
DEFAULT_DKS = [4, 16, 64, 256, 1024]  # the rows of the lesson's measured table
SAMPLE_OPTIONS = (1000, 5000, 20000)
MAX_SEED = 2**32 - 1
WALK_SEED = 0
SHOWN_WALKS = 30  # paths drawn; the spread is measured over all of them


@st.cache_data(show_spinner=False, max_entries=32)
def cached_walks(walks: int, steps: int, seed: int) -> RandomWalks:
    return random_walks(walks, steps, seed)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_experiment(dks: tuple[int, ...], samples: int, seed: int) -> ScalingExperiment:
    return scaling_experiment(dks, samples, seed)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_three_ways(d_k: int, row_length: int, seed: int) -> SoftmaxThreeWays:
    return softmax_three_ways(d_k, row_length, seed)


def divisor_name(mode: str, d_k: int) -> str:
    return t(f"scaling.divisor.{mode}", value=f"{divisor_for(mode, d_k):g}")


@st.fragment
def random_walk_ui() -> None:
    """Many ±1 walks: after n steps they are typically √n from the start, not n."""
    walks_col, steps_col = st.columns(2)
    walks = walks_col.slider(
        t("scaling.walk.walks"), 100, 5000, step=100, value=1000, key="scaling_walks", persist_state="session"
    )
    steps = steps_col.slider(
        t("scaling.walk.steps"), 10, 1000, step=10, value=200, key="scaling_steps", persist_state="session"
    )
    result = cached_walks(walks, steps, WALK_SEED)
    step_axis = list(range(steps + 1))
    sqrt_name = t("scaling.walk.sqrt_n")
    paths_col, spread_col = st.columns(2)
    with paths_col:
        figure = charts.lines(
            step_axis,
            {f"+{sqrt_name}": result.sqrt_steps, f"−{sqrt_name}": -result.sqrt_steps},
            faint=result.positions[:SHOWN_WALKS],
            dashed=(f"+{sqrt_name}", f"−{sqrt_name}"),
            title=t("scaling.walk.paths_title", shown=min(SHOWN_WALKS, walks)),
            x_title=t("scaling.walk.step_axis"),
            y_title=t("scaling.walk.position_axis"),
            narrow=True,
        )
        charts.show(figure)
    with spread_col:
        figure = charts.lines(
            step_axis,
            {t("scaling.walk.measured", walks=walks): result.spread, sqrt_name: result.sqrt_steps},
            dashed=(sqrt_name,),
            title=t("scaling.walk.spread_title"),
            x_title=t("scaling.walk.step_axis"),
            y_title=t("scaling.walk.spread_axis"),
            narrow=True,
        )
        charts.show(figure)
    reading = t(
        "scaling.walk.reading", steps=steps, spread=plain(result.spread[-1], 2), sqrt=plain(result.sqrt_steps[-1], 2)
    )
    st.markdown(reading + "\n\n" + t("scaling.walk.bridge"))


def spread_frame(result: ScalingExperiment) -> pd.DataFrame:
    return pd.DataFrame(
        {
            t("scaling.col.dk"): result.dks,
            t("scaling.col.spread"): result.spread,
            t("scaling.col.sqrt_dk"): result.sqrt_dk,
            t("scaling.col.scaled"): result.scaled_spread,
        }
    )


def average_frame(result: ScalingExperiment) -> pd.DataFrame:
    verdicts = peakedness_verdict(result.max_weight, result.entropy, result.uniform_entropy)  # (m, 3)
    rows = [
        {
            t("scaling.col.dk"): int(d_k),
            t("scaling.col.divisor"): divisor_name(mode, int(d_k)),
            t("scaling.col.max_weight"): result.max_weight[i, j],
            t("scaling.col.entropy"): result.entropy[i, j],
            t("scaling.col.verdict"): t(f"scaling.verdict.{verdicts[i, j]}"),
        }
        for i, d_k in enumerate(result.dks)
        for j, mode in enumerate(Scale)
    ]
    return pd.DataFrame(rows)


def table_ui(frame: pd.DataFrame) -> None:
    """A small static table, numbers with 2 decimals as the lesson's tables are. Static, not a data grid: it is
    redrawn at once when a slider changes it (a grid keeps changing its page for 150 ms more)."""
    st.table(written(frame, 2), hide_index=True)


@st.fragment
def experiment_ui() -> None:
    """Random q and k of growing size: their dot product spreads like √d_k, and ÷√d_k brings it back to 1."""
    st.header(t("scaling.experiment.title"))
    st.markdown(t("scaling.experiment.body"))
    dk_col, samples_col, seed_col = st.columns([3, 1, 1])
    dks = dk_col.multiselect(
        t("scaling.experiment.dks"), DK_OPTIONS, default=DEFAULT_DKS, key="scaling_dks", persist_state="session"
    )
    samples = samples_col.selectbox(
        t("scaling.experiment.samples"),
        SAMPLE_OPTIONS,
        help=t("scaling.experiment.samples_help"),
        index=SAMPLE_OPTIONS.index(5000),
        key="scaling_samples",
        persist_state="session",
    )
    seed = seed_col.number_input(
        t("scaling.seed"), min_value=0, max_value=MAX_SEED, step=1, value=0, key="scaling_seed", persist_state="session"
    )
    if not dks:
        st.info(t("scaling.experiment.pick_one"))
        return
    with st.spinner(t("scaling.experiment.running")):
        result = cached_experiment(tuple(sorted(dks)), samples, int(seed))

    table_col, plot_col = st.columns([2, 3])
    with table_col:
        frame = spread_frame(result)
        table_ui(frame)
        st.caption(t("scaling.experiment.caption", samples=result.samples))
    with plot_col:
        measured, sqrt_name = t("scaling.experiment.measured"), t("scaling.experiment.sqrt_dk")
        figure = charts.lines(
            result.dks.tolist(),
            {measured: result.spread, sqrt_name: result.sqrt_dk},
            dashed=(sqrt_name,),
            log_axes=True,
            markers=True,
            title=t("scaling.experiment.plot_title"),
            x_title=t("scaling.col.dk"),
            y_title=t("scaling.experiment.spread_axis"),
        )
        charts.show(figure)
    st.markdown(t("scaling.experiment.reading"))

    st.subheader(t("scaling.average.title"))
    st.markdown(
        t(
            "scaling.average.body",
            n=result.row_length,
            rows=result.samples // result.row_length,
            ln=plain(result.uniform_entropy, 2),
        )
    )
    frame = average_frame(result)
    table_ui(frame)


def row_frame(row: SoftmaxThreeWays) -> pd.DataFrame:
    verdicts = peakedness_verdict(row.max_weight, row.entropy, row.uniform_entropy)  # (3,)
    return pd.DataFrame(
        {
            t("scaling.col.divisor"): [divisor_name(mode, row.d_k) for mode in Scale],
            t("scaling.col.max_weight"): row.max_weight,
            t("scaling.col.entropy"): row.entropy,
            t("scaling.col.verdict"): [t(f"scaling.verdict.{verdict}") for verdict in verdicts],
        }
    )


@st.fragment
def three_ways_ui() -> None:
    """One concrete row of scores at the chosen d_k, turned into weights with each of the three divisors."""
    st.header(t("scaling.row.title"))
    st.markdown(t("scaling.row.body"))
    dk_col, length_col, seed_col = st.columns(3)
    d_k = dk_col.selectbox(
        t("scaling.row.dk"), DK_OPTIONS, index=DK_OPTIONS.index(256), key="scaling_row_dk", persist_state="session"
    )
    row_length = length_col.slider(
        t("scaling.row.length"), 4, 16, value=8, key="scaling_row_length", persist_state="session"
    )
    seed = seed_col.number_input(
        t("scaling.row.seed"),
        min_value=0,
        max_value=MAX_SEED,
        step=1,
        value=0,
        key="scaling_row_seed",
        persist_state="session",
    )
    row = cached_three_ways(d_k, row_length, int(seed))
    st.markdown(t("scaling.row.scores"))
    st.code(vector(row.scores, 2), language=None)
    groups = {divisor_name(mode, d_k): weights for mode, weights in zip(Scale, row.weights, strict=True)}
    labels = [f"#{j + 1}" for j in range(row_length)]
    figure = charts.bars(
        groups,
        labels,
        title=t("scaling.row.chart_title", d_k=d_k),
        y_title=t("scaling.row.weight_axis"),
        y_range=[0, 1.15],
    )
    charts.show(figure)
    frame = row_frame(row)
    table_ui(frame)
    st.caption(t("scaling.row.rule", ln=plain(row.uniform_entropy, 2), n=row_length))
    st.markdown(t("scaling.row.reading"))


def idea_ui() -> None:
    st.header(t("scaling.why.title"))
    st.markdown(t("scaling.why.body"))
    st.latex(r"q \cdot k = q_1 k_1 + q_2 k_2 + \dots + q_{d_k} k_{d_k}")
    st.markdown(t("scaling.why.cancel"))


def walk_ui() -> None:
    st.header(t("scaling.walk.title"))
    st.markdown(t("scaling.walk.body"))
    random_walk_ui()


def summary_ui() -> None:
    st.header(t("scaling.summary.title"))
    st.markdown(t("scaling.summary.body"))


SECTIONS = {"idea": idea_ui, "walk": walk_ui, "experiment": experiment_ui, "row": three_ways_ui, "summary": summary_ui}
SECTION_KEY = "scaling_section"  # the open section, kept across page and language switches


def _on_section(widget_key: str, labels: list[str]) -> None:
    st.session_state[SECTION_KEY] = list(SECTIONS)[labels.index(st.session_state[widget_key])]


def sections_ui() -> None:
    """One section at a time, as tabs that run only when open: a slider step redraws one section, not the
    whole page (Streamlit redraws every element of a page on each run), and a lecturer shows one idea at a
    time."""
    labels = [t(f"scaling.tab.{name}") for name in SECTIONS]
    current = st.session_state.get(SECTION_KEY, "idea")
    widget_key = f"scaling_tabs_{state.current_language()}"  # the labels change with the language
    tabs = st.tabs(
        labels,
        default=labels[list(SECTIONS).index(current)],
        key=widget_key,
        on_change=_on_section,
        args=(widget_key, labels),
    )
    for draw, tab in zip(SECTIONS.values(), tabs, strict=True):
        if tab.open:
            with tab:
                draw()


page_header("scaling.title", "scaling.lead")
sections_ui()
