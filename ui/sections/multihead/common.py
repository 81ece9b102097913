"""What the multi-head page's parts share: select boxes whose choices survive a change of language, the heads'
names, their weights as small multiples, what a head does in words, and the summary the page ends with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine import AttentionResult, HeadBehaviour
from ui import charts, numbers, state
from ui.charts import shape
from ui.figure_specs import Heatmap
from ui.i18n import t, tm
from ui.view_models import multihead as model

# The choices made in select boxes with translated labels: {name: value} (documented in ui/state.py).
T = TypeVar("T")  # a select box's option

CHOICES: state.Slot[dict[str, object]] = state.Slot("mh_choices", dict)


def labelled(names: Mapping[T, str]) -> Callable[[T], T | str]:
    """A format_func from options to labels looked up now, in the reader's language: Streamlit's test harness calls
    it after the script run, where the language can no longer be read, and with a label as well as an option."""
    return lambda value: names.get(value, value)


def labels(prefix: str, options: Iterable[str]) -> dict[str, str]:
    """Each option's label: the string `prefix.option`."""
    return {option: t(f"{prefix}.{option}") for option in options}


def _on_choice(name: str, key: str, options: tuple) -> None:
    value = state.widget_value(key)
    if value in options:
        CHOICES.set({**CHOICES.get(), name: value})


def choice_ui(
    container: DeltaGenerator | ModuleType,
    label: str,
    options: Iterable[T],
    names: Mapping[T, str],
    name: str,
    default: T,
    variant: str = "",
    **widget: Any,
) -> T:
    """A select box whose options are written in the reader's language. The choice is the page's own (kept under
    CHOICES) and the widget is keyed by the language too: Streamlit matches a select box's value by its label, so a
    widget kept across a language switch would lose the choice."""
    options = list(options)
    kept = CHOICES.get().get(name, default)
    saved = next((option for option in options if option == kept), default if default in options else options[0])
    key = f"mh_{name}{variant}_{state.current_language()}"
    value = container.selectbox(
        label,
        options,  # a list of T
        index=options.index(saved),
        format_func=labelled(names),
        key=key,
        on_change=_on_choice,
        args=(name, key, tuple(options)),
        **widget,
    )
    return value if value in options else saved


def head_name(k: int) -> str:
    """Head k (0-based) as the page names it: "cabeza 1"."""
    return t("mh.head", k=k + 1)


def quoted(words: Iterable[str], joiner: str = "mh.and") -> str:
    """«come» y «tiene»: words in the language's quotes, joined by "and" (or "or")."""
    marked = [t("mh.quoted", token=word) for word in words]
    return marked[0] if len(marked) == 1 else ", ".join(marked[:-1]) + t(joiner) + marked[-1]


def weights_panels(tokens: Sequence[str], heads: tuple[AttentionResult, ...], names: list[str]) -> list[Heatmap]:
    """One weights panel per head, on 0–1, with each cell's arithmetic on hover."""
    return [
        Heatmap(
            head.weights,
            list(tokens),
            list(tokens),
            f"{name} · d_k = {numbers.count(head.q.shape[1])} {shape(*head.weights.shape)}",
            kind="weights",
            row_title=t("matrix.rows_query"),
            masked=~head.allowed,
            hover=charts.cell_hover(tokens, head),
            decimals=2,
        )
        for head, name in zip(heads, names, strict=True)
    ]


def job_text(b: HeadBehaviour, tokens: Sequence[str], *, markdown: bool = False) -> str:
    """What a head does, measured: its job in words; for a mixed head, the rows that look at one token."""
    say = tm if markdown else t
    if b.job == "one_token":
        return say("mh.job.one_token", token=tokens[b.target])
    if b.job in ("previous", "self") and b.forced.any():  # the first row's self-look is the mask's, not the head's
        return t(f"mh.job.{b.job}.masked")
    if b.job != "mixed":
        return t(f"mh.job.{b.job}")
    looks = "; ".join(
        say("mh.job.look", q=tokens[int(i)], k=tokens[b.top[i]], weight=numbers.fixed(b.top_weight[i]))
        for i in np.flatnonzero(b.focused & ~b.forced)  # a row the mask leaves one token is not the head's doing
    )
    return t("mh.job.mixed" if (b.focused | b.forced).all() else "mh.job.mixed_rest", looks=looks)


def distinct_text(reading: model.DistinctReading, one_name: str, many_name: str) -> str:
    """Which of the two leaves the rows more distinct, how peaked each one's weights are, and what heads add."""
    words = {
        "one_name": one_name,
        "many_name": many_name,
        "one": numbers.fixed(reading.one_cosine),
        "many": numbers.fixed(reading.many_cosine),
        "one_peak": numbers.fixed(reading.one_peak.max_weight),
        "many_peak": numbers.fixed(reading.many_peak.max_weight),
        "one_word": t(f"peak.one.{reading.one_peak.verdict}"),
        "many_word": t(f"peak.one.{reading.many_peak.verdict}"),
    }
    parts = [t(f"mh.distinct.{reading.distinct}", **words), t("mh.distinct.peaks", **words)]
    if reading.distinct != "same" and reading.peaked != "same":
        parts.append(t("mh.distinct.agree" if reading.distinct == reading.peaked else "mh.distinct.disagree"))
    # where the heads separate more, "did not" would contradict the sentence before; that they need not, still holds
    parts.append(t("mh.distinct.heads_add.many" if reading.distinct == "many" else "mh.distinct.heads_add"))
    return " ".join(parts)


def summary_ui() -> None:
    """What a student should be able to say after the page."""
    with st.container(border=True):
        st.markdown(t("mh.summary"))
