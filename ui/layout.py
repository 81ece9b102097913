"""Page furniture: the presentation-mode style and the header every page starts with."""

from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.share import link_errors_ui
from ui.state import presentation_mode

# Fixed CSS written here, never built from user input: larger type for a projector, editing chrome hidden.
_PRESENTATION_CSS = """
<style>
[data-testid="stMain"] { font-size: 1.3rem; }
[data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.3rem; line-height: 1.55; }
[data-testid="stMain"] h1 { font-size: 3rem; }
[data-testid="stMain"] h2 { font-size: 2.3rem; }
[data-testid="stMain"] h3 { font-size: 1.8rem; }
.katex { font-size: 1.45em !important; }
[data-testid="stMain"] [data-testid="stCode"] code { font-size: 1.05rem; }  /* derivations: a 4-term row still fits */
.katex-display { overflow-x: auto; overflow-y: hidden; }  /* a long formula scrolls, never gets cut */
[data-testid="stMain"] .block-container { max-width: 100%; padding-left: 2rem; padding-right: 2rem; }
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none; }
</style>
"""


def page_header(title_key: str, intro_key: str | None = None) -> None:
    """Title (and a one-line lead) for a page, plus the presentation style when that mode is on."""
    if presentation_mode():
        st.html(_PRESENTATION_CSS)
    st.title(t(title_key))
    link_errors_ui()
    if intro_key:
        st.markdown(t(intro_key))


def editing_container(label_key: str):
    """Where editors go: inline normally, folded away in presentation mode, or None while folded: a folded
    expander's editors are not built at all (opening it reruns the page), so they cost a slider step nothing."""
    if presentation_mode():
        folded = st.expander(t(label_key), expanded=False, key=f"{label_key}_open", on_change="rerun")
        return folded if folded.open else None
    return st.container()
