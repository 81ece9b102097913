"""The live class under load (issue 28): N students follow a lecturer through the walkthrough and answer each
part's question; prints the figures.

A lecturer (this script, one websocket, as a browser speaks it: loadtest/protocol.py) opens the walkthrough with the
questions on, turns on the live class and reads the room code from its sidebar. N Locust students
(loadtest/locustfile.py, FollowingStudent) join by the class's link within 10 s and follow: each reads what the server
sends by itself (the lecturer's step wakes every follower: ui/live/wake.py) and, as the browser's timer does, reruns its
page's poll fragment at the fallback interval the server set. Once all joined, the lecturer
presses Next every `--every` seconds, part 1 to 5; each part asks the class a question, which each student answers
once after 1 to 3 s. Between steps the lecturer's page runs its own timers (the projector's count every 1.5 s).

- follow latency: from the lecturer's Next sent to a student's page showing that part (its run ended), per student
  and step;
- answer → tally: from a student's answer sent to the projector's count first including it (answers taken in the
  order their runs ended; the projector reads the class every 1.5 s, which is part of this time);
- errors: runs that failed (an exception on a page, a lost connection, a run not ended in 60 s), and
  student-steps never seen;
- server CPU: the servers' CPU seconds over the lecture (first step to the end), per second and per student.

Setups: `single`: one `streamlit run` pinned to core 0 (taskset), the in-process class store; `replicas`: two
replicas and redis-server on core 0, haproxy (deploy/haproxy.cfg) and the load generator on core 1, the Redis store;
`spread`: the same two replicas with a core each, the first on core 0 with redis-server, the second on core 1
beside haproxy and the load generator (which use a tenth of it or less: the table's "generator CPU").
The lecturer and Locust always run on core 1. `uptime`'s load averages are printed before and after each point.

    flock /work/locks/heavy python benchmarks/bench_live.py --setup single --sessions 30,100,200
    flock /work/locks/heavy python benchmarks/bench_live.py --setup replicas --sessions 30,100,200
    python benchmarks/bench_live.py --setup single --sessions 3 --every 4   # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402

from benchmarks.bench_capacity import CLIENT_CPUS, SERVER_CPUS, SPREAD_CPUS, Sampler, locust, percentile  # noqa: E402
from deploy.topology import Topology, missing_programs  # noqa: E402
from loadtest.protocol import Connection, Run  # noqa: E402
from loadtest.recording import WALK_PART  # noqa: E402
from ui.i18n import LANGUAGES  # noqa: E402

STRINGS = LANGUAGES["es"]
PARTS = 5
JOIN_WINDOW_S = 10  # bench_capacity.locust spawns N students over this
SETTLE_S = 5  # after the last join, before the first step
TAIL_S = 8  # after the last step: the last answers arrive and are counted
# Past the planned first step, the lecturer waits at most this long for the projector to count every student's answer
# to the first part, as a lecturer waits for the class: on a busy machine Locust starts late and the last students
# join after the planned step (they would never see the first question, and an answer sent as the step went was
# never counted). The students' run is this much longer, so that the lecture's end still falls inside it.
FIRST_ANSWERS_WAIT_S = 20
RUN_TIMEOUT_S = 60
CODE = re.compile(r"[?&]class=([A-Z2-9]{6})")
# The projector's line "**Ronda 1:** respondieron 3 de 30." read back as (round, answered).
ANSWERED = re.compile(
    re.escape(STRINGS["live.answered"])
    .replace(re.escape("{round}"), r"(?P<round>\d+)")
    .replace(re.escape("{answered}"), r"(?P<answered>\d+)")
    .replace(re.escape("{joined}"), r"\d+")
)


@dataclass
class Lecturer:
    """The lecturer's browser tab: opens the class, steps the walkthrough, runs its page's timers."""

    url: str
    connection: Connection = field(init=False)
    code: str = ""
    part: int = 1
    steps: list[tuple[float, int]] = field(default_factory=list)  # (Next sent, Unix time; the part it goes to)
    counts: list[tuple[float, int, int]] = field(default_factory=list)  # (projector shown, part, answered)
    _due: dict[str, float] = field(default_factory=dict)

    def open_class(self) -> None:
        self.connection = Connection(self.url, timeout=RUN_TIMEOUT_S)
        opening = BackMsg()
        opening.rerun_script.page_name = "walkthrough"
        self.connection.run(opening)
        toggle = self.message()
        state = toggle.rerun_script.widget_states.widgets.add()
        state.id = self.widget(key="live_toggle")
        state.bool_value = True
        self.read(self.connection.run(toggle, keep=True))
        if not self.code:
            raise RuntimeError("the lecturer's sidebar shows no class link")

    def next_part(self) -> None:
        button = self.widget(label=STRINGS["walk.next"])
        press = self.message()
        press.rerun_script.fragment_id = self.connection.page.widgets[button]
        state = press.rerun_script.widget_states.widgets.add()
        state.id = button
        state.trigger_value = True
        self.steps.append((time.time(), self.part + 1))
        self.read(self.connection.run(press, keep=True))

    def wait_for_answers(self, students: int, at_most: float) -> None:
        """Run the timers until the projector counts `students` answers to the part shown, at most `at_most` s."""
        deadline = time.time() + at_most
        while time.time() < deadline and not any(
            part == self.part and answered >= students for _, part, answered in self.counts
        ):
            self.tick(min(deadline, time.time() + 0.5))

    def tick(self, until: float) -> None:
        """Run the page's timers (the projector, the count of students) as they fall due, until `until`."""
        while time.time() < until:
            now = time.time()
            for fragment_id, every in self.connection.page.timers.items():
                if self._due.get(fragment_id, 0) <= now:
                    self._due[fragment_id] = now + every
                    rerun = self.message()
                    rerun.rerun_script.fragment_id = fragment_id
                    rerun.rerun_script.is_auto_rerun = True
                    self.read(self.connection.run(rerun, keep=True))
            time.sleep(max(0.0, min([*self._due.values(), until]) - time.time()))

    def message(self) -> BackMsg:
        message = BackMsg()
        message.rerun_script.query_string = self.connection.page.query_string
        message.rerun_script.page_script_hash = self.connection.page.page_script_hash
        return message

    def widget(self, *, key: str = "", label: str = "") -> str:
        page = self.connection.page
        for widget_id in page.widgets:
            if (key and widget_id.endswith(f"-{key}")) or (label and page.labels.get(widget_id) == label):
                return widget_id
        raise LookupError(key or label)

    def read(self, run: Run) -> None:
        """The part the page shows, the class's code (from the join link), the projector's count."""
        for msg in run.messages:
            if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
                continue
            element = msg.delta.new_element
            kind = element.WhichOneof("type")
            if kind == "button_group" and (part := WALK_PART.search(element.button_group.id)):
                self.part = int(part.group(1))
            elif kind == "code" and (code := CODE.search(element.code.code_text)):
                self.code = self.code or code.group(1)
            elif kind == "markdown" and (count := ANSWERED.search(element.markdown.body)):
                self.counts.append((time.time(), self.part, int(count.group("answered"))))


@dataclass
class Point:
    setup: str
    students: int
    follow: list[float]  # seconds, per student and step
    steps: list[tuple[int, list[float], int]]  # per step: its part, its latencies, students who never showed it
    missed: int  # student-steps never seen
    answers: list[float]  # seconds, answer sent → projector's count including it
    uncounted: int  # answers the projector never showed
    errors: int
    cpu_per_s: float  # server CPU seconds per second over the lecture
    generator_cpu: float  # share of core 1 the load generator used
    load_before: str
    load_after: str


def step_latencies(
    steps: list[tuple[float, int]], seen: list[list[float]], students: int
) -> list[tuple[int, list[float], int]]:
    """Per step: the part it goes to, each student's time from its send to their page first showing that part after
    it, and how many students never showed it."""
    per_step = []
    for sent, part in steps:
        first: dict[int, float] = {}
        for when, shown, student in seen:
            if int(shown) == part and when >= sent and int(student) not in first:
                first[int(student)] = when
        per_step.append((part, [when - sent for when in first.values()], students - len(first)))
    return per_step


def totals(per_step: list[tuple[int, list[float], int]]) -> tuple[list[float], int]:
    """Every step's latencies together, and the student-steps never seen."""
    return [latency for _, latencies, _ in per_step for latency in latencies], sum(missed for *_, missed in per_step)


def follow_latencies(steps: list[tuple[float, int]], seen: list[list[float]], students: int) -> tuple[list[float], int]:
    """Every step's latencies together, and the student-steps never seen."""
    return totals(step_latencies(steps, seen, students))


def tally_latencies(answered: list[list[float]], counts: list[tuple[float, int, int]]) -> tuple[list[float], int]:
    """Per answer: from its send to the first projector count, for its part, that includes it (answers ordered by
    the end of their runs, which stored them)."""
    latencies, uncounted = [], 0
    for part in sorted({int(a[2]) for a in answered}):
        ordered = sorted((a for a in answered if int(a[2]) == part), key=lambda a: a[1])
        shown = sorted((c for c in counts if c[1] == part), key=lambda c: c[0])
        for rank, (sent, stored, *_rest) in enumerate(ordered, start=1):
            when = next((c[0] for c in shown if c[2] >= rank and c[0] >= stored), None)
            if when is None:
                uncounted += 1
            else:
                latencies.append(when - sent)
    return latencies, uncounted


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def measure(setup: str, students: int, every: float) -> Point:
    topology = Topology(
        replicas=1 if setup == "single" else 2,
        balancer=setup != "single",
        redis=setup != "single",
        cpus=SERVER_CPUS,
        replica_cpus=SPREAD_CPUS if setup == "spread" else (),
        balancer_cpus=CLIENT_CPUS,
        redis_cpus=SERVER_CPUS,
    )
    with topology, tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        results = Path(tmp) / "results.json"
        lecturer = Lecturer(topology.url)
        lecturer.open_class()
        lecture_s = JOIN_WINDOW_S + SETTLE_S + (PARTS - 1) * every + TAIL_S
        generator: list[float] = []
        extra = ("--class-code", lecturer.code)

        def run_locust() -> None:
            seconds = lecture_s + FIRST_ANSWERS_WAIT_S
            generator.append(
                locust(topology.url, "FollowingStudent", students, seconds, results, static=False, extra=extra)
            )

        load_before = load_average()
        with Sampler([r.process.pid for r in topology.started]) as sampler:
            crowd = threading.Thread(target=run_locust)
            crowd.start()
            start = time.time()
            lecturer.tick(start + JOIN_WINDOW_S + SETTLE_S)
            lecturer.wait_for_answers(students, FIRST_ANSWERS_WAIT_S)
            first_step = time.time()
            for _ in range(PARTS - 1):
                lecturer.next_part()
                lecturer.tick(time.time() + every)
            lecturer.tick(time.time() + TAIL_S)
            end = time.time()
            crowd.join()
        load_after = load_average()
        timings = json.loads(results.read_text())
    steps = step_latencies(lecturer.steps, timings["seen"], students)
    follow, missed = totals(steps)
    answers, uncounted = tally_latencies(timings["answered"], lecturer.counts)
    span = sampler.span(first_step, end)
    return Point(
        setup,
        students,
        follow,
        steps,
        missed,
        answers,
        uncounted,
        len(timings["failures"]) + max(0, students - len(timings["first page"])),
        sampler.cpu_between(first_step, end) / span if span else float("nan"),
        generator[0] if generator else float("nan"),
        load_before,
        load_after,
    )


def print_point(p: Point) -> None:
    ms = lambda values, q: f"{1000 * percentile(values, q):.0f}"  # noqa: E731
    per_student = 1000 * p.cpu_per_s / p.students
    print(
        f"| {p.setup} | {p.students} | {ms(p.follow, 0.5)} / {ms(p.follow, 0.95)} | {p.missed} "
        f"| {ms(p.answers, 0.5)} / {ms(p.answers, 0.95)} | {len(p.answers)} | {p.uncounted} | {p.errors} "
        f"| {100 * p.cpu_per_s:.0f} % | {per_student:.1f} | {100 * p.generator_cpu:.0f} % "
        f"| {p.load_before} → {p.load_after} |",
        flush=True,
    )


def step_text(part: int, latencies: list[float], missed: int) -> str:
    ms = lambda q: f"{1000 * percentile(latencies, q):.0f}"  # noqa: E731
    return f"part {part}: {ms(0.5)} / {ms(0.95)} / {ms(1.0)}, {missed} missed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=("single", "replicas", "spread"), default="single")
    parser.add_argument("--sessions", default="30,100,200", help="comma-separated numbers of students")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between the lecturer's steps")
    args = parser.parse_args()
    missing = missing_programs(redis=True) if args.setup != "single" else []
    if missing:
        sys.exit(f"the replicas need Debian's {' and '.join(missing)}")
    os.sched_setaffinity(0, {int(CLIENT_CPUS)})  # the lecturer beside the load generator
    servers = f"servers on core {SERVER_CPUS}"
    if args.setup == "spread":
        servers = f"a replica on core {SERVER_CPUS}, one on core {CLIENT_CPUS}"
    print(f"live class, {args.setup}: {servers}, lecturer and Locust on core {CLIENT_CPUS}")
    print(
        "| setup | students | follow ms p50 / p95 | steps missed | answer → tally ms p50 / p95 | answers "
        "| uncounted | errors | server CPU | CPU ms per student-s | generator CPU | load avg before → after |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    points = []
    for students in (int(n) for n in args.sessions.split(",")):
        points.append(measure(args.setup, students, args.every))
        print_point(points[-1])
    print("\nfollow per step (where a tail comes from): part shown, ms p50 / p95 / max, students who never showed it")
    for p in points:
        print(f"- {p.setup}, {p.students}: " + "; ".join(step_text(*step) for step in p.steps), flush=True)


if __name__ == "__main__":
    main()
