"""The learning page's view-model: what is trained toward which target, the training run as an immutable state
(`start`, `advance`, `stop`, and the replay's `play_from` / `next_frame`), and the verdicts the page reads off
its runs (how a run ended, the stall without dividing, the roles of W_Q and W_K, a saturated weight).

Training runs in chunks (see ui/sections/learning/train.py for the timer that asks for them): `advance` trains
the next few steps of a run and says whether more are to come, so that the page can draw the run between two
chunks and a Stop click lands between them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine import (
    EngineInputError,
    Optimiser,
    Scale,
    Scenario,
    StallExperiment,
    TrainingRun,
    normalise_target,
    preset_available,
    stall_experiment,
    start_training,
    target_preset,
    train,
    train_steps,
)
from engine.limits import MAX_TRAINING_STEPS
from engine.peakedness import Peakedness, peakedness
from engine.targets import TARGET_PRESETS

SENTENCE = "el perro come carne porque tiene hambre"
SENTENCE_D_MODEL = 8
SOURCES = ("scenario", "sentence")
STARTS = ("scenario", "random")
LEARNING_RATES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
DEFAULT_RATE = {Optimiser.ADAM: 0.02, Optimiser.GD: 0.5}  # slow enough to watch, fast enough to converge
STEPS_RANGE = (10, MAX_TRAINING_STEPS)
DEFAULT_STEPS = 100  # with ÷√d_k each preset converges within it at the default rates (measured: steps 6 to 96)
CHUNKS = 15  # a run of up to 375 steps is trained in about this many chunks: the progress bar moves as often
MAX_CHUNK = 25  # steps; 1,000 steps are 40 chunks
PLAY_FRAMES = 30  # the play button shows the history in about this many frames
SATURATED = 0.01  # a weight this close to 0 or 1 sits where softmax is flat: its gradient is about 0
ALIGNMENT_GAIN = 0.1  # "training used the one-way freedom": the alignment grew by more than this...
ALIGNMENT_USED = 0.5  # ...and ended above this (random W give about 0)
SIDE_BY_SIDE_TOKENS = 4  # a heatmap of more tokens and the loss curve do not fit side by side beside the sidebar
STALL_D_KS = (16, 32, 64, 128)
STALL_DEFAULT_D_K = 64  # the d_k of each head of the original Transformer (512 / 8)
STALL_GRADIENT_STEP = 10  # the stall table reads the gradient after this many steps
STALL_KEPT = 0.5  # "stalled": after all its steps, the loss still above this share of where it started

Error = tuple[str, dict]  # an error code and its parameters, as the strings layer translates it


# --- what is trained, toward what ---


@dataclass(frozen=True)
class Case:
    """What is trained: the tokens, their vectors x, the scenario's mask and temperature, and its W if they fit."""

    source: str  # "scenario" or "sentence"
    tokens: tuple[str, ...]
    x: np.ndarray  # (n, d_model)
    causal: bool
    temperature: float
    scenario_w: tuple[np.ndarray, np.ndarray, np.ndarray] | None  # the scenario's W_Q, W_K, W_V if x fits them
    d_k: int  # of a random start: the scenario's d_k for its own tokens, d_model for the sentence

    @property
    def mask(self) -> str | None:
        """The mask `attention` takes: the scenario's causal mask, or none."""
        return "causal" if self.causal else None

    @property
    def n(self) -> int:
        """The number of tokens."""
        return len(self.tokens)

    @property
    def masked(self) -> np.ndarray | None:
        """(n, n) True where the causal mask hides a cell, or None without a mask."""
        return ~np.tril(np.ones((self.n, self.n), dtype=bool)) if self.causal else None

    def same(self, other: Case) -> bool:
        """The same tokens, x, mask and temperature (a run trained on one is a run of the other)."""
        return (
            self.tokens == other.tokens
            and self.x.shape == other.x.shape
            and np.array_equal(self.x, other.x)
            and (self.causal, self.temperature) == (other.causal, other.temperature)
        )


def case_of(scenario: Scenario, source: str, sentence: tuple[tuple[str, ...], np.ndarray]) -> Case:
    """The tokens `source` names: the shared scenario's (with its mask and temperature), or the sentence's
    (`sentence`: its tokens and x, SENTENCE_D_MODEL wide), which can start from the scenario's W when they fit."""
    weights = (scenario.w_q, scenario.w_k, scenario.w_v)
    if source == "sentence":
        tokens, x = sentence
        fits = scenario.d_model == SENTENCE_D_MODEL
        return Case("sentence", tokens, x, False, 1.0, weights if fits else None, SENTENCE_D_MODEL)
    return Case("scenario", scenario.tokens, scenario.x, scenario.causal, scenario.temperature, weights, scenario.d_k)


@dataclass(frozen=True)
class Target:
    """The target pattern for one source's tokens, and how it came to be."""

    tokens: tuple[str, ...]
    causal: bool
    matrix: np.ndarray  # (n, n)  every row a token may use sums to 1
    preset: str | None  # None: edited by hand
    renormalised: tuple[tuple[int, float], ...] = ()  # (row, its sum as typed) for rows an edit had to scale
    rev: int = 0  # the preset picker and the editor are keyed by it, so they are rebuilt from the target


def default_preset(tokens: Sequence[str]) -> str:
    """«tiene» → «perro» when both words are there (the lesson's question), else each token at the previous."""
    return "tiene_perro" if preset_available("tiene_perro", tokens) else "previous"


def presets(case: Case) -> list[str]:
    """The presets these tokens allow, in the engine's order."""
    return [name for name in TARGET_PRESETS if preset_available(name, case.tokens)]


def target_for(case: Case, kept: Target | None) -> Target:
    """The target kept for the case's source while its tokens and mask are the same; else one rebuilt from its
    preset (when the new tokens allow it) or the default preset."""
    if kept is not None and kept.tokens == case.tokens and kept.causal == case.causal:
        return kept
    name = kept.preset if kept is not None else None
    preset = name if name is not None and preset_available(name, case.tokens) else default_preset(case.tokens)
    rev = 0 if kept is None else kept.rev
    return Target(case.tokens, case.causal, target_preset(preset, case.tokens, mask=case.mask), preset, (), rev + 1)


def preset_target(case: Case, old: Target, name: object) -> Target | None:
    """The target of preset `name` (the picker's value), or None when these tokens do not allow it."""
    if not isinstance(name, str) or not preset_available(name, case.tokens):
        return None
    return Target(case.tokens, case.causal, target_preset(name, case.tokens, mask=case.mask), name, (), old.rev + 1)


def edited_target(case: Case, old: Target, matrix: np.ndarray) -> tuple[Target, list[Error]]:
    """The target as edited, each row divided by its sum; refused (the old target kept, rebuilt so that the editor
    shows it) with the engine's reason when a row cannot be a target, its cells named by their tokens."""
    try:
        checked = normalise_target(matrix, case.mask)
    except EngineInputError as error:
        params = dict(error.params)
        for name in ("row", "col"):
            if isinstance(index := params.get(name), int):
                params[name] = case.tokens[index]
        return replace(old, rev=old.rev + 1), [(error.code, params)]
    renormalised = tuple((i, float(checked.row_sums[i])) for i in checked.renormalised_rows)
    return Target(case.tokens, case.causal, checked.target, None, renormalised, old.rev + 1), []


# --- the run ---


@dataclass(frozen=True)
class Options:
    """The training controls' values."""

    optimiser: Optimiser
    learning_rate: float
    steps: int
    scale: Scale
    start: str  # "scenario" or "random"
    seed: int
    learn_w_v: bool
    output_weight: float


@dataclass(frozen=True)
class Training:
    """A run on the page: what it trains, how far it should go, and whether it is still going."""

    case: Case
    run: TrainingRun
    goal: int  # the steps asked for
    status: str  # "running", "stopped" or "done"

    @property
    def running(self) -> bool:
        """Whether chunks are still to come."""
        return self.status == "running"


def start_choices(case: Case) -> list[str]:
    """The scenario's W (when they fit x) and a seeded random start."""
    return list(STARTS) if case.scenario_w is not None else ["random"]


def output_fits(case: Case, start: str) -> bool:
    """The target output T · x needs W_V to keep x's size (d_v = d_model)."""
    d_v = case.scenario_w[2].shape[1] if start == "scenario" and case.scenario_w is not None else case.d_k
    return d_v == case.x.shape[1]


def start_run(case: Case, target: Target, options: Options) -> TrainingRun:
    """Step 0 of a run with these options (raises EngineInputError when the engine refuses them)."""
    start = case.scenario_w if options.start == "scenario" and case.scenario_w is not None else None
    with_output = options.learn_w_v and output_fits(case, options.start)
    # The output each token should have: the x of the tokens it should look at, mixed as the target says.
    target_output = target.matrix @ case.x if with_output else None  # (n, d_model)
    return start_training(
        case.x,
        target.matrix,
        start=start,
        seed=options.seed,
        d_k=case.d_k,
        scale=options.scale,
        mask=case.mask,
        temperature=case.temperature,
        target_output=target_output,
        output_weight=options.output_weight if with_output else 0.0,
        learn_w_v=with_output,
        optimiser=options.optimiser,
        learning_rate=options.learning_rate,
    )


def start(case: Case, target: Target, options: Options) -> Training:
    """A run at step 0, going toward options.steps (raises EngineInputError when the engine refuses the options)."""
    return Training(case=case, run=start_run(case, target, options), goal=options.steps, status="running")


def chunk_size(goal: int) -> int:
    """Steps per chunk: about CHUNKS chunks per run, 5 to MAX_CHUNK steps each (a long run shows more frames)."""
    return min(max(5, math.ceil(goal / CHUNKS)), MAX_CHUNK)


def advance(training: Training) -> Training:
    """One chunk more; "done" once the goal is reached, the run diverged or it may take no more steps."""
    run = training.run
    steps = min(chunk_size(training.goal), training.goal - run.steps, run.steps_left)
    run = train_steps(run, max(steps, 0))
    finished = run.steps >= training.goal or run.diverged or run.steps_left == 0
    return replace(training, run=run, status="done" if finished else "running")


def stop(training: Training) -> Training:
    """A running run stopped where it is (a finished one stays as it ended)."""
    return replace(training, status="stopped") if training.running else training


def matching(training: Training | None, case: Case, target: Target) -> Training | None:
    """`training` if it trained these tokens toward this target, else None."""
    if training is None or not training.case.same(case):
        return None
    if not np.array_equal(training.run.objective.target, target.matrix):
        return None
    return training


def side_by_side(case: Case) -> bool:
    """The attention and the loss curve side by side (a few tokens), or one under the other."""
    return case.n <= SIDE_BY_SIDE_TOKENS


@dataclass(frozen=True)
class LossHistory:
    """The loss at every step so far, on an axis as long as the run asked for (steps not trained yet are gaps)."""

    steps: list[int]
    losses: np.ndarray  # (goal + 1,)  NaN after the last step trained
    floor: np.ndarray  # (goal + 1,)  the lowest loss the target allows, at every step


def loss_history(training: Training) -> LossHistory:
    """The run's losses so far, and its floor, over the whole run asked for."""
    run = training.run
    length = max(training.goal, run.steps) + 1
    losses = np.full(length, np.nan)
    losses[: run.steps + 1] = run.losses
    return LossHistory(list(range(length)), losses, np.full(length, run.objective.floor))


def outcome(training: Training) -> str:
    """How the run ended: "diverged", "done" (reached its goal) or "stopped" (by the reader)."""
    if training.run.diverged:
        return "diverged"
    return "done" if training.status == "done" else "stopped"


def succeeded(training: Training) -> bool:
    """Reached its goal and converged: the page says it as a success."""
    return training.status == "done" and training.run.converged


# --- the replay ---


def replay_step(step: int | None, training: Training) -> int | None:
    """The step the replay's slider should be set to before it is drawn: the run's last for a new run (or a step
    the run does not have), else None (the slider keeps its own)."""
    if step is None or not 0 <= int(step) <= training.run.steps:
        return training.run.steps
    return None


def play_from(step: int, steps: int) -> int:
    """Where Play starts: where the slider is, or from the beginning once it is at the last step."""
    return 0 if step >= steps else step


def next_frame(step: int, steps: int) -> tuple[int, bool]:
    """The replay's next step (about PLAY_FRAMES frames for the whole run) and whether it is the last."""
    following = min(step + max(1, math.ceil(steps / PLAY_FRAMES)), steps)
    return following, following >= steps


# --- inside: the gradient of one weight, the roles of W_Q and W_K ---


def gradient_row(tokens: Sequence[str]) -> int:
    """The row whose gradient is shown first: «tiene» (the lesson's question), else the second token."""
    return tokens.index("tiene") if "tiene" in tokens else min(1, len(tokens) - 1)


def gradient_col(run: TrainingRun, i: int) -> int:
    """The column shown first for row i: the token the target gives the most weight."""
    return int(np.argmax(run.objective.target[i]))


def saturated(weight: float) -> bool:
    """A weight where softmax is flat (near 0 or 1): its gradient is about 0 whatever the error."""
    return min(weight, 1 - weight) < SATURATED


def gradient_size(grad_w_q: np.ndarray, grad_w_k: np.ndarray) -> float:
    """The size of the whole gradient, W_Q's and W_K's together (the Frobenius norm)."""
    return float(np.sqrt(np.sum(grad_w_q**2) + np.sum(grad_w_k**2)))


def roles_used(alignment_start: float, alignment_end: float) -> bool:
    """Whether training used W_Q and W_K's freedom to make the scores one-way where the target is: the alignment
    of S − Sᵀ with T − Tᵀ grew clearly and ended high."""
    return alignment_end - alignment_start > ALIGNMENT_GAIN and alignment_end > ALIGNMENT_USED


# --- the stall without dividing, measured both ways ---


@dataclass(frozen=True)
class Stall:
    """The engine's experiment (the loss at the output), and its start trained with the loss on the weights."""

    experiment: StallExperiment
    on_weights_unscaled: TrainingRun
    on_weights_scaled: TrainingRun

    @property
    def length(self) -> int:
        """Steps on the charts' axis, step 0 included."""
        return self.experiment.unscaled.steps + 1

    @property
    def gradient_step(self) -> int:
        """The step whose gradient the table reads."""
        return min(STALL_GRADIENT_STEP, self.experiment.unscaled.steps)


def stall(d_k: int, seed: int) -> Stall:
    """The stall experiment at d_k with this seed, measured at the output and on the weights."""
    experiment = stall_experiment(d_k=d_k, seed=seed)
    first = experiment.unscaled
    options: dict[str, Any] = dict(
        start=(first.w_q_start, first.w_k_start, first.w_v_start),
        optimiser=Optimiser.GD,
        learning_rate=first.learning_rate,
    )
    on_weights = [
        train(first.objective.x, first.objective.target, first.steps, scale=scale, **options)
        for scale in (Scale.NONE, Scale.SQRT)
    ]
    return Stall(experiment, on_weights[0], on_weights[1])


def padded(values: np.ndarray, length: int) -> np.ndarray:
    """A run's history as long as the others: a run that diverged early ends in gaps."""
    out = np.full(length, np.nan)
    out[: len(values)] = values
    return out


def run_fate(run: TrainingRun) -> str:
    """How a run of the experiment ended: "diverged", "converged" or "stuck"."""
    if run.diverged:
        return "diverged"
    return "converged" if run.converged_at is not None else "stuck"


@dataclass(frozen=True)
class StallStart:
    """How peaked the output-loss experiment's rows are where it starts, by engine.peakedness's one rule."""

    none_start: Peakedness  # without dividing, before any step
    none_next: Peakedness  # without dividing, after the first step
    sqrt_start: Peakedness  # ÷√d_k, before any step


def stall_start(experiment: StallExperiment) -> StallStart:
    """The rows' peakedness at the start (and, without dividing, after one step). No mask: every row has a choice."""

    def read(run: TrainingRun, step: int) -> Peakedness:
        reading = peakedness(run.weights[min(step, run.steps)])
        assert reading is not None  # n >= 2 tokens and no mask: every row has a choice
        return reading

    return StallStart(read(experiment.unscaled, 0), read(experiment.unscaled, 1), read(experiment.scaled, 0))


def stall_verdict(unscaled: TrainingRun, scaled: TrainingRun) -> str:
    """How the output-loss experiment reads: "stalled" (÷√d_k converged; without dividing the loss did not even
    halve), "slower" (÷√d_k converged, without dividing not yet) or "small" (no clear difference)."""
    if scaled.converged_at is None or unscaled.converged_at is not None or unscaled.diverged:
        return "small"
    return "stalled" if unscaled.losses[-1] > STALL_KEPT * unscaled.losses[0] else "slower"


# --- use it: the learned weights into the shared scenario ---


def learned_scenario(training: Training, scenario: Scenario) -> Scenario:
    """The shared scenario with the learned W_Q, W_K, W_V and the run's divisor; the sentence's tokens and x too."""
    run, case = training.run, training.case
    learned: dict[str, Any] = dict(
        w_q=run.w_q.copy(), w_k=run.w_k.copy(), w_v=run.w_v.copy(), scale=run.objective.scale
    )
    if case.source == "sentence":
        return Scenario(tokens=case.tokens, x=case.x.copy(), causal=False, temperature=1.0, **learned)
    return replace(scenario, **learned)


def sendable(training: Training, scenario: Scenario) -> bool:
    """The scenario's tokens must still be the trained ones (the sentence replaces them, so it always fits)."""
    if training.case.source == "sentence":
        return True
    scenario_case = Case(
        "scenario", scenario.tokens, scenario.x, scenario.causal, scenario.temperature, None, scenario.d_k
    )
    return training.case.same(scenario_case)


def matrices_sent(training: Training, scenario: Scenario) -> int:
    """How many of the scenario's matrices sending changes: 2 (W_Q, W_K) or 3 (W_V too, when it was trained)."""
    return 2 if np.array_equal(training.run.w_v, scenario.w_v) else 3
