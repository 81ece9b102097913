"""Page furniture: the style every page gets, larger in presentation mode, and the page header.

The CSS is fixed text written here, never built from anything a user typed or a URL carried.
"""

from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.share import link_errors_ui

# Always: no focus frame around the page when it is clicked (the walkthrough's keys work from anywhere).
_BASE_CSS = """
<style>
[data-testid="stMain"]:focus, [data-testid="stMain"] *:focus:not(input):not(textarea) { outline: none; }
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
</style>
"""

# Presentation mode: every number and word a room must read at 20 px or more on a 1280×720 projector, the
# band above the title gone, derivations that fit without scrolling sideways. The header stays: its button
# reopens a collapsed sidebar.
_PRESENTATION_CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.75rem; padding-left: 1.5rem; padding-right: 1.5rem;
  max-width: 100%; }
[data-testid="stMain"] { font-size: 22px; }
[data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label,
[data-testid="stMain"] [data-testid="stWidgetLabel"] p { font-size: 22px; line-height: 1.5; }
[data-testid="stMain"] h1 { font-size: 2.4rem; padding-top: 0; }
[data-testid="stMain"] h2 { font-size: 2rem; }
[data-testid="stMain"] h3 { font-size: 1.6rem; }
[data-testid="stMain"] [data-testid="stCode"] code { font-size: 20px; }
[data-testid="stMain"] table, [data-testid="stMain"] th, [data-testid="stMain"] td { font-size: 20px; }
[data-testid="stMain"] input, [data-testid="stMain"] textarea,
[data-testid="stMain"] [data-baseweb="select"] div { font-size: 20px; }
[data-testid="stMain"] [data-testid="stSliderThumbValue"],
[data-testid="stMain"] [data-testid="stSliderTickBarMin"],
[data-testid="stMain"] [data-testid="stSliderTickBarMax"] { font-size: 20px; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: 2rem; }
[data-testid="stMain"] button p { font-size: 20px; }
.katex { font-size: 1.35em !important; }
.katex-display { overflow-x: auto; overflow-y: hidden; }
[data-testid="stDecoration"] { display: none; }
</style>
"""


def style_ui(presentation: bool) -> None:
    st.html(_BASE_CSS + (_PRESENTATION_CSS if presentation else ""))


def page_header(title_key: str, lead_key: str | None = None) -> None:
    """The page's title, a message about a link that could not be read, and a one-paragraph lead."""
    st.title(t(title_key))
    link_errors_ui()
    if lead_key:
        st.markdown(t(lead_key))
