"""The learning page's last tab: the learned weights sent to the shared scenario, so that the walkthrough and the
builder derive the learned attention."""

from __future__ import annotations

import streamlit as st

from ui import charts, numbers, state
from ui.i18n import plural, t
from ui.sections.learning.common import SENT, TRAIN, no_run_ui, weights_spec
from ui.view_models import learning as model


def _on_send() -> None:
    training = TRAIN.get()
    if training is None:
        return
    state.set_scenario(model.learned_scenario(training, state.get_scenario()))
    SENT.set(True)


@st.fragment(key="learn_send")
def send_ui() -> None:
    """The learned W into the shared scenario, with links to the walkthrough and the builder."""
    st.header(t("learn.send.header"))
    training = no_run_ui()
    if training is None:
        return
    case, scenario = training.case, state.get_scenario()
    st.markdown(t("learn.send.body"))
    scale = t(f"learn.scale_name.{training.run.objective.scale}")
    if case.source == "sentence":
        st.markdown(plural("learn.send.sentence", case.n, d=numbers.count(case.x.shape[1]), scale=scale))
    else:
        matrices = t(f"learn.send.matrices.{model.matrices_sent(training, scenario)}")
        st.markdown(t("learn.send.scenario", scale=scale, matrices=matrices))
    if not model.sendable(training, scenario):
        st.warning(t("learn.send.changed"))
        return
    st.button(
        t("learn.send.button"), icon=":material/send:", on_click=_on_send, key="learn_send_button", type="primary"
    )
    if SENT.get():
        st.success(t("learn.send.done"))
        link_col, builder_col = st.columns(2)
        link_col.page_link(
            "pages/walkthrough.py",
            label=t("learn.send.to_walkthrough"),
            icon=":material/footprint:",
            query_params={"step": "4"},
        )
        builder_col.page_link("pages/builder.py", label=t("learn.send.to_builder"), icon=":material/grid_on:")
    charts.show_heatmap(weights_spec(case, training.run.weights[-1], t("learn.send.learned")), key="learn_send_weights")
