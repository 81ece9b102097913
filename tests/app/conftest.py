"""Fixtures shared by the AppTest and callback tests."""

import pytest
import streamlit
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
from streamlit.testing.v1 import AppTest

from ui import state


@pytest.fixture
def session(monkeypatch):
    """A plain dict standing in for st.session_state, so widget callbacks run as Streamlit runs them."""
    fake: dict = {}
    monkeypatch.setattr(streamlit, "session_state", fake)
    return fake


@pytest.fixture
def downloads(monkeypatch):
    """Every file a download button offers in the AppTest runs: {file id: (content, file name)}, or for a download
    built at click time (data=callable) {its deferred id: (the callable, file name)}; read one with
    tests.app.helpers.downloaded."""
    offered: dict[str, tuple[bytes, str | None]] = {}

    class Kept(MemoryMediaFileStorage):
        def load_and_get_id(self, path_or_data, mimetype, kind, filename=None):
            file_id = super().load_and_get_id(path_or_data, mimetype, kind, filename)
            offered[file_id] = (path_or_data if isinstance(path_or_data, bytes) else path_or_data.encode(), filename)
            return file_id

    class Deferred(MediaFileManager):  # a download built at click time: its callable, run by `downloaded`
        def add_deferred(self, data_callable, mimetype, coordinates, file_name=None, *, element_id=""):
            file_id = super().add_deferred(data_callable, mimetype, coordinates, file_name, element_id=element_id)
            offered[file_id] = (data_callable, file_name)
            return file_id

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", Kept)
    monkeypatch.setattr(app_test_module, "MediaFileManager", Deferred)
    return offered


@pytest.fixture(autouse=True)
def no_model_download(monkeypatch):
    """No app test downloads the real model (470 MB) from the hub: a click on the real-model page's download
    button (the widget fuzzing clicks every button) gets the offline answer at once. Tests of the download put
    their own stand-in over this one."""
    from engine import model_files
    from engine.errors import EngineInputError

    def offline(cache_dir=None, **kwargs):
        raise EngineInputError("model_offline", "no downloads in tests", repo=model_files.MODEL_REPO)

    monkeypatch.setattr(model_files, "download_model", offline)


@pytest.fixture(autouse=True)
def formats_in_the_apps_language(monkeypatch):
    """Before each run, AppTest serialises the widgets' states in the test's own thread, calling the app's
    `format_func`s there (a browser sends indices and never does). Outside a script run the app cannot read the
    session's language, so a selectbox whose labels are numbers in the reader's language (5,000 / 5.000) would
    no longer find its own value among its labels. Here, and only outside a script run, the language is the
    session's of the AppTest that is about to run: what the labels were drawn with."""
    running: list[AppTest] = []
    original_run, original_language = AppTest.run, state.current_language

    def run(self, *args, **kwargs):
        running[:] = [self]
        return original_run(self, *args, **kwargs)

    def current_language() -> str:
        if get_script_run_ctx(suppress_warning=True) is None and running and "lang" in running[0].session_state:
            return running[0].session_state["lang"]
        return original_language()

    monkeypatch.setattr(AppTest, "run", run)
    monkeypatch.setattr(state, "current_language", current_language)


@pytest.fixture
def fresh_server(monkeypatch, tmp_path):
    """A fresh server for the real-model page: no model loaded, no download kept, an empty hub cache and no model
    directory named (unless the test names one)."""
    import streamlit as st
    from huggingface_hub import constants

    from engine import model_files

    st.cache_resource.clear()
    monkeypatch.delenv(model_files.MODEL_DIR_VARIABLE, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    yield
    st.cache_resource.clear()
