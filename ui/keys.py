"""Presenter keys for the walkthrough: a clicker's PageDown / PageUp, the arrows and Space step the parts.

A tiny `st.components.v2` component, run in the page's own document (no iframe), listens to every key press on
the document in the capture phase, so a press counts from any focus (also right after clicking a part number,
whose radio group would otherwise take the arrows), and never while the reader types (inputs, selects, the data
grid, sliders). It keeps the part it is heading to itself and sends Python the ABSOLUTE part to show, with a
stamp per press: presses that come faster than a rerun (a clicker's 60 ms) accumulate instead of being dropped.
Each rerun tells it the stamp of the last press the server had applied when it drew the part; while a press is
still on its way, a rerun that started before it (a timer's, a late one) cannot move the part back or make the
next press count from an old part. Streamlit's own keys (r, c, Esc) are left alone.

On a change of part it brings the part's top (the container keyed `anchor`) into view, under the header.
The JavaScript is a fixed constant: nothing a user typed or a URL carried goes into it.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import state

PENDING_MS = 15_000  # a press the server has not answered in this time is given up (a restart never answers)
NEXT_KEYS = ("ArrowRight", "PageDown", " ")  # " " is Space; Shift+Space goes back, as in slide software
PREVIOUS_KEYS = ("ArrowLeft", "PageUp")

_JS = r"""
const NEXT = new Set(["ArrowRight", "PageDown", " "]);
const PENDING_MS = __PENDING_MS__;
const PREVIOUS = new Set(["ArrowLeft", "PageUp"]);
// Where a key belongs to what has the focus: typing, choosing in an open list or menu, moving a slider, the
// data grid, tabs. Everything else (buttons, the part picker, switches, radio buttons) lets the keys step.
const OWN_KEYS = [
  "input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])", "textarea", "select",
  "[contenteditable]:not([contenteditable=false])", "[role=slider]", "[role=tab]", "[role=listbox]",
  "[role=option]", "[role=combobox]", "[role=menu]", "[role=menuitem]", "[data-testid=stDataFrame]",
].join(",");

function ownsKeys(event) {
  let element = event.composedPath ? event.composedPath()[0] : event.target;
  while (element && element.nodeType !== 1) element = element.parentNode;
  if (!element || !element.closest) return false;
  // a box that scrolls sideways (ui.document), reached with the keyboard, scrolls with the arrows; clicked, it
  // leaves them to the parts
  const sideways = event.key === "ArrowLeft" || event.key === "ArrowRight";
  if (sideways && element.matches("[data-scroll-focus]:focus-visible")) return true;
  return !!(element.isContentEditable || element.closest(OWN_KEYS));
}

function stepOf(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return 0;
  if (event.key === " ") return event.shiftKey ? -1 : 1;
  if (NEXT.has(event.key)) return 1;
  if (PREVIOUS.has(event.key)) return -1;
  return 0;
}

// Bring the part's top under the header, and keep it there while the page around it settles (the new part
// being drawn, the sidebar opened or closed: what is above the part can change height), until the reader
// scrolls: the wheel, a touch, the scroll keys, or a press on the page (the scrollbar) outside the sidebar.
const RELEASING_KEYS = new Set(["ArrowUp", "ArrowDown", "Home", "End"]);

function bringIntoView(keys, anchor) {
  if (keys.unpin) keys.unpin();
  const element = document.querySelector(".st-key-" + anchor);
  const page = document.querySelector("[data-testid=stMainBlockContainer]");
  if (!element || !page) return;
  const place = () => element.scrollIntoView({ block: "start", behavior: "instant" });
  const observer = new ResizeObserver(place);
  const release = (event) => {
    if (event && event.type === "keydown" && !RELEASING_KEYS.has(event.key)) return;
    if (event && event.type === "mousedown" && event.target.closest
        && event.target.closest("[data-testid=stSidebar], [data-testid=stHeader]")) return;
    keys.unpin();
  };
  keys.unpin = () => {
    observer.disconnect();
    for (const name of ["wheel", "touchstart", "mousedown", "keydown"]) window.removeEventListener(name, release, true);
    keys.unpin = null;
  };
  observer.observe(page);
  for (const name of ["wheel", "touchstart", "mousedown", "keydown"]) window.addEventListener(name, release, true);
  place();
}

export default function (component) {
  const { data, setStateValue } = component;
  // One listener per page, whatever the number of reruns: this function runs again on every change of data.
  const keys = window.__attentionPartKeys || (window.__attentionPartKeys = { pending: [], shown: null, count: 0 });
  keys.send = setStateValue;
  keys.parts = data.parts;
  // presses the server had applied when it drew this part (and any before them) are no longer on their way; a
  // press unanswered for PENDING_MS is given up (a server that restarted never answers it)
  const applied = keys.pending.findIndex((sent) => sent.press === data.press);
  const now = Date.now();
  keys.pending = keys.pending.slice(applied + 1).filter((sent) => now - sent.at < PENDING_MS);
  // nothing on its way: the part drawn is the part (also after a click or a link); presses on their way: they
  // will move it, and the next press counts from the last one
  if (keys.pending.length === 0) keys.target = data.part;
  if (keys.shown !== data.part) {
    if (keys.shown !== null || data.scroll) bringIntoView(keys, data.anchor);
    keys.shown = data.part;
  }
  if (!keys.onKeyDown) {
    keys.onKeyDown = (event) => {
      const step = stepOf(event);
      if (step === 0 || ownsKeys(event)) return;
      event.preventDefault();  // no scrolling, no button pressed by Space, no radio group moved by the arrows
      event.stopPropagation();
      const target = Math.min(keys.parts, Math.max(1, keys.target + step));
      if (target === keys.target) return;
      keys.target = target;
      // a state value, not a trigger: one that arrives during a rerun is not wiped at that rerun's end; the
      // press's stamp makes every press a change, also back to a part already asked for
      const at = Date.now();
      const press = at + "-" + (++keys.count);  // the count tells this mount's presses apart, the time other mounts'
      keys.pending.push({ press, at });
      keys.send("part", { part: target, press });
    };
    keys.onKeyUp = (event) => {
      if (event.key === " " && !ownsKeys(event)) event.preventDefault();  // a focused button clicks on Space's keyup
    };
    document.addEventListener("keydown", keys.onKeyDown, true);
    document.addEventListener("keyup", keys.onKeyUp, true);
  }
  return () => {
    if (keys.unpin) keys.unpin();
    document.removeEventListener("keydown", keys.onKeyDown, true);
    document.removeEventListener("keyup", keys.onKeyUp, true);
    window.__attentionPartKeys = undefined;
  };
}
""".replace("__PENDING_MS__", str(PENDING_MS))

_part_keys = st.components.v2.component("attention_part_keys", js=_JS)


def _last_press(key: str) -> dict:
    """The last press the component sent: {"part": the part it asks for, "press": its stamp}, or {}."""
    value = state.widget_value(key)
    press = value.get("part") if isinstance(value, dict) else None
    return press if isinstance(press, dict) else {}


def part_keys_ui(part: int, parts: int, *, key: str, anchor: str, scroll: bool, on_part: Callable[[int], None]) -> None:
    """Listen to the presenter's keys while this page is shown: `on_part(target)` runs (as a callback, before
    the rerun) with the part a press asks for. `anchor` is the key of the container whose top a new part brings
    into view; `scroll` also does it when the page first shows (presentation mode)."""

    def _on_part() -> None:
        target = _last_press(key).get("part")
        if isinstance(target, int) and 1 <= target <= parts:
            on_part(target)

    press = _last_press(key).get("press")
    _part_keys(
        key=key,
        data={
            "part": int(part),
            "parts": int(parts),
            "anchor": anchor,
            "scroll": bool(scroll),
            "press": press if isinstance(press, str) else None,  # the last press applied: the stamp it came with
        },
        on_part_change=_on_part,
        height=0,
    )
