"""The scenario a user works on (tokens, x, W_Q, W_K, W_V, options) and the check of a token name they type
(a number they type is read by engine/number_grammar.py)."""

from __future__ import annotations

import math
import numbers
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.attention import AttentionResult, Scale, attention
from engine.errors import EngineInputError, checked_int
from engine.limits import D_K_RANGE, D_MODEL_RANGE, MAX_TOKEN_CHARS, TEMPERATURE_RANGE
from engine.presets import LESSON_TOKENS, LESSON_W_K, LESSON_W_Q, LESSON_W_V, LESSON_X, random_inputs, random_weights
from engine.text import code_point, forbidden_character, hidden_character, is_invisible, shown, skeleton

# NFC composes at most 4 code points into one (a letter with three marks; Hangul jamo take 3): a name longer
# than 4 × the limit is too long whatever it composes to, and is refused before it is normalised.
_NFC_MAX_SHRINK = 4


def check_token_name(name: object, others: list[str] | tuple[str, ...]) -> str:
    """A token name, NFKC-normalised and stripped of surrounding space, or an error saying why it is refused.

    A name is text a user can see, share in a link and read back (numbers typed into the column are taken as
    their text). NFKC writes compatibility forms as their plain letters ("ｐｅｒｒｏ" and "ﬁ" are "perro" and
    "fi"). Refused: empty ("empty_token"); not text ("token_not_text"); more than MAX_TOKEN_CHARS characters
    ("token_too_long"); a lone surrogate, a control character (newline, tab, NUL...), a line or paragraph
    separator, or a bidi embedding, override or isolate ("token_bad_characters", char="U+XXXX"); only invisible
    characters such as zero-width spaces or the braille blank ("token_invisible"); a character that is there
    without being seen: a format character (zero-width space, joiner where it joins nothing, soft hyphen, LRM,
    tag characters), a variation selector that selects nothing, a blank letter ("token_hidden_character",
    char="U+XXXX"; `engine.text.hidden_character`); the name of another token ("duplicate_token"); a name that
    looks the same as another's, such as Cyrillic «реrrо» beside «perro» ("token_lookalike", name=the other;
    `engine.text.skeleton`). Accents, right-to-left scripts and emoji with their modifiers are names like any other.
    """
    if name is None or (isinstance(name, float) and math.isnan(name)):
        raise EngineInputError("empty_token", "a token name cannot be empty")
    if isinstance(name, bool) or not isinstance(name, str | int | float):
        raise EngineInputError("token_not_text", "a token name must be text")
    too_long = EngineInputError(
        "token_too_long", f"token names have at most {MAX_TOKEN_CHARS} characters", limit=MAX_TOKEN_CHARS
    )
    if isinstance(name, int) and abs(name) >= 10**MAX_TOKEN_CHARS:  # str() of a 5000-digit int raises
        raise too_long
    text = str(name).strip()
    if not text:
        raise EngineInputError("empty_token", "a token name cannot be empty")
    if len(text) > _NFC_MAX_SHRINK * MAX_TOKEN_CHARS:  # too long however it composes: refused before any work
        raise too_long
    bad = forbidden_character(text, whitespace_allowed=False)
    if bad is not None:
        raise EngineInputError(
            "token_bad_characters",
            f"a token name cannot hold the character {code_point(bad)} (a control, bidi or unencodable one)",
            char=code_point(bad),
        )
    _check_visible(text)  # as typed, so a refusal names the character typed (NFKC writes U+3164 as U+1160)
    text = unicodedata.normalize("NFKC", text).strip()  # NFKC may write a spacing accent as a space and a mark
    if len(text) > MAX_TOKEN_CHARS:
        raise too_long
    _check_visible(text)
    if text in others:
        raise EngineInputError("duplicate_token", f"the token name {text!r} is already used", name=text)
    looks = skeleton(text)
    twin = next((other for other in others if skeleton(other) == looks), None)
    if twin is not None:
        raise EngineInputError(
            "token_lookalike", f"the token name {text!r} looks the same as {twin!r}, another token's", name=twin
        )
    return text


def _check_visible(text: str) -> None:
    if not text or is_invisible(text):
        raise EngineInputError("token_invisible", "a token name needs at least one visible character")
    hidden = hidden_character(text)
    if hidden is not None:
        raise EngineInputError(
            "token_hidden_character",
            f"a token name cannot hold {code_point(hidden)}, a character that is there without being seen",
            char=code_point(hidden),
        )


MATRICES = ("x", "w_q", "w_k", "w_v")


@dataclass(frozen=True)
class Scenario:
    """What the user is working on; pages read it and the editors replace it, never mutate it."""

    tokens: tuple[str, ...]  # n unique names
    x: np.ndarray  # (n, d_model)
    w_q: np.ndarray  # (d_model, d_k)
    w_k: np.ndarray  # (d_model, d_k)
    w_v: np.ndarray  # (d_model, d_v)
    scale: Scale = Scale.SQRT
    causal: bool = False
    temperature: float = 1.0

    def __post_init__(self) -> None:
        # Every field is checked, whoever builds the scenario: a wrong type is an EngineInputError here,
        # never an AttributeError or a NaN in some later step.
        tokens = self.tokens
        if not isinstance(tokens, tuple | list) or not all(isinstance(name, str) for name in tokens):
            raise EngineInputError("bad_tokens", "tokens must be a tuple of names (text)")
        names: list[str] = []
        for name in tokens:
            names.append(check_token_name(name, names))
        object.__setattr__(self, "tokens", tuple(names))
        for name in MATRICES:
            object.__setattr__(self, name, _checked_matrix(getattr(self, name), name))
        n, d_model = self.x.shape
        if len(self.tokens) != n:
            raise EngineInputError("shape_mismatch", f"{len(self.tokens)} token names for {n} rows of x", name="x")
        for name in ("w_q", "w_k", "w_v"):
            if getattr(self, name).shape[0] != d_model:
                raise EngineInputError("shape_mismatch", f"{name} needs {d_model} rows", name=name)
        if self.w_q.shape[1] != self.w_k.shape[1]:
            raise EngineInputError("shape_mismatch", "W_Q and W_K need the same number of columns", name="w_k")
        if not isinstance(self.scale, str) or self.scale not in tuple(Scale):
            raise EngineInputError("bad_scale", f"scale must be one of {[s.value for s in Scale]}")
        object.__setattr__(self, "scale", Scale(self.scale))
        if not isinstance(self.causal, bool | np.bool_):
            raise EngineInputError("bad_causal", "causal must be True or False")
        object.__setattr__(self, "causal", bool(self.causal))
        t = self.temperature
        low, high = TEMPERATURE_RANGE
        if isinstance(t, bool) or not isinstance(t, numbers.Real) or not low <= t <= high:  # NaN fails too
            raise EngineInputError(
                "bad_temperature", f"temperature must be a number from {low} to {high}", value=shown(t)
            )
        object.__setattr__(self, "temperature", float(t))

    @property
    def d_model(self) -> int:
        """The width of each token's vector x: the rows of W_Q, W_K and W_V."""
        return self.x.shape[1]

    @property
    def d_k(self) -> int:
        """The width of the queries and keys: the columns of W_Q and W_K."""
        return self.w_q.shape[1]

    @property
    def d_v(self) -> int:
        """The width of the values: the columns of W_V."""
        return self.w_v.shape[1]

    def run(self) -> AttentionResult:
        """Attention of this scenario's x with its weights and options."""
        return attention(
            self.x,
            self.w_q,
            self.w_k,
            self.w_v,
            scale=self.scale,
            mask="causal" if self.causal else None,
            temperature=self.temperature,
        )

    def matrix(self, name: str) -> np.ndarray:
        """One of the four matrices by its field name: "x", "w_q", "w_k" or "w_v"."""
        return getattr(self, name)

    def with_matrix(self, name: str, value: np.ndarray) -> Scenario:
        """This scenario with one matrix replaced (checked again, like every new Scenario)."""
        changes: dict[str, Any] = {name: value}
        return replace(self, **changes)

    def with_d_model(self, d_model: int) -> Scenario:
        """Grow (with zeros) or cut the columns of x and the rows of every W."""
        d_model = checked_int(d_model, "d_model", D_MODEL_RANGE)
        return replace(
            self,
            x=_resize(self.x, cols=d_model),
            w_q=_resize(self.w_q, rows=d_model),
            w_k=_resize(self.w_k, rows=d_model),
            w_v=_resize(self.w_v, rows=d_model),
        )

    def with_d_k(self, d_k: int) -> Scenario:
        """Grow (with zeros) or cut the columns of W_Q, W_K and W_V together."""
        d_k = checked_int(d_k, "d_k", D_K_RANGE)
        return replace(
            self,
            w_q=_resize(self.w_q, cols=d_k),
            w_k=_resize(self.w_k, cols=d_k),
            w_v=_resize(self.w_v, cols=d_k),
        )


def _checked_matrix(value: object, name: str) -> np.ndarray:
    """`value` as a finite, non-empty 2-D float64 matrix; text, booleans and objects are not numbers here."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, OverflowError):  # ragged rows
        arr = None
    if arr is None or arr.dtype.kind not in "iuf" or arr.ndim != 2 or 0 in arr.shape:
        raise EngineInputError("not_matrix", f"{name} must be a non-empty 2-D matrix of numbers", name=name)
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        raise EngineInputError("not_finite", f"{name} contains NaN or infinity", name=name)
    return arr


def _resize(m: np.ndarray, rows: int | None = None, cols: int | None = None) -> np.ndarray:
    rows = m.shape[0] if rows is None else rows
    cols = m.shape[1] if cols is None else cols
    out = np.zeros((rows, cols))
    r, c = min(rows, m.shape[0]), min(cols, m.shape[1])
    out[:r, :c] = m[:r, :c]
    return out


def lesson_scenario() -> Scenario:
    """The lesson's worked example: "el perro come", its x and its W_Q, W_K, W_V."""
    return Scenario(
        tokens=LESSON_TOKENS, x=LESSON_X.copy(), w_q=LESSON_W_Q.copy(), w_k=LESSON_W_K.copy(), w_v=LESSON_W_V.copy()
    )


def random_scenario(seed: int, tokens: tuple[str, ...] = LESSON_TOKENS, d_model: int = 4, d_k: int = 4) -> Scenario:
    """Seeded random x and weights for the given tokens: the same seed always gives the same numbers."""
    w_q, w_k, w_v = random_weights(d_model, d_k, seed)
    return Scenario(tokens=tuple(tokens), x=random_inputs(len(tokens), d_model, seed + 1), w_q=w_q, w_k=w_k, w_v=w_v)


def same_numbers(a: Scenario, b: Scenario) -> bool:
    """True when two scenarios have the same tokens, matrices and options."""
    return (
        a.tokens == b.tokens
        and (a.scale, a.causal, a.temperature) == (b.scale, b.causal, b.temperature)
        and all(
            a.matrix(name).shape == b.matrix(name).shape and np.array_equal(a.matrix(name), b.matrix(name))
            for name in ("x", "w_q", "w_k", "w_v")
        )
    )
