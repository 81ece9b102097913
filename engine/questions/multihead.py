"""Questions of the multi-head page: how wide each head is, where a head looks, how wide Concat is, and what the
residual adds, each about the heads the page is showing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.attention import AttentionResult
from engine.errors import EngineInputError
from engine.multihead import MultiHeadResult
from engine.questions.core import ChoiceDraft, KeyDraft, NumericDraft, OptionKind, Templates
from engine.questions.picking import other_tokens, query_rows, top, transposed, winners

PAGE = "multihead"


@dataclass(frozen=True)
class MultiHeadView:
    """What the multi-head page shows: its tokens and MultiHead(x) of its heads (each head's attention, Concat,
    W_O, the output and the residual)."""

    tokens: tuple[str, ...]
    result: MultiHeadResult

    def __post_init__(self) -> None:
        tokens = tuple(str(token) for token in self.tokens)
        if len(tokens) != self.result.x.shape[0]:
            raise EngineInputError(
                "bad_question_input",
                f"{len(tokens)} tokens for {self.result.x.shape[0]} rows of x",
                name="tokens",
                low=self.result.x.shape[0],
                high=self.result.x.shape[0],
            )
        object.__setattr__(self, "tokens", tokens)

    @property
    def h(self) -> int:
        """The number of heads."""
        return len(self.result.heads)

    @property
    def d_model(self) -> int:
        """The width of x."""
        return int(self.result.x.shape[1])


ask = Templates(MultiHeadView)


def _top_token(head: AttentionResult, i: int) -> int | None:
    """The token row i of a head gives the most weight to, or None when no token wins by more than one displayed
    unit (equal weights: the "winner" would be rounding, and differ from one machine to another)."""
    return top(head.weights[i], head.allowed[i])


def _common_width(widths: list[int]) -> int | None:
    """The one width every head has, or None when they differ (a head taken from elsewhere)."""
    return widths[0] if len(set(widths)) == 1 else None


@ask.number(
    "multihead.head_width",
    section=f"{PAGE}.sizes",
    params=("d_model", "h"),
    misconceptions=("heads_multiply", "full_width_per_head", "heads_as_width"),
)
def head_width(view: MultiHeadView, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """d_k of each head when d_model is split among h heads: the width of the heads' W_Q, d_model / h."""
    heads = view.result.heads
    width = _common_width([int(head.q.shape[1]) for head in heads] + [int(head.k.shape[1]) for head in heads])
    if width is None or width * view.h != view.d_model:
        return  # not an even split of d_model (head 1 taken from a scenario of another width): no such question
    mistakes = (
        ("heads_multiply", view.d_model * view.h),
        ("full_width_per_head", view.d_model),
        ("heads_as_width", view.h),
    )
    yield NumericDraft(dict(d_model=view.d_model, h=view.h), width, mistakes, decimals=0, tolerance=0.0)


@ask.choice(
    "multihead.most_attended",
    options=OptionKind.TOKEN,
    section=f"{PAGE}.heads",
    params=("tokens", "token", "position", "head"),
    misconceptions=("transposed", "always_self", "heads_alike", "less_weight", "mask_ignored"),
)
def most_attended(view: MultiHeadView, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """In head k, the token a token's row of weights looks at most; another head's choice is the telling slip."""
    n = len(view.tokens)
    for k in (int(k) for k in rng.permutation(view.h)):
        head = view.result.heads[k]
        for i, best in winners(query_rows(rng, head), head.weights, head.allowed):
            distractors: list[tuple[int, str]] = []
            elsewhere = [_top_token(view.result.heads[other], i) for other in rng.permutation(view.h) if other != k]
            differing = [j for j in elsewhere if j is not None and j != best]
            if differing:  # where the same token looks in another head
                distractors.append((differing[0], "heads_alike"))
            distractors += transposed(head.weights, i)
            distractors.append((i, "always_self"))
            distractors += other_tokens(rng, n, head.allowed[i], mistake="less_weight")
            params = dict(tokens=view.tokens, token=view.tokens[i], position=i, head=k + 1)
            yield ChoiceDraft(params, best, tuple(distractors))


@ask.number(
    "multihead.concat_width",
    section=f"{PAGE}.concat",
    params=("h", "d_v", "n"),
    misconceptions=("one_head_only", "one_per_head", "whole_matrix"),
)
def concat_width(view: MultiHeadView, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """How many numbers each token has in Concat(head_1, …, head_h): the heads' d_v side by side, h · d_v."""
    d_v = _common_width([int(head.output.shape[1]) for head in view.result.heads])
    if d_v is None:
        return
    n, width = view.result.concat.shape
    mistakes = (("one_head_only", d_v), ("one_per_head", view.h), ("whole_matrix", n * width))
    yield NumericDraft(dict(h=view.h, d_v=d_v, n=n), width, mistakes, decimals=0, tolerance=0.0)


@ask.keyed(
    "multihead.residual",
    section=f"{PAGE}.residual",
    params=("h",),
    picks={
        "x_plus_multihead": None,
        "x_plus_concat": "w_o_skipped",
        "x_plus_head": "one_head_added",
        "multihead_only": "residual_forgotten",
        "x_times_multihead": "residual_multiplied",
    },
)
def residual(view: MultiHeadView, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """What the residual connection gives each token: the option that is the engine's residual, x + Concat · W_O.

    An option that would give the same numbers here (x + Concat when W_O is the identity) is left out: a student
    could not be told it is wrong."""
    result = view.result
    if result.residual is None:
        return
    x = result.x  # (n, d_model)
    candidates = {
        "x_plus_multihead": x + result.output,
        "x_plus_concat": x + result.concat if result.concat.shape == x.shape else None,
        "x_plus_head": x + result.heads[0].output if result.heads[0].output.shape == x.shape else None,
        "multihead_only": result.output,
        "x_times_multihead": x * result.output,
    }  # each (n, d_model)
    matching = [key for key, m in candidates.items() if m is not None and np.allclose(m, result.residual)]
    if len(matching) == 0 or matching[0] != "x_plus_multihead":
        return
    unavailable = frozenset(key for key, m in candidates.items() if m is None or key in matching)
    yield KeyDraft(dict(h=view.h), "x_plus_multihead", unavailable)
