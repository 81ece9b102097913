"""Serve a Streamlit script on a free local port for a browser to open, and stop it however the run ends."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, NamedTuple

ROOT = Path(__file__).resolve().parent.parent  # the project: servers run from here, as `streamlit run` is used
HEALTH_TIMEOUT_S = 60


class Server(NamedTuple):
    url: str  # http://127.0.0.1:<port>, without a trailing slash
    pid: int


def free_port() -> int:
    """A TCP port no one listens on right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(
    script: Path, port: int, env: dict[str, str] | None = None, log: Path | None = None, *, cwd: Path = ROOT
) -> subprocess.Popen:
    """`streamlit run script` in the background, headless, on 127.0.0.1:port, from `cwd` (the project's root
    unless another checkout is served), with `env` added to this process's environment; its output goes to the
    file `log` (or nowhere)."""
    if log is None:
        return _popen_streamlit(script, port, env, subprocess.DEVNULL, cwd)
    with log.open("wb") as out:  # closed here: the child keeps its own copy of the file
        return _popen_streamlit(script, port, env, out, cwd)


def _popen_streamlit(
    script: Path, port: int, env: dict[str, str] | None, out: IO[bytes] | int, cwd: Path
) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(script),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT if out is not subprocess.DEVNULL else subprocess.DEVNULL,
    )


def wait_healthy(
    url: str, process: subprocess.Popen, timeout: float = HEALTH_TIMEOUT_S, *, interval: float = 0.2
) -> None:
    """Until the server answers its health check, asked every `interval` s (a benchmark timing the start asks
    more often); an error if the server exits or does not answer within `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(interval)  # polling a socket that is not open yet: nothing to wait on but time
    raise RuntimeError(f"streamlit did not become healthy within {timeout} s")


def stop_app(process: subprocess.Popen) -> None:
    """Terminate a server started by `start_app`, killing it if it does not stop within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def served(script: Path, *, cwd: Path = ROOT) -> Iterator[Server]:
    """`streamlit run script` on a free local port, from `cwd` (whose .streamlit/config.toml it reads), until the
    block ends, however it ends."""
    port = free_port()
    process = start_app(script, port, cwd=cwd)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, process)
        yield Server(url, process.pid)
    finally:
        stop_app(process)
