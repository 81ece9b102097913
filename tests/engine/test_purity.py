"""The engine stays pure numpy: no UI or dataframe library in its source or its import graph."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = ("streamlit", "plotly", "pandas")
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Every module an `import` or `from ... import` in the file names (including dynamic __import__ strings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in {"__import__", "import_module"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def test_engine_has_the_expected_source_files():
    names = {p.name for p in ENGINE_FILES}
    expected = {"__init__.py", "softmax.py", "attention.py", "derivation.py", "scaling.py"}
    expected |= {"pipeline.py", "presets.py", "scenario.py", "errors.py"}
    assert expected <= names


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_source_does_not_import_ui_or_dataframe_libraries(path):
    modules = imported_modules(path)
    bad = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"{path.name} imports {bad}"


def test_import_scan_detects_forbidden_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import numpy as np\nfrom plotly import graph_objects\nimport streamlit.components\n")
    assert {m.split(".")[0] for m in imported_modules(sample)} == {"numpy", "plotly", "streamlit"}


def test_importing_engine_in_fresh_process_does_not_load_ui_or_dataframe_libraries():
    code = (
        "import json, sys; import engine; "
        "from engine.pipeline import pipeline; pipeline('el perro come'); "
        "engine.scaling_experiment([4], samples=64, seed=0); "
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {list(FORBIDDEN)!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == []
