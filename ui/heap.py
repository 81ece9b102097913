"""What lives as long as the process: imported by the pages' own threads, and frozen so that Streamlit's garbage
collection after every run skips it. Every page run calls `page_started` first (ui.shell.page).

**Imports are made by the pages' own threads, never by a thread of the app's.** A thread that imports a module
another thread is still importing waits for it (Python's import lock). plotly does not import pandas, though: it
looks it up in `sys.modules` (`get_module("pandas", should_load=False)`; plotly/plotly.py#2433, open), where a
module is entered before its body has run. A figure drawn while another thread imports pandas saw a half-made
module: "partially initialized module 'pandas' has no attribute 'Series'", Streamlit's error box in place of the
figure. So every page run imports what plotly looks up (LOOKED_UP) before it draws anything: the first run of the
process imports pandas (every page but the home page imported it in its first run anyway), and a run that starts
while another is importing it waits until it is complete. (narwhals, which plotly also uses, checks that a module
it looks up has finished importing.)

**Freezing.** Streamlit runs a full `gc.collect()` after every script run, fragment runs included (its
`runner.postScriptGC` option, on by default, so that memory does not build up). A full collection walks every
object the interpreter tracks: once Streamlit, numpy, pandas, plotly and this app are imported, over 100,000
objects, with the GIL held, so the messages that finish a run wait for it and every slider step pays it. Almost
all of them are modules, classes, functions and constants that live until the process ends. `gc.freeze()` moves
every object tracked at that moment into a permanent generation that collections skip; the collection after each
run then walks only what was made since, and sessions' garbage is still collected.

When: a timer freezes FREEZE_DELAY_S after the first page run (done in the first run, it made the first visitor
after a restart wait); it imports nothing. A page's own modules, imported at the top of its script on its first
visit, are frozen by that page run itself (here, before it draws), when modules were imported since the last
freeze: that collection walks only what is not frozen yet.

The price: whatever was alive at a freeze is never examined by a collection again (a cycle among those objects is
never freed). That is the state of the sessions running at that moment (well under a megabyte each) and anything
only they keep alive. While developing, modules that Streamlit reloads after an edit also leave their old copies.
"""

from __future__ import annotations

import gc
import importlib
import sys
import threading

# Modules that libraries the pages use look up in sys.modules without importing them (plotly: pandas for arrays
# and NaT/NA, PIL.Image when it writes an image into a figure's JSON).
LOOKED_UP = ("pandas", "PIL.Image")
FREEZE_DELAY_S = 8.0

_lock = threading.Lock()
_timer: threading.Timer | None = None
_modules_at_freeze: int | None = None  # len(sys.modules) at the last freeze; None before the first


def page_started() -> None:
    """At the start of every page run, in its own thread, before anything is drawn: import what plotly looks up;
    schedule the first freeze (once per process), or freeze the modules imported since the last one."""
    global _timer
    for name in LOOKED_UP:
        importlib.import_module(name)
    with _lock:
        if _timer is None:
            _timer = threading.Timer(FREEZE_DELAY_S, freeze)
            _timer.daemon = True
            _timer.start()
    if _modules_at_freeze is not None and len(sys.modules) != _modules_at_freeze:
        freeze()


def freeze() -> None:
    """Collect once, then freeze everything alive (the timer's first freeze, and a page's new modules)."""
    global _modules_at_freeze
    with _lock:
        gc.collect()
        gc.freeze()
        _modules_at_freeze = len(sys.modules)
