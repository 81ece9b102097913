"""Sliders whose numbers are written in the reader's language, and the seed input of every page's random numbers.

`st.slider` writes its value and its ends the same way in every language ("1.00", "5000"); a Spanish reader reads
"1.00" as one and "5000" without its thousands point. These sliders offer the same grid through `st.select_slider`,
each value written by `ui.numbers` ("1,0" / "1.0", "5.000" / "5,000"). A value off the grid (from a shared link or a
file) is offered as it is, never silently rounded to the nearest step.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, Literal, overload

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from engine.limits import SEED_RANGE
from ui import numbers, state


def grid(low: float, high: float, step: float, decimals: int) -> list:
    """low, low + step, … high, as the reader sees them: ints when `decimals` is 0, floats rounded to `decimals`."""
    n = round((high - low) / step)
    values = [round(low + i * step, decimals) for i in range(n + 1)]
    return [int(v) for v in values] if decimals == 0 else values


def _writer(decimals: int, lang: str) -> Callable[[float], str]:
    def write(value: float) -> str:
        needed = -int(Decimal(repr(value)).normalize().as_tuple().exponent)  # 0.37 → 2; 5000 → -3
        return numbers.fixed(value, max(decimals, needed), lang=lang)

    return write


@overload
def number_slider(
    label: str,
    low: float,
    high: float,
    step: float,
    value: float,
    *,
    decimals: Literal[0],
    where: DeltaGenerator | None = None,
    **kwargs: Any,
) -> int: ...


@overload
def number_slider(
    label: str,
    low: float,
    high: float,
    step: float,
    value: float,
    *,
    decimals: int,
    where: DeltaGenerator | None = None,
    **kwargs: Any,
) -> float: ...


def number_slider(
    label: str,
    low: float,
    high: float,
    step: float,
    value: float,
    *,
    decimals: int,
    where: DeltaGenerator | None = None,
    **kwargs: Any,
) -> float:
    """A slider over low…high in steps of `step`, values with `decimals` decimals (more only for a value off the
    grid), written in the session's language. `where` is a column or container (the page by default); `kwargs`
    go to `st.select_slider` (key, help, on_change, args, disabled, persist_state…)."""
    options = grid(low, high, step, decimals)
    if value not in options:
        options = sorted([*options, value])
    return (where or st).select_slider(
        label, options=options, value=value, format_func=_writer(decimals, state.current_language()), **kwargs
    )


def seed_input(where: DeltaGenerator, label: str, key: str, **options: Any) -> int:
    """A seed for random numbers in `where` (a column, or st): a whole number in SEED_RANGE, 0 at first, kept for
    the session unless `options` say otherwise (they are number_input's)."""
    options = {"value": 0, "persist_state": "session", **options}
    return int(where.number_input(label, min_value=SEED_RANGE[0], max_value=SEED_RANGE[1], step=1, key=key, **options))
