"""The lesson's example computed here, independently of the engine: plain numpy from the lesson's inputs
(x and the three weight matrices, transcribed from the lesson's text), and numbers written as the lesson's
readers read them. Tests compare what the app shows with these."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np

TOKENS = ("el", "perro", "come")
X = np.array([[0.21, 0.45, 0.08, 1.43], [0.50, 1.15, 0.78, 0.88], [1.36, -0.64, -0.28, 1.91]])
W_Q = np.array([[0.3, -0.1, 0.4, 0.2], [0.1, 0.5, -0.2, 0.3], [-0.2, 0.1, 0.6, -0.1], [0.4, 0.2, 0.1, 0.5]])
W_K = np.array([[0.2, 0.4, -0.1, 0.3], [-0.3, 0.2, 0.5, 0.1], [0.1, -0.2, 0.3, 0.4], [0.5, 0.1, 0.2, -0.2]])
W_V = np.array([[0.4, 0.1, 0.3, -0.2], [0.2, 0.3, -0.1, 0.4], [-0.1, 0.5, 0.2, 0.1], [0.3, -0.2, 0.4, 0.5]])
EL, PERRO, COME = 0, 1, 2


def softmax_rows(scores: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Row-wise softmax written out: e^(s / T) over the row's total, with -inf as a masked cell."""
    out = np.zeros_like(scores)
    for i, row in enumerate(scores):
        exps = [0.0 if np.isneginf(s) else np.exp((s - np.max(row)) / temperature) for s in row]
        out[i] = np.array(exps) / sum(exps)
    return out


def attention(divisor: float = 2.0, temperature: float = 1.0, causal: bool = False) -> dict[str, np.ndarray]:
    """q, k, v, scores, scaled scores, weights and output of the lesson's example."""
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    scores = q @ k.T
    scaled = scores / divisor
    if causal:
        scaled = np.where(np.tril(np.ones_like(scaled)) > 0, scaled, -np.inf)
    weights = softmax_rows(scaled, temperature)
    return {"q": q, "k": k, "v": v, "scores": scores, "scaled": scaled, "weights": weights, "output": weights @ v}


def written(text: str, lang: str) -> str:
    """Numbers written in English ("+0.461", "[+0.461, −0.150]") as `lang` writes them: Spanish has a decimal
    comma and separates a vector's entries with semicolons ("+0,461", "[+0,461; −0,150]")."""
    return text.replace(", ", "; ").replace(".", ",") if lang == "es" else text


def number(value: float, decimals: int = 3, sign: bool = False, lang: str = "en") -> str:
    """`value` with `decimals` decimals, a true minus sign (and + when `sign`), in `lang`'s notation. Rounded as
    a person rounds the number they read: its shortest decimal form, half up (the lesson's inputs have two
    decimals, so a score such as 0.90465 is exactly that, and is 0.9047 to four decimals)."""
    rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if rounded == 0:
        rounded = abs(rounded)
    text = f"{rounded:+f}" if sign else f"{rounded:f}"
    return written(text.replace("-", "−"), lang)


def vector(values, decimals: int = 3, sign: bool = True, lang: str = "en") -> str:
    return written("[" + ", ".join(number(v, decimals, sign) for v in values) + "]", lang)
