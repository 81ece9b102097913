"""A model's tokenizer from its tokenizer.json: `tokenizers` itself, or, for a Unigram (SentencePiece) vocabulary,
`tokenizers`' own pipeline around a compact Unigram model of this module.

Why a model of our own: `tokenizers` keeps a Unigram vocabulary in a byte trie with a hash map per node. For XLM-R's
250,002 pieces (the multilingual model the page downloads) that took 265-282 MB of a server's memory and 2.9 s to
load (measured: benchmarks/bench_encoder.py); the same pieces in UnigramPieces' arrays take about 12 MB. Everything
else stays `tokenizers`': the normalizer (SentencePiece's precompiled charsmap), the pre-tokenizer (Metaspace), the
offsets back into the typed text and the word numbering are `tokenizers`' own objects, built from the same file;
the split of the added tokens (<s>, <mask>, ...) is this module's, leftmost-longest as tokenizers' AddedVocabulary
matches them. Only the Viterbi search over the pieces is ours, written as `tokenizers`' Unigram::encode_optimized
is (the same scores summed in the same order, the same ties, the same unknown pieces); tests/engine/
test_tokenizer.py checks it piece for piece, with ids, offsets and words, against `tokenizers` on thousands of
sentences in many scripts.

A file this module does not read the same way (another model type, byte fallback, added tokens that are normalized
or strip spaces, a post-processor other than a template) is given to `tokenizers` whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from engine.errors import EngineInputError

UNK_PENALTY = 10.0  # tokenizers' K_UNK_PENALTY: an unknown character scores the vocabulary's lowest minus this


class SentenceTokenizer(Protocol):
    """A tokenizers.Tokenizer, or a CompactUnigram: what model_files.tokenize calls."""

    def encode(self, sequence: str) -> Any:
        """The sentence's pieces: an object with the attributes of Pieces."""
        ...

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """Pieces in the vocabulary (with the added tokens beyond it, or not)."""
        ...


@dataclass(frozen=True)
class Pieces:
    """A tokenized sentence, with the attributes of a tokenizers.Encoding that the page reads."""

    ids: list[int]
    tokens: list[str]
    offsets: list[tuple[int, int]]
    word_ids: list[int | None]
    special_tokens_mask: list[int]


def byte_hashes(strings: Iterable[bytes]) -> np.ndarray:
    """A 64-bit hash of each byte string, the same in every process (Python's own hash is salted per process):
    zlib's Adler-32 in the high 32 bits, its CRC-32 in the low. (n,) uint64.

    Not a hash computed with numpy over the vocabulary's bytes at once: its temporaries, 8 bytes per byte of the
    vocabulary, raised the server's peak while it loads the model by 35 MB (measured on XLM-R's)."""
    return np.fromiter(((zlib.adler32(s) << 32) | zlib.crc32(s) for s in strings), dtype=np.uint64)


class UnigramPieces:
    """A Unigram vocabulary and its best segmentation of a word: tokenizers' Unigram model, kept compact.

    No Python object per piece: the pieces' UTF-8 bytes lie end to end in one bytes object, found through a sorted
    array of their hashes (`byte_hashes`: the same for every process, so the arrays can be stored and read back
    whole, see `read_tokenizer_file`'s cache), and every hit is checked against the bytes, so a hash shared by two
    strings never confuses them. For XLM-R's 250,002 pieces that is about 12 MB, against 55 MB for a dict of them
    (and 265-282 MB in tokenizers' trie)."""

    def __init__(self, pieces: list[str], scores: np.ndarray, unk_id: int) -> None:
        encoded = [piece.encode("utf-8") for piece in pieces]
        self.blob = b"".join(encoded)  # every piece's bytes, in vocabulary order
        self.starts = np.zeros(len(pieces) + 1, dtype=np.int64)  # (vocab + 1,)  piece i is blob[starts[i]:starts[i+1]]
        np.cumsum([len(e) for e in encoded], out=self.starts[1:])
        hashes = byte_hashes(encoded)  # (vocab,)
        self.order = np.argsort(hashes, kind="stable").astype(np.int32)  # (vocab,)  ids by hash
        self.hashes = hashes[self.order]  # (vocab,)  sorted
        self.scores = np.asarray(scores, dtype=np.float64)  # (vocab,)
        self.unk_id = unk_id
        self.unk_score = float(self.scores.min()) - UNK_PENALTY  # an unknown character's
        self.longest = max(map(len, pieces), default=0)  # in characters

    def arrays(self) -> dict[str, np.ndarray]:
        """The vocabulary as arrays, for np.savez; `from_arrays` takes them back as they are."""
        return {
            "blob": np.frombuffer(self.blob, dtype=np.uint8),
            "starts": self.starts,
            "order": self.order,
            "hashes": self.hashes,
            "scores": self.scores,
            "unk_id": np.array(self.unk_id),
            "longest": np.array(self.longest),
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> UnigramPieces:
        """The vocabulary that `arrays()` gave; ValueError when the arrays do not fit together."""
        dtypes = {"blob": np.uint8, "starts": np.int64, "order": np.int32, "hashes": np.uint64, "scores": np.float64}
        if any(np.asarray(arrays[name]).dtype != dtype for name, dtype in dtypes.items()):
            raise ValueError("the vocabulary's arrays are not of their types")
        pieces = cls.__new__(cls)
        pieces.blob = np.asarray(arrays["blob"]).tobytes()
        pieces.starts = np.asarray(arrays["starts"])
        pieces.order = np.asarray(arrays["order"])
        pieces.hashes = np.asarray(arrays["hashes"])
        pieces.scores = np.asarray(arrays["scores"])
        pieces.unk_id = int(arrays["unk_id"])
        pieces.longest = int(arrays["longest"])
        size = len(pieces.scores)
        if not (
            size > 0
            and pieces.starts.shape == (size + 1,)
            and pieces.order.shape == pieces.hashes.shape == (size,)
            and pieces.starts[0] == 0
            and pieces.starts[-1] == len(pieces.blob)
            and bool(np.all(np.diff(pieces.starts) >= 0))
            and bool(np.all(np.diff(pieces.hashes) >= 0))  # sorted: searchsorted finds nothing otherwise
            and 0 <= pieces.unk_id < size
            and 0 <= int(pieces.order.min()) <= int(pieces.order.max()) < size
            and int(np.bincount(pieces.order, minlength=size).max()) == 1  # every id once
        ):
            raise ValueError("the vocabulary's arrays do not fit together")
        # the hashes are those of the pieces' bytes (checked on a spread of them: all would cost 0.25 s)
        sample = np.linspace(0, size - 1, num=min(size, 64)).astype(np.int64)
        ids = pieces.order[sample]
        bytes_of = [pieces.blob[pieces.starts[i] : pieces.starts[i + 1]] for i in ids.tolist()]
        if not np.array_equal(byte_hashes(bytes_of), pieces.hashes[sample]):
            raise ValueError("the vocabulary's hashes are not its pieces'")
        pieces.unk_score = float(pieces.scores.min()) - UNK_PENALTY
        return pieces

    def __len__(self) -> int:
        return len(self.scores)

    def ids_of(self, candidates: list[str]) -> list[int | None]:
        """Each candidate's id in the vocabulary, or None; a piece listed twice has its last id (as tokenizers)."""
        encoded = [c.encode("utf-8") for c in candidates]
        wanted = byte_hashes(encoded)
        lows = np.searchsorted(self.hashes, wanted, side="left")
        highs = np.searchsorted(self.hashes, wanted, side="right")
        found: list[int | None] = []
        for data, low, high in zip(encoded, lows.tolist(), highs.tolist(), strict=True):
            best = None
            if high > low:
                for k in range(low, high):
                    i = int(self.order[k])
                    if self.blob[self.starts[i] : self.starts[i + 1]] == data and (best is None or i > best):
                        best = i
            found.append(best)
        return found

    def segment(self, word: str) -> list[tuple[str, int]]:
        """The pieces of the highest total score that spell `word`, with their ids: Viterbi from left to right. A
        character no piece starts with is an unknown piece; unknown pieces next to each other are fused into one."""
        n = len(word)
        spans = [(b, e) for b in range(n) for e in range(b + 1, min(b + self.longest, n) + 1)]  # shortest first
        known = dict(zip(spans, self.ids_of([word[b:e] for b, e in spans]), strict=True))
        score = [0.0] * (n + 1)  # best total score of a segmentation of word[:end]
        start: list[int | None] = [None] * (n + 1)  # where the last piece of that segmentation starts
        piece_id = [0] * (n + 1)
        scores = self.scores
        for begin in range(n):
            here = score[begin]
            single = False
            for end in range(begin + 1, min(begin + self.longest, n) + 1):  # shortest first, as a trie yields them
                found = known[begin, end]
                if found is None:
                    continue
                candidate = float(scores[found]) + here
                if start[end] is None or candidate > score[end]:
                    score[end], start[end], piece_id[end] = candidate, begin, found
                single = single or end == begin + 1
            if not single:
                end, candidate = begin + 1, self.unk_score + here
                if start[end] is None or candidate > score[end]:
                    score[end], start[end], piece_id[end] = candidate, begin, self.unk_id
        pieces: list[str] = []
        unknown: list[str] = []  # unknown pieces read backwards, waiting to be fused
        end = n
        while end > 0:
            first = start[end]
            assert first is not None  # every position is reached: by a piece, or by an unknown character
            if piece_id[end] == self.unk_id:
                unknown.append(word[first:end])
            else:
                if unknown:
                    pieces.append("".join(reversed(unknown)))
                    unknown = []
                pieces.append(word[first:end])
            end = first
        if unknown:
            pieces.append("".join(reversed(unknown)))
        pieces.reverse()
        return [(piece, self.unk_id if i is None else i) for piece, i in zip(pieces, self.ids_of(pieces), strict=True)]


class CompactUnigram:
    """tokenizer.json of a Unigram model, read as tokenizers reads it, with the vocabulary in UnigramPieces."""

    def __init__(self, spec: dict[str, Any], pieces: UnigramPieces | None = None) -> None:
        """`spec`: the tokenizer.json; `pieces`: its vocabulary already read (then spec's model may leave it out)."""
        from tokenizers import Tokenizer

        model = spec["model"]
        if pieces is None:
            vocab = model["vocab"]
            pieces = UnigramPieces(
                [str(p) for p, _ in vocab], np.array([float(s) for _, s in vocab]), int(model["unk_id"])
            )
        self.pieces = pieces
        # the file without its vocabulary: what `store` keeps beside the vocabulary's arrays
        self.settings = {**spec, "model": {key: value for key, value in model.items() if key != "vocab"}}
        self.added = {str(t["content"]): int(t["id"]) for t in spec.get("added_tokens") or []}
        self.vocab_size = len(self.pieces) + sum(i >= len(self.pieces) for i in self.added.values())
        # longest first: at a position the regular expression takes the first alternative that matches
        contents = sorted(self.added, key=len, reverse=True)
        self.added_pattern = re.compile("|".join(map(re.escape, contents))) if contents else None
        self.template = template(spec.get("post_processor"))
        # tokenizers' own normalizer and pre-tokenizer, from the same file around a one-piece model
        shell = {**spec, "model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0]]}}
        shell |= {"added_tokens": [], "post_processor": None, "truncation": None, "padding": None}
        pipeline = Tokenizer.from_str(json.dumps(shell))
        self.normalizer, self.pre_tokenizer = pipeline.normalizer, pipeline.pre_tokenizer

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """Pieces in the vocabulary (and added tokens beyond it)."""
        return self.vocab_size if with_added_tokens else len(self.pieces)

    def encode(self, sequence: str) -> Pieces:
        """`sequence` as tokenizers' Tokenizer.encode gives it: the added tokens split off first, the rest
        normalized, cut into words and into pieces, then the template's special tokens around it."""
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        word = 0  # tokenizers numbers the splits of the whole sequence, an added token's included
        for begin, end, added in self.split_added(sequence):
            if added is not None:
                ids.append(added)
                tokens.append(sequence[begin:end])
                offsets.append((begin, end))
                words.append(word)
                word += 1
                continue
            encoding, splits = self.encode_text(sequence[begin:end])
            ids += encoding.ids
            tokens += encoding.tokens
            offsets += [(begin + a, begin + b) for a, b in encoding.offsets]
            words += [None if w is None else word + w for w in encoding.word_ids]
            word += splits
        mask = [0] * len(ids)
        before, after = self.template
        return Pieces(
            ids=[i for i, _ in before] + ids + [i for i, _ in after],
            tokens=[t for _, t in before] + tokens + [t for _, t in after],
            offsets=[(0, 0)] * len(before) + offsets + [(0, 0)] * len(after),
            word_ids=[None] * len(before) + words + [None] * len(after),
            special_tokens_mask=[1] * len(before) + mask + [1] * len(after),
        )

    def split_added(self, sequence: str) -> list[tuple[int, int, int | None]]:
        """The sequence in runs of text (None) and added tokens (their id), leftmost-longest."""
        runs: list[tuple[int, int, int | None]] = []
        at = 0
        for match in self.added_pattern.finditer(sequence) if self.added_pattern else ():
            if match.start() > at:
                runs.append((at, match.start(), None))
            runs.append((match.start(), match.end(), self.added[match.group()]))
            at = match.end()
        if at < len(sequence):
            runs.append((at, len(sequence), None))
        return runs

    def encode_text(self, text: str) -> tuple[Any, int]:
        """One run of text without added tokens, through tokenizers' normalizer and pre-tokenizer and our pieces:
        its encoding (offsets and words counted within the run) and how many words it has."""
        from tokenizers import PreTokenizedString, Token

        split = PreTokenizedString(text)
        if self.normalizer is not None:
            split.normalize(self.normalizer.normalize)
        if not any(normalized for normalized, _, _ in split.get_splits()):
            return _EMPTY, 0  # tokenizers drops a run the normalizer empties before cutting it into words
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(split)

        def pieces_of(word: str) -> list[Any]:
            found, at = [], 0
            for piece, piece_id in self.pieces.segment(word):
                size = len(piece.encode("utf-8"))  # tokenizers' offsets within a word count bytes
                found.append(Token(piece_id, piece, (at, at + size)))
                at += size
            return found

        words = len(split.get_splits())
        split.tokenize(pieces_of)
        return split.to_encoding(), words


_EMPTY = Pieces(ids=[], tokens=[], offsets=[], word_ids=[], special_tokens_mask=[])


def template(processor: dict[str, Any] | None) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """A TemplateProcessing's tokens before and after a single sentence, as (id, token); none without one."""
    if processor is None:
        return [], []
    special = processor["special_tokens"]
    before: list[tuple[int, str]] = []
    after: list[tuple[int, str]] = []
    side = before
    for item in processor["single"]:
        if "Sequence" in item:
            side = after
            continue
        entry = special[item["SpecialToken"]["id"]]
        side.extend(zip((int(i) for i in entry["ids"]), (str(t) for t in entry["tokens"]), strict=True))
    return before, after


def compact_reading(spec: dict[str, Any]) -> bool:
    """Whether CompactUnigram reads this tokenizer.json exactly as tokenizers does (checked by the tests)."""
    model = spec.get("model") or {}
    processor = spec.get("post_processor")
    added_plain = all(
        not any(t.get(flag) for flag in ("normalized", "lstrip", "rstrip", "single_word"))
        for t in spec.get("added_tokens") or []
    )
    return (
        model.get("type") == "Unigram"
        and not model.get("byte_fallback")
        and model.get("unk_id") is not None
        and added_plain
        and (processor is None or processor.get("type") == "TemplateProcessing")
    )


def read_tokenizer_file(path: Path, cache: Path | None = None) -> SentenceTokenizer:
    """The tokenizer of a tokenizer.json: CompactUnigram where it reads the file as tokenizers does, else
    tokenizers' own Tokenizer; padding and truncation off (a single sentence needs neither).

    `cache`: a folder where a compact vocabulary, once read, is kept as arrays under the file's SHA-256 (`store`,
    `stored_name`), so that the next server reads those instead of the file's JSON: for XLM-R's 17 MB, 0.05 s
    against 0.8 s on an idle core (README, "The real model"). A folder that cannot be written, or a stored file
    that cannot be read, only costs that time."""
    from tokenizers import Tokenizer

    try:
        stored_at = Path(cache) / stored_name(Path(path)) if cache is not None else None
        if stored_at is not None and (compact := read_stored(stored_at)) is not None:
            return compact
        # bytes decoded at once: read_text's newline translation took 0.2 s of XLM-R's 17 MB (nothing in a JSON
        # file's strings is a raw newline, so nothing else changes)
        text = Path(path).read_bytes().decode("utf-8")
        spec = json.loads(text)
        if isinstance(spec, dict) and compact_reading(spec):
            del text  # the file's text, up to 17 MB, is not kept while the vocabulary is built
            compact = CompactUnigram(spec)
        else:
            compact = None
            tokenizer = Tokenizer.from_str(text)
    except Exception as error:  # unreadable, not JSON, or what tokenizers' Rust side refuses, in its own type
        raise EngineInputError("model_bad_tokenizer", f"{path} is not a tokenizer: {error}") from None
    if compact is not None:
        if stored_at is not None:
            store(compact, stored_at)
        return compact
    # sentence-transformers' files pad every sentence to 128 tokens; a single sentence needs neither.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


# In the stored files' names: raise it when what is stored or how it is read changes (UnigramPieces' arrays,
# byte_hashes, CompactUnigram's settings, compact_reading).
STORED_FORMAT = 1


def stored_name(path: Path) -> str:
    """The name the tokenizer.json at `path` has in the cache folder (its SHA-256, read without keeping the file)."""
    with Path(path).open("rb") as file:
        digest = hashlib.file_digest(file, "sha256").hexdigest()
    return f"unigram-{STORED_FORMAT}-{digest}.npz"


def store(compact: CompactUnigram, path: Path) -> None:
    """Keep `compact` at `path` (an .npz of its vocabulary's arrays and its settings), written whole and then renamed
    into place, so that no reader ever finds half a file; nothing when it cannot be written (a cache only saves
    time: no failure of its own ever stops the tokenizer from being used)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = compact.pieces.arrays()
        arrays["settings"] = np.frombuffer(json.dumps(compact.settings).encode("utf-8"), dtype=np.uint8)
        with partial.open("wb") as file:
            np.savez(file, **arrays)
        partial.replace(path)
    except Exception:  # a full or read-only disk, a folder that is a file, ...
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def read_stored(path: Path) -> CompactUnigram | None:
    """The tokenizer `store` kept at `path`; None when there is none, or it cannot be read whole, or it does not
    hold together (UnigramPieces.from_arrays), or its settings are no longer read compactly (compact_reading)."""
    try:
        with np.load(path, allow_pickle=False) as arrays:
            settings = json.loads(arrays["settings"].tobytes().decode("utf-8"))
            pieces = UnigramPieces.from_arrays({name: arrays[name] for name in arrays.files})
        if not compact_reading(settings) or int(settings["model"]["unk_id"]) != pieces.unk_id:
            return None
        return CompactUnigram(settings, pieces)
    except FileNotFoundError:
        return None
    except Exception:  # written by something else, or damaged: the file's own JSON is read instead
        return None
