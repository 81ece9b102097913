"""The multi-head page's last part: the same numbers through one head of width d_model and through h heads of
width d_model / h: the cost, the weights, what each does and how alike the outputs are."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine import MultiHeadResult, mean_pairwise_cosine
from ui import charts, numbers
from ui.i18n import t
from ui.sections.multihead.common import distinct_text, head_name, job_text, weights_panels
from ui.tables import table_ui
from ui.view_models import multihead as model
from ui.view_models.multihead import Heads, Source


def compare_ui(source: Source, heads: Heads, result: MultiHeadResult, seed: int) -> None:
    """The same numbers as one head of width d_model and as h heads of width d_model / h: cost, weights, output."""
    h, d_model = len(result.heads), source.d_model
    if h == 1:
        st.info(t("mh.compare.one"))
        return
    d_k = d_model // h
    comparison = model.compare(source, heads, result, seed)
    compared = comparison.compared
    if comparison.merged:
        st.markdown(t("mh.compare.body"))
    else:
        st.markdown(t("mh.compare.body") + " " + t("mh.compare.random"))
    st.latex(r"Q K^{\top} = \sum_{i=1}^{h} Q_i K_i^{\top}")
    one, many = compared.one.heads[0], compared.many.heads
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
            t("mh.compare.col.entropy"): [comparison.one.mean_entropy, comparison.many_entropy],
            t("mh.compare.col.cosine"): [
                mean_pairwise_cosine(compared.one.output),
                mean_pairwise_cosine(compared.many.output),
            ],
        }
    )
    table_ui(frame)
    st.markdown(t("mh.compare.does", does=job_text(comparison.one, source.tokens, markdown=True)))
    distinct = model.distinct_reading(one, compared.one.output, many, compared.many.output)
    st.info(
        t(
            "mh.compare.reading",
            h=numbers.count(h),
            one_divisor=numbers.short(one.divisor),
            many_divisor=numbers.short(many[0].divisor),
        )
        + " "
        + t(
            "mh.compare.spreads" if comparison.spreads else "mh.compare.sharper",
            one=numbers.fixed(comparison.one.mean_entropy),
            many=numbers.fixed(comparison.many_entropy),
        )
        + (
            ""
            if distinct is None
            else " " + distinct_text(distinct, t("mh.compare.one_name"), t("mh.compare.many_name", h=numbers.count(h)))
        )
    )
