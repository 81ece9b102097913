"""The walkthrough's view-model: how many characters a derivation's line may take in its box, the lesson's small
examples, and what each part reads off the scenario's numbers (the row's best and worst score, the softmax row's
verdict and what dividing changed, whether the outputs collapsed into one vector).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine import AttentionResult, softmax
from engine.peakedness import Peakedness, peakedness
from engine.similarity import COLLAPSE_COSINE, lowest_pairwise_cosine

SCALAR_VALUES = (10.0, 20.0, 30.0)  # the lesson's one-number-per-token example: V_el, V_perro, V_come
SCALAR_WEIGHTS = (0.3, 0.4, 0.3)  # and the attention "perro" gives them
VECTOR_EXAMPLE = ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0), (7.0, 8.0, 9.0))  # the lesson's three vectors
VECTOR_WEIGHTS = (0.5, 0.3, 0.2)
SMALL_SCORE_GAP = 2.0  # a row whose scores differ by less than this: dividing changes its weights only a little

# A derivation's lines are cut to fit its box on the narrowest page it must fit without scrolling sideways, with
# the sidebar open: 1280 px wide in presentation mode, 1400 px otherwise. Measured in Chromium: the page's main
# column is 930 / 940 px wide; monospace text is 12 px a character at 20 px (presentation), 8.4 px at 14 px;
# a text block has 16 px of padding; st.columns leave 16 px between columns, the main row (below) 32 px (in
# presentation mode too, whose larger root font size would widen them: ui.layout keeps them at these sizes).
MAIN_WIDTH = {True: 930, False: 940}
CODE_CHAR = {True: 12.0, False: 8.4}
CODE_PADDING = 40  # its 16 px padding, and room for arrows and signs drawn in a wider fallback font
COLUMN_GAP = 16
MAIN_ROW_GAP = 32
MIN_DERIVATION_COLUMNS = 30


# --- how wide a derivation may be ---


def text_columns(width: float, presenting: bool) -> int:
    """Characters a derivation's line may take in a box `width` px wide."""
    return max(MIN_DERIVATION_COLUMNS, int((width - CODE_PADDING) // CODE_CHAR[presenting]))


def share_columns(share: float, presenting: bool, columns: int = 2) -> int:
    """Characters a derivation's line may take in a column holding `share` of a row of `columns` columns."""
    return text_columns((MAIN_WIDTH[presenting] - COLUMN_GAP * (columns - 1)) * share, presenting)


def beside_columns(figure_width: float) -> int:
    """Characters a derivation's line may take beside a figure `figure_width` px wide in presentation mode's
    main row."""
    return text_columns(MAIN_WIDTH[True] - figure_width - MAIN_ROW_GAP, True)


# --- the lesson's small examples ---


def scalar_weights(come: float) -> tuple[float, float, float]:
    """The one-number example's weights once «come» takes `come`: «el» and «perro» keep the lesson's 3 : 4."""
    rest = 1.0 - come
    return (rest * 3 / 7, rest * 4 / 7, come)


# --- what each part reads off the numbers ---


@dataclass(frozen=True)
class ScoresReading:
    """Row i of the scores: the token it scores highest and the one it scores lowest."""

    best: int
    worst: int


def scores_reading(result: AttentionResult, i: int) -> ScoresReading:
    """Whom row i scores highest and lowest (the earlier token on a tie)."""
    row = result.scores[i]
    return ScoresReading(int(row.argmax()), int(row.argmin()))


@dataclass(frozen=True)
class SoftmaxReading:
    """Row i of the weights: how it spreads, and what dividing changed."""

    allowed: np.ndarray  # (n,) bool: the tokens the row may look at
    peaked: Peakedness | None  # engine.peakedness's reading of the allowed weights; None with one token left to look at
    top: int | None  # the allowed token with the most weight (with a reading)
    unscaled: np.ndarray | None  # (n,) the row's weights had the scores not been divided; None when they are not
    small_gap: bool  # the allowed scores differ by less than SMALL_SCORE_GAP: dividing changes little


def softmax_reading(result: AttentionResult, i: int, divided: bool) -> SoftmaxReading:
    """How row i of the weights reads, and, when the scores are divided, the same row without dividing."""
    allowed = result.allowed[i]
    weights = result.weights[i]
    peaked = peakedness(weights, allowed)  # None when the mask leaves one token: it takes everything, by force
    top = None if peaked is None else int(np.flatnonzero(allowed)[int(weights[allowed].argmax())])
    unscaled = None
    if divided:
        unscaled = softmax(np.where(allowed, result.scores[i], -np.inf), temperature=result.temperature)
    gap = float(np.ptp(result.scores[i][allowed])) if allowed.any() else 0.0
    return SoftmaxReading(allowed, peaked, top, unscaled, gap < SMALL_SCORE_GAP)


@dataclass(frozen=True)
class CollapseReading:
    """Whether the outputs are nearly one vector: their least alike pair's cosine against COLLAPSE_COSINE."""

    lowest: float
    collapsed: bool
    peaked: Peakedness | None  # how peaked the weights' rows are (None when the mask leaves every row one token)


def collapse_reading(result: AttentionResult) -> CollapseReading | None:
    """The outputs' lowest pairwise cosine, whether they collapsed, and how peaked the weights that mixed them are
    (None with fewer than two outputs to compare)."""
    lowest = lowest_pairwise_cosine(result.output)
    if lowest is None:
        return None
    return CollapseReading(lowest, lowest >= COLLAPSE_COSINE, peakedness(result.weights, result.allowed))
