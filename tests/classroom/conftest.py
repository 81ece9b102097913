"""The backends the store contract runs on, each made with the bounds a test asks for, and a way to let time pass
for it without waiting: the in-process store on a fake clock; Redis (a real redis-server started here, on 127.0.0.1
and a free port, with no persistence, stopped at the end) on the same fake clock for the store's sweeps, and its keys'
own expiry moved on by as much (each key's remaining TTL shortened, a key whose TTL runs out deleted, as Redis
would): no test sleeps."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from classroom.api import Bounds, ClassStore
from classroom.memory import MemoryStore
from harness.redis_server import RedisServer


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Backend:
    """A backend under test: `make(bounds)` a fresh store, `pass_time(s)` as that store sees time."""

    name: str
    make: Callable[[Bounds], ClassStore]
    pass_time: Callable[[float], None]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


def _memory_backend() -> Backend:
    clock = FakeClock()

    def pass_time(seconds: float) -> None:
        clock.now += seconds

    return Backend("memory", lambda bounds: MemoryStore(bounds, clock=clock), pass_time)


def _redis_backend(request) -> Backend:
    server = request.getfixturevalue("redis_server")
    from classroom.redis_store import RedisStore

    made: list[RedisStore] = []
    clock = FakeClock()

    def make(bounds: Bounds) -> ClassStore:
        store = RedisStore(server.url, bounds=bounds, clock=clock)
        if not made:
            store.client.flushdb()  # each test starts from an empty Redis
        made.append(store)
        return store

    def pass_time(seconds: float) -> None:
        clock.now += seconds
        if made:
            expire_by(made[0].client, round(seconds * 1000))

    request.addfinalizer(lambda: [store.close() for store in made])
    return Backend("redis", make, pass_time)


def expire_by(client, ms: int) -> None:
    """Move every key's expiry `ms` milliseconds on, as that much time would: its TTL shortened, or the key gone."""
    for key in client.scan_iter(match="*"):
        left = client.pttl(key)
        if left < 0:  # no expiry (-1) or already gone (-2)
            continue
        if left <= ms:
            client.delete(key)
        else:
            client.pexpire(key, left - ms)


@pytest.fixture(params=["memory", "redis"])
def backend(request) -> Backend:
    if request.param == "memory":
        return _memory_backend()
    return _redis_backend(request)
