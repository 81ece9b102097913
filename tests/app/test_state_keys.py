"""Session state has one owner: every typed slot the app declares is documented in ui/state.py, under its own key."""

import ast
import importlib
import pkgutil
import re
from collections import Counter
from pathlib import Path

import pytest

import ui
from ui import state

ROOT = Path(__file__).resolve().parents[2]
# The slots this refactor introduced, one per helper at least: the collection below must find them all.
KNOWN = {
    "step",
    "answers",
    "train",
    "train_targets",
    "learn_playing",
    "learn_sent",
    "learn_section",
    "mh_part",
    "mh_choices",
    "mh_w_o",
    "scaling_section",
}


def declared_slots() -> tuple[state.Slot, ...]:
    """Every slot created when each module under ui/ is imported (pages are scripts: they declare none, below)."""
    for module in pkgutil.walk_packages(ui.__path__, "ui."):
        importlib.import_module(module.name)
    return state.slots()


def documented(section: int) -> set[str]:
    """The quoted names in ui/state.py's docstring, in section 1 (values the app owns) or 2 (widget keys)."""
    doc = state.__doc__ or ""
    values, widgets = doc.split("1. **Values the app owns**")[1].split("2. **Widget keys**")
    return set(re.findall(r'"([^"]+)"', values if section == 1 else widgets))


def test_the_collection_finds_every_helpers_slot():
    assert {slot.key for slot in declared_slots()} >= KNOWN


def test_every_slot_key_is_documented_as_a_value_the_app_owns():
    undocumented = [slot.key for slot in declared_slots() if slot.key not in documented(1)]
    assert not undocumented, f"document these keys in ui/state.py's docstring: {undocumented}"


def test_no_two_slots_share_a_key():
    shared = [key for key, n in Counter(slot.key for slot in declared_slots()).items() if n > 1]
    assert not shared


def test_no_slot_uses_a_widget_key():
    """A slot's value is the app's own; Streamlit drops a widget's key when the widget is not drawn."""
    widget_names = {name.split("<")[0] for name in documented(2)}
    clashes = [slot.key for slot in declared_slots() if slot.key in widget_names]
    assert not clashes


@pytest.mark.parametrize("script", [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))], ids=lambda p: p.name)
def test_pages_declare_no_slot(script):
    """Pages are scripts the test cannot import: a slot must live in ui/, where the checks above see it."""
    assert "Slot(" not in script.read_text(encoding="utf-8")


def test_a_slot_reads_its_default_until_set_and_stores_only_what_is_set(session, monkeypatch):
    monkeypatch.setattr(state, "_SLOTS", [])  # this test's slot stays out of the app's
    slot: state.Slot[dict[str, int]] = state.Slot("test_slot", dict)
    assert state.slots() == (slot,)
    assert slot.get() == {}
    slot.get()["a"] = 1  # the default is made for each read, never stored
    assert slot.get() == {}
    assert "test_slot" not in session
    slot.set({"b": 2})
    assert session["test_slot"] == {"b": 2}  # under its own key: what a test's session_state reads
    assert slot.get() == {"b": 2}


def test_the_walkthrough_step_and_a_widget_written_from_code(session):
    assert state.step() is None  # none before the walkthrough first shows a part
    state.set_step(3)
    assert state.step() == 3
    assert session[state.STEP] == 3
    state.set_widget("real_layer", 2)
    assert session["real_layer"] == 2
    assert state.widget_value("real_layer") == 2


def test_a_helper_that_reads_the_session_imports_it_at_the_top():
    """No ui module imports another ui module inside a function: a module that reads the session (its language, its
    mode) shows it among its imports, so that a leaf module that looks pure is pure."""
    inside = []
    for path in sorted((ROOT / "ui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                inside += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names if name.split(".")[0] == "ui"
                ]
    assert not inside, inside
