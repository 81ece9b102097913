"""Where the real-model page's model comes from, loaded once per server and shared by every session.

In this order: the local directory $ATTENTION_MODEL_DIR names, else the one the Streamlit secret
`attention_model_dir` names, else a copy of the pinned model the hub client downloaded before (read from its
local cache, without the network), else none: the page says so and offers the download.

The download (`engine.model_files.download_model`, about 470 MB) starts only on a reader's click, runs in a
background thread, and is one per server: every session watches the same one. No script run ever waits for it,
so neither another page nor this page's first paint depends on the network. Offline, the download gives up within
about HUB_TIMEOUT_SECONDS (it asks the hub once, with that timeout, before anything else) and the page says what to
do; with the hub client's offline mode on (HF_HUB_OFFLINE) no download is offered at all.

Everything cached here is shared by all sessions and never changed: the model's arrays are read-only, results
are frozen dataclasses.
"""

from __future__ import annotations

import logging
import os
import string
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from engine import model_files
from engine.encoder import EncoderResult, HeadMeasures, Tokens, encode, head_measures, word_attention
from engine.errors import EngineInputError
from engine.limits import HUB_TIMEOUT_SECONDS
from engine.model_files import MODEL_DIR_VARIABLE, MODEL_FILES, MODEL_REPO, Model
from ui import figure_component, numbers
from ui.i18n import has, t, tm
from ui.text import md_literal

_LOG = logging.getLogger(__name__)
MODEL_DIR_SECRET = "attention_model_dir"  # the Streamlit secret that names a local model directory
CACHE_VARIABLE = "ATTENTION_CACHE_DIR"  # the folder where the tokenizer's vocabulary is kept once read
MODEL_LICENCE = "Apache-2.0"  # the licence of MODEL_REPO's weights (its model card)
DOWNLOAD_MB = 470  # about what MODEL_FILES of MODEL_REPO weigh: model.safetensors is most of it
POLL_SECONDS = 1.0  # how often a page watching a download redraws its progress
# Sentences whose forward pass is kept, for all sessions together: at 64 pieces one result (every head's
# Q, K, V, scores and weights, each number stored once) is about 28 MB through 12 layers. With 4 kept (and
# 38 MB a result), four long sentences took the server to 601 MB (the multilingual model's shape,
# benchmarks/bench_encoder.py); a sentence not kept costs one forward pass again (0.1 to 0.3 s).
READINGS_KEPT = 2


# --- a local directory ---


@dataclass(frozen=True)
class Source:
    """Where the model's files are, and who said so."""

    directory: Path
    origin: str  # "env" ($ATTENTION_MODEL_DIR), "secret" (attention_model_dir) or "hub" (the pinned download)


def secret_directory() -> str:
    """The secret attention_model_dir, or "" (also when the app has no secrets file at all)."""
    try:
        value = st.secrets.get(MODEL_DIR_SECRET, "")
    except FileNotFoundError:  # no secrets.toml, or one that cannot be read: Streamlit raises a subclass of it
        return ""
    return str(value).strip() if isinstance(value, str | os.PathLike) else ""


def configured_source() -> Source | None:
    """The local model directory the operator named (environment variable first, then the secret), or None."""
    named = os.environ.get(MODEL_DIR_VARIABLE, "").strip()
    if named:
        return Source(Path(named).expanduser(), "env")
    named = secret_directory()
    if named:
        return Source(Path(named).expanduser(), "secret")
    return None


# --- the hub ---


def hub_offline() -> bool:
    """Whether the hub client's offline mode is on (HF_HUB_OFFLINE, read when huggingface_hub is imported)."""
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def hub_cache() -> Path:
    """The hub client's download cache (HF_HUB_CACHE, by default ~/.cache/huggingface/hub)."""
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)


@st.cache_resource(show_spinner=False)
def downloaded_before() -> Path | None:
    """The pinned model's files downloaded before (by this app, or by the hub client), if they are complete; no
    network. Looked up once per server (a download made by this server is known to `server_download()`)."""
    return model_files.downloaded_copy(hub_cache())


@dataclass(frozen=True)
class DownloadStatus:
    """What a page shows about the server's download."""

    state: str  # "idle" (never started), "running", "done" or "failed"
    directory: Path | None  # the model's files, when done
    error: EngineInputError | None  # why it failed
    seconds: float  # since it started (0 when idle)
    downloaded: int  # bytes of the model's files on disk so far (what earlier tries left included)
    total: int  # bytes they will have; 0 until the hub has said


class Download:
    """The one hub download of this server: started by a click, run in a daemon thread, watched by every session."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._directory: Path | None = None
        self._error: EngineInputError | None = None
        self._started = 0.0
        self._finished = 0.0
        self._downloaded = 0
        self._total = 0

    def start(self) -> None:
        """Start downloading, unless a download is running or done (a failed one starts again where it stopped)."""
        with self._lock:
            if self._directory is not None or (self._thread is not None and self._thread.is_alive()):
                return
            self._error = None
            self._started = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="model-download", daemon=True)
            self._thread.start()  # never joined here: _run takes the lock this holds, and no run waits for it

    def _progress(self, downloaded: int, total: int) -> None:
        with self._lock:
            self._downloaded, self._total = downloaded, total

    def _run(self) -> None:
        try:
            # looked up on the module at call time, so a test can put a stand-in there
            directory = model_files.download_model(hub_cache(), progress=self._progress)
            error = None
        except EngineInputError as failure:
            directory, error = None, failure
        except Exception as failure:  # anything else the hub client raises: its type said, never a dead thread
            reason = type(failure).__name__
            directory, error = (
                None,
                EngineInputError("model_download_failed", str(failure), repo=MODEL_REPO, reason=reason),
            )
        if error is not None:  # the operator's details (addresses, paths, the exception's text) for the log
            _LOG.warning("Downloading %s failed: %s (%s)", MODEL_REPO, error, error.code)
        with self._lock:
            self._directory, self._error, self._finished = directory, error, time.monotonic()

    def status(self) -> DownloadStatus:
        """Where the download stands now."""
        with self._lock:
            thread, directory, error = self._thread, self._directory, self._error
            started, finished = self._started, self._finished
            downloaded, total = self._downloaded, self._total
        if thread is None:
            return DownloadStatus("idle", None, None, 0.0, 0, 0)
        running = directory is None and error is None
        state = "running" if running else ("done" if directory is not None else "failed")
        seconds = (time.monotonic() if running else finished) - started
        return DownloadStatus(state, directory, error, seconds, downloaded, total)


@st.cache_resource(show_spinner=False)
def server_download() -> Download:
    """The server's one download (created idle)."""
    return Download()


# --- the model and what it computes ---


@st.cache_resource(show_spinner=False, max_entries=2)
def loaded_model(directory: str) -> Model:
    """The model in `directory`, read once per server; EngineInputError when its files are missing or wrong."""
    from threadpoolctl import threadpool_limits

    # BLAS on one thread, for the whole server from here on: on the encoder's small matrices threads only
    # contend (a 16-token sentence: 1.8 s with two threads against 0.06 s with one, on a 2-core machine).
    threadpool_limits(limits=1, user_api="blas")
    return model_files.load_model(directory, cache=cache_folder())


def cache_folder() -> Path | None:
    """Where the model's tokenizer is kept once read, for the next server's start (engine.tokenizer.store; about
    10 MB): $ATTENTION_CACHE_DIR, else attention-lesson in the user's cache folder ($XDG_CACHE_HOME when it is an
    absolute path, as the XDG specification asks, else ~/.cache); None (no cache) for a user without a home."""
    try:
        named = os.environ.get(CACHE_VARIABLE, "").strip()
        if named:
            return Path(named).expanduser()
        xdg = Path(os.environ.get("XDG_CACHE_HOME", "").strip())
        return (xdg if xdg.is_absolute() else Path.home() / ".cache") / "attention-lesson"
    except RuntimeError:  # ~ cannot be resolved: no HOME and no entry in the password database
        return None


@dataclass(frozen=True)
class ModelCard:
    """What a model card says that the page repeats: its licence and its languages ("" and () when unknown)."""

    licence: str
    languages: tuple[str, ...]


# MODEL_REPO's card: Apache-2.0, 50 languages (the Hub's page for it lists "50 languages", "bert", "apache-2.0")
HUB_LANGUAGES = 50
HUB_CARD = ModelCard(MODEL_LICENCE, ())  # the page says HUB_LANGUAGES for it rather than 50 codes


@dataclass(frozen=True)
class LoadedModel:
    """The model the page uses, where it came from and what its card says."""

    model: Model
    source: Source
    card: ModelCard  # HUB_CARD for the hub's model; for a local directory, its README's front matter


def readme_card(directory: Path) -> ModelCard:
    """`license:` and `language:` of a model card's front matter (README.md, as the hub writes it: `language:`
    followed by `- en` lines, or on one line as `[en, es]` or `en`)."""
    try:
        with open(directory / "README.md", encoding="utf-8", errors="replace") as f:
            head = f.read(8192)
    except OSError:
        return ModelCard("", ())
    lines = head.splitlines()
    if not lines or lines[0].strip() != "---":
        return ModelCard("", ())
    licence, languages, listing = "", [], False
    for line in lines[1:]:
        if line.strip() == "---":
            break
        if listing and line.strip().startswith("- "):
            languages.append(line.strip()[2:].strip())
            continue
        key, _, value = line.partition(":")
        listing = key.strip() == "language" and not value.strip()
        if key.strip() == "license" and value.strip():
            licence = value.strip()[:60]
        if key.strip() == "language" and value.strip():
            languages += [v.strip() for v in value.strip().strip("[]").split(",") if v.strip()]
    return ModelCard(licence, tuple(language[:20] for language in languages[:80]))


@dataclass(frozen=True)
class Reading:
    """A sentence through the model: its pieces, every layer's attention, and what the page measures on it."""

    tokens: Tokens
    result: EncoderResult
    measures: HeadMeasures
    words: np.ndarray  # (layers, heads, words, words)  word-level attention (encoder.word_attention's rule)


@st.cache_resource(show_spinner=False, max_entries=READINGS_KEPT)
def _read(_model: Model, directory: str, sentence: str) -> Reading:
    tokens = model_files.tokenize(_model, sentence)
    result = encode(tokens.ids, _model.weights, _model.config)
    return Reading(tokens, result, head_measures(result, tokens.special), word_attention(result, tokens))


def read(loaded: LoadedModel, sentence: str) -> Reading:
    """`sentence` through the model, computed once per sentence for all sessions; EngineInputError for a sentence
    the model cannot take (empty, too long, too many pieces)."""
    return _read(loaded.model, str(loaded.source.directory), sentence)


# --- what the page shows until there is a model ---


def error_message(error: EngineInputError) -> str:
    """The error in the reader's language, as markdown: counts written as numbers, anything else literally.

    The message is the page's own wording of a general code (real.error.<code>: the sentence's, the tokenizer's)
    if it has one, else the code's message (error.<code>, where every engine code has one, the model's included);
    a parameter the message asks for and the error lacks gets the general one."""
    params = {
        name: numbers.count(value) if isinstance(value, int) and not isinstance(value, bool) else md_literal(value)
        for name, value in error.params.items()
    }
    key = f"real.error.{error.code}" if has(f"real.error.{error.code}") else f"error.{error.code}"
    if not has(key):
        return t("real.error.other")
    template = t(key)  # unfilled
    asked = {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}
    if not asked <= params.keys():  # a message asking for a parameter this error lacks
        return t("real.error.other")
    return template.format(**params)


def what_to_do_ui(key: str = "real.source.todo") -> None:
    """What an operator does: without network (real.source.todo), a local directory with the three files; with
    files that cannot be used (real.source.fix), check them, the server's log saying which and where."""
    st.markdown(t(key, variable=MODEL_DIR_VARIABLE, secret=MODEL_DIR_SECRET))
    st.code("\n".join(MODEL_FILES), language=None)


def download_button_ui(label_key: str) -> None:
    """The button that starts the server's download (never more than one at a time)."""
    st.button(
        t(label_key, size=numbers.count(DOWNLOAD_MB)),
        on_click=server_download().start,
        key="real_download",
        type="primary",
        icon=":material/download:",
    )


@st.fragment(run_every=POLL_SECONDS)
def download_progress_ui() -> None:
    """The running download's progress, redrawn every POLL_SECONDS; the whole page reruns when it ends."""
    status = server_download().status()
    if status.state != "running":
        st.rerun()
    total = status.total or DOWNLOAD_MB * 1_000_000  # until the hub has said, about what the files weigh
    st.progress(
        min(status.downloaded / total, 1.0),
        text=t(
            "real.download.running",
            done=numbers.count(status.downloaded // 1_000_000),
            size=numbers.count(round(total / 1e6)),
            seconds=numbers.count(round(status.seconds)),
        ),
    )
    st.caption(t("real.download.running_note", seconds=numbers.short(HUB_TIMEOUT_SECONDS)))


def missing_model_ui(status: DownloadStatus) -> None:
    """No local model and no copy downloaded before: the download, its progress or its failure, and what to do."""
    if status.state == "running":
        st.info(t("real.source.downloading"))
        download_progress_ui()
        return
    if status.state == "failed" and status.error is not None:
        st.warning(error_message(status.error))
        what_to_do_ui()
        download_button_ui("real.download.retry")
        return
    if hub_offline():  # a download could never succeed: what to do, and no button
        st.warning(t("real.source.offline_mode", variable=MODEL_DIR_VARIABLE))
        what_to_do_ui()
        return
    st.info(t("real.source.none", variable=MODEL_DIR_VARIABLE))
    download_button_ui("real.download.button")
    st.caption(
        tm("real.source.download_note", repo=MODEL_REPO, licence=MODEL_LICENCE, languages=numbers.count(HUB_LANGUAGES))
    )
    what_to_do_ui()


def load_or_stop(source: Source) -> LoadedModel:
    """The model in `source`, or the reason it cannot be read and the end of the page."""
    figure_component.preload_ui()  # the browser loads plotly.js while the server loads the model
    try:
        with st.spinner(t("real.source.loading")):
            model = loaded_model(str(source.directory))
    except EngineInputError as error:
        # the operator's details (the directory, the file, what is wrong in it) go to the server's log; the page
        # says what is wrong without the server's paths
        _LOG.warning("The model in %s (%s) cannot be used: %s", source.directory, source.origin, error)
        st.error(error_message(error))
        what_to_do_ui("real.source.fix")
        st.stop()
        raise
    return LoadedModel(model, source, HUB_CARD if source.origin == "hub" else readme_card(source.directory))


def model_or_stop() -> LoadedModel:
    """The model the page uses, or what the reader can do without one and the end of the page (never a wait)."""
    source = configured_source()
    if source is None:
        status = server_download().status()
        directory = status.directory or downloaded_before()
        if directory is None:
            missing_model_ui(status)
            st.stop()
        source = Source(directory, "hub")
    return load_or_stop(source)
