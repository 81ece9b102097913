"""A live class's follower on a real server (issue 28's speed): the lecturer's step moves the follower at once, without
the follower's page asking (the server wakes it: ui/live/wake.py), and reruns only the follower's part fragment (the
part, its question, the address's ?step=), not the whole page, which the step does not change; a change of page
still reruns (and switches) the whole page. The page's own poll stays, as the fallback, at FOLLOW_EVERY."""

from __future__ import annotations

import time
from collections.abc import Sequence

import pytest
import redis
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.bench_live import Lecturer
from classroom.bell import CHANNEL
from deploy.topology import Topology, missing_programs
from loadtest.protocol import RUN_DONE, Connection, Run
from loadtest.recording import WALK_PART
from tests.benchmark_runs import require
from ui.live.follow import FOLLOW_EVERY

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    with Topology(replicas=1, balancer=False, redis=False) as topology:
        yield topology.url


def join(url: str, code: str) -> Connection:
    student = Connection(url, timeout=60)
    opening = BackMsg()
    opening.rerun_script.query_string = f"class={code}"
    opening.rerun_script.page_name = "walkthrough"
    student.run(opening)
    return student


def poll(student: Connection) -> Run:
    """The follower's poll fragment's next run, as the browser's timer asks for it."""
    message = BackMsg()
    message.rerun_script.query_string = student.page.query_string
    message.rerun_script.page_script_hash = student.page.page_script_hash
    message.rerun_script.fragment_id = next(iter(student.page.timers))
    message.rerun_script.is_auto_rerun = True
    return student.run(message, keep=True)


def parts_shown(messages: Sequence[ForwardMsg]) -> list[int]:
    parts = []
    for msg in messages:
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            widget_id = getattr(getattr(element, element.WhichOneof("type")), "id", "")
            if part := WALK_PART.search(widget_id):
                parts.append(int(part.group(1)))
    return parts


def page_level(messages: Sequence[ForwardMsg]) -> list[str]:
    """What the runs drew or set outside any fragment: a whole page's run."""
    kinds = [msg.WhichOneof("type") for msg in messages]
    drawn = [
        f"delta {msg.delta.WhichOneof('type')}"
        for msg in messages
        if msg.WhichOneof("type") == "delta" and not msg.delta.fragment_id
    ]
    return drawn + [kind for kind in kinds if kind in ("navigation", "page_config_changed")]


def subscribed(redis_url: str, seconds: float = 10) -> None:
    """Wait until a replica listens on the class bell. Its first follower's poll starts the listening thread, which
    subscribes a moment after the join's run has ended; a ring published before that is heard by nobody (the page's
    own poll would catch up within FOLLOW_EVERY, which this test's student never runs)."""
    client = redis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + seconds
        while client.pubsub_numsub(CHANNEL)[0][1] < 1:
            assert time.monotonic() < deadline, f"no replica listened on the bell within {seconds} s"
            time.sleep(0.02)
    finally:
        client.close()


def woken(student: Connection, moved) -> list[ForwardMsg]:
    """What the server sends the student by itself until `moved()` and the run that moved it ended (at most 30 s);
    the student never polls."""
    ended: list[bool] = []
    student.on_message = lambda msg: ended.append(
        msg.WhichOneof("type") == "script_finished" and msg.script_finished in RUN_DONE
    )
    try:
        messages = student.listen(30, until=lambda: moved() and bool(ended) and ended[-1])
    finally:
        student.on_message = None
    assert moved(), f"the follower was not moved without polling ({len(messages)} messages in 30 s)"
    return messages


def test_the_page_polls_only_as_a_fallback(server):
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    assert list(student.page.timers.values()) == [FOLLOW_EVERY] and FOLLOW_EVERY >= 5


def test_a_followers_step_comes_without_a_poll_reruns_only_the_part_and_keeps_the_address(server):
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    for part in range(2, 6):
        lecturer.next_part()
        messages = woken(student, lambda part=part: f"step={part}" in student.page.query_string)
        assert parts_shown(messages) == [part]
        assert page_level(messages) == [], part


def test_a_followers_step_is_one_run_the_poll_then_the_part(server):
    """The wake-up asks for the poll and the part's fragment in one run: the server runs one script per follower and
    step, not the poll's run and then the part's."""
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    for part in (2, 3):
        lecturer.next_part()
        messages = woken(student, lambda part=part: f"step={part}" in student.page.query_string)
        runs = [msg for msg in messages if msg.WhichOneof("type") == "script_finished"]
        assert len(runs) == 1, [msg.script_finished for msg in runs]
        assert parts_shown(messages) == [part]


def test_a_polling_follower_is_not_moved_twice(server):
    """The fallback poll after the wake-up finds nothing new: it draws nothing."""
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    lecturer.next_part()
    woken(student, lambda: "step=2" in student.page.query_string)
    student.listen(1)  # the wake-up's last messages
    run = poll(student)
    assert parts_shown(run.messages) == [] and page_level(run.messages) == []


def test_a_change_of_page_still_reruns_the_whole_page(server):
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    walkthrough = student.page.page_script_hash
    switch = lecturer.message()
    switch.rerun_script.page_name = "softmax"
    switch.rerun_script.page_script_hash = ""
    lecturer.connection.run(switch)
    messages = woken(student, lambda: student.page.page_script_hash not in ("", walkthrough))
    assert page_level(messages), "the follower's page ran whole"
    assert student.page.page_script_hash == lecturer.connection.page.page_script_hash


def test_on_replicas_a_step_on_one_wakes_the_followers_on_another():
    """Redis's bell: the lecturer on one replica, the student on the other, the student never polls."""
    require(missing_programs(redis=True), "two replicas on Redis")
    with Topology(replicas=2, balancer=False, redis=True) as topology:
        one, other = topology.started
        lecturer = Lecturer(one.url)
        lecturer.open_class()
        student = join(other.url, lecturer.code)
        subscribed(topology.redis_url)
        for part in (2, 3):
            lecturer.next_part()
            messages = woken(student, lambda part=part: f"step={part}" in student.page.query_string)
            assert parts_shown(messages) == [part]
