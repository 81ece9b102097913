"""What the multi-head, learning and real-model pages hand their question gates, built here as the pages build it:
on a fresh start (the lesson's scenario, the page's default controls) and from any inputs a student can set."""

from __future__ import annotations

import dataclasses
import functools
import tempfile
from pathlib import Path

import numpy as np

from engine import (
    EngineInputError,
    Scale,
    designed_heads,
    identity_like_w_o,
    lesson_scenario,
    multi_head_attention,
    random_heads,
    random_scenario,
    random_w_o,
    start_training,
    target_preset,
)
from engine.encoder import encode
from engine.model_files import load_model, tokenize
from engine.questions import LearningView, MultiHeadView, RealModelView
from harness.tiny_model import SENTENCE, TINY_CONFIG, random_bert_tensors, sentencepiece_tokenizer, write_model


def multihead_view(
    scenario, h: int, preset: str = "designed", seed: int = 0, w_o: str = "identity", layer_norm: bool = True
) -> MultiHeadView:
    """The multi-head page on the scenario's tokens and x: designed heads (random when they cannot be built),
    random heads, or the scenario's W as head 1; W_O identity or random."""
    d_model = scenario.x.shape[1]
    heads = random_heads(d_model, h, seed)
    if preset == "designed":
        try:
            heads = designed_heads(scenario.x, scenario.tokens, h).heads
        except EngineInputError:
            heads = random_heads(d_model, h, 0)
    elif preset == "scenario":
        heads = ((scenario.w_q, scenario.w_k, scenario.w_v), *heads[1:])
    rows = sum(w_v.shape[1] for _, _, w_v in heads)
    matrix = identity_like_w_o(rows, d_model) if w_o == "identity" else random_w_o(rows, d_model, seed)
    options = dict(scale=scenario.scale, mask="causal" if scenario.causal else None, temperature=scenario.temperature)
    result = multi_head_attention(scenario.x, heads, matrix, layer_norm=layer_norm, **options)
    return MultiHeadView(scenario.tokens, result)


def lesson_multihead_view() -> MultiHeadView:
    """The page's fresh start: the lesson's scenario, h = 2 (the most designed heads d_model = 4 takes), designed."""
    return multihead_view(lesson_scenario(), 2)


def learning_view(scenario, preset: str = "previous", start: str = "scenario", seed: int = 0, scale=None):
    """The learning page before a run: the scenario's tokens toward a preset target, from its W or a random start."""
    mask = "causal" if scenario.causal else None
    target = target_preset(preset, scenario.tokens, mask=mask)
    run = start_training(
        scenario.x,
        target,
        start=(scenario.w_q, scenario.w_k, scenario.w_v) if start == "scenario" else None,
        seed=seed,
        d_k=scenario.d_k,
        scale=Scale.SQRT if scale is None else Scale(scale),
        mask=mask,
        temperature=scenario.temperature,
    )
    return LearningView(scenario.tokens, run)


def lesson_learning_view() -> LearningView:
    """The page's fresh start: the lesson's tokens, each looking at the previous one, from the scenario's W, ÷√d_k."""
    return learning_view(lesson_scenario())


def random_walk_scenario(seed: int, n: int, d_model: int, d_k: int, scale: str, causal: bool, temperature: float):
    """A random scenario with these sizes and options (tokens t0, t1, ...)."""
    tokens = tuple(f"t{i}" for i in range(n))
    base = random_scenario(seed, tokens, d_model=d_model, d_k=d_k)
    return dataclasses.replace(base, scale=Scale(scale), causal=causal, temperature=temperature)


def divisors(d_model: int) -> list[int]:
    return [h for h in range(1, d_model + 1) if d_model % h == 0]


def as_array(rows) -> np.ndarray:
    return np.array(rows, dtype=float)


@functools.cache
def tiny_model(tensor_seed: int = 5, sentencepiece: bool = False):
    """The tiny BERT of harness/tiny_model.py, written to a temporary folder and loaded (once per seed); seed 5
    is the real-model page tests' model. With `sentencepiece`, its tokenizer is XLM-R's kind (<s> … </s>)."""
    folder = Path(tempfile.mkdtemp(prefix=f"tiny-{tensor_seed}-"))
    tokenizer = sentencepiece_tokenizer() if sentencepiece else None
    return load_model(
        write_model(folder, tensors=random_bert_tensors(TINY_CONFIG, seed=tensor_seed), tokenizer=tokenizer)
    )


def real_model_view(
    sentence: str = SENTENCE,
    layer: int = 0,
    head: int = 0,
    cell: tuple[int, int] | None = None,
    tensor_seed: int = 5,
    sentencepiece: bool = False,
) -> RealModelView:
    """The real-model page on the tiny model: the sentence's pieces through the encoder, one head picked."""
    model = tiny_model(tensor_seed, sentencepiece)
    tokens = tokenize(model, sentence)
    return RealModelView.of(tokens, encode(tokens.ids, model.weights, model.config), layer, head, cell)


def lesson_real_model_view() -> RealModelView:
    """The page's fresh start on the tiny model: its example sentence, layer 1, head 1, no cell picked yet."""
    return real_model_view()
