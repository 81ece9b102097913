"""Textos en español rioplatense, one module per page (and `common` for what pages share)."""

from ui.i18n.es import builder, common, errors, home, pipeline, scaling, softmax, walkthrough

MODULES = (common, errors, home, softmax, walkthrough, builder, scaling, pipeline)


def _merge() -> dict[str, str]:
    merged: dict[str, str] = {}
    for module in MODULES:
        repeated = merged.keys() & module.STRINGS.keys()
        if repeated:
            raise KeyError(f"{module.__name__} repeats {sorted(repeated)}")
        merged.update(module.STRINGS)
    return merged


STRINGS: dict[str, str] = _merge()
