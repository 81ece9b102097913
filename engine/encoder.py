"""A BERT (or XLM-RoBERTa) encoder in numpy: every head of every layer runs through the engine's own `attention`.

One layer, as BERT computes it (layer norm after each residual sum):
    heads   = attention([x, 1], [W_Q_h; b_Q_h], [W_K_h; b_K_h], [W_V_h; b_V_h], ÷√d_head)   for each head h
    x       = LayerNorm(x + concat(heads)·W_O + b_O)
    x       = LayerNorm(x + GELU(x·W_in + b_in)·W_out + b_out)
BERT's projections carry a bias; [x, 1]·[W; b] = x·W + b exactly, so the bias rides along as one more row of W
and the function the walkthrough explains computes the real model's Q, K, V, scores and weights unchanged.
XLM-RoBERTa is the same network for one sentence, with its positions numbered after the pad token.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.attention import AttentionResult, Scale
from engine.derivation import CellDerivation, cell
from engine.errors import EngineInputError
from engine.multihead import MultiHeadResult, multi_head_attention
from engine.scaling import row_entropy


@dataclass(frozen=True)
class EncoderConfig:
    """The shape of a BERT encoder: the fields of a Hugging Face config.json the forward pass needs."""

    vocab_size: int  # rows of the word-embedding table
    d_model: int  # hidden_size: the width of every token's vector
    n_layers: int  # num_hidden_layers
    n_heads: int  # num_attention_heads
    d_ff: int  # intermediate_size: the width of the feed-forward layer
    max_positions: int  # max_position_embeddings: rows of the position table
    layer_norm_eps: float  # added to the variance inside every layer norm
    pad_token_id: int = 0  # the pad token's id (its word row; its position row in XLM-RoBERTa)
    # XLM-RoBERTa numbers positions after the pad token's row, as transformers does: a sentence's tokens take rows
    # pad + 1, pad + 2, ... (a pad token typed in the sentence takes row pad and does not count); BERT rows 0, 1, ...
    positions_after_pad: bool = False

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "n_layers", "n_heads", "d_ff", "max_positions"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise EngineInputError(
                    "model_bad_config", f"{name} must be a positive integer, got {value!r}", field=name, value=value
                )
        if self.d_model % self.n_heads:
            raise EngineInputError(
                "model_bad_config",
                f"hidden size {self.d_model} does not split into {self.n_heads} heads",
                field="num_attention_heads",
                value=self.n_heads,
            )
        pad = self.pad_token_id
        last = min(self.vocab_size, self.max_positions - 1 if self.positions_after_pad else self.vocab_size) - 1
        if isinstance(pad, bool) or not isinstance(pad, int) or not 0 <= pad <= last:
            raise EngineInputError(
                "model_bad_config",
                f"pad_token_id must be a row of the word table (and leave position rows after it), got {pad!r}",
                field="pad_token_id",
                value=pad,
            )
        eps = self.layer_norm_eps
        if isinstance(eps, bool) or not isinstance(eps, int | float) or not (0 < eps < 1):
            raise EngineInputError(
                "model_bad_config", f"layer_norm_eps must be in (0, 1), got {eps!r}", field="layer_norm_eps", value=eps
            )

    @property
    def d_head(self) -> int:
        """Width of one head's queries, keys and values: d_k in the lesson."""
        return self.d_model // self.n_heads

    @property
    def max_tokens(self) -> int:
        """The longest sentence the position table has rows for: all of them for BERT, those after the pad's
        row for XLM-RoBERTa (514 rows: 512 tokens)."""
        return self.max_positions - (self.pad_token_id + 1 if self.positions_after_pad else 0)

    @property
    def architecture(self) -> str:
        """The architecture's name, as the model's authors write it."""
        return "XLM-RoBERTa" if self.positions_after_pad else "BERT"


def position_ids(ids: np.ndarray, config: EncoderConfig) -> np.ndarray:
    """Each token's row in the position table: 0, 1, 2, ... for BERT; for XLM-RoBERTa transformers' rule
    (create_position_ids_from_input_ids), pad + 1, pad + 2, ..., a pad token at row pad and not counted."""
    if not config.positions_after_pad:
        return np.arange(ids.size)  # (n,)
    pad = config.pad_token_id
    counted = ids != pad  # (n,)
    return np.where(counted, np.cumsum(counted) + pad, pad)  # (n,)


@dataclass(frozen=True)
class Norm:
    """A layer norm's learned scale γ and shift β."""

    scale: np.ndarray  # (d_model,)
    shift: np.ndarray  # (d_model,)


@dataclass(frozen=True)
class LayerWeights:
    """One encoder layer, shaped for the forward pass: inputs on the rows, so x·W reads like the lesson."""

    # float32 or float64 (model_files keeps a float16 or float32 file's numbers as float32)
    w_q: np.ndarray  # (heads, d_model + 1, d_head)  each head's W_Q with its bias b_Q as the last row
    w_k: np.ndarray  # (heads, d_model + 1, d_head)
    w_v: np.ndarray  # (heads, d_model + 1, d_head)
    w_o: np.ndarray  # (d_model, d_model)  the heads' concatenated outputs back to d_model
    b_o: np.ndarray  # (d_model,)
    attention_norm: Norm
    w_in: np.ndarray  # (d_model, d_ff)  feed-forward, widening
    b_in: np.ndarray  # (d_ff,)
    w_out: np.ndarray  # (d_ff, d_model)  feed-forward, back to d_model
    b_out: np.ndarray  # (d_model,)
    output_norm: Norm


@dataclass(frozen=True)
class EncoderWeights:
    """Every weight of the encoder. encode reads only the sentence's rows of the word table, as table[ids]."""

    word_embeddings: np.ndarray  # (vocab, d_model)  an array, or any table[ids] -> rows (model_files.WordTable)
    position_embeddings: np.ndarray  # (max_positions, d_model)
    token_type_embedding: np.ndarray  # (d_model,)  segment A's row: a single sentence is all segment A
    embedding_norm: Norm
    layers: tuple[LayerWeights, ...]


def with_bias_rows(w: np.ndarray, b: np.ndarray, n_heads: int, dtype: np.dtype | None = None) -> np.ndarray:
    """W (d_model, d_model) and b (d_model,) as one [W_h; b_h] per head, so [x, 1]·[W_h; b_h] = x·W_h + b_h.

    Written straight into the result (in `dtype`, by default W's and b's common one): W and b may be views of a
    file, read once here."""
    d_model = w.shape[0]
    dtype = np.result_type(w, b) if dtype is None else dtype
    stacked = np.empty((n_heads, d_model + 1, w.shape[1] // n_heads), dtype=dtype)
    # Head h owns columns h·d_head ... (h+1)·d_head − 1, as in BERT's split of the projection.
    stacked[:, :d_model, :] = w.reshape(d_model, n_heads, -1).transpose(1, 0, 2)  # (h, d_model, d_head)
    stacked[:, d_model, :] = b.reshape(n_heads, -1)  # (h, d_head)
    return stacked  # (h, d_model + 1, d_head)


# --- the forward pass ---


@dataclass(frozen=True)
class EncoderResult:
    """A sentence through the encoder: every layer's token vectors and every head's attention.

    Each number is stored once (sessions keep whole results: 28.5 MB at 64 pieces, 38.5 with the copies): a head's
    weights are a view of `attentions`, its output a view of its layer's concatenation, a layer's input x (with its
    column of ones) a view of the array `hidden_states` is a view of, and every head shares one mask."""

    ids: tuple[int, ...]  # the token ids that went in
    hidden_states: np.ndarray  # (layers + 1, n, d_model)  [0] after the embeddings, [l] after layer l
    attentions: np.ndarray  # (layers, heads, n, n)  every head's weights; each row sums to 1
    layers: tuple[MultiHeadResult, ...]  # per layer: each head's AttentionResult (q, k, v, scores, ...), the concat

    def head(self, layer: int, head: int) -> AttentionResult:
        """The AttentionResult of one head: its Q, K, V, scores, divisor, scaled scores and weights."""
        layer, head = checked_index("layer", layer, len(self.layers)), checked_index("head", head, self.n_heads)
        return self.layers[layer].heads[head]

    @property
    def n_heads(self) -> int:
        """The number of heads in each layer."""
        return self.attentions.shape[1]


def encode(token_ids: Sequence[int], weights: EncoderWeights, config: EncoderConfig) -> EncoderResult:
    """The encoder's forward pass over one sentence's token ids (special tokens included, no padding)."""
    ids = checked_ids(token_ids, config)  # (n,)
    n, d, n_layers = ids.size, config.d_model, len(weights.layers)
    # every layer's input x with a column of ones, the 1 that picks up each bias row: [x, 1]
    states = np.ones((n_layers + 1, n, d + 1))  # (layers + 1, n, d_model + 1)
    attentions = np.empty((n_layers, config.n_heads, n, n))  # (layers, heads, n, n)
    words = np.asarray(weights.word_embeddings[ids], dtype=np.float64)  # (n, d_model)  only these rows are read
    x = words + weights.position_embeddings[position_ids(ids, config)] + weights.token_type_embedding  # (n, d_model)
    states[0, :, :d] = layer_norm(x, weights.embedding_norm, config.layer_norm_eps)  # (n, d_model)
    computed = []
    for k, layer in enumerate(weights.layers):
        states[k + 1, :, :d], heads = encoder_layer(states[k], layer, config.layer_norm_eps)
        attentions[k] = [head.weights for head in heads.heads]  # (heads, n, n)
        computed.append(heads)
    read_only(states)
    read_only(attentions)
    allowed = read_only(np.ones((n, n), dtype=bool))  # (n, n)  one sentence, no padding: every token sees every token
    return EncoderResult(
        ids=tuple(int(i) for i in ids),
        hidden_states=states[..., :d],
        attentions=attentions,
        layers=tuple(stored_once(heads, states[k], attentions[k], allowed) for k, heads in enumerate(computed)),
    )


def stored_once(heads: MultiHeadResult, x: np.ndarray, weights: np.ndarray, allowed: np.ndarray) -> MultiHeadResult:
    """A layer's result with its copies dropped: x, each head's weights, output and mask as views of what the
    encoder's result keeps (the same numbers: the copies they replace are freed)."""
    d_v = heads.heads[0].output.shape[1]
    concat = read_only(heads.concat)  # (n, heads · d_v)
    kept = tuple(
        dataclasses.replace(head, weights=weights[h], output=concat[:, h * d_v : (h + 1) * d_v], allowed=allowed)
        for h, head in enumerate(heads.heads)
    )  # each head: weights (n, n), output (n, d_v)
    return dataclasses.replace(heads, x=x, heads=kept, concat=concat)


def encoder_layer(x_and_one: np.ndarray, layer: LayerWeights, eps: float) -> tuple[np.ndarray, MultiHeadResult]:
    """One layer on [x, 1] (n, d_model + 1): multi-head attention, residual + layer norm, feed-forward, residual +
    layer norm; returns the layer's x (n, d_model) and its heads.

    The weights may be stored as float32; x is float64, and numpy widens a float32 operand to float64 exactly
    before it multiplies or adds, so every number is computed as it would be from float64 weights."""
    x = x_and_one[:, :-1]  # (n, d_model)
    per_head = list(zip(layer.w_q, layer.w_k, layer.w_v, strict=True))  # h × ((d_model+1, d_head) × 3)
    heads = multi_head_attention(x_and_one, per_head, layer.w_o, scale=Scale.SQRT, residual=False)  # (n, d_model)
    # the result keeps the stored W_O, the same numbers as the float64 copy the heads were multiplied by: a copy
    # per layer would weigh 1.2 MB for every sentence kept
    heads = dataclasses.replace(heads, w_o=layer.w_o)
    x = layer_norm(x + heads.output + layer.b_o, layer.attention_norm, eps)  # (n, d_model)
    hidden = gelu(x @ layer.w_in + layer.b_in)  # (n, d_ff)
    x = layer_norm(x + hidden @ layer.w_out + layer.b_out, layer.output_norm, eps)  # (n, d_model)
    return x, heads


def layer_norm(x: np.ndarray, norm: Norm, eps: float) -> np.ndarray:
    """Each row shifted to mean 0, scaled to variance 1 (+ eps), then by γ and β."""
    mean = x.mean(axis=-1, keepdims=True)  # (n, 1)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)  # (n, 1)  population variance, as BERT
    return (x - mean) / np.sqrt(variance + eps) * norm.scale + norm.shift  # (n, d_model)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU: x·Φ(x) = x·(1 + erf(x/√2))/2 (not the tanh approximation)."""
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


_SERIES_BELOW = 2.5  # |z| below this: the series; above: the continued fraction (each needs few terms there)
_FRACTION_TERMS = 30  # enough for 1e-16 at |z| >= 2.5
_ONE_FROM = 6.0  # erfc(6) = 2e-17 is below half a float64 step at 1: from here erf(z) = ±1 exactly


def _series_coefficients(terms: int = 36) -> tuple[float, ...]:
    """1/(1·3·5·…·(2n+1)) for n = 0 … terms−1: 36 terms reach 1e-15 at |z| < 2.5 (34 already do)."""
    coefficients = [1.0]
    for n in range(1, terms):
        coefficients.append(coefficients[-1] / (2 * n + 1))
    return tuple(coefficients)


_SERIES = _series_coefficients()


def erf(z: np.ndarray) -> np.ndarray:
    """The error function, within 2e-15 of math.erf for every float (checked by the tests).

    numpy has none, and math.erf one number at a time costs about 250 ns each: 70 ms of GELU for a 16-token
    sentence through 12 layers. For |z| < 2.5 the series erf(z) = 2/√π·z·e^(−z²)·Σ (2z²)ⁿ/(1·3·…·(2n+1)),
    whose terms are all positive (no cancellation), summed by Horner's rule; from 2.5 to 6, erfc by its
    continued fraction e^(−z²)/√π · 1/(z + ½/(z + 1/(z + 3/2/(z + …)))); from 6 on, ±1.
    """
    z = np.asarray(z, dtype=np.float64)
    a = np.abs(z)
    result = np.full_like(a, np.nan)  # NaN stays NaN: it falls in none of the three ranges
    small = a < _SERIES_BELOW
    s = a[small]
    y = 2.0 * s * s
    total = np.full_like(s, _SERIES[-1])
    for coefficient in reversed(_SERIES[:-1]):
        total *= y
        total += coefficient
    result[small] = 2.0 / math.sqrt(math.pi) * s * np.exp(-s * s) * total
    middle = ~small & (a < _ONE_FROM)
    m = a[middle]
    fraction = m.copy()
    for k in range(_FRACTION_TERMS, 0, -1):
        fraction = m + (k / 2.0) / fraction
    result[middle] = 1.0 - np.exp(-m * m) / (math.sqrt(math.pi) * fraction)
    result[a >= _ONE_FROM] = 1.0
    return np.copysign(result, z)


# --- what a page shows about the heads ---


@dataclass(frozen=True)
class Tokens:
    """A sentence as the model reads it: the pieces, their ids, and which word each piece belongs to."""

    sentence: str
    pieces: tuple[str, ...]  # what the tokenizer produced, special tokens included: "<s>", "▁per", "ro", ...
    ids: tuple[int, ...]  # each piece's row in the word-embedding table
    special: tuple[bool, ...]  # True for the tokens the tokenizer adds: [CLS]/[SEP] or <s>/</s>
    word_of_piece: tuple[int | None, ...]  # index into `words`; None for a special token
    words: tuple[str, ...]  # the words as the tokenizer splits the sentence, spelled as typed


@dataclass(frozen=True)
class HeadMeasures:
    """One number per head for each way a head can look; every array is (layers, heads), a mean over rows."""

    entropy: np.ndarray  # entropy of a row, in nats: 0 = all weight on one token, ln n = spread evenly
    special: np.ndarray  # weight a row gives to the special tokens together
    previous: np.ndarray  # weight token i gives to token i − 1 (rows 1 … n−1)
    self_weight: np.ndarray  # weight token i gives to itself


def head_measures(result: EncoderResult, special: Sequence[bool] | np.ndarray) -> HeadMeasures:
    """Entropy, weight on special tokens, previous-token and self weight of every head, averaged over rows."""
    a = result.attentions  # (layers, heads, n, n)
    special = np.asarray(special, dtype=bool)  # (n,)
    if special.shape != a.shape[-1:]:
        raise EngineInputError("shape_mismatch", f"{a.shape[-1]} tokens but {special.size} special flags")
    n = a.shape[-1]
    diagonal = np.diagonal(a, axis1=-2, axis2=-1)  # (layers, heads, n)
    below = np.diagonal(a, offset=-1, axis1=-2, axis2=-1)  # (layers, heads, n − 1)  weights[i, i − 1]
    return HeadMeasures(
        entropy=row_entropy(a).mean(axis=-1),
        special=a[..., special].sum(axis=-1).mean(axis=-1),
        previous=below.mean(axis=-1) if n > 1 else np.zeros(a.shape[:2]),
        self_weight=diagonal.mean(axis=-1),
    )


def word_attention(result: EncoderResult, tokens: Tokens) -> np.ndarray:
    """Attention between words, (layers, heads, words, words), from the pieces' attention by one rule:
    attention TO a word is the sum over its pieces (the weight lands on one of them), attention FROM a word is
    the mean over its pieces (each piece asks once). Special tokens belong to no word, so a row sums to 1 minus
    the weight the word's pieces give the special tokens."""
    n = result.attentions.shape[-1]
    if len(tokens.word_of_piece) != n:
        raise EngineInputError("shape_mismatch", f"{n} tokens in the result but {len(tokens.word_of_piece)} pieces")
    member = np.zeros((n, len(tokens.words)))  # (n, words)  1 where piece p belongs to word w
    for p, w in enumerate(tokens.word_of_piece):
        if w is not None:
            member[p, w] = 1.0
    mean_over_pieces = member / np.maximum(member.sum(axis=0), 1.0)  # (n, words)
    return mean_over_pieces.T @ result.attentions @ member  # (layers, heads, words, words)


def find_word(tokens: Tokens, word: str) -> int:
    """Index of the first word spelled `word` (ignoring case and the punctuation around it)."""
    wanted = _bare(word)
    for index, candidate in enumerate(tokens.words):
        if _bare(candidate) == wanted and wanted:
            return index
    raise EngineInputError("word_not_in_sentence", f"{word!r} is not a word of the sentence", word=word)


def _bare(word: str) -> str:
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[start:end].casefold()


@dataclass(frozen=True)
class HeadPreference:
    """How much one word attends to `first` rather than `second` in one head."""

    layer: int
    head: int
    to_first: float  # word-level weight from the asking word to `first`
    to_second: float  # ... and to `second`

    @property
    def margin(self) -> float:
        """to_first − to_second: above 0 the head prefers `first`."""
        return self.to_first - self.to_second


def rank_heads(words: np.ndarray, asker: int, first: int, second: int) -> tuple[HeadPreference, ...]:
    """Every head ranked by how much word `asker` attends to word `first` more than to `second`, best first.

    `words` is word_attention(...); for «¿quién tiene hambre?» asker = «tiene», first = «perro», second = «carne»."""
    n_words = words.shape[-1]
    for name, index in (("asker", asker), ("first", first), ("second", second)):
        checked_index(name, index, n_words)
    preferences = [
        HeadPreference(layer, head, float(words[layer, head, asker, first]), float(words[layer, head, asker, second]))
        for layer in range(words.shape[0])
        for head in range(words.shape[1])
    ]
    return tuple(sorted(preferences, key=lambda p: (-p.margin, p.layer, p.head)))


def cell_derivation(result: EncoderResult, layer: int, head: int, i: int, j: int) -> CellDerivation:
    """The arithmetic behind weights[i, j] of one head: q_i·k_j, ÷√d_head, then softmax over row i (the
    walkthrough's `derivation.cell`, on the model's head)."""
    attended = result.head(layer, head)
    n = attended.weights.shape[0]
    return cell(attended, checked_index("i", i, n), checked_index("j", j, n))


# --- the checks, kept out of the formulas ---


def checked_ids(token_ids: Sequence[int], config: EncoderConfig) -> np.ndarray:
    """The ids as a 1-D integer array, or EngineInputError: at least one, within the vocabulary and positions."""
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise EngineInputError("bad_token_ids", "token ids must be a non-empty list of integers")
    if ids.size > config.max_tokens:
        raise EngineInputError(
            "model_too_many_tokens",
            f"{ids.size} tokens, but the model has positions for {config.max_tokens}",
            count=int(ids.size),
            limit=config.max_tokens,
        )
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise EngineInputError(
            "bad_token_ids", f"token ids must lie in [0, {config.vocab_size})", limit=config.vocab_size
        )
    return ids.astype(np.int64)


def checked_index(name: str, index: int, size: int) -> int:
    """`index` as an int in [0, size), or EngineInputError("index_out_of_range")."""
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < size:
        raise EngineInputError(
            "index_out_of_range", f"{name} must be an integer in [0, {size}), got {index!r}", name=name, limit=size
        )
    return int(index)


def read_only(array: np.ndarray) -> np.ndarray:
    """The same array, marked read-only: results and weights are shared between sessions and never changed."""
    array.flags.writeable = False
    return array
