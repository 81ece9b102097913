"""Shared AppTest helpers: open a page of the real app in a chosen language and read what it shows."""

from __future__ import annotations

import base64
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def open_page(page: str, lang: str = "es", timeout: float = 60, questions: bool = False) -> AppTest:
    """Run app.py, switch to `page` (e.g. "pages/walkthrough.py") in `lang`, and return the AppTest. The questions
    asked before each step are off unless `questions` (tests of a page's content see it at once)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state["lang"] = lang
    at.session_state["questions_on"] = questions
    at.run()
    if page != "pages/home.py":
        at.switch_page(page).run()
        if not questions:
            # AppTest runs a page it switches to once with the questions toggle's previous value; the second run
            # is the page as a reader sees it after the switch
            at.run()
    return at


def page_text(at: AppTest) -> str:
    """Everything the page wrote as text: markdown, LaTeX, code, captions, alerts, metrics, headings."""
    parts: list[str] = []
    for group in (
        at.markdown,
        at.latex,
        at.code,
        at.caption,
        at.info,
        at.success,
        at.warning,
        at.error,
        at.title,
        at.header,
        at.subheader,
    ):
        parts.extend(str(element.value) for element in group)
    parts.extend(f"{m.label} {m.value}" for m in at.metric)
    return "\n".join(parts)


def derivation_lines(at: AppTest) -> list[str]:
    """Every line of the page's text blocks (derivations are aligned text in st.code), stripped."""
    return [line.strip() for code in at.code for line in str(code.value).splitlines()]


def figures(at: AppTest) -> list[str]:
    """The SVG text of every figure the page shows (they are images with data URLs)."""
    prefix = "data:image/svg+xml;base64,"
    urls = [image.url for element in at.get("image") for image in element.proto.imgs]
    return [base64.b64decode(url.removeprefix(prefix)).decode() for url in urls if url.startswith(prefix)]


def no_exception(at: AppTest) -> bool:
    return len(at.exception) == 0


def button(at: AppTest, *labels: str):
    """The first button whose label is one of `labels`."""
    return next(b for b in at.button if b.label in labels)
