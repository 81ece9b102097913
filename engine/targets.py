"""Target attention patterns to train toward: presets built from the tokens, and checks on an edited one.

A target is an (n, n) matrix like the attention weights: row i says how much token i should look at each
token j, so every row a token may use sums to 1. Under a mask, a target never puts mass where the mask
forbids looking (the weight there is exactly 0, so no training could reach it): the presets move such a
row's mass to the token itself, and an edited target with mass there is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.attention import allowed_positions, as_matrix
from engine.errors import EngineInputError

TARGET_PRESETS: tuple[str, ...] = ("previous", "subject", "tiene_perro", "identity")

# Words skipped when the subject is chosen by default: "el perro ..." has its subject at «perro», not «el».
ARTICLES = frozenset({"el", "la", "los", "las", "lo", "un", "una", "unos", "unas", "the", "a", "an"})

ROW_SUM_TOLERANCE = 1e-9  # a row summing to 1 within this is left as it is and not reported as renormalised


def subject_index(tokens: Sequence[str]) -> int:
    """Where the subject is taken to be: the first token that is not an article (token 0 if all are)."""
    for i, token in enumerate(tokens):
        if token.lower() not in ARTICLES:
            return i
    return 0


def one_look_per_row(columns: Sequence[int], mask: str | np.ndarray | None = None) -> np.ndarray:
    """(n, n) target where row i puts all its mass on token columns[i].

    A row whose chosen token is masked looks at itself instead; if that is masked too, it spreads evenly
    over the tokens it may look at; a row that may look at nothing stays all zeros (no weight to train)."""
    n = len(columns)
    allowed = allowed_positions(n, mask)  # (n, n)
    target = np.zeros((n, n))  # (n, n)
    for i, j in enumerate(columns):
        if allowed[i, j]:
            target[i, j] = 1.0
        elif allowed[i, i]:
            target[i, i] = 1.0
        elif allowed[i].any():
            target[i] = allowed[i] / allowed[i].sum()
    return target


def previous_target(n: int, mask: str | np.ndarray | None = None) -> np.ndarray:
    """Each token looks at the one before it; the first token, having none, looks at itself.  (n, n)"""
    return one_look_per_row([max(i - 1, 0) for i in range(n)], mask)


def subject_target(n: int, subject: int, mask: str | np.ndarray | None = None) -> np.ndarray:
    """Every token looks at token `subject` (under a causal mask the tokens before it look at themselves)."""
    if not 0 <= subject < n:
        raise EngineInputError("bad_token_index", f"subject must be a token index in 0..{n - 1}", index=subject, n=n)
    return one_look_per_row([subject] * n, mask)


def looks_at_target(n: int, source: int, destination: int, mask: str | np.ndarray | None = None) -> np.ndarray:
    """Token `source` looks at token `destination`; every other token looks at itself.  (n, n)

    The other rows look at themselves, not evenly at all, so the loss can still reach 0: a uniform row's
    cross-entropy never goes below ln n, and a student would see a curve that stops short of zero."""
    for index in (source, destination):
        if not 0 <= index < n:
            raise EngineInputError("bad_token_index", f"token index must be in 0..{n - 1}", index=index, n=n)
    columns = list(range(n))
    columns[source] = destination
    return one_look_per_row(columns, mask)


def identity_target(n: int, mask: str | np.ndarray | None = None) -> np.ndarray:
    """Each token looks only at itself.  (n, n)"""
    return one_look_per_row(list(range(n)), mask)


def preset_available(name: str, tokens: Sequence[str]) -> bool:
    """Whether `target_preset(name, tokens)` can be built: «tiene»→«perro» needs both words in the tokens."""
    if name == "tiene_perro":
        return "tiene" in tokens and "perro" in tokens
    return name in TARGET_PRESETS and len(tokens) > 0


def target_preset(
    name: str, tokens: Sequence[str], *, mask: str | np.ndarray | None = None, subject: int | None = None
) -> np.ndarray:
    """The (n, n) target of a named preset for these tokens: "previous", "subject", "tiene_perro" or "identity".

    "subject": every token looks at token `subject`, by default `subject_index(tokens)` («perro» in "el perro
    come ..."). "tiene_perro": the row of «tiene» puts its mass on «perro» (first occurrence of each), the
    other rows on themselves."""
    tokens = list(tokens)
    n = len(tokens)
    if n == 0:
        raise EngineInputError("no_tokens", "a target needs at least one token")
    if name == "previous":
        return previous_target(n, mask)
    if name == "subject":
        return subject_target(n, subject_index(tokens) if subject is None else subject, mask)
    if name == "tiene_perro":
        if not preset_available(name, tokens):
            raise EngineInputError("preset_needs_tokens", "this preset needs the tokens «tiene» and «perro»")
        return looks_at_target(n, tokens.index("tiene"), tokens.index("perro"), mask)
    if name == "identity":
        return identity_target(n, mask)
    raise EngineInputError("bad_preset", f"preset must be one of {list(TARGET_PRESETS)}, got {name!r}", name=name)


@dataclass(frozen=True)
class NormalisedTarget:
    """An edited target with each row scaled to sum to 1, and which rows had to be scaled."""

    target: np.ndarray  # (n, n)  rows sum to 1 (a row that may look at nothing: all zeros)
    row_sums: np.ndarray  # (n,)  each row's sum as typed
    renormalised_rows: tuple[int, ...]  # rows whose sum was not 1 and were divided by it


def normalise_target(target: object, mask: str | np.ndarray | None = None) -> NormalisedTarget:
    """Scale each row of a typed target to sum to 1; refuse negative entries, empty rows and masked mass."""
    typed = as_matrix(target, "target")  # (n, n)
    n = typed.shape[0]
    if typed.shape != (n, n):
        raise EngineInputError("target_not_square", f"a target must be n×n, got shape {typed.shape}", got=typed.shape)
    allowed = allowed_positions(n, mask)  # (n, n)
    if (typed < 0).any():
        i, j = (int(a) for a in np.argwhere(typed < 0)[0])
        raise EngineInputError("target_negative", f"target[{i}, {j}] is negative", row=i, col=j)
    if ((typed > 0) & ~allowed).any():
        i, j = (int(a) for a in np.argwhere((typed > 0) & ~allowed)[0])
        raise EngineInputError(
            "target_on_masked", f"target[{i}, {j}] puts weight where the mask forbids looking", row=i, col=j
        )
    row_sums = typed.sum(axis=1)  # (n,)
    if ((row_sums == 0) & allowed.any(axis=1)).any():
        i = int(np.flatnonzero((row_sums == 0) & allowed.any(axis=1))[0])
        raise EngineInputError("target_row_zero", f"row {i} of the target sums to 0", row=i)
    live = row_sums > 0  # (n,)  rows that may look at nothing keep their zeros
    scaled = np.where(live[:, None], typed / np.where(live, row_sums, 1.0)[:, None], 0.0)  # (n, n)
    renormalised = tuple(int(i) for i in np.flatnonzero(live & (np.abs(row_sums - 1.0) > ROW_SUM_TOLERANCE)))
    return NormalisedTarget(target=scaled, row_sums=row_sums, renormalised_rows=renormalised)
