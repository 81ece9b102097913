"""A class's names: the room code students type, the lecturer's secret token, a student's anonymous id.

All three come from `secrets` (the OS's CSPRNG). A room code is short to type and read off a projector, so it is
no secret: what guards the class is the lecturer token (TOKEN_BYTES random bytes, ≥ 128 bits), compared in
constant time. A code typed by a person is normalised before any lookup: case, spaces and dashes do not matter,
anything outside CODE_ALPHABET (so a look-alike 0, O, 1, I or L) makes it no code at all.
"""

from __future__ import annotations

import hmac
import re
import secrets

from classroom.api import CODE_ALPHABET, CODE_LENGTH, TOKEN_BYTES, ClassError

STUDENT_ID_BYTES = 16  # 128 bits: two sessions never draw the same id
MAX_TYPED_CODE_CHARS = 32  # a typed code longer than this is not read at all
_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015\u2212]+")  # spaces (any), dashes of every width, minus signs
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
# token_urlsafe's alphabet; a student id is 16 bytes of it (22 characters), a token TOKEN_BYTES (32 for 24 bytes).
_URLSAFE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_code() -> str:
    """A fresh room code: CODE_LENGTH characters of CODE_ALPHABET (31**6 ≈ 8.9e8 codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A fresh lecturer token: TOKEN_BYTES random bytes, URL-safe (it travels in the private lecturer link)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_student_id() -> str:
    """A fresh anonymous student id (one per browser session; no name is ever asked)."""
    return secrets.token_urlsafe(STUDENT_ID_BYTES)


def normal_code(typed: object) -> str:
    """A typed room code as stored: upper case, without spaces or dashes ("ab3-k9x " -> "AB3K9X");
    ClassError("class_unknown") when it is not CODE_LENGTH characters of CODE_ALPHABET."""
    if not isinstance(typed, str) or len(typed) > MAX_TYPED_CODE_CHARS:
        raise ClassError("class_unknown")
    code = _SEPARATORS.sub("", typed)
    if not code.isascii():  # before upper(): "ß".upper() is "SS"
        raise ClassError("class_unknown")
    code = code.upper()
    if not _CODE.fullmatch(code):
        raise ClassError("class_unknown")
    return code


def is_code(code: object) -> bool:
    """True when `code` is a room code as stored (already normalised)."""
    return isinstance(code, str) and code.isascii() and _CODE.fullmatch(code) is not None


def _url_safe(text: object) -> bool:
    """URL-safe ASCII of 16 to 64 characters: the shape of every id and token this app makes."""
    return isinstance(text, str) and text.isascii() and _URLSAFE.fullmatch(text) is not None


def is_student_id(student_id: object) -> bool:
    """True when `student_id` has the shape new_student_id gives (URL-safe, 16 to 64 characters): anything else
    (empty, huge, with spaces or markup) never reaches a store."""
    return _url_safe(student_id)


def is_token(token: object) -> bool:
    """True when `token` has the shape new_token gives (URL-safe, 16 to 64 characters): whether it is a class's
    token is for the store to say (same_token)."""
    return _url_safe(token)


def same_token(given: object, expected: str) -> bool:
    """True when `given` is the lecturer token `expected`, compared in constant time (hmac.compare_digest)."""
    if not isinstance(given, str) or not given.isascii():
        return False
    return hmac.compare_digest(given.encode(), expected.encode())
