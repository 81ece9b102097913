"""Step by step: the five parts of self-attention on the shared scenario, one at a time."""

import streamlit as st

from engine import lesson_scenario
from ui import questions, shell, state
from ui.i18n import t
from ui.layout import page_header
from ui.live import follow
from ui.scenario_controls import edited_notice_ui
from ui.sections import where
from ui.sections.walkthrough import common, dividing, handout, navigation, projections, scores, softmax, weighted_sum
from ui.share import share_ui

shell.page("walkthrough")
scenario = state.get_scenario()
page_header("walk.title", sentence=" ".join(scenario.tokens))  # the title follows the scenario's tokens
st.markdown(t("walk.lead", gloss=t("walk.lead.gloss") if scenario.tokens == lesson_scenario().tokens else ""))
edited_notice_ui()
share_ui(state.step(), downloads=handout.handout_ui)


@st.fragment(key=follow.PART_FRAGMENT)
def parts_ui() -> None:
    """The part controls and the part: stepping (the reader's, or a live class's lecturer's) reruns and redraws
    only this fragment."""
    follow.start_fragment()
    scenario = state.get_scenario()
    result = scenario.run()
    part = navigation.part_top_ui(scenario)
    shown = questions.gate_ui(f"walk.{part}", scenario)
    follow.publish()  # a change of part in this fragment: the class follows it
    if not shown:
        pass  # the part waits for a prediction; its inputs and code below stay
    elif part == 1:
        projections.projections_ui(scenario, result)
    elif part == 2:
        scores.scores_ui(scenario, result)
    elif part == 3:
        dividing.dividing_ui(scenario, result)
    elif part == 4:
        softmax.softmax_ui(scenario, result)
    else:
        weighted_sum.weighted_sum_ui(scenario, result)
    common.inputs_ui(scenario)
    common.code_ui(part, scenario)
    if part == 5:  # the walkthrough's end: where this step sits in a Transformer
        where.where_ui()


parts_ui()
