"""Every user-facing string exists in both languages with the same placeholders, and every key used exists."""

import re
import string
from pathlib import Path

import pytest

from engine import VERDICTS, Scale
from ui.i18n import LANGUAGES
from ui.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *ROOT.glob("app.py"),
    *ROOT.glob("pages/*.py"),
    *(path for path in ROOT.glob("ui/**/*.py") if "i18n" not in path.parts),
]
TEMPLATE_CALL = re.compile(r"""\b(?:t|tm)\(\s*f["']([a-z_{][^"']*)["']""")


def placeholders(template: str) -> set[str]:
    """The names a template fills; a text with braces of its own (LaTeX) is never formatted: a marker instead."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return {"<literal text with braces>"}


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
    keys |= {f"walk.name.{i}" for i in (1, 2, 4, 5)} | {f"scenario.scale.{mode}" for mode in Scale}
    keys |= {f"walk.{name}.{mode}" for name in ("name.3", "3.body", "3.formula") for mode in Scale}
    keys |= {f"walk.code.{i}" for i in range(1, 6)} | {f"editor.{dim}" for dim in ("d_model", "d_k")}
    keys |= {f"scaling.tab.{name}" for name in ("idea", "walk", "experiment", "row", "summary")}
    keys |= {f"scaling.divisor.{mode}" for mode in Scale} | {f"scaling.verdict.{v}" for v in VERDICTS}
    keys |= {f"pipeline.example.{name}" for name in ("lesson", "ambiguity")} | {"pipeline.error.empty_sentence"}
    keys |= {f"pipeline.weights.{w}" for w in ("lesson", "random")}
    keys |= {f"pipeline.attention.weights_{w}" for w in ("lesson", "random")}
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


def template_patterns() -> dict[str, re.Pattern]:
    """Keys the app builds with f-strings (t(f"walk.name.{part}")), as patterns: "{...}" stands for a piece."""
    found = {}
    for path in SOURCES:
        for template in TEMPLATE_CALL.findall(path.read_text(encoding="utf-8")):
            pieces = re.split(r"\{[^}]*\}", template)
            found[template] = re.compile("[^ ]+".join(re.escape(piece) for piece in pieces))
    return found


def test_every_key_template_the_app_uses_names_existing_keys_and_is_listed_here():
    patterns = template_patterns()
    assert "walk.name.{part}" in patterns, "the scan found too few templates: the pattern is broken"
    listed = dynamic_keys()
    for lang, strings in LANGUAGES.items():
        for template, pattern in patterns.items():
            if template.startswith("{"):
                continue  # a whole key passed in (plural's "{key}.{form}"): its callers' keys are checked
            assert any(pattern.fullmatch(key) for key in strings), (lang, template)
            assert any(pattern.fullmatch(key) for key in listed), f"list the keys of {template} in dynamic_keys()"
