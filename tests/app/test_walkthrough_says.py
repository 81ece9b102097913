"""What the walkthrough says about its numbers (issue 13, parts 5 and 6): Q·K is not symmetric, ÷√d_k links to its
experiment, the lesson's wrong row is named with the right one, the outputs' collapse is said, and the code each
part folds away is the code that computes it. Expected numbers come from tests/app/lesson.py (plain numpy from the
lesson's inputs), never from the engine."""

import json
import re
from dataclasses import replace

import numpy as np
import pytest

from engine import DESIGNED_SENTENCE, Scale, designed_heads, lesson_scenario, random_scenario, sentence_vectors
from engine.scenario_io import encode_scenario
from tests.app import lesson
from tests.app.helpers import charts, go_to_part, no_exception, open_page, shown
from tests.app.lesson import COME, PERRO
from tests.app.test_multihead_page import reference_weights
from tests.app.test_share import open_link
from ui.i18n import LANGUAGES, translate
from ui.numbers import fixed, signed, vector

PAGE = "pages/walkthrough.py"
LANGS = ("es", "en")
REF = lesson.attention()


@pytest.mark.parametrize("lang", LANGS)
def test_part_2_says_the_scores_are_not_symmetric_with_both_numbers(lang):
    forward, backward = REF["scores"][PERRO, COME], REF["scores"][COME, PERRO]
    assert (round(forward, 3), round(backward, 3)) == (0.954, 1.357)  # the numbers issue 13 quotes
    at = go_to_part(open_page(PAGE, lang), 2)
    assert no_exception(at)
    expected = translate(
        lang,
        "walk.2.asymmetry",
        q="perro",
        k="come",
        forward=signed(forward, lang=lang),
        backward=signed(backward, lang=lang),
    )
    assert expected in [shown(m.value) for m in at.markdown]


@pytest.mark.parametrize("lang", LANGS)
def test_part_3_links_to_the_sqrt_dk_experiment(lang):
    at = go_to_part(open_page(PAGE, lang), 3)
    links = [link for link in at.get("page_link") if link.proto.label == LANGUAGES[lang]["walk.3.link"]]
    assert len(links) == 1
    assert links[0].proto.page.endswith("scaling.py") or "scaling" in links[0].proto.page


@pytest.mark.parametrize("lang", LANGS)
def test_part_4_names_the_lessons_wrong_row_and_gives_the_right_one(lang):
    unscaled = lesson.softmax_rows(REF["scores"])[PERRO]  # softmax without ÷ 2, from the lesson's inputs
    right = vector(unscaled, sign=False, lang=lang)
    assert right == vector([0.247, 0.427, 0.326], sign=False, lang=lang)
    at = go_to_part(open_page(PAGE, lang), 4)
    body = next(m.value for m in at.markdown if m.value == LANGUAGES[lang]["walk.errata.body"])
    assert right.replace("[", "**[").replace("]", "]**") in body or right in body
    assert LANGUAGES[lang]["walk.errata.title"] in [m.value for m in at.markdown]
    # the errata are about the lesson's numbers: another scenario does not show them
    other = open_link(
        {"s": encode_scenario(random_scenario(3)), "lang": lang, "step": "4", "questions_on": "false"}, PAGE
    )
    assert no_exception(other)
    assert LANGUAGES[lang]["walk.errata.title"] not in [m.value for m in other.markdown]


@pytest.mark.parametrize("lang", LANGS)
def test_part_5_says_the_lessons_outputs_collapse_with_their_lowest_cosine(lang):
    output = REF["output"]
    unit = output / np.linalg.norm(output, axis=1, keepdims=True)
    lowest = min(float(unit[i] @ unit[j]) for i in range(3) for j in range(i + 1, 3))
    assert round(lowest, 3) == 0.999  # 0.99889: the three outputs point almost the same way
    at = go_to_part(open_page(PAGE, lang), 5)
    # "at least" holds at the digits shown (issue 30, item 6): 0.99889 is at least 0.998, not at least 0.999
    at_least = fixed(np.floor(lowest * 1000) / 1000, 3, lang=lang)
    assert at_least == fixed(0.998, 3, lang=lang)
    weights = REF["weights"]
    peak = float(weights.max(axis=1).mean())
    effective = float(np.exp(np.mean([-(row * np.log(row)).sum() for row in weights])))
    why = translate(
        lang, "collapse.flat", peak=fixed(peak, 3, lang=lang), effective=fixed(effective, 2, lang=lang), n="3"
    )
    expected = " ".join(
        (translate(lang, "walk.5.collapse", cosine=at_least), why, translate(lang, "collapse.remedies"))
    )
    assert [w.value for w in at.warning] == [expected]
    assert not at.success
    # outputs that differ are not called collapsed: one-hot-like weights (a large W_Q, W_K) keep them apart
    sharp = replace(lesson_scenario(), w_q=lesson.W_Q * 20, w_k=lesson.W_K * 20)
    apart = open_link({"s": encode_scenario(sharp), "lang": lang, "step": "5", "questions_on": "false"}, PAGE)
    assert no_exception(apart)
    assert not apart.warning
    assert len(apart.success) == 1


@pytest.mark.parametrize("scale", list(Scale))
def test_the_folded_code_of_every_part_computes_the_pages_numbers(scale):
    """The lines each part folds away ("the code"), run one after another on the lesson's inputs, give the
    lesson's numbers (softmax written as its comment says)."""
    at = open_page(PAGE, "en")
    code = []
    for part in range(1, 6):
        if part > 1:
            go_to_part(at, part)
        if part == 3 and scale != Scale.SQRT:
            at.session_state["scenario"] = replace(at.session_state["scenario"], scale=scale)
            at.run()
        blocks = [c.value for c in at.code if c.language == "python"]
        assert len(blocks) == 1, (part, blocks)
        code.append(blocks[0])
    assert ("/ np.sqrt(d_k)" in code[2]) == (scale == Scale.SQRT)

    def softmax(z, axis=-1):
        e = np.exp(z - z.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    names = {"np": np, "x": lesson.X, "w_q": lesson.W_Q, "w_k": lesson.W_K, "w_v": lesson.W_V, "d_k": 4, "T": 1.0}
    names |= {"allowed": np.ones((3, 3), bool), "softmax": softmax}
    exec("\n".join(code), names)
    divisor = {Scale.NONE: 1.0, Scale.SQRT: 2.0, Scale.DK: 4.0}[scale]
    np.testing.assert_allclose(names["output"], lesson.attention(divisor)["output"], atol=1e-12)


def peak_words(weights, lang: str) -> dict:
    """The measures a row's reading names, from the weights by hand: largest weight, e^entropy, tokens."""
    w = np.asarray(weights)
    return {
        "max_weight": fixed(w.max(), lang=lang),
        "effective": fixed(float(np.exp(-(w * np.log(w)).sum())), 2, lang=lang),
        "n": str(w.size),
    }


@pytest.mark.parametrize("lang", LANGS)
def test_part_4_reads_the_lessons_row_as_flat_by_the_sqrt_dk_pages_rule(lang):
    weights = REF["weights"][PERRO]  # [0.289, 0.380, 0.332]: e^H = 2.98 effective tokens > 0.85 × 3, the top «perro»
    effective = float(np.exp(-(weights * np.log(weights)).sum()))
    assert weights.max() <= 0.8 and effective > 0.85 * 3 and weights.argmax() == PERRO
    at = go_to_part(open_page(PAGE, lang), 4)
    expected = translate(lang, "walk.4.reading.flat", top="perro", **peak_words(weights, lang))
    assert any(shown(i.value).endswith(expected) for i in at.info), [i.value for i in at.info]
    # a row that puts nearly everything on one token reads so: W_Q and W_K scaled up sharpen every row
    sharp = replace(lesson_scenario(), w_q=lesson.W_Q * 20, w_k=lesson.W_K * 20)
    params = {"s": encode_scenario(sharp), "lang": lang, "step": "4", "questions_on": "false"}
    at = open_link(params, PAGE)
    weights = lesson.softmax_rows((lesson.X @ (lesson.W_Q * 20)) @ (lesson.X @ (lesson.W_K * 20)).T / 2)[PERRO]
    assert weights.max() > 0.8
    top = lesson.TOKENS[int(weights.argmax())]
    words = peak_words(weights, lang)
    assert any(shown(i.value).endswith(translate(lang, "walk.4.reading.saturated", top=top, **words)) for i in at.info)


@pytest.mark.parametrize(("scale", "keys"), [(Scale.NONE, ["walk_s3"]), (Scale.SQRT, ["walk_s3", "walk_s3b"])])
def test_part_3_draws_the_divided_scores_only_when_they_are_divided(scale, keys):
    scenario = replace(lesson_scenario(), scale=scale)
    at = open_link({"s": encode_scenario(scenario), "lang": "en", "step": "3", "questions_on": "false"}, PAGE)
    assert no_exception(at)
    drawn = [c.key for c in charts(at)]
    assert drawn == keys
    assert not any("÷ 1" in json.dumps(c.spec, ensure_ascii=False) for c in charts(at))


@pytest.mark.parametrize("lang", LANGS)
def test_the_errata_list_only_numbers_that_differ_at_the_lessons_digits(lang):
    """Issue 30, item 7: the lesson's e^0.339 ≈ 1.404 is the app's 1.4035 with one digit less, not a difference;
    its e^0.611 ≈ 1.842 is one (the app's e^0.612 = 1.8441 reads 1.844 at the lesson's three decimals)."""
    import math

    assert round(math.exp(0.339), 3) == 1.404 and round(math.exp(0.612), 4) == 1.8441
    assert round(math.exp(0.612), 3) != 1.842
    body = LANGUAGES[lang]["walk.errata.body"]
    point = "," if lang == "es" else "."
    differences = body.split("\n\n")[1]
    listed = differences.split(":", 1)[1].split(". ")[0]  # "0.611 for 0.612 (…), …": the listed pairs
    assert f"1{point}842" in listed
    pairs = {"es": " por ", "en": " for "}[lang]
    assert f"1{point}404{pairs}" not in listed and f"e^x 1{point}404" not in listed


# A sentence that says several heads do not separate the rows (es, en), whatever its numbers
SAYS_HEADS_DO_NOT_SEPARATE = {
    "es": re.compile(r"\bno (?:separan|dejan)\b[^.]*\bfilas"),
    "en": re.compile(r"\b(?:do|does) not (?:separate|make|leave)\b[^.]*\brows"),
}


def mean_cosine(m: np.ndarray) -> float:
    unit = m / np.linalg.norm(m, axis=1, keepdims=True)
    cos = unit @ unit.T
    return float(cos[np.triu_indices(len(m), k=1)].mean())


def one_head_and_heads(x: np.ndarray, tokens, h: int) -> tuple[float, float]:
    """Mean pairwise cosine of the outputs: h designed heads, and one head holding their W side by side."""
    built = designed_heads(x, tokens, h)
    merged = [np.hstack([head[role] for head in built.heads]) for role in range(3)]
    one = reference_weights(x, merged[0], merged[1]) @ (x @ merged[2])
    many = np.hstack([reference_weights(x, wq, wk) @ (x @ wv) for wq, wk, wv in built.heads])
    return mean_cosine(one), mean_cosine(many)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", [PAGE, "pages/pipeline.py"])
def test_the_collapse_says_heads_need_not_separate_the_rows_not_that_they_do_not(lang, page):
    """Issue 30, item 2: after the outputs collapse, walkthrough part 5 and the pipeline said "several heads ... by
    themselves do not separate the rows (the multi-head page measures it)". The multi-head page's two inputs show
    both ways: the lesson's matrices as one big head leave the rows more distinct than as 2 heads, the sentence's
    4 designed heads leave them more distinct than the same W as one head. So: no guarantee, and no "do not"."""
    lesson_x = lesson_scenario()
    one, many = one_head_and_heads(lesson_x.x, lesson_x.tokens, 2)
    assert one < many  # the lesson: one big head separates more (0.851 against 0.887)
    sentence = sentence_vectors(DESIGNED_SENTENCE, 8)
    one, many = one_head_and_heads(sentence.x, sentence.tokens, 4)
    assert many < one  # the sentence: the 4 heads separate more (0.558 against 0.667)
    at = open_page(page, lang, timeout=120)
    if page == PAGE:
        at = go_to_part(at, 5)
    said = [shown(str(w.value)) for w in at.warning if translate(lang, "collapse.remedies") in str(w.value)]
    assert said, [w.value for w in at.warning]
    assert not any(SAYS_HEADS_DO_NOT_SEPARATE[lang].search(text) for text in said), said
