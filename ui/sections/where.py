"""«Where this step sits»: the Transformer block around self-attention (attention → residual + layer norm →
feed-forward → residual + layer norm), encoder beside decoder, and why a decoder needs the causal mask. Shown at
the walkthrough's end and on the multi-head page; the causal-mask toggles link here (ui.scenario_controls)."""

from __future__ import annotations

import streamlit as st

from ui import charts
from ui.figure_specs import BlockLabels
from ui.i18n import t

ANCHOR = "where-this-step-sits"  # the section's heading anchor


def labels() -> BlockLabels:
    """The figure's words in the reader's language."""
    return BlockLabels(
        encoder=t("where.encoder"),
        decoder=t("where.decoder"),
        inputs=t("where.box.inputs"),
        attention=t("where.box.attention"),
        masked_attention=t("where.box.masked_attention"),
        cross_attention=t("where.box.cross_attention"),
        add_norm=t("where.box.add_norm"),
        feed_forward=t("where.box.feed_forward"),
        output=t("where.box.output"),
        repeat=t("where.repeat"),
        here=t("where.here"),
    )


def where_ui() -> None:
    """The section: the figure, what each box does, encoder against decoder, the causal mask, the real model."""
    st.header(t("where.title"), anchor=ANCHOR)
    st.markdown(t("where.body"))
    charts.show_figure(charts.built_block(labels()), t("where.figure"), t("where.alt"), key="where_block")
    st.markdown(t("where.boxes"))
    st.markdown(t("where.encoder_decoder"))
    st.markdown(t("where.mask"))
    st.info(t("where.real_model"))
