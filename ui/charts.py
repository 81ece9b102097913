"""The pages' figures: SVG drawn by ui.svg at the size presentation mode asks for, shown as images."""

from __future__ import annotations

import functools

import streamlit as st

from ui import svg
from ui.state import presentation_mode
from ui.svg import Panel

__all__ = ["Panel", "arrows", "bars", "heatmap", "heatmaps", "lines", "show"]


def _sized(draw):
    """The drawing function, with `large` set by presentation mode."""

    @functools.wraps(draw)
    def wrapper(*args, **kwargs) -> str:
        return draw(*args, large=presentation_mode(), **kwargs)

    return wrapper


heatmaps = _sized(svg.heatmaps)
bars = _sized(svg.bars)
lines = _sized(svg.lines)
arrows = _sized(svg.arrows)


def heatmap(values, rows, cols, *, kind: str = "signed", title: str = "", **options) -> str:
    """A single labelled heatmap with its values written in the cells."""
    return heatmaps([Panel(values, rows, cols, kind, title)], **options)


def show(figure: str | list[str], caption: str | list[str] | None = None) -> None:
    """Draw a figure (or several, one under the other when they do not fit side by side, as one element: fewer
    elements redraw faster) at its own size, smaller when the column is narrower: it is an image, it scales."""
    st.image(figure, caption=caption)
