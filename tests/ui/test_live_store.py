"""Where the live class's store comes from (ui.live_store): REDIS_URL from the environment on every read, from
Streamlit's secrets read once per server (without a secrets file Streamlit would look for one at every read)."""

from __future__ import annotations

import pytest
import streamlit as st

from ui import live_store


class Secrets:
    """Streamlit's secrets as the app reads them, counting the reads."""

    def __init__(self, values: dict | None) -> None:
        self.values = values
        self.reads = 0

    def get(self, key: str, default: object = None) -> object:
        self.reads += 1
        if self.values is None:
            raise FileNotFoundError("no secrets.toml")
        return self.values.get(key, default)


@pytest.fixture
def secrets(monkeypatch):
    def install(values: dict | None) -> Secrets:
        live_store.secret_redis_url.cache_clear()
        fake = Secrets(values)
        monkeypatch.setattr(st, "secrets", fake)
        return fake

    monkeypatch.delenv(live_store.REDIS_VARIABLE, raising=False)
    yield install
    live_store.secret_redis_url.cache_clear()


def test_the_secret_is_read_once_and_gives_what_streamlit_has(secrets):
    fake = secrets({"REDIS_URL": "redis://secret:6379/0"})
    assert [live_store.redis_url() for _ in range(3)] == ["redis://secret:6379/0"] * 3
    assert fake.reads == 1


def test_no_secrets_file_is_asked_for_once_and_means_the_in_process_store(secrets):
    fake = secrets(None)
    assert live_store.redis_url() is None and live_store.redis_url() is None
    assert fake.reads == 1


def test_the_environment_wins_on_every_read(secrets, monkeypatch):
    secrets({"REDIS_URL": "redis://secret:6379/0"})
    assert live_store.redis_url() == "redis://secret:6379/0"
    monkeypatch.setenv(live_store.REDIS_VARIABLE, "redis://env:6379/1")
    assert live_store.redis_url() == "redis://env:6379/1"
