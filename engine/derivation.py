"""Term-by-term arithmetic of a dot product: what a page prints as "(0.50)(0.3) + (1.15)(0.1) + ..."."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.errors import EngineInputError


@dataclass(frozen=True)
class DotTerms:
    """One dot product a · b, kept as its factors, their products and the sum."""

    a: np.ndarray  # (d,)
    b: np.ndarray  # (d,)
    products: np.ndarray  # (d,) a[i] * b[i]
    total: float  # sum of products


def dot_terms(a, b) -> DotTerms:
    """The per-term products and their sum for one dot product."""
    a = np.asarray(a, dtype=np.float64).reshape(-1)
    b = np.asarray(b, dtype=np.float64).reshape(-1)
    if a.shape != b.shape:
        raise EngineInputError(
            "shape_mismatch",
            f"dot product needs vectors of equal length, got {a.shape[0]} and {b.shape[0]}",
            name="a·b",
            got=a.shape,
            expected=b.shape,
        )
    products = a * b
    return DotTerms(a=a, b=b, products=products, total=float(np.sum(products)))


def projection_terms(x_row, w) -> list[DotTerms]:
    """x_row · W one output dimension at a time: entry j is x_row against column j of W."""
    w = np.asarray(w, dtype=np.float64)
    return [dot_terms(x_row, w[:, j]) for j in range(w.shape[1])]


def weighted_sum_terms(weights_row, v) -> list[DotTerms]:
    """output = Σ_j weights[j] · V[j], one dimension at a time: entry d is weights against column d of V."""
    return projection_terms(weights_row, v)
