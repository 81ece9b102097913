"""From a sentence to contextualised vectors: tokens, embeddings, positional encoding, attention."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, fields

import numpy as np

from engine.attention import AttentionResult, Scale, attention
from engine.errors import EngineInputError, checked_int
from engine.limits import D_K_RANGE, D_MODEL_RANGE, MAX_SENTENCE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS, SEED_RANGE
from engine.presets import LESSON_D_MODEL, LESSON_TOKENS, LESSON_W_K, LESSON_W_Q, LESSON_W_V, LESSON_X, random_weights
from engine.text import code_point, forbidden_character, is_invisible

# Words; flags (two regional indicators); any other symbol with the modifiers that belong to it
# (variation selectors, skin tones, zero-width-joined emoji), so "❤️" and "👩‍💻" stay one token each.
_TOKEN_PATTERN = re.compile(
    r"\w+"
    r"|[\U0001F1E6-\U0001F1FF]{2}"
    r"|[^\w\s](?:[\ufe0e\ufe0f\U0001F3FB-\U0001F3FF]|\u200d[^\w\s])*"
)


def checked_sentence(sentence: object) -> str:
    """The sentence, if the engine takes it: text of at most MAX_SENTENCE_CHARS characters (checked before any
    other work), holding no lone surrogate, no control character other than whitespace and no bidi control."""
    if not isinstance(sentence, str):
        raise EngineInputError("sentence_not_text", "the sentence must be text")
    if len(sentence) > MAX_SENTENCE_CHARS:
        raise EngineInputError(
            "sentence_too_long",
            f"a sentence has at most {MAX_SENTENCE_CHARS} characters, this one {len(sentence)}",
            limit=MAX_SENTENCE_CHARS,
            length=len(sentence),
        )
    bad = forbidden_character(sentence, whitespace_allowed=True)
    if bad is not None:
        raise EngineInputError(
            "sentence_bad_characters",
            f"the sentence holds the character {code_point(bad)} (a control, bidi or unencodable one)",
            char=code_point(bad),
        )
    return sentence


def tokenize(sentence: str) -> list[str]:
    """Lower-cased words and single punctuation marks or symbols (emoji included), in order.

    The sentence is checked first (`checked_sentence`), so the work is bounded by MAX_SENTENCE_CHARS; a
    token that draws nothing (a stray zero-width space or joiner) is left out like a space."""
    text = unicodedata.normalize("NFC", checked_sentence(sentence)).lower()
    return [token for token in _TOKEN_PATTERN.findall(text) if not is_invisible(token)]


def positional_encoding(n: int, d: int) -> np.ndarray:
    """The sinusoidal encoding of "Attention Is All You Need": sin on even columns, cos on odd.  (n, d)"""
    pos = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    pair = np.arange(d, dtype=np.float64)[None, :] // 2  # (1, d) index i of the (sin, cos) pair
    angle = pos / np.power(10000.0, 2.0 * pair / d)  # (n, d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))


# Embeddings chosen so that embedding + PE gives the lesson's x for "el perro come" at d_model = 4:
# the sentence typed on the pipeline page and the walkthrough tell one story.
LESSON_VOCABULARY: dict[str, np.ndarray] = {
    token: LESSON_X[i] - positional_encoding(len(LESSON_TOKENS), LESSON_D_MODEL)[i]
    for i, token in enumerate(LESSON_TOKENS)
}


def _token_seed(token: str, d: int) -> int:
    # blake2b, not hash(): Python salts str hashes per process, and an embedding must not change between runs.
    digest = hashlib.blake2b(f"{d}:{token}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def embed(tokens: Iterable[str], d: int) -> np.ndarray:
    """A deterministic vector per token (the same on every machine and run).  (n, d)"""
    rows = []
    for token in tokens:
        if d == LESSON_D_MODEL and token in LESSON_VOCABULARY:
            rows.append(LESSON_VOCABULARY[token])
        else:
            rows.append(np.random.default_rng(_token_seed(token, d)).normal(0.0, 0.5, size=d))
    return np.array(rows, dtype=np.float64).reshape(len(rows), d)


@dataclass(frozen=True)
class SentenceVectors:
    """The stages before attention: they depend on the sentence and d_model only, not on the weights."""

    sentence: str
    tokens: tuple[str, ...]  # at most max_tokens of them, each at most MAX_TOKEN_CHARS characters
    dropped: int  # tokens cut because the sentence was longer than max_tokens
    shortened: int  # tokens longer than MAX_TOKEN_CHARS, cut to that length (a 2,000-letter word is no label)
    embeddings: np.ndarray  # (n, d_model)
    positional: np.ndarray  # (n, d_model)
    x: np.ndarray  # (n, d_model)  embeddings + positional


@dataclass(frozen=True)
class PipelineResult(SentenceVectors):
    """Every stage from sentence to attention output: the sentence's vectors, the weights, and attention."""

    w_q: np.ndarray  # (d_model, d_k)
    w_k: np.ndarray  # (d_model, d_k)
    w_v: np.ndarray  # (d_model, d_k)
    attention: AttentionResult


def pipeline_weights(d_model: int, d_k: int, weights: str, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V for the pipeline: the lesson's (d_model = d_k = 4 only) or seeded random ones."""
    d_model = checked_int(d_model, "d_model", D_MODEL_RANGE)
    d_k = checked_int(d_k, "d_k", D_K_RANGE)
    seed = checked_int(seed, "seed", SEED_RANGE)
    if weights == "lesson":
        if d_model != LESSON_D_MODEL or d_k != LESSON_D_MODEL:
            raise EngineInputError(
                "lesson_weights_shape",
                f"the lesson's weights are {LESSON_D_MODEL}×{LESSON_D_MODEL}; got d_model={d_model}, d_k={d_k}",
                d_model=d_model,
                d_k=d_k,
            )
        return LESSON_W_Q, LESSON_W_K, LESSON_W_V
    if weights == "random":
        return random_weights(d_model, d_k, seed)
    raise EngineInputError("bad_weights", f"weights must be 'lesson' or 'random', got {weights!r}")


def sentence_vectors(sentence: str, d_model: int = LESSON_D_MODEL, *, max_tokens: int = MAX_TOKENS) -> SentenceVectors:
    """Tokenizer, embedding and positional encoding: the sentence as the vectors x that attention reads.

    Refused before any work: a sentence that is not text, longer than MAX_SENTENCE_CHARS or holding a forbidden
    character (`checked_sentence`); d_model outside D_MODEL_RANGE; max_tokens outside 1..MAX_TOKENS. Tokens past
    max_tokens are dropped and tokens longer than MAX_TOKEN_CHARS cut to it; both are counted in the result."""
    d_model = checked_int(d_model, "d_model", D_MODEL_RANGE)
    max_tokens = checked_int(max_tokens, "max_tokens", (1, MAX_TOKENS))
    all_tokens = tokenize(sentence)
    if not all_tokens:
        raise EngineInputError("empty_sentence", "the sentence has no tokens")
    kept = all_tokens[:max_tokens]
    tokens = tuple(token[:MAX_TOKEN_CHARS] for token in kept)
    embeddings = embed(tokens, d_model)  # (n, d_model)
    positional = positional_encoding(len(tokens), d_model)  # (n, d_model)
    return SentenceVectors(
        sentence=sentence,
        tokens=tokens,
        dropped=len(all_tokens) - len(tokens),
        shortened=sum(len(token) > MAX_TOKEN_CHARS for token in kept),
        embeddings=embeddings,
        positional=positional,
        x=embeddings + positional,
    )


def attend(
    vectors: SentenceVectors,
    *,
    weights: str = "lesson",
    seed: int = 0,
    d_k: int | None = None,
    causal: bool = False,
    scale: Scale = Scale.SQRT,
    temperature: float = 1.0,
) -> PipelineResult:
    """Self-attention over a sentence's vectors, with the lesson's or seeded random weights."""
    d_model = vectors.x.shape[1]
    d_k = d_model if d_k is None else d_k
    w_q, w_k, w_v = pipeline_weights(d_model, d_k, weights, seed)
    result = attention(
        vectors.x, w_q, w_k, w_v, scale=scale, mask="causal" if causal else None, temperature=temperature
    )
    stages = {field.name: getattr(vectors, field.name) for field in fields(SentenceVectors)}
    return PipelineResult(
        **stages,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        attention=result,
    )


def pipeline(
    sentence: str,
    d_model: int = LESSON_D_MODEL,
    *,
    weights: str = "lesson",
    seed: int = 0,
    d_k: int | None = None,
    causal: bool = False,
    scale: Scale = Scale.SQRT,
    temperature: float = 1.0,
    max_tokens: int = MAX_TOKENS,
) -> PipelineResult:
    """Run a sentence through tokenizer, embedding, positional encoding and self-attention."""
    vectors = sentence_vectors(sentence, d_model, max_tokens=max_tokens)
    return attend(vectors, weights=weights, seed=seed, d_k=d_k, causal=causal, scale=scale, temperature=temperature)
