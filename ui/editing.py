"""Apply a data editor's recorded changes to the scenario, cell by cell, and say what was refused and why.

Streamlit keeps an editor's changes as {"edited_rows": {row: {column: value}}, "added_rows": [...],
"deleted_rows": [...]}, sent by the browser as JSON. These functions turn that into a new matrix (and token
list), keeping every good edit and returning an error (code, params) for each refused one, so the user keeps
their other edits. What arrives is read as untrusted data, since a visitor can send any JSON: a row or column
that does not exist, a value that is a list, a row index that is not a whole number. Nothing here raises on it;
the parts that do not fit the table are ignored and reported once ("unreadable_edit").

Codes are the engine's (`engine.errors.CODES`: a refused number or name) or the editor's own (`UI_CODES`);
`refusal_text` writes any of them in the reader's language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from streamlit.elements.widgets import data_editor

from engine import EngineInputError, check_token_name, parse_number
from engine.errors import CODES
from engine.limits import MAX_ABS_VALUE, MAX_SCENARIO_TOKENS
from ui import numbers
from ui.i18n import t
from ui.text import md_literal

TOKEN_COLUMN = "token"
MAX_REPORTED = 5  # refusals said one by one; past this, the rest are counted in one line
MAX_INDEX_DIGITS = 6  # a row or column written with more digits than this is no row or column of an editor
UNREADABLE = "unreadable_edit"
# Set by Streamlit's reader (wrapped below) on an editor state it could not read at all.
_UNREADABLE_MARK = "_unreadable"

# The editor's own refusals, as engine.errors.CODES lists the engine's: code -> (parameters, meaning).
UI_CODES: dict[str, tuple[tuple[str, ...], str]] = {
    "too_many_tokens": (("limit",), "the scenario takes at most `limit` tokens; the added rows past it are dropped"),
    "too_many_scores": (("limit",), "the list takes at most `limit` scores; the added rows past it are dropped"),
    "no_scores": ((), "deleting every score is refused"),
    UNREADABLE: ((), "part of an edit names a row, column or index the table does not have, or is not a table edit"),
    "more_refused": (("count",), "`count` more refusals of the same edit, not listed one by one"),
}
# How a refusal's location is said: a cell keeps its value, a token its name, a new row gets a fresh one.
PARTS = ("cell", "token", "new_token")

Error = tuple[str, dict]


def column_name(j: int) -> str:
    """The editor's name for column j of a matrix ("0", "1", ...)."""
    return str(j)


def _index(value: object, size: int) -> int | None:
    """A row or column position as the browser sends it (an int, or digits as text), if the table has it."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= MAX_INDEX_DIGITS:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size:
        return value
    return None


class _Refusals:
    """What one edit refused: each bad number or name with where it was, and whether anything was unreadable."""

    def __init__(self) -> None:
        self.errors: list[Error] = []
        self.unreadable = False

    def refuse(self, exc: EngineInputError, part: str, where: str) -> None:
        self.errors.append((exc.code, {**exc.params, "part": part, "where": where}))

    def add(self, code: str, **params: object) -> None:
        self.errors.append((code, params))

    def listed(self) -> list[Error]:
        errors = self.errors + ([(UNREADABLE, {})] if self.unreadable else [])
        if len(errors) <= MAX_REPORTED:
            return errors
        return [*errors[: MAX_REPORTED - 1], ("more_refused", {"count": len(errors) - MAX_REPORTED + 1})]


def _changes(changes: object, refusals: _Refusals) -> Mapping:
    """The editor's changes as a mapping; anything else (or a state Streamlit could not read) is unreadable."""
    if not isinstance(changes, Mapping):
        refusals.unreadable = True
        return {}
    if changes.get(_UNREADABLE_MARK):
        refusals.unreadable = True
    return changes


def _listed(changes: Mapping, name: str, refusals: _Refusals) -> list:
    value = changes.get(name) or []
    if not isinstance(value, list):
        refusals.unreadable = True
        return []
    return value


def _edited_rows(changes: Mapping, rows: int, refusals: _Refusals) -> list[tuple[int, Mapping]]:
    """(row, {column: value}) for each edited row the table has; other rows are unreadable."""
    edited = changes.get("edited_rows") or {}
    if not isinstance(edited, Mapping):
        refusals.unreadable = True
        return []
    found = []
    for key, cells in edited.items():
        row = _index(key, rows)
        if row is None or not isinstance(cells, Mapping):
            refusals.unreadable = True
            continue
        found.append((row, cells))
    return found


def _deleted_rows(changes: Mapping, rows: int, refusals: _Refusals) -> set[int]:
    deleted = set()
    for value in _listed(changes, "deleted_rows", refusals):
        row = _index(value, rows)
        if row is None:
            refusals.unreadable = True
        else:
            deleted.add(row)
    return deleted


def _set_cells(matrix: np.ndarray, row: int, cells: Mapping, where: Callable[[int], str], refusals: _Refusals) -> None:
    """Write the number cells of one row; a refused number keeps the cell's value, an unknown column is unreadable."""
    for column, value in cells.items():
        j = _index(column, matrix.shape[1])
        if j is None:
            refusals.unreadable = True
            continue
        try:
            matrix[row, j] = parse_number(value, decimal=reader_decimal())
        except EngineInputError as exc:
            refusals.refuse(exc, "cell", where(j))


def reader_decimal() -> str:
    """The reader's decimal separator: "1,234" typed by a Spanish reader is 1.234, as the app writes it."""
    return numbers.decimal_separator()


def _cell(label: str, row: int) -> Callable[[int], str]:
    return lambda j: f"{label}[{row}][{j}]"


def _named(where: str) -> Callable[[int], str]:
    return lambda _: where  # a list has one column: a cell is named by its row alone


def apply_matrix_edits(matrix: np.ndarray, changes: object, label: str) -> tuple[np.ndarray, list[Error]]:
    """A fixed-size matrix with the editor's cell edits applied; refused cells keep their old value."""
    out = np.array(matrix, dtype=np.float64, copy=True)
    refusals = _Refusals()
    changes = _changes(changes, refusals)
    for row, cells in _edited_rows(changes, out.shape[0], refusals):
        _set_cells(out, row, cells, _cell(label, row), refusals)
    if _listed(changes, "added_rows", refusals) or _listed(changes, "deleted_rows", refusals):
        refusals.unreadable = True  # this editor has a fixed number of rows: the browser sends neither
    return out, refusals.listed()


def apply_token_edits(
    tokens: tuple[str, ...], x: np.ndarray, changes: object
) -> tuple[tuple[str, ...], np.ndarray, list[Error]]:
    """Token names and x after the x editor's edits, added rows and deleted rows."""
    names = list(tokens)
    rows = np.array(x, dtype=np.float64, copy=True)
    refusals = _Refusals()
    changes = _changes(changes, refusals)
    for row, cells in _edited_rows(changes, len(names), refusals):
        if TOKEN_COLUMN in cells:
            others = names[:row] + names[row + 1 :]
            try:
                names[row] = check_token_name(cells[TOKEN_COLUMN], others)
            except EngineInputError as exc:
                refusals.refuse(exc, "token", names[row])
        _set_cells(rows, row, _numbers(cells), _cell("x", row), refusals)

    # Deleted rows are positions in the table before the additions, as Streamlit applies them.
    deleted = _deleted_rows(changes, len(tokens), refusals)
    for cells in _listed(changes, "added_rows", refusals):
        if len(names) >= MAX_SCENARIO_TOKENS:
            refusals.add("too_many_tokens", limit=MAX_SCENARIO_TOKENS)
            break
        if not isinstance(cells, Mapping):
            refusals.unreadable = True
            continue
        fresh = _fresh_name(names)
        try:
            name = check_token_name(cells.get(TOKEN_COLUMN), names)
        except EngineInputError as exc:
            if exc.code != "empty_token":
                refusals.refuse(exc, "new_token", fresh)
            name = fresh
        new_row = np.zeros((1, rows.shape[1]))  # cells left empty in a new row are 0
        filled = {column: value for column, value in _numbers(cells).items() if value is not None}
        _set_cells(new_row, 0, filled, _cell("x", len(names)), refusals)
        names.append(name)
        rows = np.vstack([rows, new_row])

    if deleted and len(deleted) >= len(names):
        refusals.add("no_tokens")
    elif deleted:
        keep = [i for i in range(len(names)) if i not in deleted]
        names = [names[i] for i in keep]
        rows = rows[keep]
    return tuple(names), rows, refusals.listed()


def _numbers(cells: Mapping) -> dict:
    """The number cells of an x editor's row: every column but the token's name."""
    return {column: value for column, value in cells.items() if column != TOKEN_COLUMN}


def _fresh_name(names: list[str]) -> str:
    """token4, token5…: the first such name no other name is, or looks like (a name "tokenl" looks like "token1")."""
    i = len(names) + 1
    while True:
        try:
            return check_token_name(f"token{i}", names)
        except EngineInputError:
            i += 1


def apply_list_edits(values: np.ndarray, changes: object, label: str, max_len: int) -> tuple[np.ndarray, list[Error]]:
    """A list of numbers (one editor column "0") after edits, added rows (0 when left empty) and deletions."""
    column = np.array(values, dtype=np.float64, copy=True).reshape(-1, 1)
    size = column.shape[0]
    refusals = _Refusals()
    changes = _changes(changes, refusals)
    for row, cells in _edited_rows(changes, size, refusals):
        _set_cells(column, row, cells, _named(f"{label}{row + 1}"), refusals)
    deleted = _deleted_rows(changes, size, refusals)
    for cells in _listed(changes, "added_rows", refusals):
        if column.shape[0] >= max_len:
            refusals.add("too_many_scores", limit=max_len)
            break
        if not isinstance(cells, Mapping):
            refusals.unreadable = True
            continue
        new_row = np.zeros((1, 1))  # a new score left empty is 0
        filled = {name: value for name, value in cells.items() if value is not None}
        where = f"{label}{column.shape[0] + 1}"
        _set_cells(new_row, 0, filled, _named(where), refusals)
        column = np.vstack([column, new_row])
    keep = [i for i in range(column.shape[0]) if i not in deleted]
    if not keep:
        refusals.add("no_scores")
        keep = list(range(column.shape[0]))
    return column[keep, 0], refusals.listed()


# --- saying it in the reader's language ---


def _written(value: object) -> str:
    """A parameter as a message shows it: numbers in the reader's language, anything else literally."""
    if isinstance(value, bool):
        return md_literal(value)
    if isinstance(value, int):
        return numbers.count(value)
    if isinstance(value, float):
        return numbers.general(value)
    if isinstance(value, list | tuple):
        return ", ".join(_written(v) for v in value)
    return md_literal(value)


def refusal_text(code: str, params: Mapping[str, Any]) -> str:
    """A refusal in the reader's language, as markdown: user text in it shows literally, numbers as the reader
    writes them. With a "part" and "where" (from the appliers above), it says which cell or name kept its value."""
    declared = (CODES.get(code) or UI_CODES.get(code) or ((), ""))[0]
    written = {name: _written(params[name]) for name in declared if name in params}
    if code == "too_large":  # the engine names its limit as text ("1e+06"); the reader gets it in their numbers
        written["limit"] = numbers.count(int(MAX_ABS_VALUE))
    reason = t(f"error.{code}", **written)
    part = params.get("part")
    if part not in PARTS:
        return reason
    return t(f"editor.refused.{part}", where=md_literal(params.get("where", "")), reason=reason)


# --- Streamlit's own reading of an editor's state ---


def _tolerate_forged_editor_state() -> None:
    """Let Streamlit read any editor state a browser sends without raising.

    Streamlit reads a data editor's state (DataEditorSerde.deserialize) with json.loads, dict methods and int() on
    the row keys, before any app code runs: a message with a row "abc", a list instead of an object or JSON nested
    100,000 deep raised on that run and on every later one (the value stays in the session), so the session
    stayed broken until the page was reloaded. Wrapped here, a state it cannot read becomes an empty edit marked
    unreadable, which the appliers above report."""
    serde = data_editor.DataEditorSerde
    original = serde.deserialize
    if getattr(original, "tolerant", False):
        return

    def deserialize(self: data_editor.DataEditorSerde, ui_value: str | None) -> data_editor.DataEditorState:
        try:
            return original(self, ui_value)
        except (TypeError, ValueError, AttributeError, RecursionError):
            return original(self, json.dumps({_UNREADABLE_MARK: True}))

    deserialize.tolerant = True  # type: ignore[attr-defined]
    serde.deserialize = deserialize  # type: ignore[method-assign]


_tolerate_forged_editor_state()
