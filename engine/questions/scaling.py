"""Questions of the scaling page: how q·k grows with d_k, and what each divisor does to the softmax."""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.attention import Scale, divisor_for
from engine.errors import EngineInputError
from engine.limits import QUESTION_D_K_RANGE, QUESTION_RELATIVE_TOLERANCE, QUESTION_WALK_STEPS_RANGE
from engine.questions.core import CHANGE_KEYS, ChoiceDraft, Kind, NumericDraft, OptionKind, change_of, template
from engine.questions.picking import SHOWN_GAP
from engine.scaling import softmax_three_ways

SECTION = "scaling"
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


def _measured(answer: float) -> float:
    """The tolerance of a size read off a measurement: 5% of it."""
    return QUESTION_RELATIVE_TOLERANCE * answer


@template(
    "scaling.spread",
    section=SECTION,
    kind=Kind.NUMERIC,
    context=ScalingSetup,
    params=("d_k",),
    misconceptions=("linear_growth", "no_growth"),
)
def spread(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The typical size (standard deviation) of q·k for random unit-variance q, k: √d_k, the divisor itself."""
    answer = divisor_for(Scale.SQRT, setup.d_k)
    mistakes = (("linear_growth", setup.d_k), ("no_growth", 1.0))
    yield NumericDraft(dict(d_k=setup.d_k), answer, mistakes, decimals=1, tolerance=_measured(answer))


@template(
    "scaling.unit_divisor",
    section=SECTION,
    kind=Kind.NUMERIC,
    context=ScalingSetup,
    params=("d_k",),
    misconceptions=("divided_by_dk", "no_divisor"),
)
def unit_divisor(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The divisor that brings the spread of q·k back to about 1: √d_k."""
    answer = divisor_for(Scale.SQRT, setup.d_k)
    mistakes = (("divided_by_dk", divisor_for(Scale.DK, setup.d_k)), ("no_divisor", divisor_for(Scale.NONE, setup.d_k)))
    yield NumericDraft(dict(d_k=setup.d_k), answer, mistakes, decimals=1, tolerance=_measured(answer))


@template(
    "scaling.scaled_spread",
    section=SECTION,
    kind=Kind.NUMERIC,
    context=ScalingSetup,
    params=("d_k",),
    misconceptions=("not_scaled", "divided_by_dk"),
)
def scaled_spread(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The spread of q·k / √d_k: about 1, whatever d_k."""
    size = divisor_for(Scale.SQRT, setup.d_k)  # the spread of q·k
    answer = size / divisor_for(Scale.SQRT, setup.d_k)
    mistakes = (("not_scaled", size), ("divided_by_dk", size / divisor_for(Scale.DK, setup.d_k)))
    yield NumericDraft(dict(d_k=setup.d_k), answer, mistakes, decimals=2, tolerance=_measured(answer))


def _divisor_change(
    setup: ScalingSetup, rng: np.random.Generator, mode: Scale, mistakes: dict
) -> Iterator[ChoiceDraft]:
    """What changing √d_k for `mode` does to one random row of weights at this d_k (the page's three-way table)."""
    row = softmax_three_ways(setup.d_k, ROW_LENGTH, int(rng.integers(2**32)))
    by_mode = dict(zip(Scale, row.weights, strict=True))  # (n,) per divisor
    before, after = by_mode[Scale.SQRT], by_mode[mode]
    if divisor_for(mode, setup.d_k) == divisor_for(Scale.SQRT, setup.d_k):
        change = "unchanged"
    elif np.max(np.abs(after - before)) > SHOWN_GAP:
        change = change_of(before, after)
    else:
        return
    distractors = tuple((key, mistakes[key]) for key in CHANGE_KEYS if key != change)
    yield ChoiceDraft(dict(d_k=setup.d_k), change, distractors)


@template(
    "scaling.no_divisor",
    section=SECTION,
    kind=Kind.CHOICE,
    context=ScalingSetup,
    params=("d_k",),
    option_kind=OptionKind.KEY,
    option_keys=CHANGE_KEYS,
    misconceptions=("big_scores_spread", "scaling_changes_nothing"),
)
def no_divisor(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Without dividing (against ÷√d_k), at this d_k: the attention concentrates on one token."""
    mistakes = {"spreads": "big_scores_spread", "unchanged": "scaling_changes_nothing", "concentrates": None}
    yield from _divisor_change(setup, rng, Scale.NONE, mistakes)


@template(
    "scaling.dk_divisor",
    section=SECTION,
    kind=Kind.CHOICE,
    context=ScalingSetup,
    params=("d_k",),
    option_kind=OptionKind.KEY,
    option_keys=CHANGE_KEYS,
    misconceptions=("scaling_sharpens", "scaling_changes_nothing"),
)
def dk_divisor(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Dividing by d_k instead of √d_k: the attention goes flat."""
    mistakes = {"concentrates": "scaling_sharpens", "unchanged": "scaling_changes_nothing", "spreads": None}
    yield from _divisor_change(setup, rng, Scale.DK, mistakes)


@template(
    "scaling.walk_distance",
    section=SECTION,
    kind=Kind.NUMERIC,
    context=ScalingSetup,
    params=("steps",),
    misconceptions=("straight_line", "cancels_out"),
)
def walk_distance(setup: ScalingSetup, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """How far from the start, typically, after n random ±1 steps: √n."""
    n = setup.walk_steps
    answer = float(np.sqrt(n))
    mistakes = (("straight_line", n), ("cancels_out", 0.0))
    yield NumericDraft(dict(steps=n), answer, mistakes, decimals=1, tolerance=_measured(answer))
