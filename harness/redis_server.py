"""A real redis-server for tests: 127.0.0.1 and a free port, its own data directory, no snapshots, optionally an
append-only file (fsync on every write, so that a SIGKILL loses nothing), a bounded wait for PING, stopped by the
test. Without Debian's redis-server a test skips with the reason, except under CI=true, where that is a failure."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from deploy.topology import program
from harness.server import free_port

PING_TIMEOUT_S = 20


def redis_server_or_skip() -> str:
    """The redis-server program; a skip with the reason when it is missing (a failure under CI=true)."""
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
