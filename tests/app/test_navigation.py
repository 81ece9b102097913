"""Every page runs inside the app's shell (sidebar, language, presentation mode, menu), in both languages."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, HOME, ROOT, charts, no_exception, open_page
from ui.i18n import LANGUAGES
from ui.pages import PAGE_BY_KEY, PAGES

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
    assert at.sidebar.radio(key="lang_choice").label == "Idioma / Language"
    assert at.sidebar.toggle(key="present_toggle").label == LANGUAGES[lang]["sidebar.presentation"]


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
    at.toggle(key="present_toggle").set_value(True).run()
    assert no_exception(at)
    assert presentation_css(at)
    # figures at presentation size: the values in the heatmaps' cells at 20 px (14 px otherwise)
    assert heatmap_value_sizes(at) == ({PRESENTATION_VALUE_PX} if normal else set())
    at.button(key="exit_presentation").click().run()
    assert not presentation_css(at)
    assert at.toggle(key="present_toggle").value is False


def test_presentation_mode_enlarges_the_figures():
    at = open_page("pages/walkthrough.py", "en")
    normal = set().union(*(value_font_sizes(c) for c in charts(at)))
    at.toggle(key="present_toggle").set_value(True).run()
    presented = set().union(*(value_font_sizes(c) for c in charts(at)))
    assert normal == {NORMAL_VALUE_PX} and presented == {PRESENTATION_VALUE_PX}


# Every setting the URL keeps, at a value other than its default, as a link carries it.
LINKED = {"lang": "en", "present": "true", "questions_on": "false", "step": "3"}
SHOWN = {"lang": "en", "present": True, "questions_on": False}


def shows(at, spec) -> dict:
    """The settings as the page `spec` shows them: its language (read from its title), presentation mode, the
    questions' switch, and on the walkthrough its part (read from the part's heading)."""
    title = at.title[0].value
    shown = {
        "lang": next(code for code in LANGUAGES if title == LANGUAGES[code][title_key(spec)]),
        "present": presentation_css(at),
        "questions_on": at.sidebar.toggle(key="questions_on_toggle").value,
    }
    if spec.key == "walkthrough":
        shown["part"] = at.header[0].value.split(".")[0]
    return shown


def switch(at, spec):
    """What a click on the sidebar's menu link does: another page, at an address without a query string
    (Streamlit's link carries none)."""
    at.query_params.clear()
    return at.switch_page(spec.path).run()


def reload(at, spec):
    """What a reload does: a new session at the same address."""
    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params.update(dict(at.query_params))
    if spec.path != HOME:
        fresh.switch_page(spec.path)
    return fresh.run()


def test_every_setting_a_link_carries_survives_menu_switches_and_reloads():
    builder, walkthrough, home = (PAGE_BY_KEY[key] for key in ("builder", "walkthrough", "home"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(LINKED)
    at.switch_page(builder.path).run()
    assert shows(at, builder) == SHOWN and dict(at.query_params) == LINKED
    for spec in (walkthrough, home, walkthrough):
        at = switch(at, spec)
        assert no_exception(at)
        part = {"part": "3"} if spec is walkthrough else {}
        assert shows(at, spec) == {**SHOWN, **part}
        assert dict(at.query_params) == LINKED  # the address says them on every page
        at = reload(at, spec)
        assert shows(at, spec) == {**SHOWN, **part}


def test_every_setting_chosen_with_its_control_survives_menu_switches_and_reloads():
    walkthrough, softmax = PAGE_BY_KEY["walkthrough"], PAGE_BY_KEY["softmax"]
    at = switch(AppTest.from_file(APP, default_timeout=60).run(), walkthrough)
    at.sidebar.radio(key="lang_choice").set_value("en").run()
    at.sidebar.toggle(key="questions_on_toggle").set_value(False).run()
    at.sidebar.toggle(key="present_toggle").set_value(True).run()
    for _ in range(2):
        next(button for button in at.button if button.label == LANGUAGES["en"]["walk.next"]).click().run()
    assert shows(at, walkthrough) == {**SHOWN, "part": "3"}
    for spec in (softmax, walkthrough):
        at = switch(at, spec)
        part = {"part": "3"} if spec is walkthrough else {}
        assert shows(at, spec) == {**SHOWN, **part} and dict(at.query_params) == LINKED
        at = reload(at, spec)
        assert shows(at, spec) == {**SHOWN, **part}
    at.sidebar.toggle(key="present_toggle").set_value(False).run()
    at.sidebar.toggle(key="questions_on_toggle").set_value(True).run()
    assert dict(at.query_params) == {"lang": "en", "step": "3"}  # defaults are left out of the address


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize(("key", "value"), [("present", "yes"), ("questions_on", "0"), ("step", "³"), ("lang", "fr")])
def test_a_setting_no_value_of_its_own_is_ignored_said_once_and_mended_in_the_address(lang, key, value):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"lang": lang, key: value})
    at.switch_page(PAGE_BY_KEY["builder"].path).run()
    shown = "es" if key == "lang" else lang  # a language that is none: the default one
    assert no_exception(at)
    assert [w.value for w in at.warning] == [LANGUAGES[shown][f"url.bad.{key}"].format(parts=5)]
    assert dict(at.query_params) == {"lang": shown}  # the defaults, left out
    at.run()
    assert not at.warning
