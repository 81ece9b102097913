"""Links reproduce the scenario, language and step; bad links and files say so and change nothing else."""

import base64
import csv
import io
import json
import zlib
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine import EngineInputError, Scale, Scenario, lesson_scenario, random_scenario, same_numbers
from engine.limits import MAX_LINK_CHARS
from engine.scenario_io import decode_scenario, encode_scenario, scenario_to_dict, scenario_to_json
from tests.app.helpers import APP, HOME, button, by_label, chart, downloaded, go_to_part, no_exception, open_page, shown
from ui.i18n import LANGUAGES

BUILDER, WALKTHROUGH = "pages/builder.py", "pages/walkthrough.py"
SHOWN = ("b_x", "b_q", "b_k", "b_v", "b_weights", "b_out")  # the builder's figures a scenario decides


def open_link(params: dict, page: str = HOME) -> AppTest:
    """Open the app as a browser opens a shared link: at the page's address, query parameters on the first run."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    if page != HOME:
        at.switch_page(page)
    return at.run()


def open_share_box(at: AppTest) -> AppTest:
    """Open the share popover. AppTest has no click for a popover: its open state is set by its key, as a click
    sets it (opening it reruns the page)."""
    at.session_state["share_open"] = True
    return at.run()


def shared_link(at: AppTest) -> str:
    return next(code.value for code in at.code if "?s=" in code.value)


def link_params(link: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}


def figures_of(at: AppTest) -> dict[str, list]:
    return {key: chart(at, key).trace["z"] for key in SHOWN}


def test_a_link_restores_the_scenario_and_the_address_bar_keeps_it():
    scenario = random_scenario(5)
    at = open_link({"s": encode_scenario(scenario)}, BUILDER)
    assert no_exception(at)
    assert np.allclose(chart(at, "b_x").trace["z"], scenario.x, rtol=0, atol=1e-12)
    assert np.allclose(chart(at, "b_q").trace["z"], scenario.x @ scenario.w_q, rtol=0, atol=1e-9)
    assert at.query_params["s"] == encode_scenario(scenario)  # so that a reload finds it


def test_a_shared_link_opens_in_the_language_it_was_shared_in():
    at = open_share_box(open_page(BUILDER, "en"))
    params = link_params(shared_link(at))
    assert params["lang"] == "en"
    opened = open_link(params, BUILDER)
    assert opened.title[0].value == LANGUAGES["en"]["builder.title"]


def test_a_link_from_the_earlier_version_naming_the_language_by_its_label_still_opens_in_it():
    opened = open_link({"lang": "English"}, BUILDER)
    assert opened.title[0].value == LANGUAGES["en"]["builder.title"]
    assert opened.query_params["lang"] == "en"


def test_the_share_box_builds_its_content_only_when_opened():
    at = open_link({}, BUILDER)
    assert not any("?s=" in code.value for code in at.code)
    open_share_box(at)
    assert any("?s=" in code.value for code in at.code)


def test_the_builders_share_link_round_trips_to_the_same_view():
    at = open_page(BUILDER, "en")
    by_label(at.number_input, LANGUAGES["en"]["scenario.seed"]).set_value(7).run()
    button(at, LANGUAGES["en"]["scenario.random"]).click().run()
    by_label(at.select_slider, LANGUAGES["en"]["scenario.temperature"]).set_value(1.5).run()
    before = figures_of(at)
    assert before["b_x"] != lesson_scenario().x.tolist()  # a fallback to the lesson's example would show
    params = link_params(shared_link(open_share_box(at)))
    opened = open_link(params, BUILDER)  # a new session, as the person the link was sent to
    assert no_exception(opened)
    assert figures_of(opened) == before
    # the option too (the language: see the test above)
    assert by_label(opened.select_slider, LANGUAGES[opened.session_state["lang"]]["scenario.temperature"]).value == 1.5


def test_the_walkthrough_link_carries_the_part():
    at = open_link({"step": "3"}, WALKTHROUGH)
    params = link_params(shared_link(open_share_box(at)))
    assert params["step"] == "3"
    opened = open_link(params, WALKTHROUGH)
    assert opened.progress[0].proto.text.startswith("Parte 3 de 5")


@pytest.mark.parametrize("bad", ["garbage", encode_scenario(lesson_scenario())[:-12], "<img src=x onerror=alert(1)>"])
def test_a_bad_link_says_so_and_falls_back_to_the_lesson(bad):
    at = open_link({"s": bad}, BUILDER)
    assert no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(LANGUAGES["es"]["share.bad_link"].split("{")[0])
    assert chart(at, "b_x").trace["z"] == lesson_scenario().x.tolist()
    at.run()
    assert [e.value for e in at.error] == [], "the message is shown once"


def test_an_unknown_language_in_a_link_is_ignored():
    at = open_link({"lang": "xx"})
    assert no_exception(at)
    assert at.title[0].value == LANGUAGES["es"]["home.title"]


def upload(at: AppTest, content: bytes) -> AppTest:
    (uploader,) = [u for u in open_share_box(at).file_uploader if u.key.startswith("upload_")]  # upload_<revision>
    uploader.set_value(("scenario.json", content, "application/json"))
    return at.run()


def test_uploading_a_downloaded_scenario_restores_it():
    scenario = random_scenario(11)
    at = upload(open_page(BUILDER, "en"), scenario_to_json(scenario).encode())
    assert no_exception(at)
    assert [e.value for e in at.error] == []
    assert np.allclose(chart(at, "b_v").trace["z"], scenario.x @ scenario.w_v, rtol=0, atol=1e-9)


# how each language names the token names, written here by hand (the part a file with two tokens "a" breaks)
TOKEN_NAMES = {"en": "the token names", "es": "los nombres de los tokens"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_uploading_a_broken_file_keeps_the_scenario_and_names_the_problem(lang):
    at = open_page(BUILDER, lang)
    before = figures_of(at)
    upload(at, b'{"version": 1, "tokens": ["a", "a"]}')  # two tokens with the same name
    assert no_exception(at)
    errors = [shown(e.value) for e in at.error]
    # one message, from the errors strings: the file cannot be read, the part it breaks (the token names, with
    # what they must be: 1 to 16 different names of up to 32 characters), and the scenario did not change
    strings = LANGUAGES[lang]
    problem = strings["share.field.tokens"].format(count="16", chars="32")
    assert errors == [strings["share.bad_file"].format(problem=problem)]
    assert TOKEN_NAMES[lang] in errors[0] and "16" in errors[0] and "32" in errors[0]
    assert figures_of(at) == before


def test_the_share_box_offers_the_scenario_and_its_matrices_for_download():
    at = open_share_box(open_page(BUILDER, "en"))
    assert sorted(d.label for d in at.download_button) == sorted(
        [LANGUAGES["en"]["share.json"], "x.csv", "W_Q.csv", "W_K.csv", "W_V.csv", LANGUAGES["en"]["handout.download"]]
    )


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("page", [BUILDER, WALKTHROUGH])
def test_the_share_box_offers_the_printable_handout_of_the_scenario_in_the_readers_language(lang, page, downloads):
    scenario = random_scenario(3, ("la", "gata", "duerme"), d_model=3, d_k=2)
    at = open_share_box(open_page(page, lang, scenario=scenario, scenario_rev=0))
    strings = LANGUAGES[lang]
    text, name = downloaded(at, downloads, strings["handout.download"])
    assert name == strings["handout.file"]
    assert text.startswith(f'<!doctype html><html lang="{lang}">')
    assert strings["handout.title"].format(sentence="la gata duerme") in text
    for part in range(1, 6):
        assert strings["handout.question"].format(part=part) in text
    assert no_exception(at)


# The names (all accepted token names): a spreadsheet evaluates a cell starting with = + - @, tab or CR
FORMULA_NAMES = ('=HYPERLINK("//e.vil","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|'/C calc'!A0", "-1+1", "'=x")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_csv_downloads_hold_no_formula_and_read_back_exactly(lang, downloads):
    base = random_scenario(3, FORMULA_NAMES, d_model=3, d_k=2)
    scenario = Scenario(base.tokens, -np.abs(base.x) - 0.5, base.w_q, base.w_k, base.w_v)  # every x negative
    at = open_share_box(open_page(BUILDER, lang, scenario=scenario, scenario_rev=0))
    text, name = downloaded(at, downloads, "x.csv")
    assert name == "x.csv"
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == [LANGUAGES[lang]["editor.token"], "x0", "x1", "x2"]
    # every name written with one apostrophe before it (a spreadsheet's mark for text), read back by removing it
    assert [row[0] for row in rows] == ["'" + name for name in FORMULA_NAMES]
    assert tuple(row[0][1:] for row in rows) == scenario.tokens
    # numbers stay numbers: "-0.5" is a number to a spreadsheet, not a formula; they read back as the same float64
    assert all(not cell.startswith("'") and cell.startswith("-") for row in rows for cell in row[1:])
    assert np.array_equal(np.array([[float(cell) for cell in row[1:]] for row in rows]), scenario.x)
    text, _ = downloaded(at, downloads, "W_Q.csv")
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == ["", "d0", "d1"] and [row[0] for row in rows] == ["x0", "x1", "x2"]
    assert np.array_equal(np.array([[float(cell) for cell in row[1:]] for row in rows]), scenario.w_q)


# --- links at the ends of every range (issue 26, item 9: the top of a range was never round-tripped) ---


def scenario_at_the_top() -> Scenario:
    """The largest scenario a link may carry: 16 tokens with names of 32 emoji (4 bytes each, no two alike), d_model,
    d_k and d_v of 8, entries of ±1,000,000 and full-precision values, temperature 5.0, ÷d_k, the causal mask."""
    rng = np.random.default_rng(0)
    names = tuple("".join(chr(0x1F400 + (17 * i + j) % 250) for j in range(32)) for i in range(16))
    x, w_q, w_k, w_v = (rng.uniform(-1e6, 1e6, shape) for shape in ((16, 8), (8, 8), (8, 8), (8, 8)))
    x[0, 0], x[0, 1], w_v[7, 7] = 1e6, -1e6, 1e6  # the ends of the values' range, exactly
    return Scenario(names, x, w_q, w_k, w_v, scale=Scale.DK, causal=True, temperature=5.0)


def scenario_at_the_bottom() -> Scenario:
    """The smallest: one token of one character, d_model 2, d_k and d_v 1, temperature 0.1."""
    return Scenario(("a",), np.array([[0.5, -1.0]]), np.ones((2, 1)), np.ones((2, 1)), np.ones((2, 1)), temperature=0.1)


@pytest.mark.parametrize("make", [scenario_at_the_top, scenario_at_the_bottom], ids=["top", "bottom"])
def test_a_link_at_the_ends_of_every_range_opens_the_same_scenario(make):
    scenario = make()
    code = encode_scenario(scenario)
    assert len(code) <= MAX_LINK_CHARS  # the largest scenario fits the link's limit (5,915 of 12,000 characters)
    assert same_numbers(decode_scenario(code), scenario)
    at = open_link({"s": code, "lang": "en"}, BUILDER)
    assert no_exception(at)
    assert same_numbers(at.session_state["scenario"], scenario)
    assert at.number_input(key=f"dims_d_model_{at.session_state['scenario_rev']}").value == scenario.d_model
    assert at.number_input(key=f"dims_d_k_{at.session_state['scenario_rev']}").value == scenario.d_k
    assert at.select_slider(key=f"opt_temperature_{at.session_state['scenario_rev']}").value == scenario.temperature
    at.run()  # a second run with the widgets as drawn changes nothing
    assert same_numbers(at.session_state["scenario"], scenario)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"temperature": 5.0 + 1e-9}, "temperature"),
        ({"temperature": 0.1 - 1e-9}, "temperature"),
        ({"tokens": [f"t{i}" for i in range(17)]}, "tokens"),
        ({"tokens": ["a" * 33]}, "tokens"),
        ({"x": [[0.0] * 9]}, "x"),
        ({"w_q": [[0.0] * 9] * 2, "w_k": [[0.0] * 9] * 2}, "w_q"),
        ({"w_v": [[0.0] * 9] * 2}, "w_v"),
        ({"x": [[1e6 + 0.5, 0.0]]}, "x"),
    ],
    ids=["T above 5", "T below 0.1", "17 tokens", "33 characters", "d_model 9", "d_k 9", "d_v 9", "beyond 1e6"],
)
def test_a_link_one_past_the_end_of_a_range_is_refused_naming_it(change, field):
    data = {**scenario_to_dict(scenario_at_the_bottom()), **change}
    if field == "tokens" and len(data["tokens"]) > 1:
        data["x"] = [[0.0, 0.0]] * len(data["tokens"])
    with pytest.raises(EngineInputError) as refused:
        decode_scenario(encode_dict(data))
    assert refused.value.params == {"field": field}


def encode_dict(data: dict) -> str:
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_largest_scenario_a_link_carries_draws_every_step_and_the_builder(lang):
    # entries of ±10⁶ make scores of up to 5·10²⁶: 27 digits before the point, beyond the 28 digits decimal
    # arithmetic keeps by default with 3 after it; the builder's hover text and the walkthrough's derivations raised
    code = encode_scenario(scenario_at_the_top())
    at = open_link({"s": code, "lang": lang}, BUILDER)
    assert no_exception(at)
    at = open_link({"s": code, "lang": lang}, WALKTHROUGH)
    for part in range(1, 6):
        go_to_part(at, part)
        assert no_exception(at), part
