"""How numbers are written, in the reader's language.

One convention per language, applied to every string, derivation, table, figure label and hover text:

- Spanish: decimal comma and a point between thousands, as in Argentina ("0,332", "20.000" is twenty thousand);
  a four-digit whole part is not grouped, as the RAE writes it ("1024", "2000"), so that it never sits beside a
  decimal comma looking like one (the RAE would group larger numbers with a thin space; the app keeps the point
  Argentine readers write, from five digits on, where the RAE groups);
  the components of a vector are separated by semicolons ("[+0,461; +0,779]"), percentages carry a space
  ("28,9 %").
- English: decimal point and a comma between thousands ("0.332", "2,000"); vectors "[+0.461, +0.779]";
  percentages "28.9%".
- Negative numbers carry a true minus sign (−), signed quantities (scores, vector entries) a plus sign too,
  as the lesson writes them. Exact and integer-valued quantities (divisors, counts, sums of integers) are
  written without trailing zeros: "÷ 2", not "÷ 2.000".

The functions take the language explicitly (`lang`), or use the reader's (the session's, `ui.state`) when it is
left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from typing import TypeAlias

from ui import state
from ui.languages import NUMBER_SEPARATORS as SEPARATORS

# numbers, or (nested) lists or arrays of them: a vector, a matrix
Entries: TypeAlias = float | Decimal | Iterable["Entries"]

MINUS = "−"
VECTOR_SEPARATORS = {"es": "; ", "en": ", "}


def _lang(lang: str | None) -> str:
    if lang is None:
        lang = state.current_language()
    return lang if lang in SEPARATORS else "es"


def decimal_separator(lang: str | None = None) -> str:
    """The reader's decimal separator: "," in Spanish, "." in English."""
    return SEPARATORS[_lang(lang)][0]


def round_half_up(value: float | Decimal, decimals: int) -> Decimal:
    """`value` rounded as a person rounds it: 0.1235 → 0.124. A float is read as its shortest decimal form
    (0.1235, not the binary 0.12349999…), the number a reader sees."""
    number = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    with localcontext() as context:  # every digit kept: a score of 5e26 has 27 before the point (28 by default)
        context.prec = max(context.prec, number.adjusted() + decimals + 2)
        return number.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


GROUPED_FROM = {"es": 5, "en": 4}  # digits before the point from which thousands are grouped


def _digits(number: Decimal, lang: str) -> str:
    """The digits of a non-negative Decimal with the language's separators: in Spanish thousands are grouped from
    five digits on, as the RAE writes numbers (1024, 2000, 10.000); in English from four (1,024)."""
    decimal_sep, thousands_sep = SEPARATORS[lang]
    text = format(number, "f")
    whole, _, fraction = text.partition(".")
    if len(whole) >= GROUPED_FROM[lang]:
        groups: list[str] = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands_sep.join([whole, *groups])
    return whole + (decimal_sep + fraction if fraction else "")


def _special(value: float, sign: bool) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return ("+∞" if sign else "∞") if value > 0 else f"{MINUS}∞"
    return None


def fixed(value: float | Decimal, decimals: int = 3, *, sign: bool = False, lang: str | None = None) -> str:
    """`value` with exactly `decimals` decimals: 0,047 / 0.047; with sign=True +0,461 / −0,150 (never −0,000)."""
    lang = _lang(lang)
    if not isinstance(value, Decimal):
        special = _special(float(value), sign)
        if special is not None:
            return special
    rounded = round_half_up(value, decimals)
    if rounded == 0:
        rounded = abs(rounded)
    body = _digits(abs(rounded), lang)
    if rounded < 0:
        return MINUS + body
    return ("+" if sign else "") + body


MOST_DECIMALS = 12  # the most decimals `apart` writes
SAME_NOISE = 1e-13  # two values this close are one value up to a double's rounding (a cosine of 0.9999999999999998)


def apart(value: float, other: float, decimals: int = 3, *, lang: str | None = None) -> str:
    """`value` with `decimals` decimals, or with as many more as it takes not to read as `other` (a cosine of
    0.99972 beside 1: 0,9997, not 1,000); up to MOST_DECIMALS, and as `fixed` when the two are one value."""
    v = float(value)
    if math.isfinite(v) and abs(v - other) > SAME_NOISE:
        more = next(
            (d for d in range(decimals, MOST_DECIMALS + 1) if round_half_up(v, d) != round_half_up(other, d)), decimals
        )
        return fixed(v, more, lang=lang)
    return fixed(v, decimals, lang=lang)


def bound(value: float, decimals: int = 3, *, below: bool, lang: str | None = None) -> str:
    """`value` rounded toward a bound that stays true at the digits shown: down for "at least" (a cosine of
    0.99889 is at least 0.998, not 0.999), up for "at most" (below=False)."""
    number = Decimal(repr(float(value)))
    step = Decimal(1).scaleb(-decimals)
    return fixed(number.quantize(step, rounding=ROUND_FLOOR if below else ROUND_CEILING), decimals, lang=lang)


EXACT_NOISE = 1e-9  # relative: a float this close to its form at the digits shown is that number (x·W of typed entries)


def exact_at(value: float, decimals: int = 3) -> bool:
    """Whether `value` is its own rounding to `decimals` decimals, up to float noise: 1391.0000000000002 is 1391."""
    v = float(value)
    return math.isfinite(v) and abs(v - float(round_half_up(v, decimals))) <= EXACT_NOISE * max(1.0, abs(v))


def measured(value: float, decimals: int = 3, *, sign: bool = True, lang: str | None = None) -> str:
    """A computed quantity: without trailing zeros when it is exact at the digits shown (a score of whole numbers,
    +12, not +12,000), else to `decimals` decimals (+0,954)."""
    if exact_at(value, decimals):
        return short(value, decimals, sign=sign, lang=lang)
    return fixed(value, decimals, sign=sign, lang=lang)


def signed(value: float | Decimal, decimals: int = 3, *, lang: str | None = None) -> str:
    """+0,461 / −0,150: a quantity that can have either sign, as the lesson writes it."""
    return fixed(value, decimals, sign=True, lang=lang)


def short(value: float | Decimal, decimals: int = 3, *, sign: bool = False, lang: str | None = None) -> str:
    """At most `decimals` decimals, trailing zeros dropped: 2 (not 2,000), 1,732, 0,5, 54,6."""
    lang = _lang(lang)
    if not isinstance(value, Decimal):
        special = _special(float(value), sign)
        if special is not None:
            return special
    rounded = round_half_up(value, decimals).normalize()
    if rounded == rounded.to_integral_value():
        rounded = rounded.quantize(Decimal(1))
    if rounded == 0:
        rounded = abs(rounded)
    body = _digits(abs(rounded), lang)
    if rounded < 0:
        return MINUS + body
    return ("+" if sign else "") + body


def count(value: int, *, lang: str | None = None) -> str:
    """A whole number: 5, 1.024 / 1,024, 20.000 / 20,000."""
    return short(int(value), 0, lang=lang)


def general(value: float, *, lang: str | None = None) -> str:
    """A number of any size, short: 7,389 / 148,413 / 1,97 × 10⁴³⁴ is beyond float64 and written ∞; very large or
    very small values as a × 10ⁿ."""
    lang = _lang(lang)
    v = float(value)
    special = _special(v, False)
    if special is not None:
        return special
    if v == 0 or 1e-3 <= abs(v) < 1e6:
        return short(v, 3, lang=lang)
    exponent = math.floor(math.log10(abs(v)))
    mantissa = v / 10**exponent
    if abs(round(mantissa, 2)) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{short(mantissa, 2, lang=lang)} × 10{superscript(exponent)}"


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def superscript(n: int) -> str:
    """An integer in superscript digits: -2 as ⁻²."""
    return str(n).translate(_SUPERSCRIPTS)


def percent(share: float, decimals: int = 1, *, lang: str | None = None) -> str:
    """28,9 % / 28.9%: a share of 1 written as a percentage."""
    lang = _lang(lang)
    body = fixed(100 * float(share), decimals, lang=lang)
    return f"{body}\u00a0%" if lang == "es" else f"{body}%"


MASKED_ENTRY = "✕"  # a weight the causal mask removed, as the figures mark its cell


def vector(
    values: Entries, decimals: int = 3, *, sign: bool = True, lang: str | None = None, masked: Entries | None = None
) -> str:
    """[+0,461; +0,779] / [+0.461, +0.779]; sign=False for weights: [0,289; 0,380; 0,332]; entries where
    `masked` is True written ✕ (a weight the mask removed is not a weight that came out 0)."""
    lang = _lang(lang)
    flat = _flat(values)
    hidden = [False] * len(flat) if masked is None else [bool(m) for m in _flat(masked)]
    entries = [
        MASKED_ENTRY if off else fixed(v, decimals, sign=sign, lang=lang) for v, off in zip(flat, hidden, strict=True)
    ]
    return bracketed(entries, lang)


def bracketed(entries: list[str], lang: str | None = None) -> str:
    """Written entries as a vector: [a, b] in English, [a; b] in Spanish; in English also [a; b] when an entry has a
    thousands comma, so that [10,000; 10,001] is not read as four numbers."""
    lang = _lang(lang)
    separator = VECTOR_SEPARATORS[lang]
    if any(separator.strip() in entry for entry in entries):
        separator = "; "
    return "[" + separator.join(entries) + "]"


def short_vector(values: Entries, decimals: int = 3, *, lang: str | None = None) -> str:
    """[1; 2; 3] / [1, 2, 3]: a vector of short numbers (the lesson's [3.1, 4.1, 5.1] example)."""
    lang = _lang(lang)
    return bracketed([short(v, decimals, lang=lang) for v in _flat(values)], lang)


def _flat(values: Entries) -> list[float | Decimal]:
    if isinstance(values, Decimal | float | int):
        return [values]
    out: list[float | Decimal] = []
    for v in values:
        out.extend(_flat(v) if isinstance(v, Iterable) else [v])
    return out


def plotly_separators(lang: str | None = None) -> str:
    """Plotly's `layout.separators`: the decimal separator, then the thousands separator."""
    decimal_sep, thousands_sep = SEPARATORS[_lang(lang)]
    return decimal_sep + thousands_sep
