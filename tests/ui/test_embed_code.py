"""The embed code (ui.share.embed_code): an iframe whose address, read back as a browser reads the attribute, is the
view's link in Streamlit's embedded view, and whose attributes no title or link can break out of."""

from __future__ import annotations

import html.parser

from ui.share import embed_code


class Frame(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "iframe":
            self.frames.append(dict(attrs))


def parsed(snippet: str) -> Frame:
    frame = Frame()
    frame.feed(snippet)
    return frame


def test_the_frame_opens_the_link_in_the_embedded_view():
    link = "https://app.example/walkthrough?s=eNo1k&lang=en&step=2"
    (frame,) = parsed(embed_code(link, "Self-attention")).frames
    assert frame["src"] == link + "&embed=true&embed_options=show_toolbar"
    assert frame["title"] == "Self-attention"
    assert frame["allow"] == "clipboard-write" and frame["width"] == "100%"


def test_a_link_without_parameters_gets_them_after_a_question_mark():
    (frame,) = parsed(embed_code("https://app.example/", "x")).frames
    assert frame["src"] == "https://app.example/?embed=true&embed_options=show_toolbar"


def test_no_title_or_link_breaks_out_of_its_attribute():
    title = '"><script>alert(1)</script>'
    link = 'https://app.example/?a="><img src=x onerror=alert(1)>'
    frame = parsed(embed_code(link, title))
    assert frame.tags == ["iframe"]
    assert frame.frames[0]["title"] == title
    assert frame.frames[0]["src"].startswith(link)
