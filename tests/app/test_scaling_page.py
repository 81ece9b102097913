"""The √d_k experiment page: renders in both languages, measures spread ≈ √d_k, keeps its settings."""

from __future__ import annotations

import math
import re

import pytest
from streamlit.testing.v1 import AppTest

from engine import Scale
from engine.peakedness import VERDICTS
from tests.app.helpers import HOME, ROOT, chart, open_page, shown, tables
from ui.i18n import LANGUAGES, translate

PAGE = "pages/scaling.py"
SOURCES = (ROOT / PAGE, ROOT / "ui" / "sections" / "scaling.py")
DEFAULT_DKS = [4, 16, 64, 256, 1024]
SPREAD_TABLE, AVERAGE_TABLE = 0, 1  # the experiment section's tables, in page order
ROW_TABLE = 0  # the three-divisors section's table
SECTIONS = ("idea", "walk", "experiment", "row", "summary")
DECIMAL = {"es": ",", "en": "."}
THOUSANDS = {"es": ".", "en": ","}


def open_section(at: AppTest, section: str) -> AppTest:
    """Click a tab. AppTest has no click for tabs: the tab container's state is set by its key, as a click sets
    it, and so is the section the page keeps, which the tab's on_change callback sets in a browser (AppTest
    does not run the callbacks of containers set this way)."""
    lang = at.session_state["lang"]
    at.session_state[f"scaling_tabs_{lang}"] = translate(lang, f"scaling.tab.{section}")
    at.session_state["scaling_section"] = section
    return at.run()


def open_scaling(lang: str = "es", section: str = "experiment", **state) -> AppTest:
    """The scaling page with `section` open, and small sample counts so each run stays fast."""
    at = open_page(PAGE, lang, scaling_samples=1000, scaling_walks=200, **state)
    return open_section(at, section)


def number(cell: str, lang: str) -> float:
    """A table cell written in `lang` ("1.024" is one thousand and twenty-four in Spanish) as a float."""
    return float(cell.replace(THOUSANDS[lang], "").replace(DECIMAL[lang], "."))


def rendered_text(at: AppTest) -> list[str]:
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "latex")
    texts = [e.value for kind in kinds for e in getattr(at, kind)]
    widgets = ("slider", "select_slider", "selectbox", "multiselect", "number_input")
    return texts + [w.label for kind in widgets for w in getattr(at, kind)]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_page_measures_a_spread_of_sqrt_dk_for_every_default_dk(lang):
    at = open_scaling(lang)
    assert not at.exception
    table = tables(at)[SPREAD_TABLE]
    assert [number(shown(cell), lang) for cell in table.iloc[:, 0]] == DEFAULT_DKS
    sep = re.escape(DECIMAL[lang])
    assert all(re.fullmatch(rf"\d+{sep}\d\d", value) for value in table.iloc[:, 3])  # written with 2 decimals
    normalised = [number(value, lang) for value in table.iloc[:, 3]]
    assert all(0.9 <= value <= 1.1 for value in normalised), normalised
    assert shown(table.columns[3]) == translate(lang, "scaling.col.scaled")
    # the plot draws the same measurement, next to √d_k itself
    plot = chart(at, "scaling_experiment_plot").spec["data"]
    measured, root = plot[0]["y"], plot[1]["y"]
    assert root == [math.sqrt(d_k) for d_k in DEFAULT_DKS]
    assert [round(m / r, 2) for m, r in zip(measured, root, strict=True)] == normalised


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_string_shows_up_as_its_bare_key(lang):
    for section in SECTIONS:
        at = open_scaling(lang, section)
        assert not at.exception
        leaked = [text for text in rendered_text(at) if re.search(r"\bscaling\.[a-z_.]+", text)]
        assert not leaked, (section, leaked)


def test_only_the_open_section_runs_and_the_choice_is_kept():
    at = open_scaling("es", "walk")
    assert at.select_slider(key="scaling_walks")  # the walk section's widgets are there
    assert not tables(at)  # the experiment's and the three divisors' tables are not computed
    at.switch_page(HOME).run()
    at.radio(key="lang_choice").set_value("en").run()  # the tab labels change with the language; the open section not
    at.switch_page(PAGE).run().run()  # (a second run: AppTest's first after a switch has the old language)
    assert not at.exception
    assert at.select_slider(key="scaling_walks").label == translate("en", "scaling.walk.walks")
    assert not tables(at)


def test_every_key_the_page_uses_exists_in_both_languages():
    source = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    keys = set(re.findall(r'\bt\(\s*"([a-z_.]+)"', source))
    keys |= {f"scaling.divisor.{mode}" for mode in Scale} | {f"scaling.verdict.{v}" for v in VERDICTS}
    keys |= {f"scaling.tab.{section}" for section in SECTIONS}
    keys |= {"scaling.title", "scaling.lead"}  # through page_header
    assert len(keys) > 40
    for strings in LANGUAGES.values():
        assert keys <= set(strings), keys - set(strings)


def test_adding_dk_4096_adds_its_row_and_it_is_still_about_one():
    at = open_scaling()
    at.multiselect(key="scaling_dks").select(4096).run()
    assert not at.exception
    table = tables(at)[SPREAD_TABLE]
    assert [number(shown(cell), "es") for cell in table.iloc[:, 0]] == [*DEFAULT_DKS, 4096]
    assert 0.9 < number(table.iloc[-1, 3], "es") < 1.1


def test_with_no_dk_chosen_the_page_asks_for_one_instead_of_failing():
    at = open_scaling("en")
    at.multiselect(key="scaling_dks").set_value([]).run()
    assert not at.exception
    assert translate("en", "scaling.experiment.pick_one") in [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_one_row_at_large_dk_reads_saturated_balanced_flat(lang):
    at = open_scaling(lang, "row", scaling_row_dk=1024)
    verdicts = tables(at)[ROW_TABLE].iloc[:, 3].tolist()
    assert verdicts == [translate(lang, f"scaling.verdict.{v}") for v in ("saturated", "balanced", "flat")]


def test_the_average_table_has_one_row_per_dk_and_divisor():
    at = open_scaling()
    table = tables(at)[AVERAGE_TABLE]
    assert len(table) == len(DEFAULT_DKS) * len(Scale)
    assert all(0 <= number(cell, "es") <= 1 for cell in table.iloc[:, 2])


def test_settings_survive_a_trip_to_another_page_and_to_another_section():
    at = open_scaling(section="walk")
    at.select_slider(key="scaling_steps").set_value(500).run()
    open_section(at, "row")
    at.selectbox(key="scaling_row_dk").select(4096).run()
    at.switch_page(HOME).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.selectbox(key="scaling_row_dk").value == 4096
    # √4096 = 64 exactly, so the divisor is written with "=" (an irrational one, √512 ≈ 22,627, with "≈")
    assert shown(tables(at)[ROW_TABLE].iloc[1, 0]) == translate("es", "scaling.divisor.sqrt", relation="=", value="64")
    open_section(at, "walk")
    assert at.select_slider(key="scaling_steps").value == 500
