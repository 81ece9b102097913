"""Visible copy buttons ("Copy link", a matrix's "Copy LaTeX" and "Copy CSV"): st.code's own copy icon only
shows while the mouse is over the box.

A tiny `st.components.v2` component (no iframe, no rerun): each button copies its text with the browser's
clipboard and says so; where the browser refuses (no clipboard access, a page not served over HTTPS), it says
how to copy by hand and selects the text in a box beside it. The texts are set as the box's value and the labels
as text, never as HTML; the HTML, CSS and JavaScript are fixed constants.
"""

from __future__ import annotations

import streamlit as st

from ui.i18n import t

_HTML = """
<div class="copy">
  <template class="copy-template">
    <button type="button" class="copy-button">
      <svg class="icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none"
        stroke="currentColor" stroke-width="2"><rect x="9" y="9" width="11" height="11" rx="2"/>
        <path d="M5 15V6a2 2 0 0 1 2-2h9"/></svg>
      <span class="label"></span>
    </button>
  </template>
  <span class="buttons"></span>
  <span class="status" role="status" aria-live="polite"></span>
  <textarea class="fallback" rows="3" readonly hidden></textarea>
</div>
"""

_CSS = """
.copy { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; font-family: var(--st-font); }
.buttons { display: inline-flex; flex-wrap: wrap; gap: 0.5rem; }
.copy-button {
  display: inline-flex; align-items: center; gap: 0.4rem; padding: 0.35rem 0.8rem; cursor: pointer;
  font: inherit; font-size: var(--st-base-font-size, 1rem); color: var(--st-text-color);
  background: var(--st-secondary-background-color); border: 1px solid var(--st-border-color, #8888);
  border-radius: var(--st-base-radius, 0.5rem);
}
.copy-button:hover { border-color: var(--st-primary-color); color: var(--st-primary-color); }
.copy-button:focus-visible { outline: 2px solid var(--st-primary-color); outline-offset: 2px; }
.status { color: var(--st-text-color); font-size: 0.95em; }
.fallback { flex: 1 1 100%; font: inherit; font-family: var(--st-code-font, monospace); padding: 0.3rem;
  color: var(--st-text-color);
  background: var(--st-background-color); border: 1px solid var(--st-border-color, #8888); }
"""

_JS = """
export default function (component) {
  const { data, parentElement } = component;
  const buttons = parentElement.querySelector(".buttons");
  const template = parentElement.querySelector(".copy-template");
  const status = parentElement.querySelector(".status");
  const fallback = parentElement.querySelector(".fallback");
  // Streamlit calls this again whenever anything of the element changes, the theme too (a system switching to
  // dark): the same buttons are kept, with what they said, so that no click a reader just made is undone
  const shown = JSON.stringify(data);
  if (parentElement.__copyShown === shown) return;
  parentElement.__copyShown = shown;
  fallback.hidden = true;
  status.textContent = "";
  buttons.replaceChildren();
  for (const item of data.items) {
    const button = template.content.firstElementChild.cloneNode(true);
    button.querySelector(".label").textContent = item.label;
    const refused = () => {
      status.textContent = data.failed;
      fallback.value = item.text;
      fallback.hidden = false;
      fallback.focus();
      fallback.select();
    };
    button.onclick = async () => {
      if (!navigator.clipboard || !window.isSecureContext) return refused();
      try {
        await navigator.clipboard.writeText(item.text);
        fallback.hidden = true;
        status.textContent = item.copied;
      } catch (error) {
        refused();
      }
    };
    buttons.appendChild(button);
  }
}
"""

_copy_button = st.components.v2.component("attention_copy_button", html=_HTML, css=_CSS, js=_JS)


def copy_buttons_ui(items: list[tuple[str, str, str]], *, key: str, failed: str) -> None:
    """One button for each (label, text, said once copied) of `items`, side by side, and what to say (`failed`)
    when the browser refuses: then the text is selected in a box below, to copy by hand."""
    _copy_button(
        key=key,
        data={
            "items": [{"label": label, "text": text, "copied": copied} for label, text, copied in items],
            "failed": failed,
        },
        height="content",
    )


def copy_button_ui(text: str, *, key: str) -> None:
    """A button that copies `text` (a link) and says that it did, or how to copy it by hand."""
    copy_buttons_ui([(t("share.copy"), text, t("share.copied"))], key=key, failed=t("share.copy_failed"))
