"""«Where this step sits» (issue 30): the Transformer block around self-attention at the walkthrough's end and on
the multi-head page, one figure drawn through the figure layer, and the causal-mask toggles linking to it."""

from __future__ import annotations

import json

import pytest

from tests.app.helpers import figure_elements, go_to_part, open_page, page_text
from ui import charts, figure_specs
from ui.figure_specs import BlockLabels, Style, block_figure
from ui.i18n import LANGUAGES, translate

LANGS = ("es", "en")
BOXES = ("inputs", "attention", "masked_attention", "cross_attention", "add_norm", "feed_forward", "output")


def block_of(at) -> dict:
    for chart in figure_elements(at):
        if chart.proto.id.endswith("-where_block"):
            return json.loads(chart.proto.spec)
    raise AssertionError("no block figure")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page", "part"), [("pages/walkthrough.py", 5), ("pages/multihead.py", None)])
def test_the_block_is_shown_with_every_box_named_in_the_readers_language(lang, page, part):
    at = open_page(page, lang, timeout=120)
    if part is not None:
        at = go_to_part(at, part)
    assert not at.exception, [e.value for e in at.exception]
    figure = block_of(at)
    words = [trace for trace in figure["data"] if trace.get("mode") == "text"]  # the boxes' words (a text trace)
    texts = [note.get("text", "") for note in figure["layout"]["annotations"]] + list(words[0]["text"])
    for box in BOXES:
        assert translate(lang, f"where.box.{box}") in texts, box
    assert texts.count(translate(lang, "where.box.add_norm")) == 5  # 2 in the encoder, 3 in the decoder
    text = page_text(at)
    for key in ("where.title", "where.encoder_decoder", "where.mask", "where.real_model"):
        assert translate(lang, key).replace("**", "") in text.replace("**", ""), key


def test_the_walkthroughs_other_parts_do_not_show_it():
    at = go_to_part(open_page("pages/walkthrough.py", "en"), 4)
    assert translate("en", "where.title") not in page_text(at)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["pages/builder.py", "pages/pipeline.py"])
def test_every_causal_mask_toggle_links_to_why_and_says_the_real_model_is_an_encoder(lang, page):
    at = open_page(page, lang, timeout=120)
    assert not at.exception
    links = [link for link in at.get("page_link") if link.proto.label == LANGUAGES[lang]["where.mask_link"]]
    assert len(links) == 1 and "multihead" in links[0].proto.page
    assert translate(lang, "where.mask_caption") in [c.value for c in at.caption]


def test_the_figure_marks_this_step_and_draws_a_residual_beside_every_sum():
    labels = BlockLabels(*(name for name in BlockLabels.__dataclass_fields__))
    figure = block_figure(labels, Style(), "en").to_plotly_json()
    rects = [s for s in figure["layout"]["shapes"] if s["type"] == "rect"]
    residuals = figure["data"][0]
    assert len(rects) == 5 + 7 and residuals["x"].count(None) == 5  # one residual path per sum
    outlined = [r for r in rects if r["line"]["width"] == 3]
    assert len(outlined) == 2  # the self-attention of each column: this step
    assert "here" in [note.get("text") for note in figure["layout"]["annotations"]]


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_the_boxes_words_keep_their_dark_colour_on_the_light_fills_in_both_themes():
    """Streamlit's theme recolours annotations' fonts (white on the light fills in dark mode: contrast 1.2 to 1.6,
    found by the browser's contrast check): the boxes' words are a text trace, whose colour the theme keeps."""
    labels = BlockLabels(*(name for name in BlockLabels.__dataclass_fields__))
    figure = block_figure(labels, Style(), "en").to_plotly_json()
    words = figure["data"][1]
    assert words["mode"] == "text"
    boxed = ("inputs", "attention", "masked_attention", "cross_attention", "add_norm", "feed_forward")
    assert set(words["text"]) == set(boxed)
    assert not [note for note in figure["layout"]["annotations"] if note.get("text") in boxed]
    text = _luminance(words["textfont"]["color"])
    for rect in (s for s in figure["layout"]["shapes"] if s["type"] == "rect"):
        fill = _luminance(rect["fillcolor"])
        assert (max(fill, text) + 0.05) / (min(fill, text) + 0.05) >= 4.5, rect["fillcolor"]


def test_the_block_is_built_once_however_many_times_the_part_is_drawn(monkeypatch):
    """Every follower of a live class draws the walkthrough's last part at the same step: one build serves them."""
    monkeypatch.setattr(charts, "FIGURES", charts.FigureCache())
    builds = []
    build = figure_specs.block_figure
    monkeypatch.setattr(figure_specs, "block_figure", lambda *args: builds.append(args) or build(*args))
    for _ in range(2):
        at = go_to_part(open_page("pages/walkthrough.py", "en"), 5)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        block_of(at)
    assert len(builds) == 1
