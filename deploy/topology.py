"""The deployment of compose.yaml without containers: N `streamlit run` replicas behind haproxy, and Redis, on
127.0.0.1 only. The same files configure both: the app reads .streamlit/config.toml, the balancer deploy/haproxy.cfg
(whose server-template line becomes one `server` line per local replica, with the cookie value r1, r2, ...).

    python deploy/topology.py --replicas 3      # prints the balancer's URL; Ctrl+C stops everything

Used by tests/serving/test_topology.py and benchmarks/bench_capacity.py (which pin the replicas to a core).
Needs Debian's haproxy and redis-server (`apt-get install haproxy redis-server`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.server import free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
COOKIE = "STREPLICA"  # the balancer's sticky cookie (deploy/haproxy.cfg)


def program(name: str) -> str | None:
    """Where a Debian program is (haproxy lives in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")


def missing_programs(redis: bool = True) -> list[str]:
    """The Debian programs this topology needs that are not installed."""
    return [name for name in ("haproxy", *(["redis-server"] if redis else [])) if program(name) is None]


def haproxy_config(servers: list[tuple[str, int]]) -> str:
    """deploy/haproxy.cfg with its server-template replaced by one server line per (name, port) on 127.0.0.1, and
    without the container DNS resolver that only compose needs."""
    lines = []
    for line in HAPROXY_CFG.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("server-template "):
            lines += [f"    server {name} 127.0.0.1:{port} cookie {name}" for name, port in servers]
        elif line.startswith("resolvers "):
            break  # the last section of the file
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass
class Replica:
    name: str  # r1, r2, ...: also its cookie value at the balancer
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """Kill the replica at once (SIGKILL), as a crashed container or node would go."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@dataclass
class Topology:
    """Replicas, and unless `balancer` is False haproxy in front of them, and if `redis` a redis-server whose URL
    the replicas get as REDIS_URL. `cpus` pins the replicas (taskset -c), `balancer_cpus` haproxy, `redis_cpus`
    redis-server; `replica_cpus`, when given, pins the k-th replica to its k-th entry instead (a replica per core).
    Stops all it started on exit, however the block ends."""

    replicas: int = 1
    balancer: bool = True
    redis: bool = False
    cpus: str = ""
    balancer_cpus: str = ""
    redis_cpus: str = ""
    replica_cpus: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    log_dir: Path | None = None
    started: list[Replica] = field(default_factory=list, init=False)
    url: str = field(default="", init=False)  # where students connect: the balancer, or the one replica
    redis_url: str = field(default="", init=False)
    balancer_process: subprocess.Popen | None = field(default=None, init=False)

    def __enter__(self) -> Topology:
        self._stack = ExitStack()
        self._dir = Path(self._stack.enter_context(tempfile.TemporaryDirectory(prefix="topology-")))
        try:
            self._start()
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _spawn(
        self, name: str, command: list[str], cpus: str = "", env: dict[str, str] | None = None
    ) -> subprocess.Popen:
        prefix = ["taskset", "-c", cpus] if cpus else []
        log = (self.log_dir or self._dir) / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                prefix + command,
                cwd=ROOT,
                env={**os.environ, **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so that stopping it stops its children too
            )
        self._stack.callback(_stop, process)
        return process

    def _start(self) -> None:
        if self.redis:
            port = free_port()
            process = self._spawn(
                "redis",
                [
                    program("redis-server") or "redis-server",
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                cpus=self.redis_cpus,
            )
            self.redis_url = f"redis://127.0.0.1:{port}/0"
            _wait_port("redis-server", port, process)
        env = {**self.env, **({"REDIS_URL": self.redis_url} if self.redis else {})}
        for k in range(1, self.replicas + 1):
            self.add_replica(env, name=f"r{k}")
        if self.balancer:
            port = free_port()
            config = self._dir / "haproxy.cfg"
            config.write_text(haproxy_config([(r.name, r.port) for r in self.started]), encoding="utf-8")
            self.balancer_process = self._spawn(
                "haproxy",
                [program("haproxy") or "haproxy", "-db", "-f", str(config)],
                cpus=self.balancer_cpus,
                env={"HAPROXY_BIND": f"127.0.0.1:{port}", "HAPROXY_COOKIE_KEY": "local"},
            )
            self.url = f"http://127.0.0.1:{port}"
            wait_healthy(self.url, self.balancer_process)
        else:
            self.url = self.started[0].url

    def add_replica(self, env: dict[str, str], name: str) -> Replica:
        port = free_port()
        command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
        command += ["--server.address", "127.0.0.1", "--server.port", str(port)]
        cpus = self.replica_cpus[len(self.started) % len(self.replica_cpus)] if self.replica_cpus else self.cpus
        replica = Replica(name, port, self._spawn(name, command, cpus=cpus, env=env))
        wait_healthy(replica.url, replica.process)
        self.started.append(replica)
        return replica

    def replica(self, name: str) -> Replica:
        return next(r for r in self.started if r.name == name)


def _wait_port(name: str, port: int, process: subprocess.Popen, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with code {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout} s")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process's group, SIGKILL if it has not ended within 10 s."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass  # it ended between the poll and the signal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--no-redis", action="store_true", help="no redis-server (the class store stays in-process)")
    args = parser.parse_args()
    missing = missing_programs(redis=not args.no_redis)
    if missing:
        raise SystemExit(f"missing: {', '.join(missing)} (apt-get install {' '.join(missing)})")
    with Topology(replicas=args.replicas, redis=not args.no_redis, log_dir=Path.cwd()) as topology:
        print(f"students open {topology.url}")
        for replica in topology.started:
            print(f"  replica {replica.name}: {replica.url} (pid {replica.process.pid})")
        if topology.redis_url:
            print(f"  redis: {topology.redis_url}")
        print("logs: ./r*.log, ./haproxy.log, ./redis.log; Ctrl+C stops everything")
        try:
            while all(r.process.poll() is None for r in topology.started):
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
