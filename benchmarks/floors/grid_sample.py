"""The app's own four-panel figure for the floor apps floor_grid.py and floor_grid_live.py: `ui.figure_specs.
grid_figure` of four 3×3 weight matrices, as the multi-head page draws them, drawn from a seed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ui import figure_specs
from ui.figure_specs import Heatmap, Style

TOKENS = ["el", "perro", "come"]


def sample_grid(seed: int) -> go.Figure:
    """Four heads' weights (rows summing to 1) drawn from `seed`, as one figure of four panels."""
    rng = np.random.default_rng(seed)
    panels = []
    for k in range(4):
        weights = rng.random((3, 3))
        weights /= weights.sum(axis=1, keepdims=True)
        panels.append(Heatmap(weights, TOKENS, TOKENS, f"cabeza {k + 1}", "weights"))
    return figure_specs.grid_figure(panels, Style(), "es", per_row=4)
