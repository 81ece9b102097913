"""Every user-facing string, in Spanish (the default) and English; `t` picks the reader's language.

Strings live in `ui/i18n/es/` and `ui/i18n/en/`, one module per page (and `common`): a test checks that both
languages have the same keys with the same placeholders.
"""

from __future__ import annotations

from ui import state
from ui.i18n.en import STRINGS as EN
from ui.i18n.es import STRINGS as ES
from ui.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES
from ui.numbers import count as written_count
from ui.text import md_literal

LANGUAGES: dict[str, dict[str, str]] = {"es": ES, "en": EN}

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LANGUAGE_NAMES", "has", "plural", "t", "tm", "translate"]


def translate(lang: str, key: str, **params: object) -> str:
    """The string `key` in `lang`, filled with `params`; the key itself if it is missing (a test forbids that)."""
    template = LANGUAGES.get(lang, ES).get(key, key)
    return template.format(**params) if params else template


def t(key: str, **params: object) -> str:
    """The string `key` in the reader's language (the session's, ui.state)."""
    return translate(state.current_language(), key, **params)


def has(key: str) -> bool:
    """Whether the reader's language has the string `key` (an optional, more precise wording)."""
    return key in LANGUAGES.get(state.current_language(), ES)


def tm(key: str, **params: object) -> str:
    """`t` for text rendered as markdown: every parameter is escaped, so names users typed show literally."""
    return t(key, **{name: md_literal(value) for name, value in params.items()})


def plural(key: str, count: int, **params: object) -> str:
    """`key.one` when count is 1, else `key.other`, filled with the count (written in the reader's language)."""
    form = "one" if count == 1 else "other"
    return t(f"{key}.{form}", n=written_count(count), **params)
