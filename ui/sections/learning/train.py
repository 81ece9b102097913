"""The learning page's training tab: the loss, the controls, Train / Stop, the run live and then its history.

Training runs in chunks: a fragment with a timer trains a few steps each time the browser asks, stores the run
and shows it. That is what lets the progress bar move and the Stop button work (a click inside a fragment never
interrupts a run in progress: it waits for it to end, and a chunk ends soon), and what keeps a slow browser
from falling behind: it asks for the next chunk only once it has drawn the last. The run itself is the
view-model's (`ui.view_models.learning`: start, advance, stop); this module keeps it in the session and draws it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import EngineInputError, Optimiser, Scale, TrainingRun
from engine.limits import OUTPUT_WEIGHT_RANGE
from engine.questions import LearningView
from ui import charts, numbers, questions, state
from ui.i18n import LANGUAGES, plural, t, tm
from ui.sections.learning.common import (
    PLAYING,
    SENT,
    TRAIN,
    current_case,
    current_target,
    labels,
    target_spec,
    weights_spec,
    written,
)
from ui.sliders import number_slider, seed_input
from ui.view_models import learning as model
from ui.view_models.learning import Case, Options, Target, Training

T = TypeVar("T")  # a segmented control's option

FRAME_SECONDS = 0.2  # the browser asks for the next chunk this long after the last (or later, if still drawing)
PLAY_INTERVAL = 0.5  # seconds between two frames of the replay

# Widget keys.
OPTIMISER_KEY = "learn_optimiser"
RATE_KEY = "learn_rate"
STEPS_KEY = "learn_steps"
SCALE_KEY = "learn_scale"
START_KEY = "learn_start"
SEED_KEY = "learn_seed"
OUTPUT_KEY = "learn_output"
LAMBDA_KEY = "learn_lambda"
STEP_KEY = "learn_step"


# --- the controls ---


def start_key(case: Case) -> str:
    """The start picker's key: its options differ with the source and the scenario's size."""
    return f"{START_KEY}_{case.source}_{len(model.start_choices(case))}"


def error_text(error: EngineInputError) -> str:
    """The engine's refusal in the reader's language (its English message when this page has no words for it)."""
    key = f"error.{error.code}"
    if key in LANGUAGES[state.current_language()]:
        return tm(key, **error.params)
    return tm("learn.refused", message=str(error))


def _on_optimiser() -> None:
    optimiser = state.widget_value(OPTIMISER_KEY)
    if optimiser in model.DEFAULT_RATE:
        state.set_widget(RATE_KEY, model.DEFAULT_RATE[optimiser])


def _default(key: str, value: object) -> None:
    """A widget's first value, set through its key (a widget given both a value and a key's state warns)."""
    if state.widget_value(key) is None:
        state.set_widget(key, value)


def _one_of(
    column: DeltaGenerator,
    prefix: str,
    options: Sequence[T],
    key: str,
    disabled: bool,
    default: T | None = None,
    **extra: Any,
) -> T:
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


def controls_ui(case: Case, disabled: bool, container: DeltaGenerator) -> Options:
    """Optimiser, learning rate, steps, scale, start and seed; W_V toward a target output, optionally."""
    with container:
        return _controls(case, disabled)


def _controls(case: Case, disabled: bool) -> Options:
    _default(RATE_KEY, model.DEFAULT_RATE[Optimiser.ADAM])
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
        model.LEARNING_RATES,
        format_func=written(numbers.short, 3),
        key=RATE_KEY,
        help=t("learn.rate_help"),
        disabled=disabled,
        persist_state="session",
    )
    steps = number_slider(
        t("learn.steps"),
        *model.STEPS_RANGE,
        10,
        model.DEFAULT_STEPS,
        decimals=0,
        where=third,
        key=STEPS_KEY,
        disabled=disabled,
        persist_state="session",
    )
    first, second, third = st.columns(3)
    scale = _one_of(first, "scenario.scale", list(Scale), SCALE_KEY, disabled, default=Scale.SQRT)
    choices = model.start_choices(case)
    start = _one_of(second, "learn.start", choices, start_key(case), disabled)
    start = start if start in choices else choices[0]
    seed = seed_input(
        third, t("learn.seed"), SEED_KEY, help=t("learn.seed_help"), disabled=disabled or start != "random"
    )
    if case.source == "sentence" and case.scenario_w is None:
        st.caption(t("learn.start_sentence_note", d=numbers.count(model.SENTENCE_D_MODEL)))
    fits = model.output_fits(case, start)
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
        learning_rate=float(rate or model.DEFAULT_RATE[Optimiser.ADAM]),
        steps=int(steps),
        scale=Scale(scale or Scale.SQRT),
        start=start,
        seed=seed,
        learn_w_v=bool(learn_w_v and fits),
        output_weight=float(output_weight),
    )


def controls_values(case: Case) -> Options:
    """The controls' values while they are folded away (presentation mode): as last set, or the defaults."""
    choices = model.start_choices(case)
    start = state.widget_value(start_key(case))
    learn_w_v = bool(state.widget_value(OUTPUT_KEY))
    start = start if start in choices else choices[0]
    return Options(
        optimiser=Optimiser(state.widget_value(OPTIMISER_KEY) or Optimiser.ADAM),
        learning_rate=float(state.widget_value(RATE_KEY) or model.DEFAULT_RATE[Optimiser.ADAM]),
        steps=int(state.widget_value(STEPS_KEY) or model.DEFAULT_STEPS),
        scale=Scale(state.widget_value(SCALE_KEY) or Scale.SQRT),
        start=start,
        seed=int(state.widget_value(SEED_KEY) or 0),
        learn_w_v=learn_w_v and model.output_fits(case, start),
        output_weight=float(state.widget_value(LAMBDA_KEY) or 1.0),
    )


# --- the run, live ---


def _on_train() -> None:
    """Start a run with the controls' values as they are now (not as they were when the button was drawn)."""
    case = current_case()
    try:
        training = model.start(case, current_target(case), controls_values(case))
    except EngineInputError:
        return  # the page says why when it draws
    TRAIN.set(training)
    PLAYING.set(False)
    SENT.set(False)


def _on_stop() -> None:
    training = TRAIN.get()
    if training is not None:
        TRAIN.set(model.stop(training))


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
    training = model.advance(training)
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


def loss_chart(training: Training, marker: int | None = None) -> None:
    """The loss at every step so far, on an axis as long as the run asked for; the floor dashed."""
    run, history = training.run, model.loss_history(training)
    floor_name = t("learn.chart.floor")
    charts.show_lines(
        history.steps,
        {t("learn.chart.loss"): history.losses, floor_name: history.floor},
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
    if model.side_by_side(case):
        attention_col, loss_col = st.columns(2)
        with charts.numbers_after(), attention_col:
            charts.show_heatmap(spec, key="learn_attention")
        with loss_col:
            loss_chart(training, marker)
    else:
        charts.show_heatmap(spec, key="learn_attention")
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
    steps = numbers.count(run.steps)
    ended = model.outcome(training)
    if ended == "diverged":
        return t("learn.outcome.diverged", steps=steps)
    if ended == "done":
        head = t("learn.outcome.done", steps=steps)
    else:
        head = t("learn.outcome.stopped", steps=steps, goal=numbers.count(training.goal))
    start, end = numbers.fixed(run.losses[0], 3), numbers.fixed(run.losses[-1], 4)
    text = head + " " + t("learn.outcome.loss", start=start, end=end)
    tolerance, floor = numbers.short(run.tolerance, 3), numbers.fixed(run.objective.floor, 3)
    if run.converged_at is not None:
        return text + " " + t("learn.outcome.converged", step=numbers.count(run.converged_at), tol=tolerance)
    return text + " " + t("learn.outcome.not_converged", tol=tolerance, floor=floor)


# --- the history: scrub or play ---


def _on_play(steps: int) -> None:
    PLAYING.set(True)
    step = int(state.widget_value(STEP_KEY) or 0)
    first = model.play_from(step, steps)
    if first != step:
        state.set_widget(STEP_KEY, first)


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
    step, at_end = model.next_frame(int(state.widget_value(STEP_KEY) or 0), training.run.steps)
    state.set_widget(STEP_KEY, step)
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
    opening = model.replay_step(state.widget_value(STEP_KEY), training)
    if opening is not None:
        state.set_widget(STEP_KEY, opening)  # a new run opens at its last step
    if PLAYING.get():
        player_ui(training, target)
    else:
        frame_ui(training, target, playing=False)


# --- the tab ---


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
    training = model.matching(TRAIN.get(), case, target)
    running = training is not None and training.running
    if state.presentation_mode():  # folded: a lecturer shows the defaults, and the page fits the projector
        folded = st.expander(t("learn.controls"), key="learn_controls_open", on_change="rerun")
        options = controls_ui(case, running, folded) if folded.open else controls_values(case)
    else:
        options = controls_ui(case, running, st.container(border=True))
    output_formula_ui(options)
    if running:
        trainer_ui(target)
        return
    try:
        first = model.start_run(case, target, options)
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
    message = st.success if model.succeeded(training) else st.info
    message(outcome_text(training))
    st.caption(t("learn.trained_with", settings=settings_text(training.run)))
    watch_ui(target)
