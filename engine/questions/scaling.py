"""Questions of the scaling page: how q·k grows with d_k, and what each divisor does to the softmax."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

import numpy as np

from engine.attention import Scale, divisor_for
from engine.errors import EngineInputError
from engine.limits import QUESTION_D_K_RANGE, QUESTION_RELATIVE_TOLERANCE, QUESTION_WALK_STEPS_RANGE
from engine.questions.core import KeyDraft, NumericDraft, Templates, shown_change
from engine.scaling import softmax_three_ways

ROW_LENGTH = 8  # scores per softmax row, as on the page


@dataclass(frozen=True)
class ScalingSetup:
    """What the scaling page is showing: the d_k it asks about and the length of its random walks."""

    d_k: int = 1024
    walk_steps: int = 200

    def __post_init__(self) -> None:
        for name, (low, high) in (("d_k", QUESTION_D_K_RANGE), ("walk_steps", QUESTION_WALK_STEPS_RANGE)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
                raise EngineInputError(
                    "bad_question_input", f"{name} must be an integer in [{low}, {high}]", name=name, low=low, high=high
                )
            object.__setattr__(self, name, int(value))


ask = Templates(ScalingSetup)


@dataclass(frozen=True)
class Size:
    """A size to predict from one number the page shows (d_k, or the walks' steps), named in the question by
    `param`: its answer and the value each named mistake gives, as functions of that number. Asked to `decimals`,
    right within 5% (QUESTION_RELATIVE_TOLERANCE: a size read off a measurement)."""

    param: str  # "d_k" or "steps"
    answer: Callable[[int], float]
    mistakes: Mapping[str, Callable[[int], float]]
    decimals: int = 1


# d_k's divisor by each scale: √d_k, d_k, 1
ROOT, DK, ONE = (partial(divisor_for, mode) for mode in (Scale.SQRT, Scale.DK, Scale.NONE))

SIZES = {
    # The typical size (standard deviation) of q·k for random unit-variance q, k: √d_k, the divisor itself.
    "scaling.spread": Size("d_k", ROOT, {"linear_growth": float, "no_growth": lambda d_k: 1.0}),
    # The divisor that brings the spread of q·k back to about 1: √d_k.
    "scaling.unit_divisor": Size("d_k", ROOT, {"divided_by_dk": DK, "no_divisor": ONE}),
    # The spread of q·k / √d_k: about 1, whatever d_k.
    "scaling.scaled_spread": Size(
        "d_k",
        lambda d_k: ROOT(d_k) / ROOT(d_k),
        {"not_scaled": ROOT, "divided_by_dk": lambda d_k: ROOT(d_k) / DK(d_k)},
        decimals=2,
    ),
    # How far from the start, typically, after n random ±1 steps: √n.
    "scaling.walk_distance": Size("steps", math.sqrt, {"straight_line": float, "cancels_out": lambda n: 0.0}),
}


def _size_question(size: Size) -> Callable[[ScalingSetup, np.random.Generator], Iterator[NumericDraft]]:
    def build(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[NumericDraft]:
        n = setup.walk_steps if size.param == "steps" else setup.d_k
        answer = size.answer(n)
        mistakes = tuple((key, value(n)) for key, value in size.mistakes.items())
        tolerance = QUESTION_RELATIVE_TOLERANCE * answer
        yield NumericDraft({size.param: n}, answer, mistakes, decimals=size.decimals, tolerance=tolerance)

    return build


for _id, _size in SIZES.items():
    ask.number(_id, params=(_size.param,), misconceptions=tuple(_size.mistakes))(_size_question(_size))


def _divisor_change(setup: ScalingSetup, rng: np.random.Generator, mode: Scale) -> Iterator[KeyDraft]:
    """What changing √d_k for `mode` does to one random row of weights at this d_k (the page's three-way table)."""
    row = softmax_three_ways(setup.d_k, ROW_LENGTH, int(rng.integers(2**32)))
    by_mode = dict(zip(Scale, row.weights, strict=True))  # (n,) per divisor
    same = divisor_for(mode, setup.d_k) == divisor_for(Scale.SQRT, setup.d_k)
    change = shown_change(by_mode[Scale.SQRT], by_mode[mode], same=same)
    if change is not None:
        yield KeyDraft(dict(d_k=setup.d_k), change)


@ask.keyed(
    "scaling.no_divisor",
    params=("d_k",),
    picks={"spreads": "big_scores_spread", "concentrates": "sqrt_of_one", "unchanged": "scaling_changes_nothing"},
)
def no_divisor(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Without dividing (against ÷√d_k), at this d_k: the attention concentrates on one token."""
    yield from _divisor_change(setup, rng, Scale.NONE)


@ask.keyed(
    "scaling.dk_divisor",
    params=("d_k",),
    picks={"spreads": "sqrt_of_one", "concentrates": "scaling_sharpens", "unchanged": "scaling_changes_nothing"},
)
def dk_divisor(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Dividing by d_k instead of √d_k: the attention goes flat."""
    yield from _divisor_change(setup, rng, Scale.DK)
