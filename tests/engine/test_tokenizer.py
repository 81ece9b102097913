"""engine.tokenizer's compact Unigram against `tokenizers` itself: the same pieces, ids, offsets, words and special
flags, on the real XLM-R tokenizer.json and thousands of sentences in many scripts (tests/engine/
multilingual_sample.py), and its Viterbi search on random small vocabularies against tokenizers' Unigram model."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import multilingual_sample
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tokenizer import CompactUnigram, UnigramPieces, compact_reading, read_tokenizer_file
from harness.tiny_model import SPANISH_VOCAB, XLMR_VOCAB, sentencepiece_tokenizer, wordpiece_tokenizer

FIELDS = ("ids", "tokens", "offsets", "word_ids", "special_tokens_mask")  # all the page reads of an encoding


@pytest.fixture(scope="module")
def both(xlmr_tokenizer):
    """The real XLM-R tokenizer.json read by tokenizers and by engine.tokenizer."""
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(xlmr_tokenizer)), read_tokenizer_file(xlmr_tokenizer)


def read(encoding) -> dict:
    """The fields the page reads, offsets as tuples."""
    return {f: [tuple(x) if isinstance(x, list | tuple) else x for x in getattr(encoding, f)] for f in FIELDS}


def disagreements(reference, compact, sentences: list[str]) -> list[tuple[str, dict, dict]]:
    found = []
    for sentence in sentences:
        expected, got = read(reference.encode(sentence)), read(compact.encode(sentence))
        if expected != got:
            found.append((sentence, expected, got))
    return found


def test_the_real_xlmr_file_is_read_by_the_compact_unigram(both):
    reference, compact = both
    assert isinstance(compact, CompactUnigram)
    assert compact.get_vocab_size() == reference.get_vocab_size() == XLMR_VOCAB
    assert compact.get_vocab_size(with_added_tokens=False) == reference.get_vocab_size(with_added_tokens=False)


def test_the_lessons_sentence_has_the_pieces_tokenizers_gives(both):
    _, compact = both
    encoding = compact.encode("el perro come carne porque tiene hambre")
    # read off tokenizers 0.23.3 for this file
    pieces = ["<s>", "▁el", "▁per", "ro", "▁come", "▁carne", "▁porque", "▁tiene", "▁ham", "bre", "</s>"]
    assert encoding.tokens == pieces
    assert encoding.ids == [0, 88, 117, 516, 1380, 20366, 3757, 5904, 2057, 4134, 2]
    assert encoding.offsets[2:4] == [(2, 6), (6, 8)]
    assert encoding.word_ids == [None, 0, 1, 1, 2, 3, 4, 5, 6, 6, None]
    assert encoding.special_tokens_mask == [1] + [0] * 9 + [1]


def test_sentences_written_in_30_languages_agree_piece_for_piece(both):
    sentences = multilingual_sample.written()
    assert len(sentences) == 120
    assert disagreements(*both, sentences) == []


def test_sentences_glued_from_the_vocabularys_own_pieces_agree_piece_for_piece(both, xlmr_tokenizer):
    vocab = [piece for piece, _ in json.loads(xlmr_tokenizer.read_text("utf-8"))["model"]["vocab"]]
    sentences = multilingual_sample.glued_from_pieces(vocab, 3000)
    reference, _ = both
    unknown = sum(3 in reference.encode(s).ids for s in sentences)  # some pieces only meet others in a word
    assert 0 < unknown < len(sentences)
    assert disagreements(*both, sentences) == []


def test_random_text_from_many_scripts_with_odd_and_added_tokens_agrees_piece_for_piece(both):
    sentences = multilingual_sample.random_text(2000)
    reference, _ = both
    # the sample reaches what the reading must get right: unknown characters, typed added tokens, characters
    # the normalizer removes or rewrites (offsets then differ from one character per piece)
    encodings = [reference.encode(s) for s in sentences]
    assert sum(3 in e.ids for e in encodings) > 100
    assert sum(250001 in e.ids or 0 in e.ids[1:] for e in encodings) > 100
    assert disagreements(*both, sentences) == []


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(exclude_categories=["Cs"]), max_size=60))
def test_any_text_agrees_piece_for_piece(both, text):
    assert disagreements(*both, [text]) == []


# --- the search itself, on small vocabularies ---

PIECE_ALPHABET = "ab▁c"


@st.composite
def vocabularies(draw):
    """A Unigram vocabulary over a few letters, with scores drawn from a few values (so totals tie; one above 0,
    against which an unknown letter's penalty decides), unk first; a piece may be listed twice (its last id wins)."""
    pieces = draw(st.lists(st.text(PIECE_ALPHABET, min_size=1, max_size=4), min_size=1, max_size=25))
    values = st.sampled_from([-1.0, -2.0, -2.5, -3.0, -0.5, 8.0])
    scores = draw(st.lists(values, min_size=len(pieces), max_size=len(pieces)))
    return [("<unk>", 0.0), *zip(pieces, scores, strict=True)]


@settings(max_examples=500, deadline=None)
@given(vocab=vocabularies(), word=st.text(PIECE_ALPHABET + "d", min_size=1, max_size=12))
def test_the_viterbi_search_segments_as_tokenizers_unigram_does(vocab, word):
    """Ties, unknown letters ("d" is in no piece) and their fusion, pieces of any length: as tokenizers' model."""
    from tokenizers import Tokenizer
    from tokenizers.models import Unigram

    reference = Tokenizer(Unigram(vocab, unk_id=0)).encode(word)
    pieces = UnigramPieces([p for p, _ in vocab], np.array([s for _, s in vocab]), unk_id=0)
    expected = list(zip(reference.tokens, reference.ids, strict=True))
    assert pieces.segment(word) == expected
    assert UnigramPieces.from_arrays(pieces.arrays()).segment(word) == expected  # stored and read back


def test_files_the_compact_reading_does_not_cover_are_read_by_tokenizers(tmp_path):
    from tokenizers import Tokenizer

    wordpiece = tmp_path / "wordpiece.json"
    wordpiece_tokenizer(SPANISH_VOCAB).save(str(wordpiece))
    assert isinstance(read_tokenizer_file(wordpiece), Tokenizer)
    unigram = json.loads(sentencepiece_tokenizer().to_str())
    assert compact_reading(unigram)
    for change in (
        {"model": {**unigram["model"], "byte_fallback": True}},
        {"added_tokens": [{"id": 0, "content": "<s>", "normalized": True, "special": True}]},
        {"added_tokens": [{"id": 0, "content": "<s>", "lstrip": True, "special": True}]},
        {"post_processor": {"type": "RobertaProcessing"}},
    ):
        assert not compact_reading({**unigram, **change})


def test_a_run_the_normalizer_empties_counts_as_no_word(tmp_path):
    """Between two added tokens, a run of text the normalizer removes whole is dropped before words are counted
    (here a file without a pre-tokenizer: its one word per run would otherwise be counted)."""
    from tokenizers import Tokenizer, normalizers

    reference = sentencepiece_tokenizer()
    reference.pre_tokenizer = None
    reference.normalizer = normalizers.Replace("x", "")
    reference.add_special_tokens(["<mask>"])
    path = tmp_path / "tokenizer.json"
    reference.save(str(path))
    compact = read_tokenizer_file(path)
    assert isinstance(compact, CompactUnigram)
    sentences = ["x<mask>ro", "xx<mask>x<mask>perro", "per<mask>xxx", "<mask>", "x"]
    assert disagreements(Tokenizer.from_file(str(path)), compact, sentences) == []
    assert compact.encode("x<mask>ro").word_ids == [None, 0, 1, None]


# --- the vocabulary kept in a cache folder ---


def test_a_vocabulary_stored_by_another_process_is_read_back_without_the_json(xlmr_tokenizer, tmp_path, monkeypatch):
    """Stored by a server with another hash seed (Python's own str hash differs there; byte_hashes does not), read
    here without the file's vocabulary (its JSON is not parsed whole), and tokenizing as tokenizers does."""
    import subprocess
    import sys

    from tokenizers import Tokenizer

    from engine import tokenizer
    from tests.conftest import ROOT

    cache = tmp_path / "cache"
    script = (
        "import sys; from engine.tokenizer import read_tokenizer_file; read_tokenizer_file(sys.argv[1], sys.argv[2])"
    )
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # another seed than this process's
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script, str(xlmr_tokenizer), str(cache)], check=True, env=env, timeout=120)
    (stored,) = cache.iterdir()
    digest = hashlib.sha256(xlmr_tokenizer.read_bytes()).hexdigest()
    assert stored.name == f"unigram-{tokenizer.STORED_FORMAT}-{digest}.npz" == tokenizer.stored_name(xlmr_tokenizer)

    parsed: list[int] = []
    loads = tokenizer.json.loads

    def noted_loads(text, *args, **kwargs):
        parsed.append(len(text))
        return loads(text, *args, **kwargs)

    def no_vocabulary(*args, **kwargs):
        raise AssertionError("the vocabulary was built from the file's pieces")

    monkeypatch.setattr(tokenizer.json, "loads", noted_loads)
    monkeypatch.setattr(tokenizer.UnigramPieces, "__init__", no_vocabulary)
    compact = read_tokenizer_file(xlmr_tokenizer, cache)
    monkeypatch.undo()
    assert parsed and max(parsed) < len(xlmr_tokenizer.read_bytes()) / 10  # only the settings, not the 17 MB
    assert isinstance(compact, CompactUnigram)
    reference = Tokenizer.from_file(str(xlmr_tokenizer))
    assert compact.get_vocab_size() == reference.get_vocab_size()
    sentences = multilingual_sample.written() + multilingual_sample.random_text(300)
    assert disagreements(reference, compact, sentences) == []


def small_unigram(tmp_path) -> Path:
    path = tmp_path / "tokenizer.json"
    sentencepiece_tokenizer().save(str(path))
    return path


def test_a_damaged_stored_file_is_read_again_from_the_json_and_replaced(tmp_path):
    from tokenizers import Tokenizer

    from engine.tokenizer import read_stored, stored_name

    path, cache = small_unigram(tmp_path), tmp_path / "cache"
    cache.mkdir()
    stored = cache / stored_name(path)
    reference = Tokenizer.from_file(str(path))
    sentences = ["el perro come", "la perra comía", "xyz <s> perro"]
    read_tokenizer_file(path, cache)
    whole = stored.read_bytes()
    for damaged in (b"", b"not a zip", whole[: len(whole) // 2]):
        stored.write_bytes(damaged)
        assert read_stored(stored) is None
        compact = read_tokenizer_file(path, cache)
        assert disagreements(reference, compact, sentences) == []
        assert read_stored(stored) is not None  # written again, whole


def test_a_cache_folder_that_cannot_be_written_only_costs_the_json(tmp_path):
    from tokenizers import Tokenizer

    path = small_unigram(tmp_path)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    compact = read_tokenizer_file(path, blocked / "cache")  # its parent is a file: the folder cannot be made
    assert isinstance(compact, CompactUnigram)
    assert disagreements(Tokenizer.from_file(str(path)), compact, ["el perro come"]) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "tokenizer.json"]


def test_byte_hashes_are_zlibs_two_checksums():
    """Adler-32 above, CRC-32 below: the checksums' published values for "" and "a" (the same in every process)."""
    from engine.tokenizer import byte_hashes

    got = byte_hashes([b"", b"a", b"a"])
    assert got.dtype == np.uint64
    assert got.tolist() == [1 << 32, (0x00620062 << 32) | 0xE8B7BE43, (0x00620062 << 32) | 0xE8B7BE43]


def test_stored_arrays_that_do_not_hold_together_are_refused(tmp_path):
    """A stored vocabulary is read back only if it holds together; otherwise the file's JSON is read again."""
    from engine.tokenizer import read_stored, stored_name

    path, cache = small_unigram(tmp_path), tmp_path / "cache"
    compact = read_tokenizer_file(path, cache)
    stored = cache / stored_name(path)
    with np.load(stored) as kept:
        good = {name: kept[name] for name in kept.files}
    assert isinstance(read_stored(stored), CompactUnigram)
    size = len(good["scores"])
    order = good["order"]
    settings = json.loads(good["settings"].tobytes())
    other_unk = {**settings, "model": {**settings["model"], "unk_id": int(good["unk_id"]) + 1}}
    byte_fallback = {**settings, "model": {**settings["model"], "byte_fallback": True}}
    damaged = {
        "order out of range": {"order": (order + size).astype(np.int32)},
        "an id twice": {"order": np.concatenate([order[:1], order[:-1]]).astype(np.int32)},
        "order of another type": {"order": order.astype(np.int64)},
        "hashes not sorted": {"hashes": good["hashes"][::-1].copy()},
        "hashes of other pieces": {"hashes": good["hashes"] + np.uint64(1)},
        "starts going back": {"starts": good["starts"][[0, 2, 1, *range(3, size + 1)]]},
        "settings of another unk": {"settings": np.frombuffer(json.dumps(other_unk).encode(), dtype=np.uint8)},
        "settings read otherwise": {"settings": np.frombuffer(json.dumps(byte_fallback).encode(), dtype=np.uint8)},
    }
    for what, change in damaged.items():
        np.savez(stored.with_suffix(""), **{**good, **change})  # np.savez adds the .npz
        assert read_stored(stored) is None, what
        again = read_tokenizer_file(path, cache)
        assert again.encode("el perro come").ids == compact.encode("el perro come").ids, what
