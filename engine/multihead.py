"""Multi-head attention: several attentions side by side, concatenated, projected back by W_O, added to x.

MultiHead(x) = Concat(head_1, …, head_h) · W_O, with head_i = Attention(x·W_Q^i, x·W_K^i, x·W_V^i).
The usual construction splits d_model × d_model matrices column-wise into h blocks of d_model / h columns,
so h heads cost what one big head costs (see `attention_cost`); what changes is that each head has its
own softmax, so each can look somewhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.attention import AttentionResult, Scale, as_matrix, attention
from engine.errors import EngineInputError
from engine.limits import SEED_RANGE
from engine.presets import random_weights
from engine.projection import top_attended
from engine.scaling import row_entropy

LAYER_NORM_EPS = 1e-5  # added to the variance so a constant row does not divide by zero (PyTorch's default)
FOCUS_WEIGHT = 0.5  # a row "looks at" a token when that token gets at least half of the row's weight
JOBS: tuple[str, ...] = ("previous", "self", "one_token", "spread", "mixed")  # measured, see head_behaviour

HeadWeights = tuple[np.ndarray, np.ndarray, np.ndarray]  # (W_Q, W_K, W_V) of one head


@dataclass(frozen=True)
class LayerNormSteps:
    """LayerNorm of each row, no learned gain or bias: (r − mean) / √(variance + eps)."""

    input: np.ndarray  # (n, d_model)  the rows normalised, here x + MultiHead(x)
    mean: np.ndarray  # (n,)  mean of each row
    variance: np.ndarray  # (n,)  population variance of each row (divided by d_model, not d_model − 1)
    eps: float
    output: np.ndarray  # (n, d_model)  each row with mean 0 and variance variance / (variance + eps) ≈ 1


@dataclass(frozen=True)
class MultiHeadResult:
    """Every head's attention, their concatenation, W_O, the output, and the residual sum x + output."""

    x: np.ndarray  # (n, d_model)
    heads: tuple[AttentionResult, ...]  # one per head, each with its own q, k, v, scores, weights, output
    concat: np.ndarray  # (n, Σ d_v)  the heads' outputs side by side, head 1's columns first
    w_o: np.ndarray  # (Σ d_v, d_model)
    output: np.ndarray  # (n, d_model)  concat · W_O
    residual: np.ndarray | None  # (n, d_model)  x + output; None when the caller adds the residual itself
    layer_norm: LayerNormSteps | None  # LayerNorm(x + output) with its mean and variance, when asked for

    @property
    def normalized(self) -> np.ndarray | None:
        """(n, d_model) LayerNorm(x + output), or None when layer norm was off."""
        return None if self.layer_norm is None else self.layer_norm.output


def multi_head_attention(
    x: np.ndarray,
    heads: Sequence[HeadWeights],
    w_o: np.ndarray,
    *,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
    layer_norm: bool = False,
    residual: bool = True,
) -> MultiHeadResult:
    """Concat(head_1, …, head_h) · W_O and x + that, each head being `attention` with its own W_Q, W_K, W_V.

    Heads may differ in d_k and d_v; W_O needs one row per concatenated column and d_model columns, so the
    output can be added to x. With residual=False (a caller that adds the residual itself, such as the encoder,
    whose x carries an extra column of ones for the biases) W_O may have any number of columns and `residual`
    is x's own shape only when they match. An error in one head's matrices carries `head` (1-based).
    """
    x = as_matrix(x, "x")  # (n, d_model)
    heads = tuple(heads)
    if len(heads) == 0:
        raise EngineInputError("no_heads", "multi-head attention needs at least one head")
    results = tuple(_one_head(x, number, head, scale, mask, temperature) for number, head in enumerate(heads, 1))
    concat = np.concatenate([r.output for r in results], axis=1)  # (n, Σ d_v)
    w_o = _checked_w_o(w_o, concat.shape[1], x.shape[1] if residual else None)  # (Σ d_v, d_model)
    with np.errstate(over="ignore", invalid="ignore"):
        output = concat @ w_o  # (n, d_model)
        summed = x + output if residual else output  # (n, d_model)
    if not np.isfinite(summed).all():
        raise EngineInputError("overflow", "the output overflowed: the inputs are too large", name="output")
    norm = layer_norm_steps(summed) if layer_norm else None
    return MultiHeadResult(x, results, concat, w_o, output, summed if residual else None, norm)


def layer_norm_steps(rows: np.ndarray, eps: float = LAYER_NORM_EPS) -> LayerNormSteps:
    """LayerNorm(r)_j = (r_j − μ) / √(σ² + eps), μ and σ² the mean and population variance of the row r."""
    rows = np.asarray(rows, dtype=np.float64)  # (n, d)
    mean = rows.mean(axis=1)  # (n,)
    variance = ((rows - mean[:, None]) ** 2).mean(axis=1)  # (n,)
    output = (rows - mean[:, None]) / np.sqrt(variance[:, None] + eps)  # (n, d)
    return LayerNormSteps(rows, mean, variance, float(eps), output)


def _one_head(
    x: np.ndarray, number: int, head: HeadWeights, scale: Scale, mask: str | np.ndarray | None, temperature: float
) -> AttentionResult:
    try:
        w_q, w_k, w_v = head
    except (TypeError, ValueError):
        raise EngineInputError(
            "bad_head", f"head {number} must be three matrices (W_Q, W_K, W_V)", head=number
        ) from None
    try:
        return attention(x, w_q, w_k, w_v, scale=scale, mask=mask, temperature=temperature)
    except EngineInputError as error:
        raise EngineInputError(error.code, f"head {number}: {error}", **error.params, head=number) from None


def _checked_w_o(w_o: npt.ArrayLike, rows: int, d_model: int | None) -> np.ndarray:
    w_o = as_matrix(w_o, "W_O")
    if w_o.shape[0] != rows or (d_model is not None and w_o.shape[1] != d_model):
        raise EngineInputError(
            "shape_mismatch",
            f"W_O has shape {w_o.shape} but the concatenated heads ({rows} columns) and x + output "
            f"(d_model = {d_model}) need {(rows, d_model)}",
            name="W_O",
            got=w_o.shape,
            expected=(rows, d_model),
        )
    return w_o


# --- building heads: split, merge, presets ---


def head_counts(d_model: int) -> tuple[int, ...]:
    """The numbers of heads that split d_model evenly: its divisors (1, 2, 4, 8 for 8)."""
    if int(d_model) != d_model or d_model < 1:
        raise EngineInputError("bad_d_model", f"d_model must be a whole number >= 1, got {d_model!r}", d_model=d_model)
    return tuple(h for h in range(1, int(d_model) + 1) if d_model % h == 0)


def split_heads(w: np.ndarray, h: int) -> tuple[np.ndarray, ...]:
    """A (d_model, c) matrix cut column-wise into h blocks of c / h columns: block i is head i's matrix."""
    w = as_matrix(w, "W")  # (d_model, c)
    if h < 1 or w.shape[1] % h != 0:
        raise EngineInputError(
            "heads_do_not_divide",
            f"{w.shape[1]} columns cannot be split into {h} heads of equal width",
            columns=w.shape[1],
            h=h,
        )
    return tuple(np.ascontiguousarray(block) for block in np.split(w, h, axis=1))  # h × (d_model, c / h), copies


def merge_heads(blocks: Sequence[np.ndarray]) -> np.ndarray:
    """The inverse of split_heads: the heads' matrices side by side.  (d_model, Σ columns)"""
    if len(blocks) == 0:
        raise EngineInputError("no_heads", "there are no head matrices to merge")
    return np.concatenate([as_matrix(b, "W") for b in blocks], axis=1)


def split_head_weights(w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, h: int) -> tuple[HeadWeights, ...]:
    """Three full-size matrices split into h heads, (W_Q^i, W_K^i, W_V^i) for head i."""
    return tuple(zip(split_heads(w_q, h), split_heads(w_k, h), split_heads(w_v, h), strict=True))


def random_heads(d_model: int, h: int, seed: int) -> tuple[HeadWeights, ...]:
    """Seeded random heads: the d_model × d_model random W_Q, W_K, W_V of one big head, split into h."""
    _check_seed(seed)
    return split_head_weights(*random_weights(d_model, d_model, seed), h)


def identity_like_w_o(rows: int, d_model: int) -> np.ndarray:
    """1 on the diagonal, 0 elsewhere: with rows = d_model, output = concat (W_O does nothing).  (rows, d_model)"""
    return np.eye(rows, d_model)


def random_w_o(rows: int, d_model: int, seed: int) -> np.ndarray:
    """N(0, 1/rows) entries rounded to 2 decimals, reproducible from the seed.  (rows, d_model)"""
    _check_seed(seed)
    rng = np.random.default_rng(seed)
    return np.round(rng.normal(0.0, 1.0 / np.sqrt(rows), size=(rows, d_model)), 2)


def _check_seed(seed: int) -> None:
    if int(seed) != seed or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise EngineInputError("bad_seed", f"the seed must be a whole number in {SEED_RANGE}, got {seed!r}", seed=seed)


# --- what the heads do, measured ---


def pairwise_cosine(m: np.ndarray) -> np.ndarray:
    """cos(m_i, m_j) = m_i·m_j / (|m_i| |m_j|) for every pair of rows; NaN where a row is all zeros.  (n, n)"""
    m = as_matrix(m, "m")  # (n, d)
    norms = np.linalg.norm(m, axis=1)  # (n,)
    with np.errstate(divide="ignore", invalid="ignore"):
        unit = m / norms[:, None]  # (n, d) NaN rows where the norm is 0
    return np.clip(unit @ unit.T, -1.0, 1.0)  # rounding can push cos(m_i, m_i) a hair above 1


def mean_pairwise_cosine(m: np.ndarray) -> float:
    """The mean of cos(m_i, m_j) over pairs i < j: near 1 when the rows have collapsed to one direction."""
    cos = pairwise_cosine(m)  # (n, n)
    upper = cos[np.triu_indices(cos.shape[0], k=1)]
    return float(upper.mean()) if upper.size else float("nan")


@dataclass(frozen=True)
class HeadBehaviour:
    """What one head does, read off its weights: whom each token looks at, and how spread its weights are."""

    top: np.ndarray  # (n,) the token each row gives the most weight to; ties: the earlier; -1: all masked
    top_weight: np.ndarray  # (n,) that weight (0 for a fully masked row)
    focused: np.ndarray  # (n,) bool, top_weight >= FOCUS_WEIGHT: the row "looks at" its top token
    entropy: np.ndarray  # (n,) entropy of each row in nats
    max_entropy: np.ndarray  # (n,) ln(tokens the row may look at): the entropy of an even spread
    mean_entropy: float
    job: str  # one of JOBS
    target: int  # for job "one_token", the token every row looks at; otherwise -1

    @property
    def forced(self) -> np.ndarray:
        """(n,) bool: the mask leaves the row one token, which takes its whole weight: no choice of the head."""
        return self.max_entropy <= 0


def head_behaviour(head: AttentionResult) -> HeadBehaviour:
    """Measure a head: top token and entropy per row, and a one-word job.

    The job is the first that fits: "previous" (every row focused on token max(i − 1, 0)), "self" (on itself),
    "one_token" (all on one token j, given as target), "spread" (no row focused), else "mixed". A row the causal
    mask leaves one token gives it everything by force: it counts for no job (so a head whose other rows all
    spread is "spread").
    """
    # Weights equal up to rounding noise (1e-16) count as ties and go to the earlier token, so an evenly
    # spread row names the same top token on every machine.
    top = top_attended(np.round(head.weights, 12), k=1, allowed=head.allowed).indices[:, 0]  # (n,)
    top_weight = np.where(top >= 0, head.weights[np.arange(top.size), top], 0.0)  # (n,)
    focused = top_weight >= FOCUS_WEIGHT  # (n,)
    entropy = row_entropy(head.weights)  # (n,)
    with np.errstate(divide="ignore"):
        max_entropy = np.log(head.allowed.sum(axis=1))  # (n,) -inf for a fully masked row
    chosen = max_entropy > 0  # (n,) rows with two tokens or more to look at: the head's own doing
    if not chosen.any():  # one token (or a mask that leaves every row one): judged on every row, as they are
        chosen = np.ones_like(chosen)
    positions = np.arange(top.size)
    c_top, c_focused = top[chosen], focused[chosen]
    target = -1
    if c_focused.all() and (c_top == np.maximum(positions - 1, 0)[chosen]).all():
        job = "previous"
    elif c_focused.all() and (c_top == positions[chosen]).all():
        job = "self"
    elif c_focused.all() and (c_top == c_top[0]).all():
        job, target = "one_token", int(c_top[0])
    elif not c_focused.any():
        job = "spread"
    else:
        job = "mixed"
    return HeadBehaviour(top, top_weight, focused, entropy, max_entropy, float(entropy.mean()), job, target)


# --- one big head against h small ones ---


@dataclass(frozen=True)
class AttentionCost:
    """Multiply-adds and parameters of multi-head attention with d_k = d_v = d_model / h."""

    n: int
    d_model: int
    h: int
    parameters: int  # 4 · d_model²: W_Q, W_K, W_V (h blocks of d_model × d_model/h each) and W_O
    projections: int  # 3 · n · d_model²: x · W_Q, x · W_K, x · W_V over all heads
    scores: int  # h · n² · d_k = n² · d_model
    weighted_sums: int  # h · n² · d_v = n² · d_model
    output_projection: int  # n · d_model²: concat · W_O
    exponentials: int  # h · n²: the one cost that grows with h (one softmax per head)

    @property
    def multiply_adds(self) -> int:
        """All the multiply-adds together: projections, scores, weighted sums and the output projection."""
        return self.projections + self.scores + self.weighted_sums + self.output_projection


def attention_cost(n: int, d_model: int, h: int) -> AttentionCost:
    """What h heads of width d_model / h cost: the same multiply-adds as one head of width d_model.

    Projections: h heads × n·d_model·(d_model/h) = n·d_model², as for one head. Scores: each head does n² dot
    products of length d_model/h, so h·n²·d_model/h = n²·d_model; the weighted sums likewise. Only the
    number of softmax exponentials, h·n², grows with h, and it is small next to the n²·d_model multiply-adds.
    """
    if h not in head_counts(d_model):
        raise EngineInputError(
            "heads_do_not_divide", f"{h} heads do not split d_model = {d_model}", columns=d_model, h=h
        )
    d_k = d_model // h
    return AttentionCost(
        n=n,
        d_model=d_model,
        h=h,
        parameters=4 * d_model * d_model,
        projections=3 * h * n * d_model * d_k,
        scores=h * n * n * d_k,
        weighted_sums=h * n * n * d_k,
        output_projection=n * d_model * d_model,
        exponentials=h * n * n,
    )


@dataclass(frozen=True)
class HeadCountComparison:
    """The same parameters run as one head of width d_model and as h heads of width d_model / h."""

    one: MultiHeadResult  # a single head with the full W_Q, W_K, W_V
    many: MultiHeadResult  # the same matrices split column-wise into h heads
    one_cost: AttentionCost
    many_cost: AttentionCost


def compare_head_counts(
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    h: int,
    *,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
) -> HeadCountComparison:
    """One big head against h small ones, sharing every number: the h heads are the big matrices split in h.

    With the same W_Q, W_K, W_V, W_O both cost the same (attention_cost); they differ only in that one
    softmax reads the sum of all d_model products per score, while each small head reads its own d_model / h.
    """
    x = as_matrix(x, "x")  # (n, d_model)
    n, d_model = x.shape
    for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v)):
        if np.shape(w) != (d_model, d_model):
            raise EngineInputError(
                "shape_mismatch",
                f"{name} has shape {np.shape(w)}; one big head needs {(d_model, d_model)} to split into heads",
                name=name,
                got=np.shape(w),
                expected=(d_model, d_model),
            )
    options: dict[str, Any] = {"scale": scale, "mask": mask, "temperature": temperature}
    one = multi_head_attention(x, [(w_q, w_k, w_v)], w_o, **options)
    many = multi_head_attention(x, split_head_weights(w_q, w_k, w_v, h), w_o, **options)
    return HeadCountComparison(one, many, attention_cost(n, d_model, 1), attention_cost(n, d_model, h))
