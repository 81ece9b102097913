"""Where the live class's store comes from: the one function the UI calls, `store()`.

`classroom.store(redis_url)`: in-process (classroom/memory.py) by default, Redis when REDIS_URL is set in the
environment or in Streamlit's secrets. There is no other store: a Redis that cannot be used says so
(ClassError("store_unavailable")), it is never replaced by a stand-in.
"""

from __future__ import annotations

import os
from functools import cache

import classroom
from classroom.api import ClassStore

REDIS_VARIABLE = "REDIS_URL"


def redis_url() -> str | None:
    """REDIS_URL from the environment, else from Streamlit's secrets, else None (the in-process store)."""
    return os.environ.get(REDIS_VARIABLE) or secret_redis_url()


@cache
def secret_redis_url() -> str | None:
    """REDIS_URL in Streamlit's secrets, read once per process (every page run asks for the store; the secrets
    file is read when the server starts, and a change to it takes a restart, as the store it picks does)."""
    try:
        import streamlit as st

        value = st.secrets.get(REDIS_VARIABLE)
    except Exception:  # no secrets file is the usual case, and Streamlit says so with an exception
        return None
    return str(value) if value else None


def store() -> ClassStore:
    """The server's class store."""
    return classroom.store(redis_url())
