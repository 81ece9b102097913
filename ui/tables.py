"""Static tables: numbers written in the reader's language, text shown literally.

Static (`st.table`), not a data grid: redrawn at once when a slider changes it (a grid keeps changing its page
for 150 ms more), and formatted here rather than by a pandas Styler (7 ms a table). `st.table` renders its cells
as markdown, so text cells are escaped: a token named `__x__` shows as typed.
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


def table_ui(frame: pd.DataFrame, decimals: int = 3) -> None:
    """`frame` as a table with its numbers written to `decimals` decimals, without the index."""
    st.table(written(frame, decimals), hide_index=True)
