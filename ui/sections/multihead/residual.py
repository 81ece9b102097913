"""The multi-head page's residual part: x + MultiHead(x), layer norm on demand, and how alike the tokens' rows
are at each stage (every pair's cosine)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import AttentionResult, MultiHeadResult, mean_pairwise_cosine, pairwise_cosine
from engine.multihead import LAYER_NORM_EPS
from engine.similarity import residual_rows
from ui import charts, numbers, state
from ui.charts import shape
from ui.figure_specs import Heatmap
from ui.i18n import plural, t
from ui.sections.multihead.common import distinct_text, quoted
from ui.tables import table_ui
from ui.text import md_literal
from ui.view_models import multihead as model
from ui.view_models.multihead import Heads, Source
from ui.view_models.walkthrough import collapse_reading


def single_head(source: Source, heads: Heads) -> tuple[str, AttentionResult]:
    """The one head the multi-head output is compared with, named: the walkthrough's (the shared scenario's own
    attention), or, for the sentence, one head holding all the heads' matrices side by side."""
    kind, head = model.single_head(source, heads, state.get_scenario())
    return (t("mh.cos.single.walk") if kind == "walk" else t("mh.cos.single.merged")), head


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
    with charts.numbers_after(), figure_col:
        charts.show_heatmap(
            charts.token_map(steps.output, source.tokens, t("mh.ln.figure", shape=shape(source.n, source.d_model))),
            key="mh_ln",
        )


def cosine_stages(
    result: MultiHeadResult, single: tuple[str, AttentionResult], layer_norm: bool
) -> list[tuple[str, str, np.ndarray]]:
    """(name, short name, rows) of every stage whose tokens' rows are compared."""
    assert result.residual is not None  # the page adds the residual in the engine (multi_head_attention's default)
    stages: list[tuple[str, str, np.ndarray]] = [
        (t("mh.cos.x"), t("mh.cos.x"), result.x),
        (single[0], t("mh.cos.single.short"), single[1].output),
        (t("mh.cos.multi"), t("mh.cos.multi"), result.output),
        (t("mh.cos.residual"), t("mh.cos.residual"), result.residual),
    ]
    if layer_norm and result.normalized is not None:
        stages.append((t("mh.cos.norm"), t("mh.cos.norm.short"), result.normalized))
    return stages


def walkthrough_warning_text() -> str:
    """The part's opening: the walkthrough's warning recalled only when the shared scenario's outputs collapsed."""
    walk = collapse_reading(state.get_scenario().run())
    if walk is not None and walk.collapsed:
        return t("mh.cos.body.collapsed", cosine=numbers.bound(walk.lowest, 3, below=True))
    return t("mh.cos.body.plain")


def cosine_ui(source: Source, result: MultiHeadResult, single: tuple[str, AttentionResult], layer_norm: bool) -> None:
    """How alike the tokens' rows are at each stage: every pair's cosine, and a table of the mean and the lowest."""
    st.subheader(t("mh.cos.title"))
    if source.n < 2:
        st.caption(t("mh.cos.one_token"))
        return
    st.markdown(walkthrough_warning_text())
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
                t("mh.cos.col.lowest"): [model.lowest_cosine(rows) for _, _, rows in stages],
            }
        )
    )
    x_mean, single_mean, multi_mean, residual_mean = (means[name] for name, _, _ in stages[:4])
    if np.isfinite([x_mean, single_mean, multi_mean, residual_mean]).all():
        reading = plural(
            "mh.cos.reading",
            len(result.heads),
            single_name=single[0],
            single=numbers.fixed(single_mean),
            multi=numbers.fixed(multi_mean),
            residual=numbers.fixed(residual_mean),
            x=numbers.fixed(x_mean),
        )
        distinct = model.distinct_reading(single[1], single[1].output, result.heads, result.output)
        if distinct is not None:
            reading += " " + distinct_text(distinct, single[0], plural("mh.cos.many_name", len(result.heads)))
        st.info(reading)
    residual_rows_ui(source, result)


def residual_rows_ui(source: Source, result: MultiHeadResult) -> None:
    """Row by row, what x + MultiHead(x) resembles: both lengths and both cosines, and the count read off them."""
    assert result.residual is not None
    rows = residual_rows(result.x, result.output)
    st.markdown(t("mh.rows.body"))
    closer = [
        t("mh.rows.x") if to_x else (t("mh.rows.output") if to_out else t("mh.rows.tie"))
        for to_x, to_out in zip(rows.closer_to_x, rows.closer_to_output, strict=True)
    ]
    table_ui(
        pd.DataFrame(
            {
                t("mh.top.col.token"): list(source.tokens),
                "‖x‖": rows.x_norm,
                "‖MultiHead(x)‖": rows.output_norm,
                t("mh.rows.col.to_x"): rows.to_x,
                t("mh.rows.col.to_output"): rows.to_output,
                t("mh.rows.col.closer"): closer,
            }
        )
    )
    to_x, to_output, n = int(rows.closer_to_x.sum()), int(rows.closer_to_output.sum()), source.n
    if to_x == n or to_output == n:
        reading = plural("mh.rows.all_x" if to_x == n else "mh.rows.all_output", n)
    else:
        tokens = [md_literal(token) for token in source.tokens]
        reading = t(
            "mh.rows.mixed",
            n=numbers.count(n),
            to_x=numbers.count(to_x),
            to_output=numbers.count(to_output),
            x_tokens=quoted([tok for tok, c in zip(tokens, rows.closer_to_x, strict=True) if c] or ["—"]),
            out_tokens=quoted([tok for tok, c in zip(tokens, rows.closer_to_output, strict=True) if c] or ["—"]),
        )
    st.info(reading + " " + t("mh.rows.why"))
