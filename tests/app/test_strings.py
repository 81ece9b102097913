"""Every user-facing string exists in both languages with the same placeholders, and every key used exists."""

import re
import string
from pathlib import Path

import pytest

from engine import Scale
from engine.peakedness import VERDICTS
from ui.i18n import LANGUAGES
from ui.pages import PAGES
from ui.url import KEPT

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
    keys |= (
        {f"walk.code.{i}" for i in (1, 2, 4, 5)}
        | {f"walk.code.3.{mode}" for mode in Scale}
        | {f"editor.{dim}" for dim in ("d_model", "d_k")}
    )
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
    keys |= {f"url.bad.{setting.key}" for setting in KEPT if setting.refusable}
    keys |= new_pages_dynamic_keys()
    return keys


def new_pages_dynamic_keys() -> set[str]:
    """The questions', the editor's and the multi-head, learning and real-model pages' built keys, from the
    constants the code builds them from (or, where the value comes from data, the values it can take)."""
    from engine.questions.core import Outcome
    from ui.editing import PARTS as REFUSAL_PARTS
    from ui.sections.learning.tabs import SECTIONS as LEARN_SECTIONS
    from ui.sections.real_model import MEASURES
    from ui.view_models.multihead import COST_ROWS
    from ui.view_models.multihead import PARTS as MH_PARTS

    keys = {f"quiz.scale.{mode}" for mode in Scale} | {f"quiz.rule.{mode}" for mode in Scale}
    keys |= {f"quiz.outcome.{outcome}" for outcome in (*Outcome, "shown")}
    keys |= {f"quiz.line.{line}" for line in ("row", "column")}
    keys |= {f"quiz.error.{code}" for code in ("pick_one", "not_a_number", "empty_or_nan", "infinite", "too_large")}
    keys |= {f"quiz.export.col.{name}" for name in ("page", "template", "question", "answers", "right_answer")}
    keys |= {
        f"quiz.option.{option}"
        for option in (
            "spreads",
            "concentrates",
            "unchanged",
            "symmetric",
            "not_symmetric",
            "valid",
            "negative_share",
            "division_by_zero",
            "order_reversed",
        )
    }
    keys |= {
        f"quiz.given.{name}"
        for name in ("title", "token", "x", "w_q", "w_k", "w_v", "q", "k", "v", "scores", "scaled_scores", "weights")
    }
    keys |= {f"editor.refused.{part}" for part in REFUSAL_PARTS}
    keys |= {f"real.example.{lang}" for lang in LANGUAGES} | {f"real.sort.{name}" for name in MEASURES}
    keys |= {f"real.measure.{name}" for name in MEASURES} | {f"real.measure.{name}.help" for name in MEASURES}
    keys |= {f"real.question.title.{asker}" for asker in ("tiene", "it")}
    keys |= {f"real.about.from.{origin}" for origin in ("env", "secret", "hub")}
    keys |= {f"learn.target.is.{name}" for name in ("previous", "subject", "tiene_perro", "identity")}
    keys |= {f"learn.optimiser.{name}" for name in ("adam", "gd")} | {f"learn.scale_name.{mode}" for mode in Scale}
    keys |= {f"learn.gradient.when_text.{when}" for when in ("start", "end")}
    keys |= {f"learn.stall.output.{verdict}" for verdict in ("small", "stalled", "slower")}
    keys |= {f"learn.send.matrices.{n}" for n in (2, 3)} | {f"learn.tab.{name}" for name in LEARN_SECTIONS}
    keys |= {f"scaling.lesson.{mode}" for mode in ("none", "sqrt")}
    keys |= {f"softmax.reading.{kind}" for kind in ("single", "equal", "saturated", "balanced", "flat")}
    keys |= {f"walk.4.reading.{kind}" for kind in VERDICTS}
    keys |= {f"peak.{form}.{kind}" for form in ("rows", "one") for kind in VERDICTS}
    keys |= {f"learn.stall.output.header.{verdict}" for verdict in ("small", "stalled", "slower")}
    keys |= {f"learn.stall.weights.header.{fate}" for fate in ("converged", "diverged", "stuck")}
    keys |= {f"mh.distinct.{who}" for who in ("one", "many", "same")}
    keys |= {f"ctx.example.{lang}" for lang in LANGUAGES} | {f"ctx.reading.{start}" for start in ("same", "split")}
    keys |= {f"ctx.reading.{verdict}" for verdict in ("lower", "close", "higher")}
    keys |= {f"mh.cost.{row}" for row in COST_ROWS} | {f"mh.part.{name}" for name in MH_PARTS}
    keys |= {f"mh.job.{job}" for job in ("previous", "self", "one_token", "spread", "look", "mixed", "mixed_rest")}
    keys |= {f"mh.job.{job}.masked" for job in ("previous", "self")}
    keys |= {f"mh.built.{job}" for job in ("previous", "subject", "self", "first")}
    keys |= live_dynamic_keys()
    return keys


def live_dynamic_keys() -> set[str]:
    """The live class's built keys: every ClassError code and the UI's own refusals, the tally's columns."""
    from classroom.api import ERROR_CODES
    from classroom.tally import CSV_HEADER
    from ui.live.seats import UI_ERRORS

    keys = {f"live.error.{code}" for code in (*ERROR_CODES, *UI_ERRORS)}
    return keys | {f"live.export.col.{name}" for name in CSV_HEADER}


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


# --- a string left in English in the Spanish strings (issue 26, item 9) ---

# The words a string may share with its translation, each with its reason; any other word in a string that is
# the same in both languages is an English string left in Spanish (or the reverse).
SHARED_WORDS = {
    # the field's English terms, which the lesson's Spanish uses as they are
    "token": "the lesson's Spanish says token",
    "tokens": "the lesson's Spanish says tokens",
    "score": "the lesson's Spanish says score",
    "scores": "the lesson's Spanish says scores",
    "softmax": "a function's name, in the lesson's Spanish too",
    "embedding": "the lesson's Spanish says embedding",
    "embeddings": "the lesson's Spanish says embeddings",
    "encoder": "Spanish courses name the Transformer's halves in English: encoder",
    "decoder": "... and decoder",
    "self": "self-attention: the lesson's Spanish says self-attention",
    "attention": "self-attention: the lesson's Spanish says self-attention",
    "output": "the lesson's Spanish says output",
    # names: an optimiser, functions as formulas write them, an abbreviation, a symbol
    "adam": "the optimiser's name",
    "concat": "Concat, a function's name in the formula",
    "multihead": "MultiHead(x), a function's name in the formula",
    "layernorm": "LayerNorm, a function's name in the formula",
    "pe": "PE, the positional encoding's symbol in the formula x = embedding + PE",
    "kᵀ": "K transposed, a symbol",
    # spelt the same in both languages
    "divisor": "the same word in Spanish",
    "matrices": "the same word in Spanish",
    "no": "the same word in Spanish",
    # the lesson's example sentence, quoted in both languages
    "tiene": "a word of «el perro come carne porque tiene hambre»",
}
# Keys whose text is code or LaTeX: the same in every language by nature.
CODE_KEYS = {
    "walk.code.1": "Python code",
    "walk.code.2": "Python code",
    "walk.code.5": "Python code",
    "walk.3.formula.none": "LaTeX",
    "walk.3.formula.sqrt": "LaTeX",
    "walk.3.formula.dk": "LaTeX",
}


def words(text: str) -> set[str]:
    """The words of a string, lower-cased: placeholders ({name}) and identifiers (d_k, W_Q) are not words."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\b\w*_\w*\b", " ", text)
    return {word.lower() for word in re.findall(r"[^\W\d_]{2,}", text)}


def test_no_string_is_the_same_in_both_languages_unless_its_words_are_shared_or_it_is_code():
    es, en = LANGUAGES["es"], LANGUAGES["en"]
    identical = [key for key in es if es[key] == en[key] and key not in CODE_KEYS]
    assert len(identical) > 50, "the comparison found too few identical strings: it is broken"
    left = {key: sorted(words(es[key]) - set(SHARED_WORDS)) for key in identical}
    assert {key: unshared for key, unshared in left.items() if unshared} == {}


def test_the_allow_lists_are_all_still_needed():
    es, en = LANGUAGES["es"], LANGUAGES["en"]
    assert sorted(key for key in CODE_KEYS if es[key] != en[key]) == []
    used = set().union(*(words(es[key]) for key in es if es[key] == en[key] and key not in CODE_KEYS))
    assert sorted(set(SHARED_WORDS) - used) == []


def test_an_english_string_left_in_spanish_is_caught():
    assert words("Step by step: {n} tokens") - set(SHARED_WORDS) == {"step", "by"}
