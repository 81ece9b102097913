"""The one owner of session state: every key the app keeps is named here, with what it holds.

Pages and other helpers read and write state through this module only, never `st.session_state` directly: the
shared values through the functions below, a helper's own value through a typed `Slot` it declares next to the
value's type (`TRAIN: state.Slot[Training | None] = state.Slot("train", lambda: None)`), a widget's value through
`widget_value` and, when code must set it, `set_widget`. Every slot's key is documented below (a test checks it).

Two kinds of keys:

1. **Values the app owns** (plain session keys, never a widget's key, so Streamlit never drops them when a
   page stops drawing a widget):
   - "scenario": the `engine.Scenario` every lesson page works on (tokens, x, W_Q, W_K, W_V and the options
     scale, causal mask, temperature: the one source of truth for them).
   - "scenario_rev": int, bumped when the tokens or matrices change from outside an editor (a preset, a link,
     an upload, a resize); editors and option widgets are keyed by it, so they are rebuilt from the scenario.
   - "scenario_errors": list of (code, params) refused by the last edit, shown once by the editor's page.
   - "widget_taken": {widget key: the value last taken from that control}, for the controls keyed by a revision
     (`echoed`: an old control's value sent again after the change is no reader's choice); "widget_drawn": {family:
     the key of its control drawn last} (`new_control`, for controls whose keys come back).
   - "focus": {"query": token, "key": token}: the tokens chosen for derivations, the same on every page.
   - The settings the URL keeps (ui.url: read from a link, written back by every page run): "lang" (the
     language's code), "present" (presentation mode), "questions_on" (the questions before the answers, on by
     default), "step" (int, the walkthrough's part, 1–5, or None before the walkthrough first shows one), and
     the scenario above, whose code the URL keeps under "s" while it is not the lesson's (written on every change);
     "url_written": {query key: the text this session last wrote there, or None}, "url_ours": {query key: the
     hashes of the texts it wrote there before}, "url_read_on": the page whose run last read the URL,
     "url_refused": the keys whose values a link carried that are none of theirs, said once. The live class's
     (ui.live): "class" (the room code this session is in, or None) and "me" (a student's anonymous id, so that a
     reload keeps their answers).
   - The live class (ui.live): "live_lecturer" (a `ui.view_models.live.LecturerSeat`: the class this session teaches,
     its token and the view last published; the questions asked are the class store's history), "live_student" (a
     `StudentSeat`: the class followed, whether following, the class as last read and the student's own answers),
     "live_asked" ((page, part, QuestionRef): the question the lecturer's page asks now), "live_gates" (the gates drawn
     in this run: the first asks the class), "live_page" (the page key of this run), "live_part_page" (the page whose
     last run drew the walkthrough's part fragment, which a follower's step reruns alone), "live_error" ((code, params)
     of a refused class operation, said once), "live_answer_error" (the same for a student's answer, said by the
     question), "live_confirm_end" (whether "End class" was pressed once and waits for its confirmation),
     "live_ended_log" (the history of the class this session ended, `classroom.api.Asking`s, as the store gave it at the
     end: its tally stays downloadable in the sidebar).
   - "link_error": (strings key, field) of a link or upload that could not be read, shown once.
   - "lists": {name: np.ndarray}: a page's own editable list of numbers (the softmax scores), with
     "lists_rev": {name: int} for its editor.
   - "answers": the questions' `ui.question_book.Book` (the session's seed, each gate's draw and current question,
     one record per question answered or shown, for the tally and its download), kept for the session only.
   - "train": the learning page's current training run, if any: a `ui.view_models.learning.Training` (what it
     trains, the `engine.TrainingRun` so far, the steps asked for, and "running" / "stopped" / "done"); a run
     is trained in chunks, one fragment run each, and stored after every chunk.
   - "train_targets": {"scenario" | "sentence": `ui.view_models.learning.Target`}: the target pattern for each
     source of tokens (the matrix, the preset it came from or None when edited, the rows an edit renormalised).
   - "learn_playing": bool, the learning page's history is being played; "learn_sent": bool, the learned
     weights were sent to the shared scenario; "learn_section": the learning page's open tab.
   - "scaling_section": the scaling page's open section (tab): "idea", "walk", "experiment", "row" or "summary".
   - "mh_part": the multi-head page's open part (tab): "heads", "concat", "residual" or "compare".
   - "mh_choices": the multi-head page's choices in select boxes with translated labels, {"source": ..., "preset":
     ..., "head": ...}; the widgets are keyed by the language and drawn from it, so a language switch keeps them.
   - "mh_w_o": the multi-head page's W_O: {"kind": "identity" | "random", "seed": int, "matrix": the edited W_O or
     None (then the preset's), "rev": int, bumped on every change so that its widgets are rebuilt from it}.

   - "grids_drawn_in": bool, presentation mode as the last page run drew it; "grids_held": bool, this run leaves
     the data grids out (it switched the mode); "grids_redraw_inline": bool, the timer's fragment is being drawn by
     a page run, not run by its timer (all three ui.layout.mode_switch_ui).

2. **Widget keys** (Streamlit owns the value; listed so that no two widgets share one):
   - shell: "lang_choice" (the language radio), "page_lang" (the document's language and scrolling
     boxes, ui.document), "present_toggle" (presentation mode's switch), "exit_presentation" (its button),
     "questions_on_toggle" (the questions' switch): each control shows the setting of section 1 it is named after
     and sets it (ui.url.toggle_ui); none is bound to the URL. "reconnect_watch" (ui.reconnect: reruns the
     page when the browser reconnects after a server restart).
   - walkthrough: "walk_picker_<part>" (the part picker, rebuilt for each part), "walk_role", "walk_inputs_open",
     "walk_keys" (the presenter keys' component, ui.keys: its state "part" is the part the last key press asked
     for), "walk_scalar_come".
   - builder: "opt_scale_<rev>", "opt_temperature_<rev>", "opt_causal_<rev>" (option widgets, keyed by the
     scenario's revision), "editor_<matrix>_<rev>", "dims_<d>_<rev>", "random_seed", "builder_edit_open_<presenting>".
   - focus pickers: "pick_query_<page>", "pick_key_<page>".
   - share: "share_open", "share_copy" (the copy-link button, ui.clipboard), "upload_<rev>".
   - softmax: "softmax_temperature", "editor_softmax_scores_<rev>", "editor_softmax_scores_fold_<presenting>".
   - scaling: "scaling_tabs_<lang>", "scaling_walks", "scaling_steps", "scaling_dks", "scaling_samples",
     "scaling_seed", "scaling_row_dk", "scaling_row_length", "scaling_row_seed".
   - pipeline: "pipeline_sentence", "pipeline_d_model", "pipeline_follow", "pipeline_weights",
     "pipeline_seed", "pipeline_causal", "pipeline_matrices_open".
   - learning: "learn_tabs_<lang>", "learn_source", "learn_preset_<source>_<rev>",
     "learn_target_editor_<source>_<rev>", "learn_target_edit_open_<presenting>", "learn_optimiser",
     "learn_rate", "learn_steps", "learn_scale", "learn_start_<source>_<choices>", "learn_seed", "learn_output",
     "learn_lambda", "learn_controls_open", "learn_go", "learn_stop", "learn_play", "learn_pause", "learn_step",
     "learn_grad_row_*", "learn_grad_col_*", "learn_grad_when", "learn_stall_dk", "learn_stall_seed",
     "learn_send_button".
   - multihead: "mh_tabs_<lang>", "mh_source_<lang>", "mh_x_open", "mh_h_<d_model>", "mh_preset_<source>_<lang>",
     "mh_seed", "mh_head_<h>_<lang>", "mh_query_<source>_<rev>", "mh_key_<source>_<rev>", "mh_qkv_open",
     "mh_w_o_kind_<w_o rev>_<lang>", "mh_w_o_seed_<w_o rev>", "mh_w_o_open_<presenting>", "mh_w_o_editor_<w_o rev>",
     "mh_layer_norm".
   - real model: "real_sentence" (kept across pages by persist_state), "real_example_<lang>", "real_layer",
     "real_head" (the picked head, 0-based; set by "real_pick_best" too), "real_sort", "real_query_<n>",
     "real_key_<n>" (the derived cell's pieces, keyed by the sentence's length in pieces), "real_download",
     "real_ctx_open" (the «what attention is for» fold: its forward passes run only while it is open).
     The model itself is no session state: one per server (ui/model_source.py), as is its download.
   - figures: "figure_<key>" (the chart the figure component, ui.figure_component, keeps mounted for the figure
     drawn with `key`; its state is unused).
   - new pages keep their widget keys prefixed by the page: "mh_*", "learn_*", "real_*", "quiz_*".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt
import streamlit as st

from engine import Scenario, lesson_scenario, random_scenario
from ui.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES

# The settings the URL keeps (ui.url): each is the app's own value, under the same key as its query parameter.
LANG = "lang"
PRESENT = "present"
QUESTIONS_ON = "questions_on"
STEP = "step"
CLASS = "class"  # the live class's room code (ui.live)
ME = "me"  # a student's anonymous id in the live class (ui.live)
PARTS = 5  # the walkthrough's parts: ?step= is one of 1 to PARTS

_SCENARIO = "scenario"
_SCENARIO_REV = "scenario_rev"
_SCENARIO_ERRORS = "scenario_errors"
_FOCUS = "focus"
_LINK_ERROR = "link_error"
_LISTS = "lists"
_LISTS_REV = "lists_rev"

T = TypeVar("T")


# --- shell ---


# A document written in a language other than the page's (the handout) says so here, for the code it calls.
_WRITING_IN: ContextVar[str | None] = ContextVar("writing_in", default=None)


def current_language() -> str:
    """The language the app is shown in, the default one until a valid one is chosen; inside `written_in(lang)`,
    that language."""
    lang = _WRITING_IN.get() or st.session_state.get(LANG, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGE_NAMES else DEFAULT_LANGUAGE


@contextmanager
def written_in(lang: str) -> Iterator[None]:
    """Everything inside reads `current_language()` as `lang`: a document written in another language than the
    session's (the handout asked for in English while the page reads Spanish)."""
    token = _WRITING_IN.set(lang)
    try:
        yield
    finally:
        _WRITING_IN.reset(token)


def set_language(lang: str) -> None:
    """Show the app in `lang` (a code of ui.languages; anything else is ignored)."""
    if lang in LANGUAGE_NAMES:
        st.session_state[LANG] = lang


def presentation_mode() -> bool:
    """Whether presentation mode is on."""
    return bool(st.session_state.get(PRESENT, False))


def set_presentation_mode(on: bool) -> None:
    """Turn presentation mode on or off."""
    st.session_state[PRESENT] = bool(on)


def questions_on() -> bool:
    """Whether questions are shown (on by default)."""
    return bool(st.session_state.get(QUESTIONS_ON, True))


def set_questions_on(on: bool) -> None:
    """Show the questions before the answers, or not."""
    st.session_state[QUESTIONS_ON] = bool(on)


# --- the shared scenario ---


def get_scenario() -> Scenario:
    """The shared scenario, created as the lesson's example on first use."""
    if _SCENARIO not in st.session_state:
        st.session_state[_SCENARIO] = lesson_scenario()
        st.session_state[_SCENARIO_REV] = 0
    return st.session_state[_SCENARIO]


def scenario_rev() -> int:
    """The shared scenario's revision: editor and option widget keys carry it."""
    get_scenario()
    return st.session_state[_SCENARIO_REV]


def drawn_for_this_scenario(rev: int) -> bool:
    """Whether a control drawn for the scenario's revision `rev` (editors and option controls are keyed by it) is the
    one on the page now (an old one's value may be an echo: `echoed`; an old editor's edits are dropped)."""
    return rev == scenario_rev()


# Called after every change of the scenario, wherever it is made (a callback, a fragment's run): ui.url keeps the
# scenario's code in the address bar with it.
_SCENARIO_WATCHERS: list[Callable[[], None]] = []


def watch_scenario(watcher: Callable[[], None]) -> None:
    """Call `watcher()` after every change of the shared scenario."""
    _SCENARIO_WATCHERS.append(watcher)


def _scenario_changed() -> None:
    for watcher in _SCENARIO_WATCHERS:
        watcher()


def set_scenario(scenario: Scenario) -> None:
    """Replace the shared scenario; its editors and option widgets are rebuilt from it."""
    st.session_state[_SCENARIO] = scenario
    st.session_state[_SCENARIO_REV] = st.session_state.get(_SCENARIO_REV, 0) + 1
    _scenario_changed()


def set_option(**options: Any) -> None:
    """Change the scenario's options (scale, causal, temperature) from their own widgets: the matrices did not
    change, so neither the editors nor the option widgets are rebuilt (a slider step stays cheap)."""
    st.session_state[_SCENARIO] = replace(get_scenario(), **options)
    _scenario_changed()


def reset_scenario() -> None:
    """Go back to the lesson's example scenario."""
    set_scenario(lesson_scenario())


def randomize_scenario(seed: int) -> None:
    """Seeded random x and weights, keeping the current token names, sizes and options."""
    current = get_scenario()
    fresh = random_scenario(seed, current.tokens, current.d_model, current.d_k)
    set_scenario(replace(fresh, scale=current.scale, causal=current.causal, temperature=current.temperature))


def report_errors(errors: list[tuple[str, dict]]) -> None:
    """Keep the (code, params) errors of an edit for the editor's page to show once."""
    st.session_state[_SCENARIO_ERRORS] = list(errors)


def pop_errors() -> list[tuple[str, dict]]:
    """The errors of the last edit, removed so they show only once."""
    return st.session_state.pop(_SCENARIO_ERRORS, [])


def report_link_error(key: str, field: str) -> None:
    """Keep the strings key and field of a link or upload that could not be read, to show once."""
    st.session_state[_LINK_ERROR] = (key, field)


def pop_link_error() -> tuple[str, str] | None:
    """The unreadable link's (strings key, field), removed so it shows only once; None when there is none."""
    return st.session_state.pop(_LINK_ERROR, None)


# --- the tokens chosen for derivations, shared by every page ---


def focus(role: str, default: str) -> str:
    """The token chosen as `role` ("query" or "key"), kept valid for the current tokens: `default` (or the
    second token) when the chosen one no longer exists."""
    tokens = get_scenario().tokens
    chosen = st.session_state.setdefault(_FOCUS, {}).get(role)
    if chosen not in tokens:
        chosen = default if default in tokens else tokens[min(1, len(tokens) - 1)]
        st.session_state[_FOCUS][role] = chosen
    return chosen


def set_focus(role: str, token: str) -> None:
    """Choose `token` as the `role` ("query" or "key") on every page."""
    st.session_state.setdefault(_FOCUS, {})[role] = token


# --- a page's own list of numbers ---


def get_list(name: str, default: npt.ArrayLike) -> np.ndarray:
    """The page's list `name`, created from `default` on first use."""
    lists = st.session_state.setdefault(_LISTS, {})
    if name not in lists:
        lists[name] = np.asarray(default, dtype=np.float64)
    return lists[name]


def set_list(name: str, values: npt.ArrayLike) -> None:
    """Replace the page's list `name`; its editor is rebuilt from it."""
    st.session_state.setdefault(_LISTS, {})[name] = np.asarray(values, dtype=np.float64)
    revs = st.session_state.setdefault(_LISTS_REV, {})
    revs[name] = revs.get(name, 0) + 1


def list_rev(name: str) -> int:
    """The revision of the list `name`: its editor's key carries it."""
    return st.session_state.get(_LISTS_REV, {}).get(name, 0)


# --- a helper's own value, typed ---


class Slot(Generic[T]):
    """A value the app owns under `key` (documented above), of type T; `default()` is what it reads before a first
    `set` (it is not stored). Declared once, next to the value's type, by the helper that owns it."""

    def __init__(self, key: str, default: Callable[[], T]) -> None:
        self.key = key
        self._default = default
        _SLOTS.append(self)

    def get(self) -> T:
        """The value kept, or the default when none is."""
        if self.key in st.session_state:
            return st.session_state[self.key]
        return self._default()

    def set(self, value: T) -> None:
        """Keep `value`."""
        st.session_state[self.key] = value

    def __repr__(self) -> str:
        return f"Slot({self.key!r})"


_SLOTS: list[Slot[Any]] = []


def slots() -> tuple[Slot[Any], ...]:
    """Every slot declared so far (by the modules imported), for the test that checks each key is documented."""
    return tuple(_SLOTS)


# --- the walkthrough's part, kept across pages ---

_STEP: Slot[int | None] = Slot(STEP, lambda: None)


def step() -> int | None:
    """The walkthrough's part (1–5); None before the walkthrough first shows one."""
    return _STEP.get()


def set_step(part: int) -> None:
    """Show part `part` of the walkthrough (the caller keeps the URL's ?step= in step)."""
    _STEP.set(part)


# --- the live class: the room code and a student's id, kept in the URL (ui.url) ---


def class_code() -> str | None:
    """The live class this session is in (a normalised room code), or None."""
    return st.session_state.get(CLASS)


def set_class_code(code: str | None) -> None:
    """Be in the live class `code` (None: in none)."""
    st.session_state[CLASS] = code


def student_id() -> str | None:
    """This session's anonymous id in the live class, or None before it joins one."""
    return st.session_state.get(ME)


def set_student_id(ident: str | None) -> None:
    """Keep the anonymous id `ident` (None: forget it)."""
    st.session_state[ME] = ident


# --- widgets (Streamlit owns their values) ---


def widget_value(key: str, default: Any = None) -> Any:
    """A widget's current value (read in its callback)."""
    return st.session_state.get(key, default)


TAKEN_KEPT = 32  # the controls whose last value taken `echoed` remembers
_TAKEN: Slot[dict[str, Any]] = Slot("widget_taken", dict)


def echoed(widget_key: str, value: Any, drawn_now: bool, drawn_with: Any) -> bool:
    """Whether `value`, in the callback of the control keyed `widget_key`, is an echo rather than a reader's choice.

    Controls that show a revision (the walkthrough's part picker, the scenario's option and size controls, W_O's)
    are keyed by it, and replaced when it changes. A browser can send an old control's value again after that (a
    message sent just before the page's answer arrived: a fragment's timer, another click); Streamlit then sees a
    change of the old control and calls its callback. Taken, that value would undo the change (CI saw a lecturer's
    part, and the class's with it, go back). So an old control's value (`drawn_now` False) is an echo when it is
    what the control shows: the value last taken from it, or before any, the one it was drawn with (`drawn_with`);
    any other value is a choice the reader made on it before the new control arrived, and is taken. What is taken
    is recorded. (A data editor's value is all its edits since it was drawn, by row positions of its own table: an
    old editor's is dropped whole, by its callback.)"""
    taken = _TAKEN.get()
    if not drawn_now and value == taken.get(widget_key, drawn_with):
        return True
    kept = {key: old for key, old in taken.items() if key != widget_key}
    kept[widget_key] = value
    _TAKEN.set(dict(list(kept.items())[-TAKEN_KEPT:]))
    return False


_DRAWN: Slot[dict[str, str]] = Slot("widget_drawn", dict)


def new_control(family: str, widget_key: str) -> None:
    """Before drawing the control keyed `widget_key`, one of `family`'s whose keys can come back (the part picker's,
    one per part): when another of the family was drawn last, this one is drawn anew, and what `echoed` took from
    an earlier control of this key is forgotten."""
    drawn = _DRAWN.get()
    if drawn.get(family) == widget_key:
        return
    _DRAWN.set({**drawn, family: widget_key})
    taken = _TAKEN.get()
    if widget_key in taken:
        _TAKEN.set({key: value for key, value in taken.items() if key != widget_key})


def set_widget(key: str, value: Any) -> None:
    """Give the widget keyed `key` a value from code: in a callback, or before the widget is drawn in this run."""
    st.session_state[key] = value
