"""Fixtures shared by the AppTest and callback tests."""

import pytest
import streamlit


@pytest.fixture
def session(monkeypatch):
    """A plain dict standing in for st.session_state, so widget callbacks run as Streamlit runs them."""
    fake: dict = {}
    monkeypatch.setattr(streamlit, "session_state", fake)
    return fake


@pytest.fixture(autouse=True)
def no_model_download(monkeypatch):
    """No app test downloads the real model (470 MB) from the hub: a click on the real-model page's download
    button (the widget fuzzing clicks every button) gets the offline answer at once. Tests of the download put
    their own stand-in over this one."""
    from engine import model_files
    from engine.errors import EngineInputError

    def offline(cache_dir=None):
        raise EngineInputError("model_offline", "no downloads in tests", repo=model_files.MODEL_REPO)

    monkeypatch.setattr(model_files, "download_model", offline)
