"""Scaled dot-product self-attention, single- and multi-head, keeping every intermediate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from engine.errors import EngineInputError
from engine.softmax import softmax

ScaleMode = Literal["sqrt", "none", "dk"]
SCALE_MODES: tuple[str, ...] = ("none", "sqrt", "dk")


@dataclass(frozen=True)
class AttentionResult:
    """softmax(Q·Kᵀ / divisor) · V, with every step a page may show."""

    q: np.ndarray  # (n, d_k)  queries: what each token looks for
    k: np.ndarray  # (n, d_k)  keys: what each token offers to be found by
    v: np.ndarray  # (n, d_v)  values: what each token hands over
    scores: np.ndarray  # (n, n)  Q·Kᵀ, row i = token i asking, column j = token j looked at
    divisor: float  # what the scores are divided by (√d_k, d_k, 1 or a number)
    scaled_scores: np.ndarray  # (n, n)  scores / divisor, -inf where masked
    weights: np.ndarray  # (n, n)  softmax of each row; rows sum to 1 (0 where fully masked)
    output: np.ndarray  # (n, d_v)  weights · V
    allowed: np.ndarray  # (n, n) bool, True where token i may look at token j
    temperature: float

    @property
    def d_k(self) -> int:
        return self.q.shape[1]


def _matrix(m, name: str) -> np.ndarray:
    arr = np.asarray(m, dtype=np.float64)
    if arr.ndim != 2:
        raise EngineInputError("not_matrix", f"{name} must be a 2-D matrix, got shape {arr.shape}", name=name)
    if not np.isfinite(arr).all():
        raise EngineInputError("not_finite", f"{name} contains NaN or infinity", name=name)
    return arr


def _require_rows(w: np.ndarray, name: str, rows: int, source: str) -> None:
    if w.shape[0] != rows:
        raise EngineInputError(
            "shape_mismatch",
            f"{name} has shape {w.shape} but {source} needs {rows} rows",
            name=name,
            got=w.shape,
            expected_rows=rows,
        )


def divisor_for(scale, d_k: int) -> float:
    """The number scores are divided by: √d_k for "sqrt", d_k for "dk", 1 for "none", or `scale` itself."""
    if isinstance(scale, str):
        if scale == "sqrt":
            return float(np.sqrt(d_k))
        if scale == "dk":
            return float(d_k)
        if scale == "none":
            return 1.0
        raise EngineInputError("bad_scale", f"scale must be 'sqrt', 'none', 'dk' or a number, got {scale!r}")
    value = float(scale)
    if not np.isfinite(value) or value <= 0:
        raise EngineInputError("bad_scale", f"a numeric scale must be finite and > 0, got {scale!r}")
    return value


def allowed_positions(n: int, mask=None) -> np.ndarray:
    """(n, n) bool: True where query i may attend to key j. "causal" allows j <= i only."""
    if mask is None:
        return np.ones((n, n), dtype=bool)
    if isinstance(mask, str):
        if mask != "causal":
            raise EngineInputError("bad_mask", f"mask must be None, 'causal' or a boolean array, got {mask!r}")
        return np.tril(np.ones((n, n), dtype=bool))
    arr = np.asarray(mask)
    if arr.dtype != bool or arr.shape != (n, n):
        raise EngineInputError(
            "bad_mask", f"a mask array must be boolean with shape {(n, n)}, got {arr.dtype} {arr.shape}"
        )
    return arr


def attention(x, w_q, w_k, w_v, *, scale="sqrt", mask=None, temperature: float = 1.0) -> AttentionResult:
    """Self-attention of the rows of x: returns the output and every intermediate, weights included."""
    x = _matrix(x, "x")  # (n, d_model)
    w_q, w_k, w_v = _matrix(w_q, "W_Q"), _matrix(w_k, "W_K"), _matrix(w_v, "W_V")
    d_model = x.shape[1]
    for w, name in ((w_q, "W_Q"), (w_k, "W_K"), (w_v, "W_V")):
        _require_rows(w, name, d_model, f"x of shape {x.shape}")
    if w_q.shape[1] != w_k.shape[1]:
        raise EngineInputError(
            "shape_mismatch",
            f"W_Q has shape {w_q.shape} and W_K has shape {w_k.shape}: queries and keys need the same d_k",
            name="W_K",
            got=w_k.shape,
            expected=w_q.shape,
        )
    n = x.shape[0]
    q = x @ w_q  # (n, d_k)
    k = x @ w_k  # (n, d_k)
    v = x @ w_v  # (n, d_v)
    divisor = divisor_for(scale, q.shape[1])
    allowed = allowed_positions(n, mask)
    with np.errstate(over="ignore", invalid="ignore"):
        scores = q @ k.T  # (n, n)
        scaled = np.where(allowed, scores / divisor, -np.inf)  # (n, n)
    weights = softmax(scaled, axis=-1, temperature=temperature)  # (n, n)
    with np.errstate(over="ignore", invalid="ignore"):
        output = weights @ v  # (n, d_v)
    return AttentionResult(
        q=q,
        k=k,
        v=v,
        scores=scores,
        divisor=divisor,
        scaled_scores=scaled,
        weights=weights,
        output=output,
        allowed=allowed,
        temperature=float(temperature),
    )


@dataclass(frozen=True)
class MultiHeadResult:
    """Several attentions side by side, concatenated and projected back by W_O."""

    heads: tuple[AttentionResult, ...]
    concat: np.ndarray  # (n, h * d_v)
    w_o: np.ndarray  # (h * d_v, d_out)
    output: np.ndarray  # (n, d_out)  concat · W_O


def multi_head_attention(x, heads: Sequence[tuple], w_o, **options) -> MultiHeadResult:
    """Run attention once per (W_Q, W_K, W_V) in `heads`, concatenate the outputs, project by W_O."""
    if len(heads) == 0:
        raise EngineInputError("no_heads", "multi-head attention needs at least one head")
    results = tuple(attention(x, *head, **options) for head in heads)
    concat = np.concatenate([r.output for r in results], axis=1)  # (n, h * d_v)
    w_o = _matrix(w_o, "W_O")
    _require_rows(w_o, "W_O", concat.shape[1], f"the concatenated heads ({concat.shape[1]} columns)")
    return MultiHeadResult(heads=results, concat=concat, w_o=w_o, output=concat @ w_o)
