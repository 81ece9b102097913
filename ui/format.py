"""How numbers are written: three decimals with a sign, as the lesson prints them."""

from __future__ import annotations

import numpy as np
import pandas as pd


def signed(value: float, decimals: int = 3) -> str:
    """+0.461, -0.150, +0.000 (never -0.000); 'inf' and 'nan' spelled out."""
    v = float(value)
    if not np.isfinite(v):
        return "−∞" if v == -np.inf else ("+∞" if v == np.inf else "NaN")
    rounded = round(v, decimals) + 0.0
    return f"{rounded:+.{decimals}f}"


def plain(value: float, decimals: int = 3) -> str:
    """0.047 (no sign): for weights and other quantities that are never negative."""
    v = float(value)
    if not np.isfinite(v):
        return "∞" if v > 0 else "NaN"
    return f"{round(v, decimals) + 0.0:.{decimals}f}"


def general(value: float) -> str:
    """Short form for numbers of any size (e^1000 and such): 7.389, 1.97e+434 is 'inf' here."""
    v = float(value)
    if not np.isfinite(v):
        return "∞" if v > 0 else ("−∞" if v < 0 else "NaN")
    return f"{v:.3f}" if 1e-3 <= abs(v) < 1e6 or v == 0 else f"{v:.3e}"


def vector(values, decimals: int = 3, sign: bool = True) -> str:
    """[+0.461, +0.779, +0.526, +0.807]; with sign=False, [0.047, 0.936, 0.017] for weights."""
    fmt = signed if sign else plain
    return "[" + ", ".join(fmt(v, decimals) for v in np.asarray(values).reshape(-1)) + "]"


def percent(value: float) -> str:
    return f"{100 * float(value):.1f}%"


def written(frame: pd.DataFrame, decimals: int) -> pd.DataFrame:
    """A copy of `frame` for a static table: every float column written with `decimals` decimals, "—" where a
    value is missing. (Formatting here costs far less than a pandas Styler: 7 ms a table.)"""
    out = frame.copy()
    for name in frame.columns:
        if frame[name].dtype.kind == "f":
            out[name] = ["—" if np.isnan(value) else plain(value, decimals) for value in frame[name]]
    return out
