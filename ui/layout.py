"""Page furniture: the style every page gets, larger in presentation mode, and the page header.

The CSS is fixed text written here, never built from anything a user typed or a URL carried.
"""

from __future__ import annotations

import streamlit as st

from ui import state, url
from ui.i18n import tm
from ui.share import link_errors_ui

# Always:
# - no focus frame around the page when it is clicked (the walkthrough's keys work from anywhere); a control
#   reached with the keyboard keeps its own frame;
# - the presenter keys', the page language's and the reconnection's components take no room; a part's top,
#   brought into view, stops under the header;
# - the figures' labels (ticks, axis titles, titles, colour bars, legends, values over bars, names beside points) in
#   the page's own text
#   colour, light or dark (Streamlit's chart theme draws them grey: 3.7 : 1 on white); values on heatmap cells
#   keep their own black or white (ui.figure_specs); every axis of a figure of several panels too (plotly names the
#   second one's ticks "x2tick", its title "x2title");
# - a link to a page in the main area (the home page's map, "see also" links) wraps its long label instead of
#   cutting it at the edge of a phone or a projector;
# - a derivation (monospace text) and a table (ui.tables) scroll sideways inside their box rather than widening
#   the page (Streamlit would cut a wide markdown table off); a formula's box holds its last glyph's overhang
#   (else it scrolls by 2 px);
# - text at WCAG AA's 4.5 : 1 where Streamlit's own colours fall short (axe-core's color-contrast, tests/e2e/
#   test_accessibility.py): the sidebar's current page, which Streamlit greys as a disabled link (2.5 : 1 light,
#   3.5 : 1 dark), in the text colour and bold (it says "you are here"); the chosen option of a segmented control
#   and a slider's value, which Streamlit writes in the primary colour (the dark theme's #3b6fd4: 3.6 : 1 on the
#   option's tint), in the link colour in the dark theme (`light-dark()` follows the colour scheme Streamlit sets
#   on the app: light or dark, whichever the reader picked);
# - a heatmap's table of numbers (ui.matrix_text) right-aligned in even digits, scrolling sideways in its box.
_BASE_CSS = """
<style>
[data-testid="stMain"]:focus, [data-testid="stMain"] :focus:not(:focus-visible) { outline: none; }
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
.st-key-walk_keys, .st-key-page_lang, .st-key-reconnect_watch { display: none; }
.st-key-walk_part { scroll-margin-top: 64px; }
[data-testid="stMain"] [data-testid="stCode"] pre { max-width: 100%; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"]:has(> table) { overflow-x: auto; }
.katex-display .katex { padding: 0 0.15em; }
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] { height: auto; }
[data-testid="stMain"] [data-testid="stPageLink-NavLink"] :is(span, p)
  { white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"][disabled],
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"][disabled] * { color: inherit; }
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"][disabled] p { font-weight: 600; }
button[data-variant="segmented_control"][data-selected="true"],
button[data-variant="segmented_control"][data-selected="true"] *, [data-testid="stSliderThumbValue"]
  { color: light-dark(#1f5fbf, #7fb0ff); }
.matrix-table { overflow-x: auto; max-width: 100%; }
.matrix-table table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin-bottom: 0.5rem; }
.matrix-table caption { caption-side: top; text-align: left; padding-bottom: 0.25rem; }
.matrix-table th, .matrix-table td { padding: 0.15rem 0.6rem; border-bottom: 1px solid rgba(128, 128, 128, 0.4); }
.matrix-table td { text-align: right; white-space: nowrap; }
.matrix-table th[scope="row"] { text-align: left; }
[data-testid="stPlotlyChart"] :is([class$="tick"] > text, text[class$="title"], .colorbar text, .legendtext,
  .bartext, .annotation-text, .trace.scatter:has(.point) .textpoint text)
  { fill: currentColor !important; fill-opacity: 1 !important; }
</style>
"""

# Presentation mode, for a 1280×720 projector: every number and word a room must read at 20 px or more (text,
# captions, tables, code, inputs, selects, slider values), the band above the title gone (the button that leaves
# presentation mode sits in the header's bar, beside Streamlit's own menu, and never reaches the button at the
# header's left that opens the sidebar: on a phone it stops 76 px from the left, its label at 16 px), the slider's
# value above its track.
# The header stays: its button reopens a collapsed sidebar.
# The root font size is 23 px (16 px otherwise): Streamlit sizes a data editor's cells, drawn on a canvas, from it
# (0.875 rem: 20.1 px instead of 14 px), and its own widgets and gaps, and the sidebar's text, grow with it. The
# sizes below are in px, so they do not grow twice; the gaps between columns and a derivation's left padding are
# kept at their 16 px-root sizes, which ui.view_models.walkthrough's line widths are measured with.
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
[data-testid="stMain"] [data-testid="stCode"] pre { padding-left: 16px; }
[data-testid="stMain"] [data-testid="stHorizontalBlock"] { column-gap: 16px; }
[data-testid="stMain"] .st-key-walk_main { column-gap: 32px; }
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
.st-key-exit_presentation { position: fixed; top: 9px; right: 60px; z-index: 999991; width: auto;
  max-width: calc(100vw - 136px); }
@media (max-width: 640px) { .st-key-exit_presentation button p { font-size: 16px; line-height: 1.2; } }
.st-key-exit_presentation button { background: var(--st-secondary-background-color, transparent); }
</style>
"""


def style_ui(presentation: bool) -> None:
    """The page's style: the base rules, and presentation mode's larger type when it is on."""
    st.html(_BASE_CSS + (_PRESENTATION_CSS if presentation else ""))


# Presentation mode as the last page run drew it; whether this run leaves the data grids out; whether the timer's
# fragment is being drawn by a page run (rather than run by its timer).
_DRAWN_IN: state.Slot[bool | None] = state.Slot("grids_drawn_in", lambda: None)
_HELD: state.Slot[bool] = state.Slot("grids_held", lambda: False)
_INLINE: state.Slot[bool] = state.Slot("grids_redraw_inline", lambda: False)
# The timer's period. The browser starts it when the fragment arrives, early in the run (the sidebar is drawn
# first); a tick that comes while that run is still going waits for it to end.
REDRAW_AFTER_S = 0.3


def grids_wait() -> bool:
    """Whether the data grids (editors and st.dataframe) sit out this run: the run that switched presentation mode
    on or off. Streamlit sizes a grid's cells from the page's root font size (which presentation mode changes) when
    it first draws the grid, and in that run the new size may not be in place yet. The next page run, which a timer
    starts (`mode_switch_ui`) unless the reader starts one first, draws them anew at the new size. (Only this one
    run is held, so that the grids can never stay away; a grid drawn after a switch is a new element in any case,
    in a fold whose key carries the mode or in place of a static table, so it is drawn from nothing.)"""
    return _HELD.get()


def mode_switch_ui() -> None:
    """Once per page run (ui.shell): whether this run switched presentation mode; if so, draw a timer that starts
    the next page run a moment later."""
    drawn, now = _DRAWN_IN.get(), state.presentation_mode()
    _DRAWN_IN.set(now)
    _HELD.set(drawn is not None and drawn != now)
    if _HELD.get():
        _INLINE.set(True)
        with st.sidebar:
            _redraw_grids()


@st.fragment(run_every=REDRAW_AFTER_S)
def _redraw_grids() -> None:
    """Draws nothing. Run by its timer: run the page again, grids included (which also ends this timer)."""
    if _INLINE.get():  # drawn by the switch's run: its timer's run comes next
        _INLINE.set(False)
        return
    st.rerun()


def page_header(title_key: str, lead_key: str | None = None, **params: object) -> None:
    """The page's title, a message about a link that could not be read, and a one-paragraph lead; `params` fill
    both, written literally (a token name stays text). The title has no "link to heading" anchor: its address
    would be made from the scenario's token names (the walkthrough's title names them)."""
    st.title(tm(title_key, **params), anchor=False)
    link_errors_ui()
    url.refused_ui()
    if lead_key:
        st.markdown(tm(lead_key, **params))
