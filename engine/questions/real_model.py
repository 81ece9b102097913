"""Questions of the real-model page, about the head the reader picked: where one piece looks most in that head,
and what the softmax receives for one cell once its q·k is divided by √d_k. Every answer comes from the encoder's
own result (`engine.encoder.encode`), the same numbers the page's figures and derivation show."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.encoder import EncoderResult, Tokens
from engine.errors import EngineInputError
from engine.questions.core import ChoiceDraft, NumericDraft, OptionKind, Templates
from engine.questions.picking import cells, other_tokens, query_rows, transposed, winners

PAGE = "real_model"


@dataclass(frozen=True)
class RealModelView:
    """What the real-model page shows: the pieces the model read (which are special tokens), the encoder's result,
    the picked layer and head (0-based), and the cell its derivation shows, (query, key) positions, if one is
    picked."""

    pieces: tuple[str, ...]
    special: tuple[bool, ...]
    result: EncoderResult
    layer: int
    head: int
    cell: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        n = self.result.attentions.shape[-1]
        pieces = tuple(str(piece) for piece in self.pieces)
        special = tuple(bool(flag) for flag in self.special)
        for name, size in (("tokens", len(pieces)), ("special", len(special))):
            if size != n:
                raise EngineInputError(
                    "bad_question_input", f"{size} {name} for {n} pieces in the result", name=name, low=n, high=n
                )
        layers, heads = self.result.attentions.shape[:2]
        for name, index, size in (("layer", self.layer, layers), ("head", self.head, heads)):
            _check_index(name, index, size)
        if self.cell is not None:
            if len(self.cell) != 2:
                raise EngineInputError("bad_question_input", "a cell is (query, key)", name="cell", low=0, high=n - 1)
            for index in self.cell:
                _check_index("cell", index, n)
            object.__setattr__(self, "cell", (int(self.cell[0]), int(self.cell[1])))
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "special", special)
        object.__setattr__(self, "layer", int(self.layer))
        object.__setattr__(self, "head", int(self.head))

    @classmethod
    def of(
        cls, tokens: Tokens, result: EncoderResult, layer: int, head: int, cell: tuple[int, int] | None = None
    ) -> RealModelView:
        """The view of a sentence as the tokenizer split it (`engine.model_files.tokenize`) and its encoder result."""
        return cls(tokens.pieces, tokens.special, result, layer, head, cell)

    @property
    def d_model(self) -> int:
        """The width of every piece's vector."""
        return int(self.result.hidden_states.shape[-1])


ask = Templates(RealModelView)


def _check_index(name: str, index: object, size: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= int(index) < size:
        raise EngineInputError(
            "bad_question_input",
            f"{name} must be an integer in [0, {size}), got {index!r}",
            name=name,
            low=0,
            high=size - 1,
        )


def _where(view: RealModelView) -> dict[str, int]:
    """The picked layer and head as the page numbers them, from 1."""
    return dict(layer=view.layer + 1, head=view.head + 1)


@ask.choice(
    f"{PAGE}.most_attended",
    options=OptionKind.TOKEN,
    section=f"{PAGE}.head",
    params=("tokens", "token", "position", "layer", "head"),
    misconceptions=("transposed", "special_sink", "always_self", "heads_alike", "less_weight", "mask_ignored"),
)
def most_attended(view: RealModelView, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """In the picked head, the piece one piece's row of weights gives the most. The telling slips: its column
    (who looks at it most), a special token (where many heads of real models park their weight), itself, and where
    the same piece looks in another head of the same layer."""
    attended = view.result.head(view.layer, view.head)
    weights, allowed = attended.weights, attended.allowed  # (n, n) each
    n = len(view.pieces)
    special = [j for j in range(n) if view.special[j]]
    for i, best in winners(query_rows(rng, attended), weights, allowed):
        distractors: list[tuple[int, str]] = transposed(weights, i)
        if special and not view.special[best]:  # the special piece this row gives the most, though not the most
            distractors.append((max(special, key=lambda j: weights[i, j]), "special_sink"))
        distractors.append((i, "always_self"))
        for other in rng.permutation(view.result.n_heads):
            if other != view.head:
                elsewhere = int(np.argmax(view.result.head(view.layer, int(other)).weights[i]))
                if elsewhere != best:
                    distractors.append((elsewhere, "heads_alike"))
                    break
        distractors += other_tokens(rng, n, allowed[i], mistake="less_weight")
        params = dict(tokens=view.pieces, token=view.pieces[i], position=i, **_where(view))
        yield ChoiceDraft(params, best, tuple(distractors))


@ask.number(
    f"{PAGE}.scaled_score",
    section=f"{PAGE}.cell",
    params=("token", "position", "other", "other_position", "score", "d_k", "d_model", "divisor", "layer", "head"),
    misconceptions=("not_scaled", "divided_by_dk", "sqrt_d_model", "divided_by_d_model", "multiplied"),
)
def scaled_score(view: RealModelView, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """What the softmax receives for one cell of the picked head: its q·k divided by √d_k, d_k the head's width
    (the cell the page derives when one is picked, else cells in a seeded order)."""
    attended = view.result.head(view.layer, view.head)
    d_k = int(attended.q.shape[1])
    for i, j in [view.cell] if view.cell is not None else cells(rng, attended.allowed):
        score = float(attended.scores[i, j])  # q_i · k_j, the bias already inside q and k (as cell_derivation)
        mistakes = (
            ("not_scaled", score),
            ("divided_by_dk", score / d_k),
            ("sqrt_d_model", score / math.sqrt(view.d_model)),
            ("divided_by_d_model", score / view.d_model),
            ("multiplied", score * attended.divisor),
        )
        params = dict(
            token=view.pieces[i],
            position=i,
            other=view.pieces[j],
            other_position=j,
            score=score,
            d_k=d_k,
            d_model=view.d_model,
            divisor=attended.divisor,
            **_where(view),
        )
        yield NumericDraft(params, float(attended.scaled_scores[i, j]), mistakes)
