"""Heads built to do different jobs on "el perro come carne porque tiene hambre": the designed preset.

The construction, for each head with d_k = d_model / h columns:
1. Choose the queries and keys the job needs, in the head's d_k space, as unit directions times √c:
   - "previous": token i looks at token i − 1 (the first token at itself). Put the tokens on a circle,
     angle ω = 2π/n apart: k_j = √c·(cos ωj, sin ωj), q_i = √c·(cos ωt_i, sin ωt_i) with t_i = max(i − 1, 0).
     Then q_i·k_j = c·cos ω(t_i − j): c at j = t_i, at most c·cos ω at every other j.
   - "self": the same with t_i = i.
   - "subject": «come» and «tiene» look at their subject «perro», the other tokens spread evenly. A rank-1
     pattern: q_i = √c·e_1 for the two verbs and 0 otherwise, k_j = √c·e_1 for «perro» and 0 otherwise.
   - "first": every token looks at the first token: q_i = √c·e_1 for all i, k_j = √c·e_1 for j = 0 only.
   Unused columns of the head stay 0.
2. Solve for the matrices: W_Q = x⁺·Q and W_K = x⁺·K, x⁺ the pseudo-inverse of x. When x (n × d_model)
   has full row rank, x·x⁺ = I_n, so x·W_Q = Q exactly; that needs n ≤ d_model (7 tokens, d_model = 8).
3. Choose the sharpness c: the intended score beats every other in its row by at least c·margin, margin
   = 1 − cos ω for the circle jobs and 1 for the rank-1 ones. After ÷√d_k the intended weight is at least
   1 / (1 + (n − 1)·e^(−c·margin/√d_k)); setting that bound to DESIGNED_TOP_WEIGHT gives
   c = √d_k · ln(DESIGNED_TOP_WEIGHT·(n − 1) / (1 − DESIGNED_TOP_WEIGHT)) / margin.
   The bound holds for scale ÷√d_k at temperature 1; other scales and temperatures change it, as they should.
4. W_V is the identity split into heads: head i hands over its own d_k columns of x, so with an
   identity W_O the output's block i is what head i gathered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.attention import Scale, as_matrix, divisor_for
from engine.errors import EngineInputError
from engine.multihead import HeadWeights, split_heads

DESIGNED_SENTENCE = "el perro come carne porque tiene hambre"
DESIGNED_D_MODEL = 8  # the sentence's 7 tokens need d_model >= 7 for x·W_Q to hit every chosen query exactly
SUBJECT = "perro"
VERBS: tuple[str, ...] = ("come", "tiene")  # the verbs whose subject is SUBJECT
DESIGNED_JOBS: dict[int, tuple[str, ...]] = {
    1: ("previous",),
    2: ("previous", "subject"),
    4: ("previous", "subject", "self", "first"),
}
DESIGNED_TOP_WEIGHT = 0.9  # every intended row gives its intended token at least this weight (÷√d_k, T = 1)


@dataclass(frozen=True)
class DesignedHeads:
    """Per-head matrices built for a job each, with the queries, keys and targets they were built from."""

    jobs: tuple[str, ...]  # per head: "previous", "subject", "self" or "first"
    heads: tuple[HeadWeights, ...]  # per head (W_Q, W_K, W_V), each (d_model, d_k)
    q: tuple[np.ndarray, ...]  # per head (n, d_k): the chosen queries; x · W_Q equals them
    k: tuple[np.ndarray, ...]  # per head (n, d_k): the chosen keys; x · W_K equals them
    sharpness: tuple[float, ...]  # per head c: q_i·k_j = c · (direction dot product)
    intended: tuple[np.ndarray, ...]  # per head (n,): the token each row is built to look at, -1 = spread evenly


def designed_heads(x: np.ndarray, tokens: Sequence[str], h: int) -> DesignedHeads:
    """W_Q, W_K, W_V for h heads (1, 2 or 4) doing the jobs DESIGNED_JOBS[h] on x; see the module docstring."""
    x = as_matrix(x, "x")  # (n, d_model)
    n, d_model = x.shape
    tokens = tuple(tokens)
    if len(tokens) != n:
        raise EngineInputError(
            "shape_mismatch", f"{len(tokens)} token names for {n} rows of x", got=len(tokens), expected=n
        )
    if h not in DESIGNED_JOBS or d_model % h != 0 or d_model // h < 2:
        supported = tuple(c for c in DESIGNED_JOBS if d_model % c == 0 and d_model // c >= 2)
        raise EngineInputError(
            "designed_heads_count",
            f"designed heads exist for h in {supported} when d_model = {d_model} (two columns per head at least)",
            h=h,
            supported=supported,
        )
    if n < 2 or n > d_model or np.linalg.matrix_rank(x) < n:
        raise EngineInputError(
            "designed_heads_rank",
            f"designed heads need 2 to d_model = {d_model} tokens whose vectors are linearly independent "
            f"(x·W can then be any matrix), got {n} tokens of rank {np.linalg.matrix_rank(x)}",
            n=n,
            d_model=d_model,
        )
    d_k = d_model // h
    x_pinv = np.linalg.pinv(x)  # (d_model, n)  x · x_pinv = I_n
    w_v_blocks = split_heads(np.eye(d_model), h)  # h × (d_model, d_k)
    built = [_job_directions(job, tokens, d_k) for job in DESIGNED_JOBS[h]]
    odds = np.log(DESIGNED_TOP_WEIGHT * (n - 1) / (1 - DESIGNED_TOP_WEIGHT))
    sharpness = tuple(float(divisor_for(Scale.SQRT, d_k) * odds / margin) for _, _, margin, _ in built)
    q = tuple(np.sqrt(c) * q_dir for (q_dir, _, _, _), c in zip(built, sharpness, strict=True))  # h × (n, d_k)
    k = tuple(np.sqrt(c) * k_dir for (_, k_dir, _, _), c in zip(built, sharpness, strict=True))  # h × (n, d_k)
    heads = tuple((x_pinv @ qi, x_pinv @ ki, w_v) for qi, ki, w_v in zip(q, k, w_v_blocks, strict=True))
    solved = [(x @ w_q, qi) for (w_q, _, _), qi in zip(heads, q, strict=True)]
    solved += [(x @ w_k, ki) for (_, w_k, _), ki in zip(heads, k, strict=True)]
    if any(np.abs(got - wanted).max() > 1e-9 * np.abs(wanted).max() for got, wanted in solved):
        raise EngineInputError(
            "designed_heads_rank", "x is too close to rank-deficient to solve for W_Q and W_K", n=n, d_model=d_model
        )
    return DesignedHeads(DESIGNED_JOBS[h], heads, q, k, sharpness, tuple(t for *_, t in built))


def _job_directions(job: str, tokens: tuple[str, ...], d_k: int) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """Unit query and key directions (n, d_k), the smallest lead of the intended score, and the targets (n,)."""
    n = len(tokens)
    positions = np.arange(n)
    q_dir, k_dir = np.zeros((n, d_k)), np.zeros((n, d_k))  # (n, d_k)
    if job in ("previous", "self"):
        omega = 2 * np.pi / n
        targets = np.maximum(positions - 1, 0) if job == "previous" else positions  # (n,)
        q_dir[:, :2] = np.column_stack([np.cos(omega * targets), np.sin(omega * targets)])
        k_dir[:, :2] = np.column_stack([np.cos(omega * positions), np.sin(omega * positions)])
        return q_dir, k_dir, 1 - np.cos(omega), targets
    if job == "subject":
        if SUBJECT not in tokens or not any(v in tokens for v in VERBS):
            raise EngineInputError(
                "designed_heads_sentence",
                f"the subject head needs «{SUBJECT}» and one of {VERBS} in the sentence",
                subject=SUBJECT,
                verbs=VERBS,
            )
        asks = np.isin(tokens, VERBS)  # (n,)
        subject = tokens.index(SUBJECT)
        q_dir[asks, 0] = 1.0
        k_dir[subject, 0] = 1.0
        return q_dir, k_dir, 1.0, np.where(asks, subject, -1)
    # "first"
    q_dir[:, 0] = 1.0
    k_dir[0, 0] = 1.0
    return q_dir, k_dir, 1.0, np.zeros(n, dtype=int)
