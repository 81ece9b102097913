"""The walkthrough's navigation: previous / next, the part picker, the progress bar and the part's title,
the part shown kept in the URL's ?step= (ui.url), and the presenter's keys."""

from __future__ import annotations

import streamlit as st

from engine import Scenario
from ui import state, url
from ui.i18n import t
from ui.keys import part_keys_ui

PARTS = state.PARTS
ANCHOR = "walk_part"  # the container (controls and title) a change of part brings into view
KEYS = "walk_keys"  # the presenter keys' component


def part_name(part: int, scenario: Scenario) -> str:
    """The part's name, saying what this scenario computes (part 3 with its actual divisor)."""
    if part == 3:
        return t(f"walk.name.3.{scenario.scale}")
    return t(f"walk.name.{part}")


def current_part() -> int:
    """The part shown: the session's (a link's ?step=3 sets it when the page opens: ui.url), 1 at first. The URL
    always says it, so that a reload, a bookmark or a copied address opens the same part."""
    if state.step() is None:
        show_part(1)
    return int(state.step() or 1)


def show_part(part: int) -> None:
    """Go to `part` (from a callback: a button, the picker, a presenter key; or in a fragment's run)."""
    state.set_step(min(PARTS, max(1, int(part))))
    url.keep_in_url(state.STEP)


def _picked(widget_key: str, drawn_for: int) -> None:
    """The picker drawn for part `drawn_for` was changed: go to the part picked, unless an old picker's value came
    back after the part changed (state.echoed: followed, it would move the page, and a lecturer's class, back)."""
    value = state.widget_value(widget_key)
    if value is not None and not state.echoed(widget_key, value, state.step() == drawn_for, drawn_for):
        show_part(value)


def part_top_ui(scenario: Scenario) -> int:
    """Previous / next buttons, the part picker, the progress bar and the part's title, in the container a change
    of part brings into view; the presenter's keys (ui.keys) step the parts.

    The part is the app's own value (not the picker's): the picker is rebuilt for each part, so it always shows
    the part on the page, however fast keys and clicks come. In presentation mode the row is compact (no label,
    no progress bar: the title says the part), so that the title, the main figure and the start of the
    derivation fit a 1280×720 screen."""
    presenting = state.presentation_mode()
    part = current_part()
    with st.container(key=ANCHOR):
        prev_col, picker_col, next_col = st.columns([1, 4, 1], vertical_alignment="bottom")
        picker = f"walk_picker_{part}"
        state.new_control("walk_picker", picker)
        picker_col.segmented_control(
            t("walk.part"),
            options=list(range(1, PARTS + 1)),
            default=part,
            required=True,
            key=picker,
            on_change=_picked,
            args=(picker, part),
            width="stretch",
            label_visibility="collapsed" if presenting else "visible",
        )
        prev_col.button(t("walk.prev"), on_click=show_part, args=(part - 1,), disabled=part <= 1, width="stretch")
        next_col.button(
            t("walk.next"),
            on_click=show_part,
            args=(part + 1,),
            disabled=part >= PARTS,
            width="stretch",
            type="primary",
        )
        if not presenting:
            st.progress(part / PARTS, text=t("walk.progress", part=part, total=PARTS, name=part_name(part, scenario)))
        st.header(f"{part}. {part_name(part, scenario)}")
    part_keys_ui(part, PARTS, key=KEYS, anchor=ANCHOR, scroll=presenting, on_part=show_part)
    return part
