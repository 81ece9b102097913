"""The attention engine: pure numpy, float64, every intermediate returned as data."""

from engine import derivation, presets, questions
from engine.attention import AttentionResult, Scale, allowed_positions, attention, divisor_for
from engine.errors import EngineInputError
from engine.limits import MAX_TOKENS
from engine.multihead import MultiHeadResult, multi_head_attention
from engine.peakedness import VERDICTS, peakedness_verdict
from engine.pipeline import (
    PipelineResult,
    SentenceVectors,
    attend,
    embed,
    pipeline,
    positional_encoding,
    sentence_vectors,
    tokenize,
)
from engine.projection import Movement, TopAttended, movement, top_attended
from engine.scaling import (
    RandomWalks,
    ScalingExperiment,
    SoftmaxThreeWays,
    random_walks,
    row_entropy,
    scaling_experiment,
    softmax_three_ways,
)
from engine.scenario import (
    Scenario,
    check_token_name,
    lesson_scenario,
    parse_number,
    random_scenario,
    same_numbers,
)
from engine.softmax import (
    NaiveNormalization,
    SoftmaxSteps,
    largest_to_smallest,
    naive_normalize,
    softmax,
    softmax_steps,
)

__all__ = [
    "MAX_TOKENS",
    "VERDICTS",
    "AttentionResult",
    "EngineInputError",
    "Movement",
    "MultiHeadResult",
    "NaiveNormalization",
    "PipelineResult",
    "RandomWalks",
    "Scale",
    "ScalingExperiment",
    "Scenario",
    "SentenceVectors",
    "SoftmaxSteps",
    "SoftmaxThreeWays",
    "TopAttended",
    "allowed_positions",
    "attend",
    "attention",
    "check_token_name",
    "derivation",
    "divisor_for",
    "embed",
    "largest_to_smallest",
    "lesson_scenario",
    "movement",
    "multi_head_attention",
    "naive_normalize",
    "parse_number",
    "peakedness_verdict",
    "pipeline",
    "positional_encoding",
    "presets",
    "questions",
    "random_scenario",
    "random_walks",
    "row_entropy",
    "same_numbers",
    "scaling_experiment",
    "sentence_vectors",
    "softmax",
    "softmax_steps",
    "softmax_three_ways",
    "tokenize",
    "top_attended",
]
