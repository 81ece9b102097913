"""Share and export the scenario: a link that reproduces the view, JSON and CSV downloads, JSON upload.

A link carries the scenario as a code in the `s` query parameter (plus `lang`, and `step` on the
walkthrough); `apply_link` reads it once, checks it through the engine, and removes it from the URL.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from engine import EngineInputError
from engine.scenario_io import decode_scenario, encode_scenario, scenario_from_json, scenario_to_json
from ui import state
from ui.i18n import LANGUAGES, t, tm

LINK_PARAM = "s"
LANG_PARAM = "lang"
LINK_ERROR = "share_link_error"  # session key: the field a refused link or file got wrong, shown once
MAX_UPLOAD_MB = 1


def apply_link() -> None:
    """Before anything is drawn: take the scenario and language a shared link carries, if any."""
    lang = st.query_params.get(LANG_PARAM)
    if lang is not None:
        if lang in LANGUAGES:
            st.session_state[state.LANG] = lang
        del st.query_params[LANG_PARAM]
    code = st.query_params.get(LINK_PARAM)
    if code is None:
        return
    del st.query_params[LINK_PARAM]
    try:
        state.set_scenario(decode_scenario(code))
    except EngineInputError as exc:
        state.reset_scenario()
        st.session_state[LINK_ERROR] = ("share.bad_link", exc.params.get("field", "link"))


def share_link(step: int | None = None) -> str:
    """The URL of this page that reproduces the current scenario, language and walkthrough step."""
    params = {LINK_PARAM: encode_scenario(state.get_scenario()), LANG_PARAM: state.current_language()}
    if step is not None:
        params["step"] = str(step)
    return f"{st.context.url or ''}?{urlencode(params)}"


def _csv(name: str) -> str:
    scenario = state.get_scenario()
    frame = pd.DataFrame(scenario.matrix(name))
    if name == "x":
        frame.insert(0, "token", list(scenario.tokens))
        return frame.to_csv(index=False)
    frame.index = [f"x{i}" for i in range(frame.shape[0])]
    return frame.to_csv()


def _on_upload(key: str) -> None:
    uploaded = st.session_state.get(key)
    if uploaded is None:
        return
    try:
        state.set_scenario(scenario_from_json(uploaded.getvalue()))
    except EngineInputError as exc:
        st.session_state[LINK_ERROR] = ("share.bad_file", exc.params.get("field", "file"))


def link_errors_ui() -> None:
    """Say once, in the user's language, that a link or file could not be read and the default is shown."""
    problem = st.session_state.pop(LINK_ERROR, None)
    if problem is not None:
        key, field = problem
        st.error(tm(key, field=field), icon=":material/link_off:")


def share_ui(step: int | None = None) -> None:
    """A popover with the link to copy, the downloads and the upload.

    Its content is built only while it is open, and opening it reruns the page: the link is always the current
    scenario's, also after changes made inside a fragment, and a closed popover costs a rerun nothing.
    """
    popover = st.popover(t("share.title"), icon=":material/share:", key=state.SHARE_OPEN, on_change="rerun")
    if not popover.open:
        return
    with popover:
        st.markdown(t("share.link"))
        st.code(share_link(step), language=None, wrap_lines=True)
        st.markdown(t("share.download"))
        st.download_button(
            t("share.json"),
            scenario_to_json(state.get_scenario()),
            file_name="escenario.json",
            mime="application/json",
            icon=":material/download:",
            on_click="ignore",
        )
        columns = st.columns(4)
        for column, (name, label) in zip(
            columns, (("x", "x"), ("w_q", "W_Q"), ("w_k", "W_K"), ("w_v", "W_V")), strict=True
        ):
            column.download_button(
                f"{label}.csv",
                _csv(name),
                file_name=f"{label}.csv",
                mime="text/csv",
                on_click="ignore",
                key=f"csv_{name}",
            )
        st.caption(t("share.figures"))
        upload_key = f"upload_{state.scenario_rev()}"
        st.file_uploader(
            t("share.upload"),
            type=["json"],
            key=upload_key,
            on_change=_on_upload,
            args=(upload_key,),
            max_upload_size=MAX_UPLOAD_MB,
        )
