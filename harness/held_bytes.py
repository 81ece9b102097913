"""What a result's numpy arrays weigh in memory: each buffer once, however many views of it the result holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np


def arrays_in(value: object) -> list[np.ndarray]:
    """Every numpy array inside `value` (frozen dataclasses and tuples of them), views included, as they are."""
    if isinstance(value, np.ndarray):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [a for f in dataclasses.fields(value) for a in arrays_in(getattr(value, f.name))]
    if isinstance(value, tuple):
        return [a for item in value for a in arrays_in(item)]
    return []


def buffer_of(array: np.ndarray) -> np.ndarray:
    """The array that owns `array`'s memory (itself, or the array its view chain starts from)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def held_bytes(value: object, shared: Iterable[np.ndarray] = ()) -> int:
    """Bytes of the distinct buffers `value`'s arrays live in, leaving out those of `shared` (e.g. the model's own
    weights, which a result refers to and does not hold)."""
    buffers = {id(b): b.nbytes for b in map(buffer_of, arrays_in(value))}
    for array in shared:
        buffers.pop(id(buffer_of(array)), None)
    return sum(buffers.values())
