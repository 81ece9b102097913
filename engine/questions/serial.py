"""A question as JSON text and back, equal to the question drawn: what a live class keeps of each question it was
asked, so that its tally can be counted again by any replica, after the lecturer's reload, without the page that
drew it (classroom/api.py, `Asking.detail`).

Every field of a Question is plain (str, int, float, bool, None, nested tuples of them; two enums): JSON keeps each
as it was, but for tuples, which come back as lists and are made tuples again. Floats are written as Python writes
them (shortest repr, the same float back); a non-finite one as JSON's NaN/Infinity extension, which `json` reads.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from engine.questions.core import Kind, OptionKind, Params, Question

_FIELDS = tuple(field.name for field in dataclasses.fields(Question))


def question_json(question: Question) -> str:
    """The question as compact JSON text (its fields by name)."""
    fields = {name: getattr(question, name) for name in _FIELDS}
    fields["params"] = dict(question.params.items())
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def question_from_json(text: str) -> Question:
    """The question `question_json` wrote; ValueError when `text` is not one (kept by another release, say)."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict) or set(fields) != set(_FIELDS) or not isinstance(fields["params"], dict):
            raise ValueError("not a question's fields")
        values = {name: _tuples(value) for name, value in fields.items()}
        values["params"] = Params(values["params"])
        values["kind"] = Kind(values["kind"])
        values["option_kind"] = None if values["option_kind"] is None else OptionKind(values["option_kind"])
        return Question(**values)
    except (ValueError, TypeError) as error:  # json's JSONDecodeError is a ValueError
        raise ValueError(f"not a question: {error}") from None


def _tuples(value: Any) -> Any:
    """JSON's lists as the tuples they were; a dict's values likewise (the params)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {key: _tuples(v) for key, v in value.items()}
    return value
