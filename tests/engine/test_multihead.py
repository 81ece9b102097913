"""Multi-head attention, W_O, the residual and layer norm; the designed heads and the measures a page shows."""

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
    attention,
    attention_cost,
    compare_head_counts,
    designed_heads,
    head_behaviour,
    head_counts,
    identity_like_w_o,
    mean_pairwise_cosine,
    merge_heads,
    multi_head_attention,
    pairwise_cosine,
    random_heads,
    random_w_o,
    sentence_vectors,
)
from engine.designed_heads import DESIGNED_D_MODEL, DESIGNED_SENTENCE, DESIGNED_TOP_WEIGHT
from engine.multihead import LAYER_NORM_EPS, layer_norm_steps, split_head_weights, split_heads
from engine.presets import random_weights

FAST = settings(max_examples=40, deadline=None, database=None)
TOL = {"rtol": 1e-12, "atol": 1e-12}


def matrix(n: int, d: int, bound: float = 1.0):
    return hnp.arrays(np.float64, (n, d), elements=st.floats(-bound, bound, allow_nan=False, allow_infinity=False))


# --- a loop-based reference: lists, for-loops and math only ---


def reference_head(x, wq, wk, wv, divisor, allowed, temperature):
    """One head by loops: softmax((Q·Kᵀ / divisor) / T) over allowed cells, then the weighted sum of V."""
    q, k, v = reference.matmul(x, wq), reference.matmul(x, wk), reference.matmul(x, wv)
    n = len(x)
    weights = []
    for i in range(n):
        row = [reference.dot(q[i], k[j]) / divisor / temperature if allowed[i][j] else -math.inf for j in range(n)]
        weights.append(reference.softmax(row))
    output = [[sum(weights[i][j] * v[j][c] for j in range(n)) for c in range(len(v[0]))] for i in range(n)]
    return weights, output


def reference_multi_head(x, heads, w_o, divisors, allowed, temperature):
    """Concat of the heads' outputs by loops, · W_O, + x, and LayerNorm of that, all as nested lists."""
    n = len(x)
    concat = [[] for _ in range(n)]
    all_weights = []
    for (wq, wk, wv), divisor in zip(heads, divisors, strict=True):
        weights, output = reference_head(x, wq, wk, wv, divisor, allowed, temperature)
        all_weights.append(weights)
        for i in range(n):
            concat[i].extend(output[i])
    output = reference.matmul(concat, w_o)
    residual = [[x[i][c] + output[i][c] for c in range(len(x[0]))] for i in range(n)]
    normalized = []
    for row in residual:
        mean = math.fsum(row) / len(row)
        variance = math.fsum((r - mean) ** 2 for r in row) / len(row)
        normalized.append([(r - mean) / math.sqrt(variance + LAYER_NORM_EPS) for r in row])
    return all_weights, concat, output, residual, normalized


@st.composite
def standard_case(draw):
    """x, h heads of width d_model / h (h a divisor of d_model), W_O, a mask, a scale and a temperature."""
    n = draw(st.integers(1, 5))
    d_model = draw(st.integers(1, 8))
    h = draw(st.sampled_from(head_counts(d_model)))
    d_k = d_model // h
    x = draw(matrix(n, d_model))
    heads = [tuple(draw(matrix(d_model, d_k)) for _ in range(3)) for _ in range(h)]
    w_o = draw(matrix(d_model, d_model))
    mask_kind = draw(st.sampled_from(["none", "causal", "array"]))
    if mask_kind == "array":
        mask = draw(hnp.arrays(bool, (n, n)))
        allowed = mask
    else:
        mask = None if mask_kind == "none" else "causal"
        allowed = np.tril(np.ones((n, n), dtype=bool)) if mask == "causal" else np.ones((n, n), dtype=bool)
    scale = draw(st.sampled_from(["none", "sqrt", "dk"]))
    temperature = draw(st.sampled_from([0.5, 1.0, 2.0]))
    return x, heads, w_o, mask, allowed, scale, temperature


def divisor(scale: str, d_k: int) -> float:
    return {"none": 1.0, "sqrt": math.sqrt(d_k), "dk": float(d_k)}[scale]


# --- multi-head attention against the reference ---


@FAST
@given(standard_case())
def test_multi_head_attention_matches_loop_reference(case):
    x, heads, w_o, mask, allowed, scale, temperature = case
    got = multi_head_attention(x, heads, w_o, scale=scale, mask=mask, temperature=temperature, layer_norm=True)
    ref_weights, concat, output, residual, normalized = reference_multi_head(
        x.tolist(),
        [tuple(w.tolist() for w in head) for head in heads],
        w_o.tolist(),
        [divisor(scale, head[0].shape[1]) for head in heads],
        allowed.tolist(),
        temperature,
    )
    assert len(got.heads) == len(heads)
    for head, weights in zip(got.heads, ref_weights, strict=True):
        np.testing.assert_allclose(head.weights, weights, **TOL)
    np.testing.assert_allclose(got.concat, concat, **TOL)
    np.testing.assert_allclose(got.output, output, **TOL)
    np.testing.assert_allclose(got.residual, residual, **TOL)
    # LayerNorm divides by √(variance + 1e-5): a rounding error in a near-constant row grows by up to 1/√1e-5.
    np.testing.assert_allclose(got.normalized, normalized, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(got.w_o, w_o)
    np.testing.assert_array_equal(got.x, x)


def test_heads_of_different_widths_concatenate_in_order():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 3))
    heads = [
        (rng.normal(size=(3, 2)), rng.normal(size=(3, 2)), rng.normal(size=(3, 3))),
        (*rng.normal(size=(3, 3, 1)),),
    ]
    w_o = rng.normal(size=(4, 3))
    got = multi_head_attention(x, heads, w_o)
    _, concat, output, _, _ = reference_multi_head(
        x.tolist(),
        [tuple(w.tolist() for w in head) for head in heads],
        w_o.tolist(),
        [math.sqrt(2), 1.0],
        [[True] * 4] * 4,
        1.0,
    )
    assert got.concat.shape == (4, 4)
    np.testing.assert_allclose(got.concat, concat, **TOL)
    np.testing.assert_allclose(got.output, output, **TOL)


@FAST
@given(standard_case())
def test_one_head_with_identity_w_o_is_single_head_attention(case):
    x, heads, _, mask, _, scale, temperature = case
    d_model = x.shape[1]
    w_q, w_k, w_v = (np.concatenate(ws, axis=1) for ws in zip(*heads, strict=True))  # one head of width d_model
    got = multi_head_attention(x, [(w_q, w_k, w_v)], np.eye(d_model), scale=scale, mask=mask, temperature=temperature)
    single = attention(x, w_q, w_k, w_v, scale=scale, mask=mask, temperature=temperature)
    np.testing.assert_array_equal(got.heads[0].weights, single.weights)
    np.testing.assert_array_equal(got.output, single.output)
    np.testing.assert_array_equal(got.residual, x + single.output)
    assert got.layer_norm is None and got.normalized is None


@FAST
@given(standard_case(), st.randoms(use_true_random=False))
def test_permuting_heads_with_their_w_o_blocks_leaves_the_output_unchanged(case, random):
    x, heads, w_o, mask, _, scale, temperature = case
    order = list(range(len(heads)))
    random.shuffle(order)
    blocks = split_heads(w_o.T, len(heads))  # row-blocks of W_O, one per head, as columns of W_Oᵀ
    moved_w_o = np.concatenate([blocks[i] for i in order], axis=1).T
    options = {"scale": scale, "mask": mask, "temperature": temperature}
    base = multi_head_attention(x, heads, w_o, **options)
    moved = multi_head_attention(x, [heads[i] for i in order], moved_w_o, **options)
    np.testing.assert_allclose(moved.output, base.output, **TOL)


def test_permuting_heads_without_their_w_o_blocks_changes_the_output():
    # The law above is not vacuous: moving the heads alone moves their columns of concat under other W_O rows.
    rng = np.random.default_rng(7)
    x, heads, w_o = rng.normal(size=(3, 4)), split_head_weights(*rng.normal(size=(3, 4, 4)), 2), rng.normal(size=(4, 4))
    base = multi_head_attention(x, heads, w_o)
    swapped = multi_head_attention(x, heads[::-1], w_o)
    assert np.abs(swapped.output - base.output).max() > 1e-3


# --- residual and layer norm ---


def test_layer_norm_of_a_row_by_hand():
    # row (1, 2, 3, 6): mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5
    steps = layer_norm_steps(np.array([[1.0, 2.0, 3.0, 6.0]]))
    assert steps.mean[0] == 3.0 and steps.variance[0] == 3.5 and steps.eps == 1e-5
    np.testing.assert_allclose(steps.output[0], np.array([-2.0, -1.0, 0.0, 3.0]) / math.sqrt(3.50001), rtol=1e-15)


@FAST
@given(standard_case())
def test_layer_norm_rows_have_mean_zero_and_variance_one_up_to_eps(case):
    x, heads, w_o, mask, _, scale, temperature = case
    got = multi_head_attention(x, heads, w_o, scale=scale, mask=mask, temperature=temperature, layer_norm=True)
    residual = [[a + b for a, b in zip(xr, orow, strict=True)] for xr, orow in zip(x.tolist(), got.output, strict=True)]
    np.testing.assert_allclose(got.residual, residual, rtol=0, atol=0)
    np.testing.assert_array_equal(got.layer_norm.input, got.residual)
    out = got.normalized
    np.testing.assert_allclose(out.mean(axis=1), 0.0, atol=1e-12)
    spread = got.residual.var(axis=1)  # (n,)
    # variance of the output is σ² / (σ² + eps): 1 short of one by eps / (σ² + eps)
    np.testing.assert_allclose(out.var(axis=1), spread / (spread + LAYER_NORM_EPS), rtol=1e-9, atol=1e-12)
    assert np.all(np.abs(out.var(axis=1) - 1) <= LAYER_NORM_EPS / (spread + LAYER_NORM_EPS) + 1e-9)


# --- helpers: head counts, split and merge, presets ---


def test_head_counts_are_the_divisors_of_d_model():
    assert head_counts(8) == (1, 2, 4, 8)
    assert head_counts(6) == (1, 2, 3, 6)
    assert head_counts(7) == (1, 7)
    assert head_counts(1) == (1,)
    with pytest.raises(EngineInputError) as info:
        head_counts(0)
    assert info.value.code == "bad_d_model"


def test_split_heads_cuts_columns_into_equal_blocks_in_order():
    w = np.arange(24, dtype=float).reshape(4, 6)
    blocks = split_heads(w, 3)
    assert [b.tolist() for b in blocks] == [
        [[r * 6 + c for c in (2 * i, 2 * i + 1)] for r in range(4)] for i in range(3)
    ]
    np.testing.assert_array_equal(merge_heads(blocks), w)
    with pytest.raises(EngineInputError) as info:
        split_heads(w, 4)
    assert info.value.code == "heads_do_not_divide" and info.value.params == {"columns": 6, "h": 4}


@FAST
@given(st.integers(1, 8).flatmap(lambda d: st.tuples(matrix(d, d), st.sampled_from(head_counts(d)))))
def test_merge_heads_undoes_split_heads(case):
    w, h = case
    blocks = split_heads(w, h)
    assert len(blocks) == h and all(b.shape == (w.shape[0], w.shape[1] // h) for b in blocks)
    np.testing.assert_array_equal(merge_heads(blocks), w)


def test_random_heads_are_the_big_random_matrices_split():
    heads = random_heads(8, 4, seed=5)
    big = random_weights(8, 8, 5)
    assert len(heads) == 4
    for which in range(3):
        np.testing.assert_array_equal(np.concatenate([head[which] for head in heads], axis=1), big[which])


def test_w_o_presets():
    np.testing.assert_array_equal(identity_like_w_o(4, 4), np.eye(4))
    np.testing.assert_array_equal(identity_like_w_o(2, 3), [[1, 0, 0], [0, 1, 0]])
    a, b = random_w_o(6, 4, seed=1), random_w_o(6, 4, seed=1)
    assert a.shape == (6, 4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, random_w_o(6, 4, seed=2))
    np.testing.assert_array_equal(np.round(a, 2), a)
    with pytest.raises(EngineInputError) as info:
        random_w_o(6, 4, seed=-1)
    assert info.value.code == "bad_seed"


def test_identity_w_o_with_full_width_heads_passes_concat_through():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 4))
    got = multi_head_attention(x, random_heads(4, 2, seed=9), identity_like_w_o(4, 4))
    np.testing.assert_array_equal(got.output, got.concat)


# --- pairwise cosine ---


def test_pairwise_cosine_by_hand():
    m = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    r = 1 / math.sqrt(2)
    np.testing.assert_allclose(pairwise_cosine(m), [[1, r, 0], [r, 1, r], [0, r, 1]], rtol=0, atol=1e-15)
    assert mean_pairwise_cosine(m) == pytest.approx((r + 0 + r) / 3, abs=1e-15)
    with_zero = pairwise_cosine(np.array([[1.0, 2.0], [0.0, 0.0]]))
    assert with_zero[0, 0] == pytest.approx(1.0) and np.isnan(with_zero[0, 1]) and np.isnan(with_zero[1, 1])


@FAST
@given(matrix(4, 3, bound=10.0).filter(lambda m: (np.linalg.norm(m, axis=1) > 1e-3).all()))
def test_pairwise_cosine_matches_the_loop_formula(m):
    rows, got = m.tolist(), pairwise_cosine(m)
    for i in range(4):
        for j in range(4):
            expected = reference.dot(rows[i], rows[j]) / math.sqrt(reference.dot(rows[i], rows[i]))
            expected /= math.sqrt(reference.dot(rows[j], rows[j]))
            assert got[i, j] == pytest.approx(expected, abs=1e-12)


# --- what a head does, measured ---


def _head_looking_at(targets: list[int], strength: float = 10.0):
    """A head on x = I, scale "none": row i scores `strength` on token targets[i], 0 elsewhere (-1: all 0)."""
    n = len(targets)
    w_q = np.zeros((n, n))
    for i, t in enumerate(targets):
        if t >= 0:
            w_q[i, t] = strength
    return attention(np.eye(n), w_q, np.eye(n), np.eye(n), scale="none")


@pytest.mark.parametrize(
    ("targets", "job", "target"),
    [
        ([0, 0, 1, 2], "previous", -1),
        ([0, 1, 2, 3], "self", -1),
        ([2, 2, 2, 2], "one_token", 2),
        ([-1, -1, -1, -1], "spread", -1),
        ([-1, 0, -1, 0], "mixed", -1),
        ([1, 0, 3, 2], "mixed", -1),
    ],
)
def test_head_behaviour_names_the_job(targets, job, target):
    got = head_behaviour(_head_looking_at(targets))
    assert got.job == job and got.target == target
    for i, t in enumerate(targets):
        # e^10 / (e^10 + 3) for a focused row, 1/4 for an even one
        assert got.top_weight[i] == pytest.approx(math.exp(10) / (math.exp(10) + 3) if t >= 0 else 0.25, rel=1e-12)
        assert got.focused[i] == (t >= 0)
        assert got.top[i] == max(t, 0)  # an even row's tie goes to the first token
    np.testing.assert_allclose(got.max_entropy, math.log(4), rtol=1e-15)
    assert got.mean_entropy == pytest.approx(np.mean(got.entropy))


def test_head_behaviour_entropy_by_hand():
    got = head_behaviour(_head_looking_at([-1, 1]))
    assert got.entropy[0] == pytest.approx(math.log(2), rel=1e-12)  # an even row of two
    p = math.exp(10) / (math.exp(10) + 1)
    assert got.entropy[1] == pytest.approx(-(p * math.log(p) + (1 - p) * math.log(1 - p)), rel=1e-9)


# --- the designed heads, measured on the sentence ---

SENTENCE = sentence_vectors(DESIGNED_SENTENCE, d_model=DESIGNED_D_MODEL)

# What the docstring of engine.designed_heads claims, written as token names per row.
PREVIOUS = ["el", "el", "perro", "come", "carne", "porque", "tiene"]
SELF = ["el", "perro", "come", "carne", "porque", "tiene", "hambre"]
FIRST = ["el"] * 7
SUBJECT = {"come": "perro", "tiene": "perro"}  # the other rows spread evenly
CLAIMS = {"previous": PREVIOUS, "self": SELF, "first": FIRST}


def _argmax_by_loop(row) -> int:
    best = 0
    for j, w in enumerate(row):
        if w > row[best]:
            best = j
    return best


@pytest.mark.parametrize(
    ("h", "jobs"), [(1, ("previous",)), (2, ("previous", "subject")), (4, ("previous", "subject", "self", "first"))]
)
def test_designed_heads_do_what_the_docstring_says(h, jobs):
    assert SENTENCE.tokens == ("el", "perro", "come", "carne", "porque", "tiene", "hambre")
    designed = designed_heads(SENTENCE.x, SENTENCE.tokens, h)
    assert designed.jobs == jobs
    got = multi_head_attention(SENTENCE.x, designed.heads, identity_like_w_o(8, 8))
    for job, head in zip(jobs, got.heads, strict=True):
        assert head.d_k == 8 // h
        rows = head.weights.tolist()
        if job == "subject":
            for i, token in enumerate(SENTENCE.tokens):
                if token in SUBJECT:
                    assert SENTENCE.tokens[_argmax_by_loop(rows[i])] == SUBJECT[token]
                    assert max(rows[i]) >= DESIGNED_TOP_WEIGHT - 1e-12
                else:
                    np.testing.assert_allclose(rows[i], 1 / 7, rtol=1e-9)
            continue
        assert [SENTENCE.tokens[_argmax_by_loop(row)] for row in rows] == CLAIMS[job]
        assert min(max(row) for row in rows) >= DESIGNED_TOP_WEIGHT - 1e-12


@pytest.mark.parametrize("h", [1, 2, 4])
def test_designed_heads_are_measured_as_their_jobs(h):
    designed = designed_heads(SENTENCE.x, SENTENCE.tokens, h)
    got = multi_head_attention(SENTENCE.x, designed.heads, identity_like_w_o(8, 8))
    measured = {"previous": ("previous", -1), "self": ("self", -1), "first": ("one_token", 0), "subject": ("mixed", -1)}
    for job, head, intended in zip(designed.jobs, got.heads, designed.intended, strict=True):
        behaviour = head_behaviour(head)
        assert (behaviour.job, behaviour.target) == measured[job]
        np.testing.assert_array_equal(np.where(behaviour.focused, behaviour.top, -1), intended)
        # rows spread evenly up to rounding noise name the first token, as a tie should, on every machine
        np.testing.assert_array_equal(behaviour.top[~behaviour.focused], 0)


def test_designed_matrices_reproduce_the_chosen_queries_and_keys():
    designed = designed_heads(SENTENCE.x, SENTENCE.tokens, 4)
    for (w_q, w_k, w_v), q, k, block in zip(designed.heads, designed.q, designed.k, range(4), strict=True):
        np.testing.assert_allclose(SENTENCE.x @ w_q, q, rtol=0, atol=1e-9)
        np.testing.assert_allclose(SENTENCE.x @ w_k, k, rtol=0, atol=1e-9)
        np.testing.assert_array_equal(w_v, np.eye(8)[:, 2 * block : 2 * block + 2])  # the identity, split


def test_designed_heads_refuse_what_they_cannot_build():
    with pytest.raises(EngineInputError) as count:
        designed_heads(SENTENCE.x, SENTENCE.tokens, 8)  # d_k = 1: no room for the circle
    assert count.value.code == "designed_heads_count" and count.value.params["supported"] == (1, 2, 4)
    small = sentence_vectors(DESIGNED_SENTENCE, d_model=4)
    with pytest.raises(EngineInputError) as rank:
        designed_heads(small.x, small.tokens, 2)  # 7 tokens in 4 dimensions: x·W cannot be any matrix
    assert rank.value.code == "designed_heads_rank" and rank.value.params == {"n": 7, "d_model": 4}
    other = sentence_vectors("el gato duerme", d_model=8)
    with pytest.raises(EngineInputError) as sentence:
        designed_heads(other.x, other.tokens, 2)
    assert sentence.value.code == "designed_heads_sentence"
    with pytest.raises(EngineInputError) as names:
        designed_heads(SENTENCE.x, SENTENCE.tokens[:3], 2)
    assert names.value.code == "shape_mismatch"


# --- one big head against h small ones ---


def test_attention_cost_by_hand_and_equal_for_every_head_count():
    cost = attention_cost(n=3, d_model=4, h=2)
    # projections 3·n·d_model² = 144, scores n²·d_model = 36, weighted sums 36, W_O n·d_model² = 48
    assert (cost.projections, cost.scores, cost.weighted_sums, cost.output_projection) == (144, 36, 36, 48)
    assert cost.multiply_adds == 264 and cost.parameters == 64 and cost.exponentials == 18
    assert {attention_cost(7, 8, h).multiply_adds for h in head_counts(8)} == {attention_cost(7, 8, 1).multiply_adds}
    with pytest.raises(EngineInputError):
        attention_cost(3, 4, 3)


@FAST
@given(standard_case())
def test_compare_head_counts_splits_the_same_matrices(case):
    x, heads, w_o, mask, _, scale, temperature = case
    h = len(heads)
    w_q, w_k, w_v = (np.concatenate(ws, axis=1) for ws in zip(*heads, strict=True))
    got = compare_head_counts(x, w_q, w_k, w_v, w_o, h, scale=scale, mask=mask, temperature=temperature)
    options = {"scale": scale, "mask": mask, "temperature": temperature}
    np.testing.assert_array_equal(got.one.output, multi_head_attention(x, [(w_q, w_k, w_v)], w_o, **options).output)
    np.testing.assert_allclose(got.many.output, multi_head_attention(x, heads, w_o, **options).output, **TOL)
    # Q·Kᵀ of the big head is the sum of the small heads' Q_i·K_iᵀ: the heads split the same dot products.
    np.testing.assert_allclose(sum(head.scores for head in got.many.heads), got.one.heads[0].scores, **TOL)
    assert got.one_cost.multiply_adds == got.many_cost.multiply_adds and got.many_cost.h == h


def test_compare_head_counts_needs_square_matrices():
    with pytest.raises(EngineInputError) as info:
        compare_head_counts(np.ones((2, 4)), np.ones((4, 2)), np.eye(4), np.eye(4), np.eye(4), 2)
    assert info.value.code == "shape_mismatch" and info.value.params["name"] == "W_Q"


# --- errors ---


def test_w_o_of_the_wrong_shape_names_w_o_and_the_shape_it_needs():
    heads = [(np.eye(2), np.eye(2), np.eye(2))] * 2  # concat has 4 columns, d_model is 2
    for w_o in (np.ones((3, 2)), np.ones((4, 3))):
        with pytest.raises(EngineInputError) as info:
            multi_head_attention(np.ones((3, 2)), heads, w_o)
        assert info.value.code == "shape_mismatch"
        assert info.value.params == {"name": "W_O", "got": w_o.shape, "expected": (4, 2)}
        assert "W_O" in str(info.value) and str(w_o.shape) in str(info.value) and "(4, 2)" in str(info.value)


def test_an_error_in_one_head_says_which_head():
    heads = [(np.eye(2), np.eye(2), np.eye(2)), (np.eye(2), np.ones((3, 2)), np.eye(2))]
    with pytest.raises(EngineInputError) as info:
        multi_head_attention(np.ones((3, 2)), heads, np.ones((4, 2)))
    assert info.value.code == "shape_mismatch"
    assert info.value.params["head"] == 2 and info.value.params["name"] == "W_K"
    assert str(info.value).startswith("head 2: W_K has shape (3, 2)")


@pytest.mark.parametrize(
    ("heads", "code"),
    [([], "no_heads"), ([(np.eye(2), np.eye(2))], "bad_head"), ([np.eye(2)], "bad_head"), ([3.0], "bad_head")],
)
def test_malformed_heads_raise_engine_input_error(heads, code):
    with pytest.raises(EngineInputError) as info:
        multi_head_attention(np.ones((2, 2)), heads, np.eye(2))
    assert info.value.code == code


def test_an_output_too_large_for_float64_is_an_overflow_error():
    heads = [(np.eye(2), np.eye(2), np.eye(2))]
    with pytest.raises(EngineInputError) as info:
        multi_head_attention(np.ones((2, 2)), heads, np.full((2, 2), 1e308))
    assert info.value.code == "overflow" and info.value.params["name"] == "output"
