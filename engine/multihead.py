"""Multi-head attention: several attentions side by side, concatenated and projected back by W_O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.attention import AttentionResult, as_matrix, attention
from engine.errors import EngineInputError


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
    w_o = as_matrix(w_o, "W_O")
    if w_o.shape[0] != concat.shape[1]:
        raise EngineInputError(
            "shape_mismatch",
            f"W_O has shape {w_o.shape} but the concatenated heads ({concat.shape[1]} columns) need "
            f"{concat.shape[1]} rows",
            name="W_O",
            got=w_o.shape,
            expected_rows=concat.shape[1],
        )
    return MultiHeadResult(heads=results, concat=concat, w_o=w_o, output=concat @ w_o)
