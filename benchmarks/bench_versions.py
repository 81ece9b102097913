"""Two checkouts of the app, page by page, one interaction alternated between them: prints figures.

bench_latency.py measures a page against the floor apps; this one measures a change: this checkout's app and another
(`--repo PATH`, e.g. the commit before unpacked with `git archive`), each served from its own directory (its own
.streamlit/config.toml), a page open on each in its own browser context. Per page, the same interaction as
bench_latency.py's (ms from the key or pointer press to the last DOM change before 400 ms of calm), alternated
between the two and the order swapped each time, so that both see the same machine; and the server CPU each
interaction cost (user + system time of the server's process over all the page's timed interactions, divided by
their number). Not a test, nothing here asserts a time.

Run: python benchmarks/bench_versions.py --repo /tmp/before [--pages builder multihead] [--repeats 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from benchmarks.bench_capacity import cpu_seconds  # noqa: E402
from benchmarks.bench_latency import (  # noqa: E402
    INTERACTIONS,
    WARMUP_STEPS,
    Case,
    Tab,
    cases,
    code_version,
    open_settled,
    p95,
    session,
    settle,
    timed_step,
)
from harness.browser import chromium_or_exit, launch  # noqa: E402
from harness.server import Server, served  # noqa: E402
from ui.pages import PAGES  # noqa: E402

NAMES = ("other", "this")  # the other checkout (--repo), this one


def prepared(tab: Tab, case: Case) -> None:
    """The page opened, made ready for its interaction, and the interaction done once in each direction, untimed."""
    open_settled(tab, case.url)
    if case.prepare is not None:
        finished = tab.link.finished
        case.prepare(tab.page)
        settle(tab, finished)
    assert case.interact is not None
    for i in range(WARMUP_STEPS):
        timed_step(tab, case.interact, i)


def compare(browser: Browser, servers: dict[str, Server], key: str, repeats: int) -> dict[str, dict]:
    """One page on both servers: latencies alternated press by press, and each server's CPU per interaction."""
    chosen = {name: cases(server, {}, [key])[key] for name, server in servers.items()}
    with ExitStack() as stack:
        tabs = {name: stack.enter_context(session(browser)) for name in NAMES}
        for name in NAMES:
            prepared(tabs[name], chosen[name])
        samples: dict[str, list[float]] = {name: [] for name in NAMES}
        cpu: dict[str, float] = dict.fromkeys(NAMES, 0.0)
        for i in range(repeats):
            for name in NAMES if i % 2 == 0 else NAMES[::-1]:
                interact = chosen[name].interact
                assert interact is not None
                before = cpu_seconds(servers[name].pid)
                samples[name].append(timed_step(tabs[name], interact, i))
                cpu[name] += cpu_seconds(servers[name].pid) - before
    return {
        name: {
            "median_ms": statistics.median(samples[name]),
            "p95_ms": p95(samples[name]),
            "cpu_ms": 1000 * cpu[name] / repeats,
        }
        for name in NAMES
    }


def ratio(this: float, other: float) -> str:
    """this ÷ other to two decimals; "n/a" where other is 0 (a few interactions can cost less than a clock tick)."""
    return f"{this / other:.2f}" if other else "n/a"


def print_page(key: str, rows: dict[str, dict]) -> None:
    other, this = rows["other"], rows["this"]
    print(
        f"{key:<12} other {other['median_ms']:6.0f} / {other['p95_ms']:6.0f} ms, CPU {other['cpu_ms']:5.1f} ms | "
        f"this {this['median_ms']:6.0f} / {this['p95_ms']:6.0f} ms, CPU {this['cpu_ms']:5.1f} ms | this ÷ other: "
        f"median {ratio(this['median_ms'], other['median_ms'])}, p95 {ratio(this['p95_ms'], other['p95_ms'])}, "
        f"CPU {ratio(this['cpu_ms'], other['cpu_ms'])}"
    )


def parse_args() -> argparse.Namespace:
    keys = [spec.key for spec in PAGES if spec.key in INTERACTIONS and INTERACTIONS[spec.key][1] is not None]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True, help="the other checkout (its app.py and .streamlit/)")
    parser.add_argument("--pages", nargs="+", choices=keys, default=keys, help="pages to measure (default: all)")
    parser.add_argument("--repeats", type=int, default=30, help="timed interactions per page on each (default 30)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    args.repo = args.repo.resolve()
    if not (args.repo / "app.py").is_file():
        parser.error(f"--repo: no app.py in {args.repo}")
    return args


def main() -> None:
    args = parse_args()
    chromium = chromium_or_exit()
    keys = [spec.key for spec in PAGES if spec.key in args.pages]
    with (
        served(args.repo / "app.py", cwd=args.repo) as other,
        served(ROOT / "app.py") as this,
        sync_playwright() as playwright,
    ):
        browser = launch(playwright, chromium)
        try:
            print(
                f"bench_versions: this = {ROOT} at {code_version()}, other = {args.repo}; {os.cpu_count()} CPUs, "
                f"load average {os.getloadavg()[0]:.2f}; {args.repeats} interactions per page on each, alternated"
            )
            print("per page: median / p95 ms from the press to the page's last change; server CPU per interaction")
            for key in keys:
                print_page(key, compare(browser, {"other": other, "this": this}, key, args.repeats))
            print(f"load average at the end: {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
