"""Latency of every page in a real browser, next to two floor apps: prints figures.

The floors: the plain floor (one slider, one line of text: Streamlit's own overhead) and the plotly floor (one
slider, one 3×3 plotly heatmap that follows it, plain `st.plotly_chart` defaults: what any app pays to redraw a
small plotly figure). Not a test, nothing here asserts a time. One run starts `streamlit run app.py` and both
floor apps on free local ports (benchmarks and browser tests share the harness in harness/), then measures, in
Debian's headless Chromium:
  - server memory per session: the app server's VmRSS before and after opening 10 builder sessions;
  - first complete render of home, pipeline and both floors (fresh browser contexts);
  - websocket bytes received during one slider step, on the builder and on both floors;
  - per page, N interactions from the key press (or pointer press) to the moment the DOM stops changing, each
    alternated with one on each floor; every page's median and p95 as ratios to both floors'.
A page's interaction is "within target" when its median is at most 1.5× the plotly floor's and its p95 at most
2× the plotly floor's p95 (issue 11).

Run: python benchmarks/bench_latency.py [--repeats 30] [--pages softmax builder ...] [--json figures.json]
                                       [--floor-app benchmarks/floors/floor_app_frozen.py]
                                       [--plotly-floor-app benchmarks/floors/floor_plotly.py]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from harness.browser import CHART, SHOWS_LATEST, ScriptRuns, chromium_or_exit, launch  # noqa: E402
from harness.server import Server, served  # noqa: E402
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES  # noqa: E402
from ui.pages import PAGES, page_url  # noqa: E402

FLOOR_APP = ROOT / "benchmarks" / "floors" / "floor_app.py"
PLOTLY_FLOOR_APP = ROOT / "benchmarks" / "floors" / "floor_plotly.py"
FLOORS = ("floor", "plotly floor")  # the names of the two floors' rows: plain, and plotly
QUIET_MS = 400  # the DOM has "stopped changing" once nothing has mutated for this long
TIMEOUT_MS = 60_000  # every wait is bounded by this
WARMUP_STEPS = 2  # unmeasured interactions per page, one in each direction, so every state has been seen once
FIRST_RENDERS = 5  # fresh browser contexts per first-render figure
SESSIONS = 10  # browser contexts held open for the memory figure
# a page is within target at ≤ 1.5× the plotly floor's median and ≤ 2× its p95 (issue 11)
MEDIAN_TARGET, P95_TARGET = 1.5, 2.0
TARGET_FLOOR = "plotly floor"
KEYS = ("ArrowRight", "ArrowLeft")  # alternated, so sliders and the step stay in range
STRINGS = LANGUAGES[DEFAULT_LANGUAGE]

# Records performance.now() of the last DOM mutation or image load, and of the last key or pointer press (the
# interaction's t0, taken in the page, in the same clock, before the app sees the event). Plotly draws a figure
# as SVG elements, so its last redraw is a mutation.
DOM_CLOCK = """
window.__lastMutation = performance.now();
window.__t0 = null;
new MutationObserver(() => { window.__lastMutation = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
// An image is on screen once it has loaded, which can come after its last mutation.
window.addEventListener('load', () => { window.__lastMutation = performance.now(); }, {capture: true});
for (const type of ['keydown', 'pointerdown']) {
  window.addEventListener(type, () => { window.__t0 = performance.now(); }, {capture: true});
}
"""
# a figure: the app's figure component or st.plotly_chart
FIGURE = CHART
PAGE_SIZE = f"""[document.querySelectorAll('[data-testid=stMain] {FIGURE}').length,
  document.querySelectorAll('*').length]"""
DOM_QUIET = f"performance.now() - window.__lastMutation > {QUIET_MS}"

Interact = Callable[[Page, int], None]  # does the i-th interaction (i alternates the direction)


class Case(NamedTuple):
    """What is measured on one page: its address, its interaction (None: first render only), and what to do
    once before it (open a tab, say)."""

    name: str
    url: str
    description: str
    interact: Interact | None
    prepare: Callable[[Page], None] | None = None


def interaction(case: Case) -> Interact:
    """The case's interaction (a case that measures its first render only has none to time)."""
    if case.interact is None:
        raise ValueError(f"{case.name}: first render only, no interaction to time")
    return case.interact


class ServerLink(ScriptRuns):
    """What a page receives over its websocket: bytes, frames, and the runs the server reports finished.

    Like harness.browser.ScriptRuns, it counts the server's script_finished messages (the page's attribute
    can miss a short run), and it also adds up what a rerun costs in bytes.
    """

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.bytes = 0
        self.frames = 0

    def _on_frame(self, payload: str | bytes) -> None:
        self.bytes += len(payload.encode() if isinstance(payload, str) else payload)
        self.frames += 1
        super()._on_frame(payload)

    def wait_for_run(self, after: int, timeout: float = TIMEOUT_MS) -> None:
        super().wait_for_run(after, timeout)


class Tab(NamedTuple):
    page: Page
    link: ServerLink


def slider_step(label: str | None = None, keys: tuple[str, str] = KEYS) -> Interact:
    """Focus the slider (the one labelled `label`, or the only one) and press `keys` alternately (→ then ←; a
    slider that starts at its end, ← then →)."""

    def interact(page: Page, i: int) -> None:
        sliders = page.locator("[data-testid=stSlider]")
        if label is not None:
            sliders = sliders.filter(has_text=label)
        sliders.locator("input[type=range]").first.focus()
        page.keyboard.press(keys[i % 2])

    return interact


def step_shortcut(page: Page, i: int) -> None:
    """The walkthrough's next / previous step keys, with the focus on the page (its title), not in a widget."""
    page.locator("h1").first.click()
    page.keyboard.press(KEYS[i % 2])


def open_tab(label: str) -> Callable[[Page], None]:
    def prepare(page: Page) -> None:
        page.get_by_role("tab", name=label).click()

    return prepare


def causal_toggle(page: Page, i: int) -> None:
    """Switch the pipeline's causal mask on or off with a click on its label."""
    page.locator("[data-testid=stMain]").get_by_text(STRINGS["pipeline.causal"], exact=True).click()


def train_first(page: Page) -> None:
    """The learning page's step slider works once a run has trained: open the Train tab, press Train, wait until
    the slider is enabled."""
    open_tab(STRINGS["learn.tab.train"])(page)
    page.get_by_role("button", name=STRINGS["learn.train"], exact=True).click()
    slider = page.locator("[data-testid=stSlider]").filter(has_text=STRINGS["learn.step"])
    expect(slider.locator("input[type=range]")).to_be_enabled(timeout=TIMEOUT_MS)


def heads_choice(page: Page, i: int) -> None:
    """The multi-head page's h: open its select box and pick 4, then 2 (its lower part, a fragment, reruns)."""
    page.locator("[data-testid=stSelectbox]").filter(has_text=STRINGS["mh.h"]).first.click()
    page.get_by_role("option", name=("4", "2")[i % 2], exact=True).click()


INTERACTIONS: dict[str, tuple[str, Interact | None, Callable[[Page], None] | None]] = {
    "home": ("none: first render only (see above)", None, None),
    "softmax": ("temperature slider, key →/←", slider_step(STRINGS["softmax.temperature"]), None),
    "walkthrough": ("next/previous step shortcut, key →/←", step_shortcut, None),
    "multihead": ("heads select box: pick h = 4 / 2 (the lower part reruns), click", heads_choice, None),
    "builder": ("Options: temperature slider, key →/←", slider_step(STRINGS["scenario.temperature"]), None),
    "scaling": (
        "random-walk slider (walks), key →/←, in the random-walk tab",
        slider_step(STRINGS["scaling.walk.walks"]),
        open_tab(STRINGS["scaling.tab.walk"]),
    ),
    "pipeline": ("causal-mask toggle, click on its label", causal_toggle, None),
    "learning": (
        "step slider, key ←/→, after one run trained (it opens on the run's last step)",
        slider_step(STRINGS["learn.step"], keys=KEYS[::-1]),
        train_first,
    ),
}
FLOOR_INTERACTION = "slider, key →/←"


@contextmanager
def session(browser: Browser) -> Iterator[Tab]:
    """A fresh browser context (a new Streamlit session) whose page clocks DOM mutations and counts runs."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(DOM_CLOCK)
        yield Tab(page, ServerLink(page))
    finally:
        context.close()


def settle(tab: Tab, finished: int) -> None:
    """Wait for a run after the `finished` first ones to end, for the page to show it, then for QUIET_MS of calm."""
    tab.link.wait_for_run(finished)
    tab.page.wait_for_function(SHOWS_LATEST, timeout=TIMEOUT_MS)
    tab.page.wait_for_function(DOM_QUIET, timeout=TIMEOUT_MS)


def open_settled(tab: Tab, url: str) -> None:
    tab.page.goto(url, timeout=TIMEOUT_MS)
    settle(tab, 0)


def timed_step(tab: Tab, interact: Interact, i: int) -> float:
    """One interaction: ms from the key (or pointer) press to the last DOM mutation before the page went quiet."""
    tab.page.evaluate("window.__t0 = null")
    finished = tab.link.finished
    interact(tab.page, i)
    settle(tab, finished)
    latency = tab.page.evaluate("window.__t0 === null ? null : window.__lastMutation - window.__t0")
    if latency is None:
        raise RuntimeError("the interaction dispatched no key or pointer press in the page")
    return latency


def interaction_latencies(browser: Browser, case: Case, floors: dict[str, Case], repeats: int) -> dict:
    """`repeats` interactions with the page, each alternated with one on each floor app (each open beside it in
    its own session), so that all their figures see the same machine: a slower minute slows every one. The
    order rotates (floor, plotly floor, page; then page, floor, plotly floor; ...), so that none of them is
    always first or last. Also what the page draws: figures (plotly charts) and DOM elements."""
    with ExitStack() as stack:
        tabs = {name: stack.enter_context(session(browser)) for name in [*floors, case.name]}
        cases = floors | {case.name: case}
        for name, tab in tabs.items():
            open_settled(tab, cases[name].url)
        if case.prepare is not None:
            finished = tabs[case.name].link.finished
            case.prepare(tabs[case.name].page)
            settle(tabs[case.name], finished)
        for i in range(WARMUP_STEPS):
            for name, tab in tabs.items():
                timed_step(tab, interaction(cases[name]), i)
        samples: dict[str, list[float]] = {name: [] for name in tabs}
        order = list(tabs)
        for i in range(WARMUP_STEPS, WARMUP_STEPS + repeats):
            shift = i % len(order)
            for name in order[shift:] + order[:shift]:
                samples[name].append(timed_step(tabs[name], interaction(cases[name]), i))
        charts, elements = tabs[case.name].page.evaluate(PAGE_SIZE)
        paired = {name: summary(samples[name]) for name in floors}
        return summary(samples[case.name]) | {"floors": paired, "figures": charts, "dom_elements": elements}


def first_render_ms(browser: Browser, url: str) -> float:
    """Navigation start to the last DOM mutation of the first complete render, in a fresh context."""
    with session(browser) as tab:
        open_settled(tab, url)
        return tab.page.evaluate("window.__lastMutation")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def memory_growth(browser: Browser, url: str, pid: int) -> dict:
    """Server RSS before, and while SESSIONS contexts hold the page open (one session first loads its code)."""
    with session(browser) as tab:
        open_settled(tab, url)
    before = rss_mb(pid)
    with ExitStack() as stack:
        for _ in range(SESSIONS):
            open_settled(stack.enter_context(session(browser)), url)
        after = rss_mb(pid)
    growth = after - before
    return {
        "sessions": SESSIONS,
        "before_mb": before,
        "after_mb": after,
        "growth_mb": growth,
        "per_session_mb": growth / SESSIONS,
    }


def websocket_bytes(browser: Browser, case: Case) -> dict:
    """Bytes and frames the page receives over its websocket during one interaction."""
    with session(browser) as tab:
        open_settled(tab, case.url)
        start_bytes, start_frames = tab.link.bytes, tab.link.frames
        timed_step(tab, interaction(case), 0)
        return {"bytes": tab.link.bytes - start_bytes, "frames": tab.link.frames - start_frames}


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def summary(samples: list[float]) -> dict:
    return {"median_ms": statistics.median(samples), "p95_ms": p95(samples), "samples_ms": samples}


def with_ratios(rows: dict[str, dict], floors: dict[str, dict]) -> dict[str, dict]:
    """Each measured row with its median and p95 as multiples of each floor's (`floors`, or the row's own
    "floors": the floors' figures measured alternately with it), and whether that is within target (against
    the plotly floor)."""
    for row in rows.values():
        if "median_ms" not in row:
            continue
        reference = row.get("floors", floors)
        row["ratios"] = {
            name: {"median": row["median_ms"] / floor["median_ms"], "p95": row["p95_ms"] / floor["p95_ms"]}
            for name, floor in reference.items()
        }
        if TARGET_FLOOR in row["ratios"]:
            against = row["ratios"][TARGET_FLOOR]
            row["within_target"] = against["median"] <= MEDIAN_TARGET and against["p95"] <= P95_TARGET
    return rows


def print_memory(memory: dict) -> None:
    print(
        f"Server memory (app, VmRSS): {memory['before_mb']:.1f} MB -> {memory['after_mb']:.1f} MB with "
        f"{memory['sessions']} builder sessions open: {memory['growth_mb']:+.1f} MB, "
        f"{memory['per_session_mb']:+.2f} MB per session"
    )


def print_first_renders(rows: dict[str, dict]) -> None:
    print(f"First complete render (navigation start -> last DOM mutation; {FIRST_RENDERS} fresh contexts; ms)")
    print(f"  {'page':<13} {'median':>7} {'min':>7} {'max':>7} {'x floor':>8} {'x plotly':>9}")
    for name, row in rows.items():
        samples, ratios = row["samples_ms"], row["ratios"]
        print(
            f"  {name:<13} {row['median_ms']:7.0f} {min(samples):7.0f} {max(samples):7.0f} "
            f"{ratios['floor']['median']:8.2f} {ratios.get('plotly floor', {}).get('median', float('nan')):9.2f}"
        )


def print_websocket(rows: dict[str, dict]) -> None:
    print("Websocket bytes received during one slider step")
    for name, row in rows.items():
        ratios = "  ".join(f"{row['bytes'] / rows[floor]['bytes']:7.1f}x {floor}" for floor in FLOORS if floor in rows)
        print(f"  {name:<13} {row['bytes']:>9,} B in {row['frames']:>3} frames  {ratios}")


def print_interactions(rows: dict[str, dict], repeats: int) -> None:
    print(
        f"Interaction latency (press -> last DOM mutation before {QUIET_MS} ms of calm; {repeats} timed after "
        f"{WARMUP_STEPS} untimed, each alternated with one on each floor app; ms)\n"
        f"target: median <= {MEDIAN_TARGET:g}x the plotly floor's median and p95 <= {P95_TARGET:g}x its p95, "
        "the floors' figures being those measured alternately with the page"
    )
    print(
        f"  {'page':<13} {'median':>7} {'p95':>7} {'floor':>11} {'plotly fl.':>11} {'x fl med':>8} {'x fl p95':>8} "
        f"{'x pl med':>8} {'x pl p95':>8}  {'target':<6} {'figs':>5} {'DOM':>6}  interaction"
    )
    for name, row in rows.items():
        if "median_ms" not in row:
            print(
                f"  {name:<13} {'-':>7} {'-':>7} {'':>11} {'':>11} {'':>8} {'':>8} {'':>8} {'':>8}  {'-':<6} "
                f"{'-':>5} {'-':>6}  {row['interaction']}"
            )
            continue
        verdict = "-" if name in FLOORS else ("ok" if row.get("within_target") else "MISS")
        paired = row.get("floors", {})
        shown = [paired.get(floor, row if name == floor else None) for floor in FLOORS]
        floor_cells = [f"{f['median_ms']:5.0f}/{f['p95_ms']:<5.0f}" if f else f"{'-':>11}" for f in shown]
        ratio_cells = [
            f"{row['ratios'][floor][stat]:8.2f}" if floor in row.get("ratios", {}) else f"{'-':>8}"
            for floor in FLOORS
            for stat in ("median", "p95")
        ]
        print(
            f"  {name:<13} {row['median_ms']:7.0f} {row['p95_ms']:7.0f} {floor_cells[0]:>11} {floor_cells[1]:>11} "
            f"{' '.join(ratio_cells)}  {verdict:<6} {row.get('figures', '-'):>5} {row.get('dom_elements', '-'):>6}  "
            f"{row['interaction']}"
        )
    print(
        "  floor / plotly fl.: median/p95 of each floor's interactions alternated with the page's (the floors' rows:"
        " all of them); x fl, x pl: the page's median and p95 over the plain and the plotly floor's; figs: plotly"
        " figures on the page; DOM: elements on the page, both after the last interaction"
    )


def cases(app: Server, floors: dict[str, Server], keys: list[str]) -> dict[str, Case]:
    """The two floors first, then the chosen pages in the registry's order."""
    specs = {spec.key: spec for spec in PAGES}
    found = {name: Case(name, f"{server.url}/", FLOOR_INTERACTION, slider_step()) for name, server in floors.items()}
    for key in keys:
        description, interact, prepare = INTERACTIONS[key]
        # questions off: a page that waits for a prediction shows no controls to time (?questions_on=false)
        found[key] = Case(key, f"{page_url(app.url, specs[key])}?questions_on=false", description, interact, prepare)
    return found


def measure(browser: Browser, app: Server, floors: dict[str, Server], keys: list[str], repeats: int) -> dict:
    """Every figure, printed as it comes; memory first, while the server has served the fewest sessions."""
    chosen = cases(app, floors, keys)
    figures: dict = {"repeats": repeats, "quiet_ms": QUIET_MS, "warmup_steps": WARMUP_STEPS}
    if "builder" in chosen:
        figures["memory"] = memory_growth(browser, chosen["builder"].url, app.pid)
        print_memory(figures["memory"])
    rendered = [name for name in (*FLOORS, "home", "pipeline") if name in chosen]
    if len(rendered) > len(FLOORS):
        renders = {
            name: summary([first_render_ms(browser, chosen[name].url) for _ in range(FIRST_RENDERS)])
            for name in rendered
        }
        figures["first_render"] = with_ratios(renders, {floor: renders[floor] for floor in FLOORS})
        print_first_renders(figures["first_render"])
    if "builder" in chosen:
        figures["websocket"] = {name: websocket_bytes(browser, chosen[name]) for name in (*FLOORS, "builder")}
        print_websocket(figures["websocket"])
    floor_cases = {name: chosen[name] for name in FLOORS}
    interactions: dict[str, dict] = {name: {"interaction": case.description} for name, case in floor_cases.items()}
    for name, case in chosen.items():
        if name not in FLOORS:
            interactions[name] = {"interaction": case.description}
            if case.interact is not None:
                print(f"  measuring {name}: {case.description} …", file=sys.stderr, flush=True)
                interactions[name] |= interaction_latencies(browser, case, floor_cases, repeats)
                print(f"  {name}: median {interactions[name]['median_ms']:.0f} ms", file=sys.stderr, flush=True)
    # Each floor's row: every interaction of that floor in the run, for reference; each page is compared with
    # the floors' figures measured alternately with it.
    for floor in FLOORS:
        pooled = [
            sample
            for row in interactions.values()
            for sample in row.get("floors", {}).get(floor, {}).get("samples_ms", [])
        ]
        if pooled:
            interactions[floor] |= summary(pooled)
    pooled_floors = {floor: interactions[floor] for floor in FLOORS if "median_ms" in interactions[floor]}
    figures["interactions"] = with_ratios(interactions, pooled_floors)
    print_interactions(figures["interactions"], repeats)
    return figures


def parse_args() -> argparse.Namespace:
    # the real-model page is not here: it needs a model's files (what it costs is the encoder: bench_encoder.py)
    keys = [spec.key for spec in PAGES if spec.key in INTERACTIONS]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed interactions per page (default 30)")
    parser.add_argument("--pages", nargs="+", choices=keys, default=keys, help="pages to measure (default: all)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every figure to PATH as JSON")
    parser.add_argument(
        "--floor-app",
        type=Path,
        default=FLOOR_APP,
        metavar="PATH",
        help="the plain floor app to compare with (default: benchmarks/floors/floor_app.py)",
    )
    parser.add_argument(
        "--plotly-floor-app",
        type=Path,
        default=PLOTLY_FLOOR_APP,
        metavar="PATH",
        help="the plotly floor app, the target's reference (default: benchmarks/floors/floor_plotly.py)",
    )
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    for option in ("floor_app", "plotly_floor_app"):
        path = getattr(args, option).resolve()  # the servers run from the repository root
        if not path.is_file():
            parser.error(f"--{option.replace('_', '-')}: no such file: {path}")
        setattr(args, option, path)
    return args


def code_version() -> str:
    """The commit the app was measured at, and whether the working tree differed from it."""
    git = ["git", "-C", str(ROOT)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    changed = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout.strip()
    return f"{commit or 'unknown commit'}{' + uncommitted changes' if changed else ''}"


def main() -> None:
    args = parse_args()
    chromium = chromium_or_exit()
    keys = [spec.key for spec in PAGES if spec.key in args.pages]
    with (
        served(ROOT / "app.py") as app,
        served(args.floor_app) as floor,
        served(args.plotly_floor_app) as plotly_floor,
        sync_playwright() as playwright,
    ):
        browser = launch(playwright, chromium)
        floors = dict(zip(FLOORS, (floor, plotly_floor), strict=True))
        try:
            for server in (app, floor, plotly_floor):  # one page load each: a fresh server's first session is slower
                first_render_ms(browser, f"{server.url}/")
            version = code_version()
            print(
                f"bench_latency: app at {version}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
                f"Chromium {browser.version}, headless"
            )
            figures = {"version": version} | measure(browser, app, floors, keys, args.repeats)
            print(f"load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")
        finally:
            browser.close()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False))
        print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
