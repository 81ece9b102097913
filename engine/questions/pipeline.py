"""Questions of the pipeline page: the sentence's tokens, its positional encoding, its x, and whom each token reads."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import numpy as np

from engine.pipeline import PipelineResult, SentenceVectors, positional_encoding
from engine.questions.core import ChoiceDraft, NumericDraft, OptionKind, Templates
from engine.questions.picking import other_tokens, query_rows, transposed, winners

ask = Templates(SentenceVectors)  # before the tokens: what goes into attention
ask_after = Templates(PipelineResult)  # before "what attention did": its weights


@ask.number(
    "pipeline.token_count",
    params=("sentence",),
    misconceptions=("words_only", "punctuation_skipped", "characters", "dropped_counted"),
)
def token_count(vectors: SentenceVectors, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """How many tokens go into attention: words and punctuation marks, each its own token."""
    kept = len(vectors.tokens)
    mistakes = (
        ("words_only", len(vectors.sentence.split())),  # split at spaces: "come." stays one
        ("punctuation_skipped", len(re.findall(r"\w+", vectors.sentence))),
        ("characters", len(vectors.sentence)),
        ("dropped_counted", kept + vectors.dropped),
    )
    yield NumericDraft(dict(sentence=vectors.sentence), kept, mistakes, decimals=0, tolerance=0.0)


def _positions(rng: np.random.Generator, vectors: SentenceVectors) -> list[tuple[int, int]]:
    """(position, dimension) pairs in a seeded order, position 0 (all sin 0 and cos 0) last."""
    n, d = vectors.x.shape
    pairs = [(int(p), int(i)) for p in rng.permutation(n) for i in rng.permutation(d)]
    return sorted(pairs, key=lambda pair: pair[0] == 0)


@ask.number(
    "pipeline.pe_value",
    params=("token", "position", "dimension", "d_model"),
    misconceptions=("sin_cos_swapped", "degrees", "pair_not_halved", "position_dimension_swapped"),
)
def pe_value(vectors: SentenceVectors, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """PE[position, dimension]: sin on even dimensions, cos on odd, of position / 10000^(2i / d_model)."""
    _, d = vectors.x.shape
    for pos, dim in _positions(rng, vectors):
        angle = pos / 10000.0 ** (2 * (dim // 2) / d)
        right, other = (math.sin, math.cos) if dim % 2 == 0 else (math.cos, math.sin)
        mistakes = [
            ("sin_cos_swapped", other(angle)),
            ("degrees", right(math.radians(angle))),  # a calculator left in degrees
            ("pair_not_halved", right(pos / 10000.0 ** (dim / d))),
        ]
        if pos < d:
            mistakes.append(("position_dimension_swapped", positional_encoding(max(pos, dim) + 1, d)[dim, pos]))
        params = dict(token=vectors.tokens[pos], position=pos, dimension=dim, d_model=d)
        yield NumericDraft(params, vectors.positional[pos, dim], tuple(mistakes))


@ask.number(
    "pipeline.x_entry",
    params=("token", "position", "dimension", "embedding", "positional"),
    misconceptions=("embedding_only", "position_only", "subtracted"),
)
def x_entry(vectors: SentenceVectors, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """x[position, dimension] = embedding + positional encoding."""
    for pos, dim in _positions(rng, vectors):
        embedding, positional = vectors.embeddings[pos, dim], vectors.positional[pos, dim]
        mistakes = (
            ("embedding_only", embedding),
            ("position_only", positional),
            ("subtracted", embedding - positional),
        )
        params = dict(
            token=vectors.tokens[pos], position=pos, dimension=dim, embedding=embedding, positional=positional
        )
        yield NumericDraft(params, vectors.x[pos, dim], mistakes)


@ask_after.choice(
    "pipeline.most_attended",
    options=OptionKind.TOKEN,
    params=("tokens", "token", "position"),
    misconceptions=("transposed", "always_self", "previous_token", "less_weight", "mask_ignored"),
)
def most_attended(result: PipelineResult, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Which token a token's row of weights looks at most (a position: a sentence may repeat a word)."""
    attention = result.attention
    n = len(result.tokens)
    for i, best in winners(query_rows(rng, attention), attention.weights, attention.allowed):
        distractors: list[tuple[int, str]] = [*transposed(attention.weights, i), (i, "always_self")]
        if i > 0:
            distractors.append((i - 1, "previous_token"))
        distractors += other_tokens(rng, n, attention.allowed[i], mistake="less_weight")
        params = dict(tokens=result.tokens, token=result.tokens[i], position=i)
        yield ChoiceDraft(params, best, tuple(distractors))
