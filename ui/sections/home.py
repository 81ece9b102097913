"""The home page's sections: the problem attention solves, the search-engine analogy, and the map of pages."""

from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.pages import PAGES


def problem_ui() -> None:
    st.header(t("home.problem.title"))
    st.markdown(t("home.problem.body"))
    st.subheader(t("home.problem.sentence"))
    st.markdown(t("home.problem.question"))


def search_ui() -> None:
    st.header(t("home.search.title"))
    st.markdown(t("home.search.body"))
    for column, role in zip(st.columns(3), ("query", "key", "value"), strict=True):
        with column.container(border=True):
            st.markdown(f"**{t(f'home.search.{role}.title')}**")
            st.markdown(t(f"home.search.{role}.body"))
    st.markdown(t("home.search.match"))


def self_ui() -> None:
    st.header(t("home.self.title"))
    st.markdown(t("home.self.body"))
    st.markdown(t("home.formula"))
    st.latex(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^{\top}}{\sqrt{d_k}}\right) V")


def map_ui() -> None:
    st.header(t("home.map.title"))
    for spec in PAGES[1:]:
        st.page_link(spec.path, label=t(f"home.map.{spec.key}"), icon=spec.icon)
