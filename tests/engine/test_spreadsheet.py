"""CSV cells the app writes are never formulas, read back exactly, and numbers stay numbers (issue 26, item 4)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.spreadsheet import csv_text, spreadsheet_cell

# The three names (all accepted token names), and one for each character a spreadsheet starts a formula with.
PAYLOADS = [
    '=HYPERLINK("//e.vil","x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|'/C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "=1+1",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "|calc",
    "%APPDATA%",
    "\uff1d1+1",  # full-width =
    "\uff0bcmd",  # full-width +
    "\uff0d1+1",  # full-width −
    "\uff20SUM(1)",  # full-width @
    "  =1+1",  # after spaces
    "\u00a0=1+1",  # after a no-break space
    "-",
    "--1",
    "-1+1",
    "+1-1",
]
# What a spreadsheet may take for the start of a formula, written out here, not read from the module.
LEADS = "=+-@\t\r\n|%\uff1d\uff0b\uff0d\uff20"
PLAIN_NUMBERS = ["-0.5", "0.5", "+3", "-0,5", "1e-5", "-1.5E+20", ".5", "-.5", "3."]


def read_back(cell: str) -> str:
    """The rule the module documents, written again: a cell that starts with an apostrophe lost its first character."""
    return cell[1:] if cell.startswith("'") else cell


def written(rows: list[list[object]]) -> list[list[str]]:
    return list(csv.reader(io.StringIO(csv_text(rows))))


def starts_a_formula(cell: str) -> bool:
    return cell.lstrip(" \u00a0")[:1] in set(LEADS) and cell.lstrip(" \u00a0") != ""


@pytest.mark.parametrize("text", PAYLOADS, ids=repr)
def test_a_cell_that_would_start_a_formula_is_written_as_text_and_reads_back_as_it_was(text):
    [[cell]] = written([[text]])
    assert cell == "'" + text
    assert read_back(cell) == text


@pytest.mark.parametrize("text", PLAIN_NUMBERS)
def test_text_that_is_one_plain_number_is_left_as_a_spreadsheet_reads_it(text):
    [[cell]] = written([[text]])
    assert cell == text


@pytest.mark.parametrize("value", [-0.5, -1e-05, -123456.75, 0.1 + 0.2, -(10**6), 0.0, -0.0, 5e-324])
def test_numbers_are_written_as_numbers_that_read_back_as_the_same_float(value):
    [[cell]] = written([[value]])
    assert not cell.startswith("'")
    assert float(cell) == value and str(float(cell)) == str(float(value))


@pytest.mark.parametrize("text", ["'quoted", "'=1+1", "''"])
def test_text_starting_with_an_apostrophe_gets_one_more_so_it_reads_back(text):
    [[cell]] = written([[text]])
    assert cell == "'" + text and read_back(cell) == text


def test_ordinary_text_is_left_as_it_is():
    rows = [["perro", "el perro", "¿quién?", "a=b", "x-1", "«=1»", "1 | 2", ""]]
    assert written(rows) == rows


@given(st.text(max_size=40))
def test_any_text_reads_back_exactly_and_never_starts_a_formula(text):
    cell = spreadsheet_cell(text)
    assert isinstance(cell, str)
    assert read_back(cell) == text
    if starts_a_formula(cell) and not cell.startswith("'"):
        assert is_one_number(cell), cell


def is_one_number(cell: str) -> bool:
    """Digits, signs, separators and an exponent only, and one number as Python reads it ("-1-1" is not)."""
    if not set(cell) <= set("0123456789+-.,eE"):
        return False
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return False
    return True


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_float_is_a_number_cell(value):
    [[cell]] = written([[value]])
    assert float(cell) == value
