"""What the address bar keeps: the settings a link carries (KEPT), and one reader for every number in a URL.

**The settings** are the language, presentation mode, the questions switch, the walkthrough's part and the edited
scenario: `?lang=en&present=true&questions_on=false&step=3&s=<code>`; in a live class, its room code and a
student's anonymous id (`?class=ABC234&me=...`, ui.live). Each is the app's own value in session state (ui.state),
never a widget's: the sidebar's controls show that value and write it (`toggle_ui`, ui.shell's language radio);
the scenario's code (ui.share) is written after every change of it, in whatever run it happens (a fragment's too),
so that a server restart loses no edit: the browser reconnects to a new session (ui.reconnect reruns the page),
and the URL gives it the scenario back.
Every page run starts with `settings_from_url` (ui.shell): what the URL says that this session did not write
there itself (a link, a bookmark, a reload, which starts a new session) is read into those values (an address the
session wrote before, which a browser's late message can carry again, only when a page opens or the browser's back
and forward ask for it); then every value is written back into the URL. So whichever way a setting was set, from
a link or with a control, it survives a page switch (the values live in the session; the sidebar's menu links carry
no query string, and the page they open writes the settings into its own URL) and a reload (the URL says them).

Why the values are not widgets bound to the URL (`bind="query-params"`): the sidebar is drawn by each page's own
script (pages/), so Streamlit ties each bound toggle to the page that drew it and, on a switch to another page,
drops its query parameter as another page's; and a widget's value that came from the URL was not kept as its state
across that switch. A lecturer's `?present=true` link lost presentation mode at the first menu click.

A setting at its default is left out of the URL (presentation off, questions on, no part chosen yet, the lesson's
example), so links stay short; the language is always written. A value the URL carries that is no value of its
setting (`?step=³`, `?present=yes`) is ignored and said once, in the reader's language (`refused_ui`); a scenario
code the engine refuses is said by ui.share, naming what is wrong, and gives the lesson's example. A new setting
(a class code) is one more `Setting` in KEPT.

**Numbers**: `str.isdigit` accepts "³", "①" and digits of other scripts that `int` refuses (or reads as other
numbers), and `int` on 5,000 nines works through a number no page can use (Python refuses more than 4,300
digits outright). `url_int` accepts only the ASCII digits 0-9, at most as many as the largest value allowed has,
and a value within the range; anything else is no number at all (None).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ui import state
from ui.i18n import LANGUAGE_NAMES, t
from ui.share import LINK_PARAM, code_kept, scenario_from_code
from ui.view_models.live import normalised_code, valid_student_id

_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_BOOLEANS = {"true": True, "false": False}  # as Streamlit's own bound toggles wrote them


def url_int(text: object, low: int, high: int) -> int | None:
    """`text` as an integer from `low` to `high` (0 ≤ low ≤ high), or None when it is not one: only the ASCII
    digits, no sign, no spaces, and no more digits than `high` has, so that `int` only ever sees a few of them."""
    if not isinstance(text, str) or len(text) > len(str(high)) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def _language(text: str) -> str | None:
    # links shared by an earlier version name the language by its label (?lang=English)
    by_label = {name: code for code, name in LANGUAGE_NAMES.items()}
    return text if text in LANGUAGE_NAMES else by_label.get(text)


class Setting(NamedTuple):
    """One setting the address bar keeps, under the query key `key`."""

    key: str
    read: Callable[[str], Any]  # the URL's text → the value, or None when the text is no value of the setting
    write: Callable[[Any], str | None]  # the value → the URL's text, or None to leave the key out (the default)
    get: Callable[[], Any]  # the session's value (ui.state)
    set: Callable[[Any], None]
    # whether `read` can refuse a text (then `refused_ui` says "url.bad.<key>"); the scenario's reader says itself
    # what is wrong with a code, naming the part, and gives the lesson's example
    refusable: bool = True


KEPT: tuple[Setting, ...] = (
    Setting(state.LANG, _language, str, state.current_language, state.set_language),
    Setting(
        state.PRESENT,
        _BOOLEANS.get,
        lambda on: "true" if on else None,
        state.presentation_mode,
        state.set_presentation_mode,
    ),
    Setting(
        state.QUESTIONS_ON,
        _BOOLEANS.get,
        lambda on: None if on else "false",
        state.questions_on,
        state.set_questions_on,
    ),
    Setting(
        state.STEP,
        lambda text: url_int(text, 1, state.PARTS),
        lambda part: None if part is None else str(part),
        state.step,
        state.set_step,
    ),
    Setting(LINK_PARAM, scenario_from_code, code_kept, state.get_scenario, state.set_scenario, refusable=False),
    # the live class (ui.live): the room code, and a student's anonymous id so that a reload keeps their answers
    Setting(state.CLASS, normalised_code, lambda code: code or None, state.class_code, state.set_class_code),
    Setting(state.ME, valid_student_id, lambda ident: ident or None, state.student_id, state.set_student_id),
)
SETTINGS = {setting.key: setting for setting in KEPT}

ECHOES = 8  # the texts remembered per key that this session wrote before its last one (see `settings_from_url`)

# What this session last wrote into the URL, per key (None: left out); the texts it wrote before, per key, oldest
# first, by their hash (a scenario's code can have 7,000 characters); the page of the last run that read the URL;
# the settings refused, to say once.
_WRITTEN: state.Slot[dict[str, str | None]] = state.Slot("url_written", dict)
_OURS: state.Slot[dict[str, tuple[int, ...]]] = state.Slot("url_ours", dict)
_READ_ON: state.Slot[str | None] = state.Slot("url_read_on", lambda: None)
_REFUSED: state.Slot[list[str]] = state.Slot("url_refused", list)


def _history_navigation() -> bool:
    """Whether this run is the browser's back or forward button (Streamlit's frontend says so in its message)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "is_history_navigation", False))


def settings_from_url(page: str) -> None:
    """At the start of every page run of `page`, before anything is drawn: read what the URL says that this session
    did not write there itself, then write every setting back.

    A browser's message carries the address it had when it was sent: one sent just before the answer to the
    previous one arrived (a fragment's timer, a quick second click) carries a value this session has since replaced
    (CI saw a lecturer's ?step=1 come back after "next"). Such an echo of the session's own earlier address is no
    link: it is read only when a page opens (a link, a bookmark, the menu, the session's first run) or the browser's
    back and forward buttons ask for it; otherwise the session's value stands, and is written back."""
    written = _WRITTEN.get()
    ours = _OURS.get()
    opened = page != _READ_ON.get() or _history_navigation()
    _READ_ON.set(page)
    refused = []
    for setting in KEPT:
        text = st.query_params.get(setting.key)
        if text is None or (setting.key in written and text == written[setting.key]):
            continue
        if not opened and hash(text) in ours.get(setting.key, ()):
            continue
        value = setting.read(text)
        if value is None:
            refused.append(setting.key)
        else:
            setting.set(value)
    if refused:
        _REFUSED.set(refused)
    keep_in_url()


def keep_in_url(*keys: str) -> None:
    """Write the settings' values (those named, or all) into the URL, as this session's own. A page run writes
    them all at its start; code that changes one in a run that does not start a page (a fragment's) calls this."""
    written = dict(_WRITTEN.get())
    ours = dict(_OURS.get())
    for setting in KEPT:
        if keys and setting.key not in keys:
            continue
        text = setting.write(setting.get())
        if text is None:
            if setting.key in st.query_params:
                del st.query_params[setting.key]
        elif st.query_params.get(setting.key) != text:
            st.query_params[setting.key] = text
        if setting.key in written and written[setting.key] != text:
            replaced = hash(written[setting.key])
            before = tuple(old for old in ours.get(setting.key, ()) if old not in (hash(text), replaced))
            ours[setting.key] = (*before, replaced)[-ECHOES:]
        written[setting.key] = text
    _WRITTEN.set(written)
    _OURS.set(ours)


state.watch_scenario(lambda: keep_in_url(LINK_PARAM))


def refused_ui() -> None:
    """Say once, in the reader's language, which settings of the link were ignored and what they may be."""
    for key in _REFUSED.get():
        st.warning(t(f"url.bad.{key}", parts=state.PARTS), icon=":material/link_off:")
    _REFUSED.set([])


def _toggled(key: str, widget_key: str) -> None:
    SETTINGS[key].set(bool(state.widget_value(widget_key)))


def toggle_ui(label: str, key: str, help: str) -> None:
    """A switch that shows the on/off setting `key` and sets it (its widget keyed "<key>_toggle")."""
    widget_key = f"{key}_toggle"
    state.set_widget(widget_key, bool(SETTINGS[key].get()))
    st.toggle(label, key=widget_key, help=help, on_change=_toggled, args=(key, widget_key))
