"""What every page starts with: page settings, a shared link's scenario, the sidebar and the page's style.

The sidebar holds the language, presentation mode, the questions switch and the app's own translated menu.
Language and presentation mode are bound to the URL (?lang=en&present=true), like the walkthrough's step, so a
reload keeps them; a lecturer who collapsed the sidebar can always reopen it (Streamlit's header stays), and
leaves presentation mode with the button at the top of the page or Alt+P.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import questions, state
from ui.heap import freeze_long_lived_objects
from ui.i18n import LANGUAGE_NAMES, t
from ui.layout import style_ui
from ui.pages import PAGE_BY_KEY, PAGES
from ui.share import apply_link

ICON = str(Path(__file__).resolve().parent.parent / "assets" / "icon.png")
EXIT_PRESENTATION_KEYS = "Alt+P"


def page(key: str) -> None:
    """Set up the page `key` (see ui.pages): call first in every page script."""
    st.set_page_config(
        page_title=f"{t(f'page.{key}')} · {t('app.short_title')}",
        page_icon=ICON,
        layout="wide",
        menu_items={"About": t("app.about")},
    )
    freeze_long_lived_objects()  # once per process: see ui/heap.py
    apply_link()
    sidebar_ui(key)
    style_ui(state.presentation_mode())
    if state.presentation_mode():
        exit_presentation_ui()


def sidebar_ui(current: str) -> None:
    with st.sidebar:
        st.radio(
            "Idioma / Language",
            options=list(LANGUAGE_NAMES),
            format_func=LANGUAGE_NAMES.get,
            key=state.LANG,
            horizontal=True,
            bind="query-params",
        )
        st.toggle(
            t("sidebar.presentation"), key=state.PRESENT, help=t("sidebar.presentation_help"), bind="query-params"
        )
        st.caption(t("sidebar.theme_hint"))
        questions.sidebar_ui()
        st.divider()
        for spec in PAGES:
            st.page_link(spec.path, label=t(f"page.{spec.key}"), icon=spec.icon, disabled=spec.key == current)
    assert current in PAGE_BY_KEY, current


def _leave_presentation() -> None:
    state.set_presentation_mode(False)


def exit_presentation_ui() -> None:
    """A small button at the top of the page: presentation mode can always be left, also with the keyboard."""
    st.button(
        t("sidebar.presentation_exit"),
        icon=":material/close_fullscreen:",
        on_click=_leave_presentation,
        shortcut=EXIT_PRESENTATION_KEYS,
        key="exit_presentation",
        type="tertiary",
    )
