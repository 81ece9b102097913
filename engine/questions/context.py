"""The question before «what attention is for»: will the same word have the same vector in two sentences? Asked on
the real-model page (a pretrained encoder) and on the pipeline page (the lesson's engine, made-up weights). Its
answer comes from the two vectors the page then shows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.context import WordPair
from engine.questions.core import KeyDraft, Templates
from engine.questions.picking import SHOWN_GAP


@dataclass(frozen=True)
class WordPairView:
    """One word in two sentences: whether it enters both the same (the same word-table rows, or the same x) and
    the cosine of its two vectors where the page compares them last (the last layer, or attention's output)."""

    word: str
    same_input: bool
    final_cosine: float

    @classmethod
    def of(cls, pair: WordPair) -> WordPairView:
        """The real model's pair: the word-table rows in, the last layer's vectors out."""
        return cls(pair.first.word, pair.same_pieces, float(pair.cosines[-1]))


ask = Templates(WordPairView)
PICKS = {
    "word_mixes_context": "same_neighbours",  # never wrong as asked: the question is put only where the two differ
    "word_same_vector": "one_vector_per_word",
    "word_meaning_lookup": "meaning_lookup",
    "word_position_only": "only_position_counts",
}


def _same_word(view: WordPairView, rng: np.random.Generator) -> Iterator[KeyDraft]:
    """Different after attention, from the other words; not asked when they differ by less than the digits shown
    can tell (the reveal would say 1.000 for "different"), nor when the two come out the same (identical
    sentences, or a causal mask that hides what differs): the only "yes" among the options gives the wrong
    reason, one vector per word, and the mistake of "no" would claim the same neighbours in the same order."""
    gap = 1.0 - view.final_cosine
    if not np.isfinite(gap) or gap <= SHOWN_GAP / 2:
        return
    yield KeyDraft(dict(word=view.word), "word_mixes_context")


ask.keyed("real_model.same_word", section="real_model.context", params=("word",), picks=PICKS)(_same_word)
ask.keyed("pipeline.same_word", section="pipeline.context", params=("word",), picks=PICKS)(_same_word)
