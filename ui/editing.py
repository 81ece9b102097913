"""Apply a data editor's recorded changes to the scenario, cell by cell, refusing bad cells.

Streamlit keeps an editor's changes as {"edited_rows": {row: {column: value}}, "added_rows": [...],
"deleted_rows": [...]}. These functions turn that into a new matrix (and token list), keeping every good
edit and returning an error (code, params) for each refused one, so the user keeps their other edits.
"""

from __future__ import annotations

import numpy as np

from engine import EngineInputError, check_token_name, parse_number
from engine.limits import MAX_SCENARIO_TOKENS

TOKEN_COLUMN = "token"
Error = tuple[str, dict]


def _error(exc: EngineInputError, where: str) -> Error:
    return exc.code, {**exc.params, "where": where}


def column_name(j: int) -> str:
    return str(j)


def _set_cells(matrix: np.ndarray, row: int, cells: dict, label: str, errors: list[Error]) -> None:
    for column, value in cells.items():
        if column == TOKEN_COLUMN:
            continue
        try:
            j = int(column)
        except (TypeError, ValueError):
            continue
        if not 0 <= j < matrix.shape[1]:
            continue
        try:
            matrix[row, j] = parse_number(value)
        except EngineInputError as exc:
            errors.append(_error(exc, f"{label}[{row}][{j}]"))


def apply_matrix_edits(matrix: np.ndarray, changes: dict, label: str) -> tuple[np.ndarray, list[Error]]:
    """A fixed-size matrix with the editor's cell edits applied; refused cells keep their old value."""
    out = np.array(matrix, dtype=np.float64, copy=True)
    errors: list[Error] = []
    for row, cells in (changes.get("edited_rows") or {}).items():
        row = int(row)
        if 0 <= row < out.shape[0]:
            _set_cells(out, row, cells, label, errors)
    return out, errors


def apply_token_edits(
    tokens: tuple[str, ...], x: np.ndarray, changes: dict
) -> tuple[tuple[str, ...], np.ndarray, list[Error]]:
    """Token names and x after the x editor's edits, added rows and deleted rows."""
    names = list(tokens)
    rows = np.array(x, dtype=np.float64, copy=True)
    errors: list[Error] = []
    for row, cells in (changes.get("edited_rows") or {}).items():
        row = int(row)
        if not 0 <= row < len(names):
            continue
        if TOKEN_COLUMN in cells:
            others = names[:row] + names[row + 1 :]
            try:
                names[row] = check_token_name(cells[TOKEN_COLUMN], others)
            except EngineInputError as exc:
                errors.append(_error(exc, f"token[{row}]"))
        _set_cells(rows, row, cells, "x", errors)

    for cells in changes.get("added_rows") or []:
        if len(names) >= MAX_SCENARIO_TOKENS:
            errors.append(("too_many_tokens", {"limit": MAX_SCENARIO_TOKENS}))
            break
        new_row = np.zeros((1, rows.shape[1]))
        name = cells.get(TOKEN_COLUMN)
        try:
            name = check_token_name(name, names)
        except EngineInputError as exc:
            if exc.code != "empty_token":
                errors.append(_error(exc, f"token[{len(names)}]"))
            name = _fresh_name(names)
        _set_cells(new_row, 0, cells, "x", errors)
        names.append(name)
        rows = np.vstack([rows, new_row])

    deleted = sorted({int(r) for r in changes.get("deleted_rows") or [] if 0 <= int(r) < len(names)})
    if deleted and len(deleted) >= len(names):
        errors.append(("no_tokens", {}))
    elif deleted:
        keep = [i for i in range(len(names)) if i not in set(deleted)]
        names = [names[i] for i in keep]
        rows = rows[keep]
    return tuple(names), rows, errors


def _fresh_name(names: list[str]) -> str:
    i = len(names) + 1
    while f"token{i}" in names:
        i += 1
    return f"token{i}"


def apply_list_edits(values: np.ndarray, changes: dict, label: str, max_len: int) -> tuple[np.ndarray, list[Error]]:
    """A list of numbers (one editor column "0") after edits, added rows (0 when left empty) and deletions."""
    column = np.array(values, dtype=np.float64, copy=True).reshape(-1, 1)
    column, errors = apply_matrix_edits(column, changes, label)
    for cells in changes.get("added_rows") or []:
        if column.shape[0] >= max_len:
            errors.append(("too_many_scores", {"limit": max_len}))
            break
        new_row = np.zeros((1, 1))
        if cells.get(column_name(0)) is not None:
            _set_cells(new_row, 0, cells, label, errors)
        column = np.vstack([column, new_row])
    deleted = {int(r) for r in changes.get("deleted_rows") or []}
    keep = [i for i in range(column.shape[0]) if i not in deleted]
    if not keep:
        errors.append(("no_scores", {}))
        keep = list(range(column.shape[0]))
    return column[keep, 0], errors
