"""The multi-head page's start: the input, the number of heads and their preset, what h heads cost against one,
the parts as tabs, and MultiHead(x) run once for all of them."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import EngineInputError, MultiHeadResult, attention_cost, head_counts
from engine.questions import MultiHeadView
from ui import charts, numbers, state
from ui.charts import shape
from ui.i18n import plural, t
from ui.sections.multihead.common import choice_ui, labels
from ui.sections.multihead.concat import current_w_o
from ui.sliders import seed_input
from ui.tables import table_ui
from ui.tabs import open_tab_ui
from ui.view_models import multihead as model
from ui.view_models.multihead import Heads, Source

# The open part (tab), documented in ui/state.py.
PART: state.Slot[str] = state.Slot("mh_part", lambda: model.PARTS[0])


def source_ui() -> Source:
    """The input: the shared scenario (the walkthrough's and the builder's) or the longer sentence; x on demand."""
    kinds = model.SOURCES
    kind = choice_ui(st, t("mh.source"), kinds, labels("mh.source", kinds), "source", kinds[0])
    source = model.source_of(state.get_scenario(), kind)
    st.caption(
        plural(
            "mh.source.options",
            source.n,
            d_model=numbers.count(source.d_model),
            scale=t(f"scenario.scale.{source.scale}"),
            mask=t("mh.mask.on" if source.causal else "mh.mask.off"),
            temperature=numbers.short(source.temperature, 2),
        )
    )
    inputs = st.expander(t("mh.source.x", shape=shape(source.n, source.d_model)), key="mh_x_open", on_change="rerun")
    if inputs.open:
        with inputs:
            charts.show_heatmap(charts.token_map(source.x, source.tokens, charts.shaped("x", source.x)), key="mh_x")
    return source


def heads_controls_ui(source: Source) -> tuple[int, str, int]:
    """The number of heads h among the divisors of d_model, the preset, and the seed of the random heads."""
    counts = head_counts(source.d_model)
    h_col, preset_col, seed_col = st.columns([1, 3, 1], vertical_alignment="bottom")
    h = h_col.selectbox(
        t("mh.h"),
        counts,
        index=counts.index(model.default_heads(source.d_model)),
        help=t("mh.h_help", d_model=numbers.count(source.d_model)),
        key=f"mh_h_{source.d_model}",
        persist_state="session",
    )
    presets = model.presets_for(source, state.get_scenario())
    preset = choice_ui(
        preset_col, t("mh.preset"), presets, labels("mh.preset", presets), "preset", model.PRESETS[0], f"_{source.kind}"
    )
    seed = 0
    if preset != "designed":
        seed = seed_input(seed_col, t("mh.seed"), "mh_seed")
    return int(h), preset, seed


def build_heads(source: Source, h: int, preset: str, seed: int) -> Heads:
    """The heads of `preset` for this input (head 1 of the "scenario" preset is the shared scenario's)."""
    return model.build_heads(source, h, preset, seed, state.get_scenario())


def cost_ui(source: Source, h: int) -> None:
    """Each head's width, and why h heads cost what one big head costs: the engine's multiply-add counts."""
    n, d_model = source.n, source.d_model
    st.markdown(t("mh.h.sizes", h=numbers.count(h), d_model=numbers.count(d_model), d_k=numbers.count(d_model // h)))
    one, many = attention_cost(n, d_model, 1), attention_cost(n, d_model, h)
    st.markdown(t("mh.cost.body"))
    st.latex(r"h \cdot n^2 \cdot \frac{d_{model}}{h} \;=\; n^2 \cdot d_{model}")
    rows = model.COST_ROWS
    columns = {
        t("mh.cost.col.what"): [t(f"mh.cost.{row}") for row in rows],
        t("mh.cost.col.one", d_k=numbers.count(d_model)): [getattr(one, row) for row in rows],
    }
    if h > 1:  # with one head the h-heads column is the one-head column
        columns[t("mh.cost.col.many", h=numbers.count(h), d_k=numbers.count(d_model // h))] = [
            getattr(many, row) for row in rows
        ]
    frame = pd.DataFrame(columns)
    table_ui(frame)
    st.markdown(
        plural(
            "mh.cost.reading",
            h,
            n2=numbers.count(n * n),
            d_k=numbers.count(d_model // h),
            scores=numbers.count(many.scores),
            d_model=numbers.count(d_model),
            one_exp=numbers.count(one.exponentials),
            many_exp=numbers.count(many.exponentials),
        )
    )


def part_ui() -> tuple[str, DeltaGenerator]:
    """The parts after h and the preset as tabs, only the open one drawn: changing h or the preset redraws one part,
    not the page, and a lecturer shows one idea at a time. Returns the open part's name and its tab."""
    return open_tab_ui(model.PARTS, "mh.part", PART, "mh_tabs")


def run_or_stop(source: Source, heads: Heads) -> MultiHeadResult:
    """MultiHead(x) with the current W_O (and layer norm, shown on demand), or a message and the end of the part."""
    try:
        return model.run(source, heads, current_w_o(heads.concat_width, source.d_model))
    except EngineInputError as error:
        st.warning(t("mh.error", code=error.code))
        st.stop()
        raise


def question_view(source: Source, result: MultiHeadResult) -> MultiHeadView:
    """What this page's questions are about: its tokens and the heads' result, as the page shows them."""
    return MultiHeadView(source.tokens, result)
