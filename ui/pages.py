"""The page registry: app.py builds the navigation from it and the home page draws its map from it."""

from typing import NamedTuple


class PageSpec(NamedTuple):
    path: str  # file under pages/
    key: str  # strings: "page.<key>" is its title, "home.map.<key>" its line on the home map
    icon: str
    url_path: str


PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/home.py", "home", "🏠", "home"),
    PageSpec("pages/softmax_playground.py", "softmax", "📊", "softmax"),
    PageSpec("pages/walkthrough.py", "walkthrough", "🧭", "walkthrough"),
    PageSpec("pages/qkv_builder.py", "builder", "🧮", "builder"),
    PageSpec("pages/scaling_experiment.py", "scaling", "📈", "scaling"),
    PageSpec("pages/full_pipeline.py", "pipeline", "🔤", "pipeline"),
)
