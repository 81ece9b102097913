"""The app's own browser code (`ui/static/*.js`: the figure component's and the copy buttons') and plotly.js (the
installed `plotly` package's `plotly.min.js`), served by Streamlit's component file route: each folder is
declared with `st.components.v1.declare_component(path=...)`, once per server, and never drawn. Nothing is
vendored and no CDN is asked, so it works offline and on Community Cloud.

An `st.components.v2` component carries its code in every element of every run; the app's components carry only
a small loader (`loader`) that imports their module once (the browser keeps it for every element) and hands it
the element.
"""

from __future__ import annotations

from pathlib import Path

import plotly
import streamlit.components.v1 as components_v1

STATIC = Path(__file__).resolve().parent / "static"
PLOTLY_DIR = Path(plotly.__file__).resolve().parent / "package_data"  # plotly.min.js, as the package ships it
SCRIPTS = f"{__name__}.scripts"  # the names Streamlit gives the two served folders (module.name)
PLOTLY = f"{__name__}.plotly_js"
PLOTLY_JS = f"component/{PLOTLY}/plotly.min.js"
_served_by: list[object] = []  # the runtime the two folders were declared to (one per server process)

# The server's root, found from Streamlit's own script (so a base URL path or a host's prefix is kept)
_SERVED = """function served(path) {
  const index = document.querySelector('script[type=module][src*="/static/js/index"]');
  return new URL(path, index ? new URL("../../", index.src) : new URL("./", location.href)).href;
}
"""


def serve_files() -> None:
    """Declare the folders of the app's scripts and of plotly.min.js to this server's component file route, once."""
    from streamlit.runtime import Runtime

    if not Runtime.exists() or (_served_by and _served_by[0] is Runtime.instance()):
        return
    served = (
        components_v1.declare_component("scripts", path=STATIC).name,
        components_v1.declare_component("plotly_js", path=PLOTLY_DIR).name,
    )
    assert served == (SCRIPTS, PLOTLY), served  # the loaders' URLs
    _served_by[:] = [Runtime.instance()]


def loader(script: str, call: str) -> str:
    """A component's code: import `ui/static/<script>` and return `call`, an expression over the imported module
    (`module`), the element (`component`) and `served(path)` (a served path's URL)."""
    return (
        _SERVED
        + "export default async function (component) {\n"
        + f'  const module = await import(served("component/{SCRIPTS}/{script}"));\n'
        + f"  return {call};\n"
        + "}\n"
    )
