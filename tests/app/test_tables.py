"""Tables as markdown (ui.tables): whatever a cell holds, a row keeps its columns and the cell shows as typed."""

from __future__ import annotations

import dataclasses
import re

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scenario import lesson_scenario
from tests.app.helpers import shown, table_row_cells
from ui import questions
from ui.tables import markdown_table

# GitHub-flavoured markdown ends a cell at a pipe that no backslash escapes ("\|" is a pipe in the cell; "\\|"
# is a backslash, then the cell's end)
CELL_END = re.compile(r"(?<!\\)(?:\\\\)*\|")

HOSTILE = ["a|b", "|", "a\\", "\\|", "__x__", "<b>x</b>", "line\nbreak", "$x$", "[a](javascript:alert(1))", "", " "]


def cells_per_row(table: str) -> list[int]:
    return [len(CELL_END.findall(line)) - 1 for line in table.split("\n")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(), st.text()), min_size=1, max_size=4))
def test_any_text_keeps_a_row_to_its_columns(columns):
    """Any names (the same twice, or the same once escaped: "a\nb" and "a b") and any cells."""
    frame = pd.DataFrame([[cell for _, cell in columns]], columns=[name for name, _ in columns])
    assert cells_per_row(markdown_table(frame)) == [len(columns)] * 3  # header, rule, the row


def test_hostile_cells_and_names_keep_their_columns_and_show_as_typed():
    table = markdown_table(pd.DataFrame([HOSTILE], columns=HOSTILE))
    assert cells_per_row(table) == [len(HOSTILE)] * 3
    # between the borders, each cell as written: unescaped, it is the text typed (a line break as a space)
    cells = table_row_cells(table.split("\n")[2])
    assert [shown(cell) for cell in cells] == [text.replace("\n", " ").strip() for text in HOSTILE]


def test_numbers_are_written_in_the_readers_language_and_right_aligned():
    frame = pd.DataFrame({"token": ["el", "perro"], "peso": [0.3321, float("nan")], "n": [2000, 3]})
    lines = markdown_table(frame, 3).split("\n")
    assert lines[1] == "| :-- | --: | --: |"  # text to the left, numbers to the right
    assert lines[2] == "| el | 0,332 | 2000 |"  # Spanish, the session's default: four digits, no point (RAE)
    assert lines[3] == "| perro | — | 3 |"  # a missing number is a dash
    every = markdown_table(frame[["token"]], right_aligned=True).split("\n")
    assert every[1] == "| --: |"  # numbers already written as text: right-aligned on request


def test_columns_that_share_a_name_stay_two_and_a_frame_without_columns_is_no_table():
    table = markdown_table(pd.DataFrame([[1.5, "b"]], columns=["x", "x"]), 1).split("\n")
    assert table == ["| x | x |", "| --: | :-- |", "| 1,5 | b |"]
    assert markdown_table(pd.DataFrame(index=[0, 1])) == ""


def test_a_token_named_like_the_given_numbers_first_column_keeps_the_questions_table():
    """A question's given numbers: rows and columns named by the tokens, the first column headed "token"."""
    scenario = dataclasses.replace(lesson_scenario(), tokens=("token", "perro", "come"))
    table = markdown_table(questions._given_frame("scores", scenario, scenario.run())).split("\n")
    assert table[0] == "| token | token | perro | come |"
    assert [line.split(" | ")[0] for line in table[2:]] == ["| token", "| perro", "| come"]
