"""Step by step: the five parts of self-attention on the shared scenario, one at a time."""

import streamlit as st

from ui import questions, shell, state
from ui.i18n import t
from ui.layout import page_header
from ui.scenario_controls import token_select_ui
from ui.sections import walkthrough as walk
from ui.share import share_ui

shell.page("walkthrough")
page_header("walk.title", "walk.lead")
walk.edited_notice_ui()
share_ui(state.get(state.STEP))


@st.fragment
def parts_ui() -> None:
    """The part controls and the part: stepping reruns and redraws only this fragment."""
    scenario = state.get_scenario()
    result = scenario.run()
    part = walk.controls_ui(scenario)
    st.header(f"{part}. {walk.part_name(part, scenario)}")
    token = token_select_ui("query", "perro", t("scenario.query_token"), page="walk")
    if not questions.gate_ui(f"walk.{part}", scenario):
        pass  # the part waits for a prediction; its inputs and code below stay
    elif part == 1:
        walk.projections_ui(scenario, result, token)
    elif part == 2:
        other = token_select_ui("key", "come", t("scenario.key_token"), page="walk")
        walk.scores_ui(scenario, result, token, other)
    elif part == 3:
        walk.scaling_ui(scenario, result, token)
    elif part == 4:
        walk.softmax_ui(scenario, result, token)
    else:
        walk.weighted_sum_ui(scenario, result, token)
    walk.inputs_ui(scenario)
    walk.code_ui(part)


parts_ui()
