"""One vocabulary for how peaked attention is (issue 30, item 4): the √d_k, learning, multi-head, walkthrough and
softmax pages name a row, a set of rows or a head with engine.peakedness's three words, each in its grammatical
form, and the multi-head page's word for a head is the √d_k page's rule applied to that head's numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import lesson_scenario
from engine.peakedness import VERDICTS, peakedness_verdict
from tests.app.helpers import open_page, shown, tables
from ui.i18n import LANGUAGES, translate

STEMS = {  # each verdict's word, as every page writes it (gender and number aside)
    "es": {"saturated": "saturad", "balanced": "equilibrad", "flat": "plan"},
    "en": {"saturated": "saturated", "balanced": "balanced", "flat": "flat"},
}
FAMILIES = ("scaling.verdict.{}", "peak.rows.{}", "peak.one.{}", "walk.4.reading.{}", "softmax.reading.{}")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("verdict", VERDICTS)
def test_every_page_names_a_verdict_with_the_same_word(lang, verdict):
    for family in FAMILIES:
        text = LANGUAGES[lang][family.format(verdict)]
        assert text.lower().startswith(STEMS[lang][verdict]), (family, text)
        others = [STEMS[lang][v] for v in VERDICTS if v != verdict]
        assert not any(text.lower().startswith(stem) for stem in others)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_multihead_pages_word_for_a_head_is_the_sqrt_dk_rule_on_its_numbers(lang):
    """The scenario's own matrices as the one head (h = 1): its rows' mean largest weight and e^(mean entropy),
    by hand, through the √d_k page's rule."""
    at = open_page("pages/multihead.py", lang)
    at.selectbox(key=f"mh_preset_scenario_{lang}").set_value("scenario").run()
    at.selectbox(key="mh_h_4").set_value(1).run()
    s = lesson_scenario()
    scores = (s.x @ s.w_q) @ (s.x @ s.w_k).T / 2.0
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    peak = float(weights.max(axis=1).mean())
    entropy = float(np.mean([-(row * np.log(row)).sum() for row in weights]))
    verdict = str(peakedness_verdict(peak, entropy, math.log(3)))
    assert verdict == "flat"  # 0.373, 2.98 of 3 effective tokens
    column = translate(lang, "mh.measured.col.peak")
    table = next(frame.rename(columns=shown).map(shown) for frame in tables(at) if column in map(shown, frame.columns))
    point = "," if lang == "es" else "."
    expected = translate(
        lang, "mh.measured.peak", word=translate(lang, f"peak.one.{verdict}"), weight=f"{peak:.3f}".replace(".", point)
    )
    assert list(table[column]) == [expected]
