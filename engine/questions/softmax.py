"""Questions of the softmax page, about the scores and temperature it is showing."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.errors import EngineInputError
from engine.limits import MAX_ABS_VALUE
from engine.questions.core import (
    ChoiceDraft,
    KeyDraft,
    NumericDraft,
    OptionKind,
    Templates,
    change_of,
    exp_or_inf,
    shown_change,
)
from engine.softmax import naive_normalize, softmax, softmax_steps

READABLE = 1e6  # an e^x larger than this is not a number anyone works out by hand


@dataclass(frozen=True)
class SoftmaxRow:
    """The softmax page's scores and temperature: what its questions are about."""

    scores: tuple[float, ...]
    temperature: float = 1.0

    def __post_init__(self) -> None:
        try:
            scores = tuple(float(s) for s in np.asarray(self.scores, dtype=np.float64).reshape(-1))
            t = float(self.temperature)
        except (TypeError, ValueError, OverflowError):
            raise EngineInputError(
                "bad_question_input", "scores and temperature must be numbers", name="scores"
            ) from None
        if not scores or not all(math.isfinite(s) and abs(s) <= MAX_ABS_VALUE for s in scores):
            raise EngineInputError(
                "bad_question_input", f"scores must be finite numbers up to ±{MAX_ABS_VALUE:g}", name="scores"
            )
        if not math.isfinite(t) or t <= 0:
            raise EngineInputError("bad_question_input", f"temperature must be > 0, got {t!r}", name="temperature")
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "temperature", t)

    @property
    def array(self) -> np.ndarray:
        """(n,) the scores as an array."""
        return np.asarray(self.scores)  # (n,)


ask = Templates(SoftmaxRow)


def _readable_exps(row: SoftmaxRow) -> np.ndarray | None:
    """e^(score / T) of each score, or None when one of them is too large to write down."""
    exps = softmax_steps(row.array, row.temperature).naive_exps  # (n,)
    return exps if np.all(np.isfinite(exps)) and np.all(exps <= READABLE) else None


@ask.choice(
    "softmax.can_be_softmax",
    options=OptionKind.ROW,
    params=("n",),
    misconceptions=("negative_weight", "exp_not_normalised", "sum_not_one", "zero_weight"),
)
def can_be_softmax(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Which row can come out of a softmax: one true softmax, the others broken in a way that has a name."""
    if len(row.scores) < 2:
        return
    weights = softmax(row.array, temperature=row.temperature)  # (n,)
    ascending = np.argsort(weights, kind="stable")
    smallest, largest = ascending[0], ascending[-1]
    naive = naive_normalize(row.array).shares
    if naive is not None and np.any(naive < 0):
        negative = naive
    else:  # move the smallest weight's mass, and 0.1 more, to the largest: sums to 1 but one weight is -0.1
        negative = weights.copy()
        moved = weights[smallest] + 0.1
        negative[smallest] -= moved
        negative[largest] += moved
    exps = _readable_exps(row)
    unnormalised = exps if exps is not None and abs(exps.sum() - 1) > 0.01 else None
    distractors = [(negative, "negative_weight")]
    if unnormalised is not None:
        distractors.append((unnormalised, "exp_not_normalised"))
    else:
        distractors.append((weights + 0.1, "sum_not_one"))
    if weights[smallest] >= 0.001:  # the true row shows no 0.000 of its own, so an exact 0 stands out
        zeroed = weights.copy()
        zeroed[largest] += zeroed[smallest]
        zeroed[smallest] = 0.0
        distractors.append((zeroed, "zero_weight"))
    yield ChoiceDraft(dict(n=len(row.scores)), weights, tuple(distractors))


@ask.choice(
    "softmax.of_scores",
    options=OptionKind.ROW,
    params=("scores", "temperature"),
    misconceptions=(
        "naive_division",
        "temperature_ignored",
        "sign_flipped",
        "exp_not_normalised",
        "temperature_multiplied",
        "uniform",
    ),
)
def of_scores(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Which row is softmax(scores / T): against dividing by the sum, forgetting T, flipping signs, not normalising."""
    s, t = row.array, row.temperature
    if s.size < 2:
        return
    naive = naive_normalize(s).shares
    exps = _readable_exps(row)
    candidates = [
        (naive, "naive_division"),
        (softmax(s), "temperature_ignored"),
        (softmax(-s, temperature=t), "sign_flipped"),
        (exps, "exp_not_normalised"),
        (softmax(s * t), "temperature_multiplied"),
        (np.full(s.size, 1.0 / s.size), "uniform"),
    ]
    distractors = tuple((option, key) for option, key in candidates if option is not None)
    yield ChoiceDraft(dict(scores=s, temperature=t), softmax(s, temperature=t), distractors)


@ask.number(
    "softmax.largest_weight",
    params=("scores", "temperature"),
    misconceptions=("naive_division", "exp_not_normalised", "temperature_ignored", "temperature_multiplied"),
)
def largest_weight(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The largest weight of softmax(scores / T)."""
    s, t = row.array, row.temperature
    top = int(np.argmax(s))
    naive = naive_normalize(s).shares
    mistakes = [("temperature_ignored", softmax(s)[top]), ("temperature_multiplied", softmax(s * t)[top])]
    if naive is not None:
        mistakes.insert(0, ("naive_division", naive[top]))
    exps = _readable_exps(row)
    if exps is not None:
        mistakes.insert(1, ("exp_not_normalised", exps[top]))
    answer = softmax_steps(s, t).weights[top]
    yield NumericDraft(dict(scores=s, temperature=t), answer, tuple(mistakes))


@ask.number(
    "softmax.exp_step",
    params=("scores", "temperature", "index", "score"),
    misconceptions=("temperature_ignored", "temperature_multiplied", "multiplied_by_e", "power_of_ten"),
)
def exp_step(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """Step 1 of the arithmetic: e^(score / T) of one score."""
    steps = softmax_steps(row.array, row.temperature)
    for i in rng.permutation(len(row.scores)):
        s, t = row.scores[i], row.temperature
        if not (np.isfinite(steps.naive_exps[i]) and steps.naive_exps[i] <= READABLE):
            continue
        mistakes = (
            ("temperature_ignored", exp_or_inf(s)),
            ("temperature_multiplied", exp_or_inf(s * t)),
            ("multiplied_by_e", math.e * s / t),
            ("power_of_ten", 10.0 ** min(s / t, 300.0) if s / t < 300 else math.inf),  # the calculator's 10^x key
        )
        yield NumericDraft(dict(scores=row.scores, temperature=t, index=i, score=s), steps.naive_exps[i], mistakes)


@ask.number(
    "softmax.exp_total",
    params=("scores", "temperature"),
    misconceptions=("exp_forgotten", "temperature_ignored", "exp_of_sum"),
)
def exp_total(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """Step 2 of the arithmetic: the total of the e^(score / T)."""
    s, t = row.array, row.temperature
    if _readable_exps(row) is None:
        return
    mistakes = (
        ("exp_forgotten", float(np.sum(s / t))),
        ("temperature_ignored", float(np.sum(exp_or_inf(s)))),
        ("exp_of_sum", float(exp_or_inf(np.sum(s / t)))),
    )
    yield NumericDraft(dict(scores=s, temperature=t), softmax_steps(s, t).naive_total, mistakes)


@ask.keyed(
    "softmax.temperature_up",
    params=("scores", "temperature", "new_temperature"),
    picks={"spreads": "equal_scores", "concentrates": "temperature_inverted", "unchanged": "temperature_irrelevant"},
)
def temperature_up(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Doubling T: the weights spread out (or stay as they are when every score is the same)."""
    s, t = row.array, row.temperature
    change = shown_change(softmax(s, temperature=t), softmax(s, temperature=2 * t), same=np.ptp(s) == 0)
    if change is not None:
        yield KeyDraft(dict(scores=s, temperature=t, new_temperature=2 * t), change)


@ask.keyed(
    "softmax.shift",
    params=("scores", "temperature", "shift"),
    picks={"spreads": "shift_flattens", "concentrates": "shift_sharpens", "unchanged": None},
)
def shift(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Adding the same number to every score leaves the weights as they are: only differences count."""
    s, t = row.array, row.temperature
    c = float(rng.choice([1.0, 10.0, 100.0]))
    yield KeyDraft(
        dict(scores=s, temperature=t, shift=c), change_of(softmax(s, temperature=t), softmax(s + c, temperature=t))
    )


@ask.keyed(
    "softmax.naive_problem",
    params=("scores",),
    picks={
        "valid": "naive_division",
        "negative_share": "no_negative_share",
        "division_by_zero": "no_zero_sum",
        "order_reversed": "order_kept",
    },
)
def naive_problem(row: SoftmaxRow, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Dividing each score by the sum: what it gives, asked about scores with a negative one in them."""
    s = row.array
    if not np.any(s < 0):  # the page's scores are all >= 0: ask about them with one sign flipped
        nonzero = np.flatnonzero(s)
        if nonzero.size == 0:
            return
        s = s.copy()
        s[rng.choice(nonzero)] *= -1
    naive = naive_normalize(s)
    if naive.shares is None:
        verdict = "division_by_zero"
    elif np.any(naive.shares < 0):
        verdict = "negative_share"
    elif naive.total < 0 and np.ptp(s) > 0:
        verdict = "order_reversed"  # every score <= 0: the largest score gets the smallest share
    else:
        verdict = "valid"
    yield KeyDraft(dict(scores=s), verdict)
