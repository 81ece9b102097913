"""One word for a softmax row, read off its numbers: the lesson's saturated / balanced / flat."""

from __future__ import annotations

import numpy as np

SATURATED_MAX_WEIGHT = 0.9  # one token takes more than 90% of the attention
FLAT_ENTROPY_SHARE = 0.95  # entropy above 95% of ln n: nearly the same weight for everyone
VERDICTS: tuple[str, ...] = ("saturated", "balanced", "flat")


def peakedness_verdict(max_weight, entropy, uniform_entropy: float) -> np.ndarray:
    """ "saturated" when the largest weight > 0.9, "flat" when entropy > 0.95 · ln n, else "balanced"."""
    max_weight = np.asarray(max_weight, dtype=np.float64)
    entropy = np.asarray(entropy, dtype=np.float64)
    return np.where(
        max_weight > SATURATED_MAX_WEIGHT,
        "saturated",
        np.where(entropy > FLAT_ENTROPY_SHARE * uniform_entropy, "flat", "balanced"),
    )
