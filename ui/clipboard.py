"""Visible copy buttons ("Copy link", a matrix's "Copy LaTeX" and "Copy CSV"): st.code's own copy icon only
shows while the mouse is over the box.

A tiny `st.components.v2` component (no iframe, no rerun), its code in `ui/static/copy.js` (served once, a small
loader in each element: `ui/served.py`): each button copies its text with the browser's clipboard and says so;
where the browser refuses (no clipboard access, a page not served over HTTPS), it says how to copy by hand and
selects the text in a box beside it. The texts are set as the box's value and the labels as text, never as HTML.
"""

from __future__ import annotations

import streamlit as st

from ui import served
from ui.i18n import t

_LOADER = served.loader("copy.js", "module.draw(component)")

_copy_button = st.components.v2.component("attention_copy_button", js=_LOADER)


def copy_buttons_ui(items: list[tuple[str, str, str]], *, key: str, failed: str) -> None:
    """One button for each (label, text, said once copied) of `items`, side by side, and what to say (`failed`)
    when the browser refuses: then the text is selected in a box below, to copy by hand."""
    served.serve_files()
    _copy_button(
        key=key,
        data={
            "items": [{"label": label, "text": text, "copied": copied} for label, text, copied in items],
            "failed": failed,
        },
        height="content",
    )


def copy_button_ui(text: str, *, key: str) -> None:
    """A button that copies `text` (a link) and says that it did, or how to copy it by hand."""
    copy_buttons_ui([(t("share.copy"), text, t("share.copied"))], key=key, failed=t("share.copy_failed"))
