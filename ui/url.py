"""Numbers read from the address bar: one bounded, ASCII-only reader for every one of them.

A URL's text is anyone's text. `str.isdigit` accepts "³", "①" and digits of other scripts that `int` refuses
(or reads as other numbers), and `int` on 5,000 nines works through a number no page can use (Python refuses
more than 4,300 digits outright). `url_int` accepts only the ASCII digits 0-9, at most as many as the largest
value allowed has, and a value within the range; anything else is no number at all (None), for the caller to
say so and go on.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def url_int(text: object, low: int, high: int) -> int | None:
    """`text` as an integer from `low` to `high` (0 ≤ low ≤ high), or None when it is not one: only the ASCII
    digits, no sign, no spaces, and no more digits than `high` has, so that `int` only ever sees a few of them."""
    if not isinstance(text, str) or len(text) > len(str(high)) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None
