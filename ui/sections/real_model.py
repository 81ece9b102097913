"""The real-model page's sections: a sentence, the pieces the model reads, every head at once, one head large with
its measures, the heads sorted by a measure, «¿quién tiene hambre?», one weight derived as in the walkthrough, and
where the model comes from.

Layers and heads are numbered from 1 on the page (capa 1 … 12), positions of pieces from 0 (as the pipeline page
numbers tokens); the engine counts both from 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

import numpy as np
import pandas as pd
import streamlit as st

from engine.encoder import HeadPreference, Tokens, cell_derivation, find_word, rank_heads
from engine.errors import EngineInputError
from engine.limits import MAX_MODEL_TOKENS, MAX_SENTENCE_CHARS
from engine.model_files import MODEL_DIR_VARIABLE, MODEL_REPO, MODEL_REVISION
from engine.questions import RealModelView
from ui import charts, figure_specs, model_source, numbers, questions, state
from ui.derivation import cell_rows, show
from ui.i18n import t, tm
from ui.layout import grids_wait
from ui.model_source import LoadedModel, Reading
from ui.tables import table_ui

SENTENCE_KEY = "real_sentence"
LAYER_KEY = "real_layer"
HEAD_KEY = "real_head"
SORT_KEY = "real_sort"
EXAMPLES = {
    "es": "el perro come carne porque tiene hambre",
    "en": "the dog ate the meat because it was hungry",
}


class Question(NamedTuple):
    """Whom does `asker` refer to: `first` (the right answer) or `second`?"""

    asker: str
    first: str
    second: str


QUESTIONS = (Question("tiene", "perro", "carne"), Question("it", "dog", "meat"))
# A head "resolves" the question when «tiene» gives «perro» at least this much more weight than «carne»:
# 0.1 of the row's weight: a difference the colours of the head's map show; a smaller one is not called a resolution.
CLEAR_MARGIN = 0.10
TOP_HEADS = 5  # heads listed under the question
PIECES_PER_TABLE = {True: 8, False: 16}  # pieces in one row of tables: what fits a projector, a 1400 px screen
SORTED_HEADS_SHOWN = 12  # heads in the static table of presentation mode (the sortable grid is too small to read)
# Every alert names its icon: one without an icon has Streamlit look for an emoji at the start of its (non-ASCII)
# text, and the first such look loads its emoji catalog, 0.1-0.3 s of the page's first open (py-spy).
INFO, WARNING = ":material/info:", ":material/warning:"
# Each measure and whether the table sorts it ascending: the most focused heads first, the rest by the most weight.
MEASURES = {"entropy": True, "special": False, "previous": False, "self_weight": False}


class Asked(NamedTuple):
    """A question the sentence can ask, with the words' positions and every head ranked."""

    question: Question
    asker: int
    first: int
    second: int
    ranked: tuple[HeadPreference, ...]


def asked(reading: Reading) -> Asked | None:
    """The first question whose three words are all in the sentence, with every head ranked; None otherwise."""
    for question in QUESTIONS:
        try:
            asker, first, second = (find_word(reading.tokens, word) for word in question)
        except EngineInputError:
            continue
        return Asked(question, asker, first, second, rank_heads(reading.words, asker, first, second))
    return None


# --- the sentence ---


def _use_example(sentence: str) -> None:
    state.set_widget(SENTENCE_KEY, sentence)


def sentence_ui() -> str:
    """The sentence and the example buttons; the sentence survives a page switch."""
    sentence = st.text_input(
        t("real.sentence"),
        value=EXAMPLES["es"],
        key=SENTENCE_KEY,
        help=t("real.sentence_help", pieces=numbers.count(MAX_MODEL_TOKENS), chars=numbers.count(MAX_SENTENCE_CHARS)),
        max_chars=MAX_SENTENCE_CHARS,  # the browser stops typing there, and Streamlit cuts what a message carries
        persist_state="session",
    )
    if len(sentence) >= MAX_SENTENCE_CHARS:
        st.info(t("limits.sentence_at_limit", limit=numbers.count(MAX_SENTENCE_CHARS)), icon=INFO)
    for column, (lang, example) in zip(st.columns(len(EXAMPLES)), EXAMPLES.items(), strict=True):
        column.button(
            t(f"real.example.{lang}"),
            help=example,
            on_click=_use_example,
            args=(example,),
            key=f"real_example_{lang}",
            width="stretch",
        )
    return sentence


def reading_or_stop(loaded: LoadedModel, sentence: str) -> Reading:
    """The sentence through the model, or what is wrong with it and the end of the page."""
    try:
        with st.spinner(t("real.computing")):
            return model_source.read(loaded, sentence)
    except EngineInputError as error:
        st.warning(model_source.error_message(error), icon=WARNING)
        st.stop()
        raise


# --- the pieces ---


def piece_label(tokens: Tokens, i: int) -> str:
    """A piece with its position, "per (2)": the same piece can appear twice in a sentence."""
    return t("real.piece_label", piece=tokens.pieces[i], position=numbers.count(i))


def pieces_frame(tokens: Tokens, start: int = 0, stop: int | None = None) -> pd.DataFrame:
    """One column per piece from `start` to `stop`: the piece, its row in the embedding table, its word."""
    shown = range(len(tokens.pieces))[start:stop]
    rows = {
        t("real.pieces.row.piece"): [tokens.pieces[p] for p in shown],
        t("real.pieces.row.id"): [numbers.count(tokens.ids[p]) for p in shown],
        t("real.pieces.row.word"): [
            t("real.pieces.special") if (word := tokens.word_of_piece[p]) is None else tokens.words[word] for p in shown
        ],
    }
    columns = [t("real.pieces.row.position"), *(numbers.count(p) for p in shown)]
    return pd.DataFrame([[name, *values] for name, values in rows.items()], columns=columns)


def split_words(tokens: Tokens) -> list[tuple[str, list[str]]]:
    """The words the tokenizer cut into several pieces, each with its pieces in order."""
    pieces: dict[int, list[str]] = {}
    for piece, word in zip(tokens.pieces, tokens.word_of_piece, strict=True):
        if word is not None:
            pieces.setdefault(word, []).append(piece)
    return [(tokens.words[w], found) for w, found in sorted(pieces.items()) if len(found) > 1]


def pieces_ui(loaded: LoadedModel, reading: Reading) -> None:
    """The pieces as a table, the words cut into several, and why a word can be one piece or several."""
    tokens = reading.tokens
    st.header(t("real.pieces.title"))
    st.markdown(
        t(
            "real.pieces.body",
            n=numbers.count(len(tokens.pieces)),
            words=numbers.count(sum(any(ch.isalnum() for ch in word) for word in tokens.words)),  # "." is no word
            special=numbers.count(sum(tokens.special)),
        )
    )
    per_table = PIECES_PER_TABLE[state.presentation_mode()]
    for start in range(0, len(tokens.pieces), per_table):
        table_ui(pieces_frame(tokens, start, start + per_table))
    split = split_words(tokens)
    if split:
        listed = "; ".join(
            tm("real.pieces.split_one", word=word, pieces=" + ".join(pieces), n=numbers.count(len(pieces)))
            for word, pieces in split
        )
        st.markdown(t("real.pieces.split", words=listed))
    else:
        st.markdown(t("real.pieces.none_split"))
    st.markdown(t("real.pieces.why", vocab=numbers.count(loaded.model.config.vocab_size)))


# --- every head at once, and the one picked ---


def question_view(reading: Reading, layer: int, head: int, cell: tuple[int, int] | None = None) -> RealModelView:
    """What this page's questions are about: the pieces, the encoder's result, the picked head (and cell)."""
    return RealModelView.of(reading.tokens, reading.result, layer, head, cell)


def _pick(layer: int, head: int) -> None:
    state.set_widget(LAYER_KEY, layer)
    state.set_widget(HEAD_KEY, head)


def _label_of(labels: Mapping[Any, str]) -> Callable[[Any], str]:
    """`labels.get` as a select box's format_func (the typed form its stub accepts; still None, not a KeyError,
    for a value that is not among the options)."""
    return cast(Callable[[Any], str], labels.get)


def head_picker_ui(reading: Reading, best: HeadPreference | None) -> tuple[int, int]:
    """Which head the page shows large and derives: a layer and a head, both numbered from 1 on the page."""
    layers, heads = reading.result.attentions.shape[:2]
    # labels made here, not in format_func: Streamlit also calls it outside this run (AppTest does)
    numbered = {k: numbers.count(k + 1) for k in range(max(layers, heads))}
    layer_col, head_col, best_col = st.columns([1, 1, 2], vertical_alignment="bottom")
    layer = layer_col.selectbox(
        t("real.layer"),
        range(layers),
        index=best.layer if best is not None else 0,
        format_func=_label_of(numbered),
        key=LAYER_KEY,
    )
    head = head_col.selectbox(
        t("real.head"),
        range(heads),
        index=best.head if best is not None else 0,
        format_func=_label_of(numbered),
        key=HEAD_KEY,
    )
    if best is not None:
        best_col.button(
            t("real.pick_best"), on_click=_pick, args=(best.layer, best.head), key="real_pick_best", width="stretch"
        )
    return int(layer), int(head)


def all_heads_ui(reading: Reading, found: Asked | None) -> tuple[int, int]:
    """Every head of every layer in one figure, the head picker (starting at the question's best head, if the
    sentence asks one), the picked one framed; returns the pick."""
    layers, heads, n, _ = reading.result.attentions.shape
    st.header(t("real.all.title"))
    st.markdown(
        t(
            "real.all.body",
            layers=numbers.count(layers),
            heads=numbers.count(heads),
            total=numbers.count(layers * heads),
            n=numbers.count(n),
        )
    )
    layer, head = head_picker_ui(reading, found.ranked[0] if found is not None else None)
    charts.show_small_multiples(
        reading.result.attentions,
        title=t("real.all.figure", layer=numbers.count(layer + 1), head=numbers.count(head + 1)),
        row_title=t("real.all.layer_axis"),
        col_title=t("real.all.head_axis"),
        selected=(layer, head),
        alt=t("real.all.alt", layers=numbers.count(layers), heads=numbers.count(heads), n=numbers.count(n)),
        key="real_multiples",
    )
    st.caption(t("real.all.reading"))
    return layer, head


def head_ui(reading: Reading, layer: int, head: int) -> None:
    """The picked head large, with the model's pieces on both axes and each cell's arithmetic on hover."""
    tokens, measures = reading.tokens, reading.measures
    names = {"layer": numbers.count(layer + 1), "head": numbers.count(head + 1)}
    st.header(t("real.head.title", **names))
    spec = charts.attention_specs(tokens.pieces, reading.result.head(layer, head), panels=("weights",))[0]
    spec = dataclasses.replace(spec, title=t("real.head.figure", **names))
    # built on every run, never kept in charts.FIGURES: one per sentence and head, each up to 64 × 64 cells with a
    # line of hover text apiece, would fill the shared cache (a few milliseconds to build)
    figure = figure_specs.heatmap_figure(spec, charts.style(), state.current_language())
    charts.show_figure(figure, spec.title, charts.describe(spec), key="real_head_figure")
    charts.numbers_ui([spec], key="real_head_figure")
    st.caption(t("real.head.hover"))
    n = len(tokens.pieces)
    for column, name in zip(st.columns(len(MEASURES)), MEASURES, strict=True):
        column.metric(
            t(f"real.measure.{name}"),
            numbers.fixed(getattr(measures, name)[layer, head], 3),
            help=t(f"real.measure.{name}.help", most=numbers.fixed(np.log(n), 2)),
        )


def measures_frame(reading: Reading, sort: str) -> pd.DataFrame:
    """One row per head, sorted by `sort`. Measures are written in the reader's language as text of one width
    (one digit before the decimal sign: entropies stay below ln 64 ≈ 4,16, weights below 1), so the table's own
    sorting by text is sorting by value."""
    measures = reading.measures
    heads = measures.entropy.shape[1]
    order = np.argsort(getattr(measures, sort).ravel(), kind="stable")
    if not MEASURES[sort]:
        order = order[::-1]
    rows = []
    for flat in order:
        layer, head = divmod(int(flat), heads)
        row = {t("real.col.layer"): layer + 1, t("real.col.head"): head + 1}
        for name in MEASURES:
            row[t(f"real.measure.{name}")] = numbers.fixed(getattr(measures, name)[layer, head], 3)
        rows.append(row)
    return pd.DataFrame(rows)


def measures_ui(reading: Reading) -> None:
    """Every head's four measures in a table the reader sorts (a selector, or a click on a column)."""
    st.subheader(t("real.measures.title"))
    st.markdown(t("real.measures.body"))
    labels = {name: t(f"real.sort.{name}") for name in MEASURES}
    sort = st.selectbox(t("real.measures.sort"), list(MEASURES), format_func=_label_of(labels), key=SORT_KEY)
    frame = measures_frame(reading, sort)
    if state.presentation_mode():
        table_ui(frame.head(SORTED_HEADS_SHOWN), 3)
        st.caption(t("real.measures.first", shown=numbers.count(SORTED_HEADS_SHOWN), total=numbers.count(len(frame))))
    elif not grids_wait():
        st.dataframe(frame, hide_index=True, height=388, width="content")


# --- «¿quién tiene hambre?» ---


def preferences_frame(ranked: tuple[HeadPreference, ...], question: Question) -> pd.DataFrame:
    """One row per head: the asking word's weight to each candidate and their difference."""
    rows = [
        {
            t("real.col.layer"): p.layer + 1,
            t("real.col.head"): p.head + 1,
            t("real.col.to", asker=question.asker, word=question.first): p.to_first,
            t("real.col.to", asker=question.asker, word=question.second): p.to_second,
            t("real.col.margin"): p.margin,
        }
        for p in ranked
    ]
    return pd.DataFrame(rows)


def question_ui(found: Asked, sentence: str) -> None:
    """The question, the rule from pieces to words, the best head (or the honest lack of one), the top five. Whom
    the asker refers to is said of the examples only: in an edited sentence it is the reader's to judge."""
    question, ranked = found.question, found.ranked
    words = {"asker": question.asker, "first": question.first, "second": question.second}
    best = ranked[0]
    wins = sum(p.margin > 0 for p in ranked)
    where = {"layer": numbers.count(best.layer + 1), "head": numbers.count(best.head + 1)}
    shares = {"to_first": numbers.fixed(best.to_first), "to_second": numbers.fixed(best.to_second)}
    st.header(t(f"real.question.title.{question.asker}"))
    example = sentence.strip() in EXAMPLES.values()
    st.markdown(tm("real.question.body" if example else "real.question.body.edited", **words))
    st.markdown(tm("real.question.rule", **words))
    if best.margin <= 0:
        st.warning(tm("real.question.never", **words), icon=WARNING)
    elif best.margin < CLEAR_MARGIN:
        st.info(tm("real.question.weak", **words, **where, **shares, margin=numbers.fixed(best.margin)), icon=INFO)
    else:
        st.success(tm("real.question.best", **words, **where, **shares), icon=":material/check_circle:")
    st.markdown(tm("real.question.count", wins=numbers.count(wins), total=numbers.count(len(ranked)), **words))
    table_ui(preferences_frame(ranked[:TOP_HEADS], question), 3)
    st.caption(t("real.question.caveat"))


# --- one weight, derived ---


def default_cell(reading: Reading, found: Asked | None) -> tuple[int, int]:
    """The cell derived first: the asking word's first piece looking at the right answer's first piece, or the
    first word's first piece looking at itself."""
    pieces_of = reading.tokens.word_of_piece
    if found is not None:
        return pieces_of.index(found.asker), pieces_of.index(found.first)
    first = pieces_of.index(0)
    return first, first


def cell_ui(reading: Reading, layer: int, head: int, found: Asked | None) -> None:
    """Any weight of the picked head, from q·k (its d_head terms folded) through ÷√d_head and the row's softmax;
    what the softmax receives for the picked cell is asked first."""
    tokens, result = reading.tokens, reading.result
    n = len(tokens.pieces)
    attended = result.head(layer, head)
    d_head = attended.q.shape[1]
    st.header(t("real.cell.title"))
    st.markdown(t("real.cell.body", d=numbers.count(d_head), divisor=numbers.short(attended.divisor)))
    st.page_link("pages/walkthrough.py", label=t("real.cell.link"), icon=":material/footprint:")
    default_i, default_j = default_cell(reading, found)
    query_col, key_col = st.columns(2)

    # keyed by the sentence's length: a position chosen for a longer sentence may not exist in a shorter one
    labels = {k: piece_label(tokens, k) for k in range(n)}
    i = query_col.selectbox(
        t("real.cell.query"), range(n), index=default_i, format_func=_label_of(labels), key=f"real_query_{n}"
    )
    j = key_col.selectbox(
        t("real.cell.key"), range(n), index=default_j, format_func=_label_of(labels), key=f"real_key_{n}"
    )
    if not questions.gate_ui("real_model.cell", question_view(reading, layer, head, (int(i), int(j)))):
        return  # the cell's arithmetic waits for a prediction of what the softmax receives
    cell = cell_derivation(result, layer, head, int(i), int(j))
    rows = cell_rows(cell, list(labels.values()))
    st.markdown(
        tm(
            "real.cell.summary",
            layer=numbers.count(layer + 1),
            head=numbers.count(head + 1),
            query=piece_label(tokens, cell.i),
            other=piece_label(tokens, cell.j),
            score=numbers.signed(cell.dot.exact),
            divisor=numbers.short(cell.divisor),
            # as the division below writes it: the score as shown, divided (+1,335 / 2 ≈ +0,668, not +0,667)
            scaled=numbers.signed(cell.scaled_score if cell.division is None else cell.division.result),
            weight=numbers.fixed(cell.weight),
        )
    )
    st.markdown(t("real.cell.bias"))
    with st.expander(t("real.cell.terms", d=numbers.count(d_head))):
        show(rows.score)
    st.markdown(t("real.cell.divide"))
    show(rows.division)
    st.markdown(tm("real.cell.softmax", query=piece_label(tokens, cell.i)))
    show(rows.softmax)
    weight, written_weight = numbers.fixed(cell.weight), numbers.fixed(cell.written_weight)
    st.info(
        tm(
            "real.cell.reading" if weight == written_weight else "real.cell.reading_rounded",
            query=piece_label(tokens, cell.i),
            other=piece_label(tokens, cell.j),
            weight=weight,
            written=written_weight,
        ),
        icon=":material/calculate:",
    )


# --- where the model comes from ---


def languages_fact(loaded: LoadedModel) -> str:
    """The languages the model card names: the pinned model's count, or a local card's list."""
    if loaded.source.origin == "hub":
        return t("real.about.languages_hub", n=numbers.count(model_source.HUB_LANGUAGES))
    if not loaded.card.languages:
        return t("real.about.languages_unknown")
    return tm("real.about.languages", languages=", ".join(loaded.card.languages))


def provenance_ui(loaded: LoadedModel) -> None:
    """The model's name, licence, languages, version, where it was loaded from and its shape."""
    config, source = loaded.model.config, loaded.source
    st.header(t("real.about.title"))
    facts = [
        tm("real.about.name", name=MODEL_REPO)
        if source.origin == "hub"
        else tm("real.about.local_name", name=source.directory.name),
        tm("real.about.licence", licence=loaded.card.licence)
        if loaded.card.licence
        else t("real.about.licence_unknown"),
        languages_fact(loaded),
        tm("real.about.revision", revision=MODEL_REVISION) if source.origin == "hub" else t("real.about.no_revision"),
        t(f"real.about.from.{source.origin}", variable=MODEL_DIR_VARIABLE, secret=model_source.MODEL_DIR_SECRET),
        t(
            "real.about.shape",
            architecture=config.architecture,
            layers=numbers.count(config.n_layers),
            heads=numbers.count(config.n_heads),
            d_model=numbers.count(config.d_model),
            d_head=numbers.count(config.d_head),
            vocab=numbers.count(config.vocab_size),
        ),
    ]
    st.markdown("\n".join(f"- {fact}" for fact in facts))
    st.caption(t("real.about.engine"))
