"""Every page in a real browser, in both languages; the walkthrough by keyboard; a slider; the menu."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.shared import act, assert_healthy, choose_language, open_app, screenshot, watched_page
from ui.i18n import LANGUAGES
from ui.pages import PAGE_BY_KEY, PAGES, page_url

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.key)
def test_each_page_renders_without_errors_then_in_presentation_mode(page, app_url, spec, lang):
    """The page as opened (in the language chosen from the sidebar), then switched to presentation mode from the
    sidebar: one page load for both views (a load costs the browser most of such a test)."""
    open_app(page, page_url(app_url, spec))
    if lang != "es":
        choose_language(page, lang)
    sidebar = page.locator("[data-testid=stSidebar]")
    expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])
    expect(page.locator("[data-testid=stMain] [data-testid=stMarkdown] p").first).to_have_css("font-size", "16px")
    expect(page.locator("h1").first).to_be_visible()
    assert_healthy(page)
    screenshot(page, f"{spec.key}-{lang}-normal")

    act(page, lambda: sidebar.get_by_role("switch", name=LANGUAGES[lang]["sidebar.presentation"]).check(force=True))
    # presentation mode enlarges the text a room reads (16 px otherwise), and the URL keeps it
    expect(page.locator("[data-testid=stMain] [data-testid=stMarkdown] p").first).to_have_css("font-size", "22px")
    assert "present=true" in page.url
    expect(page.locator("h1").first).to_be_visible()
    assert_healthy(page)
    screenshot(page, f"{spec.key}-{lang}-presentation")


def test_the_walkthrough_steps_with_the_arrow_keys(page, app_url):
    open_app(page, f"{app_url}/walkthrough")
    main = page.locator("[data-testid=stMain]")
    expect(main).to_contain_text("Parte 1 de 5")
    page.locator("h1").first.click()
    act(page, lambda: page.keyboard.press("ArrowRight"))
    expect(main).to_contain_text("Parte 2 de 5")
    assert "step=2" in page.url
    # score(perro → come), written: 0.6413 + 0.5165 − 0.0831 − 0.1211 = 0.9536 ≈ 0.954
    expect(page.locator("[data-testid=stCode]").filter(has_text="≈ +0,954").first).to_be_visible()
    act(page, lambda: page.keyboard.press("ArrowRight"))
    expect(main).to_contain_text("Parte 3 de 5")
    act(page, lambda: page.keyboard.press("ArrowLeft"))
    expect(main).to_contain_text("Parte 2 de 5")
    assert_healthy(page)


def test_the_browsers_back_and_forward_buttons_step_the_parts(page, app_url):
    """Each part has its address; back and forward go through them (the app reads an address this session wrote
    before only when the browser asks for it: ui.url.settings_from_url)."""
    open_app(page, f"{app_url}/walkthrough")
    main = page.locator("[data-testid=stMain]")
    page.locator("h1").first.click()
    for part in (2, 3):
        act(page, lambda: page.keyboard.press("ArrowRight"))
        expect(main).to_contain_text(f"Parte {part} de 5")
    act(page, page.go_back)
    expect(main).to_contain_text("Parte 2 de 5")
    assert "step=2" in page.url
    act(page, page.go_forward)
    expect(main).to_contain_text("Parte 3 de 5")
    assert "step=3" in page.url
    assert_healthy(page)


def test_a_link_to_part_4_opens_part_4(page, app_url):
    open_app(page, f"{app_url}/walkthrough?step=4")
    main = page.locator("[data-testid=stMain]")
    expect(main).to_contain_text("Parte 4 de 5")
    expect(main).to_contain_text("0,289")  # the weight perro → el: 0.28886
    assert_healthy(page)


def test_moving_the_temperature_slider_changes_the_weights(page, app_url):
    open_app(page, f"{app_url}/softmax")
    main = page.locator("[data-testid=stMain]")
    expect(main).to_contain_text("[0,047; 0,936; 0,017]")
    thumb = page.locator("[data-testid=stSlider] input[type=range]").first
    thumb.focus()
    for _ in range(4):  # 1.0 → 1.4 in steps of 0.1
        page.keyboard.press("ArrowRight")
    # softmax([2, 5, 1] / 1.4) = [0.0999, 0.8512, 0.0489] (math.exp by hand)
    expect(main).to_contain_text("[0,100; 0,851; 0,049]")
    assert_healthy(page)


def test_the_scaling_page_opens_one_section_at_a_time(page, app_url):
    open_app(page, f"{app_url}/scaling")
    main = page.locator("[data-testid=stMain]")
    walks = main.locator("[data-testid=stSlider]").filter(has_text=LANGUAGES["es"]["scaling.walk.walks"])
    expect(walks).to_have_count(0)  # the first section has no slider
    act(page, lambda: page.get_by_role("tab", name=LANGUAGES["es"]["scaling.tab.walk"]).click())
    expect(walks).to_have_count(1)
    expect(main).to_contain_text(LANGUAGES["es"]["scaling.walk.title"])
    assert_healthy(page)  # its two figures are drawn


def test_the_language_survives_a_click_in_the_menu(page, app_url):
    open_app(page, f"{app_url}/walkthrough")
    choose_language(page, "en")
    sidebar = page.locator("[data-testid=stSidebar]")
    act(page, lambda: sidebar.get_by_role("link", name=LANGUAGES["en"]["page.builder"]).click())
    expect(page.locator("h1").first).to_have_text(LANGUAGES["en"]["builder.title"])
    assert page.url.split("?")[0] == page_url(app_url, PAGE_BY_KEY["builder"])
    assert_healthy(page)


def test_a_wide_table_scrolls_in_its_box_on_a_phone(browser, app_url):
    """The pipeline's tokens table, 40 tokens wide on a 390 px screen: it scrolls sideways inside its own box (a
    markdown table, which Streamlit would cut off at the page's edge), and the page does not."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = watched_page(context)
        open_app(page, f"{app_url}/pipeline")
        sentence = page.get_by_role("textbox").first
        sentence.fill(" ".join(f"palabra{k}" for k in range(40)))
        act(page, lambda: sentence.press("Enter"))
        table = page.locator("[data-testid=stMarkdownContainer]:has(> table)").first
        expect(table).to_contain_text("palabra39")
        box = table.evaluate("e => [e.scrollWidth, e.clientWidth, getComputedStyle(e).overflowX]")
        assert box[0] > 2 * box[1] and box[2] == "auto", box
        main = page.locator("[data-testid=stMain]").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert main[0] <= main[1] + 1, main
        assert_healthy(page)
    finally:
        context.close()
