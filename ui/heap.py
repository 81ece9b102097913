"""Keep Streamlit's garbage collection after every run cheap, by freezing what lives as long as the process.

Streamlit runs a full `gc.collect()` after every script run (its `runner.postScriptGC` option, on by default,
so that memory does not build up). A full collection walks every object the interpreter tracks. Once
Streamlit, numpy, pandas and this app are imported that is about 117,000 objects: 78 ms on the test machine,
with the GIL held, so the messages that finish a run wait for it and every slider step pays it.

Almost all of those objects are modules, classes, functions and constants that live until the process ends.
`gc.freeze()` moves every object tracked at that moment into a permanent generation that collections skip.
Done once, early in the first run, the collection after each run only walks what sessions created since:
their garbage is still collected, and the option keeps doing its job.

The price: whatever was alive at the freeze is never examined again. That is the state of the sessions running
at that moment (the first visitor's, or a few if a class connects at once to a fresh server; well under a
megabyte each) and anything that only they keep alive: it stays in memory after they end. While developing,
modules that Streamlit reloads after an edit also leave their old copies behind.
"""

from __future__ import annotations

import gc
import importlib
import logging
import pkgutil
import threading

_LOG = logging.getLogger(__name__)
_lock = threading.Lock()
_frozen = False  # a flag, not gc.get_freeze_count(): that counts the frozen objects one by one (about 12 ms)


def _import_app_modules() -> None:
    """Every module of engine/ and ui/, so that what a page imports on its first visit is frozen too. One that
    fails to import is logged and left out: freezing the rest is still worth it."""
    for package_name in ("engine", "ui"):
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            try:
                importlib.import_module(module.name)
            except Exception:
                _LOG.exception("not frozen: %s failed to import", module.name)


def freeze_long_lived_objects() -> bool:
    """Collect once, then freeze everything alive, the first time it is called in this process. Returns
    whether this call did it; every later call costs a flag check."""
    global _frozen
    if _frozen:
        return False
    with _lock:
        if _frozen:
            return False
        _import_app_modules()
        gc.collect()
        gc.freeze()
        _frozen = True
        return True
