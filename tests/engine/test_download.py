"""The pinned model's download against a model hub on 127.0.0.1 (harness.fake_hub), reached through the real hub
client (huggingface_hub) pointed at it: sizes asked first, the disk checked, progress told, a cut download continued
from where it stopped, a damaged file discarded, the hub's errors and silence each said with their own code."""

from __future__ import annotations

import hashlib
import socket
import threading
from pathlib import Path

import pytest

from engine import model_files
from engine.errors import EngineInputError
from engine.limits import HUB_TIMEOUT_SECONDS
from harness.fake_hub import FakeHub, model_files_of
from harness.tiny_model import write_model


@pytest.fixture
def files(tmp_path) -> dict[str, bytes]:
    """The tiny model's three files, as bytes."""
    return model_files_of(write_model(tmp_path / "source"), model_files.MODEL_FILES)


@pytest.fixture
def hub(files):
    served = FakeHub(model_files.MODEL_REPO, model_files.MODEL_REVISION, dict(files))
    yield served
    served.stop()


def download(hub: FakeHub, cache: Path, progress=None) -> Path:
    return model_files.download_model(cache, endpoint=hub.url, progress=progress)


def gets(hub: FakeHub) -> list[tuple[str, str | None]]:
    return [(name, wanted) for method, name, wanted in hub.requests if method == "GET"]


def test_the_three_files_arrive_with_progress_and_the_next_call_asks_nothing(hub, files, tmp_path):
    told: list[tuple[int, int]] = []
    directory = download(hub, tmp_path / "cache", progress=lambda done, total: told.append((done, total)))
    assert directory == model_files.download_directory(tmp_path / "cache")
    assert {name: (directory / name).read_bytes() for name in model_files.MODEL_FILES} == files
    assert not list(directory.glob("*.part"))
    total = sum(len(data) for data in files.values())
    assert told[-1] == (total, total) and all(t == total for _, t in told)
    assert [done for done, _ in told] == sorted(done for done, _ in told)  # only forward
    # sizes first (one HEAD each), then the files; the pinned revision, never "main"
    assert [m for m, _, _ in hub.requests] == ["HEAD"] * 3 + ["GET"] * 3
    # each request named a file under /resolve/<the pinned revision>/ (FakeHub records "" for any other path)
    assert [name for _, name, _ in hub.requests] == [*model_files.MODEL_FILES] * 2
    hub.requests.clear()
    assert download(hub, tmp_path / "cache") == directory
    assert hub.requests == []  # a complete copy: no network at all


def test_a_download_cut_half_way_keeps_what_arrived_and_the_next_try_asks_only_for_the_rest(hub, files, tmp_path):
    size = len(files["model.safetensors"])
    hub.cut_after["model.safetensors"] = size // 3
    with pytest.raises(EngineInputError) as caught:
        download(hub, tmp_path / "cache")
    assert caught.value.code == "model_download_cut"
    assert caught.value.params["file"] == "model.safetensors"
    part = model_files.download_directory(tmp_path / "cache") / "model.safetensors.part"
    assert part.stat().st_size == size // 3
    hub.requests.clear()
    told: list[tuple[int, int]] = []
    directory = download(hub, tmp_path / "cache", progress=lambda done, total: told.append((done, total)))
    assert (directory / "model.safetensors").read_bytes() == files["model.safetensors"]
    assert gets(hub) == [("model.safetensors", f"bytes={size // 3}-"), ("tokenizer.json", None)]
    assert told[0][0] >= len(files["config.json"]) + size // 3  # progress counts what the first try left


def test_too_little_free_disk_is_said_before_anything_is_downloaded(hub, files, tmp_path, monkeypatch):
    import shutil

    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(model_files.shutil, "disk_usage", lambda path: usage._replace(free=30_000_000))
    with pytest.raises(EngineInputError) as caught:
        download(hub, tmp_path / "cache")
    needed = -(-(sum(len(d) for d in files.values()) + model_files.DISK_MARGIN_BYTES) // 1_000_000)
    assert (caught.value.code, caught.value.params) == ("model_disk_space", {"needed": needed, "free": 30})
    assert gets(hub) == []


def test_a_file_that_arrives_damaged_is_discarded(files, tmp_path):
    damaged = bytearray(files["model.safetensors"])
    damaged[-1] ^= 0xFF
    hub = FakeHub(model_files.MODEL_REPO, model_files.MODEL_REVISION, dict(files))
    hub.files["model.safetensors"] = bytes(damaged)
    original_serve = hub.serve

    def serve_with_the_true_hash(request, *, body):  # the hub's header says the true file's sha256
        hub.files["model.safetensors"] = files["model.safetensors"] if not body else bytes(damaged)
        original_serve(request, body=body)

    hub.serve = serve_with_the_true_hash
    try:
        with pytest.raises(EngineInputError) as caught:
            download(hub, tmp_path / "cache")
    finally:
        hub.stop()
    assert (caught.value.code, caught.value.params["file"]) == ("model_download_damaged", "model.safetensors")
    directory = model_files.download_directory(tmp_path / "cache")
    assert not (directory / "model.safetensors").exists() and not (directory / "model.safetensors.part").exists()
    assert hashlib.sha256(files["model.safetensors"]).hexdigest() != hashlib.sha256(damaged).hexdigest()


def test_the_hubs_error_is_said_with_its_status(hub, tmp_path):
    hub.answer = 503
    with pytest.raises(EngineInputError) as caught:
        download(hub, tmp_path / "cache")
    assert (caught.value.code, caught.value.params["status"]) == ("model_download_refused", 503)


def test_a_revision_without_the_weights_says_which_files_are_missing(hub, tmp_path):
    del hub.files["model.safetensors"]
    with pytest.raises(EngineInputError) as caught:
        download(hub, tmp_path / "cache")
    assert (caught.value.code, caught.value.params) == ("model_missing_files", {"missing": "model.safetensors"})
    assert gets(hub) == []


def test_a_copy_the_hub_client_downloaded_before_is_used_without_the_network(hub, files, tmp_path):
    cache = tmp_path / "cache"
    snapshot = cache / f"models--{model_files.MODEL_REPO.replace('/', '--')}" / "snapshots" / model_files.MODEL_REVISION
    snapshot.mkdir(parents=True)
    for name, data in files.items():
        (snapshot / name).write_bytes(data)
    (snapshot.parent.parent / "refs").mkdir()
    (snapshot.parent.parent / "refs" / "main").write_text(model_files.MODEL_REVISION)
    assert download(hub, cache) == snapshot
    assert hub.requests == []


def test_offline_mode_says_model_offline_without_a_request(hub, tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(EngineInputError) as caught:
        download(hub, tmp_path / "cache")
    assert caught.value.code == "model_offline"
    assert hub.requests == []


def test_a_hub_that_never_answers_is_given_up_on_within_seconds(tmp_path):
    """A server that accepts connections and never replies (what a firewall that drops packets looks like): the
    download says model_offline instead of hanging."""
    silent = socket.create_server(("127.0.0.1", 0))
    endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
    outcome: list[BaseException | Path] = []

    def run() -> None:
        try:
            outcome.append(model_files.download_model(tmp_path / "cache", endpoint=endpoint))
        except BaseException as error:
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    try:
        worker.start()
        worker.join(60)  # generous (HUB_TIMEOUT_SECONDS is 5): a hang fails, never waits
        assert not worker.is_alive(), "the download still waits on a hub that never answers"
    finally:
        silent.close()
    (error,) = outcome
    assert isinstance(error, EngineInputError) and error.code == "model_offline"
    assert HUB_TIMEOUT_SECONDS <= 10
