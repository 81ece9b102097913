"""Controls over the shared scenario: presets (lesson, seeded random) and options (scale, mask, temperature)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from engine import Scale
from ui import state
from ui.i18n import t


def presets_ui() -> None:
    """Reset to the lesson's example, or draw seeded random numbers for the same tokens and sizes."""
    reset, seed_col, random_col = st.columns([2, 1, 2], vertical_alignment="bottom")
    reset.button(t("scenario.reset"), on_click=state.reset_scenario, icon=":material/restart_alt:", width="stretch")
    seed = seed_col.number_input(
        t("scenario.seed"),
        min_value=0,
        max_value=2**31 - 1,
        step=1,
        value=0,
        key="random_seed",
        persist_state="session",
    )
    random_col.button(
        t("scenario.random"),
        on_click=state.randomize_scenario,
        args=(int(seed),),
        icon=":material/casino:",
        width="stretch",
    )


def _on_option(field: str, widget_key: str) -> None:
    value = st.session_state[widget_key]
    state.set_scenario(replace(state.get_scenario(), **{field: value}), from_option_widget=True)


def _bind(field: str, widget_key: str) -> dict:
    if widget_key not in st.session_state:
        st.session_state[widget_key] = getattr(state.get_scenario(), field)
    return {"key": widget_key, "on_change": _on_option, "args": (field, widget_key)}


def options_ui() -> None:
    """Scale mode, causal mask and temperature; each change updates every page at once."""
    scale_col, temp_col, mask_col = st.columns([3, 3, 2], vertical_alignment="bottom")
    scale_col.segmented_control(
        t("scenario.scale"),
        options=list(Scale),
        format_func=lambda mode: t(f"scenario.scale.{mode}"),
        required=True,
        **_bind("scale", "opt_scale"),
    )
    temp_col.slider(
        t("scenario.temperature"),
        min_value=0.1,
        max_value=5.0,
        step=0.1,
        help=t("softmax.temperature_help"),
        **_bind("temperature", "opt_temperature"),
    )
    mask_col.toggle(t("scenario.causal"), help=t("scenario.causal_help"), **_bind("causal", "opt_causal"))


def token_select_ui(state_key: str, default: str, label: str, container=st) -> str:
    """Pick one of the scenario's tokens; the choice is kept across pages and follows renames."""
    tokens = list(state.get_scenario().tokens)
    if st.session_state.get(state_key) not in tokens:
        st.session_state[state_key] = default if default in tokens else tokens[min(1, len(tokens) - 1)]
    return container.selectbox(label, tokens, key=state_key, persist_state="session")
