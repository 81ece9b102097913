"""Share and export the scenario: a link that reproduces the view, JSON and CSV downloads, JSON upload.

A link carries the scenario as a code in the `s` query parameter (with `lang`, and `step` on the walkthrough).
The address bar keeps that code too, as one of its settings (ui.url.KEPT): while the scenario differs from the
lesson's example, every change writes its code there (`code_kept`), so a reload, or a reconnect to a restarted
server (a new session), finds the edits; a code too long for an address (MAX_KEPT_CODE_CHARS) is not kept, and
the page says so (`fits_in_url`). A code is read by `scenario_from_code`, checked through the engine. A link or
file the engine refuses (damaged, nested 100,000 deep, a number of 400 digits, a name with a lone surrogate...)
is said in one message naming the part that is wrong, in the reader's language; a bad link shows the lesson's
example, a bad file leaves the scenario as it was.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import cache
from urllib.parse import urlencode

import streamlit as st

from engine import EngineInputError, Scenario, lesson_scenario
from engine.limits import (
    D_K_RANGE,
    D_MODEL_RANGE,
    MAX_ABS_VALUE,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    MAX_KEPT_CODE_CHARS,
    MAX_SCENARIO_TOKENS,
    MAX_TOKEN_CHARS,
    TEMPERATURE_RANGE,
)
from engine.scenario_io import FORMAT_VERSION, decode_scenario, encode_scenario, scenario_from_json, scenario_to_json
from engine.spreadsheet import csv_text
from ui import state
from ui.clipboard import copy_button_ui, copy_buttons_ui
from ui.editing import column_name
from ui.i18n import LANGUAGES, plural, t
from ui.numbers import count, short
from ui.text import md_literal

LINK_PARAM = "s"
UPLOAD_LIMIT_MB = 1  # Streamlit's unit; the engine then refuses files over MAX_JSON_BYTES
MATRICES = (("x", "x"), ("w_q", "W_Q"), ("w_k", "W_K"), ("w_v", "W_V"))


def scenario_from_code(code: str) -> Scenario:
    """The scenario a link's (or the address bar's) code carries; one the engine refuses is said once, naming
    the part that is wrong (`link_errors_ui`), and gives the lesson's example."""
    try:
        return decode_scenario(code)
    except EngineInputError as exc:
        state.report_link_error("share.bad_link", str(exc.params.get("field", "link")))
        return lesson_scenario()


@cache
def _lesson_code() -> str:
    return encode_scenario(lesson_scenario())


def fits_in_url(code: str) -> bool:
    """Whether the address bar can keep a scenario's code (with the rest of the address, under about 8 kB)."""
    return len(code) <= MAX_KEPT_CODE_CHARS


def code_kept(scenario: Scenario) -> str | None:
    """The code the address bar keeps for `scenario`: None for the lesson's example (the address stays short)
    and for a code longer than an address can carry."""
    code = encode_scenario(scenario)
    return None if code == _lesson_code() or not fits_in_url(code) else code


def _limits(field: str) -> dict[str, str]:
    """The limits the message about `field` states, written in the reader's language."""
    columns = D_MODEL_RANGE if field == "x" else D_K_RANGE
    return {
        "kb": count(MAX_JSON_BYTES // 1000),
        "depth": count(MAX_JSON_DEPTH),
        "version": count(FORMAT_VERSION),
        "count": count(MAX_SCENARIO_TOKENS),
        "chars": count(MAX_TOKEN_CHARS),
        "low": short(TEMPERATURE_RANGE[0], 1) if field == "temperature" else count(columns[0]),
        "high": short(TEMPERATURE_RANGE[1], 1) if field == "temperature" else count(columns[1]),
        "max": count(int(MAX_ABS_VALUE)),
        "field": md_literal(field),
    }


def problem_text(key: str, field: str) -> str:
    """The message about a link ("share.bad_link") or file ("share.bad_file") the engine refused, naming the part
    of the scenario (`field`, as the engine calls it) that is wrong."""
    part = f"share.field.{field}" if f"share.field.{field}" in LANGUAGES["es"] else "share.field.other"
    return t(key, problem=t(part, **_limits(field)))


EMBED_OPTIONS = {"embed": "true", "embed_options": "show_toolbar"}  # Streamlit's frame, its ⋮ menu (the theme) kept
EMBED_HEIGHT = 900  # px: a part's title, figure and derivation, as on a laptop


def embed_code(link: str, title: str) -> str:
    """An iframe for a learning platform's page (Moodle, Canvas) that opens `link` in Streamlit's embedded view,
    the theme menu kept; the address and the title escaped for the attribute they go in."""
    address = f"{link}{'&' if '?' in link else '?'}{urlencode(EMBED_OPTIONS)}"
    return (
        f'<iframe src="{html.escape(address)}" title="{html.escape(title)}" width="100%" height="{EMBED_HEIGHT}"'
        ' style="border: 0" allow="clipboard-write"></iframe>'
    )


def share_link(step: int | None = None) -> str:
    """The URL of this page that reproduces the current scenario, language (by its code, "lang=en", as
    `ui.shell.language_from_url` reads it) and walkthrough step."""
    params = {LINK_PARAM: encode_scenario(state.get_scenario()), state.LANG: state.current_language()}
    if step is not None:
        params[state.STEP] = str(step)
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{urlencode(params)}"


def matrix_csv(name: str) -> str:
    """A matrix as CSV with the editors' column names (token, x0, x1, … for x; d0, d1, … for a W, each row named
    x0, x1, …), every number as Python writes it (the shortest text that reads back as the same float64) and no
    cell a spreadsheet could take for a formula (`engine.spreadsheet`)."""
    scenario = state.get_scenario()
    matrix = scenario.matrix(name)
    if name == "x":
        header = [t("editor.token"), *(f"x{column_name(j)}" for j in range(matrix.shape[1]))]
        rows = [[token, *values] for token, values in zip(scenario.tokens, matrix.tolist(), strict=True)]
    else:
        header = ["", *(f"d{column_name(j)}" for j in range(matrix.shape[1]))]
        rows = [[f"x{i}", *values] for i, values in enumerate(matrix.tolist())]
    return csv_text([header, *rows])


def upload_name_problem(name: str) -> str | None:
    """Why a file's name is refused (the strings' field), or None. The app checks names itself: given the types,
    Streamlit would raise on a forged name (a NUL byte in it) while reading the widget, before any app code."""
    if "\0" in name:
        return "name_nul"
    if not name.lower().endswith(".json"):
        return "name"
    return None


def _on_upload(key: str) -> None:
    uploaded = state.widget_value(key)
    if uploaded is None:
        return
    problem = upload_name_problem(uploaded.name)
    if problem is not None:
        state.report_link_error("share.bad_file", problem)
        return
    try:
        scenario = scenario_from_json(uploaded.getvalue())
    except EngineInputError as exc:
        state.report_link_error("share.bad_file", str(exc.params.get("field", "file")))
        return
    state.set_scenario(scenario)
    st.toast(plural("share.uploaded", len(scenario.tokens)), icon=":material/check_circle:")


def link_errors_ui() -> None:
    """Say once, in the reader's language, that a link or file could not be read."""
    problem = state.pop_link_error()
    if problem is not None:
        key, field = problem
        st.error(problem_text(key, field), icon=":material/link_off:")


def share_ui(step: int | None = None, downloads: Callable[[], None] | None = None) -> None:
    """A popover with the link to copy, the downloads (and the page's own, `downloads`) and the upload.

    Its content is built only while it is open, and opening it reruns the page: the link is always the current
    scenario's, also after changes made inside a fragment, and a closed popover costs a rerun nothing.
    """
    popover = st.popover(t("share.title"), icon=":material/share:", key="share_open", on_change="rerun")
    if not popover.open:
        return
    with popover:
        st.markdown(t("share.link"))
        link = share_link(step)
        st.code(link, language=None, wrap_lines=True)
        copy_button_ui(link, key="share_copy")
        embed = st.expander(t("share.embed.title"), key="share_embed_open", on_change="rerun")
        if embed.open:  # built only when opened
            with embed:
                code = embed_code(link, t("share.embed.frame_title"))
                st.caption(t("share.embed.how"))
                st.code(code, language="html", wrap_lines=True)
                copy_buttons_ui(
                    [(t("share.embed.copy"), code, t("share.embed.copied"))],
                    key="share_embed_copy",
                    failed=t("share.copy_failed"),
                )
        st.markdown(t("share.download"))
        st.download_button(
            t("share.json"),
            scenario_to_json(state.get_scenario()),
            file_name=t("share.json_file"),
            mime="application/json",
            icon=":material/download:",
            on_click="ignore",
        )
        for column, (name, label) in zip(st.columns(len(MATRICES)), MATRICES, strict=True):
            column.download_button(
                f"{label}.csv",
                matrix_csv(name),
                file_name=f"{label}.csv",
                mime="text/csv",
                on_click="ignore",
                key=f"csv_{name}",
            )
        if downloads is not None:
            downloads()
        st.caption(t("share.figures"))
        upload_key = f"upload_{state.scenario_rev()}"
        st.file_uploader(
            t("share.upload", limit=count(MAX_JSON_BYTES // 1000)),
            # no `type`: the name is checked by upload_name_problem, which says what is wrong in the reader's
            # language; given types, Streamlit raises on a forged name (a NUL byte) before any app code runs and
            # the forger's session shows an exception until a reload. The picker then offers every file.
            type=None,
            key=upload_key,
            on_change=_on_upload,
            args=(upload_key,),
            max_upload_size=UPLOAD_LIMIT_MB,
        )


def tally_downloads_ui(
    csv: str | Callable[[], str],
    json: str | Callable[[], str],
    *,
    file_name: str,
    key: str,
    help: str,
    label: str = "{kind}",
) -> None:
    """A tally's two downloads, CSV and JSON (`label` names each from its kind; keys "<key>_csv", "<key>_json"): a
    student's own answers (ui.questions) or a class's (ui.live.panels). One under the other, the sidebar's width
    each: side by side, presentation mode's type cut them to "C…" and "J…". A callable is a file built when clicked
    (outside the reader's session: it is given all it needs)."""
    for kind, data, mime in (("csv", csv, "text/csv"), ("json", json, "application/json")):
        st.download_button(
            label.format(kind=kind.upper()),
            data=data,
            file_name=f"{file_name}.{kind}",
            mime=mime,
            on_click="ignore",
            icon=":material/download:",
            key=f"{key}_{kind}",
            help=help,
            width="stretch",
        )
