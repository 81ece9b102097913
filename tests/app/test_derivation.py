"""Derivations as aligned text: the rows line up, names show literally, the lesson's arithmetic reads as printed."""

import math
from decimal import Decimal

import pytest

from engine import derivation, lesson_scenario
from ui.derivation import BLANK, Row, block, dot_rows, softmax_rows, sub, token_text, width

FSI, PDI = "\u2068", "\u2069"  # the Unicode directional isolate around every token name


@pytest.fixture
def english(session):
    """Numbers written in English (the derivations read the reader's language from the session)."""
    session["lang"] = "en"
    return session


def relation_columns(text: str) -> set[int]:
    """The display column of each line's first relation sign (" = " or " ≈ ")."""
    columns = set()
    for line in filter(None, text.splitlines()):
        signs = [i for i in (line.find(" = "), line.find(" ≈ ")) if i >= 0]
        if signs:
            columns.add(width(line[: min(signs)]))
    return columns


def test_the_relation_signs_stand_in_one_column_whatever_the_names():
    rows = [Row("x_el", "=", "[+1.000]"), BLANK, Row("score(perro🐶 → 食べる)", "=", "+0.954"), Row("", "=", "+0.1")]
    text = block(rows)
    assert text.splitlines()[1] == ""
    assert len(relation_columns(text)) == 1


def test_columns_are_counted_as_terminals_count_them():
    # Unicode's East Asian Width: CJK and emoji are wide (2); combining marks, zero-width joiners, emoji
    # modifiers and Hangul vowel/final jamo add nothing to the cluster they belong to.
    assert width("perro") == 5 and width("食べる") == 6 and width("🐶") == 2
    assert width("a\u0301") == 1  # a + combining acute
    assert width("👍🏽") == 2  # thumbs up + skin tone
    assert width("👨\u200d👩\u200d👧") == 2  # one family emoji, three people joined
    assert width("\u2764\ufe0f") == 2  # a narrow heart, drawn as a wide emoji
    assert width("\u1100\u1161\u11a8") == 2  # 각 written as three jamo


def test_a_control_character_in_a_name_cannot_break_a_line():
    name = token_text("pe\nrro\t<b>")
    assert name == "pe\ufffdrro\ufffd<b>"  # markup stays as typed: st.code renders nothing
    assert block([Row(sub("Q", "pe\nrro"), "=", "[+0.461]")]).count("\n") == 0


def test_a_right_to_left_name_cannot_reorder_the_numbers_after_it():
    # Isolated, a Hebrew name reads right to left inside its isolate and leaves the rest of the line alone; an
    # override character (U+202E would reverse everything after it) is replaced.
    assert token_text("שלום") == f"{FSI}שלום{PDI}"
    assert token_text("a\u202eb\u2066c") == "a\ufffdb\ufffdc"
    assert token_text("مرحبا") == f"{FSI}مرحبا{PDI}"
    line = block([Row(sub("Q", "שלום"), "=", "[+0.461]")])
    assert line == f"Q_{FSI}שלום{PDI} = [+0.461]"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "Q_perro[0] = (+0.5)(+0.3) + (+1.15)(+0.1) + (+0.78)(−0.2) + (+0.88)(+0.4)",
                "           = (+0.15) + (+0.115) + (−0.156) + (+0.352)",
                "           = +0.461",
            ],
        ),
        (
            "es",
            [
                "Q_perro[0] = (+0,5)(+0,3) + (+1,15)(+0,1) + (+0,78)(−0,2) + (+0,88)(+0,4)",
                "           = (+0,15) + (+0,115) + (−0,156) + (+0,352)",
                "           = +0,461",
            ],
        ),
    ],
)
def test_q_perro_0_reads_as_the_lesson_writes_it(session, lang, expected):
    # The lesson: Q_perro[0] = (0.50)(0.3) + (1.15)(0.1) + (0.78)(-0.2) + (0.88)(0.4)
    #                        = 0.150 + 0.115 + -0.156 + 0.352 = +0.461
    # Every product of the written operands is exact, so the products line says "=", not "≈".
    session["lang"] = lang
    scenario = lesson_scenario()
    terms = derivation.projection(scenario.x[1], scenario.w_q)[0]
    assert block(dot_rows(sub("Q", "perro") + "[0]", terms)).splitlines() == expected


def test_softmax_of_huge_scores_is_worked_out_on_the_shifted_scores(english):
    text = block(softmax_rows(derivation.softmax_row([1000.0, 1001.0]), ["a", "b"]))
    lines = [" ".join(line.split()) for line in text.splitlines()]  # alignment aside
    # e^1000 overflows; shifted by the maximum the scores are −1 and 0
    assert "+1,000 − (+1,001) = −1" in lines and "+1,001 − (+1,001) = +0" in lines
    assert round(math.exp(-1), 4) == 0.3679
    assert "e^(−1) ≈ 0.3679 ← a" in lines and "e^(+0) = 1 ← b" in lines
    assert "Σ = 0.3679 + 1 = 1.3679" in lines
    # 0.3679 / 1.3679 = 0.26895 and 1 / 1.3679 = 0.73105
    assert "0.3679 / 1.3679 ≈ 0.269 ← a" in lines and "1 / 1.3679 ≈ 0.731 ← b" in lines
    assert "Σ = 0.269 + 0.731 = 1.000" in lines
    assert "inf" not in text and "∞" not in text


def test_the_arrows_to_the_tokens_stand_in_one_column(english):
    # e^2 = 7.3891 and e^5 = 148.4132: values of different widths
    text = block(softmax_rows(derivation.softmax_row([2.0, 5.0, 1.0]), ["#1", "#2", "#3"]))
    exp_lines = [line for line in text.splitlines() if line.startswith("e^(")]
    assert len(exp_lines) == 3
    assert len({width(line[: line.index("←")]) for line in exp_lines}) == 1
    assert len(relation_columns(text)) == 1


# The boundary of derivation.EXP_RANGE (−2 to 20), where a softmax derivation starts writing the scores less their
# maximum (issue 26, item 9: a mutant of either end survived). T = 2 halves the scores first: 40.002 / 2 = 20.001.
@pytest.mark.parametrize(
    ("scores", "temperature", "shift"),
    [
        ((20.0, 1.0), 1.0, None),
        ((20.001, 1.0), 1.0, "20.001"),
        ((-2.0, -3.0), 1.0, None),
        ((-2.001, -3.0), 1.0, "-2.001"),
        ((40.0, 1.0), 2.0, None),
        ((40.002, 1.0), 2.0, "20.001"),
    ],
)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_max_shift_is_written_exactly_beyond_the_ends_of_exp_range(session, lang, scores, temperature, shift):
    session["lang"] = lang
    worked = derivation.softmax_row(list(scores), temperature)
    assert worked.shift == (None if shift is None else Decimal(shift))
    text = block(softmax_rows(worked, ["a", "b"]))
    shifted = [line for line in text.splitlines() if " − (" in line]
    assert len(shifted) == (0 if shift is None else 2), text
    if shift is not None:  # the shift as the reader writes numbers: 20,001 in Spanish, 20.001 in English
        written = shift.lstrip("-").replace(".", "," if lang == "es" else ".")
        assert all(f"({'−' if shift.startswith('-') else '+'}{written})" in line for line in shifted), shifted
