"""Picking what a question is about: which cell, which row, and the winner of a row if it clearly wins."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from engine.attention import AttentionResult

SHOWN_GAP = 0.001  # a "which is largest" question needs its winner ahead by more than one displayed unit


def cells(rng: np.random.Generator, allowed: np.ndarray) -> list[tuple[int, int]]:
    """The allowed (query, key) cells in a seeded order."""
    found = [(int(i), int(j)) for i, j in zip(*np.nonzero(allowed), strict=True)]
    return [found[k] for k in rng.permutation(len(found))]


def query_rows(rng: np.random.Generator, result: AttentionResult, min_allowed: int = 2) -> list[int]:
    """Query rows in a seeded order, those that may look at fewer than `min_allowed` tokens left out."""
    return [int(i) for i in rng.permutation(result.allowed.shape[0]) if result.allowed[i].sum() >= min_allowed]


def top(values: np.ndarray, allowed: np.ndarray | None = None) -> int | None:
    """The index of the largest allowed value, or None when the runner-up is within one displayed unit of it."""
    ranked = np.where(np.ones(values.shape, bool) if allowed is None else allowed, values, -np.inf)
    order = np.argsort(-ranked, kind="stable")
    if ranked.size > 1 and np.isfinite(ranked[order[1]]) and ranked[order[0]] - ranked[order[1]] <= SHOWN_GAP:
        return None
    return int(order[0])


def winners(rows: Iterable[int], values: np.ndarray, allowed: np.ndarray | None = None) -> Iterator[tuple[int, int]]:
    """(row, its winner) for each row, in the order given, whose largest allowed value (`values` (n, n), `allowed`
    its mask) wins by more than one displayed unit: a "which token" question about that row has one right option."""
    for i in rows:
        best = top(values[i], None if allowed is None else allowed[i])
        if best is not None:
            yield int(i), best


def transposed(values: np.ndarray, i: int) -> list[tuple[int, str]]:
    """The "transposed" distractor of a "which token does row i look at" question: the row that puts the most into
    column i (reading the matrix's column for its row), or none when that column has no one winner by more than one
    displayed unit (equal weights: which row "wins" would be rounding, and differ from one machine to another)."""
    best = top(values[:, i])
    return [] if best is None else [(best, "transposed")]


def other_tokens(
    rng: np.random.Generator, n: int, allowed: np.ndarray | None = None, *, mistake: str, masked: str = "mask_ignored"
) -> list[tuple[int, str]]:
    """Every token as a distractor, the allowed ones first, in a seeded order, each with why it is wrong: `mistake`
    (it gets less than the answer: a smaller score, weight or term) or, for a token the mask hides, `masked`."""
    order = [int(j) for j in rng.permutation(n)]
    if allowed is not None:
        order.sort(key=lambda j: not allowed[j])
    return [(j, mistake if allowed is None or allowed[j] else masked) for j in order]
