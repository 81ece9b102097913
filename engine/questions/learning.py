"""Questions of the learning page, before a run: where a token will look once trained toward the target, and the
loss of the weights training starts from."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from engine.attention import Scale
from engine.errors import EngineInputError
from engine.questions.core import ChoiceDraft, NumericDraft, OptionKind, Templates
from engine.questions.picking import other_tokens, top, transposed, winners
from engine.training import TrainingRun, loss_and_gradients

SECTION = "learning.train"


@dataclass(frozen=True)
class LearningView:
    """What the learning page shows before training: its tokens and the run at step 0 (or later: its start is
    kept), with the target it trains toward."""

    tokens: tuple[str, ...]
    run: TrainingRun

    def __post_init__(self) -> None:
        tokens = tuple(str(token) for token in self.tokens)
        n = self.run.objective.x.shape[0]
        if len(tokens) != n:
            raise EngineInputError(
                "bad_question_input", f"{len(tokens)} tokens for {n} rows of x", name="tokens", low=n, high=n
            )
        object.__setattr__(self, "tokens", tokens)

    @property
    def start_weights(self) -> np.ndarray:
        """(n, n) the attention weights before any step."""
        return self.run.weights[0]


ask = Templates(LearningView)


@ask.choice(
    "learning.trained_top",
    options=OptionKind.TOKEN,
    section=SECTION,
    params=("tokens", "token", "position"),
    misconceptions=("transposed", "start_top", "always_self", "less_target", "mask_ignored"),
)
def trained_top(view: LearningView, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """The token a row will look at most once trained: its target row's largest entry (training lowers the
    cross-entropy, smallest when each row of weights equals its target row)."""
    objective = view.run.objective
    target, allowed, start = objective.target, objective.allowed, view.start_weights  # (n, n) each
    n = len(view.tokens)
    rows = [int(i) for i in rng.permutation(n) if allowed[i].sum() >= 2]
    # a row whose target differs from where it looks now first: that is the row training changes
    rows.sort(key=lambda i: top(target[i], allowed[i]) == int(np.argmax(np.where(allowed[i], start[i], -1.0))))
    for i, best in winners(rows, target, allowed):  # a row the target spreads has no one winner: not asked
        distractors: list[tuple[int, str]] = [
            (int(np.argmax(np.where(allowed[i], start[i], -1.0))), "start_top"),
            *transposed(target, i),
            (i, "always_self"),
        ]
        distractors += other_tokens(rng, n, allowed[i], mistake="less_target")
        params = dict(tokens=view.tokens, token=view.tokens[i], position=i)
        yield ChoiceDraft(params, best, tuple(distractors))


def _cross_entropy(target: np.ndarray, log_a: np.ndarray, rows: int) -> float:
    """−(1/rows) Σ_ij T_ij · log A_ij over the cells the target uses (inf when it uses a cell A cannot reach)."""
    with np.errstate(invalid="ignore"):
        terms = np.where(target > 0, target * log_a, 0.0)  # (n, n)
    return -float(np.sum(terms)) / rows


@ask.number(
    "learning.start_loss",
    section=SECTION,
    params=("rows", "divisor"),
    misconceptions=("unscaled_softmax", "transposed", "sum_not_mean", "log10"),
)
def start_loss(view: LearningView, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The loss L = −(1/m) Σ T · log A of the weights training starts from (the cross-entropy alone: asked only
    when the output term is off)."""
    run = view.run
    o = run.objective
    if o.output_weight != 0:
        return
    start = loss_and_gradients(o, run.w_q_start, run.w_k_start, run.w_v_start)
    rows = max(int(o.live_rows.sum()), 1)
    unscaled = loss_and_gradients(replace(o, scale=Scale.NONE), run.w_q_start, run.w_k_start, run.w_v_start)
    mistakes = (
        ("unscaled_softmax", unscaled.loss),
        ("transposed", o.attention_weight * _cross_entropy(o.target.T, start.log_weights, rows)),
        ("sum_not_mean", start.loss * rows),
        ("log10", start.loss / math.log(10)),
    )
    params = dict(rows=rows, divisor=start.attention.divisor)
    yield NumericDraft(params, start.loss, mistakes)
