"""The learning page's tabs: one section at a time, each inside a fragment, so that a control reruns its section
only (like the √d_k page), and a lecturer shows one idea at a time."""

from __future__ import annotations

from ui.sections.learning.common import SECTION
from ui.sections.learning.inside import inside_ui
from ui.sections.learning.send import send_ui
from ui.sections.learning.stall import stall_ui
from ui.sections.learning.target import target_ui
from ui.sections.learning.train import train_tab_ui
from ui.tabs import open_tab_ui

SECTIONS = {"target": target_ui, "train": train_tab_ui, "inside": inside_ui, "stall": stall_ui, "send": send_ui}


def sections_ui() -> None:
    """One section at a time, as tabs that run only when open (a lecturer shows one idea at a time)."""
    name, tab = open_tab_ui(list(SECTIONS), "learn.tab", SECTION, "learn_tabs")
    with tab:
        SECTIONS[name]()
