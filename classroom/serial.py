"""What both backends check and keep the same way: a View as JSON (to and from a dict), and the checks every
write makes on its input before it touches a class (answer length, student id shape, view size).

The JSON is compact, with sorted keys, so the same view is the same text: a backend compares texts to tell
whether the lecturer's view changed (a publish that changes nothing does not grow the version).
"""

from __future__ import annotations

import json
from typing import Any

from classroom.api import Bounds, ClassError, QuestionRef, View
from classroom.codes import is_student_id


def question_to_dict(question: QuestionRef) -> dict[str, Any]:
    """A question reference as plain JSON values."""
    return {
        "gate": question.gate,
        "template_id": question.template_id,
        "seed": question.seed,
        "digest": question.digest,
    }


def question_from_dict(data: Any) -> QuestionRef:
    """The reference question_to_dict wrote; ValueError when `data` is not one."""
    if not isinstance(data, dict) or set(data) != {"gate", "template_id", "seed", "digest"}:
        raise ValueError(f"not a question reference: {data!r:.80}")
    gate, template_id, seed, digest = data["gate"], data["template_id"], data["seed"], data["digest"]
    if not (isinstance(gate, str) and isinstance(template_id, str) and _is_int(seed) and isinstance(digest, str)):
        raise ValueError(f"not a question reference: {data!r:.80}")
    return QuestionRef(gate, template_id, seed, digest)


def view_to_dict(view: View) -> dict[str, Any]:
    """A view as plain JSON values; TypeError when a field has the wrong type (a bug in the caller, not input)."""
    if not isinstance(view, View):
        raise TypeError(f"a View is published, got {type(view).__name__}")
    if not isinstance(view.page, str):
        raise TypeError("View.page is a str")
    if view.step is not None and not _is_int(view.step):
        raise TypeError("View.step is an int or None")
    if view.scenario is not None and not isinstance(view.scenario, str):
        raise TypeError("View.scenario is a str or None")
    question = view.question
    if question is not None and not (
        isinstance(question, QuestionRef)
        and isinstance(question.gate, str)
        and isinstance(question.template_id, str)
        and _is_int(question.seed)
        and isinstance(question.digest, str)
    ):
        raise TypeError("View.question is a QuestionRef (str gate, template id and digest, int seed) or None")
    return {
        "page": view.page,
        "step": view.step,
        "scenario": view.scenario,
        "question": None if question is None else question_to_dict(question),
    }


def view_from_dict(data: Any) -> View:
    """The view view_to_dict wrote; ValueError when `data` is not one."""
    if not isinstance(data, dict) or set(data) != {"page", "step", "scenario", "question"}:
        raise ValueError(f"not a view: {data!r:.80}")
    page, step, scenario, question = data["page"], data["step"], data["scenario"], data["question"]
    if (
        not isinstance(page, str)
        or not (step is None or _is_int(step))
        or not (scenario is None or isinstance(scenario, str))
    ):
        raise ValueError(f"not a view: {data!r:.80}")
    return View(page, step, scenario, None if question is None else question_from_dict(question))


def view_json(view: View, bounds: Bounds) -> str:
    """A view as the stores keep it; ClassError("view_too_large") beyond bounds.view_chars characters."""
    text = json.dumps(view_to_dict(view), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if len(text) > bounds.view_chars:
        raise ClassError("view_too_large", limit=bounds.view_chars, length=len(text))
    return text


def view_from_json(text: str) -> View:
    """The view view_json wrote."""
    return view_from_dict(json.loads(text))


def question_json(question: QuestionRef | None) -> str:
    """A question reference (or none) as the stores keep it, to compare with the current one."""
    return "" if question is None else json.dumps(question_to_dict(question), sort_keys=True, separators=(",", ":"))


def check_answer(answer: object, bounds: Bounds) -> str:
    """An answer's text as kept; ClassError("answer_too_long") beyond bounds.answer_chars characters (or when it
    is no text at all, or text with a lone surrogate, which no store can write as UTF-8: a forged message)."""
    if not isinstance(answer, str) or len(answer) > bounds.answer_chars or not _is_utf8(answer):
        length = len(answer) if isinstance(answer, str) else None
        raise ClassError("answer_too_long", limit=bounds.answer_chars, length=length)
    return answer


def check_detail(detail: object, bounds: Bounds) -> str:
    """A question's detail as kept (text, at most bounds.view_chars characters, UTF-8); ClassError("view_too_large")
    otherwise."""
    if not isinstance(detail, str) or len(detail) > bounds.view_chars or not _is_utf8(detail):
        length = len(detail) if isinstance(detail, str) else None
        raise ClassError("view_too_large", limit=bounds.view_chars, length=length)
    return detail


def check_student(student_id: object) -> str:
    """A student id as kept; ClassError("not_joined") when it is not one the app makes (nobody could have joined
    with it)."""
    if not is_student_id(student_id):
        raise ClassError("not_joined")
    return str(student_id)


def check_round(round_number: object) -> int:
    """A round number as kept; ClassError("round_closed") when it is not an int (no such round is open)."""
    if not _is_int(round_number):
        raise ClassError("round_closed")
    return int(round_number)  # type: ignore[call-overload]


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
