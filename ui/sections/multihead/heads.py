"""The multi-head page's heads part: every head's weights side by side, what each one measurably does, how the
designed ones were built, and one head in detail (its Q, K, V and any cell's arithmetic)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from engine import AttentionResult, HeadBehaviour, MultiHeadResult, Scale, derivation, head_behaviour
from engine.designed_heads import DESIGNED_TOP_WEIGHT, SUBJECT, VERBS
from engine.multihead import FOCUS_WEIGHT, HeadWeights
from engine.peakedness import FLAT_EFFECTIVE_SHARE, SATURATED_MAX_WEIGHT
from ui import charts, numbers, state
from ui.derivation import BLANK, CellTexts, cell_derivation_ui, sub, vector_row
from ui.i18n import plural, t, tm
from ui.sections.multihead.common import choice_ui, head_name, job_text, quoted, weights_panels
from ui.tables import table_ui
from ui.view_models import multihead as model
from ui.view_models.multihead import Heads, Source


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


def built_for_text(job: str, tokens: Sequence[str]) -> str:
    """What a designed head was built to do, in words."""
    if job == "subject":
        return t("mh.built.subject", verbs=quoted([verb for verb in VERBS if verb in tokens]), subject=SUBJECT)
    return t(f"mh.built.{job}")


def heads_ui(source: Source, heads: Heads, result: MultiHeadResult) -> list[HeadBehaviour]:
    """Every head's weights in one figure, what each head does (measured), and how the designed ones were built."""
    refused_ui(source, heads)
    st.markdown(t("mh.heads.body"))
    names = [head_name(k) for k in range(len(result.heads))]
    charts.show_grid(weights_panels(source.tokens, result.heads, names), t("mh.heads.figure"), key="mh_heads")
    st.caption(t("mh.heads.caption"))
    behaviours = [head_behaviour(head) for head in result.heads]
    st.subheader(t("mh.measured.title"))
    st.markdown(
        t(
            "mh.measured.body",
            max_entropy=numbers.fixed(math.log(source.n)),
            n=numbers.count(source.n),
            sat=numbers.short(SATURATED_MAX_WEIGHT),
            flat=numbers.percent(FLAT_EFFECTIVE_SHARE, 0),
        )
    )
    table_ui(measured_frame(source, heads, result, behaviours))
    table_ui(top_frame(source.tokens, result.heads, behaviours, names))
    st.caption(t("mh.top.caption", focus=numbers.short(FOCUS_WEIGHT)))
    if heads.jobs is not None:
        construction_ui(heads)
    return behaviours


def measured_frame(
    source: Source, heads: Heads, result: MultiHeadResult, behaviours: Sequence[HeadBehaviour]
) -> pd.DataFrame:
    """One line per head: its d_k, (designed:) what it was built for and how many rows do that, what it does."""
    columns: dict[str, list] = {
        t("mh.measured.col.head"): [head_name(k) for k in range(len(behaviours))],
        "d_k": [int(head.q.shape[1]) for head in result.heads],
    }
    if heads.jobs is not None and heads.intended is not None:
        columns[t("mh.measured.col.built")] = [built_for_text(job, source.tokens) for job in heads.jobs]
        columns[t("mh.measured.col.rows")] = [
            t("mh.measured.rows", hits=numbers.count(model.as_intended(b, intended)), n=numbers.count(source.n))
            for b, intended in zip(behaviours, heads.intended, strict=True)
        ]
    columns[t("mh.measured.col.does")] = [job_text(b, source.tokens) for b in behaviours]
    columns[t("mh.measured.col.entropy")] = [b.mean_entropy for b in behaviours]
    columns[t("mh.measured.col.peak")] = [peak_text(head) for head in result.heads]
    return pd.DataFrame(columns)


def peak_text(head: AttentionResult) -> str:
    """The head's verdict by the √d_k page's rule, with the mean largest weight it is read from."""
    peak = model.heads_peakedness([head])
    if peak is None:
        return "—"
    return t("mh.measured.peak", word=t(f"peak.one.{peak.verdict}"), weight=numbers.fixed(peak.max_weight))


def top_cell(tokens: Sequence[str], head: AttentionResult, b: HeadBehaviour, i: int) -> str:
    """Row i of one head in the per-token table: the token it gives the most weight to and that weight; a row
    whose weights are all equal at the digits shown "spreads" (each one's share); a row the mask leaves one
    token is the mask's doing, not the head's."""
    top = int(b.top[i])
    if top < 0:
        return "—"
    if b.forced[i]:
        return t("mh.top.forced", token=tokens[top])
    shares = {numbers.fixed(w) for w in head.weights[i][head.allowed[i]]}
    if len(shares) == 1:
        return t("mh.top.even", weight=shares.pop())
    return t("mh.top.cell", token=tokens[top], weight=numbers.fixed(b.top_weight[i]))


def top_frame(
    tokens: Sequence[str],
    heads: Sequence[AttentionResult],
    behaviours: Sequence[HeadBehaviour],
    names: list[str],
) -> pd.DataFrame:
    """One line per token: the token each head's row gives the most weight to, with that weight."""
    columns: dict[str, list] = {t("mh.top.col.token"): list(tokens)}
    for name, head, b in zip(names, heads, behaviours, strict=True):
        columns[name] = [top_cell(tokens, head, b, i) for i in range(len(tokens))]
    return pd.DataFrame(columns)


def construction_ui(heads: Heads) -> None:
    """The designed heads' construction, as the engine documents it, with this input's sharpness per head."""
    with st.expander(t("mh.construction.title")):
        st.markdown(t("mh.construction.body", top=numbers.short(DESIGNED_TOP_WEIGHT)))
        st.latex(r"W_Q = x^{+} \cdot Q^{*}, \qquad W_K = x^{+} \cdot K^{*}, \qquad x \cdot x^{+} = I_n")
        sharpness = ", ".join(f"{head_name(k)}: c = {numbers.short(c, 2)}" for k, c in enumerate(heads.sharpness or ()))
        st.markdown(t("mh.construction.sharpness", values=sharpness))


# --- one head in detail: its Q, K, V and any cell's arithmetic ---


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
        t("scenario.query_token"),
        tokens,
        index=model.default_token(tokens, "come", 2),
        key=f"mh_query_{source.kind}_{rev}",
    )
    other = key_col.selectbox(
        t("scenario.key_token"),
        tokens,
        index=model.default_token(tokens, "perro", 1),
        key=f"mh_key_{source.kind}_{rev}",
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
