"""What attention is for: the same word in two sentences, layer by layer.

A word's vector at a stage is the mean of its pieces' vectors there (the rule sentence-transformers' mean pooling
uses for a sentence, applied to one word's pieces): the rows of the model's word table (the same in any sentence),
then the hidden state after the embeddings (word + position + segment, layer-normed), then after each layer.
Its cosine between the two sentences says how much of the word's vector the two contexts left in common.

What a head carried into the word from the others is measured as what it adds to the word's vector: the weighted
sum of the other words' values only, through that head's rows of W_O, ‖Σ_{j other} a_ij v_j W_O^h‖ (the
"weight × value norm" of Kobayashi et al. 2020, "Attention is not only a weight"), averaged over the word's pieces;
beside it, the weight those pieces give the other words. Special tokens ([CLS], [SEP], <s>, </s>) belong to no word
and count as neither the word nor its context.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.encoder import EncoderResult, Tokens
from engine.errors import EngineInputError
from engine.similarity import row_cosines


@dataclass(frozen=True)
class WordInContext:
    """One word of one sentence through the encoder: its vector at every stage and what each head carried into it."""

    word: str  # the word as written in the sentence
    pieces: tuple[int, ...]  # the positions of its pieces
    vectors: np.ndarray  # (layers + 2, d_model)  [0] the word-table rows, [1] after the embeddings, [l + 1] layer l
    carried: np.ndarray  # (layers, heads)  ‖what the head added to the word from the other words‖
    context_weight: np.ndarray  # (layers, heads)  the weight the word's pieces give the other words (mean over pieces)


def word_pieces(tokens: Tokens, word: int) -> tuple[int, ...]:
    """The positions of word `word`'s pieces; EngineInputError if it has none."""
    found = tuple(p for p, w in enumerate(tokens.word_of_piece) if w == word)
    if not found:
        raise EngineInputError("word_not_in_sentence", f"word {word} has no pieces", word=str(word))
    return found


def word_in_context(result: EncoderResult, tokens: Tokens, table_rows: np.ndarray, word: int) -> WordInContext:
    """Word `word` of `tokens` (an index into tokens.words) through `result`; `table_rows` (n, d_model) are the
    word table's rows of the sentence's pieces (model.weights.word_embeddings[tokens.ids])."""
    pieces = word_pieces(tokens, word)
    n = len(tokens.pieces)
    if result.hidden_states.shape[1] != n or len(table_rows) != n:
        raise EngineInputError("shape_mismatch", f"{n} pieces, a result of {result.hidden_states.shape[1]}")
    own = list(pieces)
    context = np.array([w is not None and w != word for w in tokens.word_of_piece])  # (n,) the other words' pieces
    stages = [np.asarray(table_rows, dtype=np.float64), *result.hidden_states]  # (layers + 2) × (n, d_model)
    vectors = np.stack([stage[own].mean(axis=0) for stage in stages])  # (layers + 2, d_model)
    layers, heads = result.attentions.shape[:2]
    carried, weight = np.zeros((layers, heads)), np.zeros((layers, heads))
    for layer, attended in enumerate(result.layers):
        for h, head in enumerate(attended.heads):
            d_v = head.v.shape[1]
            w_o = attended.w_o[h * d_v : (h + 1) * d_v]  # (d_v, d_model) this head's rows of W_O
            a = head.weights[own] * context  # (pieces, n) only the weights to the other words
            added = (a @ head.v) @ w_o  # (pieces, d_model)
            carried[layer, h] = float(np.linalg.norm(added, axis=1).mean())
            weight[layer, h] = float(a.sum(axis=1).mean())
    return WordInContext(tokens.words[word], pieces, vectors, carried, weight)


@dataclass(frozen=True)
class WordPair:
    """The same word in two sentences, compared stage by stage."""

    first: WordInContext
    second: WordInContext
    cosines: np.ndarray  # (layers + 2,)  cos(first.vectors[s], second.vectors[s]) at each stage

    @property
    def same_pieces(self) -> bool:
        """Both sentences cut the word into the same word-table rows (so stage 0's cosine is 1)."""
        return bool(np.array_equal(self.first.vectors[0], self.second.vectors[0]))

    @property
    def drop(self) -> float:
        """How much the cosine fell from the word table to the last layer."""
        return float(self.cosines[0] - self.cosines[-1])

    def top_heads(self, layer: int, k: int = 2) -> tuple[tuple[int, float, float], ...]:
        """The k heads of `layer` that carried the most into the word, in both sentences together: (head, carried
        in the first, carried in the second), the most first (ties: the earlier head)."""
        both = self.first.carried[layer] + self.second.carried[layer]  # (heads,)
        order = np.argsort(-both, kind="stable")[:k]
        return tuple((int(h), float(self.first.carried[layer, h]), float(self.second.carried[layer, h])) for h in order)


def word_pair(first: WordInContext, second: WordInContext) -> WordPair:
    """Compare one word's two contexts: the cosine of its vectors at every stage (NaN where one is all zeros)."""
    if first.vectors.shape != second.vectors.shape:
        raise EngineInputError("shape_mismatch", "the two sentences went through different models")
    return WordPair(first, second, row_cosines(first.vectors, second.vectors))
