"""Shared AppTest helpers: open a page of the real app in a chosen language and read what it shows."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.runtime.state.common import user_key_from_element_id
from streamlit.testing.v1 import AppTest

from ui import figure_component

if TYPE_CHECKING:
    import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # what ui.text.md_literal adds before punctuation
APP = str(ROOT / "app.py")
HOME = "app.py"


def open_page(page: str, lang: str = "es", timeout: float = 60, questions: bool = False, **state) -> AppTest:
    """Open `page` (e.g. "pages/walkthrough.py", or HOME) of app.py in `lang` and return the AppTest. `state` sets
    session state before the first run (small sample counts, say). The questions asked before each step are off
    unless `questions` (tests of a page's content see it at once)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state["lang"] = lang
    at.session_state["questions_on"] = questions
    for key, value in state.items():
        at.session_state[key] = value
    if page != HOME:
        # the page's file is the first run, as a deep link (/walkthrough) is a reader's first request: the app's
        # pages are files in pages/, not st.navigation's, so AppTest finds the page before any run. Opening the
        # home page first and then the page (two runs after the switch) gave the same page, but 17 % slower over
        # five of these test files (45.7 and 43.9 s against 37.7 and 36.5, alternated, load 2.0 to 2.3).
        at.switch_page(page)
    at.run()
    return at


def shown(markdown: str) -> str:
    """Markdown as the reader sees it, as far as escapes go: "0\\.332" shows as "0.332"."""
    return MARKDOWN_ESCAPE.sub(r"\1", markdown)


_TABLE_RULE = re.compile(r"^\|( *:?-+:? *\|)+$")  # a markdown table's second line: its columns' alignment
_CELL_BORDER = re.compile(r"(?<= )\|(?= )")  # between cells: a pipe inside a cell is escaped ("\\|")


def table_row_cells(line: str) -> list[str]:
    """One line of a markdown table drawn by ui.tables ("| a | b\\|c |") as its cells as written: ["a", "b\\|c"]."""
    return [cell.strip() for cell in _CELL_BORDER.split(line[2:-2])]


def tables(at: AppTest) -> list[pd.DataFrame]:
    """The page's tables (ui.tables draws each as one markdown table), in page order, each as a frame of its
    cells as written (markdown escapes kept: `shown` removes them). A table whose rows do not all have its
    header's number of cells fails the test: the browser would not draw it as a table."""
    import pandas as pd

    out = []
    for element in at.markdown:
        lines = str(element.value).split("\n")
        if len(lines) < 2 or not _TABLE_RULE.match(lines[1]):
            continue
        header, rule, *rows = (table_row_cells(line) for line in lines)
        assert all(len(row) == len(header) for row in (rule, *rows)), f"a row with the wrong cells: {lines}"
        out.append(pd.DataFrame(rows, columns=header))
    return out


def page_text(at: AppTest) -> str:
    """Everything the page wrote as text: markdown (its escapes removed, as it shows), LaTeX, code, captions,
    alerts, metrics, headings."""
    parts: list[str] = []
    for group in (at.markdown, at.caption, at.info, at.success, at.warning, at.error):
        parts.extend(shown(str(element.value)) for element in group)
    for group in (at.latex, at.code, at.title, at.header, at.subheader):
        parts.extend(str(element.value) for element in group)
    parts.extend(f"{m.label} {m.value}" for m in at.metric)
    return "\n".join(parts)


def derivation_lines(at: AppTest) -> list[str]:
    """Every line of the page's text blocks (derivations are aligned text in st.code), with the alignment
    padding collapsed to single spaces and a line wrapped to fit its column joined back into one
    (tests/app/test_derivation.py checks the alignment itself)."""
    from tests.app.derivation_check import logical_lines

    return [" ".join(line.split()) for code in at.code for line in logical_lines(str(code.value))]


@dataclass(frozen=True)
class FigureProto:
    """What the tests read of a figure element, named as st.plotly_chart's proto names it."""

    spec: str  # the figure's JSON
    id: str  # "$$ID-<digest>-<key>": changes when what the browser is sent for the figure changes
    alt: str
    theme: str
    config: str


@dataclass(frozen=True)
class FigureElement:
    proto: FigureProto


def figure_elements(at: AppTest) -> list:
    """Every figure on the page in page order, whichever draws it: st.plotly_chart's elements as they are, or the
    figure component's (ui.figure_component) read from its data. st.plotly_chart's id hashes the figure; the
    component's stays the key's (the chart stays mounted), so its stand-in id hashes the data the browser gets
    instead: either changes exactly when the browser has a new figure to draw."""
    if not figure_component.component_on():
        return list(at.get("plotly_chart"))
    found = []
    for element in at.get("bidi_component"):
        if element.proto.component_name != figure_component.COMPONENT_NAME:
            continue
        data = json.loads(element.proto.json)
        key = (user_key_from_element_id(element.proto.id) or "").removeprefix(figure_component.KEY_PREFIX) or None
        digest = hashlib.sha256(element.proto.json.encode()).hexdigest()[:32]
        proto = FigureProto(
            json.dumps(data["figure"]), f"$$ID-{digest}-{key}", data["alt"], data["theme"], json.dumps(data["config"])
        )
        found.append(FigureElement(proto))
    return found


@dataclass(frozen=True)
class Chart:
    """One st.plotly_chart as the browser receives it: the figure's JSON, its text description and its key."""

    spec: dict
    alt: str
    key: str | None
    theme: str
    config: dict

    @property
    def trace(self) -> dict:
        return self.spec["data"][0]

    @property
    def layout(self) -> dict:
        return self.spec["layout"]

    @property
    def cell_texts(self) -> list[list[str]]:
        """A heatmap's written values, row by row: its text layer (one scatter trace of r × c texts) reshaped."""
        z = self.trace["z"]
        rows, cols = len(z), len(z[0])
        layer = next(trace for trace in self.spec["data"] if trace.get("mode") == "text")
        texts = layer["text"]
        assert len(texts) == rows * cols, (len(texts), rows, cols)
        return [texts[i * cols : (i + 1) * cols] for i in range(rows)]

    @property
    def title(self) -> str:
        return self.layout["title"]["text"]


def charts(at: AppTest) -> list[Chart]:
    """Every plotly figure on the page, in page order."""
    found = []
    for element in figure_elements(at):
        proto = element.proto
        key = user_key_from_element_id(proto.id) if proto.id else None
        found.append(Chart(json.loads(proto.spec), proto.alt, key, proto.theme, json.loads(proto.config or "{}")))
    return found


def chart(at: AppTest, key: str) -> Chart:
    """The plotly figure drawn with the Streamlit key `key`."""
    matches = [c for c in charts(at) if c.key == key]
    assert len(matches) == 1, (key, [c.key for c in charts(at)])
    return matches[0]


def send_states(at: AppTest, *sent: WidgetState) -> AppTest:
    """Rerun with the page's widget states plus `sent` (each in place of the page's state of its widget, if any), as
    one message from a browser would carry them: a forged value, or an old control's that browser still holds.
    AppTest itself sends only the widgets on screen."""
    states = at._tree.get_widget_states()
    ids = {state.id for state in sent}
    kept = [state for state in states.widgets if state.id not in ids]
    del states.widgets[:]
    states.widgets.extend([*kept, *sent])
    return at._run(states)


def editor_edits(editor, edited_rows: dict, added_rows: tuple[dict, ...] = ()) -> WidgetState:
    """A data editor's state as its browser sends it after these edits (`edited_rows`: {row: {column: value}}, rows and
    columns as strings; `added_rows`: new rows, each {column: value}), for `send_states`: AppTest cannot type into a
    data editor's cells."""
    edits = {"edited_rows": edited_rows, "added_rows": list(added_rows), "deleted_rows": []}
    return WidgetState(id=editor.id, string_value=json.dumps(edits))


def go_to_part(at: AppTest, part: int) -> AppTest:
    """Pick the walkthrough's part `part` in its part picker (rebuilt for each part, so found by its key's prefix)."""
    picker = next(w for w in at.button_group if (w.key or "").startswith("walk_picker_"))
    return picker.set_value(part).run()


def downloaded(at: AppTest, offered: dict, label: str) -> tuple[str, str]:
    """The content and file name behind the download button `label` (`offered`: the `downloads` fixture's); a
    download built at click time is built here, as a click would."""
    target = next(b for b in at.get("download_button") if b.label == label)
    if target.proto.HasField("deferred_file_id"):
        build, name = offered[target.proto.deferred_file_id]
        content = build()
    else:
        content, name = offered[target.proto.url.rsplit("/", 1)[1].split(".")[0]]
    return (content.decode("utf-8") if isinstance(content, bytes) else content), name


def built_at_click(at: AppTest, label: str) -> bool:
    """Whether the download button `label` builds its file when clicked (data=callable), not on every run."""
    target = next(b for b in at.get("download_button") if b.label == label)
    return target.proto.HasField("deferred_file_id")


def no_exception(at: AppTest) -> bool:
    return len(at.exception) == 0


def by_label(widgets, label: str):
    """The one widget of `widgets` (e.g. at.selectbox) whose label is `label`."""
    matches = [w for w in widgets if w.label == label]
    assert len(matches) == 1, (label, [w.label for w in widgets])
    return matches[0]


def button(at: AppTest, *labels: str):
    """The first button whose label is one of `labels` (a label in either language, say)."""
    return next(b for b in at.button if b.label in labels)
