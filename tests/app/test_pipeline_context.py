"""The pipeline page's «the same word in two sentences» (issue 30): the same token at the same position goes in
with the same x and comes out with another output, from its neighbours alone; the page says mixing, not meaning.
Expected numbers come from the lesson's matrices and the page's own x (tests/app/lesson.py style: plain numpy)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from engine import sentence_vectors
from engine.presets import LESSON_W_K, LESSON_W_Q, LESSON_W_V
from tests.app.helpers import open_page, page_text, shown
from ui.i18n import translate

PAGE = "pages/pipeline.py"


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def by_hand_output(sentence: str, position: int) -> tuple[np.ndarray, np.ndarray]:
    """x and the attention output of one token, with the lesson's W, ÷√4, no mask."""
    x = sentence_vectors(sentence).x
    q, k, v = x @ LESSON_W_Q, x @ LESSON_W_K, x @ LESSON_W_V
    weights = softmax_rows(q @ k.T / 2.0)
    return x[position], (weights @ v)[position]


def cos(a, b) -> float:
    return float(a @ b) / math.sqrt(float(a @ a) * float(b @ b))


def written(value: float, lang: str) -> str:
    return f"{value:.3f}".replace("-", "−").replace(".", "," if lang == "es" else ".")


@pytest.mark.parametrize(
    ("lang", "word", "first", "second"),
    [
        ("es", "banco", "el banco de la plaza", "el banco me dio un préstamo"),
        ("en", "bank", "the bank of the river", "the bank gave me a loan"),
    ],
)
def test_the_same_word_at_the_same_position_comes_out_different_from_its_neighbours_alone(lang, word, first, second):
    at = open_page(PAGE, lang, timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    (x1, out1), (x2, out2) = by_hand_output(first, 1), by_hand_output(second, 1)
    assert np.array_equal(x1, x2)  # the same embedding at the same position
    x_cos, out_cos = cos(x1, x2), cos(out1, out2)
    assert out_cos < 0.999  # the outputs differ at the digits shown
    text = page_text(at)
    expected = translate(
        lang, "pctx.reading.same_x", word=word, x_cos=written(x_cos, lang), out_cos=written(out_cos, lang)
    )
    assert expected in text
    assert translate(lang, "pctx.honest").replace("**", "") in text.replace("**", "")


def test_a_word_at_another_position_is_said_to_go_in_different():
    at = open_page(
        PAGE,
        "es",
        timeout=120,
        pipeline_ctx_word="banco",
        pipeline_ctx_a="el banco de la plaza",
        pipeline_ctx_b="fui al banco",
    )
    assert not at.exception
    (x1, out1), (x2, out2) = by_hand_output("el banco de la plaza", 1), by_hand_output("fui al banco", 2)
    expected = translate(
        "es",
        "pctx.reading.other_x",
        word="banco",
        x_cos=written(cos(x1, x2), "es"),
        out_cos=written(cos(out1, out2), "es"),
    )
    assert expected in page_text(at)


def test_a_word_missing_from_a_sentence_gets_a_message():
    at = open_page(PAGE, "en", timeout=120, pipeline_ctx_word="bank", pipeline_ctx_b="the dog ate")
    assert not at.exception
    assert any(translate("en", "pctx.not_found", word="bank", sentence="the dog ate") in w.value for w in at.warning)


def test_outputs_that_differ_by_less_than_the_digits_shown_get_the_digits_that_tell_them_apart():
    """Issue 30, item 10: the same word before «río» and before «silla» comes out with a cosine of 0.99972: the
    page said "comes out different (cosine between the two outputs: 1,000)". The reading writes as many digits as
    it takes for the cosine not to read as 1, each of them right."""
    first, second = "el banco de la plaza del pueblo río", "el banco de la plaza del pueblo silla"
    at = open_page(PAGE, "es", timeout=120, pipeline_ctx_word="banco", pipeline_ctx_a=first, pipeline_ctx_b=second)
    assert not at.exception, [e.value for e in at.exception]
    (x1, out1), (x2, out2) = by_hand_output(first, 1), by_hand_output(second, 1)
    out_cos = cos(out1, out2)
    assert np.array_equal(x1, x2) and 0.9995 <= out_cos < 1 - 1e-12  # different, yet 1,000 at three decimals
    reading = next(shown(str(box.value)) for box in at.info if "banco" in str(box.value))
    before = translate("es", "pctx.reading.same_x", word="banco", x_cos="1,000", out_cos="@").split("@")[0]
    parts = reading.split(before)
    assert len(parts) == 2, reading  # the "same x, different output" reading
    digits = parts[1].split(")")[0]
    assert digits != "1,000" and not digits.startswith("1"), reading
    decimals = len(digits.split(",")[1])
    assert digits == f"{out_cos:.{decimals}f}".replace(".", ","), (digits, out_cos)


# The section's opening, read as a promise that the word always comes out different (es, en)
PROMISES_ANOTHER_OUTPUT = {
    "es": re.compile(r"y sale con otro output, porque"),
    "en": re.compile(r"and comes out with another output, because"),
}


def by_hand_causal_output(sentence: str, position: int) -> np.ndarray:
    """The token's attention output with the lesson's W, ÷√4 and the causal mask (no token looks ahead)."""
    x = sentence_vectors(sentence).x
    q, k, v = x @ LESSON_W_Q, x @ LESSON_W_K, x @ LESSON_W_V
    scores = np.where(np.tril(np.ones((len(x), len(x)), bool)), q @ k.T / 2.0, -np.inf)
    return (softmax_rows(scores) @ v)[position]


@pytest.mark.parametrize(
    ("lang", "word", "first", "second"),
    [
        ("es", "banco", "el banco de la plaza", "el banco me dio un préstamo"),
        ("en", "bank", "the bank of the river", "the bank gave me a loan"),
    ],
)
def test_under_the_causal_mask_the_same_word_after_the_same_words_comes_out_the_same_and_the_page_says_why(
    lang, word, first, second
):
    """Issue 30: with the page's causal toggle on, «banco» at position 1 sees only «el banco» in both default
    sentences and comes out with exactly the same output; the section opened by promising "another output,
    because its neighbours are others" and then read "both sentences give it the same neighbours". It now says that
    only the tokens up to the word count under the mask, and that those are the same."""
    out1, out2 = by_hand_causal_output(first, 1), by_hand_causal_output(second, 1)
    np.testing.assert_allclose(out1, out2, atol=1e-15)  # the same tokens before it: the same output
    at = open_page(PAGE, lang, timeout=120, pipeline_causal=True)
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert not PROMISES_ANOTHER_OUTPUT[lang].search(text), text
    assert translate(lang, "pctx.reading.identical_causal", word=word, out_cos=written(1.0, lang)) in text
