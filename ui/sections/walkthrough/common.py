"""What the walkthrough's parts share: the tokens derived (the same on every page), the order of text and
figure on a projector, how many characters a derivation's line may take, the inputs and the code under a part."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import Scenario
from ui import charts, state
from ui.figure_specs import Heatmap
from ui.i18n import t
from ui.scenario_controls import token_select_ui
from ui.view_models import walkthrough as model


def share_columns(share: float, columns: int = 2) -> int:
    """Characters a derivation's line may take in a column holding `share` of a row of `columns` columns."""
    return model.share_columns(share, state.presentation_mode(), columns)


def derivation_columns(figure: Heatmap) -> int:
    """Characters a derivation's line may take beside `figure` in presentation mode's main row."""
    return model.beside_columns(charts.heatmap_figure(figure).layout.width or 0)


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
    for block in (first, second):
        if block is main:
            with charts.numbers_after():  # the main figure sits beside its derivation: its numbers come under both
                main()
        else:
            block()


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
