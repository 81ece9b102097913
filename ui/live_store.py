"""Where the live class's store comes from: the one function the UI calls, `store()`.

`classroom.store(redis_url)` when the classroom package provides it (in-process by default, Redis when REDIS_URL is
set in the environment or in Streamlit's secrets); until then, one in-process stand-in per server (the tests' fake
store: tests/live/fake_store.py). Switching is this module alone.
"""

from __future__ import annotations

import os
import threading
from functools import cache

import classroom
from classroom.api import ClassStore

REDIS_VARIABLE = "REDIS_URL"
_FALLBACK: list[ClassStore] = []
_LOCK = threading.Lock()


def redis_url() -> str | None:
    """REDIS_URL from the environment, else from Streamlit's secrets, else None (the in-process store)."""
    return os.environ.get(REDIS_VARIABLE) or _secret_redis_url()


@cache
def _secret_redis_url() -> str | None:
    """REDIS_URL from Streamlit's secrets, read once per server: without a secrets file (the usual case) Streamlit
    looks for one again at every read, and a live class reads its store several times a run, every follower's
    poll included. A class keeps the store it started on (restarting the server picks up a new secret)."""
    try:
        import streamlit as st

        value = st.secrets.get(REDIS_VARIABLE)
    except Exception:  # no secrets file is the usual case, and Streamlit says so with an exception
        return None
    return str(value) if value else None


def store() -> ClassStore:
    """The server's class store."""
    factory = getattr(classroom, "store", None)
    if factory is not None:
        return factory(redis_url())
    with _LOCK:
        if not _FALLBACK:
            from tests.live.fake_store import FakeStore

            _FALLBACK.append(FakeStore())
        return _FALLBACK[0]
