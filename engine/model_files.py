"""A real model from its three files: config.json, model.safetensors and tokenizer.json.

All file and network IO of the real-model page lives here, so `engine.encoder` stays arithmetic. `tokenizers` and
`huggingface_hub` are imported inside the functions that use them: importing this module costs the app nothing.

Memory: the layers are read once into float64 arrays shaped for the forward pass (about 14 MB a layer at
d_model = 384). The word-embedding table, most of a multilingual model's file (250k rows), stays in the file:
a sentence reads only its own rows (see WordTable).
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Callable
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
from engine.limits import HUB_TIMEOUT_SECONDS, MAX_MODEL_TOKENS, MAX_SENTENCE_CHARS

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
    tokenizer: Any  # tokenizers.Tokenizer, with its padding and truncation switched off


def load_model(directory: str | Path) -> Model:
    """Read config.json, model.safetensors and tokenizer.json from `directory`."""
    directory = Path(directory)
    missing = missing_files(directory)
    if missing:
        raise EngineInputError(
            "model_missing_files", f"{directory} lacks {', '.join(missing)}", missing=", ".join(missing)
        )
    config = read_config(directory / "config.json")
    weights = read_weights(directory / "model.safetensors", config)
    tokenizer = read_tokenizer(directory / "tokenizer.json", config)
    return Model(directory=directory, config=config, weights=weights, tokenizer=tokenizer)


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
    # What this forward pass computes: BERT (absolute positions from 0, exact GELU). XLM-R's own architecture
    # numbers positions from 2 and is refused rather than computed wrongly.
    for field, allowed in (("model_type", ("bert",)), ("hidden_act", ("gelu",))):
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
    return EncoderConfig(
        **{ours: raw[theirs] for ours, theirs in fields.items()},
        layer_norm_eps=raw.get("layer_norm_eps", 1e-12),  # BertConfig's default when the file omits it
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


def read_tensor(path: Path, name: str, entry: TensorEntry) -> np.ndarray:
    """One tensor read from the file into memory, in the file's own dtype."""
    dtype = checked_dtype(name, entry)
    count = math.prod(entry.shape)
    try:
        array = np.fromfile(path, dtype=dtype, count=count, offset=entry.start)
    except (OSError, ValueError) as error:
        raise EngineInputError("model_bad_weights", f"{name} cannot be read: {error}", name=name) from None
    if array.size != count:
        raise EngineInputError("model_bad_weights", f"{name} is cut short in the file", name=name)
    return array.reshape(entry.shape)


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


def read_weights(path: Path, config: EncoderConfig) -> EncoderWeights:
    """The encoder's weights from a safetensors file of a BertModel (names with or without the "bert." prefix)."""
    index = safetensors_index(path)
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in index else ""

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
        return read_tensor(path, prefix + name, entry)

    return bert_weights(tensor, config)


def bert_weights(tensor: Callable[..., Any], config: EncoderConfig) -> EncoderWeights:
    """EncoderWeights from BertModel's tensors, `tensor(name, shape, on_disk=False)` giving each one as PyTorch
    stores it (None in `shape`: any size; `on_disk`: rows to be read on demand, for the word table).

    PyTorch's Linear keeps its weight as (out, in) and computes x·Wᵀ + b: each weight is transposed here, once,
    into the (in, out) the lesson multiplies by. Everything but the word table becomes float64 in memory."""
    d, d_ff, h = config.d_model, config.d_ff, config.n_heads

    def vector(name: str, size: int = d) -> np.ndarray:
        return read_only(np.array(tensor(name, (size,)), dtype=np.float64))

    def linear(name: str, d_in: int, d_out: int) -> tuple[np.ndarray, np.ndarray]:
        w = np.array(tensor(f"{name}.weight", (d_out, d_in)), dtype=np.float64).T  # (d_in, d_out)
        return read_only(np.ascontiguousarray(w)), vector(f"{name}.bias", d_out)

    def norm(name: str) -> Norm:
        return Norm(scale=vector(f"{name}.weight"), shift=vector(f"{name}.bias"))

    def layer(i: int) -> LayerWeights:
        at = f"encoder.layer.{i}."
        w_q, w_k, w_v = (linear(f"{at}attention.self.{part}", d, d) for part in ("query", "key", "value"))
        w_o, b_o = linear(f"{at}attention.output.dense", d, d)
        w_in, b_in = linear(f"{at}intermediate.dense", d, d_ff)
        w_out, b_out = linear(f"{at}output.dense", d_ff, d)
        return LayerWeights(
            w_q=read_only(with_bias_rows(*w_q, h)),
            w_k=read_only(with_bias_rows(*w_k, h)),
            w_v=read_only(with_bias_rows(*w_v, h)),
            w_o=w_o,
            b_o=b_o,
            attention_norm=norm(f"{at}attention.output.LayerNorm"),
            w_in=w_in,
            b_in=b_in,
            w_out=w_out,
            b_out=b_out,
            output_norm=norm(f"{at}output.LayerNorm"),
        )

    token_types = tensor("embeddings.token_type_embeddings.weight", (None, d))  # (type_vocab, d): row 0 is used
    return EncoderWeights(
        word_embeddings=tensor("embeddings.word_embeddings.weight", (config.vocab_size, d), on_disk=True),
        position_embeddings=read_only(
            np.array(tensor("embeddings.position_embeddings.weight", (config.max_positions, d)), dtype=np.float64)
        ),
        token_type_embedding=read_only(np.array(token_types[0], dtype=np.float64)),
        embedding_norm=norm("embeddings.LayerNorm"),
        layers=tuple(layer(i) for i in range(config.n_layers)),
    )


# --- tokenizer.json ---


def read_tokenizer(path: Path, config: EncoderConfig) -> Any:
    """A `tokenizers.Tokenizer` from tokenizer.json, without the padding or truncation the file may ask for."""
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as error:  # the Rust side raises its own exception type for any malformed file
        raise EngineInputError("model_bad_tokenizer", f"{path} is not a tokenizer: {error}") from None
    # sentence-transformers' files pad every sentence to 128 tokens; a single sentence needs neither.
    tokenizer.no_padding()
    tokenizer.no_truncation()
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


def model_directory(directory: str | Path | None = None, *, cache_dir: str | Path | None = None) -> Path:
    """Where the model's files are: `directory` if given, else $ATTENTION_MODEL_DIR, else the pinned download."""
    chosen = directory or os.environ.get(MODEL_DIR_VARIABLE, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return download_model(cache_dir)


def download_model(cache_dir: str | Path | None = None, *, endpoint: str | None = None) -> Path:
    """MODEL_FILES of MODEL_REPO at MODEL_REVISION, from the local Hugging Face cache or else from the hub (`endpoint`:
    the hub's address, None for huggingface_hub's own, HF_ENDPOINT).

    Offline (no answer from the hub, or HF_HUB_OFFLINE set) this raises EngineInputError("model_offline") within
    about HUB_TIMEOUT_SECONDS: one request asks the hub first, once, with that timeout. Left to itself the hub
    client would retry for minutes (huggingface_hub 2.4: five retries with a 60 s timeout after a failed request
    for a file's metadata; and snapshot_download lists the repository through a client with no timeout at all,
    which is why the files are fetched one by one)."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url, snapshot_download
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, LocalEntryNotFoundError

    try:  # a copy downloaded before: no network at all
        cached = Path(
            snapshot_download(
                repo_id=MODEL_REPO,
                revision=MODEL_REVISION,
                allow_patterns=list(MODEL_FILES),
                cache_dir=cache_dir,
                local_files_only=True,
            )
        )
        if not missing_files(cached):
            return cached
    except LocalEntryNotFoundError:
        pass
    offline = EngineInputError(
        "model_offline", f"the model hub cannot be reached and no copy of {MODEL_REPO} is cached", repo=MODEL_REPO
    )
    try:
        url = hf_hub_url(MODEL_REPO, MODEL_FILES[0], revision=MODEL_REVISION, endpoint=endpoint)
        get_hf_file_metadata(url, timeout=HUB_TIMEOUT_SECONDS)
    except HfHubHTTPError:
        pass  # the hub answered (an error, but it is there): the download below says what it answered
    except Exception:  # no answer: no network, no name resolution, a hub that never replies, HF_HUB_OFFLINE
        raise offline from None
    directory: Path | None = None
    missing: list[str] = []
    for name in MODEL_FILES:
        try:
            path = hf_hub_download(
                repo_id=MODEL_REPO,
                filename=name,
                revision=MODEL_REVISION,
                cache_dir=cache_dir,
                etag_timeout=HUB_TIMEOUT_SECONDS,
                endpoint=endpoint,
            )
        except LocalEntryNotFoundError:  # what huggingface_hub raises when the hub cannot be reached
            raise offline from None
        except EntryNotFoundError:  # the hub answered: this revision has no such file
            missing.append(name)
            continue
        except Exception as error:  # HTTP errors, a full disk, ...: said as they are
            raise EngineInputError(
                "model_download_failed",
                f"downloading {MODEL_REPO} failed: {type(error).__name__}: {error}",
                repo=MODEL_REPO,
                reason=f"{type(error).__name__}: {error}"[:300],
            ) from None
        directory = Path(str(path)).parent  # every file lands in the same snapshot folder of the cache
    if directory is not None:
        missing = missing_files(directory)
    if missing:
        raise EngineInputError(
            "model_missing_files",
            f"{MODEL_REPO} at {MODEL_REVISION} has no {', '.join(missing)}",
            missing=", ".join(missing),
        )
    assert directory is not None
    return directory
