"""The printable handout (issue 32): the walkthrough's five parts for the reader's scenario and language, as one
self-contained HTML file that prints cleanly on A4 and on Letter.

What it holds: the inputs (x, W_Q, W_K, W_V), then each part's matrices, the derivation the page shows for the
chosen query (and key), and the part's question without its answer; the answers at the end. The matrices are the
pages' own (`ui.charts` specs: the same titles, the same digits, the same colours), drawn as inline SVG, so they
print as vectors; a matrix too wide to write its numbers on its cells also comes as a table. The derivations are
the pages' own rows (`ui.sections.walkthrough`), as monospace text.

Pure: no `st.`, no script, no file or font fetched: inline CSS and SVG only, so it opens offline and in any
browser. Every text is escaped (`html.escape`): a token named `<b>x</b>` prints as typed. Sizes are laid out for
the narrower printable width of the two papers (A4's 210 mm less 2 × 15 mm margins, 680 CSS px) and every block
is kept whole on a page (`break-inside: avoid`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine import AttentionResult, Scenario
from engine.questions.core import Kind, Question
from ui import charts, numbers, state
from ui.derivation import Row, block
from ui.figure_specs import (
    MASKED,
    MASKED_RGB,
    MAX_WRITTEN_COLUMNS,
    Heatmap,
    cell_text,
    scale_colors,
    short_label,
    signed_range,
    text_color,
)
from ui.i18n import translate
from ui.matrix_text import shown_cells
from ui.question_wording import answer_text, lettered_option, question_text, tolerance_text
from ui.sections.walkthrough.dividing import division_rows
from ui.sections.walkthrough.navigation import part_name
from ui.sections.walkthrough.projections import projection_rows
from ui.sections.walkthrough.scores import score_rows
from ui.sections.walkthrough.softmax import softmax_derivation_rows
from ui.sections.walkthrough.weighted_sum import weighted_sum_rows

PAGE_WIDTH = 680  # CSS px: A4's printable width (180 mm at 96 px per inch), narrower than Letter's
CELL = 46  # px: a cell at most this wide and tall
CELL_FONT = 11  # px: the numbers written on the cells
LABEL_FONT = 11  # px: rows' and columns' names
TITLE_FONT = 13  # px
WRITTEN_CELL = 30  # px: narrower cells get no number written on them (the table beside says them)
TABLE_FONT = 12  # px: a table's text (9 pt)
TABLE_PADDING = 12  # px: a table cell's padding and borders
NAME_GLYPH, NUMBER_GLYPH = 0.9, 0.7  # a character's width in a table, as a share of its font (names, numbers)
DERIVATION_COLUMNS = 84  # monospace characters a derivation's line takes at 9.5 pt in 680 px
PARTS = (1, 2, 3, 4, 5)

STYLE = """
@page { margin: 15mm; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; background: #fff;
       max-width: 680px; margin: 24px auto; font-size: 11pt; line-height: 1.4; overflow-wrap: anywhere; }
h1 { font-size: 18pt; margin: 0 0 4px; }
h2 { font-size: 14pt; margin: 20px 0 6px; break-after: avoid; }
h3 { font-size: 11.5pt; margin: 12px 0 4px; break-after: avoid; }
p { margin: 4px 0 8px; }
.figures { display: flex; flex-wrap: wrap; gap: 12px; }
figure { margin: 0; break-inside: avoid; max-width: 100%; }
svg { display: block; max-width: 100%; height: auto; }
pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 9.5pt;
      white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid #ccc; border-radius: 4px; padding: 6px 8px;
      margin: 4px 0 8px; break-inside: avoid; max-width: 100%; }
table { border-collapse: collapse; font-size: 9pt; margin: 4px 0 8px; break-inside: avoid; }
caption { text-align: left; font-weight: 600; padding-bottom: 2px; }
th, td { border: 1px solid #bbb; padding: 1px 4px; white-space: nowrap; text-align: right;
         font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
.question { border: 1px solid #888; border-radius: 6px; padding: 6px 10px; margin: 8px 0; break-inside: avoid; }
.question ol { margin: 4px 0; padding-left: 0; list-style: none; }
.blank { border-bottom: 1px solid #555; display: inline-block; width: 40%; height: 1.2em; }
.part { break-before: page; }
.key { break-before: page; }
.key li { margin-bottom: 4px; }
.meta { color: #333; }
@media screen { body { padding: 0 12px; } }
"""


@dataclass(frozen=True)
class Part:
    """One part of the handout: its heading, its figures, its derivation (heading and rows), its question."""

    number: int
    name: str
    figures: Sequence[Heatmap]
    derivation_title: str
    derivation: Sequence[Row | None]
    question: Question | None


def escape(text: object) -> str:
    """Any text as HTML text (quotes too: it may go in an attribute)."""
    return html.escape(str(text), quote=True)


def label(name: object) -> str:
    """A row's or column's name as the figures' axes write it (cut to their length with …), as text: the axes'
    rule (`short_label`) gives it escaped for plotly, and this file escapes once, where it writes it."""
    return html.unescape(short_label(name))


def heatmap_svg(spec: Heatmap, lang: str) -> str:
    """One matrix as an SVG heatmap: its cells in the page's colours, its numbers written on them as the figures
    write them (when the cells are wide enough), the rows' and columns' names, the title."""
    values = np.asarray(spec.values, dtype=np.float64)
    r, c = values.shape
    masked = np.zeros(values.shape, dtype=bool) if spec.masked is None else np.asarray(spec.masked, dtype=bool)
    masked = masked | ~np.isfinite(values)
    row_names = [label(name) for name in spec.rows]
    col_names = [label(name) for name in spec.cols]
    left, cell, top, written, upright = grid(spec)
    width, height = left + cell * c + 4, top + cell * r + 4
    zrange = spec.zrange or ((0.0, 1.0) if spec.kind == "weights" else signed_range(values))
    span = (zrange[1] - zrange[0]) or 1.0
    fills = scale_colors("weights" if spec.kind == "weights" else "signed", (np.nan_to_num(values) - zrange[0]) / span)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
        f' role="img" aria-label="{escape(spec.title)}" font-family="system-ui, sans-serif">',
        f'<text x="0" y="{TITLE_FONT}" font-size="{TITLE_FONT}" font-weight="600">{escape(spec.title)}</text>',
    ]
    label_y = top - 6
    for j, name in enumerate(col_names):
        x = left + cell * j + cell / 2
        place = (
            f'x="{x:g}" y="{label_y}" text-anchor="middle"'
            if upright
            else f'transform="translate({x:g} {label_y}) rotate(-90)" dominant-baseline="central"'
        )
        parts.append(f'<text {place} font-size="{LABEL_FONT}">{escape(name)}</text>')
    for i, name in enumerate(row_names):
        y = top + cell * i + cell / 2
        parts.append(
            f'<text x="{left - 6}" y="{y:g}" font-size="{LABEL_FONT}" text-anchor="end"'
            f' dominant-baseline="central">{escape(name)}</text>'
        )
        for j in range(c):
            rgb = MASKED_RGB if masked[i, j] else fills[i, j]
            fill = "rgb({:.0f},{:.0f},{:.0f})".format(*rgb)
            x = left + cell * j
            parts.append(f'<rect x="{x}" y="{top + cell * i}" width="{cell}" height="{cell}" fill="{fill}"/>')
            if written or masked[i, j]:
                text = MASKED if masked[i, j] else cell_text(float(values[i, j]), spec.kind, spec.decimals, lang)
                parts.append(
                    f'<text x="{x + cell / 2:g}" y="{y:g}" font-size="{CELL_FONT}" text-anchor="middle"'
                    f' dominant-baseline="central" fill="{text_color(rgb)}">{escape(text)}</text>'
                )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{cell * c}" height="{cell * r}" fill="none" stroke="#888"'
        ' stroke-width="0.5"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def grid(spec: Heatmap) -> tuple[int, int, int, bool, bool]:
    """Where a matrix's SVG puts its cells: the room for the rows' names (left), the cell's side, the room above
    for the title and the columns' names (top), whether the numbers are written on the cells, and whether the
    columns' names stand upright (else they run upwards, as many as there are columns). Names are measured on
    the safe side, each character as wide as a "w"."""
    c = np.asarray(spec.values).shape[1]
    left = int(max((len(label(n)) for n in spec.rows), default=1) * LABEL_FONT * NAME_GLYPH) + 8
    cell = int(max(8, min(CELL, (PAGE_WIDTH - left - 4) // max(c, 1))))
    widest = max((len(label(n)) for n in spec.cols), default=1) * LABEL_FONT * NAME_GLYPH
    upright = widest + 4 <= cell
    top = TITLE_FONT + 10 + (LABEL_FONT + 6 if upright else int(widest) + 10)
    return left, cell, top, c <= MAX_WRITTEN_COLUMNS and cell >= WRITTEN_CELL, upright


def writes_numbers(spec: Heatmap) -> bool:
    """Whether the SVG writes every number on its cells (else a table beside it says them)."""
    return grid(spec)[3]


def column_groups(spec: Heatmap, lang: str) -> list[range]:
    """The matrix's columns in groups that each fit the printable width as one table, rows named in each. Widths
    are estimated on the safe side: a name's characters as wide as a "w" (0.9 of the font), a number's as 0.7."""
    cells = shown_cells(spec, lang)
    names = [label(name) for name in spec.rows] + [label(spec.row_title)]
    first = max(len(name) for name in names) * TABLE_FONT * NAME_GLYPH + TABLE_PADDING
    widths = [
        max(len(label(spec.cols[j])) * NAME_GLYPH, max(len(row[j]) for row in cells) * NUMBER_GLYPH) * TABLE_FONT
        + TABLE_PADDING
        for j in range(len(spec.cols))
    ]
    groups, start, used = [], 0, first
    for j, width in enumerate(widths):
        if used + width > PAGE_WIDTH and j > start:
            groups.append(range(start, j))
            start, used = j, first
        used += width
    groups.append(range(start, len(widths)))
    return groups


def table(spec: Heatmap, lang: str) -> str:
    """The matrix's numbers as tables that print whole: as many columns a table as fit the page, each table
    captioned with the columns it holds and naming every row."""
    cells = shown_cells(spec, lang)
    groups = column_groups(spec, lang)
    tables = []
    for group in groups:
        caption = spec.title
        if len(groups) > 1:
            caption = translate(lang, "handout.columns", title=spec.title, first=label(spec.cols[group[0]]),
                                last=label(spec.cols[group[-1]]))  # fmt: skip
        head = f'<th scope="col">{escape(label(spec.row_title))}</th>' + "".join(
            f'<th scope="col">{escape(label(spec.cols[j]))}</th>' for j in group
        )
        body = "".join(
            f'<tr><th scope="row">{escape(label(name))}</th>' + "".join(f"<td>{escape(row[j])}</td>" for j in group)
            + "</tr>"
            for name, row in zip(spec.rows, cells, strict=True)
        )  # fmt: skip
        tables.append(f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
                      f"<tbody>{body}</tbody></table>")  # fmt: skip
    return "".join(tables)


def figure_html(spec: Heatmap, lang: str) -> str:
    """A matrix's figure, and its table when the figure cannot write its numbers."""
    shown = f"<figure>{heatmap_svg(spec, lang)}</figure>"
    if writes_numbers(spec):
        return shown
    return shown + table(spec, lang)


def question_html(part: int, question: Question, lang: str) -> str:
    """The question as the page asks it, without its answer: the options lettered, or a line to write on."""
    lines = [f'<div class="question"><strong>{escape(translate(lang, "handout.question", part=part))}</strong>']
    lines.append(f"<p>{escape(question_text(question, markdown=False))}</p>")
    if question.kind == Kind.NUMERIC:
        lines.append(f'<p>{escape(translate(lang, "handout.your_answer"))} <span class="blank"></span></p>')
    else:
        options = "".join(
            f"<li>{escape(lettered_option(question, index, markdown=False))}</li>"
            for index in range(len(question.options))
        )
        lines.append(f"<ol>{options}</ol>")
    lines.append("</div>")
    return "".join(lines)


def answer_html(part: int, question: Question, lang: str) -> str:
    """The part's answer in the key: the number (and what is accepted), or the right option with its letter."""
    answer = answer_text(question, markdown=False)
    if question.kind == Kind.NUMERIC:
        answer = f"{answer} ({tolerance_text(question)})"
    elif question.correct_option is not None:
        answer = lettered_option(question, question.correct_option, markdown=False)
    return f"<li>{escape(translate(lang, 'handout.answer', part=part, answer=answer))}</li>"


def parts(
    scenario: Scenario,
    result: AttentionResult,
    lang: str,
    query: str,
    key: str,
    asked: dict[int, Question | None],
) -> list[Part]:
    """The five parts: what each shows, derives and asks."""
    specs = charts.attention_specs(scenario.tokens, result)
    scores, scaled, weights = specs
    output = charts.token_map(result.output, scenario.tokens, translate(lang, "matrix.output"))

    contents = {  # part: its figures, its derivation's heading's names, the derivation
        1: (
            charts.projection_specs(scenario.tokens, result),
            {"token": query},
            projection_rows(scenario, result, "Q", query),
        ),
        2: ([scores], {"q": query, "k": key}, score_rows(result, scenario.tokens, query, key)),
        3: ([scaled], {"token": query}, division_rows(scenario, result, query)),
        4: ([weights], {"token": query}, softmax_derivation_rows(scenario, result, query)),
        5: ([output], {"token": query}, weighted_sum_rows(result, scenario.tokens, query)),
    }
    return [
        Part(number, part_name(number, scenario), figures, translate(lang, f"handout.derive.{number}", **names), rows,
             asked.get(number))
        for number, (figures, names, rows) in contents.items()
    ]  # fmt: skip


def handout_html(
    scenario: Scenario,
    lang: str,
    *,
    query: str,
    key: str,
    asked: dict[int, Question | None],
) -> str:
    """The handout as one HTML document: the inputs, the five parts, the answers, all in `lang` whatever the
    session reads (the figures' titles come from code that asks the session's language)."""
    with state.written_in(lang):
        result = scenario.run()
        sentence = " ".join(scenario.tokens)
        title = translate(lang, "handout.title", sentence=sentence)
        n, d_model = scenario.x.shape
        meta = translate(
            lang,
            "handout.meta." + ("one" if n == 1 else "other"),
            n=numbers.count(n, lang=lang),
            d_model=numbers.count(d_model, lang=lang),
            d_k=numbers.count(scenario.d_k, lang=lang),
            d_v=numbers.count(scenario.w_v.shape[1], lang=lang),
            division=translate(lang, f"handout.division.{scenario.scale}"),
            temperature=numbers.short(scenario.temperature, 2, lang=lang),
        )
        if scenario.causal:
            meta += " " + translate(lang, "handout.causal")
        inputs = [charts.token_map(scenario.x, scenario.tokens, translate(lang, "matrix.x"))]
        inputs += charts.weight_specs(scenario.w_q, scenario.w_k, scenario.w_v)
        body = [
            f"<h1>{escape(title)}</h1>",
            f'<p class="meta">{escape(meta)}</p>',
            f"<p>{escape(translate(lang, 'handout.how'))}</p>",
            f"<h2>{escape(translate(lang, 'handout.inputs'))}</h2>",
            '<div class="figures">' + "".join(figure_html(spec, lang) for spec in inputs) + "</div>",
        ]
        handout_parts = parts(scenario, result, lang, query, key, asked)
        for part in handout_parts:
            heading = translate(lang, "walk.progress", part=part.number, total=len(PARTS), name=part.name)
            body.append(f'<section class="part"><h2>{escape(heading)}</h2>')
            body.append('<div class="figures">' + "".join(figure_html(s, lang) for s in part.figures) + "</div>")
            body.append(f"<h3>{escape(part.derivation_title)}</h3>")
            body.append(f"<pre>{escape(block(part.derivation, DERIVATION_COLUMNS))}</pre>")
            if part.question is not None:
                body.append(question_html(part.number, part.question, lang))
            body.append("</section>")
        answered = [part for part in handout_parts if part.question is not None]
        if answered:
            body.append(f'<section class="key"><h2>{escape(translate(lang, "handout.key"))}</h2><ul>')
            body += [answer_html(part.number, part.question, lang) for part in answered if part.question is not None]
            body.append("</ul></section>")
        return (
            f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>{''.join(body)}</body></html>"
        )
