"""A browser session recorded by loadtest/record.py, and the messages a load test replays from it.

A recording holds the HTTP requests of a join (`path`, and `after`: how many websocket messages the browser had
sent before it asked for it) and every BackMsg sent, as protobuf JSON. Widgets are found by the key the app gives
them (a widget's id ends with `-<key>`), so a replay can change their values.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from google.protobuf.json_format import ParseDict
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui import served

RECORDED = Path(__file__).resolve().parent / "recorded"
WALK_PART = re.compile(r"-walk_picker_(\d+)$")  # the walkthrough's part picker is keyed by the part it shows
SERVED_DIGEST = re.compile(r"(?<=[_=])[0-9a-f]{12}(?=[/&]|$)")  # in a served folder's name, and as ?v=
TEMPERATURES = [round(0.1 * k, 1) for k in range(1, 51)]  # the builder's slider: 0.1 … 5.0 (engine/limits.py)


@dataclass(frozen=True)
class Recording:
    page: str  # "builder" or "walkthrough"
    path: str  # the URL path the student opened, with its query string
    requests: list[dict]
    messages: list[dict]

    def to_json(self) -> dict:
        return {"page": self.page, "path": self.path, "requests": self.requests, "messages": self.messages}

    @classmethod
    def load(cls, page: str) -> Recording:
        return cls(**json.loads((RECORDED / f"{page}.json").read_text(encoding="utf-8")))

    def static_paths(self, before_first_run: bool) -> list[str]:
        """What the browser fetched before it opened the websocket, or after the first run's messages came (the
        app's own files at the version the server has now: `current`)."""
        return [current(r["path"]) for r in self.requests if (r["after"] == 0) == before_first_run]

    def opening(self) -> BackMsg:
        """The first message: the page's first run, no widget state yet."""
        return back_msg(self.messages[0])

    def steps(self) -> list[BackMsg]:
        """Every later message, as recorded."""
        return [back_msg(m) for m in self.messages[1:]]


def current(path: str) -> str:
    """A recorded URL of the app's own files (ui/served.py: /component/ui.served.<folder>_<digest>/<file>?v=<digest>)
    with the digest of the files as they are now, which is what today's page asks for; any other URL as it was."""
    if not path.startswith(f"/component/{served.__name__}."):
        return path
    return SERVED_DIGEST.sub(served.VERSION, path)


def back_msg(data: dict) -> BackMsg:
    return ParseDict(data, BackMsg())


def widget(message: BackMsg, key: str) -> WidgetState:
    """The state of the widget whose key ends with `key` (its id is `$$ID-<hash>-<key>`)."""
    for state in message.rerun_script.widget_states.widgets:
        if state.id.endswith(f"-{key}"):
            return state
    raise KeyError(key)


def builder_step(recording: Recording, rng: random.Random) -> BackMsg:
    """A builder interaction: the temperature slider at a random value, the causal mask on or off at random."""
    message = recording.steps()[0]
    temperature = widget(message, "opt_temperature_0").string_array_value
    temperature.data[:] = [f"{rng.choice(TEMPERATURES):.1f}".replace(".", ",")]  # written as a Spanish reader reads it
    widget(message, "opt_causal_0").bool_value = rng.random() < 0.5
    return message


def builder_step_at(recording: Recording, temperature: str) -> BackMsg:
    """The builder's temperature slider at `temperature` (as a Spanish reader writes it, "1,1"), the causal mask
    off and the questions off, as benchmarks/bench_latency.py's builder page is opened (`?questions_on=false`)."""
    message = recording.steps()[0]
    widget(message, "opt_temperature_0").string_array_value.data[:] = [temperature]
    widget(message, "opt_causal_0").bool_value = False
    widget(message, "questions_on_toggle").bool_value = False
    return message


def builder_opening(recording: Recording) -> BackMsg:
    """The builder's first run with the questions off, as benchmarks/bench_latency.py opens it."""
    message = recording.opening()
    message.rerun_script.query_string = "questions_on=false"
    return message
