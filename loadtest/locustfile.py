"""What students do to the server, as Locust users (https://locust.io), speaking Streamlit's websocket protocol.

A student joins: fetches what the browser fetched to open the page (index.html, Streamlit's JavaScript, CSS and
fonts, the health and host-config checks; after the first run, the app's figure and copy scripts and plotly.js,
packed: the recorded list, unless --no-static), opens `/_stcore/stream` and asks for the page's first run. Timed
as "first page", until that run has finished and the files the browser loads after it are in. Then, every 2 to 4
s, the student changes something and the page answers ("interaction", timed from the BackMsg sent to its run
finished): on the builder, the temperature slider to a random value and the causal
mask on or off; on the walkthrough, Next to part 5, then Previous back to part 1. Half the students work on each.
The messages are a real browser's (loadtest/record.py), replayed with the widget values changed.

Scenarios (the user class named on the command line):
- ClassStudent, a class at work:   locust -f loadtest/locustfile.py ClassStudent -u 60 -r 6 -t 2m --headless -H URL
- JoiningStudent, a join storm: N students open the link within 10 s and stay: -u 200 -r 20.
- FollowingStudent, a live class (issue 28): N students join the class `--class-code` on the walkthrough and follow
  the lecturer (benchmarks/bench_live.py drives the lecturer): the page reads what the server sends by itself (the
  run that moves a follower when the lecturer steps) and, as the browser's timer does, reruns its poll fragment at
  the `auto_rerun` interval the server set (the fallback); when the page shows a part it did not show before, that
  is noted ("seen"); when it shows the class's question, the student thinks 1 to 3 s and answers.

`--results FILE` writes every timing (ms) as JSON when the run ends, for benchmarks/bench_capacity.py.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
import time
from argparse import ArgumentParser
from pathlib import Path

import gevent
from gevent.pool import Pool
from geventhttpclient import HTTPClient
from locust import User, between, constant, events, task
from locust.env import Environment

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from loadtest.protocol import Connection, RunError
from loadtest.recording import WALK_PART, Recording, builder_step
from ui.i18n import LANGUAGES
from ui.served import PLOTLY_JS, PLOTLY_JS_PACKED

RECORDINGS = {page: Recording.load(page) for page in ("builder", "walkthrough")}
BROWSER_CONNECTIONS = 6  # what Chromium opens to one host over HTTP/1.1
BROWSER_HEADERS = {"Accept-Encoding": "gzip, deflate, br, zstd", "User-Agent": "loadtest (Locust)"}
# Every timing as [when it ended (Unix time), milliseconds], by kind, for --results; a follower's "seen" is
# [when its page showed the part (Unix time), part, student], "answered" [sent, stored, part, student], and
# "errors" each failure's [when, what].
KINDS = ("first page", "interaction", "failures", "seen", "answered", "errors")
TIMINGS: dict[str, list[list]] = {kind: [] for kind in KINDS}
_pages = itertools.cycle(RECORDINGS)
_students = itertools.count()
ANSWER = re.compile(r"-live_answer_walk_(\d+)_(\d+)_(choice|number)$")  # a class question's input: part, round
SEND = LANGUAGES["es"]["live.quiz.send"]  # the answer form's button (a student reads the app in Spanish)


@events.init_command_line_parser.add_listener
def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--results", default="", help="write every timing (ms) to this JSON file at the end")
    parser.add_argument("--no-static", action="store_true", help="join without fetching the browser's files")
    parser.add_argument("--class-code", default="", help="FollowingStudent: the live class's room code")


@events.quitting.add_listener
def _write_results(environment: Environment, **_kwargs: object) -> None:
    if environment.parsed_options and environment.parsed_options.results:
        Path(environment.parsed_options.results).write_text(json.dumps(TIMINGS), encoding="utf-8")


class HTTPError(OSError):
    """A static file or the page answered with an error."""


class AppUser(User):
    """What every simulated tab shares: the app's address, closing its connection, reporting a timing to Locust."""

    abstract = True
    connection: Connection | None = None

    def app_address(self) -> str:
        if not self.host:
            raise ValueError("no app to load: run locust with --host http://HOST:PORT")
        return self.host

    def on_stop(self) -> None:
        if self.connection is not None:
            self.connection.close()

    def fire(self, request_type: str, name: str, elapsed_ms: float, length: int, exception: Exception | None) -> None:
        self.environment.events.request.fire(
            request_type=request_type,
            name=name,
            response_time=elapsed_ms,
            response_length=length,
            exception=exception,
            context={},
        )


class Student(AppUser):
    """One browser tab: a session on one page of the app."""

    abstract = True

    def on_start(self) -> None:
        self.recording = RECORDINGS[next(_pages)]
        self.rng = random.Random()
        self.base = self.app_address()
        self.http = HTTPClient.from_url(self.base, concurrency=BROWSER_CONNECTIONS, network_timeout=120)
        self.cookies: dict[str, str] = {}  # what the page's responses set (the balancer's sticky cookie)
        self.connection = None
        self.join()

    def join(self) -> None:
        """Open the page as a browser does; reported as "first page"."""
        start = time.perf_counter()
        received = 0
        try:
            if not self.environment.parsed_options.no_static:
                page, *files = self.recording.static_paths(before_first_run=True)
                received += self.fetch([page])  # the page first: its answer sets the balancer's cookie
                received += self.fetch(files)
            self.connection = Connection(self.base, cookies=self.cookie_header())
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
            if response.status_code == 404 and path == f"/{PLOTLY_JS_PACKED}":  # static_paths: today's URLs
                # a server that has not packed plotly.js yet draws its figures with the plain file (ui.served)
                response = self.http.get(f"/{PLOTLY_JS}", headers=headers)
                body = response.read()
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
        if exception is not None:
            TIMINGS["errors"].append([time.time(), f"{name}: {exception}"[:300]])
        self.fire(self.recording.page, name, elapsed_ms, length, exception)


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


class FollowingStudent(AppUser):
    """A phone in a live class: joins by the class's link, follows the lecturer, answers each question once.

    As the browser does, the page reads whatever the server sends, whenever it sends it (`Connection.on_message`):
    the run the server begins by itself when the lecturer steps (the follower woken, ui/live/wake.py) as well as
    the runs the page asks for. Between them, the page's poll fragment runs again at the interval the server set
    (`auto_rerun`), the fallback the browser's timer keeps. A part shown for the first time is noted ("seen") when
    its message arrives; a question shown is answered once, after 1 to 3 s of thought during which the page still
    reads what comes."""

    wait_time = constant(0)

    def on_start(self) -> None:
        self.number = next(_students)
        self.rng = random.Random(self.number)
        self.query = f"class={self.environment.parsed_options.class_code}"
        self.base = self.app_address()
        self.connection = None
        self.shown = 0  # the part the page shows
        self.answered: set[tuple[int, int]] = set()  # (part, round) answered
        self.next_poll = 0.0
        self.drawn: list[tuple[str, str, list[str]]] = []  # this run's answer inputs so far: (kind, id, options)
        self.submit = ""  # this run's answer button, if drawn
        self.question: tuple[str, str, list[str], str, tuple[int, int]] | None = None  # to answer
        self.join()

    def join(self) -> None:
        start = time.perf_counter()
        opening = BackMsg()
        opening.rerun_script.query_string = self.query
        opening.rerun_script.page_name = "walkthrough"
        try:
            self.connection = Connection(self.base)
            self.connection.on_message = self.note
            self.connection.run(opening)
            self.report("first page", start)
        except (RunError, OSError) as exc:
            self.connection = None
            self.report("first page", start, exc)

    @task
    def follow(self) -> None:
        """Read what the server sends until the poll fragment's timer is due (a question shown: answer it), then
        run the poll, as the browser's timer does."""
        if self.connection is None:
            gevent.sleep(1)
            self.join()
            return
        timers = self.connection.page.timers
        if not timers:
            gevent.sleep(1)
            return
        fragment_id, every = next(iter(timers.items()))
        start = time.perf_counter()
        try:
            self.connection.listen(max(0.0, self.next_poll - time.time()), until=lambda: self.question is not None)
        except RunError as exc:
            self.broken("listen", start, exc)
            return
        if self.question is not None:
            self.answer()
            return
        self.next_poll = time.time() + every
        poll = self.message()
        poll.rerun_script.fragment_id = fragment_id
        poll.rerun_script.is_auto_rerun = True
        start = time.perf_counter()
        try:
            self.connection.run(poll)
            self.report("follow poll", start)
        except RunError as exc:
            self.broken("follow poll", start, exc)

    def note(self, msg: ForwardMsg) -> None:
        """One message from the server, as it arrives: a part shown for the first time is noted; at a run's end, a
        question it drew that this student has not answered is the one to answer."""
        kind = msg.WhichOneof("type")
        if kind == "script_finished":
            self.ask_if_drawn()
            return
        if kind != "delta" or msg.delta.WhichOneof("type") != "new_element":
            return
        element = msg.delta.new_element
        element_kind = element.WhichOneof("type") or ""
        widget_id = str(getattr(getattr(element, element_kind), "id", "")) if element_kind else ""
        if (part := WALK_PART.search(widget_id)) and int(part.group(1)) != self.shown:
            self.shown = int(part.group(1))
            TIMINGS["seen"].append([time.time(), self.shown, self.number])
        if ANSWER.search(widget_id):
            self.drawn.append((element_kind, widget_id, list(element.radio.options) if element_kind == "radio" else []))
        if element_kind == "button" and element.button.label == SEND:
            self.submit = widget_id

    def ask_if_drawn(self) -> None:
        drawn, submit = self.drawn, self.submit
        self.drawn, self.submit = [], ""
        if not submit or len(drawn) != 1:
            return
        kind, widget_id, options = drawn[0]
        match = ANSWER.search(widget_id)
        assert match is not None
        asked = (int(match.group(1)), int(match.group(2)))
        if asked not in self.answered:
            self.question = (kind, widget_id, options, submit, asked)

    def answer(self) -> None:
        """Answer the question shown, once, after 1 to 3 s of thought (the page reads what comes meanwhile)."""
        assert self.question is not None and self.connection is not None
        kind, widget_id, options, submit, asked = self.question
        self.question = None
        self.answered.add(asked)
        start = time.perf_counter()
        try:
            self.connection.listen(self.rng.uniform(1, 3))  # reads the question, thinks
        except RunError as exc:
            self.broken("listen", start, exc)
            return
        page = self.connection.page
        if submit not in page.widgets:  # the page moved on meanwhile: that question is gone
            return
        answer = self.message()
        answer.rerun_script.fragment_id = page.widgets[submit]
        states = answer.rerun_script.widget_states.widgets
        value = states.add()
        value.id = widget_id
        if kind == "radio":
            value.string_value = self.rng.choice(options)  # a radio's value is its option as shown
        else:
            value.string_value = self.rng.choice(["0,5", "1", "0,25", "2"])
        pressed = states.add()
        pressed.id = submit
        pressed.trigger_value = True
        sent, start = time.time(), time.perf_counter()
        try:
            # run() returns at the first run's end: when a woken run the server began meanwhile ends first, "stored"
            # is that end, a little early (bench_live's answer → tally orders answers by it; "seen" is unaffected)
            self.connection.run(answer)
            TIMINGS["answered"].append([sent, time.time(), asked[0], self.number])
            self.report("answer", start)
        except RunError as exc:
            self.broken("answer", start, exc)

    def message(self) -> BackMsg:
        """A rerun as the browser asks for it: the address bar's query string, the page shown."""
        message = BackMsg()
        message.rerun_script.query_string = self.query
        if self.connection is not None:
            message.rerun_script.query_string = self.connection.page.query_string or self.query
            message.rerun_script.page_script_hash = self.connection.page.page_script_hash
        return message

    def broken(self, name: str, start: float, exc: Exception) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = None
        self.report(name, start, exc)

    def report(self, name: str, start: float, exception: Exception | None = None) -> None:
        elapsed_ms = (time.perf_counter() - start) * 1000
        if exception is not None:
            TIMINGS["failures"].append([time.time(), elapsed_ms])
            TIMINGS["errors"].append([time.time(), f"{name}: {exception}"[:300]])
        elif name == "first page":
            TIMINGS["first page"].append([time.time(), elapsed_ms])
        self.fire("live", name, elapsed_ms, 0, exception)
