"""The pipeline page's «the same word in two sentences»: with the page's own engine and made-up weights, a token at
the same position of two sentences goes in with the same x and comes out with another output, because its
neighbours differ. Mixing, not meaning: the page says so, and links to the real model, where it is measured."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import PipelineResult, attend, sentence_vectors, top_attended
from engine.errors import EngineInputError
from engine.limits import MAX_SENTENCE_CHARS
from engine.questions import WordPairView
from engine.similarity import row_cosines
from ui import charts, numbers, questions, state
from ui.editing import refusal_text
from ui.i18n import t, tm
from ui.tables import table_ui

KEYS = ("pipeline_ctx_word", "pipeline_ctx_a", "pipeline_ctx_b")
EXAMPLES = {  # the word at the same position in both: the same x, other neighbours
    "es": ("banco", "el banco de la plaza", "el banco me dio un préstamo"),
    "en": ("bank", "the bank of the river", "the bank gave me a loan"),
}
SAME_X = 1e-12  # two x whose cosine is this close to 1 are the same x


def inputs_ui() -> tuple[str, str, str]:
    """The word and the two sentences, kept for the session."""
    word_default, a_default, b_default = EXAMPLES.get(state.current_language(), EXAMPLES["es"])
    word_col, a_col, b_col = st.columns([1, 2, 2])
    word = word_col.text_input(t("pctx.word"), value=word_default, key=KEYS[0], max_chars=40, persist_state="session")
    first = a_col.text_input(
        t("pctx.a"), value=a_default, key=KEYS[1], max_chars=MAX_SENTENCE_CHARS, persist_state="session"
    )
    second = b_col.text_input(
        t("pctx.b"), value=b_default, key=KEYS[2], max_chars=MAX_SENTENCE_CHARS, persist_state="session"
    )
    return word, first, second


def position(result: PipelineResult, word: str) -> int | None:
    """The first position of `word` among the sentence's tokens (the tokenizer lower-cases), or None."""
    wanted = word.strip().lower()
    return result.tokens.index(wanted) if wanted in result.tokens else None


def context_ui(d_model: int, weights: str, seed: int, causal: bool) -> None:
    """Two sentences through the page's attention, with its weights and mask: the word's x and output in both."""
    st.header(t("pctx.title"))
    st.markdown(t("pctx.body"))
    word, *sentences = inputs_ui()
    results, where = [], []
    for sentence in sentences:
        try:
            result = attend(sentence_vectors(sentence, d_model), weights=weights, seed=seed, causal=causal)
        except EngineInputError as error:
            st.warning(refusal_text(error.code, error.params))
            return
        found = position(result, word)
        if found is None:
            st.warning(tm("pctx.not_found", word=word, sentence=sentence))
            return
        results.append(result)
        where.append(found)
    xs = np.stack([r.x[i] for r, i in zip(results, where, strict=True)])  # (2, d_model)
    outs = np.stack([r.attention.output[i] for r, i in zip(results, where, strict=True)])  # (2, d_v)
    x_cos, out_cos = (float(row_cosines(m[:1], m[1:])[0]) for m in (xs, outs))
    if not questions.gate_ui("pipeline.context", WordPairView(word.strip().lower(), 1 - x_cos <= SAME_X, out_cos)):
        return
    labels = [f"x · {name}" for name in (t("pctx.a"), t("pctx.b"))] + [
        f"output · {name}" for name in (t("pctx.a"), t("pctx.b"))
    ]
    charts.show_heatmap(
        charts.token_map(np.vstack([xs, outs]), labels, t("pctx.vectors", word=word), decimals=3),
        key="pipe_ctx_vectors",
    )
    table_ui(neighbours_frame(results, where, sentences))
    # a cosine that differs from 1 is never written 1,000 beside "comes out different"
    words = {"word": word, "x_cos": numbers.apart(x_cos, 1.0), "out_cos": numbers.apart(out_cos, 1.0)}
    if 1 - out_cos <= SAME_X:
        key = "pctx.reading.identical_causal" if causal else "pctx.reading.identical"
    else:
        key = "pctx.reading.same_x" if 1 - x_cos <= SAME_X else "pctx.reading.other_x"
    st.info(tm(key, **words))
    st.markdown(t("pctx.honest"))
    st.page_link("pages/real_model.py", label=t("pctx.real_link"), icon=":material/model_training:")


def neighbours_frame(results: list[PipelineResult], where: list[int], sentences: list[str]) -> pd.DataFrame:
    """Per sentence: the word's position and the two tokens its row of weights gives the most, with their weights."""
    rows = []
    for result, i, sentence in zip(results, where, sentences, strict=True):
        top = top_attended(result.attention.weights, k=2, allowed=result.attention.allowed)
        looks = ", ".join(
            f"{result.tokens[j]} ({numbers.fixed(w)})"
            for j, w in zip(top.indices[i], top.weights[i], strict=True)
            if j >= 0
        )
        rows.append({t("pctx.col.sentence"): sentence, t("pctx.col.position"): i, t("pctx.col.top"): looks})
    return pd.DataFrame(rows)
