"""Training W_Q and W_K toward a target pattern: the loss, its hand-written gradient, the optimisers, the presets.

Gradients are checked against central finite differences of the loss; the loss itself against a loop-based
cross-entropy on the loop reference's weights; Adam against a loop-based Adam written here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine import (
    EngineInputError,
    Optimiser,
    attention,
    lesson_scenario,
    normalise_target,
    preset_available,
    role_asymmetry,
    sentence_vectors,
    stall_experiment,
    start_training,
    target_preset,
    train,
    train_steps,
    weight_gradient,
)
from engine.attention import allowed_positions
from engine.limits import MAX_TRAINING_STEPS
from engine.presets import random_inputs, random_weights
from engine.targets import TARGET_PRESETS, looks_at_target, previous_target, subject_index, subject_target
from engine.training import (
    DEFAULT_TOLERANCE,
    asymmetry,
    loss_and_gradients,
    one_way_alignment,
    softmax_backward,
    training_objective,
)

FD = settings(max_examples=40, deadline=None, database=None)
H = 1e-6  # central-difference step
SENTENCE = "el perro come carne porque tiene hambre"


def floats(lo: float, hi: float):
    return st.floats(min_value=lo, max_value=hi, allow_nan=False, allow_infinity=False)


def matrix(rows: int, cols: int, bound: float = 1.0):
    return hnp.arrays(np.float64, (rows, cols), elements=floats(-bound, bound))


@st.composite
def problems(draw, output_term: bool | None = None):
    """Random shapes, weights, a mask (none, causal or any boolean), a scale, a temperature and a target."""
    n = draw(st.integers(1, 5))
    d_model, d_k, d_v = (draw(st.integers(1, 4)) for _ in range(3))
    x = draw(matrix(n, d_model, 1.5))
    w_q, w_k, w_v = draw(matrix(d_model, d_k)), draw(matrix(d_model, d_k)), draw(matrix(d_model, d_v))
    mask = draw(st.sampled_from([None, "causal", "random"]))
    if mask == "random":
        mask = draw(hnp.arrays(bool, (n, n)))
    allowed = allowed_positions(n, mask)
    raw = draw(hnp.arrays(np.float64, (n, n), elements=floats(0.05, 1.0)))
    target = normalise_target(np.where(allowed, raw, 0.0), mask).target
    with_output = draw(st.booleans()) if output_term is None else output_term
    options = dict(
        scale=draw(st.sampled_from(["none", "sqrt", "dk"])),
        mask=mask,
        temperature=draw(floats(0.3, 3.0)),
        attention_weight=draw(st.sampled_from([0.0, 0.5, 1.0])) if with_output else 1.0,
        output_weight=draw(floats(0.1, 2.0)) if with_output else 0.0,
        target_output=draw(matrix(n, d_v)) if with_output else None,
    )
    return x, target, (w_q, w_k, w_v), options


def central_differences(f, w: np.ndarray) -> np.ndarray:
    """∂f/∂w entry by entry: (f(w + h) − f(w − h)) / 2h."""
    grad = np.zeros_like(w)
    for index in np.ndindex(w.shape):
        up, down = w.copy(), w.copy()
        up[index] += H
        down[index] -= H
        grad[index] = (f(up) - f(down)) / (2 * H)
    return grad


def relative_error(analytic: np.ndarray, numeric: np.ndarray) -> float:
    # Floor of 1e-3 on the scale: a gradient near 0 is compared by its absolute error (below 1e-9).
    return float(np.linalg.norm(analytic - numeric) / max(np.linalg.norm(analytic), np.linalg.norm(numeric), 1e-3))


# --- the forward pass and the loss ------------------------------------------------------------------


@FD
@given(problems())
def test_forward_is_attention_and_log_weights_are_the_log_of_the_weights(problem):
    x, target, (w_q, w_k, w_v), options = problem
    objective = training_objective(x, target, **options)
    got = loss_and_gradients(objective, w_q, w_k, w_v)
    expected = attention(
        x, w_q, w_k, w_v, scale=options["scale"], mask=options["mask"], temperature=options["temperature"]
    )
    np.testing.assert_allclose(got.attention.weights, expected.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.attention.output, expected.output, rtol=0, atol=1e-12)
    allowed = expected.allowed
    assert np.isfinite(got.log_weights[allowed]).all()
    assert np.isneginf(got.log_weights[~allowed]).all()
    np.testing.assert_allclose(np.exp(got.log_weights), expected.weights, rtol=1e-12, atol=1e-300)


@FD
@given(problems(output_term=False), st.booleans())
def test_cross_entropy_matches_a_loop_over_the_reference_weights(problem, causal):
    x, target, (w_q, w_k, w_v), options = problem
    n = x.shape[0]
    mask = "causal" if causal else None
    target = normalise_target(np.where(np.tril(np.ones((n, n))) if causal else 1.0, target + 0.1, 0.0)).target
    options = {**options, "mask": mask}
    got = loss_and_gradients(training_objective(x, target, **options), w_q, w_k, w_v)
    divisor = {"none": 1.0, "sqrt": math.sqrt(w_q.shape[1]), "dk": float(w_q.shape[1])}[options["scale"]]
    ref = reference.attention(
        x.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist(), divisor * options["temperature"], causal
    )
    total = 0.0
    for i in range(n):
        for j in range(n):
            if target[i][j] > 0:
                total -= target[i][j] * math.log(ref["weights"][i][j])
    assert got.cross_entropy == pytest.approx(total / n, rel=1e-9, abs=1e-12)
    assert got.loss == pytest.approx(got.cross_entropy, rel=1e-15)


def test_cross_entropy_is_a_mean_over_the_rows_that_may_look_at_something():
    s = lesson_scenario()
    mask = np.array([[True, True, True], [True, True, True], [False, False, False]])  # «come» may look at nothing
    target = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 0]])
    got = loss_and_gradients(training_objective(s.x, target, mask=mask, scale="none"), s.w_q, s.w_k, s.w_v)
    ref = reference.attention(s.x.tolist(), s.w_q.tolist(), s.w_k.tolist(), s.w_v.tolist())  # rows 0, 1 unmasked
    expected = -(math.log(ref["weights"][0][0]) + math.log(ref["weights"][1][1])) / 2
    assert got.cross_entropy == pytest.approx(expected, rel=1e-12)
    assert not got.attention.weights[2].any() and not got.grad_scores[2].any()


def test_loss_stays_finite_where_weights_underflow_to_zero():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    w_q = np.array([[60.0, 0.0], [0.0, 60.0]])
    w_k = np.array([[60.0, 0.0], [0.0, 60.0]])
    w_v = np.eye(2)
    # Scores of 3600 and more: off-diagonal weights underflow to exactly 0.
    assert (attention(x, w_q, w_k, w_v, scale="none").weights == 0).any()
    identity = np.eye(3)
    with np.errstate(divide="raise", invalid="raise"):
        at_zero_target = loss_and_gradients(training_objective(x, identity, scale="none"), w_q, w_k, w_v)
    assert np.isfinite(at_zero_target.loss) and np.isfinite(at_zero_target.grad_w_q).all()
    # The target now wants an underflowed weight: the loss is large, finite, and read from the scores.
    wants_zero = previous_target(3)
    with np.errstate(divide="raise", invalid="raise"):
        far = loss_and_gradients(training_objective(x, wants_zero, scale="none"), w_q, w_k, w_v)
    assert at_zero_target.attention.weights[1, 0] == 0.0
    assert math.isfinite(far.loss) and far.loss > 100
    assert np.isfinite(far.grad_w_q).all() and np.linalg.norm(far.grad_w_q) > 0


def test_floor_is_the_mean_entropy_of_the_target_rows():
    x = lesson_scenario().x
    uniform = np.full((3, 3), 1 / 3)
    assert training_objective(x, uniform).floor == pytest.approx(math.log(3), rel=1e-12)
    assert training_objective(x, np.eye(3)).floor == 0.0
    causal_uniform = normalise_target(np.tril(np.ones((3, 3))), "causal").target
    expected = (0 + math.log(2) + math.log(3)) / 3
    assert training_objective(x, causal_uniform, mask="causal").floor == pytest.approx(expected, rel=1e-12)


# --- gradients against central differences ----------------------------------------------------------


@FD
@given(problems())
def test_gradients_match_central_differences(problem):
    x, target, (w_q, w_k, w_v), options = problem
    objective = training_objective(x, target, **options)
    got = loss_and_gradients(objective, w_q, w_k, w_v)

    def loss(q, k, v):
        return loss_and_gradients(objective, q, k, v).loss

    numeric_q = central_differences(lambda w: loss(w, w_k, w_v), w_q)
    numeric_k = central_differences(lambda w: loss(w_q, w, w_v), w_k)
    numeric_v = central_differences(lambda w: loss(w_q, w_k, w), w_v)
    assert relative_error(got.grad_w_q, numeric_q) < 1e-6
    assert relative_error(got.grad_w_k, numeric_k) < 1e-6
    assert relative_error(got.grad_w_v, numeric_v) < 1e-6
    if options["output_weight"] == 0:
        assert not got.grad_w_v.any()


@FD
@given(problems(output_term=False), st.data())
def test_gradient_of_one_weight_matches_central_differences(problem, data):
    x, _, (w_q, w_k, _), options = problem
    n = x.shape[0]
    row, col = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    kw = dict(scale=options["scale"], mask=options["mask"], temperature=options["temperature"])
    got = weight_gradient(x, w_q, w_k, row, col, **kw)

    def weight(q, k):
        return attention(x, q, k, np.zeros((x.shape[1], 1)), **kw).weights[row, col]

    assert got.weight == weight(w_q, w_k)
    assert relative_error(got.grad_w_q, central_differences(lambda w: weight(w, w_k), w_q)) < 1e-6
    assert relative_error(got.grad_w_k, central_differences(lambda w: weight(w_q, w), w_k)) < 1e-6
    assert not np.delete(got.grad_scores, row, axis=0).any()  # only row i's scores move A_ij
    if not got.attention.allowed[row, col]:
        assert got.weight == 0 and not got.grad_w_q.any() and not got.grad_w_k.any()


@FD
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(matrix(2, n, 5.0), matrix(2, n, 1.0))), floats(0.2, 4.0))
def test_softmax_backward_matches_central_differences(case, temperature):
    z, upstream = case  # two rows of scores, and a made-up ∂L/∂A

    def f(scores):
        e = np.exp((scores - scores.max(axis=1, keepdims=True)) / temperature)
        return float(np.sum(upstream * e / e.sum(axis=1, keepdims=True)))

    e = np.exp((z - z.max(axis=1, keepdims=True)) / temperature)
    got = softmax_backward(e / e.sum(axis=1, keepdims=True), upstream, temperature)
    assert relative_error(got, central_differences(f, z)) < 1e-6


def test_weight_gradient_refuses_a_cell_outside_the_matrix():
    s = lesson_scenario()
    with pytest.raises(EngineInputError) as info:
        weight_gradient(s.x, s.w_q, s.w_k, 3, 0)
    assert info.value.code == "bad_token_index"


# --- target presets and edited targets --------------------------------------------------------------


def test_presets_for_the_lesson_tokens_by_hand():
    tokens = lesson_scenario().tokens  # el perro come
    np.testing.assert_array_equal(target_preset("previous", tokens), [[1, 0, 0], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_array_equal(target_preset("subject", tokens), [[0, 1, 0], [0, 1, 0], [0, 1, 0]])
    np.testing.assert_array_equal(target_preset("identity", tokens), np.eye(3))
    assert not preset_available("tiene_perro", tokens)
    with pytest.raises(EngineInputError) as info:
        target_preset("tiene_perro", tokens)
    assert info.value.code == "preset_needs_tokens"


def test_tiene_perro_preset_on_the_sentence():
    tokens = sentence_vectors(SENTENCE, 8).tokens
    target = target_preset("tiene_perro", tokens)
    expected = np.eye(7)
    expected[5] = [0, 1, 0, 0, 0, 0, 0]  # «tiene» (5) looks at «perro» (1); the others at themselves
    np.testing.assert_array_equal(target, expected)
    assert tokens[5] == "tiene" and tokens[1] == "perro"


def test_subject_is_the_first_token_that_is_not_an_article():
    assert subject_index(("el", "perro", "come")) == 1
    assert subject_index(("perro", "come")) == 0
    assert subject_index(("the", "dog", "eats")) == 1
    assert subject_index(("la", "el")) == 0
    np.testing.assert_array_equal(target_preset("subject", ("a", "b", "c"), subject=2)[:, 2], [1, 1, 1])
    with pytest.raises(EngineInputError):
        subject_target(3, 3)


def test_presets_under_a_causal_mask_keep_their_mass_where_tokens_may_look():
    tokens = sentence_vectors(SENTENCE, 8).tokens
    subject = target_preset("subject", tokens, mask="causal")
    np.testing.assert_array_equal(subject[0], [1, 0, 0, 0, 0, 0, 0])  # «el» cannot see «perro»: looks at itself
    np.testing.assert_array_equal(subject[3], [0, 1, 0, 0, 0, 0, 0])
    # A mask that hides the chosen token and the token itself: the mass spreads over what is left.
    mask = np.ones((3, 3), bool)
    mask[2, 1] = mask[2, 2] = False
    np.testing.assert_allclose(looks_at_target(3, 2, 1, mask)[2], [1, 0, 0])
    dead = np.ones((2, 2), bool)
    dead[1] = False
    np.testing.assert_array_equal(target_preset("identity", ("a", "b"), mask=dead), [[1, 0], [0, 0]])


@settings(max_examples=40, deadline=None, database=None)
@given(st.integers(1, 16), st.sampled_from(["previous", "subject", "identity"]), st.booleans())
def test_every_preset_row_sums_to_one_and_avoids_masked_cells(n, name, causal):
    tokens = tuple(f"t{i}" for i in range(n))
    target = target_preset(name, tokens, mask="causal" if causal else None)
    np.testing.assert_allclose(target.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    if causal:
        assert not np.triu(target, 1).any()
    assert normalise_target(target, "causal" if causal else None).renormalised_rows == ()


def test_normalise_target_scales_rows_and_says_which():
    typed = [[0.33, 0.33, 0.33], [1.0, 0.0, 0.0], [2.0, 2.0, 0.0]]
    got = normalise_target(typed)
    np.testing.assert_allclose(got.target, [[1 / 3, 1 / 3, 1 / 3], [1, 0, 0], [0.5, 0.5, 0]], rtol=1e-15)
    np.testing.assert_allclose(got.row_sums, [0.99, 1.0, 4.0])
    assert got.renormalised_rows == (0, 2)


@pytest.mark.parametrize(
    ("typed", "mask", "code"),
    [
        ([[1.0, -0.1], [0.0, 1.0]], None, "target_negative"),
        ([[1.0, 0.0], [0.0, 0.0]], None, "target_row_zero"),
        ([[0.5, 0.5], [0.0, 1.0]], "causal", "target_on_masked"),
        ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], None, "target_not_square"),
        ([[1.0, float("nan")], [0.0, 1.0]], None, "not_finite"),
    ],
)
def test_normalise_target_refuses_what_cannot_be_a_target(typed, mask, code):
    with pytest.raises(EngineInputError) as info:
        normalise_target(typed, mask)
    assert info.value.code == code


def test_training_refuses_targets_that_are_not_normalised_or_do_not_fit():
    x = lesson_scenario().x
    for target, mask, code in (
        ([[0.5, 0.4, 0.0], [1, 0, 0], [0, 1, 0]], None, "target_not_normalised"),
        (np.eye(3), None, None),
        (np.full((3, 3), 1 / 3), "causal", "target_on_masked"),
        (np.eye(2), None, "shape_mismatch"),
    ):
        if code is None:
            training_objective(x, target, mask=mask)
            continue
        with pytest.raises(EngineInputError) as info:
            training_objective(x, target, mask=mask)
        assert info.value.code == code


# --- training reaches each preset -------------------------------------------------------------------


def lesson_case():
    s = lesson_scenario()
    return s.x, s.tokens, (s.w_q, s.w_k, s.w_v)


def sentence_case():
    v = sentence_vectors(SENTENCE, 8)
    return v.x, v.tokens, random_weights(8, 8, 0)


PRESET_CASES = [
    (case, name)
    for case in (lesson_case, sentence_case)
    for name in TARGET_PRESETS
    if preset_available(name, case()[1])
]


@pytest.mark.parametrize(
    ("optimiser", "learning_rate", "steps"), [(Optimiser.ADAM, 0.05, 100), (Optimiser.GD, 0.5, 200)], ids=str
)
@pytest.mark.parametrize(("case", "name"), PRESET_CASES, ids=lambda p: getattr(p, "__name__", p))
def test_training_reaches_each_preset(case, name, optimiser, learning_rate, steps):
    """Stated: from the lesson's weights (lesson) or seed 0 (sentence, d_k = 8), ÷√d_k, loss < 0.05 in time."""
    x, tokens, start = case()
    target = target_preset(name, tokens)
    run = train(x, target, steps, start=start, optimiser=optimiser, learning_rate=learning_rate)
    assert run.losses[0] > 0.5
    assert run.converged and run.losses[-1] < DEFAULT_TOLERANCE
    assert run.converged_at is not None and run.losses[run.converged_at] <= DEFAULT_TOLERANCE
    assert run.converged_at == 0 or run.losses[run.converged_at - 1] > DEFAULT_TOLERANCE
    np.testing.assert_array_equal(run.attention.weights.argmax(axis=1), target.argmax(axis=1))
    assert (run.attention.weights[target == 1] > 0.9).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", ["previous", "subject", "tiene_perro", "identity"])
def test_adam_reaches_each_preset_on_the_sentence_from_other_seeds(name, seed):
    v = sentence_vectors(SENTENCE, 8)
    run = train(v.x, target_preset(name, v.tokens), 100, seed=seed, d_k=8)
    assert run.converged


def test_weights_rows_sum_to_one_at_every_step_and_masked_cells_stay_zero():
    v = sentence_vectors(SENTENCE, 8)
    target = target_preset("subject", v.tokens, mask="causal")
    run = train(v.x, target, 150, mask="causal", seed=4, optimiser="gd", learning_rate=1.0)
    assert run.weights.shape == (151, 7, 7)
    np.testing.assert_allclose(run.weights.sum(axis=2), 1.0, rtol=0, atol=1e-12)
    assert not np.triu(run.weights, 1).any()
    assert run.converged


@pytest.mark.parametrize(("optimiser", "learning_rate"), [("gd", 0.2), ("adam", 0.02)])
def test_gradient_descent_and_adam_both_lower_the_loss(optimiser, learning_rate):
    x, tokens, start = lesson_case()
    run = train(x, target_preset("previous", tokens), 60, start=start, optimiser=optimiser, learning_rate=learning_rate)
    assert run.losses[-1] < 0.5 * run.losses[0]
    if optimiser == "gd":  # small steps on a smooth loss: down at every step
        assert (np.diff(run.losses) < 0).all()


def test_a_gradient_descent_step_is_w_minus_rate_times_gradient():
    x, tokens, start = lesson_case()
    run = start_training(x, target_preset("subject", tokens), start=start, optimiser="gd", learning_rate=0.3)
    stepped = train_steps(run, 1)
    np.testing.assert_array_equal(stepped.w_q, start[0] - 0.3 * run.gradients.grad_w_q)
    np.testing.assert_array_equal(stepped.w_k, start[1] - 0.3 * run.gradients.grad_w_k)
    np.testing.assert_array_equal(stepped.w_v, start[2])  # no output term: W_V is not learned
    assert stepped.losses[0] == run.losses[0] and stepped.steps == 1


def test_adam_matches_a_loop_written_from_its_definition():
    x, tokens, start = lesson_case()
    target = target_preset("previous", tokens)
    lr, steps = 0.05, 5
    run = train(x, target, steps, start=start, optimiser="adam", learning_rate=lr)
    objective = training_objective(x, target)
    w = [np.array(start[0]), np.array(start[1])]
    m = [np.zeros_like(w[0]), np.zeros_like(w[1])]
    v = [np.zeros_like(w[0]), np.zeros_like(w[1])]
    for t in range(1, steps + 1):
        g = loss_and_gradients(objective, w[0], w[1], start[2])
        grads = [g.grad_w_q, g.grad_w_k]
        for p in range(2):
            for index in np.ndindex(w[p].shape):
                m[p][index] = 0.9 * m[p][index] + 0.1 * grads[p][index]
                v[p][index] = 0.999 * v[p][index] + 0.001 * grads[p][index] ** 2
                m_hat = m[p][index] / (1 - 0.9**t)
                v_hat = v[p][index] / (1 - 0.999**t)
                w[p][index] -= lr * m_hat / (math.sqrt(v_hat) + 1e-8)
    np.testing.assert_allclose(run.w_q, w[0], rtol=0, atol=1e-13)
    np.testing.assert_allclose(run.w_k, w[1], rtol=0, atol=1e-13)
    # First step: m̂ = g and v̂ = g², so each entry moves by lr in the direction against its gradient.
    first = train(x, target, 1, start=start, optimiser="adam", learning_rate=lr)
    g0 = loss_and_gradients(objective, *start).grad_w_q
    np.testing.assert_allclose(first.w_q, start[0] - lr * np.sign(g0), rtol=0, atol=1e-7)


@pytest.mark.parametrize("optimiser", ["gd", "adam"])
def test_training_in_chunks_gives_the_same_run_as_one_call(optimiser):
    x, tokens, _ = sentence_case()
    options = dict(seed=3, optimiser=optimiser, learning_rate=0.1 if optimiser == "adam" else 0.5)
    target = target_preset("tiene_perro", tokens)
    whole = train(x, target, 60, **options)
    chunked = start_training(x, target, **options)
    for chunk in (25, 0, 1, 34):
        chunked = train_steps(chunked, chunk)
    assert chunked.steps == whole.steps == 60
    for name in ("w_q", "w_k", "w_v", "losses", "cross_entropies", "weights", "gradient_norms"):
        np.testing.assert_array_equal(getattr(chunked, name), getattr(whole, name), err_msg=name)
    moments = zip(
        chunked.first_moments + chunked.second_moments, whole.first_moments + whole.second_moments, strict=True
    )
    for a, b in moments:
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(whole.w_q_start, random_weights(8, 8, 3)[0])


def test_gradient_norms_are_those_of_the_recorded_weights():
    x, tokens, start = lesson_case()
    run = train(x, target_preset("previous", tokens), 5, start=start, learning_rate=0.1)
    again = loss_and_gradients(run.objective, run.w_q, run.w_k, run.w_v)
    np.testing.assert_allclose(
        run.gradient_norms[-1, :2], [np.linalg.norm(again.grad_w_q), np.linalg.norm(again.grad_w_k)]
    )
    np.testing.assert_array_equal(run.weights[-1], again.attention.weights)
    assert run.losses[-1] == again.loss


def test_the_output_term_trains_w_v_only_when_asked():
    x, tokens, start = lesson_case()
    target = target_preset("previous", tokens)
    wanted = target @ (x @ np.eye(4))  # each token's output: the previous token's x
    options = dict(start=start, target_output=wanted, output_weight=1.0, learning_rate=0.05)
    run = train(x, target, 200, **options)
    assert run.learns_w_v and not np.array_equal(run.w_v, start[2])
    assert run.output_errors[-1] < 0.05 * run.output_errors[0]
    frozen = train(x, target, 20, learn_w_v=False, **options)
    np.testing.assert_array_equal(frozen.w_v, start[2])
    assert (frozen.gradient_norms[:, 2] > 0).all()  # the gradient exists; it is just not applied
    with pytest.raises(EngineInputError) as info:
        start_training(x, target, output_weight=1.0)
    assert info.value.code == "missing_target_output"


def test_a_step_too_large_stops_the_run_as_diverged_and_keeps_what_came_before():
    x, tokens, _ = sentence_case()
    run = train(x, target_preset("previous", tokens), 200, scale="none", optimiser="gd", learning_rate=10.0)
    assert run.diverged and run.steps < 200
    assert np.isfinite(run.losses).all() and np.isfinite(run.weights).all()
    assert np.abs(run.w_q).max() <= 1e6
    again = train_steps(run, 10)
    assert again.diverged and again.steps == run.steps
    np.testing.assert_array_equal(again.w_q, run.w_q)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda x, t: start_training(x, t, learning_rate=0.0), "bad_learning_rate"),
        (lambda x, t: start_training(x, t, learning_rate=11.0), "bad_learning_rate"),
        (lambda x, t: start_training(x, t, optimiser="sgd"), "bad_optimiser"),
        (lambda x, t: start_training(x, t, scale="half"), "bad_scale"),
        (lambda x, t: start_training(x, t, temperature=0.0), "bad_temperature"),
        (lambda x, t: start_training(x, t, tolerance=0.0), "bad_tolerance"),
        (lambda x, t: train(x, t, MAX_TRAINING_STEPS + 1), "bad_steps"),
        (lambda x, t: train_steps(train(x, t, MAX_TRAINING_STEPS - 2), 3), "bad_steps"),
        (lambda x, t: start_training(x, t, start=(np.eye(3), np.eye(4), np.eye(4))), "shape_mismatch"),
    ],
)
def test_bad_training_options_are_refused_with_a_code(call, code):
    x, tokens, _ = lesson_case()
    with pytest.raises(EngineInputError) as info:
        call(x, target_preset("identity", tokens))
    assert info.value.code == code


# --- what the runs teach ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_without_dividing_at_a_large_d_k_training_stalls(seed):
    e = stall_experiment(seed=seed)  # d_k = 64, 8 tokens, 100 steps of gradient descent at 0.1
    unscaled, scaled = e.unscaled, e.scaled
    assert not (unscaled.diverged or scaled.diverged)
    # ÷√d_k reaches the target output; without dividing the loss stays high.
    assert scaled.losses[-1] < 0.01 and scaled.converged_at is not None and scaled.converged_at < 60
    assert unscaled.losses[-1] > 0.5 and unscaled.losses[10:].min() > 0.5
    # Without dividing, rows are saturated from the first step on, and the gradient all but vanishes.
    assert (e.peak_weight[0, 1:] > 0.99).mean() > 0.9 and e.peak_weight[1, 0] < 0.6
    unscaled_gradient = unscaled.gradient_norms[1:, :2].sum(axis=1)
    scaled_gradient_while_high = scaled.gradient_norms[scaled.losses > 0.5, :2].sum(axis=1)
    assert np.median(unscaled_gradient) < 0.02
    assert scaled_gradient_while_high.min() > 0.5
    np.testing.assert_array_equal(unscaled.w_v, unscaled.w_v_start)  # the values are held fixed


def test_the_cross_entropy_on_the_weights_does_not_stall_without_dividing():
    """Why the stall experiment measures its loss at the output: the log of the cross-entropy undoes the exp."""
    for seed in (0, 1, 2):
        x, start, target = random_inputs(8, 64, seed + 1), random_weights(64, 64, seed), previous_target(8)
        options = dict(start=start, optimiser="gd", learning_rate=0.01)
        unscaled = train(x, target, 100, scale="none", **options)
        scaled = train(x, target, 100, scale="sqrt", **options)
        assert unscaled.converged and unscaled.converged_at < scaled.steps
        assert unscaled.losses[-1] < scaled.losses[-1]


def test_stall_experiment_refuses_sizes_out_of_range():
    for kwargs, code in ((dict(d_k=0), "bad_d_k"), (dict(d_k=10_000), "bad_d_k"), (dict(n=1), "bad_n")):
        with pytest.raises(EngineInputError) as info:
            stall_experiment(**kwargs)
        assert info.value.code == code


def test_asymmetry_by_hand():
    assert asymmetry(np.array([[1.0, 2.0], [2.0, 3.0]])) == 0.0
    assert asymmetry(np.array([[0.0, 1.0], [-1.0, 0.0]])) == 1.0
    # M = [[0, 1], [0, 0]]: symmetric part [[0, .5], [.5, 0]] and antisymmetric part of norm √0.5, ‖M‖ = 1.
    assert asymmetry(np.array([[0.0, 1.0], [0.0, 0.0]])) == pytest.approx(math.sqrt(0.5))
    assert asymmetry(np.zeros((2, 2))) == 0.0
    target = previous_target(3)
    allowed = np.ones((3, 3), bool)
    assert one_way_alignment(target * 5.0, target, allowed) == pytest.approx(1.0)
    assert one_way_alignment(np.ones((3, 3)), target, allowed) == 0.0
    assert one_way_alignment(np.ones((3, 3)), np.eye(3), allowed) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ["previous", "subject"])
@pytest.mark.parametrize("case", [lesson_case, sentence_case], ids=lambda c: c.__name__)
def test_training_makes_the_scores_one_way_where_the_target_is(case, name, seed):
    x, tokens, _ = case()
    run = train(x, target_preset(name, tokens), 150, seed=seed)
    a = role_asymmetry(run)
    i, j = a.pair
    assert run.objective.target[i, j] == 1 and run.objective.target[j, i] == 0
    assert a.weights_pair_end[0] > 0.95 and a.weights_pair_end[1] < 0.05
    assert a.scores_pair_end[0] - a.scores_pair_end[1] > 5.0
    assert a.alignment_end > 0.4 and a.alignment_end > a.alignment_start
    assert a.bilinear_end == asymmetry(run.w_q @ run.w_k.T)


def test_tied_weights_give_symmetric_scores_and_the_identity_has_no_one_way_pair():
    x, tokens, _ = lesson_case()
    w = random_weights(4, 4, 0)[0]
    tied = start_training(x, target_preset("previous", tokens), start=(w, w, w))
    assert role_asymmetry(tied).alignment_start == 0.0 and role_asymmetry(tied).bilinear_start == 0.0
    identity = role_asymmetry(train(x, target_preset("identity", tokens), 5))
    assert identity.alignment_start is None and identity.alignment_end is None
