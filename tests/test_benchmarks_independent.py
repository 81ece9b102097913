"""The benchmarks do not depend on the test suite: nothing under benchmarks/ imports `tests`, and neither does the
harness they share with the tests (harness/), through which they could reach it indirectly."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_purity import imported_modules

ROOT = Path(__file__).resolve().parents[1]
CHECKED_FILES = sorted((ROOT / "benchmarks").rglob("*.py")) + sorted((ROOT / "harness").rglob("*.py"))


def imports_of_the_suite(path: Path) -> list[str]:
    return sorted(m for m in imported_modules(path) if m.split(".")[0] == "tests")


def test_the_benchmarks_and_the_harness_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in CHECKED_FILES}
    assert {"benchmarks/bench_encoder.py", "benchmarks/bench_cold_start.py", "harness/tiny_model.py"} <= names


@pytest.mark.parametrize("path", CHECKED_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_file_does_not_import_the_test_suite(path):
    assert not imports_of_the_suite(path), f"{path.relative_to(ROOT)} imports {imports_of_the_suite(path)}"


def test_the_scan_finds_imports_of_the_test_suite_at_any_depth(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import testsuite\nfrom harness.tiny_model import write_model\n"
        "def f():\n    from tests.fixtures.tiny_model import SENTENCE\n    import tests.app.helpers\n"
    )
    assert imports_of_the_suite(sample) == ["tests.app.helpers", "tests.fixtures.tiny_model"]
