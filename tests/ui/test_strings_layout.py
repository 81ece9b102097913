"""The strings' layout: one package per language, the same modules in each, every module's strings read."""

import importlib
import pkgutil

import pytest

import ui.i18n
from ui.i18n import LANGUAGES


def modules(lang: str) -> list[str]:
    package = importlib.import_module(f"ui.i18n.{lang}")
    return sorted(found.name for found in pkgutil.iter_modules(package.__path__))


def test_every_language_has_the_same_modules_one_per_page():
    layouts = {lang: modules(lang) for lang in LANGUAGES}
    assert len(set(map(tuple, layouts.values()))) == 1, layouts
    assert "common" in layouts["es"]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_string_of_every_module_is_in_its_language(lang):
    read = 0
    for name in modules(lang):
        strings = importlib.import_module(f"ui.i18n.{lang}.{name}").STRINGS
        assert {key: LANGUAGES[lang][key] for key in strings} == strings, name
        read += len(strings)
    assert read == len(LANGUAGES[lang])  # and nothing else: no key is defined twice


def test_a_key_defined_by_two_modules_of_one_language_is_refused(monkeypatch):
    common = importlib.import_module("ui.i18n.en.common")
    home = importlib.import_module("ui.i18n.en.home")
    monkeypatch.setattr(home, "STRINGS", {**home.STRINGS, next(iter(common.STRINGS)): "again"})
    with pytest.raises(KeyError, match="repeats"):
        ui.i18n.language_strings("en")
