"""The page registry: the sidebar's menu and the home page's map are drawn from it.

Pages are files under pages/ (Streamlit's own multipage folder) and app.py is the home page. Streamlit's own
page list is hidden (client.showSidebarNavigation = false) and the sidebar shows this one instead, translated:
that is Streamlit's documented way to keep a pages/ folder with a custom menu, and a deep link such as
/walkthrough?step=3 works on the very first request to a fresh server (no st.navigation has to have run).
A page's address is its file name: /walkthrough, /builder, ...
"""

from __future__ import annotations

from typing import NamedTuple


class PageSpec(NamedTuple):
    """One page of the app: its script, its strings key and its menu icon."""

    path: str  # the script, relative to the project root
    key: str  # strings: "page.<key>" is its menu entry, "home.map.<key>" its line on the home map
    icon: str
    prefix: str = ""  # its own strings' prefix, when it is not the key ("walk.title", "mh.lead", ...)

    @property
    def title_key(self) -> str:
        """The strings key of the page's heading: "<prefix>.title"."""
        return f"{self.prefix or self.key}.title"

    @property
    def url_path(self) -> str:
        """The page's address: "" for the home page, else the file's name without .py."""
        return "" if self.path == "app.py" else self.path.removeprefix("pages/").removesuffix(".py")


PAGES: tuple[PageSpec, ...] = (
    PageSpec("app.py", "home", ":material/home:"),
    PageSpec("pages/softmax.py", "softmax", ":material/bar_chart:"),
    PageSpec("pages/walkthrough.py", "walkthrough", ":material/footprint:", "walk"),
    PageSpec("pages/multihead.py", "multihead", ":material/view_column:", "mh"),
    PageSpec("pages/builder.py", "builder", ":material/grid_on:"),
    PageSpec("pages/learning.py", "learning", ":material/model_training:", "learn"),
    PageSpec("pages/scaling.py", "scaling", ":material/show_chart:"),
    PageSpec("pages/pipeline.py", "pipeline", ":material/text_fields:"),
    PageSpec("pages/real_model.py", "real_model", ":material/psychology:", "real"),
)
PAGE_BY_KEY = {spec.key: spec for spec in PAGES}


def page_url(base: str, spec: PageSpec) -> str:
    """The address of a page on a server at `base`."""
    return f"{base}/{spec.url_path}"
