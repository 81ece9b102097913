"""Figures built once and shared by every session (ui.charts.FIGURES; a live class's followers all draw the same
one): the cached figure is the one its builder makes, and every input of the builder is part of its key."""

from __future__ import annotations

import dataclasses
import threading
import time

import plotly.graph_objects as go
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


def slow_builds(release: threading.Event, builds: list[int], fail_first: bool = False):
    """A builder that counts its calls and holds each until `release` is set (the first fails, if asked)."""

    def build() -> go.Figure:
        builds.append(1)
        assert release.wait(10), "the test never released the build"
        if fail_first and len(builds) == 1:
            raise RuntimeError("the first build fails")
        return go.Figure()

    return build


def ask_together(cache: charts.FigureCache, build, sessions: int) -> tuple[list, list, list[threading.Thread]]:
    """`sessions` threads ask `cache` for the same key at once; their results and exceptions."""
    results, errors = [], []

    def one() -> None:
        try:
            results.append(cache.built("key", build))
        except RuntimeError as error:
            errors.append(error)

    threads = [threading.Thread(target=one) for _ in range(sessions)]
    for thread in threads:
        thread.start()
    return results, errors, threads


def test_sessions_asking_for_a_figure_at_once_share_one_build():
    cache, release, builds = charts.FigureCache(), threading.Event(), []
    results, errors, threads = ask_together(cache, slow_builds(release, builds), 20)
    time.sleep(0.2)  # every thread has asked: one builds, the others wait
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(builds) == 1 and not errors
    assert len(results) == 20 and all(result is results[0] for result in results)
    assert cache.building == {}


def test_when_the_build_fails_its_session_gets_the_error_and_another_builds_it():
    cache, release, builds = charts.FigureCache(), threading.Event(), []
    results, errors, threads = ask_together(cache, slow_builds(release, builds, fail_first=True), 5)
    time.sleep(0.2)
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(errors) == 1 and len(results) == 4 and len(builds) == 2
    assert all(result is results[0] for result in results)
    assert cache.building == {}


def test_a_figures_json_is_made_once_however_many_ask_at_once(monkeypatch):
    made = []

    def slow_spec(figure: go.Figure) -> dict:
        made.append(1)
        time.sleep(0.2)
        return {"data": []}

    monkeypatch.setattr(figure_component, "figure_spec", slow_spec)
    built = charts.Built(go.Figure())
    specs = []
    threads = [threading.Thread(target=lambda: specs.append(built.spec())) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(made) == 1 and len(specs) == 10 and all(spec is specs[0] for spec in specs)
