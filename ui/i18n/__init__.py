"""Every user-facing string, in Spanish (the default) and English; `t` picks the reader's language.

Strings live in one package per language, `ui/i18n/es/` and `ui/i18n/en/`, one module per page (and `common`
for what pages share), each module a `STRINGS` dict. Every module of a language's package is read, and a key
may be defined once per language; a test checks that both languages have the same keys with the same
placeholders.
"""

from __future__ import annotations

import importlib
import pkgutil

from ui import state
from ui.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES
from ui.numbers import count as written_count
from ui.text import md_literal

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LANGUAGE_NAMES", "has", "plural", "t", "tm", "translate"]


def language_strings(lang: str) -> dict[str, str]:
    """Every module of the package `ui.i18n.<lang>` merged into one dict (KeyError if two define a key)."""
    package = importlib.import_module(f"{__name__}.{lang}")
    merged: dict[str, str] = {}
    for found in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package.__name__}.{found.name}")
        repeated = merged.keys() & module.STRINGS.keys()
        if repeated:
            raise KeyError(f"{module.__name__} repeats {sorted(repeated)}")
        merged.update(module.STRINGS)
    return merged


LANGUAGES: dict[str, dict[str, str]] = {lang: language_strings(lang) for lang in LANGUAGE_NAMES}
DEFAULT_STRINGS = LANGUAGES[DEFAULT_LANGUAGE]


def translate(lang: str, key: str, **params: object) -> str:
    """The string `key` in `lang`, filled with `params`; the key itself if it is missing (a test forbids that)."""
    template = LANGUAGES.get(lang, DEFAULT_STRINGS).get(key, key)
    return template.format(**params) if params else template


def t(key: str, **params: object) -> str:
    """The string `key` in the reader's language (the session's, ui.state)."""
    return translate(state.current_language(), key, **params)


def has(key: str) -> bool:
    """Whether the reader's language has the string `key` (an optional, more precise wording)."""
    return key in LANGUAGES.get(state.current_language(), DEFAULT_STRINGS)


def tm(key: str, **params: object) -> str:
    """`t` for text rendered as markdown: every parameter is escaped, so names users typed show literally."""
    return t(key, **{name: md_literal(value) for name, value in params.items()})


def plural(key: str, count: int, **params: object) -> str:
    """`key.one` when count is 1, else `key.other`, filled with the count (written in the reader's language)."""
    form = "one" if count == 1 else "other"
    return t(f"{key}.{form}", n=written_count(count), **params)
