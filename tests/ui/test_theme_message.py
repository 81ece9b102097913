"""ui/theme_message.py: the theme of Streamlit's new_session message from a kept copy, byte for byte Streamlit's."""

from __future__ import annotations

import inspect

import pytest
from streamlit import config
from streamlit.proto.NewSession_pb2 import CustomThemeConfig
from streamlit.runtime import app_session

from ui import theme_message

# the six sections Streamlit 1.67's _create_new_session_message fills, in its order
SECTIONS = ["theme", "theme.light", "theme.dark", "theme.sidebar", "theme.light.sidebar", "theme.dark.sidebar"]


def streamlits(section: str) -> bytes:
    msg = CustomThemeConfig()
    theme_message._original(msg, section)
    return msg.SerializeToString()


def kept(section: str) -> bytes:
    msg = CustomThemeConfig()
    theme_message.populate_theme_msg(msg, section)
    return msg.SerializeToString()


@pytest.fixture
def fresh(monkeypatch):
    """Nothing kept from another test, and the config's options as they were afterwards."""
    monkeypatch.setattr(theme_message, "_built", {})
    monkeypatch.setattr(theme_message, "_keys", {})
    config.get_config_options()
    before = {key: config.get_option(key) for key in ("theme.light.primaryColor", "theme.dark.font")}
    yield
    for key, value in before.items():
        config.set_option(key, value)


@pytest.mark.parametrize("section", SECTIONS)
def test_each_section_is_streamlits_own_message_built_once_then_kept(fresh, section, monkeypatch):
    calls = []
    original = theme_message._original
    monkeypatch.setattr(theme_message, "_original", lambda msg, sec: (calls.append(sec), original(msg, sec)))
    expected = streamlits(section)
    calls.clear()
    assert kept(section) == expected
    assert kept(section) == expected
    assert calls == [section]  # built at the first call, kept for the second


def test_the_apps_theme_has_colours_in_its_light_and_dark_sections(fresh):
    """The comparison above compares something: the app's config.toml sets both themes' colours."""
    assert CustomThemeConfig.FromString(kept("theme.light")).primary_color
    assert CustomThemeConfig.FromString(kept("theme.dark")).primary_color


def test_a_changed_theme_builds_a_new_message(fresh):
    light = kept("theme.light")
    config.set_option("theme.light.primaryColor", "#123456")
    changed = kept("theme.light")
    assert changed != light
    assert changed == streamlits("theme.light")
    assert CustomThemeConfig.FromString(changed).primary_color == "#123456"
    config.set_option("theme.dark.font", "serif")
    assert kept("theme.dark") == streamlits("theme.dark")


def test_the_message_is_merged_into_the_one_streamlit_fills(fresh):
    """Streamlit fills sub-messages of one new_session in turn (custom_theme, then its light, ...): each call adds
    its section and leaves the others as they are."""
    whole, expected = CustomThemeConfig(), CustomThemeConfig()
    for section, part in [("theme", ""), ("theme.light", "light"), ("theme.dark", "dark")]:
        theme_message.populate_theme_msg(getattr(whole, part) if part else whole, section)
        theme_message._original(getattr(expected, part) if part else expected, section)
    assert whole.SerializeToString() == expected.SerializeToString()


def test_installed_in_streamlits_place_once_and_the_switch_leaves_streamlits(monkeypatch):
    monkeypatch.setattr(app_session, "_populate_theme_msg", theme_message._original)
    monkeypatch.setattr(theme_message, "SWITCH", "streamlit")
    assert theme_message.install() is False
    assert app_session._populate_theme_msg is theme_message._original
    monkeypatch.setattr(theme_message, "SWITCH", "cached")
    assert theme_message.install() is True
    assert app_session._populate_theme_msg is theme_message.populate_theme_msg
    assert theme_message.install() is True


def test_the_pinned_streamlit_still_builds_each_run_s_theme_by_that_function():
    """What the copy stands in for: the function by that name and signature, called for the six sections when a
    new_session message is made (a Streamlit that renamed or reordered them would need this module looked at)."""
    assert list(inspect.signature(theme_message._original).parameters) == ["msg", "section"]
    source = inspect.getsource(app_session.AppSession._create_new_session_message)
    assert source.count("_populate_theme_msg(") == len(SECTIONS)
    for category in ("LIGHT", "DARK", "SIDEBAR", "LIGHT_SIDEBAR", "DARK_SIDEBAR"):
        assert f"CustomThemeCategories.{category}.value" in source
