"""The follower's wake-up (ui/live/wake.py) against stand-ins of Streamlit's session: asked for at once between
runs, with the page, address and browser context the last run settled; asked again once a run on its way has ended
(never during it: a request made during a page switch would carry the page before it); a session gone is forgotten."""

from __future__ import annotations

import asyncio

import pytest
from streamlit.errors import StreamlitAPIException
from streamlit.proto.ClientState_pb2 import ClientState

from ui.live import wake


class FakeStorage:
    """What wake reads of a session's fragment storage: the ids drawn under a fragment key."""

    def __init__(self, keys: dict[str, list[str]]) -> None:
        self.keys = keys

    def resolve_target(self, key: str) -> list[str]:
        if not self.keys.get(key):
            raise StreamlitAPIException(f"No fragment found for target '{key}'")
        return self.keys[key]


class FakeSession:
    """What wake reads of an AppSession: its fragments, its script runner (None between runs), its last run's
    client state; and the runner it starts."""

    def __init__(self, page: str, query: str, busy: bool = False) -> None:
        self._client_state = ClientState(page_script_hash=page, query_string=query)
        self._client_state.context_info.timezone = "America/Argentina/Buenos_Aires"
        self._scriptrunner = object() if busy else None
        self.fragments = {"poll"}
        self._fragment_storage = FakeStorage({"poll_key": ["poll"]})
        self.started: list = []

    def has_fragment(self, fragment_id: str) -> bool:
        return fragment_id in self.fragments

    def _create_scriptrunner(self, rerun) -> None:
        self.started.append(rerun)


class FakeRuntime:
    def __init__(self, sessions: dict[str, FakeSession]) -> None:
        self.sessions = sessions

    def get_app_session(self, session_id: str) -> FakeSession | None:
        return self.sessions.get(session_id)


@pytest.fixture
def sessions(monkeypatch) -> dict[str, FakeSession]:
    found: dict[str, FakeSession] = {}
    monkeypatch.setattr(wake.Runtime, "instance", classmethod(lambda cls: FakeRuntime(found)))
    monkeypatch.setattr(wake, "_FOLLOWERS", {})
    monkeypatch.setattr(wake, "RETRY_S", 0.01)
    return found


def follow(session_id: str, code: str = "ABC234", then: str | None = None) -> None:
    with wake._LOCK:
        wake._FOLLOWERS.setdefault(code, {})[session_id] = wake.Follower(code, "poll", then)


async def settle(seconds: float = 0.1) -> None:
    await asyncio.sleep(seconds)


def test_a_follower_between_runs_gets_its_poll_run_on_the_page_and_address_its_last_run_settled(sessions):
    sessions["s1"] = FakeSession("page-walk", "class=ABC234&step=3")
    follow("s1")

    async def ring() -> int:
        return wake.wake("ABC234")

    assert asyncio.run(ring()) == 1
    (rerun,) = sessions["s1"].started
    assert (rerun.fragment_id_queue, rerun.page_script_hash, rerun.query_string) == (
        ["poll"],
        "page-walk",
        "class=ABC234&step=3",
    )
    assert rerun.widget_states is None and rerun.is_auto_rerun
    assert rerun.context_info.timezone == "America/Argentina/Buenos_Aires"


def test_a_follower_with_a_run_on_its_way_is_woken_once_that_run_has_ended(sessions):
    busy = sessions["s1"] = FakeSession("page-before", "class=ABC234", busy=True)
    follow("s1")

    async def ring_during_a_run() -> int:
        asked = wake.wake("ABC234")
        await settle()
        assert busy.started == []  # never during the run
        busy._client_state.page_script_hash = "page-after"  # the run switched the page, and ended
        busy._scriptrunner = None
        await settle()
        return asked

    assert asyncio.run(ring_during_a_run()) == 0
    (rerun,) = busy.started
    assert rerun.page_script_hash == "page-after"


def test_only_the_class_that_rang_is_woken_and_a_session_gone_is_forgotten(sessions):
    sessions["s1"] = FakeSession("p", "class=ABC234")
    sessions["other"] = FakeSession("p", "class=XYZ789")
    follow("s1")
    follow("gone")
    follow("other", "XYZ789")

    async def ring() -> int:
        return wake.wake("ABC234")

    assert asyncio.run(ring()) == 1
    assert len(sessions["s1"].started) == 1 and sessions["other"].started == []
    assert set(wake.followers("ABC234")) == {"s1"} and set(wake.followers("XYZ789")) == {"other"}


def test_a_follower_whose_poll_is_no_longer_drawn_is_forgotten_not_woken(sessions):
    session = sessions["s1"] = FakeSession("p", "class=ABC234")
    session.fragments = set()  # left the class, or stopped following: the poll is not drawn
    follow("s1")

    async def ring() -> int:
        return wake.wake("ABC234")

    assert asyncio.run(ring()) == 0 and session.started == [] and wake.followers("ABC234") == {}


def test_where_the_page_draws_the_part_the_same_run_reruns_it_after_the_poll(sessions):
    walk = sessions["walk"] = FakeSession("page-walk", "class=ABC234&step=2")
    walk.fragments.add("part")
    walk._fragment_storage.keys["part_key"] = ["part"]
    other = sessions["other"] = FakeSession("page-softmax", "class=ABC234")  # its page has no part
    follow("walk", then="part_key")
    follow("other", then="part_key")

    async def ring() -> int:
        return wake.wake("ABC234")

    assert asyncio.run(ring()) == 2
    assert [rerun.fragment_id_queue for rerun in walk.started] == [["poll", "part"]]
    assert [rerun.fragment_id_queue for rerun in other.started] == [["poll"]]
