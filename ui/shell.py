"""What every page starts with: page settings, a shared link's scenario, the sidebar and the page's style.

The sidebar holds the language, presentation mode, the questions switch and the app's own translated menu.
Language and presentation mode live in the URL (?lang=en&present=true), like the walkthrough's step, so a
reload or a shared link keeps them; a lecturer who collapsed the sidebar can always reopen it (Streamlit's
header, with its button, stays in presentation mode), and leaves presentation mode with the button at the top
of the page or Alt+P. The light / dark theme is in the header's menu (⋮).

The language is not a widget bound to the URL (`bind="query-params"` would match the URL against the options'
display names, "English", not their codes): the URL's ?lang= sets it when the page opens, and the radio's
callback writes it back, so the address always says the language shown.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import heap, questions, state
from ui.i18n import LANGUAGE_NAMES, t
from ui.layout import mode_switch_ui, style_ui
from ui.pages import PAGE_BY_KEY, PAGES
from ui.share import apply_link

ICON = str(Path(__file__).resolve().parent.parent / "assets" / "icon.png")
EXIT_PRESENTATION_KEYS = "Alt+P"


def page(key: str) -> None:
    """Set up the page `key` (see ui.pages): call first in every page script."""
    heap.page_started()
    language_from_url()
    st.set_page_config(
        page_title=f"{t(f'page.{key}')} · {t('app.short_title')}",
        page_icon=ICON,
        layout="wide",
        menu_items={"About": t("app.about")},
    )
    apply_link()
    sidebar_ui(key)
    style_ui(state.presentation_mode())
    if state.presentation_mode():
        exit_presentation_ui()
    mode_switch_ui()


def language_from_url() -> None:
    """A link's ?lang=en sets the language (before anything is drawn in it); without one, the URL gets the
    session's language, so that a reload or a copied address keeps it."""
    wanted = st.query_params.get(state.LANG)
    # links shared by an earlier version name the language by its label (?lang=English)
    wanted = next((code for code, name in LANGUAGE_NAMES.items() if name == wanted), wanted)
    if wanted in LANGUAGE_NAMES:
        state.set_language(wanted)
    _language_to_url()


def _language_to_url() -> None:
    language = state.current_language()
    if st.query_params.get(state.LANG) != language:
        st.query_params[state.LANG] = language


def sidebar_ui(current: str) -> None:
    """Language, presentation mode, where the theme is, and the menu of pages (the current one greyed)."""
    with st.sidebar:
        st.radio(
            "Idioma / Language",
            options=list(LANGUAGE_NAMES),
            format_func=LANGUAGE_NAMES.get,
            key=state.LANG,
            horizontal=True,
            on_change=_language_to_url,
            persist_state="session",
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
