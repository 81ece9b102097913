"""The theme part of Streamlit's `new_session` message, built once per theme instead of at every run.

Streamlit sends a `new_session` message at the start of every script run, a fragment's run included: a live-class
follower's poll (`ui.live.follow.follow_poll_ui`) is one. Streamlit 1.67 fills its theme from the config at
each of them (`streamlit.runtime.app_session._populate_theme_msg`, six sections, each a scan of all 367 config
options under the config's lock): 12 % of a server's busy time with 100 students following (py-spy), 0.36 ms of
each run's server CPU (0.08 ms kept). A follower's poll that finds nothing new: 6.00 ms, 5.42 ms with the theme kept
(README, "The serving configuration").

`install()` puts a memoised copy in its place: the section's option names are found once per config, their values
are read at every call (not parsed: compared with those the kept message was built from), and the message
Streamlit's own function builds for those values is kept and merged into the message. So a changed theme (an
option set, or the config read again) builds a new one, and the bytes sent are Streamlit's own:
`tests/ui/test_theme_message.py` compares them section by section, and checks that the pinned Streamlit still has
the function by that name and signature. ATTENTION_THEME_MESSAGE=streamlit leaves Streamlit's function in place.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable

from streamlit import config
from streamlit.proto.NewSession_pb2 import CustomThemeConfig
from streamlit.runtime import app_session

SWITCH = os.environ.get("ATTENTION_THEME_MESSAGE", "cached")  # "streamlit": Streamlit's own function, every run

Populate = Callable[..., None]
_original: Populate = app_session._populate_theme_msg
_keys: dict[str, tuple[dict, tuple[str, ...]]] = {}  # section -> (the config's options, the section's option keys)
_built: dict[str, tuple[tuple, bytes]] = {}  # section -> (the values it was built from, the message's bytes)


def _section_keys(options: dict, section: str) -> tuple[str, ...]:
    found = _keys.get(section)
    if found is None or found[0] is not options:  # the config was read again: its options are new objects
        found = (options, tuple(key for key, option in options.items() if option.section == section))
        _keys[section] = found
    return found[1]


def populate_theme_msg(msg: CustomThemeConfig, section: str = "theme") -> None:
    """What `app_session._populate_theme_msg(msg, section)` does to an empty message, from a kept copy."""
    options = config.get_config_options()
    values = tuple(options[key].value for key in _section_keys(options, section))
    kept = _built.get(section)
    if kept is None or kept[0] != values:
        fresh = CustomThemeConfig()
        _original(fresh, section)
        kept = (values, fresh.SerializeToString())
        _built[section] = kept
    msg.MergeFromString(kept[1])


def install() -> bool:
    """Put `populate_theme_msg` in Streamlit's place (once per process); False where it is switched off or the
    pinned Streamlit's function is not the one this copies."""
    if SWITCH == "streamlit":
        return False
    if app_session._populate_theme_msg is populate_theme_msg:
        return True
    if list(inspect.signature(_original).parameters) != ["msg", "section"]:
        return False
    app_session._populate_theme_msg = populate_theme_msg
    return True
