"""The deployment's topology, run here (deploy/topology.py: `streamlit run` replicas behind Debian's haproxy with
deploy/haproxy.cfg, and redis-server), driven through the balancer as students' browsers drive it.

A student is what a browser does: GET the page (the balancer's cookie comes back), then the websocket with that
cookie, then runs. Without haproxy or redis-server the tests skip, except under CI=true, where that is a failure.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from deploy.topology import COOKIE, Topology, missing_programs
from loadtest.protocol import Connection, Page
from loadtest.recording import Recording, builder_step
from tests.benchmark_runs import require
from ui import served

pytestmark = pytest.mark.slow
BUILDER = Recording.load("builder")
RUN_S = 30  # the longest a run may take (a step takes well under a second here): a run never ended fails then
FAILOVER_S = 30  # the balancer marks a replica down after two failed checks 2 s apart; a reconnect retries until


# A core each for the two replicas (bench_live.py's `spread` setup); on a one-core machine both get that core.
REPLICA_CPUS = tuple(str(core) for core in sorted(os.sched_getaffinity(0)))[:2]


def needs_programs() -> None:
    require(missing_programs(redis=True), "the topology")


@pytest.fixture(scope="module")
def topology():
    needs_programs()
    with Topology(replicas=2, redis=True, replica_cpus=REPLICA_CPUS) as topology:
        yield topology


def allowed_cpus(pid: int) -> str:
    """The cores a process may run on, as Linux lists them ("0", "0-1", ...)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return next(line.split(":", 1)[1].strip() for line in status.splitlines() if line.startswith("Cpus_allowed_list"))


def test_each_replica_runs_on_the_core_it_was_given(topology):
    assert [allowed_cpus(replica.process.pid) for replica in topology.started] == [
        REPLICA_CPUS[k % len(REPLICA_CPUS)] for k in range(len(topology.started))
    ]


@dataclass
class Student:
    """A browser tab through the balancer: its replica cookie and its Streamlit session."""

    url: str
    replica: str = ""  # the balancer's cookie value: r1, r2, ...
    session_id: str = ""
    page: Page = field(default_factory=Page)  # what the browser shows: it keeps it when it reconnects

    def open_page(self) -> None:
        """GET the page as the browser's first request does; the balancer answers with its cookie."""
        cookies = {COOKIE: self.replica} if self.replica else {}
        response = requests.get(self.url + BUILDER.path, cookies=cookies, timeout=30)
        response.raise_for_status()
        self.replica = response.cookies.get(COOKIE, self.replica)

    def connect(self) -> Connection:
        """The websocket with the cookie, resuming this student's session if the replica still has it."""
        cookies = f"{COOKIE}={self.replica}"
        return Connection(self.url, cookies=cookies, session_id=self.session_id, page=self.page, timeout=RUN_S)

    def step(self, connection: Connection, first: bool) -> None:
        message = BUILDER.opening() if first else builder_step(BUILDER, random.Random(0))
        connection.run(message)
        self.session_id = connection.session_id


def joined(url: str) -> tuple[Student, Connection]:
    student = Student(url)
    student.open_page()
    connection = student.connect()
    student.step(connection, first=True)
    return student, connection


def test_students_are_spread_over_the_replicas_and_each_keeps_its_own(topology):
    students = [joined(topology.url) for _ in range(6)]
    assert {s.replica for s, _ in students} == {"r1", "r2"}  # round robin
    for student, connection in students:
        before = student.session_id
        connection.close()
        again = student.connect()  # a reconnect, as after a network blip: the cookie takes it to its replica
        student.step(again, first=False)
        assert student.session_id == before  # the replica still had the session: the same one goes on
        again.close()


def test_a_session_is_only_known_to_its_own_replica(topology):
    """The check above can fail: the same reconnect sent to the other replica finds no session there."""
    student, connection = joined(topology.url)
    connection.close()
    before = student.session_id
    student.replica = {"r1": "r2", "r2": "r1"}[student.replica]
    elsewhere = student.connect()
    student.step(elsewhere, first=True)
    assert student.session_id != before
    elsewhere.close()


def test_when_a_replica_dies_its_students_reconnect_to_another():
    needs_programs()
    with Topology(replicas=2, redis=True) as topology:
        students = [joined(topology.url) for _ in range(4)]
        victims = [(s, c) for s, c in students if s.replica == "r1"]
        assert victims, [s.replica for s, _ in students]
        topology.replica("r1").kill()
        for student, connection in victims:
            connection.close()
            old_session = student.session_id
            deadline = time.monotonic() + FAILOVER_S
            while True:  # what the browser does: ask again until the app answers
                try:
                    student.open_page()
                    break
                except requests.RequestException:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
            assert student.replica == "r2"  # the balancer sent it elsewhere and said so in a new cookie
            again = student.connect()
            student.step(again, first=True)  # a new session on r2: the page runs for it
            assert student.session_id != old_session
            again.close()
        for student, connection in students:
            if student.replica == "r2" and connection.socket.connected:
                student.step(connection, first=False)  # r2's own students did not notice
                connection.close()


def test_streamlits_static_files_come_compressed_from_the_balancers_cache(topology):
    script = next(p for p in BUILDER.static_paths(before_first_run=True) if p.endswith(".js"))
    headers = {"Accept-Encoding": "gzip"}
    first = requests.get(topology.url + script, headers=headers, timeout=30)
    again = requests.get(topology.url + script, headers=headers, timeout=30)
    direct = requests.get(topology.started[0].url + script, headers=headers, timeout=30)
    assert first.headers["Content-Encoding"] == again.headers["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in direct.headers  # Streamlit itself sends them uncompressed
    assert "Age" in again.headers and "Age" not in direct.headers  # the second answer came from haproxy's cache
    assert "Set-Cookie" not in again.headers  # no student's cookie is handed to another from the cache
    assert again.content == direct.content  # requests decompressed it: the same bytes


def test_the_apps_own_scripts_come_from_the_balancers_cache_only_with_their_version(topology):
    """plotly.js and figure.js (ui/served.py) are asked for at their version (in the folder's name and as ?v=):
    haproxy keeps those, for a year in browsers too; the same file without ?v= always goes to a replica, and a URL of
    another version is a 404 that nothing keeps."""
    student, connection = joined(topology.url)  # the replica's page ran: its component routes exist
    connection.close()
    cookies = {COOKIE: student.replica}
    headers = {"Accept-Encoding": "gzip"}

    def get(path: str, **kwargs) -> requests.Response:
        return requests.get(f"{topology.url}/{path}", headers=headers, timeout=30, **kwargs)

    for path in (served.PLOTLY_JS_PACKED, f"component/{served.SCRIPTS}/figure.js?v={served.VERSION}"):
        first, again = get(path, cookies=cookies), get(path, cookies=cookies)
        assert first.status_code == again.status_code == 200, path
        assert "Age" in again.headers and "Set-Cookie" not in again.headers, path  # from haproxy's cache
        assert again.headers["Cache-Control"] == "public, immutable, max-age=31536000"
        assert again.content == first.content
        cookieless = get(path)  # a browser without the balancer's cookie gets the kept copy, and no one's cookie
        assert "Age" in cookieless.headers and "Set-Cookie" not in cookieless.headers
        unversioned = [get(path.split("?")[0], cookies=cookies) for _ in "12"]
        assert [r.status_code for r in unversioned] == [200, 200]
        assert not any("Age" in r.headers or "immutable" in r.headers.get("Cache-Control", "") for r in unversioned)
        assert unversioned[1].content == again.content
        other = path.replace(served.VERSION, "0123456789ab")
        missing = [get(other, cookies=cookies) for _ in "12"]
        assert [r.status_code for r in missing] == [404, 404] and "Age" not in missing[1].headers, other
