"""The real-model page's questions, on tiny BERTs written in the real file formats (harness/tiny_model.py):
fair on the page's fresh start and on other weights, sentences, tokenizers, heads and cells (the laws of
tests/engine/test_questions.py), and their answers and named mistakes match plain-Python loops over the encoder's
attention (the encoder itself is checked against a loop reference in tests/engine/test_encoder.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_questions import asked, assert_fair

from engine import EngineInputError
from engine import questions as q
from engine.questions import Kind, Outcome, RealModelView, grade
from harness.tiny_model import SENTENCE, TINY_CONFIG
from tests.engine.question_contexts import lesson_real_model_view, real_model_view

FAST = settings(max_examples=20, deadline=None, database=None)
REAL = [t for t in q.TEMPLATES.values() if t.context is RealModelView]
LAYERS, HEADS = TINY_CONFIG["num_hidden_layers"], TINY_CONFIG["num_attention_heads"]
PICKS = [(layer, head) for layer in range(LAYERS) for head in range(HEADS)]
WORDS = ("el", "perro", "come", "carne", "porque", "tiene", "hambre", "la", "gato", ",", "?")  # in the WordPiece vocab
SP_WORDS = ("el", "perro", "come", "carne", "tiene", "hambre", ",")  # the SentencePiece tokenizer's words
SENTENCES = (SENTENCE, "el perro come, el perro tiene hambre", "la gato come carne porque la gato tiene hambre ?")


def row(view: RealModelView, i: int, head: int | None = None) -> list[float]:
    """Row i of a head's weights as plain floats (the picked head by default)."""
    return [float(w) for w in view.result.attentions[view.layer, view.head if head is None else head, i]]


def first_largest(values: list[float], among: list[int] | None = None) -> int:
    """The position of the largest value (the first one on a tie), by a loop."""
    best = None
    for j in among if among is not None else range(len(values)):
        if best is None or values[j] > values[best]:
            best = j
    assert best is not None
    return best


def loop_dot(a, b) -> float:
    total = 0.0
    for x, y in zip(a, b, strict=True):
        total += float(x) * float(y)
    return total


# --- registered, and fair ---------------------------------------------------------------------------------


def test_the_real_model_page_registers_its_templates_in_its_sections():
    assert {t.id: (t.section, t.kind) for t in REAL} == {
        "real_model.most_attended": ("real_model.head", Kind.CHOICE),
        "real_model.scaled_score": ("real_model.cell", Kind.NUMERIC),
    }
    assert {"real_model.head", "real_model.cell"} <= set(q.sections())


@pytest.mark.parametrize(("layer", "head"), PICKS)
@pytest.mark.parametrize("template", REAL, ids=lambda t: t.id)
def test_every_real_model_template_asks_on_every_head_of_the_pages_sentence(template, layer, head):
    view = real_model_view(layer=layer, head=head)
    for seed in range(8):
        question = template.generate(view, seed)
        assert_fair(question)
        assert (question.params["layer"], question.params["head"]) == (layer + 1, head + 1)


@pytest.mark.parametrize("tensor_seed", range(4))
@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_templates_are_fair_on_other_weights_and_sentences(tensor_seed, sentence):
    for layer, head in PICKS:
        view = real_model_view(sentence, layer, head, tensor_seed=tensor_seed)
        for template in REAL:
            for seed in range(3):
                question = asked(template, view, seed)
                assert question is not None, (template.id, tensor_seed, sentence, layer, head, seed)
                assert_fair(question)


@FAST
@given(
    tensor_seed=st.integers(0, 3),
    sentencepiece=st.booleans(),
    pick=st.sampled_from(PICKS),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_templates_are_fair_on_any_sentence_head_and_cell(tensor_seed, sentencepiece, pick, data, seed):
    # at most 2 pieces a word: 8 words and the 2 special tokens fit the tiny model's 24 positions
    sentence = " ".join(
        data.draw(st.lists(st.sampled_from(SP_WORDS if sentencepiece else WORDS), min_size=1, max_size=8))
    )
    view = real_model_view(sentence, *pick, tensor_seed=tensor_seed, sentencepiece=sentencepiece)
    n = len(view.pieces)
    cell = data.draw(st.none() | st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
    view = real_model_view(sentence, *pick, cell=cell, tensor_seed=tensor_seed, sentencepiece=sentencepiece)
    for template in REAL:
        question = asked(template, view, seed)
        if question is not None:
            assert_fair(question)


# --- answers and mistakes against loops ---------------------------------------------------------------------


@pytest.mark.parametrize("tensor_seed", range(3))
@pytest.mark.parametrize("sentencepiece", [False, True])
@pytest.mark.parametrize(("layer", "head"), PICKS)
def test_most_attended_is_the_largest_weight_of_the_pieces_row_and_names_each_slip(
    tensor_seed, sentencepiece, layer, head
):
    sentence = "el perro come carne porque tiene hambre" if not sentencepiece else "el perro come, tiene hambre"
    view = real_model_view(sentence, layer, head, tensor_seed=tensor_seed, sentencepiece=sentencepiece)
    assert view.special[0] and view.special[-1] and not any(view.special[1:-1])
    n = len(view.pieces)
    named = set()
    for seed in range(8):
        question = q.generate("real_model.most_attended", view, seed)
        i = question.params["position"]
        assert question.params["token"] == view.pieces[i] and question.params["tokens"] == view.pieces
        weights = row(view, i)
        best = first_largest(weights)
        assert question.options[question.correct_option] == best
        column = [float(view.result.attentions[layer, head, r, i]) for r in range(n)]
        for option, key in zip(question.options, question.option_misconceptions, strict=True):
            named.add(key)
            if key == "transposed":  # the piece that attends most to X: its column, not its row
                assert option == first_largest(column)
            elif key == "always_self":
                assert option == i
            elif key == "special_sink":  # the special piece the row gives most, while the most goes elsewhere
                assert not view.special[best] and view.special[option]
                assert option == first_largest(weights, [0, n - 1])
            elif key == "heads_alike":  # where X looks most in another head of the same layer
                others = [first_largest(row(view, i, other)) for other in range(HEADS) if other != head]
                assert option in others
    assert named & {"transposed", "always_self", "special_sink", "heads_alike"}


def test_a_repeated_piece_is_asked_about_by_position_and_every_option_is_a_position():
    view = real_model_view("el perro come, el perro tiene hambre", 1, 0)
    pieces = view.pieces
    assert pieces.count("el") == 2 and pieces.count("per") == 2
    asked_twice = set()
    for seed in range(40):
        question = q.generate("real_model.most_attended", view, seed)
        i = question.params["position"]
        if pieces.count(pieces[i]) > 1:
            asked_twice.add(i)
        # the right option is the position the row looks at, not the first piece spelled the same
        assert question.options[question.correct_option] == first_largest(row(view, i))
        assert len(set(question.options)) == len(question.options)
    assert len(asked_twice) >= 2  # both «el» or both «per» rows were asked, each by its own position


@pytest.mark.parametrize("tensor_seed", range(3))
@pytest.mark.parametrize(("layer", "head"), PICKS)
def test_the_scaled_score_is_q_dot_k_over_the_root_of_the_heads_width(tensor_seed, layer, head):
    view = real_model_view(layer=layer, head=head, tensor_seed=tensor_seed)
    attended = view.result.head(layer, head)
    d_k, d_model = TINY_CONFIG["hidden_size"] // HEADS, TINY_CONFIG["hidden_size"]
    for seed in range(6):
        question = q.generate("real_model.scaled_score", view, seed)
        i, j = question.params["position"], question.params["other_position"]
        assert (question.params["token"], question.params["other"]) == (view.pieces[i], view.pieces[j])
        score = loop_dot(attended.q[i], attended.k[j])
        assert question.params["score"] == pytest.approx(score, rel=1e-12, abs=1e-12)
        assert (question.params["d_k"], question.params["d_model"]) == (d_k, d_model)
        assert question.params["divisor"] == pytest.approx(math.sqrt(d_k))
        assert question.answer == pytest.approx(score / math.sqrt(d_k), rel=1e-12, abs=1e-12)
        expected = {
            "not_scaled": score,
            "divided_by_dk": score / d_k,
            "sqrt_d_model": score / math.sqrt(d_model),
            "divided_by_d_model": score / d_model,
            "multiplied": score * math.sqrt(d_k),
        }
        for key, value in question.misconceptions:
            assert value == pytest.approx(expected[key], rel=1e-12, abs=1e-12), key
        # the softmax of the row of scaled scores, by loops, is the head's row of weights: the answer is what it got
        scaled = [loop_dot(attended.q[i], attended.k[c]) / math.sqrt(d_k) for c in range(len(view.pieces))]
        total = sum(math.exp(s - max(scaled)) for s in scaled)
        assert math.exp(scaled[j] - max(scaled)) / total == pytest.approx(row(view, i)[j], abs=1e-12)


def test_with_a_cell_picked_the_score_question_is_about_that_cell_and_grades_typed_answers():
    view = lesson_real_model_view()
    n = len(view.pieces)
    for i, j in [(7, 2), (0, n - 1), (4, 4)]:
        picked = real_model_view(cell=(i, j))
        question = q.generate("real_model.scaled_score", picked, 0)
        assert (question.params["position"], question.params["other_position"]) == (i, j)
        assert grade(question, round(question.answer, 3)).right
        for key, value in question.misconceptions:
            typed = round(value, 3)
            assert (grade(question, typed).outcome, grade(question, typed).misconception) == (
                Outcome.MISCONCEPTION,
                key,
            )
        assert {key for key, _ in question.misconceptions} >= {"not_scaled", "divided_by_dk", "multiplied"}


def test_a_view_refuses_what_does_not_fit_the_result():
    view = lesson_real_model_view()
    n = len(view.pieces)
    bad = [
        dict(pieces=view.pieces[:-1]),
        dict(special=(*view.special, False)),
        dict(layer=LAYERS),
        dict(head=-1),
        dict(head=True),
        dict(cell=(0, n)),
        dict(cell=(0, 1, 2)),
    ]
    for change in bad:
        fields = dict(pieces=view.pieces, special=view.special, result=view.result, layer=0, head=0) | change
        with pytest.raises(EngineInputError) as caught:
            RealModelView(**fields)
        assert caught.value.code == "bad_question_input", change
