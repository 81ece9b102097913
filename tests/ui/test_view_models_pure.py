"""The view-models stay pure: importing one loads no Streamlit, no plotly and no session state or strings layer,
so they run (and are tested) without a page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEW_MODELS = sorted(path.stem for path in (ROOT / "ui" / "view_models").glob("*.py") if path.stem != "__init__")
FORBIDDEN = ("streamlit", "plotly", "pandas", "ui.state", "ui.i18n", "ui.charts", "ui.sections")


def test_there_are_view_models_to_check():
    assert {"learning", "multihead"} <= set(VIEW_MODELS)


@pytest.mark.parametrize("name", VIEW_MODELS)
def test_a_view_model_imports_nothing_that_draws_or_reads_the_session(name):
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module('ui.view_models.{name}')\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=True).stdout)
    bad = sorted(m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert bad == []
