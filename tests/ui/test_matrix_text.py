"""A heatmap's numbers as text (ui.matrix_text): the table, LaTeX and CSV hold the digits the figure shows."""

from __future__ import annotations

import html.parser

import numpy as np

from ui.figure_specs import Heatmap
from ui.matrix_text import csv_matrix, latex_bmatrix, shown_cells, table_html

SIGNED = Heatmap(
    np.array([[0.4614, -0.15], [1250.0, 0.0]]),
    rows=["el", "perro"],
    cols=["d0", "d1"],
    title="Q",
    row_title="token",
    col_title="dimensión",
)
MASKED_SCORES = Heatmap(
    np.array([[0.5, np.nan], [-0.25, 1.0]]), rows=["a", "b"], cols=["a", "b"], title="S", decimals=2
)
WEIGHTS = Heatmap(np.array([[0.2894, 0.7106]]), rows=["come"], cols=["el", "perro"], title="W", kind="weights")


def test_cells_are_written_as_the_figure_writes_them():
    assert shown_cells(SIGNED, "es") == [["+0,461", "−0,150"], ["+1250,000", "+0,000"]]
    assert shown_cells(SIGNED, "en") == [["+0.461", "−0.150"], ["+1,250.000", "+0.000"]]
    assert shown_cells(WEIGHTS, "es") == [["0,289", "0,711"]]
    assert shown_cells(MASKED_SCORES, "en") == [["+0.50", "✕"], ["−0.25", "+1.00"]]


def test_latex_is_a_bmatrix_with_the_digits_shown():
    assert latex_bmatrix(SIGNED, "es") == (
        "\\begin{bmatrix}\n+0{,}461 & -0{,}150 \\\\\n+1250{,}000 & +0{,}000\n\\end{bmatrix}"
    )
    assert latex_bmatrix(SIGNED, "en") == (
        "\\begin{bmatrix}\n+0.461 & -0.150 \\\\\n+1{,}250.000 & +0.000\n\\end{bmatrix}"
    )
    assert latex_bmatrix(WEIGHTS, "en") == "\\begin{bmatrix}\n0.289 & 0.711\n\\end{bmatrix}"
    assert latex_bmatrix(MASKED_SCORES, "es") == (
        "\\begin{bmatrix}\n+0{,}50 & -\\infty \\\\\n-0{,}25 & +1{,}00\n\\end{bmatrix}"
    )


def test_csv_has_the_names_and_the_values_rounded_as_shown():
    assert csv_matrix(SIGNED) == "token,d0,d1\r\nel,0.461,-0.15\r\nperro,1250.0,0.0\r\n"
    assert csv_matrix(MASKED_SCORES) == ",a,b\r\na,0.5,\r\nb,-0.25,1.0\r\n"


def test_a_name_that_a_spreadsheet_would_run_stays_text():
    hostile = Heatmap(np.array([[1.0]]), rows=['=HYPERLINK("//e.vil")'], cols=["+x"], title="T")
    assert csv_matrix(hostile) == ',\'+x\r\n"\'=HYPERLINK(""//e.vil"")",1.0\r\n'


class _Table(html.parser.HTMLParser):
    """The table's cells as (tag, scope, text), row by row, and every tag seen."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str, str]]] = []
        self.tags: list[str] = []
        self.caption = ""
        self._cell: tuple[str, str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = (tag, dict(attrs).get("scope") or "")
            self.rows[-1].append((*self._cell, ""))
        elif tag == "caption":
            self._in_caption = True

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data):
        if self._cell is not None:
            tag, scope, text = self.rows[-1][-1]
            self.rows[-1][-1] = (tag, scope, text + data)
        elif self._in_caption:
            self.caption += data


def test_the_table_heads_every_row_and_column_with_its_name():
    table = _Table()
    table.feed(table_html(SIGNED, "es", "Q (filas: token; columnas: dimensión)"))
    assert table.caption == "Q (filas: token; columnas: dimensión)"
    assert table.rows == [
        [("th", "col", "token"), ("th", "col", "d0"), ("th", "col", "d1")],
        [("th", "row", "el"), ("td", "", "+0,461"), ("td", "", "−0,150")],
        [("th", "row", "perro"), ("td", "", "+1250,000"), ("td", "", "+0,000")],
    ]


def test_names_in_the_table_are_text_never_markup():
    hostile = Heatmap(np.array([[1.0]]), rows=["<img src=x onerror=alert(1)>"], cols=['"><b>x</b>'], title="<i>T</i>")
    written = table_html(hostile, "en", "<i>T</i>")
    table = _Table()
    table.feed(written)
    assert "img" not in table.tags and "b" not in table.tags and "i" not in table.tags
    assert table.rows[1][0] == ("th", "row", "<img src=x onerror=alert(1)>")
    assert table.rows[0][1] == ("th", "col", '"><b>x</b>')
    assert 'aria-label="&lt;i&gt;T&lt;/i&gt;"' in written
