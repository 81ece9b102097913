"""The backends the store contract runs on, each made with the bounds a test asks for, and a way to let time pass
for it: the in-process store on a fake clock; Redis (a real redis-server started here, on 127.0.0.1 and a free port,
with no persistence, stopped at the end) on real time with a short idle limit."""

from __future__ import annotations

import time
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
    slow_time: bool  # real seconds pass: a test keeps its idle limits short


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

    return Backend("memory", lambda bounds: MemoryStore(bounds, clock=clock), pass_time, slow_time=False)


def _redis_backend(request) -> Backend:
    server = request.getfixturevalue("redis_server")
    from classroom.redis_store import RedisStore

    made: list[RedisStore] = []

    def make(bounds: Bounds) -> ClassStore:
        store = RedisStore(server.url, bounds=bounds)
        if not made:
            store.client.flushdb()  # each test starts from an empty Redis
        made.append(store)
        return store

    request.addfinalizer(lambda: [store.close() for store in made])
    return Backend("redis", make, time.sleep, slow_time=True)


@pytest.fixture(params=["memory", "redis"])
def backend(request) -> Backend:
    if request.param == "memory":
        return _memory_backend()
    return _redis_backend(request)
