"""The pipeline page's sections: from a typed sentence to tokens, embeddings, positional encoding, x, attention,
the outputs, what attention did, and the lesson's question "¿quién tiene hambre?"."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from engine import (
    EngineInputError,
    PipelineResult,
    Scale,
    SentenceVectors,
    TopAttended,
    attend,
    divisor_for,
    movement,
    positional_encoding,
    sentence_vectors,
    top_attended,
)
from engine.limits import D_MODEL_RANGE, MAX_SENTENCE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS
from engine.presets import LESSON_D_MODEL, LESSON_SENTENCE, LESSON_TOKENS
from ui import charts, numbers, questions, state
from ui.charts import shape
from ui.collapse import collapse_why
from ui.derivation import block, sub, vector_row
from ui.editing import refusal_text
from ui.i18n import plural, t, tm
from ui.scenario_controls import mask_link_ui
from ui.sections import pipeline_context
from ui.sliders import seed_input
from ui.tables import table_ui
from ui.view_models.walkthrough import collapse_reading

SENTENCE_KEY = "pipeline_sentence"
AMBIGUOUS_SENTENCE = "el perro come carne porque tiene hambre"
EXAMPLES = {"lesson": LESSON_SENTENCE, "ambiguity": AMBIGUOUS_SENTENCE}
D_MODEL_OPTIONS = tuple(range(D_MODEL_RANGE[0], D_MODEL_RANGE[1] + 1))
WEIGHT_OPTIONS = ("lesson", "random")  # the lesson's made-up 4×4 matrices, or seeded random ones
PE_POSITIONS = 64  # the PE line plot runs this far, past the sentence, to show the waves
AMBIGUITY_ASKER = "tiene"
AMBIGUITY_CANDIDATES = ("perro", "carne", "hambre")  # who could be the one that "tiene hambre"
MULTIHEAD_PAGE = "pages/multihead.py"  # linked from the collapse note once that page exists
ROOT = Path(__file__).resolve().parents[2]


def _use_example(sentence: str) -> None:
    state.set_widget(SENTENCE_KEY, sentence)


def dims(d: int) -> list[str]:
    """Column labels 0, 1, …, d − 1."""
    return [str(j) for j in range(d)]


def rows_as_text(name: str, tokens: Sequence[str], matrix: np.ndarray) -> str:
    """One line per token, `name_token = [+0,500; ...]`, so the numbers can be read and searched as text."""
    return block([vector_row(sub(name, token), row) for token, row in zip(tokens, matrix, strict=True)])


def controls_ui() -> tuple[str, int]:
    """Sentence, examples and d_model: what every stage depends on. Each choice survives a page switch."""
    sentence = st.text_input(
        t("pipeline.sentence"),
        help=t("pipeline.sentence_help", limit=numbers.count(MAX_TOKENS)),
        value=LESSON_SENTENCE,
        max_chars=MAX_SENTENCE_CHARS,  # the browser stops typing there, and Streamlit cuts what a message carries
        key=SENTENCE_KEY,
        persist_state="session",
    )
    if len(sentence) >= MAX_SENTENCE_CHARS:
        st.info(t("limits.sentence_at_limit", limit=numbers.count(MAX_SENTENCE_CHARS)))
    example_cols = st.columns(len(EXAMPLES) + 1, vertical_alignment="bottom")
    for column, (name, example) in zip(example_cols[:-1], EXAMPLES.items(), strict=True):
        column.button(
            t(f"pipeline.example.{name}"),
            on_click=_use_example,
            args=(example,),
            key=f"pipeline_example_{name}",
            width="stretch",
        )
    d_model = example_cols[-1].selectbox(
        t("pipeline.d_model"),
        D_MODEL_OPTIONS,
        help=t("pipeline.d_model_help"),
        index=D_MODEL_OPTIONS.index(LESSON_D_MODEL),
        key="pipeline_d_model",
        persist_state="session",
    )
    return sentence, d_model


def vectors_or_stop(sentence: str, d_model: int) -> SentenceVectors:
    """The sentence's vectors, or a message and the end of the page when the engine refuses it (no tokens, too
    long, a control character): the limits are checked before any work."""
    try:
        return sentence_vectors(sentence, d_model)
    except EngineInputError as error:
        st.warning(refusal_text(error.code, error.params))
        st.stop()
        raise


def attention_controls_ui(d_model: int) -> tuple[str, int, bool]:
    """The weights (the lesson's or seeded random ones) and the causal mask: they change attention onward."""
    weights_col, seed_col, mask_col = st.columns(3)
    if d_model == LESSON_D_MODEL:
        weight_labels = {option: t(f"pipeline.weights.{option}") for option in WEIGHT_OPTIONS}
        weights = weights_col.radio(
            t("pipeline.weights"),
            WEIGHT_OPTIONS,
            format_func=weight_labels.get,
            key="pipeline_weights",
            persist_state="session",
        )
    else:
        weights = "random"
        weights_col.caption(t("pipeline.weights.only_random", d=numbers.count(LESSON_D_MODEL)))
    seed = 0
    if weights == "random":
        seed = seed_input(seed_col, t("pipeline.seed"), "pipeline_seed")
    causal = mask_col.toggle(
        t("pipeline.causal"),
        help=t("pipeline.causal_help"),
        value=False,
        key="pipeline_causal",
        persist_state="session",
    )
    mask_link_ui(mask_col)
    return weights, int(seed), causal


def vectors_question_ui(vectors: SentenceVectors) -> bool:
    """A question before the sentence's vectors show (how many tokens, a positional encoding, an entry of x);
    True once they may show. Every stage below waits for it, since each shows what the others ask."""
    return questions.gate_ui("pipeline", vectors, key="pipeline.vectors", templates=questions.PIPELINE_VECTOR_TEMPLATES)


def tokens_ui(result: SentenceVectors) -> None:
    """The sentence cut into tokens, each under its position."""
    st.header(t("pipeline.tokens.title"))
    st.markdown(plural("pipeline.tokens.body", len(result.tokens)))
    table_ui(pd.DataFrame([result.tokens], columns=dims(len(result.tokens))))
    if result.dropped:
        st.info(plural("pipeline.dropped", result.dropped, limit=numbers.count(MAX_TOKENS)))
    if result.shortened:
        st.info(plural("limits.shortened", result.shortened, limit=numbers.count(MAX_TOKEN_CHARS)))


def embeddings_ui(result: SentenceVectors) -> None:
    """One vector per token, as a heatmap."""
    st.header(t("pipeline.embed.title"))
    st.markdown(t("pipeline.embed.body"))
    title = t("pipeline.embed.figure", shape=shape(*result.embeddings.shape))
    charts.show_heatmap(charts.token_map(result.embeddings, result.tokens, title), key="pipe_embed")


def positional_ui(result: SentenceVectors) -> None:
    """The positional encoding of the sentence's positions, and some of its waves over 64 positions."""
    st.header(t("pipeline.pe.title"))
    st.markdown(t("pipeline.pe.body"))
    d_model = result.x.shape[1]
    heat_col, wave_col = st.columns(2)
    with charts.numbers_after(), heat_col:
        positions = [numbers.count(position) for position in range(len(result.tokens))]
        title = charts.shaped(t("pipeline.pe.heat_title"), result.positional)
        charts.show_heatmap(
            charts.token_map(result.positional, positions, title, row_title=t("pipeline.position")), key="pipe_pe"
        )
    with wave_col:
        long_pe = positional_encoding(PE_POSITIONS, d_model)  # (64, d_model)
        shown = sorted({0, 1, d_model - 2, d_model - 1})  # the fastest and the slowest (sin, cos) pair
        series = {t("pipeline.pe.column", j=j, wave="sin" if j % 2 == 0 else "cos"): long_pe[:, j] for j in shown}
        charts.show_lines(
            list(range(PE_POSITIONS)),
            series,
            title=t("pipeline.pe.waves_title"),
            x_title=t("pipeline.position"),
            y_title=t("pipeline.pe.value_axis"),
            highlight=(-0.5, len(result.tokens) - 0.5),
            narrow=True,
            alt=t("pipeline.pe.waves_alt"),
            key="pipe_waves",
        )
        st.caption(plural("pipeline.pe.waves_caption", len(result.tokens)))


def x_ui(result: SentenceVectors, lesson_case: bool) -> None:
    """X = embedding + PE, as a heatmap and as text; said when it is the lesson's x."""
    st.header(t("pipeline.x.title"))
    st.markdown(t("pipeline.x.body"))
    charts.show_heatmap(charts.token_map(result.x, result.tokens, charts.shaped("x", result.x)), key="pipe_x")
    st.code(rows_as_text("x", result.tokens, result.x), language=None)
    if lesson_case:
        st.success(t("pipeline.x.lesson_match"))


def attention_ui(result: PipelineResult, weights: str) -> None:
    """Which matrices, the matrices themselves (folded), and the attention weights."""
    st.caption(t(f"pipeline.attention.weights_{weights}"))
    matrices = st.expander(t("pipeline.attention.matrices"), key="pipeline_matrices_open", on_change="rerun")
    if matrices.open:  # drawn only when opened
        with matrices:
            charts.show_row(charts.weight_specs(result.w_q, result.w_k, result.w_v))
    weights_spec = charts.attention_specs(result.tokens, result.attention, panels=("weights",))[0]
    charts.show_heatmap(weights_spec, key="pipe_weights")
    st.caption(t("pipeline.attention.reading"))


def output_ui(result: PipelineResult) -> None:
    """The outputs, as a heatmap and as text."""
    st.header(t("pipeline.output.title"))
    st.markdown(t("pipeline.output.body"))
    output = result.attention.output
    charts.show_heatmap(charts.token_map(output, result.tokens, charts.shaped("output", output)), key="pipe_output")
    st.code(rows_as_text("output", result.tokens, output), language=None)


def token_at(tokens: Sequence[str], index: int) -> str:
    """A token and its position for a table cell, perro (1); a dash where there is none."""
    return f"{tokens[index]} ({index})" if index >= 0 else "—"


def distance_to_mean_v(result: PipelineResult) -> np.ndarray:
    """‖output_i − mean of V‖ per token: how far each blend is from what perfectly even attention gives."""
    v = result.attention.v  # (n, d_v)
    return np.linalg.norm(result.attention.output - v.mean(axis=0), axis=1)  # (n,)


def effect_frame(result: PipelineResult, top: TopAttended, distance: np.ndarray) -> pd.DataFrame:
    """One row per token: its top attended tokens with their weights, how far its output is from its x, and how
    far from the average of the V's."""
    tokens = result.tokens
    columns: dict[str, list[str] | np.ndarray] = {
        t("pipeline.effect.col.token"): [token_at(tokens, i) for i in range(len(tokens))]
    }
    for rank in range(top.indices.shape[1]):
        columns[t("pipeline.effect.col.top", rank=rank + 1)] = [token_at(tokens, i) for i in top.indices[:, rank]]
        columns[t("pipeline.effect.col.weight", rank=rank + 1)] = top.weights[:, rank]
    columns[t("pipeline.effect.col.moved")] = distance
    columns[t("pipeline.effect.col.mean")] = distance_to_mean_v(result)
    return pd.DataFrame(columns)


def collapse_ui(result: PipelineResult) -> None:
    """Say what the outputs show: with near-uniform weights they are nearly one vector (measured as in the
    walkthrough: the lowest cosine between two outputs), and where the app goes next."""
    reading = collapse_reading(result.attention)
    if reading is None:
        return
    if reading.collapsed:
        spread = numbers.bound(distance_to_mean_v(result).max(), 2, below=False)
        cosine = numbers.bound(reading.lowest, 3, below=True)
        st.warning(t("pipeline.effect.collapse", cosine=cosine, spread=spread) + " " + collapse_why(reading))
    else:
        st.info(t("pipeline.effect.distinct", cosine=numbers.fixed(reading.lowest, 3)))
    st.markdown(t("pipeline.effect.next"))
    if (ROOT / MULTIHEAD_PAGE).exists():
        st.page_link(MULTIHEAD_PAGE, label=t("pipeline.multihead_link"), icon=":material/view_column:")


def effect_ui(result: PipelineResult, top: TopAttended) -> None:
    """Whom each token looked at most, and how far attention moved its vector."""
    st.header(t("pipeline.effect.title"))
    st.markdown(t("pipeline.effect.body"))
    moved = movement(result.x, result.attention.output)
    table_ui(effect_frame(result, top, moved.distance), 3)
    charts.show_arrows(
        moved.x_2d,
        moved.output_2d,
        result.tokens,
        start_name=t("pipeline.effect.x_points"),
        end_name=t("pipeline.effect.output_points"),
        title=t("pipeline.effect.plot_title"),
        x_title=t("pipeline.effect.axis", axis=1, share=numbers.percent(moved.explained[0])),
        y_title=t("pipeline.effect.axis", axis=2, share=numbers.percent(moved.explained[1])),
        alt=t("pipeline.effect.plot_alt"),
        key="pipe_arrows",
    )
    st.caption(t("pipeline.effect.caption", shown=numbers.percent(moved.explained.sum())))
    collapse_ui(result)


def ambiguity_ui(result: PipelineResult, top: TopAttended) -> None:
    """The lesson's question, "who tiene hambre?", answered honestly for made-up weights."""
    tokens = result.tokens
    asker = tokens.index(AMBIGUITY_ASKER)
    present = [word for word in AMBIGUITY_CANDIDATES if word in tokens]
    weights = result.attention.weights[asker]
    scores = result.attention.scores[asker]
    st.header(t("pipeline.ambiguity.title"))
    st.markdown(t("pipeline.ambiguity.body"))
    for column, word in zip(st.columns(len(present)), present, strict=True):
        j = tokens.index(word)
        column.metric(t("pipeline.ambiguity.metric", word=word), numbers.percent(weights[j]))
        column.caption(t("pipeline.ambiguity.score", word=word, score=numbers.signed(scores[j])))
    favourite = int(top.indices[asker, 0])
    st.markdown(
        tm("pipeline.ambiguity.favourite", token=tokens[favourite], weight=numbers.percent(top.weights[asker, 0]))
    )
    perro_wins = max(present, key=lambda word: weights[tokens.index(word)]) == "perro"
    st.markdown(t("pipeline.ambiguity.lucky" if perro_wins else "pipeline.ambiguity.unlucky"))
    st.subheader(t("pipeline.ambiguity.learning_title"))
    st.markdown(t("pipeline.ambiguity.learning"))
    st.latex(
        r"\underbrace{x_{\text{tiene}} W_Q}_{q_{\text{tiene}}} \cdot "
        r"\underbrace{x_{\text{perro}} W_K}_{k_{\text{perro}}} \;\gg\; q_{\text{tiene}} \cdot k_{\text{carne}}"
    )
    st.markdown(t("pipeline.ambiguity.bridge"))


def attention_intro_ui(vectors: SentenceVectors) -> None:
    """Self-attention's heading, what it computes with which shapes, and that this page has options of its own."""
    n, d_model = vectors.x.shape
    d_k = d_model  # the pipeline's W are square: d_k = d_v = d_model
    st.header(t("pipeline.attention.title"))
    st.markdown(t("pipeline.attention.body"))
    st.caption(
        t(
            "pipeline.attention.shapes",
            x=shape(n, d_model),
            w=shape(d_model, d_k),
            q=shape(n, d_k),
            kt=shape(d_k, n),
            s=shape(n, n),
        )
    )
    st.info(t("pipeline.options", dk=numbers.count(d_k), divisor=numbers.short(divisor_for(Scale.SQRT, d_k))))


def code_ui() -> None:
    """The numpy lines the engine runs from the sentence to the outputs, folded."""
    with st.expander(t("pipeline.code")):
        st.code(t("pipeline.code.body"), language="python", wrap_lines=True)


@st.fragment
def attention_onward_ui(vectors: SentenceVectors) -> None:
    """Attention and everything after it, with the controls that change only these: switching the mask or the
    weights reruns this fragment, not the stages above (x does not depend on W)."""
    weights, seed, causal = attention_controls_ui(vectors.x.shape[1])
    result = attend(vectors, weights=weights, seed=seed, causal=causal)
    top = top_attended(result.attention.weights, k=2, allowed=result.attention.allowed)
    attention_ui(result, weights)
    output_ui(result)
    if not questions.gate_ui("pipeline", result, templates=questions.PIPELINE_TEMPLATES):
        return
    effect_ui(result, top)
    if AMBIGUITY_ASKER in result.tokens and "perro" in result.tokens:
        ambiguity_ui(result, top)
    pipeline_context.context_ui(vectors.x.shape[1], weights, seed, causal)


def is_lesson_case(vectors: SentenceVectors, d_model: int) -> bool:
    """Whether this is the lesson's sentence at the lesson's d_model (its x are then the lesson's, to the digit)."""
    return vectors.tokens == LESSON_TOKENS and d_model == LESSON_D_MODEL
