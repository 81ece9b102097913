"""The multi-head page in a real browser: switch the input, h and the preset; the heads redraw, no errors, and the
lower part reruns alone (a fragment run), in both languages and in presentation mode."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.e2e.shared import assert_healthy, charts, runs, screenshot, wait_for_app
from ui.i18n import LANGUAGE_NAMES, LANGUAGES

pytestmark = pytest.mark.e2e
PATIENCE_MS = 120_000  # an upper bound on each wait, not a timing: this page draws seven figures on a shared machine


class RunKinds:
    """The kind of every script run the server reports finished: a whole-page run or a fragment's."""

    def __init__(self, page: Page) -> None:
        self.kinds: list[int] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self._on_frame))

    def _on_frame(self, payload: str | bytes) -> None:
        message = ForwardMsg.FromString(payload.encode() if isinstance(payload, str) else payload)
        if message.WhichOneof("type") == "script_finished":
            self.kinds.append(message.script_finished)


def act(page: Page, action) -> None:
    """Do something that reruns the script (or a fragment), then wait for that run to be on screen."""
    before = runs(page)
    action()
    wait_for_app(page, before, PATIENCE_MS)


def open_multihead(page: Page, app_url: str, lang: str = "es") -> None:
    page.goto(f"{app_url}/multihead?questions_on=false")  # the content, not the questions asked before it
    wait_for_app(page, 0, PATIENCE_MS)
    if lang != "es":
        sidebar = page.locator("[data-testid=stSidebar]")
        act(page, lambda: sidebar.get_by_text(LANGUAGE_NAMES[lang], exact=True).filter(visible=True).first.click())
        expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])


def choose(page: Page, label: str, option: str) -> None:
    """Open the select box labelled `label` and pick `option`, waiting for the rerun."""
    page.locator("[data-testid=stSelectbox]").filter(has_text=label).first.click()
    act(page, lambda: page.get_by_role("option", name=option, exact=True).click())


def heads_figure(page: Page):
    """The figure of the heads' weights: the first chart after the heads' heading."""
    return charts(page).first


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_switching_input_h_and_preset_redraws_the_heads(page, app_url, lang):
    runs = RunKinds(page)
    open_multihead(page, app_url, lang)
    strings = LANGUAGES[lang]
    main = page.locator("[data-testid=stMain]")
    expect(main.locator("h1").first).to_have_text(strings["mh.title"])
    head = strings["mh.head"]
    expect(heads_figure(page)).to_contain_text(head.format(k=2))  # the lesson: two designed heads
    choose(page, strings["mh.source"], strings["mh.source.sentence"])
    expect(main).to_contain_text("d_k = d_v = 8 / 4 = 2")
    expect(heads_figure(page)).to_contain_text(head.format(k=4))
    choose(page, strings["mh.h"], "8")
    expect(main).to_contain_text("d_k = d_v = 8 / 8 = 1")
    expect(main).to_contain_text(strings["mh.refused.instead"])  # no designed heads of one column
    assert runs.kinds[-1] == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY  # h reran the lower part only
    expect(heads_figure(page)).to_contain_text(head.format(k=8))
    choose(page, strings["mh.h"], "2")
    choose(page, strings["mh.preset"], strings["mh.preset.random"])
    assert runs.kinds[-1] == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    expect(main).to_contain_text(strings["mh.seed"])
    expect(main).not_to_contain_text(strings["mh.construction.title"])  # only the designed heads have one
    choose(page, strings["mh.preset"], strings["mh.preset.designed"])
    expect(main).to_contain_text(strings["mh.construction.title"])
    assert_healthy(page)
    screenshot(page, f"multihead-{lang}-sentence")


def test_presentation_mode_the_residual_tab_and_layer_norm(page, app_url):
    open_multihead(page, app_url)
    strings = LANGUAGES["es"]
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_role("switch", name=strings["sidebar.presentation"]).check(force=True))
    # presentation mode: every word and number a room reads at 20 px at least (text, derivations)
    for selector in ("[data-testid=stMain] p", "[data-testid=stMain] [data-testid=stCode] code"):
        size = page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert float(size) >= 20, (selector, size)
    main = page.locator("[data-testid=stMain]")
    act(page, lambda: page.get_by_role("tab", name=strings["mh.part.residual"]).click())
    act(page, lambda: main.get_by_text(strings["mh.ln.toggle"], exact=True).click())
    expect(main).to_contain_text(strings["mh.cos.norm"])
    assert_healthy(page)
    screenshot(page, "multihead-es-presentation")
