"""Record what a real browser sends while a student uses the app, for the load test to replay.

Opens the app in Debian's Chromium (through Playwright), does what a student does on two pages, and writes
`loadtest/recorded/<page>.json`: every HTTP request the browser made to join (the page, Streamlit's static files,
the health and host-config checks), and every message it sent on the websocket (`/_stcore/stream`: the BackMsg
that asks for each script run, with its widget states), as protobuf JSON, in order.

- builder: open /builder, move the temperature slider three steps, toggle the causal mask;
- walkthrough: open /walkthrough (questions off, so each part draws its figures), step with Next to part 5 and
  with Previous back to part 1.

The load test (loadtest/locustfile.py) replays these messages with the widget values changed. Rerun this after a
change to those pages' widgets (their ids change with their parameters):

    python loadtest/record.py
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from google.protobuf.json_format import MessageToDict  # noqa: E402
from playwright.sync_api import Page, Request, WebSocket, sync_playwright  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402

from harness.browser import act, find_chromium, launch, open_app, watch_runs  # noqa: E402
from harness.server import served  # noqa: E402
from loadtest.recording import RECORDED, Recording  # noqa: E402
from ui.i18n import LANGUAGES  # noqa: E402

STRINGS = LANGUAGES["es"]  # a student reads the app in its default language


def builder(page: Page) -> None:
    slider = page.locator("[data-testid=stSlider] input[type=range]").first
    slider.focus()
    for _ in range(3):
        act(page, lambda: page.keyboard.press("ArrowRight"))
    toggle = page.get_by_role("switch", name=STRINGS["scenario.causal"])
    act(page, lambda: toggle.check(force=True))


def walkthrough(page: Page) -> None:
    for button in ("walk.next",) * 4 + ("walk.prev",) * 4:
        act(page, page.get_by_role("button", name=STRINGS[button]).click)  # a locator finds its button when clicked


SCENARIOS = {"builder": ("/builder", builder), "walkthrough": ("/walkthrough?questions_on=false", walkthrough)}


def record(page_name: str, url: str) -> Recording:
    path, actions = SCENARIOS[page_name]
    requests: list[dict] = []
    messages: list[dict] = []

    with sync_playwright() as playwright:
        browser = launch(playwright, find_chromium() or sys.exit("no Chromium: apt-get install chromium"))
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = watch_runs(context.new_page())

        def on_request(request: Request) -> None:
            if request.url.startswith(url) and request.resource_type != "websocket":
                parts = urllib.parse.urlsplit(request.url)
                path = parts.path + (f"?{parts.query}" if parts.query else "")
                requests.append({"path": path, "after": len(messages)})

        def on_socket(socket: WebSocket) -> None:
            socket.on("framesent", lambda payload: messages.append(MessageToDict(BackMsg.FromString(payload))))

        page.on("request", on_request)
        page.on("websocket", on_socket)
        open_app(page, url + path)
        actions(page)
        context.close()
        browser.close()
    return Recording(page=page_name, path=path, requests=requests, messages=messages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", default=sorted(SCENARIOS), help="which recordings to make (default: all)")
    args = parser.parse_args()
    RECORDED.mkdir(exist_ok=True)
    with served(ROOT / "app.py") as server:
        for name in args.pages:
            recording = record(name, server.url)
            target = RECORDED / f"{name}.json"
            target.write_text(json.dumps(recording.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            kinds = [m.get("rerunScript", {}).get("widgetStates", {}).get("widgets", []) for m in recording.messages]
            print(
                f"{target.relative_to(ROOT)}: {len(recording.requests)} requests, {len(recording.messages)} "
                f"messages ({sum(map(len, kinds))} widget states)"
            )


if __name__ == "__main__":
    main()
