"""A scenario as JSON and as a compact URL-safe code, read back with every field checked.

Whatever arrives (a shared link, an uploaded file) is data, parsed with json and checked field by field:
sizes, shapes, finite numbers in range, token names. Nothing it carries is ever evaluated. Before json reads
it, its nesting depth is counted (json would recurse once per bracket), and json hands every number over as
text, so a 400-digit integer, 1e999 or NaN is refused by name instead of overflowing a float.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from typing import Any

import numpy as np

from engine.attention import Scale
from engine.errors import EngineInputError
from engine.limits import (
    D_K_RANGE,
    D_MODEL_RANGE,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    MAX_LINK_CHARS,
    MAX_NUMBER_CHARS,
    MAX_SCENARIO_TOKENS,
    TEMPERATURE_RANGE,
)
from engine.number_grammar import parse_number
from engine.scenario import MATRICES, Scenario, check_token_name

FORMAT_VERSION = 1


def _bad(field: str, message: str) -> EngineInputError:
    return EngineInputError("bad_scenario", f"{field}: {message}", field=field)


class _Unreadable:
    """A number JSON can spell but a scenario cannot hold (NaN, Infinity, 1e999, 400 digits): kept as a
    marker, so the field it sits in is named when it is refused."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _json_int(text: str) -> int | _Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return _Unreadable(f"a number has at most {MAX_NUMBER_CHARS} characters, this one {len(text)}")
    return int(text)


def _json_float(text: str) -> float | _Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return _Unreadable(f"a number has at most {MAX_NUMBER_CHARS} characters, this one {len(text)}")
    number = float(text)
    return number if math.isfinite(number) else _Unreadable(f"{text} is beyond any float")


def _json_constant(name: str) -> _Unreadable:
    return _Unreadable(f"{name} is not a finite number")


# A string, closed or running to the end of the text (json refuses that anyway): possessive, so each is crossed
# once, in C, and every quote starts a match that succeeds. Brackets inside strings are text, not nesting.
_STRING = re.compile(r'"(?:[^"\\]++|\\(?:.|\Z))*+(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _check_depth(text: str, field: str) -> None:
    """Refuse text nested deeper than MAX_JSON_DEPTH, counting brackets outside strings before json reads it
    (json recurses once per level, into a RecursionError). Linear and vectorised: 100 kB take a few ms."""
    outside = _STRING.sub("", text).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    brackets = np.frombuffer(outside, dtype=np.uint8)  # (m,)
    steps = np.where((brackets == ord("[")) | (brackets == ord("{")), 1, -1)  # (m,)
    if steps.size and np.cumsum(steps).max() > MAX_JSON_DEPTH:
        raise _bad(field, f"nests deeper than {MAX_JSON_DEPTH} levels")


def scenario_to_dict(scenario: Scenario) -> dict[str, Any]:
    """Plain JSON-ready data: version, tokens, the four matrices as nested lists, the options."""
    return {
        "version": FORMAT_VERSION,
        "tokens": list(scenario.tokens),
        **{name: scenario.matrix(name).tolist() for name in MATRICES},
        "scale": str(scenario.scale),
        "causal": bool(scenario.causal),
        "temperature": float(scenario.temperature),
    }


def _matrix(data: dict, name: str, rows: int | None, cols_range: tuple[int, int]) -> np.ndarray:
    value = data.get(name)
    if not isinstance(value, list) or not value or not all(isinstance(row, list) for row in value):
        raise _bad(name, "must be a non-empty list of rows")
    if rows is not None and len(value) != rows:
        raise _bad(name, f"must have {rows} rows, has {len(value)}")
    width = len(value[0])
    if not cols_range[0] <= width <= cols_range[1] or any(len(row) != width for row in value):
        raise _bad(name, f"rows must all have the same length, between {cols_range[0]} and {cols_range[1]}")
    unreadable = next((v for row in value for v in row if isinstance(v, _Unreadable)), None)
    if unreadable is not None:
        raise _bad(name, unreadable.reason)
    if any(isinstance(v, bool) or not isinstance(v, int | float) for row in value for v in row):
        raise _bad(name, "every entry must be a number")
    try:
        return np.array([[parse_number(v) for v in row] for row in value], dtype=np.float64)
    except EngineInputError as exc:
        raise _bad(name, str(exc)) from None


def scenario_from_dict(data: Any) -> Scenario:
    """A Scenario from untrusted data, or EngineInputError("bad_scenario", field=...) naming what is wrong."""
    if not isinstance(data, dict):
        raise _bad("scenario", "must be a JSON object")
    if data.get("version") != FORMAT_VERSION:
        raise _bad("version", f"must be {FORMAT_VERSION}")
    tokens = data.get("tokens")
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_SCENARIO_TOKENS:
        raise _bad("tokens", f"must be a list of 1 to {MAX_SCENARIO_TOKENS} names")
    names: list[str] = []
    for name in tokens:
        if not isinstance(name, str):
            raise _bad("tokens", "every token name must be text")
        try:
            names.append(check_token_name(name, names))
        except EngineInputError as exc:
            raise _bad("tokens", str(exc)) from None
    x = _matrix(data, "x", len(names), D_MODEL_RANGE)
    d_model = x.shape[1]
    w_q = _matrix(data, "w_q", d_model, D_K_RANGE)
    w_k = _matrix(data, "w_k", d_model, D_K_RANGE)
    w_v = _matrix(data, "w_v", d_model, D_K_RANGE)
    if w_k.shape != w_q.shape:
        raise _bad("w_k", "must have the same shape as w_q")
    scale = data.get("scale", "sqrt")
    if not isinstance(scale, str) or scale not in tuple(Scale):
        raise _bad("scale", f"must be one of {', '.join(Scale)}")
    causal = data.get("causal", False)
    if not isinstance(causal, bool):
        raise _bad("causal", "must be true or false")
    temperature = data.get("temperature", 1.0)
    if (
        isinstance(temperature, bool)
        or not isinstance(temperature, int | float)
        or not math.isfinite(temperature)
        or not TEMPERATURE_RANGE[0] <= temperature <= TEMPERATURE_RANGE[1]
    ):
        raise _bad("temperature", f"must be a number from {TEMPERATURE_RANGE[0]} to {TEMPERATURE_RANGE[1]}")
    try:
        return Scenario(
            tuple(names), x, w_q, w_k, w_v, scale=Scale(scale), causal=causal, temperature=float(temperature)
        )
    except EngineInputError as exc:  # the checks above leave nothing for Scenario to refuse; if one does, say so
        raise _bad("scenario", str(exc)) from None


def scenario_to_json(scenario: Scenario) -> str:
    """The scenario as indented JSON text, non-ASCII token names kept as they are."""
    return json.dumps(scenario_to_dict(scenario), ensure_ascii=False, indent=2)


def _parse(text: object, field: str) -> Any:
    """JSON text (or UTF-8 bytes) as data, refusing oversized, too deeply nested or invalid text by `field`."""
    if not isinstance(text, str | bytes | bytearray):
        raise _bad(field, "must be text")
    if len(text) > MAX_JSON_BYTES:
        raise _bad(field, f"is larger than {MAX_JSON_BYTES // 1000} kB")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise _bad(field, "is not UTF-8 text") from None
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors save one, is not an error
    _check_depth(text, field)
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except ValueError:
        raise _bad(field, "is not valid JSON") from None


def scenario_from_json(text: str | bytes) -> Scenario:
    """Parse uploaded JSON (size-capped, depth-capped, numbers read as text first) into a checked Scenario."""
    return scenario_from_dict(_parse(text, "file"))


def encode_scenario(scenario: Scenario) -> str:
    """A short URL-safe code for a link: compact JSON, deflated, base64url without padding."""
    raw = json.dumps(scenario_to_dict(scenario), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode_scenario(code: str) -> Scenario:
    """The scenario a link's code carries; malformed, truncated, oversized or hostile codes raise."""
    if not isinstance(code, str) or not code or len(code) > MAX_LINK_CHARS:
        raise _bad("link", "is empty or too long")
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES)
        if inflater.unconsumed_tail or not inflater.eof:
            raise ValueError("truncated or too large")
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise _bad("link", "is damaged or incomplete") from None
    return scenario_from_dict(_parse(text, "link"))
