"""Why divide by √d_k: the spread of q·k for random vectors, random walks, and how peaked softmax gets."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from engine.attention import Scale, divisor_for
from engine.errors import EngineInputError, checked_int
from engine.limits import SCALING_D_K_RANGE, SCALING_SAMPLES_RANGE, SEED_RANGE
from engine.softmax import softmax

_CHUNK_ELEMENTS = 1 << 22  # random numbers drawn at once (32 MB of float64) so d_k = 4096 fits in memory


@dataclass(frozen=True)
class ScalingExperiment:
    """Measured spread of q·k per d_k, and how peaked softmax rows of those scores get per divisor."""

    dks: np.ndarray  # (m,) the d_k values tried
    samples: int  # dot products drawn per d_k
    row_length: int  # scores per softmax row (the n of the peakedness columns)
    spread: np.ndarray  # (m,) std of q·k, q and k with unit-variance entries
    sqrt_dk: np.ndarray  # (m,) √d_k, what the spread should be
    scaled_spread: np.ndarray  # (m,) std of q·k / √d_k, about 1 whatever d_k
    max_weight: np.ndarray  # (m, 3) mean largest softmax weight per row, columns in Scale order (none, √d_k, d_k)
    entropy: np.ndarray  # (m, 3) mean entropy (nats) of softmax rows, columns in Scale order (none, √d_k, d_k)
    uniform_entropy: float  # ln(row_length), the entropy of a perfectly flat row


# Queries and keys per block: each of `side` queries meets each of `side` keys, so 2·side vectors give side² values of
# q·k instead of one per two vectors. Every value is exactly one q·k, and any two are uncorrelated; only their
# squares are, by 1 / (d_k + 3) within a query's row or a key's column, which adds 2·(side − 1) / (d_k + 3) to the
# variance of the measured spread's square: at most 5% with this side (2.5% on the spread's own noise).
_INFLATION = 0.05


def block_side(d_k: int, samples: int) -> int:
    """Queries (and keys) per block of Q·Kᵀ for `samples` values at d_k: 1 (every q·k its own pair) up to d_k ≈ 40."""
    side = 1 + int(_INFLATION * (d_k + 3) / 2)
    return max(1, min(side, math.isqrt(samples - 1) + 1))


def random_dot_products(d_k: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """`samples` values of q·k with q, k ~ N(0, 1)^d_k: the entries of Q·Kᵀ for blocks of `block_side` random queries
    and as many random keys, read row by row (one query against its keys), drawn in chunks to bound memory."""
    side = block_side(d_k, samples)
    blocks = -(-samples // (side * side))
    per_chunk = max(1, _CHUNK_ELEMENTS // (side * d_k))
    parts = []
    for start in range(0, blocks, per_chunk):
        count = min(per_chunk, blocks - start)
        q = rng.standard_normal((count, side, d_k))  # (blocks, side, d_k)
        k = rng.standard_normal((count, side, d_k))  # (blocks, side, d_k)
        parts.append(np.matmul(q, k.transpose(0, 2, 1)).reshape(-1))  # (blocks · side²,)
    return np.concatenate(parts)[:samples]  # (samples,)


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy in nats of each row of weights (0 · log 0 taken as 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(weights > 0, weights * np.log(weights), 0.0)
    return -terms.sum(axis=-1)


def _listed_dks(dks: object) -> list[object]:
    low, high = SCALING_D_K_RANGE
    refused = EngineInputError("bad_dks", f"dks must list at least one d_k from {low} to {high}", low=low, high=high)
    if isinstance(dks, str | bytes) or not isinstance(dks, Iterable):
        raise refused
    listed = list(dks)
    if not listed:
        raise refused
    return listed


def scaling_experiment(dks: Iterable[int], samples: int, seed: int, row_length: int = 8) -> ScalingExperiment:
    """For each d_k: spread of q·k against √d_k, and softmax peakedness with no divisor, ÷√d_k and ÷d_k.

    Refused before any work (EngineInputError): no d_k at all ("bad_dks"), a d_k outside SCALING_D_K_RANGE, samples
    outside SCALING_SAMPLES_RANGE, a row_length from 2 to samples, or a seed outside SEED_RANGE ("out_of_range")."""
    dks_arr = np.asarray(sorted({checked_int(d, "d_k", SCALING_D_K_RANGE) for d in _listed_dks(dks)}), dtype=np.int64)
    samples = checked_int(samples, "samples", SCALING_SAMPLES_RANGE)
    row_length = checked_int(row_length, "row_length", (2, samples))
    seed = checked_int(seed, "seed", SEED_RANGE)
    m = dks_arr.size
    spread, max_weight, entropy = np.empty(m), np.empty((m, len(Scale))), np.empty((m, len(Scale)))
    usable = samples - samples % row_length
    for i, d_k in enumerate(dks_arr):
        # a generator of its own per d_k: a row's numbers depend on the seed and its d_k, not on the other d_k listed
        dots = random_dot_products(int(d_k), samples, np.random.default_rng([seed, int(d_k)]))  # (samples,)
        spread[i] = dots.std()
        rows = dots[:usable].reshape(-1, row_length)  # (samples // n, n): rows of scores
        for j, mode in enumerate(Scale):
            w = softmax(rows / divisor_for(mode, int(d_k)), axis=-1)
            max_weight[i, j] = w.max(axis=-1).mean()
            entropy[i, j] = row_entropy(w).mean()
    sqrt_dk = np.sqrt(dks_arr.astype(np.float64))
    return ScalingExperiment(
        dks=dks_arr,
        samples=int(samples),
        row_length=row_length,
        spread=spread,
        sqrt_dk=sqrt_dk,
        scaled_spread=spread / sqrt_dk,
        max_weight=max_weight,
        entropy=entropy,
        uniform_entropy=float(np.log(row_length)),
    )


@dataclass(frozen=True)
class SoftmaxThreeWays:
    """One random row of scores at a given d_k, turned into weights with each divisor."""

    d_k: int
    scores: np.ndarray  # (n,) q·k_j for one random q and n random keys
    weights: np.ndarray  # (3, n) rows in Scale order (none, √d_k, d_k)
    max_weight: np.ndarray  # (3,)
    entropy: np.ndarray  # (3,)
    uniform_entropy: float


def softmax_three_ways(d_k: int, row_length: int, seed: int) -> SoftmaxThreeWays:
    """The lesson's three-divisor table for one concrete row: saturated, balanced, flat."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(d_k)  # (d_k,)
    keys = rng.standard_normal((row_length, d_k))  # (n, d_k)
    scores = keys @ q  # (n,)
    weights = np.stack([softmax(scores / divisor_for(mode, d_k)) for mode in Scale])  # (3, n)
    return SoftmaxThreeWays(
        d_k=d_k,
        scores=scores,
        weights=weights,
        max_weight=weights.max(axis=-1),
        entropy=row_entropy(weights),
        uniform_entropy=float(np.log(row_length)),
    )


@dataclass(frozen=True)
class RandomWalks:
    """Walks of ±1 steps: where each one is after every step, and the spread across walks."""

    positions: np.ndarray  # (walks, steps + 1) int32, starting at 0
    spread: np.ndarray  # (steps + 1,) std of position across walks after each step
    sqrt_steps: np.ndarray  # (steps + 1,) √step, what the spread should follow


def random_walks(walks: int, steps: int, seed: int) -> RandomWalks:
    """`walks` random walks of `steps` ±1 steps each, reproducible from the seed."""
    rng = np.random.default_rng(seed)
    moves = 2 * rng.integers(0, 2, size=(walks, steps), dtype=np.int8) - 1  # (walks, steps), each -1 or +1
    positions = np.zeros((walks, steps + 1), dtype=np.int32)  # whole numbers: a quarter of float64's work and memory
    np.cumsum(moves, axis=1, dtype=np.int32, out=positions[:, 1:])
    return RandomWalks(
        positions=positions,
        spread=positions.std(axis=0),
        sqrt_steps=np.sqrt(np.arange(steps + 1, dtype=np.float64)),
    )
