"""Derivations as aligned text: the engine's written arithmetic (`engine.derivation`) in the reader's language.

A derivation is a block of rows "lhs = rhs", the "=" (or "≈") of every row in one column, the rows of one dot
product continuing under each other:

    score(perro → come) = (+0,461)(+1,391) + (+0,779)(+0,663) + (+0,526)(−0,158) + (+0,807)(−0,15)
                        ≈ (+0,6413) + (+0,5165) + (−0,0831) + (−0,1211)
                        = +0,9536
                        ≈ +0,954

Every result follows from the operands written on its own line (see engine/derivation.py for the rule), so a
student can redo each line with a calculator; "≈" marks a rounding. Where the written arithmetic and the
full-precision value differ in the last digit, a note gives the full-precision value too.

It is shown as monospace text (`st.code`), not LaTeX: the factors of consecutive rows line up, it can be
copied, a token's name shows exactly as typed (`st.code` interprets nothing), and a browser draws it for a
fraction of what KaTeX costs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import streamlit as st

from engine.derivation import TERM, CellDerivation, Division, DotDerivation, SoftmaxDerivation, written
from ui import state
from ui.i18n import t
from ui.numbers import bracketed, exact_at, fixed, short, signed, vector


class Row(NamedTuple):
    """One line of a derivation: left-hand side, relation, right-hand side."""

    lhs: str  # "" continues the row above
    relation: str  # "=", "≈", or "" for a note under the rows
    rhs: str


BLANK = None  # an empty line between two groups of rows

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ISOLATE, _END_ISOLATE = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate


def token_text(token: object) -> str:
    """A token name for a text block, shown as typed and unable to disturb the line around it: control
    characters and lone surrogates become the replacement character, bidirectional overrides too (one would
    reverse the numbers after it), and a name with right-to-left letters is a directional isolate, so a Hebrew
    or Arabic name reads right to left without pulling the "=" and the numbers after it into its run."""
    text = "".join(
        "\ufffd" if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI_CONTROLS else ch for ch in str(token)
    )
    if any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in text):
        return f"{_ISOLATE}{text}{_END_ISOLATE}"
    return text


def _zero_width(ch: str) -> bool:
    code = ord(ch)
    return unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0x1F3FB <= code <= 0x1F3FF or 0x1160 <= code <= 0x11FF


def width(text: str) -> int:
    """Columns `text` takes in a monospace font, approximately: wide (CJK, emoji) characters two; combining
    marks, zero-width characters, skin-tone modifiers and what a zero-width joiner joins none."""
    columns = 0
    last = 0
    joined = False
    for ch in text:
        if ch == "\ufe0f" and last == 1:
            columns, last = columns + 1, 2
        elif not joined and not _zero_width(ch):
            last = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            columns += last
        joined = ch == "\u200d"
    return columns


TERM_SEPARATOR = " + "
MIN_ROOM = 16  # columns a right-hand side keeps however long its left-hand side: one product "(+0,461)(+1,391)"


def _wrapped(rhs: str, room: int) -> list[str]:
    """`rhs` cut at its " + " into pieces of at most `room` columns (a piece longer than that stays whole); the
    pieces after the first start with "+ ", so that each line reads as the continuation of a sum. Text without a
    sum (a note, a vector) is cut at its spaces instead."""
    if width(rhs) <= room:
        return [rhs]
    separator, lead = (TERM_SEPARATOR, "+ ") if TERM_SEPARATOR in rhs else (" ", "")
    pieces, current = [], ""
    for term in rhs.split(separator):
        candidate = term if not current else current + separator + term
        if current and width(candidate) > room:
            pieces.append(current)
            current = lead + term
        else:
            current = candidate
    return [*pieces, current]


def block(rows: Sequence[Row | None], max_width: int | None = None) -> str:
    """The rows as lines, every relation sign in the column after the widest left-hand side; a line longer than
    `max_width` columns continues on the next line at its right-hand side's column."""
    lhs_width = max((width(row.lhs) for row in rows if row is not None), default=0)
    room = None if max_width is None else max(max_width - lhs_width - 3, MIN_ROOM)
    lines = []
    for row in rows:
        if row is None:
            lines.append("")
            continue
        padding = " " * (lhs_width - width(row.lhs))
        relation = row.relation or " "
        pieces = [row.rhs] if room is None else _wrapped(row.rhs, room)
        lines.append(f"{row.lhs}{padding} {relation} {pieces[0]}".rstrip())
        lines.extend(" " * (lhs_width + 3) + piece for piece in pieces[1:])
    return "\n".join(lines)


# Columns of monospace text that fit the page without scrolling sideways: at 20 px on a 1280×720 projector with
# the sidebar open (presentation), and at the normal size on a 1400 px wide screen.
LINE_COLUMNS = {True: 72, False: 110}


def show(rows: Sequence[Row | None], max_columns: int | None = None) -> None:
    """The rows as a text block, its lines cut at the page's width (or at `max_columns`, for a narrower column)."""
    st.code(block(rows, max_columns or LINE_COLUMNS[state.presentation_mode()]), language=None)


def sub(symbol: str, token: object) -> str:
    """Q_perro, x_el: a symbol and the token it belongs to, as the lesson writes them."""
    return f"{symbol}_{token_text(token)}"


def vector_text(values: npt.ArrayLike, sign: bool = True) -> str:
    """[v0; v1; ...]: values that are exact at three decimals (typed entries, x_perro = [+0,50; +1,15; +0,78; +0,88],
    whole numbers, products of them up to float noise) with one precision and no trailing zeros; others to three
    decimals."""
    flat = [float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1)]
    if not all(exact_at(v) for v in flat):
        return vector(flat, sign=sign)
    return bracketed(one_precision([written(v) for v in flat], sign=sign))


def vector_row(lhs: str, values: npt.ArrayLike, sign: bool = True) -> Row:
    """A row `lhs = [v0; v1; ...]` (see `vector_text`)."""
    return Row(lhs, "=", vector_text(values, sign))


def decimals_of(value: Decimal) -> int:
    """The decimals a written number needs: 0.5 one, 0.150 two (it is 0.15), 3 none."""
    if value == value.to_integral_value():
        return 0
    return max(0, -int(value.normalize().as_tuple().exponent))


def one_precision(values: Sequence[Decimal], sign: bool = True) -> list[str]:
    """Numbers that share a line, all written with one precision: as many decimals as the longest of them needs
    ((+0,807)(−0,150), not (+0,807)(−0,15)); a whole number without decimals (÷ 2, (+10))."""
    return at_places(values, max((decimals_of(v) for v in values), default=0), sign)


def at_places(values: Sequence[Decimal], places: int, sign: bool = True) -> list[str]:
    """Each value with `places` decimals; a whole number without any, and 0 as 0."""
    return [
        "0" if v == 0 else short(v, 0, sign=sign) if decimals_of(v) == 0 else fixed(v, places, sign=sign)
        for v in values
    ]


def exact_note(value: float, decimals: int = 3, sign: bool = True) -> Row:
    """A note under the rows with the full-precision value."""
    return Row("", "", t("derivation.exact", value=fixed(value, decimals, sign=sign)))


def dot_rows(lhs: str, d: DotDerivation) -> list[Row]:
    """Lhs = (a0)(b0) + (a1)(b1) + …, then each product, then their sum, then the sum rounded."""
    factors = one_precision([*d.a, *d.b])
    pairs = zip(factors[: len(d.a)], factors[len(d.a) :], strict=True)
    rows = [Row(lhs, "=", " + ".join(f"({a})({b})" for a, b in pairs))]
    if len(d.products) > 1:
        products = " + ".join(f"({p})" for p in product_texts(d))
        rows.append(Row("", "=" if d.products_exact else "≈", products))
        rows.append(Row("", "=", short(d.total, 4, sign=True)))  # exact: no trailing zeros (≈ rounded below)
    else:
        rows.append(Row("", "=" if d.products_exact else "≈", short(d.total, 4, sign=True)))
    if d.total != d.result:
        rows.append(Row("", "≈", signed(d.result)))
    if not d.agrees:
        rows.append(exact_note(d.exact))
    if d.hidden:
        rows.append(Row("", "", t("derivation.hidden", value=fixed(d.exact, 6, sign=True))))
    return rows


def product_texts(d: DotDerivation) -> list[str]:
    """The products of a dot product, one precision: a product of written operands that rounds to 0 keeps its sign
    and the digits it was rounded to ((−0,0000), never (+0)); an exact 0 is 0."""
    lost = [p == 0 and a * b != 0 for p, a, b in zip(d.products, d.a, d.b, strict=True)]
    places = TERM if any(lost) else max((decimals_of(p) for p in d.products), default=0)
    texts = at_places(d.products, places)
    for k, (a, b) in enumerate(zip(d.a, d.b, strict=True)):
        if lost[k]:
            texts[k] = ("−" if a * b < 0 else "+") + fixed(0, places)
    return texts


def division_row(lhs: str, d: Division) -> list[Row]:
    """Lhs = numerator ÷ divisor = result (≈ when the quotient was rounded)."""
    relation = "=" if d.result_exact else "≈"
    numerator, divisor, result = one_precision([d.numerator, d.divisor, d.result])
    rows = [Row(lhs, "=", f"{numerator} ÷ {divisor.lstrip('+')} {relation} {result}")]
    if not d.agrees:
        rows.append(exact_note(d.exact))
    return rows


def softmax_rows(d: SoftmaxDerivation, labels: Sequence[str]) -> list[Row | None]:
    """(÷ T,) (− max,) e^x of each written score, their total, each share, and the check that they add up to 1."""
    names = [f"← {token_text(label)}" for label in labels]
    rows: list[Row | None] = []
    arguments = d.scores
    if d.tempered is not None:
        for score, tempered, exact, name in zip(d.scores, d.tempered, d.tempered_exact, names, strict=True):
            relation = "=" if exact else "≈"
            score_text, temperature, tempered_text = one_precision([score, d.temperature, tempered])
            rows.append(Row(f"{score_text} ÷ {temperature.lstrip('+')}", relation, f"{tempered_text}  {name}"))
        rows.append(BLANK)
        arguments = d.tempered
    if d.shift is not None:
        for argument, exponent in zip(arguments, d.exponents, strict=True):
            argument_text, shift, exponent_text = one_precision([argument, d.shift, exponent])
            rows.append(Row(f"{argument_text} − ({shift})", "=", exponent_text))
        rows.append(BLANK)
    # the exponents are one column (the scores as written, one precision), the e^x another, and their total
    exponents = one_precision(d.exponents)
    *written_exps, total = one_precision([*d.exps, d.total], sign=False)
    column = max(len(e) for e in written_exps)
    for exponent, text, e, name in zip(d.exponents, exponents, written_exps, names, strict=True):
        relation = "=" if exponent == 0 else "≈"
        rows.append(Row(f"e^({text})", relation, f"{e.ljust(column)}  {name}"))
    rows.append(Row("Σ", "=", " + ".join(written_exps) + f" = {total}"))
    rows.append(BLANK)
    for e, w, name in zip(written_exps, d.weights, names, strict=True):
        rows.append(Row(f"{e} / {total}", "≈", f"{fixed(w)}  {name}"))
    rows.append(Row("Σ", "=", " + ".join(fixed(w) for w in d.weights) + f" = {fixed(d.weights_sum)}"))
    if d.weights_sum != 1:
        rows.append(Row("", "", t("derivation.rounded_sum")))
    if not d.agrees:
        rows.append(Row("", "", t("derivation.exact_weights", values=vector(d.exact, sign=False))))
    return rows


# --- one weight end to end: the score, ÷ the divisor, the row's softmax ---


@dataclass(frozen=True)
class CellRows:
    """One weight's derivation as text rows (for `show`): its score, the score divided, the row's softmax."""

    score: list[Row]  # score(q → k) = q · k, term by term
    division: list[Row]  # score'(q → k) = score ÷ divisor; empty when the scores are not divided or it is masked
    softmax: list[Row | None]  # the row's softmax over the tokens it may look at; empty when it is masked


def cell_rows(cell: CellDerivation, tokens: Sequence[str]) -> CellRows:
    """The rows of `cell`, its tokens named by `tokens` (one per row and column of the attention)."""
    pair = f"{token_text(tokens[cell.i])} → {token_text(tokens[cell.j])}"
    return CellRows(
        score=dot_rows(f"score({pair})", cell.dot),
        division=[] if cell.division is None else division_row(f"score'({pair})", cell.division),
        softmax=[] if cell.softmax is None else softmax_rows(cell.softmax, [tokens[c] for c in cell.columns]),
    )


@dataclass(frozen=True)
class CellTexts:
    """What a page says around a cell's derivation, in the reader's language (markdown)."""

    masked: str  # why the weight is 0 (said instead of the softmax)
    row: str  # the line above the row's softmax
    weight: str  # the weight, said at the end


def cell_derivation_ui(
    cell: CellDerivation, tokens: Sequence[str], texts: CellTexts, lead: Sequence[Row | None] = ()
) -> None:
    """A weight end to end: `lead` (the vectors, say) and the score with its division in one block, then the
    masked warning, or the row's softmax and the weight."""
    rows = cell_rows(cell, tokens)
    show([*lead, *rows.score, *([BLANK, *rows.division] if rows.division else [])])
    if cell.masked:
        st.warning(texts.masked)
        return
    st.markdown(texts.row)
    show(rows.softmax)
    st.success(texts.weight)
