"""Derivations a student can redo with a calculator: the arithmetic of a dot product, a division, a softmax row,
and of one attention weight end to end (`cell`).

The rule, the same on every page: **every result on a line is computed from the operands as they are written on
that line.** Operands are written with three decimals (fewer when the number is exactly shorter, as the lesson
writes 0.5); the products inside a sum with four, so that their sum rounds like the exact value; a result is
then rounded to three decimals. Where the arithmetic of the written operands and the full-precision value the
figures show differ in the last digit, the derivation says so: it keeps both (`result` and `exact`).

Everything is exact decimal arithmetic (`decimal.Decimal`, rounding half up as a calculator does), so that a
test can recompute every written line digit for digit. Numbers are kept as Decimals; writing them in the
reader's language is the UI's job.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

import numpy as np

from engine.attention import AttentionResult
from engine.errors import EngineInputError

SHOWN = 3  # decimals of every operand and result a derivation writes
TERM = 4  # decimals of each product inside a sum, and of each e^x and their total
CONTEXT_PRECISION = 40  # digits decimal arithmetic keeps before the rounding to SHOWN or TERM

Numbers = Sequence[float] | np.ndarray  # a row of numbers: a list, a tuple or a 1-D array


def written(value: float | Decimal, decimals: int = SHOWN) -> Decimal:
    """`value` as a derivation writes it: rounded half up to `decimals`, read from its shortest decimal form
    (0.1235 is 0.1235, not the binary 0.12349999…), trailing zeros dropped (0.500 is written 0.5)."""
    number = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    if not number.is_finite():
        raise EngineInputError("not_finite", f"a derivation needs finite numbers, got {value!r}")
    return _trim(_round(number, decimals))


def _trim(number: Decimal) -> Decimal:
    """The same number without trailing zeros after the point (0.500 → 0.5, 2.000 → 2, 0 → 0)."""
    if number == 0:
        return Decimal(0)
    normal = number.normalize()
    return normal.quantize(Decimal(1)) if normal == normal.to_integral_value() else normal


def _round(value: Decimal, decimals: int) -> Decimal:
    """`value` rounded half up to `decimals`, every digit kept: the scores of entries of ±10⁶ reach 5·10²⁶, 27 digits
    before the point, which the default context's 28 digits cannot hold with 3 after it."""
    with localcontext() as context:
        context.prec = max(context.prec, value.adjusted() + decimals + 2)
        return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class DotDerivation:
    """a · b written out: (a0)(b0) + (a1)(b1) + … = p0 + p1 + … = total ≈ result."""

    a: tuple[Decimal, ...]  # the operands as written
    b: tuple[Decimal, ...]
    products: tuple[Decimal, ...]  # a[i]·b[i] of the written operands, rounded to TERM decimals
    products_exact: bool  # every product above is exact (nothing was rounded)
    total: Decimal  # the sum of the written products (exact)
    result: Decimal  # total rounded to SHOWN decimals
    exact: float  # the full-precision value (what the figures show)

    @property
    def agrees(self) -> bool:
        """Whether the written arithmetic gives the full-precision value at the written digits."""
        return self.result == _round(Decimal(repr(self.exact)), SHOWN)


def dot(a: Numbers, b: Numbers, exact: float | None = None) -> DotDerivation:
    """The written arithmetic of one dot product; `exact` defaults to the full-precision a · b."""
    a_arr = np.asarray(a, dtype=np.float64).reshape(-1)
    b_arr = np.asarray(b, dtype=np.float64).reshape(-1)
    if a_arr.shape != b_arr.shape or a_arr.size == 0:
        raise EngineInputError(
            "shape_mismatch",
            f"a dot product needs two vectors of one length, got {a_arr.size} and {b_arr.size}",
            name="a·b",
            got=a_arr.shape,
            expected=b_arr.shape,
        )
    a_written = tuple(written(v) for v in a_arr)
    b_written = tuple(written(v) for v in b_arr)
    with localcontext() as context:
        context.prec = CONTEXT_PRECISION
        full = [x * y for x, y in zip(a_written, b_written, strict=True)]
        products = tuple(_trim(_round(p, TERM)) for p in full)
        total = sum(products, Decimal(0))
    exact_value = float(np.dot(a_arr, b_arr)) if exact is None else float(exact)
    return DotDerivation(
        a=a_written,
        b=b_written,
        products=products,
        products_exact=all(p == q for p, q in zip(products, full, strict=True)),
        total=_trim(total),
        result=written(total),
        exact=exact_value,
    )


@dataclass(frozen=True)
class Division:
    """numerator ÷ divisor written out, from the written numerator and divisor."""

    numerator: Decimal
    divisor: Decimal
    result: Decimal  # rounded to SHOWN decimals
    result_exact: bool  # the division of the written numbers needed no rounding
    exact: float  # the full-precision quotient

    @property
    def agrees(self) -> bool:
        """Whether the written quotient is the full-precision one rounded to SHOWN decimals."""
        return self.result == _round(Decimal(repr(self.exact)), SHOWN)


def division(numerator: float, divisor: float) -> Division:
    """The written arithmetic of numerator ÷ divisor (a score ÷ √d_k, a score ÷ T)."""
    if divisor == 0 or not (math.isfinite(numerator) and math.isfinite(divisor)):
        raise EngineInputError("not_finite", "a division needs finite numbers and a divisor other than 0")
    top, bottom = written(numerator), written(divisor)
    with localcontext() as context:
        context.prec = CONTEXT_PRECISION
        quotient = top / bottom
    rounded = _round(quotient, SHOWN)
    return Division(
        numerator=top,
        divisor=bottom,
        result=_trim(rounded),
        result_exact=rounded == quotient,
        exact=float(numerator) / float(divisor),
    )


@dataclass(frozen=True)
class SoftmaxDerivation:
    """One row's softmax written out: e^x of each written score (÷ T first when T ≠ 1), their total, each share."""

    scores: tuple[Decimal, ...]  # the written scores (already divided by the divisor: score')
    temperature: Decimal  # the written T
    tempered: tuple[Decimal, ...] | None  # score' / T rounded to SHOWN decimals, or None when T = 1
    tempered_exact: tuple[bool, ...]  # for each, whether score' / T needed no rounding
    shift: Decimal | None  # the written maximum subtracted before e^x when e^x would overflow, else None
    exponents: tuple[Decimal, ...]  # what e is raised to: the scores, the tempered scores, or those minus the shift
    exps: tuple[Decimal, ...]  # e^exponent, rounded to TERM decimals
    total: Decimal  # the sum of the written exps (exact)
    weights: tuple[Decimal, ...]  # exp / total, rounded to SHOWN decimals
    weights_sum: Decimal  # the sum of the written weights (1 up to rounding: 0.999, 1.001 happen)
    exact: tuple[float, ...]  # the full-precision weights (what the figures show)

    @property
    def agrees(self) -> bool:
        """Whether every written weight is its full-precision weight rounded to SHOWN decimals."""
        return all(w == _round(Decimal(repr(e)), SHOWN) for w, e in zip(self.weights, self.exact, strict=True))


# e^x is written from the scores themselves while their maximum stays in this range; outside it the maximum is
# subtracted first (what makes softmax safe, and what the engine does): e^1000 overflows float64, e^270 has 118
# digits nobody reads, and e^(−30) is 0.0000 at four decimals.
EXP_RANGE = (-2.0, 20.0)


def softmax_row(scores: Numbers, temperature: float = 1.0, exact: Numbers | None = None) -> SoftmaxDerivation:
    """The written arithmetic of softmax for one row of (already scaled) scores at temperature T."""
    row = np.asarray(scores, dtype=np.float64).reshape(-1)
    if row.size == 0 or not np.isfinite(row).all():
        raise EngineInputError("not_finite", "a softmax derivation needs a non-empty row of finite scores")
    if not (math.isfinite(temperature) and temperature > 0):
        raise EngineInputError("bad_temperature", f"temperature must be finite and > 0, got {temperature!r}")
    written_scores = tuple(written(v) for v in row)
    t = written(temperature, 2)
    with localcontext() as context:
        context.prec = CONTEXT_PRECISION
        quotients = () if t == 1 else tuple(s / t for s in written_scores)
        tempered = None if t == 1 else tuple(written(q) for q in quotients)
        tempered_exact = tuple(written(q) == q for q in quotients)
        arguments = written_scores if tempered is None else tempered
        top = max(arguments)
        shift = top if not EXP_RANGE[0] <= top <= EXP_RANGE[1] else None
        exponents = arguments if shift is None else tuple(_trim(x - shift) for x in arguments)
        exps = tuple(_trim(_round(x.exp(), TERM)) for x in exponents)
        total = sum(exps, Decimal(0))
        weights = tuple(written(e / total) for e in exps)
        weights_sum = sum(weights, Decimal(0))
    if exact is None:
        shifted = (row - row.max()) / float(temperature)
        exact_weights = np.exp(shifted) / np.exp(shifted).sum()
    else:
        exact_weights = np.asarray(exact, dtype=np.float64).reshape(-1)
    return SoftmaxDerivation(
        scores=written_scores,
        temperature=t,
        tempered=tempered,
        tempered_exact=tempered_exact,
        shift=shift,
        exponents=exponents,
        exps=exps,
        total=_trim(total),
        weights=weights,
        weights_sum=_trim(weights_sum),
        exact=tuple(float(w) for w in exact_weights),
    )


def projection(x_row: Numbers, w: np.ndarray) -> tuple[DotDerivation, ...]:
    """x_row · W one output dimension at a time: entry j is x_row against column j of W."""
    w = np.asarray(w, dtype=np.float64)
    return tuple(dot(x_row, w[:, j]) for j in range(w.shape[1]))


def weighted_sum(weights_row: Numbers, v: np.ndarray) -> tuple[DotDerivation, ...]:
    """Output = Σ_j α_j · V_j, one dimension at a time: entry d is the weights against column d of V."""
    return projection(weights_row, v)


@dataclass(frozen=True)
class CellDerivation:
    """Where weights[i, j] of one attention comes from, as the walkthrough writes it: the score q_i · k_j, divided
    by the divisor, then the softmax of row i (the columns the mask hides left out), and the weight it gives."""

    i: int  # the token asking (row)
    j: int  # the token looked at (column)
    dot: DotDerivation  # q_i · k_j as written; exact = scores[i, j]
    divisor: float  # what the scores are divided by
    division: Division | None  # scores[i, j] ÷ divisor; None when the scores are not divided or (i, j) is masked
    scaled_score: float  # scores[i, j] / divisor (-inf where masked)
    columns: tuple[int, ...]  # the columns of row i that softmax takes: those the mask allows
    softmax: SoftmaxDerivation | None  # row i's scaled scores at those columns through softmax; None if masked
    weight: float  # weights[i, j] (0 where masked)

    @property
    def masked(self) -> bool:
        """Whether the mask hides (i, j): then its weight is 0 and there is no softmax to write."""
        return self.softmax is None

    @property
    def written_weight(self) -> Decimal:
        """The weight as the softmax's written arithmetic gives it (rounded operands; 0 where masked)."""
        return Decimal(0) if self.softmax is None else self.softmax.weights[self.columns.index(self.j)]


def cell(result: AttentionResult, i: int, j: int, *, divided: bool = True) -> CellDerivation:
    """The arithmetic behind result.weights[i, j]; `divided` False when the scores go into softmax undivided."""
    allowed = result.allowed[i]  # (n,)
    masked = not bool(allowed[j])
    return CellDerivation(
        i=i,
        j=j,
        dot=dot(result.q[i], result.k[j], exact=float(result.scores[i, j])),
        divisor=result.divisor,
        division=None if masked or not divided else division(float(result.scores[i, j]), result.divisor),
        scaled_score=float(result.scaled_scores[i, j]),
        columns=tuple(int(c) for c in np.flatnonzero(allowed)),
        softmax=None
        if masked
        else softmax_row(result.scaled_scores[i][allowed], result.temperature, exact=result.weights[i][allowed]),
        weight=float(result.weights[i, j]),
    )
