"""The sentence-to-vector page: every stage renders, the lesson's x appears, odd sentences never crash it."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine.limits import MAX_SENTENCE_CHARS, MAX_TOKENS
from engine.pipeline import pipeline, tokenize
from tests.app.helpers import HOME, ROOT, Chart, chart, charts, open_page, shown, tables
from tests.app.lesson import X, vector, written
from ui.i18n import LANGUAGES, translate

PAGE = "pages/pipeline.py"
SOURCES = (ROOT / PAGE, ROOT / "ui" / "sections" / "pipeline.py")
SENTENCE = "pipeline_sentence"  # the text input's key (kept across pages by persist_state)
AMBIGUOUS = "el perro come carne porque tiene hambre"
TOKENS_TABLE, EFFECT_TABLE = 0, 1  # the page's static tables, in page order (a table has no key or label)


def lesson_x_lines(lang: str) -> list[str]:
    """x as the page writes it, one line per token, from the lesson's transcribed x (aligned on "="): exact inputs
    keep their own two decimals, no trailing zeros."""
    names = ("x_el", "x_perro", "x_come")
    return [
        written(f"{name:<7} = ", lang) + vector(row, decimals=2, lang=lang) for name, row in zip(names, X, strict=True)
    ]


def type_sentence(at: AppTest, sentence: str) -> AppTest:
    return at.text_input(key=SENTENCE).input(sentence).run()


def code_text(at: AppTest) -> str:
    return "\n".join(block.value for block in at.code)


def rendered_text(at: AppTest) -> list[str]:
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success")
    texts = [e.value for kind in kinds for e in getattr(at, kind)]
    labels = ("text_input", "selectbox", "radio", "number_input", "toggle", "button", "metric")
    return texts + [w.label for kind in labels for w in getattr(at, kind)]


def row_labels(figure: Chart) -> list[str]:
    """A heatmap's row names as its axis writes them: the tick texts while every row is named (up to 16 rows),
    beyond that the rows' category names (plotly writes as many as fit), which must stay one per row: a repeated
    name carries invisible zero-width spaces, dropped here as the reader does not see them."""
    axis, rows = figure.layout["yaxis"], figure.trace["y"]
    if "ticktext" in axis:
        assert axis["tickvals"] == list(range(len(rows)))
        return axis["ticktext"]
    assert axis["type"] == "category" and len(set(rows)) == len(rows), rows
    return [name.replace("\u200b", "") for name in rows]


def percent(share: float, lang: str) -> str:
    """28.9% / 28,9 % (a no-break space before % in Spanish)."""
    body = f"{100 * share:.1f}"
    return body.replace(".", ",") + "\u00a0%" if lang == "es" else body + "%"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_default_sentence_shows_the_lessons_x_as_text(lang):
    at = open_page(PAGE, lang)
    assert not at.exception
    for line in lesson_x_lines(lang):
        assert line in code_text(at)
    assert [s.value for s in at.success] == [translate(lang, "pipeline.x.lesson_match")]
    assert tables(at)[TOKENS_TABLE].iloc[0].tolist() == ["el", "perro", "come"]
    assert np.allclose(chart(at, "pipe_x").trace["z"], X, rtol=0, atol=1e-12)  # embedding + PE, in floats


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_string_shows_up_as_its_bare_key(lang):
    at = open_page(PAGE, lang, pipeline_sentence=AMBIGUOUS)
    leaked = [text for text in rendered_text(at) if re.search(r"\bpipeline\.[a-z_.]+", text)]
    assert not leaked


def test_every_key_the_page_uses_exists_in_both_languages():
    source = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    keys = set(re.findall(r'\bt[m]?\(\s*"([a-z_.]+)"', source))
    keys |= {f"pipeline.example.{name}" for name in ("lesson", "ambiguity")}
    keys |= {f"pipeline.weights.{w}" for w in ("lesson", "random")}
    keys |= {f"pipeline.attention.weights_{w}" for w in ("lesson", "random")}
    keys |= {"pipeline.title", "pipeline.lead", "pipeline.error.empty_sentence"}
    assert len(keys) > 50
    for strings in LANGUAGES.values():
        assert keys <= set(strings), keys - set(strings)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_an_empty_sentence_gives_a_warning_not_an_error(lang, sentence):
    at = type_sentence(open_page(PAGE, lang), sentence)
    assert not at.exception
    # the engine's refusal, said by the one strings module for errors
    assert [w.value for w in at.warning] == [translate(lang, "error.empty_sentence")]
    assert not at.code and not charts(at)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_300_word_sentence_is_cut_and_says_how_many_tokens_were_dropped(lang):
    # 300 short words, so that the sentence fits the characters the box takes (MAX_SENTENCE_CHARS, 2,000: past it
    # the box takes nothing) and only the token limit cuts it
    sentence = " ".join(f"p{i}" for i in range(300))
    assert len(sentence) <= MAX_SENTENCE_CHARS
    at = type_sentence(open_page(PAGE, lang), sentence)
    assert not at.exception
    assert at.text_input(key=SENTENCE).value == sentence
    assert (MAX_TOKENS, 300 - MAX_TOKENS) == (64, 236)
    dropped = translate(lang, "pipeline.dropped.other", n="236", limit="64")  # more than one: the plural form
    assert dropped in [i.value for i in at.info]
    assert tables(at)[TOKENS_TABLE].shape == (1, MAX_TOKENS)


@pytest.mark.parametrize(
    "sentence", ["<img src=x onerror=alert(1)>", "<b>tiene</b> perro **negrita** $x$ `code` | [a](b)", "el el el"]
)
def test_html_markdown_and_repeated_tokens_are_shown_as_typed(sentence):
    at = type_sentence(open_page(PAGE), sentence)
    assert not at.exception
    tokens = tokenize(sentence)
    assert any(not token.isalnum() for token in tokens) or sentence == "el el el"
    # The tokens table renders markdown: each cell must show its token as typed, so every markup character in
    # it is escaped (a bare "*", "<", "`", "|" or "$" would start emphasis, HTML, code, a column or LaTeX).
    cells = tables(at)[TOKENS_TABLE].iloc[0].tolist()
    assert [shown(cell) for cell in cells] == tokens
    assert all(cell == "\\" + token for cell, token in zip(cells, tokens, strict=True) if not token.isalnum())
    # The figures' labels are plotly text, which reads HTML tags: every token reaches them HTML-escaped, one
    # row each (a repeated token stays its own row).
    for key in ("pipe_embed", "pipe_x", "pipe_weights", "pipe_output"):
        assert row_labels(chart(at, key)) == [html.escape(token, quote=False) for token in tokens]
    # The vectors as text are st.code, which renders nothing: the tokens appear there exactly as typed.
    x_names = [line.split(" = ")[0].strip() for line in code_text(at).splitlines() if line.startswith("x_")]
    assert x_names == [f"x_{token}" for token in tokens]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_ambiguity_example_shows_the_real_weights_from_tiene(lang):
    at = open_page(PAGE, lang)
    at.button(key="pipeline_example_ambiguity").click().run()
    assert not at.exception
    assert at.text_input(key=SENTENCE).value == AMBIGUOUS
    assert translate(lang, "pipeline.ambiguity.title") in [h.value for h in at.header]
    result = pipeline(AMBIGUOUS)
    tiene = result.tokens.index("tiene")
    shown_metrics = {m.label: m.value for m in at.metric}
    for word in ("perro", "carne", "hambre"):
        expected = percent(result.attention.weights[tiene, result.tokens.index(word)], lang)
        assert shown_metrics[translate(lang, "pipeline.ambiguity.metric", word=word)] == expected


def test_without_tiene_there_is_no_ambiguity_section():
    at = open_page(PAGE)
    assert translate("es", "pipeline.ambiguity.title") not in [h.value for h in at.header]


def test_the_lessons_weights_are_offered_only_at_d_model_4():
    at = open_page(PAGE)
    assert at.radio(key="pipeline_weights").value == "lesson"
    at.selectbox(key="pipeline_d_model").select(6).run()
    assert not at.exception
    assert not at.main.radio
    assert translate("es", "pipeline.weights.only_random", d=4) in [c.value for c in at.caption]
    assert "x_perro = [" in code_text(at)
    assert at.number_input(key="pipeline_seed").value == 0
    assert len(chart(at, "pipe_x").trace["z"][0]) == 6


def test_the_causal_mask_leaves_the_first_token_looking_only_at_itself():
    at = open_page(PAGE)
    at.toggle(key="pipeline_causal").set_value(True).run()
    assert not at.exception
    effect = tables(at)[EFFECT_TABLE]
    assert shown(effect.iloc[0, 1]) == "el (0)"
    assert effect.iloc[0, 2] == "1,000"
    assert effect.iloc[0, 3] == "—" and effect.iloc[0, 4] == "—"  # no second choice: the rest is masked
    weights = chart(at, "pipe_weights")
    assert weights.cell_texts[0] == ["1,000", "0,000", "0,000"]
    assert weights.trace["z"][0][1:] == [None, None]  # the masked cells have no colour


def test_the_sentence_and_settings_survive_a_trip_to_another_page():
    at = type_sentence(open_page(PAGE), "hola mundo")
    at.selectbox(key="pipeline_d_model").select(8).run()
    at.switch_page(HOME).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.text_input(key=SENTENCE).value == "hola mundo"
    assert at.selectbox(key="pipeline_d_model").value == 8
    assert tables(at)[TOKENS_TABLE].iloc[0].tolist() == ["hola", "mundo"]


def test_the_wave_plot_shades_the_sentence_once_however_often_the_page_reruns():
    # figures are cached and shared between sessions: a page that decorated one after the fact would make it
    # grow a band on every rerun; the band is part of its figure, drawn once over the sentence's positions
    at = open_page(PAGE, "en")
    for _ in range(3):
        at.run()
    shapes = chart(at, "pipe_waves").layout["shapes"]
    assert [(shape["type"], shape["x0"], shape["x1"]) for shape in shapes] == [("rect", -0.5, 2.5)]


def perro_wins(d_model: int, seed: int) -> bool:
    """Whether «tiene» gives «perro» more weight than «carne» and «hambre», with seeded random matrices."""
    result = pipeline(AMBIGUOUS, d_model=d_model, weights="random", seed=seed)
    row = result.attention.weights[result.tokens.index("tiene")]
    return max(("perro", "carne", "hambre"), key=lambda word: row[result.tokens.index(word)]) == "perro"


PROMISES_A_CHANGE = {"es": re.compile(r"vas a ver cómo cambia"), "en": re.compile(r"watch the winner change")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_lucky_perro_says_other_seeds_may_or_may_not_keep_it_not_that_they_change_it(lang):
    """Issue 30: where «perro» wins by luck the page said "change the seed or d_model and watch the winner change";
    at d_model 4, seeds 11, 12 and 13 all let «perro» win, so the next seed need not change it. What the numbers
    show is that over seeds «perro» wins some of the time and not the rest."""
    for d_model in range(2, 9):  # at every d_model the page offers, some seeds let «perro» win and some do not
        assert len({perro_wins(d_model, seed) for seed in range(20)}) == 2, d_model
    wins = [perro_wins(4, seed) for seed in range(20)]
    assert wins[11] and wins[12]  # the next seed after a lucky one can be lucky too
    at = open_page(PAGE, lang, pipeline_sentence=AMBIGUOUS, pipeline_weights="random", pipeline_seed=11)
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(shown(str(m.value)) for m in at.markdown)
    assert translate(lang, "pipeline.ambiguity.lucky") in text
    assert not PROMISES_A_CHANGE[lang].search(text), text
