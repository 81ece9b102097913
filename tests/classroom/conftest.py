"""The backends the store contract runs on, each made with the bounds a test asks for, and a way to let time pass
for it: the in-process store on a fake clock; Redis (a real redis-server started here, on 127.0.0.1 and a free port,
with no persistence, stopped at the end) on real time with a short idle limit."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from classroom.api import Bounds, ClassStore
from classroom.memory import MemoryStore
from deploy.topology import program
from harness.server import free_port

PING_TIMEOUT_S = 20


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


def redis_server_or_skip() -> str:
    path = program("redis-server")
    if path is None:
        reason = "the Redis store's tests need Debian's redis-server (apt-get install redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
    return path


class RedisServer:
    """A redis-server on 127.0.0.1:<free port>, in its own data directory, started and stopped by the tests."""

    def __init__(self, data_dir: Path, *, appendonly: bool = False) -> None:
        self.path = redis_server_or_skip()
        self.port = free_port()
        self.data_dir = data_dir
        self.appendonly = appendonly
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        command = [self.path, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.data_dir)]
        command += ["--save", "", "--appendonly", "yes" if self.appendonly else "no", "--appendfsync", "always"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_for_ping()
        return self

    def _wait_for_ping(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + PING_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with code {self.process.returncode}")
            try:
                if client.ping():
                    client.close()
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server does not answer PING after {PING_TIMEOUT_S} s")

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


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
