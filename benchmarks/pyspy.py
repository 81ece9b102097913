"""py-spy on a running server: sample it for a while, then say where its time went (functions and a few buckets)."""

from __future__ import annotations

import collections
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Where a Streamlit server's samples can be: the needle is looked for in every frame of a stack.
BUCKETS = {
    "static files (starlette StaticFiles / FileResponse)": ("staticfiles.py", "FileResponse"),
    "the app's own code (pages/, ui/, engine/)": ("/pages/", "/ui/", "/engine/"),
    "plotly figures (plotly, _plotly_utils)": ("plotly/", "_plotly_utils/"),
    "garbage collection after a run (postScriptGC)": ("_run_gc", "gc_collect"),
    "messages out (forward_msg_queue, websocket)": ("forward_msg", "starlette_websocket.py", "websockets/"),
    "protobuf serialization": ("SerializeToString", "_pb2"),
}


@contextmanager
def sampled(pid: int, path: Path, rate: int = 100) -> Iterator[None]:
    """py-spy records `pid` (every thread, without pausing it) into `path` (collapsed stacks) while the block runs."""
    # The py-spy beside this Python (a venv's bin/) when the venv is not activated, else the one on PATH.
    beside = Path(sys.executable).parent / "py-spy"
    executable = str(beside) if beside.is_file() else shutil.which("py-spy") or "py-spy"
    command = [executable, "record", "--nonblocking", "--pid", str(pid), "--format", "raw", "--rate", str(rate)]
    spy = subprocess.Popen(
        [*command, "--output", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1)  # attached
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file and ends
        spy.wait(timeout=60)


def summarize(path: Path, top: int = 15) -> None:
    """Print the share of busy samples under each bucket and the functions that held most samples themselves."""
    own: collections.Counter[str] = collections.Counter()
    under: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines() if path.exists() else []:
        stack, _, count = line.rpartition(" ")
        if not count.isdigit() or _idle(stack):
            continue
        n = int(count)
        total += n
        own[stack.rsplit(";", 1)[-1]] += n
        for name, needles in BUCKETS.items():
            if any(needle in stack for needle in needles):
                under[name] += n
    if not total:
        print("py-spy: no busy samples")
        return
    print(f"py-spy: {total} busy samples (threads waiting on a lock, a socket or a queue left out)")
    for name, n in under.most_common():
        print(f"  {100 * n / total:5.1f} % under {name}")
    print("  most samples in the function itself:")
    for frame, n in own.most_common(top):
        print(f"  {100 * n / total:5.1f} %  {frame[:140]}")


def _idle(stack: str) -> bool:
    """A thread parked: waiting for the event loop's selector, a condition, a lock or a queue, or sleeping between two
    looks at a watched file (Streamlit polls config.toml and secrets.toml even with the file watcher off)."""
    leaf = stack.rsplit(";", 1)[-1]
    parked = ("select (", "wait (", "_wait_for_tstate_lock", "get (queue", "poll (", "polling_path_watcher.py")
    return any(word in leaf for word in parked)
