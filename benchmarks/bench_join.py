"""What a joining browser costs the server: real Chromium opens the builder, /proc says how much CPU Streamlit spent.

One replica pinned to core 0, Chromium (and haproxy) on core 1. Each round measures, alternated:
- direct: Chromium talks to Streamlit itself, as `streamlit run app.py` serves it;
- balancer: Chromium goes through haproxy with deploy/haproxy.cfg, whose cache holds Streamlit's static files
  compressed (filled by the warm-up browser, as the first student of a class fills it).
Each browser is a fresh context (an empty cache, a new session) that opens /builder and waits until the page is
drawn; the server's CPU time is read before and one second after. First one at a time (each join's own cost),
then `--together` at once. With --profile, py-spy samples the server during the one-at-a-time joins of the last
round and the script prints where its time went.

    flock /work/locks/heavy python benchmarks/bench_join.py [--rounds 2] [--browsers 6] [--together 8] [--profile]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from benchmarks import pyspy  # noqa: E402
from benchmarks.bench_capacity import CLIENT_CPUS, SERVER_CPUS, WARM_PAUSE_S, cpu_seconds, load_average  # noqa: E402
from deploy.topology import Topology  # noqa: E402
from harness.browser import UNTHROTTLED_FLAGS, find_chromium, launch, open_app, wait_for_app, watch_runs  # noqa: E402

SETTLE_S = 1.0  # after the page is drawn: the last lazy requests and websocket frames


def join(browser: Browser, url: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        open_app(watch_runs(context.new_page()), f"{url}/builder")
    finally:
        context.close()


def joins_together(browser: Browser, url: str, count: int) -> None:
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(count)]
    try:
        pages = [watch_runs(c.new_page()) for c in contexts]
        for page in pages:  # every navigation started before any is waited for
            page.goto(f"{url}/builder", wait_until="commit")
        for page in pages:
            wait_for_app(page)
    finally:
        for context in contexts:
            context.close()


def measure(
    browser: Browser, variant: str, browsers: int, together: int, profile: Path | None, pause: float = WARM_PAUSE_S
) -> tuple[list[float], float]:
    with Topology(replicas=1, balancer=variant == "balancer", cpus=SERVER_CPUS, balancer_cpus=CLIENT_CPUS) as t:
        pid = t.started[0].process.pid
        join(browser, t.url)  # modules imported, first figures built, haproxy's cache filled
        time.sleep(pause)
        alone = []
        with pyspy.sampled(pid, profile) if profile is not None else contextlib.nullcontext():
            for _ in range(browsers):
                before = cpu_seconds(pid)
                join(browser, t.url)
                time.sleep(SETTLE_S)
                alone.append(1000 * (cpu_seconds(pid) - before))
        print(f"  {variant}, one at a time: {', '.join(f'{ms:.0f}' for ms in alone)} ms", flush=True)
        before = cpu_seconds(pid)
        joins_together(browser, t.url, together)
        time.sleep(SETTLE_S)
        return alone, 1000 * (cpu_seconds(pid) - before) / together


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--browsers", type=int, default=6, help="joins one at a time per variant and round")
    parser.add_argument("--together", type=int, default=8, help="joins at once per variant and round")
    parser.add_argument("--profile", action="store_true", help="py-spy on the server in the last round")
    parser.add_argument("--warm-pause", type=float, default=WARM_PAUSE_S, help="s after the warm-up (0: a smoke run)")
    args = parser.parse_args()
    chromium = find_chromium() or sys.exit("no Chromium: apt-get install chromium")
    os.sched_setaffinity(0, {int(CLIENT_CPUS)})  # this script and the Chromium it starts: core 1
    print(f"server on core {SERVER_CPUS}, Chromium and haproxy on core {CLIENT_CPUS}; {load_average()}")
    results: dict[str, tuple[list[float], list[float]]] = {"direct": ([], []), "balancer": ([], [])}
    profiles = {}
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        browser = launch(playwright, chromium, UNTHROTTLED_FLAGS)  # several pages at once: none throttled
        for round_ in range(args.rounds):
            for variant in results:
                profile = Path(tmp) / f"{variant}.txt" if args.profile and round_ == args.rounds - 1 else None
                alone, together = measure(browser, variant, args.browsers, args.together, profile, args.warm_pause)
                results[variant][0].extend(alone)
                results[variant][1].append(together)
                print(f"  {variant}, {args.together} at once: {together:.0f} ms each", flush=True)
                if profile is not None:
                    profiles[variant] = profile
        browser.close()
        print("\nserver CPU per joining browser on the builder (ms): median one at a time [min–max]; mean of at once")
        for variant, (one_at_a_time, at_once) in results.items():
            print(
                f"  {variant:9s} {statistics.median(one_at_a_time):5.0f} "
                f"[{min(one_at_a_time):.0f}–{max(one_at_a_time):.0f}]; {statistics.mean(at_once):.0f}"
            )
        ratio = statistics.median(results["balancer"][0]) / statistics.median(results["direct"][0])
        print(f"  balancer / direct: {ratio:.2f}")
        for variant, profile in profiles.items():
            print(f"\n{variant}:")
            pyspy.summarize(profile)
    print(load_average())


if __name__ == "__main__":
    main()
