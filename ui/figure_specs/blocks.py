"""The encoder block as a diagram: the boxes of one layer, the step the page is about marked."""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from ui.figure_specs.common import Style, plain_text
from ui.figure_specs.plots import base_layout


@dataclass(frozen=True)
class BlockLabels:
    """The words of the Transformer block figure, in the reader's language."""

    encoder: str  # the column titles
    decoder: str
    inputs: str  # embeddings + positional encoding
    attention: str  # (multi-head) self-attention: this step
    masked_attention: str  # the decoder's self-attention with the causal mask
    cross_attention: str  # the decoder's attention over the encoder's output
    add_norm: str  # residual sum + layer norm
    feed_forward: str
    output: str
    repeat: str  # "× N layers"
    here: str  # the mark beside this step


BLOCK_FILL = {"attention": "#9ecae1", "add_norm": "#d9d9d9", "feed_forward": "#fdd0a2", "inputs": "#c7e9c0"}
BLOCK_TEXT = "#111111"  # dark on every fill: the fills are light in both themes
BLOCK_LINE = "#7f7f7f"


def block_figure(labels: BlockLabels, style: Style, lang: str) -> go.Figure:
    """The Transformer block around this step, encoder beside decoder, drawn bottom to top: inputs, (masked)
    self-attention, residual + layer norm, (cross-attention, residual + layer norm,) feed-forward, residual + layer
    norm; the residual paths beside each sublayer, this step outlined and marked."""
    box_w, box_h, step = 1.5, 0.62, 1.0
    encoder = ("inputs", "attention", "add_norm", "feed_forward", "add_norm")
    decoder = ("inputs", "masked_attention", "add_norm", "cross_attention", "add_norm", "feed_forward", "add_norm")
    columns = {0.0: encoder, 2.6: decoder}
    shapes: list[dict] = []
    notes: list[dict] = []
    residual_x: list[float | None] = []  # the residual paths, one trace with gaps between them
    residual_y: list[float | None] = []
    # the boxes' words: a text trace, not annotations, because Streamlit's theme recolours annotations' fonts (white
    # on the light fills in dark mode); a trace's textfont keeps its colour
    label_x: list[float] = []
    label_y: list[float] = []
    label_text: list[str] = []
    font = {"size": style.font}

    def arrow(x0: float, y0: float, x1: float, y1: float, dash: bool = False) -> None:
        notes.append(
            {
                "x": x1,
                "y": y1,
                "ax": x0,
                "ay": y0,
                "xref": "x",
                "yref": "y",
                "axref": "x",
                "ayref": "y",
                "showarrow": True,
                "arrowhead": 2,
                "arrowsize": 1.2,
                "arrowwidth": 1.6,
                "arrowcolor": BLOCK_LINE,
                "text": "",
                "standoff": 0,
                "startstandoff": 0,
            }
        )
        if dash:
            notes[-1]["arrowwidth"] = 1.2

    tops = {}
    for x, boxes in columns.items():
        for k, part in enumerate(boxes):
            y = k * step
            text = getattr(labels, part)
            kind = "attention" if part.endswith("attention") else part
            ours = k == 1  # the self-attention of each column: this step
            shapes.append(
                {
                    "type": "rect",
                    "x0": x - box_w / 2,
                    "x1": x + box_w / 2,
                    "y0": y - box_h / 2,
                    "y1": y + box_h / 2,
                    "fillcolor": BLOCK_FILL[kind],
                    "line": {"color": "#08519c" if ours else BLOCK_LINE, "width": 3 if ours else 1},
                    "layer": "below",
                }
            )
            label_x.append(x)
            label_y.append(y)
            label_text.append(plain_text(text))
            if k:
                arrow(x, y - step + box_h / 2, x, y - box_h / 2)
            if kind == "add_norm":  # the residual: from below the sublayer, around it, into the sum
                side = x + box_w / 2 + 0.18
                start, end = y - 2 * step + box_h / 2 + 0.1, y
                residual_x += [x + box_w / 2, side, side, x + box_w / 2, None]
                residual_y += [start, start, end, end, None]
        tops[x] = (len(boxes) - 1) * step
        notes.append({"x": x, "y": tops[x] + step, "text": plain_text(labels.output), "showarrow": False, "font": font})
        arrow(x, tops[x] + box_h / 2, x, tops[x] + step - 0.22)
    # the encoder's output feeds the decoder's cross-attention (its K and V)
    arrow(0.0 + box_w / 2 + 0.05, tops[0.0] + step, 2.6 - box_w / 2, 3 * step)
    # this step marked beside the encoder's self-attention, and the stack repeated
    notes.append(
        {
            "x": -box_w / 2 - 0.08,
            "y": step,
            "text": plain_text(labels.here),
            "showarrow": False,
            "xanchor": "right",
            "font": {"size": style.font, "color": "#08519c"},
        }
    )
    notes.append(
        {
            "x": -box_w / 2 - 0.08,
            "y": 3 * step,
            "text": plain_text(labels.repeat),
            "showarrow": False,
            "xanchor": "right",
            "font": {"size": style.font},
        }
    )
    width = min(int(760 * (1.3 if style.font > 14 else 1.0)), style.max_width)
    height = int(7 * step * (style.font * 4.2))
    layout, _ = base_layout(style, lang, "", width, height)
    layout.update(
        {
            "shapes": shapes,
            "annotations": notes
            + [
                {
                    "x": x,
                    "y": -0.95,
                    "text": f"<b>{plain_text(name)}</b>",
                    "showarrow": False,
                    "font": {"size": style.title},
                }
                for x, name in ((0.0, labels.encoder), (2.6, labels.decoder))
            ],
            "xaxis": {"visible": False, "range": [-2.4, 3.75], "fixedrange": True},
            "yaxis": {"visible": False, "range": [-1.3, 7.4], "fixedrange": True},
            "margin": {"l": 4, "r": 4, "t": 8, "b": 4},
            "showlegend": False,
            "plot_bgcolor": "rgba(0,0,0,0)",
        }
    )
    residuals = {
        "type": "scatter",
        "x": residual_x,
        "y": residual_y,
        "mode": "lines",
        "line": {"color": BLOCK_LINE, "width": 1.4, "dash": "dot"},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    words = {
        "type": "scatter",
        "x": label_x,
        "y": label_y,
        "text": label_text,
        "mode": "text",
        "textfont": {"size": style.font, "color": BLOCK_TEXT},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    return go.Figure(data=[residuals, words], layout=layout)
