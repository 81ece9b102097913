"""A real model from its three files: config.json, model.safetensors and tokenizer.json.

All file and network IO of the real-model page lives here, so `engine.encoder` stays arithmetic. `tokenizers` and
`huggingface_hub` are imported inside the functions that use them: importing this module costs the app nothing.

Memory: the layers are read once into float32 arrays shaped for the forward pass (about 7 MB a layer at
d_model = 384; the arithmetic is float64), each copied once from a memory map of its tensor in the file (see
read_weights). The word-embedding table, most of a multilingual model's file (250k rows), stays in the file: a
sentence reads only its own rows (see WordTable). The tokenizer is engine.tokenizer's, read while the weights are.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import struct
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.encoder import (
    EncoderConfig,
    EncoderWeights,
    LayerWeights,
    Norm,
    Tokens,
    read_only,
    with_bias_rows,
)
from engine.errors import EngineInputError
from engine.limits import (
    DOWNLOAD_CHUNK_BYTES,
    DOWNLOAD_STALL_SECONDS,
    HUB_TIMEOUT_SECONDS,
    MAX_MODEL_TOKENS,
    MAX_SENTENCE_CHARS,
)
from engine.tokenizer import SentenceTokenizer, read_tokenizer_file

MODEL_REPO = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"  # Apache-2.0
# A commit of MODEL_REPO whose tree has model.safetensors (a revision other projects pin with that file); a
# commit hash, never "main", so every server computes with the same weights.
MODEL_REVISION = "e8f8c211226b894fcb81acc59f3b34ba3efd5f42"
MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")
MODEL_DIR_VARIABLE = "ATTENTION_MODEL_DIR"  # a local directory with MODEL_FILES: no download at all


@dataclass(frozen=True)
class Model:
    """A loaded model, shared by every session and never changed."""

    directory: Path
    config: EncoderConfig
    weights: EncoderWeights
    tokenizer: SentenceTokenizer  # engine.tokenizer's reading of tokenizer.json


def load_model(directory: str | Path, *, cache: Path | None = None) -> Model:
    """Read config.json, model.safetensors and tokenizer.json from `directory`; `cache`: a folder where the
    tokenizer's vocabulary is kept once read (engine.tokenizer.read_tokenizer_file)."""
    directory = Path(directory)
    missing = missing_files(directory)
    if missing:
        raise EngineInputError(
            "model_missing_files", f"{directory} lacks {', '.join(missing)}", missing=", ".join(missing)
        )
    config = read_config(directory / "config.json")
    # The weights are read in a thread of their own while this one reads the tokenizer: their copies leave the
    # interpreter's lock to the tokenizer's JSON (and wait for the disk when the file is not cached). Not the other
    # way round: the JSON's objects, freed once the tokenizer is built, would leave a thread's own heap unused
    # (6-10 MB more resident) where this thread's forward passes reuse them.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="model-weights") as pool:
        weights = pool.submit(read_weights, directory / "model.safetensors", config)
        tokenizer = read_tokenizer(directory / "tokenizer.json", config, cache=cache)
        return Model(directory=directory, config=config, weights=weights.result(), tokenizer=tokenizer)


def missing_files(directory: Path) -> list[str]:
    """Which of the three model files `directory` lacks (all of them when it is not a directory)."""
    return [name for name in MODEL_FILES if not (directory / name).is_file()]


# --- config.json ---


def read_config(path: Path) -> EncoderConfig:
    """The encoder's shape from a Hugging Face BERT config.json; other architectures are refused."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EngineInputError(
            "model_bad_config", f"{path} is not readable JSON: {error}", field="config.json"
        ) from None
    if not isinstance(raw, dict):
        raise EngineInputError("model_bad_config", f"{path} is not a JSON object", field="config.json")
    # What this forward pass computes: BERT and XLM-RoBERTa (absolute positions, exact GELU), the same network for
    # one sentence but for where the positions are numbered from.
    for field, allowed in (("model_type", ("bert", "xlm-roberta")), ("hidden_act", ("gelu",))):
        if field not in raw:
            raise EngineInputError("model_bad_config", f"config.json has no {field}", field=field)
        if raw[field] not in allowed:
            raise unsupported(field, raw[field], allowed)
    if raw.get("position_embedding_type", "absolute") != "absolute":
        raise unsupported("position_embedding_type", raw["position_embedding_type"], ("absolute",))
    fields = {
        "vocab_size": "vocab_size",
        "d_model": "hidden_size",
        "n_layers": "num_hidden_layers",
        "n_heads": "num_attention_heads",
        "d_ff": "intermediate_size",
        "max_positions": "max_position_embeddings",
    }
    for name in fields.values():
        if name not in raw:
            raise EngineInputError("model_bad_config", f"config.json has no {name}", field=name)
    after_pad = raw["model_type"] == "xlm-roberta"
    return EncoderConfig(
        **{ours: raw[theirs] for ours, theirs in fields.items()},
        layer_norm_eps=raw.get("layer_norm_eps", 1e-12),  # BertConfig's and XLMRobertaConfig's default
        pad_token_id=raw.get("pad_token_id", 1 if after_pad else 0),  # ... and theirs
        positions_after_pad=after_pad,
    )


def unsupported(field: str, found: object, allowed: tuple[str, ...]) -> EngineInputError:
    """model_unsupported for config.json's `field`, naming what the file says (shortened: it is any JSON)."""
    said = found if isinstance(found, str) else json.dumps(found)
    return EngineInputError(
        "model_unsupported",
        f"{field} must be one of {list(allowed)}, got {found!r}",
        field=field,
        found=said[:60],
    )


# --- model.safetensors ---

# safetensors dtype -> numpy dtype (little-endian). BF16 has no numpy dtype and is refused.
_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2"}
_MAX_HEADER_BYTES = 100_000_000  # the format's own limit


@dataclass(frozen=True)
class TensorEntry:
    """Where one tensor lies in a safetensors file."""

    dtype: str  # safetensors' name: "F32", "F16", "I64", ...
    shape: tuple[int, ...]
    start: int  # byte offset of its data from the start of the file
    nbytes: int


def safetensors_index(path: Path) -> dict[str, TensorEntry]:
    """The tensors a safetensors file holds, from its header: 8 bytes of length, then JSON, then the data."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            (header_bytes,) = struct.unpack("<Q", f.read(8))
            if header_bytes > min(_MAX_HEADER_BYTES, size - 8):
                raise ValueError(f"header of {header_bytes} bytes in a file of {size}")
            header = json.loads(f.read(header_bytes))
        entries = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            begin, end = (int(v) for v in info["data_offsets"])
            shape = tuple(int(d) for d in info["shape"])
            entry = TensorEntry(str(info["dtype"]), shape, 8 + header_bytes + begin, end - begin)
            if not 0 <= begin <= end or entry.start + entry.nbytes > size:
                raise ValueError(f"{name} lies outside the file")
            entries[name] = entry
        return entries
    except (OSError, struct.error, ValueError, TypeError, KeyError, AttributeError) as error:
        raise EngineInputError(
            "model_bad_weights", f"{path} is not a safetensors file: {error}", name=str(path)
        ) from None


def checked_dtype(name: str, entry: TensorEntry) -> str:
    """The numpy dtype of a tensor's numbers, or EngineInputError when numpy cannot read them or sizes disagree."""
    dtype = _DTYPES.get(entry.dtype)
    if dtype is None:
        raise EngineInputError("model_bad_weights", f"{name} has dtype {entry.dtype}, not {sorted(_DTYPES)}", name=name)
    count = math.prod(entry.shape)
    if count == 0 or entry.nbytes != count * np.dtype(dtype).itemsize:
        raise EngineInputError("model_bad_weights", f"{name}: {entry.nbytes} bytes for shape {entry.shape}", name=name)
    return dtype


@dataclass(frozen=True)
class WordTable:
    """The word-embedding table left in the file: `table[ids]` reads just those rows, one seek each.

    Not a memory map: this kernel keeps a file's cached pages in folios of up to 2 MB and maps whole folios,
    so one 16-token sentence left 28 MB of a mapped table resident (and every new word more, up to the whole
    table). Rows read by seek and read leave nothing of the table in the process."""

    path: Path
    start: int  # byte offset of row 0 in the file
    shape: tuple[int, int]  # (vocab, d_model)
    dtype: str  # numpy's name for the file's numbers, e.g. "<f4"

    @property
    def nbytes(self) -> int:
        """The size of the whole table in bytes, as it lies in the file."""
        return self.shape[0] * self.shape[1] * np.dtype(self.dtype).itemsize

    def __getitem__(self, ids: object) -> np.ndarray:
        """Rows `ids` of the table, (len(ids), d_model), in the file's dtype."""
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= self.shape[0]):
            raise EngineInputError("bad_token_ids", f"token ids must lie in [0, {self.shape[0]})", limit=self.shape[0])
        row_bytes = self.shape[1] * np.dtype(self.dtype).itemsize
        try:
            with open(self.path, "rb", buffering=0) as f:
                rows = []
                for i in ids:
                    f.seek(self.start + int(i) * row_bytes)
                    rows.append(f.read(row_bytes))
        except OSError as error:
            raise EngineInputError("model_bad_weights", f"the word table cannot be read: {error}") from None
        data = b"".join(rows)
        if len(data) != ids.size * row_bytes:
            raise EngineInputError("model_bad_weights", f"{self.path} changed after it was loaded")
        return np.frombuffer(data, dtype=self.dtype).reshape(ids.size, self.shape[1])


def mapped_tensor(path: Path, name: str, entry: TensorEntry) -> np.ndarray:
    """One tensor as a read-only view of the file (a memory map of its bytes alone, in the file's dtype): nothing is
    read until it is used, and its pages leave the process with the last view of it."""
    dtype = checked_dtype(name, entry)
    try:
        return np.memmap(path, dtype=dtype, mode="r", offset=entry.start, shape=entry.shape)
    except (OSError, ValueError) as error:
        raise EngineInputError("model_bad_weights", f"{name} cannot be read: {error}", name=name) from None


def read_weights(path: Path, config: EncoderConfig) -> EncoderWeights:
    """The encoder's weights from a safetensors file of a BertModel or XLMRobertaModel (names with or without the
    "bert." or "roberta." prefix a model with a head on top saves them under).

    Each tensor is a view of its bytes in the file (mapped_tensor), copied once into the array the forward pass
    reads (bert_weights): no whole-file read, no intermediate copies, and the views are let go as soon as they are
    copied, so what the file's pages weigh is never added to the process's peak."""
    index = safetensors_index(path)
    prefix = next((p for p in ("bert.", "roberta.") if f"{p}embeddings.word_embeddings.weight" in index), "")

    def tensor(name: str, shape: tuple[int | None, ...], *, on_disk: bool = False) -> np.ndarray | WordTable:
        entry = index.get(prefix + name)
        if entry is None:
            raise EngineInputError("model_bad_weights", f"the weights have no tensor {prefix + name}", name=name)
        fits = len(entry.shape) == len(shape) and all(
            want in (None, got) for got, want in zip(entry.shape, shape, strict=True)
        )
        if not fits:
            raise EngineInputError(
                "model_bad_weights", f"{name} has shape {entry.shape}, the config needs {shape}", name=name
            )
        if on_disk:
            return WordTable(path, entry.start, (entry.shape[0], entry.shape[1]), checked_dtype(prefix + name, entry))
        return mapped_tensor(path, prefix + name, entry)

    return bert_weights(tensor, config)


def bert_weights(tensor: Callable[..., Any], config: EncoderConfig) -> EncoderWeights:
    """EncoderWeights from BertModel's tensors, `tensor(name, shape, on_disk=False)` giving each one as PyTorch
    stores it (None in `shape`: any size; `on_disk`: rows to be read on demand, for the word table).

    PyTorch's Linear keeps its weight as (out, in) and computes x·Wᵀ + b: each weight is transposed here, once,
    into the (in, out) the lesson multiplies by. Weights are kept as float32 (float64 from a float64 file): every
    number of a float16 or float32 file as it is, at half the memory of float64 (12 layers of the multilingual
    model: 85 MB instead of 170); the forward pass computes in float64 all the same (engine.encoder)."""
    d, d_ff, h = config.d_model, config.d_ff, config.n_heads

    def stored(array: np.ndarray) -> np.ndarray:  # one copy of a (view of a) tensor, in the dtype it is kept in
        return read_only(np.array(array, dtype=np.result_type(array.dtype, np.float32), order="C"))

    def vector(name: str, size: int = d) -> np.ndarray:
        return stored(tensor(name, (size,)))

    def linear(name: str, d_in: int, d_out: int) -> tuple[np.ndarray, np.ndarray]:
        """The weight as (d_in, d_out) and the bias, both still views of the file."""
        return tensor(f"{name}.weight", (d_out, d_in)).T, tensor(f"{name}.bias", (d_out,))

    def heads(name: str) -> np.ndarray:
        w, b = linear(name, d, d)
        return read_only(with_bias_rows(w, b, h, dtype=np.result_type(w.dtype, np.float32)))

    def norm(name: str) -> Norm:
        return Norm(scale=vector(f"{name}.weight"), shift=vector(f"{name}.bias"))

    def layer(i: int) -> LayerWeights:
        at = f"encoder.layer.{i}."
        w_o, b_o = linear(f"{at}attention.output.dense", d, d)
        w_in, b_in = linear(f"{at}intermediate.dense", d, d_ff)
        w_out, b_out = linear(f"{at}output.dense", d_ff, d)
        return LayerWeights(
            w_q=heads(f"{at}attention.self.query"),
            w_k=heads(f"{at}attention.self.key"),
            w_v=heads(f"{at}attention.self.value"),
            w_o=stored(w_o),
            b_o=stored(b_o),
            attention_norm=norm(f"{at}attention.output.LayerNorm"),
            w_in=stored(w_in),
            b_in=stored(b_in),
            w_out=stored(w_out),
            b_out=stored(b_out),
            output_norm=norm(f"{at}output.LayerNorm"),
        )

    token_types = tensor("embeddings.token_type_embeddings.weight", (None, d))  # (type_vocab, d): row 0 is used
    positions = stored(tensor("embeddings.position_embeddings.weight", (config.max_positions, d)))
    check_position_numbering(positions, config)
    return EncoderWeights(
        word_embeddings=tensor("embeddings.word_embeddings.weight", (config.vocab_size, d), on_disk=True),
        position_embeddings=positions,
        token_type_embedding=stored(token_types[0]),
        embedding_norm=norm("embeddings.LayerNorm"),
        layers=tuple(layer(i) for i in range(config.n_layers)),
    )


def check_position_numbering(positions: np.ndarray, config: EncoderConfig) -> None:
    """Refuse a position table that numbers positions otherwise than config.json's model_type says.

    XLM-RoBERTa never trains its pad token's row of the table (transformers keeps it at zero, as the embedding's
    padding_idx), its tokens' positions start after it; BERT's first token is at row 0 and every row it uses is
    trained. Computed with the other numbering, every position is read pad_token_id + 1 rows off: a BertModel
    config over an XLM-R table (514 rows, pad 1) loaded silently and gave attention off by up to 0.99999."""
    pad = config.pad_token_id
    if pad >= positions.shape[0]:
        return  # a BERT whose pad id lies beyond the table: no row of the table to ask
    unused = not positions[pad].any()  # (d_model,) all zero
    if unused and not config.positions_after_pad:
        raise EngineInputError(
            "model_positions_after_pad",
            f"model_type is bert, but row {pad} (pad_token_id) of the position table is zero, as XLM-RoBERTa's",
            row=pad,
        )
    if config.positions_after_pad and not unused:
        raise EngineInputError(
            "model_positions_from_zero",
            f"model_type is xlm-roberta, but row {pad} (pad_token_id) of the position table is trained, as BERT's",
            row=pad,
        )


# --- tokenizer.json ---


def read_tokenizer(path: Path, config: EncoderConfig, *, cache: Path | None = None) -> SentenceTokenizer:
    """The model's tokenizer from tokenizer.json (engine.tokenizer: XLM-R's in a compact form, kept in `cache` once
    read), refused when it has more pieces than the word table has rows."""
    tokenizer = read_tokenizer_file(path, cache)
    if tokenizer.get_vocab_size(with_added_tokens=True) > config.vocab_size:
        raise EngineInputError(
            "model_bad_tokenizer",
            f"the tokenizer has {tokenizer.get_vocab_size()} tokens, the embedding table {config.vocab_size} rows",
        )
    return tokenizer


def tokenize(model: Model, sentence: str, *, max_tokens: int = MAX_MODEL_TOKENS) -> Tokens:
    """The pieces the model reads for `sentence`, special tokens included; longer than max_tokens is refused
    (not cut: a cut sentence would show attention patterns of a sentence nobody typed).

    The words are read one space apart, as SentencePiece itself reads a sentence (its remove_extra_whitespaces):
    a tokenizer.json does not always say so, and XLM-R's then makes a space at the end, or a second one between
    two words, a "▁" piece of its own that belongs to no word."""
    sentence = str(sentence)
    if len(sentence) > MAX_SENTENCE_CHARS:
        raise EngineInputError(
            "sentence_too_long",
            f"the sentence has {len(sentence)} characters; at most {MAX_SENTENCE_CHARS}",
            count=len(sentence),
            limit=MAX_SENTENCE_CHARS,
        )
    sentence = " ".join(sentence.split())
    try:
        encoding = model.tokenizer.encode(sentence)
    except Exception as error:  # text the Rust side cannot take, such as a lone surrogate
        raise EngineInputError("bad_text", f"the tokenizer cannot read this text: {error}") from None
    if all(encoding.special_tokens_mask):
        raise EngineInputError("empty_sentence", "the sentence has no tokens")
    if len(encoding.ids) > max_tokens:
        raise EngineInputError(
            "model_too_many_tokens",
            f"the sentence is {len(encoding.ids)} pieces long; at most {max_tokens}",
            count=len(encoding.ids),
            limit=max_tokens,
        )
    special = tuple(bool(s) for s in encoding.special_tokens_mask)
    # The tokenizer's word ids may skip numbers (a word the normaliser removed): renumber them 0, 1, 2, ...
    order: dict[int, int] = {}
    for word, is_special in zip(encoding.word_ids, special, strict=True):
        if word is not None and not is_special:
            order.setdefault(word, len(order))
    word_of_piece = tuple(
        None if word is None or is_special else order[word]
        for word, is_special in zip(encoding.word_ids, special, strict=True)
    )
    spans: dict[int, list[int]] = {}
    for w, (start, end) in zip(word_of_piece, encoding.offsets, strict=True):
        if w is not None:
            spans.setdefault(w, [start, end])
            spans[w] = [min(spans[w][0], start), max(spans[w][1], end)]
    words = tuple(sentence[spans[w][0] : spans[w][1]].strip() for w in range(len(order)))
    if not any(words):  # spaces alone: XLM-R's tokenizer gives a "▁" piece for them, but there is no word
        raise EngineInputError("empty_sentence", "the sentence has no tokens")
    return Tokens(
        sentence=sentence,
        pieces=tuple(encoding.tokens),
        ids=tuple(int(i) for i in encoding.ids),
        special=special,
        word_of_piece=word_of_piece,
        words=words,
    )


# --- where the files come from ---


@dataclass(frozen=True)
class RemoteFile:
    """One of MODEL_FILES as the hub describes it."""

    name: str
    url: str  # where its bytes are: the hub's address for it, after the hub's redirect
    size: int
    sha256: str | None  # for a large (LFS) file, the hub's hash of its content; None for a small one


Progress = Callable[[int, int], None]  # (bytes the model's files have on disk so far, bytes they will have)


def download_directory(cache_dir: str | Path | None = None) -> Path:
    """Where this app keeps the pinned model's files it downloads: a plain directory of the three, beside the hub
    client's cache (a file still arriving ends in .part, and the next try continues it)."""
    from huggingface_hub import constants

    cache = Path(cache_dir) if cache_dir is not None else Path(constants.HF_HUB_CACHE)
    return cache / "attention-app" / MODEL_REPO.replace("/", "--") / MODEL_REVISION


def downloaded_copy(cache_dir: str | Path | None = None) -> Path | None:
    """The pinned model's files downloaded before, by this app or by the hub client itself; no network."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    ours = download_directory(cache_dir)
    if not missing_files(ours):
        return ours
    try:
        theirs = Path(
            snapshot_download(
                repo_id=MODEL_REPO,
                revision=MODEL_REVISION,
                allow_patterns=list(MODEL_FILES),
                cache_dir=cache_dir,
                local_files_only=True,
            )
        )
    except (LocalEntryNotFoundError, OSError, ValueError):
        return None
    return None if missing_files(theirs) else theirs


def download_model(
    cache_dir: str | Path | None = None, *, endpoint: str | None = None, progress: Progress | None = None
) -> Path:
    """MODEL_FILES of MODEL_REPO at MODEL_REVISION: a copy downloaded before, or else from the hub (`endpoint`: the
    hub's address, None for huggingface_hub's own, HF_ENDPOINT), into download_directory(cache_dir).

    First each file's size is asked (one request each, HUB_TIMEOUT_SECONDS: offline or HF_HUB_OFFLINE, this raises
    model_offline within seconds), then the disk's free space is checked against what is still to come
    (model_disk_space), then the files arrive, `progress(done, total)` told after every chunk. A download cut half
    way keeps what arrived (model_download_cut): the next call asks the hub only for the rest (an HTTP range).
    The large file is checked against the hub's sha256 before it is used (model_download_damaged).

    huggingface_hub's own hf_hub_download retries a dropped connection within one call, but deletes the partial
    file when the call fails (2.4): a reader's second click would start again from nothing."""
    copy = downloaded_copy(cache_dir)
    if copy is not None:
        return copy
    target = download_directory(cache_dir)
    remote = [remote_file(name, endpoint) for name in MODEL_FILES]
    missing = [f.name for f in remote if f.size < 0]
    if missing:
        raise EngineInputError(
            "model_missing_files",
            f"{MODEL_REPO} at {MODEL_REVISION} has no {', '.join(missing)}",
            missing=", ".join(missing),
        )
    target.mkdir(parents=True, exist_ok=True)
    done = {f.name: on_disk(target, f) for f in remote}
    total = sum(f.size for f in remote)
    check_disk_space(target, total - sum(done.values()))

    def report(name: str, size: int) -> None:
        done[name] = size
        if progress is not None:
            progress(sum(done.values()), total)

    for f in remote:
        if done[f.name] < f.size or not (target / f.name).is_file():
            fetch(f, target, report)
        report(f.name, f.size)
    return target


_MISSING = -1  # RemoteFile.size of a file the hub says this revision does not have


def remote_file(name: str, endpoint: str | None) -> RemoteFile:
    """What the hub says of one file: its address, size and hash; size _MISSING when the revision lacks it."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError

    url = hf_hub_url(MODEL_REPO, name, revision=MODEL_REVISION, endpoint=endpoint)
    try:
        metadata = get_hf_file_metadata(url, timeout=HUB_TIMEOUT_SECONDS)
    except EntryNotFoundError:
        return RemoteFile(name, url, _MISSING, None)
    except HfHubHTTPError as error:  # the hub answered, with an error
        status = error.response.status_code if error.response is not None else 0
        raise EngineInputError(
            "model_download_refused", f"the hub answered {status} for {url}: {error}", repo=MODEL_REPO, status=status
        ) from None
    except Exception:  # no answer: no network, no name resolution, a hub that never replies, HF_HUB_OFFLINE
        raise EngineInputError(
            "model_offline", f"the model hub cannot be reached and no copy of {MODEL_REPO} is kept", repo=MODEL_REPO
        ) from None
    etag = (metadata.etag or "").strip('"')
    sha256 = etag if len(etag) == 64 and all(c in "0123456789abcdef" for c in etag) else None
    return RemoteFile(name, metadata.location or url, int(metadata.size or 0), sha256)


def on_disk(target: Path, f: RemoteFile) -> int:
    """Bytes of `f` already in `target`: the whole file, or what a cut download left in its .part."""
    for path in (target / f.name, target / f"{f.name}.part"):
        if path.is_file():
            return min(path.stat().st_size, f.size)
    return 0


DISK_MARGIN_BYTES = 50_000_000  # left free after the download: a full disk breaks more than this download


def check_disk_space(target: Path, coming: int) -> None:
    """model_disk_space when the disk under `target` has not room for `coming` more bytes and the margin."""
    free = shutil.disk_usage(target).free
    if free < coming + DISK_MARGIN_BYTES:
        raise EngineInputError(
            "model_disk_space",
            f"{target} has {free} bytes free; the download needs {coming} more and {DISK_MARGIN_BYTES} to spare",
            needed=math.ceil((coming + DISK_MARGIN_BYTES) / 1e6),
            free=int(free // 1e6),
        )


def fetch(f: RemoteFile, target: Path, report: Callable[[str, int], None]) -> None:
    """`f` into target/f.name, continuing its .part where a cut download left it, checked before it is used."""
    part = target / f"{f.name}.part"
    size = part.stat().st_size if part.is_file() else 0
    if size > f.size:
        part.unlink()  # not this file's beginning: fetched anew
        size = 0
    if size < f.size:
        size = receive(f, part, size, report)
    if size != f.size:
        raise cut(f, size, f"{size} of {f.size} bytes arrived")
    if f.sha256 is not None and sha256_of(part) != f.sha256:
        part.unlink()
        raise EngineInputError(
            "model_download_damaged",
            f"{f.name} does not have the hub's sha256 {f.sha256}",
            repo=MODEL_REPO,
            file=f.name,
        )
    part.replace(target / f.name)


def receive(f: RemoteFile, part: Path, start: int, report: Callable[[str, int], None]) -> int:
    """The bytes of `f` from `start` on, appended to `part` (an HTTP range); how many `part` then has."""
    from huggingface_hub import get_session
    from huggingface_hub.utils import build_hf_headers

    headers = build_hf_headers()
    if start:
        headers["Range"] = f"bytes={start}-"
    try:
        with get_session().stream(
            "GET", f.url, headers=headers, follow_redirects=True, timeout=DOWNLOAD_STALL_SECONDS
        ) as response:
            if response.status_code not in (200, 206):
                raise EngineInputError(
                    "model_download_refused",
                    f"the hub answered {response.status_code} for {f.url}",
                    repo=MODEL_REPO,
                    status=response.status_code,
                )
            size = start if response.status_code == 206 else 0  # a 200 to a range: the whole file again
            with open(part, "ab" if size else "wb") as out:
                for chunk in response.iter_bytes():  # as it arrives: a cut connection loses nothing read
                    out.write(chunk)
                    size += len(chunk)
                    report(f.name, size)
    except EngineInputError:
        raise
    except OSError as error:  # the disk: full, read-only, gone
        raise EngineInputError(
            "model_download_failed", f"writing {part} failed: {error}", repo=MODEL_REPO, reason=type(error).__name__
        ) from None
    except Exception as error:  # the connection: dropped, stalled past DOWNLOAD_STALL_SECONDS
        raise cut(f, part.stat().st_size if part.is_file() else 0, error) from None
    return size


def cut(f: RemoteFile, size: int, why: object) -> EngineInputError:
    """model_download_cut: `size` bytes of `f` arrived and are kept for the next try."""
    return EngineInputError(
        "model_download_cut",
        f"downloading {f.name} stopped after {size} of {f.size} bytes: {why}",
        repo=MODEL_REPO,
        file=f.name,
        done=int(size // 1e6),
        size=math.ceil(f.size / 1e6),
    )


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes, read a chunk at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(DOWNLOAD_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()
