"""One student's connection to a Streamlit server, spoken the way the browser speaks it.

The browser opens the websocket `/_stcore/stream` (subprotocols "streamlit" and an auth placeholder), sends a
`BackMsg` whose `rerun_script` carries the page, the query string and every widget's state, and the server
answers with `ForwardMsg`s (deltas, page info, ...) until a `script_finished`. A run is timed from the send to
that message. The classes come from the installed streamlit package (`streamlit.proto`), so the messages are the
ones the server reads.

As the browser does, a connection keeps what the server drew (`Page`): the ids of the page's widgets and the
fragment each sits in, the page shown, and the fragments the page asks to rerun on a timer (`auto_rerun`, what a
`st.fragment(run_every=...)` sends; the browser, not the server, keeps that timer). A recorded message is sent in
the terms of the page the server drew now: a widget is named by its key, a fragment by the widgets in it. That
matters because Streamlit silently drops a rerun of a fragment it does not have (a fragment's id follows the page's
layout above it): a recording made before a change of layout would otherwise wait forever for its run's end.

As the browser does, a connection also keeps the hash of every message the server marked cacheable and names them in
each BackMsg (`cached_message_hashes`): the server then sends such an element, unchanged since, as a reference to
its hash (`ref_hash`) instead of whole (`global.minCachedMessageSize` in .streamlit/config.toml sets which are).
It forgets them as the browser does (`MessageCache`), so that a long run neither names ever more hashes nor gets
references the browser would have been sent whole.

Plain blocking sockets (websocket-client); Locust's gevent makes them cooperative.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

# What the frontend sends as the second subprotocol when it has no XSRF token (the server only reads it to check
# an auth cookie, which a student does not have).
AUTH_PLACEHOLDER = "PLACEHOLDER_AUTH_TOKEN"
RUN_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class RunError(Exception):
    """The server ended a run with an exception on the page, a compile error, or closed the connection."""


class RunTimeoutError(RunError):
    """Nothing ended the run (or the wait) in time."""


@dataclass(frozen=True)
class Run:
    """One script run as the client saw it."""

    seconds: float  # from sending the BackMsg to receiving its script_finished
    frames: int  # websocket messages received for it
    received: int  # their bytes
    messages: tuple[ForwardMsg, ...] = ()  # the messages themselves, when asked for (`run(..., keep=True)`)


class MessageCache:
    """The browser's cache of cacheable messages (Streamlit's ForwardMsgCache, frontend): each hash with the count of
    finished runs when it was last received, whole or as a reference. When a run finishes, the count grows and a
    hash not seen for more than `max_age` runs (`global.maxCachedMessageAge`, sent in new_session's config) is
    forgotten; a fragment's run only ages the messages of its own fragments."""

    def __init__(self, max_age: int = 2) -> None:
        self.max_age = max_age
        self.runs = 0
        self._seen: dict[str, tuple[int, str]] = {}  # hash: (runs when last received, its fragment's id or "")

    def read(self, msg: ForwardMsg) -> None:
        """Remember a cacheable message, or that one held was named again by a reference."""
        if msg.WhichOneof("type") == "ref_hash":
            if msg.ref_hash in self._seen:
                self._seen[msg.ref_hash] = (self.runs, self._seen[msg.ref_hash][1])
        elif msg.metadata.cacheable and msg.hash:
            fragment = msg.delta.fragment_id if msg.WhichOneof("type") == "delta" else ""
            self._seen[msg.hash] = (self.runs, self._seen[msg.hash][1] if msg.hash in self._seen else fragment)

    def run_finished(self, fragment_ids: tuple[str, ...] = ()) -> None:
        """A run (or a run of `fragment_ids`) finished: age the messages, forget those too old."""
        self.runs += 1
        for hash_, (last, fragment) in list(self._seen.items()):
            if fragment_ids and fragment not in fragment_ids:
                continue  # a fragment's run leaves the rest of the page's messages as they were
            if self.runs - last > self.max_age:
                del self._seen[hash_]

    def hashes(self) -> list[str]:
        """The hashes held, as a BackMsg names them."""
        return sorted(self._seen)


@dataclass
class Page:
    """What the server drew for one student so far, kept across reconnects as the browser keeps its page."""

    widgets: dict[str, str] = field(default_factory=dict)  # widget id → the fragment it sits in ("" for none)
    labels: dict[str, str] = field(default_factory=dict)  # widget id → its label (a button's text)
    fragments: set[str] = field(default_factory=set)  # every fragment the page drew or put on a timer
    timers: dict[str, float] = field(default_factory=dict)  # fragment id → seconds between its auto reruns
    page_script_hash: str = ""  # the page shown (st.switch_page changes it)
    query_string: str = ""  # the address bar's query string, as the app last wrote it

    def read(self, msg: ForwardMsg) -> None:
        """Note what one message from the server draws, switches to or puts on a timer."""
        kind = msg.WhichOneof("type")
        if kind == "delta":
            delta = msg.delta
            if delta.fragment_id:
                self.fragments.add(delta.fragment_id)
            if delta.WhichOneof("type") == "new_element":
                element = delta.new_element
                inner = getattr(element, element.WhichOneof("type") or "", None)
                if inner is not None and "id" in inner.DESCRIPTOR.fields_by_name and inner.id:
                    self.widgets[inner.id] = delta.fragment_id
                    if "label" in inner.DESCRIPTOR.fields_by_name:
                        self.labels[inner.id] = inner.label
        elif kind == "new_session":
            self.page_script_hash = msg.new_session.page_script_hash
        elif kind == "navigation":
            self.page_script_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            self.fragments.add(msg.auto_rerun.fragment_id)
        elif kind == "stop_auto_rerun":
            for fragment_id in msg.stop_auto_rerun.fragment_ids:
                self.timers.pop(fragment_id, None)

    def adapt(self, message: BackMsg) -> BackMsg:
        """`message` in this page's terms: a widget the page has under another id is named by the id it has now
        (found by its key, the end of its id), and a fragment the page does not have is the page's fragment that
        holds the message's widgets. A button press for a button the page does not have, or a fragment that cannot
        be found, is a RunError: the server would silently do nothing."""
        adapted = BackMsg()
        adapted.CopyFrom(message)
        rerun = adapted.rerun_script
        by_key: dict[str, list[str]] = {}
        for widget_id in self.widgets:
            by_key.setdefault(_key(widget_id), []).append(widget_id)
        for state in rerun.widget_states.widgets:
            live = by_key.get(_key(state.id), [])
            if state.id not in self.widgets and _key(state.id) != "None" and len(live) == 1:
                state.id = live[0]
            if state.WhichOneof("value") == "trigger_value" and state.trigger_value and state.id not in self.widgets:
                raise RunError(f"the page has no widget {state.id} to press: record anew (loadtest/record.py)")
        if rerun.fragment_id and rerun.fragment_id not in self.fragments:
            holding = {self.widgets.get(s.id, "") for s in rerun.widget_states.widgets} - {""}
            if len(holding) != 1:
                raise RunError(f"the page has no fragment {rerun.fragment_id} (its widgets are in {len(holding)})")
            rerun.fragment_id = holding.pop()
        return adapted


def _key(widget_id: str) -> str:
    """The key the app gave a widget: the end of its id `$$ID-<hash>-<key>` ("None" for a widget without one)."""
    return widget_id.rsplit("-", 1)[-1]


class Connection:
    """A websocket to one Streamlit server (or a balancer in front of it) for one session.

    `cookies` go with the handshake (a balancer's sticky cookie); `session_id` asks the server to resume a session
    it still has, as the browser does when it reconnects, and `page` is what the browser still shows then.
    `timeout` bounds the handshake and each run: a run not finished after that long is a RunError.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 120,
        cookies: str = "",
        session_id: str = "",
        page: Page | None = None,
    ) -> None:
        self.timeout = timeout
        self.page = page if page is not None else Page()
        ws_url = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/")
        protocols = ["streamlit", AUTH_PLACEHOLDER] + ([session_id] if session_id else [])
        self.socket = websocket.create_connection(
            f"{ws_url}/_stcore/stream",
            timeout=timeout,
            subprotocols=protocols,
            cookie=cookies or None,
            origin=base_url.rstrip("/"),
            enable_multithread=False,
        )
        self.session_id = ""  # the server's id for this session, from its new_session message
        self.cache = MessageCache()  # the cacheable messages received, as the browser's message cache
        self._fragments: tuple[str, ...] = ()  # the fragment the run asked for runs (none: the whole page)
        # called with every message received, as it arrives (a page that reads what the server sends by itself)
        self.on_message: Callable[[ForwardMsg], None] | None = None
        self._unasked: set[str] = set()  # the fragments of a run the server began by itself, so far

    def run(self, message: BackMsg, *, keep: bool = False) -> Run:
        """Send one BackMsg that asks for a run (in this page's terms, `Page.adapt`) and wait for that run to
        finish, at most `timeout` seconds; `keep` keeps the run's messages in the Run."""
        message = self.page.adapt(message)
        message.rerun_script.cached_message_hashes[:] = self.cache.hashes()
        self._fragments = (message.rerun_script.fragment_id,) if message.rerun_script.fragment_id else ()
        start = time.perf_counter()
        deadline = start + self.timeout
        self.socket.send_binary(message.SerializeToString())
        frames = received = 0
        kept: list[ForwardMsg] = []
        try:
            while True:
                msg = self._receive(deadline)
                if msg is None:
                    continue
                frames += 1
                received += msg.ByteSize()
                if keep:
                    kept.append(msg)
                if self._ends_run(msg):
                    return Run(time.perf_counter() - start, frames, received, tuple(kept))
        finally:
            self.socket.settimeout(self.timeout)

    def _receive(self, deadline: float) -> ForwardMsg | None:
        """The next message from the server (None for a ping or pong), or a RunError after `deadline`. The server's
        pings come every few seconds, so the socket's own timeout, which each of them restarts, would never end a
        wait for a run the server dropped."""
        left = deadline - time.perf_counter()
        if left <= 0:
            raise RunTimeoutError(f"no end of the run after {self.timeout:g} s")
        self.socket.settimeout(left)
        try:
            opcode, payload = self.socket.recv_data(control_frame=True)
        except websocket.WebSocketTimeoutException as exc:
            raise RunTimeoutError(f"no end of the run after {self.timeout:g} s") from exc
        except (websocket.WebSocketException, OSError) as exc:
            raise RunError(f"connection lost: {type(exc).__name__}: {exc}") from exc
        if opcode == websocket.ABNF.OPCODE_CLOSE:
            raise RunError("the server closed the connection")
        if opcode in (websocket.ABNF.OPCODE_PING, websocket.ABNF.OPCODE_PONG):
            return None
        msg = ForwardMsg.FromString(payload)
        self.cache.read(msg)
        self.page.read(msg)
        if self.on_message is not None:
            self.on_message(msg)
        return msg

    def _ends_run(self, msg: ForwardMsg) -> bool:
        """Whether `msg` ends the run asked for (a RunError for an exception on the page or a compile error)."""
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.session_id = msg.new_session.initialize.session_id
            self.cache.max_age = msg.new_session.config.max_cached_message_age
        elif kind == "delta" and msg.delta.new_element.WhichOneof("type") == "exception":
            raise RunError(f"exception on the page: {msg.delta.new_element.exception.message}")
        elif kind == "script_finished":
            if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                raise RunError("the script did not compile")
            # FINISHED_EARLY_FOR_RERUN: a newer run replaces this one; its own script_finished follows
            if msg.script_finished in RUN_DONE:
                self.cache.run_finished(self._fragments)
                return True
        return False

    def listen(self, seconds: float, until: Callable[[], bool] | None = None) -> list[ForwardMsg]:
        """What the server sends in the next `seconds` (its pings are answered), as an idle browser tab reads it;
        `until()`, checked after each message, ends the wait early when true. A run the server began by itself (a
        follower woken by the lecturer's step) ages the message cache, when it ends, as the browser's does: only
        the messages of the fragments it drew (one that drew nothing ages nothing)."""
        deadline = time.perf_counter() + seconds
        messages = []
        try:
            while until is None or not until():
                msg = self._receive(deadline)
                if msg is None:
                    continue
                messages.append(msg)
                kind = msg.WhichOneof("type")
                if kind == "delta" and msg.delta.fragment_id:
                    self._unasked.add(msg.delta.fragment_id)
                elif kind == "script_finished" and msg.script_finished in RUN_DONE:
                    if self._unasked:
                        self.cache.run_finished(tuple(sorted(self._unasked)))
                    self._unasked = set()
        except RunTimeoutError:
            pass  # the time is up
        finally:
            self.socket.settimeout(self.timeout)
        return messages

    def close(self) -> None:
        with contextlib.suppress(websocket.WebSocketException, OSError):  # already gone: nothing to release
            self.socket.close()
