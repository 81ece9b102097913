"""One word for how peaked softmax weights are, read off their numbers: the lesson's saturated / balanced / flat.

The rule is one for every page that names how a row, a head or a set of rows spreads its attention (the √d_k
experiment's averages, a single row of the walkthrough or the softmax page, a head of the multi-head page, the
learning page's stall), and it is set so that the lesson's table comes out of the numbers: scores of ±8 (q·k at
d_k = 64, not divided) saturate, ÷√d_k stays balanced at any d_k, ÷d_k flattens.

Two graded measures carry the verdict, each with a plain meaning:
- the largest weight: the share of the attention the favourite token takes;
- the effective number of tokens, e^entropy: n when every token gets the same weight, 1 when one takes it all
  (a row spread evenly over m tokens, the rest at 0, has exactly m).
For several rows, the largest weight is averaged and so is the entropy (the effective count is e^(mean entropy)),
as the √d_k experiment averages its rows: the same mean largest weight and effective count get the same word on
every page. A row left one token by a causal mask gives it all its weight by force: it is no choice, and is not
counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SATURATED_MAX_WEIGHT = 0.8  # one token takes more than 80% of the attention: "almost everything to one token"
FLAT_EFFECTIVE_SHARE = 0.85  # more than 85% of n effective tokens: "almost the same weight for everyone"
VERDICTS: tuple[str, ...] = ("saturated", "balanced", "flat")


def effective_tokens(entropy: npt.ArrayLike) -> np.ndarray:
    """e^entropy (entropy in nats): how many tokens an evenly spread row with this entropy would cover."""
    return np.exp(np.asarray(entropy, dtype=np.float64))


def peakedness_verdict(max_weight: npt.ArrayLike, entropy: npt.ArrayLike, uniform_entropy: float) -> np.ndarray:
    """The verdict per row: "saturated" when the largest weight > 0.8, "flat" when e^entropy > 0.85 · n
    (n = e^uniform_entropy, the number of tokens), else "balanced"."""
    max_weight = np.asarray(max_weight, dtype=np.float64)
    n = float(np.exp(uniform_entropy))
    return np.where(
        max_weight > SATURATED_MAX_WEIGHT,
        "saturated",
        np.where(effective_tokens(entropy) > FLAT_EFFECTIVE_SHARE * n, "flat", "balanced"),
    )


@dataclass(frozen=True)
class Peakedness:
    """How peaked a set of softmax rows is, by the one rule: the measures, averaged over the rows with a choice."""

    max_weight: float  # the mean largest weight
    effective: float  # e^(mean entropy): the effective number of tokens
    tokens: float  # e^(mean ln of the tokens each row may look at): n without a mask
    rows: int  # the rows counted: those that may look at two tokens or more
    verdict: str  # one of VERDICTS


def _entropy(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy in nats of each row (0 · ln 0 taken as 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(weights > 0, weights * np.log(np.where(weights > 0, weights, 1.0)), 0.0)
    return -terms.sum(axis=-1)


def peakedness(weights: npt.ArrayLike, allowed: npt.ArrayLike | None = None) -> Peakedness | None:
    """The verdict of a set of rows (a matrix of weights, or one row): the mean largest weight and e^(mean
    entropy) against the tokens each row may look at (`allowed`, the mask's cells; all by default). Rows left one
    token or none are not counted; None when no row is left."""
    w = np.atleast_2d(np.asarray(weights, dtype=np.float64))  # (m, n)
    may = np.ones(w.shape, dtype=bool) if allowed is None else np.atleast_2d(np.asarray(allowed, dtype=bool))
    choosing = may.sum(axis=1) > 1  # (m,)
    if not choosing.any():
        return None
    kept = np.where(may, w, 0.0)[choosing]  # (r, n)
    max_weight = float(kept.max(axis=1).mean())
    entropy = float(_entropy(kept).mean())
    uniform = float(np.log(may[choosing].sum(axis=1)).mean())
    verdict = str(peakedness_verdict(max_weight, entropy, uniform))
    return Peakedness(max_weight, float(np.exp(entropy)), float(np.exp(uniform)), int(choosing.sum()), verdict)


def row_reading(weights: npt.ArrayLike) -> str:
    """The verdict of one row of weights, every token allowed: "saturated", "balanced" or "flat"."""
    reading = peakedness(weights)
    return "saturated" if reading is None else reading.verdict  # one token: it takes everything
