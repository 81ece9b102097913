"""classroom.store(): one store per process, Redis when a URL is given, in-process otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import classroom
from classroom.api import ClassError
from classroom.memory import MemoryStore
from classroom.redis_store import RedisStore


def test_without_a_url_the_store_is_one_in_process_store():
    first = classroom.store(None)
    assert isinstance(first, MemoryStore) and first.embedded
    assert classroom.store() is first and classroom.store("") is first and classroom.store("  ") is first


def test_with_a_url_the_store_is_redis_and_shared(redis_server):
    shared = classroom.store(redis_server.url)
    assert isinstance(shared, RedisStore) and not shared.embedded
    assert classroom.store(redis_server.url) is shared
    code, token = shared.open_class(classroom.api.View("softmax"))
    assert classroom.store(redis_server.url).is_lecturer(code, token)


def test_the_package_imports_neither_streamlit_nor_redis_until_asked():
    code = "import sys, classroom, classroom.tally; classroom.store(); "
    code += "print('streamlit' in sys.modules, 'redis' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2]
    )
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    "url", ["localhost:6379", "http://cache:6379", "redis://cache:port/0", "rediss://u:secret@h:99999"]
)
def test_a_url_that_is_no_redis_url_says_store_unavailable_and_why(url):
    for _ in range(2):  # not kept: the next call says it again (and a fixed setting is read on the next call)
        with pytest.raises(ClassError) as refused:
            classroom.store(url)
        assert refused.value.code == "store_unavailable" and refused.value.params == {"reason": "bad_url"}
        assert "secret" not in str(refused.value) and "secret" not in repr(refused.value.params)
    with pytest.raises(ClassError):
        RedisStore(url)


def test_the_app_serves_classroom_store_and_nothing_from_the_tests():
    import ast

    from ui import live_store

    root = Path(__file__).parents[2]
    for folder in ("ui", "classroom", "engine", "pages"):
        for source in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
                assert not any(name == "tests" or name.startswith("tests.") for name in names), source
    assert live_store.store() is classroom.store(None), "the in-process store is classroom's MemoryStore"
