"""The one owner of session state. Every key the app keeps lives here, with what it holds.

Keys:
- "lang": "es" or "en", set by the sidebar's language switch.
- "presentation": bool, the sidebar's presentation-mode toggle.
- "scenario": the engine's `Scenario` every lesson page works on (tokens, x, W_Q, W_K, W_V, options).
- "scenario_rev": int, bumped whenever the matrices or tokens may have changed (an edit, a preset, a link,
  an upload); the data editors' keys include it, so they are rebuilt from the scenario and never fed their
  own output (that loses every second edit).
- "opt_scale", "opt_temperature", "opt_causal": the builder's option widgets, mirrors of the scenario's
  options; dropped when the scenario is replaced from elsewhere, so they show the new values.
- "share_link_error": (string key, field) of a link or upload that could not be read, shown once.
- "share_open": whether the share popover is open (its content is built only then).
- "scenario_errors": list of (code, params) from the last edit that was refused, shown once.
- "focus_query", "focus_key": the token names chosen for derivations, kept across pages.
- "softmax_scores" (+ "_rev"): the softmax playground's own list of scores.
- Page widgets that keep their value across page switches use Streamlit's `persist_state="session"` under
  their own keys: "softmax_temperature", "random_seed", "scaling_walks", "scaling_steps", "scaling_dks",
  "scaling_samples", "scaling_seed", "scaling_row_dk", "scaling_row_length", "scaling_row_seed",
  "pipeline_sentence", "pipeline_d_model", "pipeline_weights", "pipeline_seed", "pipeline_causal".
- "step": the walkthrough's step, bound to the URL query parameter of the same name.
- "walk_inputs_open", "pipeline_matrices_open", "builder.edit_open": whether those folded expanders are open
  (their content is built only then).
- "scaling_section": the scaling page's open section ("idea", "walk", "experiment", "row", "summary"); its
  tabs widget is "scaling_tabs_<lang>", since its labels change with the language.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine import Scenario, lesson_scenario, random_scenario
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES

LANG = "lang"
PRESENTATION = "presentation"
SCENARIO = "scenario"
SCENARIO_REV = "scenario_rev"
SCENARIO_ERRORS = "scenario_errors"
FOCUS_QUERY = "focus_query"
FOCUS_KEY = "focus_key"
SHARE_OPEN = "share_open"


def current_language() -> str:
    lang = st.session_state.get(LANG, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def presentation_mode() -> bool:
    return bool(st.session_state.get(PRESENTATION, False))


def get_scenario() -> Scenario:
    """The shared scenario, created as the lesson's example on first use."""
    if SCENARIO not in st.session_state:
        st.session_state[SCENARIO] = lesson_scenario()
        st.session_state[SCENARIO_REV] = 0
    return st.session_state[SCENARIO]


def scenario_rev() -> int:
    get_scenario()
    return st.session_state[SCENARIO_REV]


OPTION_WIDGETS = ("opt_scale", "opt_causal", "opt_temperature")  # widget keys of the scenario's options


def set_scenario(scenario: Scenario, *, from_option_widget: bool = False) -> None:
    """Replace the shared scenario (call from widget callbacks); editors and option widgets follow it.

    An option widget that changed the scenario already shows the new value and leaves the matrices alone,
    so then neither the editors are rebuilt nor the option widgets reset: a slider step stays cheap.
    """
    st.session_state[SCENARIO] = scenario
    if from_option_widget:
        return
    st.session_state[SCENARIO_REV] = st.session_state.get(SCENARIO_REV, 0) + 1
    for key in OPTION_WIDGETS:
        st.session_state.pop(key, None)


def reset_scenario() -> None:
    set_scenario(lesson_scenario())


def randomize_scenario(seed: int) -> None:
    """Seeded random x and weights, keeping the current token names and sizes."""
    current = get_scenario()
    set_scenario(random_scenario(seed, current.tokens, current.d_model, current.d_k))


def report_errors(errors: list[tuple[str, dict]]) -> None:
    st.session_state[SCENARIO_ERRORS] = list(errors)


def pop_errors() -> list[tuple[str, dict]]:
    return st.session_state.pop(SCENARIO_ERRORS, [])


def get_list(state_key: str, default) -> np.ndarray:
    """A page's own editable list of numbers (e.g. the softmax scores), created from `default`."""
    if state_key not in st.session_state:
        st.session_state[state_key] = np.asarray(default, dtype=np.float64)
    return st.session_state[state_key]


def set_list(state_key: str, values) -> None:
    st.session_state[state_key] = np.asarray(values, dtype=np.float64)
    st.session_state[state_key + "_rev"] = list_rev(state_key) + 1


def list_rev(state_key: str) -> int:
    return st.session_state.get(state_key + "_rev", 0)
