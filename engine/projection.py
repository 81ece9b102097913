"""What attention did to each token: whom it looked at most, and how far its vector moved."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.attention import as_matrix
from engine.errors import EngineInputError


@dataclass(frozen=True)
class TopAttended:
    """For each query token, the tokens it gives the most weight to, heaviest first."""

    indices: np.ndarray  # (n, k) column j of the weights, -1 where fewer than k tokens were allowed
    weights: np.ndarray  # (n, k) the weight given to that token, NaN where the index is -1


def top_attended(weights: np.ndarray, k: int = 2, allowed: np.ndarray | None = None) -> TopAttended:
    """The k largest weights of each row; ties go to the earlier token, masked-out tokens never count."""
    w = np.asarray(weights, dtype=np.float64)  # (n, n)
    n = w.shape[1]
    allowed = np.ones(w.shape, dtype=bool) if allowed is None else np.asarray(allowed, dtype=bool)
    k = min(k, n)
    ranked = np.where(allowed, w, -np.inf)  # (n, n) masked cells sort last
    order = np.argsort(-ranked, axis=1, kind="stable")[:, :k]  # (n, k)
    kept = np.take_along_axis(allowed, order, axis=1)  # (n, k)
    return TopAttended(
        indices=np.where(kept, order, -1),
        weights=np.where(kept, np.take_along_axis(w, order, axis=1), np.nan),
    )


@dataclass(frozen=True)
class Movement:
    """Each x and its attention output drawn in one shared 2-D plane, and the full-size distance between them."""

    x_2d: np.ndarray  # (n, 2) x projected on the two principal axes of x and output together
    output_2d: np.ndarray  # (n, 2) output projected on the same axes
    explained: np.ndarray  # (2,) share of the total variance each axis shows (0 when there is none)
    distance: np.ndarray  # (n,) ||output_i - x_i||, measured in all dimensions, not in the picture


def movement(x: npt.ArrayLike, output: npt.ArrayLike) -> Movement:
    """PCA of the 2n points x_1..x_n, output_1..output_n, so arrows x_i → output_i share one picture.

    x and output must be finite matrices of one shape (EngineInputError "not_matrix", "not_finite",
    "movement_shapes" otherwise)."""
    x = as_matrix(x, "x")  # (n, d)
    output = as_matrix(output, "output")  # (n, d)
    if x.shape != output.shape:
        raise EngineInputError(
            "movement_shapes",
            f"x and output must be matrices of one shape, got {x.shape} and {output.shape}",
            x_shape=x.shape,
            output_shape=output.shape,
        )
    n, d = x.shape
    # PCA is the same at any scale: working in units of the largest entry keeps every square below float64's limit.
    unit = float(max(np.abs(x).max(), np.abs(output).max())) or 1.0
    x_u, output_u = x / unit, output / unit  # (n, d) each, entries in [-1, 1]
    points = np.concatenate([x_u, output_u])  # (2n, d)
    centred = points - points.mean(axis=0)  # (2n, d)
    _, singular, vt = np.linalg.svd(centred, full_matrices=False)  # vt: (min(2n, d), d)
    axes = np.zeros((2, d))  # (2, d) fewer than two directions exist when d == 1
    axes[: min(2, vt.shape[0])] = vt[:2]
    # An SVD axis may come out as v or -v; pointing its largest loading positive makes the picture reproducible.
    largest = np.argmax(np.abs(axes), axis=1)  # (2,)
    axes *= np.where(axes[np.arange(2), largest] < 0, -1.0, 1.0)[:, None]
    variance = singular**2
    total = variance.sum()
    explained = np.zeros(2)
    explained[: min(2, variance.size)] = variance[:2] / total if total > 0 else 0.0
    with np.errstate(over="ignore"):
        coords = (centred @ axes.T) * unit  # (2n, 2)
        distance = np.linalg.norm(output_u - x_u, axis=1) * unit  # (n,)
    if not (np.isfinite(coords).all() and np.isfinite(distance).all()):
        raise EngineInputError("overflow", "the distances between x and output are beyond float64", name="output")
    return Movement(
        x_2d=coords[:n],
        output_2d=coords[n:],
        explained=explained,
        distance=distance,
    )
