"""The load client's page (loadtest/protocol.py, `Page`): a recorded message is sent in the terms of the page the
server drew, because Streamlit silently drops a rerun of a fragment it does not have (and a recording outlives a
change of layout above a fragment, which changes the fragment's id). Its message cache (`MessageCache`) forgets
what the browser's forgets (Streamlit's frontend ForwardMsgCache: a message not received for more than
maxCachedMessageAge finished runs)."""

from __future__ import annotations

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from loadtest.protocol import MessageCache, Page, RunError
from loadtest.recording import Recording, current
from ui import served

LIVE_FRAGMENT = "f" * 32
RECORDED_FRAGMENT = "0" * 32


def drawn(widget_id: str, fragment_id: str = "") -> ForwardMsg:
    msg = ForwardMsg()
    msg.delta.fragment_id = fragment_id
    msg.delta.new_element.slider.id = widget_id
    return msg


def page_with(*widgets: tuple[str, str]) -> Page:
    page = Page()
    for widget_id, fragment_id in widgets:
        page.read(drawn(widget_id, fragment_id))
    return page


def recorded(fragment_id: str, *states: tuple[str, bool]) -> BackMsg:
    message = BackMsg()
    message.rerun_script.fragment_id = fragment_id
    for widget_id, trigger in states:
        state = message.rerun_script.widget_states.widgets.add()
        state.id = widget_id
        if trigger:
            state.trigger_value = True
        else:
            state.double_value = 0.5
    return message


def test_a_recorded_fragment_the_page_no_longer_has_becomes_the_one_that_holds_its_widgets():
    page = page_with(("$$ID-new-lang_choice", ""), ("$$ID-aaaa-opt_temperature_0", LIVE_FRAGMENT))
    message = recorded(RECORDED_FRAGMENT, ("$$ID-old-lang", False), ("$$ID-bbbb-opt_temperature_0", False))
    adapted = page.adapt(message)
    assert adapted.rerun_script.fragment_id == LIVE_FRAGMENT
    ids = [s.id for s in adapted.rerun_script.widget_states.widgets]
    assert ids == ["$$ID-old-lang", "$$ID-aaaa-opt_temperature_0"]  # found by its key; an unknown one left as is
    assert message.rerun_script.fragment_id == RECORDED_FRAGMENT  # the recording itself is unchanged


def test_a_message_in_the_pages_own_terms_is_sent_as_it_is():
    page = page_with(("$$ID-aaaa-opt_temperature_0", LIVE_FRAGMENT))
    message = recorded(LIVE_FRAGMENT, ("$$ID-aaaa-opt_temperature_0", False))
    assert page.adapt(message) == message


def test_a_press_of_a_button_the_page_does_not_have_is_an_error_not_a_wait():
    page = page_with(("$$ID-aaaa-None", LIVE_FRAGMENT))
    with pytest.raises(RunError, match="no widget"):
        page.adapt(recorded(LIVE_FRAGMENT, ("$$ID-gone-None", True)))


def test_a_fragment_that_cannot_be_found_is_an_error_not_a_wait():
    page = page_with(("$$ID-aaaa-opt_temperature_0", ""))
    with pytest.raises(RunError, match="no fragment"):
        page.adapt(recorded(RECORDED_FRAGMENT, ("$$ID-aaaa-opt_temperature_0", False)))


def test_the_page_keeps_the_timers_the_server_sets_and_stops():
    page = Page()
    start = ForwardMsg()
    start.auto_rerun.fragment_id = LIVE_FRAGMENT
    start.auto_rerun.interval = 1.0
    page.read(start)
    assert page.timers == {LIVE_FRAGMENT: 1.0} and LIVE_FRAGMENT in page.fragments
    stop = ForwardMsg()
    stop.stop_auto_rerun.fragment_ids.append(LIVE_FRAGMENT)
    page.read(stop)
    assert page.timers == {}


def cacheable(hash_: str, fragment_id: str = "") -> ForwardMsg:
    msg = drawn("$$ID-" + hash_, fragment_id)
    msg.hash = hash_
    msg.metadata.cacheable = True
    return msg


def reference(hash_: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.ref_hash = hash_
    return msg


def test_the_message_cache_names_a_message_for_two_finished_runs_and_then_forgets_it():
    cache = MessageCache(max_age=2)
    cache.read(cacheable("a"))
    cache.read(drawn("not-cacheable"))
    assert cache.hashes() == ["a"]
    cache.run_finished()
    cache.run_finished()
    assert cache.hashes() == ["a"]  # as the browser: still held two runs later
    cache.run_finished()
    assert cache.hashes() == []


def test_a_reference_to_a_held_message_keeps_it_and_one_to_an_unknown_hash_adds_nothing():
    cache = MessageCache(max_age=1)
    cache.read(cacheable("a"))
    cache.read(cacheable("b"))
    cache.run_finished()
    cache.read(reference("a"))
    cache.read(reference("z"))
    cache.run_finished()
    assert cache.hashes() == ["a"]


def test_a_fragments_run_ages_only_that_fragments_messages():
    cache = MessageCache(max_age=0)
    cache.read(cacheable("page"))
    cache.read(cacheable("poll", "f1"))
    cache.read(cacheable("other", "f2"))
    cache.run_finished(("f1",))
    assert cache.hashes() == ["other", "page"]
    cache.run_finished()
    assert cache.hashes() == []


def test_the_apps_own_files_are_asked_for_at_the_version_the_server_has_now():
    """A recording made before the scripts or plotly.js changed still asks for today's URLs (a replica answers an
    older version's with a 404); every other URL is replayed as recorded."""
    old = "0123456789ab"
    assert current(f"/component/ui.served.scripts_{old}/figure.js?v={old}") == (
        f"/component/ui.served.scripts_{served.VERSION}/figure.js?v={served.VERSION}"
    )
    assert current(f"/{served.PLOTLY_JS_PACKED}".replace(served.VERSION, old)) == f"/{served.PLOTLY_JS_PACKED}"
    for path in ("/static/js/index.DormvYxC.js", "/builder?lang=es", "/_stcore/health"):
        assert current(path) == path
    fetched = Recording.load("builder").static_paths(before_first_run=False)
    assert f"/{served.PLOTLY_JS_PACKED}" in fetched
