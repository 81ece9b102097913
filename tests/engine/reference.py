"""An independent, loop-based reference for softmax and self-attention, used to cross-check the engine.

Plain Python lists, for-loops and math.exp only: no numpy, no vectorised matmul, so a mistake in the
engine's array code cannot be reproduced here by sharing it.
"""

from __future__ import annotations

import math


def matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """(n, m) · (m, p) by three nested loops."""
    rows, inner, cols = len(a), len(b), len(b[0]) if b else 0
    out = []
    for i in range(rows):
        if len(a[i]) != inner:
            raise ValueError(f"row {i} has {len(a[i])} entries, expected {inner}")
        row = []
        for j in range(cols):
            total = 0.0
            for t in range(inner):
                total += float(a[i][t]) * float(b[t][j])
            row.append(total)
        out.append(row)
    return out


def dot(a: list[float], b: list[float]) -> float:
    total = 0.0
    for ai, bi in zip(a, b, strict=True):
        total += float(ai) * float(bi)
    return total


def softmax(values: list[float]) -> list[float]:
    """Stable softmax of one list: subtract the maximum, exponentiate, divide by the total.

    A list that is entirely -inf (every position masked) gives all zeros.
    """
    finite = [v for v in values if v != -math.inf]
    if not finite:
        return [0.0 for _ in values]
    top = max(finite)
    exps = [0.0 if v == -math.inf else math.exp(v - top) for v in values]
    total = 0.0
    for e in exps:
        total += e
    return [e / total for e in exps]


def attention(x, wq, wk, wv, divisor: float = 1.0, causal: bool = False) -> dict[str, list]:
    """softmax(Q·Kᵀ / divisor) · V by loops; causal masks j > i with -inf before softmax.

    Returns q, k, v, scores (unscaled), scaled (with -inf where masked), weights and output as nested lists.
    """
    x = [[float(v) for v in row] for row in x]
    q, k, v = matmul(x, wq), matmul(x, wk), matmul(x, wv)
    n = len(x)
    scores, scaled = [], []
    for i in range(n):
        score_row, scaled_row = [], []
        for j in range(n):
            s = dot(q[i], k[j])
            score_row.append(s)
            scaled_row.append(-math.inf if causal and j > i else s / divisor)
        scores.append(score_row)
        scaled.append(scaled_row)
    weights = [softmax(row) for row in scaled]
    d_v = len(v[0]) if v else 0
    output = []
    for i in range(n):
        out_row = []
        for c in range(d_v):
            total = 0.0
            for j in range(n):
                total += weights[i][j] * v[j][c]
            out_row.append(total)
        output.append(out_row)
    return {"q": q, "k": k, "v": v, "scores": scores, "scaled": scaled, "weights": weights, "output": output}
