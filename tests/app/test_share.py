"""Links reproduce the scenario, language and step; bad links and files say so and change nothing else."""

import io

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine import lesson_scenario, random_scenario
from engine.scenario_io import encode_scenario, scenario_to_json
from tests.app.helpers import APP, no_exception, page_text
from ui import share, state
from ui.i18n import LANGUAGES


def open_link(params: dict, page: str | None = None) -> AppTest:
    """Open the app as a browser would open a shared link: query parameters on the first run."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page:
        at.switch_page(page).run()
    return at


def test_a_link_restores_the_scenario_and_language_then_leaves_the_url():
    scenario = random_scenario(5)
    at = open_link({"s": encode_scenario(scenario), "lang": "en"}, "pages/qkv_builder.py")
    assert no_exception(at)
    assert np.array_equal(at.session_state["scenario"].w_q, scenario.w_q)
    assert at.session_state["lang"] == "en"
    assert "s" not in at.query_params
    assert LANGUAGES["en"]["builder.title"] in page_text(at)


def open_share_box(at: AppTest) -> AppTest:
    """Open the share popover, as a click on it does (opening it reruns the page)."""
    at.session_state[state.SHARE_OPEN] = True
    return at.run()


def test_the_share_box_builds_its_content_only_when_opened():
    at = open_link({}, "pages/qkv_builder.py")
    assert not any("?s=" in code.value for code in at.code)
    open_share_box(at)
    assert any("?s=" in code.value for code in at.code)


def test_the_builders_share_box_offers_a_link_that_round_trips():
    at = open_share_box(open_link({}, "pages/qkv_builder.py"))
    link = next(code.value for code in at.code if "?s=" in code.value)
    code = link.split("?s=", 1)[1].split("&", 1)[0]
    assert code == encode_scenario(lesson_scenario())
    assert "lang=es" in link


def test_the_walkthrough_link_carries_the_step():
    at = open_share_box(open_link({"step": "3"}, "pages/walkthrough.py"))
    link = next(code.value for code in at.code if "?s=" in code.value)
    assert "step=3" in link


@pytest.mark.parametrize("bad", ["garbage", encode_scenario(lesson_scenario())[:-12], "<img src=x onerror=alert(1)>"])
def test_a_bad_link_says_so_and_falls_back_to_the_lesson(bad):
    at = open_link({"s": bad, "lang": "en"}, None)
    assert no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "could not be read" in errors[0]
    assert np.array_equal(at.session_state["scenario"].x, lesson_scenario().x)
    at.run()
    assert [e.value for e in at.error] == [], "the message is shown once"


def test_an_unknown_language_in_a_link_is_ignored():
    at = open_link({"lang": "xx"}, None)
    assert no_exception(at) and at.session_state["lang"] == "es"


class Upload(io.BytesIO):
    """Stands in for Streamlit's UploadedFile: the callback only calls getvalue()."""


def test_uploading_a_downloaded_scenario_restores_it(session):
    scenario = random_scenario(11)
    session["upload"] = Upload(scenario_to_json(scenario).encode())
    share._on_upload("upload")
    assert np.array_equal(state.get_scenario().w_v, scenario.w_v)
    assert share.LINK_ERROR not in session


def test_uploading_a_broken_file_keeps_the_scenario_and_names_the_problem(session):
    before = state.get_scenario()
    session["upload"] = Upload(b'{"version": 1, "tokens": ["a", "a"]}')
    share._on_upload("upload")
    assert state.get_scenario() is before
    assert session[share.LINK_ERROR] == ("share.bad_file", "tokens")
