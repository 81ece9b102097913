"""Questions of the step-by-step page, one set per step, about the scenario it is showing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from engine.attention import Scale, divisor_for
from engine.presets import LESSON_TOKENS
from engine.questions.core import ChoiceDraft, KeyDraft, NumericDraft, OptionKind, Templates, exp_or_inf, shown_change
from engine.questions.picking import SHOWN_GAP, cells, other_tokens, query_rows, winners
from engine.scenario import Scenario
from engine.softmax import softmax

ask = Templates(Scenario)  # each step's templates, asked at the step their id names ("walk.2.score": step 2)
SCALAR_VALUES = (10.0, 20.0, 30.0)  # the lesson's one-number-per-token example: V_el, V_perro, V_come
ROLES = {"Q": "w_q", "K": "w_k", "V": "w_v"}


# --- step 1: Q, K and V ---


def _projection_entry(role: str) -> Callable[[Scenario, np.random.Generator], Iterator[NumericDraft]]:
    def build(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
        """One entry of Q, K or V: x_token · column `dim` of W."""
        result = scenario.run()
        name = ROLES[role]
        w = scenario.matrix(name)  # (d_model, d_out)
        values = {"Q": result.q, "K": result.k, "V": result.v}[role]  # (n, d_out)
        n = len(scenario.tokens)
        cells = [(int(i), int(j)) for i in rng.permutation(n) for j in rng.permutation(w.shape[1])]
        for i, j in cells:
            neighbour = (i + 1) % n
            x = scenario.x[i]  # (d_model,)
            mistakes = []
            if w.shape[1] == scenario.d_model:  # row j of W has as many entries as x: the row-for-column slip
                mistakes.append(("row_instead_of_column", x @ w[j]))
            for other in ROLES.values():
                if other != name and j < scenario.matrix(other).shape[1]:
                    mistakes.append((f"used_{other}", x @ scenario.matrix(other)[:, j]))
            mistakes.append(("other_token", values[neighbour, j]))
            params = dict(
                role=role,
                token=scenario.tokens[i],
                token_index=i,
                dim=j,
                neighbour=scenario.tokens[neighbour],
            )
            yield NumericDraft(params, values[i, j], tuple(mistakes))

    return build


for _role in ROLES:
    ask.number(
        f"walk.1.{_role.lower()}_entry",
        params=("role", "token", "token_index", "dim", "neighbour"),
        misconceptions=("row_instead_of_column", "used_w_q", "used_w_k", "used_w_v", "other_token"),
    )(_projection_entry(_role))


@ask.choice(
    "walk.1.which_column",
    options=OptionKind.MATRIX_LINE,
    params=("token", "dim"),
    misconceptions=("row_instead_of_column", "wrong_column", "used_w_k"),
)
def which_column(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Q_token[j] is x_token dotted with which line of which matrix: column j of W_Q."""
    i, j = int(rng.integers(len(scenario.tokens))), int(rng.integers(scenario.d_k))
    distractors = []
    if j < scenario.d_model:
        distractors.append((("W_Q", "row", j), "row_instead_of_column"))
    if scenario.d_k > 1:
        distractors.append((("W_Q", "column", (j + 1) % scenario.d_k), "wrong_column"))
    distractors.append((("W_K", "column", j), "used_w_k"))
    yield ChoiceDraft(dict(token=scenario.tokens[i], dim=j), ("W_Q", "column", j), tuple(distractors))


@ask.choice(
    "walk.1.q_shape",
    options=OptionKind.SHAPE,
    params=("n", "d_model", "d_k"),
    misconceptions=("w_q_shape", "input_shape", "transposed", "scores_shape", "single_row"),
)
def q_shape(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Q = x · W_Q has one row per token and d_k columns."""
    q = scenario.run().q  # (n, d_k)
    n, d_model, d_k = len(scenario.tokens), scenario.d_model, scenario.d_k
    distractors = (
        (scenario.w_q.shape, "w_q_shape"),
        (scenario.x.shape, "input_shape"),
        ((d_k, n), "transposed"),
        ((n, n), "scores_shape"),
        ((1, d_k), "single_row"),  # one query for the whole sentence
    )
    yield ChoiceDraft(dict(n=n, d_model=d_model, d_k=d_k), q.shape, distractors)


# --- step 2: the scores Q·Kᵀ ---


@ask.number(
    "walk.2.score",
    params=("token", "other", "token_index", "other_index"),
    misconceptions=("transposed", "q_dot_q", "x_dot_x", "scaled_too_early"),
)
def score(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The score of token → other: Q_token · K_other."""
    result = scenario.run()
    for i, j in cells(rng, np.ones_like(result.allowed)):
        mistakes = (
            ("transposed", result.scores[j, i]),
            ("q_dot_q", result.q[i] @ result.q[j]),
            ("x_dot_x", scenario.x[i] @ scenario.x[j]),
            ("scaled_too_early", result.scores[i, j] / result.divisor),
        )
        params = dict(token=scenario.tokens[i], other=scenario.tokens[j], token_index=i, other_index=j)
        yield NumericDraft(params, result.scores[i, j], mistakes)


@ask.choice(
    "walk.2.best_match",
    options=OptionKind.TOKEN,
    params=("tokens", "token"),
    misconceptions=("transposed", "always_self", "x_similarity", "lower_score"),
)
def best_match(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Which token's key matches the token's query best: the largest score of its row."""
    result = scenario.run()
    n = len(scenario.tokens)
    for i, best in winners(rng.permutation(n), result.scores):
        distractors = [
            (int(np.argmax(result.scores[:, i])), "transposed"),
            (int(i), "always_self"),
            (int(np.argmax(scenario.x @ scenario.x[i])), "x_similarity"),
            *other_tokens(rng, n, mistake="lower_score"),
        ]
        yield ChoiceDraft(dict(tokens=scenario.tokens, token=scenario.tokens[i]), best, tuple(distractors))


@ask.keyed("walk.2.symmetric", params=("n",), picks={"symmetric": "dot_commutes", "not_symmetric": "symmetric_here"})
def symmetric(scenario: Scenario, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Is S = Q·Kᵀ symmetric? Only when score(a → b) = score(b → a) for every pair (W_Q = W_K, say)."""
    scores = scenario.run().scores  # (n, n)
    asymmetry = float(np.max(np.abs(scores - scores.T)))
    if 1e-12 < asymmetry <= SHOWN_GAP:
        return  # not symmetric, but no displayed pair shows it
    yield KeyDraft(dict(n=len(scenario.tokens)), "symmetric" if asymmetry <= 1e-12 else "not_symmetric")


@ask.number(
    "walk.2.score_count",
    params=("n",),
    misconceptions=("one_per_token", "self_excluded", "pairs_once"),
)
def score_count(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """How many scores: every query against every key, n²."""
    n = len(scenario.tokens)
    mistakes = (("one_per_token", n), ("self_excluded", n * (n - 1)), ("pairs_once", n * (n + 1) // 2))
    yield NumericDraft(dict(n=n), scenario.run().scores.size, mistakes, decimals=0, tolerance=0.0)


# --- step 3: divide by √d_k ---


@ask.number(
    "walk.3.scaled_score",
    params=("token", "other", "score", "d_k", "divisor", "scale"),
    misconceptions=("not_scaled", "divided_by_dk", "divided_by_sqrt_dk", "multiplied", "transposed"),
)
def scaled_score(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """score'(token → other) = score / divisor, the divisor set by the scenario's scale (√d_k by default)."""
    result = scenario.run()
    d_k = scenario.d_k
    for i, j in cells(rng, result.allowed):
        s = result.scores[i, j]
        mistakes = (
            ("not_scaled", s),
            ("divided_by_dk", s / divisor_for(Scale.DK, d_k)),
            ("divided_by_sqrt_dk", s / divisor_for(Scale.SQRT, d_k)),
            ("multiplied", s * result.divisor),
            ("transposed", result.scores[j, i] / result.divisor),
        )
        params = dict(
            token=scenario.tokens[i],
            other=scenario.tokens[j],
            score=s,
            d_k=d_k,
            divisor=result.divisor,
            scale=scenario.scale.value,
        )
        yield NumericDraft(params, result.scaled_scores[i, j], mistakes)


@ask.number(
    "walk.3.divisor",
    params=("d_k", "d_model", "n", "scale"),
    misconceptions=("divided_by_dk", "divided_by_sqrt_dk", "sqrt_d_model", "sqrt_n", "no_divisor"),
)
def divisor(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """What every score is divided by, with the scenario's scale: √d_k, d_k or 1."""
    n, d_k, d_model = len(scenario.tokens), scenario.d_k, scenario.d_model
    mistakes = (
        ("divided_by_dk", divisor_for(Scale.DK, d_k)),
        ("divided_by_sqrt_dk", divisor_for(Scale.SQRT, d_k)),
        ("sqrt_d_model", np.sqrt(d_model)),
        ("sqrt_n", np.sqrt(n)),
        ("no_divisor", 1.0),
    )
    params = dict(d_k=d_k, d_model=d_model, n=n, scale=scenario.scale.value)
    yield NumericDraft(params, scenario.run().divisor, mistakes)


@ask.keyed(
    "walk.3.spread_effect",
    params=("token", "d_k", "divisor", "temperature"),
    picks={
        "spreads": "nothing_changes_here",
        "concentrates": "scaling_sharpens",
        "unchanged": "scaling_changes_nothing",
    },
)
def spread_effect(scenario: Scenario, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Dividing a row of scores by √d_k before the softmax: its weights spread out (unless √d_k = 1)."""
    result = scenario.run()
    root = divisor_for(Scale.SQRT, scenario.d_k)
    for i in query_rows(rng, result):
        raw = result.scores[i][result.allowed[i]]  # (allowed,)
        before = softmax(raw, temperature=scenario.temperature)
        after = softmax(raw / root, temperature=scenario.temperature)
        change = shown_change(before, after, same=root == 1.0 or np.ptp(raw) == 0)
        if change is not None:
            params = dict(token=scenario.tokens[i], d_k=scenario.d_k, divisor=root, temperature=scenario.temperature)
            yield KeyDraft(params, change)


# --- step 4: softmax, row by row ---


@ask.number(
    "walk.4.weight",
    params=("token", "other", "d_k", "divisor", "temperature", "scale"),
    misconceptions=(
        "unscaled_softmax",
        "divided_by_dk",
        "naive_division",
        "exp_not_normalised",
        "temperature_ignored",
        "transposed",
        "mask_ignored",
    ),
)
def weight(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The weight token gives other: softmax of token's row of scaled scores, at the temperature."""
    result = scenario.run()
    t = scenario.temperature
    rows = set(query_rows(rng, result))
    for i, j in cells(rng, result.allowed):
        if i not in rows:
            continue
        allowed = result.allowed[i]  # (n,)
        at = int(np.sum(allowed[:j]))  # where column j sits among the allowed ones
        raw, scaled = result.scores[i][allowed], result.scaled_scores[i][allowed]  # (allowed,)
        mistakes = [
            ("unscaled_softmax", softmax(raw, temperature=t)[at]),
            ("divided_by_dk", softmax(raw / divisor_for(Scale.DK, scenario.d_k), temperature=t)[at]),
            ("exp_not_normalised", exp_or_inf(scaled[at] / t)),
            ("temperature_ignored", softmax(scaled)[at]),
        ]
        if scaled.sum() != 0:
            mistakes.insert(2, ("naive_division", scaled[at] / scaled.sum()))
        if result.allowed[j, i]:
            mistakes.append(("transposed", result.weights[j, i]))
        if not allowed.all():
            mistakes.append(("mask_ignored", softmax(result.scores[i] / result.divisor, temperature=t)[j]))
        params = dict(
            token=scenario.tokens[i],
            other=scenario.tokens[j],
            d_k=scenario.d_k,
            divisor=result.divisor,
            temperature=t,
            scale=scenario.scale.value,
        )
        yield NumericDraft(params, result.weights[i, j], tuple(mistakes))


@ask.choice(
    "walk.4.most_weight",
    options=OptionKind.TOKEN,
    params=("tokens", "token"),
    misconceptions=("transposed", "mask_ignored", "always_self", "less_weight"),
)
def most_weight(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Which token gets the most of token's attention."""
    result = scenario.run()
    n = len(scenario.tokens)
    for i, best in winners(query_rows(rng, result), result.weights, result.allowed):
        distractors: list[tuple[int, str]] = [(int(np.argmax(result.weights[:, i])), "transposed")]
        unmasked_best = int(np.argmax(result.scores[i]))
        if not result.allowed[i, unmasked_best]:
            distractors.append((unmasked_best, "mask_ignored"))
        distractors += [(i, "always_self"), *other_tokens(rng, n, result.allowed[i], mistake="less_weight")]
        yield ChoiceDraft(dict(tokens=scenario.tokens, token=scenario.tokens[i]), best, tuple(distractors))


@ask.number(
    "walk.4.row_sum",
    params=("token",),
    misconceptions=("sum_of_scores", "sum_of_exps", "counted_tokens"),
)
def row_sum(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The sum of token's weights: 1, whatever the scores."""
    result = scenario.run()
    for i in rng.permutation(len(scenario.tokens)):
        allowed = result.allowed[i]
        scaled = result.scaled_scores[i][allowed]  # (allowed,)
        mistakes = (
            ("sum_of_scores", scaled.sum()),
            ("sum_of_exps", exp_or_inf(scaled / scenario.temperature).sum()),
            ("counted_tokens", allowed.sum()),
        )
        yield NumericDraft(dict(token=scenario.tokens[i]), result.weights[i].sum(), mistakes)


@ask.choice(
    "walk.4.without_scaling",
    options=OptionKind.ROW,
    params=("token", "labels", "d_k", "divisor", "temperature", "scale"),
    misconceptions=("still_scaled", "divided_by_dk", "divided_by_sqrt_dk", "naive_division", "temperature_ignored"),
)
def without_scaling(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Token's weights had its scores not been divided at all: softmax(Q·K) straight."""
    result = scenario.run()
    t = scenario.temperature
    for i in query_rows(rng, result):
        allowed = result.allowed[i]
        raw = result.scores[i][allowed]  # (allowed,)
        distractors = [
            (result.weights[i][allowed], "still_scaled"),
            (softmax(raw / divisor_for(Scale.DK, scenario.d_k), temperature=t), "divided_by_dk"),
            (softmax(raw / divisor_for(Scale.SQRT, scenario.d_k), temperature=t), "divided_by_sqrt_dk"),
            (softmax(raw), "temperature_ignored"),
        ]
        if raw.sum() != 0:
            distractors.insert(3, (raw / raw.sum(), "naive_division"))
        params = dict(
            token=scenario.tokens[i],
            labels=tuple(name for name, ok in zip(scenario.tokens, allowed, strict=True) if ok),
            d_k=scenario.d_k,
            divisor=result.divisor,
            temperature=t,
            scale=scenario.scale.value,
        )
        yield ChoiceDraft(params, softmax(raw, temperature=t), tuple(distractors))


# --- step 5: the weighted sum of values ---


@ask.number(
    "walk.5.output_entry",
    params=("token", "dim"),
    misconceptions=(
        "weights_times_x",
        "unweighted_sum",
        "plain_average",
        "own_value",
        "transposed_weights",
        "unscaled_weights",
    ),
)
def output_entry(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """output_token[dim] = Σ_j weight(token → j) · V_j[dim]."""
    result = scenario.run()
    n, d_v = result.output.shape
    unscaled = softmax(np.where(result.allowed, result.scores, -np.inf), temperature=scenario.temperature)  # (n, n)
    for i, d in [(int(i), int(d)) for i in rng.permutation(n) for d in rng.permutation(d_v)]:
        allowed = result.allowed[i]
        v = result.v[:, d]  # (n,)
        mistakes = [
            ("unweighted_sum", v[allowed].sum()),
            ("plain_average", v[allowed].mean()),
            ("own_value", v[i]),
            ("transposed_weights", result.weights[:, i] @ v),
            ("unscaled_weights", unscaled[i] @ v),
        ]
        if d < scenario.d_model:
            mistakes.insert(0, ("weights_times_x", result.weights[i] @ scenario.x[:, d]))
        yield NumericDraft(dict(token=scenario.tokens[i], dim=d), result.output[i, d], tuple(mistakes))


@ask.choice(
    "walk.5.dominant_value",
    options=OptionKind.TOKEN,
    params=("tokens", "token"),
    misconceptions=("weight_only", "weights_ignored", "x_instead_of_v", "shorter_term"),
)
def dominant_value(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """Whose term weight · V is the longest in token's output: a large weight on a short value may lose."""
    result = scenario.run()
    n = len(scenario.tokens)
    v_length = np.linalg.norm(result.v, axis=1)  # (n,)
    x_length = np.linalg.norm(scenario.x, axis=1)  # (n,)
    for i, best in winners(query_rows(rng, result), result.weights * v_length, result.allowed):  # (n, n) terms
        allowed, w = result.allowed[i], result.weights[i]
        distractors = [
            (int(np.argmax(np.where(allowed, w, -np.inf))), "weight_only"),
            (int(np.argmax(np.where(allowed, v_length, -np.inf))), "weights_ignored"),
            (int(np.argmax(np.where(allowed, w * x_length, -np.inf))), "x_instead_of_v"),
            *[(j, key) for j, key in other_tokens(rng, n, allowed, mistake="shorter_term") if allowed[j]],
        ]
        yield ChoiceDraft(dict(tokens=scenario.tokens, token=scenario.tokens[i]), best, tuple(distractors))


@ask.number(
    "walk.5.scalar_mix",
    params=("tokens", "values", "weights"),
    misconceptions=("plain_average", "largest_weight_value", "unweighted_sum"),
)
def scalar_mix(scenario: Scenario, rng: np.random.Generator) -> Iterator[NumericDraft]:
    """The lesson's one-number-per-token mix (values 10, 20, 30) with the weights moved."""
    tokens = scenario.tokens[:3] if len(scenario.tokens) >= 3 else LESSON_TOKENS
    tenths = [(a, b, 10 - a - b) for a in range(1, 9) for b in range(1, 10 - a)]  # weights in tenths, each >= 0.1
    for k in rng.permutation(len(tenths)):
        weights = tuple(w / 10 for w in tenths[k])
        if weights[0] == weights[2]:
            continue  # symmetric weights give the plain average: the mix would not show its pull
        heaviest = int(np.argmax(weights))
        mistakes = [("plain_average", float(np.mean(SCALAR_VALUES))), ("unweighted_sum", float(sum(SCALAR_VALUES)))]
        if weights.count(weights[heaviest]) == 1:
            mistakes.insert(1, ("largest_weight_value", SCALAR_VALUES[heaviest]))
        answer = float(np.dot(weights, SCALAR_VALUES))
        params = dict(tokens=tokens, values=SCALAR_VALUES, weights=weights)
        yield NumericDraft(params, answer, tuple(mistakes), decimals=1)


@ask.choice(
    "walk.5.output_shape",
    options=OptionKind.SHAPE,
    params=("n", "d_model", "d_v"),
    misconceptions=("scores_shape", "transposed", "input_shape", "single_row"),
)
def output_shape(scenario: Scenario, rng: np.random.Generator) -> Iterator[ChoiceDraft]:
    """The output has one row per token, d_v wide: weights (n, n) · V (n, d_v)."""
    output = scenario.run().output  # (n, d_v)
    n, d_v = output.shape
    distractors = (
        ((n, n), "scores_shape"),
        ((d_v, n), "transposed"),
        (scenario.x.shape, "input_shape"),
        ((1, d_v), "single_row"),
    )
    yield ChoiceDraft(dict(n=n, d_model=scenario.d_model, d_v=d_v), output.shape, distractors)
