"""The scenario a user works on (tokens, x, W_Q, W_K, W_V, options) and the checks on what they type."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from engine.attention import AttentionResult, Scale, attention
from engine.errors import EngineInputError
from engine.limits import MAX_ABS_VALUE, MAX_TOKEN_CHARS
from engine.presets import LESSON_TOKENS, LESSON_W_K, LESSON_W_Q, LESSON_W_V, LESSON_X, random_inputs, random_weights


def parse_number(value) -> float:
    """A cell's content as a float, or an EngineInputError saying why it cannot be one."""
    if isinstance(value, bool):
        raise EngineInputError("not_a_number", f"{value!r} is not a number", value=str(value))
    if value is None or (isinstance(value, str) and not value.strip()):
        # An emptied data-editor cell arrives as None (or ""): that is "empty", not "'None' is not a number".
        raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
    if isinstance(value, str):
        text = value.strip().replace(",", ".") if value.count(",") == 1 and "." not in value else value.strip()
        try:
            number = float(text)
        except ValueError:
            raise EngineInputError("not_a_number", f"{value!r} is not a number", value=value[:40]) from None
    else:
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise EngineInputError("not_a_number", f"{value!r} is not a number", value=str(value)[:40]) from None
    if math.isnan(number):
        raise EngineInputError("empty_or_nan", "the cell is empty or NaN")
    if math.isinf(number):
        raise EngineInputError("infinite", f"{value!r} is infinite", value=str(value)[:40])
    if abs(number) > MAX_ABS_VALUE:
        raise EngineInputError(
            "too_large", f"{number:g} exceeds ±{MAX_ABS_VALUE:g}", value=f"{number:g}", limit=f"{MAX_ABS_VALUE:g}"
        )
    return number


def check_token_name(name, others: list[str]) -> str:
    """A token name stripped of surrounding space, or an error if it is empty, too long or taken."""
    text = "" if name is None or (isinstance(name, float) and math.isnan(name)) else str(name).strip()
    if not text:
        raise EngineInputError("empty_token", "a token name cannot be empty")
    if len(text) > MAX_TOKEN_CHARS:
        raise EngineInputError(
            "token_too_long", f"token names have at most {MAX_TOKEN_CHARS} characters", limit=MAX_TOKEN_CHARS
        )
    if text in others:
        raise EngineInputError("duplicate_token", f"the token name {text!r} is already used", name=text)
    return text


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
        n, d_model = self.x.shape
        if len(self.tokens) != n:
            raise EngineInputError("shape_mismatch", f"{len(self.tokens)} token names for {n} rows of x")
        for name in ("w_q", "w_k", "w_v"):
            if getattr(self, name).shape[0] != d_model:
                raise EngineInputError("shape_mismatch", f"{name} needs {d_model} rows")
        if self.w_q.shape[1] != self.w_k.shape[1]:
            raise EngineInputError("shape_mismatch", "W_Q and W_K need the same number of columns")
        if self.scale not in tuple(Scale):
            raise EngineInputError("bad_scale", f"scale must be one of {[s.value for s in Scale]}")
        object.__setattr__(self, "scale", Scale(self.scale))

    @property
    def d_model(self) -> int:
        return self.x.shape[1]

    @property
    def d_k(self) -> int:
        return self.w_q.shape[1]

    @property
    def d_v(self) -> int:
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
        return getattr(self, name)

    def with_matrix(self, name: str, value: np.ndarray) -> Scenario:
        return replace(self, **{name: np.asarray(value, dtype=np.float64)})

    def with_d_model(self, d_model: int) -> Scenario:
        """Grow (with zeros) or cut the columns of x and the rows of every W."""
        return replace(
            self,
            x=_resize(self.x, cols=d_model),
            w_q=_resize(self.w_q, rows=d_model),
            w_k=_resize(self.w_k, rows=d_model),
            w_v=_resize(self.w_v, rows=d_model),
        )

    def with_d_k(self, d_k: int) -> Scenario:
        """Grow (with zeros) or cut the columns of W_Q, W_K and W_V together."""
        return replace(
            self,
            w_q=_resize(self.w_q, cols=d_k),
            w_k=_resize(self.w_k, cols=d_k),
            w_v=_resize(self.w_v, cols=d_k),
        )


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
