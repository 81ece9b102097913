"""What Streamlit's collection after every run costs once the app has frozen its long-lived objects (ui/heap.py).

usage: python benchmarks/bench_heap.py [--rounds 3] [--root PATH ...] [--delay 0.5]

Each round, for each checkout (this one, and any `--root`, e.g. an older commit unpacked with `git archive`) and
for the app as it is and with no freeze at all, alternated: a fresh interpreter runs the home page with AppTest,
waits for the freeze (its delay shortened to `--delay` s), visits every page once (questions off), and then
times what Streamlit runs after each script run, `gc.collect(2)`, 30 times. Printed per checkout and mode
(medians over the rounds): that collection's median time, the objects it walks, the objects frozen, the home
page's first run and the slowest page's first visit (which freezes that page's new modules).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = (
    "pages/softmax.py",
    "pages/walkthrough.py",
    "pages/multihead.py",
    "pages/builder.py",
    "pages/learning.py",
    "pages/scaling.py",
    "pages/pipeline.py",
    "pages/real_model.py",
)
COLLECTIONS = 30

# Run in the checkout's own directory. The freeze's delay lives in ui.heap (this commit) or ui.shell (before it).
CHILD = """
import gc, json, statistics, sys, time
from streamlit.testing.v1 import AppTest
import ui.heap, ui.shell
delay = float(sys.argv[1]) if sys.argv[2] == "frozen" else 3600.0
for module in (ui.heap, ui.shell):
    if hasattr(module, "FREEZE_DELAY_S"):
        module.FREEZE_DELAY_S = delay
app = AppTest.from_file("app.py", default_timeout=300)
app.session_state["questions_on"] = False
began = time.perf_counter(); app.run(); home = time.perf_counter() - began
deadline = time.monotonic() + 120
while sys.argv[2] == "frozen" and not gc.get_freeze_count() and time.monotonic() < deadline:
    time.sleep(0.02)
visits = []
for page in sys.argv[4:]:
    began = time.perf_counter(); app.switch_page(page).run(); visits.append(time.perf_counter() - began)
app.run()
times = []
for _ in range(int(sys.argv[3])):
    began = time.perf_counter(); gc.collect(2); times.append(time.perf_counter() - began)
print(json.dumps({"collect_ms": statistics.median(times) * 1000, "walked": len(gc.get_objects()),
    "frozen": gc.get_freeze_count(), "home_s": home, "slowest_visit_s": max(visits),
    "exceptions": len(app.exception)}))
"""


def one(root: Path, mode: str, delay: float) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(delay), mode, str(COLLECTIONS), *PAGES],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append", default=[], help="another checkout to compare")
    parser.add_argument("--delay", type=float, default=0.5, help="the freeze's delay here, in seconds")
    args = parser.parse_args()
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()), f"cpus: {os.cpu_count()}")
    roots = [ROOT, *args.root]
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    for round_ in range(args.rounds):
        order = [(root, mode) for root in roots for mode in ("frozen", "none")]
        if round_ % 2:
            order.reverse()
        for root, mode in order:
            result = one(root, mode, args.delay)
            results.setdefault((str(root), mode), []).append(result)
            print(f"round {round_ + 1}: {root} {mode}: {json.dumps(result)}", flush=True)
    print(f"\nmedians over {args.rounds} rounds (collection: median of {COLLECTIONS} after every page was visited)")
    print(f"{'checkout':<40} {'freeze':<7} {'collect ms':>10} {'walked':>8} {'frozen':>8} {'home s':>7} {'visit s':>8}")
    for (root, mode), runs in results.items():

        def median(name: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(run[name] for run in runs)

        print(
            f"{root[-40:]:<40} {mode:<7} {median('collect_ms'):>10.2f} {median('walked'):>8.0f} "
            f"{median('frozen'):>8.0f} {median('home_s'):>7.2f} {median('slowest_visit_s'):>8.2f}"
        )
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
