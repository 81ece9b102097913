"""Softmax: from any scores to shares that add up to 1, beside the naive division, with the arithmetic."""

import streamlit as st

from ui import questions, shell
from ui.layout import page_header
from ui.sections import softmax

shell.page("softmax")
page_header("softmax.title", "softmax.lead")
scores_col, recipe_col = st.columns([1, 2])
with scores_col:
    scores = softmax.scores_ui()
with recipe_col:
    softmax.recipe_ui()
    softmax.naive_ui(scores)
if questions.gate_ui("softmax", questions.softmax_row(scores), key="softmax"):
    softmax.results_ui(scores)
    softmax.code_ui()
softmax.odd_inputs_ui()
