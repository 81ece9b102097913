"""Static tables: numbers written in the reader's language, text shown literally.

A table is one markdown table (`st.markdown`), not a data grid (a grid keeps changing its page for 150 ms after
a slider moves) and not `st.table`: `st.table` renders every cell as markdown of its own; on a floor app, two
small tables that follow a slider cost 33 to 36 ms over the plain floor as `st.table` and 3 to 5 ms as markdown
tables (benchmarks/README.md). Numbers are formatted here (a pandas Styler costs 7 ms a table) and
right-aligned; text cells are escaped, so a token named `__x__` or `a|b` shows as typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ui.numbers import fixed
from ui.text import md_literal

if TYPE_CHECKING:
    import pandas as pd

MISSING = "—"


def written_column(column: pd.Series, decimals: int) -> tuple[list[str], bool]:
    """One column's cells for display, and whether they are numbers: floats with `decimals` decimals ("—" where
    missing), integers as whole numbers, every other cell escaped for markdown."""
    if column.dtype.kind == "f":
        return [MISSING if np.isnan(v) else fixed(v, decimals) for v in column], True
    if column.dtype.kind in "iu":
        return [fixed(int(v), 0) for v in column], True
    return [md_literal(v) for v in column], False


def markdown_table(frame: pd.DataFrame, decimals: int = 3, *, right_aligned: bool = False) -> str:
    """`frame` as a markdown table, without the index ("" when it has no column): its numbers written to
    `decimals` decimals and right-aligned, its text escaped (`written_column`); `right_aligned`: every column
    right-aligned (numbers already written as text). Columns are taken by position, so two that share a name,
    or whose names read the same once escaped, stay two. Cells are separated by " | "; a pipe in a cell is
    escaped ("\\|")."""
    header, aligns, columns = [], [], []
    for k in range(frame.shape[1]):
        cells, numeric = written_column(frame.iloc[:, k], decimals)
        header.append(md_literal(frame.columns[k]))
        aligns.append("--:" if numeric or right_aligned else ":--")
        columns.append(cells)
    if not columns:
        return ""
    return "\n".join([_row(header), _row(aligns), *(_row(list(row)) for row in zip(*columns, strict=True))])


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def table_ui(frame: pd.DataFrame, decimals: int = 3, *, right_aligned: bool = False) -> None:
    """`frame` as a table with its numbers written to `decimals` decimals, without the index (see
    `markdown_table`); nothing for a frame without columns."""
    table = markdown_table(frame, decimals, right_aligned=right_aligned)
    if table:
        st.markdown(table)
