"""Keep Streamlit's garbage collection after every run cheap, by freezing what lives as long as the process.

Streamlit runs a full `gc.collect()` after every script run (its `runner.postScriptGC` option, on by default,
so that memory does not build up). A full collection walks every object the interpreter tracks. Once
Streamlit, numpy and pandas are imported that is over 100,000 objects: about 70 ms on the test machines, with
the GIL held, so the messages that finish a run wait for it and every slider step pays it.

Almost all of those objects are modules, classes, functions and constants that live until the process ends.
`gc.freeze()` moves every object tracked at that moment into a permanent generation that collections skip. Done
once, after the app's imports, the collection after each run only walks what sessions created since: garbage
is still collected, and the option keeps doing its job. The price: what was alive at the freeze is never
examined again, so the first session's state (well under a megabyte) stays in memory after it ends.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import threading

_lock = threading.Lock()


def _import_app_modules() -> None:
    """Every module of engine/ and ui/, so that what a page imports on its first visit is frozen too."""
    for package_name in ("engine", "ui"):
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            importlib.import_module(module.name)


def freeze_long_lived_objects() -> bool:
    """Collect once, then freeze everything alive, the first time it is called in this process. Returns
    whether this call did it (later calls do nothing)."""
    with _lock:
        if gc.get_freeze_count():
            return False
        _import_app_modules()
        gc.collect()
        gc.freeze()
        return True
