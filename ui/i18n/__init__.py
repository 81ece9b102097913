"""Every user-facing string, in Spanish (the default) and English; `t` picks the active language."""

from __future__ import annotations

from ui.i18n.en import STRINGS as EN
from ui.i18n.es import STRINGS as ES

LANGUAGES: dict[str, dict[str, str]] = {"es": ES, "en": EN}
DEFAULT_LANGUAGE = "es"
LANGUAGE_NAMES = {"es": "Español", "en": "English"}


def translate(lang: str, key: str, **params) -> str:
    """The string `key` in `lang`, filled with `params`; the key itself if it is missing (a test forbids that)."""
    template = LANGUAGES.get(lang, ES).get(key, key)
    return template.format(**params) if params else template


def tm(key: str, **params) -> str:
    """`t` for text rendered as markdown: every parameter is escaped, so names users typed show literally."""
    from ui.text import md_literal

    return t(key, **{name: md_literal(value) for name, value in params.items()})


def t(key: str, **params) -> str:
    """The string `key` in the language the user picked."""
    from ui.state import current_language

    return translate(current_language(), key, **params)
