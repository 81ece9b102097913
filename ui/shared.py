"""Values shared by every session of the server, each made once however many sessions ask for it at the same moment.

A live class's followers all draw the same thing at the same moment: when the lecturer steps, every phone's page
runs the new part at once, on the same scenario. Without sharing, each session made its own copy of what is the
same for all (a figure, a table's text); with a plain cache, all of them still missed it together and made it side
by side. `SharedCache.get` makes a value once: the first session to ask makes it (outside the cache's lock), the
others wait for it. What is kept must never be modified by its users (figures, text, frozen data).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import numpy as np

T = TypeVar("T")


def freeze(value: object) -> Hashable:
    """A hashable stand-in for a value made of arrays, lists, tuples, dicts, dataclass instances (by their fields) and
    hashable leaves, so that equal inputs share one entry."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(freeze(getattr(value, field.name)) for field in dataclasses.fields(value)))
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


class SharedCache(Generic[T]):
    """The last `size` values by their key, each made once (least recently used forgotten first)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.values: OrderedDict[Hashable, T] = OrderedDict()
        self.lock = threading.Lock()
        self.building: dict[Hashable, threading.Event] = {}  # keys being made now → set when that making ends

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept under `key`, made with `make()` the first time (outside the lock); a session asking while
        another makes it waits for that one (and makes it itself only if that one failed, whose session gets the
        error)."""
        while True:
            with self.lock:
                if key in self.values:
                    self.values.move_to_end(key)
                    return self.values[key]
                ended = self.building.get(key)
                if ended is None:
                    ended = self.building[key] = threading.Event()
                    break
            ended.wait()  # another session is making the same value: then read it from the cache
        try:
            value = make()
            with self.lock:
                self.values[key] = value
                while len(self.values) > self.size:
                    self.values.popitem(last=False)
        finally:
            with self.lock:
                del self.building[key]
            ended.set()
        return value
