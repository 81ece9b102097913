"""How alike a set of vectors is: the measure behind "the outputs collapsed to one vector"."""

from __future__ import annotations

from dataclasses import dataclass

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


def row_cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """cos(a_i, b_i) for each row i of two matrices of one shape; NaN where either row is all zeros.  (n,)"""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)  # (n, d) each
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)  # (n,)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.clip((a * b).sum(axis=1) / np.where(norms > 0, norms, np.nan), -1.0, 1.0)


@dataclass(frozen=True)
class ResidualRows:
    """Row by row, what x + out resembles: each row's two lengths and its cosine to each part of the sum.

    For a sum r = x + o, cos(r, x) − cos(r, o) = (‖x‖ − ‖o‖)(1 − cos(x, o)) / ‖r‖: the sum points more toward
    the longer of its two parts (equally when they point the same way), so the lengths say which it resembles.
    """

    x_norm: np.ndarray  # (n,) ‖x_i‖
    output_norm: np.ndarray  # (n,) ‖out_i‖
    to_x: np.ndarray  # (n,) cos(x_i + out_i, x_i)
    to_output: np.ndarray  # (n,) cos(x_i + out_i, out_i)

    @property
    def closer_to_x(self) -> np.ndarray:
        """(n,) bool: the row's sum resembles x more than the output (a tie, or a zero row, is not closer)."""
        return self.to_x > self.to_output

    @property
    def closer_to_output(self) -> np.ndarray:
        """(n,) bool: the row's sum resembles the output more than x."""
        return self.to_output > self.to_x


def residual_rows(x: np.ndarray, output: np.ndarray) -> ResidualRows:
    """What each row of x + output resembles, measured: ‖x_i‖, ‖out_i‖ and the sum's cosine to each."""
    x, output = np.asarray(x, dtype=np.float64), np.asarray(output, dtype=np.float64)  # (n, d) each
    residual = x + output  # (n, d)
    return ResidualRows(
        x_norm=np.linalg.norm(x, axis=1),
        output_norm=np.linalg.norm(output, axis=1),
        to_x=row_cosines(residual, x),
        to_output=row_cosines(residual, output),
    )
