"""Many classroom sessions at once against one server: isolation, latency and memory (prints figures).

Each of N browser sessions (default 10) renames the first token to its own name on the builder page, edits
its own cell of x, W_Q, W_K or W_V, steps through the walkthrough, and comes back. Every session must see its
own name and numbers and never another session's. Prints p95 interaction latency and server memory.

Run: python benchmarks/load_sessions.py [--sessions 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402

from harness.browser import CHART, CHROMIUM_FLAGS, SHOWS_LATEST, UNTHROTTLED_FLAGS, find_chromium, finishes_a_run  # noqa: E402
from harness.server import free_port, start_app, stop_app, wait_healthy  # noqa: E402
from ui.i18n import LANGUAGES  # noqa: E402

DIAGNOSIS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return `script=${app && app.getAttribute('data-test-script-state')} `
    + `connection=${app && app.getAttribute('data-test-connection-state')} `
    + `stale=${document.querySelectorAll('[data-stale=true]').length} `
    + `skeletons=${document.querySelectorAll('[data-testid=stSkeleton]').length} url=${location.pathname}`;
}"""
MATRICES = ("x", "w_q", "w_k", "w_v")  # the builder's four editors, in page order
TIMEOUT_MS = 120_000
STRINGS = LANGUAGES["es"]  # every session reads the app in its default language
# The token names on the figures' axes, as plotly draws them (SVG text).
# a figure: the app's figure component or st.plotly_chart
FIGURE = CHART
AXIS_LABELS = f"[data-testid=stMain] {FIGURE} .xtick text, {FIGURE} .ytick text"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Runs:
    """Script runs the server reports finished to one page (harness.browser.ScriptRuns, for asyncio)."""

    def __init__(self, page: Page) -> None:
        self.finished = 0
        self.changed = asyncio.Event()
        page.on("websocket", lambda socket: socket.on("framereceived", self._on_frame))

    def _on_frame(self, payload: str | bytes) -> None:
        if finishes_a_run(payload):
            self.finished += 1
            self.changed.set()

    async def wait_for_run(self, after: int) -> None:
        async with asyncio.timeout(TIMEOUT_MS / 1000):
            while self.finished <= after:
                self.changed.clear()
                await self.changed.wait()


async def settle(page: Page, runs: Runs, after: int) -> None:
    await runs.wait_for_run(after)
    await page.wait_for_function(SHOWS_LATEST, timeout=TIMEOUT_MS)


async def act(page: Page, runs: Runs, action: Callable[[], Awaitable[object]], latencies: list[float]) -> None:
    """Do something that reruns the script and wait for that run to show; record how long it took."""
    before = runs.finished
    start = time.perf_counter()
    await action()
    await settle(page, runs, before)
    latencies.append((time.perf_counter() - start) * 1000)


async def edit_cell(page: Page, runs: Runs, editor: int, column: float, text: str, latencies: list[float]) -> None:
    """Type into the first row of a data editor, at `column` (a fraction of the grid's width)."""
    grid = page.locator("[data-testid=stDataFrame]").nth(editor)
    await grid.scroll_into_view_if_needed()
    box = await grid.bounding_box()
    if box is None:
        raise RuntimeError(f"data editor {editor} is not shown")
    await page.mouse.dblclick(box["x"] + column * box["width"], box["y"] + 35 + 17)
    field = page.locator("textarea.gdg-input, input.gdg-input").first
    await field.wait_for(timeout=TIMEOUT_MS)
    await field.fill(text)
    await act(page, runs, lambda: page.keyboard.press("Enter"), latencies)


async def session(
    browser: Browser, url: str, index: int, count: int, latencies: list[float], stagger: float
) -> list[str]:
    """One student's session; returns the problems it saw (empty when all is well)."""
    await asyncio.sleep(index * stagger)  # students do not all press Enter in the same millisecond
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    runs = Runs(page)
    problems = []
    stage = "open the builder"
    mine, others = f"s{index}", [f"s{j}" for j in range(count) if j != index]
    try:
        await page.goto(f"{url}/builder")
        await settle(page, runs, 0)
        stage = "rename the first token"
        await edit_cell(page, runs, 0, 0.1, mine, latencies)
        stage = "edit a number"
        matrix = index % len(MATRICES)
        await edit_cell(page, runs, matrix, 0.3, f"{index + 1}.{index + 1}", latencies)  # x0 or d0 of row 0
        stage = "open the walkthrough"
        walkthrough = page.get_by_role("link", name=STRINGS["page.walkthrough"]).first
        await act(page, runs, walkthrough.click, latencies)
        for step in range(2, 6):
            stage = f"step to {step}"
            await act(page, runs, page.get_by_role("button", name=STRINGS["walk.next"]).click, latencies)
        stage = "back to the builder"
        await act(page, runs, page.get_by_role("link", name=STRINGS["page.builder"]).first.click, latencies)
        labels = " ".join(await page.locator(AXIS_LABELS).all_text_contents())
        if mine not in labels.split():
            problems.append(f"session {index} lost its own token name")
        seen = [name for name in others if name in labels.split()]
        if seen:
            problems.append(f"session {index} saw other sessions' tokens: {seen}")
    except Exception as exc:  # a session that breaks is reported, not fatal to the others
        state = await page.evaluate(DIAGNOSIS)
        problems.append(f"session {index}, {stage}: {type(exc).__name__}: {str(exc).splitlines()[0]} [{state}]")
    finally:
        await context.close()
    return problems


async def run(sessions: int, stagger: float) -> None:
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no Chromium: apt-get install chromium")
    port = free_port()
    server = start_app(ROOT / "app.py", port)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server)
        async with async_playwright() as playwright:
            # Many pages in one browser: unthrottled, or the ones Chromium deems hidden would wait for frames.
            browser = await playwright.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_FLAGS + UNTHROTTLED_FLAGS
            )
            warm = await browser.new_context()
            warm_page = await warm.new_page()
            warm_runs = Runs(warm_page)
            await warm_page.goto(url)
            await settle(warm_page, warm_runs, 0)
            await warm.close()
            rss_before = rss_mb(server.pid)
            latencies: list[float] = []
            start = time.perf_counter()
            results = await asyncio.gather(
                *(session(browser, url, i, sessions, latencies, stagger) for i in range(sessions))
            )
            wall = time.perf_counter() - start
            rss_after = rss_mb(server.pid)
            await browser.close()
    finally:
        stop_app(server)
    problems = [p for result in results for p in result]
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else float("nan")
    print(f"sessions at once: {sessions}; interactions: {len(latencies)}; wall time {wall:.1f} s")
    if ordered:
        print(
            f"interaction latency: median {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, "
            f"max {ordered[-1]:.0f} ms"
        )
    print(
        f"server RSS: {rss_before:.0f} MB before, {rss_after:.0f} MB after "
        f"({(rss_after - rss_before) / sessions:.1f} MB per session)"
    )
    print(
        "isolation: every session saw only its own values" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems)
    )
    if problems:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="browser sessions at once (default 10)")
    parser.add_argument("--stagger", type=float, default=1.0, help="seconds between session starts (default 1)")
    args = parser.parse_args()
    asyncio.run(run(args.sessions, args.stagger))


if __name__ == "__main__":
    main()
