"""One word for a softmax row, read off its numbers: the lesson's saturated / balanced / flat.

The rule is one for every table that shows a verdict (the experiment's averages and a single row), and it is
set so that the lesson's table comes out of the numbers: scores of ±8 (q·k at d_k = 64, not divided) saturate,
÷√d_k stays balanced at any d_k, ÷d_k flattens.

Two graded measures carry the verdict, each with a plain meaning:
- the largest weight: the share of the attention the favourite token takes;
- the effective number of tokens, e^entropy: n when every token gets the same weight, 1 when one takes it all
  (a row spread evenly over m tokens, the rest at 0, has exactly m).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

SATURATED_MAX_WEIGHT = 0.8  # one token takes more than 80% of the attention: "almost everything to one token"
FLAT_EFFECTIVE_SHARE = 0.85  # more than 85% of n effective tokens: "almost the same weight for everyone"
VERDICTS: tuple[str, ...] = ("saturated", "balanced", "flat")
EVEN_FACTOR = 1.2  # a row reads "almost even" when no share exceeds 1.2 × the even share 1/n (the lesson's perro row)


def row_reading(weights: npt.ArrayLike) -> str:
    """How one row of weights reads: "peaked" when one share is above SATURATED_MAX_WEIGHT, "even" when none exceeds
    EVEN_FACTOR × 1/n (n: the row's length), else "mixed"."""
    weights = np.asarray(weights, dtype=np.float64)  # (n,)
    if weights.max() > SATURATED_MAX_WEIGHT:
        return "peaked"
    return "even" if weights.max() <= EVEN_FACTOR / weights.size else "mixed"


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
