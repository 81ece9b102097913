"""A live class's follower on a real server (issue 28's speed): the lecturer's step to another part reruns only the
follower's part fragment (the part, its question, the address's ?step=), not the whole page, which the step does
not change; a change of page still reruns (and switches) the whole page."""

from __future__ import annotations

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from benchmarks.bench_live import Lecturer
from deploy.topology import Topology
from loadtest.protocol import Connection, Run
from loadtest.recording import WALK_PART

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


def parts_shown(run: Run) -> list[int]:
    parts = []
    for msg in run.messages:
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            widget_id = getattr(getattr(element, element.WhichOneof("type")), "id", "")
            if part := WALK_PART.search(widget_id):
                parts.append(int(part.group(1)))
    return parts


def page_level(run: Run) -> list[str]:
    """What the run drew or set outside any fragment: a whole page's run."""
    kinds = [msg.WhichOneof("type") for msg in run.messages]
    drawn = [
        f"delta {msg.delta.WhichOneof('type')}"
        for msg in run.messages
        if msg.WhichOneof("type") == "delta" and not msg.delta.fragment_id
    ]
    return drawn + [kind for kind in kinds if kind in ("navigation", "page_config_changed")]


def test_a_followers_step_reruns_only_the_part_and_keeps_the_address(server):
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    for part in range(2, 6):
        lecturer.next_part()
        run = poll(student)
        assert parts_shown(run) == [part]
        assert f"step={part}" in student.page.query_string
        assert page_level(run) == [], part


def test_a_change_of_page_still_reruns_the_whole_page(server):
    lecturer = Lecturer(server)
    lecturer.open_class()
    student = join(server, lecturer.code)
    walkthrough = student.page.page_script_hash
    switch = lecturer.message()
    switch.rerun_script.page_name = "softmax"
    switch.rerun_script.page_script_hash = ""
    lecturer.connection.run(switch)
    run = poll(student)
    assert page_level(run), "the follower's page ran whole"
    assert student.page.page_script_hash not in ("", walkthrough)
    assert student.page.page_script_hash == lecturer.connection.page.page_script_hash
