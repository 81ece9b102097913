"""The real-model page, on tiny models written in the real file formats: what it shows is what the engine computes.

Every expected number comes from the engine's own `encode`, `rank_heads` and `cell_derivation` run here on the
same files (those are checked against loop references in tests/engine/test_encoder.py), or from a derivation's own
written operands (tests/app/derivation_check.py). The hub is never reached: `model_files.download_model` is
replaced by stand-ins and the hub client's cache points at an empty folder.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine import model_files
from engine.encoder import cell_derivation, encode, find_word, rank_heads, word_attention
from engine.errors import EngineInputError
from engine.limits import MAX_MODEL_TOKENS, MAX_SENTENCE_CHARS
from engine.model_files import load_model, tokenize
from harness.fake_hub import FakeHub, model_files_of
from harness.tiny_model import (
    SENTENCE,
    TINY_CONFIG,
    TINY_XLM_ROBERTA_CONFIG,
    TINY_XLMR_VOCAB_CONFIG,
    XLMR_VOCAB,
    random_bert_tensors,
    write_model,
)
from tests.app.derivation_check import check_block
from tests.app.helpers import figure_elements, open_page, page_text, shown, tables
from ui import charts, model_source
from ui.i18n import LANGUAGES, translate
from ui.numbers import count, fixed
from ui.sections.real_model_context import FOLD_KEY
from ui.text import md_literal

PAGE = "pages/real_model.py"
ROOT = Path(__file__).resolve().parents[2]
LANGS = ("es", "en")
PIECES_TABLE = 0  # the first static table on the page
REAL_DOWNLOAD = model_files.download_model  # before tests/app/conftest.py puts its offline stand-in there


@pytest.fixture(autouse=True)
def each_test_a_fresh_server(fresh_server):
    """Each test is a fresh server (tests/app/conftest.py)."""


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    # seed 5: ranking the heads by the weight to «perro» alone would give another order than by the difference
    return write_model(tmp_path_factory.mktemp("tiny"), tensors=random_bert_tensors(TINY_CONFIG, seed=5))


@pytest.fixture
def local_model(monkeypatch, tiny_dir) -> Path:
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(tiny_dir))
    return tiny_dir


def computed(directory: Path, sentence: str = SENTENCE):
    """The engine's own numbers for `sentence` through the model in `directory`."""
    model = load_model(directory)
    tokens = tokenize(model, sentence)
    return model, tokens, encode(tokens.ids, model.weights, model.config)


def charts_of(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in figure_elements(at)]


def chart_keyed(at: AppTest, key: str) -> dict:
    """The figure drawn with widget key `key` (the page draws others: the same word in two sentences)."""
    (figure,) = [json.loads(c.proto.spec) for c in figure_elements(at) if c.proto.id.endswith(f"-{key}")]
    return figure


def small_multiples(at: AppTest) -> dict:
    """The figure of every head."""
    return chart_keyed(at, "real_multiples")


def picked_head(at: AppTest) -> dict:
    """The picked head's figure, with each cell's arithmetic on hover."""
    return chart_keyed(at, "real_head_figure")


def mosaic_of(figure: dict, layers: int, n: int) -> tuple[np.ndarray, int]:
    """The small multiples' matrix (NaN in the gaps) and the distance from one panel to the next."""
    z = figure["data"][0]["z"]  # sent as plotly's binary array: base64 of float32, NaN in the gaps
    z = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(
        [int(d) for d in str(z["shape"]).split(",")]
    )
    gap = (z.shape[0] - layers * n) // (layers - 1)
    return z, n + gap


def table_rows(at: AppTest, index: int) -> list[list[str]]:
    return tables(at)[index].astype(str).values.tolist()


def code_blocks(at: AppTest) -> list[str]:
    return [str(block.value) for block in at.code]


def run_until(at: AppTest, done, seconds: float = 30) -> AppTest:
    """Rerun the page (as the page's own polling does) until `done(at)`, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done(at):
            return at
        time.sleep(0.05)
        at.run()
    raise AssertionError(f"the page never got there in {seconds} s")


def click_download(at: AppTest, seconds: float = 20) -> AppTest:
    """Click the download button and run the page, failing (not hanging) when that run waits on the download: a
    script blocked in a callback cannot be stopped, and AppTest's own timeout then waits for it forever."""
    clicked = threading.Thread(target=lambda: at.button(key="real_download").click().run(), daemon=True)
    clicked.start()
    clicked.join(seconds)
    assert not clicked.is_alive(), f"the click still waits on the download after {seconds} s"
    return at


# --- a local model: the pieces, every head, the picked head ---


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_the_pieces_the_model_reads(local_model, lang):
    at = open_page(PAGE, lang)
    assert not at.exception
    _, tokens, _ = computed(local_model)
    assert tokens.pieces == ("[CLS]", "el", "per", "##ro", "come", "carne", "porque", "tiene", "ham", "##bre", "[SEP]")
    rows = table_rows(at, PIECES_TABLE)
    assert rows[0][1:] == [md_literal(piece) for piece in tokens.pieces]
    assert rows[1][1:] == [count(i, lang=lang) for i in tokens.ids]
    special = LANGUAGES[lang]["real.pieces.special"]
    words = ["el", "perro", "perro", "come", "carne", "porque", "tiene", "hambre", "hambre"]
    assert rows[2][1:] == [md_literal(special), *words, md_literal(special)]
    text = page_text(at)  # as the reader sees it: the markdown's escapes removed
    # the words cut into several pieces are named with their pieces
    for word, pieces in (("perro", "per + ##ro"), ("hambre", "ham + ##bre")):
        assert translate(lang, "real.pieces.split_one", word=word, n="2", pieces=pieces) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_alerts_name_their_icons_so_no_emoji_catalog_is_loaded(local_model, monkeypatch, lang):
    """Issue 31: an alert without an icon has Streamlit look for an emoji at the start of its text, and the first
    non-ASCII one loads Streamlit's emoji catalog (0.1-0.3 s of the page's first open, py-spy). The page, the
    «what attention is for» fold opened, draws its alerts with icons of their own and loads no catalog."""
    monkeypatch.delitem(sys.modules, "streamlit.emojis", raising=False)
    at = open_page(PAGE, lang, timeout=120, **{FOLD_KEY: True})
    assert not at.exception, [e.value for e in at.exception]
    alerts = [*at.success, *at.info, *at.warning, *at.error]
    assert len(alerts) >= 3  # the question's answer, the derived weight's reading, the same word's reading
    assert all(alert.icon.startswith(":material/") for alert in alerts), [alert.icon for alert in alerts]
    assert "streamlit.emojis" not in sys.modules


def test_the_small_multiples_figure_has_one_panel_per_head_with_the_engines_weights(local_model):
    at = open_page(PAGE, "es")
    _, _, result = computed(local_model)
    figure = small_multiples(at)
    layers, heads, n, _ = result.attentions.shape
    assert (layers, heads, n) == (2, 2, 11)
    assert figure["layout"]["yaxis"]["ticktext"] == ["1", "2"]
    assert figure["layout"]["xaxis"]["ticktext"] == ["1", "2"]
    z, step = mosaic_of(figure, layers, n)
    assert step > n and z.shape == (layers * step - (step - n), heads * step - (step - n))
    for layer in range(layers):
        for head in range(heads):
            panel = z[layer * step : layer * step + n, head * step : head * step + n]
            np.testing.assert_array_equal(panel, result.attentions[layer, head].astype(np.float32))
    assert np.isnan(z[n:step, :]).all() and np.isnan(z[:, n:step]).all()  # the gaps are blank


@pytest.mark.parametrize("layer, head", [(0, 1), (1, 0), (1, 1)])
def test_the_picked_heads_figure_shows_the_weights_encode_computes(local_model, layer, head):
    at = open_page(PAGE, "en")
    at.selectbox(key="real_layer").set_value(layer)
    at.selectbox(key="real_head").set_value(head).run()
    assert not at.exception
    _, tokens, result = computed(local_model)
    figure = picked_head(at)
    np.testing.assert_array_equal(np.array(figure["data"][0]["z"]), result.attentions[layer, head])
    assert figure["layout"]["xaxis"]["ticktext"] == [charts.figure_specs.short_label(p) for p in tokens.pieces]
    assert f"Layer {layer + 1}, head {head + 1}" in figure["layout"]["title"]["text"]
    _, step = mosaic_of(small_multiples(at), 2, len(tokens.pieces))
    frame = small_multiples(at)["layout"]["shapes"][0]  # the frame is around the picked head's panel
    assert frame["x0"] < head * step < head * step + len(tokens.pieces) - 1 < frame["x1"] < (head + 1) * step
    assert frame["y0"] < layer * step < layer * step + len(tokens.pieces) - 1 < frame["y1"] < (layer + 1) * step


def test_the_measures_of_the_picked_head_and_the_sortable_table_are_the_engines(local_model):
    at = open_page(PAGE, "en")
    at.selectbox(key="real_layer").set_value(1)
    at.selectbox(key="real_head").set_value(0).run()
    _, tokens, result = computed(local_model)
    weights = result.attentions[1, 0]  # (n, n)
    n = weights.shape[0]
    entropy = np.mean([-sum(w * np.log(w) for w in row if w > 0) for row in weights])  # by loops, not the engine
    special = np.mean([sum(row[j] for j in range(n) if tokens.special[j]) for row in weights])
    previous = np.mean([weights[i, i - 1] for i in range(1, n)])
    self_weight = np.mean([weights[i, i] for i in range(n)])
    shown = {metric.label: metric.value for metric in at.metric}
    assert shown == {
        "entropy": fixed(entropy, 3, lang="en"),
        "to special pieces": fixed(special, 3, lang="en"),
        "to the previous": fixed(previous, 3, lang="en"),
        "to itself": fixed(self_weight, 3, lang="en"),
    }
    at.selectbox(key="real_sort").set_value("previous").run()
    table = at.dataframe[0].value  # the page's only dataframe; ui/sections/real_model.py gives it no key
    assert len(table) == 4
    column = table["to the previous"].astype(float).tolist()
    assert column == sorted(column, reverse=True)  # sorted as numbers, though written as text


# --- «¿quién tiene hambre?» ---


@pytest.mark.parametrize("lang", LANGS)
def test_the_question_ranks_the_heads_as_rank_heads_does(local_model, lang):
    at = open_page(PAGE, lang)
    _, tokens, result = computed(local_model)
    asker, first, second = (find_word(tokens, w) for w in ("tiene", "perro", "carne"))
    ranked = rank_heads(word_attention(result, tokens), asker, first, second)
    # the stated rule by loops: to a word, the sum over its pieces; from «tiene», the mean over its pieces
    pieces = {w: [p for p, of in enumerate(tokens.word_of_piece) if of == w] for w in (asker, first, second)}

    def weight(layer: int, head: int, word: int) -> float:
        rows = [sum(result.attentions[layer, head, i, j] for j in pieces[word]) for i in pieces[asker]]
        return sum(rows) / len(rows)

    by_loops = sorted(
        ((weight(lh[0], lh[1], first) - weight(lh[0], lh[1], second), lh) for lh in np.ndindex(2, 2)),
        key=lambda pair: -pair[0],
    )
    assert [(p.layer, p.head) for p in ranked] == [lh for _, lh in by_loops]
    assert [(p.layer, p.head) for p in ranked] != sorted(
        ((p.layer, p.head) for p in ranked), key=lambda lh: -weight(lh[0], lh[1], first)
    )  # this model tells ranking by the difference from ranking by the weight to «perro»
    assert LANGUAGES[lang]["real.question.title.tiene"] in [h.value for h in at.header]
    rows = table_rows(at, 1)
    assert rows == [
        [str(p.layer + 1), str(p.head + 1), *(fixed(v, 3, lang=lang) for v in (p.to_first, p.to_second, p.margin))]
        for p in ranked
    ]
    # the picker starts at the best head
    assert (at.selectbox(key="real_layer").value, at.selectbox(key="real_head").value) == (
        ranked[0].layer,
        ranked[0].head,
    )


def question_script(margins: list[float]) -> None:
    """A page that shows the question for made-up heads, best first, whose preference for «perro» is `margins`."""
    from engine.encoder import HeadPreference
    from ui.sections.real_model import Asked, Question, question_ui

    ranked = tuple(HeadPreference(1, h, 0.25 + m, 0.25) for h, m in enumerate(margins))
    question_ui(Asked(Question("tiene", "perro", "carne"), 5, 1, 3, ranked), "el perro come carne porque tiene hambre")


@pytest.mark.parametrize(
    "margins, verdict, key",
    [
        ([0.25, 0.05, -0.1], "success", "real.question.best"),  # 25 points ahead: resolved
        ([0.06, 0.01, -0.1], "info", "real.question.weak"),  # ahead, but by less than 10 points
        ([-0.01, -0.2], "warning", "real.question.never"),  # «perro» never wins
    ],
)
def test_the_question_says_so_when_no_head_resolves_it(margins, verdict, key):
    at = AppTest.from_function(question_script, kwargs={"margins": margins}, default_timeout=30).run()
    assert not at.exception
    words = {"asker": "tiene", "first": "perro", "second": "carne"}
    numbers = {
        "layer": "2",
        "head": "1",
        "to_first": fixed(0.25 + margins[0], lang="es"),
        "to_second": fixed(0.25, lang="es"),
        "margin": fixed(margins[0], lang="es"),
    }
    expected = translate("es", key, **{name: md_literal(value) for name, value in (words | numbers).items()})
    assert [element.value for element in getattr(at, verdict)] == [expected]
    wins = sum(m > 0 for m in margins)
    counted = translate("es", "real.question.count", wins=wins, total=len(margins), **words)
    assert counted.replace("«", "").replace("»", "") in page_text(at).replace("«", "").replace("»", "")


def test_a_sentence_without_the_questions_words_skips_the_question(local_model):
    at = open_page(PAGE, "es")
    at.text_input(key="real_sentence").input("el gato come carne").run()
    assert not at.exception
    headers = [h.value for h in at.header]
    assert not any("hambre" in h for h in headers)
    margin = translate("es", "real.col.margin")  # the question's table of heads has this column
    assert not any(margin in [shown(column) for column in table.columns] for table in tables(at))


@pytest.mark.parametrize("lang", LANGS)
def test_the_english_example_asks_who_was_hungry(local_model, lang):
    at = open_page(PAGE, lang)
    at.button(key="real_example_en").click().run()
    assert not at.exception
    assert at.text_input(key="real_sentence").value == "the dog ate the meat because it was hungry"
    assert LANGUAGES[lang]["real.question.title.it"] in [h.value for h in at.header]


# --- one weight, derived ---


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_of_the_cell_derivation_follows_from_its_written_operands(local_model, lang):
    at = open_page(PAGE, lang)
    at.selectbox(key="real_layer").set_value(1)
    at.selectbox(key="real_head").set_value(1)
    at.selectbox(key="real_query_11").set_value(7)
    at.selectbox(key="real_key_11").set_value(2).run()
    assert not at.exception
    _, _, result = computed(local_model)
    cell = cell_derivation(result, 1, 1, 7, 2)
    blocks = code_blocks(at)
    dot_block = next(b for b in blocks if b.startswith("score(tiene (7) → per (2))"))
    assert dot_block.count(")(") == 4  # d_head = 4 terms here (32 in the real model)
    checked = 0
    for block in blocks:
        problems, lines = check_block(block, lang)
        assert problems == []
        checked += lines
    assert checked >= 4 + 1 + 1 + 1 + 11 + 1 + 11 + 1  # products, sum, rounding, division, e^x, Σ, shares, Σ
    assert fixed(cell.weight, lang=lang) in next(i.value for i in at.info).replace("\\", "")


@pytest.mark.parametrize("lang", LANGS)
def test_the_cells_summary_divides_the_score_it_shows_as_the_derivation_does(local_model, lang):
    """Issue 30, item 8: the summary said "+1,335; divided by 2 gives +0,667" (the unrounded score's quotient),
    where the derivation under it divides the +1,335 it shows: +0,668. Both now say what the digits give."""
    from decimal import ROUND_HALF_UP, Decimal

    at = open_page(PAGE, lang)
    assert not at.exception
    point = "," if lang == "es" else "."
    summary = next(
        m.value for m in at.markdown if m.value.startswith(translate(lang, "real.cell.summary").split("{")[0])
    )
    summary = summary.replace("\\", "")
    division = next(b for b in code_blocks(at) if "÷" in b and b.startswith("score'"))
    numerator, divisor = re.search(r"= ([+−][\d.,]+) ÷ ([\d.,]+)", division).groups()
    as_decimal = lambda s: Decimal(s.replace("−", "-").replace(point, "."))  # noqa: E731
    quotient = (as_decimal(numerator) / as_decimal(divisor)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    written = ("+" if quotient >= 0 else "−") + f"{abs(quotient)}".replace(".", point)
    assert f"{numerator};" in summary or f"{numerator}," in summary or f"{numerator} " in summary
    assert written in summary and written in division


@pytest.mark.parametrize("lang", LANGS)
def test_a_model_with_the_real_head_width_derives_a_cell_with_32_terms(tmp_path, monkeypatch, lang):
    """Heads 32 wide, as in the real model (hidden 384 / 12 heads): the dot product is written out in 32 terms,
    and every line of every derivation still reproduces from its shown operands."""
    config = {**TINY_CONFIG, "hidden_size": 64, "num_attention_heads": 2, "intermediate_size": 32}
    directory = write_model(tmp_path / "wide", config=config, tensors=random_bert_tensors(config, seed=3))
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    at = open_page(PAGE, lang, timeout=120)
    assert not at.exception
    blocks = code_blocks(at)
    dot_block = next(b for b in blocks if b.startswith("score("))
    assert dot_block.count(")(") == 32
    checked = 0
    for block in blocks:
        problems, lines = check_block(block, lang)
        assert problems == []
        checked += lines
    assert checked >= 32 + 1


# --- input limits and hostile text ---


@pytest.mark.parametrize("lang", LANGS)
def test_the_sentence_box_takes_at_most_the_limit_and_says_so_when_it_is_reached(local_model, lang):
    """A 20,000,000-character paste once took the browser 91 s and the server 52 MB: the box has the limit, Streamlit
    cuts what a message carries to it (a client without the box's limit included), and the page says so."""
    at = open_page(PAGE, lang)
    box = at.text_input(key="real_sentence")
    assert box.max_chars == MAX_SENTENCE_CHARS
    at_limit = translate(lang, "limits.sentence_at_limit", limit=count(MAX_SENTENCE_CHARS, lang=lang))
    assert at_limit not in [i.value for i in at.info]
    box.set_value("el perro " * 2_500).run()  # 22,500 characters, as a forged message carries them
    assert not at.exception
    assert len(at.text_input(key="real_sentence").value) == MAX_SENTENCE_CHARS
    assert at_limit in [i.value for i in at.info]
    # what is left is still far too many pieces, said as such, nothing computed: 222 times «el per ##ro» (9
    # characters each), then «el», and [CLS] … [SEP]: 222 · 3 + 1 + 2 = 669
    assert [w.value for w in at.warning] == [
        translate(lang, "error.model_too_many_tokens", count=count(669, lang=lang), limit="64")
    ]
    assert not figure_elements(at)


@pytest.mark.parametrize("lang", LANGS)
def test_a_sentence_with_too_many_pieces_gets_a_message(local_model, lang):
    at = open_page(PAGE, lang)
    at.text_input(key="real_sentence").input("el " * MAX_MODEL_TOKENS).run()
    expected = translate(
        lang,
        "error.model_too_many_tokens",
        count=count(MAX_MODEL_TOKENS + 2, lang=lang),
        limit=count(MAX_MODEL_TOKENS, lang=lang),
    )
    assert [w.value for w in at.warning] == [expected]
    # more pieces than the tiny model has positions for (24): the engine's own limit, said the same way
    at.text_input(key="real_sentence").input("el " * 30).run()
    expected = translate(lang, "error.model_too_many_tokens", count="32", limit="24")
    assert [w.value for w in at.warning] == [expected]


@pytest.mark.parametrize("lang", LANGS)
def test_a_trailing_space_adds_no_piece_and_no_word_with_the_real_xlmr_tokenizer(
    tmp_path, monkeypatch, xlmr_tokenizer, lang
):
    """XLM-R's tokenizer made a trailing space a "▁" piece with an empty word: «Tus 8 palabras quedan en 12 piezas»,
    and every map one row and one column larger."""
    config = TINY_XLMR_VOCAB_CONFIG
    directory = write_model(
        tmp_path / "xlmr", config=config, tensors=random_bert_tensors(config), tokenizer=xlmr_tokenizer
    )
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    at = open_page(PAGE, lang, timeout=60)
    at.text_input(key="real_sentence").input(SENTENCE + " ").run()
    assert not at.exception
    pieces = ["<s>", "▁el", "▁per", "ro", "▁come", "▁carne", "▁porque", "▁tiene", "▁ham", "bre", "</s>"]
    assert table_rows(at, PIECES_TABLE)[0][1:] == [md_literal(p) for p in pieces]
    expected = translate(lang, "real.pieces.body", n="11", words="7", special="2")
    assert expected in [m.value for m in at.markdown]
    assert small_multiples(at)["layout"]["xaxis"]  # drawn
    assert len(picked_head(at)["data"][0]["z"]) == 11  # one row per piece, none for the space


def test_the_next_server_reads_the_tokenizer_kept_in_the_cache_folder(tmp_path, monkeypatch, xlmr_tokenizer):
    """The first server keeps the XLM-R vocabulary it read in ATTENTION_CACHE_DIR; the next one (a restart) shows
    the same pieces without building the vocabulary from tokenizer.json again."""
    import streamlit as st

    from engine import tokenizer

    config = TINY_XLMR_VOCAB_CONFIG
    directory = write_model(
        tmp_path / "xlmr", config=config, tensors=random_bert_tensors(config), tokenizer=xlmr_tokenizer
    )
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    monkeypatch.setenv(model_source.CACHE_VARIABLE, str(tmp_path / "cache"))
    assert model_source.cache_folder() == tmp_path / "cache"
    first = open_page(PAGE, "es", timeout=60)
    assert not first.exception
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [tokenizer.stored_name(xlmr_tokenizer)]

    def no_vocabulary(*args, **kwargs):
        raise AssertionError("the vocabulary was built from tokenizer.json")

    st.cache_resource.clear()  # the server restarts
    monkeypatch.setattr(tokenizer.UnigramPieces, "__init__", no_vocabulary)
    again = open_page(PAGE, "es", timeout=60)
    assert not again.exception
    assert table_rows(again, PIECES_TABLE) == table_rows(first, PIECES_TABLE)


def test_the_cache_folder_is_the_users_own_unless_named(monkeypatch, tmp_path):
    monkeypatch.delenv(model_source.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert model_source.cache_folder() == tmp_path / "xdg" / "attention-lesson"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert model_source.cache_folder() == tmp_path / "home" / ".cache" / "attention-lesson"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the XDG specification: ignored
    assert model_source.cache_folder() == tmp_path / "home" / ".cache" / "attention-lesson"
    monkeypatch.setenv(model_source.CACHE_VARIABLE, " ~/kept ")
    assert model_source.cache_folder() == tmp_path / "home" / "kept"
    monkeypatch.delenv(model_source.CACHE_VARIABLE)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", no_home)
    assert model_source.cache_folder() is None  # no cache: the model is read from its files each start


@pytest.mark.parametrize("lang", LANGS)
def test_an_xlm_roberta_model_with_the_real_tokenizer_is_read_and_said_to_be_one(
    tmp_path, monkeypatch, xlmr_tokenizer, lang
):
    config = {**TINY_XLM_ROBERTA_CONFIG, "vocab_size": XLMR_VOCAB, "max_position_embeddings": 66}
    tensors = random_bert_tensors(config, seed=7)
    directory = write_model(tmp_path / "xlm-roberta", config=config, tensors=tensors, tokenizer=xlmr_tokenizer)
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    at = open_page(PAGE, lang, timeout=60)
    assert not at.exception
    model = load_model(directory)
    tokens = tokenize(model, SENTENCE)
    result = encode(tokens.ids, model.weights, model.config)
    assert table_rows(at, PIECES_TABLE)[0][1:] == [md_literal(p) for p in tokens.pieces]
    picked = at.selectbox(key="real_layer").value, at.selectbox(key="real_head").value
    np.testing.assert_array_equal(np.array(picked_head(at)["data"][0]["z"]), result.attentions[picked])
    shape = translate(
        lang,
        "real.about.shape",
        architecture="XLM-RoBERTa",
        layers="2",
        heads="2",
        d_model="8",
        d_head="4",
        vocab=count(XLMR_VOCAB, lang=lang),
    )
    assert shape in page_text(at).replace("\\", "")


@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_an_empty_sentence_gets_a_message(local_model, sentence):
    at = open_page(PAGE, "es")
    at.text_input(key="real_sentence").input(sentence).run()
    assert not at.exception
    assert [w.value for w in at.warning] == [LANGUAGES["es"]["real.error.empty_sentence"]]


HOSTILE = ["<b>tiene</b>", "**perro**", "$x$", "{0}", "[a](javascript:alert(1))", "🐶", "<img/src=x/onerror=alert(1)>"]


def hostile_model(directory: Path) -> Path:
    """A tiny model whose tokenizer keeps each space-separated word whole, hostile ones included, as pieces."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import WhitespaceSplit
    from tokenizers.processors import TemplateProcessing

    vocab = {name: i for i, name in enumerate(["[UNK]", "[CLS]", "[SEP]", "el", "perro", "tiene", "carne", *HOSTILE])}
    tokenizer = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = WhitespaceSplit()
    tokenizer.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    config = {**TINY_CONFIG, "vocab_size": len(vocab)}
    return write_model(directory, config=config, tensors=random_bert_tensors(config), tokenizer=tokenizer)


@pytest.mark.parametrize("lang", LANGS)
def test_hostile_pieces_are_shown_literally_everywhere(monkeypatch, tmp_path, lang):
    directory = hostile_model(tmp_path / "hostile")
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    at = open_page(PAGE, lang)
    sentence = " ".join(HOSTILE)
    at.text_input(key="real_sentence").input(sentence).run()
    assert not at.exception
    tokens = tokenize(load_model(directory), sentence)
    assert tokens.pieces[1:-1] == tuple(HOSTILE)  # the pieces are the hostile words themselves
    assert table_rows(at, PIECES_TABLE)[0][1:] == [md_literal(p) for p in tokens.pieces]
    for text in [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]:
        # markdown: an escaped "\\<img" shows as the text "<img"; only an unescaped one would be a tag
        assert not re.search(r"(?<!\\)(?:\\\\)*(<b>|<img|\]\(javascript)", text), text
    for figure in charts_of(at):
        layout = figure["layout"]
        labels = [*layout.get("xaxis", {}).get("ticktext", []), layout.get("title", {}).get("text", "")]
        labels += [note.get("text", "") for note in layout.get("annotations", [])]
        assert not any("<b>" in label or "<img" in label for label in labels)
    heatmap = picked_head(at)
    assert "&lt;b&gt;tiene&lt;/b&gt;" in heatmap["data"][0]["customdata"][1][1]


# --- where the model comes from ---


def test_the_secret_names_the_directory_when_the_variable_does_not(tiny_dir):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.secrets["attention_model_dir"] = str(tiny_dir)
    at.session_state["lang"] = "en"
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert "the Streamlit secret `attention_model_dir`" in page_text(at)
    assert table_rows(at, PIECES_TABLE)[0][1] == md_literal("[CLS]")


@pytest.mark.parametrize("lang", LANGS)
def test_offline_without_a_copy_the_page_says_what_to_do_and_never_waits(monkeypatch, lang):
    called = threading.Event()

    def offline(cache_dir=None, **kwargs):
        called.set()
        raise EngineInputError("model_offline", "the hub cannot be reached", repo=model_files.MODEL_REPO)

    monkeypatch.setattr(model_files, "download_model", offline)
    at = open_page(PAGE, lang, timeout=10)
    assert not at.exception
    assert not called.is_set()  # nothing is downloaded until a reader asks
    assert [i.value for i in at.info] == [translate(lang, "real.source.none", variable=model_files.MODEL_DIR_VARIABLE)]
    download = at.button(key="real_download")
    assert download.label == translate(lang, "real.download.button", size="470")
    click_download(at)
    assert not at.exception
    run_until(at, lambda at: len(at.warning) > 0)
    assert called.is_set()
    assert [w.value for w in at.warning] == [LANGUAGES[lang]["error.model_offline"]]
    text = page_text(at)
    assert "`ATTENTION_MODEL_DIR`" in text and "config.json\nmodel.safetensors\ntokenizer.json" in text
    assert at.button(key="real_download").label == translate(lang, "real.download.retry", size="470")
    assert not figure_elements(at)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hub_that_never_answers_gets_what_to_do_within_seconds(monkeypatch, lang):
    """The real download (the hub client itself) against a server that accepts connections and never replies, as a
    hub behind a firewall that drops packets looks: the page says the hub cannot be reached, and what to do."""
    import socket

    silent = socket.create_server(("127.0.0.1", 0))
    endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
    monkeypatch.setattr(
        model_files,
        "download_model",
        lambda cache_dir=None, **kwargs: REAL_DOWNLOAD(cache_dir, endpoint=endpoint, **kwargs),
    )
    try:
        at = open_page(PAGE, lang, timeout=10)
        click_download(at)
        assert not at.exception
        assert LANGUAGES[lang]["real.source.downloading"] in [i.value for i in at.info]
        seconds = translate(lang, "real.download.running_note", seconds="5")
        assert seconds in [c.value for c in at.caption]  # what the reader is told to expect
        # HUB_TIMEOUT_SECONDS is 5; the hub client left to itself retried for minutes (no answer, no timeout)
        run_until(at, lambda at: len(at.warning) > 0, seconds=30)
    finally:
        silent.close()
    assert [w.value for w in at.warning] == [LANGUAGES[lang]["error.model_offline"]]
    text = page_text(at)
    assert "`ATTENTION_MODEL_DIR`" in text and "config.json\nmodel.safetensors\ntokenizer.json" in text
    assert at.button(key="real_download").label == translate(lang, "real.download.retry", size="470")


@pytest.mark.parametrize("lang", LANGS)
def test_with_the_hubs_offline_mode_on_the_page_says_what_to_do_and_offers_no_download(monkeypatch, lang):
    from huggingface_hub import constants

    called = threading.Event()
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(model_files, "download_model", lambda cache_dir=None, **kwargs: called.set())
    at = open_page(PAGE, lang, timeout=10)
    assert not at.exception
    expected = translate(lang, "real.source.offline_mode", variable=model_files.MODEL_DIR_VARIABLE)
    assert [w.value for w in at.warning] == [expected]
    assert "HF_HUB_OFFLINE" in expected
    text = page_text(at)
    assert "`ATTENTION_MODEL_DIR`" in text and "config.json\nmodel.safetensors\ntokenizer.json" in text
    assert not [b for b in at.button if b.key == "real_download"]  # a download that could never succeed
    assert not called.is_set() and not figure_elements(at)


def test_another_page_is_served_while_a_download_is_running(monkeypatch, tiny_dir):
    release = threading.Event()

    def slow_download(cache_dir=None, **kwargs):
        release.wait(30)
        return tiny_dir

    monkeypatch.setattr(model_files, "download_model", slow_download)
    try:
        at = open_page(PAGE, "en", timeout=10)
        click_download(at)
        assert not at.exception
        assert LANGUAGES["en"]["real.source.downloading"] in [i.value for i in at.info]
        assert at.get("progress")  # the progress bar of the running download
        other = open_page("pages/softmax.py", "en", timeout=10)  # another session, another page, meanwhile
        assert not other.exception and other.title
        release.set()
        run_until(at, lambda at: len(tables(at)) > 0)
        assert not at.exception
        assert table_rows(at, PIECES_TABLE)[0][1] == md_literal("[CLS]")
        assert "downloaded from the Hugging Face Hub" in page_text(at)
    finally:
        release.set()


@pytest.fixture
def fake_hub(monkeypatch, tiny_dir):
    """A model hub on 127.0.0.1 serving the tiny model as the pinned one; the page's download is the real one,
    pointed at it."""
    hub = FakeHub(model_files.MODEL_REPO, model_files.MODEL_REVISION, model_files_of(tiny_dir, model_files.MODEL_FILES))
    monkeypatch.setattr(
        model_files, "download_model", lambda cache_dir=None, **kw: REAL_DOWNLOAD(cache_dir, endpoint=hub.url, **kw)
    )
    yield hub
    hub.stop()


@pytest.mark.parametrize("lang", LANGS)
def test_a_download_cut_half_way_is_said_and_the_retry_continues_it_to_the_model(fake_hub, lang):
    size = len(fake_hub.files["model.safetensors"])
    fake_hub.cut_after["model.safetensors"] = size // 2
    at = open_page(PAGE, lang, timeout=10)
    click_download(at)
    run_until(at, lambda at: len(at.warning) > 0)
    (warning,) = at.warning
    expected = translate(
        lang,
        "error.model_download_cut",
        repo=md_literal(model_files.MODEL_REPO),
        file=md_literal("model.safetensors"),
        done="0",
        size="1",
    )
    assert warning.value == expected
    assert at.button(key="real_download").label == translate(lang, "real.download.retry", size="470")
    fake_hub.requests.clear()
    click_download(at)
    run_until(at, lambda at: len(tables(at)) > 0)
    assert not at.exception
    assert ("GET", "model.safetensors", f"bytes={size // 2}-") in fake_hub.requests  # only the rest was asked for
    assert table_rows(at, PIECES_TABLE)[0][1] == md_literal("[CLS]")
    facts = page_text(at)
    assert model_files.MODEL_REVISION in facts and model_source.MODEL_LICENCE in facts
    assert translate(lang, "real.about.languages_hub", n="50") in facts  # the model card's facts stay on the page


@pytest.mark.parametrize("lang", LANGS)
def test_too_little_disk_for_the_download_is_said_before_it_starts(fake_hub, monkeypatch, lang):
    import shutil

    usage = shutil.disk_usage("/")
    monkeypatch.setattr(model_files.shutil, "disk_usage", lambda path: usage._replace(free=12_000_000))
    at = open_page(PAGE, lang, timeout=10)
    click_download(at)
    run_until(at, lambda at: len(at.warning) > 0)
    total = sum(len(data) for data in fake_hub.files.values())
    needed = -(-(total + model_files.DISK_MARGIN_BYTES) // 1_000_000)
    expected = translate(lang, "error.model_disk_space", needed=count(needed, lang=lang), free="12")
    assert [w.value for w in at.warning] == [expected]
    assert not [r for r in fake_hub.requests if r[0] == "GET"]


def test_the_progress_bar_counts_against_the_files_true_size(monkeypatch):
    """The bar's total is what the hub said the files weigh (here 200 MB), not the page's estimate."""
    release = threading.Event()

    def halfway(cache_dir=None, progress=None, **kwargs):
        progress(50_000_000, 200_000_000)
        release.wait(30)
        raise EngineInputError("model_offline", "stopped by the test", repo=model_files.MODEL_REPO)

    monkeypatch.setattr(model_files, "download_model", halfway)
    try:
        at = open_page(PAGE, "en", timeout=10)
        click_download(at)
        # The bar shows "0 of ≈ 470 MB" (the page's estimate) until the download thread's first report arrives.
        run_until(at, lambda at: any(bar.proto.value > 0 for bar in at.get("progress")))
        (bar,) = at.get("progress")
        assert bar.proto.value == 25
        assert bar.proto.text.startswith("50 of ≈ 200 MB")
    finally:
        release.set()


def test_a_copy_downloaded_before_is_used_without_a_click(monkeypatch, tmp_path, tiny_dir):
    from huggingface_hub import constants

    cache = Path(constants.HF_HUB_CACHE)
    snapshot = cache / f"models--{model_files.MODEL_REPO.replace('/', '--')}" / "snapshots" / model_files.MODEL_REVISION
    snapshot.mkdir(parents=True)
    for name in model_files.MODEL_FILES:
        (snapshot / name).write_bytes((tiny_dir / name).read_bytes())
    refs = snapshot.parent.parent / "refs"
    refs.mkdir()
    (refs / "main").write_text(model_files.MODEL_REVISION)
    monkeypatch.setattr(
        model_files, "download_model", lambda cache_dir=None, **kwargs: pytest.fail("no download expected")
    )
    at = open_page(PAGE, "es")
    assert not at.exception
    assert table_rows(at, PIECES_TABLE)[0][1] == md_literal("[CLS]")


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_error_of_the_model_gets_its_own_message(monkeypatch, lang):
    """Every model_* code's message is error.<code> (the disk-space and XLM-RoBERTa-position ones were only
    real.error.*, so the strings test missed them); the page's own wording of a general code wins; a message asking
    for a parameter the error lacks is the general one, never a raw placeholder."""
    from engine.errors import CODES
    from ui import state

    monkeypatch.setattr(state, "current_language", lambda: lang)
    strings = LANGUAGES[lang]
    for code, (params, _) in CODES.items():
        if code.startswith("model_"):
            shown_message = model_source.error_message(EngineInputError(code, "english", **dict.fromkeys(params, 7)))
            assert shown_message == strings[f"error.{code}"].format(**dict.fromkeys(params, "7")), code
            assert f"real.error.{code}" not in strings  # one place for its message
    empty = model_source.error_message(EngineInputError("empty_sentence", "english"))
    assert empty == strings["real.error.empty_sentence"] != strings["error.empty_sentence"]
    unlimited = model_source.error_message(EngineInputError("bad_token_ids", "english"))  # no `limit`
    assert unlimited == strings["real.error.other"]
    assert model_source.error_message(EngineInputError("no_such_code", "english")) == strings["real.error.other"]


def broken_files(directory: Path, damage: str) -> None:
    """The tiny model's files in `directory`, one of them wrong as `damage` says."""
    if damage == "missing":
        (directory / "config.json").write_text("{}")
        return
    if damage == "bert_over_xlmr":  # a BertModel config over an XLM-RoBERTa's tables
        tables = TINY_XLM_ROBERTA_CONFIG
        write_model(directory, config={**tables, "model_type": "bert"}, tensors=random_bert_tensors(tables))
    elif damage == "xlmr_over_bert":  # an XLM-RoBERTa config over a BERT's tables (the pad row trained)
        tables = {**TINY_XLM_ROBERTA_CONFIG, "model_type": "bert"}
        write_model(directory, config=TINY_XLM_ROBERTA_CONFIG, tensors=random_bert_tensors(tables))
    else:
        write_model(directory, config={**TINY_CONFIG, "model_type": "gpt2"} if damage == "gpt2" else None)
    if damage == "tokenizer":
        (directory / "tokenizer.json").write_text('{"not": "a tokenizer"}')
    if damage == "weights":
        (directory / "model.safetensors").write_bytes(b"\x00" * 64)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "damage, key, named",
    [
        ("missing", "error.model_missing_files", {"missing": "model.safetensors, tokenizer.json"}),
        ("gpt2", "error.model_unsupported", {"field": "model_type", "found": "gpt2"}),
        ("tokenizer", "error.model_bad_tokenizer", {}),
        ("weights", "error.model_bad_weights", {}),
        ("bert_over_xlmr", "error.model_positions_after_pad", {"row": "1"}),
        ("xlmr_over_bert", "error.model_positions_from_zero", {"row": "1"}),
    ],
)
def test_wrong_model_files_say_what_is_wrong_without_the_servers_path(
    monkeypatch, tmp_path, caplog, lang, damage, key, named
):
    """Wrong files were said under "Sin conexión:" / "Offline:", the architecture message did not name the
    model_type it found, and the page showed the server's directory: now the page says what is wrong and what to do,
    and the operator's details (the directory) go to the server's log."""
    directory = tmp_path / "server-side-model-directory"
    directory.mkdir()
    broken_files(directory, damage)
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    with caplog.at_level("WARNING", logger="ui.model_source"):
        at = open_page(PAGE, lang)
    assert not at.exception
    (error,) = at.error
    assert error.value == translate(lang, key, **{name: md_literal(value) for name, value in named.items()})
    text = page_text(at)
    assert "server-side-model-directory" not in text and str(tmp_path) not in text
    offline = LANGUAGES[lang]["real.source.todo"].split(":**")[0]  # "**Sin conexión" / "**Offline"
    assert offline not in text and offline.strip("*") not in text
    fix = translate(lang, "real.source.fix", variable=model_files.MODEL_DIR_VARIABLE, secret="attention_model_dir")
    assert fix in [m.value for m in at.markdown]
    assert "config.json\nmodel.safetensors\ntokenizer.json" in text
    assert any(str(directory) in record.getMessage() for record in caplog.records)  # for the operator
    assert not figure_elements(at)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "front_matter, licence, languages",
    [
        ("license: mit\nlanguage:\n- es\n- en\ntags:\n- bert\n", "mit", "es, en"),
        ("language: [de, fr]\nlicense: apache-2.0\n", "apache-2.0", "de, fr"),
        ("tags: [x]\n", None, None),
    ],
)
def test_a_local_models_card_gives_its_licence_and_languages(
    tmp_path, monkeypatch, lang, front_matter, licence, languages
):
    directory = write_model(tmp_path / "local")
    (directory / "README.md").write_text(f"---\n{front_matter}---\n# A model\n", encoding="utf-8")
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    at = open_page(PAGE, lang)
    assert not at.exception
    text = page_text(at)
    if licence is None:
        assert LANGUAGES[lang]["real.about.licence_unknown"] in text
        assert LANGUAGES[lang]["real.about.languages_unknown"] in text
    else:
        assert translate(lang, "real.about.licence", licence=licence) in text
        assert translate(lang, "real.about.languages", languages=languages) in text


def test_no_secrets_file_and_no_directory_does_not_break_the_page():
    at = open_page(PAGE, "es", timeout=10)
    assert not at.exception
    assert model_source.configured_source() is None
    assert at.button(key="real_download")


def test_every_key_the_page_uses_exists_in_both_languages():
    import re

    sources = [ROOT / PAGE, ROOT / "ui" / "sections" / "real_model.py", ROOT / "ui" / "model_source.py"]
    keys = {key for path in sources for key in re.findall(r'\bt[m]?\(\s*"([a-z_.]+)"', path.read_text("utf-8"))}
    keys |= {f"real.example.{lang}" for lang in LANGS} | {"real.title", "real.lead"}
    keys |= {f"real.measure.{m}" for m in ("entropy", "special", "previous", "self_weight")}
    keys |= {f"real.measure.{m}.help" for m in ("entropy", "special", "previous", "self_weight")}
    keys |= {f"real.sort.{m}" for m in ("entropy", "special", "previous", "self_weight")}
    keys |= {f"real.question.title.{w}" for w in ("tiene", "it")}
    keys |= {f"real.about.from.{origin}" for origin in ("env", "secret", "hub")}
    keys |= {"real.source.todo", "real.source.fix"}
    assert len(keys) > 60
    for strings in LANGUAGES.values():
        assert keys <= set(strings), keys - set(strings)


def test_the_browser_is_asked_for_plotly_before_the_model_is_loaded(local_model, monkeypatch):
    from ui import figure_component

    if not figure_component.component_on():
        pytest.skip("figures are drawn by st.plotly_chart (ATTENTION_CHARTS=plotly_chart): no plotly.js to preload")
    events = []
    preload, load = figure_component.preload_ui, model_files.load_model
    monkeypatch.setattr(figure_component, "preload_ui", lambda: (events.append("preload"), preload())[1])
    monkeypatch.setattr(
        model_files, "load_model", lambda directory, **kw: (events.append("load"), load(directory, **kw))[1]
    )
    at = open_page(PAGE, "es")
    assert not at.exception
    assert events[:2] == ["preload", "load"] and events.count("load") == 1  # (open_page may run the page twice)
    names = [element.proto.component_name for element in at.get("bidi_component")]
    assert names[0] == f"{figure_component.COMPONENT_NAME}_preload"  # in the page before any figure
    assert names.count(names[0]) == 1 and figure_component.COMPONENT_NAME in names


@pytest.mark.parametrize("lang", LANGS)
def test_the_question_says_whom_tiene_refers_to_only_in_the_example(local_model, lang):
    """Issue 30: any sentence with «tiene», «perro» and «carne» was told "in your sentence «tiene» refers to «perro»,
    not to «carne»"; in "la carne tiene sal y el perro la come" it refers to «carne». Which word a verb refers to is
    no number the page computes: it is said of the example, and an edited sentence is asked the same question with
    the reader left to judge."""
    words = {"asker": "tiene", "first": "perro", "second": "carne"}
    at = open_page(PAGE, lang)
    assert not at.exception
    assert at.text_input(key="real_sentence").value == "el perro come carne porque tiene hambre"
    assert translate(lang, "real.question.body", **words) in [shown(str(m.value)) for m in at.markdown]
    at.text_input(key="real_sentence").input("la carne tiene sal y el perro la come").run()
    assert not at.exception
    said = [shown(str(m.value)) for m in at.markdown]
    assert translate(lang, "real.question.body", **words) not in said
    assert translate(lang, "real.question.body.edited", **words) in said
