"""How many students one server holds, and a join storm on replicas: Locust against `streamlit run` (prints a table).

The servers (deploy/topology.py: the replicas, and haproxy from deploy/haproxy.cfg when there are several) run
pinned to core 0 with taskset, the load generator (Locust, loadtest/locustfile.py) and haproxy to core 1. Each
point starts fresh servers, warms them (each page opened once, then a pause past ui.heap's freeze), and runs:

- a class: N students (ClassStudent) join within 10 s without fetching static files, then each changes something
  every 2 to 4 s (half on the builder, half on the walkthrough); timed over the steady part, after everyone joined;
- a join storm: N students (JoiningStudent) open the link within 10 s as a browser does (index.html, every static
  file the browser fetched, the websocket, the first run, the files loaded after it).

Per point: first page p50/p95, interaction p50/p95, interactions per second against those asked (N/3 per s),
server CPU per interaction (/proc, over the steady part), the servers' resident memory, failures; the knee is the
first N whose interaction p95 passes 1 s.

    flock /work/locks/heavy python benchmarks/bench_capacity.py            # the whole table (about 15 minutes)
    python benchmarks/bench_capacity.py --sessions 10,40 --replicas 1 --no-storm --steady 20   # a quick look
    python benchmarks/bench_capacity.py --sessions 40 --compare STREAMLIT_RUNNER_POST_SCRIPT_GC=false --rounds 2
    python benchmarks/bench_capacity.py --storm-only --storm 200        # the join storm on 1, 2 and 3 replicas
    python benchmarks/bench_capacity.py --storm-only --replicas 2 --spread   # two replicas with a core each

--spread gives the replicas a core each, in turn (core 0, core 1, ...): the second shares core 1 with Locust and
haproxy, so what the load generator uses of it (the table's "client CPU") is taken from that replica.
--storm-without-static has the storm's students open only the websocket and the first run, not the page and its
static files (which haproxy's cache serves, not the replicas): what the replicas themselves are asked for.

--compare runs each point with the serving configuration as it is (A, or with the --base settings) and with the given
STREAMLIT_* settings too (B), alternated, `--rounds` times each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import pyspy  # noqa: E402
from deploy.topology import Topology, missing_programs  # noqa: E402
from loadtest.protocol import Connection  # noqa: E402
from loadtest.recording import Recording  # noqa: E402

SERVER_CPUS, CLIENT_CPUS = "0", "1"
SPREAD_CPUS = (SERVER_CPUS, CLIENT_CPUS)  # a core each for the replicas, in turn (--spread; bench_live's `spread`)
JOIN_WINDOW_S = 10  # every scenario's students arrive within this
STORM_TAIL_S = 30  # a join storm runs this long after its last student arrived
WARM_PAUSE_S = 10  # after the warm-up: past ui.heap's freeze, 8 s after the first page (ui/shell.py)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE / 2**20


class Sampler:
    """The servers' CPU seconds and resident memory, once a second, in a thread, until stopped."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.samples: list[tuple[float, float, float]] = []  # (time, CPU s summed, RSS MB summed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            try:
                cpu = sum(cpu_seconds(pid) for pid in self.pids)
                rss = sum(rss_mb(pid) for pid in self.pids)
            except (FileNotFoundError, ProcessLookupError):
                return  # a server ended
            self.samples.append((time.time(), cpu, rss))
            if self._stop.wait(1.0):
                return

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def cpu_between(self, start: float, end: float) -> float:
        inside = [s for s in self.samples if start <= s[0] <= end]
        return inside[-1][1] - inside[0][1] if len(inside) >= 2 else float("nan")

    def span(self, start: float, end: float) -> float:
        inside = [s for s in self.samples if start <= s[0] <= end]
        return inside[-1][0] - inside[0][0] if len(inside) >= 2 else float("nan")

    def rss_peak(self) -> float:
        return max((s[2] for s in self.samples), default=float("nan"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def warm(url: str, pause: float = WARM_PAUSE_S) -> None:
    """Each page opened once (its modules imported, its first figures built), then a pause past ui.heap's freeze
    (`pause` s: 0 in the smoke tests, which check what is printed, not the figures)."""
    for page in ("builder", "walkthrough"):
        connection = Connection(url)
        connection.run(Recording.load(page).opening())
        connection.close()
    time.sleep(pause)


def locust(
    url: str, user_class: str, users: int, seconds: float, results: Path, *, static: bool, extra: tuple[str, ...] = ()
) -> float:
    """Run Locust headless on CLIENT_CPUS (with `extra` options for the locustfile); returns the CPU share (0-1) its
    process used."""
    command = ["taskset", "-c", CLIENT_CPUS, sys.executable, "-m", "locust", "-f", str(ROOT / "loadtest/locustfile.py")]
    command += [user_class, "--headless", "--only-summary", "--host", url, "--users", str(users)]
    command += ["--spawn-rate", f"{users / JOIN_WINDOW_S:g}", "--run-time", f"{seconds:g}s", "--stop-timeout", "10"]
    command += ["--results", str(results), "--loglevel", "ERROR"] + ([] if static else ["--no-static"]) + list(extra)
    before, start = _children_cpu(), time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, err = process.communicate(timeout=seconds + 120)
    if not results.exists():
        raise RuntimeError(f"locust wrote no results (exit {process.returncode}): {err.decode()[-2000:]}")
    return (_children_cpu() - before) / (time.monotonic() - start)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # of the children waited for: locust, once it ended
    return usage.ru_utime + usage.ru_stime


@dataclass
class Point:
    label: str
    users: int
    first: list[float]
    interactions: list[float]
    failures: int
    rate: float  # interactions per second over the steady part
    cpu_ms: float  # server CPU per interaction over the steady part
    busy: float  # the servers' CPU seconds per second over the steady part (1.0: one core all the time)
    rss: float
    client_cpu: float
    storm: str = ""  # a join storm's CPU per student, servers and balancer (a line printed after its row)

    def row(self) -> str:
        rate = f"{self.rate:.1f} / {self.users / 3:.1f}" if self.interactions else "–"
        busy = f"{self.busy:.0%}" if self.interactions else "–"
        return (
            f"| {self.label} | {self.users} | {_pair(self.first)}"
            f" | {_pair(self.interactions)} | {rate} | {_num(self.cpu_ms)} | {busy} | {self.rss:.0f}"
            f" | {self.failures} | {self.client_cpu:.0%} |"
        )


HEADER = (
    "| servers | students | first page p50 / p95 (ms) | interaction p50 / p95 (ms) | interactions/s done / asked"
    " | server CPU per interaction (ms) | server CPU use | server RSS (MB) | failures | load generator CPU |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def _pair(values: list[float]) -> str:
    if not values:
        return "–"
    return f"{percentile(values, 0.5):,.0f} / {percentile(values, 0.95):,.0f}"


def _num(value: float) -> str:
    return "–" if value != value else f"{value:.0f}"


def measure(
    replicas: int,
    users: int,
    scenario: str,
    steady: float,
    env: dict[str, str],
    label: str,
    profile: bool = False,
    pause: float = WARM_PAUSE_S,
    spread: bool = False,
    static: bool = True,
) -> Point:
    topology = Topology(
        replicas=replicas,
        balancer=replicas > 1,
        cpus=SERVER_CPUS,
        balancer_cpus=CLIENT_CPUS,
        replica_cpus=SPREAD_CPUS if spread else (),
        env=env,
    )
    with topology as t:
        warm(t.url, pause)
        pids = [r.process.pid for r in t.started]
        balancer = [t.balancer_process.pid] if t.balancer_process is not None else []
        with tempfile.TemporaryDirectory() as tmp, Sampler(pids) as sampler, Sampler(balancer) as haproxy:
            results, samples = Path(tmp) / "results.json", Path(tmp) / "py-spy.txt"
            began = time.time()
            with pyspy.sampled(pids[0], samples) if profile else contextlib.nullcontext():
                if scenario == "class":
                    client_cpu = locust(t.url, "ClassStudent", users, JOIN_WINDOW_S + 5 + steady, results, static=False)
                else:
                    client_cpu = locust(t.url, "JoiningStudent", users, JOIN_WINDOW_S + steady, results, static=static)
            timings = json.loads(results.read_text())
            if profile:
                pyspy.summarize(samples)
    # The steady part: from 5 s after the last student arrived to the end of the run.
    joined = [t for t, _ in timings["first page"]]
    steady_from = max([began + JOIN_WINDOW_S, *joined]) + 5
    ended = max((t for kind in timings.values() for t, _ in kind), default=steady_from)
    done = [ms for t, ms in timings["interaction"] if t >= steady_from]
    seconds = ended - steady_from
    cpu_rate = sampler.cpu_between(steady_from, ended) / sampler.span(steady_from, ended)  # CPU s per s
    storm = ""
    if scenario == "storm" and joined:
        # over the storm itself: from the first student's arrival to a second after the last first page
        storm_end = max(joined) + 1.5
        servers_ms = 1000 * sampler.cpu_between(began, storm_end) / users
        balancer_ms = 1000 * haproxy.cpu_between(began, storm_end) / users if balancer else float("nan")
        storm = (
            f"  over the storm's {sampler.span(began, storm_end):.0f} s: CPU per student, servers"
            f" {_num(servers_ms)} ms, balancer (haproxy) {_num(balancer_ms)} ms"
        )
    return Point(
        label=label,
        users=users,
        first=[ms for _, ms in timings["first page"]],
        interactions=done if scenario == "class" else [],
        failures=len(timings["failures"]),
        rate=len(done) / seconds if seconds > 0 else float("nan"),
        cpu_ms=1000 * cpu_rate * seconds / len(done) if done else float("nan"),
        busy=cpu_rate,
        rss=sampler.rss_peak(),
        client_cpu=client_cpu,
        storm=storm,
    )


def load_average() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def knee(points: list[Point]) -> str:
    for point in points:
        if percentile(point.interactions, 0.95) > 1000 or point.failures:
            return f"the knee: interaction p95 passes 1 s (or students fail) at {point.users} students ({point.label})"
    return "no knee within these points: interaction p95 stayed within 1 s"


def parse_env(pairs: list[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if not key.startswith("STREAMLIT_"):
            raise SystemExit(f"--compare takes STREAMLIT_* settings, not {pair!r}")
        env[key] = value
    return env


def point_label(replicas: int, what: str, args: argparse.Namespace) -> str:
    """A row's first cell: "2 × join storm, a core each", ..."""
    label = f"{replicas} × {what}" + (", a core each" if args.spread and replicas > 1 else "")
    return label + (", without static files" if what == "join storm" and args.storm_without_static else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="10,20,40,80,160,200", help="students per point, one process")
    parser.add_argument("--replicas", default="1,2,3", help="server counts: 1 runs every --sessions point")
    parser.add_argument("--replica-sessions", default="80,160,200", help="students per point with 2 or more")
    parser.add_argument("--storm", default="200", help="students in the join storm (one run per server count)")
    parser.add_argument("--no-storm", action="store_true")
    parser.add_argument("--storm-only", action="store_true", help="only the join storms")
    parser.add_argument("--steady", type=float, default=40, help="seconds of steady class after everyone joined")
    parser.add_argument("--compare", nargs="*", default=[], metavar="STREAMLIT_X=value")
    parser.add_argument(
        "--base", nargs="*", default=[], metavar="STREAMLIT_X=value", help="with --compare: for A and B"
    )
    parser.add_argument("--rounds", type=int, default=1, help="with --compare: A/B pairs per point")
    parser.add_argument("--profile", action="store_true", help="py-spy on the (first) server at each point")
    parser.add_argument("--spread", action="store_true", help="a core each for the replicas (see above)")
    parser.add_argument(
        "--storm-without-static", action="store_true", help="storm students open only the websocket (see above)"
    )
    parser.add_argument("--warm-pause", type=float, default=WARM_PAUSE_S, help="s after the warm-up (0: a smoke run)")
    args = parser.parse_args()
    sessions = [int(n) for n in args.sessions.split(",")]
    replica_counts = [int(n) for n in args.replicas.split(",")]
    if max(replica_counts) > 1 and missing_programs(redis=False):
        raise SystemExit("several replicas need haproxy: apt-get install haproxy")
    print(f"server on core {SERVER_CPUS}, load generator (and haproxy) on core {CLIENT_CPUS}; {load_average()}")
    print(HEADER)
    points: list[Point] = []
    if args.compare:
        base = parse_env(args.base)
        variant = {**base, **parse_env(args.compare)}
        print(
            f"A: the serving configuration{' with ' + ' '.join(args.base) if args.base else ''}; B: A with",
            *args.compare,
        )
        for users in sessions:
            for _ in range(args.rounds):
                for label, env in (("A", base), ("B", variant)):
                    point = measure(1, users, "class", args.steady, env, label, args.profile, args.warm_pause)
                    print(point.row(), flush=True)
        print(load_average())
        return
    how = {"profile": args.profile, "pause": args.warm_pause, "spread": args.spread}  # for every point
    for replicas in [] if args.storm_only else replica_counts:
        for users in sessions if replicas == 1 else [int(n) for n in args.replica_sessions.split(",")]:
            label = point_label(replicas, "class", args)
            point = measure(replicas, users, "class", args.steady, {}, label, **how)
            points.append(point)
            print(point.row(), flush=True)
    if points:
        print(knee([p for p in points if p.label == "1 × class"]))
    if not args.no_storm:
        for replicas in replica_counts:
            for users in [int(n) for n in args.storm.split(",")]:
                label = point_label(replicas, "join storm", args)
                static = not args.storm_without_static
                point = measure(replicas, users, "storm", STORM_TAIL_S, {}, label, **how, static=static)
                print(point.row(), flush=True)
                if point.storm:
                    print(point.storm, flush=True)
    print(load_average())


if __name__ == "__main__":
    main()
