"""What one builder temperature step sends over the websocket, message by message: prints figures.

Opens the builder once with the load client (loadtest/protocol.py: the browser's protocol, its message cache
included), steps the temperature slider to a value not drawn before (1,1), then back (1,0), and prints each step's
bytes by what they carry: a figure (the app's figure component), a copy button, a table (st.html), a reference to
an element the browser holds (`ref_hash`), a container, ... With `--no-cache` the client names no cached message,
as a browser would if the server sent nothing cacheable. `--repo PATH` measures another checkout (its app and its
.streamlit/config.toml), e.g. one unpacked with `git archive`. Nothing here asserts a size
(tests/serving/test_step_bytes.py does).

Run: python benchmarks/bench_step_bytes.py [--repo PATH] [--no-cache]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from harness.server import served  # noqa: E402
from loadtest.protocol import Connection, MessageCache, Run  # noqa: E402
from loadtest.recording import Recording, builder_opening, builder_step_at  # noqa: E402

STEPS = {"a new temperature (1,1)": "1,1", "back to the first (1,0)": "1,0"}


def part(msg: ForwardMsg) -> str:
    """What one message carries, named as the breakdown names it."""
    kind = msg.WhichOneof("type")
    if kind != "delta":
        return kind or "empty"
    delta_kind = msg.delta.WhichOneof("type") or "empty"
    if delta_kind != "new_element":
        return delta_kind
    element = msg.delta.new_element
    element_kind = element.WhichOneof("type") or "empty"
    if element_kind == "bidi_component":
        return f"component {element.bidi_component.component_name.rsplit('.', 1)[-1]}"
    return element_kind


def breakdown(run: Run) -> Counter[str]:
    sizes: Counter[str] = Counter()
    for msg in run.messages:
        sizes[part(msg)] += msg.ByteSize()
    return sizes


def print_step(name: str, run: Run) -> None:
    counts = Counter(part(msg) for msg in run.messages)
    print(f"{name}: {run.received:,} B in {run.frames} messages")
    for what, size in breakdown(run).most_common():
        print(f"  {size:>8,} B {counts[what]:>3}x {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--no-cache", action="store_true", help="name no cached message, as without a cache")
    args = parser.parse_args()
    recording = Recording.load("builder")
    with served(args.repo.resolve() / "app.py", cwd=args.repo.resolve()) as server:
        connection = Connection(server.url)
        try:
            opened = connection.run(builder_opening(recording), keep=True)
            runs = {}
            for name, temperature in STEPS.items():
                if args.no_cache:
                    connection.cache = MessageCache(connection.cache.max_age)
                runs[name] = connection.run(builder_step_at(recording, temperature), keep=True)
        finally:
            connection.close()
    print(f"bench_step_bytes: {args.repo.resolve()}; load average {os.getloadavg()[0]:.2f}")
    print_step("opening the builder", opened)
    for name, run in runs.items():
        print_step(name, run)


if __name__ == "__main__":
    main()
