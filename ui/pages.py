"""The page registry: app.py builds the navigation from it and the home page draws its map from it."""

from typing import NamedTuple


class PageSpec(NamedTuple):
    path: str  # file under pages/
    key: str  # strings: "page.<key>" is its title, "home.map.<key>" its line on the home map
    icon: str
    url_path: str  # must differ from the file's stem: Streamlit also sees pages/ as an old-style page folder, and
    # a request for a page whose URL equals a file stem there would run that file alone, without app.py's sidebar.


PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/home.py", "home", ":material/home:", "start"),
    PageSpec("pages/softmax_playground.py", "softmax", ":material/bar_chart:", "softmax"),
    PageSpec("pages/walkthrough.py", "walkthrough", ":material/footprint:", "step-by-step"),
    PageSpec("pages/qkv_builder.py", "builder", ":material/grid_on:", "builder"),
    PageSpec("pages/scaling_experiment.py", "scaling", ":material/show_chart:", "scaling"),
    PageSpec("pages/full_pipeline.py", "pipeline", ":material/text_fields:", "pipeline"),
)


def page_url(base: str, spec: PageSpec) -> str:
    """The address of a page: the default (first) page lives at the root."""
    return f"{base}/" if spec == PAGES[0] else f"{base}/{spec.url_path}"
