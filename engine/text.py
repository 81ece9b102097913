"""What typed or shared text the engine accepts: characters it can encode, show and share, seen in full.

A name or sentence travels to the browser, into links (UTF-8) and into figure labels. A lone surrogate
cannot be encoded, so it would break every later run; a control character (newline, tab, NUL) breaks the
line it is shown on; a bidi override or isolate reorders the text around it, so what is shown is not what
was typed. Right-to-left letters, accents and emoji with their modifiers are ordinary text and pass.

A token name must also be seen whole and told apart: `hidden_character` finds what would be there unseen (format
characters, selectors that select nothing, blank letters) and `skeleton` what two names look like.
"""

from __future__ import annotations

import functools
import unicodedata

from engine.limits import MAX_NUMBER_CHARS

# Explicit embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI). The marks
# LRM, RLM and ALM stay allowed: Hebrew and Arabic text carries them and they cannot reorder anything.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Characters that draw nothing although their category says they are letters, symbols or marks: the Hangul fillers
# (Lo), the braille blank U+2800 and the musical null notehead U+1D159 (So), the Khmer inherent vowels U+17B4-5 and
# the combining grapheme joiner U+034F (Mn). Taken from the published lists of characters that render blank (the
# rest of those lists are spaces, Zs, and format characters, Cf, which are refused by category).
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159\u17b4\u17b5\u034f")
ZWJ, ZWNJ = "\u200d", "\u200c"
_EMOJI_VS = frozenset("\ufe0e\ufe0f")  # text and emoji presentation: ❤ and ❤️, 1 and the keycap 1️⃣
_BLACK_FLAG = "\U0001f3f4"  # 🏴, then tag letters and the cancel tag: the flags of England, Scotland, Wales
_TAG_END = "\U000e007f"


def code_point(char: str) -> str:
    """A character as the UI names it, e.g. "U+D800": printable even when the character itself is not."""
    return f"U+{ord(char):04X}"


def forbidden_character(text: str, *, whitespace_allowed: bool) -> str | None:
    """The first character `text` must not hold, or None.

    Forbidden: lone surrogates (Cs: not encodable), control characters (Cc), line and paragraph separators
    (Zl, Zp), and the bidi embeddings, overrides and isolates. `whitespace_allowed` lets a sentence keep
    its newlines and tabs (the tokenizer splits on them); a name may hold none of them."""
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") and whitespace_allowed and char.isspace():
            continue
        if category in ("Cs", "Cc", "Zl", "Zp") or char in BIDI_CONTROLS:
            return char
    return None


def is_invisible(text: str) -> bool:
    """True when nothing in `text` draws a glyph: only spaces (Z*), format characters (Cf, e.g. zero-width
    space and joiner, soft hyphen), combining marks with no base (Mn, Me, e.g. variation selectors)
    or the BLANK_CHARACTERS (Hangul fillers, braille blank…)."""
    return all(
        unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cf", "Mn", "Me") or char in BLANK_CHARACTERS for char in text
    )


def _is_virama(char: str) -> bool:
    return unicodedata.combining(char) == 9


def _is_arabic_letter(char: str) -> bool:
    return unicodedata.category(char) == "Lo" and unicodedata.name(char, "").startswith("ARABIC")


def _is_pictograph(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or char in _EMOJI_VS


def _shows_something(text: str, i: int) -> bool:
    """Whether the format character or selector at `i` does visible work where it stands (else it is hidden)."""
    char, before = text[i], text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if char == ZWJ and before and after and _is_pictograph(before) and unicodedata.category(after) == "So":
        return True  # an emoji sequence: 👩‍💻, 🏳️‍🌈
    if char in (ZWJ, ZWNJ) and before and _is_virama(before):
        return True  # a conjunct's shape in an Indic script (RFC 5892's rule for joiners in names)
    if char == ZWNJ and before and after and _is_arabic_letter(before) and _is_arabic_letter(after):
        return True  # a Persian word's non-joining letters
    if "\U000e0020" <= char <= _TAG_END:
        run = text[: i + 1].rstrip("".join(chr(c) for c in range(0xE0020, 0xE0080)))
        return run.endswith(_BLACK_FLAG) and _TAG_END in text[i:]  # a subdivision flag
    if char in _EMOJI_VS:
        return bool(before) and unicodedata.category(before)[0] not in "LMZC"  # after a symbol or digit
    if "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef":
        return bool(before) and unicodedata.name(before, "").startswith("CJK")  # an ideograph's variant
    if "\u180b" <= char <= "\u180f" and char != "\u180e":
        return bool(before) and "\u1800" <= before <= "\u18af"  # a Mongolian letter's variant form
    return False


def _is_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef" or "\u180b" <= char <= "\u180f"


def hidden_character(text: str) -> str | None:
    """The first character of `text` that would be there without being seen, or None: a format character (Cf:
    zero-width space, joiners, word joiner, soft hyphen, byte-order mark, LRM/RLM, tag characters…), a variation
    selector, or one of the BLANK_CHARACTERS; joiners, tags and selectors that do visible work where they stand
    (an emoji sequence, an Indic conjunct, a Persian word, a subdivision flag, an emoji's or ideograph's variant)
    are not hidden."""
    for i, char in enumerate(text):
        hidden = char in BLANK_CHARACTERS or unicodedata.category(char) == "Cf" or _is_selector(char)
        if hidden and not _shows_something(text, i):
            return char
    return None


@functools.cache
def _confusable_classes() -> dict[str, str]:
    """Each character Unicode lists as confusable (confusables.txt, as the package confusable_homoglyphs ships it)
    mapped to one representative of all the characters it can be mistaken for, directly or through others: the
    first in (ASCII before the rest, then code point) order, so Cyrillic «р» and Greek «ρ» become Latin «p».
    Loaded on first use: 0.1 s and a few MB, once per process."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    for char, homoglyphs in confusables_data.items():
        for entry in homoglyphs:
            a, b = root(char), root(entry["c"])
            if a != b:
                first, second = sorted((a, b), key=lambda c: (not c.isascii(), c))
                parent[second] = first
    return {char: root(char) for char in parent}


def skeleton(text: str) -> str:
    """What `text` looks like, for telling two names apart (after Unicode's UTS #39 skeleton): decomposed (NFD),
    without the characters that draw nothing (format characters, selectors, BLANK_CHARACTERS), each character
    replaced by its class's representative (`_confusable_classes`). Two names with one skeleton look the same."""
    classes = _confusable_classes()
    kept = (
        c
        for c in unicodedata.normalize("NFD", text)
        if not (unicodedata.category(c) == "Cf" or _is_selector(c) or c in BLANK_CHARACTERS)
    )
    return unicodedata.normalize("NFD", "".join(classes.get(c, c) for c in kept))


def shown(value: object, limit: int = MAX_NUMBER_CHARS) -> str:
    """What the user gave, short and printable, for an error's message: never the cause of a second error.

    At most `limit` characters (then "…"); characters `forbidden_character` refuses become U+FFFD."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        text = f"{'-' if value < 0 else ''}1e+{limit}…"  # str() of an int of 5000 digits raises
    else:
        try:
            text = value if isinstance(value, str) else str(value)
        except Exception:  # an object whose __str__ fails is still refused, named by its type
            text = type(value).__name__
    if len(text) > limit:
        text = text[:limit] + "…"
    return "".join("\ufffd" if forbidden_character(char, whitespace_allowed=False) else char for char in text)
