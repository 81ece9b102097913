"""The document's language, `<html lang>`, follows the reader's: a screen reader reads Spanish with Spanish rules.

Streamlit serves every page as `<html lang="en">` and nothing in its frontend changes it (WCAG 3.1.1). A tiny
`st.components.v2` component, run in the page's own document (no iframe), sets `document.documentElement.lang`
every time it is drawn with a language: each page run draws it (ui.shell), so a page switch, a reload and a
language switch all set it; the attribute stays as set between runs, since Streamlit's frontend never writes it.
The JavaScript is a fixed constant and the language is one of ui.languages' codes, never user text.
"""

from __future__ import annotations

import streamlit as st

from ui.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES

KEY = "page_lang"

_JS = """
export default function (component) {
  document.documentElement.lang = component.data.lang;
}
"""

_page_language = st.components.v2.component("attention_page_language", js=_JS)


def page_language_ui(lang: str) -> None:
    """Set the document's `lang` to `lang` (a code of ui.languages; anything else gives the default's)."""
    _page_language(key=KEY, data={"lang": lang if lang in LANGUAGE_NAMES else DEFAULT_LANGUAGE}, height=0)
