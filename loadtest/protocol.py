"""One student's connection to a Streamlit server, spoken the way the browser speaks it.

The browser opens the websocket `/_stcore/stream` (subprotocols "streamlit" and an auth placeholder), sends a
`BackMsg` whose `rerun_script` carries the page, the query string and every widget's state, and the server
answers with `ForwardMsg`s (deltas, page info, ...) until a `script_finished`. A run is timed from the send to
that message. The classes come from the installed streamlit package (`streamlit.proto`), so the messages are the
ones the server reads.

Plain blocking sockets (websocket-client); Locust's gevent makes them cooperative.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

# What the frontend sends as the second subprotocol when it has no XSRF token (the server only reads it to check
# an auth cookie, which a student does not have).
AUTH_PLACEHOLDER = "PLACEHOLDER_AUTH_TOKEN"
RUN_DEADLINE_S = 300  # a run the server never ends (messages keep coming, none says it finished)
RUN_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class RunError(Exception):
    """The server ended a run with an exception on the page, a compile error, or closed the connection."""


@dataclass(frozen=True)
class Run:
    """One script run as the client saw it."""

    seconds: float  # from sending the BackMsg to receiving its script_finished
    frames: int  # websocket messages received for it
    received: int  # their bytes


class Connection:
    """A websocket to one Streamlit server (or a balancer in front of it) for one session.

    `cookies` go with the handshake (a balancer's sticky cookie); `session_id` asks the server to resume a session
    it still has, as the browser does when it reconnects.
    """

    def __init__(self, base_url: str, *, timeout: float = 120, cookies: str = "", session_id: str = "") -> None:
        self.timeout = timeout
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

    def run(self, message: BackMsg) -> Run:
        """Send one BackMsg that asks for a run and wait for that run to finish."""
        start = time.perf_counter()
        self.socket.send_binary(message.SerializeToString())
        frames = received = 0
        while True:
            if time.perf_counter() - start > RUN_DEADLINE_S:  # a run that never reports its end is a failure
                raise RunError(f"no end of the run after {RUN_DEADLINE_S} s")
            try:
                opcode, payload = self.socket.recv_data()
            except (websocket.WebSocketException, OSError) as exc:
                raise RunError(f"connection lost: {type(exc).__name__}: {exc}") from exc
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                raise RunError("the server closed the connection")
            frames += 1
            received += len(payload)
            msg = ForwardMsg.FromString(payload)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id
            elif kind == "delta" and msg.delta.new_element.WhichOneof("type") == "exception":
                raise RunError(f"exception on the page: {msg.delta.new_element.exception.message}")
            elif kind == "script_finished":
                if msg.script_finished in RUN_DONE:
                    return Run(time.perf_counter() - start, frames, received)
                if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise RunError("the script did not compile")
                # FINISHED_EARLY_FOR_RERUN: a newer run replaces this one; its own script_finished follows

    def listen(self, seconds: float) -> None:
        """Read what the server sends for `seconds` (its pings are answered), as an idle browser tab does."""
        self.socket.settimeout(seconds)
        try:
            self.socket.recv_data()
        except websocket.WebSocketTimeoutException:
            pass  # nothing came: the tab stayed idle
        finally:
            self.socket.settimeout(self.timeout)

    def close(self) -> None:
        with contextlib.suppress(websocket.WebSocketException, OSError):  # already gone: nothing to release
            self.socket.close()
