"""The walkthrough's printable handout, in the share box: the scenario's five parts in the reader's language, with
the questions this reader's parts ask (ui.handout builds the file)."""

from __future__ import annotations

import streamlit as st

from ui import handout, questions, state
from ui.i18n import t


def handout_ui() -> None:
    """The handout's download. Built while the share box is open (about 50 ms): a deferred download would be built
    outside the reader's session, which holds the reader's language."""
    scenario = state.get_scenario()
    document = handout.handout_html(
        scenario,
        state.current_language(),
        query=state.focus("query", "perro"),
        key=state.focus("key", "come"),
        asked=questions.walkthrough_questions(scenario),
    )
    st.download_button(
        t("handout.download"),
        document,
        file_name=t("handout.file"),
        mime="text/html",
        icon=":material/print:",
        on_click="ignore",
        help=t("handout.download_help"),
        key="handout_download",
    )
