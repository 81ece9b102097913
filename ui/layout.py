"""Page furniture: the style every page gets, larger in presentation mode, and the page header.

The CSS is fixed text written here, never built from anything a user typed or a URL carried.
"""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.i18n import t
from ui.share import link_errors_ui

# Always:
# - no focus frame around the page when it is clicked (the walkthrough's keys work from anywhere); a control
#   reached with the keyboard keeps its own frame;
# - the presenter keys' component takes no room; a part's top, brought into view, stops under the header;
# - the figures' labels (ticks, axis titles, titles, colour bars, legends, values over bars, names beside points) in
#   the page's own text
#   colour, light or dark (Streamlit's chart theme draws them grey: 3.7 : 1 on white); values on heatmap cells
#   keep their own black or white (ui.figures); every axis of a figure of several panels too (plotly names the
#   second one's ticks "x2tick", its title "x2title");
# - a link to a page in the main area (the home page's map, "see also" links) wraps its long label instead of
#   cutting it at the edge of a phone or a projector;
# - a derivation (monospace text) scrolls sideways inside its box rather than widening the page; a formula's
#   box holds its last glyph's overhang (else it scrolls by 2 px).
_BASE_CSS = """
<style>
[data-testid="stMain"]:focus, [data-testid="stMain"] :focus:not(:focus-visible) { outline: none; }
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
.st-key-walk_keys { display: none; }
.st-key-walk_part { scroll-margin-top: 64px; }
[data-testid="stMain"] [data-testid="stCode"] pre { max-width: 100%; }
.katex-display .katex { padding: 0 0.15em; }
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] { height: auto; }
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] :is(span, p)
  { white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stPlotlyChart"] :is([class$="tick"] > text, text[class$="title"], .colorbar text, .legendtext,
  .bartext, .annotation-text, .trace.scatter:has(.point) .textpoint text)
  { fill: currentColor !important; fill-opacity: 1 !important; }
</style>
"""

# Presentation mode, for a 1280×720 projector: every number and word a room must read at 20 px or more (text,
# captions, tables, code, inputs, selects, slider values), the band above the title gone (the button that leaves
# presentation mode sits in the header's bar, beside Streamlit's own menu), the slider's value above its track.
# The header stays: its button reopens a collapsed sidebar.
# The root font size is 23 px (16 px otherwise): Streamlit sizes a data editor's cells, drawn on a canvas, from it
# (0.875 rem: 20.1 px instead of 14 px), and its own widgets, gaps and sidebar grow with it. The sizes below are in
# px, so they do not grow twice.
_PRESENTATION_CSS = """
<style>
html { font-size: 23px; }
[data-testid="stHeader"] { height: 60px !important; min-height: 0; }
[data-testid="stMainBlockContainer"] { padding-top: 64px; padding-bottom: 64px; padding-left: 24px;
  padding-right: 24px; max-width: 100%; }
[data-testid="stMain"] { font-size: 22px; }
[data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label,
[data-testid="stMain"] [data-testid="stWidgetLabel"] p { font-size: 22px; line-height: 1.45; }
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p { font-size: 20px; }
[data-testid="stMain"] h1 { font-size: 38px; padding-top: 0; padding-bottom: 8px; }
[data-testid="stMain"] h2 { font-size: 32px; padding-top: 4px; padding-bottom: 4px; }
[data-testid="stMain"] h3 { font-size: 26px; }
[data-testid="stMain"] [data-testid="stCode"] code { font-size: 20px; }
[data-testid="stMain"] table, [data-testid="stMain"] th, [data-testid="stMain"] td,
[data-testid="stMain"] th p, [data-testid="stMain"] td p { font-size: 20px; }
[data-testid="stMain"] input, [data-testid="stMain"] textarea,
[data-testid="stMain"] [data-baseweb="select"] div,
[data-testid="stMain"] [data-testid="stMultiSelectTagsContainer"] span { font-size: 20px; }
[data-testid="stMain"] [data-testid="stSlider"] [role="group"] { margin-top: 22px; }
[data-testid="stMain"] [data-testid="stSliderThumbValue"] { transform: translateY(-8px); }
[data-testid="stMain"] [data-testid="stSliderThumbValue"] p { font-size: 20px; line-height: 1.2; }
[data-testid="stMain"] [data-testid="stSliderTickBarMin"],
[data-testid="stMain"] [data-testid="stSliderTickBarMax"] { font-size: 20px; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: 32px; }
[data-testid="stMain"] button p { font-size: 20px; }
[data-testid="stMain"] [data-testid="stAlertContentInfo"] p, [data-testid="stMain"] [data-testid="stAlert"] p
  { font-size: 22px; }
[data-testid="stMain"] .katex-display { font-size: 22px; }
.katex { font-size: 1.35em !important; }
[data-testid="stDecoration"] { display: none; }
.st-key-exit_presentation { position: fixed; top: 9px; right: 60px; z-index: 999991; width: auto; }
.st-key-exit_presentation button { background: var(--st-secondary-background-color, transparent); }
</style>
"""


def style_ui(presentation: bool) -> None:
    """The page's style: the base rules, and presentation mode's larger type when it is on."""
    st.html(_BASE_CSS + (_PRESENTATION_CSS if presentation else ""))


# Presentation mode as the last page run drew it; whether this run leaves the data editors out; the redraw's timer.
_DRAWN_IN: state.Slot[bool | None] = state.Slot("editors_drawn_in", lambda: None)
_HELD: state.Slot[bool] = state.Slot("editors_held", lambda: False)
_REDRAW: state.Slot[str] = state.Slot("editors_redraw", lambda: "")
REDRAW_AFTER_S = 0.3  # the run after a switch starts this long after the switch's run is on screen


def editors_wait() -> bool:
    """Whether the data editors sit out this run: the run that switched presentation mode on or off.
    Streamlit sizes an editor's cells from the page's root font size (which presentation mode changes) when it first
    draws the editor, and in the run that switches the mode the new size may not be in place yet. So the editors
    are left out of that run, and the next one (`mode_switch_ui` starts it) draws them anew at the new size."""
    return _HELD.get()


def mode_switch_ui() -> None:
    """Once per page run (ui.shell): whether this run switched the mode; if so, start the next run a moment after
    this one is on screen (a timed fragment in the sidebar, which draws nothing). Any run after it draws the
    editors again, whether the timer's or one the reader starts first."""
    drawn, now = _DRAWN_IN.get(), state.presentation_mode()
    _DRAWN_IN.set(now)
    _HELD.set(drawn is not None and drawn != now)
    if _HELD.get():
        _REDRAW.set("armed")
        with st.sidebar:
            _redraw_editors()


@st.fragment(run_every=REDRAW_AFTER_S)
def _redraw_editors() -> None:
    if _REDRAW.get() == "armed":  # drawn by the run that switched the mode: the timer's run comes next
        _REDRAW.set("waiting")
        return
    _REDRAW.set("")
    st.rerun()  # the whole page, editors included (which also ends this timer)


def page_header(title_key: str, lead_key: str | None = None) -> None:
    """The page's title, a message about a link that could not be read, and a one-paragraph lead."""
    st.title(t(title_key))
    link_errors_ui()
    if lead_key:
        st.markdown(t(lead_key))
