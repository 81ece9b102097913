"""English strings, one module per page (and `common` for what pages share).

Every module of this package is read: a page's strings go in a module of their own, named after the page.
"""

import importlib
import pkgutil

MODULES = tuple(
    importlib.import_module(f"{__name__}.{module.name}")
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
)


def _merge() -> dict[str, str]:
    merged: dict[str, str] = {}
    for module in MODULES:
        repeated = merged.keys() & module.STRINGS.keys()
        if repeated:
            raise KeyError(f"{module.__name__} repeats {sorted(repeated)}")
        merged.update(module.STRINGS)
    return merged


STRINGS: dict[str, str] = _merge()
