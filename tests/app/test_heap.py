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
        "print(before, after, first, second, 'ui.figures' in sys.modules, 'ui.sections.pipeline' in sys.modules)"
    )
    before, after, first, second, figures_imported, pipeline_imported = out.split()
    assert int(before) > 50_000 and int(after) < int(before) // 100  # what a full collection still walks
    assert (first, second) == ("True", "False")
    assert figures_imported == pipeline_imported == "True"  # every page's modules were imported before the freeze


def test_the_first_run_of_the_app_freezes():
    out = run_python(
        "import gc\n"
        "from streamlit.testing.v1 import AppTest\n"
        "print(gc.get_freeze_count())\n"
        f"AppTest.from_file({str(APP)!r}, default_timeout=60).run()\n"
        "print(gc.get_freeze_count())"
    )
    before, after = out.split()[-2:]
    assert int(before) == 0 and int(after) > 50_000
