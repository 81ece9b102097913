"""axe-core's automated accessibility checks on every page: 0 serious or critical violations.

axe-core 4.12 (the `axe.min.js` that the PyPI package axe-playwright-python ships: no network) runs in the page
after its first run has finished and its figures are drawn, with the rules of WCAG 2.0, 2.1 and 2.2 at levels A
and AA and axe's best practices. Violations of lower impact (moderate, minor: a heading level skipped, an empty
header cell in a data grid) are printed, not failed.

What is scanned, one server and one browser context per combination of language, theme and mode:
- Spanish, light, normal mode, 1400×900: every page of ui.pages.PAGES and the walkthrough's parts 2 to 5, with the
  questions before the answers off and on (26 scans); the walkthrough's five parts on a 390×844 phone, where its
  derivations scroll sideways (5 scans);
- the 7 other combinations of language (es, en), theme (light, dark) and mode (normal, presentation), each every
  page and part (13 scans) under CI=true or with AXE_SCAN=all: 122 scans in all, 4 min 18 s at a load average of
  4 here (about 2 s a scan; 7.6 s at a load of 14). On the shared development machine, where a browser test holds
  the lock for less than 10 minutes, each of them scans a quarter of those 13 instead, rotating with the day (day
  + combination, modulo 4: four days cover them all): 53 scans, 2 min 18 s at a load of 4.

Rules left out, each with its reason (the README's "Accessibility" lists them too): none.
"""

from __future__ import annotations

import datetime
import os
import time

import pytest
from axe_playwright_python.sync_playwright import Axe

from harness.browser import TIMEOUT_MS, visit
from tests.e2e.shared import FIGURES_DRAWN, watched_page
from ui.pages import PAGE_BY_KEY, PAGES, page_url

pytestmark = pytest.mark.e2e

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
EXCLUDED_RULES: dict[str, str] = {}
FAILING_IMPACTS = ("serious", "critical")
WALKTHROUGH_PARTS = range(2, 6)
# The scan waits for the document component (ui.document) to have marked the page's scrolling boxes: it does that
# on the next animation frame after the page changes.
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"

AXE = Axe()
COMBINATIONS = [(lang, theme, present) for lang in ("es", "en") for theme in ("light", "dark") for present in (0, 1)]
FULL = ("es", "light", 0)  # the combination scanned in full, questions on and off
ROTATION = 4  # the other combinations scan one page in ROTATION, a different one each day
VIEWPORT = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def addresses(base: str, lang: str, present: int, *, questions: bool) -> list[tuple[str, str]]:
    """(name, address) of every page, and of the walkthrough's later parts, in `lang` and the mode."""
    query = f"lang={lang}&present={'true' if present else 'false'}"
    found = [(spec.key, f"{page_url(base, spec)}?{query}") for spec in PAGES]
    walkthrough = page_url(base, PAGE_BY_KEY["walkthrough"])
    found += [(f"walkthrough part {k}", f"{walkthrough}?step={k}&{query}") for k in WALKTHROUGH_PARTS]
    return [(f"{name} (questions)" if questions else name, url) for name, url in found]


def scan(page, url: str, *, questions: bool) -> list[dict]:
    """axe-core's violations on the page at `url`, once it has run and drawn its figures. The first address of a
    scan is loaded; the next are shown in the same session, as the app's menu shows them (`visit`): each says its
    language, mode and whether the questions are on, so nothing is carried over from the one before."""
    visit(page, f"{url}&questions_on={'true' if questions else 'false'}")
    page.wait_for_function(FIGURES_DRAWN, timeout=TIMEOUT_MS)
    page.evaluate(SETTLED)
    options = {
        "resultTypes": ["violations"],
        "runOnly": {"type": "tag", "values": TAGS},
        "rules": {rule: {"enabled": False} for rule in EXCLUDED_RULES},
    }
    return AXE.run(page, options=options).response["violations"]


def summary(name: str, violation: dict) -> str:
    """One violation in a line: where, which rule, how bad, and its first elements with axe's reason."""
    nodes = "; ".join(
        f"{node['target']} {node.get('failureSummary', '').splitlines()[-1].strip()}" for node in violation["nodes"][:3]
    )
    return f"{name}: {violation['id']} ({violation['impact']}, {len(violation['nodes'])}×): {nodes}"


def scan_everything() -> bool:
    """Whether every combination scans every page: under CI=true, or when AXE_SCAN=all asks for it."""
    return os.environ.get("CI") == "true" or os.environ.get("AXE_SCAN") == "all"


def rotated(targets: list, combination: int, day: int) -> list:
    """The targets a combination scans on `day` (days since 0001-01-01): every ROTATION-th one, from an offset
    that moves by one each day, so that ROTATION days scan them all."""
    return [target for i, target in enumerate(targets) if (i - day - combination) % ROTATION == 0]


def scan_all(page, targets: list[tuple[str, str, bool]]) -> list[str]:
    """Scan each (name, address, questions) target: the failing violations, one line each; the rest printed."""
    failing, noted = [], []
    started = time.monotonic()
    for name, url, questions in targets:
        for violation in scan(page, url, questions=questions):
            (failing if violation["impact"] in FAILING_IMPACTS else noted).append(summary(name, violation))
    scanned = ", ".join(name for name, _, _ in targets)
    print(
        f"\n{len(targets)} scans in {time.monotonic() - started:.1f} s ({scanned}); below serious:", *noted, sep="\n  "
    )
    return failing


def test_the_rotation_covers_every_target_in_its_days():
    targets = list(range(13))
    for combination in range(len(COMBINATIONS)):
        days = [rotated(targets, combination, day) for day in range(ROTATION)]
        assert sorted(target for chosen in days for target in chosen) == targets
        assert all(3 <= len(chosen) <= 4 for chosen in days)


@pytest.mark.parametrize(("lang", "theme", "present"), COMBINATIONS, ids=lambda v: str(v))
def test_no_serious_or_critical_violation_on_any_page(browser, app_url, lang, theme, present):
    context = browser.new_context(viewport=VIEWPORT, color_scheme=theme)
    try:
        page = watched_page(context)
        targets = [(name, url, False) for name, url in addresses(app_url, lang, present, questions=False)]
        if (lang, theme, present) == FULL:
            targets += [(name, url, True) for name, url in addresses(app_url, lang, present, questions=True)]
        elif not scan_everything():
            combination = COMBINATIONS.index((lang, theme, present))
            targets = rotated(targets, combination, datetime.date.today().toordinal())
        failing = scan_all(page, targets)
        assert failing == [], "\n".join(failing)
    finally:
        context.close()


def test_no_serious_or_critical_violation_on_a_phone(browser, app_url):
    """The walkthrough's five parts at 390×844, where derivations are wider than the screen and scroll."""
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    try:
        page = watched_page(context)
        walkthrough = page_url(app_url, PAGE_BY_KEY["walkthrough"])
        targets = [(f"phone, walkthrough part {k}", f"{walkthrough}?step={k}", False) for k in range(1, 6)]
        failing = scan_all(page, targets)
        assert failing == [], "\n".join(failing)
    finally:
        context.close()
