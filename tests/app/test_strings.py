"""Every user-facing string exists in both languages with the same placeholders, and every key used exists."""

import re
import string
from pathlib import Path

import pytest

from engine import Scale
from ui.i18n import LANGUAGES
from ui.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*ROOT.glob("app.py"), *ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py")]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def literal_keys() -> set[str]:
    """Keys passed as plain string literals to t(...) or page_header(...) anywhere in the app."""
    pattern = re.compile(r"""\b(?:t|tm|page_header|editing_container)\(\s*["']([a-z_][\w.]*)["']""")
    keys = set()
    for path in SOURCES:
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def dynamic_keys() -> set[str]:
    """Keys the app builds from a prefix and a value; listed here from the values they can take."""
    keys = {f"page.{spec.key}" for spec in PAGES} | {f"home.map.{spec.key}" for spec in PAGES[1:]}
    keys |= {f"walk.name.{i}" for i in range(1, 6)} | {f"scenario.scale.{mode}" for mode in Scale}
    keys |= {f"softmax.naive.problem.{p}" for p in ("sum_zero", "sum_negative", "negative_entries")}
    keys |= {f"home.search.{role}.{part}" for role in ("query", "key", "value") for part in ("title", "body")}
    keys |= {f"softmax.preset.{name}" for name in ("lesson", "negative", "huge")}
    keys |= {
        f"error.{code}"
        for code in (
            "not_a_number",
            "empty_or_nan",
            "infinite",
            "too_large",
            "empty_token",
            "duplicate_token",
            "token_too_long",
            "too_many_tokens",
            "no_tokens",
            "no_scores",
            "too_many_scores",
        )
    }
    return keys


def test_both_languages_have_the_same_keys():
    es, en = LANGUAGES["es"], LANGUAGES["en"]
    assert sorted(set(es) - set(en)) == []
    assert sorted(set(en) - set(es)) == []


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_no_string_is_empty(lang):
    assert [key for key, text in LANGUAGES[lang].items() if not text.strip()] == []


def test_translations_fill_the_same_placeholders():
    es, en = LANGUAGES["es"], LANGUAGES["en"]
    assert [key for key in es if placeholders(es[key]) != placeholders(en.get(key, ""))] == []


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_key_the_app_uses_exists(lang):
    used = literal_keys() | dynamic_keys()
    assert len(used) > 100, "the scan found too few keys: the pattern is broken"
    assert sorted(used - set(LANGUAGES[lang])) == []


def test_the_scan_finds_a_key_it_should():
    assert "softmax.check" in literal_keys()
