"""A page's sections as tabs, one at a time: only the open tab's section runs, so a control redraws one section,
not the whole page (Streamlit redraws every element of a run), and a lecturer shows one idea at a time."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui import state
from ui.i18n import t


def _on_tab(widget_key: str, names: Sequence[str], labels: list[str], kept: state.Slot[str]) -> None:
    kept.set(names[labels.index(state.widget_value(widget_key))])


def open_tab_ui(names: Sequence[str], prefix: str, kept: state.Slot[str], key: str) -> tuple[str, DeltaGenerator]:
    """Tabs named `prefix.<name>` in the reader's language, the open one kept in `kept` for the session. The
    widget is keyed `key_<language>` (its labels change with the language). Returns the open tab's name and the
    tab to draw it in."""
    labels = [t(f"{prefix}.{name}") for name in names]
    current = kept.get()
    widget_key = f"{key}_{state.current_language()}"
    tabs = st.tabs(
        labels,
        default=labels[names.index(current)],
        key=widget_key,
        on_change=_on_tab,
        args=(widget_key, names, labels, kept),
    )
    opened = [(name, tab) for name, tab in zip(names, tabs, strict=True) if tab.open]
    return opened[0] if opened else (current, tabs[names.index(current)])
