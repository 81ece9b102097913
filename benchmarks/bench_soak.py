"""A soak (issue 27): N students of a class on one server for an hour; is the server's memory bounded?

One `streamlit run` with the serving configuration (the file watcher off, no `gc.collect` after each run:
`.streamlit/config.toml`) pinned to core 0 with taskset; Locust's ClassStudent (loadtest/locustfile.py) on core 1:
N students join within 10 s, then each changes something on the builder or the walkthrough every 2 to 4 s, as in
bench_capacity.py's class. The server's resident memory is sampled every second; the table gives, per window of the
run, RSS (min / median / max), interactions done, their p50 / p95 and the server CPU per interaction; the last lines
say how RSS moved from the first window after everyone joined to the last (MB, and MB per hour).

    flock /work/locks/heavy python benchmarks/bench_soak.py                       # 40 students, 60 minutes
    python benchmarks/bench_soak.py --sessions 4 --minutes 1 --window 20          # a quick look
    python benchmarks/bench_soak.py --env STREAMLIT_RUNNER_POST_SCRIPT_GC=true    # Streamlit's default collection
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_capacity import (  # noqa: E402
    CLIENT_CPUS,
    JOIN_WINDOW_S,
    SERVER_CPUS,
    WARM_PAUSE_S,
    Sampler,
    load_average,
    locust,
    parse_env,
    percentile,
    warm,
)
from deploy.topology import Topology  # noqa: E402

HEADER = (
    "| window (min) | server RSS min / median / max (MB) | interactions | interaction p50 / p95 (ms)"
    " | server CPU per interaction (ms) |\n|---|---|---|---|---|"
)


def windows(start: float, end: float, width: float) -> list[tuple[float, float]]:
    """[start, end) cut into windows of `width` seconds; the last one may be shorter (kept if at least half)."""
    cuts, at = [], start
    while at < end:
        cuts.append((at, min(at + width, end)))
        at += width
    if len(cuts) > 1 and cuts[-1][1] - cuts[-1][0] < width / 2:
        last = cuts.pop()
        cuts[-1] = (cuts[-1][0], last[1])
    return cuts


def window_row(
    window: tuple[float, float], began: float, samples: list[tuple[float, float, float]], done: list[list[float]]
) -> tuple[str, float]:
    """One table row, and the window's median RSS."""
    lo, hi = window
    inside = [s for s in samples if lo <= s[0] < hi]
    rss = [s[2] for s in inside]
    times = [ms for t, ms in done if lo <= t < hi]
    cpu = inside[-1][1] - inside[0][1] if len(inside) >= 2 else float("nan")
    per = f"{1000 * cpu / len(times):.0f}" if times else "–"
    label = f"{round((lo - began) / 60, 1):g}–{round((hi - began) / 60, 1):g}"
    median = statistics.median(rss) if rss else float("nan")
    spread = f"{min(rss):.0f} / {median:.0f} / {max(rss):.0f}" if rss else "–"
    timing = f"{percentile(times, 0.5):,.0f} / {percentile(times, 0.95):,.0f}" if times else "–"
    return f"| {label} | {spread} | {len(times):,} | {timing} | {per} |", median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=40, help="students in the class")
    parser.add_argument("--minutes", type=float, default=60, help="how long the class runs after everyone joined")
    parser.add_argument("--window", type=float, default=300, help="seconds per row of the table")
    parser.add_argument("--env", nargs="*", default=[], metavar="STREAMLIT_X=value", help="serving settings changed")
    parser.add_argument("--warm-pause", type=float, default=WARM_PAUSE_S, help="s after the warm-up (0: a smoke run)")
    args = parser.parse_args()
    env = parse_env(args.env)
    print(
        f"one server on core {SERVER_CPUS}, Locust on core {CLIENT_CPUS}; {args.sessions} students for"
        f" {args.minutes:g} min{'; ' + ' '.join(args.env) if args.env else ''}; {load_average()}",
        flush=True,
    )
    seconds = JOIN_WINDOW_S + 5 + args.minutes * 60
    with Topology(replicas=1, balancer=False, cpus=SERVER_CPUS, env=env) as topology:
        warm(topology.url, args.warm_pause)
        pid = topology.started[0].process.pid
        with tempfile.TemporaryDirectory() as tmp, Sampler([pid]) as sampler:
            results = Path(tmp) / "results.json"
            began = time.time()
            locust(topology.url, "ClassStudent", args.sessions, seconds, results, static=False)
            timings = json.loads(results.read_text())
    joined = max([began + JOIN_WINDOW_S, *(t for t, _ in timings["first page"])]) + 5
    ended = max(s[0] for s in sampler.samples)
    print(HEADER)
    medians = []
    for window in windows(joined, ended, args.window):
        row, median = window_row(window, began, sampler.samples, timings["interaction"])
        medians.append(median)
        print(row, flush=True)
    hours = (ended - joined) / 3600
    growth = medians[-1] - medians[0]
    print(
        f"RSS median, first window after everyone joined → last: {medians[0]:.0f} → {medians[-1]:.0f} MB"
        f" ({growth:+.0f} MB, {growth / hours:+.0f} MB per hour); peak {sampler.rss_peak():.0f} MB;"
        f" failures {len(timings['failures'])}; {load_average()}"
    )


if __name__ == "__main__":
    main()
