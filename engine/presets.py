"""The lesson's worked example ("el perro come", d_model = 4) and seeded random weights."""

from __future__ import annotations

import numpy as np

LESSON_SENTENCE = "el perro come"
LESSON_TOKENS: tuple[str, ...] = ("el", "perro", "come")

# x = embedding + positional encoding, as the lesson's step 3 leaves them.  (3, 4)
LESSON_X = np.array(
    [
        [0.21, 0.45, 0.08, 1.43],  # el     (position 0)
        [0.50, 1.15, 0.78, 0.88],  # perro  (position 1)
        [1.36, -0.64, -0.28, 1.91],  # come   (position 2)
    ]
)

# The lesson's made-up weights; each is (d_model, d_k) = (4, 4) and x · W gives Q, K or V.
LESSON_W_Q = np.array(
    [
        [0.3, -0.1, 0.4, 0.2],
        [0.1, 0.5, -0.2, 0.3],
        [-0.2, 0.1, 0.6, -0.1],
        [0.4, 0.2, 0.1, 0.5],
    ]
)
LESSON_W_K = np.array(
    [
        [0.2, 0.4, -0.1, 0.3],
        [-0.3, 0.2, 0.5, 0.1],
        [0.1, -0.2, 0.3, 0.4],
        [0.5, 0.1, 0.2, -0.2],
    ]
)
LESSON_W_V = np.array(
    [
        [0.4, 0.1, 0.3, -0.2],
        [0.2, 0.3, -0.1, 0.4],
        [-0.1, 0.5, 0.2, 0.1],
        [0.3, -0.2, 0.4, 0.5],
    ]
)
LESSON_D_MODEL = 4


def random_weights(d_model: int, d_k: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V of shape (d_model, d_k), N(0, 1/d_model) entries rounded to 2 decimals for reading."""
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(d_model)
    w_q, w_k, w_v = (np.round(rng.normal(0.0, scale, size=(d_model, d_k)), 2) for _ in range(3))
    return w_q, w_k, w_v


def random_inputs(n_tokens: int, d_model: int, seed: int) -> np.ndarray:
    """(n_tokens, d_model) inputs with N(0, 1) entries rounded to 2 decimals, reproducible from the seed."""
    rng = np.random.default_rng(seed)
    return np.round(rng.normal(0.0, 1.0, size=(n_tokens, d_model)), 2)
