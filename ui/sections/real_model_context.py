"""The real-model page's «what attention is for»: the same word in two sentences the reader edits, its vector at
every stage in both, their cosine stage by stage against a control pair, the heads that carried the most into it,
and a reading that says no more than the cosines do."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine.context import WordInContext, WordPair, word_in_context, word_pair
from engine.encoder import encode, find_word
from engine.errors import EngineInputError
from engine.limits import MAX_SENTENCE_CHARS
from engine.model_files import Model, tokenize
from engine.questions import WordPairView
from ui import charts, model_source, numbers, questions, state
from ui.i18n import t, tm
from ui.model_source import LoadedModel
from ui.sections.real_model import INFO, WARNING
from ui.tables import table_ui
from ui.view_models import context as model
from ui.view_models.context import EXAMPLES

KEYS = ("real_ctx_word", "real_ctx_a", "real_ctx_b", "real_ctx_c", "real_ctx_d")  # the word, the pair, the control
FOLD_KEY = "real_ctx_open"  # the section's fold: its four forward passes run only while it is open
SHOWN_DIMS = 16  # the vectors' first dimensions drawn (the real model has 384)
TOP_HEADS = 2  # heads named per layer


@st.cache_resource(show_spinner=False, max_entries=16)
def _word(_model: Model, directory: str, sentence: str, word: str) -> WordInContext:
    """The word through the model in this sentence: small (a vector per stage, a number per head), kept for every
    session; the forward pass behind it is not kept."""
    tokens = tokenize(_model, sentence)
    result = encode(tokens.ids, _model.weights, _model.config)
    rows = np.asarray(_model.weights.word_embeddings[np.asarray(tokens.ids)], dtype=np.float64)  # (n, d_model)
    return word_in_context(result, tokens, rows, find_word(tokens, word))


def _use_example(lang: str) -> None:
    example = EXAMPLES[lang]
    for key, value in zip(KEYS, (example.word, *example.pair, *example.control), strict=True):
        state.set_widget(key, value)


def inputs_ui() -> tuple[str, tuple[str, str], tuple[str, str]]:
    """The word, the two sentences and the control pair, each kept for the session; the examples in both languages."""
    example = EXAMPLES.get(state.current_language(), EXAMPLES["es"])
    defaults = (example.word, *example.pair, *example.control)
    word = st.text_input(t("ctx.word"), value=defaults[0], key=KEYS[0], max_chars=40, persist_state="session")
    boxes = []
    for (label, help_key), key, default in zip(
        (("ctx.pair.a", "ctx.pair.help"), ("ctx.pair.b", "ctx.pair.help")),
        KEYS[1:3],
        defaults[1:3],
        strict=True,
    ):
        boxes.append(
            st.text_input(
                t(label),
                value=default,
                key=key,
                help=t(help_key),
                max_chars=MAX_SENTENCE_CHARS,
                persist_state="session",
            )
        )
    with st.container(border=True):  # inside the section's fold: a box, not a second fold
        st.markdown(f"**{t('ctx.control.title')}**")
        st.caption(t("ctx.control.body"))
        control = [
            st.text_input(t(label), value=default, key=key, max_chars=MAX_SENTENCE_CHARS, persist_state="session")
            for label, key, default in zip(("ctx.control.a", "ctx.control.b"), KEYS[3:], defaults[3:], strict=True)
        ]
    for column, lang in zip(st.columns(len(EXAMPLES)), EXAMPLES, strict=True):
        column.button(
            t(f"ctx.example.{lang}"),
            on_click=_use_example,
            args=(lang,),
            key=f"real_ctx_example_{lang}",
            width="stretch",
        )
    return word, (boxes[0], boxes[1]), (control[0], control[1])


def pair_or_none(loaded: LoadedModel, word: str, sentences: tuple[str, str]) -> WordPair | None:
    """The word in both sentences, or None after saying in the reader's language what is wrong."""
    found = []
    for sentence in sentences:
        try:
            found.append(_word(loaded.model, str(loaded.source.directory), sentence, word))
        except EngineInputError as error:
            if error.code == "word_not_in_sentence":
                st.warning(tm("ctx.not_found", word=word, sentence=sentence), icon=WARNING)
            else:
                st.warning(model_source.error_message(error), icon=WARNING)
            return None
    return word_pair(found[0], found[1])


def stage_names(pair: WordPair) -> list[str]:
    """The word table, the embeddings, capa 1 … capa L."""
    layers = model.stage_count(pair) - 2
    return [t("ctx.stage.table"), t("ctx.stage.embeddings")] + [
        t("ctx.stage.layer", layer=numbers.count(k + 1)) for k in range(layers)
    ]


def heads_text(pair: WordPair, layer: int) -> str:
    """The heads of one layer that carried the most into the word, with what each carried in both sentences."""
    return "; ".join(
        t(
            "ctx.head",
            head=numbers.count(head + 1),
            first=numbers.fixed(first, 2),
            second=numbers.fixed(second, 2),
        )
        for head, first, second in pair.top_heads(layer, TOP_HEADS)
    )


def context_ui(loaded: LoadedModel) -> None:
    """The section's title and what it measures; the rest folded, and computed only once the reader opens it: its
    four forward passes (the pair and the control) took a third of the page's first open."""
    st.header(t("ctx.title"))
    st.markdown(t("ctx.body"))
    fold = st.expander(t("ctx.open"), key=FOLD_KEY, on_change="rerun", icon=":material/compare_arrows:")
    if fold.open:
        with fold:
            measured_ui(loaded)


def measured_ui(loaded: LoadedModel) -> None:
    """Inputs, the question before the numbers, the cosines, the vectors, the heads, the reading."""
    word, sentences, controls = inputs_ui()
    if not word.strip():
        st.info(t("ctx.no_word"), icon=INFO)
        return
    pair = pair_or_none(loaded, word, sentences)
    control = pair_or_none(loaded, word, controls) if pair is not None else None
    if pair is None or control is None:
        return
    if not questions.gate_ui("real_model.context", WordPairView.of(pair)):
        return
    names = stage_names(pair)
    reading = model.ContextReading(pair, control)
    charts.show_lines(
        list(range(len(names))),
        {t("ctx.series.pair"): pair.cosines, t("ctx.series.control"): control.cosines},
        x_labels=names,
        markers=True,
        title=t("ctx.figure", word=word),
        x_title=t("ctx.figure.x"),
        y_title=t("ctx.figure.y"),
        alt=t("ctx.figure.alt", word=word),
        key="real_ctx_cosines",
    )
    table_ui(
        pd.DataFrame(
            {
                t("ctx.col.stage"): names,
                t("ctx.col.pair"): pair.cosines,
                t("ctx.col.control"): control.cosines,
                t("ctx.col.heads"): ["—", "—"] + [heads_text(pair, k) for k in range(len(names) - 2)],
            }
        )
    )
    st.caption(t("ctx.heads.caption"))
    vectors_ui(pair, names, sentences)
    say_ui(reading, word)


def vectors_ui(pair: WordPair, names: list[str], sentences: tuple[str, str]) -> None:
    """The word's vector at every stage in both sentences (its first dimensions), on one colour scale."""
    d_model = pair.first.vectors.shape[1]
    shown = min(SHOWN_DIMS, d_model)
    panels = [
        charts.token_map(
            vectors[:, :shown],
            names,
            t("ctx.vectors.title", sentence=sentence, shown=numbers.count(shown), d=numbers.count(d_model)),
            decimals=2,
        )
        for vectors, sentence in zip((pair.first.vectors, pair.second.vectors), sentences, strict=True)
    ]
    charts.show_grid(panels, t("ctx.vectors.figure"), key="real_ctx_vectors")


def say_ui(reading: model.ContextReading, word: str) -> None:
    """What the cosines say, and what they do not."""
    pair, control = reading.pair, reading.control
    words = {
        "word": word,
        "first": numbers.fixed(pair.cosines[0]),
        "pair": numbers.fixed(pair.cosines[-1]),
        "control": numbers.fixed(control.cosines[-1]),
        "margin": numbers.short(model.CONTROL_MARGIN),
    }
    st.info(
        tm(f"ctx.reading.{reading.start}", **words) + " " + tm(f"ctx.reading.{reading.verdict}", **words),
        icon=":material/compare_arrows:",
    )
    st.caption(t("ctx.caveat"))
