"""Followers woken when the lecturer changes what the class sees (issue 28), instead of each asking every second.

A following student's page has a poll fragment (`ui.live.follow.follow_poll_ui`) that reads the class and applies
the lecturer's view. The browser reruns it on a timer; that timer is now only the fallback (FOLLOW_EVERY). What
moves a follower at once is the store's bell (classroom/bell.py): after every lecturer write that followers must see,
the store rings with the class's code, and this module asks each follower of that class on this server for a run of
their poll fragment, as the browser's timer would, from the server's side.

- `follow(code, store, key)`, from the poll fragment's run while following: this session is a follower of `code`, and
  its poll is the fragment keyed `key` (its id is kept for the wake-up).
- `unfollow()`: no longer (stopped following, left, or became the lecturer).
- The bell's ring (any thread: the lecturer's, or the Redis bell's) is handed to Streamlit's event loop; there, each
  follower of the class that is still connected and still has that fragment gets the run. A follower that is not
  connected (a phone asleep) is forgotten: its page's first run after it reconnects registers it again. Leaving the
  class forgets the session too, and once a minute `follow` forgets the followers whose session is gone.

The run asked for is the one the browser's timer sends (RerunData: the fragment, and the page, the address and the
browser's context the session's last run settled), without widget states, as `follow._rerun_part` asks Streamlit's
runner for the part's run; where the follower's page draws the walkthrough's part, the same run then reruns the
part's fragment (the queue `[poll, part]`), which shows the lecturer's new part: one run per follower and step, not
the poll's run and then the part's (`queued_after` tells the poll). It is asked for only between runs, when those
are settled (a session with a run on its way is asked again a moment later), by starting the session's script
runner as Streamlit's own `AppSession.request_rerun` does. Those are Streamlit internals, pinned with Streamlit in
requirements.txt; tests/serving/test_follow_step.py checks that a follower that never polls is moved by the
lecturer's step, in one run.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass

from streamlit.errors import StreamlitAPIException
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.fragment import FragmentStorage
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from classroom.api import ClassStore

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Follower:
    """A follower on this server: its class and its poll fragment."""

    code: str
    fragment_id: str
    then: str | None = None  # the key of a fragment the same run draws right after the poll, where the page has it


RETRY_S = 0.1  # a follower whose run is on its way is asked again this much later...
RETRIES = 100  # ... at most this many times (10 s), then left to its own poll
SWEEP_EVERY_S = 60.0  # how often `follow` drops the followers whose session this server no longer has

_LOCK = threading.Lock()
_FOLLOWERS: dict[str, dict[str, Follower]] = {}  # class code → session id → the follower
_HEARD: set[int] = set()  # the stores whose bell this server listens to (by id: one per store, made once)
_SWEPT = [0.0]  # time.monotonic() of the last sweep


def follow(code: str, store: ClassStore, fragment_key: str, then: str | None = None) -> None:
    """This session follows class `code`: woken by `store`'s bell from now on, by a run of the fragment keyed
    `fragment_key` (`st.fragment(key=...)`, the poll), which this page run has drawn, followed in the same run by
    the fragment keyed `then` when the session's page has it (the walkthrough's part: one run moves a follower, not
    the poll's run and then the part's)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    fragment_ids = drawn_ids(ctx.fragment_storage, fragment_key)
    if len(fragment_ids) != 1:  # none: not drawn in this run, nothing to wake
        return
    follower = Follower(code, fragment_ids[0], then)
    with _LOCK:
        for sessions in _FOLLOWERS.values():
            sessions.pop(ctx.session_id, None)
        _FOLLOWERS.setdefault(code, {})[ctx.session_id] = follower
        heard = id(store) in _HEARD
        _HEARD.add(id(store))
    if not heard:
        store.listen(rung)
    _sweep()


def _sweep() -> None:
    """At most once a SWEEP_EVERY_S: forget the followers whose session is gone (closed, or a phone that never came
    back), so that a server running for weeks keeps no more than its sessions."""
    now = time.monotonic()
    with _LOCK:
        if now - _SWEPT[0] < SWEEP_EVERY_S:
            return
        _SWEPT[0] = now
        every = [(session_id, one) for sessions in _FOLLOWERS.values() for session_id, one in sessions.items()]
    if not Runtime.exists():
        return
    runtime = Runtime.instance()
    for session_id, follower in every:
        if runtime.get_app_session(session_id) is None:  # thread-safe (Streamlit's Runtime says so)
            _forget(session_id, follower)


def unfollow() -> None:
    """This session follows no class any more (it may still poll: the poll then does nothing)."""
    ctx = get_script_run_ctx()
    if ctx is not None:
        _forget(ctx.session_id)


def followers(code: str) -> dict[str, Follower]:
    """The followers of class `code` on this server, by session id (a copy)."""
    with _LOCK:
        return dict(_FOLLOWERS.get(code, {}))


def _forget(session_id: str, only: Follower | None = None) -> None:
    with _LOCK:
        for code, sessions in list(_FOLLOWERS.items()):
            if session_id in sessions and (only is None or sessions[session_id] == only):
                del sessions[session_id]
            if not sessions:
                del _FOLLOWERS[code]


def rung(code: str) -> None:
    """The bell rang for class `code` (any thread): its followers are woken on Streamlit's event loop."""
    if not Runtime.exists() or not followers(code):
        return
    try:
        loop = Runtime.instance()._get_async_objs().eventloop
        loop.call_soon_threadsafe(wake, code)
    except RuntimeError:  # the server is stopping: nobody to wake
        return


def wake(code: str) -> int:
    """Ask each follower of class `code` on this server for a run of its poll fragment (now, or once the run it has
    on its way has ended); how many were asked now. Runs on Streamlit's event loop (AppSession is not
    thread-safe)."""
    return sum(_wake_one(session_id, follower, RETRIES) for session_id, follower in followers(code).items())


def _wake_one(session_id: str, follower: Follower, tries: int) -> bool:
    """Wake one follower, on the event loop: True when its run was asked for now. A session with a run on its way
    (its own answer, a switch to another page) is asked again RETRY_S later, at most `tries` times: only between
    runs are its page, its address and its browser's context the ones its last run settled (a request made during
    a page switch would carry the page before it, and take the new page's place)."""
    session = Runtime.instance().get_app_session(session_id)
    if session is None or not session.has_fragment(follower.fragment_id):
        _forget(session_id, follower)  # gone, asleep, or left: its next run registers it again
        return False
    if session._scriptrunner is not None:
        if tries > 0:
            asyncio.get_running_loop().call_later(RETRY_S, _wake_one, session_id, follower, tries - 1)
        return False  # out of tries: the page's own poll (FOLLOW_EVERY) is the fallback
    settled = session._client_state  # the last run's page, address and browser context (set on this loop)
    rerun = RerunData(
        query_string=settled.query_string,
        page_script_hash=settled.page_script_hash,
        fragment_id_queue=[follower.fragment_id, *_drawn(session, follower.then)],
        is_auto_rerun=True,
        context_info=settled.context_info if settled.HasField("context_info") else None,
    )
    try:
        session._create_scriptrunner(rerun)
    except Exception:  # one session's fault must not keep the others from following
        _LOG.exception("waking a follower failed")
        return False
    return True


def drawn_ids(storage: FragmentStorage, key: str) -> list[str]:
    """The ids of the fragment keyed `key` (`st.fragment(key=...)`) in a session's fragment `storage`; none when its
    page has not drawn it."""
    try:
        return storage.resolve_target(key)
    except StreamlitAPIException:
        return []


def _drawn(session: AppSession, key: str | None) -> list[str]:
    """The ids of the fragment keyed `key` that `session` holds now (none when its page does not draw it)."""
    ids = [] if key is None else drawn_ids(session._fragment_storage, key)
    return [fragment_id for fragment_id in ids if session.has_fragment(fragment_id)]


def queued_after(first: str, then: str) -> bool:
    """Whether this run (a fragment run) runs the fragment keyed `then` after the one keyed `first`: the queue a
    wake-up asks for (`follow`'s `then`)."""
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return False
    queue = ctx.fragment_ids_this_run
    first_ids, then_ids = drawn_ids(ctx.fragment_storage, first), drawn_ids(ctx.fragment_storage, then)
    if len(first_ids) != 1 or first_ids[0] not in queue or not then_ids:
        return False
    return all(i in queue and queue.index(i) > queue.index(first_ids[0]) for i in then_ids)
