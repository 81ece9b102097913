"""What the app sets on the page's document itself: its language, and keyboard access to boxes that scroll.

- `<html lang>` follows the reader's language, so a screen reader reads Spanish with Spanish rules. Streamlit
  serves every page as `<html lang="en">` and nothing in its frontend changes it (WCAG 3.1.1).
- A box that scrolls sideways (a derivation, a formula, a wide table: ui.layout lets them scroll inside their
  box) gets `tabindex="0"` while its content is wider than it, so a keyboard can reach it and scroll it with the
  arrows (WCAG 2.1.1; axe's `scrollable-region-focusable`); a box that fits is no tab stop. ui.keys leaves the
  arrows to such a box while it has the keyboard's focus.

A tiny `st.components.v2` component, run in the page's own document (no iframe), drawn by every page run (in the
sidebar, ui.shell): a page switch, a reload and a language switch all set the language, which stays as set
between runs (Streamlit's frontend never writes it); one observer per page marks the scrolling boxes as the page
changes. The JavaScript is a fixed constant and the language one of ui.languages' codes, never user text.
"""

from __future__ import annotations

import streamlit as st

from ui.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES

KEY = "page_lang"
SCROLL_MARK = "data-scroll-focus"  # on a box the component made a tab stop because it scrolls

_JS = r"""
const BOXES = '[data-testid=stMain] [data-testid=stCode] pre, [data-testid=stMain] .katex-display, '
  + '[data-testid=stMain] [data-testid=stMarkdownContainer]:has(> table)';

function markScrollingBoxes() {
  for (const box of document.querySelectorAll(BOXES)) {
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    const marked = box.hasAttribute("data-scroll-focus");
    if (scrolls && !marked && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-scroll-focus", "");
    } else if (!scrolls && marked) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-scroll-focus");
    }
  }
}

export default function (component) {
  document.documentElement.lang = component.data.lang;
  const doc = window.__attentionDocument || (window.__attentionDocument = {});
  if (!doc.observer) {
    let queued = false;
    const queue = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; markScrollingBoxes(); });
    };
    doc.observer = new MutationObserver(queue);
    doc.observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener("resize", queue);
    queue();
  }
}
"""

_document = st.components.v2.component("attention_document", js=_JS)


def document_ui(lang: str) -> None:
    """Set the document's `lang` to `lang` (a code of ui.languages; anything else gives the default's) and keep
    the page's scrolling boxes reachable by keyboard."""
    _document(key=KEY, data={"lang": lang if lang in LANGUAGE_NAMES else DEFAULT_LANGUAGE}, height=0)
