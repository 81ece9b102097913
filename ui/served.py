"""The app's own browser code (`ui/static/*.js`: the figure component's and the copy buttons') and plotly.js,
served by Streamlit's component file route: each folder is declared with
`st.components.v1.declare_component(path=...)`, once per server, and never drawn. No CDN is asked, so it works
offline and on Community Cloud.

plotly.js is plotly's own cartesian bundle (`ui/plotly_js/`: the npm package plotly.js-cartesian-dist-min, of
the plotly.js version the installed `plotly` package ships, checked by tests/ui/test_served.py), not the package's
`plotly.min.js`: it has every trace type the app draws (BUNDLE_TRACES) in 1.5 MB instead of 4.8, and a browser
runs it in less than half the time, the largest part of a first page's wait in the browser (measured:
benchmarks/README.md, "plotly.js: the cartesian bundle"). ui/plotly_js/README.md says how to refresh it.

An `st.components.v2` component carries its code in every element of every run; the app's components carry only
a small loader (`loader`) that imports their module once (the browser keeps it for every element) and hands it
the element.

plotly.js is also served packed (`plotly-cartesian.min.js.gz`, written once per server process into a folder of its
own): Streamlit compresses every response of the component route again for each request (it leaves only its own
/static/ files alone), which for the full plotly.js's 4.8 MB cost the server about 180 ms of CPU per new browser
(measured: benchmarks/README.md, "Joining"). A file that is already gzip is sent as it is (`application/gzip`, which
the compression skips), and figure.js unpacks it in the browser (`DecompressionStream`); a browser without it takes
the plain file, and so does an element sent while the server has no packed file (`packed_ready`: the packing failed,
or took longer than PACK_WAIT_S), so that no browser ever asks for a file that is not there.
"""

from __future__ import annotations

import atexit
import gzip
import hashlib
import os
import shutil
import tempfile
import threading
from pathlib import Path

import streamlit.components.v1 as components_v1

STATIC = Path(__file__).resolve().parent / "static"
PLOTLY_DIR = Path(__file__).resolve().parent / "plotly_js"  # plotly's cartesian bundle, as npm ships it
PLOTLY_NAME = "plotly-cartesian.min.js"
PLOTLY_FILE = PLOTLY_DIR / PLOTLY_NAME
# The trace types the bundle registers (its README; tests/e2e/test_figure_script.py asks plotly.js itself): every
# figure the app draws uses only these (tests/ui/test_served.py reads the figures' code for them).
BUNDLE_TRACES = frozenset(
    {
        "bar",
        "box",
        "contour",
        "heatmap",
        "histogram",
        "histogram2d",
        "histogram2dcontour",
        "image",
        "pie",
        "scatter",
        "scatterternary",
        "violin",
    }
)


def version(paths: list[Path]) -> str:
    """A short digest of the files' names and bytes. The served files' URLs carry it twice: in the folder's name
    (Streamlit's file route answers only the names this process declared) and as `?v=` (which the route ignores),
    the sign for a cache in front of the servers that the file may be kept (deploy/haproxy.cfg keeps /component/
    files that have one). A new file is a new URL, and a replica of another version answers it with a 404, which no
    cache keeps: no browser is handed another version's script."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


VERSION = version([*STATIC.glob("*.js"), PLOTLY_FILE])  # 1.6 MB read once per process: 1.4 ms here


def folder_name(folder: str) -> str:
    """The name a served folder is declared under, with the version (`version`)."""
    return f"{folder}_{VERSION}"


# the names Streamlit gives the three served folders (module.name)
SCRIPTS, PLOTLY, PACKED = (f"{__name__}.{folder_name(f)}" for f in ("scripts", "plotly_js", "plotly_packed"))
PLOTLY_JS = f"component/{PLOTLY}/{PLOTLY_NAME}?v={VERSION}"
PACKED_NAME = PLOTLY_NAME + ".gz"
PLOTLY_JS_PACKED = f"component/{PACKED}/{PACKED_NAME}?v={VERSION}"
_served_by: list[object] = []  # the runtime the three folders were declared to (one per server process)
_packed_dir: list[Path] = []  # the folder the packed plotly.js is written into, this process's own
_packed: list[bool] = []  # [True] once the packed plotly.js is there
_packing: list[threading.Thread] = []  # the thread that writes it
PACK_WAIT_S = 2.0  # the longest a first figure waits for the packing under way (0.07 s of CPU) before taking the plain

# The server's root, found from Streamlit's own script (so a base URL path or a host's prefix is kept)
_SERVED = """function served(path) {
  const index = document.querySelector('script[type=module][src*="/static/js/index"]');
  return new URL(path, index ? new URL("../../", index.src) : new URL("./", location.href)).href;
}
"""


def pack(source: Path, folder: Path) -> Path:
    """`source` gzip-compressed into `folder` under its name + ".gz" (written whole, then renamed into place, so a
    request never reads half of it); the path written. Level 6: the full plotly.min.js took 0.15 s of CPU to
    1,472 kB, where level 9 took 0.19 s for 1,469 kB (measured here)."""
    target = folder / (source.name + ".gz")
    partial = folder / f".{target.name}.{os.getpid()}.partial"
    partial.write_bytes(gzip.compress(source.read_bytes(), compresslevel=6, mtime=0))
    partial.replace(target)
    return target


def _packed_folder() -> Path:
    """This process's folder for the packed plotly.js, made once and removed when the process ends; the packing
    (0.07 s of CPU) runs in a thread of its own, so no page waits for it."""
    if not _packed_dir:
        folder = Path(tempfile.mkdtemp(prefix="attention-plotly-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        thread = threading.Thread(target=pack, args=(PLOTLY_FILE, folder), daemon=True)
        thread.start()
        _packing.append(thread)
        _packed_dir.append(folder)
    return _packed_dir[0]


def packed_ready() -> bool:
    """Whether this server sends plotly.js packed now (packed, in place, and declared to its file route). The first
    figure after a start waits for the packing under way (started by `serve_files` at the top of the first page,
    it is mostly done by then): a browser sent the plain file instead costs Streamlit's gzip more CPU than that."""
    if not _packed and _packed_dir:
        for thread in _packing:
            thread.join(timeout=PACK_WAIT_S)
        if (_packed_dir[0] / PACKED_NAME).exists():
            _packed.append(True)
    return bool(_packed)


def serve_files() -> None:
    """Declare the folders of the app's scripts and of plotly.js (plain and packed) to this server's component
    file route, once."""
    from streamlit.runtime import Runtime

    if not Runtime.exists() or (_served_by and _served_by[0] is Runtime.instance()):
        return
    served = (
        components_v1.declare_component(folder_name("scripts"), path=STATIC).name,
        components_v1.declare_component(folder_name("plotly_js"), path=PLOTLY_DIR).name,
        components_v1.declare_component(folder_name("plotly_packed"), path=_packed_folder()).name,
    )
    assert served == (SCRIPTS, PLOTLY, PACKED), served  # the loaders' URLs
    _served_by[:] = [Runtime.instance()]


def loader(script: str, call: str) -> str:
    """A component's code: import `ui/static/<script>` and return `call`, an expression over the imported module
    (`module`), the element (`component`) and `served(path)` (a served path's URL)."""
    return (
        _SERVED
        + "export default async function (component) {\n"
        + f'  const module = await import(served("component/{SCRIPTS}/{script}?v={VERSION}"));\n'
        + f"  return {call};\n"
        + "}\n"
    )
