"""A seeded random walk over every widget of every page, with random and hostile values: no exception, ever.

A failure names the seed, page and the interaction that broke it, so it replays exactly.
"""

from __future__ import annotations

import random

import pytest

from engine import Scale, lesson_scenario
from engine.scenario import Scenario
from tests.app.helpers import open_page
from ui.pages import PAGES

HOSTILE_TEXT = [
    "",
    "   ",
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    "**negrita** _cursiva_ [link](javascript:alert(1))",
    "$\\frac{a}{b}$ \\begin{x}",
    "🐶🐱 el perro 🍖",
    "الكلب يأكل",  # right-to-left
    "ñandú pingüino acción",
    " ".join(f"palabra{i}" for i in range(300)),
    "a" * 5000,
    "{lang} {0} %s %(x)s",
    "\x00\x1b[31m",
]
HOSTILE_TOKENS = ("<b>x</b>", "$x$", "🐶", "**y**", "{0}", "\\")
RADIO_VALUES = {"lang": ["es", "en"], "pipeline_weights": ["lesson", "random"]}
INTERACTIONS_PER_PAGE = 40
SEEDS = (0, 1)


def random_value(widget, rng: random.Random):
    kind = type(widget).__name__
    if kind == "TextInput":
        return rng.choice(HOSTILE_TEXT)
    if kind in ("Slider", "NumberInput"):
        low, high = widget.min, widget.max
        if isinstance(widget.value, int) and isinstance(low, int):
            return rng.choice([low, high, rng.randint(low, high)])
        return rng.choice([low, high, round(rng.uniform(low, high), 1)])
    if kind == "Radio":  # options hold the labels; these are the values behind them
        return rng.choice(RADIO_VALUES[widget.key])
    if kind == "Multiselect":
        return rng.sample(widget.options, rng.randint(0, len(widget.options)))
    if kind == "Toggle" or kind == "Checkbox":
        return rng.random() < 0.5
    if kind == "ButtonGroup":  # the walkthrough's step picker and the builder's scale mode
        return rng.randint(1, 5) if widget.key == "step" else rng.choice(list(Scale))
    raise AssertionError(f"no random values for {kind}")


def interactive_widgets(at):
    widgets = []
    for group in (
        at.text_input,
        at.slider,
        at.number_input,
        at.selectbox,
        at.radio,
        at.multiselect,
        at.toggle,
        at.button,
        at.button_group,
    ):
        widgets.extend(w for w in group if not getattr(w, "disabled", False))
    return widgets


def poke(widget, rng: random.Random, at):
    kind = type(widget).__name__
    if kind == "Button":
        widget.click()
    elif kind == "Selectbox":
        widget.select_index(rng.randrange(len(widget.options)))
    elif kind == "Multiselect":
        widget.set_value(random_value(widget, rng))
    else:
        widget.set_value(random_value(widget, rng))
    at.run()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_random_and_hostile_widget_values_never_break_a_page(spec, seed):
    rng = random.Random(f"{seed}-{spec.key}")
    at = open_page(spec.path, rng.choice(["es", "en"]))
    if rng.random() < 0.5:
        base = lesson_scenario()
        at.session_state["scenario"] = Scenario(
            tuple(rng.sample(HOSTILE_TOKENS, 3)), base.x, base.w_q, base.w_k, base.w_v
        )
        at.run()
    history = []
    for step in range(INTERACTIONS_PER_PAGE):
        widgets = interactive_widgets(at)
        if not widgets:
            break
        widget = rng.choice(widgets)
        history.append(f"{type(widget).__name__}:{widget.key or getattr(widget, 'label', '')}")
        poke(widget, rng, at)
        assert not at.exception, f"seed={seed} page={spec.key} step={step}: {history[-5:]}\n{at.exception[0].value}"
    assert history, "the page offered no widget to drive"
