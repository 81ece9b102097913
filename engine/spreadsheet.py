"""CSV that a spreadsheet opens as data: no cell the app writes can start a formula (CSV injection).

A spreadsheet evaluates a cell whose text starts with "=", "+", "-" or "@" (and, in some, a tab, a carriage
return, "|" or "%", or the full-width "＝＋－＠" of East Asian keyboards): a token named `=HYPERLINK("//e.vil","x")`
would become a live link in the lecturer's sheet, `+cmd|' /C calc'!A0` a command. OWASP's advice is followed:
such a cell is written with one apostrophe before it, which makes it text. The rule can be undone exactly, so
whoever reads the file back gets the original text: a cell that starts with an apostrophe lost its first
character, every other cell is as written. For that, text that starts with an apostrophe itself gets one more.

Numbers stay numbers: a float is written as Python writes it ("-0.5", "1e-05"), and text that is one plain
number ("-0.5", "-0,5", "+3", "1e-5": digits, one separator, an exponent) is left as it is, since a spreadsheet
reads it as a number and no formula can be spelt with those characters alone.

Not the PyPI package `defusedcsv` (3.0.0, a drop-in `csv` writer doing this): it does not treat a leading tab or
carriage return, which OWASP lists, nor text that starts with an apostrophe, so what it writes cannot always be
read back as it was; the rule here is these few lines.
"""

from __future__ import annotations

import csv
import io
import numbers
import re
from collections.abc import Iterable

# What a spreadsheet may take as the start of a formula: OWASP's list (= + - @ tab CR), line feed, defusedcsv's
# | and %, and the full-width = + - @.
FORMULA_LEADS = frozenset("=+-@\t\r\n|%\uff1d\uff0b\uff0d\uff20")
TEXT_MARK = "'"
# One number as text, in either locale's decimal separator: what a spreadsheet reads as a number, not a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?")


def spreadsheet_cell(value: object) -> object:
    """`value` as a CSV cell that is never a formula: numbers as numbers, text with an apostrophe before it when it
    starts (after any spaces) with a formula's first character, or with an apostrophe; other text as it is."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)  # written as Python writes it: the shortest text that reads back as the same float
    text = str(value)
    lead = text.lstrip(" \u00a0")[:1]
    if text.startswith(TEXT_MARK) or (lead in FORMULA_LEADS and lead and not _PLAIN_NUMBER.fullmatch(text)):
        return TEXT_MARK + text
    return text


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text (the `csv` module's default dialect), every cell passed through `spreadsheet_cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
