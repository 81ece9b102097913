"""One weight's derivation as text rows (`ui.derivation.cell_rows`), the rows every page's cell shows."""

from engine import Scale, attention, derivation, lesson_scenario
from tests.app.lesson import TOKENS
from ui.derivation import cell_rows

PERRO, COME = 1, 2


def lines(rows) -> list[str]:
    return [" ".join(f"{row.lhs} {row.relation} {row.rhs}".split()) for row in rows if row is not None]


def test_the_lessons_cell_is_written_score_division_softmax(monkeypatch):
    monkeypatch.setattr("ui.state.current_language", lambda: "en")
    rows = cell_rows(derivation.cell(lesson_scenario().run(), PERRO, COME), TOKENS)
    assert lines(rows.score)[0].startswith("score(perro → come) = (+0.")
    assert lines(rows.score)[-1] == "≈ +0.954"
    assert lines(rows.division) == ["score'(perro → come) = +0.954 ÷ 2 = +0.477"]
    assert "1.6112 / 4.8588 ≈ 0.332 ← come" in lines(rows.softmax)


def test_a_masked_cell_writes_its_score_only(monkeypatch):
    monkeypatch.setattr("ui.state.current_language", lambda: "en")
    scenario = lesson_scenario()
    result = attention(scenario.x, scenario.w_q, scenario.w_k, scenario.w_v, mask="causal")
    rows = cell_rows(derivation.cell(result, PERRO, COME), TOKENS)
    assert lines(rows.score)[0].startswith("score(perro → come) = ")
    assert rows.division == [] and rows.softmax == []


def test_the_softmax_names_only_the_tokens_the_mask_leaves(monkeypatch):
    monkeypatch.setattr("ui.state.current_language", lambda: "en")
    scenario = lesson_scenario()
    result = attention(scenario.x, scenario.w_q, scenario.w_k, scenario.w_v, mask="causal", scale=Scale.NONE)
    rows = cell_rows(derivation.cell(result, PERRO, 0, divided=False), TOKENS)
    named = [line.split("← ")[1] for line in lines(rows.softmax) if "← " in line]
    assert set(named) == {"el", "perro"}
    assert rows.division == []
