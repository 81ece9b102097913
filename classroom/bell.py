"""The class's bell: who hears, at once, that the lecturer changed what the class sees.

A following student's page would otherwise learn of a change only by asking the store (a poll every second: with
200 students, 200 page runs a second on the server for nothing new). Instead each store rings its bell with the
class's code after every lecturer write that changed what a follower shows (the view, a new round, the reveal, the
end), never for a student's join or answer. The UI listens (ui/live/wake.py) and wakes that class's followers on this
server; a slow poll stays as the fallback for a ring that did not arrive.

- In-process store (classroom/memory.py): the bell rings in the lecturer's thread, right after the write.
- Redis store (classroom/redis_store.py): the write's own script PUBLISHes the code on CHANNEL (atomic with the
  write), and every replica's `RedisBell` hears it in one daemon thread (`redis-py` pub/sub) and rings its own
  listeners. A Redis that goes away is retried with a growing pause; rings missed meanwhile are left to the poll.

Pure Python, no streamlit. A listener is called with the class's code from the ringing thread: it must be quick and
not raise (an exception is logged and the other listeners still hear the ring).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

_LOG = logging.getLogger(__name__)
CHANNEL = "live:bell"  # the Redis pub/sub channel (not a key: no TTL, nothing stored)
RETRY_FIRST_S = 0.5  # the pause before listening again after Redis went away, doubled up to RETRY_MOST_S
RETRY_MOST_S = 10.0
WAIT_S = 1.0  # how long the listening thread waits for a message before it checks whether it should stop

Listener = Callable[[str], None]


class Bell:
    """Listeners called with a class's code when the class changed for its followers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        """Call `listener(code)` at every ring from now on (once, however often it is given)."""
        with self._lock:
            if listener not in self._listeners:
                self._listeners.append(listener)

    def ring(self, code: str) -> None:
        """Tell every listener that class `code` changed."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(code)
            except Exception:  # one listener's fault must not silence the others, nor fail the lecturer's write
                _LOG.exception("a listener of the class bell failed")


class RedisBell(Bell):
    """A Bell whose rings come from Redis: a thread subscribed to CHANNEL, started by the first listener."""

    def __init__(self, subscribe: Callable[[], object]) -> None:
        """`subscribe()` returns a redis-py PubSub (the store's client's `pubsub`); it is called again after a
        connection is lost."""
        super().__init__()
        self._subscribe = subscribe
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()  # set while subscribed (tests wait on it before they ring)

    def listen(self, listener: Listener) -> None:
        """Call `listener(code)` at every ring from now on; the first listener starts the listening thread."""
        super().listen(listener)
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._hear, name="class-bell", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Stop listening (the thread ends within WAIT_S)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=WAIT_S + RETRY_MOST_S)

    def _hear(self) -> None:
        pause = RETRY_FIRST_S
        while not self._stop.is_set():
            pubsub = None
            try:
                pubsub = self._subscribe()
                pubsub.subscribe(CHANNEL)  # type: ignore[attr-defined]
                while not self._stop.is_set():
                    message = pubsub.get_message(ignore_subscribe_messages=False, timeout=WAIT_S)  # type: ignore[attr-defined]
                    if message is None:
                        continue
                    if message.get("type") == "subscribe":
                        self.listening.set()
                        pause = RETRY_FIRST_S
                    elif message.get("type") == "message":
                        data = message.get("data")
                        self.ring(data.decode() if isinstance(data, bytes) else str(data))
            except Exception as error:  # Redis away (or any fault): said once per try, then tried again
                self.listening.clear()
                _LOG.warning("the class bell lost Redis (%s); listening again in %.1f s", type(error).__name__, pause)
                self._stop.wait(pause)
                pause = min(pause * 2, RETRY_MOST_S)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):  # already broken: nothing to release
                        pubsub.close()  # type: ignore[attr-defined]
