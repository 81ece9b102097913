"""The home page's sections: the problem attention solves, the search-engine analogy, and the map of pages."""

from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.pages import PAGES


def numbers_ui() -> None:
    """How numbers are written in each language, said once for the whole app."""
    st.caption(t("home.numbers"))


def problem_ui() -> None:
    """Why attention: every word alone, and the lesson's question about who is hungry."""
    st.header(t("home.problem.title"))
    st.markdown(t("home.problem.body"))
    st.subheader(t("home.problem.sentence"))
    st.markdown(t("home.problem.question"))


def search_ui() -> None:
    """The search-engine analogy: query, key, value."""
    st.header(t("home.search.title"))
    st.markdown(t("home.search.body"))
    for column, role in zip(st.columns(3), ("query", "key", "value"), strict=True):
        with column.container(border=True):
            st.markdown(f"**{t(f'home.search.{role}.title')}**")
            st.markdown(t(f"home.search.{role}.body"))
    st.markdown(t("home.search.match"))


def self_ui() -> None:
    """Every token is query, key and value at once; the whole formula."""
    st.header(t("home.self.title"))
    st.markdown(t("home.self.body"))
    st.markdown(t("home.formula"))
    st.latex(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^{\top}}{\sqrt{d_k}}\right) V")


def map_ui() -> None:
    """A link to every page, with one line on what it shows."""
    st.header(t("home.map.title"))
    for spec in PAGES[1:]:
        st.page_link(spec.path, label=t(f"home.map.{spec.key}"), icon=spec.icon)
