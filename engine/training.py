"""What is learned: W_Q and W_K trained toward a target attention pattern, the gradient worked out by hand.

The forward pass is `attention` itself. The loss compares each row of weights A with a target row T:

    L = α · L_CE + λ · L_out
    L_CE  = −(1/m) Σ_i Σ_j T_ij · log A_ij      (cross-entropy, mean over the m rows a token may use)
    L_out = mean over the n·d_v entries of (output − target_output)²

L_CE is smallest when every weight row equals its target row; that smallest value (the floor) is the mean
entropy of the target rows, 0 for one-hot targets. Cells where T_ij = 0 add nothing, so a weight that is 0
there (masked, or underflowed) never turns into 0 · log 0 = NaN; a target may not put mass on a masked cell
(`engine.targets.normalise_target` refuses it), since the weight there is 0 by construction.

The backward pass runs the chain rule from the loss back to the matrices, one line per step of the forward:
the softmax's Jacobian (row by row, ∂L/∂z = (1/τ) · A ⊙ (∂L/∂A − rowsum(∂L/∂A ⊙ A)) for A = softmax(z / τ)),
the divisor (√d_k, d_k or 1), Q·Kᵀ, and the projections x·W.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import AttentionResult, Scale, allowed_positions, as_matrix, attention, divisor_for
from engine.errors import EngineInputError
from engine.limits import (
    LEARNING_RATE_RANGE,
    MAX_ABS_VALUE,
    MAX_SCENARIO_TOKENS,
    MAX_STALL_D_K,
    MAX_TRAINING_STEPS,
    OUTPUT_WEIGHT_RANGE,
)
from engine.presets import random_inputs, random_weights
from engine.scaling import row_entropy
from engine.softmax import _check_temperature
from engine.targets import normalise_target, previous_target


class Optimiser(StrEnum):
    """How a step moves the weights along the gradient g."""

    GD = "gd"  # plain gradient descent: W ← W − lr · g
    ADAM = "adam"  # Adam: W ← W − lr · m̂ / (√v̂ + ε), running averages of g and g² with bias correction


ADAM_BETA1 = 0.9  # decay of the running average of g
ADAM_BETA2 = 0.999  # decay of the running average of g²
ADAM_EPS = 1e-8
DEFAULT_TOLERANCE = 0.05  # a run has converged once its loss is within this of its floor (nats)


# --- the loss and its gradient ---


@dataclass(frozen=True)
class Objective:
    """What training lowers, L = α · L_CE + λ · L_out, and everything fixed while the weights change."""

    x: np.ndarray  # (n, d_model)
    target: np.ndarray  # (n, n)  rows a token may use sum to 1; zero on masked cells
    allowed: np.ndarray  # (n, n) bool, True where token i may look at token j
    scale: Scale
    temperature: float
    attention_weight: float  # α, the weight of the cross-entropy
    output_weight: float  # λ, the weight of the output term (0: off)
    target_output: np.ndarray | None  # (n, d_v)  what the output should become; None when λ = 0

    @property
    def live_rows(self) -> np.ndarray:
        """(n,) bool: rows that may look at some token; a fully masked row has no weights and no loss."""
        return np.any(self.allowed, axis=1)

    @property
    def floor(self) -> float:
        """The lowest L_CE can go, times α: the mean entropy of the target rows (0 for one-hot targets)."""
        rows = self.target[self.live_rows]  # (m, n)
        return self.attention_weight * float(row_entropy(rows).mean()) if len(rows) else 0.0


def training_objective(
    x: object,
    target: object,
    *,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
    target_output: object | None = None,
    attention_weight: float = 1.0,
    output_weight: float = 0.0,
) -> Objective:
    """The loss to train toward `target`, checked: a normalised target (see `normalise_target`), weights ≥ 0."""
    x = as_matrix(x, "x")  # (n, d_model)
    n = x.shape[0]
    allowed = allowed_positions(n, mask)  # (n, n)
    typed = as_matrix(target, "target")  # (n, n)
    if typed.shape != (n, n):
        raise EngineInputError(
            "shape_mismatch", f"the target must be {n}×{n} for {n} tokens", name="target", got=typed.shape
        )
    checked = normalise_target(typed, allowed)
    if checked.renormalised_rows:
        raise EngineInputError(
            "target_not_normalised",
            f"rows {list(checked.renormalised_rows)} of the target do not sum to 1: normalise it first",
            rows=list(checked.renormalised_rows),
        )
    divisor_for(scale, 1)  # refuses an unknown scale now rather than at the first step
    for name, value in (("attention_weight", attention_weight), ("output_weight", output_weight)):
        if not (np.isfinite(value) and value >= 0):
            raise EngineInputError("bad_loss_weight", f"{name} must be a finite number ≥ 0", name=name, value=value)
    if output_weight > OUTPUT_WEIGHT_RANGE[1]:
        raise EngineInputError(
            "bad_loss_weight", f"output_weight must be at most {OUTPUT_WEIGHT_RANGE[1]}", name="output_weight"
        )
    if output_weight > 0 and target_output is None:
        raise EngineInputError("missing_target_output", "the output term (output_weight > 0) needs a target output")
    wanted = None if output_weight == 0 else as_matrix(target_output, "target_output")  # (n, d_v)
    if wanted is not None and wanted.shape[0] != n:
        raise EngineInputError(
            "shape_mismatch", f"target_output needs {n} rows, one per token", name="target_output", got=wanted.shape
        )
    return Objective(
        x=x,
        target=checked.target,
        allowed=allowed,
        scale=Scale(scale),
        temperature=_check_temperature(temperature),
        attention_weight=float(attention_weight),
        output_weight=float(output_weight),
        target_output=wanted,
    )


@dataclass(frozen=True)
class LossGradients:
    """The loss at one set of weights and its gradient, with the forward pass it came from."""

    attention: AttentionResult  # the forward pass: exactly `attention(x, W_Q, W_K, W_V, ...)`
    log_weights: np.ndarray  # (n, n)  log A from the scores (finite where allowed, -inf where masked)
    cross_entropy: float  # L_CE
    output_error: float  # L_out (0 when the output term is off)
    loss: float  # α · L_CE + λ · L_out
    grad_scores: np.ndarray  # (n, n)  ∂L/∂(Q·Kᵀ)
    grad_q: np.ndarray  # (n, d_k)
    grad_k: np.ndarray  # (n, d_k)
    grad_v: np.ndarray  # (n, d_v)  zeros when the output term is off
    grad_w_q: np.ndarray  # (d_model, d_k)
    grad_w_k: np.ndarray  # (d_model, d_k)
    grad_w_v: np.ndarray  # (d_model, d_v)  zeros when the output term is off


def log_weights(result: AttentionResult) -> np.ndarray:
    """Log A from the scaled scores, finite wherever a token may look even when A itself underflows to 0."""
    live = result.allowed.any(axis=1, keepdims=True)  # (n, 1)
    top = np.max(result.scaled_scores, axis=1, keepdims=True)  # (n, 1)  -inf on a fully masked row
    with np.errstate(divide="ignore", invalid="ignore"):
        shifted = (result.scaled_scores - np.where(live, top, 0.0)) / result.temperature  # (n, n)  ≤ 0
        log_a = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))  # (n, n)
    return np.where(result.allowed, log_a, -np.inf)


def softmax_backward(weights: np.ndarray, grad_weights: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """∂L/∂z from ∂L/∂A for A = softmax(z / τ) row by row: (1/τ) · A ⊙ (∂L/∂A − rowsum(∂L/∂A ⊙ A)).  (n, n)"""
    along_a = np.sum(grad_weights * weights, axis=1, keepdims=True)  # (n, 1)
    return weights * (grad_weights - along_a) / temperature


def loss_and_gradients(objective: Objective, w_q: ArrayLike, w_k: ArrayLike, w_v: ArrayLike) -> LossGradients:
    """The loss at these weights and its gradient with respect to W_Q, W_K and W_V, by the chain rule."""
    o = objective
    fwd = attention(o.x, w_q, w_k, w_v, scale=o.scale, mask=o.allowed, temperature=o.temperature)
    a = fwd.weights  # (n, n)
    m = max(int(o.live_rows.sum()), 1)
    log_a = log_weights(fwd)  # (n, n)
    cross_entropy = -float(np.sum(o.target * np.where(o.target > 0, log_a, 0.0))) / m

    # L_CE through the softmax: with ∂L/∂A = −T / (m·A) the Jacobian's A cancels, leaving (A − T) / (m·τ),
    # which stays finite when a weight has underflowed to 0 (masked cells: A = T = 0, so 0).
    grad_logits = o.attention_weight * (a - o.target) / (m * o.temperature)  # (n, n)  ∂L/∂(scores / divisor)
    output_error = 0.0
    grad_v = np.zeros_like(fwd.v)  # (n, d_v)
    if o.target_output is not None:
        if o.target_output.shape != fwd.output.shape:
            raise EngineInputError(
                "shape_mismatch",
                f"target_output has shape {o.target_output.shape}, the output {fwd.output.shape}",
                name="target_output",
                got=o.target_output.shape,
                expected=fwd.output.shape,
            )
        error = fwd.output - o.target_output  # (n, d_v)
        output_error = float(np.mean(error**2))
        grad_output = 2.0 * o.output_weight * error / error.size  # (n, d_v)
        grad_a = grad_output @ fwd.v.T  # (n, n)
        grad_logits = grad_logits + softmax_backward(a, grad_a, o.temperature)  # (n, n)
        grad_v = a.T @ grad_output  # (n, d_v)

    grad_scores = grad_logits / fwd.divisor  # (n, n)
    grad_q = grad_scores @ fwd.k  # (n, d_k)
    grad_k = grad_scores.T @ fwd.q  # (n, d_k)
    return LossGradients(
        attention=fwd,
        log_weights=log_a,
        cross_entropy=cross_entropy,
        output_error=output_error,
        loss=o.attention_weight * cross_entropy + o.output_weight * output_error,
        grad_scores=grad_scores,
        grad_q=grad_q,
        grad_k=grad_k,
        grad_v=grad_v,
        grad_w_q=o.x.T @ grad_q,  # (d_model, d_k)
        grad_w_k=o.x.T @ grad_k,  # (d_model, d_k)
        grad_w_v=o.x.T @ grad_v,  # (d_model, d_v)
    )


@dataclass(frozen=True)
class WeightGradient:
    """How one attention weight A_ij moves when each entry of W_Q or W_K is nudged: ∂A_ij/∂W."""

    row: int  # i, the token looking
    col: int  # j, the token looked at
    weight: float  # A_ij
    attention: AttentionResult  # the forward pass A_ij comes from
    grad_scores: np.ndarray  # (n, n)  ∂A_ij/∂(Q·Kᵀ): only row i is not 0
    grad_w_q: np.ndarray  # (d_model, d_k)
    grad_w_k: np.ndarray  # (d_model, d_k)


def weight_gradient(
    x: object,
    w_q: ArrayLike,
    w_k: ArrayLike,
    row: int,
    col: int,
    *,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
) -> WeightGradient:
    """∂A_ij/∂W_Q and ∂A_ij/∂W_K for one cell (i, j) of the weights: a masked cell's weight is 0 whatever W."""
    x = as_matrix(x, "x")  # (n, d_model)
    n = x.shape[0]
    if not (0 <= row < n and 0 <= col < n):
        raise EngineInputError("bad_token_index", f"cell ({row}, {col}) is outside the {n}×{n} weights", n=n)
    no_values = np.zeros((x.shape[1], 1))  # (d_model, 1)  V plays no part in the weights
    fwd = attention(x, w_q, w_k, no_values, scale=scale, mask=mask, temperature=temperature)
    grad_a = np.zeros((n, n))  # (n, n)  ∂A_ij/∂A: 1 at (i, j)
    grad_a[row, col] = 1.0
    grad_scores = softmax_backward(fwd.weights, grad_a, fwd.temperature) / fwd.divisor  # (n, n)
    grad_q = grad_scores @ fwd.k  # (n, d_k)
    grad_k = grad_scores.T @ fwd.q  # (n, d_k)
    return WeightGradient(
        row=row,
        col=col,
        weight=float(fwd.weights[row, col]),
        attention=fwd,
        grad_scores=grad_scores,
        grad_w_q=x.T @ grad_q,  # (d_model, d_k)
        grad_w_k=x.T @ grad_k,  # (d_model, d_k)
    )


# --- training: a run that can be continued step by step ---


@dataclass(frozen=True)
class TrainingRun:
    """A training run so far: every step's loss and weights, the matrices before and now, and its optimiser.

    Index t of each history is the state after t steps (t = 0: the start). `train_steps` continues a run
    exactly where it stopped, so a page can train in chunks, show progress between them and stop any time.
    """

    objective: Objective
    optimiser: Optimiser
    learning_rate: float
    tolerance: float  # converged once loss − floor ≤ tolerance
    learns_w_v: bool  # W_V is trained only when the output term is on and it was asked for
    w_q_start: np.ndarray  # (d_model, d_k)
    w_k_start: np.ndarray  # (d_model, d_k)
    w_v_start: np.ndarray  # (d_model, d_v)
    w_q: np.ndarray  # (d_model, d_k)  after the last step
    w_k: np.ndarray  # (d_model, d_k)
    w_v: np.ndarray  # (d_model, d_v)
    losses: np.ndarray  # (steps + 1,)  L
    cross_entropies: np.ndarray  # (steps + 1,)  L_CE
    output_errors: np.ndarray  # (steps + 1,)  L_out
    weights: np.ndarray  # (steps + 1, n, n)  the attention weights after each step
    gradient_norms: np.ndarray  # (steps + 1, 3)  ‖∂L/∂W_Q‖, ‖∂L/∂W_K‖, ‖∂L/∂W_V‖ (Frobenius)
    diverged: bool  # stopped because a step overflowed or pushed a weight past ±MAX_ABS_VALUE
    gradients: LossGradients  # at the current weights: the direction of the next step
    first_moments: tuple[np.ndarray, np.ndarray, np.ndarray]  # Adam's running mean of g per W (zeros for GD)
    second_moments: tuple[np.ndarray, np.ndarray, np.ndarray]  # Adam's running mean of g² per W

    @property
    def steps(self) -> int:
        """How many steps were taken."""
        return len(self.losses) - 1

    @property
    def steps_left(self) -> int:
        """Steps this run may still take (all chunks together are capped at MAX_TRAINING_STEPS)."""
        return MAX_TRAINING_STEPS - self.steps

    @property
    def attention(self) -> AttentionResult:
        """The attention at the current weights."""
        return self.gradients.attention

    @property
    def excess(self) -> np.ndarray:
        """(steps + 1,) loss above its floor; with the output term on, that term's floor is taken as 0."""
        return self.losses - self.objective.floor

    @property
    def converged(self) -> bool:
        """True when the loss after the last step is within `tolerance` of its floor."""
        return bool(self.excess[-1] <= self.tolerance)

    @property
    def converged_at(self) -> int | None:
        """The first step at which the loss was within `tolerance` of its floor, or None."""
        hits = np.flatnonzero(self.excess <= self.tolerance)
        return int(hits[0]) if hits.size else None


def _check_learning_rate(learning_rate: float) -> float:
    lo, hi = LEARNING_RATE_RANGE
    if not (np.isfinite(learning_rate) and lo <= learning_rate <= hi):
        raise EngineInputError(
            "bad_learning_rate", f"learning rate must be in [{lo}, {hi}], got {learning_rate!r}", lo=lo, hi=hi
        )
    return float(learning_rate)


def start_training(
    x: object,
    target: object,
    *,
    start: tuple[object, object, object] | None = None,
    seed: int = 0,
    d_k: int | None = None,
    scale: Scale = Scale.SQRT,
    mask: str | np.ndarray | None = None,
    temperature: float = 1.0,
    target_output: object | None = None,
    attention_weight: float = 1.0,
    output_weight: float = 0.0,
    learn_w_v: bool = True,
    optimiser: Optimiser = Optimiser.ADAM,
    learning_rate: float = 0.05,
    tolerance: float = DEFAULT_TOLERANCE,
) -> TrainingRun:
    """A run at step 0: from `start` = (W_Q, W_K, W_V), or else from `random_weights(d_model, d_k, seed)`.

    `d_k` (default d_model) and `seed` only shape the random start; the other options are `training_objective`'s
    and the optimiser's. W_V is learned only with the output term on (output_weight > 0) and `learn_w_v`."""
    objective = training_objective(
        x,
        target,
        scale=scale,
        mask=mask,
        temperature=temperature,
        target_output=target_output,
        attention_weight=attention_weight,
        output_weight=output_weight,
    )
    try:
        optimiser = Optimiser(optimiser)
    except ValueError:
        raise EngineInputError("bad_optimiser", f"optimiser must be one of {[o.value for o in Optimiser]}") from None
    if not (np.isfinite(tolerance) and tolerance > 0):
        raise EngineInputError("bad_tolerance", f"tolerance must be a finite number > 0, got {tolerance!r}")
    learning_rate = _check_learning_rate(learning_rate)
    d_model = objective.x.shape[1]
    if start is None:
        start = random_weights(d_model, d_model if d_k is None else d_k, seed)
    w_q, w_k, w_v = (as_matrix(w, name) for w, name in zip(start, ("W_Q", "W_K", "W_V"), strict=True))
    at_start = loss_and_gradients(objective, w_q, w_k, w_v)
    zeros = (np.zeros_like(w_q), np.zeros_like(w_k), np.zeros_like(w_v))
    return TrainingRun(
        objective=objective,
        optimiser=optimiser,
        learning_rate=learning_rate,
        tolerance=float(tolerance),
        learns_w_v=bool(learn_w_v and objective.output_weight > 0),
        w_q_start=w_q,
        w_k_start=w_k,
        w_v_start=w_v,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        losses=np.array([at_start.loss]),
        cross_entropies=np.array([at_start.cross_entropy]),
        output_errors=np.array([at_start.output_error]),
        weights=at_start.attention.weights[None],
        gradient_norms=_norms(at_start)[None],
        diverged=False,
        gradients=at_start,
        first_moments=zeros,
        second_moments=zeros,
    )


def _norms(g: LossGradients) -> np.ndarray:
    return np.array([np.linalg.norm(g.grad_w_q), np.linalg.norm(g.grad_w_k), np.linalg.norm(g.grad_w_v)])  # (3,)


def train_steps(run: TrainingRun, steps: int) -> TrainingRun:
    """The run after `steps` more steps (fewer if it diverges on the way; a diverged run is returned as is)."""
    if not (isinstance(steps, int | np.integer) and 0 <= steps <= run.steps_left):
        raise EngineInputError(
            "bad_steps", f"steps must be a whole number in 0..{run.steps_left}", limit=run.steps_left, value=steps
        )
    learned = 3 if run.learns_w_v else 2  # W_Q, W_K and, with the output term, W_V
    w = [run.w_q, run.w_k, run.w_v]
    m, v = list(run.first_moments), list(run.second_moments)
    g = run.gradients
    history: list[LossGradients] = []
    diverged = run.diverged
    for _ in range(0 if diverged else steps):
        t = run.steps + len(history) + 1  # the number of this step, for Adam's bias correction
        grads = (g.grad_w_q, g.grad_w_k, g.grad_w_v)
        new_w, new_m, new_v = list(w), list(m), list(v)
        for p in range(learned):
            if run.optimiser == Optimiser.ADAM:
                new_m[p] = ADAM_BETA1 * m[p] + (1 - ADAM_BETA1) * grads[p]
                new_v[p] = ADAM_BETA2 * v[p] + (1 - ADAM_BETA2) * grads[p] ** 2
                m_hat = new_m[p] / (1 - ADAM_BETA1**t)
                v_hat = new_v[p] / (1 - ADAM_BETA2**t)
                new_w[p] = w[p] - run.learning_rate * m_hat / (np.sqrt(v_hat) + ADAM_EPS)
            else:
                new_w[p] = w[p] - run.learning_rate * grads[p]
        if not all(np.isfinite(w_new).all() and np.abs(w_new).max() <= MAX_ABS_VALUE for w_new in new_w):
            diverged = True
            break
        try:
            g = loss_and_gradients(run.objective, *new_w)
        except EngineInputError as error:
            if error.code != "overflow":
                raise
            diverged = True
            break
        w, m, v = new_w, new_m, new_v
        history.append(g)

    if not history:
        return replace(run, diverged=diverged)
    return replace(
        run,
        w_q=w[0],
        w_k=w[1],
        w_v=w[2],
        losses=np.concatenate([run.losses, [h.loss for h in history]]),
        cross_entropies=np.concatenate([run.cross_entropies, [h.cross_entropy for h in history]]),
        output_errors=np.concatenate([run.output_errors, [h.output_error for h in history]]),
        weights=np.concatenate([run.weights, [h.attention.weights for h in history]]),
        gradient_norms=np.concatenate([run.gradient_norms, [_norms(h) for h in history]]),
        diverged=diverged,
        gradients=g,
        first_moments=(m[0], m[1], m[2]),
        second_moments=(v[0], v[1], v[2]),
    )


def train(x: object, target: object, steps: int, **options: Any) -> TrainingRun:
    """`start_training(x, target, **options)` followed by `steps` steps, in one call."""
    return train_steps(start_training(x, target, **options), steps)


# --- what the runs teach, measured ---


@dataclass(frozen=True)
class StallExperiment:
    """The same target trained from the same start without dividing and ÷√d_k, at a large d_k.

    The loss is measured at the output (L_out alone, W_V held fixed), as in a real model: the gradient reaches
    the scores only through the softmax's Jacobian A ⊙ (…), which is about 0 once a row saturates (one weight
    ≈ 1, the rest ≈ 0). The cross-entropy on the weights would not show it: its gradient on the scores is
    (A − T) / m, with no A in front, so it does not vanish while a row is wrong (measured: without dividing it
    trains as fast as with ÷√d_k, or overshoots at a larger learning rate)."""

    d_k: int  # = d_model = d_v
    n: int
    seed: int
    unscaled: TrainingRun  # scale "none"
    scaled: TrainingRun  # scale "sqrt"
    peak_weight: np.ndarray  # (2, steps + 1)  mean over rows of the largest weight (1 = saturated): unscaled, scaled


def stall_experiment(
    d_k: int = 64, n: int = 8, seed: int = 0, steps: int = 100, learning_rate: float = 0.1
) -> StallExperiment:
    """Train toward "each token looks at the previous one", measured at the output, without dividing and ÷√d_k.

    Random x (n, d_k) and W (d_k, d_k) drawn as in `random_scenario`; the target output is T · V with V = x · W_V,
    the output the target pattern would give. Plain gradient descent, so a step is as large as the gradient
    (Adam rescales every step to about the learning rate and would hide how small the gradient got).
    d_k = 64 is the d_k of each head of the original Transformer (512 / 8 heads)."""
    if not (isinstance(d_k, int | np.integer) and 1 <= d_k <= MAX_STALL_D_K):
        raise EngineInputError("bad_d_k", f"d_k must be a whole number in 1..{MAX_STALL_D_K}", limit=MAX_STALL_D_K)
    if not (isinstance(n, int | np.integer) and 2 <= n <= MAX_SCENARIO_TOKENS):
        raise EngineInputError(
            "bad_n", f"n must be a whole number in 2..{MAX_SCENARIO_TOKENS}", limit=MAX_SCENARIO_TOKENS
        )
    x = random_inputs(n, d_k, seed + 1)  # (n, d_k)
    start = random_weights(d_k, d_k, seed)
    target = previous_target(n)  # (n, n)
    options = dict(
        start=start,
        target_output=target @ (x @ start[2]),  # (n, d_v)
        attention_weight=0.0,
        output_weight=1.0,
        learn_w_v=False,
        optimiser=Optimiser.GD,
        learning_rate=learning_rate,
    )
    unscaled = train(x, target, steps, scale=Scale.NONE, **options)
    scaled = train(x, target, steps, scale=Scale.SQRT, **options)
    peak = np.stack([run.weights.max(axis=2).mean(axis=1) for run in (unscaled, scaled)])  # (2, steps + 1)
    return StallExperiment(d_k=d_k, n=n, seed=seed, unscaled=unscaled, scaled=scaled, peak_weight=peak)


@dataclass(frozen=True)
class RoleAsymmetry:
    """Whether the scores became one-way where the target is: the part of Q·Kᵀ that W_Q ≠ W_K makes possible.

    Swapping W_Q and W_K turns the scores S = Q·Kᵀ into Sᵀ, so S − Sᵀ is what the two roles (what a token asks,
    what it offers) being different buys; with W_Q = W_K it is 0 and token i scores j exactly as j scores i.
    `alignment` is the cosine between S − Sᵀ and the target's T − Tᵀ over the pairs a token may look at both
    ways: 1 when the scores are one-way exactly where the target is, about 0 when unrelated (random weights).
    It is None when the target is the same both ways on those pairs (the identity, or under a causal mask), and
    0 when the scores are (W_Q = W_K)."""

    pair: tuple[int, int]  # (i, j): the target's most one-way pair, largest T_ij − T_ji (i looks at j)
    scores_pair_start: tuple[float, float]  # (S_ij, S_ji) before training
    scores_pair_end: tuple[float, float]  # (S_ij, S_ji) after training
    weights_pair_start: tuple[float, float]  # (A_ij, A_ji) before training
    weights_pair_end: tuple[float, float]  # (A_ij, A_ji) after training
    alignment_start: float | None
    alignment_end: float | None
    bilinear_start: float  # asymmetry(W_Q · W_Kᵀ) before; random matrices already give about 0.7
    bilinear_end: float  # and after: it need not grow, since what matters is where the scores are one-way


def asymmetry(m: np.ndarray) -> float:
    """‖(M − Mᵀ) / 2‖ / ‖M‖: 0 for a symmetric matrix, 1 for an antisymmetric one (0 for M = 0)."""
    size = np.linalg.norm(m)
    return float(np.linalg.norm((m - m.T) / 2) / size) if size > 0 else 0.0


def one_way_alignment(scores: np.ndarray, target: np.ndarray, allowed: np.ndarray) -> float | None:
    """cos(S − Sᵀ, T − Tᵀ) over the pairs allowed both ways: None when T − Tᵀ is 0 there, 0 when S − Sᵀ is."""
    both_ways = allowed & allowed.T  # (n, n)
    one_way_scores = np.where(both_ways, scores - scores.T, 0.0)  # (n, n)
    one_way_target = np.where(both_ways, target - target.T, 0.0)  # (n, n)
    if not one_way_target.any():
        return None
    size = np.linalg.norm(one_way_scores) * np.linalg.norm(one_way_target)
    return float(np.sum(one_way_scores * one_way_target) / size) if size > 0 else 0.0


def role_asymmetry(run: TrainingRun) -> RoleAsymmetry:
    """How one-way the scores are where the target is one-way, before and after a run."""
    o = run.objective
    scores_start = (o.x @ run.w_q_start) @ (o.x @ run.w_k_start).T  # (n, n)
    scores_end = run.attention.scores  # (n, n)
    one_way = o.target - o.target.T  # (n, n)
    i, j = (int(a) for a in np.unravel_index(np.argmax(one_way), one_way.shape))
    first, last = run.weights[0], run.weights[-1]  # (n, n)
    return RoleAsymmetry(
        pair=(i, j),
        scores_pair_start=(float(scores_start[i, j]), float(scores_start[j, i])),
        scores_pair_end=(float(scores_end[i, j]), float(scores_end[j, i])),
        weights_pair_start=(float(first[i, j]), float(first[j, i])),
        weights_pair_end=(float(last[i, j]), float(last[j, i])),
        alignment_start=one_way_alignment(scores_start, o.target, o.allowed),
        alignment_end=one_way_alignment(scores_end, o.target, o.allowed),
        bilinear_start=asymmetry(run.w_q_start @ run.w_k_start.T),
        bilinear_end=asymmetry(run.w_q @ run.w_k.T),
    )
