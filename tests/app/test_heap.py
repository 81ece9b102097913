"""The app freezes what is alive after its imports, once, so Streamlit's after-run collection skips it.

Each check runs in a fresh interpreter: freezing is per process, and this one has run other tests already.
"""

import subprocess
import sys

from tests.app.helpers import APP, ROOT


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_freezing_leaves_little_for_a_full_collection_and_happens_once():
    out = run_python(
        "import gc, sys\n"
        "import streamlit, numpy, pandas\n"
        "from ui.heap import freeze_long_lived_objects\n"
        "before = len(gc.get_objects())\n"
        "first = freeze_long_lived_objects()\n"
        "def walks(*args): raise AssertionError('a later call walked the heap')\n"
        "gc.collect = gc.freeze = gc.get_freeze_count = walks\n"  # later calls on every run must be a flag check
        "second = freeze_long_lived_objects()\n"
        "after = len(gc.get_objects())\n"
        "print(before, after, first, second, 'ui.figure_specs' in sys.modules, 'ui.sections.pipeline' in sys.modules)"
    )
    before, after, first, second, figures_imported, pipeline_imported = out.split()
    assert int(before) > 50_000 and int(after) < int(before) // 100  # what a full collection still walks
    assert (first, second) == ("True", "False")
    assert figures_imported == pipeline_imported == "True"  # every page's modules were imported before the freeze


def test_the_first_run_of_the_app_schedules_the_freeze_which_happens_after_the_delay_without_blocking_it():
    # ui.shell starts the freeze in a timer thread FREEZE_DELAY_S after the first page (8 s; 0.2 s here). The
    # freeze is held until the first run has returned (30 s at most): had the run waited for it, the run would
    # have found it done.
    out = run_python(
        "import gc, threading, time\n"
        "from streamlit.testing.v1 import AppTest\n"
        "import ui.shell as shell\n"
        "shell.FREEZE_DELAY_S = 0.2\n"
        "class Timer(threading.Timer):\n"  # notes when it was started
        "    def start(self):\n"
        "        self.started_at = time.monotonic()\n"
        "        super().start()\n"
        "threading.Timer = Timer\n"
        "released, seen = threading.Event(), {}\n"
        "real_freeze = shell.freeze_long_lived_objects\n"
        "def held_freeze():\n"
        "    seen['at'] = time.monotonic()\n"
        "    seen['thread'] = threading.current_thread()\n"
        "    released.wait(30)\n"
        "    seen['done'] = real_freeze()\n"
        "shell.freeze_long_lived_objects = held_freeze\n"
        "print(gc.get_freeze_count())\n"
        f"app = AppTest.from_file({str(APP)!r}, default_timeout=60)\n"
        "app.run()\n"
        "print(not app.exception, gc.get_freeze_count(), len(shell._freeze_timer))\n"
        "app.run()\n"  # a later run schedules no other freeze
        "(timer,) = shell._freeze_timer\n"
        "print(timer.interval, timer.daemon)\n"
        "released.set()\n"
        "timer.join(60)\n"
        # 0.19: a timed wait may wake a clock tick early
        "print(seen['thread'] is timer, seen['at'] - timer.started_at >= 0.19, seen['done'], gc.get_freeze_count())"
    )
    lines = out.splitlines()[-4:]
    before = lines[0]
    ran, during, timers = lines[1].split()
    interval, daemon = lines[2].split()
    in_timer, after_delay, froze, after = lines[3].split()
    assert int(before) == 0
    assert ran == "True" and int(during) == 0 and int(timers) == 1  # the first run returned, nothing frozen yet
    assert (float(interval), daemon) == (0.2, "True")  # scheduled once, the delay read when scheduled
    assert (in_timer, after_delay, froze) == ("True", "True", "True")
    assert int(after) > 50_000
