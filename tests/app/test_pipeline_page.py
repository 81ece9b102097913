"""The sentence-to-vector page: every stage renders, the lesson's x appears, odd sentences never crash it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from ui.format import percent

from engine import MAX_TOKENS, pipeline
from tests.app.helpers import figures
from ui.i18n import LANGUAGES, translate

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/full_pipeline.py"
SENTENCE = "pipeline_sentence"  # the text input's key (kept across pages by persist_state)
AMBIGUOUS = "el perro come carne porque tiene hambre"
LESSON_X_TEXT = (
    "x_el    = [+0.210, +0.450, +0.080, +1.430]",
    "x_perro = [+0.500, +1.150, +0.780, +0.880]",
    "x_come  = [+1.360, -0.640, -0.280, +1.910]",
)
TOKENS_TABLE, EFFECT_TABLE = 0, 1  # the page's static tables, in page order


def open_page(lang: str = "es", **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(PAGE)
    return at.run()


def type_sentence(at: AppTest, sentence: str) -> AppTest:
    return at.text_input(key=SENTENCE).input(sentence).run()


def code_text(at: AppTest) -> str:
    return "\n".join(block.value for block in at.code)


def rendered_text(at: AppTest) -> list[str]:
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success")
    texts = [e.value for kind in kinds for e in getattr(at, kind)]
    labels = ("text_input", "selectbox", "radio", "number_input", "toggle", "button", "metric")
    return texts + [w.label for kind in labels for w in getattr(at, kind)]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_default_sentence_shows_the_lessons_x_as_text(lang):
    at = open_page(lang)
    assert not at.exception
    for line in LESSON_X_TEXT:
        assert line in code_text(at)
    assert [s.value for s in at.success] == [translate(lang, "pipeline.x.lesson_match")]
    assert at.table[TOKENS_TABLE].value.iloc[0].tolist() == ["el", "perro", "come"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_string_shows_up_as_its_bare_key(lang):
    at = open_page(lang, pipeline_sentence=AMBIGUOUS)
    leaked = [text for text in rendered_text(at) if re.search(r"\bpipeline\.[a-z_.]+", text)]
    assert not leaked


def test_every_key_the_page_uses_exists_in_both_languages():
    source = (ROOT / PAGE).read_text(encoding="utf-8")
    keys = set(re.findall(r'\bt\(\s*"([a-z_.]+)"', source))
    keys |= {f"pipeline.example.{name}" for name in ("lesson", "ambiguity")}
    keys |= {f"pipeline.weights.{w}" for w in ("lesson", "random")}
    keys |= {f"pipeline.attention.weights_{w}" for w in ("lesson", "random")}
    keys |= {"pipeline.title", "pipeline.lead"}  # through page_header
    assert len(keys) > 50
    for strings in LANGUAGES.values():
        assert keys <= set(strings), keys - set(strings)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_an_empty_sentence_gives_a_warning_not_an_error(lang, sentence):
    at = type_sentence(open_page(lang), sentence)
    assert not at.exception
    assert [w.value for w in at.warning] == [translate(lang, "pipeline.empty")]
    assert not at.code


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_300_word_sentence_is_cut_and_says_how_many_tokens_were_dropped(lang):
    at = type_sentence(open_page(lang), " ".join(f"palabra{i}" for i in range(300)))
    assert not at.exception
    assert translate(lang, "pipeline.dropped", dropped=300 - MAX_TOKENS, limit=MAX_TOKENS) in [i.value for i in at.info]
    assert at.table[TOKENS_TABLE].value.shape == (1, MAX_TOKENS)


@pytest.mark.parametrize(
    "sentence", ["<img src=x onerror=alert(1)>", "<b>tiene</b> perro **negrita** $x$ `code`", "el el el"]
)
def test_html_markdown_and_repeated_tokens_are_shown_as_plain_text(sentence):
    at = type_sentence(open_page(), sentence)
    assert not at.exception
    tokens = at.table[TOKENS_TABLE].value.iloc[0].tolist()
    assert tokens == list(pipeline(sentence).tokens)
    assert not any("<img" in text or "<b>" in text for text in rendered_text(at))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_ambiguity_example_shows_the_real_weights_from_tiene(lang):
    at = open_page(lang)
    at.button(key="pipeline_example_ambiguity").click().run()
    assert not at.exception
    assert at.text_input(key=SENTENCE).value == AMBIGUOUS
    assert translate(lang, "pipeline.ambiguity.title") in [h.value for h in at.header]
    result = pipeline(AMBIGUOUS)
    tiene = result.tokens.index("tiene")
    shown = {m.label: m.value for m in at.metric}
    for word in ("perro", "carne", "hambre"):
        expected = percent(result.attention.weights[tiene, result.tokens.index(word)])
        assert shown[translate(lang, "pipeline.ambiguity.metric", word=word)] == expected


def test_without_tiene_there_is_no_ambiguity_section():
    at = open_page()
    assert translate("es", "pipeline.ambiguity.title") not in [h.value for h in at.header]


def test_the_lessons_weights_are_offered_only_at_d_model_4():
    at = open_page()
    assert at.radio(key="pipeline_weights").value == "lesson"
    at.selectbox(key="pipeline_d_model").select(6).run()
    assert not at.exception
    assert not at.main.radio
    assert translate("es", "pipeline.weights.only_random", d=4) in [c.value for c in at.caption]
    assert "x_perro = [" in code_text(at)
    assert at.number_input(key="pipeline_seed").value == 0


def test_the_causal_mask_leaves_the_first_token_looking_only_at_itself():
    at = open_page()
    at.toggle(key="pipeline_causal").set_value(True).run()
    assert not at.exception
    effect = at.table[EFFECT_TABLE].value
    assert effect.iloc[0, 1] == "el (0)"
    assert effect.iloc[0, 2] == "1.000"
    assert effect.iloc[0, 3] == "—" and effect.iloc[0, 4] == "—"  # no second choice: the rest is masked


def test_the_sentence_and_settings_survive_a_trip_to_another_page():
    at = type_sentence(open_page(), "hola mundo")
    at.selectbox(key="pipeline_d_model").select(8).run()
    at.switch_page("pages/home.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.text_input(key=SENTENCE).value == "hola mundo"
    assert at.selectbox(key="pipeline_d_model").value == 8
    assert at.table[TOKENS_TABLE].value.iloc[0].tolist() == ["hola", "mundo"]


def test_the_wave_plot_shades_the_sentence_once_however_often_the_page_reruns():
    # figures were once cached and shared between sessions, and a page that decorated one after the fact made
    # it grow a highlight band on every rerun; the band is drawn with its figure
    at = open_page("en")
    for _ in range(3):
        at.run()
    bands = [figure.count('fill="gold"') for figure in figures(at)]
    assert sorted(bands, reverse=True)[:2] == [1, 0], bands
