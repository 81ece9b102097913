"""Softmax, its step-by-step arithmetic, and the naive "divide by the sum" it replaces."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from engine.errors import EngineInputError
from engine.text import shown


def _as_float_array(x: object, name: str, *, row: bool) -> np.ndarray:
    """X as float64 scores, or EngineInputError: real numbers only (no text, None, bool, complex, ragged
    lists), none NaN, at least one; a single row when `row`."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError, OverflowError):  # ragged nesting
        arr = np.asarray(None)
    if arr.dtype.kind == "O" and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in arr.flat):
        try:
            arr = arr.astype(np.float64)  # Python ints beyond int64, Fractions, Decimals
        except OverflowError:
            raise EngineInputError("overflow", f"{name} holds a number beyond float64", name=name) from None
    if arr.dtype.kind not in "iuf":
        raise EngineInputError("scores_not_numbers", f"{name} must hold real numbers only", name=name)
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise EngineInputError("nan_input", f"{name} contains NaN; softmax is undefined for it", name=name)
    if arr.ndim == 0 or (row and arr.ndim != 1):
        raise EngineInputError("scores_shape", f"{name} must be a {'row' if row else 'list'} of numbers", name=name)
    if arr.size == 0:
        raise EngineInputError("empty_scores", f"{name} is empty", name=name)
    return arr


def _check_temperature(temperature: object) -> float:
    value = shown(temperature)
    refused = EngineInputError("bad_temperature", f"temperature must be finite and > 0, got {value!r}", value=value)
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real):
        raise refused
    try:
        t = float(temperature)
    except OverflowError:  # an int with 400 digits
        raise refused from None
    if not math.isfinite(t) or t <= 0:
        raise refused
    return t


def softmax(x: npt.ArrayLike, axis: int = -1, temperature: float = 1.0) -> np.ndarray:
    """exp(x / T) normalised along `axis`, computed stably by shifting by the maximum first.

    A slice that is entirely -inf (fully masked) gives zeros. Entries equal to +inf share the whole
    weight equally (the limit of the formula), so no NaN ever comes out of finite or infinite input.
    """
    x = _as_float_array(x, "scores", row=False)
    t = _check_temperature(temperature)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or not -x.ndim <= axis < x.ndim:
        raise EngineInputError("scores_shape", f"scores of {x.ndim} dimensions have no axis {axis!r}", name="scores")
    m = np.max(x, axis=axis, keepdims=True)
    finite_max = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        # Shift before dividing by T: every shifted value is <= 0, so exp never overflows.
        shifted = (x - finite_max) / t
        e = np.exp(shifted)
    if np.isposinf(m).any():
        e = np.where(np.isposinf(m), np.isposinf(x).astype(np.float64), e)
    total = np.sum(e, axis=axis, keepdims=True)
    if (total > 0).all():
        return e / total
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)


@dataclass(frozen=True)
class SoftmaxSteps:
    """Every number the lesson prints when it works a softmax out by hand, for one row of scores."""

    scores: np.ndarray  # (n,) the input
    temperature: float
    tempered: np.ndarray  # (n,) scores / T
    naive_exps: np.ndarray  # (n,) e^(scores/T) without the shift; may overflow to inf
    naive_total: float  # their sum; inf when they overflow
    overflow: bool  # True when the unshifted form overflows (the shift is what saves it)
    shift: float  # max of tempered scores, subtracted before exp
    shifted: np.ndarray  # (n,) tempered - shift, all <= 0
    shifted_exps: np.ndarray  # (n,) e^(shifted), all in (0, 1]
    shifted_total: float  # their sum, >= 1
    weights: np.ndarray  # (n,) the softmax, sums to 1
    weights_sum: float  # the check the lesson prints: sum of weights


def softmax_steps(scores: npt.ArrayLike, temperature: float = 1.0) -> SoftmaxSteps:
    """The intermediate values of softmax for one row: e^x, their total, each share, the check."""
    s = _as_float_array(scores, "scores", row=True)
    t = _check_temperature(temperature)
    if not np.isfinite(s).all():
        raise EngineInputError("not_finite", "softmax_steps needs a row of finite scores", name="scores")
    with np.errstate(over="ignore"):
        tempered = s / t  # (n,) may overflow to ±inf for a tiny T: shown, never computed with
        naive = np.exp(tempered)
        naive_total = float(np.sum(naive))
    overflow = not np.isfinite(naive_total)
    with np.errstate(over="ignore"):
        shift = float(np.max(s) / t)
        shifted = (s - np.max(s)) / t  # (n,) shift before dividing by T, so every value is finite or -inf
    shifted_exps = np.exp(shifted)
    shifted_total = float(np.sum(shifted_exps))
    weights = shifted_exps / shifted_total
    return SoftmaxSteps(
        scores=s,
        temperature=t,
        tempered=tempered,
        naive_exps=naive,
        naive_total=naive_total,
        overflow=overflow,
        shift=shift,
        shifted=shifted,
        shifted_exps=shifted_exps,
        shifted_total=shifted_total,
        weights=weights,
        weights_sum=float(np.sum(weights)),
    )


@dataclass(frozen=True)
class NaiveNormalization:
    """The "divide each score by the sum" attempt, and what is wrong with it where it fails."""

    scores: np.ndarray  # (n,)
    total: float
    shares: np.ndarray | None  # (n,) scores / total, or None when the total is zero
    problems: tuple[str, ...]  # codes: "sum_zero", "sum_negative", "negative_entries"

    @property
    def valid(self) -> bool:
        """True when the shares form a probability distribution (all in [0, 1], summing to 1)."""
        return not self.problems


def naive_normalize(scores: npt.ArrayLike) -> NaiveNormalization:
    """Divide each score by the sum, and report every way that fails to give probabilities.

    The sum is the exact one, rounded once (math.fsum), so the problems found are those of the real numbers,
    not of rounding; a sum or a share beyond float64 (scores near 1e308) raises EngineInputError("overflow")
    instead of a wrong answer.
    """
    s = _as_float_array(scores, "scores", row=True)
    if not np.isfinite(s).all():
        raise EngineInputError("not_finite", "naive_normalize needs finite scores", name="scores")
    try:
        total = math.fsum(s)
    except OverflowError:  # a partial sum overflowed; the exact sum, in fractions, may still fit a float
        try:
            total = float(sum(map(Fraction, s.tolist()), Fraction(0)))
        except OverflowError:
            total = math.inf
    if not math.isfinite(total):
        raise EngineInputError("overflow", "the sum of the scores is beyond float64", name="sum")
    problems = []
    if np.any(s < 0):
        problems.append("negative_entries")
    if total == 0:
        problems.append("sum_zero")
    elif total < 0:
        problems.append("sum_negative")
    with np.errstate(over="ignore"):
        shares = None if total == 0 else s / total  # (n,)
    if shares is not None and not np.isfinite(shares).all():
        raise EngineInputError("overflow", "a share is beyond float64: the sum is tiny next to a score", name="shares")
    return NaiveNormalization(scores=s, total=total, shares=shares, problems=tuple(problems))


def largest_to_smallest(shares: npt.ArrayLike) -> float:
    """How many times the largest share is the smallest one (inf when the smallest is 0)."""
    arr = _as_float_array(shares, "shares", row=True)
    smallest = float(arr.min())
    return float(arr.max()) / smallest if smallest > 0 else float("inf")
