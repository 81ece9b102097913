"""Every derivation line the app renders reproduces on a calculator, to the last written digit.

For the lesson's scenario and random ones, every part of the walkthrough, both languages, every scale, T ≠ 1 and
the causal mask, plus the builder's cell and the softmax page: each text block is parsed and every written result
recomputed from the operands written on its own line (tests/app/derivation_check.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Scale, lesson_scenario, random_scenario
from tests.app.derivation_check import check_block
from tests.app.helpers import no_exception, open_page

SCENARIOS = {
    "lesson": lesson_scenario(),
    "lesson-none": replace(lesson_scenario(), scale=Scale.NONE),
    "lesson-dk-hot": replace(lesson_scenario(), scale=Scale.DK, temperature=2.0),
    "lesson-causal-cold": replace(lesson_scenario(), causal=True, temperature=0.3),
    "random-7": random_scenario(7),
    "random-8-wide": random_scenario(8, ("a", "b", "c", "d", "e"), d_model=6, d_k=3),
    "random-9-causal": replace(random_scenario(9), causal=True, temperature=1.7),
}


def checked_blocks(at, lang: str) -> tuple[list[str], int]:
    problems, checked = [], 0
    for code in at.code:
        found, count = check_block(str(code.value), lang)
        problems += found
        checked += count
    return problems, checked


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_walkthrough_line_follows_from_its_written_operands(name, lang):
    at = open_page("pages/walkthrough.py", lang)
    at.session_state["scenario"] = SCENARIOS[name]
    total = 0
    for part in range(1, 6):
        at.query_params["step"] = str(part)
        at.session_state["step"] = part
        at.run()
        assert no_exception(at), (part, [e.value for e in at.exception])
        problems, checked = checked_blocks(at, lang)
        assert problems == [], (name, lang, part, problems)
        nothing_to_divide = part == 3 and SCENARIOS[name].scale == Scale.NONE
        assert checked > 0 or nothing_to_divide, (name, part)  # the part's derivation was found and checked
        total += checked
    assert total >= 30


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", ["lesson", "random-8-wide", "lesson-causal-cold"])
def test_every_builder_line_follows_from_its_written_operands(name, lang):
    at = open_page("pages/builder.py", lang)
    at.session_state["scenario"] = SCENARIOS[name]
    at.run()
    assert no_exception(at)
    problems, checked = checked_blocks(at, lang)
    assert problems == [] and checked >= 5, problems


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("preset", ["lesson", "negative", "huge"])
@pytest.mark.parametrize("temperature", [1.0, 0.5, 3.7])
def test_every_softmax_page_line_follows_from_its_written_operands(preset, temperature, lang):
    at = open_page("pages/softmax.py", lang)
    at.button(key=f"preset_{preset}").click().run()
    at.select_slider(key="softmax_temperature").set_value(temperature).run()
    assert no_exception(at)
    problems, checked = checked_blocks(at, lang)
    assert problems == [] and checked >= 6, problems


# --- the checker itself catches what a student would catch ---


@pytest.mark.parametrize(
    "block",
    [
        "s = (+0.461)(+1.391) + (+0.779)(+0.663)\n  ≈ (+0.6413) + (+0.5166)\n  = +1.1579\n  ≈ +1.158",  # 0.516477
        "s = (+0.5)(+0.3) + (+1.15)(+0.1)\n  = (+0.15) + (+0.115)\n  = +0.266",  # the sum is 0.265
        "s = (+0.461)(+1.391) + (+0.779)(+0.663)\n  ≈ (+0.6413) + (+0.5165)\n  = +1.1578\n  ≈ +1.157",  # rounds up
        "score'(a → b) = +0.954 ÷ 2 = +0.476",
        "score'(a → b) = +0.954 ÷ 1.732 = +0.551",  # inexact quotient written with "="
        "e^(+0.339) ≈ 1.4030  ← el",  # a calculator gives 1.4036
        "Σ = 1.4035 + 1.8441 + 1.6112 = 4.8589",
        "1.4035 / 4.8588 ≈ 0.288  ← el",
        "0.5·A + 0.3·B = 0.5 × [1, 2] + 0.3 × [4, 5]\n  = [0.5, 1] + [1.2, 1.6]",
    ],
)
def test_the_checker_finds_a_wrong_line(block):
    problems, _ = check_block(block, "en")
    assert problems, block


def test_the_checker_accepts_the_lessons_score_in_spanish():
    block = (
        "score(perro → come) = (+0,461)(+1,391) + (+0,779)(+0,663) + (+0,526)(−0,158) + (+0,807)(−0,15)\n"
        "                    ≈ (+0,6413) + (+0,5165) + (−0,0831) + (−0,1211)\n"
        "                    = +0,9536\n"
        "                    ≈ +0,954"
    )
    problems, checked = check_block(block, "es")
    assert problems == [] and checked == 6  # four products, the sum, the rounding


def test_the_checker_reads_wrapped_lines():
    block = "s = (+0.5)(+0.3)\n    + (+1.15)(+0.1)\n  = (+0.15) + (+0.115)\n  = +0.265"
    problems, checked = check_block(block, "en")
    assert problems == [] and checked == 3
