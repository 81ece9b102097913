"""Static tables: numbers written in the reader's language, text shown literally.

A table is one markdown table (`st.markdown`), not a data grid (a grid keeps changing its page for 150 ms after
a slider moves) and not `st.table`: `st.table` renders every cell as markdown of its own, and two small tables
that follow a slider cost the browser 33 to 36 ms more than two markdown tables (3 to 5 ms;
benchmarks/README.md). Numbers are formatted here (a pandas Styler costs 7 ms a table) and right-aligned; text
cells are escaped, so a token named `__x__` or `a|b` shows as typed.
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


def written(frame: pd.DataFrame, decimals: int) -> pd.DataFrame:
    """A copy of `frame` for display: float columns with `decimals` decimals ("—" where missing), integer
    columns as whole numbers, every other cell escaped for markdown."""
    import pandas as pd  # here: the home page, which draws no table, does not import pandas

    out = pd.DataFrame(index=frame.index)
    for name in frame.columns:
        column = frame[name]
        if column.dtype.kind == "f":
            out[md_literal(name)] = [MISSING if np.isnan(v) else fixed(v, decimals) for v in column]
        elif column.dtype.kind in "iu":
            out[md_literal(name)] = [fixed(int(v), 0) for v in column]
        else:
            out[md_literal(name)] = [md_literal(v) for v in column]
    return out


def markdown_table(frame: pd.DataFrame, decimals: int = 3, *, numbers: bool = False) -> str:
    """`frame` as a markdown table, without the index: its numbers written to `decimals` decimals (see `written`)
    and right-aligned, its text escaped; `numbers`: every column right-aligned (numbers already written as text).
    Cells are separated by " | ": a pipe inside a cell is escaped, "\\|"."""
    shown = written(frame, decimals)
    aligns = ["--:" if numbers or frame[name].dtype.kind in "fiu" else ":--" for name in frame.columns]
    lines = [_row(list(shown.columns)), "| " + " | ".join(aligns) + " |"]
    lines += [_row(list(row)) for row in shown.itertuples(index=False, name=None)]
    return "\n".join(lines)


def _row(cells: list) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def table_ui(frame: pd.DataFrame, decimals: int = 3, *, numbers: bool = False) -> None:
    """`frame` as a table with its numbers written to `decimals` decimals, without the index (see
    `markdown_table`)."""
    st.markdown(markdown_table(frame, decimals, numbers=numbers))
