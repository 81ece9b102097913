"""The learning page's sections: a target attention pattern, W_Q and W_K trained toward it live, what changed
inside them, what the runs teach (the stall without dividing, measured both ways; the roles of W_Q and W_K) and
the learned weights sent to the shared scenario, so the walkthrough derives the learned attention.

One section at a time, as tabs that run only while open (like the √d_k page), each inside a fragment, so a
control reruns its section only. Training runs in chunks: a fragment with a timer trains a few steps each time
the browser asks, stores the run and shows it. That is what lets the progress bar move and the Stop button work
(a click inside a fragment never interrupts a run in progress: it waits for it to end, and a chunk ends soon),
and what keeps a slow browser from falling behind: it asks for the next chunk only once it has drawn the last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from engine import (
    EngineInputError,
    Optimiser,
    Scale,
    Scenario,
    StallExperiment,
    TrainingRun,
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
from engine.limits import MAX_TRAINING_STEPS, OUTPUT_WEIGHT_RANGE, SEED_RANGE
from engine.questions import LearningView
from engine.targets import TARGET_PRESETS, subject_index
from ui import charts, editors, figure_specs, numbers, questions, state
from ui.editing import apply_matrix_edits, column_name
from ui.editors import errors_ui
from ui.figure_specs import Heatmap
from ui.i18n import LANGUAGES, plural, t, tm, translate
from ui.layout import grids_wait
from ui.sliders import number_slider
from ui.tables import table_ui
from ui.text import md_literal

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
FRAME_SECONDS = 0.2  # the browser asks for the next chunk this long after the last (or later, if still drawing)
PLAY_FRAMES = 30  # the play button shows the history in about this many frames
PLAY_INTERVAL = 0.5  # seconds between two frames
SATURATED = 0.01  # a weight this close to 0 or 1 sits where softmax is flat: its gradient is about 0
ALIGNMENT_GAIN = 0.1  # "training used the one-way freedom": the alignment grew by more than this...
ALIGNMENT_USED = 0.5  # ...and ended above this (random W give about 0)
SIDE_BY_SIDE_TOKENS = 4  # a heatmap of more tokens and the loss curve do not fit side by side beside the sidebar
STALL_D_KS = (16, 32, 64, 128)
STALL_DEFAULT_D_K = 64  # the d_k of each head of the original Transformer (512 / 8)
STALL_GRADIENT_STEP = 10  # the stall table reads the gradient after this many steps
STALL_KEPT = 0.5  # "stalled": after all its steps, the loss still above this share of where it started

# Values this page owns (documented in ui/state.py).
TRAIN: state.Slot[Training | None] = state.Slot("train", lambda: None)  # the run, if any
TARGETS: state.Slot[dict[str, Target]] = state.Slot("train_targets", dict)  # {source: its target}
PLAYING: state.Slot[bool] = state.Slot("learn_playing", lambda: False)  # the history is being played
SENT: state.Slot[bool] = state.Slot("learn_sent", lambda: False)  # the learned W went to the shared scenario
SECTION: state.Slot[str] = state.Slot("learn_section", lambda: "target")  # the open tab

# Widget keys.
SOURCE_KEY = "learn_source"
OPTIMISER_KEY = "learn_optimiser"
RATE_KEY = "learn_rate"
STEPS_KEY = "learn_steps"
SCALE_KEY = "learn_scale"
START_KEY = "learn_start"
SEED_KEY = "learn_seed"
OUTPUT_KEY = "learn_output"
LAMBDA_KEY = "learn_lambda"
STEP_KEY = "learn_step"


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

    def same(self, other: Case) -> bool:
        """The same tokens, x, mask and temperature (a run trained on one is a run of the other)."""
        return (
            self.tokens == other.tokens
            and self.x.shape == other.x.shape
            and np.array_equal(self.x, other.x)
            and (self.causal, self.temperature) == (other.causal, other.temperature)
        )


@st.cache_data(show_spinner=False, max_entries=2)
def sentence_x(d_model: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The sentence's tokens and x (embedding + positional encoding), computed once."""
    vectors = sentence_vectors(SENTENCE, d_model)
    return vectors.tokens, vectors.x


def current_source() -> str:
    """Which tokens are trained: "scenario" or "sentence" (the tokens picker's value, kept for the session)."""
    source = state.widget_value(SOURCE_KEY)
    return source if source in SOURCES else SOURCES[0]


def current_case() -> Case:
    """The chosen tokens: the shared scenario's (with its mask and temperature) or the sentence's, 8-d."""
    scenario = state.get_scenario()
    weights = (scenario.w_q, scenario.w_k, scenario.w_v)
    if current_source() == "sentence":
        tokens, x = sentence_x(SENTENCE_D_MODEL)
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


def default_preset(tokens) -> str:
    """«tiene» → «perro» when both words are there (the lesson's question), else each token at the previous."""
    return "tiene_perro" if preset_available("tiene_perro", tokens) else "previous"


def _store_target(source: str, target: Target) -> None:
    TARGETS.set({**TARGETS.get(), source: target})


def current_target(case: Case) -> Target:
    """The source's target, rebuilt from a preset when the tokens or the mask changed since it was made."""
    target = TARGETS.get().get(case.source)
    if target is not None and target.tokens == case.tokens and target.causal == case.causal:
        return target
    kept = target.preset if target is not None else None
    preset = kept if kept is not None and preset_available(kept, case.tokens) else default_preset(case.tokens)
    fresh = Target(
        case.tokens, case.causal, target_preset(preset, case.tokens, mask=case.mask), preset, (), _rev(target) + 1
    )
    _store_target(case.source, fresh)
    return fresh


def _rev(target: Target | None) -> int:
    return 0 if target is None else target.rev


def _on_preset(widget_key: str) -> None:
    name = state.widget_value(widget_key)
    case = current_case()
    old = current_target(case)
    if name is None or not preset_available(name, case.tokens):
        return
    matrix = target_preset(name, case.tokens, mask=case.mask)
    _store_target(case.source, Target(case.tokens, case.causal, matrix, name, (), old.rev + 1))


def _on_target_edit(editor_key: str) -> None:
    case = current_case()
    old = current_target(case)
    matrix, errors = apply_matrix_edits(old.matrix, state.widget_value(editor_key) or {}, "T")
    try:
        checked = normalise_target(matrix, case.mask)
    except EngineInputError as error:
        params = dict(error.params)
        for name in ("row", "col"):
            if isinstance(index := params.get(name), int):
                params[name] = case.tokens[index]
        errors.append((error.code, params))
        _store_target(case.source, replace(old, rev=old.rev + 1))  # the editor shows the target it kept
        state.report_errors(errors)
        return
    renormalised = tuple((i, float(checked.row_sums[i])) for i in checked.renormalised_rows)
    _store_target(case.source, Target(case.tokens, case.causal, checked.target, None, renormalised, old.rev + 1))
    state.report_errors(errors)


def labels(prefix: str):
    """An option's label, `prefix.<option>` in the language of this run (fixed now, so that every call of the
    widget's format function, even one made outside the run, names the options the same way)."""
    lang = state.current_language()
    return lambda option: translate(lang, f"{prefix}.{option}")


def written(write, *args):
    """A number option written in the language of this run (see `labels`)."""
    lang = state.current_language()
    return lambda value: write(value, *args, lang=lang)


def tokens_line(tokens) -> str:
    """The tokens for markdown, shown as typed: el · perro · come."""
    return " · ".join(md_literal(token) for token in tokens)


def quoted(tokens) -> str:
    """Tokens in quotes, for markdown: «perro», «come»."""
    return ", ".join(t("learn.quoted", token=md_literal(token)) for token in tokens)


def target_spec(target: Target, case: Case, key_title: str = "learn.target.title") -> Heatmap:
    """The target as a heatmap of weights (masked cells marked)."""
    return Heatmap(
        target.matrix,
        list(case.tokens),
        list(case.tokens),
        t(key_title),
        kind="weights",
        row_title=t("matrix.rows_query"),
        col_title=t("matrix.cols_key"),
        masked=_masked(case),
    )


def _masked(case: Case) -> np.ndarray | None:
    return ~np.tril(np.ones((case.n, case.n), dtype=bool)) if case.causal else None


def target_editor_ui(case: Case, target: Target) -> None:
    """The target as text cells (rows: the token that looks; columns: the token looked at)."""
    if grids_wait():
        return
    frame = pd.DataFrame(
        [[numbers.short(v, 6) for v in row] for row in target.matrix],
        columns=[column_name(j) for j in range(case.n)],
        index=list(case.tokens),
    )
    key = f"learn_target_editor_{case.source}_{target.rev}"
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config={column_name(j): editors.number_column(token) for j, token in enumerate(case.tokens)},
        on_change=_on_target_edit,
        args=(key,),
        width="stretch",
    )


def renormalised_ui(case: Case, target: Target) -> None:
    """Which rows of an edited target were divided by their sum, and what they added up to."""
    if not target.renormalised:
        return
    rows = quoted(case.tokens[i] for i, _ in target.renormalised)
    sums = ", ".join(numbers.short(total, 3) for _, total in target.renormalised)
    st.info(plural("learn.target.renormalised", len(target.renormalised), rows=rows, sums=sums))


@st.fragment(key="learn_target")
def target_ui() -> None:
    """Tokens, a preset or a hand-edited target, and the target as a heatmap."""
    st.header(t("learn.target.header"))
    st.markdown(t("learn.target.body"))
    st.segmented_control(
        t("learn.source"),
        SOURCES,
        format_func=labels("learn.source"),
        default=SOURCES[0],
        required=True,
        key=SOURCE_KEY,
        persist_state="session",
    )
    case = current_case()
    target = current_target(case)
    st.caption(plural("learn.tokens", case.n, tokens=tokens_line(case.tokens)))
    if case.causal:
        st.caption(t("learn.causal_note"))
    presets = [name for name in TARGET_PRESETS if preset_available(name, case.tokens)]
    widget_key = f"learn_preset_{case.source}_{target.rev}"
    st.segmented_control(
        t("learn.preset"),
        presets,
        format_func=labels("learn.preset"),
        default=target.preset,
        key=widget_key,
        on_change=_on_preset,
        args=(widget_key,),
    )
    notes = [t("learn.subject_note", token=md_literal(case.tokens[subject_index(case.tokens)]))]
    if "tiene_perro" not in presets:
        notes.append(t("learn.tiene_perro_missing"))
    st.caption(" ".join(notes))
    figure_col, edit_col = st.columns([1, 1])
    with figure_col:
        charts.show_heatmap(target_spec(target, case), key="learn_target_figure")
    with edit_col:
        st.markdown(t("learn.target.edited") if target.preset is None else t(f"learn.target.is.{target.preset}"))
        errors_ui()
        renormalised_ui(case, target)
        editor = editors.editor_fold(
            t("learn.target.edit"), "learn_target_edit_open", expanded=not state.presentation_mode()
        )
        if editor is not None:  # a folded editor is not built at all
            with editor:
                st.caption(t("learn.target.edit_help"))
                target_editor_ui(case, target)


# --- training ---


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


def matching_training(case: Case, target: Target) -> Training | None:
    """The stored run if it trained these tokens toward this target, else None."""
    training = TRAIN.get()
    if training is None or not training.case.same(case):
        return None
    if not np.array_equal(training.run.objective.target, target.matrix):
        return None
    return training


def start_choices(case: Case) -> list[str]:
    """The scenario's W (when they fit x) and a seeded random start."""
    return list(STARTS) if case.scenario_w is not None else ["random"]


def start_key(case: Case) -> str:
    """The start picker's key: its options differ with the source and the scenario's size."""
    return f"{START_KEY}_{case.source}_{len(start_choices(case))}"  # its options differ with the scenario's size


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


def error_text(error: EngineInputError) -> str:
    """The engine's refusal in the reader's language (its English message when this page has no words for it)."""
    key = f"error.{error.code}"
    if key in LANGUAGES[state.current_language()]:
        return tm(key, **error.params)
    return tm("learn.refused", message=str(error))


def _on_optimiser() -> None:
    optimiser = state.widget_value(OPTIMISER_KEY)
    if optimiser in DEFAULT_RATE:
        state.set_widget(RATE_KEY, DEFAULT_RATE[optimiser])


def _default(key: str, value: object) -> None:
    """A widget's first value, set through its key (a widget given both a value and a key's state warns)."""
    if state.widget_value(key) is None:
        state.set_widget(key, value)


def controls_ui(case: Case, disabled: bool, container) -> Options:
    """Optimiser, learning rate, steps, scale, start and seed; W_V toward a target output, optionally."""
    with container:
        return _controls(case, disabled)


def _one_of(column, prefix: str, options: list, key: str, disabled: bool, default=None, **extra):
    """A required segmented control labelled "<prefix>", its options named "<prefix>.<option>", kept per session;
    the first option by default."""
    return column.segmented_control(
        t(prefix),
        options,
        format_func=labels(prefix),
        default=options[0] if default is None else default,
        required=True,
        key=key,
        disabled=disabled,
        persist_state="session",
        **extra,
    )


def _controls(case: Case, disabled: bool) -> Options:
    _default(RATE_KEY, DEFAULT_RATE[Optimiser.ADAM])
    first, second, third = st.columns(3)
    optimiser = _one_of(
        first,
        "learn.optimiser",
        list(Optimiser),
        OPTIMISER_KEY,
        disabled,
        default=Optimiser.ADAM,
        on_change=_on_optimiser,
        help=t("learn.optimiser_help"),
    )
    rate = second.select_slider(
        t("learn.rate"),
        LEARNING_RATES,
        format_func=written(numbers.short, 3),
        key=RATE_KEY,
        help=t("learn.rate_help"),
        disabled=disabled,
        persist_state="session",
    )
    steps = number_slider(
        t("learn.steps"),
        *STEPS_RANGE,
        10,
        DEFAULT_STEPS,
        decimals=0,
        where=third,
        key=STEPS_KEY,
        disabled=disabled,
        persist_state="session",
    )
    first, second, third = st.columns(3)
    scale = _one_of(first, "scenario.scale", list(Scale), SCALE_KEY, disabled, default=Scale.SQRT)
    choices = start_choices(case)
    start = _one_of(second, "learn.start", choices, start_key(case), disabled)
    start = start if start in choices else choices[0]
    seed = third.number_input(
        t("learn.seed"),
        min_value=SEED_RANGE[0],
        max_value=SEED_RANGE[1],
        value=0,
        step=1,
        key=SEED_KEY,
        help=t("learn.seed_help"),
        disabled=disabled or start != "random",
        persist_state="session",
    )
    if case.source == "sentence" and case.scenario_w is None:
        st.caption(t("learn.start_sentence_note", d=numbers.count(SENTENCE_D_MODEL)))
    fits = output_fits(case, start)
    toggle_col, weight_col = st.columns([3, 2])
    learn_w_v = toggle_col.toggle(
        t("learn.output"),
        key=OUTPUT_KEY,
        help=t("learn.output_help"),
        disabled=disabled or not fits,
        persist_state="session",
    )
    output_weight = 1.0
    if learn_w_v and fits:
        output_weight = number_slider(
            t("learn.lambda"),
            0.1,
            OUTPUT_WEIGHT_RANGE[1],
            0.1,
            1.0,
            decimals=1,
            where=weight_col,
            key=LAMBDA_KEY,
            disabled=disabled,
            persist_state="session",
        )
    elif not fits:
        toggle_col.caption(t("learn.output_needs_size"))
    return Options(
        optimiser=Optimiser(optimiser or Optimiser.ADAM),
        learning_rate=float(rate or DEFAULT_RATE[Optimiser.ADAM]),
        steps=int(steps),
        scale=Scale(scale or Scale.SQRT),
        start=start,
        seed=int(seed if seed is not None else 0),
        learn_w_v=bool(learn_w_v and fits),
        output_weight=float(output_weight),
    )


def _on_train() -> None:
    """Start a run with the controls' values as they are now (not as they were when the button was drawn)."""
    case = current_case()
    options = controls_ui_values(case)
    try:
        first = start_run(case, current_target(case), options)
    except EngineInputError:
        return  # the page says why when it draws
    TRAIN.set(Training(case=case, run=first, goal=options.steps, status="running"))
    PLAYING.set(False)
    SENT.set(False)


def _on_stop() -> None:
    training = TRAIN.get()
    if training is not None and training.running:
        TRAIN.set(replace(training, status="stopped"))


@st.fragment(run_every=FRAME_SECONDS)
def trainer_ui(target: Target) -> None:
    """While a run trains: one chunk each time the browser asks for one, with the Stop button and the run so far.

    The browser asks every FRAME_SECONDS, or later while it is still drawing the last chunk: a slow computer
    sees fewer chunks, never a backlog, and its Stop click is answered at the next chunk. When the run ends,
    the page is drawn again, which ends the timer (a fragment cannot end its own)."""
    training = TRAIN.get()
    if training is None or not training.running:
        st.rerun()
    st.button(t("learn.stop"), icon=":material/stop:", on_click=_on_stop, key="learn_stop", type="primary")
    training = advance(training)
    TRAIN.set(training)
    live_ui(training, target)
    if not training.running:
        st.rerun()


def output_formula_ui(options: Options) -> None:
    """The loss with the output term, when W_V is trained too."""
    if options.learn_w_v:
        st.latex(t("learn.loss.output_formula", weight=numbers.short(options.output_weight, 1)))


def loss_formula_ui(case: Case) -> None:
    """The loss in words and as a formula, and what a step does; folded in presentation mode, where the run
    itself should fit the projector (opened, it is the same text)."""
    container = st.expander(t("learn.loss.title")) if state.presentation_mode() else st.container()
    with container:
        st.markdown(plural("learn.loss.words", case.n, ln=numbers.fixed(math.log(max(case.n, 1)), 3)))
        st.latex(r"L = -\frac{1}{n}\sum_{i}\sum_{j} T_{ij}\,\log A_{ij}")
        st.markdown(t("learn.loss.step"))


def settings_text(run: TrainingRun) -> str:
    """The run's settings in one line: optimiser, rate, divisor, output term."""
    text = t(
        "learn.settings",
        optimiser=t(f"learn.optimiser.{run.optimiser}"),
        rate=numbers.short(run.learning_rate, 3),
        scale=t(f"learn.scale_name.{run.objective.scale}"),
    )
    if run.learns_w_v:
        text += " " + t("learn.settings_output", weight=numbers.short(run.objective.output_weight, 1))
    return text


def weights_spec(case: Case, weights: np.ndarray, title: str) -> Heatmap:
    """Attention weights as a heatmap: rows the token that looks, columns the token looked at."""
    return Heatmap(
        weights,
        list(case.tokens),
        list(case.tokens),
        title,
        kind="weights",
        row_title=t("matrix.rows_query"),
        col_title=t("matrix.cols_key"),
        masked=_masked(case),
    )


def loss_chart(training: Training, marker: int | None = None) -> None:
    """The loss at every step so far, on an axis as long as the run asked for; the floor dashed."""
    run = training.run
    length = max(training.goal, run.steps) + 1
    losses = np.full(length, np.nan)  # steps not trained yet are gaps: the axis already shows the whole run
    losses[: run.steps + 1] = run.losses
    floor_name = t("learn.chart.floor")
    charts.show_lines(
        list(range(length)),
        {t("learn.chart.loss"): losses, floor_name: np.full(length, run.objective.floor)},
        dashed=(floor_name,),
        title=t("learn.chart.loss_title"),
        x_title=t("learn.chart.step"),
        y_title=t("learn.chart.loss_axis"),
        highlight=None if marker is None else (marker - 0.5, marker + 0.5),
        narrow=True,
        alt=t(
            "learn.chart.loss_alt",
            steps=numbers.count(run.steps),
            start=numbers.fixed(run.losses[0], 3),
            end=numbers.fixed(run.losses[-1], 3),
        ),
        key="learn_loss",
    )


def pair_ui(case: Case, target: Target, weights: np.ndarray, title: str) -> None:
    """The attention beside the target it will be trained toward."""
    charts.show_row(
        [weights_spec(case, weights, title), target_spec(target, case)], keys=["learn_attention", "learn_goal"]
    )


def progress_view_ui(training: Training, target: Target, step: int, title: str, marker: int | None) -> None:
    """The attention at `step` beside the loss curve (the two change together), then the target it aims at.

    Side by side for a few tokens; stacked for more, where the two would not fit beside the sidebar at their
    own size (a figure squeezed into a narrower column is redrawn smaller after each frame: it would flicker)."""
    run, case = training.run, training.case
    spec = weights_spec(case, run.weights[step], title)
    if case.n > SIDE_BY_SIDE_TOKENS:
        charts.show_heatmap(spec, key="learn_attention")
        loss_chart(training, marker)
    else:
        attention_col, loss_col = st.columns(2)
        with attention_col:
            charts.show_heatmap(spec, key="learn_attention")
        with loss_col:
            loss_chart(training, marker)
    charts.show_heatmap(target_spec(target, case), key="learn_goal")


def live_ui(training: Training, target: Target) -> None:
    """While training: the progress bar, the attention now beside the target, and the loss so far."""
    run = training.run
    st.progress(
        min(run.steps / training.goal, 1.0),
        text=t(
            "learn.progress",
            step=numbers.count(run.steps),
            goal=numbers.count(training.goal),
            loss=numbers.fixed(run.losses[-1], 4),
        ),
    )
    step = run.steps
    progress_view_ui(training, target, step, t("learn.attention_now", step=numbers.count(step)), None)


def outcome_text(training: Training) -> str:
    """How the run ended: done, stopped or diverged; its loss; whether and when it converged."""
    run = training.run
    start, end = numbers.fixed(run.losses[0], 3), numbers.fixed(run.losses[-1], 4)
    steps = numbers.count(run.steps)
    if run.diverged:
        return t("learn.outcome.diverged", steps=steps)
    head = t("learn.outcome.stopped", steps=steps, goal=numbers.count(training.goal))
    if training.status == "done":
        head = t("learn.outcome.done", steps=steps)
    text = head + " " + t("learn.outcome.loss", start=start, end=end)
    tolerance, floor = numbers.short(run.tolerance, 3), numbers.fixed(run.objective.floor, 3)
    if run.converged_at is not None:
        return text + " " + t("learn.outcome.converged", step=numbers.count(run.converged_at), tol=tolerance)
    return text + " " + t("learn.outcome.not_converged", tol=tolerance, floor=floor)


def _on_play(steps: int) -> None:
    PLAYING.set(True)
    if (state.widget_value(STEP_KEY) or 0) >= steps:
        state.set_widget(STEP_KEY, 0)


def _on_pause() -> None:
    PLAYING.set(False)
    st.rerun("learn_watch")  # the player stops only when the fragment around it draws without it


def frame_ui(training: Training, target: Target, playing: bool) -> None:
    """The play button, the step slider, the attention at that step beside the target, and the loss curve."""
    run = training.run
    button_col, slider_col = st.columns([1, 4], vertical_alignment="bottom")
    if playing:
        button_col.button(
            t("learn.pause"), icon=":material/pause:", on_click=_on_pause, key="learn_pause", width="stretch"
        )
    else:
        button_col.button(
            t("learn.play"),
            icon=":material/play_arrow:",
            on_click=_on_play,
            args=(run.steps,),
            key="learn_play",
            width="stretch",
            disabled=run.steps == 0,
        )
    step = slider_col.slider(t("learn.step"), 0, max(run.steps, 1), key=STEP_KEY, disabled=run.steps == 0)
    step = min(int(step), run.steps)
    st.caption(t("learn.reading", step=numbers.count(step), loss=numbers.fixed(run.losses[step], 4)))
    progress_view_ui(training, target, step, t("learn.attention_at", step=numbers.count(step)), step)


@st.fragment(run_every=PLAY_INTERVAL)
def player_ui(training: Training, target: Target) -> None:
    """While playing: every PLAY_INTERVAL seconds, the next frame; at the last step, stop."""
    steps = training.run.steps
    step = min(int(state.widget_value(STEP_KEY) or 0) + max(1, math.ceil(steps / PLAY_FRAMES)), steps)
    state.set_widget(STEP_KEY, step)
    at_end = step >= steps
    if at_end:
        PLAYING.set(False)
    frame_ui(training, target, playing=not at_end)
    if at_end:
        st.rerun()  # the page's run stops the timer (a fragment cannot stop its own)


@st.fragment(key="learn_watch")
def watch_ui(target: Target) -> None:
    """Scrub the history with the slider, or play it."""
    training = TRAIN.get()
    if training is None:
        return
    step = state.widget_value(STEP_KEY)
    if step is None or not 0 <= int(step) <= training.run.steps:
        state.set_widget(STEP_KEY, training.run.steps)  # a new run opens at its last step
    if PLAYING.get():
        player_ui(training, target)
    else:
        frame_ui(training, target, playing=False)


def train_tab_ui() -> None:
    """The loss in words and as a formula, then the training itself."""
    st.header(t("learn.train.header"))
    loss_formula_ui(current_case())
    train_ui()


@st.fragment(key="learn_train")
def train_ui() -> None:
    """The controls, Train / Stop, and the run: live while it trains, then its history. Each chunk reruns this
    fragment only, so the formula above is not redrawn every few steps."""
    case = current_case()
    target = current_target(case)
    training = matching_training(case, target)
    running = training is not None and training.running
    if state.presentation_mode():  # folded: a lecturer shows the defaults, and the page fits the projector
        folded = st.expander(t("learn.controls"), key="learn_controls_open", on_change="rerun")
        options = controls_ui(case, running, folded) if folded.open else controls_ui_values(case)
    else:
        options = controls_ui(case, running, st.container(border=True))
    output_formula_ui(options)
    if running:
        trainer_ui(target)
        return
    try:
        first = start_run(case, target, options)
    except EngineInputError as error:
        st.error(error_text(error))
        return
    if questions.gate_ui("learning.train", LearningView(case.tokens, first)):  # predict before training
        st.button(
            t("learn.train"),
            icon=":material/model_training:",
            on_click=_on_train,
            key="learn_go",
            type="primary",
        )
    if training is None:
        st.markdown(t("learn.before"))
        pair_ui(case, target, first.weights[0], t("learn.attention_start"))
        return
    message = st.success if training.status == "done" and training.run.converged else st.info
    message(outcome_text(training))
    st.caption(t("learn.trained_with", settings=settings_text(training.run)))
    watch_ui(target)


def controls_ui_values(case: Case) -> Options:
    """The controls' values while they are folded away (presentation mode): as last set, or the defaults."""
    choices = start_choices(case)
    start = state.widget_value(start_key(case))
    learn_w_v = bool(state.widget_value(OUTPUT_KEY))
    start = start if start in choices else choices[0]
    return Options(
        optimiser=Optimiser(state.widget_value(OPTIMISER_KEY) or Optimiser.ADAM),
        learning_rate=float(state.widget_value(RATE_KEY) or DEFAULT_RATE[Optimiser.ADAM]),
        steps=int(state.widget_value(STEPS_KEY) or DEFAULT_STEPS),
        scale=Scale(state.widget_value(SCALE_KEY) or Scale.SQRT),
        start=start,
        seed=int(state.widget_value(SEED_KEY) or 0),
        learn_w_v=learn_w_v and output_fits(case, start),
        output_weight=float(state.widget_value(LAMBDA_KEY) or 1.0),
    )


# --- inside: W_Q and W_K before and after, the gradient of one weight, the two roles ---


def no_run_ui() -> Training | None:
    """The run for the chosen tokens and target, or a note that there is none yet."""
    case = current_case()
    training = matching_training(case, current_target(case))
    if training is None or training.running:
        st.info(t("learn.no_run"))
        return None
    return training


def matrix_spec(w: np.ndarray, title: str, zrange, show_scale: bool, decimals: int = 2) -> Heatmap:
    """A weight matrix (or its gradient) as a heatmap: rows the dimensions of x, columns those of the output."""
    return Heatmap(
        w,
        [f"x{i}" for i in range(w.shape[0])],
        charts.dims(w.shape[1]),
        title,
        row_title=t("matrix.rows_x"),
        col_title=t("matrix.cols_out"),
        zrange=zrange,
        show_scale=show_scale,
        decimals=decimals,
    )


def before_after_ui(run: TrainingRun) -> None:
    """Each W before and after, the two on one colour scale."""
    pairs = [("W_Q", run.w_q_start, run.w_q), ("W_K", run.w_k_start, run.w_k)]
    if run.learns_w_v:
        pairs.append(("W_V", run.w_v_start, run.w_v))
    for name, before, after in pairs:
        shared = figure_specs.signed_range(before, after)
        charts.show_row(
            [
                matrix_spec(before, t("learn.inside.before", w=name), shared, False),
                matrix_spec(after, t("learn.inside.after", w=name), shared, True),
            ],
            keys=[f"learn_{name}_before", f"learn_{name}_after"],
        )


@st.fragment(key="learn_gradient")
def gradient_ui(training: Training) -> None:
    """∂A_ij/∂W_Q and ∂A_ij/∂W_K for a chosen cell, at the weights the run reached (or those it started from)."""
    case, run = training.case, training.run
    st.subheader(t("learn.gradient.header"))
    st.markdown(t("learn.gradient.body"))
    tokens = list(case.tokens)
    row_col, col_col, when_col = st.columns(3)
    default_row = tokens.index("tiene") if "tiene" in tokens else min(1, len(tokens) - 1)
    asker = row_col.selectbox(
        t("learn.gradient.row"), tokens, index=default_row, key=f"learn_grad_row_{case.source}_{len(tokens)}"
    )
    goal = int(np.argmax(run.objective.target[tokens.index(asker)]))
    looked = col_col.selectbox(
        t("learn.gradient.col"), tokens, index=goal, key=f"learn_grad_col_{case.source}_{len(tokens)}_{asker}"
    )
    when = when_col.segmented_control(
        t("learn.gradient.when"),
        ("start", "end"),
        format_func=labels("learn.gradient.when"),
        default="end",
        required=True,
        key="learn_grad_when",
    )
    w_q, w_k = (run.w_q_start, run.w_k_start) if when == "start" else (run.w_q, run.w_k)
    i, j = tokens.index(asker), tokens.index(looked)
    if case.causal and j > i:
        st.warning(tm("learn.gradient.masked", i=asker, j=looked))
        return
    gradient = weight_gradient(
        case.x, w_q, w_k, i, j, scale=run.objective.scale, mask=case.mask, temperature=case.temperature
    )
    shared = figure_specs.signed_range(gradient.grad_w_q, gradient.grad_w_k)
    cell = t("learn.gradient.cell", i=asker, j=looked)
    charts.show_row(
        [
            matrix_spec(gradient.grad_w_q, t("learn.gradient.title", w="W_Q", cell=cell), shared, False, 3),
            matrix_spec(gradient.grad_w_k, t("learn.gradient.title", w="W_K", cell=cell), shared, True, 3),
        ],
        keys=["learn_grad_q", "learn_grad_k"],
    )
    size = float(np.sqrt(np.sum(gradient.grad_w_q**2) + np.sum(gradient.grad_w_k**2)))
    reading = tm(
        "learn.gradient.reading",
        i=asker,
        j=looked,
        weight=numbers.fixed(gradient.weight, 3),
        when=t(f"learn.gradient.when_text.{when}"),
        size=numbers.general(size),
    )
    if min(gradient.weight, 1 - gradient.weight) < SATURATED:
        reading += " " + t("learn.gradient.saturated")
    st.markdown(reading)


def roles_ui(training: Training) -> None:
    """Whether the scores became one-way where the target is: S − Sᵀ against T − Tᵀ."""
    st.subheader(t("learn.roles.header"))
    st.markdown(t("learn.roles.body"))
    roles = role_asymmetry(training.run)
    if roles.alignment_start is None or roles.alignment_end is None:
        st.info(t("learn.roles.symmetric"))
        return
    tokens = training.case.tokens
    i, j = roles.pair
    a, b = tokens[i], tokens[j]
    target = training.run.objective.target
    st.markdown(
        tm(
            "learn.roles.pair",
            a=a,
            b=b,
            t_ab=numbers.fixed(target[i, j], 2),
            t_ba=numbers.fixed(target[j, i], 2),
        )
    )
    before, after = t("learn.roles.before"), t("learn.roles.after")
    frame = pd.DataFrame(
        {
            "": [
                t("learn.roles.score", a=a, b=b),
                t("learn.roles.score", a=b, b=a),
                t("learn.roles.weight", a=a, b=b),
                t("learn.roles.weight", a=b, b=a),
            ],
            before: [*roles.scores_pair_start, *roles.weights_pair_start],
            after: [*roles.scores_pair_end, *roles.weights_pair_end],
        }
    )
    table_col, metric_col = st.columns([3, 2])
    with table_col:
        table_ui(frame, 3)
    metric_col.metric(
        t("learn.roles.alignment"),
        numbers.fixed(roles.alignment_end, 2),
        delta=numbers.fixed(roles.alignment_end - roles.alignment_start, 2, sign=True),
        help=t("learn.roles.alignment_help"),
    )
    metric_col.caption(t("learn.roles.alignment_start", value=numbers.fixed(roles.alignment_start, 2)))
    used = roles.alignment_end - roles.alignment_start > ALIGNMENT_GAIN and roles.alignment_end > ALIGNMENT_USED
    reading = t(
        "learn.roles.used" if used else "learn.roles.not_used",
        start=numbers.fixed(roles.alignment_start, 2),
        end=numbers.fixed(roles.alignment_end, 2),
    )
    st.markdown(reading + " " + t("learn.roles.caveat"))


@st.fragment(key="learn_inside")
def inside_ui() -> None:
    """W_Q and W_K before and after, the gradient of one weight, and the roles of the two matrices."""
    st.header(t("learn.inside.header"))
    training = no_run_ui()
    if training is None:
        return
    st.markdown(t("learn.inside.body"))
    before_after_ui(training.run)
    gradient_ui(training)
    roles_ui(training)


# --- the stall without dividing, measured both ways ---


@st.cache_data(show_spinner=False, max_entries=16)
def cached_stall(d_k: int, seed: int) -> tuple[StallExperiment, TrainingRun, TrainingRun]:
    """The engine's experiment (loss at the output), and the same start trained with the loss on the weights."""
    experiment = stall_experiment(d_k=d_k, seed=seed)
    first = experiment.unscaled
    options = dict(
        start=(first.w_q_start, first.w_k_start, first.w_v_start),
        optimiser=Optimiser.GD,
        learning_rate=first.learning_rate,
    )
    on_weights = [
        train(first.objective.x, first.objective.target, first.steps, scale=scale, **options)
        for scale in (Scale.NONE, Scale.SQRT)
    ]
    return experiment, on_weights[0], on_weights[1]


def padded(values: np.ndarray, length: int) -> np.ndarray:
    """A run's history as long as the others: a run that diverged early ends in gaps."""
    out = np.full(length, np.nan)
    out[: len(values)] = values
    return out


def run_fate(run: TrainingRun) -> str:
    """How a run of the experiment ended, in words: converged at a step, diverged, or stuck."""
    if run.diverged:
        return t("learn.stall.fate.diverged", step=numbers.count(run.steps))
    if run.converged_at is not None:
        return t("learn.stall.fate.converged", step=numbers.count(run.converged_at), tol=numbers.short(run.tolerance))
    return t("learn.stall.fate.stuck", start=numbers.fixed(run.losses[0], 3), end=numbers.fixed(run.losses[-1], 3))


def stall_frame(experiment: StallExperiment) -> pd.DataFrame:
    """The experiment's key numbers side by side: saturation, gradient, loss and convergence."""
    runs = (experiment.unscaled, experiment.scaled)
    step = min(STALL_GRADIENT_STEP, experiment.unscaled.steps)
    return pd.DataFrame(
        {
            t("learn.stall.col.divisor"): [t("learn.series.none"), t("learn.series.sqrt")],
            t("learn.stall.col.peak", step=numbers.count(0)): experiment.peak_weight[:, 0],
            t("learn.stall.col.peak", step=numbers.count(1)): experiment.peak_weight[:, 1],
            t("learn.stall.col.gradient", step=numbers.count(step)): [
                numbers.general(run.gradient_norms[min(step, run.steps), 0]) for run in runs
            ],
            t("learn.stall.col.loss_end", step=numbers.count(experiment.unscaled.steps)): [
                run.losses[-1] for run in runs
            ],
            t("learn.stall.col.converged", tol=numbers.short(experiment.unscaled.tolerance)): [
                numbers.count(run.converged_at) if run.converged_at is not None else "—" for run in runs
            ],
        }
    )


@st.fragment(key="learn_stall")
def stall_ui() -> None:
    """The lesson's claim, measured: it holds with the loss at the output, not with the loss on the weights."""
    st.header(t("learn.stall.header"))
    st.markdown(t("learn.stall.body"))
    dk_col, seed_col = st.columns(2)
    d_k = dk_col.selectbox(
        t("learn.stall.d_k"),
        STALL_D_KS,
        index=STALL_D_KS.index(STALL_DEFAULT_D_K),
        format_func=written(numbers.count),
        key="learn_stall_dk",
        persist_state="session",
    )
    seed = seed_col.number_input(
        t("learn.seed"),
        min_value=SEED_RANGE[0],
        max_value=SEED_RANGE[1],
        value=0,
        step=1,
        key="learn_stall_seed",
        persist_state="session",
    )
    with st.spinner(t("learn.stall.running")):
        experiment, ce_none, ce_sqrt = cached_stall(int(d_k), int(seed))
    unscaled, scaled = experiment.unscaled, experiment.scaled
    length = unscaled.steps + 1
    steps = list(range(length))
    none_name = t("learn.series.none")
    sqrt_name = t("learn.series.sqrt_value", value=numbers.short(math.sqrt(d_k), 2))

    st.subheader(t("learn.stall.output.header"))
    st.markdown(
        plural(
            "learn.stall.output.body",
            experiment.n,
            d_k=numbers.count(d_k),
            rate=numbers.short(unscaled.learning_rate),
            steps=numbers.count(unscaled.steps),
        )
    )
    loss_col, gradient_col = st.columns(2)
    with loss_col:
        charts.show_lines(
            steps,
            {none_name: padded(unscaled.losses, length), sqrt_name: padded(scaled.losses, length)},
            title=t("learn.stall.output.loss_title"),
            x_title=t("learn.chart.step"),
            y_title=t("learn.stall.output.loss_axis"),
            narrow=True,
            alt=t("learn.stall.output.loss_alt", d_k=numbers.count(d_k)),
            key="learn_stall_loss",
        )
    with gradient_col:
        charts.show_lines(
            steps,
            {
                none_name: padded(unscaled.gradient_norms[:, 0], length),
                sqrt_name: padded(scaled.gradient_norms[:, 0], length),
            },
            title=t("learn.stall.output.gradient_title"),
            x_title=t("learn.chart.step"),
            y_title=t("learn.stall.output.gradient_axis"),
            narrow=True,
            alt=t("learn.stall.output.gradient_alt", d_k=numbers.count(d_k)),
            key="learn_stall_gradient",
        )
    table_ui(stall_frame(experiment), 3)
    st.markdown(
        t("learn.stall.output.reading", none=run_fate(unscaled), sqrt=run_fate(scaled))
        + " "
        + t(
            f"learn.stall.output.{stall_verdict(unscaled, scaled)}",
            d_k=numbers.count(d_k),
            steps=numbers.count(unscaled.steps),
            peak_none=numbers.fixed(experiment.peak_weight[0, 0], 2),
            peak_sqrt=numbers.fixed(experiment.peak_weight[1, 0], 2),
        )
    )

    st.subheader(t("learn.stall.weights.header"))
    st.markdown(t("learn.stall.weights.body"))
    st.latex(r"\frac{\partial L}{\partial z_{ij}} = \frac{A_{ij} - T_{ij}}{n}")
    charts.show_lines(
        steps,
        {none_name: padded(ce_none.losses, length), sqrt_name: padded(ce_sqrt.losses, length)},
        title=t("learn.stall.weights.loss_title"),
        x_title=t("learn.chart.step"),
        y_title=t("learn.chart.loss_axis"),
        narrow=True,
        alt=t("learn.stall.weights.loss_alt", d_k=numbers.count(d_k)),
        key="learn_stall_ce",
    )
    st.markdown(t("learn.stall.weights.reading", none=run_fate(ce_none), sqrt=run_fate(ce_sqrt)))
    st.markdown(t("learn.stall.conclusion"))


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


def _on_send() -> None:
    training = TRAIN.get()
    if training is None:
        return
    state.set_scenario(learned_scenario(training, state.get_scenario()))
    SENT.set(True)


def sendable(training: Training) -> bool:
    """The scenario's tokens must still be the trained ones (the sentence replaces them, so it always fits)."""
    if training.case.source == "sentence":
        return True
    scenario = state.get_scenario()
    scenario_case = Case(
        "scenario", scenario.tokens, scenario.x, scenario.causal, scenario.temperature, None, scenario.d_k
    )
    return training.case.same(scenario_case)


@st.fragment(key="learn_send")
def send_ui() -> None:
    """The learned W into the shared scenario, with links to the walkthrough and the builder."""
    st.header(t("learn.send.header"))
    training = no_run_ui()
    if training is None:
        return
    case = training.case
    st.markdown(t("learn.send.body"))
    scale = t(f"learn.scale_name.{training.run.objective.scale}")
    if case.source == "sentence":
        st.markdown(plural("learn.send.sentence", case.n, d=numbers.count(case.x.shape[1]), scale=scale))
    else:
        same_v = np.array_equal(training.run.w_v, state.get_scenario().w_v)
        st.markdown(t("learn.send.scenario", scale=scale, matrices=t(f"learn.send.matrices.{2 if same_v else 3}")))
    if not sendable(training):
        st.warning(t("learn.send.changed"))
        return
    st.button(
        t("learn.send.button"), icon=":material/send:", on_click=_on_send, key="learn_send_button", type="primary"
    )
    if SENT.get():
        st.success(t("learn.send.done"))
        link_col, builder_col = st.columns(2)
        link_col.page_link(
            "pages/walkthrough.py",
            label=t("learn.send.to_walkthrough"),
            icon=":material/footprint:",
            query_params={"step": "4"},
        )
        builder_col.page_link("pages/builder.py", label=t("learn.send.to_builder"), icon=":material/grid_on:")
    charts.show_heatmap(weights_spec(case, training.run.weights[-1], t("learn.send.learned")), key="learn_send_weights")


# --- the tabs ---


SECTIONS = {"target": target_ui, "train": train_tab_ui, "inside": inside_ui, "stall": stall_ui, "send": send_ui}


def _on_section(widget_key: str, labels: list[str]) -> None:
    SECTION.set(list(SECTIONS)[labels.index(state.widget_value(widget_key))])


def sections_ui() -> None:
    """One section at a time, as tabs that run only when open (a lecturer shows one idea at a time)."""
    labels = [t(f"learn.tab.{name}") for name in SECTIONS]
    current = SECTION.get()
    widget_key = f"learn_tabs_{state.current_language()}"  # the labels change with the language
    tabs = st.tabs(
        labels,
        default=labels[list(SECTIONS).index(current)],
        key=widget_key,
        on_change=_on_section,
        args=(widget_key, labels),
    )
    for draw, tab in zip(SECTIONS.values(), tabs, strict=True):
        if tab.open:
            with tab:
                draw()
