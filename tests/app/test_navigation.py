"""Every page runs inside app.py (sidebar, language, presentation mode), in both languages."""

from pathlib import Path

import pytest

from tests.app.helpers import ROOT, no_exception, open_page
from ui.i18n import LANGUAGES
from ui.pages import PAGES


def test_no_page_url_equals_its_file_stem():
    # Streamlit would serve such a URL by running the file alone, without app.py's sidebar.
    assert [spec.url_path for spec in PAGES if spec.url_path == Path(spec.path).stem] == []


def test_every_registered_page_file_exists():
    assert all((ROOT / spec.path).is_file() for spec in PAGES)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_each_page_opens_under_the_app_shell_in_each_language(spec, lang):
    at = open_page(spec.path, lang)
    assert no_exception(at)
    assert [radio.label for radio in at.radio if radio.key == "lang"] == ["Idioma / Language"]
    assert at.toggle(key="presentation").label == LANGUAGES[lang]["sidebar.presentation"]


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_presentation_mode_renders_each_page(spec):
    at = open_page(spec.path, "en")
    at.toggle(key="presentation").set_value(True).run()
    assert no_exception(at)
    assert at.session_state["presentation"] is True
