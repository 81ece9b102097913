"""Scaled dot-product self-attention: softmax(Q·Kᵀ / √d_k) · V, keeping every intermediate a page shows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import ArrayLike

from engine.errors import EngineInputError
from engine.softmax import softmax


class Scale(StrEnum):
    """What the scores are divided by before the softmax (a string, so it travels in links and JSON as is)."""

    NONE = "none"  # by 1: the scores as they come
    SQRT = "sqrt"  # by √d_k: the Transformer's choice
    DK = "dk"  # by d_k: too much


@dataclass(frozen=True)
class AttentionResult:
    """softmax(Q·Kᵀ / divisor) · V, with every step a page may show."""

    q: np.ndarray  # (n, d_k)  queries: what each token looks for
    k: np.ndarray  # (n, d_k)  keys: what each token offers to be found by
    v: np.ndarray  # (n, d_v)  values: what each token hands over
    scores: np.ndarray  # (n, n)  Q·Kᵀ, row i = token i asking, column j = token j looked at
    divisor: float  # what the scores are divided by: √d_k, d_k or 1
    scaled_scores: np.ndarray  # (n, n)  scores / divisor, -inf where masked
    weights: np.ndarray  # (n, n)  softmax of each row at the temperature; rows sum to 1
    output: np.ndarray  # (n, d_v)  weights · V
    allowed: np.ndarray  # (n, n) bool, True where token i may look at token j
    temperature: float

    @property
    def d_k(self) -> int:
        """The width of the queries and keys, the d_k of √d_k."""
        return self.q.shape[1]


def attention(
    x: ArrayLike,
    w_q: ArrayLike,
    w_k: ArrayLike,
    w_v: ArrayLike,
    *,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
) -> AttentionResult:
    """Self-attention of the rows of x: the output and every intermediate, weights included."""
    x, w_q, w_k, w_v = checked_inputs(x, w_q, w_k, w_v)
    allowed = allowed_positions(x.shape[0], mask)  # (n, n)
    divisor = divisor_for(scale, w_q.shape[1])

    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked with a message, not warned about
        q = x @ w_q  # (n, d_k)
        k = x @ w_k  # (n, d_k)
        v = x @ w_v  # (n, d_v)
        scores = q @ k.T  # (n, n)
        checked_products(q, k, v, scores)  # before the softmax, which would see 0 · inf as a NaN score
        scaled = np.where(allowed, scores / divisor, -np.inf)  # (n, n)  masked cells get no weight
        weights = softmax(scaled, temperature=temperature)  # (n, n)
        output = weights @ v  # (n, d_v)

    result = AttentionResult(q, k, v, scores, divisor, scaled, weights, output, allowed, float(temperature))
    return checked_finite(result)


# --- the checks, kept out of the formula ---


def divisor_for(scale: Scale | str, d_k: int) -> float:
    """The number scores are divided by: √d_k, d_k or 1."""
    try:
        mode = Scale(scale)
    except ValueError:
        raise EngineInputError("bad_scale", f"scale must be one of {[s.value for s in Scale]}, got {scale!r}") from None
    return {Scale.NONE: 1.0, Scale.SQRT: float(np.sqrt(d_k)), Scale.DK: float(d_k)}[mode]


def allowed_positions(n: int, mask: str | np.ndarray | None = None) -> np.ndarray:
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


def as_matrix(m: object, name: str) -> np.ndarray:
    """`m` as a finite 2-D float64 array, or EngineInputError naming `name`."""
    try:
        arr = np.asarray(m, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise EngineInputError("not_a_number", f"{name} must hold numbers only", name=name) from None
    if arr.ndim != 2 or 0 in arr.shape:
        raise EngineInputError("not_matrix", f"{name} must be a non-empty 2-D matrix, got shape {arr.shape}", name=name)
    if not np.isfinite(arr).all():
        raise EngineInputError("not_finite", f"{name} contains NaN or infinity", name=name)
    return arr


def checked_inputs(x: object, w_q: object, w_k: object, w_v: object) -> tuple[np.ndarray, ...]:
    """x, W_Q, W_K, W_V as finite matrices whose shapes multiply: W_* have d_model rows, W_Q and W_K one d_k."""
    x = as_matrix(x, "x")  # (n, d_model)
    weights = {name: as_matrix(w, name) for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v))}
    for name, w in weights.items():
        if w.shape[0] != x.shape[1]:
            raise EngineInputError(
                "shape_mismatch",
                f"{name} has shape {w.shape} but x of shape {x.shape} needs {x.shape[1]} rows",
                name=name,
                got=w.shape,
                expected_rows=x.shape[1],
            )
    if weights["W_Q"].shape[1] != weights["W_K"].shape[1]:
        raise EngineInputError(
            "shape_mismatch",
            f"W_Q has shape {weights['W_Q'].shape} and W_K has shape {weights['W_K'].shape}: "
            "queries and keys need the same d_k",
            name="W_K",
            got=weights["W_K"].shape,
            expected=weights["W_Q"].shape,
        )
    return x, weights["W_Q"], weights["W_K"], weights["W_V"]


def checked_products(q: np.ndarray, k: np.ndarray, v: np.ndarray, scores: np.ndarray) -> None:
    """EngineInputError("overflow") naming Q, K, V or Q·Kᵀ when numbers this large overflowed float64.

    Inputs are finite, but products of entries near 1e200 are not: rather than a NaN or an all-zero row,
    the caller gets an error it can explain."""
    for name, values in (("Q", q), ("K", k), ("V", v), ("Q·Kᵀ", scores)):
        if not np.isfinite(values).all():
            raise EngineInputError("overflow", f"{name} overflowed: the inputs are too large", name=name)


def checked_finite(result: AttentionResult) -> AttentionResult:
    """The result, or EngineInputError("overflow") when numbers this large overflowed float64 on the way."""
    checked_products(result.q, result.k, result.v, result.scores)
    unmasked = np.where(result.allowed, result.scaled_scores, 0.0)
    if not (np.isfinite(unmasked).all() and np.isfinite(result.output).all()):
        raise EngineInputError("overflow", "the output overflowed: the inputs are too large", name="output")
    return result
