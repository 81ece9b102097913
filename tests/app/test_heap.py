"""The app imports in its pages' own threads and freezes what is alive after the imports, so that Streamlit's
after-run collection skips it (ui/heap.py).

Each check runs in a fresh interpreter: imports and freezing are per process, and this one has run other tests.
"""

import json
import subprocess
import sys

import pytest

from tests.app.helpers import APP, ROOT


def run_python(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("who", ["freeze", "thread"])
def test_a_figure_drawn_while_another_thread_imports_pandas_sees_no_half_made_module(who):
    # tests/app/import_race.py holds pandas' import halfway in the first thread outside a page that makes it: the
    # timer of the freeze (which imported every module of the app, pandas too, while the walkthrough drew part 1:
    # "partially initialized module 'pandas' has no attribute 'Series'") or a thread of its own (another
    # session's first table), until the pages have run or one of them waits for the import.
    out = json.loads(run_python("-m", "tests.app.import_race", who).splitlines()[-1])
    assert out["exceptions"] == [] and out["finished"]
    assert out["heatmaps"] == 4  # part 1: x and the three weight matrices, drawn
    if who == "thread":
        assert out["held_in"] == ["Thread"]  # the pages ran while pandas was half-imported, and waited for it
    else:
        assert out["timer_imports"] == [] and out["held_in"] == []  # the freeze imports nothing
        assert out["frozen"] > 50_000


def test_the_first_freeze_waits_for_its_timer_and_a_page_freezes_the_modules_it_imported_since():
    # FREEZE_DELAY_S after the first page run started (8 s; 0.5 s here), a timer freezes, off that run's way. Then
    # pages are visited once each: each first visit imports the page's own modules and freezes them in its own
    # run; a run that imported nothing new freezes nothing.
    pages = ["pages/softmax.py", "pages/walkthrough.py", "pages/builder.py", "pages/pipeline.py"]
    out = run_python(
        "-c",
        "import gc, json, sys, threading, time\n"
        "from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx\n"
        "from streamlit.testing.v1 import AppTest\n"
        "from ui import heap\n"
        "heap.FREEZE_DELAY_S = 0.5\n"
        "class Timer(threading.Timer):\n"  # notes when it was started
        "    def start(self):\n"
        "        self.started_at = time.monotonic()\n"
        "        super().start()\n"
        "threading.Timer = Timer\n"
        "freezes = []\n"  # (when, by whom) of each gc.freeze
        "real_freeze = gc.freeze\n"
        "def freeze():\n"
        "    timer = isinstance(threading.current_thread(), threading.Timer)\n"
        "    page = get_script_run_ctx(suppress_warning=True) is not None\n"
        "    freezes.append((time.monotonic(), 'timer' if timer else 'page' if page else 'other'))\n"
        "    real_freeze()\n"
        "gc.freeze = freeze\n"
        f"app = AppTest.from_file({str(APP)!r}, default_timeout=120)\n"
        "app.session_state['questions_on'] = False\n"
        "app.run()\n"
        "first_run = [by for _, by in freezes if by != 'timer']\n"
        "deadline = time.monotonic() + 60\n"
        "while not freezes and time.monotonic() < deadline: time.sleep(0.02)\n"
        "(when, by), = freezes\n"
        # 0.49: a timed wait may wake a clock tick early
        "timer = [by, when - heap._timer.started_at >= 0.49, heap._timer.daemon]\n"
        "new_page = []\n"
        f"for page in {pages!r}:\n"
        "    before = len(freezes); app.switch_page(page).run()\n"
        "    new_page.append([by for _, by in freezes[before:]])\n"
        "before = len(freezes); app.run(); again = len(freezes) - before\n"
        "print(json.dumps({'first_run': first_run, 'pandas': 'pandas' in sys.modules, 'timer': timer,\n"
        "    'new_page': new_page, 'again': again, 'exceptions': len(app.exception),\n"
        "    'walked': len(gc.get_objects()), 'frozen': gc.get_freeze_count(),\n"
        "    'pipeline': 'ui.sections.pipeline' in sys.modules}))",
    )
    result = json.loads(out.splitlines()[-1])
    assert result["first_run"] == [] and result["pandas"]  # the first run froze nothing, and imported pandas
    assert result["timer"] == ["timer", True, True]  # one freeze, after the delay, by a daemon timer
    assert result["exceptions"] == 0
    assert result["new_page"] == [["page"]] * len(pages)  # each first visit froze its new modules, in its run
    assert result["again"] == 0  # nothing new imported: no collection, no freeze
    assert result["pipeline"] and result["frozen"] > 100_000
    assert result["walked"] < result["frozen"] // 20  # what the collection after every run still walks
