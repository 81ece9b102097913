"""ui/live_store.py: REDIS_URL from the environment, else from Streamlit's secrets, read once per process."""

from __future__ import annotations

import streamlit as st

from ui import live_store


class CountedSecrets:
    """Streamlit's secrets as far as redis_url reads them, counting the reads."""

    def __init__(self, url: str | None) -> None:
        self.url, self.reads = url, 0

    def get(self, key: str, default: object = None) -> object:
        self.reads += 1
        return self.url if key == live_store.REDIS_VARIABLE else default


def test_the_secret_is_read_once_and_the_environment_comes_first(monkeypatch):
    secrets = CountedSecrets("redis://cache:6379/0")
    monkeypatch.setattr(st, "secrets", secrets)
    monkeypatch.delenv(live_store.REDIS_VARIABLE, raising=False)
    live_store.secret_redis_url.cache_clear()
    assert [live_store.redis_url() for _ in range(5)] == ["redis://cache:6379/0"] * 5
    assert secrets.reads == 1, "every page run asks for the store: the secrets file is not read each time"
    monkeypatch.setenv(live_store.REDIS_VARIABLE, "redis://other:6379/1")
    assert live_store.redis_url() == "redis://other:6379/1"
    live_store.secret_redis_url.cache_clear()
