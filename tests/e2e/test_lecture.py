"""Lecture-ready, in a real browser: a projector at 1280×720 with a presenter's clicker, the first visitor after a
restart, phones, light and dark themes, odd input, and whole-page screenshots of every page in every view.

Screenshots go to artifacts/screenshots/lecture-<page>-<view>.png (whole pages) and
lecture-walkthrough-part<n>-<view>.png (what the projector shows of each walkthrough part).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from engine import lesson_scenario
from engine.presets import LESSON_TOKENS
from engine.scenario_io import encode_scenario
from harness.browser import runs, visit
from tests.e2e.lecture_helpers import (
    HEADER_PX,
    MIN_PHONE_FIGURE_PX,
    MIN_PRESENTATION_PX,
    NUMBER_SIZES,
    PART_BOXES,
    PHONE_FIGURES,
    SIDEWAYS,
    VIEWS,
    WIDGET_VALUE_SIZES,
    View,
    close_sidebar,
    fresh_server,
    low_contrast_texts,
    new_page,
    open_view,
    query,
    screenshot,
    settle,
    sidebar_open,
    whole_page,
)
from tests.e2e.shared import CHART, act, keyed, wait_for_app
from ui.i18n import LANGUAGES, translate
from ui.pages import PAGE_BY_KEY, PAGES, page_url
from ui.questions import REVEAL_SHORTCUT

pytestmark = pytest.mark.e2e

PROJECTOR = View("projector", 1280, 720, presentation=True)
QUICK_MS = 60  # a clicker's presses, as fast as a lecturer clicks
TEXT_ONLY_FIRST = ("home", "scaling")  # pages that open on prose only (the scaling page on its first tab)
# The data editors' cell font: Streamlit draws their cells on a canvas, in the font of this CSS variable.
EDITOR_FONTS = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stDataFrame]')]
  .map(grid => parseFloat(getComputedStyle(grid.querySelector('[style*="--gdg-base-font-style"]'))
    .getPropertyValue('--gdg-base-font-style').trim().split(' ').pop()))"""
# Where each page's editors are: the multi-head page's W_O editor is on its fourth tab.
EDITOR_PLACES = {"builder": None, "softmax": None, "learning": None, "multihead": "mh.part.concat"}
NORMAL_EDITOR_PX = 14  # Streamlit's own size for an editor's cells: 0.875 rem of a 16 px root


def title(key: str, lang: str) -> str:
    """A page's heading on the lesson's example (the walkthrough's names the scenario's sentence)."""
    return translate(lang, PAGE_BY_KEY[key].title_key, sentence=" ".join(LESSON_TOKENS))


def part_title(page: Page):
    return page.locator(".st-key-walk_part h2")


def expect_part(page: Page, part: int) -> None:
    """The walkthrough shows `part`: its title, the picker and the URL say so, and nothing is left running."""
    expect(part_title(page)).to_have_text(re.compile(rf"^{part}\. "), timeout=60_000)
    settle(page)
    expect(part_title(page)).to_have_text(re.compile(rf"^{part}\. "))
    expect(page.locator(".st-key-walk_part [role=radio][aria-checked=true]")).to_have_text(str(part))
    assert re.search(rf"[?&]step={part}(&|$)", page.url), page.url


def press(page: Page, key: str, times: int) -> None:
    for _ in range(times):
        page.keyboard.press(key)
        page.wait_for_timeout(QUICK_MS)


def keys_ready(page: Page) -> None:
    page.wait_for_function("() => window.__attentionPartKeys !== undefined", timeout=60_000)


# --- 9. every page in every view: measured, then photographed whole ---


@pytest.fixture(scope="module")
def view_pages(browser) -> Iterator[dict[str, Page]]:
    """A browser page per view, kept between this module's tests that only look at a page."""
    pages: dict[str, Page] = {}
    yield pages
    for page in pages.values():
        page.context.close()


@contextmanager
def looking_at(view_pages: dict[str, Page], browser, view: View, url: str) -> Iterator[Page]:
    """The page at `url` in `view`: the view's first test loads it in a fresh context (a new session); the next ones
    go to theirs in the same session, as the app's menu goes (`harness.browser.visit`: the address says the
    language, the mode and the questions, so nothing is carried over), at the view's size again. A page whose test
    failed is closed, not kept."""
    page = view_pages.pop(view.name, None)
    if page is None:
        page = new_page(browser, view)
        open_view(page, url, view)
    else:
        page.set_viewport_size({"width": view.width, "height": view.height})
        page.console_errors.clear()
        page.dialogs.clear()
        visit(page, url)
        settle(page)
    try:
        yield page
    except BaseException:
        page.context.close()
        raise
    view_pages[view.name] = page


@pytest.mark.parametrize("view", VIEWS, ids=lambda view: view.name)
@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_every_page_in_every_view(browser, app_url, view_pages, spec, view):
    # sizes and contrast are checked on the page's own figures, tables and derivations: with the questions off,
    # since a page waiting for a prediction (the multi-head page's and the pipeline's first questions) shows none
    # yet (the questions' own sizes: test_a_question_in_presentation_mode_is_read_from_the_back_row and AppTest)
    with looking_at(view_pages, browser, view, page_url(app_url, spec) + query(view, questions_on="false")) as page:
        look_at_every_view(page, spec, view)


def look_at_every_view(page: Page, spec, view: View) -> None:
    expect(page.locator("[data-testid=stMain] h1").first).to_have_text(title(spec.key, "es"))
    if view.presentation:
        assert sidebar_open(page) != view.sidebar_closed
        small = [n for n in page.evaluate(NUMBER_SIZES) if n["size"] < MIN_PRESENTATION_PX]
        assert small == [], f"numbers under {MIN_PRESENTATION_PX} px: {small[:10]}"
        values = [v for v in page.evaluate(WIDGET_VALUE_SIZES) if v["size"] < MIN_PRESENTATION_PX]
        assert values == [], f"widget values under {MIN_PRESENTATION_PX} px: {values[:10]}"
        # the empty band above the title is gone: the title starts right under the header
        band = page.evaluate(
            "() => document.querySelector('[data-testid=stMain] h1').getBoundingClientRect().top"
            " - document.querySelector('[data-testid=stMainBlockContainer]').getBoundingClientRect().top"
        )
        assert HEADER_PX <= band <= HEADER_PX + 24, band
    if view.name == "phone":
        for figure in page.evaluate(PHONE_FIGURES):
            assert figure["smallest"] >= MIN_PHONE_FIGURE_PX, figure  # not shrunk below legibility
            assert figure["right"] <= view.width + 1 or figure["scrolls"], figure  # stacked, or in a box that scrolls
    whole_page(page)
    if view.presentation or view.name != "phone":
        sideways = page.evaluate(SIDEWAYS)
        assert sideways == [], f"scrolls sideways: {sideways}"
    if view.name in ("light", "dark"):
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
        )
        assert (background == "rgb(15, 19, 26)") == (view.scheme == "dark"), background  # the theme in use
        checked, low = low_contrast_texts(page)
        assert checked > 0 or spec.key in TEXT_ONLY_FIRST, "no figure, table or derivation to check"
        assert low == [], f"text under 4.5 : 1 against its background: {low[:10]}"
    assert page.console_errors == [], page.console_errors
    assert page.dialogs == []
    screenshot(page, f"lecture-{spec.key}-{view.name}")


# An expander that reruns the page when opened (st.expander(key=..., on_change="rerun"), which draws its content only
# when open) is keyed: its element's container carries the key's class. The others only show what they hold.
RERUNS_WHEN_OPENED = "s => /(^| )st-key-/.test(s.closest('[data-testid=stExpander]').parentElement.className)"


def open_every_editor(page: Page, tab_key: str | None) -> None:
    """Open the tab the editors are on, then every folded expander of the main area, one at a time."""
    tab = page.get_by_role("tab", name=LANGUAGES["es"][tab_key]) if tab_key else None
    if tab is not None and tab.get_attribute("aria-selected") != "true":
        act(page, lambda: tab.click())
    for _ in range(12):
        folded = page.locator("[data-testid=stMain] [data-testid=stExpander] details:not([open]) > summary")
        if folded.count() == 0:
            return
        summary = folded.last  # from the bottom up: an expander opening (animated) moves none of those still to open
        if summary.evaluate(RERUNS_WHEN_OPENED):
            act(page, summary.click)  # its run draws what it holds
        else:
            summary.click()  # what it holds is on the page already: shown, and its figures drawn at their width
        settle(page)


@pytest.mark.parametrize("how", ["loaded", "switched-on", "switched-off"])
@pytest.mark.parametrize("key", list(EDITOR_PLACES))
def test_an_opened_data_editor_in_presentation_mode_is_read_from_the_back_row(browser, app_url, key, how):
    """Presentation mode's root font size sets the editors' cells at 20 px: on a page opened in presentation mode,
    or switched to it from the sidebar with its editors open (they are folded and drawn anew once opened); switched
    off again, the editors are back to Streamlit's size (drawn anew by the run after the switch's)."""
    view = replace(PROJECTOR, presentation=how != "switched-on")
    page = new_page(browser, view)
    open_view(page, page_url(app_url, PAGE_BY_KEY[key]) + query(view, questions_on="false"), view)
    if how != "loaded":
        open_every_editor(page, EDITOR_PLACES[key])
        assert page.evaluate(EDITOR_FONTS), "no data editor on the page"
        toggle = page.locator("[data-testid=stSidebar]").get_by_text(LANGUAGES["es"]["sidebar.presentation"])
        before = runs(page)
        toggle.click()
        wait_for_app(page, before + 1)  # the switch's run, then the run that draws the editors anew
        settle(page)
    open_every_editor(page, EDITOR_PLACES[key])
    fonts = page.evaluate(EDITOR_FONTS)
    assert fonts, "no data editor on the page"
    if how == "switched-off":
        assert set(fonts) == {NORMAL_EDITOR_PX}, fonts
    else:
        assert min(fonts) >= MIN_PRESENTATION_PX, fonts
    page.context.close()


@pytest.mark.parametrize("key", ["multihead", "pipeline", "walkthrough"])
def test_a_question_in_presentation_mode_is_read_from_the_back_row(browser, app_url, key):
    """The first thing these pages show, questions on, is a prediction: its numbers (the walkthrough's question
    shows its input matrices as tables) and widget values at the room's size, nothing scrolling sideways."""
    view = VIEWS[0]  # 1280 × 720, presentation, the sidebar open
    page = new_page(browser, view)
    step = {"step": 1} if key == "walkthrough" else {}
    open_view(page, page_url(app_url, PAGE_BY_KEY[key]) + query(view, **step), view)
    gate = {"multihead": "multihead_sizes", "pipeline": "pipeline_vectors", "walkthrough": "walk_1"}[key]
    question = page.locator(f".st-key-quiz_lecture_{gate}")
    expect(question).to_be_visible()  # the question, large, no input
    if key == "walkthrough":  # the session draws its own question: the next ones in turn, to one with its matrices
        for _ in range(4):
            if question.locator("[data-testid=stMarkdownContainer] table").count():
                break
            act(page, lambda: question.get_by_role("button", name=LANGUAGES["es"]["quiz.another"]).click())
        expect(question.locator("[data-testid=stMarkdownContainer] table").first).to_be_visible()
    small = [n for n in page.evaluate(NUMBER_SIZES) if n["size"] < MIN_PRESENTATION_PX]
    assert small == [], f"numbers under {MIN_PRESENTATION_PX} px: {small[:10]}"
    values = [v for v in page.evaluate(WIDGET_VALUE_SIZES) if v["size"] < MIN_PRESENTATION_PX]
    assert values == [], f"widget values under {MIN_PRESENTATION_PX} px: {values[:10]}"
    assert page.evaluate(SIDEWAYS) == []
    assert page.console_errors == [], page.console_errors
    screenshot(page, f"lecture-{key}-question")
    page.context.close()


@pytest.mark.parametrize("view", [v for v in VIEWS if v.presentation], ids=lambda view: view.name)
def test_every_section_of_the_scaling_page_on_the_projector(browser, app_url, view):
    """The scaling page opens on prose; its other sections (tabs) hold sliders, figures and tables."""
    page = new_page(browser, view)
    open_view(page, f"{app_url}/scaling" + query(view), view)
    for section in ("walk", "experiment", "row", "summary"):
        act(
            page,
            lambda section=section: page.get_by_role("tab", name=LANGUAGES["es"][f"scaling.tab.{section}"]).click(),
        )
        settle(page, timeout=120_000)
        small = [n for n in page.evaluate(NUMBER_SIZES) if n["size"] < MIN_PRESENTATION_PX]
        assert small == [], (section, small[:10])
        values = [v for v in page.evaluate(WIDGET_VALUE_SIZES) if v["size"] < MIN_PRESENTATION_PX]
        assert values == [], (section, values[:10])
        before = whole_page(page)
        sideways = page.evaluate(SIDEWAYS)
        assert sideways == [], (section, sideways)
        screenshot(page, f"lecture-scaling-{section}-{view.name}")
        page.set_viewport_size({"width": before[0], "height": before[1]})
    assert page.console_errors == [], page.console_errors
    page.context.close()


# --- 2. each walkthrough part on a projector: title, main figure and derivation on screen; a new part in view ---


@pytest.mark.parametrize("view", [v for v in VIEWS if v.presentation], ids=lambda view: view.name)
def test_each_walkthrough_part_fits_the_projector(browser, app_url, view):
    """With the questions off (the sidebar's switch, bound to ?questions_on=): each part as the lecturer shows it
    once its question is answered or when no question is asked; the questions' own layout is theirs to test."""
    page = new_page(browser, view)
    open_view(page, f"{app_url}/walkthrough" + query(view, step=1, questions_on="false"), view)
    keys_ready(page)
    height = view.height
    for part in range(1, 6):
        if part > 1:
            page.keyboard.press("PageDown")
        expect_part(page, part)
        page.wait_for_timeout(500)  # the part's top is held in view while the part is drawn
        boxes = page.evaluate(PART_BOXES)
        # the part's top (controls and title) is brought just under the header
        assert HEADER_PX - 2 <= boxes["top"][0] <= HEADER_PX + 12, (part, boxes)
        assert boxes["title"][1] <= height, (part, boxes)
        # its main figure whole on screen, and the start of its derivation beside it
        assert boxes["figure"][0] >= HEADER_PX and boxes["figure"][1] <= height, (part, boxes)
        assert boxes["derivation"][0] + 60 <= height, (part, boxes)
        small = [n for n in page.evaluate(NUMBER_SIZES) if n["size"] < MIN_PRESENTATION_PX]
        assert small == [], (part, small[:10])
        sideways = page.evaluate(SIDEWAYS)  # the derivations' lines are cut to fit their boxes
        assert sideways == [], (part, sideways)
        screenshot(page, f"lecture-walkthrough-part{part}-{view.name}")
    page.context.close()


# --- 3. clickers and keys ---


def test_every_clicker_key_steps_every_press_from_any_focus(browser, app_url):
    page = new_page(browser, PROJECTOR)
    open_view(page, f"{app_url}/walkthrough" + query(PROJECTOR, step=1), PROJECTOR)
    keys_ready(page)
    for forward, back in (("ArrowRight", "ArrowLeft"), ("PageDown", "PageUp"), ("Space", "Shift+Space")):
        press(page, forward, 2)  # two quick presses: two parts, not one and not three
        expect_part(page, 3)
        press(page, back, 2)
        expect_part(page, 1)
        press(page, forward, 4)  # four quick presses: four parts
        expect_part(page, 5)
        press(page, back, 4)
        expect_part(page, 1)
    # right after clicking a part number (the picker's radio group would take the arrows)
    act(page, lambda: page.locator(".st-key-walk_part [role=radio]").nth(2).click())
    expect_part(page, 3)
    press(page, "ArrowRight", 1)
    expect_part(page, 4)
    act(page, lambda: page.locator(".st-key-walk_part [role=radio]").nth(1).click())
    expect_part(page, 2)
    press(page, "PageUp", 1)
    expect_part(page, 1)
    # right after clicking Next: Space steps once, it does not also press the focused button
    act(page, lambda: page.get_by_role("button", name=LANGUAGES["es"]["walk.next"]).click())
    expect_part(page, 2)
    press(page, "Space", 1)
    expect_part(page, 3)
    # with the focus on the presentation switch, and on the page's text
    sidebar = page.locator("[data-testid=stSidebar]")
    sidebar.get_by_role("switch", name=LANGUAGES["es"]["sidebar.presentation"], exact=True).focus()
    press(page, "PageDown", 1)
    expect_part(page, 4)
    page.locator("[data-testid=stMain] h1").click()
    press(page, "ArrowLeft", 3)
    expect_part(page, 1)
    # typing is typing: arrows in the token picker's search box do not step (the picker is part 1's, shown once
    # the lecturer reveals the answer to its question, with the reveal key)
    act(page, lambda: page.keyboard.press(REVEAL_SHORTCUT.lower()))
    expect_part(page, 1)
    page.locator(".st-key-walk_main input").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(1500)
    expect(part_title(page)).to_have_text(re.compile(r"^1\. "))
    assert page.console_errors == []
    page.context.close()


def test_clicking_the_page_draws_no_focus_frame(browser, app_url):
    view = View("normal", 1400, 900)
    page = new_page(browser, view)
    open_view(page, f"{app_url}/walkthrough" + query(view), view)
    for target in ("[data-testid=stMain] h1", "[data-testid=stMain] [data-testid=stMarkdownContainer] p"):
        page.locator(target).first.click()
        page.wait_for_timeout(200)
        outlines = page.evaluate(
            """() => [document.activeElement, document.querySelector('[data-testid=stMain]'),
                      document.querySelector('[data-testid=stMainBlockContainer]')]
              .filter(e => e && e !== document.body)
              .map(e => [e.tagName, e.dataset.testid, getComputedStyle(e)])
              .filter(([tag, id, style]) => style.outlineStyle !== 'none' && style.outlineWidth !== '0px')
              .map(([tag, id, style]) => [tag, id, style.outlineStyle, style.outlineWidth])"""
        )
        assert outlines == [], outlines
    page.context.close()


# --- 1. nobody gets locked out ---


def test_a_lecturer_in_presentation_mode_is_never_locked_out(browser, app_url):
    page = new_page(browser, PROJECTOR)
    open_view(page, f"{app_url}/walkthrough" + query(PROJECTOR, lang="en", step=1), PROJECTOR)
    keys_ready(page)
    # the sidebar, collapsed, comes back with the header's button
    close_sidebar(page)
    expand = page.locator("[data-testid=stExpandSidebarButton]")
    box = expand.bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0 and box["y"] + box["height"] <= HEADER_PX, box
    expand.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().right > 100"
    )
    expect(page.locator("[data-testid=stSidebar]").get_by_text(LANGUAGES["en"]["page.builder"])).to_be_visible()
    # the theme is in the header's menu, also in presentation mode
    page.locator("[data-testid=stMainMenuButton]").click(force=True)
    expect(page.get_by_role("menuitemradio", name="Dark")).to_be_visible()
    page.keyboard.press("Escape")
    # a reload keeps the page, the part, the language and the mode
    close_sidebar(page)
    press(page, "PageDown", 2)
    expect_part(page, 3)
    page.reload()
    wait_for_app(page, timeout=90_000)
    settle(page)
    expect_part(page, 3)
    expect(page.locator("[data-testid=stMain] h1")).to_have_text(
        translate("en", "walk.title", sentence="el perro come")
    )
    exit_button = page.get_by_role("button", name=re.compile(LANGUAGES["en"]["sidebar.presentation_exit"]))
    expect(exit_button).to_be_visible()
    assert "present=true" in page.url and "lang=en" in page.url
    # and presentation mode is left from the keyboard
    act(page, lambda: page.keyboard.press("Alt+p"))
    expect(exit_button).to_have_count(0)
    assert "present=true" not in page.url
    expect(page.locator("[data-testid=stMain] [data-testid=stMarkdownContainer] p").first).to_have_css(
        "font-size", "16px"
    )
    expect_part(page, 3)
    page.context.close()


# --- 4. the first visitor after a restart ---


def test_the_first_request_to_a_fresh_server_is_a_share_link_to_part_3(browser):
    scenario = replace(lesson_scenario(), tokens=("la", "gata", "duerme"), temperature=2.0)
    view = View("normal", 1400, 900)
    with fresh_server() as url:
        page = new_page(browser, view)
        page.goto(f"{url}/walkthrough?s={encode_scenario(scenario)}&lang=en&step=3")
        wait_for_app(page, timeout=120_000)
        settle(page, timeout=120_000)
        sentence = " ".join(scenario.tokens)  # the title follows the scenario's tokens
        expect(page.locator("[data-testid=stMain] h1")).to_have_text(translate("en", "walk.title", sentence=sentence))
        expect(page.get_by_text("Page not found")).to_have_count(0)
        expect(page.locator("[role=dialog]")).to_have_count(0)
        expect_part(page, 3)
        main = page.locator("[data-testid=stMain]")
        expect(main).to_contain_text(LANGUAGES["en"]["scenario.edited"])
        # questions are on for a visitor, also one who came by a link: the part waits for a prediction; shown
        # its answer, the part is the shared scenario's
        expect(page.locator(".st-key-quiz_box_walk_3")).to_contain_text(LANGUAGES["en"]["quiz.title"])
        act(page, lambda: page.get_by_role("button", name=LANGUAGES["en"]["quiz.show_me"]).click())
        settle(page)
        expect_part(page, 3)
        expect(main.locator("[data-testid=stCode]").first).to_contain_text("score'(gata → duerme)")
        # an immediate switch of language, in this first session, takes effect and keeps the rest
        act(page, lambda: page.locator("[data-testid=stSidebar]").get_by_text("Español", exact=True).click())
        expect(page.locator("[data-testid=stMain] h1")).to_have_text(translate("es", "walk.title", sentence=sentence))
        expect(part_title(page)).to_have_text(re.compile(r"^3\. " + re.escape(LANGUAGES["es"]["walk.name.3.sqrt"])))
        expect(main.locator("[data-testid=stCode]").first).to_contain_text("score'(gata → duerme)")
        assert "lang=es" in page.url and "step=3" in page.url
        assert page.console_errors == [], page.console_errors
        page.context.close()


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_a_deep_link_is_the_first_request_to_a_fresh_server(browser, spec):
    view = View("normal", 1400, 900)
    with fresh_server() as url:
        page = new_page(browser, view)
        page.goto(page_url(url, spec) + "?lang=en")
        wait_for_app(page, timeout=120_000)
        settle(page, timeout=120_000)
        expect(page.locator("[data-testid=stMain] h1").first).to_have_text(title(spec.key, "en"))
        expect(page.get_by_text("Page not found")).to_have_count(0)
        expect(page.locator("[role=dialog]")).to_have_count(0)
        # the app's own shell ran (its translated menu), not the page file alone
        sidebar = page.locator("[data-testid=stSidebar]")
        expect(sidebar.get_by_text(LANGUAGES["en"]["sidebar.presentation"])).to_be_visible()
        expect(sidebar.locator("[data-testid=stPageLink]")).to_have_count(len(PAGES))
        act(page, lambda: sidebar.get_by_text("Español", exact=True).click())
        expect(page.locator("[data-testid=stMain] h1").first).to_have_text(title(spec.key, "es"))
        assert page.console_errors == [], page.console_errors
        page.context.close()


# --- 7. figures survive odd input ---


def test_a_32_character_token_name_keeps_the_figures_at_their_matrix_size(browser, app_url):
    long_name = "supercalifragilisticoespialidoso"
    assert len(long_name) == 32
    scenario = replace(lesson_scenario(), tokens=("el", long_name, "come"))
    view = View("normal", 1400, 900)
    page = new_page(browser, view)
    open_view(page, f"{app_url}/builder?s={encode_scenario(scenario)}&lang=en", view)
    sizes = page.evaluate(
        f"""() => [...document.querySelectorAll('{CHART}')].map(chart => {{
             const svg = chart.querySelector('.main-svg');
             return {{width: parseFloat(svg.getAttribute('width')), drawn: svg.getBoundingClientRect().width,
                     labels: [...chart.querySelectorAll('.ytick text')].map(t => t.textContent)}}; }})"""
    )
    assert len(sizes) == 8  # Q, K, V; scores, scaled, weights; x, output
    for figure in sizes:
        assert figure["width"] <= 760, figure  # a 3-row matrix, not its longest label, sets the size
        assert abs(figure["drawn"] - figure["width"]) < 1, figure  # drawn at its own size, not shrunk
        assert "supercali…" in figure["labels"], figure  # the long name shortened on the axis
    # the full name is on hover
    chart = page.locator(f"{keyed('b_weights')} .nsewdrag").first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    expect(page.locator(f"{keyed('b_weights')} .hoverlayer")).to_contain_text(long_name)
    page.context.close()


def test_a_200_word_sentence_gives_a_64_by_64_map_that_can_be_inspected(browser, app_url):
    view = View("normal", 1400, 900)
    page = new_page(browser, view)
    open_view(page, f"{app_url}/pipeline?lang=en&questions_on=false", view)
    words = " ".join(f"p{i}" for i in range(200))  # 200 words, 889 characters
    box = page.locator("[data-testid=stTextInput] input").first
    box.fill(words)
    act(page, lambda: box.press("Enter"))
    settle(page, timeout=120_000)
    chart = page.locator(f"{keyed('pipe_weights')} .js-plotly-plot")
    size = chart.evaluate("e => [e._fullData[0].z.length, e._fullData[0].z[0].length, e._fullLayout.xaxis.range]")
    assert size[:2] == [64, 64]
    assert size[2] == [-0.5, 63.5]
    page.locator(f"{keyed('pipe_weights')} .nsewdrag").first.scroll_into_view_if_needed()
    drag = page.locator(f"{keyed('pipe_weights')} .nsewdrag").first.bounding_box()
    # hover: a cell says which tokens and what weight
    page.mouse.move(drag["x"] + drag["width"] * 0.3, drag["y"] + drag["height"] * 0.6)
    expect(page.locator(f"{keyed('pipe_weights')} .hoverlayer")).to_contain_text("→")
    # zoom: dragging a box shows part of the map, larger
    page.mouse.move(drag["x"] + 10, drag["y"] + 10)
    page.mouse.down()
    page.mouse.move(drag["x"] + drag["width"] * 0.25, drag["y"] + drag["height"] * 0.25, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "e => e._fullLayout.xaxis.range[1] - e._fullLayout.xaxis.range[0] < 30",
        arg=chart.element_handle(),
        timeout=10_000,
    )
    assert page.console_errors == [], page.console_errors
    page.context.close()


# --- 8. small things: the copy-link button ---


@pytest.mark.parametrize("allowed", [True, False], ids=["clipboard", "no-clipboard"])
def test_the_copy_link_button_is_visible_and_copies_or_says_how(browser, app_url, allowed):
    view = View("normal", 1400, 900)
    permissions = ["clipboard-read", "clipboard-write"] if allowed else []
    page = new_page(browser, view, permissions=permissions)
    open_view(page, f"{app_url}/walkthrough" + query(view, lang="en", step=2), view)
    act(page, lambda: page.get_by_text(LANGUAGES["en"]["share.title"]).click())
    button = page.locator(".st-key-share_copy button")
    expect(button).to_be_visible()  # without hovering anything
    expect(button).to_have_text(LANGUAGES["en"]["share.copy"])
    link = page.locator("[data-testid=stPopoverBody] [data-testid=stCode]").first.inner_text().strip()
    assert "step=2" in link and "lang=en" in link and "s=" in link
    button.click()
    status = page.locator(".st-key-share_copy .status")
    if allowed:
        expect(status).to_have_text(LANGUAGES["en"]["share.copied"])
        assert page.evaluate("navigator.clipboard.readText()") == link
    else:
        expect(status).to_have_text(LANGUAGES["en"]["share.copy_failed"])
        fallback = page.locator(".st-key-share_copy .fallback")
        expect(fallback).to_be_visible()
        assert fallback.input_value() == link
    page.context.close()


def test_an_uploaded_scenario_says_it_worked_and_downloads_are_named_in_the_language(browser, app_url, tmp_path):
    from engine.scenario_io import scenario_to_json

    scenario = replace(lesson_scenario(), tokens=("la", "gata", "duerme"))
    upload = tmp_path / "mine.json"
    upload.write_text(scenario_to_json(scenario))
    view = View("normal", 1400, 900)
    page = new_page(browser, view)
    open_view(page, f"{app_url}/builder" + query(view, lang="en"), view)
    act(page, lambda: page.get_by_text(LANGUAGES["en"]["share.title"]).click())
    with page.expect_download() as download:
        page.get_by_role("button", name=LANGUAGES["en"]["share.json"]).click()
    assert download.value.suggested_filename == LANGUAGES["en"]["share.json_file"] == "scenario.json"
    act(page, lambda: page.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(upload)))
    expect(page.locator("[data-testid=stToast]")).to_contain_text(LANGUAGES["en"]["share.uploaded.other"].format(n=3))
    expect(page.locator("[data-testid=stMain]")).to_contain_text(LANGUAGES["en"]["scenario.edited"])
    assert page.console_errors == [], page.console_errors
    page.context.close()
