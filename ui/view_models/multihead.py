"""The multi-head page's view-model: the input every head reads, the heads of a preset, W_O from its settings,
the one head the multi-head output is compared with, and the verdicts the page reads off the numbers.

Every number is the engine's (`engine.multihead`, `engine.designed_heads`); what a head "does" is read off its
weights by `head_behaviour`, never asserted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypedDict

import numpy as np

from engine import (
    DESIGNED_JOBS,
    DESIGNED_SENTENCE,
    AttentionResult,
    EngineInputError,
    HeadBehaviour,
    MultiHeadResult,
    Scale,
    Scenario,
    SentenceVectors,
    attention,
    compare_head_counts,
    designed_heads,
    head_behaviour,
    identity_like_w_o,
    mean_pairwise_cosine,
    merge_heads,
    multi_head_attention,
    pairwise_cosine,
    random_heads,
    random_w_o,
    sentence_vectors,
)
from engine.designed_heads import DESIGNED_D_MODEL
from engine.multihead import HeadCountComparison, HeadWeights
from engine.peakedness import Peakedness, peakedness
from engine.presets import random_weights

SOURCES = ("scenario", "sentence")  # the shared scenario's tokens and x, or the designed heads' sentence
PRESETS = ("designed", "random", "scenario")  # built for a job each; seeded random; the scenario's W as head 1
W_O_KINDS = ("identity", "random")
COST_ROWS = (  # AttentionCost's fields, in the order the cost table lists them
    "projections",
    "scores",
    "weighted_sums",
    "output_projection",
    "multiply_adds",
    "exponentials",
    "parameters",
)
PARTS = ("heads", "concat", "residual", "compare")  # the parts after h and the preset, one tab each


# --- the input ---


@dataclass(frozen=True)
class Source:
    """What every head of the page reads: tokens, x, and the shared scenario's options."""

    kind: str  # one of SOURCES
    tokens: tuple[str, ...]
    x: np.ndarray  # (n, d_model)
    scale: Scale
    causal: bool
    temperature: float

    @property
    def n(self) -> int:
        """Number of tokens."""
        return self.x.shape[0]

    @property
    def d_model(self) -> int:
        """Width of x."""
        return self.x.shape[1]

    def options(self) -> dict:
        """The keyword options of every attention on the page."""
        return {"scale": self.scale, "mask": "causal" if self.causal else None, "temperature": self.temperature}


@lru_cache(maxsize=1)
def sentence() -> SentenceVectors:
    """The designed heads' sentence, embedded with positions at d_model = 8 (as the pipeline page does)."""
    return sentence_vectors(DESIGNED_SENTENCE, DESIGNED_D_MODEL)


def source_of(scenario: Scenario, kind: str) -> Source:
    """The input `kind` names: the shared scenario's tokens and x, or the sentence's; the scenario's options."""
    if kind == "sentence":
        vectors = sentence()
        tokens, x = tuple(vectors.tokens), vectors.x
    else:
        tokens, x = scenario.tokens, scenario.x
    return Source(kind, tokens, x, scenario.scale, scenario.causal, scenario.temperature)


# --- how many heads, and which ---


def default_heads(d_model: int) -> int:
    """The most designed heads this d_model takes (two columns each at least), else 1."""
    fitting = [h for h in DESIGNED_JOBS if d_model % h == 0 and d_model // h >= 2]
    return max(fitting, default=1)


def presets_for(source: Source, scenario: Scenario) -> tuple[str, ...]:
    """The scenario's own matrices can be head 1 only when they read x's width."""
    return PRESETS if scenario.d_model == source.d_model else PRESETS[:2]


@dataclass(frozen=True)
class Heads:
    """The heads the page shows and where they come from."""

    preset: str  # the preset asked for
    weights: tuple[HeadWeights, ...]  # per head (W_Q, W_K, W_V)
    jobs: tuple[str, ...] | None  # designed heads: the job each head was built for
    intended: tuple[np.ndarray, ...] | None  # designed heads: per head (n,) the token each row is built to look at
    sharpness: tuple[float, ...] | None  # designed heads: per head c
    refused: tuple[str, dict] | None  # why the designed preset could not be built (then the heads are random)

    @property
    def concat_width(self) -> int:
        """The width of Concat(head_1, …, head_h): the heads' d_v added up."""
        return sum(w_v.shape[1] for _, _, w_v in self.weights)


def build_heads(source: Source, h: int, preset: str, seed: int, scenario: Scenario) -> Heads:
    """The heads of `preset`; a designed preset that cannot be built for this input falls back to random heads."""
    if preset == "designed":
        try:
            built = designed_heads(source.x, source.tokens, h)
        except EngineInputError as error:
            return Heads(preset, random_heads(source.d_model, h, 0), None, None, None, (error.code, error.params))
        return Heads(preset, built.heads, built.jobs, built.intended, built.sharpness, None)
    heads = random_heads(source.d_model, h, seed)
    if preset == "scenario":
        heads = ((scenario.w_q, scenario.w_k, scenario.w_v), *heads[1:])
    return Heads(preset, heads, None, None, None, None)


def as_intended(b: HeadBehaviour, intended: np.ndarray) -> int:
    """Rows that do what they were built for: focused on the intended token, or spread where none was."""
    hits = np.where(intended >= 0, b.focused & (b.top == intended), ~b.focused)
    return int(hits.sum())


# --- W_O: a preset, edited cell by cell ---


class WOutSettings(TypedDict):
    """The W_O the page uses: a preset ("identity" or "random" with its seed), the edited matrix (None: the
    preset's), and a revision bumped on every change so that its widgets are rebuilt from it."""

    kind: str
    seed: int
    matrix: np.ndarray | None
    rev: int


def default_w_o() -> WOutSettings:
    """The identity-like W_O, not edited."""
    return {"kind": "identity", "seed": 0, "matrix": None, "rev": 0}


def w_o_preset(kind: str, seed: int, rows: int, d_model: int) -> np.ndarray:
    """W_O of a preset: identity-like or seeded random.  (rows, d_model)"""
    return identity_like_w_o(rows, d_model) if kind == "identity" else random_w_o(rows, d_model, seed)


def w_o_of(settings: WOutSettings, rows: int, d_model: int) -> np.ndarray:
    """The W_O in use: the edited one while its shape still fits, else its preset's.  (rows, d_model)"""
    edited = settings["matrix"]
    if edited is not None and edited.shape == (rows, d_model):
        return edited
    return w_o_preset(settings["kind"], settings["seed"], rows, d_model)


def run(source: Source, heads: Heads, w_o: np.ndarray) -> MultiHeadResult:
    """MultiHead(x) with this W_O, the residual added and layer norm computed (shown on demand)."""
    return multi_head_attention(source.x, heads.weights, w_o, layer_norm=True, **source.options())


def identity_w_o(result: MultiHeadResult) -> bool:
    """W_O is the identity (the output is the concatenation itself)."""
    width, d_model = result.w_o.shape
    return width == d_model and np.array_equal(result.w_o, identity_like_w_o(width, d_model))


# --- the residual, and how alike the tokens' rows are ---


def single_head(source: Source, heads: Heads, scenario: Scenario) -> tuple[str, AttentionResult]:
    """The one head the multi-head output is compared with, and which it is: "walk", the walkthrough's (the shared
    scenario's own attention), or for the sentence "merged", one head holding all the heads' matrices side by side."""
    if source.kind == "scenario":
        return "walk", scenario.run()
    w_q, w_k, w_v = (merge_heads([w[role] for w in heads.weights]) for role in range(3))
    return "merged", attention(source.x, w_q, w_k, w_v, **source.options())


def lowest_cosine(rows: np.ndarray) -> float:
    """The smallest cosine between two different rows (NaN when a row is all zeros or there is one row)."""
    cos = pairwise_cosine(rows)
    pairs = cos[np.triu_indices(cos.shape[0], k=1)]
    return float(pairs.min()) if pairs.size and np.isfinite(pairs).all() else float("nan")


def heads_peakedness(heads: Sequence[AttentionResult]) -> Peakedness | None:
    """How peaked the weights of a set of heads are, every head's rows together (engine.peakedness's one rule)."""
    weights = np.concatenate([head.weights for head in heads])  # (h·n, n)
    allowed = np.concatenate([head.allowed for head in heads])  # (h·n, n)
    return peakedness(weights, allowed)


@dataclass(frozen=True)
class DistinctReading:
    """One attention against another (one head against h): which leaves the tokens' rows more distinct (the lower
    mean pairwise cosine, compared at the 3 decimals shown) and which has the more peaked weights."""

    one_cosine: float  # mean pairwise cosine of the one head's outputs
    many_cosine: float  # ... of the h heads' (multi-head) outputs
    one_peak: Peakedness
    many_peak: Peakedness

    @property
    def distinct(self) -> str:
        """Who leaves the rows more distinct: "many" (the h heads), "one", or "same" at the digits shown."""
        one, many = round(self.one_cosine, 3), round(self.many_cosine, 3)
        return "same" if one == many else ("many" if many < one else "one")

    @property
    def peaked(self) -> str:
        """Whose mean largest weight is higher: "many" (the h heads'), "one", or "same" at the digits shown."""
        one, many = round(self.one_peak.max_weight, 3), round(self.many_peak.max_weight, 3)
        return "same" if one == many else ("many" if many > one else "one")


def distinct_reading(
    one: AttentionResult, one_output: np.ndarray, many: Sequence[AttentionResult], many_output: np.ndarray
) -> DistinctReading | None:
    """How distinct one head and h heads leave the rows, beside how peaked their weights are; None with fewer than
    two tokens, a zero row, or no row with a choice."""
    cosines = mean_pairwise_cosine(one_output), mean_pairwise_cosine(many_output)
    peaks = heads_peakedness([one]), heads_peakedness(many)
    if not np.isfinite(cosines).all() or peaks[0] is None or peaks[1] is None:
        return None
    return DistinctReading(cosines[0], cosines[1], peaks[0], peaks[1])


# --- one big head against h small ones ---


@dataclass(frozen=True)
class Comparison:
    """The same input through one head of width d_model and through h heads of width d_model / h."""

    compared: HeadCountComparison
    merged: bool  # the big head holds the page's heads side by side (else random weights: the heads do not fit)
    one: HeadBehaviour  # what the big head does
    many: tuple[HeadBehaviour, ...]  # what each small head does

    @property
    def many_entropy(self) -> float:
        """The small heads' mean row entropy, averaged over the heads."""
        return float(np.mean([b.mean_entropy for b in self.many]))

    @property
    def spreads(self) -> bool:
        """The big head spreads its attention more than the small heads do on average (higher mean entropy)."""
        return self.one.mean_entropy > self.many_entropy


def compare(source: Source, heads: Heads, result: MultiHeadResult, seed: int) -> Comparison:
    """One head holding the page's h heads' matrices side by side against those h heads (when every head is
    d_model / h wide; else seeded random matrices), with the page's W_O when it is square (else the identity)."""
    h, d_model = len(heads.weights), source.d_model
    d_k = d_model // h
    merged = all(w.shape == (d_model, d_k) for head in heads.weights for w in head)
    if merged:
        w_q, w_k, w_v = (merge_heads([w[role] for w in heads.weights]) for role in range(3))
    else:
        w_q, w_k, w_v = random_weights(d_model, d_model, seed)
    w_o = result.w_o if result.w_o.shape == (d_model, d_model) else identity_like_w_o(d_model, d_model)
    compared = compare_head_counts(source.x, w_q, w_k, w_v, w_o, h, **source.options())
    one = head_behaviour(compared.one.heads[0])
    return Comparison(compared, merged, one, tuple(head_behaviour(head) for head in compared.many.heads))


def default_token(tokens: Sequence[str], wanted: str, fallback: int) -> int:
    """The index of `wanted` among the tokens, else `fallback` (kept in range)."""
    return tokens.index(wanted) if wanted in tokens else min(fallback, len(tokens) - 1)
