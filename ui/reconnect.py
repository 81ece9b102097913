"""After a server restart, the page the browser still shows is run again at once, in the new session.

When the server restarts (Community Cloud wakes a sleeping app, a redeploy), Streamlit's page reconnects to a new
session but shows the old page until the reader's next click, which then runs in a session that knows nothing:
the first click used to show the lesson's example. Everything a reader set is in the address bar (ui.url: the
language, presentation mode, the questions switch, the walkthrough's part and the edited scenario), so a run of
the page in the new session shows the page as it was. This tiny `st.components.v2` component, in the page's own
document (no iframe), watches the connection state Streamlit writes on its app element and, when the connection
comes back after it was lost, asks for that run (a trigger value: a rerun with the address bar's query string).
A reconnect to the same session (a network blip) reruns the page too, which changes nothing.

The JavaScript is a fixed constant: nothing a user typed or a URL carried goes into it.
"""

from __future__ import annotations

import streamlit as st

KEY = "reconnect_watch"

_JS = r"""
const CONNECTED = "CONNECTED";

export default function (component) {
  const { setTriggerValue } = component;
  // One watcher per page, whatever the number of reruns and page switches: this function runs on every mount.
  const watch = window.__attentionReconnect || (window.__attentionReconnect = {});
  watch.send = setTriggerValue;
  const app = document.querySelector("[data-testid=stApp]");
  if (!watch.observer && app) {
    watch.state = app.getAttribute("data-test-connection-state");
    watch.observer = new MutationObserver(() => {
      const now = app.getAttribute("data-test-connection-state");
      if (now === CONNECTED && watch.state !== CONNECTED) watch.send("reconnected", Date.now());
      watch.state = now;
    });
    watch.observer.observe(app, { attributes: true, attributeFilter: ["data-test-connection-state"] });
  }
  return () => {
    if (watch.observer) watch.observer.disconnect();
    window.__attentionReconnect = undefined;
  };
}
"""

_watch = st.components.v2.component("attention_reconnect", js=_JS)


def _reconnected() -> None:
    """Nothing to do: the run the trigger asks for is what redraws the page (in a new session it never runs)."""


def reconnect_ui() -> None:
    """Watch the connection while this page is shown (drawn at the end of the sidebar: no gap in the page)."""
    _watch(key=KEY, on_reconnected_change=_reconnected, height=0)
