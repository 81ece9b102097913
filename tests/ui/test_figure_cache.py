"""Figures built once and shared by every session (ui.charts.FIGURES; a live class's followers all draw the same
one): the cached figure is the one its builder makes, and every input of the builder is part of its key."""

from __future__ import annotations

import dataclasses

import pytest

from ui import charts, figure_component, figure_specs, state
from ui.figure_specs import BlockLabels, Style


@pytest.fixture
def reader(monkeypatch) -> dict:
    """An empty figure cache and a reader whose mode and language the test sets."""
    monkeypatch.setattr(charts, "FIGURES", charts.FigureCache())
    settings = {"present": False, "lang": "es"}
    monkeypatch.setattr(state, "presentation_mode", lambda: settings["present"])
    monkeypatch.setattr(state, "current_language", lambda: settings["lang"])
    return settings


def labels(**changed: str) -> BlockLabels:
    return dataclasses.replace(BlockLabels(*(f.name for f in dataclasses.fields(BlockLabels))), **changed)


def test_the_cached_block_is_the_figure_its_builder_makes(reader):
    for present, lang in ((False, "es"), (True, "en")):
        reader.update(present=present, lang=lang)
        uncached = figure_specs.block_figure(labels(), Style.for_mode(present), lang)
        assert charts.built_block(labels()).spec() == figure_component.figure_spec(uncached)


def test_the_block_is_built_once_for_the_same_words_size_and_language(reader, monkeypatch):
    builds = []
    build = figure_specs.block_figure
    monkeypatch.setattr(figure_specs, "block_figure", lambda *args: builds.append(args) or build(*args))
    first = charts.built_block(labels())
    assert charts.built_block(labels()) is first
    assert len(builds) == 1


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(BlockLabels)])
def test_each_word_of_the_block_is_part_of_its_key(reader, field):
    first = charts.built_block(labels())
    other = charts.built_block(labels(**{field: "changed"}))
    assert other is not first and other.spec() != first.spec()


@pytest.mark.parametrize("setting", [{"present": True}, {"lang": "en"}])
def test_the_mode_and_the_language_are_part_of_the_blocks_key(reader, setting):
    first = charts.built_block(labels())
    reader.update(setting)
    other = charts.built_block(labels())
    assert other is not first and other.spec() != first.spec()
