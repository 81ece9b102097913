"""What typed or shared text the engine accepts: characters it can encode, show and share, seen in full.

A name or sentence travels to the browser, into links (UTF-8) and into figure labels. A lone surrogate
cannot be encoded, so it would break every later run; a control character (newline, tab, NUL) breaks the
line it is shown on; a bidi override or isolate reorders the text around it, so what is shown is not what
was typed. Right-to-left letters, accents and emoji with their modifiers are ordinary text and pass.
"""

from __future__ import annotations

import unicodedata

from engine.limits import MAX_NUMBER_CHARS

# Explicit embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI). The marks
# LRM, RLM and ALM stay allowed: Hebrew and Arabic text carries them and they cannot reorder anything.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Letters (category Lo) that draw nothing: a name made only of them would look empty.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


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
    or the Hangul fillers."""
    return all(
        unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cf", "Mn", "Me") or char in _BLANK_LETTERS for char in text
    )


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
