"""Every page runs inside the app's shell (sidebar, language, presentation mode, menu), in both languages."""

import pytest

from tests.app.helpers import ROOT, charts, no_exception, open_page
from ui.i18n import LANGUAGES
from ui.pages import PAGES

PRESENTATION_CSS = '[data-testid="stMain"] { font-size: 22px; }'  # a line of ui/layout.py's presentation style
# the values written in a figure, in px: at least 20 px for a room (a 1280 × 720 projector), 14 px on a screen
PRESENTATION_VALUE_PX, NORMAL_VALUE_PX = 20, 14


def title_key(spec) -> str:
    return spec.title_key  # each page's heading, "<its strings' prefix>.title"


def test_every_registered_page_file_exists():
    assert all((ROOT / spec.path).is_file() for spec in PAGES)


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_the_menu_links_every_page_at_the_address_streamlit_serves_it_at(spec):
    # Streamlit fills each link's address from its own page registry: the browser tests and the benchmarks open
    # pages at ui.pages' addresses, which must be those.
    at = open_page(spec.path, "en")
    links = at.sidebar.get("page_link")
    assert [(link.proto.page, link.proto.label) for link in links] == [
        (other.url_path, LANGUAGES["en"][f"page.{other.key}"]) for other in PAGES
    ]
    assert [link.proto.disabled for link in links] == [other.key == spec.key for other in PAGES]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_each_page_opens_under_the_app_shell_in_each_language(spec, lang):
    at = open_page(spec.path, lang)
    assert no_exception(at)
    assert [title.value for title in at.title] == [LANGUAGES[lang][title_key(spec)]]
    assert at.sidebar.radio(key="lang").label == "Idioma / Language"
    assert at.sidebar.toggle(key="present").label == LANGUAGES[lang]["sidebar.presentation"]


def value_font_sizes(chart) -> set:
    """The font sizes of the values a figure writes: a heatmap's text layer (or its own cell texts in a grid of
    panels), a bar's value, a point's label."""
    return {trace["textfont"]["size"] for trace in chart.spec["data"] if "textfont" in trace}


def heatmap_value_sizes(at) -> set:
    """The font sizes of the values written in the page's heatmaps' cells."""
    return set().union(*(value_font_sizes(c) for c in charts(at) if c.trace.get("type") == "heatmap"))


def presentation_css(at) -> bool:
    return any(PRESENTATION_CSS in element.proto.body for element in at.get("html"))


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_presentation_mode_enlarges_each_page_and_can_be_left(spec):
    at = open_page(spec.path, "en")
    assert not presentation_css(at) and not [b for b in at.button if b.key == "exit_presentation"]
    normal = heatmap_value_sizes(at)
    assert normal <= {NORMAL_VALUE_PX}
    at.toggle(key="present").set_value(True).run()
    assert no_exception(at)
    assert presentation_css(at)
    # figures at presentation size: the values in the heatmaps' cells at 20 px (14 px otherwise)
    assert heatmap_value_sizes(at) == ({PRESENTATION_VALUE_PX} if normal else set())
    at.button(key="exit_presentation").click().run()
    assert not presentation_css(at)
    assert at.toggle(key="present").value is False


def test_presentation_mode_enlarges_the_figures():
    at = open_page("pages/walkthrough.py", "en")
    normal = set().union(*(value_font_sizes(c) for c in charts(at)))
    at.toggle(key="present").set_value(True).run()
    presented = set().union(*(value_font_sizes(c) for c in charts(at)))
    assert normal == {NORMAL_VALUE_PX} and presented == {PRESENTATION_VALUE_PX}
