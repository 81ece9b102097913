"""The app inside a learning platform's page (issue 32): the share box's embed code, pasted into a page of another
site, shows the view in an 800 px wide frame: the page in the link's language and part, its figures drawn, the
sidebar folded so that the page has the frame's width, nothing wider than the frame, no error, and the frame's
controls work (a part step)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.shared import CHART, FIGURES_DRAWN, watched_page
from ui.i18n import LANGUAGES
from ui.share import embed_code

pytestmark = pytest.mark.e2e
FRAME_WIDTH = 800


@pytest.fixture
def course_site() -> Iterator[dict]:
    """A course's page on another site: served from localhost (the app is at 127.0.0.1, another site for the
    browser), on this machine so that Chromium's local-network checks let it frame the local app, as they let a
    public Moodle frame a public app."""
    pages: dict[str, bytes] = {"/favicon.ico": b""}

    class Course(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path)
            self.send_response(404 if body is None else 200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Course)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"url": f"http://localhost:{server.server_address[1]}", "pages": pages}
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_embed_code_shows_the_view_in_an_800_px_frame_of_another_site(browser, app_url, course_site, lang):
    strings = LANGUAGES[lang]
    snippet = embed_code(
        f"{app_url}/walkthrough?lang={lang}&step=2&questions_on=false", strings["share.embed.frame_title"]
    )
    course = (
        f"<!doctype html><html><body style='margin:0'><h1>Curso</h1>"
        f"<div style='width:{FRAME_WIDTH}px'>{snippet}</div></body></html>"
    )
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        course_site["pages"]["/lesson"] = course.encode()
        page = watched_page(context)
        page.goto(f"{course_site['url']}/lesson")
        frame = page.frame_locator("iframe")
        main = frame.locator("[data-testid=stMain]")
        part_2 = strings["walk.progress"].format(part=2, total=5, name=strings["walk.name.2"])
        expect(main).to_contain_text(part_2, timeout=60_000)
        expect(frame.locator(f"[data-testid=stMain] {CHART}").first).to_be_visible(timeout=60_000)
        inner = next(f for f in page.frames if f.url.startswith(app_url))
        inner.wait_for_function(FIGURES_DRAWN, timeout=60_000)
        assert page.locator("iframe").bounding_box()["width"] == FRAME_WIDTH
        width = inner.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1] == FRAME_WIDTH, width
        assert inner.evaluate("document.documentElement.lang") == lang
        # the sidebar starts folded, so the page has the frame's width: the part buttons' labels are whole
        expect(frame.locator("[data-testid=stSidebar]")).to_have_attribute("data-collapsed", "true")
        for name in (strings["walk.prev"], strings["walk.next"]):
            label = frame.get_by_role("button", name=name).first
            assert label.evaluate("(node) => node.scrollWidth <= node.clientWidth"), name
        # a control inside the frame works: the next part
        frame.get_by_role("button", name=strings["walk.next"]).first.click()
        part_3 = strings["walk.progress"].format(part=3, total=5, name=strings["walk.name.3.sqrt"])
        expect(main).to_contain_text(part_3, timeout=60_000)
        expect(frame.locator("[data-testid=stException]")).to_have_count(0)
        assert page.console_errors == [], page.console_errors
    finally:
        context.close()
