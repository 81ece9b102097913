"""The learning page in a real browser: a preset trained with the buttons (the loss falls, the attention heatmap
changes), its history played and paused, a run stopped half-way, a target cell edited (and renormalised), and
the learned weights sent to the walkthrough."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from engine import lesson_scenario, target_preset
from tests.e2e.shared import assert_healthy, keyed, runs, screenshot, wait_for_app
from ui.i18n import LANGUAGES

pytestmark = pytest.mark.e2e
ES = LANGUAGES["es"]
RUN_TIMEOUT = 120_000  # a run is shown chunk by chunk (at least 0.2 s each): allow a slow, shared machine

# A keyed figure's data as plotly holds it in the page.
PLOT_DATA = """(selector) => {
  const plot = document.querySelector(selector);
  if (!plot || !plot.data) return null;
  return plot.data.map(trace => ({name: trace.name || null, y: trace.y || null, z: trace.z || null}));
}"""


def plot(page: Page, key: str) -> list[dict]:
    selector = f"{keyed(key)} .js-plotly-plot"
    page.wait_for_function(f"({PLOT_DATA})({selector!r}) !== null", timeout=RUN_TIMEOUT)
    return page.evaluate(PLOT_DATA, selector)


def heatmap(page: Page, key: str) -> np.ndarray:
    return np.array(plot(page, key)[0]["z"], dtype=float)


def act(page: Page, action) -> None:
    """Do something that reruns the script and wait for that rerun (with room for a slow, shared machine)."""
    before = runs(page)
    action()
    wait_for_app(page, before, RUN_TIMEOUT)


def open_learning(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/learning?questions_on=false")  # the content, not the questions asked before it
    wait_for_app(page, 0, RUN_TIMEOUT)


def open_train_tab(page: Page, app_url: str) -> None:
    open_learning(page, app_url)
    act(page, lambda: page.get_by_role("tab", name=ES["learn.tab.train"]).click())


def press(page: Page, key: str) -> None:
    """Press the button with this widget key (button names carry their icon's ligature text)."""
    page.locator(f".st-key-{key} button").click()


def step_shown(page: Page) -> int:
    return int(page.locator(".st-key-learn_step input[type=range]").input_value())


def test_a_preset_trains_the_loss_falls_and_the_heatmap_follows(page, app_url):
    open_train_tab(page, app_url)
    before = heatmap(page, "learn_attention")  # the starting W: the lesson's almost even rows
    press(page, "learn_go")
    done = page.locator("[data-testid=stAlert]").filter(has_text=ES["learn.outcome.done"].format(steps="100"))
    expect(done).to_be_visible(timeout=RUN_TIMEOUT)
    losses = next(trace["y"] for trace in plot(page, "learn_loss") if trace["name"] == ES["learn.chart.loss"])
    assert len(losses) == 101 and losses[-1] < losses[0] / 10
    after = heatmap(page, "learn_attention")
    assert not np.allclose(after, before)
    target = target_preset("previous", lesson_scenario().tokens)
    assert after.argmax(axis=1).tolist() == target.argmax(axis=1).tolist()
    assert step_shown(page) == 100
    screenshot(page, "learning-trained")

    press(page, "learn_play")  # from the last step, playing starts over and the slider moves on its own
    expect(page.locator(".st-key-learn_pause button")).to_be_visible(timeout=RUN_TIMEOUT)
    page.wait_for_function(
        "() => { const s = document.querySelector('.st-key-learn_step input[type=range]');"
        " return s && Number(s.value) > 0 && Number(s.value) < 100; }",
        timeout=RUN_TIMEOUT,
    )
    press(page, "learn_pause")
    expect(page.locator(".st-key-learn_play button")).to_be_visible(timeout=RUN_TIMEOUT)
    assert_healthy(page)


def test_stop_ends_a_long_run_part_way(page, app_url):
    open_train_tab(page, app_url)
    slider = page.locator(".st-key-learn_steps input[type=range]")
    slider.focus()
    act(page, lambda: page.keyboard.press("End"))  # 1,000 steps: 40 chunks, 0.2 s apart at the least
    press(page, "learn_go")
    stop = page.locator(".st-key-learn_stop button")
    expect(stop).to_be_visible(timeout=RUN_TIMEOUT)
    stop.click()
    stopped = page.locator("[data-testid=stAlert]").filter(has_text=ES["learn.outcome.stopped"].split("{")[0])
    expect(stopped).to_be_visible(timeout=RUN_TIMEOUT)
    expect(stopped).to_contain_text("de 1000")
    assert "1000 de 1000" not in stopped.inner_text()
    assert_healthy(page)


def test_an_edited_target_row_is_renormalised(page, app_url):
    open_learning(page, app_url)
    grid = page.locator(".st-key-learn_target_editor_scenario_1 [data-testid=stDataFrame]")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    # row «el», column «perro»: past the row labels (about 1/8 of the width) and the «el» column
    page.mouse.dblclick(box["x"] + box["width"] * 0.52, box["y"] + 35 + 17)
    editor = page.locator("textarea.gdg-input, input.gdg-input").first
    expect(editor).to_be_visible()
    editor.fill("1")
    act(page, lambda: page.keyboard.press("Enter"))
    # «el» was [1, 0, 0]; now [1, 1, 0] sums to 2 and is divided by it
    message = ES["learn.target.renormalised.one"].format(rows="«el»", sums="2")
    expect(page.locator("[data-testid=stAlert]").filter(has_text=message)).to_be_visible()
    # the chart stays mounted and takes the new figure after the run (ui/static/figure.js): wait for its first row
    selector = f"{keyed('learn_target_figure')} .js-plotly-plot"
    row = f"selector => JSON.stringify(({PLOT_DATA})(selector)?.[0]?.z?.[0])"
    page.wait_for_function(f"selector => ({row})(selector) === '[0.5,0.5,0]'", arg=selector, timeout=RUN_TIMEOUT)
    z = heatmap(page, "learn_target_figure")
    assert z[0].tolist() == [0.5, 0.5, 0.0]
    assert_healthy(page)


def test_the_learned_weights_reach_the_walkthrough(page, app_url):
    open_train_tab(page, app_url)
    press(page, "learn_go")
    done = page.locator("[data-testid=stAlert]").filter(has_text=ES["learn.outcome.done"].format(steps="100"))
    expect(done).to_be_visible(timeout=RUN_TIMEOUT)
    learned = heatmap(page, "learn_attention")
    act(page, lambda: page.get_by_role("tab", name=ES["learn.tab.send"]).click())
    press(page, "learn_send_button")
    link = page.locator("[data-testid=stMain] a").filter(has_text=ES["learn.send.to_walkthrough"])
    expect(link).to_be_visible()
    link.click()
    main = page.locator("[data-testid=stMain]")
    part_4 = ES["walk.progress"].split(":")[0].format(part=4, total=5)  # "Parte 4 de 5"
    expect(main).to_contain_text(part_4, timeout=RUN_TIMEOUT)
    # the questions were turned off when the learning page opened (?questions_on=false): the session keeps that
    np.testing.assert_allclose(heatmap(page, "walk_w4"), learned, rtol=1e-12)
    assert_healthy(page)
