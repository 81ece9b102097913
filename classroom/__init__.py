"""The live class: the lecturer drives, the class follows and votes. See classroom/api.py.

`store(redis_url)` is the process's one class store: a RedisStore on `redis_url` when one is given (the UI passes
REDIS_URL from the environment or Streamlit's secrets; this package never imports streamlit), else the in-process
MemoryStore. Each is made once per process and shared by every session (one Redis connection pool per URL).
"""

from __future__ import annotations

import threading

from classroom.api import ClassStore
from classroom.memory import MemoryStore

_LOCK = threading.Lock()
_STORES: dict[str | None, ClassStore] = {}


def store(redis_url: str | None = None) -> ClassStore:
    """The process's class store: Redis at `redis_url` when it is given (non-empty), else in-process."""
    key = redis_url.strip() if redis_url and redis_url.strip() else None
    with _LOCK:
        if key not in _STORES:
            if key is None:
                _STORES[key] = MemoryStore()
            else:
                from classroom.redis_store import RedisStore  # the redis package only where Redis is used

                _STORES[key] = RedisStore(key)
        return _STORES[key]
