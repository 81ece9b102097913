"""Entry point: `streamlit run app.py`. Builds the sidebar (language, presentation mode) and the navigation."""

from pathlib import Path

import streamlit as st

from ui import state
from ui.heap import freeze_long_lived_objects
from ui.i18n import LANGUAGE_NAMES, t
from ui.pages import PAGES
from ui.share import apply_link

st.set_page_config(
    page_title="Self-attention", page_icon=str(Path(__file__).parent / "assets" / "icon.png"), layout="wide"
)
apply_link()

with st.sidebar:
    st.radio(
        "Idioma / Language",
        options=list(LANGUAGE_NAMES),
        format_func=LANGUAGE_NAMES.get,
        key=state.LANG,
        horizontal=True,
    )
    st.toggle(t("sidebar.presentation"), key=state.PRESENTATION, help=t("sidebar.presentation_help"))

navigation = st.navigation(
    [
        st.Page(spec.path, title=t(f"page.{spec.key}"), icon=spec.icon, url_path=spec.url_path, default=i == 0)
        for i, spec in enumerate(PAGES)
    ]
)
freeze_long_lived_objects()  # once per process, before the first page runs: see ui/heap.py
navigation.run()
