"""Why √d_k (scaling experiments, random walks) and the sentence → attention pipeline."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest
import reference

from engine import (
    EngineInputError,
    Scale,
    attention,
    positional_encoding,
    random_walks,
    scaling_experiment,
    softmax_three_ways,
)
from engine.pipeline import embed, pipeline, tokenize
from engine.scaling import random_dot_products, row_entropy

ROOT = Path(__file__).resolve().parents[2]
DKS = [4, 16, 64, 256]
NONE, SQRT, DK = (list(Scale).index(mode) for mode in ("none", "sqrt", "dk"))


@pytest.fixture(scope="module")
def experiment():
    return scaling_experiment(DKS, samples=20000, seed=7)


# --- scaling_experiment -----------------------------------------------------------------------------


# The lesson's three divisors, in the order of its table: not dividing, ÷√d_k, ÷d_k.
LESSON_DIVISORS = {"none": lambda d_k: 1.0, "sqrt": math.sqrt, "dk": float}


@pytest.mark.parametrize("d_k", [1, 4, 64, 512])
def test_every_scale_divides_the_scores_by_the_divisor_the_lesson_defines(d_k):
    rng = np.random.default_rng(d_k)
    x, w_v = rng.normal(size=(3, 4)), rng.normal(size=(4, 2))
    w_q, w_k = rng.normal(size=(4, d_k)), rng.normal(size=(4, d_k))
    for mode in Scale:
        divisor = LESSON_DIVISORS[mode](d_k)  # a member the lesson does not define has no entry: KeyError
        result = attention(x, w_q, w_k, w_v, scale=mode)
        assert result.divisor == divisor
        np.testing.assert_allclose(result.scaled_scores, result.scores / divisor, rtol=1e-15)
    for name in LESSON_DIVISORS:  # and every divisor the lesson defines is a scale the engine takes
        assert attention(x, w_q, w_k, w_v, scale=name).divisor == LESSON_DIVISORS[name](d_k)


def test_the_experiments_columns_follow_the_lesson_table_none_sqrt_dk():
    d_k, samples, row_length, seed = 16, 64, 8, 5
    result = scaling_experiment([d_k], samples, seed, row_length)
    # the same draws, read by loops: the experiment draws the q·k of each d_k with a generator from (seed, d_k)
    rows = random_dot_products(d_k, samples, np.random.default_rng([seed, d_k])).reshape(-1, row_length).tolist()
    for column, divide in enumerate(LESSON_DIVISORS.values()):
        weights = [reference.softmax([s / divide(d_k) for s in row]) for row in rows]
        largest = sum(max(w) for w in weights) / len(weights)
        entropy = sum(-sum(p * math.log(p) for p in w if p > 0) for w in weights) / len(weights)
        assert result.max_weight[0, column] == pytest.approx(largest, rel=1e-12)
        assert result.entropy[0, column] == pytest.approx(entropy, rel=1e-12)


SEVEN = [4, 16, 64, 256, 512, 1024, 4096]  # every d_k the page offers


def test_the_pages_largest_experiment_draws_a_tenth_of_the_random_numbers_of_independent_pairs(monkeypatch):
    # issue 26, item 12: all seven d_k at 20,000 samples cost 2.45 CPU-s, nearly all of it drawing 2 · 20,000 · Σ d_k
    # = 239 M normal numbers (a fresh q and k for every q·k). Counted here, not timed: the work, not the machine.
    drawn = []
    original, make = np.random.Generator.standard_normal, np.random.default_rng

    class Counting:
        def __init__(self, seed):
            self.rng = make(seed)

        def standard_normal(self, size):
            drawn.append(int(np.prod(size)))
            return original(self.rng, size)

    monkeypatch.setattr("engine.scaling.np.random.default_rng", Counting)
    result = scaling_experiment(SEVEN, samples=20_000, seed=0)
    independent_pairs = 2 * 20_000 * sum(SEVEN)
    assert sum(drawn) < independent_pairs / 10, (sum(drawn), independent_pairs)
    assert result.spread.shape == (7,)


@pytest.mark.parametrize(("d_k", "seeds"), [(4, 200), (64, 200), (1024, 80), (4096, 40)])
def test_the_measured_spread_is_as_noisy_as_with_independent_pairs_not_more(d_k, seeds):
    # Each value is one q·k; sharing queries and keys within a block must not make the figure noisier. For N
    # independent q·k (kurtosis 3 + 6/d_k), the measured spread / √d_k scatters by about ½·√((2 + 6/d_k) / N).
    samples = 1000
    measured = np.array([scaling_experiment([d_k], samples, seed).scaled_spread[0] for seed in range(seeds)])
    independent = 0.5 * math.sqrt((2 + 6 / d_k) / samples)
    assert measured.std() < 1.3 * independent, (measured.std(), independent)  # 40 seeds: 11% noise on the std
    assert abs(measured.mean() - 1) < 3 * independent / math.sqrt(seeds) + 1 / samples  # the std's own small bias


def test_a_d_ks_row_does_not_depend_on_the_other_d_k_listed():
    alone = scaling_experiment([64], samples=2000, seed=3)
    among = scaling_experiment([4, 64, 4096], samples=2000, seed=3)
    assert among.spread[1] == alone.spread[0]
    np.testing.assert_array_equal(among.max_weight[1], alone.max_weight[0])


def test_every_value_is_the_dot_product_of_one_query_and_one_key():
    rng = np.random.default_rng(9)
    d_k, samples = 1024, 700  # blocks of 26 queries and 26 keys: one block and part of a second
    values = random_dot_products(d_k, samples, np.random.default_rng(9))
    side = 26
    q, k = rng.standard_normal((2, side, d_k)), rng.standard_normal((2, side, d_k))  # drawn in one chunk
    expected = [float(np.dot(q[b, i], k[b, j])) for b in range(2) for i in range(side) for j in range(side)]
    np.testing.assert_allclose(values, expected[:samples], rtol=1e-12, atol=1e-9)
    assert values.shape == (samples,)


def test_scaling_experiment_is_reproducible_from_seed():
    a = scaling_experiment([4, 16], samples=2000, seed=3)
    b = scaling_experiment([4, 16], samples=2000, seed=3)
    c = scaling_experiment([4, 16], samples=2000, seed=4)
    for name in ("spread", "scaled_spread", "max_weight", "entropy"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert not np.array_equal(getattr(a, name), getattr(c, name)), name


def test_scaling_experiment_reports_its_inputs(experiment):
    np.testing.assert_array_equal(experiment.dks, DKS)
    assert experiment.samples == 20000
    assert experiment.row_length == 8
    assert experiment.uniform_entropy == pytest.approx(math.log(8), abs=1e-15)
    np.testing.assert_allclose(experiment.sqrt_dk, [math.sqrt(d) for d in DKS], rtol=0, atol=1e-15)
    assert experiment.max_weight.shape == (len(DKS), 3)
    assert experiment.entropy.shape == (len(DKS), 3)


def test_scaled_spread_is_about_one_for_every_dk(experiment):
    assert np.all(np.abs(experiment.scaled_spread - 1.0) < 0.05), experiment.scaled_spread
    np.testing.assert_allclose(experiment.scaled_spread, experiment.spread / experiment.sqrt_dk, rtol=1e-15)


def test_spread_of_dot_products_follows_sqrt_dk_within_5_percent(experiment):
    relative = np.abs(experiment.spread - np.sqrt(DKS)) / np.sqrt(DKS)
    assert np.all(relative < 0.05), experiment.spread
    assert np.all(np.diff(experiment.spread) > 0)  # bigger d_k, bigger scores


def test_max_weight_ordering_none_above_sqrt_above_dk_for_large_dk(experiment):
    row = experiment.max_weight[DKS.index(256)]
    assert row[NONE] > row[SQRT] > row[DK]
    assert row[NONE] > 0.9  # without scaling softmax saturates on one token
    assert row[DK] < 0.2  # dividing by d_k flattens it (uniform would be 1/8)


def test_entropy_ordering_is_reversed_for_large_dk(experiment):
    row = experiment.entropy[DKS.index(256)]
    assert row[NONE] < row[SQRT] < row[DK]
    assert row[DK] > 0.95 * experiment.uniform_entropy


def test_entropy_never_exceeds_log_row_length(experiment):
    assert np.all(experiment.entropy >= 0)
    assert np.all(experiment.entropy <= experiment.uniform_entropy + 1e-12)
    three = softmax_three_ways(64, row_length=10, seed=1)
    assert np.all(three.entropy <= math.log(10) + 1e-12)


def test_row_entropy_of_uniform_and_one_hot_rows():
    np.testing.assert_allclose(row_entropy(np.full((2, 5), 0.2)), math.log(5), rtol=1e-14)
    np.testing.assert_array_equal(row_entropy(np.array([[0.0, 1.0, 0.0]])), [0.0])


@pytest.mark.parametrize("dks", [[], (), None, 4, "4", iter([])])
def test_scaling_experiment_without_a_list_of_d_k_is_refused_with_bad_dks(dks):
    with pytest.raises(EngineInputError) as refused:
        scaling_experiment(dks, samples=100, seed=0)
    assert refused.value.code == "bad_dks"
    assert refused.value.params == {"low": 1, "high": 4096}


@pytest.mark.parametrize(
    ("arguments", "name", "low", "high"),
    [
        ({"dks": [0, 4]}, "d_k", 1, 4096),
        ({"dks": [4, 4097]}, "d_k", 1, 4096),
        ({"dks": [4.5]}, "d_k", 1, 4096),
        ({"dks": [True]}, "d_k", 1, 4096),
        ({"dks": ["8"]}, "d_k", 1, 4096),
        ({"samples": 1}, "samples", 2, 100_000),
        ({"samples": 100_001}, "samples", 2, 100_000),
        ({"samples": 4, "row_length": 8}, "row_length", 2, 4),
        ({"row_length": 1}, "row_length", 2, 100),
        ({"seed": -1}, "seed", 0, 2**32 - 1),
    ],
)
def test_scaling_experiment_refuses_numbers_outside_its_ranges_naming_them(arguments, name, low, high):
    call = {"dks": [4], "samples": 100, "seed": 0} | arguments
    with pytest.raises(EngineInputError) as refused:
        scaling_experiment(**call)
    assert refused.value.code == "out_of_range"
    assert refused.value.params == {"name": name, "low": low, "high": high}


def test_scaling_experiment_takes_the_ends_of_its_ranges():
    edge = scaling_experiment([1, 4096], samples=2, seed=2**32 - 1, row_length=2)
    assert edge.dks.tolist() == [1, 4096] and edge.samples == 2 and edge.row_length == 2
    assert edge.max_weight.shape == (2, 3) and np.isfinite(edge.max_weight).all()


def test_random_walks_spread_is_about_sqrt_n():
    walks = random_walks(walks=4000, steps=400, seed=11)
    assert walks.positions.shape == (4000, 401)
    np.testing.assert_array_equal(walks.positions[:, 0], 0.0)
    assert set(np.unique(np.diff(walks.positions, axis=1))) <= {-1.0, 1.0}
    assert abs(walks.spread[400] - math.sqrt(400)) < 0.10 * math.sqrt(400)
    np.testing.assert_allclose(walks.sqrt_steps, np.sqrt(np.arange(401)), rtol=0, atol=0)
    # Not linear growth: after 400 steps the walkers are nowhere near 400 steps away on average.
    assert walks.spread[400] < 0.1 * 400


def test_random_walks_are_reproducible_from_seed():
    np.testing.assert_array_equal(random_walks(50, 30, 5).positions, random_walks(50, 30, 5).positions)
    assert not np.array_equal(random_walks(50, 30, 5).positions, random_walks(50, 30, 6).positions)


def test_softmax_three_ways_shapes_and_rows_sum_to_one():
    three = softmax_three_ways(d_k=256, row_length=6, seed=2)
    assert three.d_k == 256
    assert three.scores.shape == (6,)
    assert three.weights.shape == (3, 6)
    assert three.max_weight.shape == (3,)
    assert three.entropy.shape == (3,)
    np.testing.assert_allclose(three.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(three.max_weight, three.weights.max(axis=1))
    assert three.uniform_entropy == pytest.approx(math.log(6))
    # Dividing by √d_k then d_k only flattens the row further.
    assert three.max_weight[NONE] >= three.max_weight[SQRT] >= three.max_weight[DK]


# --- positional encoding ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "d"), [(1, 1), (3, 4), (7, 6), (5, 7), (64, 16)])
def test_positional_encoding_shape(n, d):
    assert positional_encoding(n, d).shape == (n, d)


@pytest.mark.parametrize("d", [2, 4, 7, 16])
def test_positional_encoding_first_row_is_0_1_0_1(d):
    expected = [0.0 if j % 2 == 0 else 1.0 for j in range(d)]
    np.testing.assert_array_equal(positional_encoding(4, d)[0], expected)


@pytest.mark.parametrize(("n", "d"), [(10, 4), (12, 7), (20, 16)])
def test_positional_encoding_is_sin_on_even_cos_on_odd_columns(n, d):
    pe = positional_encoding(n, d)
    for pos in range(n):
        for j in range(d):
            i = j // 2
            angle = pos / 10000 ** (2 * i / d)
            expected = math.sin(angle) if j % 2 == 0 else math.cos(angle)
            assert pe[pos, j] == pytest.approx(expected, abs=1e-12), (pos, j)


# --- embeddings and tokens --------------------------------------------------------------------------


def test_embed_is_deterministic_across_calls():
    tokens = ["perro", "gato", "🐶", "ñandú"]
    a, b = embed(tokens, 6), embed(tokens, 6)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (4, 6)
    np.testing.assert_array_equal(embed(["gato"], 6)[0], a[1])  # a token's vector does not depend on its neighbours
    assert not np.array_equal(a[0], a[1])


def test_embed_is_deterministic_across_processes_with_different_hash_seeds():
    tokens = ["perro", "gato", "🐶", "ñandú", "el"]
    code = (
        "import json, sys; from engine.pipeline import embed; "
        f"print(json.dumps([embed({tokens!r}, 6).tolist(), embed({tokens!r}, 4).tolist()]))"
    )
    outputs = []
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
        )
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[0] == [embed(tokens, 6).tolist(), embed(tokens, 4).tolist()]


def test_tokenize_keeps_accents_and_enye():
    assert tokenize("Ñandú comió pingüino") == ["ñandú", "comió", "pingüino"]


def test_tokenize_composes_decomposed_accents():
    decomposed = unicodedata.normalize("NFD", "Ñandú comió pingüino")
    assert decomposed != "Ñandú comió pingüino"
    assert tokenize(decomposed) == ["ñandú", "comió", "pingüino"]


def test_tokenize_splits_punctuation():
    assert tokenize("hola, mundo!") == ["hola", ",", "mundo", "!"]
    assert tokenize("¿Quién come?") == ["¿", "quién", "come", "?"]


def test_tokenize_makes_emoji_tokens():
    assert tokenize("el perro 🐶 come 🍖") == ["el", "perro", "🐶", "come", "🍖"]
    assert tokenize("🐶🐱") == ["🐶", "🐱"]


@pytest.mark.parametrize("sentence", ["", " ", "   \t\n  "])
def test_tokenize_empty_or_whitespace_sentence_gives_no_tokens(sentence):
    assert tokenize(sentence) == []


# --- pipeline ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_pipeline_of_empty_sentence_raises_empty_sentence(sentence):
    with pytest.raises(EngineInputError) as info:
        pipeline(sentence)
    assert info.value.code == "empty_sentence"


def test_pipeline_of_300_words_keeps_64_tokens_and_reports_236_dropped():
    sentence = " ".join(f"p{i}" for i in range(300))  # 1,389 characters: within MAX_SENTENCE_CHARS
    run = pipeline(sentence, d_model=4)
    assert len(run.tokens) == 64
    assert run.tokens[-1] == "p63"
    assert run.dropped == 236
    assert run.x.shape == (64, 4)
    assert run.attention.weights.shape == (64, 64)
    assert np.all(np.isfinite(run.attention.output))


def test_a_sentence_of_64_tokens_goes_through_whole_and_one_of_65_loses_its_last():
    words = [f"p{i}" for i in range(65)]
    whole = pipeline(" ".join(words[:64]), d_model=4)
    assert whole.tokens == tuple(words[:64]) and whole.dropped == 0
    cut = pipeline(" ".join(words), d_model=4)
    assert cut.tokens == tuple(words[:64]) and cut.dropped == 1


def test_max_tokens_takes_64_and_refuses_65_with_out_of_range():
    sentence = " ".join(f"p{i}" for i in range(70))
    assert len(pipeline(sentence, d_model=4, max_tokens=64).tokens) == 64
    with pytest.raises(EngineInputError) as refused:
        pipeline(sentence, d_model=4, max_tokens=65)
    assert refused.value.code == "out_of_range"
    assert refused.value.params == {"name": "max_tokens", "low": 1, "high": 64}


def test_pipeline_with_lesson_weights_and_other_d_model_raises_lesson_weights_shape():
    with pytest.raises(EngineInputError) as info:
        pipeline("el perro come", d_model=6, weights="lesson")
    assert info.value.code == "lesson_weights_shape"
    assert info.value.params == {"d_model": 6, "d_k": 6}


def test_pipeline_with_unknown_weights_raises_bad_weights():
    with pytest.raises(EngineInputError) as info:
        pipeline("el perro come", weights="learned")
    assert info.value.code == "bad_weights"


def test_pipeline_with_random_weights_is_reproducible_from_seed():
    a = pipeline("el gato duerme en la alfombra", d_model=6, weights="random", seed=5)
    b = pipeline("el gato duerme en la alfombra", d_model=6, weights="random", seed=5)
    c = pipeline("el gato duerme en la alfombra", d_model=6, weights="random", seed=6)
    for name in ("w_q", "w_k", "w_v", "x"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    np.testing.assert_array_equal(a.attention.output, b.attention.output)
    assert not np.array_equal(a.w_q, c.w_q)
    assert a.w_q.shape == (6, 6)


def test_pipeline_stages_add_up():
    run = pipeline("Un perro, dos gatos.", d_model=8, weights="random", seed=1, d_k=3, causal=True)
    assert run.tokens == ("un", "perro", ",", "dos", "gatos", ".")
    np.testing.assert_array_equal(run.positional, positional_encoding(6, 8))
    np.testing.assert_array_equal(run.embeddings, embed(run.tokens, 8))
    np.testing.assert_array_equal(run.x, run.embeddings + run.positional)
    assert run.w_q.shape == (8, 3)
    assert np.all(np.triu(run.attention.weights, k=1) == 0)


@pytest.mark.parametrize(
    "sentence",
    [
        "el perro 🐶 come 🍖🔥",
        "مرحبا بالعالم، القط يأكل",
        "שלום עולם! הכלב אוכל",
        "<img src=x onerror=alert(1)>",
        "$\\frac{a}{b}$",
        "a" * 500,
        "e\u0301\u200d\ufe0f ⁂ ∑ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    ],
)
@pytest.mark.parametrize("weights", ["lesson", "random"])
def test_pipeline_outputs_finite_for_odd_sentences(sentence, weights):
    run = pipeline(sentence, d_model=4, weights=weights, seed=3)
    assert len(run.tokens) >= 1
    for name in ("x", "embeddings", "positional"):
        assert np.all(np.isfinite(getattr(run, name))), name
    for name in ("q", "k", "v", "scores", "weights", "output"):
        assert np.all(np.isfinite(getattr(run.attention, name))), name
    np.testing.assert_allclose(run.attention.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_an_emoji_with_its_modifiers_stays_one_token():
    # heart + variation selector, woman + ZWJ + laptop, a flag (two regional indicators), thumb + skin tone
    assert tokenize("❤️ 👩‍💻 🇦🇷 👍🏽!") == ["❤️", "👩\u200d💻", "🇦🇷", "👍🏽", "!"]
