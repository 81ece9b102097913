"""Derivations as LaTeX: the engine's per-term arithmetic written the way the lesson writes it."""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine import DotTerms, SoftmaxSteps
from ui.format import general, plain, signed

_TEX_ESCAPES = {
    "\\": r"\backslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\^{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\~{}",
}


def tex_text(text: str) -> str:
    """User text inside LaTeX as literal text: every special character escaped, wrapped in \\text{}."""
    return r"\text{" + "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text)) + "}"


def factor(value: float) -> str:
    """A factor in a product, as short as it reads: (+0.5), (-0.2), (+1.15), (+0.461)."""
    text = signed(value, 3)
    if "." in text:
        text = text.rstrip("0")
        text = text + "0" if text.endswith(".") else text
    return text


def dot_latex(lhs: str, terms: DotTerms) -> str:
    """lhs = (a0)(b0) + (a1)(b1) + ... = p0 + p1 + ... = total, over three aligned lines."""
    products = " + ".join(f"({factor(a)})({factor(b)})" for a, b in zip(terms.a, terms.b, strict=True))
    partials = " + ".join(f"({signed(p)})" for p in terms.products)
    return (
        r"\begin{aligned}"
        + lhs
        + r" &= "
        + products
        + r" \\ &= "
        + partials
        + r" \\ &= "
        + signed(terms.total)
        + r"\end{aligned}"
    )


def dot_ui(lhs: str, terms: DotTerms) -> None:
    st.latex(dot_latex(lhs, terms))


def stacked_latex(blocks: list[str]) -> str:
    """Several formulas one under the other, as one LaTeX element (one element typesets and redraws faster
    than several)."""
    return r"\begin{gathered}" + r" \\[0.8em] ".join(blocks) + r"\end{gathered}"


def softmax_latex(steps: SoftmaxSteps, labels: list[str]) -> str:
    """e^x of each score, their total, each share, and the check that the shares add up to 1."""
    use_shift = steps.overflow
    exps = steps.shifted_exps if use_shift else steps.naive_exps
    total = steps.shifted_total if use_shift else steps.naive_total
    args = steps.shifted if use_shift else steps.tempered
    lines = []
    for label, arg, e in zip(labels, args, exps, strict=True):
        lines.append(rf"e^{{{signed(arg)}}} &\approx {general(e)} && ({tex_text(label)})")
    lines.append(r"\textstyle\sum &\approx " + " + ".join(general(e) for e in exps) + rf" = {general(total)}")
    for label, e, w in zip(labels, exps, steps.weights, strict=True):
        lines.append(rf"{general(e)} / {general(total)} &\approx {plain(w)} && ({tex_text(label)})")
    lines.append(
        r"\textstyle\sum w &= " + " + ".join(plain(w) for w in steps.weights) + rf" = {plain(steps.weights_sum)}"
    )
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


def softmax_ui(steps: SoftmaxSteps, labels: list[str]) -> None:
    st.latex(softmax_latex(steps, labels))


def vector_latex(lhs: str, values: np.ndarray) -> str:
    return lhs + r" = [" + ", ".join(signed(v) for v in np.asarray(values).reshape(-1)) + "]"
