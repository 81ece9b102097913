"""The attention engine: pure numpy, float64, every intermediate returned as data.

This package exports what the pages and ui/ use; everything else is imported from its module (engine.pipeline,
engine.training, ...)."""

from engine import derivation, presets, questions
from engine.attention import AttentionResult, Scale, attention, divisor_for
from engine.designed_heads import DESIGNED_JOBS, DESIGNED_SENTENCE, designed_heads
from engine.errors import EngineInputError
from engine.multihead import (
    HeadBehaviour,
    MultiHeadResult,
    attention_cost,
    compare_head_counts,
    head_behaviour,
    head_counts,
    identity_like_w_o,
    mean_pairwise_cosine,
    merge_heads,
    multi_head_attention,
    pairwise_cosine,
    random_heads,
    random_w_o,
)
from engine.number_grammar import parse_number
from engine.peakedness import peakedness_verdict
from engine.pipeline import PipelineResult, SentenceVectors, attend, positional_encoding, sentence_vectors
from engine.projection import TopAttended, movement, top_attended
from engine.scaling import (
    RandomWalks,
    ScalingExperiment,
    SoftmaxThreeWays,
    random_walks,
    scaling_experiment,
    softmax_three_ways,
)
from engine.scenario import Scenario, check_token_name, lesson_scenario, random_scenario, same_numbers
from engine.softmax import naive_normalize, softmax, softmax_steps
from engine.targets import normalise_target, preset_available, target_preset
from engine.training import (
    Optimiser,
    StallExperiment,
    TrainingRun,
    role_asymmetry,
    stall_experiment,
    start_training,
    train,
    train_steps,
    weight_gradient,
)

__all__ = [
    "DESIGNED_JOBS",
    "DESIGNED_SENTENCE",
    "AttentionResult",
    "EngineInputError",
    "HeadBehaviour",
    "MultiHeadResult",
    "Optimiser",
    "PipelineResult",
    "RandomWalks",
    "Scale",
    "ScalingExperiment",
    "Scenario",
    "SentenceVectors",
    "SoftmaxThreeWays",
    "StallExperiment",
    "TopAttended",
    "TrainingRun",
    "attend",
    "attention",
    "attention_cost",
    "check_token_name",
    "compare_head_counts",
    "derivation",
    "designed_heads",
    "divisor_for",
    "head_behaviour",
    "head_counts",
    "identity_like_w_o",
    "lesson_scenario",
    "mean_pairwise_cosine",
    "merge_heads",
    "movement",
    "multi_head_attention",
    "naive_normalize",
    "normalise_target",
    "pairwise_cosine",
    "parse_number",
    "peakedness_verdict",
    "positional_encoding",
    "preset_available",
    "presets",
    "questions",
    "random_heads",
    "random_scenario",
    "random_w_o",
    "random_walks",
    "role_asymmetry",
    "same_numbers",
    "scaling_experiment",
    "sentence_vectors",
    "softmax",
    "softmax_steps",
    "softmax_three_ways",
    "stall_experiment",
    "start_training",
    "target_preset",
    "top_attended",
    "train",
    "train_steps",
    "weight_gradient",
]
