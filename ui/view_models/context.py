"""What attention is for, on the real model: one word in two sentences, against a control pair whose meaning does
not change. What the comparison may say is decided here, as a name the strings are keyed by; the numbers are
engine.context's."""

from __future__ import annotations

from dataclasses import dataclass

from engine.context import WordPair

CONTROL_MARGIN = 0.05  # the pair's last cosine must sit this far below the control's to be called "lower"


@dataclass(frozen=True)
class Example:
    """A word, two sentences where it means different things, and a control pair where it means the same."""

    word: str
    pair: tuple[str, str]
    control: tuple[str, str]


EXAMPLES = {
    "es": Example(
        "banco",
        ("me senté en el banco de la plaza", "fui al banco a pedir un préstamo"),
        ("fui al banco a pedir un préstamo", "fui al banco a abrir una cuenta"),
    ),
    "en": Example(
        "bank",
        ("I sat on the bank of the river", "I went to the bank to ask for a loan"),
        ("I went to the bank to ask for a loan", "I went to the bank to open an account"),
    ),
}


@dataclass(frozen=True)
class ContextReading:
    """How the pair's last cosine compares with the control's."""

    pair: WordPair
    control: WordPair

    @property
    def start(self) -> str:
        """How the word enters: "same" (both sentences give it the same word-table rows, cosine 1), else "split"."""
        return "same" if self.pair.same_pieces else "split"

    @property
    def verdict(self) -> str:
        """The pair against the control: "lower" (the pair ends more than CONTROL_MARGIN below the control),
        "higher" (the control ends that far below the pair), else "close"."""
        gap = float(self.control.cosines[-1] - self.pair.cosines[-1])
        if gap > CONTROL_MARGIN:
            return "lower"
        return "higher" if gap < -CONTROL_MARGIN else "close"


def stage_count(pair: WordPair) -> int:
    """Stages compared: the word table, the embeddings, then one per layer."""
    return int(pair.cosines.shape[0])
