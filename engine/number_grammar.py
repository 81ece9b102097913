"""A typed number, read by one grammar in either locale: `parse_number` (the grammar is in its docstring).

The numbers a person types into the app are read by it (a matrix cell, a value in a link or a file, a question's
answer), so "1,5" and "1.5" mean the same everywhere and nothing is ever read as a thousands group.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import SupportsFloat, cast

from engine.errors import EngineInputError
from engine.limits import MAX_ABS_VALUE, MAX_NUMBER_CHARS
from engine.text import shown

# One number as typed, in either locale: ASCII digits, one optional decimal separator ("." or ","), an
# optional exponent. Spaces around it are ignored.
_NUMBER = re.compile(
    r"(?P<sign>[+\-\u2212]?)(?P<whole>[0-9]*)(?:(?P<separator>[.,])(?P<fraction>[0-9]*))?"
    r"(?:[eE](?P<exponent>[+\-\u2212]?[0-9]+))?"
)
# Digits with two or more separators ("1.000,5", "1,2,3"): somebody's grouping, read by nobody the same way.
_GROUPED = re.compile(r"[+\-\u2212]?(?=[.,]*[0-9])[0-9]*(?:[.,][0-9]*){2,}(?:[eE][+\-\u2212]?[0-9]+)?")
# One separator with exactly three digits after a whole part that could be a thousands group ("1,000",
# "12.500"): 1000 in one locale, 1 in the other.
_THOUSANDS = re.compile(r"[1-9][0-9]{0,2}")
_NAN_WORDS = frozenset({"nan", "+nan", "-nan"})
_INFINITY_WORDS = frozenset(sign + word for sign in ("", "+", "-", "\u2212") for word in ("inf", "infinity", "∞"))


def _not_a_number(value: object) -> EngineInputError:
    return EngineInputError("not_a_number", f"{shown(value)!r} is not a number", value=shown(value))


def _too_large(value: str) -> EngineInputError:
    limit = f"{MAX_ABS_VALUE:g}"
    return EngineInputError("too_large", f"{value} exceeds ±{limit}", value=value, limit=limit)


def _parse_text(value: str, decimal: str | None) -> float:
    text = value.strip()
    if not text:
        # An emptied data-editor cell arrives as None (or ""): that is "empty", not "'None' is not a number".
        raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
    if len(text) > MAX_NUMBER_CHARS:
        raise EngineInputError(
            "number_too_long",
            f"a number has at most {MAX_NUMBER_CHARS} characters, this one {len(text)}",
            limit=MAX_NUMBER_CHARS,
            length=len(text),
        )
    word = text.lower()
    if word in _NAN_WORDS:
        raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
    if word in _INFINITY_WORDS:
        raise EngineInputError("infinite", f"{text!r} is infinite", value=shown(text))
    match = _NUMBER.fullmatch(text)
    if match is None or not (match["whole"] or match["fraction"]):
        if _GROUPED.fullmatch(text):
            raise EngineInputError(
                "ambiguous_number", f"{text!r} has more than one separator; write it with one", value=shown(text)
            )
        raise _not_a_number(value)
    if (
        match["separator"]
        and match["separator"] != decimal
        and match["exponent"] is None
        and len(match["fraction"]) == 3
        and _THOUSANDS.fullmatch(match["whole"])
    ):
        raise EngineInputError(
            "ambiguous_number",
            f"{text!r} could be a thousands separator or a decimal one; write it without or with another digit",
            value=shown(text),
        )
    sign = "-" if match["sign"] in ("-", "\u2212") else ""
    exponent = (match["exponent"] or "0").replace("\u2212", "-")
    number = float(f"{sign}{match['whole'] or '0'}.{match['fraction'] or '0'}e{exponent}")
    if math.isinf(number):  # 1e999: finite as written, beyond any float
        raise _too_large(shown(text))
    return number


def parse_number(value: object, *, decimal: str | None = None) -> float:
    """A cell's content as a float, or an EngineInputError saying why it cannot be one.

    Text is read by one grammar, the same in every locale (spaces around it are ignored):

        number   = [sign] mantissa [exponent]         at most MAX_NUMBER_CHARS characters
        sign     = "+" | "-" | "−" (U+2212)
        mantissa = digits [separator [digits]] | separator digits
        separator = "." | ","                          one decimal separator: "1.5" and "1,5" are both 1.5
        exponent = ("e" | "E") [sign] digits           "1e7", "-2.5E-3"
        digits   = one or more of 0-9 (ASCII only)

    Refused, each with its code: empty text or "nan" ("empty_or_nan"); "inf", "Infinity", "∞" ("infinite");
    two or more separators such as "1.000,5", "1,000.5", "1.2.3", "1,2,3" ("ambiguous_number"); one
    separator followed by exactly three digits after a whole part of 1 to 3 digits not starting with 0, with
    no exponent, such as "1,000" or "12.500" ("ambiguous_number": it is 1000 in one locale and 1 in the
    other; "0.125", "1.25", "1.2500" and "1234.5" are fine); anything else, e.g. "0x10", "1_000", "1 000",
    full-width digits ("not_a_number"); more than MAX_NUMBER_CHARS characters ("number_too_long"); beyond
    ±MAX_ABS_VALUE ("too_large"). Numbers that are not text (int, float, numpy) are checked the same way
    for NaN, infinity and size; booleans are refused.

    `decimal` is the reader's decimal separator ("," in Spanish, "." in English), when known: a separator
    followed by three digits that IS the reader's decimal separator is read as one ("1,234" is 1.234 for a
    Spanish reader, as the app itself writes it); the reader's thousands separator stays ambiguous and refused
    ("1.234" for a Spanish reader could be 1234 by their convention or 1.234 by the lesson's): nothing is ever
    read as a thousands group.
    """
    if isinstance(value, bool):
        raise _not_a_number(value)
    if value is None:
        raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
    if isinstance(value, str):
        number = _parse_text(value, decimal)
    elif isinstance(value, numbers.Integral) and abs(int(value)) > MAX_ABS_VALUE:  # compared as ints: 10**400 fits
        raise _too_large(shown(value))
    else:
        try:
            number = float(cast(SupportsFloat, value))  # whatever float() refuses is caught below
        except (TypeError, ValueError):
            raise _not_a_number(value) from None
        except OverflowError:  # a Fraction or Decimal beyond float64
            raise _too_large(shown(value)) from None
        if math.isnan(number):
            raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
        if math.isinf(number):
            raise EngineInputError("infinite", f"{shown(value)} is infinite", value=shown(value))
    if abs(number) > MAX_ABS_VALUE:
        raise _too_large(f"{number:g}")
    return number


def typed_number(text: str, decimal: str) -> float:
    """A number as a person typed it in an answer box: parse_number after what people type around a number, a
    true minus sign ("−0,5"), spaces and no-break spaces inside ("1 234,5"), and both marks ("1.234,5" or
    "1,234.5": the last one is the decimal separator, the other grouping). `decimal` is the reader's decimal
    separator ("," or "."). The rule of the questions' answers (ui.question_book.typed_number, which passes its
    language's separator) and of the live class's tally of them (classroom.tally)."""
    cleaned = str(text).strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "")
    if "," in cleaned and "." in cleaned:
        last = "," if cleaned.rfind(",") > cleaned.rfind(".") else "."
        cleaned = cleaned.replace("." if last == "," else ",", "").replace(last, ".")
    return parse_number(cleaned, decimal=decimal)
