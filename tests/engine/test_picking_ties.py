"""A "which token" question's wrong options never rest on a tie: on equal weights, which row or token "wins" is
rounding, and differed between two machines (the golden draws of multihead.most_attended passed on one and failed
on another, from the lesson's designed head whose column for «come» is 0.05, 0.05, 0.05)."""

from __future__ import annotations

import numpy as np

from engine import questions as q
from engine.questions.picking import transposed
from tests.engine.question_contexts import lesson_multihead_view


def test_the_transposed_option_is_the_columns_clear_winner_or_none():
    weights = np.array([[0.9, 0.05, 0.05], [0.9, 0.05, 0.05], [0.05, 0.9, 0.05]])
    assert transposed(weights, 0) == []  # 0.9 and 0.9: no one row puts the most into «el»
    assert transposed(weights, 1) == [(2, "transposed")]
    assert transposed(weights, 2) == []  # three times 0.05


def test_the_lessons_multihead_question_names_no_mistake_from_a_tie():
    view = lesson_multihead_view()
    head = view.result.heads[0]
    assert np.allclose(head.weights[:, 2], 0.05)  # the column of «come» in head 1: a three-way tie
    assert np.allclose(view.result.heads[1].weights[0], 1 / 3)  # head 2's row of «el»: a three-way tie
    for seed in range(3):
        question = q.generate("multihead.most_attended", view, seed)
        i = int(question.params["position"])
        for option, mistake in zip(question.options, question.option_misconceptions, strict=True):
            if mistake == "transposed":
                column = view.result.heads[int(question.params["head"]) - 1].weights[:, i]
                assert np.sort(column)[-1] - np.sort(column)[-2] > 0.001, (seed, option)
            if mistake == "heads_alike":
                others = [h for k, h in enumerate(view.result.heads) if k != int(question.params["head"]) - 1]
                rows = [np.sort(h.weights[i]) for h in others]
                assert any(row[-1] - row[-2] > 0.001 for row in rows), (seed, option)
