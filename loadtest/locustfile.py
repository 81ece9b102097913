"""What students do to the server, as Locust users (https://locust.io), speaking Streamlit's websocket protocol.

A student joins: fetches what the browser fetched to open the page (index.html, Streamlit's JavaScript, CSS and
fonts, the health and host-config checks: the recorded list, unless --no-static), opens `/_stcore/stream` and asks
for the page's first run. Timed as "first page", until that run has finished and the files the browser loads after
it are in. Then, every 2 to 4 s, the student changes something and the page answers ("interaction", timed from
the BackMsg sent to its run finished): on the builder, the temperature slider to a random value and the causal
mask on or off; on the walkthrough, Next to part 5, then Previous back to part 1. Half the students work on each.
The messages are a real browser's (loadtest/record.py), replayed with the widget values changed.

Scenarios (the user class named on the command line):
- ClassStudent, a class at work:   locust -f loadtest/locustfile.py ClassStudent -u 60 -r 6 -t 2m --headless -H URL
- JoiningStudent, a join storm: N students open the link within 10 s and stay: -u 200 -r 20.
- The live class's followers (issue 28) are not here yet: see README, "Hosting a class".

`--results FILE` writes every timing (ms) as JSON when the run ends, for benchmarks/bench_capacity.py.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from pathlib import Path

from gevent.pool import Pool
from geventhttpclient import HTTPClient
from locust import User, between, constant, events, task

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loadtest.protocol import Connection, RunError
from loadtest.recording import Recording, builder_step

RECORDINGS = {page: Recording.load(page) for page in ("builder", "walkthrough")}
BROWSER_CONNECTIONS = 6  # what Chromium opens to one host over HTTP/1.1
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate, br, zstd", "User-Agent": "loadtest (Locust)"}
# Every timing as [when it ended (Unix time), milliseconds], by kind, for --results.
TIMINGS: dict[str, list[list[float]]] = {"first page": [], "interaction": [], "failures": []}
_pages = itertools.cycle(RECORDINGS)


@events.init_command_line_parser.add_listener
def _arguments(parser) -> None:
    parser.add_argument("--results", default="", help="write every timing (ms) to this JSON file at the end")
    parser.add_argument("--no-static", action="store_true", help="join without fetching the browser's files")


@events.quitting.add_listener
def _write_results(environment, **_kwargs) -> None:
    if environment.parsed_options and environment.parsed_options.results:
        Path(environment.parsed_options.results).write_text(json.dumps(TIMINGS), encoding="utf-8")


class HTTPError(OSError):
    """A static file or the page answered with an error."""


class Student(User):
    """One browser tab: a session on one page of the app."""

    abstract = True

    def on_start(self) -> None:
        self.recording = RECORDINGS[next(_pages)]
        self.rng = random.Random()
        self.http = HTTPClient.from_url(self.host, concurrency=BROWSER_CONNECTIONS, network_timeout=120)
        self.cookies: dict[str, str] = {}  # what the page's responses set (the balancer's sticky cookie)
        self.connection: Connection | None = None
        self.join()

    def on_stop(self) -> None:
        if self.connection is not None:
            self.connection.close()

    def join(self) -> None:
        """Open the page as a browser does; reported as "first page"."""
        start = time.perf_counter()
        received = 0
        try:
            if not self.environment.parsed_options.no_static:
                page, *files = self.recording.static_paths(before_first_run=True)
                received += self.fetch([page])  # the page first: its answer sets the balancer's cookie
                received += self.fetch(files)
            self.connection = Connection(self.host, cookies=self.cookie_header())
            received += self.connection.run(self.recording.opening()).received
            if not self.environment.parsed_options.no_static:
                received += self.fetch(self.recording.static_paths(before_first_run=False))
            self.walk = itertools.cycle(self.recording.steps())
            self.report("first page", start, received)
        except (RunError, OSError, HTTPError) as exc:
            self.connection = None
            self.report("first page", start, received, exc)

    def fetch(self, paths: list[str]) -> int:
        """GET `paths` over BROWSER_CONNECTIONS connections at once, reading the bytes as sent (compressed or not)."""

        def get(path: str) -> int:
            headers = {**BROWSER_HEADERS, **({"Cookie": self.cookie_header()} if self.cookies else {})}
            response = self.http.get(path, headers=headers)
            body = response.read()  # as sent: compressed or not
            for name, value in response.items():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            if response.status_code >= 400 and not path.endswith(("/_stcore/health", "/_stcore/host-config")):
                raise HTTPError(f"{response.status_code} for {path}")  # a page's own /<page>/_stcore/ probes 404
            return len(body)

        return sum(Pool(BROWSER_CONNECTIONS).imap_unordered(get, paths))

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def interact(self) -> None:
        """One change on the page; reported as "interaction". A student whose connection broke joins again."""
        if self.connection is None:
            self.join()
            return
        start = time.perf_counter()
        message = builder_step(self.recording, self.rng) if self.recording.page == "builder" else next(self.walk)
        try:
            run = self.connection.run(message)
            self.report("interaction", start, run.received)
        except RunError as exc:
            self.connection.close()
            self.connection = None
            self.report("interaction", start, 0, exc)

    def report(self, name: str, start: float, length: int, exception: Exception | None = None) -> None:
        elapsed_ms = (time.perf_counter() - start) * 1000
        TIMINGS["failures" if exception else name].append([time.time(), elapsed_ms])
        self.environment.events.request.fire(
            request_type=self.recording.page,
            name=name,
            response_time=elapsed_ms,
            response_length=length,
            exception=exception,
            context={},
        )


class ClassStudent(Student):
    """A class at work: every 2 to 4 s, a change on the page."""

    wait_time = between(2, 4)

    @task
    def change_something(self) -> None:
        self.interact()


class JoiningStudent(Student):
    """A join storm: the student opens the link and reads (no interaction)."""

    wait_time = constant(0)

    @task
    def read(self) -> None:
        if self.connection is None:
            self.join()
            return
        try:
            self.connection.listen(5)
        except RunError:  # the connection broke: the tab joins again
            self.connection.close()
            self.connection = None
