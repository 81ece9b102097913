"""The figures on the page: `ui.figure_specs` at the size presentation mode asks for, shown by the app's figure
component (`ui.figure_component`: one chart kept mounted per key, updated in place) or, with the switch
ATTENTION_CHARTS=plotly_chart, by st.plotly_chart.

Speed (README › Speed): a figure is built once per distinct input and reused (plotly's own checks and the
figure's JSON cost more than the drawing); an unchanged figure costs the browser nothing, so pages keep figures
that change together apart from those that do not. The figures follow Streamlit's light and dark themes.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from engine import AttentionResult, derivation
from ui import figure_component, figure_specs, matrix_text, numbers, state
from ui.clipboard import copy_buttons_ui
from ui.figure_specs import Heatmap, Style
from ui.i18n import t, tm, translate
from ui.shared import SharedCache, freeze

MAX_ALT_CELLS = 16  # a figure's text description lists its values up to this many cells


def style() -> Style:
    """The figures' sizes for the current mode: larger in presentation mode."""
    return Style.for_mode(state.presentation_mode())


class Built:
    """A built figure and, made the first time it is asked for, the JSON the figure component sends (once: sessions
    that ask for it meanwhile wait for that one)."""

    def __init__(self, figure: go.Figure) -> None:
        self.figure = figure
        self._spec: dict | None = None
        self._making = threading.Lock()

    def spec(self) -> dict:
        """The figure's JSON for the component (see ui.figure_component.figure_spec)."""
        if self._spec is None:
            with self._making:
                if self._spec is None:
                    self._spec = figure_component.figure_spec(self.figure)
        return self._spec


class FigureCache(SharedCache[Built]):
    """Built figures by their input, shared by every session (never modified: st.plotly_chart copies them, the
    component's JSON is made once). Each is built once, even when many sessions ask for it at the same moment (as a
    live class's followers do when the lecturer steps; at 100 followers, the walkthrough's block figure was built by
    every one of them at each step to part 5: 4 % of the server's CPU over a lecture)."""

    def built(self, key: Hashable, build: Callable[[], go.Figure]) -> Built:
        """The figure cached under `key`, built with `build()` the first time (see SharedCache.get)."""
        return self.get(key, lambda: Built(build()))


FIGURES = FigureCache()


def built_heatmap(spec: Heatmap) -> Built:
    """The figure of `spec` at the current mode's size, in the reader's language (built once per input)."""
    current, lang = style(), state.current_language()
    key = ("heatmap", freeze(spec), current, lang)
    return FIGURES.built(key, lambda: figure_specs.heatmap_figure(spec, current, lang))


def heatmap_figure(spec: Heatmap) -> go.Figure:
    """The figure of `spec` (see `built_heatmap`)."""
    return built_heatmap(spec).figure


def config(filename: str) -> dict:
    """The mode bar: a PNG at three times the figure's size (sharp on a slide), named after what it shows."""
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": filename, "scale": 3},
        "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "toggleSpikelines"],
    }


def file_name(title: str) -> str:
    """A PNG file name from a figure's title: letters, digits and dashes only."""
    safe = "".join(ch if ch.isalnum() else "-" for ch in title.lower())
    return "-".join(part for part in safe.split("-") if part)[:60] or "figure"


def describe(spec: Heatmap) -> str:
    """A short text description of a heatmap for screen readers: what it shows and its key numbers."""
    values = np.asarray(spec.values, dtype=np.float64)
    r, c = values.shape
    decimals, sign = spec.decimals, spec.kind == "signed"
    if values.size <= MAX_ALT_CELLS:
        rows = "; ".join(
            f"{name}: {numbers.vector(row, decimals, sign=sign)}" for name, row in zip(spec.rows, values, strict=True)
        )
        return t("figure.alt", title=spec.title, rows=numbers.count(r), cols=numbers.count(c), values=rows)
    finite = values[np.isfinite(values)]
    low = numbers.fixed(finite.min(), decimals, sign=sign) if finite.size else "—"
    high = numbers.fixed(finite.max(), decimals, sign=sign) if finite.size else "—"
    return t("figure.alt_large", title=spec.title, rows=numbers.count(r), cols=numbers.count(c), low=low, high=high)


def draw(built: Built, title: str, alt: str, key: str | None) -> None:
    """Every figure of the app is drawn here: at its own width (narrower when its column is narrower), in the
    app's theme, with the mode bar of `config` and the text description `alt`; by the figure component, whose
    chart stays mounted under `key`, or by st.plotly_chart (`ui.figure_component.CHARTS`)."""
    if not figure_component.component_on():
        st.plotly_chart(
            built.figure, theme="streamlit", width="content", config=config(file_name(title)), alt=alt, key=key
        )
        return
    labels = {
        "svg": t("figure.download_svg"),
        "fullscreen": t("figure.fullscreen"),
        "close_fullscreen": t("figure.close_fullscreen"),
    }
    figure_component.figure_ui(built.spec(), config=config(file_name(title)), alt=alt, labels=labels, key=key)


# Inside numbers_after(): the heatmaps drawn, whose numbers' folds wait for the block's end.
_HELD_NUMBERS: ContextVar[list[tuple[Heatmap, str | None]] | None] = ContextVar("held_numbers", default=None)


def show_heatmap(spec: Heatmap, key: str | None = None) -> None:
    """Draw one heatmap at its own size (narrower when its column is narrower), its numbers in a fold below (or,
    inside numbers_after(), below the block it sits in)."""
    draw(built_heatmap(spec), spec.title, describe(spec), key)
    held = _HELD_NUMBERS.get()
    if held is None:
        numbers_ui([spec], key=key)
    else:
        held.append((spec, key))


@contextmanager
def numbers_after() -> Iterator[None]:
    """The "See the numbers" folds of the heatmaps drawn inside this block come after it, at the page's full width:
    a table in the fold of a figure that shares its row with others (or with a derivation) would be as narrow as
    the figure's column, and scroll sideways (a 4-column matrix at presentation size needs 450 px)."""
    if _HELD_NUMBERS.get() is not None:  # already inside one: the outer block draws them
        yield
        return
    held: list[tuple[Heatmap, str | None]] = []
    token = _HELD_NUMBERS.set(held)
    try:
        yield
    finally:
        _HELD_NUMBERS.reset(token)
    for spec, key in held:
        numbers_ui([spec], key=key)


def table_caption(spec: Heatmap) -> str:
    """What a heatmap's table is called: its title, and what its rows and columns are when the figure says so."""
    if spec.row_title and spec.col_title:
        return t("matrix.numbers_caption", title=spec.title, rows=spec.row_title, cols=spec.col_title)
    return spec.title


def numbers_ui(specs: Sequence[Heatmap], title: str = "", key: str | None = None) -> None:
    """The numbers of one figure's heatmaps for a keyboard and a screen reader: a fold ("See the numbers") that a
    Tab reaches and Enter or Space opens, holding each matrix as a table (its cells as the figure writes them, each
    row and column headed by its name) and buttons that copy it as LaTeX and as CSV (ui.matrix_text). The fold is
    named after `title` (the figure's), or the one matrix's. The copy buttons' keys follow the figure's `key` when
    it has one (one page may show the same matrix twice: the walkthrough's figure and a question's given numbers),
    else the matrix itself.

    What the fold holds is drawn only while it is open: opening it reruns the page (or the fragment it is in), so a
    closed fold costs a run its label alone, not its tables and copy buttons (more than a quarter of a builder
    step's own time; benchmarks/README.md). Its key keeps it open while its values change: the figure's `key`, else
    the matrices' titles and shapes. Streamlit knows an expander by its label too, so a fold whose title carries a
    value ("Attention at step 12") comes back closed when that value changes, as it did before it had a key."""
    lang = state.current_language()
    label = tm("matrix.numbers", title=title or specs[0].title)
    fold = st.expander(label, key=_fold_key(specs, key), on_change="rerun")
    with fold:
        if not fold.open:
            return
        for i, spec in enumerate(specs):
            st.html(matrix_text.table_html(spec, lang, table_caption(spec)))
            copy_buttons_ui(
                [
                    (t("matrix.copy_latex"), matrix_text.latex_bmatrix(spec, lang), t("matrix.copied_latex")),
                    (t("matrix.copy_csv"), matrix_text.csv_matrix(spec), t("matrix.copied_csv")),
                ],
                key=f"copy_{key}_{i}" if key else _copy_key(spec),
                failed=t("matrix.copy_failed"),
            )


def _fold_key(specs: Sequence[Heatmap], key: str | None) -> str:
    """The key of a figure's numbers fold: the figure's own, else the same for the same matrices' titles and shapes
    (not their values, so that an open fold stays open while they change)."""
    if key:
        return f"numbers_{key}"
    named = repr([(spec.title, np.shape(spec.values), list(spec.rows), list(spec.cols)) for spec in specs])
    return f"numbers_{hashlib.blake2b(named.encode(), digest_size=8).hexdigest()}"


def _copy_key(spec: Heatmap) -> str:
    """A widget key for a matrix's copy buttons, the same on every run for the same matrix."""
    values = np.asarray(spec.values, dtype=np.float64)
    digest = hashlib.blake2b(values.tobytes(), digest_size=8)
    digest.update(repr((spec.title, values.shape, list(spec.rows), list(spec.cols))).encode())
    return f"copy_matrix_{digest.hexdigest()}"


def show_figure(figure: go.Figure | Built, title: str, alt: str, key: str | None = None) -> None:
    """Draw a figure that is not a heatmap (bars, lines, arrows)."""
    draw(figure if isinstance(figure, Built) else Built(figure), title, alt, key)


def show_row(specs: Sequence[Heatmap], keys: Sequence[str | None] | None = None) -> None:
    """Heatmaps compared side by side: in columns (which stack on a phone), at most two per row in presentation
    mode so that their numbers keep the size a room can read; their numbers' folds under the row, at full width."""
    per_row = 2 if state.presentation_mode() else 3
    keys = list(keys) if keys is not None else [None] * len(specs)
    for start in range(0, len(specs), per_row):
        chunk = list(zip(specs[start : start + per_row], keys[start : start + per_row], strict=True))
        columns = st.columns(len(chunk) if len(specs) > 1 else 1)
        with numbers_after():
            for column, (spec, key) in zip(columns, chunk, strict=True):
                with column:
                    show_heatmap(spec, key)


# --- the panels every lesson page draws ---


def dims(count: int) -> list[str]:
    """Column labels d0, d1, ... for `count` dimensions."""
    return [t("matrix.dim", j=j) for j in range(count)]


def shape(rows: int, cols: int) -> str:
    """A matrix's shape as the lesson writes it: (3×4)."""
    return f"({rows}×{cols})"


def shaped(title: str, values: np.ndarray) -> str:
    """A figure's title with the shape of the matrix it shows, as the lesson writes it: W_Q (4×2)."""
    return f"{title} {shape(*values.shape)}"


def projection_specs(tokens: Sequence[str], result: AttentionResult, *, shapes: bool = False) -> list[Heatmap]:
    """Q, K and V, on one signed colour scale (compared side by side); `shapes` writes each one's shape in its
    title, Q = x · W_Q (3×2), where the page's matrices change shape (several heads)."""
    shared = figure_specs.signed_range(result.q, result.k, result.v)
    titles = [t("matrix.q"), t("matrix.k"), t("matrix.v")]
    matrices = (result.q, result.k, result.v)
    if shapes:
        titles = [shaped(title, m) for title, m in zip(titles, matrices, strict=True)]
    return [
        token_map(m, tokens, title, zrange=shared, show_scale=i == 2, hover=projection_hover(tokens, m, w))
        for i, (title, m, w) in enumerate(zip(titles, matrices, ("W_Q", "W_K", "W_V"), strict=True))
    ]


def projection_hover(tokens: Sequence[str], values: np.ndarray, w: str) -> list[list[str]]:
    """Each cell of Q, K or V as the dot product that gives it, as the scores' hover names theirs:
    x_perro · columna 0 de W_Q = +0,461."""
    lang = state.current_language()
    return [
        [
            translate(lang, "figure.hover.projection", token=token, j=j, w=w, value=numbers.measured(v, lang=lang))
            for j, v in enumerate(row)
        ]
        for token, row in zip(tokens, values, strict=True)
    ]


def weight_map(w: np.ndarray, name: str, **extra: Any) -> Heatmap:
    """A weight matrix titled with its shape, W_Q (4×2): one row per dimension of x (x0, x1, ...), one column
    per dimension it projects to."""
    return Heatmap(
        w,
        [f"x{i}" for i in range(w.shape[0])],
        dims(w.shape[1]),
        shaped(name, w),
        row_title=t("matrix.rows_x"),
        col_title=t("matrix.cols_out"),
        **extra,
    )


def weight_specs(w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> list[Heatmap]:
    """W_Q, W_K and W_V on one signed colour scale, the colour bar on W_V's panel."""
    shared = figure_specs.signed_range(w_q, w_k, w_v)
    return [
        weight_map(w, name, zrange=shared, show_scale=name == "W_V")
        for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v))
    ]


def cell_hover(tokens: Sequence[str], result: AttentionResult, panel: str = "weights") -> list[list[str]]:
    """For every cell of an attention figure, the arithmetic that gives its value, in one line: a score cell says
    Q·K = +1,223; a scaled one adds ÷ 2 ≈ +0,612; a weight adds T (when it is not 1) and peso 0,380. The division is
    written as the derivations write it (from the score as shown; "≈" when it rounds), never "÷ 1".

    Each panel says no more than its own value needs, so that a temperature step leaves the scores' and scaled
    scores' figures unchanged: an unchanged figure is not drawn again (a changed one is drawn from nothing, see
    `show_heatmap`). The language is looked up once: n² lines a figure."""
    lang = state.current_language()
    masked = translate(lang, "figure.hover.masked")
    divided = panel != "scores" and result.divisor != 1
    weighted = panel == "weights"
    temperature = (
        [translate(lang, "figure.hover.temperature", t=numbers.short(result.temperature, 2, lang=lang))]
        if weighted and result.temperature != 1
        else []
    )
    n = len(tokens)
    lines = []
    for i in range(n):
        row = []
        for j in range(n):
            if not result.allowed[i, j]:
                row.append(masked)
                continue
            parts = [translate(lang, "figure.hover.score", score=numbers.measured(result.scores[i, j], lang=lang))]
            if divided:
                written = derivation.division(float(result.scores[i, j]), float(result.divisor))
                parts.append(
                    translate(
                        lang,
                        "figure.hover.divided",
                        divisor=numbers.short(written.divisor, lang=lang),
                        op="=" if written.result_exact else "≈",
                        scaled=numbers.signed(written.result, lang=lang),
                    )
                )
            if weighted:
                parts += temperature
                parts.append(
                    translate(lang, "figure.hover.weight", weight=numbers.fixed(result.weights[i, j], lang=lang))
                )
            row.append(" · ".join(parts))
        lines.append(row)
    return lines


def attention_specs(
    tokens: Sequence[str], result: AttentionResult, panels: Sequence[str] = ("scores", "scaled", "weights")
) -> list[Heatmap]:
    """Scores and scaled scores on one signed scale symmetric about 0 (dividing visibly pales them), and the
    weights on 0–1; rows are the token that asks (query), columns the token looked at (key); each panel's hover
    gives the arithmetic of its own cells."""
    shared = figure_specs.signed_range(result.scores, np.where(result.allowed, result.scaled_scores, 0.0))
    common: dict[str, Any] = {
        "rows": list(tokens),
        "cols": list(tokens),
        "row_title": t("matrix.rows_query"),
        "col_title": t("matrix.cols_key"),
        "masked": ~result.allowed,
    }

    def spec(name: str) -> Heatmap:
        hover = cell_hover(tokens, result, name)
        if name == "weights":
            return Heatmap(result.weights, title=t("matrix.weights"), kind="weights", hover=hover, **common)
        if name == "scaled":
            values = np.where(result.allowed, result.scaled_scores, np.nan)
            title = t("matrix.scaled", divisor=numbers.short(result.divisor))
            return Heatmap(values, title=title, zrange=shared, hover=hover, **common)
        alone = "scaled" not in panels  # then the scores carry the colour bar
        return Heatmap(result.scores, title=t("matrix.scores"), zrange=shared, show_scale=alone, hover=hover, **common)

    return [spec(name) for name in panels]


def token_map(values: np.ndarray, tokens: Sequence[str], title: str, **extra: Any) -> Heatmap:
    """A matrix with one row per token and one column per dimension (x, Q, K, V, an output), both axes named;
    `extra` sets the other Heatmap fields and may rename the rows or columns (positions, a concatenation's)."""
    axes = {
        "rows": list(tokens),
        "cols": dims(values.shape[1]),
        "row_title": t("matrix.rows_token"),
        "col_title": t("matrix.cols_dim"),
    }
    return Heatmap(values, title=title, **(axes | extra))


def vectors_specs(tokens: Sequence[str], x: np.ndarray, output: np.ndarray) -> list[Heatmap]:
    """X and the output on one signed scale, so that their colours compare."""
    shared = figure_specs.signed_range(x, output)
    return [
        token_map(x, tokens, t("matrix.x"), zrange=shared, show_scale=False),
        token_map(output, tokens, t("matrix.output"), zrange=shared),
    ]


def _cached(kind: str, build: Callable[..., go.Figure], *args: object, **kwargs: Any) -> Built:
    current, lang = style(), state.current_language()
    key = (kind, freeze(list(args)), freeze(kwargs), current, lang)
    return FIGURES.built(key, lambda: build(*args, current, lang, **kwargs))


def built_block(labels: figure_specs.BlockLabels) -> Built:
    """The Transformer block around this step (ui.sections.where) in `labels`' words, at the current mode's size
    (built once per input: its plotly build is the walkthrough's last part's largest cost)."""
    return _cached("block", figure_specs.block_figure, labels)


def show_bars(
    groups: Mapping[str, figure_specs.Values],
    labels: Iterable[str],
    *,
    title: str,
    alt: str,
    key: str | None = None,
    **options: Any,
) -> None:
    """Grouped bars with their values written above them."""
    show_figure(
        _cached("bars", figure_specs.bars_figure, groups, list(labels), title=title, **options), title, alt, key
    )


def show_lines(
    x: Iterable[float],
    series: Mapping[str, figure_specs.Values],
    *,
    title: str,
    alt: str,
    key: str | None = None,
    **options: Any,
) -> None:
    """Lines over x (see ui.figure_specs.lines_figure for the options)."""
    show_figure(_cached("lines", figure_specs.lines_figure, list(x), series, title=title, **options), title, alt, key)


def show_arrows(
    start: np.ndarray,
    end: np.ndarray,
    labels: Iterable[str],
    *,
    title: str,
    alt: str,
    key: str | None = None,
    **options: Any,
) -> None:
    """Arrows from each start point to its end point, on equal axes."""
    figure = _cached("arrows", figure_specs.arrows_figure, start, end, list(labels), title=title, **options)
    show_figure(figure, title, alt, key)


def grid_per_row(count: int) -> int:
    """Small multiples a row: 4 at most, 2 in presentation mode up to 4 panels (their numbers stay readable)."""
    most = 2 if state.presentation_mode() and count <= 4 else 4
    return figure_specs.grid_columns(count, most)


def describe_grid(panels: Sequence[Heatmap]) -> str:
    """A text description of small multiples: each panel's own description, one after the other."""
    return " ".join(describe(panel) for panel in panels)


def show_grid(panels: Sequence[Heatmap], title: str, key: str | None = None) -> None:
    """Matrices of one shape as small multiples in one figure, on one colour scale (see ui.figure_specs.grid_figure)."""
    current, lang, per_row = style(), state.current_language(), grid_per_row(len(panels))
    built = FIGURES.built(
        ("grid", freeze(list(panels)), per_row, current, lang),
        lambda: figure_specs.grid_figure(panels, current, lang, per_row=per_row),
    )
    draw(built, title, describe_grid(panels), key)
    numbers_ui(panels, title, key=key)


def show_small_multiples(
    attentions: np.ndarray, *, title: str, alt: str, key: str | None = None, **options: Any
) -> None:
    """Every head of every layer as a tiny heatmap on one 0–1 scale (see ui.figure_specs.small_multiples_figure).

    Built on every run, never kept in FIGURES: it changes with the head picked, and at 64 pieces through 12 × 12
    heads its input alone is 4.7 MB; building it takes milliseconds (its weights go to plotly as one array)."""
    figure = figure_specs.small_multiples_figure(attentions, style(), state.current_language(), title=title, **options)
    show_figure(figure, title, alt, key)
