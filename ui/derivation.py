"""Derivations as aligned text: the engine's per-term arithmetic written the way the lesson writes it.

A derivation is a block of rows "lhs = rhs", the "=" (or "≈") of every row in one column, the rows of one dot
product continuing under each other:

    score(perro → come) = (+0.461)(+1.391) + (+0.779)(+0.663) + (+0.526)(-0.158) + (+0.807)(-0.15)
                        = (+0.641) + (+0.516) + (-0.083) + (-0.121)
                        = +0.954

It is shown as monospace text (`st.code`), not LaTeX: the factors of consecutive rows line up, it can be
copied, a token's name shows exactly as typed (`st.code` interprets nothing), and a browser draws it for a
fraction of what KaTeX costs (a walkthrough step redrew about 45 ms sooner; README, Speed). The symbolic
formulas (Q = x · W_Q, the softmax definition) stay LaTeX.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

import streamlit as st

from engine import DotTerms, SoftmaxSteps
from ui.format import general, plain, signed, vector


class Row(NamedTuple):
    lhs: str  # "" continues the row above
    relation: str  # "=", "≈"
    rhs: str


BLANK = None  # an empty line between two groups of rows


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ISOLATE, _END_ISOLATE = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate


def token_text(token: object) -> str:
    """A token name for a text block, shown as typed and unable to disturb the line around it: control
    characters (a line break would break the alignment) and bidirectional overrides (one would reverse the
    numbers after it) become the replacement character, and a name with right-to-left letters is a directional
    isolate, so a Hebrew or Arabic name reads right to left without pulling the "=" and the numbers after it
    into its run (other names stay free of the invisible marks, for whoever copies the text)."""
    text = "".join("\ufffd" if unicodedata.category(ch) == "Cc" or ch in _BIDI_CONTROLS else ch for ch in str(token))
    if any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in text):
        return f"{_ISOLATE}{text}{_END_ISOLATE}"
    return text


def _zero_width(ch: str) -> bool:
    """Combining marks, format characters (zero-width joiner, ...), skin-tone modifiers, Hangul vowel and final
    jamo: they add to the character before them, not a column of their own."""
    code = ord(ch)
    return unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0x1F3FB <= code <= 0x1F3FF or 0x1160 <= code <= 0x11FF


def width(text: str) -> int:
    """Columns `text` takes in a monospace font, approximately: wide (CJK, emoji) characters two; combining
    marks, zero-width characters, skin-tone modifiers and what a zero-width joiner joins none. Only
    approximately: a browser draws CJK and emoji from fallback fonts whose widths are not exactly two columns
    of the code font, so a row with such a name may stand a few pixels off."""
    columns = 0
    last = 0  # columns of the last character counted
    joined = False  # the previous character was a zero-width joiner: this one belongs to its cluster
    for ch in text:
        if ch == "\ufe0f" and last == 1:  # emoji presentation: the character before is drawn wide
            columns, last = columns + 1, 2
        elif not joined and not _zero_width(ch):
            last = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            columns += last
        joined = ch == "\u200d"
    return columns


def block(rows: list[Row | None]) -> str:
    """The rows as lines, every relation sign in the column after the widest left-hand side."""
    lhs_width = max((width(row.lhs) for row in rows if row is not None), default=0)
    lines = []
    for row in rows:
        if row is None:
            lines.append("")
        else:
            padding = " " * (lhs_width - width(row.lhs))
            lines.append(f"{row.lhs}{padding} {row.relation} {row.rhs}")
    return "\n".join(lines)


def show(rows: list[Row | None]) -> None:
    st.code(block(rows), language=None)


def sub(symbol: str, token: object) -> str:
    """Q_perro, x_el: a symbol and the token it belongs to, as the lesson writes them."""
    return f"{symbol}_{token_text(token)}"


def factor(value: float) -> str:
    """A factor in a product, as short as it reads: (+0.5), (-0.2), (+1.15), (+0.461)."""
    text = signed(value, 3)
    if "." in text:
        text = text.rstrip("0")
        text = text + "0" if text.endswith(".") else text
    return text


def vector_row(lhs: str, values) -> Row:
    return Row(lhs, "=", vector(values))


def dot_rows(lhs: str, terms: DotTerms) -> list[Row]:
    """lhs = (a0)(b0) + (a1)(b1) + ..., then = p0 + p1 + ..., then = total."""
    products = " + ".join(f"({factor(a)})({factor(b)})" for a, b in zip(terms.a, terms.b, strict=True))
    partials = " + ".join(f"({signed(p)})" for p in terms.products)
    return [Row(lhs, "=", products), Row("", "=", partials), Row("", "=", signed(terms.total))]


def softmax_rows(steps: SoftmaxSteps, labels: list[str]) -> list[Row | None]:
    """e^x of each score, their total, each share, and the check that the shares add up to 1. When e^x of the
    scores themselves overflows, the scores shifted by their maximum (what makes softmax safe) are used."""
    shifted = steps.overflow
    exps = steps.shifted_exps if shifted else steps.naive_exps
    total = steps.shifted_total if shifted else steps.naive_total
    args = steps.shifted if shifted else steps.tempered
    notes = [f"  ← {token_text(label)}" for label in labels]
    written_exps = [general(e) for e in exps]
    exp_width = max(len(e) for e in written_exps)  # so the arrows to the tokens stand in one column
    rows: list[Row | None] = [
        Row(f"e^({signed(arg)})", "≈", e.ljust(exp_width) + note)
        for arg, e, note in zip(args, written_exps, notes, strict=True)
    ]
    rows.append(Row("Σ", "≈", " + ".join(written_exps) + f" = {general(total)}"))
    rows.append(BLANK)
    rows += [
        Row(f"{e} / {general(total)}", "≈", plain(w) + note)
        for e, w, note in zip(written_exps, steps.weights, notes, strict=True)
    ]
    rows.append(Row("Σ w", "=", " + ".join(plain(w) for w in steps.weights) + f" = {plain(steps.weights_sum)}"))
    return rows
