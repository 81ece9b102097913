"""Controls over the shared scenario: presets, options (scale, mask, temperature) and the tokens to derive; the
notice that the numbers are the reader's own.

The scenario is the one source of truth for its options: each option widget is drawn from it, keyed by the
scenario's revision (so it shows the new value after a preset, a link or an upload), and writes back to it in
its callback. A widget's own state is never read anywhere else, so a page that does not draw it loses nothing.
"""

from __future__ import annotations

from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import Scale, lesson_scenario, same_numbers
from engine.limits import MAX_KEPT_CODE_CHARS, TEMPERATURE_RANGE, TEMPERATURE_STEP
from engine.scenario_io import encode_scenario
from ui import state
from ui.i18n import t
from ui.numbers import count
from ui.share import fits_in_url
from ui.sliders import number_slider, seed_input


def edited_notice_ui() -> None:
    """Say that the numbers are the reader's own scenario, not the lesson's, and when the address bar cannot keep
    it (a reload or a server restart would lose it), how to keep it. The notice has its place on the page also
    while it is not shown (an empty element): the first edit shows it without moving what comes after, so the
    figures below keep their charts (a block that moves is drawn anew, ui.figure_component)."""
    scenario = state.get_scenario()
    place = st.empty()
    if not same_numbers(scenario, lesson_scenario()):
        place.info(t("scenario.edited"))
    code = encode_scenario(scenario)
    if not fits_in_url(code):
        limit = count(MAX_KEPT_CODE_CHARS)
        st.warning(t("scenario.not_kept", chars=count(len(code)), limit=limit), icon=":material/link_off:")


def presets_ui() -> None:
    """Reset to the lesson's example, or draw seeded random numbers for the same tokens and sizes."""
    reset, seed_col, random_col = st.columns([2, 1, 2], vertical_alignment="bottom")
    reset.button(t("scenario.reset"), on_click=state.reset_scenario, icon=":material/restart_alt:", width="stretch")
    seed = seed_input(seed_col, t("scenario.seed"), "random_seed")
    random_col.button(
        t("scenario.random"),
        on_click=state.randomize_scenario,
        args=(int(seed),),
        icon=":material/casino:",
        width="stretch",
    )


def _on_option(field: str, widget_key: str, rev: int, drawn_with: object) -> None:
    value = state.widget_value(widget_key)
    if value is not None and not state.echoed(widget_key, value, state.drawn_for_this_scenario(rev), drawn_with):
        state.set_option(**{field: value})


def options_ui() -> None:
    """Scale mode, causal mask and temperature; each change updates every page at once."""
    scenario = state.get_scenario()
    rev = state.scenario_rev()
    scale_col, temp_col, mask_col = st.columns([3, 3, 2.5], vertical_alignment="bottom")
    scale_col.segmented_control(
        t("scenario.scale"),
        options=list(Scale),
        format_func=lambda mode: t(f"scenario.scale.{mode}"),
        default=scenario.scale,
        required=True,
        key=f"opt_scale_{rev}",
        on_change=_on_option,
        args=("scale", f"opt_scale_{rev}", rev, scenario.scale),
    )
    number_slider(
        t("scenario.temperature"),
        *TEMPERATURE_RANGE,
        TEMPERATURE_STEP,
        float(scenario.temperature),
        decimals=1,
        where=temp_col,
        help=t("scenario.temperature_help"),
        key=f"opt_temperature_{rev}",
        on_change=_on_option,
        args=("temperature", f"opt_temperature_{rev}", rev, float(scenario.temperature)),
    )
    mask_col.toggle(
        t("scenario.causal"),
        value=scenario.causal,
        help=t("scenario.causal_help"),
        key=f"opt_causal_{rev}",
        on_change=_on_option,
        args=("causal", f"opt_causal_{rev}", rev, scenario.causal),
    )
    mask_link_ui(mask_col)


def mask_link_ui(container: DeltaGenerator | ModuleType = st) -> None:
    """Beside a causal-mask toggle: why a decoder needs it (the multi-head page's «where this step sits»), and that
    the real model, an encoder, does not use it."""
    container.page_link("pages/multihead.py", label=t("where.mask_link"), icon=":material/help:")
    container.caption(t("where.mask_caption"))


def _on_focus(role: str, widget_key: str) -> None:
    value = state.widget_value(widget_key)
    if value is not None:
        state.set_focus(role, value)


def token_select_ui(role: str, default: str, label: str, page: str, container: DeltaGenerator | ModuleType = st) -> str:
    """Pick one of the scenario's tokens as the query ("query") or the key ("key") to derive; the choice is the
    same on every page and follows renames."""
    tokens = list(state.get_scenario().tokens)
    chosen = state.focus(role, default)
    widget_key = f"pick_{role}_{page}_{state.scenario_rev()}"
    return container.selectbox(
        label,
        tokens,
        index=tokens.index(chosen),
        key=widget_key,
        on_change=_on_focus,
        args=(role, widget_key),
    )
