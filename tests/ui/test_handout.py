"""The printable handout (ui.handout): the scenario's numbers at the digits shown, each part's derivation and
question, the answers only at the end, every name escaped, both languages, nothing fetched from anywhere.

The expected numbers are computed here with numpy from the scenario's matrices (not with the engine) and written
with this file's own rounding (half up, as a calculator)."""

from __future__ import annotations

import html.parser
import re
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
import streamlit as st

from engine import Scale, lesson_scenario
from ui import handout, state
from ui.i18n import LANGUAGES
from ui.question_book import pick_question
from ui.question_wording import answer_text


@pytest.fixture
def reader(request):
    """The reader's language in the (bare) session, as the app's session holds it."""
    lang = getattr(request, "param", "es")
    st.session_state[state.LANG] = lang
    yield lang
    st.session_state.clear()


def written(value: float, lang: str, sign: bool = True) -> str:
    """A number as the figures write it: 3 decimals half up, its sign, the language's decimal mark, U+2212."""
    number = Decimal(repr(float(value))).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    text = f"{abs(number):.3f}"
    if lang == "es":
        text = text.replace(".", ",")
    if not sign:
        return text
    return ("−" if number < 0 else "+") + text


def by_hand(scenario):
    q, k, v = scenario.x @ scenario.w_q, scenario.x @ scenario.w_k, scenario.x @ scenario.w_v
    scores = q @ k.T
    scaled = scores / np.sqrt(q.shape[1])
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)
    return {"Q": q, "K": k, "V": v, "S": scores, "scaled": scaled, "weights": weights, "output": weights @ v}


class Reader(html.parser.HTMLParser):
    """Each SVG's cell texts (by its aria-label), each <pre>, each question box's text and the answer key's items."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, list[str]] = {}
        self.pres: list[str] = []
        self.questions: list[str] = []
        self.key: list[str] = []
        self.tags: list[str] = []
        self._svg: str | None = None
        self._pre: list[str] | None = None
        self._question: list[str] | None = None
        self._depth = 0
        self._in_key = False
        self._li: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attributes = dict(attrs)
        if tag == "svg":
            self._svg = attributes["aria-label"]
            self.figures[self._svg] = []
        elif tag == "pre":
            self._pre = []
        elif tag == "div" and attributes.get("class") == "question":
            self._question, self._depth = [], 1
        elif tag == "div" and self._question is not None:
            self._depth += 1
        elif tag == "section" and attributes.get("class") == "key":
            self._in_key = True
        elif tag == "li" and self._in_key:
            self._li = []

    def handle_endtag(self, tag):
        if tag == "svg":
            self._svg = None
        elif tag == "pre" and self._pre is not None:
            self.pres.append("".join(self._pre))
            self._pre = None
        elif tag == "div" and self._question is not None:
            self._depth -= 1
            if self._depth == 0:
                self.questions.append(" ".join(self._question))
                self._question = None
        elif tag == "li" and self._li is not None:
            self.key.append("".join(self._li))
            self._li = None

    def handle_data(self, data):
        if self._svg is not None:
            self.figures[self._svg].append(data)
        if self._pre is not None:
            self._pre.append(data)
        if self._question is not None:
            self._question.append(data)
        if self._li is not None:
            self._li.append(data)


def read(document: str) -> Reader:
    parsed = Reader()
    parsed.feed(document)
    return parsed


def asked(scenario, seed: int = 7):
    return {part: pick_question(f"walk.{part}", scenario, seed=seed, gate=f"walk.{part}") for part in range(1, 6)}


def cells(figure: list[str], rows: int, cols: int) -> np.ndarray:
    """The cell texts of a figure drawn by ui.handout: title, column names, then each row's name and cells."""
    body = figure[1 + cols :]
    return np.array([body[i * (cols + 1) + 1 : (i + 1) * (cols + 1)] for i in range(rows)])


@pytest.mark.parametrize("reader", ["es", "en"], indirect=True)
def test_every_matrix_holds_the_scenarios_numbers_at_the_digits_shown(reader):
    scenario = lesson_scenario()
    expected = by_hand(scenario)
    strings = LANGUAGES[reader]
    parsed = read(handout.handout_html(scenario, reader, query="perro", key="come", asked=asked(scenario)))
    titles = {
        "Q": strings["matrix.q"],
        "K": strings["matrix.k"],
        "V": strings["matrix.v"],
        "S": strings["matrix.scores"],
        "scaled": strings["matrix.scaled"].format(divisor="2"),
        "weights": strings["matrix.weights"],
        "output": strings["matrix.output"],
    }
    for name, title in titles.items():
        values = expected[name]
        shown = cells(parsed.figures[title], *values.shape)
        want = [[written(v, reader, sign=name != "weights") for v in row] for row in values]
        assert shown.tolist() == want, name
    x = cells(parsed.figures[strings["matrix.x"]], *scenario.x.shape)
    assert x.tolist() == [[written(v, reader) for v in row] for row in scenario.x]
    w_q = cells(parsed.figures["W_Q (4×4)"], 4, 4)
    assert w_q.tolist() == [[written(v, reader) for v in row] for row in scenario.w_q]


def test_each_part_derives_the_query_and_its_last_line_is_the_figures_number(reader):
    scenario = lesson_scenario()
    expected = by_hand(scenario)
    parsed = read(handout.handout_html(scenario, "es", query="perro", key="come", asked={}))
    assert len(parsed.pres) == 5
    projection, score, division, softmax, output = parsed.pres
    q_perro = "; ".join(written(v, "es") for v in expected["Q"][1])
    assert projection.rstrip().endswith(f"[{q_perro}]")
    assert score.rstrip().endswith(written(expected["S"][1, 2], "es"))
    # 0,954 ÷ 2 is exactly 0,477 (=), the other two round (≈): each line ends on the figure's number
    assert division.splitlines()[2].endswith(f"= {written(expected['scaled'][1, 2], 'es')}")
    assert division.splitlines()[0].endswith(f"≈ {written(expected['scaled'][1, 0], 'es')}")
    for weight in expected["weights"][1]:
        assert written(weight, "es", sign=False) in softmax
    assert output.rstrip().endswith("[" + "; ".join(written(v, "es") for v in expected["output"][1]) + "]")


@pytest.mark.parametrize("reader", ["es", "en"], indirect=True)
def test_questions_come_without_answers_and_the_key_at_the_end_has_them(reader):
    scenario = lesson_scenario()
    questions = asked(scenario)
    document = handout.handout_html(scenario, reader, query="perro", key="come", asked=questions)
    parsed = read(document)
    strings = LANGUAGES[reader]
    assert len(parsed.questions) == 5
    assert len(parsed.key) == 5
    for part, (box, line) in enumerate(zip(parsed.questions, parsed.key, strict=True), start=1):
        question = questions[part]
        answer = answer_text(question, markdown=False)
        assert box.startswith(strings["handout.question"].format(part=part))
        assert line.startswith(strings["handout.answer"].format(part=part, answer="").rstrip())
        assert answer in line
        if question.kind == "numeric":
            assert answer not in box, (part, answer, box)
    # the key is the document's last section: no answer is printed before the questions end
    assert document.rindex('class="question"') < document.index('class="key"')


def test_no_part_asks_when_no_question_is_given_and_there_is_no_key(reader):
    parsed = read(handout.handout_html(lesson_scenario(), "es", query="perro", key="come", asked={}))
    assert parsed.questions == [] and parsed.key == []


def test_names_are_printed_as_typed_never_as_markup(reader):
    scenario = replace(lesson_scenario(), tokens=("<b>x</b>", "a&b", '"q"'))
    document = handout.handout_html(scenario, "es", query="a&b", key='"q"', asked=asked(scenario))
    assert "<b>x</b>" not in document
    assert "&lt;b&gt;x&lt;/b&gt;" in document
    parsed = read(document)
    assert set(parsed.tags) <= {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "div", "section", "figure",
        "svg", "text", "rect", "pre", "strong", "span", "ol", "ul", "li", "table", "caption", "thead", "tbody",
        "tr", "th", "td",
    }  # fmt: skip
    assert "a&b" in parsed.pres[1]
    # the figures' axes name the tokens as typed (escaped once: a reader of the file sees <b>x</b>)
    assert "<b>x</b>" in parsed.figures[LANGUAGES["es"]["matrix.scores"]]


def test_the_file_fetches_nothing_and_runs_nothing(reader):
    document = handout.handout_html(lesson_scenario(), "es", query="perro", key="come", asked={})
    assert "<script" not in document.lower()
    assert re.findall(r"https?://[^\s\"']+", document) == ["http://www.w3.org/2000/svg"] * document.count("<svg ")
    assert '<html lang="es">' in document


def test_a_matrix_too_wide_for_its_cells_numbers_comes_with_a_table_too(reader):
    rng = np.random.default_rng(3)
    wide = replace(lesson_scenario(), x=rng.normal(size=(3, 16)), w_q=rng.normal(size=(16, 4)),
                   w_k=rng.normal(size=(16, 4)), w_v=rng.normal(size=(16, 4)))  # fmt: skip
    document = handout.handout_html(wide, "es", query="perro", key="come", asked={})
    parsed = read(document)
    # x (3×16) writes no numbers on its cells: its tables say them, each as the figures would write it, the
    # columns split over as many tables as the printed page needs, each column once, every row named in each
    tables = re.findall(r"<table>.*?</table>", document)
    assert len(tables) == 2
    columns = [re.findall(r'<th scope="col">(d\d+)</th>', one) for one in tables]
    assert columns[0] + columns[1] == [f"d{j}" for j in range(16)] and all(columns)  # (the width: a browser test)
    for one in tables:
        assert re.findall(r'<th scope="row">([^<]+)</th>', one) == ["el", "perro", "come"]
    row = "".join(re.findall(r'<th scope="row">come</th>(.*?)</tr>', "".join(tables)))
    assert re.findall(r"<td>([^<]+)</td>", row) == [written(value, "es") for value in wide.x[2]]
    # the 16×4 weights still write theirs
    assert parsed.figures["W_Q (16×4)"][-1] == written(wide.w_q[15, 3], "es")


@pytest.mark.parametrize("reader", ["en"], indirect=True)
def test_the_scenario_is_described_in_the_readers_language(reader):
    scenario = replace(lesson_scenario(), scale=Scale.NONE, causal=True)
    document = handout.handout_html(scenario, "en", query="perro", key="come", asked={})
    assert "<title>Self-attention step by step: “el perro come”</title>" in document
    assert "3 tokens · d_model = 4 · d_k = 4 · d_v = 4 · the scores are not divided" in document
    assert LANGUAGES["en"]["handout.causal"] in document
    assert (
        "Part 3 of 5: Without dividing" in document or "Part 3 of 5: " + LANGUAGES["en"]["walk.name.3.none"] in document
    )


@pytest.mark.parametrize(("reader", "asked_for"), [("es", "en"), ("en", "es")], indirect=["reader"])
def test_the_handout_is_written_in_the_language_asked_whatever_the_session_reads(reader, asked_for):
    scenario = lesson_scenario()
    parsed = read(handout.handout_html(scenario, asked_for, query="perro", key="come", asked={}))
    wanted, other = LANGUAGES[asked_for], LANGUAGES[reader]
    for key in ("matrix.weights", "matrix.output"):  # titles the two languages write differently
        assert wanted[key] != other[key]
        assert wanted[key] in parsed.figures, (key, sorted(parsed.figures))
        assert other[key] not in parsed.figures, key
    # and the session still reads its own language afterwards
    assert state.current_language() == reader
