"""How alike a set of vectors is: the measure behind "the outputs collapsed to one vector"."""

from __future__ import annotations

import numpy as np

COLLAPSE_COSINE = 0.99  # every pair of vectors at least this aligned reads as "almost the same vector"


def lowest_pairwise_cosine(vectors: np.ndarray) -> float | None:
    """The smallest cosine between two different rows; None with fewer than two rows or a zero row."""
    vectors = np.asarray(vectors, dtype=np.float64)  # (n, d)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)  # (n, 1)
    if vectors.shape[0] < 2 or (norms == 0).any():
        return None
    unit = vectors / norms  # (n, d)
    cosines = unit @ unit.T  # (n, n)
    return float(cosines[~np.eye(len(cosines), dtype=bool)].min())
