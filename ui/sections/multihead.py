"""The multi-head page's sections: the input, h heads side by side and what each one measurably does, one cell of
one head derived, the concatenation and W_O, the residual (and layer norm), and one big head against h small ones.

Every number is the engine's (`engine.multihead`, `engine.designed_heads`); what a head "does" is read off its
weights by `head_behaviour`, never asserted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TypedDict

import numpy as np
import pandas as pd
import streamlit as st

from engine import (
    DESIGNED_JOBS,
    DESIGNED_SENTENCE,
    AttentionResult,
    EngineInputError,
    HeadBehaviour,
    MultiHeadResult,
    Scale,
    SentenceVectors,
    attention,
    attention_cost,
    compare_head_counts,
    derivation,
    designed_heads,
    head_behaviour,
    head_counts,
    identity_like_w_o,
    mean_pairwise_cosine,
    merge_heads,
    multi_head_attention,
    pairwise_cosine,
    random_heads,
    random_w_o,
    sentence_vectors,
)
from engine.designed_heads import DESIGNED_D_MODEL, DESIGNED_TOP_WEIGHT, SUBJECT, VERBS
from engine.limits import SEED_RANGE
from engine.multihead import FOCUS_WEIGHT, LAYER_NORM_EPS, HeadWeights
from engine.presets import random_weights
from engine.questions import MultiHeadView
from ui import charts, editors, numbers, state
from ui.charts import shape
from ui.derivation import BLANK, CellTexts, cell_derivation_ui, sub, vector_row
from ui.editing import apply_matrix_edits, column_name
from ui.editors import EDIT_DECIMALS, errors_ui
from ui.figure_specs import Heatmap
from ui.i18n import plural, t, tm
from ui.layout import grids_wait
from ui.tables import table_ui

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


class WOutSettings(TypedDict):
    """The W_O the page uses: a preset ("identity" or "random" with its seed), the edited matrix (None: the
    preset's), and a revision bumped on every change so that its widgets are rebuilt from it."""

    kind: str
    seed: int
    matrix: np.ndarray | None
    rev: int


# Values this page owns (documented in ui/state.py).
PART: state.Slot[str] = state.Slot("mh_part", lambda: PARTS[0])  # the open part (tab)
# The choices made in select boxes with translated labels: {name: value}.
CHOICES: state.Slot[dict[str, object]] = state.Slot("mh_choices", dict)
W_O_STATE: state.Slot[WOutSettings] = state.Slot(
    "mh_w_o", lambda: {"kind": "identity", "seed": 0, "matrix": None, "rev": 0}
)


def labelled(names: dict):
    """A format_func from options to labels looked up now, in the reader's language: Streamlit's test harness calls
    it after the script run, where the language can no longer be read, and with a label as well as an option."""
    return lambda value: names.get(value, value)


def labels(prefix: str, options) -> dict[str, str]:
    """Each option's label: the string `prefix.option`."""
    return {option: t(f"{prefix}.{option}") for option in options}


def _on_choice(name: str, key: str, options: tuple) -> None:
    value = state.widget_value(key)
    if value in options:
        CHOICES.set({**CHOICES.get(), name: value})


def choice_ui(container, label: str, options, names: dict, name: str, default, variant: str = "", **widget):
    """A select box whose options are written in the reader's language. The choice is the page's own (kept under
    CHOICES) and the widget is keyed by the language too: Streamlit matches a select box's value by its label, so a
    widget kept across a language switch would lose the choice."""
    options = list(options)
    saved = CHOICES.get().get(name, default)
    if saved not in options:
        saved = default if default in options else options[0]
    key = f"mh_{name}{variant}_{state.current_language()}"
    value = container.selectbox(
        label,
        options,
        index=options.index(saved),
        format_func=labelled(names),
        key=key,
        on_change=_on_choice,
        args=(name, key, tuple(options)),
        **widget,
    )
    return value if value in options else saved


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


def source_ui() -> Source:
    """The input: the shared scenario (the walkthrough's and the builder's) or the longer sentence; x on demand."""
    scenario = state.get_scenario()
    kind = choice_ui(st, t("mh.source"), SOURCES, labels("mh.source", SOURCES), "source", SOURCES[0])
    if kind == "sentence":
        vectors = sentence()
        tokens, x = tuple(vectors.tokens), vectors.x
    else:
        tokens, x = scenario.tokens, scenario.x
    source = Source(kind, tokens, x, scenario.scale, scenario.causal, scenario.temperature)
    st.caption(
        plural(
            "mh.source.options",
            source.n,
            d_model=numbers.count(source.d_model),
            scale=t(f"scenario.scale.{source.scale}"),
            mask=t("mh.mask.on" if source.causal else "mh.mask.off"),
            temperature=numbers.short(source.temperature, 2),
        )
    )
    inputs = st.expander(t("mh.source.x", shape=shape(source.n, source.d_model)), key="mh_x_open", on_change="rerun")
    if inputs.open:
        with inputs:
            charts.show_heatmap(charts.token_map(x, tokens, charts.shaped("x", x)), key="mh_x")
    return source


# --- how many heads, and which ---


def default_heads(d_model: int) -> int:
    """The most designed heads this d_model takes (two columns each at least), else 1."""
    fitting = [h for h in DESIGNED_JOBS if d_model % h == 0 and d_model // h >= 2]
    return max(fitting, default=1)


def presets_for(source: Source) -> tuple[str, ...]:
    """The scenario's own matrices can be head 1 only when they read x's width."""
    if state.get_scenario().d_model == source.d_model:
        return PRESETS
    return PRESETS[:2]


def heads_controls_ui(source: Source) -> tuple[int, str, int]:
    """The number of heads h among the divisors of d_model, the preset, and the seed of the random heads."""
    counts = head_counts(source.d_model)
    h_col, preset_col, seed_col = st.columns([1, 3, 1], vertical_alignment="bottom")
    h = h_col.selectbox(
        t("mh.h"),
        counts,
        index=counts.index(default_heads(source.d_model)),
        help=t("mh.h_help", d_model=numbers.count(source.d_model)),
        key=f"mh_h_{source.d_model}",
        persist_state="session",
    )
    presets = presets_for(source)
    preset = choice_ui(
        preset_col, t("mh.preset"), presets, labels("mh.preset", presets), "preset", PRESETS[0], f"_{source.kind}"
    )
    seed = 0
    if preset != "designed":
        seed = int(
            seed_col.number_input(
                t("mh.seed"),
                min_value=SEED_RANGE[0],
                max_value=SEED_RANGE[1],
                value=0,
                step=1,
                key="mh_seed",
                persist_state="session",
            )
        )
    return int(h), preset, seed


def cost_ui(source: Source, h: int) -> None:
    """Each head's width, and why h heads cost what one big head costs: the engine's multiply-add counts."""
    n, d_model = source.n, source.d_model
    st.markdown(t("mh.h.sizes", h=numbers.count(h), d_model=numbers.count(d_model), d_k=numbers.count(d_model // h)))
    one, many = attention_cost(n, d_model, 1), attention_cost(n, d_model, h)
    st.markdown(t("mh.cost.body"))
    st.latex(r"h \cdot n^2 \cdot \frac{d_{model}}{h} \;=\; n^2 \cdot d_{model}")
    rows = COST_ROWS
    columns = {
        t("mh.cost.col.what"): [t(f"mh.cost.{row}") for row in rows],
        t("mh.cost.col.one", d_k=numbers.count(d_model)): [getattr(one, row) for row in rows],
    }
    if h > 1:  # with one head the h-heads column is the one-head column
        columns[t("mh.cost.col.many", h=numbers.count(h), d_k=numbers.count(d_model // h))] = [
            getattr(many, row) for row in rows
        ]
    frame = pd.DataFrame(columns)
    table_ui(frame)
    st.markdown(
        plural(
            "mh.cost.reading",
            h,
            n2=numbers.count(n * n),
            d_k=numbers.count(d_model // h),
            scores=numbers.count(many.scores),
            d_model=numbers.count(d_model),
            one_exp=numbers.count(one.exponentials),
            many_exp=numbers.count(many.exponentials),
        )
    )


@dataclass(frozen=True)
class Heads:
    """The heads the page shows and where they come from."""

    preset: str  # the preset asked for
    weights: tuple[HeadWeights, ...]  # per head (W_Q, W_K, W_V)
    jobs: tuple[str, ...] | None  # designed heads: the job each head was built for
    intended: tuple[np.ndarray, ...] | None  # designed heads: per head (n,) the token each row is built to look at
    sharpness: tuple[float, ...] | None  # designed heads: per head c
    refused: tuple[str, dict] | None  # why the designed preset could not be built (then the heads are random)


def build_heads(source: Source, h: int, preset: str, seed: int) -> Heads:
    """The heads of `preset`; a designed preset that cannot be built for this input falls back to random heads."""
    if preset == "designed":
        try:
            built = designed_heads(source.x, source.tokens, h)
        except EngineInputError as error:
            return Heads(preset, random_heads(source.d_model, h, 0), None, None, None, (error.code, error.params))
        return Heads(preset, built.heads, built.jobs, built.intended, built.sharpness, None)
    heads = random_heads(source.d_model, h, seed)
    if preset == "scenario":
        scenario = state.get_scenario()
        heads = ((scenario.w_q, scenario.w_k, scenario.w_v), *heads[1:])
    return Heads(preset, heads, None, None, None, None)


def refused_ui(source: Source, heads: Heads) -> None:
    """Say why the designed heads are not shown, and what is shown instead."""
    if heads.refused is None:
        return
    code, params = heads.refused
    if code == "designed_heads_count":
        supported = [numbers.count(c) for c in params.get("supported", ())]
        reason = t("mh.refused.count", h=numbers.count(params.get("h", 0)), supported=", ".join(supported) or "—")
    elif code == "designed_heads_sentence":
        reason = tm("mh.refused.sentence", subject=SUBJECT, verbs=quoted(VERBS, "mh.or"))
    else:
        reason = plural("mh.refused.rank", source.n, d_model=numbers.count(source.d_model))
    st.info(reason + " " + t("mh.refused.instead"), icon=":material/info:")


# --- W_O: a preset, edited cell by cell ---


def _put_w_o(settings: WOutSettings) -> None:
    W_O_STATE.set({**settings, "rev": settings["rev"] + 1})


def w_o_preset(kind: str, seed: int, rows: int, d_model: int) -> np.ndarray:
    """W_O of a preset: identity-like or seeded random.  (rows, d_model)"""
    return identity_like_w_o(rows, d_model) if kind == "identity" else random_w_o(rows, d_model, seed)


def current_w_o(rows: int, d_model: int) -> np.ndarray:
    """The W_O in use: the edited one while its shape still fits, else its preset's.  (rows, d_model)"""
    settings = W_O_STATE.get()
    edited = settings["matrix"]
    if edited is not None and edited.shape == (rows, d_model):
        return edited
    return w_o_preset(settings["kind"], settings["seed"], rows, d_model)


def _on_w_o_kind(key: str) -> None:
    kind = state.widget_value(key)
    if kind in W_O_KINDS:
        _put_w_o({**W_O_STATE.get(), "kind": kind, "matrix": None})


def _on_w_o_seed(key: str) -> None:
    _put_w_o({**W_O_STATE.get(), "seed": int(state.widget_value(key, 0) or 0), "matrix": None})


def _on_w_o_edit(key: str, rows: int, d_model: int) -> None:
    matrix, errors = apply_matrix_edits(current_w_o(rows, d_model), state.widget_value(key, {}), "W_O")
    _put_w_o({**W_O_STATE.get(), "matrix": matrix})
    state.report_errors(errors)


def w_o_controls_ui(row_names: list[str], d_model: int) -> None:
    """The W_O preset (and its seed), and W_O itself in a small editor of text cells ("1.5" and "1,5" both read)."""
    rows = len(row_names)
    settings = W_O_STATE.get()
    rev = settings["rev"]
    kind_col, seed_col = st.columns(2, vertical_alignment="bottom")
    kind_key = f"mh_w_o_kind_{rev}_{state.current_language()}"
    kind_col.selectbox(
        t("mh.w_o.kind"),
        W_O_KINDS,
        index=W_O_KINDS.index(settings["kind"]),
        format_func=labelled(labels("mh.w_o.kind", W_O_KINDS)),
        key=kind_key,
        on_change=_on_w_o_kind,
        args=(kind_key,),
    )
    if settings["kind"] == "random":
        seed_key = f"mh_w_o_seed_{rev}"
        seed_col.number_input(
            t("mh.seed"),
            min_value=SEED_RANGE[0],
            max_value=SEED_RANGE[1],
            value=int(settings["seed"]),
            step=1,
            key=seed_key,
            on_change=_on_w_o_seed,
            args=(seed_key,),
        )
    errors_ui()
    editor = editors.editor_fold(t("mh.w_o.edit", shape=shape(rows, d_model)), "mh_w_o_open")
    if editor is not None:
        with editor:
            w_o_editor_ui(row_names, d_model, rev)


# --- the parts, one at a time ---


def w_o_editor_ui(row_names: list[str], d_model: int, rev: int) -> None:
    """W_O as text cells, one row per dimension of the concatenation (W_O's revision `rev` keys the editor)."""
    if grids_wait():
        return
    rows = len(row_names)
    matrix = current_w_o(rows, d_model)
    frame = pd.DataFrame(
        [[numbers.short(v, EDIT_DECIMALS) for v in row] for row in matrix],
        columns=[column_name(j) for j in range(d_model)],
        index=row_names,
    )
    key = f"mh_w_o_editor_{rev}"
    st.data_editor(
        frame,
        key=key,
        num_rows="fixed",
        column_config={column_name(j): editors.number_column(f"d{j}") for j in range(d_model)},
        on_change=_on_w_o_edit,
        args=(key, rows, d_model),
        width="stretch",
    )


def _on_part(widget_key: str, labels: list[str]) -> None:
    PART.set(PARTS[labels.index(state.widget_value(widget_key))])


def part_ui():
    """The parts after h and the preset as tabs, only the open one drawn: changing h or the preset redraws one part,
    not the page (Streamlit redraws every element of a run), and a lecturer shows one idea at a time.
    Returns the open part's name and its tab."""
    labels = [t(f"mh.part.{name}") for name in PARTS]
    current = PART.get()
    widget_key = f"mh_tabs_{state.current_language()}"  # the labels change with the language
    tabs = st.tabs(
        labels,
        default=labels[PARTS.index(current)],
        key=widget_key,
        on_change=_on_part,
        args=(widget_key, labels),
    )
    opened = [(name, tab) for name, tab in zip(PARTS, tabs, strict=True) if tab.open]
    return opened[0] if opened else (current, tabs[PARTS.index(current)])


# --- running the heads ---


def run_or_stop(source: Source, heads: Heads) -> MultiHeadResult:
    """MultiHead(x) with the current W_O (and layer norm, shown on demand), or a message and the end of the part."""
    rows = sum(w_v.shape[1] for _, _, w_v in heads.weights)
    try:
        return multi_head_attention(
            source.x, heads.weights, current_w_o(rows, source.d_model), layer_norm=True, **source.options()
        )
    except EngineInputError as error:
        st.warning(t("mh.error", code=error.code))
        st.stop()
        raise


def question_view(source: Source, result: MultiHeadResult) -> MultiHeadView:
    """What this page's questions are about: its tokens and the heads' result, as the page shows them."""
    return MultiHeadView(source.tokens, result)


def head_name(k: int) -> str:
    """Head k (0-based) as the page names it: "cabeza 1"."""
    return t("mh.head", k=k + 1)


def head_columns(result: MultiHeadResult) -> list[str]:
    """The concatenation's columns: head and dimension, "c1·d0"."""
    return [t("mh.col", k=k + 1, j=j) for k, head in enumerate(result.heads) for j in range(head.output.shape[1])]


# --- the heads side by side, and what each one does ---


def weights_panels(tokens, heads: tuple[AttentionResult, ...], names: list[str]) -> list[Heatmap]:
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


def job_text(b: HeadBehaviour, tokens, *, markdown: bool = False) -> str:
    """What a head does, measured: its job in words; for a mixed head, the rows that look at one token."""
    say = tm if markdown else t
    if b.job == "one_token":
        return say("mh.job.one_token", token=tokens[b.target])
    if b.job != "mixed":
        return t(f"mh.job.{b.job}")
    looks = "; ".join(
        say("mh.job.look", q=tokens[i], k=tokens[b.top[i]], weight=numbers.fixed(b.top_weight[i]))
        for i in np.flatnonzero(b.focused)
    )
    return t("mh.job.mixed" if b.focused.all() else "mh.job.mixed_rest", looks=looks)


def quoted(words, joiner: str = "mh.and") -> str:
    """«come» y «tiene»: words in the language's quotes, joined by "and" (or "or")."""
    marked = [t("mh.quoted", token=word) for word in words]
    return marked[0] if len(marked) == 1 else ", ".join(marked[:-1]) + t(joiner) + marked[-1]


def built_for_text(job: str, tokens) -> str:
    """What a designed head was built to do, in words."""
    if job == "subject":
        return t("mh.built.subject", verbs=quoted([verb for verb in VERBS if verb in tokens]), subject=SUBJECT)
    return t(f"mh.built.{job}")


def as_intended(b: HeadBehaviour, intended: np.ndarray) -> int:
    """Rows that do what they were built for: focused on the intended token, or spread where none was."""
    hits = np.where(intended >= 0, b.focused & (b.top == intended), ~b.focused)
    return int(hits.sum())


def heads_ui(source: Source, heads: Heads, result: MultiHeadResult) -> list[HeadBehaviour]:
    """Every head's weights in one figure, what each head does (measured), and how the designed ones were built."""
    refused_ui(source, heads)
    st.markdown(t("mh.heads.body"))
    names = [head_name(k) for k in range(len(result.heads))]
    charts.show_grid(weights_panels(source.tokens, result.heads, names), t("mh.heads.figure"), key="mh_heads")
    st.caption(t("mh.heads.caption"))
    behaviours = [head_behaviour(head) for head in result.heads]
    st.subheader(t("mh.measured.title"))
    st.markdown(t("mh.measured.body", max_entropy=numbers.fixed(math.log(source.n)), n=numbers.count(source.n)))
    table_ui(measured_frame(source, heads, result, behaviours))
    table_ui(top_frame(source.tokens, behaviours, names))
    st.caption(t("mh.top.caption", focus=numbers.short(FOCUS_WEIGHT)))
    if heads.jobs is not None:
        construction_ui(source, heads)
    return behaviours


def measured_frame(source: Source, heads: Heads, result: MultiHeadResult, behaviours) -> pd.DataFrame:
    """One line per head: its d_k, (designed:) what it was built for and how many rows do that, what it does."""
    columns: dict[str, list] = {
        t("mh.measured.col.head"): [head_name(k) for k in range(len(behaviours))],
        "d_k": [int(head.q.shape[1]) for head in result.heads],
    }
    if heads.jobs is not None and heads.intended is not None:
        columns[t("mh.measured.col.built")] = [built_for_text(job, source.tokens) for job in heads.jobs]
        columns[t("mh.measured.col.rows")] = [
            t("mh.measured.rows", hits=numbers.count(as_intended(b, intended)), n=numbers.count(source.n))
            for b, intended in zip(behaviours, heads.intended, strict=True)
        ]
    columns[t("mh.measured.col.does")] = [job_text(b, source.tokens) for b in behaviours]
    columns[t("mh.measured.col.entropy")] = [b.mean_entropy for b in behaviours]
    return pd.DataFrame(columns)


def top_frame(tokens, behaviours, names: list[str]) -> pd.DataFrame:
    """One line per token: the token each head's row gives the most weight to, with that weight."""
    columns: dict[str, list] = {t("mh.top.col.token"): list(tokens)}
    for name, b in zip(names, behaviours, strict=True):
        columns[name] = [
            t("mh.top.cell", token=tokens[top], weight=numbers.fixed(weight)) if top >= 0 else "—"
            for top, weight in zip(b.top, b.top_weight, strict=True)
        ]
    return pd.DataFrame(columns)


def construction_ui(source: Source, heads: Heads) -> None:
    """The designed heads' construction, as the engine documents it, with this input's sharpness per head."""
    with st.expander(t("mh.construction.title")):
        st.markdown(t("mh.construction.body", top=numbers.short(DESIGNED_TOP_WEIGHT)))
        st.latex(r"W_Q = x^{+} \cdot Q^{*}, \qquad W_K = x^{+} \cdot K^{*}, \qquad x \cdot x^{+} = I_n")
        sharpness = ", ".join(f"{head_name(k)}: c = {numbers.short(c, 2)}" for k, c in enumerate(heads.sharpness or ()))
        st.markdown(t("mh.construction.sharpness", values=sharpness))


# --- one head in detail: its Q, K, V and any cell's arithmetic ---


def default_token(tokens, wanted: str, fallback: int) -> int:
    """The index of `wanted` among the tokens, else `fallback` (kept in range)."""
    return tokens.index(wanted) if wanted in tokens else min(fallback, len(tokens) - 1)


@st.fragment
def head_detail_ui(source: Source, heads: Heads, result: MultiHeadResult) -> None:
    """Pick a head and a cell: its Q, K, V on demand and the cell's arithmetic. Reruns only this part."""
    st.subheader(t("mh.detail.title"))
    h = len(result.heads)
    tokens = list(source.tokens)
    rev = state.scenario_rev()
    head_col, query_col, key_col = st.columns(3)
    k = choice_ui(head_col, t("mh.detail.head"), range(h), {k: head_name(k) for k in range(h)}, "head", 1, f"_{h}")
    query = query_col.selectbox(
        t("scenario.query_token"), tokens, index=default_token(tokens, "come", 2), key=f"mh_query_{source.kind}_{rev}"
    )
    other = key_col.selectbox(
        t("scenario.key_token"), tokens, index=default_token(tokens, "perro", 1), key=f"mh_key_{source.kind}_{rev}"
    )
    matrices = st.expander(t("mh.detail.qkv", head=head_name(k)), key="mh_qkv_open", on_change="rerun")
    if matrices.open:
        with matrices:
            qkv_ui(source, heads.weights[k], result.heads[k])
    cell_ui(source, result.heads[k], head_name(k), tokens.index(query), tokens.index(other))


def qkv_ui(source: Source, weights: HeadWeights, head: AttentionResult) -> None:
    """One head's W_Q, W_K, W_V and its Q, K, V, shapes written; each group on one colour scale."""
    charts.show_row(charts.weight_specs(*weights), keys=["mh_wq", "mh_wk", "mh_wv"])
    charts.show_row(charts.projection_specs(source.tokens, head, shapes=True), keys=["mh_q", "mh_k", "mh_v"])


def cell_ui(source: Source, head: AttentionResult, name: str, i: int, j: int) -> None:
    """One cell of one head, as the walkthrough derives it: Q_i · K_j, ÷ the divisor, the row's softmax."""
    query, key = source.tokens[i], source.tokens[j]
    st.markdown(tm("mh.detail.cell", head=name, q=query, k=key))
    cell = derivation.cell(head, i, j, divided=source.scale != Scale.NONE)
    texts = CellTexts(
        masked=tm("mh.detail.masked", q=query, k=key),
        row=tm("mh.detail.row", head=name, q=query),
        weight=tm("mh.detail.weight", head=name, q=query, k=key, weight=numbers.fixed(cell.weight)),
    )
    vectors = [vector_row(sub("Q", query), head.q[i]), vector_row(sub("K", key), head.k[j]), BLANK]
    cell_derivation_ui(cell, source.tokens, texts, lead=vectors)


# --- concatenation and W_O ---


def concat_ui(source: Source, result: MultiHeadResult) -> None:
    """Concat(head_1, …, head_h), W_O and their product, shapes written on each; W_O's preset and editor."""
    n, d_model = source.n, source.d_model
    width = result.concat.shape[1]
    st.markdown(t("mh.concat.body"))
    st.latex(r"\mathrm{MultiHead}(x) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\cdot W_O")
    st.caption(t("mh.concat.shapes", concat=shape(n, width), w_o=shape(width, d_model), out=shape(n, d_model)))
    columns = head_columns(result)
    tokens = list(source.tokens)
    charts.show_heatmap(
        charts.token_map(result.concat, tokens, t("mh.concat.figure", shape=shape(n, width)), cols=columns),
        key="mh_concat",
    )
    st.markdown(t("mh.w_o.body"))
    w_o_controls_ui(columns, d_model)
    charts.show_heatmap(
        Heatmap(result.w_o, columns, charts.dims(d_model), charts.shaped("W_O", result.w_o)), key="mh_w_o"
    )
    charts.show_heatmap(
        charts.token_map(result.output, tokens, t("mh.output.figure", shape=shape(n, d_model))), key="mh_output"
    )
    if np.array_equal(result.w_o, identity_like_w_o(width, d_model)) and width == d_model:
        st.caption(t("mh.w_o.identity_reading"))


# --- the residual, and layer norm ---


def single_head(source: Source, heads: Heads) -> tuple[str, AttentionResult]:
    """The one head the multi-head output is compared with: the walkthrough's (the shared scenario's own attention),
    or, for the sentence, one head holding all the heads' matrices side by side."""
    if source.kind == "scenario":
        return t("mh.cos.single.walk"), state.get_scenario().run()
    w_q, w_k, w_v = (merge_heads([w[role] for w in heads.weights]) for role in range(3))
    return t("mh.cos.single.merged"), attention(source.x, w_q, w_k, w_v, **source.options())


@st.fragment
def residual_ui(source: Source, result: MultiHeadResult, single: tuple[str, AttentionResult]) -> None:
    """The residual x + MultiHead(x), how different the tokens' rows are at each stage, and layer norm on demand."""
    tokens = list(source.tokens)
    assert result.residual is not None  # this page's multi-head attention adds x itself
    st.markdown(t("mh.residual.body"))
    st.latex(r"\mathrm{residual} = x + \mathrm{MultiHead}(x)")
    names = ("x", t("mh.output.short"), t("mh.residual.short"))
    charts.show_grid(
        [
            charts.token_map(m, tokens, charts.shaped(name, m), decimals=2)
            for name, m in zip(names, (source.x, result.output, result.residual), strict=True)
        ],
        t("mh.residual.short"),
        key="mh_residual",
    )
    layer_norm = st.toggle(t("mh.ln.toggle"), help=t("mh.ln.help"), key="mh_layer_norm", persist_state="session")
    if layer_norm:
        layer_norm_ui(source, result)
    cosine_ui(source, result, single, layer_norm)


def layer_norm_ui(source: Source, result: MultiHeadResult) -> None:
    """LayerNorm(x + MultiHead(x)): its formula, each row's mean and variance, and the rows it gives."""
    steps = result.layer_norm
    assert steps is not None
    st.markdown(t("mh.ln.body", eps=numbers.general(LAYER_NORM_EPS), d_model=numbers.count(source.d_model)))
    st.latex(
        r"\mathrm{LN}(r)_j = \frac{r_j - \mu}{\sqrt{\sigma^2 + \varepsilon}}, \qquad "
        r"\mu = \frac{1}{d_{model}} \sum_j r_j, \qquad \sigma^2 = \frac{1}{d_{model}} \sum_j (r_j - \mu)^2"
    )
    table_col, figure_col = st.columns([1, 2])
    with table_col:
        table_ui(pd.DataFrame({t("mh.top.col.token"): list(source.tokens), "μ": steps.mean, "σ²": steps.variance}))
    with figure_col:
        charts.show_heatmap(
            charts.token_map(steps.output, source.tokens, t("mh.ln.figure", shape=shape(source.n, source.d_model))),
            key="mh_ln",
        )


def cosine_stages(result: MultiHeadResult, single: tuple[str, AttentionResult], layer_norm: bool):
    """(name, short name, rows) of every stage whose tokens' rows are compared."""
    stages = [
        (t("mh.cos.x"), t("mh.cos.x"), result.x),
        (single[0], t("mh.cos.single.short"), single[1].output),
        (t("mh.cos.multi"), t("mh.cos.multi"), result.output),
        (t("mh.cos.residual"), t("mh.cos.residual"), result.residual),
    ]
    if layer_norm and result.normalized is not None:
        stages.append((t("mh.cos.norm"), t("mh.cos.norm.short"), result.normalized))
    return stages


def lowest_cosine(rows: np.ndarray) -> float:
    """The smallest cosine between two different rows (NaN when a row is all zeros or there is one row)."""
    cos = pairwise_cosine(rows)
    pairs = cos[np.triu_indices(cos.shape[0], k=1)]
    return float(pairs.min()) if pairs.size and np.isfinite(pairs).all() else float("nan")


def cosine_ui(source: Source, result: MultiHeadResult, single: tuple[str, AttentionResult], layer_norm: bool) -> None:
    """How alike the tokens' rows are at each stage: every pair's cosine, and a table of the mean and the lowest."""
    st.subheader(t("mh.cos.title"))
    if source.n < 2:
        st.caption(t("mh.cos.one_token"))
        return
    st.markdown(t("mh.cos.body"))
    stages = cosine_stages(result, single, layer_norm)
    tokens = list(source.tokens)
    charts.show_grid(
        [
            Heatmap(pairwise_cosine(rows), tokens, tokens, short, kind="signed", zrange=(-1.0, 1.0), decimals=2)
            for _, short, rows in stages
        ],
        t("mh.cos.figure"),
        key="mh_cos",
    )
    means = {name: mean_pairwise_cosine(rows) for name, _, rows in stages}
    table_ui(
        pd.DataFrame(
            {
                t("mh.cos.col.stage"): list(means),
                t("mh.cos.col.mean"): list(means.values()),
                t("mh.cos.col.lowest"): [lowest_cosine(rows) for _, _, rows in stages],
            }
        )
    )
    x_mean, single_mean, multi_mean, residual_mean = (means[name] for name, _, _ in stages[:4])
    if not np.isfinite([x_mean, single_mean, multi_mean, residual_mean]).all():
        return
    h = len(result.heads)
    reading = [
        plural(
            "mh.cos.reading",
            h,
            single_name=single[0],
            single=numbers.fixed(single_mean),
            multi=numbers.fixed(multi_mean),
            residual=numbers.fixed(residual_mean),
            x=numbers.fixed(x_mean),
        )
    ]
    reading.append(t("mh.cos.multi_differs" if multi_mean < single_mean else "mh.cos.multi_alike"))
    closer_to_x = abs(residual_mean - x_mean) < abs(residual_mean - multi_mean)
    reading.append(t("mh.cos.residual_keeps" if closer_to_x else "mh.cos.residual_follows"))
    st.info(" ".join(reading))


# --- one big head against h small ones ---


def compare_ui(source: Source, heads: Heads, result: MultiHeadResult, seed: int) -> None:
    """The same numbers as one head of width d_model and as h heads of width d_model / h: cost, weights, output."""
    h, d_model = len(result.heads), source.d_model
    if h == 1:
        st.info(t("mh.compare.one"))
        return
    d_k = d_model // h
    if all(w.shape == (d_model, d_k) for head in heads.weights for w in head):
        w_q, w_k, w_v = (merge_heads([w[role] for w in heads.weights]) for role in range(3))
        st.markdown(t("mh.compare.body"))
    else:
        w_q, w_k, w_v = random_weights(d_model, d_model, seed)
        st.markdown(t("mh.compare.body") + " " + t("mh.compare.random"))
    w_o = result.w_o if result.w_o.shape == (d_model, d_model) else identity_like_w_o(d_model, d_model)
    compared = compare_head_counts(source.x, w_q, w_k, w_v, w_o, h, **source.options())
    st.latex(r"Q K^{\top} = \sum_{i=1}^{h} Q_i K_i^{\top}")
    one, many = compared.one.heads[0], compared.many.heads
    one_b, many_b = head_behaviour(one), [head_behaviour(head) for head in many]
    names = [t("mh.compare.one_head")] + [head_name(k) for k in range(h)]
    charts.show_grid(weights_panels(source.tokens, (one, *many), names), t("mh.part.compare"), key="mh_compare")
    frame = pd.DataFrame(
        {
            t("mh.compare.col.heads"): [
                t("mh.cost.col.one", d_k=numbers.count(d_model)),
                t("mh.cost.col.many", h=numbers.count(h), d_k=numbers.count(d_k)),
            ],
            t("mh.cost.multiply_adds"): [compared.one_cost.multiply_adds, compared.many_cost.multiply_adds],
            t("mh.cost.exponentials"): [compared.one_cost.exponentials, compared.many_cost.exponentials],
            t("mh.compare.col.entropy"): [one_b.mean_entropy, float(np.mean([b.mean_entropy for b in many_b]))],
            t("mh.compare.col.cosine"): [
                mean_pairwise_cosine(compared.one.output),
                mean_pairwise_cosine(compared.many.output),
            ],
        }
    )
    table_ui(frame)
    st.markdown(t("mh.compare.does", does=job_text(one_b, source.tokens, markdown=True)))
    many_entropy = float(np.mean([b.mean_entropy for b in many_b]))
    st.info(
        t(
            "mh.compare.reading",
            h=numbers.count(h),
            one_divisor=numbers.short(one.divisor),
            many_divisor=numbers.short(many[0].divisor),
        )
        + " "
        + t(
            "mh.compare.spreads" if one_b.mean_entropy > many_entropy else "mh.compare.sharper",
            one=numbers.fixed(one_b.mean_entropy),
            many=numbers.fixed(many_entropy),
        )
    )


def summary_ui() -> None:
    """What a student should be able to say after the page."""
    with st.container(border=True):
        st.markdown(t("mh.summary"))
