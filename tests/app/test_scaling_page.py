"""The √d_k experiment page: renders in both languages, measures spread ≈ √d_k, keeps its settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import VERDICTS, Scale
from ui.i18n import LANGUAGES, translate

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/scaling_experiment.py"
DEFAULT_DKS = [4, 16, 64, 256, 1024]
SPREAD_TABLE, AVERAGE_TABLE = 0, 1  # the experiment section's tables, in page order
ROW_TABLE = 0  # the three-divisors section's table
SECTIONS = ("idea", "walk", "experiment", "row", "summary")


def open_page(lang: str = "es", section: str = "experiment", **state) -> AppTest:
    """The app on the scaling page with `section` open, and small sample counts so each run stays fast."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["lang"] = lang
    at.session_state["scaling_section"] = section
    at.session_state["scaling_samples"] = 1000
    at.session_state["scaling_walks"] = 200
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(PAGE)
    return at.run()


def open_section(at: AppTest, section: str, lang: str = "es") -> AppTest:
    """Click another tab: its widget state, and the section the page keeps (which the tab's callback sets)."""
    at.session_state[f"scaling_tabs_{lang}"] = translate(lang, f"scaling.tab.{section}")
    at.session_state["scaling_section"] = section
    return at.run()


def rendered_text(at: AppTest) -> list[str]:
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "latex")
    texts = [e.value for kind in kinds for e in getattr(at, kind)]
    widgets = ("slider", "selectbox", "multiselect", "number_input")
    return texts + [w.label for kind in widgets for w in getattr(at, kind)]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_page_measures_a_spread_of_sqrt_dk_for_every_default_dk(lang):
    at = open_page(lang)
    assert not at.exception
    table = at.table[SPREAD_TABLE].value
    assert table.iloc[:, 0].tolist() == DEFAULT_DKS
    assert all(re.fullmatch(r"\d+\.\d\d", value) for value in table.iloc[:, 3])  # written with 2 decimals
    normalised = table.iloc[:, 3].astype(float)
    assert normalised.between(0.9, 1.1).all(), normalised.tolist()
    assert table.columns[3] == translate(lang, "scaling.col.scaled")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_string_shows_up_as_its_bare_key(lang):
    for section in SECTIONS:
        at = open_page(lang, section)
        assert not at.exception
        leaked = [text for text in rendered_text(at) if re.search(r"\bscaling\.[a-z_.]+", text)]
        assert not leaked, (section, leaked)


def test_only_the_open_section_runs_and_the_choice_is_kept():
    at = open_page("es", "walk")
    assert at.slider(key="scaling_walks")  # the walk section's widgets are there
    assert not at.table  # the experiment's and the three divisors' tables are not computed
    at.switch_page("pages/home.py").run()
    at.session_state["lang"] = "en"  # the tab labels change with the language; the open section does not
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.session_state["scaling_section"] == "walk"
    assert at.slider(key="scaling_walks").label == translate("en", "scaling.walk.walks")


def test_every_key_the_page_uses_exists_in_both_languages():
    source = (ROOT / PAGE).read_text(encoding="utf-8")
    keys = set(re.findall(r'\bt\(\s*"([a-z_.]+)"', source))
    keys |= {f"scaling.divisor.{mode}" for mode in Scale} | {f"scaling.verdict.{v}" for v in VERDICTS}
    keys |= {"scaling.title", "scaling.lead"}  # through page_header
    assert len(keys) > 40
    for strings in LANGUAGES.values():
        assert keys <= set(strings), keys - set(strings)


def test_adding_dk_4096_adds_its_row_and_it_is_still_about_one():
    at = open_page()
    at.multiselect(key="scaling_dks").select(4096).run()
    assert not at.exception
    table = at.table[SPREAD_TABLE].value
    assert table.iloc[:, 0].tolist() == [*DEFAULT_DKS, 4096]
    assert 0.9 < float(table.iloc[-1, 3]) < 1.1


def test_with_no_dk_chosen_the_page_asks_for_one_instead_of_failing():
    at = open_page("en")
    at.multiselect(key="scaling_dks").set_value([]).run()
    assert not at.exception
    assert translate("en", "scaling.experiment.pick_one") in [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_one_row_at_large_dk_reads_saturated_balanced_flat(lang):
    at = open_page(lang, "row", scaling_row_dk=1024)
    verdicts = at.table[ROW_TABLE].value.iloc[:, 3].tolist()
    assert verdicts == [translate(lang, f"scaling.verdict.{v}") for v in ("saturated", "balanced", "flat")]


def test_the_average_table_has_one_row_per_dk_and_divisor():
    at = open_page()
    table = at.table[AVERAGE_TABLE].value
    assert len(table) == len(DEFAULT_DKS) * len(Scale)
    assert table.iloc[:, 2].astype(float).between(0, 1).all()


def test_settings_survive_a_trip_to_another_page_and_to_another_section():
    at = open_page(section="walk")
    at.slider(key="scaling_steps").set_value(500).run()
    open_section(at, "row")
    at.selectbox(key="scaling_row_dk").select(4096).run()
    at.switch_page("pages/home.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.selectbox(key="scaling_row_dk").value == 4096
    assert at.table[ROW_TABLE].value.iloc[1, 0] == translate("es", "scaling.divisor.sqrt", value="64")
    open_section(at, "walk")
    assert at.slider(key="scaling_steps").value == 500
