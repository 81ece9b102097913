"""The presenter keys' script (ui.keys) on its own in Chromium, without Streamlit: the parts it asks Python for
when reruns come late, out of step with a clicker's quick presses.

CI once ended a clicker's four quick presses back from part 5 on part 2: a rerun that had started before the first
press drew part 5 again after it, and the script took that for a move by a click and counted the next presses
from 5. Here the script is given those reruns by hand, in the order that broke it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from tests.e2e.shared import routed_page
from ui import keys

pytestmark = pytest.mark.e2e
ORIGIN = "http://keys.test"
PAGE = "<!doctype html><html><body><button id=focus>a button</button></body></html>"

# The component mounted on `part`, with a recorder of what it sends (the parts asked for, and each press's stamp);
# `window.render(part, press)` is a rerun that drew `part` having applied the press stamped `press` (null: none).
MOUNT = """async ([parts, part]) => {
  const { default: mount } = await import('/keys.js');
  window.sentParts = [];
  window.sentPresses = [];
  const component = (data) => ({
    data: { parts, anchor: 'nowhere', scroll: false, ...data },
    setStateValue: (name, value) => { window.sentParts.push(value.part); window.sentPresses.push(value.press); },
  });
  window.render = (part, press) => mount(component({ part, press }));
  window.render(part, null);
}"""


@pytest.fixture
def keys_page(browser) -> Iterator[Page]:
    with routed_page(browser, ORIGIN, serve) as page:
        yield page


def serve(route) -> None:
    path = route.request.url.removeprefix(ORIGIN)
    if path == "/keys.js":
        route.fulfill(status=200, content_type="text/javascript", body=keys._JS)
    else:
        route.fulfill(status=200, content_type="text/html", body=PAGE)


def mounted(page: Page, parts: int, part: int) -> Page:
    """The keys' component mounted on `part` of `parts`, the focus on a button (where the keys step the parts)."""
    page.evaluate(MOUNT, [parts, part])
    page.locator("#focus").focus()
    return page


def press(page: Page, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def sent(page: Page) -> list[int]:
    return page.evaluate("() => window.sentParts")


def last_press(page: Page) -> str:
    return page.evaluate("() => window.sentPresses.at(-1)")


def render(page: Page, part: int, press: str | None) -> None:
    page.evaluate("([part, press]) => window.render(part, press)", [part, press])


def test_a_rerun_that_started_before_a_press_does_not_make_the_next_presses_count_from_the_old_part(keys_page):
    page = mounted(keys_page, 7, 5)
    press(page, "ArrowLeft")
    assert sent(page) == [4]
    render(page, 5, None)  # a rerun that started before the press: part 5, no press applied yet
    press(page, "ArrowLeft", 3)
    assert sent(page) == [4, 3, 2, 1]  # four presses back from 5: part 1 (the old script asked for 4, 3, 2 again)
    render(page, 2, page.evaluate("() => window.sentPresses[2]"))  # the server on its way: it applied the third
    press(page, "PageDown")
    assert sent(page)[-1] == 2  # counted from the last press (1), not from the part drawn on the way (2)
    render(page, 2, last_press(page))
    press(page, "Space")
    assert sent(page)[-1] == 3


def test_a_part_drawn_after_every_press_was_applied_is_followed(keys_page):
    page = mounted(keys_page, 7, 1)
    press(page, "ArrowRight", 2)
    assert sent(page) == [2, 3]
    render(page, 6, last_press(page))  # the server applied both presses, then a click on part 6
    press(page, "ArrowRight")
    assert sent(page)[-1] == 7
    render(page, 7, last_press(page))
    press(page, "ArrowRight")  # the last part: nothing more to ask
    assert sent(page) == [2, 3, 7]


def test_a_press_never_answered_is_given_up(keys_page):
    page = mounted(keys_page, 7, 4)
    press(page, "ArrowRight")
    assert sent(page) == [5]
    render(page, 4, None)  # not answered yet: the press is still on its way
    press(page, "ArrowRight")
    assert sent(page) == [5, 6]
    page.evaluate(f"() => {{ const now = Date.now; Date.now = () => now() + {keys.PENDING_MS + 1000}; }}")
    render(page, 2, None)  # a restarted server that never got them draws part 2: the presses are given up
    press(page, "ArrowRight")
    assert sent(page)[-1] == 3
