"""What every page starts with: page settings, a shared link's scenario, the sidebar and the page's style.

The sidebar holds the language, presentation mode, the questions switch and the app's own translated menu. These
settings, and the walkthrough's part, live in the URL too (?lang=en&present=true&questions_on=false&step=3: ui.url
keeps them, whichever way they were set), so a page switch, a reload or a shared link keeps them; a lecturer who
collapsed the sidebar can always reopen it (Streamlit's header, with its button, stays in presentation mode), and
leaves presentation mode with the button at the top of the page or Alt+P. The light / dark theme is in the
header's menu (⋮).
"""

from __future__ import annotations

import base64
from pathlib import Path

import streamlit as st

from ui import heap, questions, served, state, theme_message, url
from ui.document import document_ui
from ui.i18n import LANGUAGE_NAMES, t
from ui.layout import mode_switch_ui, style_ui
from ui.live import follow, panels, seats
from ui.pages import PAGE_BY_KEY, PAGES
from ui.reconnect import reconnect_ui

ICON_FILE = Path(__file__).resolve().parent.parent / "assets" / "icon.png"
# The tab's icon goes inside the page's settings as a data URL (338 bytes of PNG). Given a file, Streamlit reads and
# hashes it in every run and the browser fetches it again from the server after every run (/media/..., sent without a
# cache header): a walkthrough's first page fetched it 10 times.
ICON = "data:image/png;base64," + base64.b64encode(ICON_FILE.read_bytes()).decode("ascii")
EXIT_PRESENTATION_KEYS = "Alt+P"
LANGUAGE_CHOICE = "lang_choice"  # the language radio (the language itself is ui.state's)


def page(key: str) -> None:
    """Set up the page `key` (see ui.pages): call first in every page script."""
    heap.page_started()
    served.serve_files()  # after a start, plotly.js is packed (in a thread) while this first page runs
    theme_message.install()  # from the next run on, every run's new_session message takes its theme ready-made
    url.settings_from_url(key)
    st.set_page_config(
        page_title=f"{t(f'page.{key}')} · {t('app.short_title')}",
        page_icon=ICON,
        layout="wide",
        # inside a learning platform's frame (?embed=true, the share box's embed code) the page gets the frame's
        # width: the sidebar starts folded, one » away
        initial_sidebar_state="collapsed" if st.context.is_embedded else "auto",
        menu_items={"About": t("app.about")},
    )
    follow.start_ui(key)
    sidebar_ui(key)
    style_ui(state.presentation_mode())
    if state.presentation_mode():
        exit_presentation_ui()
    mode_switch_ui()
    follow.publish(key)
    seats.errors_ui()


def _language_chosen() -> None:
    state.set_language(state.widget_value(LANGUAGE_CHOICE))


def sidebar_ui(current: str) -> None:
    """Language, presentation mode, where the theme is, and the menu of pages (the current one greyed); the
    document's `lang` set to the reader's language, its scrolling boxes reachable by keyboard (ui.document)."""
    with st.sidebar:
        state.set_widget(LANGUAGE_CHOICE, state.current_language())
        st.radio(
            "Idioma / Language",
            options=list(LANGUAGE_NAMES),
            format_func=LANGUAGE_NAMES.get,
            key=LANGUAGE_CHOICE,
            horizontal=True,
            on_change=_language_chosen,
        )
        url.toggle_ui(t("sidebar.presentation"), state.PRESENT, help=t("sidebar.presentation_help"))
        st.caption(t("sidebar.theme_hint"))
        questions.sidebar_ui()
        st.divider()
        panels.sidebar_ui()
        st.divider()
        for spec in PAGES:
            st.page_link(spec.path, label=t(f"page.{spec.key}"), icon=spec.icon, disabled=spec.key == current)
        document_ui(state.current_language())
        reconnect_ui()
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
