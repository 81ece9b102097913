"""What one builder step sends over the websocket (issue 29): an element the browser already holds is sent as a
reference to its hash, not whole, so a temperature step sends the figures and tables it changes and little else.

The client keeps the hashes of the cacheable messages it received and names them in each request, as the browser's
message cache does (loadtest/protocol.py); which messages are cacheable is `global.minCachedMessageSize` in
.streamlit/config.toml (Streamlit's default, 10 kB, is more than any of the app's elements)."""

from __future__ import annotations

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from harness.server import ROOT, served
from loadtest.protocol import Connection, Run
from loadtest.recording import Recording, builder_opening, builder_step_at
from ui.figure_component import COMPONENT_NAME
from ui.matrix_text import TABLE_CLASS

pytestmark = pytest.mark.slow
STEP_BYTES = 30_000  # issue 29's target: half the 60 kB a builder slider step sent at its start


def figures_sent_whole(run: Run) -> int:
    return sum(
        1
        for msg in run.messages
        if msg.WhichOneof("type") == "delta"
        and msg.delta.new_element.WhichOneof("type") == "bidi_component"
        and msg.delta.new_element.bidi_component.component_name.endswith(COMPONENT_NAME)
    )


def copy_buttons_sent(run: Run) -> list[ForwardMsg]:
    return [
        msg
        for msg in run.messages
        if msg.WhichOneof("type") == "delta"
        and msg.delta.new_element.bidi_component.component_name.endswith("attention_copy_button")
    ]


def tables_sent(run: Run) -> list[ForwardMsg]:
    return [
        msg
        for msg in run.messages
        if msg.WhichOneof("type") == "delta" and f'class="{TABLE_CLASS}"' in msg.delta.new_element.html.body
    ]


def references(run: Run) -> list[ForwardMsg]:
    return [msg for msg in run.messages if msg.WhichOneof("type") == "ref_hash"]


def test_a_builder_step_sends_the_figures_the_browser_holds_as_references_and_under_30_kilobytes():
    recording = Recording.load("builder")
    with served(ROOT / "app.py") as server:
        connection = Connection(server.url)
        try:
            drawn = connection.run(builder_opening(recording), keep=True)
            # a temperature not drawn before, then back to the first
            runs = [connection.run(builder_step_at(recording, t), keep=True) for t in ("1,1", "1,0")]
        finally:
            connection.close()
    new_value, back = runs
    on_the_page = figures_sent_whole(drawn)
    assert on_the_page >= 6  # the builder's figures, each sent whole once
    assert 0 < figures_sent_whole(new_value) < on_the_page  # only those a new temperature changes
    assert figures_sent_whole(back) == 0  # every figure of the first temperature is in the browser's cache
    assert len(references(back)) >= on_the_page
    assert new_value.received <= STEP_BYTES, new_value.received
    # the figures' numbers folds are closed: a step draws none of their tables and copy buttons (ui.charts.numbers_ui;
    # what an open one sends: tests/app/test_numbers_folds.py)
    assert on_the_page and copy_buttons_sent(drawn) == copy_buttons_sent(new_value) == []
    assert tables_sent(drawn) == tables_sent(new_value) == []
