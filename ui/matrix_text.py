"""A heatmap's numbers as text: a table a keyboard and a screen reader go through cell by cell, LaTeX and CSV.

Pure (no `st.`): ui.charts shows them beside each figure. Every cell is written with the digits the figure writes
on it (ui.figure_specs.cell_text: the same decimals, the sign of a signed scale, the reader's decimal separator,
"✕" where a cell is masked out), so what a reader hears, copies or pastes is what the figure shows.

- The table is a real HTML table (a caption, the column names as `<th scope="col">`, each row's name as
  `<th scope="row">`), so a screen reader says a cell's row and column as it moves; every name and title is
  escaped (`html.escape`): a token named `<b>x</b>` shows as typed.
- LaTeX: a `bmatrix`, one row a line, the decimal comma written `{,}` (a bare comma in math mode is punctuation
  and gets a space after it), the minus sign as `-`, a masked cell as `-\\infty` (what the mask sets a score to).
- CSV: a header row (the rows' title, then the columns' names), then each row's name and its values rounded to the
  digits shown, written as Python writes a float (a spreadsheet reads them as numbers in any locale), a masked
  cell empty; through engine.spreadsheet, so no name can become a formula.
"""

from __future__ import annotations

import html

import numpy as np

from engine.spreadsheet import csv_text
from ui.figure_specs import MASKED, Heatmap, cell_text
from ui.numbers import MINUS, round_half_up


def shown_cells(spec: Heatmap, lang: str) -> list[list[str]]:
    """Every cell as the figure writes it, row by row."""
    values = np.asarray(spec.values, dtype=np.float64)
    return [[cell_text(float(v), spec.kind, spec.decimals, lang) for v in row] for row in values]


def latex_cell(text: str) -> str:
    """One written cell in LaTeX: −0,150 → -0{,}150, ✕ → -\\infty."""
    if text == MASKED:
        return r"-\infty"
    return text.replace(MINUS, "-").replace(",", "{,}")


def latex_bmatrix(spec: Heatmap, lang: str) -> str:
    """The matrix as a LaTeX bmatrix with the digits shown."""
    lines = [" & ".join(latex_cell(cell) for cell in row) for row in shown_cells(spec, lang)]
    return "\\begin{bmatrix}\n" + " \\\\\n".join(lines) + "\n\\end{bmatrix}"


def csv_matrix(spec: Heatmap) -> str:
    """The matrix as CSV: a header (the rows' title, the columns' names), then each row's name and its values at
    the digits shown; a masked cell is empty."""
    values = np.asarray(spec.values, dtype=np.float64)
    body = [
        [name, *("" if not np.isfinite(v) else float(round_half_up(float(v), spec.decimals)) for v in row)]
        for name, row in zip(spec.rows, values, strict=True)
    ]
    return csv_text([[spec.row_title, *spec.cols], *body])


TABLE_CLASS = "matrix-table"  # the class of the box around a matrix's table (its style: ui/layout.py)


def table_html(spec: Heatmap, lang: str, caption: str) -> str:
    """The matrix as an HTML table: `caption`, the columns' names heading the columns, each row's name heading its
    row, the cells as the figure writes them; every text escaped. Wrapped in a focusable region (named after the
    caption) that scrolls sideways when the table is wider than the page."""

    def header(text: str, scope: str) -> str:
        return f'<th scope="{scope}">{html.escape(str(text))}</th>'

    head = header(spec.row_title, "col") + "".join(header(name, "col") for name in spec.cols)
    rows = [
        "<tr>" + header(name, "row") + "".join(f"<td>{html.escape(text)}</td>" for text in cells) + "</tr>"
        for name, cells in zip(spec.rows, shown_cells(spec, lang), strict=True)
    ]
    return (
        f'<div class="{TABLE_CLASS}" role="region" tabindex="0" aria-label="{html.escape(caption)}">'
        f"<table><caption>{html.escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
