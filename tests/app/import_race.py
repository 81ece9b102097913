"""Run by tests/app/test_heap.py in a fresh interpreter: the walkthrough's first run while pandas is half-imported.

usage: python -m tests.app.import_race freeze|thread

plotly looks pandas up in `sys.modules` without importing it, so a figure drawn while another thread is importing
pandas sees a half-initialised module. Here that moment is made to last: an import hook holds pandas' own import
halfway (before it names `Series`), in the first thread outside a page run that gets there, until the pages have
run or one of them waits for that import to finish (as Python's import lock makes a thread that imports it):
- "freeze": the freeze that ui.heap schedules after the first page, started at once;
- "thread": a thread that imports pandas before any page runs (as another session's page could).
Then the home page and the walkthrough (whose part 1 draws heatmaps) run. Prints one JSON line: the pages'
exceptions, where pandas' import was held, what timer threads imported, and how many objects are frozen.
"""

from __future__ import annotations

import gc
import importlib
import importlib.abc
import importlib.machinery
import json
import sys
import threading
import time

from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, figure_elements

HELD_AT = "pandas.core.api"  # pandas/__init__.py imports it before it names Series, DataFrame...
WAIT_S = 60.0  # every wait is bounded


class Hold(importlib.abc.MetaPathFinder):
    """Holds the first import of HELD_AT made outside a page run, while it runs (Python's global import lock is
    not held then, only that module's), until released; notes every module a timer thread imports. It finds
    nothing itself: the module is found and run as usual."""

    def __init__(self) -> None:
        self.holding = threading.Event()
        self.release = threading.Event()
        self.held_in: list[str] = []
        self.holder: int | None = None
        self.timer_imports: list[str] = []

    def find_spec(self, name, path=None, target=None):
        thread = threading.current_thread()
        if isinstance(thread, threading.Timer):
            self.timer_imports.append(name)
        if name != HELD_AT or self.held_in or get_script_run_ctx(suppress_warning=True) is not None:
            return None
        self.held_in.append(type(thread).__name__)
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        assert spec is not None and spec.loader is not None, name
        spec.loader = Held(spec.loader, self)
        return spec

    def hold(self) -> None:
        self.holder = threading.get_ident()
        self.holding.set()
        self.release.wait(WAIT_S)


class Held(importlib.abc.Loader):
    """A module's loader that waits for `hold` before running the module."""

    def __init__(self, loader: importlib.abc.Loader, hold: Hold) -> None:
        self.loader, self._hold = loader, hold

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        self._hold.hold()
        self.loader.exec_module(module)


def waiting_for_pandas(holder: int | None) -> bool:
    """Whether a thread other than `holder` is inside an import of pandas: Python's import lock makes it wait for
    the one under way (a thread that imports a module another is importing waits until it is complete)."""
    for ident, frame in sys._current_frames().items():
        while frame is not None and ident != holder:
            code = frame.f_code
            if code.co_name == "_find_and_load" and frame.f_locals.get("name") == "pandas":
                return True
            frame = frame.f_back
    return False


def wait_for(condition) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)


def main(who: str) -> None:
    from ui import heap

    hold = Hold()
    sys.meta_path.insert(0, hold)
    heap.FREEZE_DELAY_S = 0.0 if who == "freeze" else 600.0
    if who == "thread":
        threading.Thread(target=importlib.import_module, args=("pandas",), daemon=True).start()
        hold.holding.wait(WAIT_S)
    app = AppTest.from_file(APP, default_timeout=WAIT_S)
    app.session_state["questions_on"] = False  # part 1's heatmaps at once
    exceptions: list[str] = []

    def pages() -> None:
        app.run()
        exceptions.extend(element.value for element in app.exception)
        if who == "freeze":  # until the freeze is made, or is held importing pandas
            wait_for(lambda: hold.holding.is_set() or gc.get_freeze_count() > 0)
        app.switch_page("pages/walkthrough.py").run()
        app.run()
        exceptions.extend(element.value for element in app.exception)

    runs = threading.Thread(target=pages, daemon=True)
    runs.start()
    # pandas stays half-imported until the pages have run, or until a page waits for its import to finish
    wait_for(lambda: not runs.is_alive() or waiting_for_pandas(hold.holder))
    hold.release.set()
    runs.join(WAIT_S)
    wait_for(lambda: gc.get_freeze_count() > 0 or who != "freeze")
    print(
        json.dumps(
            {
                "exceptions": exceptions,
                "finished": not runs.is_alive(),
                "heatmaps": len(figure_elements(app)),
                "held_in": hold.held_in,
                "timer_imports": hold.timer_imports,
                "frozen": gc.get_freeze_count(),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
