"""requirements.txt is the whole runtime set, pinned: Streamlit Community Cloud installs from it alone.

Whole: every package a pinned package needs (its installed metadata, markers evaluated here) is pinned too. Tested:
the versions pinned are the ones installed, which the suite runs with. One set: requirements.txt and constraints.txt
(what requirements-dev.txt installs with) name the same version of every package they share.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pins(path: Path) -> dict[str, str]:
    """{canonical name: version} of a requirements file's `name==version` lines; any other requirement line fails."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):  # comments, and options such as -c / -r
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        assert match, f"{path.name}: not pinned with ==: {line!r}"
        found[canonicalize_name(match[1])] = match[2]
    return found


def needs(name: str) -> set[str]:
    """What the installed distribution `name` requires here (extras not asked for left out)."""
    required = set()
    for text in metadata.requires(name) or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            required.add(canonicalize_name(requirement.name))
    return required


RUNTIME = pins(ROOT / "requirements.txt")
CONSTRAINTS = pins(ROOT / "constraints.txt")


def test_requirements_pins_every_package_its_packages_need():
    missing = {f"{name} (needed by {owner})" for owner in RUNTIME for name in needs(owner) if name not in RUNTIME}
    assert not missing, sorted(missing)


def test_the_pinned_versions_are_the_installed_ones():
    installed = {name: metadata.version(name) for name in RUNTIME}
    assert installed == RUNTIME


def test_requirements_and_constraints_agree_on_every_package_they_share():
    shared = RUNTIME.keys() & CONSTRAINTS.keys()
    assert len(shared) > 30, sorted(shared)  # the runtime's own packages are in both
    differ = {name: (RUNTIME[name], CONSTRAINTS[name]) for name in shared if RUNTIME[name] != CONSTRAINTS[name]}
    assert not differ, differ


def test_the_dev_requirements_install_the_runtime_under_the_constraints():
    lines = (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines()
    assert "-c constraints.txt" in lines and "-r requirements.txt" in lines
