"""The real-model page in a real browser, served with a tiny model directory, and served with none (offline).

Each server is started here with its own environment (the shared `app_url` server has no model directory): one
with ATTENTION_MODEL_DIR naming a tiny model written in the real file formats, one with no directory and the hub
client pointed at a local port nobody listens on (HF_ENDPOINT), so a click on the download fails at once, as it
would without network, and never downloads anything where the network is there. (With HF_HUB_OFFLINE=1 the page
offers no download at all: tests/app/test_real_model_page.py checks that.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from engine.limits import MAX_SENTENCE_CHARS
from engine.model_files import MODEL_FILES, MODEL_REPO, MODEL_REVISION
from harness.browser import ScriptRuns, runs, wait_for_app
from harness.fake_hub import FakeHub, model_files_of
from harness.server import free_port, start_app, stop_app, wait_healthy
from harness.tiny_model import TINY_CONFIG, random_bert_tensors, write_model
from tests.e2e.shared import EXPECT_TIMEOUT_MS, assert_healthy, charts, screenshot
from ui.i18n import LANGUAGE_NAMES, LANGUAGES
from ui.numbers import count

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<img src=x onerror=alert(1)> **perro** tiene"
# A run and its drawing may take this long on a busy machine: the browser loads each widget's code lazily, and
# with other work on the cores a page of widgets and figures was seen to need 60-90 s before all of it was drawn.
SLOW_MS = 120_000


def app_with(browser, env: dict[str, str]):
    """A server with `env` for the tests of this module, its page opened once; stopped however they end."""
    port = free_port()
    process = start_app(ROOT / "app.py", port, env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, timeout=60)
        warm_up(browser, f"{url}/real_model")
        yield url
    finally:
        stop_app(process)


def warm_up(browser, url: str) -> None:
    """Open the page once before the tests: a fresh server's first session is slow and can drop a click."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.script_runs = ScriptRuns(page)
        opened(page, url)
    finally:
        context.close()


@pytest.fixture(scope="module", autouse=True)
def patient_expectations():
    """This module's expectations wait as long as a run may take here, then the suite's own wait comes back (not
    Playwright's 5 s: the setting is global to the worker, and a live-class test failed on 5 s after this module)."""
    expect.set_options(timeout=SLOW_MS)
    yield
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture(scope="module")
def model_url(browser, tmp_path_factory):
    directory = write_model(tmp_path_factory.mktemp("tiny"), tensors=random_bert_tensors(TINY_CONFIG, seed=3))
    yield from app_with(browser, {"ATTENTION_MODEL_DIR": str(directory), "HF_HUB_OFFLINE": "1"})


@pytest.fixture(scope="module")
def offline_url(browser, tmp_path_factory):
    cache = tmp_path_factory.mktemp("empty-hub-cache")
    nowhere = "http://127.0.0.1:9"  # the discard port: nothing listens there, the connection is refused at once
    yield from app_with(browser, {"ATTENTION_MODEL_DIR": "", "HF_ENDPOINT": nowhere, "HF_HUB_CACHE": str(cache)})


@pytest.fixture(scope="module")
def fake_hub(tmp_path_factory):
    """A model hub on 127.0.0.1 serving the tiny model as the pinned one (harness.fake_hub)."""
    directory = write_model(tmp_path_factory.mktemp("hub-files"), tensors=random_bert_tensors(TINY_CONFIG, seed=3))
    hub = FakeHub(MODEL_REPO, MODEL_REVISION, model_files_of(directory, MODEL_FILES))
    yield hub
    hub.stop()


@pytest.fixture(scope="module")
def hub_url(browser, tmp_path_factory, fake_hub):
    cache = tmp_path_factory.mktemp("hub-cache")
    env = {"ATTENTION_MODEL_DIR": "", "HF_ENDPOINT": fake_hub.url, "HF_HUB_CACHE": str(cache)}
    yield from app_with(browser, env)


def opened(page: Page, url: str) -> None:
    """Load a page and wait until its first run is drawn; the page's actions wait as long as a run may take. The
    questions the page asks before its head and its cell are off (these tests look at what they reveal)."""
    page.set_default_timeout(SLOW_MS)
    page.goto(url + ("&" if "?" in url else "?") + "questions_on=false")
    wait_for_app(page, timeout=SLOW_MS)


def acted(page: Page, action) -> None:
    """Do something that reruns the script, then wait until that run is drawn."""
    before = runs(page)
    action()
    wait_for_app(page, before, timeout=SLOW_MS)


def in_language(page: Page, lang: str) -> None:
    if lang != "es":
        sidebar = page.locator("[data-testid=stSidebar]")
        acted(page, lambda: sidebar.get_by_text(LANGUAGE_NAMES[lang], exact=True).filter(visible=True).first.click())
        expect(sidebar).to_contain_text(LANGUAGES[lang]["sidebar.presentation"])


def choose(page: Page, selectbox, option: str) -> None:
    """Pick `option` in a selectbox. Its list opens on a click, unless the page moved under the pointer (figures
    further up still being drawn): then the click is tried again."""
    selectbox.scroll_into_view_if_needed()
    choice = page.get_by_role("option", name=option, exact=True)
    for _ in range(5):
        selectbox.get_by_role("combobox").click()
        try:
            expect(choice).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            page.keyboard.press("Escape")
    if choice.get_attribute("aria-selected") == "true":  # already the value: choosing it again runs nothing
        page.keyboard.press("Escape")
    else:
        acted(page, lambda: choice.click())


CHARTS = 2  # the heads' small multiples, the picked head («what attention is for» is folded: computed once opened)
SECTION_CHARTS = 2  # in that fold, opened: the same word's cosines by layer and its two vectors


def main(page: Page):
    return page.locator("[data-testid=stMain]")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_page_draws_the_pieces_every_head_and_the_picked_head(page, model_url, lang):
    opened(page, f"{model_url}/real_model")
    in_language(page, lang)
    strings = LANGUAGES[lang]
    expect(main(page)).to_contain_text(strings["real.pieces.title"])
    pieces = main(page).locator("[data-testid=stMarkdownContainer] table").first
    for piece in ("[CLS]", "per", "##ro", "ham", "##bre", "[SEP]"):
        expect(pieces).to_contain_text(piece)
    # every head at once, the picked one large; then, once its fold is opened, «what attention is for»: the word's
    # cosine layer by layer and its vectors in the two sentences
    expect(charts(page)).to_have_count(CHARTS)
    expect(charts(page).first.locator(".main-svg").first).to_be_visible()
    expect(main(page)).to_contain_text(strings["real.question.title.tiene"])
    expect(main(page)).not_to_contain_text(strings["ctx.heads.caption"])
    acted(page, lambda: main(page).get_by_text(strings["ctx.open"]).click())
    expect(charts(page)).to_have_count(CHARTS + SECTION_CHARTS)
    expect(main(page)).to_contain_text(strings["ctx.heads.caption"])
    assert_healthy(page)
    screenshot(page, f"real_model-{lang}")


def test_picking_a_head_redraws_the_large_heatmap_and_the_derivation(page, model_url):
    opened(page, f"{model_url}/real_model")
    in_language(page, "en")
    head = page.locator("[data-testid=stSelectbox]").filter(has_text="Head").first
    layer = page.locator("[data-testid=stSelectbox]").filter(has_text="Layer").first
    choose(page, layer, "1")
    choose(page, head, "2")
    expect(main(page)).to_contain_text("3. Layer 1, head 2")
    expect(charts(page).nth(1)).to_contain_text("Layer 1, head 2: weights")
    page.get_by_text("The 4 multiplications of q·k").click()  # unfolds in the browser: no run
    expect(page.locator("[data-testid=stCode]").filter(has_text="score(tiene (7) →").first).to_be_visible()
    assert_healthy(page)


def test_a_hostile_sentence_is_shown_as_text(page, model_url):
    opened(page, f"{model_url}/real_model")
    box = page.get_by_role("textbox").first
    box.fill(HOSTILE)
    acted(page, lambda: box.press("Enter"))
    expect(main(page).locator("[data-testid=stMarkdownContainer] table").first).to_contain_text("onerror")
    assert page.locator("img[src='x']").count() == 0
    assert_healthy(page)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_huge_paste_is_refused_by_the_box_and_the_limit_is_said(page, model_url, lang):
    """A 20,000,000-character paste took the browser 91 s and the server 52 MB: the box now has the limit."""
    opened(page, f"{model_url}/real_model")
    in_language(page, lang)
    box = page.get_by_role("textbox").first
    box.fill("el gato come")
    acted(page, lambda: box.press("Enter"))
    box.fill("perro " * 400_000)  # 2.4 MB: Streamlit's box refuses a text longer than its max_chars whole
    expect(box).to_have_value("el gato come")
    box.fill("ab " * (MAX_SENTENCE_CHARS // 3) + "ab")  # exactly the limit: taken, and the page says so
    acted(page, lambda: box.press("Enter"))
    assert len(box.input_value()) == MAX_SENTENCE_CHARS
    at_limit = LANGUAGES[lang]["limits.sentence_at_limit"].format(limit=count(MAX_SENTENCE_CHARS, lang=lang))
    expect(main(page)).to_contain_text(at_limit)
    assert_healthy(page)


def test_presentation_mode_at_projector_size(page, model_url):
    page.set_viewport_size({"width": 1280, "height": 720})
    opened(page, f"{model_url}/real_model")
    switch = page.locator("[data-testid=stSidebar]").get_by_role("switch", name=LANGUAGES["es"]["sidebar.presentation"])
    acted(page, lambda: switch.check(force=True))
    # presentation mode's type: paragraphs at 22 px (ui/layout.py), the button that leaves it at the top
    expect(main(page).locator("[data-testid=stMarkdown] p").first).to_have_css("font-size", "22px")
    expect(page.get_by_role("button", name=LANGUAGES["es"]["sidebar.presentation_exit"])).to_be_visible()
    expect(charts(page)).to_have_count(CHARTS)
    assert_healthy(page)
    screenshot(page, "real_model-presentation")


def test_offline_without_a_copy_the_page_says_what_to_do_and_the_app_works(page, offline_url):
    opened(page, f"{offline_url}/real_model")
    es, en = LANGUAGES["es"], LANGUAGES["en"]
    download = page.get_by_role("button", name=es["real.download.button"].format(size="470"))
    expect(download).to_be_visible()
    expect(main(page)).to_contain_text("ATTENTION_MODEL_DIR")
    acted(page, lambda: download.click())
    # the refused connection fails the download at once; the page's own polling redraws it with the reason
    expect(main(page)).to_contain_text(es["error.model_offline"])
    expect(page.get_by_role("button", name=es["real.download.retry"].format(size="470"))).to_be_visible()
    assert_healthy(page)
    screenshot(page, "real_model-offline-es")
    in_language(page, "en")  # the download is the server's: its failure is said in each reader's language
    expect(main(page)).to_contain_text(en["error.model_offline"])
    expect(page.get_by_role("button", name=en["real.download.retry"].format(size="470"))).to_be_visible()
    screenshot(page, "real_model-offline-en")
    page.get_by_role("link", name=en["page.softmax"]).first.click()
    expect(main(page).locator("h1").first).to_have_text(en["softmax.title"])
    assert_healthy(page)


def test_a_download_cut_half_way_is_said_and_a_second_click_brings_the_model(page, hub_url, fake_hub):
    """The server's real download against a hub on 127.0.0.1 whose first transfer of the weights is cut half way:
    the page says what arrived is kept, and the retry asks only for the rest and shows the model."""
    es = LANGUAGES["es"]
    size = len(fake_hub.files["model.safetensors"])
    fake_hub.cut_after["model.safetensors"] = size // 2
    opened(page, f"{hub_url}/real_model")
    download = page.get_by_role("button", name=es["real.download.button"].format(size="470"))
    acted(page, lambda: download.click())
    expect(main(page)).to_contain_text(es["error.model_download_cut"].split("{file}")[0].format(repo=MODEL_REPO))
    retry = page.get_by_role("button", name=es["real.download.retry"].format(size="470"))
    acted(page, lambda: retry.click())
    expect(main(page).locator("[data-testid=stMarkdownContainer] table").first).to_contain_text("[CLS]")
    assert ("GET", "model.safetensors", f"bytes={size // 2}-") in fake_hub.requests
    expect(main(page)).to_contain_text(MODEL_REVISION)
    assert_healthy(page)
    screenshot(page, "real_model-downloaded")
