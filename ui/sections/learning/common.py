"""What the learning page's tabs share: its values in the session, the case and target they read, option labels
fixed in the run's language, and the heatmaps of a target and of attention weights."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import streamlit as st

from engine import sentence_vectors
from ui import state
from ui.figure_specs import Heatmap
from ui.i18n import t, translate
from ui.text import md_literal
from ui.view_models import learning as model
from ui.view_models.learning import Case, Target, Training

# Values this page owns (documented in ui/state.py).
TRAIN: state.Slot[Training | None] = state.Slot("train", lambda: None)  # the run, if any
TARGETS: state.Slot[dict[str, Target]] = state.Slot("train_targets", dict)  # {source: its target}
PLAYING: state.Slot[bool] = state.Slot("learn_playing", lambda: False)  # the history is being played
SENT: state.Slot[bool] = state.Slot("learn_sent", lambda: False)  # the learned W went to the shared scenario
SECTION: state.Slot[str] = state.Slot("learn_section", lambda: "target")  # the open tab

SOURCE_KEY = "learn_source"  # the tokens picker's widget key


@st.cache_data(show_spinner=False, max_entries=2)
def sentence_x(d_model: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The sentence's tokens and x (embedding + positional encoding), computed once."""
    vectors = sentence_vectors(model.SENTENCE, d_model)
    return vectors.tokens, vectors.x


def current_source() -> str:
    """Which tokens are trained: "scenario" or "sentence" (the tokens picker's value, kept for the session)."""
    source = state.widget_value(SOURCE_KEY)
    return source if source in model.SOURCES else model.SOURCES[0]


def current_case() -> Case:
    """The chosen tokens: the shared scenario's (with its mask and temperature) or the sentence's, 8-d."""
    return model.case_of(state.get_scenario(), current_source(), sentence_x(model.SENTENCE_D_MODEL))


def store_target(source: str, target: Target) -> None:
    """Keep `target` as the target of `source`'s tokens."""
    TARGETS.set({**TARGETS.get(), source: target})


def current_target(case: Case) -> Target:
    """The source's target, rebuilt from a preset when the tokens or the mask changed since it was made."""
    kept = TARGETS.get().get(case.source)
    target = model.target_for(case, kept)
    if target is not kept:
        store_target(case.source, target)
    return target


def current_training() -> Training | None:
    """The stored run if it trained the chosen tokens toward their target, else None."""
    case = current_case()
    return model.matching(TRAIN.get(), case, current_target(case))


def no_run_ui() -> Training | None:
    """The finished run for the chosen tokens and target, or a note that there is none yet."""
    training = current_training()
    if training is None or training.running:
        st.info(t("learn.no_run"))
        return None
    return training


def labels(prefix: str) -> Callable[[object], str]:
    """An option's label, `prefix.<option>` in the language of this run (fixed now, so that every call of the
    widget's format function, even one made outside the run, names the options the same way)."""
    lang = state.current_language()
    return lambda option: translate(lang, f"{prefix}.{option}")


def written(write: Callable[..., str], *args: object) -> Callable[[float], str]:
    """A number option written in the language of this run (see `labels`)."""
    lang = state.current_language()
    return lambda value: write(value, *args, lang=lang)


def quoted(tokens: Iterable[str]) -> str:
    """Tokens in quotes, for markdown: «perro», «come»."""
    return ", ".join(t("learn.quoted", token=md_literal(token)) for token in tokens)


def weights_spec(case: Case, weights: np.ndarray, title: str) -> Heatmap:
    """Attention weights (or a target) as a heatmap: rows the token that looks, columns the token looked at."""
    return Heatmap(
        weights,
        list(case.tokens),
        list(case.tokens),
        title,
        kind="weights",
        row_title=t("matrix.rows_query"),
        col_title=t("matrix.cols_key"),
        masked=case.masked,
    )


def target_spec(target: Target, case: Case) -> Heatmap:
    """The target as a heatmap of weights (masked cells marked)."""
    return weights_spec(case, target.matrix, t("learn.target.title"))
