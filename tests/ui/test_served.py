"""ui/served.py: plotly.js packed once per server process, and the loader each component element carries."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from plotly.basedatatypes import BaseTraceType

from ui import served


def test_pack_writes_the_file_gzip_compressed_beside_nothing_else(tmp_path):
    source = tmp_path / "code.js"
    source.write_bytes(b"window.Plotly = {};\n" * 1000)
    folder = tmp_path / "packed"
    folder.mkdir()
    target = served.pack(source, folder)
    assert target == folder / "code.js.gz"
    assert gzip.decompress(target.read_bytes()) == source.read_bytes()
    assert len(target.read_bytes()) < len(source.read_bytes()) / 10
    assert [p.name for p in folder.iterdir()] == ["code.js.gz"]  # the partial file was renamed into place


def test_the_loader_imports_its_module_from_the_served_scripts_and_returns_the_call():
    code = served.loader("copy.js", "module.draw(component)")
    assert f'import(served("component/{served.SCRIPTS}/copy.js?v={served.VERSION}"))' in code
    assert "return module.draw(component);" in code
    assert code.startswith("function served(path)")


def test_a_served_files_url_changes_with_any_of_the_files_bytes(tmp_path):
    """The ?v= a cache in front of the servers keys on: the same files give the same version; one byte changed in
    any of them, or a renamed file, gives another."""
    one, two = tmp_path / "a.js", tmp_path / "b.js"
    one.write_text("export const a = 1;")
    two.write_text("export const b = 2;")
    before = served.version([one, two])
    assert served.version([two, one]) == before and len(before) == 12
    two.write_text("export const b = 3;")
    changed = served.version([one, two])
    two.rename(tmp_path / "c.js")
    assert len({before, changed, served.version([one, tmp_path / "c.js"])}) == 3
    assert served.version([*served.STATIC.glob("*.js"), served.PLOTLY_FILE]) == served.VERSION
    for url in (served.PLOTLY_JS, served.PLOTLY_JS_PACKED):
        assert f"_{served.VERSION}/" in url and url.endswith(f"?v={served.VERSION}")


def test_the_packed_file_is_named_to_the_browser_only_once_it_is_there(tmp_path, monkeypatch):
    """An element sent while the server still packs names only the plain file (a request for a file that is not
    there yet is a 404 in the browser's console)."""
    monkeypatch.setattr(served, "_packed_dir", [tmp_path])
    monkeypatch.setattr(served, "_packed", [])
    assert not served.packed_ready()
    (tmp_path / served.PACKED_NAME).write_bytes(gzip.compress(b"window.Plotly = {};"))
    assert served.packed_ready() and served.packed_ready()
    assert served._packed == [True]  # found once: no look at the disk per figure after that


def test_a_first_figure_waits_for_the_packing_under_way(tmp_path, monkeypatch):
    """A first page after a start asks before the thread has written the file: it waits for it (0.15 s of CPU),
    which costs the server less than Streamlit's gzip of the plain file for that browser."""
    import threading

    monkeypatch.setattr(served, "_packed_dir", [tmp_path])
    monkeypatch.setattr(served, "_packed", [])
    writing = threading.Timer(0.3, lambda: (tmp_path / served.PACKED_NAME).write_bytes(b"packed"))
    monkeypatch.setattr(served, "_packing", [writing])
    writing.start()
    assert served.packed_ready()


def test_the_bundle_is_the_plotly_js_the_installed_plotly_package_ships():
    """The figures' JSON is written by the installed plotly for its own plotly.js: the cartesian bundle served
    instead must be that same version (after an upgrade of plotly, refresh it: ui/plotly_js/README.md)."""
    from plotly.offline import get_plotlyjs_version

    head = served.PLOTLY_FILE.read_bytes()[:200].decode("ascii")
    assert re.search(r"plotly\.js \(cartesian - minified\) v(\S+)\n", head).group(1) == get_plotlyjs_version()
    readme = (served.PLOTLY_DIR / "README.md").read_text(encoding="utf-8")
    digest = hashlib.sha256(served.PLOTLY_FILE.read_bytes()).hexdigest()
    assert f"sha256: `{digest}`" in readme  # the file is the one the README names, unchanged
    assert f"**{get_plotlyjs_version()}**" in readme


def test_every_trace_type_the_app_draws_is_in_the_bundle():
    """Every figure is a dict written in ui/ ("type": "<trace>"); a trace type the bundle lacks would draw nothing."""
    import plotly.graph_objects as go

    traces = {
        name.lower()
        for name in dir(go)
        if isinstance(getattr(go, name), type) and issubclass(getattr(go, name), BaseTraceType)
    }
    root = Path(served.__file__).parent
    written = {
        kind
        for path in root.rglob("*.py")
        for kind in re.findall(r"""["']type["']\s*:\s*["'](\w+)["']""", path.read_text(encoding="utf-8"))
        if kind in traces
    }
    assert {"heatmap", "scatter", "bar"} <= written  # what the app draws today
    assert written <= served.BUNDLE_TRACES
    assert traces >= served.BUNDLE_TRACES  # names plotly knows
