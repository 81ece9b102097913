"""Latency of every page in a real browser, next to a floor app (one slider, one line of text): prints figures.

Not a test, nothing here asserts a time. One run starts `streamlit run app.py` and the floor app on free local
ports, then measures, in Debian's headless Chromium:
  - server memory per session: the app server's VmRSS before and after opening 10 builder sessions;
  - first complete render of home, pipeline and the floor (fresh browser contexts);
  - websocket bytes received during one slider step, on the builder and on the floor;
  - per page, N interactions from the key press (or pointer press) to the moment the DOM stops changing.
A page's interaction is "within target" when its median is at most 2× the floor's and its p95 at most 3×.

Run: python benchmarks/bench_latency.py [--repeats 30] [--pages softmax builder ...] [--json figures.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from tests.e2e.conftest import CHROMIUM_FLAGS, find_chromium, free_port, start_app, wait_healthy, warm_up  # noqa: E402
from tests.e2e.shared import RUN_COUNTER, runs, wait_for_app  # noqa: E402
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES  # noqa: E402
from ui.pages import PAGES, PageSpec, page_url  # noqa: E402

FLOOR_APP = ROOT / "benchmarks" / "floor_app.py"
QUIET_MS = 400  # the DOM has "stopped changing" once nothing has mutated for this long
TIMEOUT_MS = 60_000  # every wait is bounded by this
WARMUP_STEPS = 2  # unmeasured interactions per page, one in each direction, so every state has been seen once
FIRST_RENDERS = 5  # fresh browser contexts per first-render figure
SESSIONS = 10  # browser contexts held open for the memory figure
MEDIAN_TARGET, P95_TARGET = 2.0, 3.0  # a page is within target at ≤ 2× the floor's median and ≤ 3× its p95
KEYS = ("ArrowRight", "ArrowLeft")  # alternated, so sliders and the step stay in range
STRINGS = LANGUAGES[DEFAULT_LANGUAGE]

# Records performance.now() of the last DOM mutation, and of the last key or pointer press (the interaction's t0,
# taken in the page, in the same clock, before the app sees the event).
DOM_CLOCK = """
window.__lastMutation = performance.now();
window.__t0 = null;
new MutationObserver(() => { window.__lastMutation = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
for (const type of ['keydown', 'pointerdown']) {
  window.addEventListener(type, () => { window.__t0 = performance.now(); }, {capture: true});
}
"""
DOM_QUIET = f"performance.now() - window.__lastMutation > {QUIET_MS}"

Interact = Callable[[Page, int], None]  # does the i-th interaction (i alternates the direction)


class Server(NamedTuple):
    url: str
    pid: int


class Case(NamedTuple):
    """What is measured on one page: how to reach it and how to interact with it (None: first render only)."""

    name: str
    url: str
    description: str
    interact: Interact | None


def slider_step(label: str | None = None) -> Interact:
    """Focus the slider (the one labelled `label`, or the only one) and press → or ←."""

    def interact(page: Page, i: int) -> None:
        sliders = page.locator("[data-testid=stSlider]")
        if label is not None:
            sliders = sliders.filter(has_text=label)
        sliders.locator("input[type=range]").first.focus()
        page.keyboard.press(KEYS[i % 2])

    return interact


def step_shortcut(page: Page, i: int) -> None:
    """The walkthrough's next / previous step keys, with the focus on the page (its title), not in a widget."""
    page.locator("h1").first.click()
    page.keyboard.press(KEYS[i % 2])


def causal_toggle(page: Page, i: int) -> None:
    """Switch the pipeline's causal mask on or off with a click on its label."""
    page.locator("[data-testid=stMain]").get_by_text(STRINGS["pipeline.causal"], exact=True).click()


INTERACTIONS: dict[str, tuple[str, Interact | None]] = {
    "home": ("none: first render only (see below)", None),
    "softmax": ("temperature slider, key →/←", slider_step(STRINGS["softmax.temperature"])),
    "walkthrough": ("next/previous step shortcut, key →/←", step_shortcut),
    "builder": ("Options: temperature slider, key →/←", slider_step(STRINGS["scenario.temperature"])),
    "scaling": ("random-walk slider (walks; a fragment), key →/←", slider_step(STRINGS["scaling.walk.walks"])),
    "pipeline": ("causal-mask toggle, click on its label", causal_toggle),
}
FLOOR_INTERACTION = "slider, key →/←"


@contextmanager
def served(script: Path) -> Iterator[Server]:
    """`streamlit run script` on a free local port until the block ends, however it ends."""
    port = free_port()
    process = start_app(script, port)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, process)
        yield Server(url, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def session(browser: Browser) -> Iterator[Page]:
    """A fresh browser context (a new Streamlit session) whose page counts runs and clocks DOM mutations."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(RUN_COUNTER)
        page.add_init_script(DOM_CLOCK)
        yield page
    finally:
        context.close()


def settle(page: Page, after: int) -> None:
    """Wait for a run newer than `after` to finish, then for the DOM to stay still for QUIET_MS."""
    wait_for_app(page, after, timeout=TIMEOUT_MS)
    page.wait_for_function(DOM_QUIET, timeout=TIMEOUT_MS)


def open_settled(page: Page, url: str) -> None:
    page.goto(url, timeout=TIMEOUT_MS)
    settle(page, 0)


def timed_step(page: Page, interact: Interact, i: int) -> float:
    """One interaction: ms from the key (or pointer) press to the last DOM mutation before the page went quiet."""
    page.evaluate("window.__t0 = null")
    before = runs(page)
    interact(page, i)
    settle(page, before)
    latency = page.evaluate("window.__t0 === null ? null : window.__lastMutation - window.__t0")
    if latency is None:
        raise RuntimeError("the interaction dispatched no key or pointer press in the page")
    return latency


def interaction_latencies(browser: Browser, case: Case, repeats: int) -> list[float]:
    with session(browser) as page:
        open_settled(page, case.url)
        for i in range(WARMUP_STEPS):
            timed_step(page, case.interact, i)
        return [timed_step(page, case.interact, WARMUP_STEPS + i) for i in range(repeats)]


def first_render_ms(browser: Browser, url: str) -> float:
    """Navigation start to the last DOM mutation of the first complete render, in a fresh context."""
    with session(browser) as page:
        open_settled(page, url)
        return page.evaluate("window.__lastMutation")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def memory_growth(browser: Browser, url: str, pid: int) -> dict:
    """Server RSS before and while SESSIONS contexts hold the page open (after one session has loaded its code)."""
    with session(browser) as page:
        open_settled(page, url)
    before = rss_mb(pid)
    with ExitStack() as stack:
        for _ in range(SESSIONS):
            page = stack.enter_context(session(browser))
            page.goto(url, timeout=TIMEOUT_MS)
            wait_for_app(page, 0, timeout=TIMEOUT_MS)
        after = rss_mb(pid)
    return {
        "sessions": SESSIONS,
        "before_mb": before,
        "after_mb": after,
        "total_mb": after - before,
        "per_session_mb": (after - before) / SESSIONS,
    }


def websocket_bytes(browser: Browser, url: str, interact: Interact) -> dict:
    """Bytes (and frames) the page receives over the websocket during one interaction."""
    with session(browser) as page:
        frames: list[int] = []

        def on_frame(payload: str | bytes) -> None:
            frames.append(len(payload.encode() if isinstance(payload, str) else payload))

        page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
        open_settled(page, url)
        frames.clear()
        before = runs(page)
        interact(page, 0)
        settle(page, before)
        return {"bytes": sum(frames), "frames": len(frames)}


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def summary(values: list[float]) -> dict:
    return {"median_ms": statistics.median(values), "p95_ms": p95(values), "samples_ms": values}


def print_interactions(figures: dict, repeats: int) -> None:
    floor = figures["floor"]
    print(
        f"Interaction latency: key/pointer press -> last DOM mutation before {QUIET_MS} ms of quiet "
        f"({repeats} timed after {WARMUP_STEPS} unmeasured; ms; target median <= {MEDIAN_TARGET:g}x floor, "
        f"p95 <= {P95_TARGET:g}x floor)"
    )
    print(f"{'page':<12} {'median':>8} {'p95':>8} {'x med':>6} {'x p95':>6}  {'target':<6}  interaction")
    for name, row in figures.items():
        if row.get("median_ms") is None:
            print(f"{name:<12} {'-':>8} {'-':>8} {'-':>6} {'-':>6}  {'-':<6}  {row['interaction']}")
            continue
        row["median_ratio"] = row["median_ms"] / floor["median_ms"]
        row["p95_ratio"] = row["p95_ms"] / floor["p95_ms"]
        row["within_target"] = row["median_ratio"] <= MEDIAN_TARGET and row["p95_ratio"] <= P95_TARGET
        verdict = "-" if name == "floor" else ("ok" if row["within_target"] else "MISS")
        print(
            f"{name:<12} {row['median_ms']:8.0f} {row['p95_ms']:8.0f} {row['median_ratio']:6.2f} "
            f"{row['p95_ratio']:6.2f}  {verdict:<6}  {row['interaction']}"
        )


def print_first_renders(figures: dict) -> None:
    floor = figures["floor"]["median_ms"]
    print(f"\nFirst complete render: navigation start -> last DOM mutation, median of {FIRST_RENDERS} fresh contexts")
    print(f"{'page':<12} {'median':>8} {'min':>8} {'max':>8} {'x floor':>8}")
    for name, row in figures.items():
        samples = row["samples_ms"]
        row["median_ratio"] = row["median_ms"] / floor
        print(f"{name:<12} {row['median_ms']:8.0f} {min(samples):8.0f} {max(samples):8.0f} {row['median_ratio']:8.2f}")


def print_memory(memory: dict) -> None:
    print(
        f"\nServer memory (app, VmRSS): {memory['before_mb']:.1f} MB -> {memory['after_mb']:.1f} MB with "
        f"{memory['sessions']} builder sessions open: +{memory['total_mb']:.1f} MB, "
        f"+{memory['per_session_mb']:.2f} MB per session"
    )


def print_websocket(weights: dict) -> None:
    print("\nWebsocket bytes received during one slider step")
    for name, row in weights.items():
        ratio = row["bytes"] / weights["floor"]["bytes"]
        print(f"{name:<12} {row['bytes']:>10,} B in {row['frames']:>3} frames  {ratio:8.1f}x floor")


def cases(app: Server, floor: Server, keys: list[str]) -> list[Case]:
    specs: dict[str, PageSpec] = {spec.key: spec for spec in PAGES}
    found = [Case("floor", f"{floor.url}/", FLOOR_INTERACTION, slider_step())]
    for key in keys:
        description, interact = INTERACTIONS[key]
        found.append(Case(key, page_url(app.url, specs[key]), description, interact))
    return found


def measure(browser: Browser, app: Server, floor: Server, keys: list[str], repeats: int) -> dict:
    """Every figure, in the order that keeps the memory baseline clean: memory first, interactions last."""
    all_cases = cases(app, floor, keys)
    by_name = {case.name: case for case in all_cases}
    figures: dict = {"repeats": repeats, "quiet_ms": QUIET_MS}
    if "builder" in by_name:
        figures["memory"] = memory_growth(browser, by_name["builder"].url, app.pid)
        print_memory(figures["memory"])
    rendered = [name for name in ("floor", "home", "pipeline") if name in by_name]
    if len(rendered) > 1:
        figures["first_render"] = {
            name: summary([first_render_ms(browser, by_name[name].url) for _ in range(FIRST_RENDERS)])
            for name in rendered
        }
        print_first_renders(figures["first_render"])
    if "builder" in by_name:
        figures["websocket"] = {
            name: websocket_bytes(browser, by_name[name].url, by_name[name].interact) for name in ("floor", "builder")
        }
        print_websocket(figures["websocket"])
    interactions = {}
    for case in all_cases:
        row = {"interaction": case.description}
        if case.interact is not None:
            row |= summary(interaction_latencies(browser, case, repeats))
        interactions[case.name] = row
    print()
    print_interactions(interactions, repeats)
    figures["interactions"] = interactions
    return figures


def parse_args() -> argparse.Namespace:
    keys = [spec.key for spec in PAGES]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed interactions per page (default 30)")
    parser.add_argument("--pages", nargs="+", choices=keys, default=keys, help="pages to measure (default: all)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every figure to PATH as JSON")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main() -> None:
    args = parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium found: install Debian's chromium package")
    keys = [spec.key for spec in PAGES if spec.key in args.pages]
    with served(ROOT / "app.py") as app, served(FLOOR_APP) as floor, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            warm_up(browser, app.url)
            warm_up(browser, floor.url)
            figures = measure(browser, app, floor, keys, args.repeats)
        finally:
            browser.close()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False))
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
