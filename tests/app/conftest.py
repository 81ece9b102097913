"""Fixtures shared by the AppTest and callback tests."""

import pytest
import streamlit


@pytest.fixture
def session(monkeypatch):
    """A plain dict standing in for st.session_state, so widget callbacks run as Streamlit runs them."""
    fake: dict = {}
    monkeypatch.setattr(streamlit, "session_state", fake)
    return fake
